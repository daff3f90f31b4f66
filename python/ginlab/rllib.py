"""Gin Rummy as an RLlib ``MultiAgentEnv``: self-play training on a Ray
cluster.

``GinMultiAgentEnv(config)`` takes RLlib's ``env_config`` dict::

    {"players": 2, "rules": "standard", "episode": "game", "seed": None,
     "illegal": "random", "illegal_penalty": 1.0}

so ``PPOConfig().environment(GinMultiAgentEnv, env_config={"players": 3})``
builds it on every env runner. Agents are ``"player_0"``, ``"player_1"``,
... (two players; three, the dealer sitting out; four, partnerships 0+2
against 1+3); one acts at a time, and only the agent to act is handed an
observation. The game and its rewards are ``ginlab.envs.Seats``', the same
as ``GinAECEnv``'s: hand points as hands end and, at the end of a game, the
final margin with every end-of-game bonus.

**Observations** use RLlib's action-masking layout (what
``ray.rllib.examples.rl_modules.classes.action_masking_rlm`` reads)::

    {"observations": (374,) float32, "action_mask": (109,) float32 0/1}

the agent's own view flattened as ``ginlab.envs.flat`` (card planes, pile,
scalars) and its legal actions.

**Episodes** end by termination only: the last step gives every agent dealt
in its final observation (mask all zero), its reward and
``terminateds[agent] = True`` with ``terminateds["__all__"] = True``;
``truncateds["__all__"]`` is always False. Each step's rewards name every
agent (0.0 when its score did not change), so RLlib credits a reward that
comes on another agent's turn (a hand the agent lost) to that agent's last
action. The end's infos give the score sheet (``result``) and
``game_reward``.

**Illegal actions** (an id the mask does not allow), by ``illegal``:
``"random"`` (default; RLlib's env checker steps unmasked
``action_space.sample()``) plays a uniformly random legal action from
``np_random`` instead and subtracts ``illegal_penalty`` from the agent's
reward, with ``infos[agent]["illegal_action"] = True``; ``"raise"`` raises
ValueError.

**Seeding**: ``reset(seed=s)`` seeds ``np_random``, which seeds the game;
``reset()`` deals a new game from it; ``config["seed"]`` seeds the first
``reset()`` that gives none.

The env is the dealer: agents are handed observations only, never the
game. Needs the optional extra: ``pip install "./python[rllib]"``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from gymnasium import spaces

from ._ginlab import ACTIONS
from .envs import _SEED_LIMIT, Seats, _check_illegal, _legal_choice, arrays, flat, flat_space

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(
        'ginlab.rllib needs RLlib: pip install "ginlab[rllib]" (or pip install "ray[rllib]")'
    ) from error

CONFIG = {
    "players": 2,
    "rules": "standard",
    "episode": "game",
    "seed": None,
    "illegal": "random",
    "illegal_penalty": 1.0,
}


def observation_space() -> spaces.Dict:
    """One agent's observation space (RLlib's action-masking layout)."""
    view = flat_space()
    return spaces.Dict(
        {
            "observations": spaces.Box(
                view.low.astype(np.float32), view.high.astype(np.float32), dtype=np.float32
            ),
            "action_mask": spaces.Box(0.0, 1.0, shape=(ACTIONS,), dtype=np.float32),
        }
    )


class GinMultiAgentEnv(MultiAgentEnv):
    """Two, three or four Gin Rummy agents as an RLlib ``MultiAgentEnv``
    (see the module doc for the config, observations, rewards and ends)."""

    def __init__(self, config: Optional[Dict[str, Any]] = None) -> None:
        super().__init__()
        config = dict(config or {})
        unknown = sorted(set(config) - set(CONFIG))
        if unknown:
            raise ValueError(f"config keys {unknown}: give only {', '.join(CONFIG)}")
        config = {**CONFIG, **config}
        self.players = config["players"]
        self.rules = config["rules"]
        self.episode = config["episode"]
        self.illegal = _check_illegal(config["illegal"], ("random", "raise"))
        self.illegal_penalty = float(config["illegal_penalty"])
        self._first_seed = config["seed"]
        # Built now so that bad arguments fail here; reseeded by reset().
        self.__seats = Seats(self.players, self.rules, self.episode, 0)
        self._started = False
        self.possible_agents: List[str] = [f"player_{i}" for i in range(self.players)]
        self.agents = list(self.possible_agents)
        space = observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}

    def _observe(self, player: int) -> Optional[Dict[str, np.ndarray]]:
        view = self.__seats.observation(player)
        if view is None:  # not dealt in yet (three players)
            return None
        obs = arrays(view)
        return {
            "observations": flat(obs).astype(np.float32),
            "action_mask": obs["mask"].astype(np.float32),
        }

    def _to_act(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        player = self.__seats.current_player
        agent = self.possible_agents[player]
        return {agent: self._observe(player)}, {}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Deals a new game (``options`` are not used); returns the first
        agent to act's observation."""
        if seed is None and not self._started:
            seed = self._first_seed
        if seed is not None or not self._started:
            super().reset(seed=seed)
            self._started = True
        self.__seats = Seats(
            self.players, self.rules, self.episode, int(self.np_random.integers(_SEED_LIMIT))
        )
        self.agents = list(self.possible_agents)
        return self._to_act()

    def step(self, action_dict: Dict[str, Any]):
        """Plays the action of the agent to act (``action_dict`` must hold
        that agent only); returns (observations, rewards, terminateds,
        truncateds, infos) as RLlib's multi-agent API asks."""
        if not self._started:
            raise RuntimeError("call reset() first")
        player = self.__seats.current_player
        if player is None:
            raise RuntimeError("the episode is over: call reset()")
        agent = self.possible_agents[player]
        if set(action_dict) != {agent}:
            raise ValueError(
                f"actions for {sorted(action_dict)}: give an action for {agent!r} only "
                "(the agent to act, the one observed last)"
            )
        action = int(action_dict[agent])
        mask = self.__seats.observation(player).mask
        illegal = not (0 <= action < ACTIONS and mask[action])
        if illegal and self.illegal == "random":
            action = _legal_choice(self.np_random, mask)
        points, done = self.__seats.step(action)  # "raise": ValueError naming the action
        rewards = dict(zip(self.possible_agents, points))
        infos: Dict[str, Any] = {}
        if illegal:
            rewards[agent] -= self.illegal_penalty
            infos[agent] = {"illegal_action": True}
        if not done:
            obs, _ = self._to_act()
            return obs, rewards, {"__all__": False}, {"__all__": False}, infos
        obs = {}
        for i, a in enumerate(self.possible_agents):
            final = self._observe(i)
            if final is not None:
                obs[a] = final
            infos[a] = {**infos.get(a, {}), **self.__seats.end_info(i)}
        terminateds = {a: True for a in self.possible_agents}
        terminateds["__all__"] = True
        truncateds = {a: False for a in self.possible_agents}
        truncateds["__all__"] = False
        return obs, rewards, terminateds, truncateds, infos


__all__ = ["CONFIG", "GinMultiAgentEnv", "observation_space"]
