"""Batch benchmarks: legal_moves_batch (the kernel writing 16-byte rows) and
count_moves (the count-only call), on one and on two threads.

One round is one call over N_BATCH hands given as an (N, 15) uint8 array;
responses pass the moves to answer as (N, 16) uint8 rows (the fast form).
"""
from __future__ import annotations

import numpy as np
import pytest

from deals import HAND_SETS, N_BATCH

import ddz_fast

THREADS = (1, 2)


def _inputs(hand_sets, hand_set, scenario):
    hs = hand_sets(hand_set).head(N_BATCH[hand_set])
    lasts = None if scenario == "lead" else hs.last_rows
    return hs, lasts


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("scenario", ["lead", "response"])
@pytest.mark.parametrize("hand_set", HAND_SETS)
def test_batch(benchmark, hand_sets, hand_set, scenario, threads):
    hs, lasts = _inputs(hand_sets, hand_set, scenario)
    counts = ddz_fast.count_moves(hs.array, lasts, rules=hs.rules)
    benchmark.group = f"batch {scenario}"
    benchmark.extra_info.update(calls=1, hands=len(hs), moves=int(counts.sum()),
                                rules=hs.rules, threads=threads)
    out = benchmark(ddz_fast.legal_moves_batch, hs.array, lasts, rules=hs.rules,
                    threads=threads)
    assert out.rows.shape == (int(counts.sum()), 16)
    assert np.array_equal(np.diff(out.offsets), counts)
    benchmark.extra_info["bytes_per_move"] = out.rows.nbytes / max(1, len(out.rows))


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("scenario", ["lead", "response"])
@pytest.mark.parametrize("hand_set", ["20", "33"])
def test_count_moves(benchmark, hand_sets, hand_set, scenario, threads):
    hs, lasts = _inputs(hand_sets, hand_set, scenario)
    benchmark.group = f"count {scenario}"
    counts = benchmark(ddz_fast.count_moves, hs.array, lasts, rules=hs.rules, threads=threads)
    benchmark.extra_info.update(calls=1, hands=len(hs), moves=int(counts.sum()),
                                rules=hs.rules, threads=threads)
    assert counts.shape == (len(hs),) and counts.min() >= 1


@pytest.mark.parametrize("hand_set", ["20"])
def test_batch_vs_single_calls(benchmark, hand_sets, hand_set):
    """The same hands through legal_moves one by one (in the batch group, to
    show what the batch call saves)."""
    hs = hand_sets(hand_set).head(N_BATCH[hand_set])
    lm = ddz_fast.legal_moves
    hands = hs.hands

    def run():
        for h in hands:
            lm(h)

    benchmark.group = "batch lead"
    benchmark.extra_info.update(calls=len(hands), hands=len(hands),
                                moves=int(ddz_fast.count_moves(hs.array).sum()), rules=hs.rules)
    benchmark(run)


@pytest.mark.parametrize("threads", THREADS)
def test_large_batch(benchmark, threads):
    """65,536 distinct 20-card leads in one call (about 85 MB of rows, more
    than glibc's largest mmap threshold), each result freed before the next
    call, as a training loop does: the buffer of the batch freed before is
    reused instead of faulted in again."""
    from deals import random_hands
    hands = random_hands(65536, 20)
    counts = ddz_fast.count_moves(hands)
    benchmark.group = "batch large"
    benchmark.extra_info.update(calls=1, hands=len(hands), moves=int(counts.sum()),
                                rules="standard", threads=threads)
    out = benchmark(ddz_fast.legal_moves_batch, hands, threads=threads)
    assert np.array_equal(np.diff(out.offsets), counts)
