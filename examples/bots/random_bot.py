#!/usr/bin/env python3
"""A ginlab bot that plays a uniformly random legal move (protocol 1).

Its random choices are seeded from each game's seed, so a run is repeatable.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ginbot  # noqa: E402


class RandomBot:
    def __init__(self):
        self.rng = random.Random(0)

    def on_message(self, msg):
        if msg["type"] == "game_start":
            self.rng = random.Random(msg["seed"])

    def decide(self, request):
        return self.rng.choice(request["legal"])


if __name__ == "__main__":
    ginbot.run(RandomBot(), "python-random")
