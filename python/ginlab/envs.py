"""Gymnasium-style and PettingZoo AEC-style environments over ``Game``.

They follow those APIs' conventions (``reset``/``step`` returning
``(obs, reward, terminated, truncated, info)``; ``agent_selection``,
``last()``, ``observe(agent)``), without depending on either package: when
Gymnasium is installed, ``GinEnv.action_space`` and ``observation_space``
are its spaces; otherwise they are None.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ._ginlab import ACTIONS, Game, Observation

try:  # Spaces only if Gymnasium is there: it is not a dependency.
    from gymnasium import spaces as _spaces
except ImportError:  # pragma: no cover - depends on the machine
    _spaces = None


def _spaces_or_none():
    if _spaces is None:
        return None, None
    observation = _spaces.Dict(
        {
            "cards": _spaces.Box(0, 1, shape=(6, 52), dtype=np.uint8),
            "pile": _spaces.Box(-1, 51, shape=(52,), dtype=np.int8),
            "scalars": _spaces.Box(-(2**31), 2**31 - 1, shape=(10,), dtype=np.int32),
            "mask": _spaces.MultiBinary(ACTIONS),
        }
    )
    return _spaces.Discrete(ACTIONS), observation


def _arrays(obs: Observation) -> Dict[str, np.ndarray]:
    return obs.arrays()


class GinEnv:
    """One agent against a built-in strategy (Gymnasium conventions).

    ``GinEnv(opponent="simple", rules="standard", episode="hand", seat=0,
    seed=0)``. Observations are ``Observation.arrays()`` dicts (their
    ``mask`` lists the legal actions; ``info["action_mask"]`` too). The
    reward is the agent's hand points won (+) or lost (-) in hands that
    ended during the step; with ``episode="game"`` the game's final margin
    is added when the game ends.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        opponent: str = "simple",
        rules: str = "standard",
        episode: str = "hand",
        seat: int = 0,
        seed: int = 0,
    ) -> None:
        self.opponent = opponent
        self.rules = rules
        self.episode = episode
        self.seat = seat
        self._seed = seed
        self.action_space, self.observation_space = _spaces_or_none()
        self.game: Optional[Game] = None

    def _obs_info(self) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        assert self.game is not None
        obs = self.game.observation(self.seat)
        arrays = _arrays(obs)
        return arrays, {"action_mask": arrays["mask"], "observation": obs}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Starts an episode; ``seed`` starts a new generator."""
        if seed is not None or self.game is None:
            if seed is not None:
                self._seed = seed
            self.game = Game(
                self.rules, self._seed, self.episode, opponent=self.opponent, seat=self.seat
            )
        else:
            self.game.reset()
        while self.game.done:  # the opponent ended it before our decision
            self.game.reset()
        return self._obs_info()

    def step(self, action: int) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` (a legal id); returns (obs, reward, terminated,
        truncated, info). Raises ValueError for an illegal action."""
        if self.game is None:
            raise RuntimeError("call reset() first")
        rewards, done = self.game.step(int(action))
        reward = float(rewards[self.seat])
        if done and self.episode == "game":
            reward += float(self.game.game_reward(self.seat))
        if done:
            obs = self.game.observation(self.seat)
            arrays = _arrays(obs)
            info = {"action_mask": arrays["mask"], "observation": obs}
        else:
            arrays, info = self._obs_info()
        info["last_hand"] = self.game.last_hand if self.game.hand_over else None
        return arrays, reward, done, False, info

    def close(self) -> None:
        self.game = None


class GinAECEnv:
    """Two agents, one acting at a time (PettingZoo AEC conventions).

    Agents are ``"player_0"`` and ``"player_1"`` (seats 0 and 1).
    ``observe(agent)`` gives ``{"observation": arrays, "action_mask": mask}``;
    ``last()`` gives the selected agent's (observation, cumulative reward,
    termination, truncation, info). Rewards are hand points won or lost.
    """

    metadata: Dict[str, Any] = {"render_modes": [], "name": "ginlab_gin_rummy_v0"}
    possible_agents = ["player_0", "player_1"]

    def __init__(self, rules: str = "standard", episode: str = "game", seed: int = 0) -> None:
        self.rules = rules
        self.episode = episode
        self._seed = seed
        self._action_space, self._observation_space = _spaces_or_none()
        self.game: Optional[Game] = None
        self.agents: list = []

    def action_space(self, agent: str):
        return self._action_space

    def observation_space(self, agent: str):
        return self._observation_space

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._seed = seed
        self.game = Game(self.rules, self._seed, self.episode)
        self._seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.game is not None
        arrays = _arrays(self.game.observation(self.possible_agents.index(agent)))
        return {"observation": arrays, "action_mask": arrays["mask"]}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Optional[int]) -> None:
        assert self.game is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # AEC convention: a finished agent steps with None and leaves.
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[agent] = 0.0
        rewards, done = self.game.step(int(action))
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(rewards[i])
            self._cumulative_rewards[a] += float(rewards[i])
        if done:
            for a in self.possible_agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
