"""ginlab from Python: Gin Rummy environments and the ginlab harness.

The engine, the strategies and the runner are ginlab's Rust library; this
package calls them in-process.

- ``Game``: one game stepped a decision at a time (observations, legal
  action ids and masks, rewards, ``clone()``).
- ``VecEnv``: N games stepped by one call, numpy in and out.
- ``GinEnv`` (a ``gymnasium.Env``, registered as ``ginlab/GinRummy-v0``),
  ``GinVecEnv`` (a ``gymnasium.vector.VectorEnv``) and ``GinAECEnv`` (a
  ``pettingzoo.AECEnv``): see ``ginlab.envs``. ``AgentGame``: one seat's
  side of a game, what a fair agent may hold. ``MultiGame``: a
  three-player or partnership game stepped a decision at a time.
- ``strategy(profile)``: a built-in strategy that answers observations.
- ``match``, ``run``, ``sweep``, ``balance``, ``merge``: the harness,
  through ginlab's job layer as the CLI's commands: each returns the rows of
  the files the CLI writes, by file (``result["summary"]`` is a list of
  dicts that ``pandas.DataFrame`` accepts), and with ``out=`` writes the
  CLI's folder byte for byte. ``ginlab.ray.run`` runs a job's shards as Ray
  tasks; ``ginlab.rllib.GinMultiAgentEnv`` is an RLlib ``MultiAgentEnv``
  for self-play training on a Ray cluster.
- ``solve``, ``solve_batch``: the meld solver.

Action ids: 0..51 discard card id, 52..103 knock discarding card id - 52,
104 draw from the stock (at the stock end: pass), 105 take the pile top,
106 take the upcard, 107 pass the upcard, 108 big gin. A card's id is
13 * suit + rank (suits C, D, H, S; ranks A..K).
"""

from ._ginlab import (
    ACTIONS,
    BIG_GIN,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCK,
    PASS_UPCARD,
    PHASES,
    TAKE_UPCARD,
    AgentGame,
    Game,
    MultiGame,
    Observation,
    Strategy,
    VecEnv,
    __version__,
    balance,
    merge,
    run,
    solve,
    solve_batch,
    sweep,
)
from ._ginlab import match as match  # noqa: PLC0414 (a keyword-named function)
from .envs import GinAECEnv, GinEnv, GinVecEnv

SUITS = "CDHS"
RANKS = "A23456789TJQK"


def card_name(card_id: int) -> str:
    """The name of card ``card_id`` (0..51), e.g. ``card_name(0) == "AC"``."""
    if not 0 <= card_id < 52:
        raise ValueError(f"card id {card_id}: give 0..51")
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def card_id(name: str) -> int:
    """The id (13 * suit + rank) of a card name such as ``"TH"``."""
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"card {name!r}: give a rank (A23456789TJQK) and a suit (CDHS), e.g. TH")
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def strategy(profile: str, seed: int = 0) -> Strategy:
    """The built-in strategy of ``profile`` ("random", "simple", "greedy",
    "tracker", "mc", or with parameters such as "mc:samples=64"), seeded by
    ``seed``; ``strategy("mc").act(obs)`` returns the action id it plays."""
    return Strategy(profile, seed)


__all__ = [
    "ACTIONS",
    "BIG_GIN",
    "DRAW_PILE",
    "DRAW_STOCK",
    "KNOCK",
    "PASS_UPCARD",
    "PHASES",
    "TAKE_UPCARD",
    "AgentGame",
    "Game",
    "GinAECEnv",
    "GinEnv",
    "GinVecEnv",
    "MultiGame",
    "Observation",
    "Strategy",
    "VecEnv",
    "__version__",
    "balance",
    "card_id",
    "card_name",
    "match",
    "merge",
    "run",
    "solve",
    "solve_batch",
    "strategy",
    "sweep",
]
