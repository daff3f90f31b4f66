"""Type stubs of ginlab's native module (see the docstrings there)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

ACTIONS: int
KNOCK: int
DRAW_STOCK: int
DRAW_PILE: int
TAKE_UPCARD: int
PASS_UPCARD: int
BIG_GIN: int
PHASES: List[str]
__version__: str


class Observation:
    """One player's view at one moment (the engine's PlayerView, copied)."""

    @property
    def seat(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def hand(self) -> List[str]: ...
    @property
    def legal_actions(self) -> List[int]: ...
    @property
    def mask(self) -> npt.NDArray[np.bool_]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def arrays(self) -> Dict[str, np.ndarray]: ...
    def render(self, opponent: str = "the opponent") -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Game:
    """One game stepped a decision at a time."""

    def __init__(
        self,
        rules: str = "standard",
        seed: int = 0,
        episode: str = "game",
        opponent: Optional[str] = None,
        seat: int = 0,
        deck: Optional[str] = None,
        dealer: Optional[int] = None,
    ) -> None: ...
    @property
    def current_player(self) -> Optional[int]: ...
    @property
    def done(self) -> bool: ...
    @property
    def legal_actions(self) -> List[int]: ...
    @property
    def mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def hand_over(self) -> bool: ...
    @property
    def scores(self) -> Tuple[int, int]: ...
    @property
    def last_hand(self) -> Optional[Dict[str, Any]]: ...
    @property
    def result(self) -> Optional[Dict[str, Any]]: ...
    def observation(self, seat: Optional[int] = None) -> Observation: ...
    def step(self, action: int) -> Tuple[Tuple[int, int], bool]: ...
    def reset(self) -> Tuple[int, int]: ...
    def game_reward(self, seat: int) -> int: ...
    def clone(self) -> "Game": ...

class AgentGame:
    """One seat's side of a game against a built-in strategy (fair)."""

    def __init__(
        self,
        rules: str = "standard",
        seed: int = 0,
        episode: str = "hand",
        opponent: str = "simple",
        seat: int = 0,
        deck: Optional[str] = None,
        dealer: Optional[int] = None,
    ) -> None: ...
    @property
    def seat(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def legal_actions(self) -> List[int]: ...
    @property
    def mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def hand_over(self) -> bool: ...
    @property
    def scores(self) -> Tuple[int, int]: ...
    @property
    def last_hand(self) -> Optional[Dict[str, Any]]: ...
    @property
    def result(self) -> Optional[Dict[str, Any]]: ...
    def observation(self) -> Observation: ...
    def step(self, action: int) -> Tuple[Tuple[int, int], bool]: ...
    def reset(self) -> Tuple[int, int]: ...
    def game_reward(self) -> int: ...

class MultiGame:
    """A three-player or partnership game stepped a decision at a time."""

    def __init__(self, format: str = "three", rules: str = "standard", seed: int = 0) -> None: ...
    @property
    def players(self) -> int: ...
    @property
    def current_player(self) -> Optional[int]: ...
    @property
    def done(self) -> bool: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def result(self) -> Optional[Dict[str, Any]]: ...
    def game_reward(self, player: int) -> int: ...
    @property
    def legal_actions(self) -> List[int]: ...
    def observation(self, player: int) -> Optional[Observation]: ...
    def step(self, action: int) -> Tuple[List[int], bool]: ...

class VecEnv:
    """N games stepped together in Rust, numpy in and out."""

    def __init__(
        self,
        n: int,
        rules: str = "standard",
        seed: int = 0,
        episode: str = "hand",
        opponent: Optional[str] = None,
        seat: int = 0,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def to_act(self) -> npt.NDArray[np.int8]: ...
    def observe(self) -> Dict[str, np.ndarray]: ...
    def reset(self) -> Dict[str, np.ndarray]: ...
    def step(
        self, actions: Union[npt.NDArray[np.integer], Sequence[int]]
    ) -> Tuple[Dict[str, np.ndarray], npt.NDArray[np.int32], npt.NDArray[np.bool_]]: ...
    def sample_actions(self) -> npt.NDArray[np.int64]: ...

class Strategy:
    """A built-in strategy answering observations."""

    def __init__(self, profile: str, seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    def act(self, observation: Observation) -> int: ...

Player = Union[str, Strategy, Any]

# What match/run/sweep/balance return: the rows of the files the CLI writes,
# by file ("summary", and "seats", "sweep", "balance", "ratings",
# "crosstable" when the job makes them), each a list of row dicts in the
# file's column order; and "sprt" (a dict) when a stopping rule was given.
Rows = Dict[str, Any]
_Path = Union[str, "os.PathLike[str]"]

def match(
    a: Optional[Player] = None,
    b: Optional[Player] = None,
    c: Optional[Player] = None,
    *,
    teams: Optional[Sequence[Player]] = None,
    vs: Optional[Sequence[Player]] = None,
    games: Optional[int] = None,
    hands: Optional[int] = None,
    decks: Optional[_Path] = None,
    dealer: Optional[str] = None,
    rules: str = "standard",
    rule: Union[str, Sequence[str], None] = None,
    seed: int = 1,
    duplicate: bool = True,
    threads: int = 0,
    out: Optional[_Path] = None,
    shard: Optional[str] = None,
    resume: bool = False,
    record: Optional[_Path] = None,
    sprt: Optional[str] = None,
    budget_ms: Optional[float] = None,
) -> Rows: ...
def run(
    spec: str,
    *,
    players: Optional[Dict[str, Any]] = None,
    out: Optional[_Path] = None,
    threads: int = 0,
    shard: Optional[str] = None,
    resume: bool = False,
    record: Optional[_Path] = None,
    anchor: Optional[str] = None,
) -> Rows: ...
def sweep(
    strategy: str,
    param: str,
    values: Union[str, Iterable[Any]],
    vs: str,
    *,
    games: Optional[int] = None,
    hands: Optional[int] = None,
    rules: Union[str, Sequence[str], None] = None,
    rule: Union[str, Sequence[str], None] = None,
    seed: int = 1,
    duplicate: bool = True,
    threads: int = 0,
    out: Optional[_Path] = None,
    shard: Optional[str] = None,
    resume: bool = False,
    objective: Optional[str] = None,
    budget_ms: Optional[float] = None,
) -> Rows: ...
def balance(
    strategy: str,
    *,
    games: Optional[int] = None,
    hands: Optional[int] = None,
    rules: Union[str, Sequence[str], None] = None,
    rule: Union[str, Sequence[str], None] = None,
    seed: int = 1,
    threads: int = 0,
    out: Optional[_Path] = None,
    shard: Optional[str] = None,
    resume: bool = False,
    budget_ms: Optional[float] = None,
) -> Rows: ...
def merge(shards: Sequence[_Path], *, out: _Path, record: Optional[_Path] = None) -> Rows: ...
def solve(cards: Union[str, Iterable[str]]) -> Dict[str, Any]: ...
def solve_batch(
    hands: npt.NDArray[np.uint8],
) -> Tuple[npt.NDArray[np.uint16], npt.NDArray[np.bool_]]: ...
