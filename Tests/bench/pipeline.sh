#!/usr/bin/env bash
# The loading, frame-clock and GIF rows of `make bench` (issue 13: "make bench shows no slowdown
# beyond noise"): the same work done by two kinetic binaries, the peer being the earlier
# one, run at the end of run.sh when BENCH_BEFORE is set, or alone:
#   BENCH_BEFORE=/path/to/old/kinetic KINETIC=.build/release/kinetic bash Tests/bench/pipeline.sh
#
# Rows, each over the gallery scenes both binaries load (a scene using keys the earlier
# binary does not know is left out of both):
#   - load: `validate` of the scenes without physics (no `dynamics:` or `events:` block):
#     parse, resolve and validation;
#   - load + physics check: `validate` of the scenes with physics, where validate now also
#     runs the frames' physics to find what render would refuse (issue 13: "nothing
#     checked later can refuse what validation passed"), work the earlier binary skipped;
#   - frames: `render --discard --jobs 1` of every scene (the frame clock and the raster,
#     no encoder);
#   - inspect: `inspect` of every scene (the frame clock without the raster);
#   - gif: `render -o NAME.gif --jobs 1` of every scene, the work `kinetic batch scenes
#     --jobs 1` does scene by scene in its children (issue 15's goal: half the CPU of the
#     binary the issue was filed against, 10fa8b4; give it as BENCH_BEFORE).
# CPU time (user + system) summed over the scenes; BENCH_REPEAT (default 3) rounds, the
# two binaries interleaved scene by scene so the machine's load falls on both alike; the
# median round counts, and every round is shown. PIPELINE_ROWS picks rows (default
# "load physics frames inspect gif"). Reports only: exit 0 whatever the ratios.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-3}
before=${BENCH_BEFORE:-}
if [ -z "$before" ]; then
    echo "pipeline rows: skipped (set BENCH_BEFORE to an earlier kinetic binary to compare with)"
    exit 0
fi
case "$before" in /*) ;; *) before="$root/$before" ;; esac
bench_setup "pipeline" pipeline "$kinetic" "$before" /usr/bin/time python3

# Scenes both binaries accept, and those of them with physics (Scene.physics: a top-level
# `dynamics:` or `events:` block).
scenes=(); still=(); physics=()
for s in "$root"/scenes/*.yaml; do
    if "$kinetic" validate "$s" >/dev/null 2>&1 && "$before" validate "$s" >/dev/null 2>&1; then
        scenes+=("$s")
        if grep -qE '^(dynamics|events):' "$s"; then physics+=("$s"); else still+=("$s"); fi
    fi
done
total=$(ls "$root"/scenes/*.yaml | wc -l)

# cpu BINARY ARGS… — user + system seconds of one run (its output discarded).
cpu() {
    /usr/bin/time -f "%U %S" -o t.txt "$@" >/dev/null 2>&1 || true
    python3 -c "u, s = open('t.txt').read().split()[-2:]; print(float(u) + float(s))"
}

# row NAME SCENES SUBCOMMAND [FLAGS…] — adds "NAME after before" to rounds.txt per round
# (SCENES: the name of an array of scene paths).
row() {
    local name=$1; local -n list=$2; shift 2
    for r in $(seq "$repeat"); do
        local a=0 b=0
        for s in "${list[@]}"; do
            b=$(python3 -c "print($b + $(cpu "$before" "$1" "$s" "${@:2}"))")
            a=$(python3 -c "print($a + $(cpu "$kinetic" "$1" "$s" "${@:2}"))")
        done
        echo "$name $a $b" >> rounds.txt
    done
}

: > rounds.txt
rows=" ${PIPELINE_ROWS:-load physics frames inspect gif} "
[[ $rows == *" load "* ]] && row load still validate
[[ $rows == *" physics "* ]] && row physics physics validate
[[ $rows == *" frames "* ]] && row frames scenes render --discard --jobs 1
[[ $rows == *" inspect "* ]] && row inspect scenes inspect
[[ $rows == *" gif "* ]] && row gif scenes render -o gallery.gif --jobs 1 --quiet
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$repeat" "${#scenes[@]}" "$total" "$load_after" "${#still[@]}" "${#physics[@]}" <<'PY'
import statistics, sys
repeat, used, total, load, still, physics = sys.argv[1:]
rows = {}
for line in open("rounds.txt"):
    name, a, b = line.split()
    rows.setdefault(name, []).append((float(a), float(b)))
what = {"load": f"`validate`, {still} scenes without physics",
        "physics": f"`validate`, {physics} scenes with physics (now runs their frames)",
        "frames": "`render --discard --jobs 1`", "inspect": "`inspect`",
        "gif": "`render -o NAME.gif --jobs 1` (the gallery batch's work)"}
print(f"\nLoading, frame clock and GIF rendering, this binary against BENCH_BEFORE ({used} of {total} gallery scenes, "
      f"CPU s summed over them, median of {repeat} interleaved rounds; load average after: {load}):\n")
print("| row | after | before | after ÷ before | rounds (after / before) |")
print("| --- | ---: | ---: | ---: | --- |")
for name, runs in rows.items():
    a = statistics.median(r[0] for r in runs)
    b = statistics.median(r[1] for r in runs)
    each = ", ".join(f"{x:.2f} / {y:.2f}" for x, y in runs)
    print(f"| {what[name]} | {a:.2f} | {b:.2f} | {a / b:.2f}× | {each} |")
PY
exit 0
