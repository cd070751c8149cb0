#!/usr/bin/env bash
# The physics rows of `make bench` (issues 15 and 42): kinetic against pymunk on the same
# piles, run at the end of run.sh or alone:
#   KINETIC=.build/release/kinetic PYMUNK_PY=.build/pymunk-py bash Tests/bench/physics.sh
#
# pymunk drives its own build of Chipmunk (Munk2D, a fork of Chipmunk 7) from Python;
# kinetic drives Debian's libchipmunk 7.0.3 (built without NDEBUG: assertions on) from
# Swift. Both simulate the very scene (Tests/bench/pymunk-pile.py reads it) for the same
# simulated time at its 240 steps/s, with the same settings: 10 iterations, Chipmunk's
# default collision slop, bias and persistence (pymunk-pile.py checks its pymunk has
# them), no sleeping, no damping, the same shapes, masses, moments and walls. Each run
# prints the pile's mean final y, so a peer that simulated something else shows.
#
# Rows, each the median of BENCH_REPEAT (default 3) interleaved pairs (order swapped every
# run) with the pairs' range, CPU time (user + system) on one core:
#   - whole runs: `kinetic inspect SCENE --time T` against `python3 pymunk-pile.py SCENE T`;
#   - stepping: the same runs less each one's fixed cost (loading, start-up: the fastest of
#     three runs at T = 0), i.e. what the issue's goal compares (≤ 1.0×);
#   - the referee: peers/chipmunk-pile.c (built here with cc) stepping the same pile
#     through Debian's libchipmunk and through pymunk's bundled Chipmunk, the step loop's
#     CPU alone: what of the ratio is the two Chipmunk builds rather than our code.
#
# pymunk is not a Debian package: `make pymunk-py` installs it into .build/pymunk-py
# (PYMUNK_PY, put on PYTHONPATH here); without it the rows say so and the script exits 0.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repeat=${BENCH_REPEAT:-3}
pymunk_py=${PYMUNK_PY:-$root/.build/pymunk-py}
case "$pymunk_py" in /*) ;; *) pymunk_py="$root/$pymunk_py" ;; esac
export PYTHONPATH="$pymunk_py${PYTHONPATH:+:$PYTHONPATH}"
# The interpreter `make pymunk-py` installs for (Debian's, with python3-yaml), called
# directly: a python3 found on PATH may be a shim whose start-up would count as pymunk's.
py=${PYMUNK_PYTHON:-/usr/bin/python3}

if ! "$py" -c "import pymunk, yaml" 2>/dev/null; then
    echo "| physics rows | skipped: python3 has no pymunk (make pymunk-py) or no PyYAML | | |"
    exit 0
fi
command -v "$kinetic" >/dev/null || { echo "bench: $kinetic is missing" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

referee=""
pymunk_lib=$("$py" -c "import glob, os, pymunk; print((glob.glob(os.path.join(os.path.dirname(pymunk.__file__), '_chipmunk*.so')) or [''])[0])")
debian_lib=$(ldconfig -p | awk '/libchipmunk\.so\.7 /{print $NF; exit}')
libpython=$("$py" -c "import sysconfig; print(sysconfig.get_config_var('LIBDIR') + '/' + sysconfig.get_config_var('INSTSONAME'))")
if command -v cc >/dev/null && [ -n "$pymunk_lib" ] && [ -n "$debian_lib" ] && [ -f "$libpython" ] \
    && cc -O2 "$here/peers/chipmunk-pile.c" -o "$work/chipmunk-pile" -ldl 2>"$work/cc.err"; then
    referee=$work/chipmunk-pile
fi

KINETIC_BIN="$kinetic" PY="$py" HERE="$here" WORK="$work" REPEAT="$repeat" REFEREE="$referee" \
PYMUNK_LIB="$pymunk_lib" DEBIAN_LIB="$debian_lib" LIBPYTHON="$libpython" python3 - <<'PY'
import json, os, statistics, subprocess, sys

env = os.environ
kinetic, here, work, repeat = env["KINETIC_BIN"], env["HERE"], env["WORK"], int(env["REPEAT"])
referee = env["REFEREE"]

def run(argv, extra_env=None):
    """(CPU seconds of the process, its stdout)."""
    with open(f"{work}/out", "w") as out, open(f"{work}/err", "w") as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err, env={**env, **(extra_env or {})})
        _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"bench: {' '.join(argv)} failed:\n{open(f'{work}/err').read()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, open(f"{work}/out").read()

def kinetic_run(scene, seconds):
    cpu, out = run([kinetic, "inspect", scene, "--time", str(seconds)])
    items = json.loads(out)["items"].values()
    return cpu, sum(v["center"][1] for v in items) / len(items)

def pymunk_run(scene, seconds):
    cpu, out = run([env["PY"], f"{here}/pymunk-pile.py", scene, str(seconds)])
    return cpu, float(out.split()[-1])

def referee_run(lib, pile, seconds):
    extra = {"LD_PRELOAD": env["LIBPYTHON"]} if lib == env["PYMUNK_LIB"] else {}
    _, out = run([referee, lib, pile, str(seconds)], extra)
    step, y = out.split()[-2:]
    return float(step), float(y)

def summary(pairs):
    ratios = [a / b for a, b in pairs]
    return (statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs),
            statistics.median(ratios), min(ratios), max(ratios))

rows, verdicts = [], []
for n, seconds in [(500, 20), (2000, 5)]:
    scene = f"{here}/scenes/pile-{n}.yaml"
    fixed_k = min(kinetic_run(scene, 0)[0] for _ in range(3))
    fixed_p = min(pymunk_run(scene, 0)[0] for _ in range(3))
    whole, stepping, ys = [], [], None
    for r in range(repeat):
        sys.stderr.write(f"bench: physics, {n} bodies, run {r + 1} of {repeat}\n")
        order = [kinetic_run, pymunk_run] if r % 2 == 0 else [pymunk_run, kinetic_run]
        got = {f: f(scene, seconds) for f in order}
        (k, yk), (p, yp) = got[kinetic_run], got[pymunk_run]
        whole.append((k, p))
        stepping.append((max(k - fixed_k, 1e-3), max(p - fixed_p, 1e-3)))
        ys = (yk, yp)
    label = f"{n} bodies, {seconds} s at 240 steps/s"
    rows.append((f"{label}, whole runs", "kinetic", "pymunk", summary(whole), f"{ys[0]:.1f} / {ys[1]:.1f}"))
    s = summary(stepping)
    rows.append((f"{label}, stepping (less a T = 0 run: {fixed_k:.2f} / {fixed_p:.2f} s)", "kinetic", "pymunk", s, ""))
    verdicts.append(f"{'PASS' if s[2] <= 1.0 else 'FAIL'}: {n} bodies, stepping ≤ 1.0× pymunk "
                    f"({s[2]:.2f}×, runs {s[3]:.2f}–{s[4]:.2f}, CPU)")
    if referee:
        pile = f"{work}/pile-{n}.txt"
        with open(pile, "w") as f:
            subprocess.run([env["PY"], f"{here}/pymunk-pile.py", scene, "--pile"], stdout=f, check=True)
        pairs, ys = [], None
        for r in range(repeat):
            libs = [env["DEBIAN_LIB"], env["PYMUNK_LIB"]]
            got = {lib: referee_run(lib, pile, seconds) for lib in (libs if r % 2 == 0 else libs[::-1])}
            pairs.append((got[libs[0]][0], got[libs[1]][0]))
            ys = (got[libs[0]][1], got[libs[1]][1])
        rows.append((f"{label}, the same C program's step loop (peers/chipmunk-pile.c)",
                     "Debian libchipmunk", "pymunk's Chipmunk", summary(pairs), f"{ys[0]:.1f} / {ys[1]:.1f}"))

print(f"\n### physics: kinetic against pymunk on one core (CPU s, medians of {repeat} interleaved pairs)\n")
print("| pile | subject | peer | subject s | peer s | ratio (range) | mean final y |")
print("| --- | --- | --- | ---: | ---: | ---: | --- |")
for label, a, b, (sa, sb, ratio, lo, hi), y in rows:
    print(f"| {label} | {a} | {b} | {sa:.2f} | {sb:.2f} | {ratio:.2f}× ({lo:.2f}–{hi:.2f}) | {y} |")
if not referee:
    print("\n(the C referee rows: NOT MEASURED — no cc, no pymunk Chipmunk library or no libchipmunk.so.7)")
print()
print("\n".join(verdicts))
PY
