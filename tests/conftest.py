"""Shared test configuration.

Hypothesis profiles: ``ci`` is deterministic (derandomized, no example
database, no deadline) and is loaded when the ``CI`` environment variable is
set (or with ``--hypothesis-profile=ci``).  Without it Hypothesis keeps its
defaults, so local runs keep exploring new examples (and replay failures from
the local database).

Fixture ``same_moves``: the fast-vs-reference move-list comparison used by the
differential suite (tests/test_differential.py, test_batch.py,
test_movelist.py).
"""
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
if os.environ.get("CI"):
    settings.load_profile("ci")

# PyTorch's intra-op thread pool (ddz_fast.train's tests and docs): one thread
# per test process.  Their batches are small, the suite runs one process per
# core (-n auto), and on busy cores a pool of several threads waits far longer
# than it computes (50x slower measured on a loaded 2-core machine).  Set
# before torch is first imported; an explicit setting wins.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def _describe(m):
    return f"{m!r}" if m is not None else "None"


def assert_same_moves(fast, expected, context=""):
    """Assert that ``fast`` (a MoveList from the fast path) holds exactly the
    moves of ``expected`` (a list of Moves from the reference engine) in the
    same order, with the same kinds, cards, ranks, lengths and sizes, both as
    Move objects and through the MoveList array views."""
    from ddz_fast import MoveList

    where = f" [{context}]" if context else ""
    assert isinstance(fast, MoveList), f"expected a MoveList, got {type(fast).__name__}{where}"
    got = list(fast)
    if got != expected:
        n = min(len(got), len(expected))
        first = next((i for i in range(n) if got[i] != expected[i]), n)
        only_fast = sorted(set(got) - set(expected), key=repr)[:10]
        only_ref = sorted(set(expected) - set(got), key=repr)[:10]
        raise AssertionError(
            f"move lists differ{where}: fast has {len(got)} moves, reference {len(expected)}; "
            f"first difference at index {first}: fast "
            f"{_describe(got[first] if first < len(got) else None)} vs reference "
            f"{_describe(expected[first] if first < len(expected) else None)}; "
            f"only in fast: {only_fast}; only in reference: {only_ref}"
        )
    # MoveList.__eq__ against a list, both ways, and len.
    assert fast == expected and expected == fast and not (fast != expected), where
    assert len(fast) == len(expected), where
    # Every derived field of every Move.
    fields = [(int(m.kind), m.counts, m.rank, m.length, m.n_cards) for m in got]
    want = [(int(m.kind), m.counts, m.rank, m.length, m.n_cards) for m in expected]
    if fields != want:
        bad = next(i for i in range(len(fields)) if fields[i] != want[i])
        raise AssertionError(
            f"move {bad} differs in rank/length/size{where}: fast {fields[bad]} "
            f"(kind, counts, rank, length, n_cards) vs reference {want[bad]}"
        )
    # The array views.
    rows = fast.rows
    assert rows.shape == (len(expected), 16) and str(rows.dtype) == "uint8", where
    assert fast.counts.tolist() == [list(m.counts) for m in expected], where
    assert fast.kinds.tolist() == [int(m.kind) for m in expected], where
    assert rows.tolist() == [list(m.counts) + [int(m.kind)] for m in expected], where
    assert fast.ranks.tolist() == [m.rank for m in expected], f"ranks differ{where}"
    assert fast.lengths.tolist() == [m.length for m in expected], f"lengths differ{where}"
    assert fast.n_cards.tolist() == [m.n_cards for m in expected], f"n_cards differ{where}"


@pytest.fixture(scope="session")
def same_moves():
    """``same_moves(fast_movelist, reference_list, context="")``: see
    :func:`assert_same_moves`."""
    return assert_same_moves


def pytest_collection_modifyitems(config, items):
    # Under a sanitizer build (DDZ_SANITIZER set by the sanitizer jobs), the
    # tests marked no_sanitizer are skipped: the sanitizer's own allocator
    # (and PYTHONMALLOC=malloc) makes memory figures meaningless.
    if not os.environ.get("DDZ_SANITIZER"):
        return
    skip = pytest.mark.skip(reason="not run under a sanitizer build (DDZ_SANITIZER)")
    for item in items:
        if "no_sanitizer" in item.keywords:
            item.add_marker(skip)
