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


def play_out(env, rng, totals):
    """Plays one episode of `env` (reset) with agents that knock when they
    can and else act at random; adds each agent's rewards to `totals` and
    returns the agents that acted and the number of steps."""
    acted, steps = set(), 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        assert obs in env.observation_space(agent)
        acted.add(agent)
        legal = list(np.flatnonzero(obs["action_mask"]))
        knocks = [a for a in legal if ginlab.KNOCK <= a < 104 or a == ginlab.BIG_GIN]
        env.step(knocks[0] if knocks else rng.choice(legal))
        steps += 1
    assert env.agents == []
    return acted, steps


def test_agents_alternate_and_rewards_are_zero_sum():
    env = GinAECEnv(episode="hand", seed=2)
    rng = random.Random(2)
    totals = {a: 0.0 for a in env.possible_agents}
    total_steps = 0
    for episode in range(10):
        env.reset(seed=episode)
        _, steps = play_out(env, rng, totals)
        assert steps >= 2
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


@pytest.mark.parametrize("players", [3, 4])
def test_three_player_and_partnership_games_pass_the_api_test(players):
    env = GinAECEnv(players=players, seed=4, render_mode="ansi")
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for note in ["Observation space for each agent probably", "Observation is not a NumPy"]:
            warnings.filterwarnings("ignore", message=note)
        api_test(env, num_cycles=300)
    seed_test(lambda: GinAECEnv(players=players), num_cycles=100)


@pytest.mark.parametrize("players", [3, 4])
def test_multi_player_games_play_to_a_winner_with_zero_sum_rewards(players):
    env = GinAECEnv(players=players, seed=5)
    env.reset(seed=5)
    rng = random.Random(5)
    totals = {a: 0.0 for a in env.possible_agents}
    acted, _ = play_out(env, rng, totals)
    assert acted == set(env.possible_agents)
    assert abs(sum(totals.values())) < 1e-9 and any(totals.values())
    if players == 4:  # partners share every round's score
        assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    with pytest.raises(ValueError, match="players="):
        GinAECEnv(players=5)
    with pytest.raises(ValueError, match="whole game"):
        GinAECEnv(players=3, episode="hand")


def test_multi_game_checks_actions_and_a_dropped_game_stops():
    game = ginlab.MultiGame("partnership", seed=2)
    assert game.players == 4 and game.current_player is not None
    player = game.current_player
    before = game.observation(player)
    illegal = next(a for a in range(ginlab.ACTIONS) if a not in game.legal_actions)
    with pytest.raises(ValueError, match="not legal now"):
        game.step(illegal)
    assert game.observation(player) == before
    with pytest.raises(ValueError, match="format"):
        ginlab.MultiGame("five")
    for seed in range(5):  # each drop ends its worker thread (no hang)
        game = ginlab.MultiGame("three", seed=seed)
        game.step(game.legal_actions[0])
        del game


def play_logged(env, rng):
    """Plays one episode of `env` (reset) at random; returns each step's
    rewards (a dict by agent, in step order) and the end's infos."""
    steps = []
    while not all(env.terminations.values()):
        legal = list(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))
        env.step(rng.choice(legal))
        steps.append(dict(env.rewards))
    return steps, {a: dict(env.infos[a]) for a in env.possible_agents}


# RULES.md: the standard preset's end-of-game bonuses.
GAME_BONUS, BOX_BONUS = 100, 20


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_three_player_rewards_add_up_to_the_score_sheet(seed):
    env = GinAECEnv(players=3, seed=seed)
    env.reset(seed=seed)
    steps, infos = play_logged(env, random.Random(seed))
    agents = env.possible_agents
    game_part = {a: infos[a]["game_reward"] for a in agents}
    # Hand points only: every step's reward, less the final margin at the end.
    hand_steps = steps[:-1] + [{a: steps[-1][a] - game_part[a] for a in agents}]
    points, won = [0, 0, 0], [0, 0, 0]
    for rewards in hand_steps:
        gains = [rewards[a] for a in agents]
        assert sum(gains) == 0 and sorted(gains)[1] == 0  # a hand is between two players
        for i, g in enumerate(gains):
            if g > 0:
                points[i] += g
                won[i] += 1
    sheet = infos[agents[0]]["result"]
    winner = sheet["winner"]
    assert sheet["points"] == points and sheet["hands_won"] == won
    assert points[winner] >= 100 and sum(won) <= sheet["hands"]
    final = [points[i] + BOX_BONUS * won[i] + GAME_BONUS * (i == winner) for i in range(3)]
    assert sheet["final_scores"] == final
    # The final margin: each loser pays the winner the difference.
    for i, a in enumerate(agents):
        expected = (
            sum(final[winner] - f for f in final) if i == winner else final[i] - final[winner]
        )
        assert game_part[a] == expected
        assert sum(r[a] for r in steps) == sum(r[a] for r in hand_steps) + expected
    assert game_part[agents[winner]] > 0 and sum(game_part.values()) == 0


@pytest.mark.parametrize("seed", [6, 7])
def test_partnership_rewards_add_up_to_the_score_sheet(seed):
    env = GinAECEnv(players=4, seed=seed)
    env.reset(seed=seed)
    steps, infos = play_logged(env, random.Random(seed))
    agents = env.possible_agents
    sheet = infos[agents[0]]["result"]
    team_points = [0, 0]
    for rewards in steps[:-1]:
        for team in (0, 1):
            team_points[team] += max(rewards[agents[team]], 0)
            assert rewards[agents[team]] == rewards[agents[team + 2]]
    winner = sheet["winner"]
    margin = sheet["final_scores"][winner] - sheet["final_scores"][1 - winner]
    last = steps[-1][agents[winner]] - margin  # the last round's score
    assert last > 0
    team_points[winner] += last
    # RULES.md gives partnerships no bonuses: the sheet is the team scores.
    assert sheet["final_scores"] == team_points and team_points[winner] >= 125
    for i, a in enumerate(agents):
        sign = 1 if i % 2 == winner else -1
        assert infos[a]["game_reward"] == sign * margin
        assert steps[-1][a] == sign * (last + margin)


def test_two_player_game_rewards_add_the_final_margin():
    env = GinAECEnv(seed=9)
    env.reset(seed=9)
    steps, infos = play_logged(env, random.Random(9))
    result = infos["player_0"]["result"]
    w = result["winner"]
    for i, a in enumerate(env.possible_agents):
        assert infos[a]["game_reward"] == (result["margin"] if i == w else -result["margin"])
    hand = [sum(r[a] for r in steps) - infos[a]["game_reward"] for a in env.possible_agents]
    assert hand[0] == -hand[1]
    assert abs(hand[0]) <= sum(result["final_scores"])


def test_multi_game_result_and_game_reward():
    game = ginlab.MultiGame("three", seed=3)
    assert game.result is None and game.game_reward(0) == 0
    with pytest.raises(ValueError, match="player 3"):
        game.game_reward(3)
    rng = random.Random(3)
    while not game.done:
        game.step(rng.choice(game.legal_actions))
    sheet = game.result
    assert set(sheet) == {"winner", "final_scores", "points", "hands_won", "hands"}
    assert sum(game.game_reward(i) for i in range(3)) == 0
