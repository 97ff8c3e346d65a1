"""The batch API, the single-hand calls and the compiled playouts called from
several Python threads at once give exactly the results of one thread.

Inputs are shared between the threads (one read-only hands array, one list of
last moves, shared Rules objects), and the batch calls also split their work
with ``threads=k`` inside.  On a free-threaded build (``sys._is_gil_enabled()``
is False) the stress runs more rounds, since the threads then really run the
Python layer at the same time; with the GIL the same test still interleaves
the GIL-free kernels and the validation code.  Budget: well under 20 s.
"""
import sys
import threading
import time
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import reference

FREE_THREADED = not getattr(sys, "_is_gil_enabled", lambda: True)()
ROUNDS = 600 if FREE_THREADED else 200
WORKERS = 8


def _shared_inputs(rules, n=1024, seed=11):
    """Hands dealt by seeded games (read-only array) and, per hand, a last
    move taken from another hand's legal moves when it fits in the deck."""
    r = ddz.resolve_rules(rules)
    hands, lasts = [], []
    for i in range(n):
        g = ddz.Game(r, seed=seed * 1000 + i)
        hands.append(g.hand(i % r.players))
        other = g.hand((i + 1) % r.players)
        moves = ddz.legal_moves(other, rules=r)
        lasts.append(None if i % 3 == 0 else moves[(i * 7) % len(moves)])
    arr = np.array(hands, dtype=np.uint8)
    arr.flags.writeable = False
    return arr, lasts


@pytest.fixture(scope="module", params=["standard", "four"])
def case(request):
    rules = request.param
    hands, lasts = _shared_inputs(rules)
    want_batch = ddz.legal_moves_batch(hands, lasts, rules=rules)
    want = {
        "rows": np.asarray(want_batch.rows).copy(),
        "offsets": np.asarray(want_batch.offsets).copy(),
        "counts": ddz.count_moves(hands, lasts, rules=rules).copy(),
        "lead_counts": ddz.count_moves(hands, rules=rules).copy(),
        "single": [np.asarray(ddz.legal_moves(hands[i], lasts[i], rules=rules).rows).copy()
                   for i in range(0, len(hands), 8)],
        "playouts": ddz.play_random_games(64, rules=rules, seed=5).scores.copy(),
    }
    return rules, hands, lasts, want


def _job(kind, k, rules, hands, lasts, want):
    """One call of an entry point; returns True when it matches the one-thread result."""
    if kind == "batch":
        b = ddz.legal_moves_batch(hands, lasts, rules=rules, threads=k)
        return np.array_equal(b.rows, want["rows"]) and np.array_equal(b.offsets, want["offsets"])
    if kind == "count":
        return np.array_equal(ddz.count_moves(hands, lasts, rules=rules, threads=k), want["counts"])
    if kind == "lead_count":
        return np.array_equal(ddz.count_moves(hands, rules=rules, threads=k), want["lead_counts"])
    if kind == "single":
        return all(np.array_equal(ddz.legal_moves(hands[i * 8], lasts[i * 8], rules=rules).rows, rows)
                   for i, rows in enumerate(want["single"]))
    if kind == "playouts":
        return np.array_equal(ddz.play_random_games(64, rules=rules, seed=5, threads=k).scores,
                              want["playouts"])
    if kind == "errors":
        # Error paths interleaved with the rest: must raise, never corrupt shared state.
        bad = np.array(hands, dtype=np.int64)
        bad[0, 0] = 99
        with pytest.raises(ValueError):
            ddz.legal_moves_batch(bad, rules=rules, threads=k)
        with pytest.raises(TypeError):
            ddz.legal_moves_batch(hands, ["junk"] * len(hands), rules=rules)
        return True
    raise AssertionError(kind)


KINDS = ["batch", "count", "lead_count", "single", "playouts", "errors"]


def test_concurrent_calls_match_one_thread(case):
    rules, hands, lasts, want = case
    before = hands.copy()
    jobs = [(kind, 1 + (n % 4)) for n in range(ROUNDS) for kind in KINDS]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda job: (job, _job(job[0], job[1], rules, hands, lasts, want)), jobs))
    bad = [job for job, ok in results if not ok]
    assert not bad, f"results differ from one thread for {bad}"
    assert np.array_equal(hands, before), "a call changed the shared input"
    assert time.perf_counter() - t0 < 20


def test_threads_register_new_rules_at_once():
    # Each thread brings its own Rules objects with the same new option set:
    # the registry (a lock around a small C table) must give all of them one
    # id and the same results as the preset-free reference engine.
    opts = dict(both_jokers_as_kickers=True, four_two_solo_distinct=False, airplane_solo_distinct=True)
    hand = ddz.parse_cards("3333444555BR2")
    expect = reference.legal_moves(hand, rules=ddz.Rules(**opts))

    def work(_):
        r = ddz.Rules(**opts)
        return list(ddz.legal_moves(hand, rules=r)) == expect and \
            list(ddz.legal_moves_batch(hand[None, :], rules=r)[0]) == expect

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        assert all(pool.map(work, range(WORKERS * 4)))


def test_games_in_threads_match_games_in_one_thread():
    # Game objects are per thread (a Game is not meant to be shared); the
    # module-level state they use (rules registry, caches) is.
    def play(seed):
        g = ddz.Game("standard", seed=seed)
        rng = ddz.SplitMix64(seed)
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.below(len(acts))])
        return g.result.scores, tuple(g.history)

    seeds = list(range(48))
    want = [play(s) for s in seeds]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        assert list(pool.map(play, seeds)) == want


def test_the_comparison_can_fail():
    # The check in _job compares real data: a different seed gives other
    # playout scores, and a different hand other move rows.
    hands, lasts = _shared_inputs("standard", n=16)
    want = {"playouts": ddz.play_random_games(64, seed=6).scores, "rows": np.zeros((0, 16), np.uint8),
            "offsets": np.zeros(17, np.int64)}
    assert not _job("playouts", 1, "standard", hands, lasts, want)
    assert not _job("batch", 2, "standard", hands, lasts, want)


# ---------------------------------------------------------------------------
# The persistent worker threads behind threads=k
# ---------------------------------------------------------------------------

def test_batch_workers_persist_between_calls():
    """threads=k runs on worker threads kept between calls: many calls do not
    start a thread each (and give the one-thread result)."""
    import threading
    hands, _ = _shared_inputs("standard", n=64)
    want = ddz.legal_moves_batch(hands)
    ddz.legal_moves_batch(hands, threads=3)       # the pool grows to what one call needs
    before = threading.active_count()
    for _ in range(50):
        got = ddz.legal_moves_batch(hands, threads=3)
        assert np.array_equal(got.rows, want.rows) and np.array_equal(got.offsets, want.offsets)
    assert threading.active_count() <= before


def test_run_parts_runs_every_part_and_reraises_the_first_error():
    from ddz_fast._util.parallel import run_parts
    done = []

    def part(i):
        def run():
            done.append(i)
            if i == 2:
                raise KeyError("part 2")
        return run

    with pytest.raises(KeyError, match="part 2"):
        run_parts([part(i) for i in range(4)])
    assert sorted(done) == [0, 1, 2, 3]
    # the workers are usable again after an error
    done.clear()
    run_parts([part(i) for i in (0, 1, 3)])
    assert sorted(done) == [0, 1, 3]


def test_an_interrupt_that_cpython_reports_as_an_unlocked_lock_is_reraised_as_the_interrupt(monkeypatch):
    """A signal handler's exception raised while Condition.wait takes its
    lock back comes out of Event.wait as RuntimeError("release unlocked
    lock") with the interrupt as context (CPython): run_parts still waits
    for every part, cancels, and re-raises the interrupt itself."""
    import time
    from ddz_fast._util import parallel

    class FlakyEvent(threading.Event):
        raised = False

        def wait(self, timeout=None):
            if not FlakyEvent.raised:
                FlakyEvent.raised = True
                try:
                    raise KeyboardInterrupt
                except KeyboardInterrupt:
                    raise RuntimeError("release unlocked lock")  # noqa: B904 (CPython chains it so)
            return super().wait(timeout)

    monkeypatch.setattr(parallel.threading, "Event", FlakyEvent)
    done, cancelled = [], []

    def part(i):
        def run():
            time.sleep(0.05 if i else 0)
            done.append(i)
        return run

    with pytest.raises(KeyboardInterrupt):
        parallel.run_parts([part(0), part(1)], cancel=lambda: cancelled.append(True))
    assert sorted(done) == [0, 1] and cancelled


def test_threads_beyond_the_kept_idle_ones_end_with_the_call():
    """Every threads= entry point: after a call with many threads, at most
    KEEP_IDLE idle workers stay alive (the process's OS threads, counted
    from /proc where it exists), and the results are those of one thread."""
    import os
    import threading
    from ddz_fast._util.parallel import KEEP_IDLE

    from ddz_fast.bidding import landlord_value
    k = KEEP_IDLE + 24

    def vec_steps(t):
        v = ddz.VecGame(k, seed=1, threads=t)
        for _ in range(3):
            v.step(np.asarray(v.legal_ids)[np.asarray(v.legal_offsets)[:-1]])
        return np.concatenate([np.asarray(v.legal_ids), np.asarray(v.scores).ravel()])
    g = ddz.Game("standard", seed=3)
    while g.phase != ddz.Phase.PLAY:
        g.step(g.legal_actions()[-1])
    worlds = g.sample_worlds(g.to_move, 64)
    moves = g.legal_actions()
    hands, _ = _shared_inputs("standard", n=64)
    calls = {
        "play_random_games": lambda t: ddz.play_random_games(k * 16, seed=1, threads=t).scores,
        "rollout": lambda t: g.rollout(k * 16, seed=1, threads=t).scores,
        "move_values": lambda t: g.move_values(worlds, moves, threads=t),
        "legal_moves_batch": lambda t: ddz.legal_moves_batch(hands, threads=t).rows,
        "count_moves": lambda t: ddz.count_moves(hands, threads=t),
        "solve": lambda t: ddz.solve(["KK5543", "225543"], threads=min(t, 64), all_moves=True).winning_moves,
        "VecGame": vec_steps,
        "landlord_value": lambda t: landlord_value(ddz.Game(seed=3).hand(0), samples=k * 16, threads=t).win_rate,
    }

    def os_threads():
        try:
            return len(os.listdir("/proc/self/task"))
        except OSError:
            return threading.active_count()

    def left_after(base):
        # (a joined thread's OS thread exits a moment after join returns:
        # wait up to a second for /proc to catch up)
        for _ in range(100):
            left = os_threads() - base
            if left <= KEEP_IDLE:
                break
            time.sleep(0.01)
        return left

    for name, call in calls.items():
        want = call(1)
        base = os_threads()
        got = call(k)
        left = left_after(base)
        assert left <= KEEP_IDLE, f"{name}: {left} threads left after threads={k}"
        assert threading.active_count() <= base + KEEP_IDLE
        if isinstance(want, np.ndarray):
            assert np.array_equal(got, want), name
        else:
            assert got == want, name


def test_one_game_shared_by_stepping_and_sampling_threads():
    """Threads that step and undo one Game while others sample worlds from
    it (and run its rollouts, move values, legal ids and solver values):
    every call's worlds come from one state, and nothing crashes (run in a
    child process, four-player game, about 2 s)."""
    import subprocess
    fuzz = str((Path(__file__).resolve().parent / "fuzz"))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import concurrency as c; "
            "n = c.shared_game('four', seed=1, seconds=1.0) + c.shared_game('standard', seed=2, seconds=1.0); "
            "print('calls', n)")
    proc = subprocess.run([sys.executable, "-c", code, fuzz], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
