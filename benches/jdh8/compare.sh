#!/bin/sh
# Side by side with jdh8's published crates: CPU time a hand of
#   EAAI simple self-play under eaai rules   (ginlab simple  vs jdh8 EaaiSimpleBot)
#   greedy-style self-play under standard    (ginlab greedy  vs jdh8 HeuristicBot)
# one thread each, runs interleaved (ginlab, jdh8, ginlab, jdh8, ...) so a
# busy machine slows both alike; prints each run's user CPU seconds and the
# ratio jdh8 / ginlab per hand.
#
#   benches/jdh8/compare.sh [ROUNDS] [GINLAB_HANDS] [JDH8_HANDS]
#
# Builds ginlab (cargo build --release at the repository root) and this
# folder's project (its own workspace, pulling gin-rummy 0.1.3 and
# gin-rummy-engine 0.3.1 from crates.io). Needs /usr/bin/time.
set -eu
rounds=${1:-3}
ginlab_hands=${2:-400000}
jdh8_hands=${3:-20000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case "$rounds$ginlab_hands$jdh8_hands" in
*[!0-9]*|'') echo "compare.sh: ROUNDS, GINLAB_HANDS and JDH8_HANDS must be whole numbers" >&2; exit 2 ;;
esac
[ -x /usr/bin/time ] || { echo "compare.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
(cd "$root" && cargo build --release --quiet --bin ginlab)
(cd "$here" && cargo build --release --quiet)
ginlab="$root/target/release/ginlab"
jdh8="$here/target/release/ginlab-vs-jdh8"

# user CPU seconds of a command (its output discarded)
cpu() { /usr/bin/time -f %U "$@" 2>&1 >/dev/null | tail -n 1; }

for work in simple greedy; do
    if [ "$work" = simple ]; then
        ours="match simple simple --rules eaai"; theirs=simple
    else
        ours="match greedy greedy"; theirs=heuristic
    fi
    i=1
    while [ "$i" -le "$rounds" ]; do
        # shellcheck disable=SC2086
        g=$(cpu "$ginlab" $ours --hands "$ginlab_hands" --seed "$i" --threads 1 -q --no-duplicate)
        j=$(cpu "$jdh8" "$theirs" "$jdh8_hands" "$i")
        awk -v w="$work" -v i="$i" -v g="$g" -v j="$j" -v gn="$ginlab_hands" -v jn="$jdh8_hands" 'BEGIN {
            gh = g / gn * 1e6; jh = j / jn * 1e6
            printf "%s round %d: ginlab %.2f s / %d hands = %.3f us a hand; jdh8 %.2f s / %d = %.2f us; ratio %.1fx\n", w, i, g, gn, gh, j, jn, jh, (gh > 0 ? jh / gh : 0)
        }'
        i=$((i + 1))
    done
done
