#!/usr/bin/env python3
"""Seeded, bounded fuzz targets for the surfaces beside the scene loader (issue 37):

  encode   PNG frames for `kinetic encode`: the frames of Tests/cli/scenes/moving-square.yaml
           with their bytes mutated (chunk lengths, IHDR sizes, truncation, CRCs, claimed
           sizes of gigabytes), replaced by FIFOs, symlinks (to /dev/zero, a folder, nowhere)
           or empty files, of another size, missing, renumbered past any integer; encoded
           to GIF, WebP or MP4 with a random, often hostile, --fps, sometimes onto a folder
           or FIFO. Exit 0 must leave a file ffmpeg (GIF, MP4) or webpinfo (WebP) reads;
           64/65/66/73 a message and no output; never anything else.
  golden   golden/sq/state.jsonl and golden/sq/frame-*.png of a one-scene project mutated
           (JSON structure, huge and overflowing numbers, wrong kinds, deep nesting,
           truncation, binary junk); `golden check` exits 0, 1 (mismatch) or 65/66/73 with a
           message and leaves golden/ as it was; every 10th input `golden update` re-blesses
           over the corrupt golden, after which `golden check` passes (or exits 73 naming
           a golden that is a FIFO or leads to a folder or device: never replaced).
  preview  raw HTTP requests and WebSocket frames to `kinetic preview` on 127.0.0.1: random
           methods, %-escaped and .. paths, huge headers, foreign Host and Origin, missing
           Host, chunked bodies, POSTs without the page's token, upgrades followed by garbage
           frames. Every answer is an HTTP status line or a closed connection; a foreign Host
           or Origin never gets 200 or 101, a POST without the token never 200, no answer
           carries a file from outside the scene's folder; the server is alive and serving
           GET / at the end, its RSS within start + cache + preview_test's margin.

Every run is bounded in time (30 s) and address space (harness.MEMORY_LIMIT), and its peak
RSS must stay under RSS_BOUND_MB; no run may leave a `.NAME.tmp` behind. Findings are saved
under --out and make the driver exit 1. Usage:

  python3 Tests/fuzz/surfaces.py encode --kinetic .build/release/kinetic --count 800 --seed 37
"""
import argparse
import concurrent.futures as futures
import functools
import hashlib
import json
import os
import random
import re
import shutil
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from harness import exit_problems, leftovers, run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
from preview_test import RSS_MARGIN_MB, rss_mb  # noqa: E402

SCENE = os.path.join(ROOT, "Tests", "cli", "scenes", "moving-square.yaml")
BOUND = 30
# Peak RSS of any one run: the frames are 120×80 px and the whole project is a few kB, so a
# run near this has let a claimed size or count allocate for it (a runaway, not a big input).
RSS_BOUND_MB = 512
HUGE_U32 = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x10000, 65535, 100000, 2000000000, 16385]


# MARK: PNG surgery

def chunks(data):
    """(offset, length, type) of each chunk a PNG's bytes announce, as far as they go."""
    found, at = [], 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        found.append((at, length, kind))
        at += 12 + length
    return found


def with_crc(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


@functools.lru_cache(maxsize=None)
def zlib_bomb(size):
    """A zlib stream of `size` zero bytes (64 MB compress to 64 kB)."""
    return zlib.compress(bytes(size), 9)


def mutate_png(data, rng):
    data = bytearray(data)
    listed = chunks(bytes(data))
    op = rng.randrange(9)
    if op == 0 and listed:  # a chunk's length: huge or off by a little
        at, length, _ = rng.choice(listed)
        value = rng.choice(HUGE_U32 + [length + 1, max(length - 1, 0), length + 4096])
        data[at:at + 4] = struct.pack(">I", value & 0xFFFFFFFF)
    elif op == 1:  # IHDR's width, height, depth or colour type (CRC fixed half the time)
        field = rng.choice([(16, ">I", HUGE_U32), (20, ">I", HUGE_U32), (24, ">B", [0, 1, 3, 7, 16, 255]),
                            (25, ">B", [1, 5, 7, 255]), (28, ">B", [1, 255])])
        at, fmt, values = field
        if len(data) >= at + struct.calcsize(fmt):
            data[at:at + struct.calcsize(fmt)] = struct.pack(fmt, rng.choice(values))
            if rng.random() < 0.5 and len(data) >= 33:
                data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
    elif op == 2:  # truncated
        del data[rng.randrange(len(data) + 1):]
    elif op == 3 and listed:  # a CRC broken
        at, length, _ = rng.choice(listed)
        end = at + 8 + length
        if end + 4 <= len(data):
            data[end + rng.randrange(4)] ^= 0xFF
    elif op == 4:  # random bytes flipped
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif op == 5 and len(listed) > 1:  # a chunk claiming gigabytes inserted after IHDR
        kind = rng.choice([b"IDAT", b"zTXt", b"iCCP", b"acTL", b"tEXt", b"ABCD"])
        body = struct.pack(">I", 0x7FFFFFF0) + kind
        data[listed[1][0]:listed[1][0]] = body + bytes(rng.randrange(64))
    elif op == 6 and listed:  # IDAT replaced by a zlib bomb (a valid stream far larger than the image)
        idat = [c for c in listed if c[2] == b"IDAT"]
        if idat:
            at, length, _ = idat[0]
            data[at:at + 12 + length] = with_crc(b"IDAT", zlib_bomb(rng.choice([1 << 20, 64 << 20])))
    elif op == 7:  # not a PNG at all
        data = bytearray(rng.choice([b"", b"\x89PNG", b"GIF89a" + bytes(40), os.urandom(rng.randrange(1, 300)),
                                     b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(100))]))
    else:  # chunks reordered or IEND dropped
        if len(listed) > 2 and rng.random() < 0.5:
            i, j = rng.sample(range(1, len(listed)), 2)
            a, b = sorted((listed[i], listed[j]))
            pa, pb = bytes(data[a[0]:a[0] + 12 + a[1]]), bytes(data[b[0]:b[0] + 12 + b[1]])
            data = data[:a[0]] + pb + data[a[0] + len(pa):b[0]] + pa + data[b[0] + len(pb):]
        elif listed:
            del data[listed[-1][0]:]
    return bytes(data)


# MARK: encode

FPS = ["1", "25", "50", "60", "30", "0.5", "12.5", "120"]
HOSTILE_FPS = ["0", "-1", "-0", "nan", "inf", "-inf", "1e308", "1e-308", "4.9e-324", "abc", "", " 25", "25x",
               "0x19", "2147483648", "9223372036854775808", "1e9", "100000", "1001", "0.001", "1/0"]
ENCODE_CODES = {0, 64, 65, 66, 73}


def frame_name(n):
    return f"frame-{n:04d}.png"


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def mutate_frames(folder, pristine, spares, rng):
    """A few mutations of the frames in `folder` (a copy of `pristine`); `spares` holds the
    same frames at another size."""
    notes = []
    for _ in range(rng.randint(1, 3)):
        names = sorted(os.listdir(folder))
        if not names:
            break
        name = rng.choice(names)
        path = os.path.join(folder, name)
        op = rng.random()
        if op < 0.45 and os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(mutate_png(data, rng))
            notes.append(f"mutated {name}")
            continue
        remove(path)
        if op < 0.52:
            os.mkfifo(path)
            notes.append(f"{name} a FIFO")
        elif op < 0.6:
            target = rng.choice(["/dev/zero", "/dev/null", "/dev/urandom", "/nonexistent/x.png", folder,
                                 os.path.join(folder, rng.choice(names)), "/proc/self/mem"])
            os.symlink(target, path)
            notes.append(f"{name} → {target}")
        elif op < 0.66:
            open(path, "wb").close()
            notes.append(f"{name} empty")
        elif op < 0.72:
            shutil.copyfile(os.path.join(spares, name if os.path.exists(os.path.join(spares, name))
                                         else frame_name(0)), path)
            notes.append(f"{name} of another size")
        elif op < 0.8:
            notes.append(f"{name} removed (a gap)")
        elif op < 0.87:
            huge = rng.choice(["99999999999999999999999999", "2147483648", "9223372036854775807",
                               "9223372036854775808", "4294967296", "100000000", "-1", "+3", "0x10", "١٢",
                               str(rng.randrange(25, 10 ** rng.randint(2, 12)))])
            shutil.copyfile(os.path.join(pristine, frame_name(0)), os.path.join(folder, f"frame-{huge}.png"))
            notes.append(f"frame-{huge}.png added, {name} removed")
        elif op < 0.93:
            os.mkdir(path)
            notes.append(f"{name} a folder")
        else:
            for other in names:
                if other != name and os.path.lexists(os.path.join(folder, other)):
                    remove(os.path.join(folder, other))
            notes.append("every frame removed")
    return notes


def decodable(path):
    if path.endswith(".webp"):
        p = subprocess.run(["webpinfo", "-quiet", path], capture_output=True, timeout=BOUND)
    else:
        p = subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-i", path, "-f", "null", "-"],
                           capture_output=True, timeout=BOUND)
    return p.returncode == 0 and not p.stderr.strip()


def over_memory(kind, outcome):
    return [f"{kind}: peak RSS {outcome.peak_mb:.0f} MB over {RSS_BOUND_MB} MB"] if outcome.peak_mb > RSS_BOUND_MB else []


def kind_of(path, follow=False):
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except FileNotFoundError:
        return None
    return ("fifo" if stat.S_ISFIFO(mode) else "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode)
            else "link" if stat.S_ISLNK(mode)
            else "device")


def encode_one(job):
    kinetic, index, seed, work, pristine, spares = job
    rng = random.Random(f"{seed}:encode:{index}")
    case = os.path.join(work, f"case-{index}")
    frames = os.path.join(case, "frames")
    shutil.copytree(pristine, frames)
    notes = mutate_frames(frames, pristine, spares, rng) if rng.random() < 0.9 else ["valid frames"]
    fps = rng.choice(FPS) if rng.random() < 0.8 else rng.choice(HOSTILE_FPS)
    out = os.path.join(case, "out." + rng.choice(["gif", "gif", "webp", "webp", "mp4"]))
    target = None
    roll = rng.random()
    if roll < 0.04:
        os.mkfifo(out)
        target = "fifo"
    elif roll < 0.07:
        os.mkdir(out)
        target = "dir"
    elif roll < 0.09:
        out = os.path.join(case, "missing", os.path.basename(out))
    args = ["encode", frames, "-o", out, "--fps", fps, "--quiet", "--jobs", "1"]
    notes.append(f"--fps {fps!r} -o {os.path.relpath(out, case)}" + (f" (already a {target})" if target else ""))
    outcome = run(kinetic, args, BOUND)
    found = exit_problems("encode", outcome.code, outcome.stderr, ENCODE_CODES, BOUND) + over_memory("encode", outcome)
    if outcome.code is not None and not found:
        if outcome.code == 0:
            if kind_of(out) != "file":
                found.append("encode: exit 0 without an output file")
            elif not decodable(out):
                found.append("encode: exit 0 but the output does not decode")
        else:
            if not outcome.stderr.strip():
                found.append(f"encode: exit {outcome.code} without a message")
            if kind_of(out) != target:
                found.append(f"encode: exit {outcome.code} but the output is now {kind_of(out)} (was {target})")
        if target and outcome.code == 0:
            found.append(f"encode: replaced a {target} at the output path")
    found += [f"encode: left {os.path.relpath(p, case)}" for p in leftovers(case)]
    if found:
        keep = os.path.join(work, "findings", f"encode-{index}")
        shutil.copytree(case, keep, symlinks=True, ignore_dangling_symlinks=True, copy_function=copy_regular)
        notes.append(f"stderr: {outcome.stderr.strip()[:300]}")
    shutil.rmtree(case)
    return index, found, notes, outcome.peak_mb, outcome.code


def copy_regular(src, dst):
    if os.path.isfile(src) and not stat.S_ISFIFO(os.stat(src).st_mode):
        shutil.copy2(src, dst)


def fuzz_encode(a, work):
    pristine = os.path.join(work, "frames")
    spares = os.path.join(work, "spares")
    for folder, scale in ((pristine, "1"), (spares, "0.5")):
        subprocess.run([a.kinetic, "render", SCENE, "-o", folder + "/", "--scale", scale, "--quiet"], check=True)
    jobs = [(a.kinetic, i, a.seed, work, pristine, spares) for i in range(a.count)]
    return jobs, encode_one


# MARK: golden

def hostile_json(rng, depth=0):
    choice = rng.randrange(12)
    if choice == 0 and depth < 3:
        return [hostile_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if choice == 1 and depth < 3:
        return {rng.choice(["format", "version", "frames", "fps", "precision", "x", ""]): hostile_json(rng, depth + 1)}
    return rng.choice([1e308, -1e308, 5e-324, -9223372036854775808, 9223372036854775807, 18446744073709551616,
                       10 ** 30, -1, 0, -25, 2147483648, 1.5, "nan", "", "unit", "length", "color", "text",
                       True, None, "\u0000", "#00000000", "\ud800x"])


RAW_NUMBERS = ["1e308", "1e309", "-1e309", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
               "99999999999999999999999999999999", "-1", "-0", "0.0", "1e-400", "NaN", "Infinity", "-25",
               "2147483647", "4294967296", "1.7976931348623157e308", "123456789012345678901234567890e-10"]
NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def mutate_state(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.35:  # a number, raw, replaced
            matches = list(NUMBER.finditer(lines[i]))
            if matches:
                m = rng.choice(matches)
                lines[i] = lines[i][:m.start()] + rng.choice(RAW_NUMBERS) + lines[i][m.end():]
        elif op < 0.55:  # a parsed value replaced by a hostile one
            try:
                value = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(value, dict) and value:
                value[rng.choice(list(value) + ["frames", "fps"])] = hostile_json(rng)
            elif isinstance(value, list) and value:
                path = value
                while isinstance(path, list) and path and rng.random() < 0.6 and isinstance(path[-1], list):
                    path = path[rng.randrange(len(path))] if all(isinstance(x, list) for x in path) else path[-1]
                if isinstance(path, list) and path:
                    path[rng.randrange(len(path))] = hostile_json(rng)
            lines[i] = json.dumps(value, allow_nan=True)
        elif op < 0.6:
            lines[i] = "[" * rng.choice([100, 1000, 100000]) + "1" + "]" * rng.choice([0, 100000])
        elif op < 0.65:  # a key's kind swapped: numbers under text or color, strings under a length
            try:
                key, _, runs = json.loads(lines[i])
                # …and the first value changed, so that a mismatch is reported in the wrong kind.
                value = rng.choice([-1, 1, 7, 5001, "layer", "#FF0000FF", None])
                if isinstance(runs[0], list):
                    runs[0][0] = value
                else:
                    runs[0] = value
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            kinds = ["length", "unit", "perspective", "velocity", "count", "color", "text", "", "LENGTH"]
            lines[i] = json.dumps([key, rng.choice(kinds), runs])
        elif op < 0.7:
            del lines[i]
        elif op < 0.74:
            lines.insert(i, lines[i])
        elif op < 0.8:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op < 0.86:
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + rng.choice([",", "]", "{", '"', "\\", "\x00", "\udcff", "é", " ", "\n"]) + lines[i][k:]
        elif op < 0.93:
            lines = lines[:i]
            if lines and rng.random() < 0.5:
                lines[-1] = lines[-1][:rng.randrange(len(lines[-1]) + 1)]
        else:
            lines[i] = os.urandom(rng.randrange(1, 200)).decode("latin-1")
    return "\n".join(lines)


GOLDEN_CODES = {0, 1, 65, 66, 73}


def digest(folder):
    h = hashlib.sha256()
    for parent, dirs, names in sorted(os.walk(folder)):
        for n in sorted(names):
            p = os.path.join(parent, n)
            h.update(p.encode())
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def golden_one(job):
    kinetic, index, seed, work, pristine = job
    rng = random.Random(f"{seed}:golden:{index}")
    project = os.path.join(work, f"case-{index}")
    shutil.copytree(pristine, project)
    golden = os.path.join(project, "golden", "sq")
    notes = []
    mutate_state_file = rng.random() < 0.8
    if mutate_state_file:
        state = os.path.join(golden, "state.jsonl")
        with open(state, encoding="utf-8") as f:
            text = f.read()
        with open(state, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(mutate_state(text, rng))
        notes.append("state.jsonl mutated")
    if not mutate_state_file or rng.random() < 0.25:
        frame = rng.choice(sorted(n for n in os.listdir(golden) if n.endswith(".png")))
        path = os.path.join(golden, frame)
        op = rng.random()
        if op < 0.8:
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(mutate_png(data, rng))
            notes.append(f"{frame} mutated")
        else:
            os.unlink(path)
            if op < 0.9:
                os.mkfifo(path)
                notes.append(f"{frame} a FIFO")
            else:
                os.symlink(rng.choice(["/dev/zero", "/nonexistent", golden]), path)
                notes.append(f"{frame} a symlink")
    before = digest(os.path.join(project, "golden"))
    found = []
    checked = run(kinetic, ["golden", "check"], BOUND, cwd=project)
    found += exit_problems("golden check", checked.code, checked.stderr, GOLDEN_CODES, BOUND)
    found += over_memory("golden check", checked)
    peak = checked.peak_mb
    if checked.code not in (None, 0) and not (checked.stderr + checked.stdout).strip():
        found.append(f"golden check: exit {checked.code} without a message")
    if digest(os.path.join(project, "golden")) != before:
        found.append("golden check: changed golden/")
    if index % 10 == 0 and not found:
        # The writer replaces only regular files (or nothing, or a dangling link): a golden
        # that is a FIFO or leads to a folder or device is refused with 73, never replaced.
        blocked = [n for n in os.listdir(golden) if kind_of(os.path.join(golden, n), follow=True) not in ("file", None)]
        updated = run(kinetic, ["golden", "update"], BOUND, cwd=project)
        found += exit_problems("golden update", updated.code, updated.stderr, {73} if blocked else {0}, BOUND)
        if updated.code == 73 and not all(n in updated.stderr for n in blocked):
            found.append(f"golden update: exit 73 without naming each of {blocked}")
        if updated.code == 0:
            again = run(kinetic, ["golden", "check"], BOUND, cwd=project)
            found += exit_problems("golden check after update", again.code, again.stderr, {0}, BOUND)
            peak = max(peak, again.peak_mb)
        peak = max(peak, updated.peak_mb)
        notes.append("re-blessed")
    found += [f"golden: left {os.path.relpath(p, project)}" for p in leftovers(project)]
    if found:
        shutil.copytree(project, os.path.join(work, "findings", f"golden-{index}"), symlinks=True,
                        copy_function=copy_regular)
        notes.append(f"exit {checked.code}; stderr: {checked.stderr.strip()[:300]}")
    shutil.rmtree(project)
    return index, found, notes, peak, checked.code


def fuzz_golden(a, work):
    pristine = os.path.join(work, "project")
    os.makedirs(os.path.join(pristine, "scenes"))
    shutil.copyfile(SCENE, os.path.join(pristine, "scenes", "sq.yaml"))
    subprocess.run([a.kinetic, "golden", "update"], cwd=pristine, check=True, capture_output=True)
    return [(a.kinetic, i, a.seed, work, pristine) for i in range(a.count)], golden_one


# MARK: preview

METHODS = ["GET", "GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH",
           "get", "G\x00T", "", "X" * 3000]
PATHS = ["/", "/api/scene", "/api/frame/0.png", "/api/frame/3.png?debug=1", "/api/frame/99999999999999999999.png",
         "/api/frame/-1.png", "/api/frame/24.png", "/api/inspect/0", "/api/inspect/9223372036854775808",
         "/api/export", "/api/export?format=gif", "/api/export?format=../../x", "/ws", "/files/scene.yaml",
         "/files/../outside/secret.txt", "/files/%2e%2e/outside/secret.txt", "/files/..%2foutside%2fsecret.txt",
         "/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/files//etc/passwd", "/files/link/secret.txt",
         "/files/%00", "/files/%", "/files/%zz", "/%2e%2e/%2e%2e/etc/passwd", "//", "*", "http://evil.com/",
         "/files/" + "a/" * 2000, "/" + "%" * 5000, "/api/frame/" + "9" * 10000 + ".png", "/files/fifo"]
FOREIGN_HOSTS = ["evil.com", "evil.com:{port}", "127.0.0.1.evil.com:{port}", "localhost.evil.com", "0.0.0.0:{port}",
                 "127.0.0.2:{port}", "[::2]:{port}", "", " ", "127.0.0.1@evil.com", "localhost:{port}@evil.com",
                 "x" * 9000, "127.0.0.1:{port} evil.com", "\x00", "[::1"]
OWN_HOSTS = ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}", "127.0.0.1"]
ORIGINS = ["http://evil.com", "null", "https://127.0.0.1:{port}", "http://127.0.0.1:{port}.evil.com",
           "http://localhost:{port}", "http://127.0.0.1:{port}", "file://", "", "http://[::1]:{port}"]


def http_answer(sock, limit=1 << 16):
    """The bytes the server sends until the headers end or it closes (b"" for closed)."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def read_body(sock, head, seconds):
    """Up to 1 MB of the body after `head` (for the leak check), until close or `seconds`."""
    body = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""
    m = re.search(rb"\r\ncontent-length:\s*(\d+)", head, re.I)
    want = min(int(m.group(1)), 1 << 20) if m else 1 << 20
    sock.settimeout(seconds)
    try:
        while len(body) < want:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    except OSError:
        pass
    return body


def ws_frame(rng):
    op = rng.random()
    if op < 0.3:
        return os.urandom(rng.randrange(1, 64))
    opcode = rng.choice([0x0, 0x1, 0x2, 0x8, 0x9, 0xA, 0x3, 0xF])
    fin = 0x80 if rng.random() < 0.8 else 0
    payload = os.urandom(rng.randrange(0, 200))
    masked = 0x80 if rng.random() < 0.85 else 0
    if op < 0.45:  # a length claiming far more than is sent
        header = bytes([fin | opcode, masked | 127]) + struct.pack(">Q", rng.choice([1 << 62, (1 << 63) - 1, 1 << 40, 1 << 31]))
    elif len(payload) < 126:
        header = bytes([fin | opcode, masked | len(payload)])
    else:
        header = bytes([fin | opcode, masked | 126]) + struct.pack(">H", len(payload))
    mask = os.urandom(4) if masked else b""
    if masked:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + payload


def build_request(rng, port, token):
    """(raw bytes, facts) of one mutated request; facts says what the guard must refuse."""
    # Half the requests are well formed but for their Host, Origin and token, so that they
    # reach the guard and the routes; the rest stack malformations.
    clean = rng.random() < 0.5
    method = rng.choice(["GET", "GET", "POST", "HEAD"] if clean else METHODS)
    path = rng.choice(PATHS)
    if rng.random() < 0.2:
        path = "".join(c if rng.random() > 0.1 else "%{:02X}".format(rng.randrange(256)) for c in path)
    version = "HTTP/1.1" if clean else rng.choice(["HTTP/1.1"] * 6 + ["HTTP/1.0", "HTTP/2.0", "HTTP/9", "", "http/1.1"])
    headers = []
    roll = rng.random()
    host = None
    if roll < 0.55:
        host = rng.choice(OWN_HOSTS).format(port=port)
    elif roll < 0.9:
        host = rng.choice(FOREIGN_HOSTS).format(port=port)
    if host is not None:
        headers.append(("Host", host))
    origin = None
    if rng.random() < 0.4:
        origin = rng.choice(ORIGINS).format(port=port)
        headers.append(("Origin", origin))
    sent_token = None
    if rng.random() < 0.3:
        sent_token = token if rng.random() < 0.5 else rng.choice(["", "x", token[:-1], token + "x", token.upper(), "\x00" * 40])
        headers.append((rng.choice(["X-Kinetic-Token", "x-kinetic-token"]), sent_token))
    if clean and rng.random() < 0.15:  # a browser's WebSocket handshake
        path = "/ws"
        headers += [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]
        upgrade = True
    else:
        upgrade = path == "/ws" or rng.random() < 0.1
    if upgrade and not clean:
        headers += [("Upgrade", rng.choice(["websocket", "WebSocket", "h2c", ""])), ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Key", rng.choice(["dGhlIHNhbXBsZSBub25jZQ==", "", "x" * 200])),
                    ("Sec-WebSocket-Version", rng.choice(["13", "8", "99999999999999999999"]))]
    body = b""
    roll = rng.random() if not clean else 1
    if roll < 0.15:
        headers.append(("Transfer-Encoding", "chunked"))
        parts = [rng.choice([b"5\r\nhello\r\n", b"ffffffffffffffff\r\nx\r\n", b"-1\r\n\r\n", b"0\r\n\r\n", b"zz\r\n"])
                 for _ in range(rng.randint(1, 3))]
        body = b"".join(parts) + (b"0\r\n\r\n" if rng.random() < 0.7 else b"")
    elif roll < 0.25:
        body = os.urandom(rng.randrange(0, 300))
        headers.append(("Content-Length", rng.choice([str(len(body)), "-1", "99999999999999999999", "abc", "0"])))
    if not clean and rng.random() < 0.2:
        headers.append(("X-Huge", "a" * rng.choice([8000, 70000, 300000])))
    if not clean and rng.random() < 0.1:
        headers += [(f"X-{i}", "y") for i in range(rng.choice([200, 5000]))]
    rng.shuffle(headers)
    line = f"{method} {path} {version}".rstrip()
    raw = (line + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode("utf-8", "surrogateescape") + body
    if not clean and rng.random() < 0.1:  # garbage through and through
        raw = os.urandom(rng.randrange(1, 2000)) + (b"\r\n\r\n" if rng.random() < 0.5 else b"")
        host = origin = method = None
    own = host is not None and host.lower() in {h.format(port=port).lower() for h in OWN_HOSTS}
    foreign = not own or (origin is not None and origin.lower() != "http://" + host.lower())
    return raw, {"foreign": foreign, "post": method == "POST", "token": sent_token == token, "upgrade": upgrade,
                 "method": method, "path": path, "host": host, "origin": origin}


def preview_request(port, rng, token, marker):
    raw, facts = build_request(rng, port, token)
    found = []
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            try:
                s.sendall(raw)
                if not facts["upgrade"]:
                    s.shutdown(socket.SHUT_WR)  # the whole request is sent: the server must answer or close
            except OSError:
                pass  # the server may close on garbage while we still write
            try:
                head = http_answer(s)
            except socket.timeout:
                return raw, facts, ["no answer within 10 s (the request was complete)"], None
            except OSError:
                head = b""
            if not head:
                return raw, facts, [], None
            m = re.match(rb"HTTP/1\.[01] (\d{3}) [^\r\n]*\r\n", head)
            if not m:
                return raw, facts, [f"not an HTTP status line: {head[:80]!r}"], None
            status = int(m.group(1))
            if facts["foreign"] and status in (200, 101):
                found.append(f"{status} to a foreign Host/Origin ({facts['host']!r}, {facts['origin']!r})")
            if facts["post"] and not facts["token"] and status == 200:
                found.append("200 to a POST without the page's token")
            if status == 101:
                for _ in range(rng.randint(1, 6)):
                    try:
                        s.sendall(ws_frame(rng))
                    except OSError:
                        break
                s.settimeout(0.1)
                try:
                    s.recv(65536)
                except OSError:
                    pass
            elif facts["method"] != "HEAD":
                if marker in read_body(s, head, 0.5):
                    found.append("the answer carries a file from outside the scene's folder")
            return raw, facts, found, status
    except OSError as e:
        return raw, facts, [f"cannot connect: {e}"], None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_root(port):
    """GET / as the page would; (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    m = re.match(rb"HTTP/1\.1 (\d{3})", data)
    return (int(m.group(1)) if m else None), data


def fuzz_preview(a, work):
    site = os.path.join(work, "site")
    outside = os.path.join(work, "outside")
    os.makedirs(site)
    os.makedirs(outside)
    marker = f"kinetic-fuzz-secret-{a.seed}".encode()
    with open(os.path.join(outside, "secret.txt"), "wb") as f:
        f.write(marker)
    os.symlink(outside, os.path.join(site, "link"))
    os.mkfifo(os.path.join(site, "fifo"))
    scene = os.path.join(site, "scene.yaml")
    shutil.copyfile(SCENE, scene)
    cache_mb = 4
    port = free_port()
    log = open(os.path.join(work, "preview.log"), "w+")
    server = subprocess.Popen([a.kinetic, "preview", scene, "--port", str(port), "--cache-mb", str(cache_mb)],
                              stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    findings, statuses, started = [], {}, time.monotonic()
    try:
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                status, page = get_root(port)
                break
            except OSError:
                time.sleep(0.2)
        m = re.search(rb'name="kinetic-token" content="([^"]+)"', page) if status == 200 else None
        if not m:
            print(f"preview: the server did not serve its page on port {port}")
            return 1
        token = m.group(1).decode()
        baseline = peak = rss_mb(server.pid)
        for i in range(a.count):
            rng = random.Random(f"{a.seed}:preview:{i}")
            raw, facts, found, status = preview_request(port, rng, token, marker)
            statuses[status] = statuses.get(status, 0) + 1
            if server.poll() is not None:
                found.append(f"the server exited ({server.returncode})")
            if found:
                findings.append((i, raw, facts, found))
                print(f"FINDING request {i}: {facts['method']!r} {facts['path'][:80]!r}:")
                for p in found:
                    print("   ", p)
                if server.poll() is not None:
                    break
            if i % 50 == 0:
                peak = max(peak, rss_mb(server.pid))
        peak = max(peak, rss_mb(server.pid))
        final, page = get_root(port) if server.poll() is None else (None, b"")
        if final != 200 or token.encode() not in page:
            findings.append((a.count, b"GET /", {}, [f"GET / after the run answered {final}"]))
        bound = baseline + cache_mb + RSS_MARGIN_MB
        if peak > bound:
            findings.append((a.count, b"", {}, [f"RSS {peak:.0f} MB over start + cache + margin ({bound:.0f} MB)"]))
        leaks = leftovers(site)
        if leaks:
            findings.append((a.count, b"", {}, [f"left {leaks}"]))
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log.seek(0)
        crash = re.search(r"Backtracing|Fatal error|Program crashed|runtime failure", log.read())
        log.close()
    if crash:
        findings.append((a.count, b"", {}, ["crash report in the server's output"]))
    for i, raw, facts, found in findings:
        os.makedirs(a.out, exist_ok=True)
        dest = os.path.join(a.out, f"preview-{a.seed}-{i}.bin")
        with open(dest, "wb") as f:
            f.write(raw)
        print(f"FINDING preview request {i} saved as {dest}: " + "; ".join(found))
    elapsed = time.monotonic() - started
    answers = ", ".join(f"{k or 'closed'}: {v}" for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0])))
    print(f"fuzz preview: {a.count} requests (seed {a.seed}; {answers}) in {elapsed:.0f} s, "
          f"RSS {baseline:.0f} → {peak:.0f} MB peak, {len(findings)} findings")
    return 1 if findings else 0


# MARK: driver

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", choices=["encode", "golden", "preview"])
    ap.add_argument("--kinetic", default=os.path.join(ROOT, ".build/release/kinetic"))
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "kinetic-fuzz-findings"))
    a = ap.parse_args()
    a.kinetic = os.path.abspath(a.kinetic)
    with tempfile.TemporaryDirectory() as work:
        if a.target == "preview":
            sys.exit(fuzz_preview(a, work))
        started = time.monotonic()
        jobs, one = (fuzz_encode if a.target == "encode" else fuzz_golden)(a, work)
        findings, peak, codes = 0, 0.0, {}
        with futures.ThreadPoolExecutor(a.jobs) as pool:
            for index, found, notes, run_peak, code in pool.map(one, jobs):
                peak = max(peak, run_peak)
                codes[code] = codes.get(code, 0) + 1
                if found:
                    findings += 1
                    os.makedirs(a.out, exist_ok=True)
                    dest = os.path.join(a.out, f"{a.target}-{a.seed}-{index}")
                    shutil.rmtree(dest, ignore_errors=True)
                    shutil.copytree(os.path.join(work, "findings", f"{a.target}-{index}"), dest, symlinks=True)
                    print(f"FINDING input {index} ({'; '.join(notes)}), saved as {dest}:")
                    for p in found:
                        print("   ", p)
        elapsed = time.monotonic() - started
        exits = ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=lambda kv: str(kv[0])))
        print(f"fuzz {a.target}: {a.count} inputs (seed {a.seed}; exit {exits}) in {elapsed:.0f} s, peak RSS {peak:.0f} MB, "
              f"{findings} findings")
        sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
