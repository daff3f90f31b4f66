#!/usr/bin/env bash
# Do two ginlab builds make the same decisions? Runs the matches that
# docs/PERFORMANCE.md ("Decisions stay the same") lists with each binary,
# each with --out and --record, and compares the outputs byte for byte
# (the manifests' git_commit and command lines, and the lines naming the
# folders, aside).
#
#   benches/same_decisions.sh OLD_BINARY NEW_BINARY [WORK_DIR]
#
# The binaries must be copies at one path each (cp target/release/ginlab
# /tmp/x/ginlab-old before rebuilding). WORK_DIR (default: a new folder
# under ${TMPDIR:-/tmp}) must not exist yet; it is kept for inspection.
# Exit status 0 when every run is identical, 1 when one differs, 2 on bad
# arguments.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY [WORK_DIR]" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
for bin in "$old" "$new"; do
    if [[ ! -x "$bin" ]]; then
        echo "$0: $bin is not an executable file" >&2
        exit 2
    fi
done
root=$(cd "$(dirname "$0")/.." && pwd)
# The runs below are split into words: a checkout or work folder whose path
# holds a space would be cut apart, so it is refused rather than misread.
target=${3:-${TMPDIR:-/tmp}}
if [[ $root =~ [[:space:]] || $target =~ [[:space:]] ]]; then
    echo "$0: the checkout ($root) and the work folder ($target) must have paths without spaces" >&2
    exit 2
fi
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/same-decisions.XXXXXX")}
if [[ $# -eq 3 ]]; then
    if [[ -e "$work" ]]; then
        echo "$0: $work exists; give a new folder" >&2
        exit 2
    fi
    mkdir -p "$work"
fi

# One line a run: a name, then the arguments after `ginlab`.
runs=(
    "simple-eaai|match simple simple --rules eaai --games 150 --seed 1"
    "greedy|match greedy greedy --games 150 --seed 2"
    "tracker-oklahoma|match tracker greedy --rules oklahoma --games 100 --seed 3"
    "random-hoyle|match random tracker --rules hoyle --games 100 --seed 4"
    "simple-tracker-t2|match simple tracker --rules eaai --hands 3000 --seed 5 --threads 2"
    "simple-tracker-t1|match simple tracker --rules eaai --hands 3000 --seed 5 --threads 1"
    "greedy-k5|match greedy:knock_at=5 simple --hands 5000 --seed 6 --threads 2"
    "greedy-simple-nodup|match greedy simple --hands 5000 --seed 7 --threads 1 --no-duplicate"
    "tracker-eaai|match tracker tracker --rules eaai --hands 2000 --seed 8 --threads 1"
    "mc16|match mc:samples=16 simple --rules eaai --games 2 --seed 3 --threads 1"
    "mc64|match mc:samples=64,calibrate=false greedy --games 1 --seed 5 --threads 1"
    "share-simple|match $root/strategies/mc-share-2ms.toml simple --rules eaai --games 1 --seed 4 --threads 1"
    "share-tracker|match $root/strategies/mc-share-2ms.toml tracker --rules eaai --games 1 --seed 4 --threads 1"
    "strongest-simple|match $root/strategies/mc-strongest-2ms.toml simple --rules eaai --games 1 --seed 6 --threads 1"
    "three|match greedy simple tracker --games 40 --seed 9"
    "sprt|match greedy tracker --hands 4000 --seed 7 --sprt elo0=0,elo1=10"
    "run-whole|run $work/round-robin.toml --threads 2"
    "run-shards|shards"
)

# A round-robin spec for the run rows, played whole and as two shards.
cat >"$work/round-robin.toml" <<'SPEC'
seed = 11
games = 400
players = ["greedy", "simple", "tracker"]
pairing = "round_robin"

[[variant]]
name = "standard"

[[variant]]
name = "eaai"
SPEC

# A manifest without what names the build or the folders: the commit, the
# command, and a merge's lines naming its shards.
manifest() {
    grep -v -E '^(git_commit|command) = ' "$1" | grep -v -F "$work/"
}

status=0
for entry in "${runs[@]}"; do
    name=${entry%%|*}
    read -r -a args <<<"${entry#*|}"
    for side in old new; do
        bin=$old
        [[ $side == new ]] && bin=$new
        dir="$work/$side/$name"
        mkdir -p "$(dirname "$dir")"
        if [[ ${args[0]} == run ]]; then
            "$bin" "${args[@]}" --out "$dir" --record "$dir.record" -q >/dev/null
        elif [[ ${args[0]} == shards ]]; then
            for k in 1 2; do
                "$bin" run "$work/round-robin.toml" --shard "$k/2" --threads 1 \
                    --out "$dir.shard$k" --record "$dir.shard$k.record" -q >/dev/null
            done
            "$bin" merge "$dir.shard1" "$dir.shard2" --out "$dir" \
                --record "$dir.record" -q >/dev/null
        else
            "$bin" "${args[@]}" --out "$dir" --record "$dir.record" -q >/dev/null
        fi
    done
    if diff -r -q -x manifest.toml "$work/old/$name" "$work/new/$name" >/dev/null \
        && { [[ ! -e "$work/old/$name.record" ]] || cmp -s "$work/old/$name.record" "$work/new/$name.record"; } \
        && diff <(manifest "$work/old/$name/manifest.toml") \
                <(manifest "$work/new/$name/manifest.toml") >/dev/null; then
        echo "same      $name"
    else
        echo "DIFFERENT $name"
        status=1
    fi
done
echo "outputs in $work"
exit $status
