"""Ctrl-C during long compiled calls: SIGINT (sent by another thread, as a
terminal sends it) interrupts ``Game.rollout``, ``play_random_games``,
``Game.move_values``, ``Game.solve_values`` and the solver within a fraction
of a second, on one thread and with worker threads, and leaves the Game and
the Solver as they were.  Each call here would run for half a minute or more
uninterrupted; the latency bound (2 s) is generous against the promised
0.02 s polling, so the test cannot pass by the call finishing first."""
import sys
from pathlib import Path

import numpy as np
import pytest

import ddz_fast as ddz

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))
from concurrency import Interrupted, play_phase_game, with_signal  # noqa: E402

LATENCY = 2.0
DELAY = 0.2


def _interrupted(call):
    out = with_signal(call, DELAY)
    assert isinstance(out, Interrupted), "the call returned instead of raising KeyboardInterrupt"
    assert out.latency < LATENCY, f"KeyboardInterrupt {out.latency:.2f} s after the signal"


@pytest.fixture(scope="module")
def game():
    return play_phase_game("standard", 4, 0)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_rollout_and_leaves_the_game_unchanged(game, threads):
    before = game.snapshot()
    want = game.rollout(20, seed=3).scores
    # (sizes whose result arrays are quick to allocate, even under ASan)
    _interrupted(lambda: game.rollout(2 * 10**7, threads=threads))
    _interrupted(lambda: game.rollout(10**7, policy="bot", threads=threads))
    assert game.snapshot() == before
    assert np.array_equal(game.rollout(20, seed=3, threads=threads).scores, want)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_play_random_games(threads):
    _interrupted(lambda: ddz.play_random_games(2 * 10**7, threads=threads))
    want = ddz.play_random_games(40, seed=2).scores
    assert np.array_equal(ddz.play_random_games(40, seed=2, threads=threads).scores, want)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_move_values(game, threads):
    worlds = game.sample_worlds(game.to_move, 64, seed=1)
    moves = game.legal_actions()
    before = game.snapshot()
    want = game.move_values(worlds[:2], moves, policy="random", seed=5)
    _interrupted(lambda: game.move_values(worlds, moves, rollouts=1 << 16, policy="random", threads=threads))
    assert game.snapshot() == before
    assert np.array_equal(game.move_values(worlds[:2], moves, policy="random", seed=5, threads=threads), want)


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_the_solver_and_the_solver_stays_usable(game, threads):
    before = game.snapshot()
    _interrupted(lambda: ddz.solve_game(game, threads=threads))
    assert game.snapshot() == before
    solver = ddz.Solver(1)
    _interrupted(lambda: solver.solve(game.hands, to_move=game.to_move, landlord=game.landlord,
                                      threads=threads))
    r = solver.solve(["KK5543", "225543"])
    assert (r.win, r.status) == (True, "win")


def test_ctrl_c_stops_solve_values(game):
    worlds = game.sample_worlds(game.to_move, 8, seed=2)
    before = game.snapshot()
    _interrupted(lambda: game.solve_values(worlds, game.legal_actions()))
    assert game.snapshot() == before


def test_a_signal_after_the_call_is_not_raised_inside_it(game):
    # the harness itself: a short call returns its result, the late signal is dropped
    out = with_signal(lambda: game.rollout(5, seed=1).scores, 0.05)
    assert np.array_equal(out, game.rollout(5, seed=1).scores)
