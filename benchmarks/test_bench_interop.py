"""Interop benchmarks: legal-action masks over dense action ids and RLCard ids,
next to the ``legal_moves`` call they are built from, on the same hands.

Hand sets as in test_bench_moves.py (``20``: standard landlord hands, ``33``:
``four`` landlord hands).  One round makes one call per hand on N_SINGLE
hands (leads); each mask is dropped before the next call, as in an RL loop.
``mask_out`` fills one preallocated array (``out=``).  Compare the groups'
ns/call: a mask costs the ``legal_moves`` call plus clearing its own
``size`` bytes plus one hash lookup per move.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from deals import N_SINGLE, moves_in

import ddz_fast
from ddz_fast.compat import rlcard as rl


def _loop(calls):
    def run():
        for f in calls:
            f()
    return run


@pytest.mark.parametrize("hand_set", ["20", "33"])
@pytest.mark.parametrize("what", ["legal_moves", "mask", "mask_out"])
def test_action_mask(benchmark, hand_sets, hand_set, what):
    """ActionSpace.mask(hand) against legal_moves(hand) (leads)."""
    hs = hand_sets(hand_set).head(N_SINGLE)
    space = ddz_fast.action_space(hs.rules)
    if what == "legal_moves":
        calls = [partial(ddz_fast.legal_moves, h, rules=hs.rules) for h in hs.hands]
    elif what == "mask":
        calls = [partial(space.mask, h) for h in hs.hands]
    else:
        buf = np.zeros(space.size, dtype=bool)
        calls = [partial(space.mask, h, out=buf) for h in hs.hands]
    moves = moves_in(partial(ddz_fast.legal_moves, h, rules=hs.rules)() for h in hs.hands)
    benchmark.group = f"action mask {hand_set}"
    benchmark.extra_info.update(calls=len(calls), moves=moves, rules=hs.rules, size=space.size)
    benchmark(_loop(calls))


def test_rlcard_mask(benchmark, hand_sets):
    """rlcard_mask(hand) on standard landlord hands (27,472 ids)."""
    hs = hand_sets("20").head(N_SINGLE)
    calls = [partial(rl.rlcard_mask, h) for h in hs.hands]
    rl.rlcard_actions()  # build the table outside the timed code
    benchmark.group = "action mask 20"
    benchmark.extra_info.update(calls=len(calls), rules="rlcard")
    benchmark(_loop(calls))


@pytest.mark.parametrize("preset", ["laizi", "tiandi"])
@pytest.mark.parametrize("what", ["legal_moves", "ids", "mask"])
def test_wild_action_ids(benchmark, hand_sets, preset, what):
    """Wild-card ids: WildActionSpace.ids of each hand's MoveList (id pairs)
    and WildActionSpace.mask (reading ids) against the legal_moves call
    that lists the moves (leads of standard landlord hands, each with its
    own wild rank(s))."""
    hs = hand_sets("20").head(N_SINGLE)
    rng = np.random.default_rng(32)
    k = 1 if preset == "laizi" else 2
    wilds = [tuple(sorted(rng.choice(13, size=k, replace=False).tolist())) for _ in hs.hands]
    space = ddz_fast.action_space(preset)
    lists = [ddz_fast.legal_moves(h, rules=preset, wild=w) for h, w in zip(hs.hands, wilds)]
    if what == "legal_moves":
        calls = [partial(ddz_fast.legal_moves, h, rules=preset, wild=w) for h, w in zip(hs.hands, wilds)]
    elif what == "ids":
        calls = [partial(space.ids, ms, wild=w) for ms, w in zip(lists, wilds)]
    else:
        calls = [partial(space.mask, h, wild=w) for h, w in zip(hs.hands, wilds)]
    benchmark.group = f"wild action ids {preset}"
    benchmark.extra_info.update(calls=len(calls), moves=sum(len(ms) for ms in lists), rules=preset)
    benchmark(_loop(calls))
