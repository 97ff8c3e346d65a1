"""The coverage-guided harness (tests/fuzz/atheris_harness.py) replays its
checked-in seed corpus without mutation: every seed runs its target to a
checked result or a documented exception.  Needs atheris (optional: skipped
locally when missing, a failure in CI, see tests/optional.py)."""
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from optional import require

FUZZ = Path(__file__).resolve().parent / "fuzz"

# atheris 3.0.0 ships wheels for Linux x86_64 and CPython 3.11-3.13 only (the
# test extra's marker says the same): elsewhere these tests skip even under
# DDZ_REQUIRE_OPTIONAL=1 (the CI matrix includes macOS, Windows, 3.10, 3.14+).
ATHERIS_PLATFORM = (sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64")
                    and (3, 11) <= sys.version_info[:2] < (3, 14))


def _atheris():
    if not ATHERIS_PLATFORM:
        pytest.skip("atheris has no wheels for this platform")
    return require("atheris")


def test_harness_replays_the_seed_corpus():
    _atheris()
    seeds = sorted((FUZZ / "corpus").iterdir())
    assert len(seeds) >= 30
    # Files (not a directory) as arguments: libFuzzer runs each once and exits.
    proc = subprocess.run([sys.executable, str(FUZZ / "atheris_harness.py"), *map(str, seeds)],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-10000:]
    assert out.count("Executed ") == len(seeds), out[-5000:]


def test_every_seed_reaches_its_target_and_is_checked(monkeypatch):
    # Without libFuzzer: feed each seed to TestOneInput directly and count
    # the calls that finished with a checked result (not an error path);
    # the corpus is meant to exercise the success paths of every target.
    _atheris()
    monkeypatch.syspath_prepend(str(FUZZ))
    import atheris_harness as h

    results = []
    real = h._outcome

    def spy(fn, *args, **kwargs):
        out = real(fn, *args, **kwargs)
        results.append(not isinstance(out, type))
        return out

    monkeypatch.setattr(h, "_outcome", spy)
    targets_hit = set()
    for seed in sorted((FUZZ / "corpus").iterdir()):
        data = seed.read_bytes()
        results.clear()
        h.TestOneInput(data)
        if any(results):
            targets_hit.add(data[0] % len(h.TARGETS))
    assert targets_hit == set(range(len(h.TARGETS)))
