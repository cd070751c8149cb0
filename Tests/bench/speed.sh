#!/usr/bin/env bash
# The rows of issue 42 ("Speed, round three") that the other bench scripts do not print,
# run at the end of run.sh or alone:
#   KINETIC=.build/release/kinetic bash Tests/bench/speed.sh
#
# Each row is a ratio of two runs made back to back (interleaved, the order swapped every
# run, so that load from other processes hits both alike): the median of BENCH_REPEAT
# (default 5) pairs and their range.
#   - GIF vs discarded: `render -o x.gif --jobs 1` against `render --discard --jobs 1` of
#     the same scene (snow, rope), wall time and peak RSS (goals ≤ 2.0× and ≤ 1.5×);
#   - parallel encoding: snow's GIF at `--jobs 2` against `--jobs 1`, wall (≤ 0.65×);
#   - PNG frames: snow's frames folder against its GIF (both with every core), wall
#     (≤ 1.5×), and the folder's bytes against BENCH_BEFORE's (an earlier binary) when
#     given (≤ 1.3×);
#   - one frame: `render --frame N -o x.png` against a C program drawing the same frame
#     with Cairo (≤ 2.5×), and 300 rectangles against C+Cairo and rlottie: no such peer
#     program is in the repository yet, so those rows print the time alone and say so.
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

KINETIC_BIN="$kinetic" BEFORE="$before" SCENES="$scenes" REPEAT=$repeat python3 - <<'PY'
import os, shutil, statistics, subprocess, sys, time

kinetic, before, scenes, repeat = (os.environ["KINETIC_BIN"], os.environ["BEFORE"], os.environ["SCENES"],
                                   int(os.environ["REPEAT"]))

def run(binary, *args):
    """Wall seconds, CPU seconds and peak RSS (KiB) of one run."""
    start = time.monotonic()
    with open("log.txt", "w") as log:
        p = subprocess.Popen([binary, *args, "--quiet"], stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.stderr.write(f"bench: {binary} {' '.join(args)} failed:\n{open('log.txt').read()[-2000:]}")
        sys.exit(1)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss

def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))

def pairs(subject, peer):
    """`repeat` interleaved (subject, peer) measurements; each a function returning a tuple."""
    out = []
    for r in range(repeat):
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
    verdict = "PASS" if m <= goal else "FAIL"
    print(f"| {label} | {peer} | {fmt(a)} | {fmt(b)} | {m:.2f} ({lo:.2f}–{hi:.2f}) | ≤ {goal} | {verdict} |")

print(f"\n### issue 42: speed against peers ({os.cpu_count()} cores; medians of {repeat} interleaved pairs, "
      "range in brackets)\n")
print("| run | peer | run | peer | ratio | goal | |\n| --- | --- | ---: | ---: | ---: | --- | --- |")
for name in ("snow", "rope"):
    sys.stderr.write(f"bench: {name} GIF against --discard\n")
    scene = f"{scenes}/{name}.yaml"
    ps = pairs(lambda: run(kinetic, "render", scene, "-o", f"{name}.gif", "--jobs", "1"),
               lambda: run(kinetic, "render", scene, "--discard", "--jobs", "1"))
    row(f"{name} → GIF, `--jobs 1`", "the same frames `--discard`", ps, 0, 2.0)
    row(f"{name} → GIF, `--jobs 1`, peak RSS", "`--discard`, peak RSS", ps, 2, 1.5)

sys.stderr.write("bench: snow GIF --jobs 2 against --jobs 1\n")
snow = f"{scenes}/snow.yaml"
ps = pairs(lambda: run(kinetic, "render", snow, "-o", "snow-j2.gif", "--jobs", "2"),
           lambda: run(kinetic, "render", snow, "-o", "snow-j1.gif", "--jobs", "1"))
row("snow → GIF, `--jobs 2`", "`--jobs 1`", ps, 0, 0.65)
same = open("snow-j2.gif", "rb").read() == open("snow-j1.gif", "rb").read()

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

sys.stderr.write("bench: one frame\n")
one = [run(kinetic, "render", snow, "--frame", "100", "-o", "one.png")[0] for _ in range(repeat)]
print(f"| snow, one frame (`--frame 100 -o x.png`) | C+Cairo drawing the same frame | {statistics.median(one):.2f} s "
      "| not built | — | ≤ 2.5 | NOT MEASURED: no C+Cairo peer program yet |")
print("| 300 rounded rectangles, 150 frames | C+Cairo, rlottie | | not built | — | ≤ 1.05, ≤ 1.0 "
      "| NOT MEASURED: no peer program yet |")
print(f"\n- `--jobs 2` and `--jobs 1` GIFs identical: {'yes' if same else 'NO'}")
print(f"- PNG frames: {size_note}")
print("- opacity groups: layers.sh's table; physics against pymunk: physics.sh's; gallery CPU: pipeline.sh's "
      "`gif` row (with BENCH_BEFORE)\n")
PY
