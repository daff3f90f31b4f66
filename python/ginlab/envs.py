"""Gymnasium and PettingZoo environments over ginlab's engine.

- ``GinEnv``: a ``gymnasium.Env``, one agent against a built-in strategy.
  Registered as ``ginlab/GinRummy-v0`` (one hand per episode) and
  ``ginlab/GinRummyGame-v0`` (a game to the target per episode), so
  ``gymnasium.make("ginlab/GinRummy-v0", opponent="mc", rules="oklahoma")``
  works once ``ginlab`` is imported (or as ``"ginlab:ginlab/GinRummy-v0"``).
- ``GinVecEnv``: a ``gymnasium.vector.VectorEnv`` over the Rust ``VecEnv``
  (``gymnasium.make_vec("ginlab/GinRummy-v0", num_envs=64)``), autoreset
  mode ``SAME_STEP``.
- ``GinAECEnv``: a ``pettingzoo.AECEnv``, two agents (needs the
  ``pettingzoo`` extra: ``pip install ginlab[pettingzoo]``).

**Observations** are dicts of fixed-size arrays (``Observation.arrays()``):
``cards`` (6, 52) uint8 planes (own hand, opponent known, pile, pile top,
taken from pile, upcard), ``pile`` (52,) int8 card ids bottom first padded
with -1, ``scalars`` (10,) int32 (phase id, stock size, pile size, own
score, opponent score, turn, knock limit, dealing, opponent's card count,
seat) and ``mask`` (109,) int8, the legal actions (also
``info["action_mask"]`` and ``env.action_masks()``, as sb3-contrib's
MaskablePPO asks).

**Illegal actions** (an id the mask does not allow), by ``illegal=``:
``"random"`` (the default) plays a uniformly random legal action instead,
drawn from ``np_random``; ``"penalty"`` leaves the game as it was; both
subtract ``illegal_penalty`` (default 1.0) from the reward and set
``info["illegal_action"]``; ``"raise"`` raises ValueError.

**Fair by default**: a ``GinEnv`` plays through an ``AgentGame``, which
answers for the agent's seat only, so nothing the agent is handed (the env,
its observations, infos, render) reaches a hidden card. For research that
needs the whole game (oracle critics, search), ``full_information=True``
keeps it as ``env.full_information_game`` (a ``Game``: both seats'
observations, ``clone()``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._ginlab import ACTIONS, AgentGame, Game, MultiGame, Observation, VecEnv

ILLEGAL = ("random", "penalty", "raise")
OPPONENT_NAME = "the opponent"
_SEED_LIMIT = 2**63


def observation_space() -> spaces.Dict:
    """The observation space of one seat (see the module doc)."""
    big = 2**31 - 1
    high = np.array([4, 52, 52, big, big, big, 255, 1, 11, 1], dtype=np.int32)
    return spaces.Dict(
        {
            "cards": spaces.Box(0, 1, shape=(6, 52), dtype=np.uint8),
            "pile": spaces.Box(-1, 51, shape=(52,), dtype=np.int8),
            "scalars": spaces.Box(np.zeros(10, dtype=np.int32), high, dtype=np.int32),
            "mask": spaces.MultiBinary(ACTIONS),
        }
    )


FLAT = 6 * 52 + 52 + 10


def flat_space() -> spaces.Box:
    """The space of ``flat()``: cards, pile and scalars in one int32 vector."""
    parts = observation_space()
    low = np.concatenate([np.zeros(6 * 52), np.full(52, -1), parts["scalars"].low])
    high = np.concatenate([np.ones(6 * 52), np.full(52, 51), parts["scalars"].high])
    return spaces.Box(low.astype(np.int32), high.astype(np.int32), dtype=np.int32)


def flat(obs: Dict[str, np.ndarray]) -> np.ndarray:
    """An ``arrays()`` dict as one (374,) int32 vector: the card planes
    (6 x 52, plane-major), the pile (52) and the scalars (10)."""
    return np.concatenate([obs["cards"].ravel(), obs["pile"], obs["scalars"]], dtype=np.int32)


def arrays(obs: Observation) -> Dict[str, np.ndarray]:
    """``obs.arrays()`` with the mask as int8 (as ``MultiBinary`` holds it)."""
    out = obs.arrays()
    out["mask"] = out["mask"].view(np.int8)
    return out


def _check_illegal(illegal: str, allowed=ILLEGAL) -> str:
    if illegal not in allowed:
        raise ValueError(f"illegal={illegal!r}: give one of {', '.join(map(repr, allowed))}")
    return illegal


def _legal_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


class GinEnv(gymnasium.Env):
    """One agent against a built-in strategy, as a ``gymnasium.Env``.

    ``GinEnv(opponent="simple", rules="standard", episode="hand", seat=0,
    seed=None, illegal="random", illegal_penalty=1.0, render_mode=None,
    full_information=False)``. The reward is the agent's hand points won
    (+) or lost (-) in hands that ended during the step; with
    ``episode="game"`` the game's final margin is added when the game ends.
    Episodes always end by termination (a hand or a game is over), never by
    truncation. ``seed`` seeds the first ``reset()`` that gives none;
    ``reset(seed=s)`` reseeds ``np_random``, which seeds the game.
    ``render_mode="ansi"``: ``render()`` returns the text ``ginlab play``
    shows before a decision.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        opponent: str = "simple",
        rules: str = "standard",
        episode: str = "hand",
        seat: int = 0,
        seed: Optional[int] = None,
        illegal: str = "random",
        illegal_penalty: float = 1.0,
        render_mode: Optional[str] = None,
        full_information: bool = False,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: give None or 'ansi'")
        self.opponent = opponent
        self.rules = rules
        self.episode = episode
        self.seat = seat
        self.illegal = _check_illegal(illegal)
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.full_information = full_information
        self._first_seed = seed
        self.action_space = spaces.Discrete(ACTIONS)
        self.observation_space = observation_space()
        # Built now so that bad arguments fail here; reseeded by reset().
        self._play = self._new_game(0)
        self._started = False

    def _new_game(self, seed: int, deck: Optional[str] = None, dealer: Optional[int] = None):
        if self.full_information:
            return Game(
                self.rules, seed, self.episode, self.opponent, self.seat, deck=deck, dealer=dealer
            )
        return AgentGame(self.rules, seed, self.episode, self.opponent, self.seat, deck, dealer)

    @property
    def full_information_game(self) -> Game:
        """The whole game, hidden cards included (only with
        ``full_information=True``)."""
        if not self.full_information:
            raise AttributeError(
                "full_information_game: this env is fair (the agent sees its own view only); "
                "make it with full_information=True for the whole game"
            )
        return self._play

    def observation(self) -> Observation:
        """The agent's current ``Observation`` (its own view)."""
        if self.full_information:
            return self._play.observation(self.seat)
        return self._play.observation()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool mask (sb3-contrib's MaskablePPO)."""
        return self.observation().mask

    def _obs_info(self) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        obs = arrays(self.observation())
        return obs, {"action_mask": obs["mask"]}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Starts an episode. A ``seed`` (or the constructor's, the first
        time) reseeds ``np_random`` and deals a game seeded from it;
        otherwise the game deals its next episode. ``options`` may give the
        first hand's ``deck`` (52 card names, top first) and ``dealer``
        (0 or 1), as ``Game`` takes them."""
        options = dict(options or {})
        unknown = sorted(set(options) - {"deck", "dealer"})
        if unknown:
            raise ValueError(f"options {unknown}: give only 'deck' and 'dealer'")
        if seed is None and not self._started:
            seed = self._first_seed
        if seed is not None or not self._started:
            super().reset(seed=seed)
        if seed is not None or not self._started or options:
            self._play = self._new_game(
                int(self.np_random.integers(_SEED_LIMIT)), options.get("deck"), options.get("dealer")
            )
            self._started = True
        else:
            self._play.reset()
        while self._play.done:  # the opponent ended it before our decision
            self._play.reset()
        return self._obs_info()

    def step(self, action) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` (an id 0..108); returns (obs, reward,
        terminated, truncated, info). An illegal id is handled by the
        ``illegal`` policy (see the class doc)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        if self._play.done:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        mask = self._play.mask
        reward = 0.0
        illegal = not (0 <= action < ACTIONS and mask[action])
        if illegal:
            if self.illegal == "raise":
                self._play.step(action)  # raises ValueError naming the action
            reward -= self.illegal_penalty
            if self.illegal == "penalty":
                obs, info = self._obs_info()
                info["illegal_action"] = True
                return obs, reward, False, False, info
            action = _legal_choice(self.np_random, mask)
        rewards, done = self._play.step(action)
        reward += float(rewards[self.seat])
        if done and self.episode == "game":
            reward += float(self._game_reward())
        obs, info = self._obs_info()
        info["illegal_action"] = illegal
        if self._play.hand_over:
            info["last_hand"] = self._play.last_hand
        return obs, reward, done, False, info

    def _game_reward(self) -> int:
        if self.full_information:
            return self._play.game_reward(self.seat)
        return self._play.game_reward()

    def render(self) -> Optional[str]:
        """The agent's view as ``ginlab play`` shows it (``"ansi"``)."""
        if self.render_mode != "ansi":
            return None
        scores = self._play.scores
        head = f"Scores: you {scores[self.seat]}, {OPPONENT_NAME} {scores[1 - self.seat]}\n"
        return head + self.observation().render(OPPONENT_NAME)

    def close(self) -> None:
        pass


class GinVecEnv(VectorEnv):
    """``num_envs`` games against a built-in strategy, stepped together in
    Rust, as a ``gymnasium.vector.VectorEnv``.

    Autoreset mode ``SAME_STEP``: a game whose episode ends in a step is
    dealt again at once, and the step returns its reward and
    ``terminations[i] = True`` with the new episode's first observation.
    Episodes end by termination only (``truncations`` is all False), so no
    value bootstrap needs the final observation, which is not returned.
    ``actions`` may be int64 or int32 arrays or lists; illegal ids follow
    ``illegal`` ("random": a random legal action instead, minus
    ``illegal_penalty``; "raise": ValueError, no game stepped). Game ``i``
    of seed ``s`` deals the same cards for every ``num_envs``.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        opponent: str = "simple",
        rules: str = "standard",
        episode: str = "hand",
        seat: int = 0,
        seed: Optional[int] = None,
        illegal: str = "random",
        illegal_penalty: float = 1.0,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"render_mode={render_mode!r}: GinVecEnv does not render")
        self.num_envs = int(num_envs)
        self.opponent = opponent
        self.rules = rules
        self.episode = episode
        self.seat = seat
        self.illegal = _check_illegal(illegal, ("random", "raise"))
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = None
        self._first_seed = seed
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._env = self._new_env(0)
        self._started = False
        self._obs: Optional[Dict[str, np.ndarray]] = None

    def _new_env(self, seed: int) -> VecEnv:
        return VecEnv(
            self.num_envs, self.rules, seed, self.episode, opponent=self.opponent, seat=self.seat
        )

    def _convert(self, raw: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        self._raw_mask = raw["mask"]
        return {
            "cards": raw["cards"],
            "pile": raw["pile"],
            "scalars": raw["scalars"],
            "mask": raw["mask"].view(np.int8),
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions, (num_envs, 109) bool."""
        return self._raw_mask

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Starts an episode in every game; a ``seed`` (an int) reseeds."""
        if seed is None and not self._started:
            seed = self._first_seed
        if isinstance(seed, (list, tuple)):
            raise ValueError("seed: give one int (game i is seeded from it and i)")
        if seed is not None or not self._started:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
            self._env = self._new_env(int(self.np_random.integers(_SEED_LIMIT)))
            self._started = True
            raw = self._env.observe()
        else:
            raw = self._env.reset()
        return self._convert(raw), {}

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions: shape {actions.shape}, dtype {actions.dtype}: "
                f"give ({self.num_envs},) integer action ids"
            )
        mask = self._raw_mask
        inside = (actions >= 0) & (actions < ACTIONS)
        legal = inside.copy()
        legal[inside] = mask[np.flatnonzero(inside), actions[inside]]
        penalty = np.zeros(self.num_envs, dtype=np.float32)
        if not legal.all() and self.illegal == "random":
            actions = np.where(legal, actions, self._env.sample_actions())
            penalty[~legal] = self.illegal_penalty
        raw, rewards, dones = self._env.step(actions)
        reward = rewards[:, self.seat].astype(np.float32) - penalty
        obs = self._convert(raw)
        infos: Dict[str, Any] = {}
        if not legal.all():
            infos = {"illegal_action": ~legal, "_illegal_action": np.ones(self.num_envs, bool)}
        return obs, reward, dones, np.zeros(self.num_envs, dtype=bool), infos

    def close_extras(self, **kwargs: Any) -> None:
        pass


def _register() -> None:
    ids = {"ginlab/GinRummy-v0": "hand", "ginlab/GinRummyGame-v0": "game"}
    for env_id, episode in ids.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="ginlab.envs:GinEnv",
            vector_entry_point="ginlab.envs:GinVecEnv",
            kwargs={"episode": episode},
        )


_register()


class Seats:
    """The game behind the multi-agent environments (``GinAECEnv`` and
    ``ginlab.rllib.GinMultiAgentEnv``): every seat an agent, one acting at
    a time, and one reward definition for both.

    ``Seats(players=2, rules="standard", episode="game", seed=0)``: two
    players play a ``Game`` (an episode is a hand or a game); three (the
    dealer sits out) or four (partnerships 0+2 against 1+3) play a whole
    game through the library's own loop (``MultiGame``).

    **Rewards** (``step``): hand points won (+) or lost (-) as hands end
    (two players: each hand; three: the hand, between the two who played
    it; partnerships: each round's team score to both partners), and at
    the end of a game episode the final margin: each losing side pays the
    winning side the difference of their final scores, bonuses included
    (RULES.md: game bonus, boxes, shutout for two players; game bonus and
    boxes for three; partnerships have none), so the winner of a
    three-player game gets the sum of both.
    """

    def __init__(self, players: int = 2, rules: str = "standard", episode: str = "game", seed: int = 0):
        if players not in (2, 3, 4):
            raise ValueError(f"players={players!r}: give 2, 3 (three-player) or 4 (partnerships)")
        if players > 2 and episode != "game":
            raise ValueError(f"players={players}: an episode is a whole game (episode='game')")
        self.players = players
        self.episode = episode
        if players == 2:
            self.game = Game(rules, seed, episode)
        else:
            self.game = MultiGame("three" if players == 3 else "partnership", rules, seed)
        self.game_rewards: Optional[List[int]] = None

    @property
    def current_player(self) -> Optional[int]:
        return self.game.current_player

    @property
    def done(self) -> bool:
        return self.game.done

    def observation(self, player: int) -> Optional[Observation]:
        """`player`'s own view (None before a three-player game deals it in)."""
        return self.game.observation(player)

    def step(self, action: int) -> Tuple[List[float], bool]:
        """Plays `action` for the player to act (an illegal one raises
        ValueError); returns each player's reward and whether the episode
        is over."""
        points, done = self.game.step(int(action))
        rewards = [float(p) for p in points]
        if done and self.episode == "game":
            self.game_rewards = [self.game.game_reward(i) for i in range(self.players)]
            rewards = [r + g for r, g in zip(rewards, self.game_rewards)]
        return rewards, done

    def end_info(self, player: int) -> Dict[str, Any]:
        """What an episode's end tells `player`: the score sheet
        (``result``, once a game is over; two players also ``last_hand``)
        and ``game_reward``, the final margin its last reward includes."""
        if self.players == 2:
            info: Dict[str, Any] = {"last_hand": self.game.last_hand}
            if self.episode == "game":
                info["result"] = self.game.result
        else:
            info = {"result": self.game.result, "winner": self.game.winner}
        if self.game_rewards is not None:
            info["game_reward"] = self.game_rewards[player]
        return info


def _aec_base():
    try:
        from pettingzoo import AECEnv
    except ImportError:  # pragma: no cover - depends on the machine
        return None
    return AECEnv


_AECEnv = _aec_base()


if _AECEnv is not None:

    class GinAECEnv(_AECEnv):
        """Two, three or four agents, one acting at a time, as a
        ``pettingzoo.AECEnv``.

        ``GinAECEnv(rules="standard", episode="game", seed=None,
        render_mode=None, full_information=False, players=2)``. Agents are
        ``"player_0"``, ``"player_1"``, ... With ``players=3`` (the dealer
        sits out) or ``players=4`` (partnerships 0+2 against 1+3) an episode
        is a whole game played by the library's three-player or partnership
        loop (``MultiGame``). ``observe(agent)`` gives ``{"observation":
        (374,) int32, "action_mask": (109,) int8}`` of that agent's own view
        (``ginlab.envs.flat``; the latest hand it played while it sits
        out), the mask all zero when it is not the agent's turn. Rewards
        are ``Seats``' (hand points as hands end, the final margin with
        every bonus at the end of a game); the end's infos give the score
        sheet (``result``) and ``game_reward``. An illegal action raises
        ValueError. ``render()`` (``"ansi"``) shows the view of the agent
        to act. The env is the dealer: agents are handed observations only.
        With ``full_information=True`` (two players), ``state()`` and
        ``full_information_game`` give the whole game.
        """

        metadata: Dict[str, Any] = {
            "render_modes": ["ansi"],
            "name": "ginlab_gin_rummy_v0",
            "is_parallelizable": False,
        }

        def __init__(
            self,
            rules: str = "standard",
            episode: str = "game",
            seed: Optional[int] = None,
            render_mode: Optional[str] = None,
            full_information: bool = False,
            players: int = 2,
        ) -> None:
            super().__init__()
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(f"render_mode={render_mode!r}: give None or 'ansi'")
            if players != 2 and full_information:
                raise ValueError(f"players={players}: full_information is for two players")
            self.rules = rules
            self.episode = episode
            self.players = players
            self.render_mode = render_mode
            self.full_information = full_information
            self.possible_agents: List[str] = [f"player_{i}" for i in range(players)]
            self.agents: List[str] = []
            self._seed_rng = np.random.default_rng(seed)
            self.__seats = self._new_game(0)  # checks the arguments now
            space = spaces.Dict(
                {"observation": flat_space(), "action_mask": spaces.MultiBinary(ACTIONS)}
            )
            self.observation_spaces = {a: space for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}

        def _new_game(self, seed: int) -> Seats:
            return Seats(self.players, self.rules, self.episode, seed)

        def observation_space(self, agent: str):
            return self.observation_spaces[agent]

        def action_space(self, agent: str):
            return self.action_spaces[agent]

        @property
        def full_information_game(self) -> Game:
            """The whole game (only with ``full_information=True``)."""
            if not self.full_information:
                raise AttributeError(
                    "full_information_game: this env is fair; make it with "
                    "full_information=True for the whole game"
                )
            return self.__seats.game

        def state(self) -> np.ndarray:
            """Both seats' card planes, (2, 6, 52) uint8 (full information
            only: it holds both hands)."""
            if not self.full_information:
                raise NotImplementedError(
                    "state() shows both hands: make the env with full_information=True"
                )
            return np.stack([arrays(self.__seats.observation(s))["cards"] for s in (0, 1)])

        def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
            if seed is not None:
                self._seed_rng = np.random.default_rng(seed)
            self.__seats = self._new_game(int(self._seed_rng.integers(_SEED_LIMIT)))
            self.agents = list(self.possible_agents)
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.possible_agents[self.__seats.current_player]

        def _view(self, agent: str) -> Optional[Observation]:
            return self.__seats.observation(self.possible_agents.index(agent))

        def observe(self, agent: str) -> Dict[str, np.ndarray]:
            view = self._view(agent)
            if view is None:  # not dealt in yet (three players)
                zero = np.zeros(ACTIONS, dtype=np.int8)
                return {"observation": np.zeros(FLAT, dtype=np.int32), "action_mask": zero}
            obs = arrays(view)
            return {"observation": flat(obs), "action_mask": obs["mask"]}

        def step(self, action: Optional[int]) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            rewards, done = self.__seats.step(int(action))
            for a, reward in zip(self.possible_agents, rewards):
                self.rewards[a] = reward
            if done:
                for i, a in enumerate(self.possible_agents):
                    self.terminations[a] = True
                    self.infos[a] = self.__seats.end_info(i)
            else:
                self.agent_selection = self.possible_agents[self.__seats.current_player]
            self._accumulate_rewards()

        def render(self) -> Optional[str]:
            if self.render_mode != "ansi" or not self.agents:
                return None
            view = self._view(self.agent_selection)
            return f"{self.agent_selection} to act.\n" + view.render(OPPONENT_NAME)

        def close(self) -> None:
            pass

else:  # pragma: no cover - depends on the machine

    class GinAECEnv:  # type: ignore[no-redef]
        """Needs PettingZoo: ``pip install ginlab[pettingzoo]``."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError("GinAECEnv needs pettingzoo: pip install 'ginlab[pettingzoo]'")
