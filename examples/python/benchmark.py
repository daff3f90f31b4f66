"""Steps per second of random legal play, side by side in one run:

  (a) ginlab's per-step API (ginlab.Game, one Python call per decision),
      bare and with an observation (Observation.arrays()) every step,
  (b) the Gymnasium env (ginlab/GinRummy-v0 against the built-in `random`:
      a step is the agent's decision, the opponent's reply is played inside
      it, an observation dict is returned every step),
  (c) ginlab's vectorised env (ginlab.VecEnv, N games per call, an
      observation every step), with the random actions drawn in Rust
      (VecEnv.sample_actions) and in numpy, and the Gymnasium vector env
      (GinVecEnv, numpy sampling, against `random`),
  (d) RLCard's gin rummy env (its step always builds the next state, an
      observation) and OpenSpiel's gin_rummy, bare and with
      observation_tensor() every step, if installed
      (pip install rlcard open_spiel).

A step is one player decision; chance events (OpenSpiel's deals) are not
counted. Decisions differ between the libraries (OpenSpiel asks for the
meld layout after a knock, RLCard for a separate knock and gin), so hands
per second are given too: that is the equal-work figure. Everything runs on
one core (the process is pinned to the first CPU it may use).

    python examples/python/benchmark.py [--seconds 5] [--n 1024]
"""

import argparse
import os
import random
import sys
import time

import numpy as np

import ginlab


def timed(run, seconds):
    """Calls run() (which returns (steps, hands)) until `seconds` of this
    process's CPU time passed; returns (steps/s, hands/s, CPU share).

    Rates are per CPU second of this (single-threaded, pinned) process, so a
    machine shared with other work slows the run down but does not change
    the figures much; the CPU share says how much of the wall time it got.
    """
    steps = hands = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        s, h = run()
        steps += s
        hands += h
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return steps / cpu, hands / cpu, cpu / wall


def per_step(seconds, observe=False):
    game = ginlab.Game("standard", seed=1, episode="hand")
    rng = random.Random(1)

    def run():
        steps = hands = 0
        for _ in range(1000):
            if observe:
                game.observation().arrays()
            game.step(rng.choice(game.legal_actions))
            steps += 1
            if game.done:
                hands += 1
                game.reset()
        return steps, hands

    return timed(run, seconds)


def vectorised(seconds, n, sampler):
    env = ginlab.VecEnv(n, "standard", seed=1, episode="hand")
    obs = env.reset()
    rng = np.random.default_rng(1)

    def run():
        nonlocal obs
        steps = hands = 0
        for _ in range(10):
            if sampler == "rust":
                actions = env.sample_actions()
            else:
                actions = (rng.random(obs["mask"].shape) * obs["mask"]).argmax(axis=1)
            obs, _, dones = env.step(actions)
            steps += n
            hands += int(dones.sum())
        return steps, hands

    return timed(run, seconds)


def gym_env(seconds):
    import gymnasium

    env = gymnasium.make("ginlab/GinRummy-v0", opponent="random").unwrapped
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)

    def run():
        nonlocal obs
        steps = hands = 0
        for _ in range(1000):
            legal = np.flatnonzero(obs["mask"])
            obs, _, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated:
                hands += 1
                obs, _ = env.reset()
        return steps, hands

    return timed(run, seconds)


def gym_vec_env(seconds, n):
    envs = ginlab.GinVecEnv(n, opponent="random", seed=1)
    obs, _ = envs.reset()
    rng = np.random.default_rng(1)

    def run():
        nonlocal obs
        steps = hands = 0
        for _ in range(10):
            actions = (rng.random(obs["mask"].shape) * obs["mask"]).argmax(axis=1)
            obs, _, terminations, _, _ = envs.step(actions)
            steps += n
            hands += int(terminations.sum())
        return steps, hands

    return timed(run, seconds)


def rlcard_env(seconds):
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)

    def run():
        steps = 0
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            steps += 1
        return steps, 1

    return timed(run, seconds)


def openspiel_env(seconds, observe=False):
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)

    def run():
        steps = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                if observe:
                    state.observation_tensor()
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps, 1

    return timed(run, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--n", type=int, default=1024, help="games in the vectorised env")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rows = [
        ("ginlab Game (per step, bare)", per_step(args.seconds)),
        ("ginlab Game (per step, observation every step)", per_step(args.seconds, True)),
        ("ginlab GinEnv (Gymnasium, vs random)", gym_env(args.seconds)),
        (f"ginlab VecEnv n={args.n}, Rust sampling", vectorised(args.seconds, args.n, "rust")),
        (f"ginlab VecEnv n={args.n}, numpy sampling", vectorised(args.seconds, args.n, "numpy")),
        (f"ginlab GinVecEnv n={args.n} (Gymnasium, vs random)", gym_vec_env(args.seconds, args.n)),
    ]
    others = [
        ("RLCard gin-rummy (state every step)", rlcard_env),
        ("OpenSpiel gin_rummy (bare)", openspiel_env),
        ("OpenSpiel gin_rummy (observation_tensor every step)", lambda s: openspiel_env(s, True)),
    ]
    for name, bench in others:
        try:
            rows.append((name, bench(args.seconds)))
        except ImportError as e:
            print(f"{name}: not installed ({e}); pip install rlcard open_spiel", file=sys.stderr)
    base = next((r[1][0] for r in rows if r[0].startswith("RLCard")), None)
    print(
        f"random legal play, one core, {args.seconds:g} CPU s each; "
        f"Python {sys.version.split()[0]}; rates per CPU second"
    )
    print()
    print("| environment | steps/s | hands/s | steps/s vs RLCard | CPU share |")
    print("|---|---:|---:|---:|---:|")
    for name, (steps, hands, share) in rows:
        ratio = f"{steps / base:,.1f}x" if base else "-"
        print(f"| {name} | {steps:,.0f} | {hands:,.0f} | {ratio} | {share:.0%} |")


if __name__ == "__main__":
    main()
