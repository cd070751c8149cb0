#!/usr/bin/env bash
# The layer-effect rows of `make bench` (issue 15, items 1 and 2), run at the end of
# run.sh or alone:
#   KINETIC=.build/release/kinetic bash Tests/bench/layers.sh
#
# Each effect is measured against its peer in the same run: the same scene with the
# effect turned off. Scenes are written here from one template each, so a pair differs
# only in the effect's keys.
#   - shadows: 24 cards (rounded background, a gradient banner and a shape sublayer)
#     sliding on a 750×1334 px canvas, without a shadow, with a crisp one (radius 0)
#     and with a blurred one (radius 8 pt); plus a snow-like emitter (200 flakes) with
#     and without its zero-radius shadow.
#   - opacity groups: 300 shapes with fill and stroke at opacity 0.6 (each a group of
#     two paints) against the same shapes at opacity 1, on a sliding container.
# CPU time (user + system) of `render --discard --jobs 1`, steady state, in BENCH_REPEAT
# (default 7) paired runs, below. LAYER_ROWS=groups runs the opacity-group row alone
# (LAYER_ROWS=shadows the three shadow rows). Until 28 Nov the fastest of 2 runs of each scene
# counted, taken minutes apart: a row read 1.17–1.95× for one binary. Reports only.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-7}
command -v "$kinetic" >/dev/null || { echo "bench: $kinetic is missing" >&2; exit 1; }
if [ -n "${BENCH_OUT:-}" ]; then
    work=$BENCH_OUT/layers; rm -rf "$work"; mkdir -p "$work"
else
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fi
cd "$work"

python3 - <<'PY'
import random
random.seed(15)
head = 'kinetic: 1\nscene: {size: [375, 667], scale: 2, fps: 30, duration: 8, background: "#E9EAF0"}\n'

def cards(shadow):
    out = [head, "layers:\n  - id: stage\n    frame: [0, 0, 375, 667]\n    sublayers:\n"]
    for i in range(24):
        x, y = 20 + (i % 4) * 88, 20 + (i // 4) * 105
        out.append(f"      - frame: [{x}, {y}, 72, 88]\n        cornerRadius: 12\n        backgroundColor: white\n")
        if shadow is not None:
            out.append(f"        shadowOpacity: 0.35\n        shadowRadius: {shadow}\n        shadowOffset: [0, 3]\n")
        out.append("        sublayers:\n"
                   "          - {type: gradient, frame: [8, 8, 56, 30], colors: ['#2B1B5A', '#C2426B']}\n"
                   "          - {type: shape, path: {oval: [8, 46, 34, 34]}, fillColor: '#FFCC4D'}\n")
    out.append("animations:\n  - {layer: stage, keyPath: position.x, from: 167.5, to: 207.5, duration: 8}\n")
    return "".join(out)

def snow(shadow):
    s = f"""{head}layers:
  - id: snow
    type: emitter
    frame: [0, 0, 375, 667]
    beginTime: -40
    emitterPosition: [187.5, -30]
    emitterSize: [750, 0]
    emitterShape: line
    emitterMode: outline
"""
    if shadow:
        s += "    shadowOpacity: 1\n    shadowRadius: 0\n    shadowOffset: [0, 1]\n    shadowColor: white\n"
    s += """    emitterCells:
      - name: flake
        birthRate: 5
        lifetime: 120
        velocity: -10
        velocityRange: 10
        yAcceleration: 8
        emissionRange: 90deg
        spinRange: 45deg
        color: "rgba(153, 168, 189, 1)"
        contents: {size: [16, 16], path: "M 8 0 L 16 8 L 8 16 L 0 8 Z"}
"""
    return s

def shapes(opacity):
    out = [head, "layers:\n  - id: stage\n    frame: [0, 0, 375, 667]\n    sublayers:\n"]
    for i in range(300):
        x, y, r = random.uniform(0, 340), random.uniform(0, 630), random.uniform(8, 24)
        out.append(f"      - {{type: shape, path: {{oval: [{x:.1f}, {y:.1f}, {r:.1f}, {r:.1f}]}}, fillColor: '#4A90D9', "
                   f"strokeColor: '#1F3A5F', lineWidth: 2, opacity: {opacity}}}\n")
    out.append("animations:\n  - {layer: stage, keyPath: position.x, from: 167.5, to: 207.5, duration: 8}\n")
    return "".join(out)

for name, text in [("cards-plain", cards(None)), ("cards-r0", cards(0)), ("cards-r8", cards(8)),
                   ("snow-plain", snow(False)), ("snow-shadow", snow(True)),
                   ("shapes-plain", shapes(1)), ("shapes-faded", shapes(0.6))]:
    open(f"{name}.yaml", "w").write(text)
PY

# Paired runs: each repeat runs every effect's scene next to its peer (in alternating
# order), so both see the machine as it is then; the row's ratio is the median of the
# repeats' ratios. A run's CPU time (user + system, from the kernel's accounting, to the
# microsecond) less its scene's one-frame run (the fastest of three: loading and
# first-frame caches count for neither) is its steady state.
frames=240
KINETIC_BIN="$kinetic" FRAMES=$frames REPEAT=$repeat ROWS=${LAYER_ROWS:-all} python3 - <<'PY'
import os, statistics, subprocess, sys

kinetic, frames, repeat = os.environ["KINETIC_BIN"], int(os.environ["FRAMES"]), int(os.environ["REPEAT"])

def cpu(scene, *extra):
    """CPU seconds of one `render --discard --jobs 1` of scene."""
    with open(f"log-{scene}.txt", "w") as log:
        p = subprocess.Popen([kinetic, "render", f"{scene}.yaml", *extra, "--discard", "--jobs", "1", "--quiet"],
                             stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.stderr.write(f"bench: kinetic render {scene}.yaml {' '.join(extra)} failed:\n{open(f'log-{scene}.txt').read()[-2000:]}")
        sys.exit(1)
    return usage.ru_utime + usage.ru_stime

rows = [("24 cards, shadow radius 0", "cards-r0", "cards-plain"),
        ("24 cards, shadow radius 8 pt", "cards-r8", "cards-plain"),
        ("emitter, 200 flakes, shadow radius 0", "snow-shadow", "snow-plain"),
        ("300 shapes, fill + stroke, opacity 0.6 (groups)", "shapes-faded", "shapes-plain")]
if os.environ["ROWS"] != "all":
    rows = [r for r in rows if (r[1] == "shapes-faded") == (os.environ["ROWS"] == "groups")]
scenes = sorted({s for _, a, b in rows for s in (a, b)})
first = {s: min(cpu(s, "--frames", "0-0") for _ in range(3)) for s in scenes}
def ms(scene, seconds):
    return max(seconds - first[scene], 1e-6) / (frames - 1) * 1000
samples = {label: [] for label, _, _ in rows}
for run in range(repeat):
    sys.stderr.write(f"bench: layer effects, run {run + 1} of {repeat}\n")
    for label, subject, peer in rows:
        order = [subject, peer] if run % 2 == 0 else [peer, subject]
        t = {s: ms(s, cpu(s)) for s in order}
        samples[label].append((t[subject], t[peer]))

print(f"\n### layer effects against the same layers without them ({frames} frames, 750×1334 px, "
      f"`--discard --jobs 1`, CPU ms a frame: medians of {repeat} paired runs)\n")
print("| effect | with | without | ratio | ≤ 1.5× |\n| --- | ---: | ---: | ---: | --- |")
for label, _, _ in rows:
    pairs = samples[label]
    ratio = statistics.median(a / b for a, b in pairs)
    with_ms, without_ms = statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs)
    spread = f"{min(a / b for a, b in pairs):.2f}–{max(a / b for a, b in pairs):.2f}"
    print(f"| {label} | {with_ms:.2f} | {without_ms:.2f} | {ratio:.2f} (runs {spread}) | {'PASS' if ratio <= 1.5 else 'FAIL'} |")
print()
PY
