#!/bin/sh
# Side by side with jdh8's published crates: CPU time a hand of
#   EAAI simple self-play under eaai rules   (ginlab simple  vs jdh8 EaaiSimpleBot)
#   greedy-style self-play under standard    (ginlab greedy  vs jdh8 HeuristicBot)
# and CPU time a decision of
#   search at 128 worlds against a greedy-style player, standard rules
#       (ginlab mc:samples=128 vs greedy, jdh8 MonteCarloBot at 128 vs
#        HeuristicBot; the search seat's decisions only)
# one thread each, runs interleaved (ginlab, jdh8, ginlab, jdh8, ...) so a
# busy machine slows both alike; prints each run's user CPU seconds and the
# ratio jdh8 / ginlab per hand (per decision for the search).
#
#   benches/jdh8/compare.sh [ROUNDS] [GINLAB_HANDS] [JDH8_HANDS] [GINLAB_MC_HANDS] [JDH8_MC_HANDS]
#
# The search's cost a decision is marginal: (CPU of MC_HANDS hands − CPU
# of one hand) / (their difference in decisions), so that start-up (a
# hand prior measured once a process, about 2.4 s, for rules whose prior
# is not a committed table; none for these standard rules) counts for
# neither program. ginlab's decisions are the search
# seat's actions in the run's record (every action it was asked for,
# forced stock draws included); jdh8's are the calls to MonteCarloBot
# (ginlab-vs-jdh8 counts them; its driver skips forced draws).
# GINLAB_MC_HANDS = 0 skips the search.
#
# Builds ginlab (cargo build --release at the repository root) and this
# folder's project (its own workspace, pulling gin-rummy 0.1.3 and
# gin-rummy-engine 0.3.1 from crates.io). Needs /usr/bin/time.
set -eu
rounds=${1:-3}
ginlab_hands=${2:-400000}
jdh8_hands=${3:-20000}
ginlab_mc_hands=${4:-400}
jdh8_mc_hands=${5:-40}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case "$rounds$ginlab_hands$jdh8_hands$ginlab_mc_hands$jdh8_mc_hands" in
*[!0-9]*|'') echo "compare.sh: ROUNDS, GINLAB_HANDS, JDH8_HANDS, GINLAB_MC_HANDS and JDH8_MC_HANDS must be whole numbers" >&2; exit 2 ;;
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

[ "$ginlab_mc_hands" -gt 1 ] || exit 0
[ "$jdh8_mc_hands" -gt 1 ] || { echo "compare.sh: JDH8_MC_HANDS must be at least 2" >&2; exit 2; }
record=$(mktemp)
trap 'rm -f "$record"' EXIT
# ginlab's search: CPU seconds and decisions (player A's actions in the record)
ginlab_mc() {
    t=$(/usr/bin/time -f %U "$ginlab" match mc:samples=128 greedy --hands "$1" --seed "$2" \
        --threads 1 -q --no-duplicate --record "$record" 2>&1 >/dev/null | tail -n 1)
    echo "$t $(grep -o '\["A",' "$record" | wc -l)"
}
# jdh8's search: CPU seconds and decisions (the count it prints)
jdh8_mc() {
    out=$(mktemp)
    t=$(/usr/bin/time -f %U "$jdh8" mc128 "$1" "$2" 2>&1 >"$out" | tail -n 1)
    echo "$t $(sed -n 's/^decisions //p' "$out")"
    rm -f "$out"
}
i=1
while [ "$i" -le "$rounds" ]; do
    g1=$(ginlab_mc 1 "$i"); gn=$(ginlab_mc "$ginlab_mc_hands" "$i")
    j1=$(jdh8_mc 1 "$i"); jn=$(jdh8_mc "$jdh8_mc_hands" "$i")
    awk -v i="$i" -v g1="$g1" -v gn="$gn" -v j1="$j1" -v jn="$jn" 'BEGIN {
        split(g1, a, " "); split(gn, b, " "); split(j1, c, " "); split(jn, d, " ")
        gd = (b[1] - a[1]) / (b[2] - a[2]) * 1e3; jd = (d[1] - c[1]) / (d[2] - c[2]) * 1e3
        printf "mc128 round %d: ginlab %.2f s / %d decisions (1 hand: %.2f s / %d) = %.3f ms a decision; jdh8 %.2f s / %d (1 hand: %.2f s / %d) = %.2f ms; ratio %.1fx\n", i, b[1], b[2], a[1], a[2], gd, d[1], d[2], c[1], c[2], jd, (gd > 0 ? jd / gd : 0)
    }'
    i=$((i + 1))
done
