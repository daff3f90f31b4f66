"""The PettingZoo AEC environment: the API test, the seed test, play."""

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import ginlab  # noqa: E402
from ginlab.envs import GinAECEnv  # noqa: E402


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_api_test_passes_without_warnings(episode):
    env = GinAECEnv(episode=episode, seed=1, render_mode="ansi")
    assert isinstance(env, pettingzoo.AECEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Every env whose observation is the documented {"observation",
        # "action_mask"} dict gets these two notes unless api_test lists it
        # by name (PettingZoo's own card games are listed); any other
        # warning fails the test.
        for note in ["Observation space for each agent probably", "Observation is not a NumPy"]:
            warnings.filterwarnings("ignore", message=note)
        api_test(env, num_cycles=300)


def test_seed_test_passes():
    seed_test(lambda: GinAECEnv(episode="hand"), num_cycles=200)


def test_agents_alternate_and_rewards_are_zero_sum():
    env = GinAECEnv(episode="hand", seed=2)
    rng = random.Random(2)
    totals = {a: 0.0 for a in env.possible_agents}
    total_steps = 0
    for episode in range(10):
        env.reset(seed=episode)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            assert obs["action_mask"].dtype == np.int8
            assert obs in env.observation_space(agent)
            legal = list(np.flatnonzero(obs["action_mask"]))
            knocks = [a for a in legal if ginlab.KNOCK <= a <= ginlab.BIG_GIN and a != 104]
            knocks = [a for a in knocks if a < 104 or a == ginlab.BIG_GIN]
            env.step(knocks[0] if knocks else rng.choice(legal))
            steps += 1
        assert steps >= 2 and env.agents == []
        total_steps += steps
    assert total_steps > 40
    assert totals["player_0"] == -totals["player_1"] != 0


def test_full_information_is_named_and_off_by_default():
    env = GinAECEnv(seed=3)
    env.reset()
    with pytest.raises(NotImplementedError, match="full_information"):
        env.state()
    with pytest.raises(AttributeError, match="fair"):
        env.full_information_game
    full = GinAECEnv(seed=3, full_information=True)
    full.reset()
    assert full.state().shape == (2, 6, 52)
    assert isinstance(full.full_information_game, ginlab.Game)
    assert GinAECEnv(render_mode="ansi").render() is None
