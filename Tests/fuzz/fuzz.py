#!/usr/bin/env python3
"""Seeded mutation fuzzer over the gallery's scenes (issue 14).

Each input is a scene of scenes/ (or Tests/cli/scenes/) with a few random mutations:
numbers replaced by hostile ones (1e300, -0, 29-digit integers, NaN, …), lines deleted,
duplicated, swapped or re-indented, keys misspelt, control characters, anchors and
aliases, truncation. Every input is validated; a sample is also rendered small.

A finding is: a crash or signal, a run over its time bound, an exit code outside
0/64/65/66/70/73, or an error line without its place (FILE:LINE:COL for validate; at
least FILE: for problems met while rendering). Findings are written to --out with the
input, and the driver exits 1. Usage:

  python3 Tests/fuzz/fuzz.py --kinetic .build/release/kinetic --count 3000 --seed 14
"""
import argparse
import concurrent.futures as futures
import glob
import os
import random
import re
import sys
import tempfile
import time

from harness import exit_problems, run

HOSTILE_NUMBERS = ["1e300", "-1e300", "1e18", "-1e18", "99999999999999999999999999999", "9223372036854775807",
                   "-9223372036854775808", "1e-300", "-1e-300", "0", "-0", "-1", "1e9", "1e40", "1e-20",
                   ".nan", ".inf", "-.inf", "4294967296", "65536", "2147483648", "0.5", "100000", "1e7", "3e20"]
HOSTILE_SCALARS = ["[]", "{}", "~", "''", '"\\u0000"', "!!str 1", "[1e300, 1e300]", "[0, 0]", "[-1, -1]",
                   "[1e9, 1e9, 1e9, 1e9]", "*nope", "&a 1", "= 1/0", "= a.position.x", "= t * 1e300", "'= frame'",
                   "\"M 0 0 L 1e300 1e300 Z\"", "{oval: [0, 0, 1e300, 1e300]}", "forever"]
NUMBER = re.compile(r"(?<![\w.#])-?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
OK_CODES = {"validate": {0, 65, 66}, "render": {0, 64, 65, 66, 70, 73}}


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.35:
            matches = list(NUMBER.finditer(lines[i]))
            if matches:
                m = rng.choice(matches)
                lines[i] = lines[i][:m.start()] + rng.choice(HOSTILE_NUMBERS) + lines[i][m.end():]
                continue
            op = 0.5
        if op < 0.5 and ":" in lines[i]:
            key, _, _ = lines[i].partition(":")
            lines[i] = key + ": " + rng.choice(HOSTILE_SCALARS)
        elif op < 0.58:
            del lines[i]
        elif op < 0.65:
            lines.insert(i, lines[i])
        elif op < 0.72:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op < 0.78:
            lines[i] = " " * rng.choice([1, 2, 3, 4]) + lines[i]
        elif op < 0.84 and lines[i].strip():
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice(["\t", "\x00", "\x1b", "\u200b", "é", "{", "[", "&", "*", "'", '"', "%", "#"]) + lines[i][k:]
        elif op < 0.9 and ":" in lines[i]:
            key, sep, rest = lines[i].partition(":")
            lines[i] = key + "x" + sep + rest if rng.random() < 0.5 else key[:-1] + sep + rest
        elif op < 0.95:
            # Multiply a mapping line through an anchor and aliases.
            lines.insert(i, lines[i] + " # " + "".join(rng.choice("ab") for _ in range(5)))
        else:
            lines = lines[:rng.randrange(len(lines) + 1)]
    return "\n".join(lines)


def problems(kind, path, code, stderr, bound):
    found = exit_problems(kind, code, stderr, OK_CODES[kind], bound)
    if code is None:
        return found
    located = re.compile(re.escape(path) + (r":\d+:\d+: " if kind == "validate" else r"(:\d+:\d+)?: "))
    for line in stderr.splitlines():
        if not line.strip() or line.startswith("warning: ") or line == "interrupted":
            continue
        if kind == "render" and (line.startswith("Error: ") or line.startswith("Usage: ") or line.startswith("  See ")
                                 or line.startswith("--")):
            continue
        if not located.match(line):
            found.append(f"{kind}: error without its place: {line[:200]}")
            break
    return found


def one(job):
    kinetic, seed_text, seed_name, index, seed, work, render = job
    rng = random.Random(f"{seed}:{index}")
    text = mutate(seed_text, rng)
    path = os.path.join(work, f"in-{index}.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text)
    found = []
    checked = run(kinetic, ["validate", path], 20)
    code = checked.code
    found += problems("validate", path, code, checked.stderr, 20)
    rendered = False
    peak = checked.peak_mb
    if render and code == 0:
        out = os.path.join(work, f"out-{index}.png")
        rendering = run(kinetic, ["render", path, "-o", out, "--frame", "0", "--scale", "0.25", "--quiet",
                              "--jobs", "1"], 60)
        found += problems("render", path, rendering.code, rendering.stderr, 60)
        rendered = True
        peak = max(peak, rendering.peak_mb)
        if os.path.exists(out):
            os.unlink(out)
    if not found:
        os.unlink(path)
    return index, seed_name, found, text, rendered, peak


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinetic", default=os.path.join(root, ".build/release/kinetic"))
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--render-every", type=int, default=8, help="render the inputs that validate among every Nth")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "kinetic-fuzz-findings"))
    a = ap.parse_args()
    kinetic = os.path.abspath(a.kinetic)
    seeds = sorted(glob.glob(os.path.join(root, "scenes", "*.yaml")) + glob.glob(os.path.join(root, "Tests/cli/scenes/*.yaml")))
    texts = [(open(s, encoding="utf-8").read(), os.path.basename(s)) for s in seeds]
    started = time.monotonic()
    findings = 0
    rendered = 0
    peak = 0.0
    with tempfile.TemporaryDirectory() as work:
        jobs = []
        for i in range(a.count):
            text, name = texts[random.Random(f"{a.seed}:pick:{i}").randrange(len(texts))]
            jobs.append((kinetic, text, name, i, a.seed, work, i % a.render_every == 0))
        with futures.ThreadPoolExecutor(a.jobs) as pool:
            for index, name, found, text, did_render, run_peak in pool.map(one, jobs):
                rendered += did_render
                peak = max(peak, run_peak)
                if found:
                    findings += 1
                    os.makedirs(a.out, exist_ok=True)
                    dest = os.path.join(a.out, f"finding-{a.seed}-{index}.yaml")
                    with open(dest, "w", encoding="utf-8", errors="surrogatepass") as f:
                        f.write(text)
                    print(f"FINDING input {index} (from {name}), saved as {dest}:")
                    for p in found:
                        print("   ", p)
    elapsed = time.monotonic() - started
    print(f"fuzz: {a.count} inputs (seed {a.seed}; {rendered} also rendered) in {elapsed:.0f} s, "
          f"peak RSS {peak:.0f} MB, {findings} findings")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
