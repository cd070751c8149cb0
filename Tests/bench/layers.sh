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
# CPU time (user + system) of `render --discard --jobs 1`, steady state: a one-frame run
# of the same scene is subtracted, so loading and first-frame caches count for neither.
# The fastest of BENCH_REPEAT (default 5) interleaved runs counts: on a shared machine a
# row read 1.17–1.95× within minutes at two runs. Reports only.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-5}
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

# cpu NAME ARGS… — fastest CPU seconds (user + system) of the runs into C_NAME.
cpu() {
    local name=$1; shift
    if ! /usr/bin/time -f '%U %S' -o "time-$name.txt" "$kinetic" render "$@" --discard --jobs 1 --quiet >"log-$name.txt" 2>&1; then
        echo "bench: kinetic render $* failed:" >&2; tail -20 "log-$name.txt" >&2; exit 1
    fi
    local user sys c v=C_$name
    read -r user sys < "time-$name.txt"
    c=$(python3 -c "print(f'{$user + $sys:.3f}')")
    if [ -z "${!v:-}" ] || python3 -c "import sys; sys.exit(not ($c < ${!v}))"; then printf -v "$v" '%s' "$c"; fi
}
scenes=(cards-plain cards-r0 cards-r8 snow-plain snow-shadow shapes-plain shapes-faded)
frames=240
for ((run = 1; run <= repeat; run++)); do
    echo "bench: layer effects, run $run of $repeat" >&2
    for s in "${scenes[@]}"; do
        cpu "${s//-/_}" "$s.yaml"
        cpu "${s//-/_}1" "$s.yaml" --frames 0-0
    done
done
# ms NAME — steady-state CPU ms a frame of scene NAME
ms() { local a=C_${1//-/_} b=C_${1//-/_}1; python3 -c "print(f'{max(${!a} - ${!b}, 0.001) / ($frames - 1) * 1000:.2f}')"; }
for s in "${scenes[@]}"; do printf -v "F_${s//-/_}" '%s' "$(ms "$s")"; done
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
le15() { python3 -c "import sys; sys.exit(not ($1 <= 1.5 * $2))" && echo PASS || echo FAIL; }

cat <<TABLE

### layer effects against the same layers without them ($frames frames, 750×1334 px, \`--discard --jobs 1\`, CPU ms a frame)

| effect | with | without | ratio | ≤ 1.5× |
| --- | ---: | ---: | ---: | --- |
| 24 cards, shadow radius 0 | $F_cards_r0 | $F_cards_plain | $(ratio "$F_cards_r0" "$F_cards_plain") | $(le15 "$F_cards_r0" "$F_cards_plain") |
| 24 cards, shadow radius 8 pt | $F_cards_r8 | $F_cards_plain | $(ratio "$F_cards_r8" "$F_cards_plain") | $(le15 "$F_cards_r8" "$F_cards_plain") |
| emitter, 200 flakes, shadow radius 0 | $F_snow_shadow | $F_snow_plain | $(ratio "$F_snow_shadow" "$F_snow_plain") | $(le15 "$F_snow_shadow" "$F_snow_plain") |
| 300 shapes, fill + stroke, opacity 0.6 (groups) | $F_shapes_faded | $F_shapes_plain | $(ratio "$F_shapes_faded" "$F_shapes_plain") | $(le15 "$F_shapes_faded" "$F_shapes_plain") |

TABLE
