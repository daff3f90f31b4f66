#!/bin/sh
# Re-makes the learned card odds of mc's `weighting = learned`
# (strategies/card-odds.txt) and the cross-check of the features
# (experiments/card-odds/checks.csv): 20,000 self-play hands of greedy,
# tracker and mc with 16 worlds under eaai rules, seed 33, fitted by
# train.py. With --check it writes nothing and fails if the committed
# weights differ from the re-made ones.
set -eu
cd "$(dirname "$0")/../.."
HANDS=20000
SEED=33
cargo build --release --example card_odds
table=$(mktemp)
weights=$(mktemp)
trap 'rm -f "$table" "$weights"' EXIT
target/release/examples/card_odds table "$HANDS" "$SEED" > "$table"
python3 experiments/card-odds/train.py "$table" "$HANDS hands, seed $SEED" > "$weights"
if [ "${1:-}" = "--check" ]; then
    cmp "$weights" strategies/card-odds.txt
    echo "strategies/card-odds.txt re-made byte for byte"
    exit 0
fi
cp "$weights" strategies/card-odds.txt
# The checks read the weights compiled in: build again first.
cargo build --release --example card_odds
target/release/examples/card_odds checks "$table" > experiments/card-odds/checks.csv
