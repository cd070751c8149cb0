"""What every fuzz target of Tests/fuzz shares: running kinetic under a time and address-space
bound, and judging an outcome (documented exit code, no signal, no hang, no crash report).

A run's peak resident memory comes from wait4's rusage of that very process, so a target can
report the largest one it saw (docs/limits.md, "Fuzzing").
"""
import collections
import os
import re
import resource
import signal
import subprocess
import tempfile
import threading
import time

# The address space every run gets (ulimit -v): a runaway allocation fails instead of
# swapping the machine.
MEMORY_LIMIT = 4 << 30
CRASH_REPORT = re.compile(r"Backtracing|Fatal error|Program crashed|runtime failure|Aborting due to|CRITICAL")

Outcome = collections.namedtuple("Outcome", "code stdout stderr seconds peak_mb")


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(kinetic, args, seconds, cwd=None):
    """Runs kinetic with `args`; code is None when it ran past `seconds` (it is then killed
    with its process group), negative for a signal as subprocess reports it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        p = subprocess.Popen([kinetic] + args, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd,
                             preexec_fn=limit_memory, start_new_session=True)
        reaped = {}
        waiter = threading.Thread(target=lambda: reaped.update(status=os.wait4(p.pid, 0)))
        waiter.start()
        waiter.join(seconds)
        timed_out = waiter.is_alive()
        if timed_out:
            os.killpg(p.pid, signal.SIGKILL)
            waiter.join()
        _, status, usage = reaped["status"]
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        elapsed = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Outcome(None if timed_out else p.returncode, out.read().decode("utf-8", "replace"),
                       err.read().decode("utf-8", "replace"), elapsed, usage.ru_maxrss / 1024)


def exit_problems(kind, code, stderr, ok_codes, bound):
    """The findings every target shares: no answer within `bound` seconds, a signal, an exit
    code outside `ok_codes`, a crash report on stderr."""
    if code is None:
        return [f"{kind}: no answer within {bound} s"]
    found = []
    if code < 0 or code >= 128:
        found.append(f"{kind}: signal / exit {code}")
    elif code not in ok_codes:
        found.append(f"{kind}: exit {code} not in {sorted(ok_codes)}")
    if CRASH_REPORT.search(stderr):
        found.append(f"{kind}: crash report on stderr")
    return found


def leftovers(folder, pattern=re.compile(r"^\..*\.tmp$")):
    """The writer's hidden temporary files (`.NAME.PID.SUFFIX.tmp`) anywhere under `folder`."""
    found = []
    for parent, dirs, names in os.walk(folder):
        found += [os.path.join(parent, n) for n in names + dirs if pattern.search(n)]
    return found
