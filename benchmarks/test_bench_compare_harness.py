"""The comparison harness's own helpers (compare.py, engine_compare.py):
what they time is what they claim to time."""
from __future__ import annotations

import numpy as np

import compare as C
import deals as D
import engine_compare as EC
import engines as E


def test_scattered_calls_keep_the_items_order():
    items = list(range(50))
    calls, fillers = C.scattered_calls(lambda i: ("call", i), items, seed=3)
    assert calls == [("call", i) for i in items]
    assert len(fillers) >= len(items)          # at least one filler before every input


def test_scattered_inputs_are_built_in_a_shuffled_order():
    built = []
    C.scattered_calls(built.append, list(range(50)), seed=3)
    assert sorted(built) == list(range(50)) and built != list(range(50))


def test_direct_then_applies_the_second_function_in_the_timed_loop():
    seen = []
    d = C.Direct(lambda a, b: a + b, [(1, 2), (3, 4)], then=seen.append)
    d.timer().timeit(1)
    assert seen == [3, 7]
    assert [f() for f in d[1:]] == [None] and seen == [3, 7, 7]


def test_single_rank_lasts_are_moves_of_the_landlords_hand():
    ours = E.DdzFast()
    assert ours.available()
    hands = np.array([d["landlord"] for d in D.make_deals(64, 5)], dtype=np.uint8)
    for name, (rank, num, rows) in C.single_rank_lasts(ours, hands, seed=5).items():
        idx = np.arange(len(hands))
        assert (hands[idx, rank] >= num).all(), name
        assert (rows[idx, rank] == num).all() and (rows[:, :15].sum(1) == num).all(), name
        assert set(num.tolist()) <= {1, 2, 3}, name
    low = C.single_rank_lasts(ours, hands, seed=5)["response to the lowest single, 17 cards"][0]
    assert low.tolist() == [int(np.flatnonzero(h)[0]) for h in hands]


def test_generation_floor_covers_every_ply_of_the_python_loop():
    games = [p.game for p in D.mid_game_positions(20, 7, None)]
    gen, count, plies = EC.generation_chunk(games)
    assert plies == sum(EC.python_rollout(g, i) - g.plies for i, g in enumerate(games))
    assert gen() > 0 and count() > 0
