#!/usr/bin/python3
"""Pillow, the GIF bench's peer for frames that change everywhere:
`gif-pillow.py FRAMES_DIR FPS OUT.gif` encodes FRAMES_DIR/frame-*.png as one looping GIF
with Pillow's defaults (per-frame adaptive palettes, its own frame differencing and LZW)
and prints the CPU seconds of the encoding alone: the PNG frames are decoded before the
clock starts, so the row compares encoders, not PNG decoders.
"""
import glob
import sys
import time

from PIL import Image

frames_dir, fps, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
frames = [Image.open(p).convert("RGB") for p in sorted(glob.glob(f"{frames_dir}/frame-*.png"))]
if not frames:
    sys.exit(f"gif-pillow: no frame-*.png in {frames_dir}")
start = time.process_time()
frames[0].save(out, save_all=True, append_images=frames[1:], loop=0, duration=round(1000 / fps))
print(f"{time.process_time() - start:.2f}")
