"""A small agent that learns Gin Rummy from scratch on ginlab's vectorised
env, with numpy alone, in a few minutes on one core.

The policy is a softmax over the legal actions of a linear score
theta . phi(s, a), where phi describes an action by its kind and, for the
card it moves, the card's value and whether the meld solver
(ginlab.solve_batch) melds it. It starts as uniform random play and is
trained by REINFORCE with a running baseline on whole hands (reward: the
hand points won or lost, scaled), first against `random`, then against
`simple`. It is then evaluated as a Python player inside ginlab.match
against `random` and `simple`, which report win rates with 95 % intervals.

    python examples/python/learn.py [--steps 3000] [--n 256] [--games 300]
"""

import argparse
import sys
import time

import numpy as np

import ginlab

KINDS = 7  # discard, knock, draw stock, draw pile, take upcard, pass upcard, big gin
F = KINDS + 5
VALUE = np.minimum(np.arange(52) % 13 + 1, 10) / 10.0  # a card's deadwood value / 10


def features(cards, scalars):
    """phi(s, a) for every action: (N, 109, F).

    cards: (N, 6, 52) planes of the observation arrays; scalars: (N, 10).
    """
    n = cards.shape[0]
    hand = cards[:, 0]
    top = cards[:, 3]
    deadwood, melded = ginlab.solve_batch(hand)
    # Would the pile top (or upcard) meld with the hand? Asked of the hands
    # that could take it (10 cards); an 11-card hand is discarding, where
    # taking is masked out, and the solver takes at most 11 cards.
    can_take = hand.sum(axis=1, keepdims=True) <= 10
    with_top = np.where(can_take, np.minimum(hand + top, 1), hand).astype(np.uint8)
    _, melded_top = ginlab.solve_batch(with_top)
    top_melds = (melded_top & (top == 1)).any(axis=1)
    top_value = (top * VALUE).sum(axis=1)
    phi = np.zeros((n, ginlab.ACTIONS, F), dtype=np.float32)
    for kind, actions in enumerate(
        [slice(0, 52), slice(52, 104), [104], [105], [106], [107], [108]]
    ):
        phi[:, actions, kind] = 1.0
    # Discards and knocks: the card's value, and whether it is melded.
    for base in (0, 52):
        phi[:, base : base + 52, KINDS] = VALUE
        phi[:, base : base + 52, KINDS + 1] = melded
    # Knocks: the deadwood left if an unmelded card goes (gin is best).
    left = np.maximum(deadwood[:, None] / 10.0 - VALUE * (~melded), 0)
    phi[:, 52:104, KINDS + 2] = left
    # Taking the top card: does it meld, and its value.
    for action in (105, 106):
        phi[:, action, KINDS + 3] = top_melds
        phi[:, action, KINDS + 4] = top_value
    _ = scalars
    return phi


def policy(theta, phi, mask):
    logits = phi @ theta
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def train(theta, opponent, steps, n, seed, lr=0.05):
    env = ginlab.VecEnv(n, "standard", seed=seed, episode="hand", opponent=opponent)
    obs = env.reset()
    rng = np.random.default_rng(seed)
    grad_sum = np.zeros((n, F))
    baseline = 0.0
    hands = wins = 0
    update = np.zeros(F)
    count = 0
    for step in range(1, steps + 1):
        phi = features(obs["cards"], obs["scalars"])
        p = policy(theta, phi, obs["mask"])
        u = rng.random((n, 1))
        actions = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, ginlab.ACTIONS - 1)
        # A rounding edge could land on a masked action: take the likeliest then.
        bad = ~obs["mask"][np.arange(n), actions]
        actions[bad] = p[bad].argmax(axis=1)
        # grad log pi = phi(s, a) - E_pi phi(s, .)
        grad_sum += phi[np.arange(n), actions] - np.einsum("na,naf->nf", p, phi)
        obs, rewards, dones = env.step(actions.astype(np.int64))
        if dones.any():
            r = rewards[dones, 0] / 25.0
            update += ((r - baseline)[:, None] * grad_sum[dones]).sum(axis=0)
            count += int(dones.sum())
            baseline += 0.01 * (r.mean() - baseline)
            grad_sum[dones] = 0.0
            hands += int(dones.sum())
            wins += int((rewards[dones, 0] > 0).sum())
        if step % 10 == 0 and count:
            theta += lr * update / count
            update[:] = 0.0
            count = 0
    return hands, wins


class Agent:
    """The trained policy as a ginlab player: act(observation) -> action id."""

    name = "learned"

    def __init__(self, theta):
        self.theta = theta

    def act(self, obs):
        a = obs.arrays()
        phi = features(a["cards"][None], a["scalars"][None])
        p = policy(self.theta, phi, a["mask"][None])[0]
        return int(p.argmax())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="training steps per phase")
    parser.add_argument("--n", type=int, default=256, help="games stepped together")
    parser.add_argument("--games", type=int, default=300, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    theta = np.zeros(F)
    start = time.time()
    for phase, opponent in enumerate(["random", "simple"]):
        hands, wins = train(theta, opponent, args.steps, args.n, args.seed + phase)
        print(f"trained against {opponent}: {hands} hands, won {wins / max(hands, 1):.1%} while learning")
        print(f"  ({time.time() - start:.0f} s)", file=sys.stderr)
    print("theta:", np.round(theta, 2).tolist())
    for opponent in ["random", "simple"]:
        r = ginlab.match(Agent(theta), opponent, games=args.games, seed=args.seed + 10)["summary"][0]
        print(
            f"learned vs {opponent}: won {r['a_game_wins']} of {r['games']} games, "
            f"{r['a_game_win_rate']:.1%} [95% {r['a_game_win_lo']:.1%}, {r['a_game_win_hi']:.1%}]; "
            f"hands {r['a_hand_win_rate']:.1%} [{r['a_hand_win_lo']:.1%}, {r['a_hand_win_hi']:.1%}]"
        )
    print(f"total {time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
