#!/usr/bin/env bash
# The physics rows of `make bench` (issue 15): kinetic against pymunk on the same piles.
# pymunk drives Chipmunk's core (its own optimized build) from Python; kinetic drives
# Debian's libchipmunk (a debug build, assertions on) from Swift. Both simulate the very
# scene (Tests/bench/pymunk-pile.py reads it) for the same simulated time at 240 steps/s,
# one core each; the ratio is CPU time (user + system), kinetic ÷ pymunk, the fastest of
# BENCH_REPEAT (default 2) interleaved runs. Each run also prints the pile's mean final y,
# so a peer that simulated something else shows.
#
# pymunk is not a Debian package: `pip install pymunk` (for the python3 on PATH); without
# it the rows say so and the script exits 0.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-2}

if ! python3 -c "import pymunk, yaml" 2>/dev/null; then
    echo "| physics rows | skipped: python3 has no pymunk (pip install pymunk) or no PyYAML | | |"
    exit 0
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

cpu() { # cpu NAME COMMAND… — CPU seconds of one run; the output's last line in OUT_NAME
    local name=$1; shift
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" > "$work/out" 2>"$work/err" \
        || { echo "bench: '$*' failed:" >&2; tail -5 "$work/err" >&2; exit 1; }
    read -r user sys < "$work/time"
    python3 -c "print(f'{$user + $sys:.2f}')"
}
best() { python3 -c "import sys; print(min(float(a) for a in sys.argv[1:] if a))" "$@"; }
mean_y_kinetic() {
    python3 -c "import json, sys; it = json.load(open(sys.argv[1]))['items']; print(f\"{sum(v['center'][1] for v in it.values()) / len(it):.1f}\")" "$work/out"
}

verdicts=()
echo "| peers on one core (CPU s, fastest of $repeat) | kinetic \`inspect --time T\` | pymunk | kinetic ÷ pymunk | mean final y, kinetic / pymunk |"
echo "| --- | ---: | ---: | ---: | --- |"
for pile in "500 20" "2000 5"; do
    read -r n seconds <<< "$pile"
    scene_file=$here/scenes/pile-$n.yaml
    k="" p=""
    for ((run = 1; run <= repeat; run++)); do
        echo "bench: physics, $n bodies, run $run of $repeat" >&2
        k="$k $(cpu kinetic "$kinetic" inspect "$scene_file" --time "$seconds")"; yk=$(mean_y_kinetic)
        p="$p $(cpu pymunk python3 "$here/pymunk-pile.py" "$scene_file" "$seconds")"; yp=$(tail -1 "$work/out")
    done
    # shellcheck disable=SC2086
    kb=$(best $k); pb=$(best $p)
    r=$(python3 -c "print(f'{$kb / $pb:.2f}')")
    echo "| $n bodies, $seconds s simulated at 240 steps/s | $kb | $pb | ${r}× | $yk / $yp |"
    if python3 -c "import sys; sys.exit(not ($r <= 1.1))"; then verdicts+=("PASS: $n bodies ≤ 1.1× pymunk (${r}×, CPU)")
    else verdicts+=("FAIL: $n bodies ≤ 1.1× pymunk (${r}×, CPU)"); fi
done
echo
printf '%s\n' "${verdicts[@]}"
