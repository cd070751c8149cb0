#!/usr/bin/env bash
# The GIF rows of `make bench` (issue 15): kinetic's GIF against ffmpeg's two-pass
# palettegen/paletteuse on gallery scenes at scale 2 and on the bench scene (size, PSNR,
# time), and against Pillow on frames that change everywhere (Tests/bench/scenes/gif-fade.yaml).
#
# Every GIF is compared with the PNG frames kinetic renders of the same scene, by ffmpeg's
# psnr filter in RGB over ALL frames, MSE-based: the mean squared error of every pixel of
# every frame, then one PSNR of it (the filter's closing "average"). Not a mean of per-frame
# PSNRs: PSNR is logarithmic, so averaging it per frame weighs a nearly perfect frame
# (60 dB, or an unchanged one counted as 100 dB) as much as a bad one and lets a few
# frames with large errors vanish in the mean; and not a sample of frames, which misses
# the frames where errors build up. The MSE over all frames is the error a viewer sees
# over the whole animation, and it ranks encoders the way the PNG frames say.
#
# Time is CPU time (user + system, GNU time): the bench machine is shared, and CPU time
# measures the work done whatever else runs. kinetic's row is the whole render (simulate,
# rasterize, encode, all cores), ffmpeg's the encoding alone (both passes over the PNG
# frames kinetic wrote), Pillow's the encoding alone too (frames decoded before its clock
# starts, see gif-pillow.py); kinetic's encoding alone is its GIF render minus a
# `--discard` render of the same frames.
#
# Environment: KINETIC, BENCH_SCENE (see common.sh); GIF_BENCH_SCENES: `sample` (the
# default: the bench scene and a few gallery scenes, about a quarter of the full run's
# time), `all` (every scene in scenes/, the full table; long), or scene names separated
# by spaces; BENCH_OUT keeps the work in BENCH_OUT/gif. KINETIC_BEFORE: another kinetic
# binary (an older build) measured in the same run on the same frames, for before/after
# columns. GIF_BENCH_REUSE=1 with BENCH_OUT: keep the PNG frames and ffmpeg's GIFs, times and
# PSNR of an earlier run in BENCH_OUT/gif instead of making them again (the peer does not
# change between runs; the kinetic rows are always made afresh). Reports, never gates:
# exit 0 unless a tool fails.
set -euo pipefail
source "$(dirname "$0")/common.sh"
sample="flow-menu snow tvos-card fireworks-button lock-screen replicator-grid"

case "${GIF_BENCH_SCENES:-sample}" in
    sample) names=$sample ;;
    all) names=$(cd "$root/scenes" && ls *.yaml | sed 's/\.yaml$//') ;;
    *) names=$GIF_BENCH_SCENES ;;
esac
before=${KINETIC_BEFORE:-}
case "$before" in ""|/*) ;; *) before="$PWD/$before" ;; esac
if [ "${GIF_BENCH_REUSE:-}" = 1 ] && [ -n "${BENCH_OUT:-}" ] && [ -d "$BENCH_OUT/gif" ]; then
    cd "$BENCH_OUT/gif"; reuse=1
else
    bench_setup "gif bench" gif "$kinetic" /usr/bin/time ffmpeg /usr/bin/python3; reuse=0
fi

# cpu NAME COMMAND… — runs the command under GNU time and prints its CPU seconds.
cpu() {
    local name=$1; shift
    if ! /usr/bin/time -f '%U %S' -o "time-$name.txt" "$@" >"log-$name.txt" 2>&1; then
        echo "gif bench: '$*' failed:" >&2; tail -20 "log-$name.txt" >&2; exit 1
    fi
    python3 -c "import sys; u, s = map(float, open(sys.argv[1]).read().split()[-2:]); print(f'{u + s:.2f}')" "time-$name.txt"
}

# psnr GIF DIR — all-frames, MSE-based PSNR (dB, RGB) of GIF against DIR/frame-*.png.
# Both streams are renumbered frame by frame (settb, setpts=N), so GIF's centisecond delays
# cannot pair a frame with its neighbour's PNG; fails unless every frame was compared.
psnr() {
    local gif=$1 dir=$2 n
    n=$(find "$dir" -name 'frame-*.png' | wc -l)
    ffmpeg -v info -nostats -i "$gif" -i "$dir/frame-%04d.png" -lavfi \
        "[0:v]settb=1/100,setpts=N,format=rgb24[a];[1:v]settb=1/100,setpts=N,format=rgb24[b];[a][b]psnr=stats_file=$gif.psnr" \
        -f null - 2>"$gif.psnr-log"
    python3 - "$gif.psnr" "$gif.psnr-log" "$n" <<'PY'
import re, sys
frames = sum(1 for line in open(sys.argv[1]) if "mse_avg" in line)
if frames != int(sys.argv[3]):
    sys.exit(f"gif bench: {sys.argv[1]}: {frames} frames compared, wanted {sys.argv[3]}")
average = re.findall(r"PSNR r:\S+ g:\S+ b:\S+ average:(\S+)", open(sys.argv[2]).read())[-1]
print("100.00" if average == "inf" else f"{float(average):.2f}")
PY
}

kib() { python3 -c "import os, sys; print(f'{os.path.getsize(sys.argv[1]) / 1024:.0f}')" "$1"; }
fps_of() {
    /usr/bin/python3 -c "import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))['scene'].get('fps', 50))" "$1"
}

echo "gif bench: scenes: $names" >&2
rows=""; before_rows=""; fails=0; count=0
for name in bench $names; do
    if [ "$name" = bench ]; then src=$scene; else src=$root/scenes/$name.yaml; fi
    [ -f "$src" ] || { echo "gif bench: no scene $src" >&2; exit 1; }
    echo "gif bench: $name" >&2
    mkdir -p "$name"
    # The bench scene renders at its own scale (2), the gallery's at scale 2.
    scale=(); [ "$name" = bench ] || scale=(--scale 2)
    fps=$(fps_of "$src")
    if [ "$reuse" = 1 ] && [ -f "$name/ffmpeg.txt" ]; then
        read -r c_f p_f < "$name/ffmpeg.txt"
    else
        "$kinetic" render "$src" "${scale[@]}" -o "$name/frames/" --quiet
        c_p=$(cpu "$name-palettegen" ffmpeg -v error -y -framerate "$fps" -i "$name/frames/frame-%04d.png" \
            -vf palettegen "$name/palette.png")
        c_u=$(cpu "$name-paletteuse" ffmpeg -v error -y -framerate "$fps" -i "$name/frames/frame-%04d.png" \
            -i "$name/palette.png" -lavfi paletteuse "$name/ffmpeg.gif")
        c_f=$(python3 -c "print(f'{$c_p + $c_u:.2f}')")
        p_f=$(psnr "$name/ffmpeg.gif" "$name/frames")
        echo "$c_f $p_f" > "$name/ffmpeg.txt"
    fi
    c_k=$(cpu "$name-kinetic" "$kinetic" render "$src" "${scale[@]}" -o "$name/kinetic.gif" --quiet)
    p_k=$(psnr "$name/kinetic.gif" "$name/frames")
    if [ -n "$before" ]; then
        c_b=$(cpu "$name-before" "$before" render "$src" "${scale[@]}" -o "$name/before.gif" --quiet)
        p_b=$(psnr "$name/before.gif" "$name/frames")
        before_rows+=$(python3 -c "
import os
b, k, f = (os.path.getsize('$name/' + n) for n in ('before.gif', 'kinetic.gif', 'ffmpeg.gif'))
print(f'| $name | {b / 1024:.0f} | {k / 1024:.0f} | {b / f:.2f} | {k / f:.2f} | {$p_b - $p_f:+.2f} | {$p_k - $p_f:+.2f} | $c_b | $c_k |')")$'\n'
    fi
    s_k=$(stat -c %s "$name/kinetic.gif"); s_f=$(stat -c %s "$name/ffmpeg.gif")
    verdict=$(python3 -c "print('PASS' if $s_k <= $s_f and $p_k >= $p_f and $c_k <= $c_f else 'FAIL')")
    [ "$verdict" = PASS ] || fails=$((fails + 1)); count=$((count + 1))
    rows+=$(python3 -c "
n = $(find "$name/frames" -name 'frame-*.png' | wc -l)
print(f'| $name | {n} | $(kib "$name/kinetic.gif") | $(kib "$name/ffmpeg.gif") | {$s_k / $s_f:.2f} | $p_k | $p_f | {$p_k - $p_f:+.2f} | $c_k | $c_f | {$c_k / $c_f:.2f} | $verdict |')")$'\n'
done

# Frames that change everywhere: kinetic's encoding (GIF render minus --discard render)
# against Pillow's, on the same frames.
fade=$here/scenes/gif-fade.yaml
echo "gif bench: gif-fade (kinetic, Pillow)" >&2
[ "$reuse" = 1 ] && [ -d fade/frames ] || "$kinetic" render "$fade" -o fade/frames/ --quiet
c_gif=$(cpu fade-gif "$kinetic" render "$fade" -o fade/kinetic.gif --quiet --jobs 1)
c_discard=$(cpu fade-discard "$kinetic" render "$fade" --discard --quiet --jobs 1)
c_pillow=$(/usr/bin/python3 "$here/gif-pillow.py" fade/frames "$(fps_of "$fade")" fade/pillow.gif)
fade_frames=$(find fade/frames -name 'frame-*.png' | wc -l)
read -r c_enc ms_enc ms_pillow < <(python3 -c "
e = max($c_gif - $c_discard, 0.001); print(f'{e:.2f} {e / $fade_frames * 1000:.1f} {$c_pillow / $fade_frames * 1000:.1f}')")
p_fk=$(psnr fade/kinetic.gif fade/frames); p_fp=$(psnr fade/pillow.gif fade/frames)

cat <<EOF

### GIF: kinetic against ffmpeg palettegen + paletteuse (scale 2) and Pillow

PSNR: RGB, MSE over all frames against kinetic's PNG frames (ffmpeg's psnr "average").
CPU s: kinetic's whole render (all cores) against ffmpeg's two encoding passes over the PNG frames.
PASS: size ≤ ffmpeg's, PSNR ≥ ffmpeg's and CPU time ≤ ffmpeg's.

| scene | frames | kinetic KiB | ffmpeg KiB | size ratio | kinetic dB | ffmpeg dB | PSNR diff | kinetic CPU s | ffmpeg CPU s | time ratio | |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${rows}
| gif-fade, $fade_frames frames changing everywhere (750×1334) | kinetic encode (render − \`--discard\`, 1 job) | Pillow encode |
| --- | ---: | ---: |
| CPU s | $c_enc ($ms_enc ms a frame) | $c_pillow ($ms_pillow ms a frame) |
| GIF KiB | $(kib fade/kinetic.gif) | $(kib fade/pillow.gif) |
| PSNR dB | $p_fk | $p_fp |

EOF
if [ -n "$before" ]; then
    c_bgif=$(cpu fade-before "$before" render "$fade" -o fade/before.gif --quiet --jobs 1)
    cat <<EOF
Before ($before) and after ($kinetic), same frames, same run (size ratios and PSNR differences against ffmpeg's GIF; CPU: whole render):

| scene | before KiB | after KiB | before size ratio | after size ratio | before PSNR diff | after PSNR diff | before CPU s | after CPU s |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${before_rows}
gif-fade encoding (render − \`--discard\`, 1 job): before $(python3 -c "print(f'{max($c_bgif - $c_discard, 0.001):.2f}')") s CPU, $(kib fade/before.gif) KiB, $(psnr fade/before.gif fade/frames) dB; after $c_enc s CPU, $(kib fade/kinetic.gif) KiB, $p_fk dB; Pillow $c_pillow s CPU

EOF
fi
echo "PASS count: $((count - fails)) of $count scenes beat ffmpeg on size, PSNR and time"
verdict=$(python3 -c "print('PASS' if $c_enc <= $c_pillow else 'FAIL')")
echo "$verdict: GIF encoding of frames changing everywhere ≤ Pillow's CPU time (ratio $(python3 -c "print(f'{$c_enc / $c_pillow:.2f}')"))"
exit 0
