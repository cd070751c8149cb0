#!/usr/bin/env python3
"""Where a GIF's bytes go, frame by frame: `python3 gif-frames.py A.gif [B.gif …]`.

For each file prints a summary — frames, bytes in image data, in colour tables and in
everything else, the changed area stored (sum of frame rectangles, in megapixels) and
LZW bytes per stored pixel — and with `--frames` one line per frame (rectangle, local
palette size, LZW bytes). A diagnostic for `make bench`; reads the GIF89a block
structure only, without decoding LZW.
"""
import sys


def frames(data):
    """Yields dicts with rect, palette (local entries or 0), lzw (bytes) per image."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    flags = data[10]
    pos = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    while pos < len(data):
        tag = data[pos]
        if tag == 0x3B:  # trailer
            return
        if tag == 0x21:  # extension: label, then sub-blocks
            pos += 2
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif tag == 0x2C:  # image descriptor
            x, y, w, h = (int.from_bytes(data[pos + 1 + 2 * i:pos + 3 + 2 * i], "little") for i in range(4))
            f = data[pos + 9]
            local = 2 << (f & 7) if f & 0x80 else 0
            pos += 10 + 3 * local + 1  # descriptor, local table, LZW minimum code size
            lzw = 0
            while data[pos]:
                lzw += data[pos]
                pos += data[pos] + 1
            pos += 1
            yield {"rect": (x, y, w, h), "palette": local, "lzw": lzw}
        else:
            raise ValueError(f"unknown block 0x{tag:02x} at byte {pos}")


def main(argv):
    per_frame = "--frames" in argv
    for path in (a for a in argv if a != "--frames"):
        data = open(path, "rb").read()
        fs = list(frames(data))
        lzw = sum(f["lzw"] for f in fs)
        tables = sum(3 * f["palette"] for f in fs) + (3 * (2 << (data[10] & 7)) if data[10] & 0x80 else 0)
        area = sum(f["rect"][2] * f["rect"][3] for f in fs)
        print(f"{path}: {len(data)} bytes, {len(fs)} frames; image data {lzw} ({100 * lzw / len(data):.1f}%), "
              f"colour tables {tables}, other {len(data) - lzw - tables}; stored area {area / 1e6:.1f} Mpx, "
              f"{lzw / max(area, 1):.3f} bytes/px; first frame {fs[0]['lzw'] if fs else 0} bytes")
        if per_frame:
            for i, f in enumerate(fs):
                x, y, w, h = f["rect"]
                print(f"  {i:4d}  {w:4d}×{h:<4d} at {x:4d},{y:<4d}  palette {f['palette']:3d}  lzw {f['lzw']:7d}"
                      f"  {f['lzw'] / max(w * h, 1):.3f} B/px")


if __name__ == "__main__":
    main(sys.argv[1:])
