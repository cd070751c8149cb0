#!/usr/bin/env python3
"""The 300-rectangle bench scene of issue 42 and its peers' copy of the same rectangles.

    python3 make-rects.py DIR   writes DIR/rects-300.yaml and DIR/rects-300.txt

The scene: 300 opaque rounded rectangles (plain layers: frame, cornerRadius,
backgroundColor) on a 375×667 pt stage at scale 2 (750×1334 px), 30 fps for 5 s (150
frames), the stage sliding linearly from position.x 167.5 to 207.5. The .txt file holds
what peers/cairo-frame.c draws: the canvas line, then one line a rectangle
(x y width height cornerRadius r g b, points and 0-255 channels). Both come from the same
seeded list, so the C program draws exactly the scene's shapes.
"""
import os, random, sys

SIZE, SCALE, FPS, DURATION, BACKGROUND = (375, 667), 2, 30, 5, (0xE9, 0xEA, 0xF0)
SLIDE = (167.5, 207.5)   # the stage's position.x from and to (its rest position is 187.5)
PALETTE = [(0x4A, 0x90, 0xD9), (0x1F, 0x3A, 0x5F), (0xC2, 0x42, 0x6B), (0xF0, 0xA0, 0x5A), (0x2B, 0x1B, 0x5A)]

def rects():
    rng = random.Random(42)
    out = []
    for _ in range(300):
        w, h = round(rng.uniform(16, 60), 1), round(rng.uniform(16, 60), 1)
        x, y = round(rng.uniform(0, SIZE[0] - w), 1), round(rng.uniform(0, SIZE[1] - h), 1)
        out.append((x, y, w, h, round(rng.uniform(2, 12), 1), rng.choice(PALETTE)))
    return out

def hex_color(c):
    return "#%02X%02X%02X" % c

def main(folder):
    rs = rects()
    yaml = [f"kinetic: 1\nscene: {{size: [{SIZE[0]}, {SIZE[1]}], scale: {SCALE}, fps: {FPS}, duration: {DURATION}, "
            f"background: \"{hex_color(BACKGROUND)}\"}}\n",
            f"layers:\n  - id: stage\n    frame: [0, 0, {SIZE[0]}, {SIZE[1]}]\n    sublayers:\n"]
    for x, y, w, h, r, c in rs:
        yaml.append(f"      - {{frame: [{x}, {y}, {w}, {h}], cornerRadius: {r}, backgroundColor: \"{hex_color(c)}\"}}\n")
    yaml.append(f"animations:\n  - {{layer: stage, keyPath: position.x, from: {SLIDE[0]}, to: {SLIDE[1]}, "
                f"duration: {DURATION}}}\n")
    with open(os.path.join(folder, "rects-300.yaml"), "w") as f:
        f.write("".join(yaml))
    # Canvas line: width height scale fps duration background rgb, slide from/to minus the rest position.
    rest = SIZE[0] / 2
    lines = [f"{SIZE[0]} {SIZE[1]} {SCALE} {FPS} {DURATION} {' '.join(map(str, BACKGROUND))} "
             f"{SLIDE[0] - rest} {SLIDE[1] - rest}"]
    lines += [f"{x} {y} {w} {h} {r} {c[0]} {c[1]} {c[2]}" for x, y, w, h, r, c in rs]
    with open(os.path.join(folder, "rects-300.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
