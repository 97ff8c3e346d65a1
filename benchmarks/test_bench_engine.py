"""The compiled game engine (``ddz_fast.Game``) on distinct mid-game positions:
clone, copies, pickling, from_position, step + undo, legal_actions, rollouts
(compiled and a Python loop), hidden-hand sampling; OpenSpiel's clone() and
Python-loop rollout beside them (skipped without pyspiel).

The positions (``deals.mid_game_positions``: one per seeded deal, 6..30
random moves into the play phase, the same cards played in OpenSpiel when it
is importable) are built once per module; every round goes through all of
them.  Each benchmark checks its result, so the quick mode
(``--benchmark-disable``) is a smoke test of the same calls.
"""
from __future__ import annotations

import copy
import os

import numpy as np
import pytest

import deals as D
import engine_compare as EC
import engines as E

import ddz_fast

N_CALL = D.N_POSITIONS      # positions per round of the cheap calls
N_ROLLOUT = 200             # positions per round of the rollout benchmarks
ROLLOUTS = 16               # Game.rollout(n): n per position
WORLDS = 256                # sample_worlds(player, n): n per position


@pytest.fixture(scope="module")
def openspiel():
    e = E.OpenSpiel()
    return e if e.available() else None


@pytest.fixture(scope="module")
def positions(bench_seed, openspiel):
    return D.mid_game_positions(N_CALL, bench_seed, openspiel)


@pytest.fixture(scope="module")
def games(positions):
    return [p.game for p in positions]


@pytest.fixture(scope="module")
def os_states(positions, openspiel):
    if openspiel is None:
        if os.environ.get("DDZ_REQUIRE_OPTIONAL") == "1":      # (.ci/run installs it)
            pytest.fail("pyspiel is required here (the compare extra) but not importable")
        pytest.skip("pyspiel is not importable")
    return [p.os_state for p in positions]


def _calls(benchmark, group, n, **extra):
    benchmark.group = group
    benchmark.extra_info.update(calls=n, **extra)


# ---------------------------------------------------------------------------
# Copies and positions
# ---------------------------------------------------------------------------

def test_clone(benchmark, games):
    """Game.clone: an independent copy of the compiled state."""
    def run():
        return [g.clone() for g in games]
    _calls(benchmark, "engine: copies", len(games))
    out = benchmark(run)
    assert [c.snapshot() for c in out[:20]] == [g.snapshot() for g in games[:20]]
    assert out[0] is not games[0]


def test_copy_copy(benchmark, games):
    def run():
        return [copy.copy(g) for g in games]
    _calls(benchmark, "engine: copies", len(games))
    out = benchmark(run)
    assert all((c.hands == g.hands).all() and c.to_move == g.to_move for c, g in zip(out, games))


def test_pickle_round_trip(benchmark, games):
    sub = games[:N_ROLLOUT]

    def run():
        return [EC.pickle_round_trip(g) for g in sub]
    _calls(benchmark, "engine: copies", len(sub))
    out = benchmark(run)
    assert [c.snapshot() for c in out[:20]] == [g.snapshot() for g in sub[:20]]


def test_openspiel_clone(benchmark, os_states):
    """OpenSpiel's state.clone() on the same positions."""
    def run():
        return [s.clone() for s in os_states]
    _calls(benchmark, "engine: copies", len(os_states))
    out = benchmark(run)
    assert all(str(c) == str(s) for c, s in zip(out[:20], os_states[:20]))


@pytest.mark.parametrize("form", ["uint8 array", "text"])
def test_from_position(benchmark, games, form):
    """Game.from_position of each mid-game position (hands, landlord, the
    player to move, the move to answer), hands as one (3, 15) uint8 array or
    as card text."""
    args = [EC.position_args(g, text=form == "text") for g in games]

    def run():
        return [ddz_fast.Game.from_position(*a, **k) for a, k in args]
    _calls(benchmark, "engine: positions", len(args), form=form)
    out = benchmark(run)
    for g, h in zip(games, out):
        assert (h.hands == g.hands).all() and h.to_move == g.to_move and h.last_move == g.last_move


def test_step_undo(benchmark, games):
    """step(a legal move) then undo(), on every position."""
    work = [g.clone() for g in games]
    moves = [EC.a_move(g, i) for i, g in enumerate(work)]
    before = [g.snapshot() for g in work[:20]]

    def run():
        for g, m in zip(work, moves):
            g.step(m)
            g.undo()
        return work
    _calls(benchmark, "engine: step", len(work))
    benchmark(run)
    assert [g.snapshot() for g in work[:20]] == before


def test_legal_actions_fresh(benchmark, games):
    """legal_actions() on states that have not generated them yet (fresh
    copies made outside the timed code every round)."""
    moves = [EC.a_move(g, i) for i, g in enumerate(games)]

    def fresh():
        out = []
        for g, m in zip(games, moves):
            c = g.clone()
            c.step(m)
            c.undo()   # drops the cached list the clone shares
            out.append(c)
        return (out,), {}

    def run(states):
        return [s.legal_actions() for s in states]
    _calls(benchmark, "engine: step", len(games))
    out = benchmark.pedantic(run, setup=fresh, rounds=20 if benchmark.enabled else 1)
    assert [len(x) for x in out] == [len(g.legal_actions()) for g in games]


# ---------------------------------------------------------------------------
# Rollouts
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("policy,threads", [("random", 1), ("random", 2), ("bot", 1), ("bot", 2)])
def test_rollout(benchmark, games, policy, threads):
    """Game.rollout(ROLLOUTS) from each position, compiled, without the GIL."""
    sub = games[:N_ROLLOUT]

    def run():
        return [g.rollout(ROLLOUTS, policy=policy, seed=i, threads=threads) for i, g in enumerate(sub)]
    benchmark.group = "engine: rollouts"
    benchmark.extra_info.update(games=len(sub) * ROLLOUTS, policy=policy, threads=threads)
    out = benchmark(run)
    for r, g in zip(out, sub):
        assert len(r) == ROLLOUTS and (r.plies > g.plies).all() and (r.scores.sum(axis=1) == 0).all()
    if threads == 2:
        assert all((r.scores == g.rollout(ROLLOUTS, policy=policy, seed=i).scores).all()
                   for i, (r, g) in enumerate(zip(out[:10], sub)))


def test_rollout_one(benchmark, games):
    """Game.rollout(1): one rollout per call (the call's fixed cost shows)."""
    sub = games[:N_ROLLOUT]

    def run():
        return [g.rollout(1, seed=i) for i, g in enumerate(sub)]
    benchmark.group = "engine: rollouts"
    benchmark.extra_info.update(games=len(sub))
    out = benchmark(run)
    assert [int(r.plies[0]) for r in out[:20]] == [EC.python_rollout(g, i) for i, g in enumerate(sub[:20])]


def test_python_loop_rollout(benchmark, games):
    """The Python-loop rollout: clone, legal_actions(), step(acts[rng.below(n)])
    to the end; plays exactly the games of Game.rollout(1, seed=i)."""
    sub = games[:N_ROLLOUT]

    def run():
        return [EC.python_rollout(g, i) for i, g in enumerate(sub)]
    benchmark.group = "engine: rollouts"
    benchmark.extra_info.update(games=len(sub))
    plies = benchmark(run)
    assert plies[:20] == [int(g.rollout(1, seed=i).plies[0]) for i, g in enumerate(sub[:20])]


def test_openspiel_python_loop_rollout(benchmark, os_states):
    """The same loop over pyspiel (clone, legal_actions, apply_action)."""
    sub = os_states[:N_ROLLOUT]

    def run():
        return [EC.openspiel_rollout(s, i) for i, s in enumerate(sub)]
    benchmark.group = "engine: rollouts"
    benchmark.extra_info.update(games=len(sub))
    plies = benchmark(run)
    assert all(p > 0 for p in plies) and not any(s.is_terminal() for s in sub)


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------

def test_sample_worlds(benchmark, games):
    """sample_worlds(player to move, WORLDS) on every position."""
    def run():
        return [g.sample_worlds(g.to_move, WORLDS, seed=i) for i, g in enumerate(games)]
    benchmark.group = "engine: hidden information"
    benchmark.extra_info.update(calls=len(games), worlds=len(games) * WORLDS)
    out = benchmark(run)
    for g, w in zip(games[:50], out):
        p = g.to_move
        assert w.shape == (WORLDS, 3, 15) and (w[:, p] == g.hand(p)).all()
        assert (w.sum(axis=1) == g.hands.sum(axis=0)).all()   # the cards not played yet
        assert (w.sum(axis=2) == np.array(g.hand_sizes)).all()


def test_unseen(benchmark, games):
    def run():
        return [g.unseen(g.to_move) for g in games]
    benchmark.group = "engine: hidden information"
    benchmark.extra_info.update(calls=len(games))
    out = benchmark(run)
    for g, u in zip(games, out):
        others = g.hands.sum(axis=0) - g.hand(g.to_move)
        assert (u == others).all()
