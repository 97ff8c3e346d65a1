"""Run a piece of code in a child Python process, so that a crash (a
segfault, an abort, running out of memory) fails the test instead of
killing pytest.  Shared by the tests/adversary/test_*_inputs.py files."""
import os
import subprocess
import sys
import textwrap


def run_child(code, timeout=120):
    """Run `code` in a fresh interpreter; return its CompletedProcess.  The
    child sees the same ddz_fast as the tests (the same sys.path)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=env)


def assert_child_ok(code, timeout=120):
    """Run `code` in a child; it must exit with status 0 (an assertion in
    it, an exception or a crash fails the test, with the child's output)."""
    done = run_child(code, timeout)
    assert done.returncode == 0, (
        f"child exited with {done.returncode}\nstdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")
    return done.stdout
