#!/usr/bin/env python3
"""A ginlab bot that plays deadwood-greedy (protocol 1).

- Upcard and pile: take the card if, after the best discard, the hand's
  deadwood is lower than now.
- End of turn: the move that leaves the least deadwood; knock (or go gin,
  or big gin) whenever the rules allow it; ties go to the highest card.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ginbot  # noqa: E402


def best_after_discard(cards, keep):
    """The least deadwood of ``cards`` minus one card other than ``keep``."""
    return min(ginbot.deadwood([c for c in cards if c != d]) for d in cards if d != keep)


class GreedyBot:
    def decide(self, request):
        legal = request["legal"]
        state = request["state"]
        hand = state["hand"]
        decision = request["decision"]
        if decision in ("upcard", "draw"):
            card = state["upcard"] if decision == "upcard" else (state["pile"] or [None])[-1]
            take = "take" if decision == "upcard" else "pile"
            if take in legal and card is not None:
                if best_after_discard(hand + [card], card) < ginbot.deadwood(hand):
                    return take
            return "pass" if decision == "upcard" else "stock"
        if decision == "last_chance":
            return "pass"
        if "big_gin" in legal:
            return "big_gin"

        def score(move):
            card = move.split()[1]
            rest = [c for c in hand if c != card]
            return (ginbot.deadwood(rest), -ginbot.value(card), -ginbot.rank(card))

        knocks = [m for m in legal if m.startswith("knock ")]
        if knocks:
            return min(knocks, key=score)
        return min((m for m in legal if m.startswith("discard ")), key=score)


if __name__ == "__main__":
    ginbot.run(GreedyBot(), "python-greedy")
