#!/usr/bin/env python3
"""Fits the learned card odds of `mc`'s `weighting = learned`.

Reads the training table that `cargo run --release --example card_odds --
table HANDS SEED` writes (one line per distinct key of an unseen card:
nine action counts, the card's value, the opponent's draws, how many
such cards were seen and how many of them the opponent held) and fits a
logistic regression of "held" on the features of `features` below by
Newton's method (a fixed number of steps, a small ridge on the weights
but not the bias), in pure Python so that the same table gives the same
digits on any machine. Writes the weights file (`strategies/card-odds.txt`)
to stdout.

    python3 experiments/card-odds/train.py table.csv > strategies/card-odds.txt
"""

import math
import sys

FEATURES = 11
MAX_DRAWS = 8
STEPS = 12
RIDGE = 1.0


def features(key):
    """The model's inputs for a key (d0..t2, value, draws), as the Rust
    `Key::features` computes them."""
    counts, value, draws = key[:9], key[9], key[10]
    v = value / 10.0
    return [float(n) for n in counts] + [v, v * draws / MAX_DRAWS]


def fail(message):
    """Bad input: the message on stderr, exit code 2, nothing written."""
    sys.stderr.write(message + "\n")
    sys.exit(2)


def read_table(path):
    rows = []
    try:
        f = open(path)
    except OSError as e:
        fail(f"cannot read the training table {path}: {e.strerror}")
    with f:
        header = f.readline().strip().split(",")
        if len(header) != 13:
            fail(f"{path}: expected 13 columns, found {len(header)}")
        for n, line in enumerate(f, start=2):
            cols = line.strip().split(",")
            try:
                nums = [int(c) for c in cols]
            except ValueError:
                fail(f"{path}:{n}: expected whole numbers")
            if len(nums) != 13 or nums[12] > nums[11]:
                fail(f"{path}:{n}: expected 13 columns with held <= cards")
            rows.append((features(nums[:11]), nums[11], nums[12]))
    return rows


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows):
    k = FEATURES + 1
    w = [0.0] * k
    for _ in range(STEPS):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, cards, held in rows:
            z = [1.0] + x
            eta = sum(wi * zi for wi, zi in zip(w, z))
            p = 1.0 / (1.0 + math.exp(-eta))
            g = held - cards * p
            h = cards * p * (1.0 - p)
            for i in range(k):
                grad[i] += g * z[i]
                hi = h * z[i]
                row = hess[i]
                for j in range(i, k):
                    row[j] += hi * z[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        for i in range(1, k):
            grad[i] -= RIDGE * w[i]
            hess[i][i] += RIDGE
        step = solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step)]
    return w


def weights_text(w, source):
    lines = [
        "# Learned card odds of mc's `weighting = learned` (log-odds weights).",
        f"# Made by experiments/card-odds/make.sh from {source}.",
        f"bias {w[0]:.9f}",
    ]
    lines += [f"x{i} {w[i + 1]:.9f}" for i in range(FEATURES)]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: train.py TABLE.csv [SOURCE-NOTE]")
    rows = read_table(sys.argv[1])
    note = sys.argv[2] if len(sys.argv) == 3 else sys.argv[1]
    sys.stdout.write(weights_text(fit(rows), note))


if __name__ == "__main__":
    main()
