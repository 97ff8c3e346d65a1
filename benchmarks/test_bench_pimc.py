"""The PIMC agent: one decision on each of many distinct mid-game positions
(``deals.mid_game_positions``), its compiled playout valuation
(``Game.move_values``) alone, and a short seeded match against the simple
bot (the strength numbers with intervals come from
``benchmarks/pimc_compare.py``, run long).  Each benchmark checks its result,
so the quick mode (``--benchmark-disable``) is a smoke test of the same
calls."""
from __future__ import annotations

import numpy as np
import pytest

import deals as D
import pimc_compare as PC

import ddz_fast
from ddz_fast.game import simple_bot

N_POSITIONS = 200             # decisions per round
MATCH_DEALS = 8               # deals per side of the smoke match


@pytest.fixture(scope="module")
def observations(bench_seed):
    out = []
    for p in D.mid_game_positions(N_POSITIONS, bench_seed, None):
        g = p.game
        out.append(g.observation(g.to_move))
    return out


def test_pimc_decision(benchmark, observations):
    """One default agent decision per position (32 worlds)."""
    benchmark.group = "pimc: decisions on distinct positions"
    benchmark.extra_info.update(calls=len(observations))
    agent = ddz_fast.PIMCAgent(seed=1)

    def run():
        return [agent(o) for o in observations]

    acts = benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(a in list(o.legal_actions) for a, o in zip(acts, observations))


def test_move_values(benchmark, bench_seed):
    """32 worlds x every legal move, bot playouts, per position."""
    benchmark.group = "pimc: decisions on distinct positions"
    positions = D.mid_game_positions(N_POSITIONS, bench_seed, None)
    work = [(p.game, p.game.sample_worlds(p.game.to_move, 32, seed=i), p.game.legal_actions())
            for i, p in enumerate(positions)]
    benchmark.extra_info.update(calls=len(work), games=sum(32 * len(m) for _, _, m in work))

    def run():
        return [g.move_values(w, m) for g, w, m in work]

    vals = benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(v.shape == (32, len(m)) and ((v == 0) | (v == 1)).all() for v, (_, _, m) in zip(vals, work))


def _endgames(n, seed):
    """n positions of seeded deals played by the simple bot down to at most
    16 cards in all hands (the PIMC agent's default solver_cards)."""
    out = []
    k = 0
    while len(out) < n:
        g = ddz_fast.Game(seed=ddz_fast.game_seed(seed, k))
        k += 1
        while not g.is_over and (g.phase != ddz_fast.Phase.PLAY or sum(g.hand_sizes) > 16):
            g.step(simple_bot(g.observation(g.to_move)))
        if not g.is_over:
            out.append(g)
    return out


def test_solve_values(benchmark, bench_seed):
    """32 worlds x every legal move, solved (the agent's limits), per
    endgame position: the solver part of a PIMC decision."""
    benchmark.group = "pimc: decisions on distinct positions"
    work = [(g, g.sample_worlds(g.to_move, 32, seed=i), g.legal_actions())
            for i, g in enumerate(_endgames(N_POSITIONS // 4, bench_seed))]
    benchmark.extra_info.update(calls=len(work), worlds=32 * len(work))

    def run():
        return [g.solve_values(w, m, max_nodes=20000, table_mb=4) for g, w, m in work]

    vals = benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(v.shape == (32, len(m)) and ((v == 0) | (v == 1) | np.isnan(v)).all()
               for v, (_, _, m) in zip(vals, work))


@pytest.mark.parametrize("role", PC.ROLES)
def test_match_against_the_simple_bot(benchmark, role, bench_seed):
    """A short seeded match; checks the win-rate machinery end to end."""
    benchmark.group = "pimc: a match against the simple bot"
    benchmark.extra_info.update(games=MATCH_DEALS)

    def run():
        return PC.play_role(ddz_fast.PIMCAgent(seed=bench_seed), simple_bot, role, MATCH_DEALS, bench_seed)

    wins = benchmark.pedantic(run, rounds=1, iterations=1)
    assert len(wins) == MATCH_DEALS and set(wins) <= {0, 1}
    lo, hi = PC.wilson(sum(wins), len(wins))
    assert 0 <= lo <= sum(wins) / len(wins) <= hi <= 1
