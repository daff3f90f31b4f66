"""The per-step environment: legal actions, rewards, episodes, clone."""

import random

import numpy as np
import pytest

import ginlab
from conftest import ELEVEN, advanced, play_random


def test_random_games_end_and_score_zero_sum(preset):
    for seed in range(5):
        game = ginlab.Game(preset, seed=seed)
        totals, steps = play_random(game, random.Random(seed))
        assert steps > 0
        assert totals[0] == -totals[1]
        result = game.result
        assert result is not None
        assert game.scores[result["winner"]] >= max(game.scores[1 - result["winner"]], 1)
        assert game.game_reward(result["winner"]) == result["margin"]
        assert game.game_reward(1 - result["winner"]) == -result["margin"]


def test_eleven_card_deal_and_big_gin_rules_play():
    for seed in range(20):
        game = ginlab.Game(ELEVEN, seed=seed, episode="hand")
        assert game.observation().phase == "end_turn"
        play_random(game, random.Random(seed))
        assert game.last_hand is not None


def test_hand_episode_rewards_match_the_outcome():
    game = ginlab.Game(seed=3, episode="hand")
    rng = random.Random(3)
    for _ in range(30):
        totals, _ = play_random(game, rng)
        hand = game.last_hand
        if hand["winner"] is None:
            assert totals == [0, 0]
        else:
            assert totals[hand["winner"]] == hand["points"] > 0
            assert totals[1 - hand["winner"]] == -hand["points"]
        game.reset()


def test_mask_and_legal_actions_agree():
    game = ginlab.Game(seed=11)
    rng = random.Random(11)
    for _ in range(300):
        if game.done:
            break
        legal = game.legal_actions
        assert list(np.flatnonzero(game.mask)) == legal
        obs = game.observation()
        assert obs.legal_actions == legal
        assert list(np.flatnonzero(obs.arrays()["mask"])) == legal
        game.step(rng.choice(legal))


def test_illegal_action_is_refused_and_changes_nothing():
    game = ginlab.Game(seed=2)
    before = game.observation()
    legal = set(game.legal_actions)
    illegal = next(a for a in range(ginlab.ACTIONS) if a not in legal)
    with pytest.raises(ValueError, match="illegal action|not this decision"):
        game.step(illegal)
    with pytest.raises(ValueError, match="not an action id"):
        game.step(500)
    assert game.observation() == before


def test_bad_arguments_name_what_is_allowed():
    with pytest.raises(ValueError, match="preset"):
        ginlab.Game("nonsense")
    with pytest.raises(ValueError, match="episode"):
        ginlab.Game(episode="match")
    with pytest.raises(ValueError, match="seat"):
        ginlab.Game(seat=2)
    with pytest.raises(ValueError, match="deck"):
        ginlab.Game(deck="AS AS")
    with pytest.raises(ValueError, match="strategy"):
        ginlab.Game(opponent="grandmaster")
    with pytest.raises(ValueError, match="external bots"):
        ginlab.Game(opponent="exec:python3 bot.py")


def test_same_seed_same_game():
    def trace(seed):
        game = ginlab.Game(seed=seed)
        rng = random.Random(0)
        out = []
        while not game.done:
            obs = game.observation()
            out.append(obs.to_dict())
            game.step(rng.choice(obs.legal_actions))
        return out

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


def test_clone_is_independent_and_replays_identically():
    game = advanced(9, 15)
    copy = game.clone()
    snapshot = game.observation()
    actions = []
    rng = random.Random(2)
    while not copy.done and len(actions) < 200:
        a = rng.choice(copy.legal_actions)
        actions.append(a)
        copy.step(a)
    assert game.observation() == snapshot
    for a in actions:
        game.step(a)
    assert game.scores == copy.scores
    assert game.done == copy.done


def test_opponent_plays_inside_step():
    game = ginlab.Game(seed=4, opponent="greedy", seat=1, episode="game")
    rng = random.Random(4)
    while not game.done:
        assert game.current_player == 1
        game.step(rng.choice(game.legal_actions))
    assert game.result["winner"] in (0, 1)


def test_arrays_encode_the_view():
    game = advanced(21, 40)
    obs = game.observation()
    d, a = obs.to_dict(), obs.arrays()
    assert a["cards"].shape == (6, 52) and a["cards"].dtype == np.uint8
    assert sorted(ginlab.card_name(i) for i in np.flatnonzero(a["cards"][0])) == sorted(d["hand"])
    pile = [ginlab.card_name(i) for i in a["pile"] if i >= 0]
    assert pile == d["pile"]
    assert a["scalars"][1] == d["stock_size"]
    assert a["scalars"][2] == len(d["pile"])
    assert ginlab.PHASES[a["scalars"][0]] == d["phase"]
    assert sorted(ginlab.card_name(i) for i in np.flatnonzero(a["cards"][1])) == sorted(
        d["opponent_known"]
    )


def test_card_names_round_trip():
    for i in range(52):
        assert ginlab.card_id(ginlab.card_name(i)) == i
    with pytest.raises(ValueError, match="rank"):
        ginlab.card_id("1X")
