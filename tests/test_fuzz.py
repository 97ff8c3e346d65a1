"""Fuzzing every public entry point (tests/fuzz/driver.py) in a subprocess.

The driver runs Hypothesis with a fixed seed and a fixed number of examples
per target; running it in its own process means that a segfault, an abort or
a hang (the timeout) fails this test instead of killing pytest.  Budget:
``DDZ_FUZZ_EXAMPLES`` examples per target (default 300, about 30 s on a
shared 2-CPU machine) and ``DDZ_FUZZ_SEED`` (default 0); long runs: see
docs/hardening.md.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent / "fuzz"


def _run_driver(*args, timeout):
    return subprocess.run([sys.executable, "-W", "ignore", str(FUZZ / "driver.py"), *args],
                          capture_output=True, text=True, timeout=timeout)


# The targets of the batched game, solver, PIMC, arena, trajectories and
# environments, threads sharing a Game and signals: each example plays or
# solves whole games, or runs threads for tens of milliseconds, so CI runs
# them at a tenth of the budget (the nightly workflow runs them at full scale).
SLOW_TARGETS = ("action_space", "vecgame", "solver", "solver_game", "pimc", "arena", "trajectories", "envs",
                "shared_game", "signals")


def test_the_slow_targets_survive_the_fuzzer():
    examples = max(1, int(os.environ.get("DDZ_FUZZ_EXAMPLES", "300")) // 10)
    seed = os.environ.get("DDZ_FUZZ_SEED", "0")
    listed = _run_driver("--list", timeout=120).stdout.split()
    names = [t for t in SLOW_TARGETS if t in listed]
    proc = _run_driver("--examples", str(examples), "--seed", seed, "--only", ",".join(names), timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, \
        f"fuzz driver failed (exit {proc.returncode}; negative: killed by a signal):\n{out[-20000:]}"
    assert f"targets: {len(names)}, failed: 0" in out and len(names) >= 6, out


def test_every_entry_point_survives_the_fuzzer():
    examples = int(os.environ.get("DDZ_FUZZ_EXAMPLES", "300"))
    seed = os.environ.get("DDZ_FUZZ_SEED", "0")
    listed = _run_driver("--list", timeout=120).stdout.split()
    fast = [t for t in listed if t not in SLOW_TARGETS]
    proc = _run_driver("--examples", str(examples), "--seed", seed, "--only", ",".join(fast), timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, \
        f"fuzz driver failed (exit {proc.returncode}; negative: killed by a signal):\n{out[-20000:]}"
    targets = int(re.search(r"targets: (\d+), failed: 0", out).group(1))
    tried = int(re.search(r"inputs tried: (\d+)", out).group(1))
    print(out)
    # Every target ran its examples (a target that stopped early would show
    # fewer); playouts_bounds draws from 15 fixed cases only.
    assert targets >= 20 and tried >= (targets - 1) * examples, out


def test_the_driver_reports_a_failing_target():
    # The driver's own failure path: a target that raises an undocumented
    # exception makes it exit 1 and name the target.
    code = (
        "import sys; sys.argv = ['driver']; sys.path.insert(0, %r)\n"
        "import driver\n"
        "from hypothesis import given, strategies as st\n"
        "@driver.target\n"
        "@given(st.integers())\n"
        "def planted(x):\n"
        "    driver.tried()\n"
        "    driver.call(lambda: 1 << -1 if x > 5 else 0)\n"          # ValueError: allowed
        "    driver.call(lambda: (_ for _ in ()).throw(OverflowError('planted')) if x > 5 else 0)\n"
        "sys.exit(driver.run(['planted'], 50, 0))\n" % str(FUZZ)
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "planted" in proc.stdout and "FAILED" in proc.stdout and "OverflowError" in proc.stderr
