"""The vectorised environment: reproducible, auto-reset, checked actions."""

import numpy as np
import pytest

import ginlab


def rollout(env, steps, seed):
    rng = np.random.default_rng(seed)
    obs = env.reset()
    trace = []
    for _ in range(steps):
        scores = rng.random(obs["mask"].shape) * obs["mask"]
        actions = scores.argmax(axis=1).astype(np.int64)
        obs, rewards, dones = env.step(actions)
        trace.append((obs["cards"].copy(), rewards.copy(), dones.copy()))
    return trace


def test_same_seed_same_rollout_and_game_i_does_not_depend_on_n():
    one = rollout(ginlab.VecEnv(8, seed=3), 200, 0)
    two = rollout(ginlab.VecEnv(8, seed=3), 200, 0)
    for (c1, r1, d1), (c2, r2, d2) in zip(one, two):
        assert (c1 == c2).all() and (r1 == r2).all() and (d1 == d2).all()
    # Game 0 of a larger env deals the same first hand.
    small = ginlab.VecEnv(2, seed=3).reset()
    large = ginlab.VecEnv(16, seed=3).reset()
    assert (small["cards"][:2] == large["cards"][:2]).all()
    other = ginlab.VecEnv(2, seed=4).reset()
    assert not (small["cards"] == other["cards"]).all()


def test_episodes_end_reset_and_rewards_are_zero_sum():
    env = ginlab.VecEnv(32, seed=1)
    obs = env.reset()
    ended = 0
    for _ in range(400):
        obs, rewards, dones = env.step(env.sample_actions())
        assert (rewards.sum(axis=1) == 0).all()
        assert (rewards[~dones] == 0).all()
        ended += int(dones.sum())
        assert obs["mask"].any(axis=1).all()
        assert (obs["to_act"] >= 0).all()
    assert ended > 32


def test_sampled_actions_are_legal_and_seeded():
    env = ginlab.VecEnv(64, seed=5)
    obs = env.reset()
    a = env.sample_actions()
    assert obs["mask"][np.arange(64), a].all()
    assert (ginlab.VecEnv(64, seed=5).sample_actions() == a).all()


def test_an_illegal_action_steps_no_game():
    env = ginlab.VecEnv(4, seed=2)
    obs = env.reset()
    actions = env.sample_actions()
    bad = actions.copy()
    bad[2] = np.flatnonzero(~obs["mask"][2])[0]
    with pytest.raises(ValueError, match="game 2"):
        env.step(bad)
    assert (env.observe()["cards"] == obs["cards"]).all()
    with pytest.raises(ValueError, match="one action id per game"):
        env.step(actions[:3])
    env.step(actions)


def test_against_an_opponent_only_the_agent_acts():
    env = ginlab.VecEnv(16, seed=8, opponent="simple", seat=1)
    obs = env.reset()
    for _ in range(300):
        assert (obs["to_act"] == 1).all()
        obs, rewards, dones = env.step(env.sample_actions())
        assert (rewards[:, 0] == -rewards[:, 1]).all()


def test_game_episodes():
    env = ginlab.VecEnv(4, seed=6, episode="game", opponent="greedy")
    env.reset()
    hands_ended = games_ended = 0
    for _ in range(2000):
        _, rewards, dones = env.step(env.sample_actions())
        hands_ended += int((rewards != 0).any(axis=1).sum())
        games_ended += int(dones.sum())
    assert hands_ended > games_ended > 0


def test_a_game_episode_ends_with_the_final_margin():
    # Under eaai (no game or box bonus) a game's margin is the difference of
    # the final scores. The last hand's points p go to the winner w, so the
    # done step gives w p + (s_w + p - s_l), where s are the scores before
    # that hand (the observations show them), and s_w + p reaches 100.
    # (Two random seats rarely end a game: greedy plays the other one.)
    env = ginlab.VecEnv(1, seed=11, episode="game", rules="eaai", opponent="greedy")
    obs = env.reset()
    games = 0
    for _ in range(20000):
        seat, own, other = (int(obs["scalars"][0][i]) for i in (9, 3, 4))
        scores = [own, other] if seat == 0 else [other, own]
        obs, rewards, dones = env.step(env.sample_actions())
        r = [int(x) for x in rewards[0]]
        assert r[0] == -r[1]
        if dones[0]:
            w = 0 if r[0] > 0 else 1
            twice_points = r[w] - scores[w] + scores[1 - w]
            assert twice_points > 0 and twice_points % 2 == 0, (r, scores)
            assert scores[w] + twice_points // 2 >= 100, (r, scores)
            games += 1
            if games == 5:
                break
    assert games == 5
