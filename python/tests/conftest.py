"""Shared helpers for the ginlab Python tests."""

import random

import pytest

import ginlab


def play_random(game, rng, limit=100_000):
    """Plays uniformly random legal actions until the episode ends; returns
    the summed rewards by seat and the number of steps."""
    totals = [0, 0]
    steps = 0
    while not game.done:
        rewards, _ = game.step(rng.choice(game.legal_actions))
        totals[0] += rewards[0]
        totals[1] += rewards[1]
        steps += 1
        assert steps < limit
    return totals, steps


def advanced(seed, steps):
    """A game of `seed` after `steps` random legal actions."""
    game = ginlab.Game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.step(rng.choice(game.legal_actions))
    return game


@pytest.fixture
def rng():
    return random.Random(7)


PRESETS = ["standard", "hoyle", "oklahoma", "eaai"]
ELEVEN = "preset = \"standard\"\ndeal = \"eleven_cards\"\nbig_gin_bonus = 31\nlast_discard_action = true\n"


@pytest.fixture(params=PRESETS)
def preset(request):
    return request.param


__all__ = ["ginlab", "advanced", "play_random", "PRESETS", "ELEVEN"]
