"""The comparison harness's own helpers (compare.py, engine_compare.py,
solver_compare.py): what they time is what they claim to time."""
from __future__ import annotations

from pathlib import Path

import numpy as np

import compare as C
import deals as D
import engine_compare as EC
import engines as E
import solver_compare as SC


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


def _fake_anchor(tmp_path):
    """An anchor that prints its working directory, writes "nul" there (as
    WZ403809264's system("pause>nul") does off Windows), answers, then waits."""
    exe = tmp_path / "fake_anchor.sh"
    exe.write_text("#!/bin/sh\npwd\n: > nul\necho answer\nsleep 30\n")
    exe.chmod(0o755)
    return exe


def test_anchor_runs_in_a_temporary_directory_removed_after_it(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    wall, out = SC.run_until(_fake_anchor(tmp_path), "", (b"answer",), 10.0)
    assert wall is not None and wall < 10.0
    ran_in = Path(out.decode().splitlines()[0])
    assert ran_in != work and not ran_in.exists()
    assert list(work.iterdir()) == []           # no "nul" where the harness runs


def test_anchor_given_by_a_relative_path_still_starts(tmp_path, monkeypatch):
    exe = _fake_anchor(tmp_path)
    monkeypatch.chdir(tmp_path)
    wall, out = SC.run_until(Path(exe.name), "", (b"answer",), 10.0)
    assert wall is not None and b"answer" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake_anchor.sh"]


def _best(rounds):
    b = SC.Best()
    for r in rounds:
        if r is not None:
            b.add(r, r)
        b.end_round()
    return b


def test_round_ratios_take_each_rounds_fastest_anchor_over_our_round():
    warm = _best([1.0, 2.0, 4.0])
    quick = _best([10.0, 10.0, 10.0])
    slow = _best([8.0, None, None])             # run once (over 1 s): its time counts in every round
    ratios = SC.round_ratios(warm, {"quick": quick, "slow": slow}, 300.0)
    assert ratios == [8.0, 4.0, 2.0]
    assert SC.spread(ratios) == "2.0x / 4.0x / 8.0x"
    assert min(ratios) <= 8.0 / warm.search <= max(ratios)


def test_round_ratios_count_unfinished_anchors_as_the_timeout():
    warm = _best([0.5, 1.0])
    stuck = SC.Best()
    stuck.add(None, None)                       # did not finish: not run again
    stuck.end_round()
    stuck.end_round()
    assert SC.round_ratios(warm, {"stuck": stuck}, 300.0) == [600.0, 300.0]
    assert SC.round_ratios(warm, {}, 300.0) == [] and SC.spread([]) == "n/a"
