"""The training script's features agree with the Rust model's: for the
keys in checks.csv (written by the Rust `card_odds checks` from a
training table), the log-odds computed here from the committed weights
file equal the Rust ones to the printed digits.

    python3 -m pytest experiments/card-odds/test_train.py
    python3 experiments/card-odds/test_train.py   # without pytest
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import train  # noqa: E402


def read_weights(path):
    w = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                w.append(float(line.split()[1]))
    return w


def test_features_agree_with_rust():
    w = read_weights(os.path.join(HERE, "..", "..", "strategies", "card-odds.txt"))
    assert len(w) == train.FEATURES + 1
    checked = 0
    with open(os.path.join(HERE, "checks.csv")) as f:
        for line in f:
            cols = line.strip().split(",")
            key = [int(c) for c in cols[:11]]
            want = float(cols[11])
            z = [1.0] + train.features(key)
            got = sum(a * b for a, b in zip(w, z))
            assert abs(got - want) < 1e-9, (line, got)
            checked += 1
    assert checked > 100


def test_fit_recovers_known_weights():
    """On a table drawn from a known logistic model, the fit finds it."""
    import math
    import random

    rng = random.Random(5)
    truth = [-0.5, -0.8, 0.0, 0.0, -0.4, 0.0, 0.0, 0.6, 0.0, 0.0, -1.0, 1.5]
    rows = []
    for _ in range(3000):
        key = [rng.randint(0, 2) for _ in range(9)] + [rng.randint(1, 10), rng.randint(0, 8)]
        x = train.features(key)
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(truth, [1.0] + x))))
        cards = 200
        held = sum(rng.random() < p for _ in range(cards))
        rows.append((x, cards, held))
    w = train.fit(rows)
    for got, want in zip(w, truth):
        assert abs(got - want) < 0.1, (w, truth)


def test_a_bad_table_is_exit_2_naming_the_file(tmp_path):
    import subprocess

    script = os.path.join(HERE, "train.py")
    bad = tmp_path / "bad.csv"
    bad.write_text("d0,d1,d2,p0,p1,p2,t0,t1,t2,value,draws,cards,held\n1,2,x\n")
    for path, says in [(str(bad), "bad.csv:2: expected whole numbers"), (str(tmp_path / "none.csv"), "cannot read the training table")]:
        r = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        assert r.returncode == 2 and says in r.stderr and r.stdout == "", (r.returncode, r.stderr)


if __name__ == "__main__":
    import pathlib
    import tempfile

    test_features_agree_with_rust()
    test_fit_recovers_known_weights()
    test_a_bad_table_is_exit_2_naming_the_file(pathlib.Path(tempfile.mkdtemp()))
    print("experiments/card-odds: 3 tests passed")
