#!/usr/bin/env bash
# The rows of issue 42 ("Speed, round three") that the other bench scripts do not print,
# run at the end of run.sh or alone:
#   KINETIC=.build/release/kinetic bash Tests/bench/speed.sh
#
# Each row is a ratio of two runs made back to back (interleaved, the order swapped every
# run, so that load from other processes hits both alike): the median of BENCH_REPEAT
# (default 5) pairs and their range.
#   - GIF vs discarded: `render -o x.gif --jobs 1` against `render --discard --jobs 1` of
#     the same scene (snow, rope), wall time and peak RSS (goals ≤ 2.0× and ≤ 1.5×), and
#     CPU time beside the wall time (`--jobs 1` is one thread: the two should agree);
#   - parallel encoding: snow's GIF at `--jobs 2` against `--jobs 1`, wall (≤ 0.65×),
#     CPU time beside it; on 16 cores or more, snow at `--scale 4`, `--jobs 16` against
#     `--jobs 1` (at least 6× as fast: ≤ 0.167×);
#   - PNG frames: snow's frames folder against its GIF (both with every core), wall
#     (≤ 1.5×), and the folder's bytes against BENCH_BEFORE's (an earlier binary) when
#     given (≤ 1.3×);
#   - 300 rounded rectangles (make-rects.py's scene, 750×1334 px, 150 frames of a sliding
#     stage), against peers drawing the very same pixels:
#       one frame, `render --frame 75 -o x.png`, against peers/cairo-frame.c drawing that
#       frame with direct Cairo calls and writing it as a PNG (≤ 2.5×; 3 × BENCH_REPEAT
#       pairs, as a run lasts a tenth of a second);
#       150 frames, `render --discard --jobs 1`, against cairo-frame.c's 150 frames drawn
#       and discarded (≤ 1.05×) and against rlottie (peers/rlottie-frames.py, rlottie-python
#       from `make lottie-py` in LOTTIE_PY, default .build/lottie-py) rendering the scene's
#       Lottie export (`render -o x.json`, made once, untimed) at the same size (≤ 1.0×);
#       wall time, and CPU time beside it (rlottie rasterizes on a thread pool of its
#       own, so its CPU row is the like-for-like one against one job). Below the table: PSNR of the peers' frame 75
#       against Kinetic's, so a ratio never compares different pictures.
#     The C peer is built here with `cc -O2 … $(pkg-config --cflags --libs cairo)`; without
#     cc or rlottie-python those rows say NOT MEASURED. snow's one frame (its emitter is
#     no C program's to redraw) is timed alone, below the table.
# SPEED_ROWS=rects runs the 300-rectangle rows alone (a minute, not ten).
# Opacity groups (layers.sh), physics against pymunk (physics.sh) and the gallery's CPU
# (pipeline.sh) have their own rows. Reports only: the exit status is 0 whatever the goals say.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-5}
before=${BENCH_BEFORE:-}
command -v "$kinetic" >/dev/null || { echo "bench: $kinetic is missing" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (run make deps)" >&2; exit 1; }
bench_setup speed speed
scenes=$root/scenes
lottie_py=${LOTTIE_PY:-$root/.build/lottie-py}
case "$lottie_py" in /*) ;; *) lottie_py="$root/$lottie_py" ;; esac

# The 300-rectangle scene, its peers' copy, the C peer and the Lottie export.
python3 "$here/make-rects.py" .
cairo_peer=
if command -v cc >/dev/null && pkg-config --exists cairo &&
        cc -O2 "$here/peers/cairo-frame.c" -o cairo-frame $(pkg-config --cflags --libs cairo) -lm; then
    cairo_peer=$PWD/cairo-frame
fi
rlottie_peer=
if [ -d "$lottie_py/rlottie_python" ] && "$kinetic" render rects-300.yaml -o rects-300.json --quiet; then
    rlottie_peer=$here/peers/rlottie-frames.py
fi

KINETIC_BIN="$kinetic" BEFORE="$before" SCENES="$scenes" REPEAT=$repeat CAIRO_PEER="$cairo_peer" \
    RLOTTIE_PEER="$rlottie_peer" LOTTIE_PY="$lottie_py" ROWS="${SPEED_ROWS:-all}" python3 - <<'PY'
import os, shutil, statistics, subprocess, sys, time

kinetic, before, scenes, repeat = (os.environ["KINETIC_BIN"], os.environ["BEFORE"], os.environ["SCENES"],
                                   int(os.environ["REPEAT"]))
cairo_peer, rlottie_peer, lottie_py = os.environ["CAIRO_PEER"], os.environ["RLOTTIE_PEER"], os.environ["LOTTIE_PY"]

def timed(*command, env=None):
    """Wall seconds, CPU seconds and peak RSS (KiB) of one run of command."""
    start = time.monotonic()
    with open("log.txt", "w") as log:
        p = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.stderr.write(f"bench: {' '.join(command)} failed:\n{open('log.txt').read()[-2000:]}")
        sys.exit(1)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss

def run(binary, *args):
    return timed(binary, *args, "--quiet")

def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))

def pairs(subject, peer, count=repeat):
    """`count` interleaved (subject, peer) measurements; each a function returning a tuple."""
    out = []
    for r in range(count):
        if r % 2 == 0:
            a = subject(); b = peer()
        else:
            b = peer(); a = subject()
        out.append((a, b))
    return out

def ratio(ps, i):
    rs = [a[i] / max(b[i], 1e-9) for a, b in ps]
    return statistics.median(rs), min(rs), max(rs)

def row(label, peer, ps, i, goal, unit="wall"):
    m, lo, hi = ratio(ps, i)
    a = statistics.median(x[i] for x, _ in ps); b = statistics.median(y[i] for _, y in ps)
    fmt = (lambda v: f"{v / 1024:.0f} MiB") if i == 2 else (lambda v: f"{v:.2f} s")
    # No goal: shown for reading the row above it.
    verdict = "" if goal is None else "PASS" if m <= goal else "FAIL"
    print(f"| {label} | {peer} | {fmt(a)} | {fmt(b)} | {m:.2f} ({lo:.2f}–{hi:.2f}) | "
          f"{'—' if goal is None else f'≤ {goal}'} | {verdict} |")

print(f"\n### issue 42: speed against peers ({os.cpu_count()} cores; medians of {repeat} interleaved pairs, "
      "range in brackets)\n")
print("| run | peer | run | peer | ratio | goal | |\n| --- | --- | ---: | ---: | ---: | --- | --- |")
snow = f"{scenes}/snow.yaml"
same, size_note = None, "not run (SPEED_ROWS=rects)"
if os.environ["ROWS"] != "rects":
    for name in ("snow", "rope"):
        sys.stderr.write(f"bench: {name} GIF against --discard\n")
        scene = f"{scenes}/{name}.yaml"
        ps = pairs(lambda: run(kinetic, "render", scene, "-o", f"{name}.gif", "--jobs", "1"),
                   lambda: run(kinetic, "render", scene, "--discard", "--jobs", "1"))
        row(f"{name} → GIF, `--jobs 1`", "the same frames `--discard`", ps, 0, 2.0)
        row("the same, CPU time", "`--discard`, CPU time", ps, 1, 2.0)
        row(f"{name} → GIF, `--jobs 1`, peak RSS", "`--discard`, peak RSS", ps, 2, 1.5)

    sys.stderr.write("bench: snow GIF --jobs 2 against --jobs 1\n")
    ps = pairs(lambda: run(kinetic, "render", snow, "-o", "snow-j2.gif", "--jobs", "2"),
               lambda: run(kinetic, "render", snow, "-o", "snow-j1.gif", "--jobs", "1"))
    row("snow → GIF, `--jobs 2`", "`--jobs 1`", ps, 0, 0.65)
    # CPU time beside it, no goal: above 1.0 by what a second thread costs (waits,
    # copies); a loaded machine's wall times hide or inflate that.
    row("the same, CPU time", "`--jobs 1`, CPU time", ps, 1, None)
    same = open("snow-j2.gif", "rb").read() == open("snow-j1.gif", "rb").read()

    # Where 16 cores are at hand: snow at 4x (4-megapixel frames), --jobs 16 against 1,
    # goal at least 6x as fast (a ratio of at most 1/6).
    if (os.cpu_count() or 1) >= 16:
        sys.stderr.write("bench: snow --scale 4 GIF --jobs 16 against --jobs 1\n")
        ps = pairs(lambda: run(kinetic, "render", snow, "--scale", "4", "-o", "snow4-j16.gif", "--jobs", "16"),
                   lambda: run(kinetic, "render", snow, "--scale", "4", "-o", "snow4-j1.gif", "--jobs", "1"))
        row("snow `--scale 4` → GIF, `--jobs 16`", "`--jobs 1`", ps, 0, round(1 / 6, 3))
    else:
        print(f"| snow `--scale 4` → GIF, `--jobs 16` | `--jobs 1` | | | NOT MEASURED ({os.cpu_count()} cores) | ≤ 0.167 | |")

    sys.stderr.write("bench: snow PNG frames against its GIF\n")
    def frames(binary, folder):
        shutil.rmtree(folder, ignore_errors=True)
        return run(binary, "render", snow, "-o", folder + "/")
    ps = pairs(lambda: frames(kinetic, "frames"), lambda: run(kinetic, "render", snow, "-o", "snow.gif"))
    row("snow → PNG frames folder", "snow → GIF", ps, 0, 1.5)
    size_note = "no BENCH_BEFORE binary to compare the folder's bytes with"
    if before:
        frames(before, "frames-before")
        r = folder_bytes("frames") / folder_bytes("frames-before")
        size_note = (f"folder {folder_bytes('frames') / 1024:.0f} KiB, {r:.2f}× the earlier binary's "
                     f"({'PASS' if r <= 1.3 else 'FAIL'}: ≤ 1.3×)")

def not_measured(label, peer, goal, why):
    print(f"| {label} | {peer} | | not built | — | ≤ {goal} | NOT MEASURED: {why} |")

def psnr(a, b):
    """ffmpeg's PSNR (RGB) of two PNGs, as text ('inf' when identical)."""
    out = subprocess.run(["ffmpeg", "-v", "info", "-i", a, "-i", b, "-lavfi",
                          "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    found = [w.split(":")[1] for w in out.split() if w.startswith("average:")]
    return found[-1] if found else "unknown (ffmpeg failed)"

sys.stderr.write("bench: 300 rectangles, one frame and 150 frames, against C+Cairo and rlottie\n")
rects, frame, frames = "rects-300.yaml", "75", 150
picture = []
if cairo_peer:
    ps = pairs(lambda: run(kinetic, "render", rects, "--frame", frame, "-o", "one.png"),
               lambda: timed(cairo_peer, "rects-300.txt", "--frame", frame, "-o", "one-cairo.png"), 3 * repeat)
    row(f"300 rounded rectangles, one frame (`--frame {frame} -o x.png`; {3 * repeat} pairs)",
        "C+Cairo: the same frame → PNG",
        ps, 0, 2.5)
    picture.append(f"C+Cairo {psnr('one.png', 'one-cairo.png')} dB")
    ps = pairs(lambda: run(kinetic, "render", rects, "--discard", "--jobs", "1"),
               lambda: timed(cairo_peer, "rects-300.txt", "--frames", str(frames)))
    row(f"300 rounded rectangles, {frames} frames (`--discard --jobs 1`)", "C+Cairo: the same frames", ps, 0, 1.05)
    row("the same, CPU time", "C+Cairo, CPU time", ps, 1, 1.05)
else:
    not_measured("300 rounded rectangles, one frame", "C+Cairo", 2.5, "no cc or no Cairo development files")
    not_measured(f"300 rounded rectangles, {frames} frames", "C+Cairo", 1.05, "no cc or no Cairo development files")
if rlottie_peer:
    env = dict(os.environ, PYTHONPATH=lottie_py)
    player = ["/usr/bin/python3", rlottie_peer, "rects-300.json", "750", "1334"]
    ps = pairs(lambda: run(kinetic, "render", rects, "--discard", "--jobs", "1"),
               lambda: timed(*player, str(frames), env=env))
    row(f"300 rounded rectangles, {frames} frames (`--discard --jobs 1`)",
        "rlottie: the Lottie export's frames", ps, 0, 1.0)
    row("the same, CPU time", "rlottie, CPU time", ps, 1, 1.0)
    subprocess.run([*player, "--png", frame, "one-rlottie.png"], env=env, check=True)
    if os.path.exists("one.png"):
        picture.append(f"rlottie {psnr('one.png', 'one-rlottie.png')} dB")
else:
    not_measured(f"300 rounded rectangles, {frames} frames", "rlottie", 1.0,
                 f"no rlottie-python in {lottie_py} (run make lottie-py)")

one = [run(kinetic, "render", snow, "--frame", "100", "-o", "one-snow.png")[0] for _ in range(repeat)]
print(f"\n- 300 rectangles, frame {frame}: PSNR (RGB) of the peers' picture against Kinetic's: "
      f"{', '.join(picture) or 'no peer'}")
print(f"- snow, one frame (`--frame 100 -o x.png`), no peer (its emitter is no C program's to redraw): "
      f"{statistics.median(one):.2f} s, median of {repeat}")
print(f"- `--jobs 2` and `--jobs 1` GIFs identical: {'not run' if same is None else 'yes' if same else 'NO'}")
print(f"- PNG frames: {size_note}")
print("- opacity groups: layers.sh's table; physics against pymunk: physics.sh's; gallery CPU: pipeline.sh's "
      "`gif` row (with BENCH_BEFORE)\n")
PY
