#!/usr/bin/env bash
# The output formats' rows of `make bench` (issue 19), run at the end of run.sh or alone:
#   KINETIC=.build/release/kinetic bash Tests/bench/outputs.sh
#
# 1. MP4: kinetic's whole render (simulate + rasterize + encode) against ffmpeg's libx264
#    encode alone of the very PNG frames kinetic wrote, same CRF (23) and preset (medium);
#    wall time, size, PSNR and SSIM (RGB, against the PNG frames) as ratios of one run.
# 2. WebP: kinetic's whole render against img2webp on the same frames, both lossless at
#    method 4 (img2webp's defaults) and both lossy at quality 75.
# 3. Per format, three gallery scenes: size, kinetic's wall time, PSNR against the PNG
#    frames (ffmpeg decodes; WebP, which ffmpeg 5.1 cannot decode animated, is marked
#    lossless or left blank), GIF beside the others.
# Reports only: exits 0 unless a tool fails. Environment: KINETIC, BENCH_SCENE (the
# head-to-head scene), BENCH_GALLERY (three scene names), BENCH_OUT (keep the files),
# BENCH_ONLY=mp4 (part 1 alone: its two rows and ratios, each run shown), BENCH_BEFORE
# (with BENCH_ONLY=mp4: another kinetic binary, timed in the same runs, for before/after).
set -euo pipefail
source "$(dirname "$0")/common.sh"
gallery=${BENCH_GALLERY:-snow tvos-card fireworks-button}

bench_setup "bench" outputs "$kinetic" /usr/bin/time ffmpeg img2webp python3

# timed NAME COMMAND… — wall seconds in T_NAME, CPU seconds (user + system) in C_NAME,
# peak RSS MiB in M_NAME. CPU time varies less than wall time on a shared machine.
timed() {
    local name=$1; shift
    if ! /usr/bin/time -f '%e %M %U %S' -o "time-$name.txt" "$@" >"log-$name.txt" 2>&1; then
        echo "bench: '$*' failed:" >&2; tail -20 "log-$name.txt" >&2; exit 1
    fi
    local secs kib user sys
    read -r secs kib user sys < "time-$name.txt"
    printf -v "T_$name" '%s' "$secs"
    printf -v "C_$name" '%s' "$(python3 -c "print(f'{$user + $sys:.2f}')")"
    printf -v "M_$name" '%s' "$((kib / 1024))"
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
kib() { python3 -c "import os, sys; print(f'{os.path.getsize(sys.argv[1]) / 1024:.0f}')" "$1"; }

# psnr FILE FRAMES_DIR FPS [DECODER…] — mean PSNR (RGB) of FILE's frames against the PNG
# frames; identical frames count as 100 dB. Both sides go to RGB through ffmpeg's own
# conversion, each video by the matrix its stream is tagged with (kinetic's BT.709,
# ffmpeg's untagged BT.601), so neither is judged by the other's conversion.
psnr() {
    local file=$1 dir=$2 fps=$3; shift 3
    local log=psnr-$(basename "$file").log
    ffmpeg -v error "$@" -i "$file" -framerate "$fps" -i "$dir/frame-%04d.png" \
        -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr=stats_file=$log" -f null - >/dev/null
    python3 - "$log" <<'PY'
import re, sys
vals = [min(100.0, float(v)) for v in re.findall(r'psnr_avg:(\S+)', open(sys.argv[1]).read())]
print(f"{sum(vals) / len(vals):.3f}" if vals else "n/a")
PY
}

# ssim FILE FRAMES_DIR FPS — mean SSIM (RGB, ffmpeg's "All") against the PNG frames.
ssim() {
    local file=$1 dir=$2 fps=$3
    ffmpeg -i "$file" -framerate "$fps" -i "$dir/frame-%04d.png" \
        -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]ssim" -f null - 2>&1 |
        sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1
}

# The scene's fps: `kinetic plan` knows the frame count, the scene file the rate.
scene_fps() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
try:
    import yaml
    print(yaml.safe_load(text)["scene"].get("fps", 50))
except ImportError:
    m = re.search(r'\bfps:\s*([0-9.]+)', text)
    print(m.group(1) if m else 50)
PY
}

fps=$(scene_fps "$scene")
echo "bench: outputs — $(basename "$scene") at $fps fps" >&2
"$kinetic" render "$scene" -o frames/ --quiet
frames=$(ls frames | wc -l)

# 1. MP4 head to head (interleaved, fastest of two).
before=${BENCH_BEFORE:-}
case "$before" in ""|/*) ;; *) before="$root/$before" ;; esac
for run in 1 2; do
    timed mp4_$run "$kinetic" render "$scene" -o kinetic.mp4 --quiet --crf 23
    if [ -n "$before" ]; then timed before_$run "$before" render "$scene" -o before.mp4 --quiet --crf 23; fi
    timed ffx264_$run ffmpeg -v error -y -framerate "$fps" -i frames/frame-%04d.png \
        -c:v libx264 -crf 23 -preset medium -pix_fmt yuv420p ffmpeg.mp4
done
T_mp4=$(python3 -c "print(min($T_mp4_1, $T_mp4_2))"); T_ffx264=$(python3 -c "print(min($T_ffx264_1, $T_ffx264_2))")
C_mp4=$(python3 -c "print(min($C_mp4_1, $C_mp4_2))"); C_ffx264=$(python3 -c "print(min($C_ffx264_1, $C_ffx264_2))")
p_mp4=$(psnr kinetic.mp4 frames "$fps"); p_ffx264=$(psnr ffmpeg.mp4 frames "$fps")
s_mp4=$(ssim kinetic.mp4 frames "$fps"); s_ffx264=$(ssim ffmpeg.mp4 frames "$fps")
if [ "${BENCH_ONLY:-}" = mp4 ]; then
    before_row=
    if [ -n "$before" ]; then
        T_before=$(python3 -c "print(min($T_before_1, $T_before_2))"); C_before=$(python3 -c "print(min($C_before_1, $C_before_2))")
        p_before=$(psnr before.mp4 frames "$fps"); s_before=$(ssim before.mp4 frames "$fps")
        before_row="| before: $before | $T_before ($T_before_1, $T_before_2) | $C_before ($C_before_1, $C_before_2) | $(kib before.mp4) | $p_before | $s_before |"
    fi
    cat <<EOF

### kinetic MP4 — $(basename "$scene"): $frames frames at $fps fps, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)

| run | wall s (runs) | CPU s (runs) | KiB | PSNR dB | SSIM |
| --- | ---: | ---: | ---: | ---: | ---: |
| kinetic render → MP4 | $T_mp4 ($T_mp4_1, $T_mp4_2) | $C_mp4 ($C_mp4_1, $C_mp4_2) | $(kib kinetic.mp4) | $p_mp4 | $s_mp4 |
| ffmpeg libx264 (encode alone) | $T_ffx264 ($T_ffx264_1, $T_ffx264_2) | $C_ffx264 ($C_ffx264_1, $C_ffx264_2) | $(kib ffmpeg.mp4) | $p_ffx264 | $s_ffx264 |
$before_row

- kinetic ÷ ffmpeg: wall $(ratio "$T_mp4" "$T_ffx264")×, CPU $(ratio "$C_mp4" "$C_ffx264")×, size $(ratio "$(stat -c %s kinetic.mp4)" "$(stat -c %s ffmpeg.mp4)")×, PSNR $(python3 -c "print(f'{$p_mp4 - $p_ffx264:+.3f}')") dB, SSIM $(python3 -c "print(f'{$s_mp4 - $s_ffx264:+.4f}')")
EOF
    if [ -n "$before" ]; then
        cat <<EOF
- before ÷ ffmpeg: wall $(ratio "$T_before" "$T_ffx264")×, CPU $(ratio "$C_before" "$C_ffx264")×, size $(ratio "$(stat -c %s before.mp4)" "$(stat -c %s ffmpeg.mp4)")×, PSNR $(python3 -c "print(f'{$p_before - $p_ffx264:+.3f}')") dB, SSIM $(python3 -c "print(f'{$s_before - $s_ffx264:+.4f}')")
- kinetic ÷ before: wall $(ratio "$T_mp4" "$T_before")×, CPU $(ratio "$C_mp4" "$C_before")×
EOF
    fi
    exit 0
fi
timed mp4x4 "$kinetic" render "$scene" -o kinetic-4x.mp4 --quiet \
    --duration "$(python3 -c "print($frames * 4 / $fps)")"

# 2. WebP against img2webp (frame duration in ms, as kinetic rounds it at this rate).
ms=$(python3 -c "print(round(1000 / $fps))")
timed webp "$kinetic" render "$scene" -o kinetic.webp --quiet
timed img2webp img2webp -loop 0 -lossless -m 4 -d "$ms" frames/frame-*.png -o img2webp.webp
timed webpq "$kinetic" render "$scene" -o kinetic-q75.webp --quiet --quality 75
timed img2webpq img2webp -loop 0 -lossy -q 75 -m 4 -d "$ms" frames/frame-*.png -o img2webp-q75.webp

cat <<EOF

### kinetic outputs — $(basename "$scene"): $frames frames at $fps fps, $(nproc) cores

Load average (1, 5, 15 min) after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown).

| run | wall s | CPU s | peak RSS MiB | KiB | PSNR dB | SSIM |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
| kinetic render → MP4 (crf 23, medium; whole render) | $T_mp4 | $C_mp4 | $M_mp4_2 | $(kib kinetic.mp4) | $p_mp4 | $s_mp4 |
| ffmpeg libx264 (crf 23, medium; PNG frames → MP4, encode alone) | $T_ffx264 | $C_ffx264 | $M_ffx264_2 | $(kib ffmpeg.mp4) | $p_ffx264 | $s_ffx264 |
| kinetic render → MP4, 4× frames | $T_mp4x4 | $C_mp4x4 | $M_mp4x4 | $(kib kinetic-4x.mp4) | |
| kinetic render → WebP lossless (whole render) | $T_webp | $C_webp | $M_webp | $(kib kinetic.webp) | lossless |
| img2webp -lossless -m 4 (PNG frames → WebP) | $T_img2webp | $C_img2webp | $M_img2webp | $(kib img2webp.webp) | lossless |
| kinetic render → WebP --quality 75 | $T_webpq | $C_webpq | $M_webpq | $(kib kinetic-q75.webp) | |
| img2webp -lossy -q 75 -m 4 | $T_img2webpq | $C_img2webpq | $M_img2webpq | $(kib img2webp-q75.webp) | |

- MP4, kinetic ÷ ffmpeg: wall time $(ratio "$T_mp4" "$T_ffx264")×, CPU time $(ratio "$C_mp4" "$C_ffx264")×, size $(ratio "$(stat -c %s kinetic.mp4)" "$(stat -c %s ffmpeg.mp4)")×, PSNR $(python3 -c "print(f'{$p_mp4 - $p_ffx264:+.3f}')") dB, SSIM $(python3 -c "print(f'{$s_mp4 - $s_ffx264:+.4f}')"); peak RSS 4× frames ÷ 1×: $(ratio "$M_mp4x4" "$M_mp4_2")×
- WebP lossless, kinetic ÷ img2webp: wall time $(ratio "$T_webp" "$T_img2webp")×, CPU time $(ratio "$C_webp" "$C_img2webp")×, size $(ratio "$(stat -c %s kinetic.webp)" "$(stat -c %s img2webp.webp)")×; lossy q75: wall $(ratio "$T_webpq" "$T_img2webpq")×, size $(ratio "$(stat -c %s kinetic-q75.webp)" "$(stat -c %s img2webp-q75.webp)")×
EOF

# 3. Per format, three gallery scenes.
echo
echo "| scene | format | KiB | wall s | PSNR dB |"
echo "| --- | --- | ---: | ---: | ---: |"
for name in $gallery; do
    s=$root/scenes/$name.yaml
    f=$(scene_fps "$s")
    echo "bench: outputs — $name" >&2
    "$kinetic" render "$s" -o "$name-frames/" --quiet
    n=$(ls "$name-frames" | wc -l)
    for ext in gif apng webp mp4 webm mov; do
        timed "g_$ext" "$kinetic" render "$s" -o "$name.$ext" --quiet
        t=T_g_$ext
        case $ext in
            webp) p=lossless ;;
            gif) # a GIF of a scene above 50 fps is resampled: compare only at the same rate
                 if python3 -c "import sys; sys.exit(not $f <= 50)"; then p=$(psnr "$name.gif" "$name-frames" "$f"); else p=; fi ;;
            webm) p=$(psnr "$name.webm" "$name-frames" "$f" -c:v libvpx-vp9) ;;
            *) p=$(psnr "$name.$ext" "$name-frames" "$f") ;;
        esac
        echo "| $name ($n frames) | $ext | $(kib "$name.$ext") | ${!t} | $p |"
    done
done
echo
