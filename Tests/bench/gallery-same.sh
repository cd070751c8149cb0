#!/usr/bin/env bash
# Whether a kinetic binary writes every gallery GIF byte for byte as an earlier one does
# at `--jobs 1` (issue 42: the gallery's GIF CPU is cut only where the bytes stay), and
# the CPU (user + system) each took:
#   BENCH_BEFORE=/path/to/old/kinetic KINETIC=.build/release/kinetic bash Tests/bench/gallery-same.sh
# GALLERY_SCENES="snow rope" checks some scenes only (default: every scenes/*.yaml).
# Prints one line per scene (name, CPU before, CPU after, bytes, same/DIFFERENT) and the
# sums; exits 1 when any GIF differs or either binary fails on a scene.
set -euo pipefail
source "$(dirname "$0")/common.sh"
before=${BENCH_BEFORE:?set BENCH_BEFORE to the earlier kinetic binary}
case "$before" in /*) ;; *) before="$root/$before" ;; esac
bench_setup "gallery-same" gallery-same "$kinetic" "$before" /usr/bin/time cmp python3

names=()
if [ -n "${GALLERY_SCENES:-}" ]; then
    read -ra names <<< "$GALLERY_SCENES"
else
    for s in "$root"/scenes/*.yaml; do names+=("$(basename "$s" .yaml)"); done
fi

# cpu OUT BINARY ARGS… — runs the binary, its user + system seconds in OUT; false on failure.
cpu() {
    local out=$1; shift
    local status=0
    /usr/bin/time -f "%U %S" -o "$out" "$@" >/dev/null 2>err.txt || status=$?
    python3 -c "import sys; u, s = open(sys.argv[1]).read().split()[-2:]; open(sys.argv[1], 'w').write(f'{float(u) + float(s):.2f}')" "$out"
    return $status
}

failed=0; sum_before=0; sum_after=0
for name in "${names[@]}"; do
    scene=$root/scenes/$name.yaml
    # Interleaved, so the machine's load falls on both alike.
    if ! cpu b.txt "$before" render "$scene" -o "before-$name.gif" --jobs 1 --quiet; then
        echo "$name: the earlier binary failed: $(tail -1 err.txt)"; failed=1; continue
    fi
    if ! cpu a.txt "$kinetic" render "$scene" -o "after-$name.gif" --jobs 1 --quiet; then
        echo "$name: FAILED: $(tail -1 err.txt)"; failed=1; continue
    fi
    verdict=same
    cmp -s "before-$name.gif" "after-$name.gif" || { verdict=DIFFERENT; failed=1; }
    b=$(cat b.txt); a=$(cat a.txt)
    sum_before=$(python3 -c "print(round($sum_before + $b, 2))"); sum_after=$(python3 -c "print(round($sum_after + $a, 2))")
    echo "$name $b $a $(stat -c %s "after-$name.gif") $verdict"
    rm -f "before-$name.gif" "after-$name.gif"
done
echo "sum: before ${sum_before} s, after ${sum_after} s CPU over ${#names[@]} scenes (load $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$failed" = 0 ] && echo "every GIF the same" || echo "some GIF differs or failed"
exit "$failed"
