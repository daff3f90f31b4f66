"""Masked PPO (sb3-contrib's MaskablePPO) learning Gin Rummy against
`simple` on ginlab's Gymnasium environment, with its learning curve.

The agent plays one hand per episode in the fair `ginlab/GinRummy-v0`
environment (it sees its own view only); the reward is the hand points won
or lost, scaled by 1/25. Every `--eval-every` steps the deterministic policy
plays `--eval-hands` fresh hands (their own seeds) and the mean points per
hand and the hand win rate are logged; the curve is saved as an SVG and PNG
and the table as CSV. Needs torch, sb3-contrib and matplotlib (not ginlab's
dependencies; run by hand, not in CI):

    pip install sb3-contrib matplotlib
    python examples/python/ppo_masked.py [--steps 200000] [--out ppo-curve]
"""

import argparse
import csv
import time

import gymnasium
import numpy as np

import ginlab  # noqa: F401  (registers ginlab/GinRummy-v0)

SCALE = np.array([1 / 4, 1 / 31, 1 / 31, 1 / 100, 1 / 100, 1 / 40, 1 / 10, 1, 1 / 11, 1], np.float32)


class Flat(gymnasium.ObservationWrapper):
    """The observation dict as one float vector: card planes, the scaled
    scalars and the mask (the policy sees which actions are legal)."""

    def __init__(self, env):
        super().__init__(env)
        size = 6 * 52 + 10 + ginlab.ACTIONS
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)

    def observation(self, obs):
        scalars = np.clip(obs["scalars"] * SCALE, 0.0, 1.0)
        return np.concatenate([obs["cards"].ravel(), scalars, obs["mask"]]).astype(np.float32)

    def action_masks(self):
        return self.env.unwrapped.action_masks()


class Scaled(gymnasium.RewardWrapper):
    def reward(self, reward):
        return reward / 25.0


def make_env(opponent, seed):
    env = gymnasium.make("ginlab/GinRummy-v0", opponent=opponent, illegal="raise")
    env = Scaled(Flat(env))
    env.reset(seed=seed)
    return env


def evaluate(model, opponent, hands, seed):
    """Mean points per hand and hand win rate of the deterministic policy."""
    env = make_env(opponent, seed)
    points, wins = [], 0
    obs, _ = env.reset(seed=seed)
    total = 0.0
    while len(points) < hands:
        action, _ = model.predict(obs, deterministic=True, action_masks=env.unwrapped.action_masks())
        obs, reward, terminated, _, _ = env.step(int(action))
        total += reward * 25.0
        if terminated:
            points.append(total)
            wins += total > 0
            total = 0.0
            obs, _ = env.reset()
    points = np.array(points)
    half = 1.96 * points.std(ddof=1) / np.sqrt(len(points))
    return points.mean(), half, wins / len(points)


def plot(rows, opponent, hands, out):
    """The learning curve of `rows` (steps, mean, ci half, ...) as SVG and PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(steps, [r[1] for r in rows], yerr=[r[2] for r in rows], marker="o", capsize=3)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("agent decisions trained")
    ax.set_ylabel(f"points per hand vs {opponent}")
    ax.set_title(f"MaskablePPO, ginlab/GinRummy-v0 ({hands} hands a point, 95 % CI)", fontsize=10)
    fig.tight_layout()
    for ext in ("svg", "png"):
        fig.savefig(f"{out}.{ext}")


def main():
    import torch
    from sb3_contrib import MaskablePPO  # torch and sb3-contrib: see the doc

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="agent decisions to train")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="ppo-curve", help="file stem of the .csv/.svg/.png")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    env = make_env(args.opponent, args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, verbose=0)
    rows = []
    start = time.time()
    done = 0
    while True:
        mean, half, win = evaluate(model, args.opponent, args.eval_hands, 10_000 + done)
        rows.append((done, mean, half, win, time.time() - start))
        print(
            f"steps {done:>8,}  points/hand {mean:+6.2f} ± {half:4.2f}  "
            f"hand wins {win:6.1%}  ({rows[-1][4]:.0f} s)",
            flush=True,
        )
        if done >= args.steps:
            break
        model.learn(args.eval_every, reset_num_timesteps=False)
        done += args.eval_every

    with open(args.out + ".csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["steps", "points_per_hand", "ci95_half", "hand_win_rate", "seconds"])
        out.writerows(rows)
    plot(rows, args.opponent, args.eval_hands, args.out)
    print(f"wrote {args.out}.csv, .svg, .png")


if __name__ == "__main__":
    main()
