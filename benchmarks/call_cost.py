"""The fixed cost of one ``legal_moves`` call, this build against other builds.

compare.py states the fixed cost in nanoseconds, which depend on the
machine: a slower core raises the interpreter's own loop cost and the call's
alike.  This script times the same call (a one-card hand, less the cost of
``len`` in the same loop) for several builds of ddz-fast on this machine,
each build in its own process, the processes alternated so that the load of
the moment hits them alike, and prints each build's best time and its ratio
to the first.

    # an older checkout, built in place (python setup.py build_ext --inplace)
    python benchmarks/call_cost.py --against /path/to/old/checkout/src

Builds are named by their ``src`` directories; the first is this checkout's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OWN_SRC = os.path.join(os.path.dirname(HERE), "src")

# Run in a child: the build's directory first on sys.path, then the best of
# many timings of a 2048-call loop, for len and for legal_moves alike.
CHILD = r"""
import gc, sys, timeit
sys.path.insert(0, sys.argv[1])
import numpy as np
import ddz_fast
assert ddz_fast.__file__.startswith(sys.argv[1]), ddz_fast.__file__
one = np.zeros(15, np.uint8)
one[0] = 1
args = [(one,)] * 2048
def best(fn):
    t = timeit.Timer("for a, in args: fn(a)", globals={"fn": fn, "args": args})
    return min(t.timeit(1) for _ in range(int(sys.argv[2]))) / len(args)
gc.disable()
loop, call = best(len), best(ddz_fast.legal_moves)
print(loop, call)
"""


def time_build(src: str, repeat: int) -> tuple[float, float]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, src, str(repeat)], capture_output=True,
                         text=True, env=env, cwd=HERE, check=True).stdout.split()
    return float(out[0]), float(out[1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--against", action="append", default=[], metavar="SRC",
                   help="the src directory of another build (repeatable)")
    p.add_argument("--rounds", type=int, default=5, help="processes per build, alternated (default 5)")
    p.add_argument("--repeat", type=int, default=400, help="timings per process; the best counts")
    a = p.parse_args(argv)
    builds = [OWN_SRC] + [os.path.abspath(s) for s in a.against]
    best = {s: float("inf") for s in builds}
    loops = {s: float("inf") for s in builds}
    for _ in range(a.rounds):
        for s in builds:
            loop, call = time_build(s, a.repeat)
            best[s] = min(best[s], call - loop)
            loops[s] = min(loops[s], loop)
    base = best[OWN_SRC]
    print(f"{'build (src)':<50} {'loop ns':>8} {'fixed ns':>9} {'vs this build':>14}")
    for s in builds:
        print(f"{s:<50} {loops[s] * 1e9:8.1f} {best[s] * 1e9:9.1f} {best[s] / base:13.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
