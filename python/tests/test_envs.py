"""The Gymnasium environments: the checker, registration, seeding, masks,
illegal actions, rendering, and the vector env's API."""

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ginlab
from ginlab.envs import GinEnv, GinVecEnv


def checked(env):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("env_id", ["ginlab/GinRummy-v0", "ginlab/GinRummyGame-v0"])
@pytest.mark.parametrize("full_information", [False, True])
def test_check_env_passes_without_warnings(env_id, full_information):
    env = gymnasium.make(env_id, render_mode="ansi", full_information=full_information)
    checked(env)


@pytest.mark.parametrize("illegal", ["random", "penalty", "raise"])
def test_check_env_with_each_illegal_policy_and_rules(illegal):
    # check_env steps action_space.sample(), which is mostly illegal: under
    # "raise" it must fail, under the others pass.
    env = gymnasium.make("ginlab/GinRummy-v0", rules="oklahoma", opponent="greedy", illegal=illegal)
    if illegal == "raise":
        with pytest.raises(ValueError, match="illegal action|not this decision|not an action"):
            checked(env)
    else:
        checked(env)


def test_make_passes_options_and_the_spec_names_the_env():
    env = gymnasium.make("ginlab/GinRummy-v0", opponent="random", seat=1, rules="hoyle")
    inner = env.unwrapped
    assert isinstance(inner, GinEnv) and isinstance(inner, gymnasium.Env)
    assert (inner.opponent, inner.seat, inner.rules, inner.episode) == ("random", 1, "hoyle", "hand")
    assert gymnasium.make("ginlab/GinRummyGame-v0").unwrapped.episode == "game"
    with pytest.raises(ValueError, match="strategy"):
        gymnasium.make("ginlab/GinRummy-v0", opponent="grandmaster")
    with pytest.raises(ValueError, match="illegal="):
        GinEnv(illegal="ignore")


def test_masks_are_int8_and_match_the_spaces_and_legal_actions():
    env = GinEnv(seed=3)
    obs, info = env.reset()
    rng = random.Random(3)
    for _ in range(200):
        assert obs in env.observation_space
        assert obs["mask"].dtype == np.int8 and info["action_mask"] is obs["mask"]
        legal = env.observation().legal_actions
        assert list(np.flatnonzero(obs["mask"])) == legal
        assert list(np.flatnonzero(env.action_masks())) == legal
        assert env.action_space.sample(mask=obs["mask"]) in legal
        obs, _, terminated, _, info = env.step(rng.choice(legal))
        if terminated:
            obs, info = env.reset()


def test_reset_seeds_np_random_and_the_game():
    a = GinEnv(seed=0)
    b = GinEnv(seed=1)
    oa, _ = a.reset(seed=42)
    ob, _ = b.reset(seed=42)
    assert all((oa[k] == ob[k]).all() for k in oa)
    assert a.np_random.bit_generator.state == b.np_random.bit_generator.state
    # The constructor's seed is the first reset's; later resets deal on.
    first = [GinEnv(seed=7).reset()[0]["cards"] for _ in range(2)]
    assert (first[0] == first[1]).all()
    c = GinEnv(seed=7)
    c.reset()
    assert not (c.reset()[0]["cards"] == first[0]).all()


def play(env, rng, episodes):
    obs, info = env.reset()
    total, steps, ended = 0.0, 0, 0
    while ended < episodes:
        legal = np.flatnonzero(obs["mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        assert not truncated and not info["illegal_action"]
        if terminated:
            ended += 1
            assert info["last_hand"] is not None
            obs, info = env.reset()
    return total, steps


def test_random_play_loses_to_simple_and_hand_rewards_add_up():
    env = GinEnv(opponent="simple", seed=1)
    total, _ = play(env, random.Random(1), 30)
    assert total < 0


def test_game_episodes_add_the_margin():
    env = GinEnv(opponent="random", episode="game", seed=2, full_information=True)
    obs, _ = env.reset()
    rng = random.Random(2)
    total = 0.0
    while True:
        obs, reward, terminated, _, _ = env.step(rng.choice(env.observation().legal_actions))
        total += reward
        if terminated:
            break
    game = env.full_information_game
    scores = game.scores
    assert total == scores[0] - scores[1] + game.game_reward(0)


def test_illegal_action_policies():
    for illegal in ["random", "penalty"]:
        env = GinEnv(seed=5, illegal=illegal, illegal_penalty=2.5)
        obs, _ = env.reset()
        bad = int(np.flatnonzero(obs["mask"] == 0)[0])
        before = env.observation()
        obs, reward, terminated, truncated, info = env.step(bad)
        assert info["illegal_action"]
        if illegal == "penalty":
            assert reward == -2.5 and env.observation() == before and not terminated
        else:
            assert env.observation() != before and (terminated or reward == -2.5)
    env = GinEnv(seed=5, illegal="raise")
    obs, _ = env.reset()
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(obs["mask"] == 0)[0]))
    with pytest.raises(ValueError, match="not an action id"):
        env.step(500)


def test_render_is_the_play_text_of_the_agents_view():
    env = GinEnv(seed=4, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.startswith("Scores: you 0, the opponent 0\n")
    assert "Your hand" in text and "Stock" in text and "upcard" in text.lower()
    assert env.observation().render("the opponent") in text
    for card in env.observation().hand:
        assert card in text
    assert GinEnv(seed=4).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        GinEnv(render_mode="human")


def test_vec_env_follows_the_vector_api():
    envs = gymnasium.make_vec("ginlab/GinRummy-v0", num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, GinVecEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=1)
    assert obs in envs.observation_space
    assert obs["mask"].dtype == np.int8 and obs["mask"].shape == (8, ginlab.ACTIONS)
    envs.action_space.seed(1)
    ended = 0
    for _ in range(300):
        obs, rewards, terminations, truncations, infos = envs.step(envs.action_space.sample())
        assert rewards.shape == (8,) and rewards.dtype == np.float32
        assert not truncations.any()
        assert obs["mask"].any(axis=1).all()  # reset at once: a decision is waiting
        ended += int(terminations.sum())
    assert ended > 8
    again, _ = envs.reset(seed=1)
    first, _ = gymnasium.make_vec(
        "ginlab/GinRummy-v0", num_envs=8, vectorization_mode="vector_entry_point"
    ).reset(seed=1)
    assert all((again[k] == first[k]).all() for k in first)


def test_vec_env_under_record_episode_statistics_cleanrl_style():
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(GinVecEnv(16, opponent="random"))
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = []
    for _ in range(400):
        # A masked uniform policy, written as a CleanRL loop would.
        logits = np.where(obs["mask"] == 1, rng.random(obs["mask"].shape), -np.inf)
        obs, rewards, terminations, truncations, infos = envs.step(logits.argmax(axis=1))
        if "episode" in infos:
            returns += list(infos["episode"]["r"][infos["_episode"]])
    assert len(returns) > 16


def test_vec_env_illegal_policies():
    envs = GinVecEnv(4, seed=2, illegal="raise")
    obs, _ = envs.reset()
    bad = np.array([np.flatnonzero(m == 0)[0] for m in obs["mask"]])
    with pytest.raises(ValueError, match="game 0"):
        envs.step(bad)
    envs = GinVecEnv(4, seed=2, illegal_penalty=3.0)
    obs, _ = envs.reset()
    _, rewards, terminations, _, infos = envs.step(bad)
    assert infos["illegal_action"].all()
    assert (rewards[~terminations] == -3.0).all()
    with pytest.raises(ValueError, match="integer action ids"):
        envs.step(bad[:3])


def test_raw_vec_env_takes_int32_and_lists_and_refuses_huge_n():
    env = ginlab.VecEnv(4, seed=9)
    env.reset()
    a = env.sample_actions()
    env.step(a.astype(np.int32))
    env.step([int(x) for x in env.sample_actions()])
    env.step(env.sample_actions().astype(np.uint16))
    with pytest.raises(ValueError, match="integer"):
        env.step(env.sample_actions().astype(np.float64))
    with pytest.raises(ValueError, match="1-d"):
        env.step(env.sample_actions().reshape(2, 2))
    with pytest.raises(ValueError, match="list of ints"):
        env.step([0.5, 1, 2, 3])
    with pytest.raises(ValueError, match="n = 1099511627776: give 1..="):
        ginlab.VecEnv(2**40)
