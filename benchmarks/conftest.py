"""Fixtures of the pytest-benchmark suite (run: ``python -m pytest benchmarks``).

The root pyproject's ``testpaths`` is ``tests``, so this suite runs only when
its path is given.  Modes:

* full:   ``python -m pytest benchmarks`` (about a minute);
  add ``--benchmark-json=bench.json`` to keep the numbers.
* quick:  ``python -m pytest benchmarks --benchmark-disable -q`` runs every
  benchmarked function exactly once (a smoke test: well under 60 s).

Every input is seeded (``deals.DEFAULT_SEED``, override with ``--bench-seed``)
and built once per session, outside the timed code.  A benchmark records in
``extra_info`` how many engine calls (``calls``) and generated moves
(``moves``), hands (``hands``) or games (``games``) one round makes; the JSON
then also carries ``ns_per_call``, ``ns_per_hand``, ``moves_per_s``,
``ns_per_move`` and ``games_per_s`` (from the fastest round), and the
terminal summary lists them.  Shared inputs live in ``deals.py`` (test
modules import it, never this conftest).
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import deals as D  # noqa: E402

ddz_fast = pytest.importorskip("ddz_fast")


def pytest_addoption(parser):
    parser.addoption("--bench-seed", type=int, default=D.DEFAULT_SEED,
                     help="seed of every benchmark input (default %(default)s)")


@pytest.fixture(scope="session")
def bench_seed(request):
    return request.config.getoption("--bench-seed")


@pytest.fixture(scope="session")
def hand_sets(bench_seed):
    """{name: HandSet} with max(N_SINGLE, N_BATCH) hands each, built lazily."""
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = D.build_hand_set(name, max(D.N_SINGLE, D.N_BATCH[name]), bench_seed)
        return cache[name]

    return get


# ---------------------------------------------------------------------------
# Per-call numbers in the JSON and the terminal summary
# ---------------------------------------------------------------------------

def _derived(stats_min, extra):
    out = {}
    if stats_min and extra.get("calls"):
        out["ns_per_call"] = stats_min / extra["calls"] * 1e9
    if stats_min and extra.get("hands"):
        out["ns_per_hand"] = stats_min / extra["hands"] * 1e9
    if stats_min and extra.get("moves"):
        out["moves_per_s"] = extra["moves"] / stats_min
        out["ns_per_move"] = stats_min / extra["moves"] * 1e9
    if stats_min and extra.get("games"):
        out["games_per_s"] = extra["games"] / stats_min
    return out


def pytest_benchmark_update_json(config, benchmarks, output_json):
    for b in output_json.get("benchmarks", []):
        extra = b.setdefault("extra_info", {})
        extra.update(_derived(b.get("stats", {}).get("min"), extra))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    bs = getattr(config, "_benchmarksession", None)
    if bs is None or bs.disabled:
        return
    rows = []
    for bench in bs.benchmarks:
        if not bench:
            continue
        d = _derived(bench.stats.min, bench.extra_info)
        if d:
            rows.append((bench.fullname.split("::")[-1], d))
    if not rows:
        return
    tr = terminalreporter
    tr.section("per call / hand / move / game (from the fastest round)")
    w = max(len(n) for n, _ in rows)
    cols = (("ns/call", "ns_per_call", ",.0f", 1.0), ("ns/hand", "ns_per_hand", ",.0f", 1.0),
            ("Mmoves/s", "moves_per_s", ".1f", 1e-6), ("ns/move", "ns_per_move", ".1f", 1.0),
            ("games/s", "games_per_s", ",.0f", 1.0))
    tr.write_line(f"{'benchmark':<{w}}" + "".join(f"  {c[0]:>11}" for c in cols))
    def cell(d, key, fmt, scale):
        if key not in d:
            return "-"
        x = d[key] * scale
        return format(x, fmt) if x >= 1 or x == 0 else format(x, ".3g")

    for name, d in rows:
        tr.write_line(f"{name:<{w}}" + "".join("  " + cell(d, *c[1:]).rjust(11) for c in cols))
