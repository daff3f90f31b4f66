"""A minimal library for ginlab bots (protocol version 1, docs/PROTOCOL.md).

Standard library only. A bot is an object with a ``decide(request)`` method
returning one of ``request["legal"]``; it may also define ``on_message(msg)``
to follow the game (``game_start``, ``hand_start``, ``event``, ``hand_end``,
``game_end``). ``run(bot, name)`` speaks the protocol on stdin/stdout.
"""

import functools
import itertools
import json
import sys

PROTOCOL = 1
RANKS = "A23456789TJQK"
SUITS = "CDHS"


def rank(card):
    """0 for an ace up to 12 for a king."""
    return RANKS.index(card[:-1].upper().replace("10", "T"))


def suit(card):
    return card[-1].upper()


def value(card):
    """Deadwood value: ace 1, face cards 10."""
    return min(rank(card) + 1, 10)


def melds(cards):
    """Every set (3 or 4 of a rank) and run (3+ in a suit) within ``cards``."""
    found = []
    by_rank = {}
    for c in cards:
        by_rank.setdefault(rank(c), []).append(c)
    for group in by_rank.values():
        for size in (3, 4):
            found.extend(frozenset(m) for m in itertools.combinations(group, size))
    by_suit = {}
    for c in cards:
        by_suit.setdefault(suit(c), {})[rank(c)] = c
    for lane in by_suit.values():
        for start in range(13):
            run = []
            for r in range(start, 13):
                if r not in lane:
                    break
                run.append(lane[r])
                if len(run) >= 3:
                    found.append(frozenset(run))
    return found


def deadwood(cards):
    """The least deadwood of ``cards`` over all meld arrangements."""
    return _deadwood(frozenset(cards))


@functools.lru_cache(maxsize=1 << 16)
def _deadwood(cards):
    options = melds(cards)
    best = [sum(value(c) for c in cards)]

    def search(i, used, melded_value):
        rest = sum(value(c) for c in cards) - melded_value
        best[0] = min(best[0], rest)
        for j in range(i, len(options)):
            meld = options[j]
            if not (meld & used):
                search(j + 1, used | meld, melded_value + sum(value(c) for c in meld))

    search(0, frozenset(), 0)
    return best[0]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run(bot, name):
    """Plays the protocol until ``quit`` or the end of input."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": name})
        elif kind == "decide":
            move = bot.decide(msg)
            send({"type": "move", "id": msg["id"], "move": move})
        elif kind == "quit":
            return
        elif hasattr(bot, "on_message"):
            bot.on_message(msg)
