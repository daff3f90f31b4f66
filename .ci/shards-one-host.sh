#!/usr/bin/env bash
# The one-host scale-out route of docs/SCALING.md, as CI runs it: three
# shards with GNU parallel, merged, compared byte for byte with one run.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI passes the binary its test build made (GINLAB_BIN, the test profile is
# optimised); by hand the route builds and uses the release binary.
bin=${GINLAB_BIN:-target/release/ginlab}
if [ -z "${GINLAB_BIN:-}" ]; then
  cargo build --release --locked --quiet
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(match greedy simple --games 3000 --seed 17 --quiet)
"$bin" "${args[@]}" --out "$work/whole" > /dev/null
parallel --halt now,fail=1 "$bin" "${args[@]}" --shard {}/3 --out "$work/shard-{}" ::: 1 2 3 > /dev/null
"$bin" merge "$work"/shard-* --out "$work/merged" > /dev/null
for f in summary.csv distribution.csv tallies.json; do
  cmp "$work/whole/$f" "$work/merged/$f"
done
echo "shards: 3 shards via GNU parallel merged byte-identical to one run"
