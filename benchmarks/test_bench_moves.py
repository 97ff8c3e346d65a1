"""Single-call benchmarks: lead and response generation, classify, beats, and
the fast path against the reference engine on the same few hands.

Hand sets (see deals.build_hand_set): ``17`` and ``20`` are 3-player
``standard`` hands (a farmer, the landlord), ``25`` and ``33`` are 4-player
``four`` hands (a farmer, the landlord).  One round calls the engine once per
hand on N_SINGLE hands (fewer for the reference engine); inputs are uint8
arrays of shape (15,), the fast path.
"""
from __future__ import annotations

import random
from functools import partial

import numpy as np
import pytest

from deals import HAND_SETS, N_REFERENCE, N_SINGLE, moves_in

import ddz_fast
from ddz_fast import reference


def _loop(calls):
    def run():
        for f in calls:
            f()
    return run


def _lead_calls(hs, fn=ddz_fast.legal_moves):
    return [partial(fn, h, rules=hs.rules) for h in hs.hands]


def _response_calls(hs, fn=ddz_fast.legal_moves):
    return [partial(fn, h, last, rules=hs.rules) for h, last in zip(hs.hands, hs.lasts)]


@pytest.mark.parametrize("hand_set", HAND_SETS)
def test_lead(benchmark, hand_sets, hand_set):
    """Every lead of each hand (legal_moves(hand))."""
    hs = hand_sets(hand_set).head(N_SINGLE)
    calls = _lead_calls(hs)
    benchmark.group = "lead"
    benchmark.extra_info.update(calls=len(calls), moves=moves_in(f() for f in calls),
                                rules=hs.rules)
    benchmark(_loop(calls))


@pytest.mark.parametrize("hand_set", HAND_SETS)
def test_response(benchmark, hand_sets, hand_set):
    """Every answer (PASS first) of each hand to one lead of the player before."""
    hs = hand_sets(hand_set).head(N_SINGLE)
    calls = _response_calls(hs)
    benchmark.group = "response"
    benchmark.extra_info.update(calls=len(calls), moves=moves_in(f() for f in calls),
                                rules=hs.rules)
    benchmark(_loop(calls))


@pytest.mark.parametrize("hand_set", HAND_SETS)
@pytest.mark.parametrize("scenario", ["lead", "response"])
def test_count_one_hand(benchmark, hand_sets, hand_set, scenario):
    """How many moves each hand has, one count_moves(hand[, last]) call a
    hand (the closed form, no rows written)."""
    hs = hand_sets(hand_set).head(N_SINGLE)
    make = _lead_calls if scenario == "lead" else _response_calls
    calls = make(hs, ddz_fast.count_moves)
    assert [f() for f in calls] == [len(f()) for f in make(hs)]
    benchmark.group = f"count one hand, {scenario}"
    benchmark.extra_info.update(calls=len(calls), rules=hs.rules)
    benchmark(_loop(calls))


def _classify_inputs(hs, seed):
    """Half legal moves (the lasts), half random 1..8-card subsets of the
    hands (mostly no move at all), as (15,) uint8 arrays."""
    rng = random.Random(seed)
    out = [np.asarray(m.counts, dtype=np.uint8) for m in hs.lasts[:N_SINGLE // 2]]
    for h in hs.hands[:N_SINGLE // 2]:
        cards = [r for r in range(15) for _ in range(int(h[r]))]
        pick = rng.sample(cards, rng.randint(1, 8))
        out.append(np.bincount(pick, minlength=15).astype(np.uint8))
    return out


@pytest.mark.parametrize("hand_set", ["17", "33"])
def test_classify(benchmark, hand_sets, hand_set, bench_seed):
    hs = hand_sets(hand_set)
    cards = _classify_inputs(hs, bench_seed)
    calls = [partial(ddz_fast.classify, c, rules=hs.rules) for c in cards]
    benchmark.group = "classify"
    benchmark.extra_info.update(calls=len(calls), rules=hs.rules,
                                readings=moves_in(f() for f in calls))
    benchmark(_loop(calls))


def _beats_pairs(hs, seed):
    """(a, b) pairs: half an answer of the hand to b (mostly a win), half one
    of the hand's leads (mostly another kind), b = the hand's last."""
    rng = random.Random(seed)
    pairs = []
    for i, (h, b) in enumerate(zip(hs.hands[:N_SINGLE], hs.lasts[:N_SINGLE])):
        if i % 2:
            pool = list(ddz_fast.legal_moves(h, b, rules=hs.rules))[1:]  # no PASS
        else:
            pool = list(ddz_fast.legal_moves(h, rules=hs.rules))
        pairs.append((rng.choice(pool) if pool else b, b))
    return pairs


@pytest.mark.parametrize("hand_set", ["17", "33"])
def test_beats(benchmark, hand_sets, hand_set, bench_seed):
    hs = hand_sets(hand_set)
    pairs = _beats_pairs(hs, bench_seed)
    calls = [partial(ddz_fast.beats, a, b, rules=hs.rules) for a, b in pairs]
    benchmark.group = "beats"
    benchmark.extra_info.update(calls=len(calls), rules=hs.rules,
                                true=sum(bool(f()) for f in calls))
    benchmark(_loop(calls))


# ---------------------------------------------------------------------------
# Fast path vs the reference engine, on the same few hands
# ---------------------------------------------------------------------------

ENGINES = {"fast": ddz_fast.legal_moves, "reference": reference.legal_moves}


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("scenario", ["lead", "response"])
@pytest.mark.parametrize("hand_set", HAND_SETS)
def test_vs_reference(benchmark, hand_sets, hand_set, scenario, engine):
    """Same hands, both engines; the results must agree (checked on the
    benchmarked results, so --benchmark-disable still checks them)."""
    hs = hand_sets(hand_set).head(N_REFERENCE[hand_set])
    make = _lead_calls if scenario == "lead" else _response_calls
    calls = make(hs, ENGINES[engine])
    benchmark.group = f"vs reference: {scenario} {hand_set}"
    expected = [f() for f in make(hs)]  # fast path
    benchmark.extra_info.update(calls=len(calls), moves=moves_in(expected), rules=hs.rules)
    if engine == "reference":
        # The reference needs milliseconds to 0.2 s a call: a few rounds only.
        got = benchmark.pedantic(lambda: [f() for f in calls], rounds=3, iterations=1,
                                 warmup_rounds=0)
    else:
        got = benchmark(lambda: [f() for f in calls])
    assert all(e == list(g) for e, g in zip(expected, got))
