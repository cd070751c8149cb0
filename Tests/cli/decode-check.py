"""Decodes the first frame of an animation Kinetic wrote for Tests/cli/scenes/soft-shadow.yaml
with an independent decoder (ffmpeg for video and APNG, Pillow for WebP) and checks its
colours and alpha: the pure sRGB red, green and blue squares come back as themselves, and
with ALPHA=1 the soft shadow under the red square keeps partial alpha while the empty
corner is transparent. Usage: decode-check.py FILE ALPHA(0|1) TOLERANCE
(/usr/bin/python3: Debian's python3-pil.)"""
import subprocess, sys

path, alpha, tolerance = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3])
width, height = 96, 64

if path.endswith(".webp"):
    from PIL import Image
    im = Image.open(path)
    im.seek(0)
    pixels = im.convert("RGBA")
    px = lambda x, y: pixels.getpixel((x, y))
else:
    # libvpx decodes VP9's alpha; FFmpeg's native VP9 decoder drops it.
    decoder = ["-c:v", "libvpx-vp9"] if path.endswith(".webm") else []
    raw = subprocess.run(["ffmpeg", "-v", "error", *decoder, "-i", path, "-frames:v", "1",
                          "-f", "rawvideo", "-pix_fmt", "rgba", "-"], check=True, capture_output=True).stdout
    assert len(raw) == width * height * 4, f"decoded {len(raw)} bytes, wanted a {width}×{height} frame"
    px = lambda x, y: tuple(raw[(y * width + x) * 4:(y * width + x) * 4 + 4])

failures = []
def near(name, got, want):
    if any(abs(g - w) > tolerance for g, w in zip(got, want)):
        failures.append(f"{name}: got {got}, wanted {want} ± {tolerance}")

near("red", px(24, 24), (255, 0, 0, 255))
near("green", px(56, 24), (0, 255, 0, 255))
near("blue", px(80, 24), (0, 0, 255, 255))
shadow = px(24, 44)
if alpha:
    if not 0 < shadow[3] < 255:
        failures.append(f"soft shadow alpha {shadow[3]} is not strictly between 0 and 255")
    if px(2, 62)[3] != 0:
        failures.append(f"empty corner alpha {px(2, 62)[3]}, wanted 0")
print(f"{path}: red {px(24, 24)} green {px(56, 24)} blue {px(80, 24)} shadow {shadow} corner {px(2, 62)}")
if failures:
    sys.exit("\n".join(failures))
