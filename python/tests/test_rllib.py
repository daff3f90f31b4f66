"""ginlab.rllib (issue 34 item 5): the RLlib MultiAgentEnv, checked by
RLlib's own env checker, played at random here and through a local Ray
instance. Skipped when RLlib is not installed (the optional extra
``ginlab[rllib]``)."""

import random
import sys

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
import ray  # noqa: E402
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from ginlab import BIG_GIN, DRAW_STOCK, KNOCK  # noqa: E402
from ginlab.rllib import GinMultiAgentEnv  # noqa: E402

PLAYERS = [2, 3, 4]


@pytest.mark.parametrize("players", PLAYERS)
def test_rllib_env_checker_passes(players):
    env = GinMultiAgentEnv({"players": players, "seed": 1})
    assert isinstance(env, MultiAgentEnv)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    check_multiagent_environments(env)
    assert env.get_observation_space("player_0")["action_mask"].shape == (109,)


def rollout(env, seed, episode=None):
    """One episode of masked play (a knock when one is legal, else a
    random legal action); checks every step against the multi-agent API
    and returns each agent's total reward, the steps and the end's infos."""
    rng = random.Random(seed)
    obs, infos = env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    if episode is not None:
        episode.add_env_reset(observations=obs, infos=infos)
    while True:
        (agent,) = obs  # only the agent to act is observed
        assert obs[agent] in env.get_observation_space(agent)
        legal = np.flatnonzero(obs[agent]["action_mask"])
        assert len(legal) > 0
        knocks = [a for a in legal if KNOCK <= a < DRAW_STOCK or a == BIG_GIN]
        actions = {agent: int(knocks[0] if knocks else rng.choice(list(legal)))}
        obs, rewards, terminateds, truncateds, infos = env.step(actions)
        steps += 1
        assert set(rewards) == set(env.possible_agents)
        for a, r in rewards.items():
            totals[a] += r
        assert truncateds["__all__"] is False
        if episode is not None:
            episode.add_env_step(
                obs, actions, rewards, infos, terminateds=terminateds, truncateds=truncateds
            )
        if terminateds["__all__"]:
            assert all(terminateds[a] for a in env.possible_agents)
            for a, final in obs.items():
                assert not final["action_mask"].any() and final in env.get_observation_space(a)
            assert all(infos[a] for a in env.possible_agents)
            return totals, steps, infos
        assert terminateds == {"__all__": False}


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_are_zero_sum_and_end_with_the_margin(players):
    env = GinMultiAgentEnv({"players": players})
    for seed in range(2):
        totals, steps, infos = rollout(env, seed, MultiAgentEpisode())
        assert steps > 10
        assert abs(sum(totals.values())) < 1e-9 and any(totals.values())
        winner = infos["player_0"]["result"]["winner"]
        side = (lambda i: i % 2) if players == 4 else (lambda i: i)
        for i, a in enumerate(env.possible_agents):
            assert (infos[a]["game_reward"] > 0) == (side(i) == winner)


def test_same_seed_same_game_and_hand_episodes():
    a = rollout(GinMultiAgentEnv({"players": 3}), 5)
    b = rollout(GinMultiAgentEnv({"players": 3}), 5)
    assert a[:2] == b[:2]
    env = GinMultiAgentEnv({"episode": "hand", "seed": 3})
    totals, _, infos = rollout(env, 3)
    assert totals["player_0"] == -totals["player_1"]
    assert "last_hand" in infos["player_0"] and "game_reward" not in infos["player_0"]


def test_illegal_actions_and_bad_config():
    env = GinMultiAgentEnv({"seed": 2, "illegal_penalty": 2.5})
    obs, _ = env.reset()
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _, rewards, _, _, infos = env.step({agent: illegal})
    assert infos[agent]["illegal_action"] is True and rewards[agent] <= -2.5
    strict = GinMultiAgentEnv({"seed": 2, "illegal": "raise"})
    obs, _ = strict.reset()
    with pytest.raises(ValueError, match="illegal action"):
        strict.step({agent: illegal})
    obs, _ = strict.reset()
    (agent,) = obs
    other = next(a for a in strict.possible_agents if a != agent)
    with pytest.raises(ValueError, match="only"):
        strict.step({other: 0})
    with pytest.raises(ValueError, match="config keys"):
        GinMultiAgentEnv({"player": 3})
    with pytest.raises(ValueError, match="players="):
        GinMultiAgentEnv({"players": 5})
    with pytest.raises(ValueError, match="illegal="):
        GinMultiAgentEnv({"illegal": "penalty"})


@pytest.fixture(scope="module")
def local_ray():
    # The tasks below run this module's functions: send them by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_random_rollouts_through_ray_tasks(local_ray):
    @ray.remote
    def play(players, seed):
        totals, steps, _ = rollout(GinMultiAgentEnv({"players": players}), seed)
        return totals, steps

    jobs = {(p, s): play.remote(p, s) for p in PLAYERS for s in range(2)}
    for (players, seed), job in jobs.items():
        assert ray.get(job) == rollout(GinMultiAgentEnv({"players": players}), seed)[:2]
