"""The typed API: tests/typing_usage.py runs, and (when mypy is installed)
passes ``mypy --strict`` against the installed package, whose stubs
(src/ddz_fast/*.pyi) must match the compiled modules (mypy's stubtest).

mypy is in the ``test`` extra; without it the mypy tests are skipped, and
fail under ``DDZ_REQUIRE_OPTIONAL=1`` (``.ci/run``), as other optional test
dependencies do (tests/optional.py).
"""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# (The packaging check runs this file with --import-mode=importlib, where the
# tests folder is not on sys.path.)
sys.path.insert(0, str(TESTS))
from optional import require  # noqa: E402

USAGE = TESTS / "typing_usage.py"
ALLOWLIST = TESTS / "stubtest-allowlist.txt"
COMPILED_WITH_API = [
    "ddz_fast._core.move",
    "ddz_fast._core.registry",
    "ddz_fast._core.movelist",
    "ddz_fast._core.entry",
    "ddz_fast._engine.engine",
    "ddz_fast._engine.bots",
    "ddz_fast._engine.worlds",
    "ddz_fast._engine.playout",
    "ddz_fast._engine.game",
    "ddz_fast._util.rng",
    "ddz_fast._util.checks",
    "ddz_fast._util.interrupt",
    "ddz_fast._core.lookup",
    "ddz_fast._core.ranks",
    "ddz_fast._engine.vec",
    "ddz_fast._engine.recorder",
    "ddz_fast._search.solver",
    "ddz_fast._engine.douzero",
    "ddz_fast._core.testing",
]


@pytest.fixture
def mypy():
    return require("mypy")


def _run(args, cwd):
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_typing_usage_runs():
    spec = importlib.util.spec_from_file_location("ddz_typing_usage", USAGE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main()


def test_usage_passes_mypy_strict(tmp_path, mypy):
    # From an empty directory: no project config, and the package is found
    # where it is installed (its py.typed and stubs), as a user's would be.
    py = f"{sys.version_info[0]}.{sys.version_info[1]}"
    r = _run(["mypy", "--strict", "--python-version", py, "--cache-dir", str(tmp_path / "cache"),
              str(USAGE)], cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubs_match_the_compiled_modules(tmp_path, mypy):
    # The allowlist names what Cython adds to every module (not API).
    args = ["mypy.stubtest", "--concise", "--ignore-disjoint-bases", "--ignore-unused-allowlist",
            "--allowlist", str(ALLOWLIST)]
    r = _run(args + COMPILED_WITH_API, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
