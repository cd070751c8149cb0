#!/usr/bin/env python3
"""What dithering and palette sharing cost in GIF bytes, measured outside kinetic.

`python3 quantize-experiment.py [--threshold T] FRAMES_DIR [FRAME …]` re-does kinetic's GIF frame
preparation on a few of its PNG frames with libimagequant (through ctypes, the same
library and settings: ≤ 255 colours, speed 8, quality 0–100, last index transparent):
frame 0 whole, every other listed frame as its changed rectangle with unchanged pixels
transparent. Each frame is quantized with per-frame palettes or one shared palette
(built from frames 0, middle and last), at dithering 1.0, 0.5 and 0, then LZW-coded as
GIF does (8-bit minimum code size, 12-bit codes, clear when the table is full) to
count its bytes. With `--threshold T`, a pixel within T levels (every channel) of the
previous frame also counts as unchanged — lossy differencing. Prints, per variant, the LZW bytes summed over the listed frames and
the mean PSNR (RGB, whole frame) of the result against the PNG frames.

A diagnostic for `make bench` (needs ffmpeg, numpy, libimagequant.so.0); slow (pure
Python LZW, a few seconds a frame).
"""
import ctypes
import glob
import math
import subprocess
import sys

import numpy as np

liq = ctypes.CDLL("libimagequant.so.0")
for name, res in [("liq_attr_create", ctypes.c_void_p), ("liq_image_create_rgba", ctypes.c_void_p),
                  ("liq_get_palette", ctypes.c_void_p), ("liq_histogram_create", ctypes.c_void_p)]:
    getattr(liq, name).restype = res
liq.liq_image_create_rgba.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_double]
for name in ["liq_set_max_colors", "liq_set_speed", "liq_set_last_index_transparent"]:
    getattr(liq, name).argtypes = [ctypes.c_void_p, ctypes.c_int]
liq.liq_set_quality.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
liq.liq_image_quantize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
liq.liq_set_dithering_level.argtypes = [ctypes.c_void_p, ctypes.c_float]
liq.liq_write_remapped_image.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
liq.liq_get_palette.argtypes = [ctypes.c_void_p]
liq.liq_image_add_fixed_color.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
liq.liq_histogram_create.argtypes = [ctypes.c_void_p]
liq.liq_histogram_add_image.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
liq.liq_histogram_quantize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
for name in ["liq_attr_destroy", "liq_image_destroy", "liq_result_destroy", "liq_histogram_destroy"]:
    getattr(liq, name).argtypes = [ctypes.c_void_p]


def attributes(colors=255):
    attr = liq.liq_attr_create()
    liq.liq_set_max_colors(attr, colors)
    liq.liq_set_speed(attr, 8)
    liq.liq_set_quality(attr, 0, 100)
    liq.liq_set_last_index_transparent(attr, 1)
    return attr


def palette_of(result):
    p = ctypes.cast(liq.liq_get_palette(result), ctypes.POINTER(ctypes.c_uint32 * 257)).contents
    return np.array([[(p[1 + i] >> s) & 255 for s in (0, 8, 16, 24)] for i in range(p[0])], dtype=np.uint8)


def quantize(rgba, dither, fixed=None):
    """(indices, palette RGBA) of an H×W×4 array; `fixed` is a shared palette to remap to."""
    h, w, _ = rgba.shape
    buf = np.ascontiguousarray(rgba)
    attr = attributes(255 if fixed is None else len(fixed) + 1)
    image = liq.liq_image_create_rgba(attr, buf.ctypes.data, w, h, 0)
    if fixed is not None:
        for r, g, b in fixed:
            liq.liq_image_add_fixed_color(image, int(r) | int(g) << 8 | int(b) << 16 | 255 << 24)
        liq.liq_image_add_fixed_color(image, 0)
    result = ctypes.c_void_p()
    assert liq.liq_image_quantize(image, attr, ctypes.byref(result)) == 0
    liq.liq_set_dithering_level(result, dither)
    out = np.zeros(w * h, dtype=np.uint8)
    assert liq.liq_write_remapped_image(result, image, out.ctypes.data, out.size) == 0
    pal = palette_of(result)
    liq.liq_result_destroy(result); liq.liq_image_destroy(image); liq.liq_attr_destroy(attr)
    return out.reshape(h, w), pal


def shared_palette(frames):
    attr = attributes()
    hist = liq.liq_histogram_create(attr)
    keep = []
    for f in frames:
        buf = np.ascontiguousarray(f); keep.append(buf)
        image = liq.liq_image_create_rgba(attr, buf.ctypes.data, f.shape[1], f.shape[0], 0)
        liq.liq_histogram_add_image(hist, attr, image)
        liq.liq_image_destroy(image)
    result = ctypes.c_void_p()
    assert liq.liq_histogram_quantize(hist, attr, ctypes.byref(result)) == 0
    pal = palette_of(result)
    liq.liq_result_destroy(result); liq.liq_histogram_destroy(hist); liq.liq_attr_destroy(attr)
    return pal[:255, :3]


def lzw_bytes(indices, min_code=8):
    """Bytes of GIF LZW data for the index stream (giflib's scheme: clear at 4096 codes)."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    table, next_code, width = {}, end + 1, min_code + 1
    bits = width  # the first clear code
    data = indices.tobytes()
    prefix = data[0]
    for k in data[1:]:
        key = (prefix, k)
        code = table.get(key)
        if code is not None:
            prefix = code
            continue
        bits += width
        if next_code < 4095:
            table[key] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        else:
            bits += width  # clear code
            table, next_code, width = {}, end + 1, min_code + 1
        prefix = k
    bits += 2 * width  # last code and end code
    return (bits + 7) // 8


def read_frame(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                         check=True, capture_output=True).stdout
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height", "-of", "csv=p=0", path], check=True, capture_output=True, text=True)
    w, h = map(int, probe.stdout.strip().split(","))
    return np.frombuffer(out, dtype=np.uint8).reshape(h, w, 4)


def psnr(a, b):
    mse = np.mean((a[..., :3].astype(np.float64) - b[..., :3].astype(np.float64)) ** 2)
    return 100.0 if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def main(argv):
    threshold = 0
    if argv[:1] == ["--threshold"]:
        threshold, argv = int(argv[1]), argv[2:]
    folder = argv[0]
    wanted = [int(a) for a in argv[1:]] or [0, 40, 80, 120]
    count = len(glob.glob(f"{folder}/frame-*.png"))
    path = lambda i: f"{folder}/frame-{i:04d}.png"
    cache = {}
    frame = lambda i: cache.setdefault(i, read_frame(path(i)))
    shared = shared_palette([frame(0), frame(count // 2), frame(count - 1)])
    print(f"frames {wanted} of {count}; shared palette {len(shared)} colours; threshold {threshold}")
    for mode in ["per-frame", "shared"]:
        for dither in [1.0, 0.5, 0.0]:
            total, scores = 0, []
            for i in wanted:
                cur = frame(i)
                shown = frame(i - 1).copy() if i > 0 else np.zeros_like(cur)
                if i == 0:
                    y0, y1, x0, x1 = 0, cur.shape[0], 0, cur.shape[1]
                    same = np.zeros(cur.shape[:2], dtype=bool)
                else:
                    same = np.all(np.abs(cur.astype(np.int16) - shown) <= threshold, axis=2)
                    ys, xs = np.nonzero(~same)
                    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
                crop = cur[y0:y1, x0:x1].copy()
                crop[..., 3] = 255
                crop[same[y0:y1, x0:x1]] = 0
                idx, pal = quantize(crop, dither, shared if mode == "shared" else None)
                total += lzw_bytes(idx)
                rgb = pal[idx]
                opaque = rgb[..., 3] >= 128
                region = shown[y0:y1, x0:x1]
                region[opaque] = rgb[opaque]
                scores.append(psnr(shown, cur))
            print(f"  {mode:9s} dithering {dither:.1f}: LZW {total:8d} bytes, PSNR {sum(scores) / len(scores):.2f} dB")


if __name__ == "__main__":
    main(sys.argv[1:])
