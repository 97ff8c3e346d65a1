"""Endgame solver benchmarks: each published puzzle (github.com/WZ403809264/
doudizhu_solver, README.md) from a fresh table, and many distinct random
endgames of 6-8 cards a hand (two-player) and 4-5 a seat (three-player).

benchmarks/solver_compare.py times the same puzzles against the anchor
solvers built from source."""
from __future__ import annotations

import random

import pytest

import ddz_fast
from ddz_fast import solve
from ddz_fast.solver_reference import PUBLISHED_PUZZLES

PUZZLES = [(a, b) for a, b, _ in PUBLISHED_PUZZLES]


@pytest.mark.parametrize("first,second", PUZZLES)
def test_solve_published_puzzle(benchmark, first, second):
    benchmark.group = "solver: published puzzles (fresh table, one thread)"
    hands = [first, second]
    r = benchmark.pedantic(lambda: solve(hands, rules="strict"), rounds=3, iterations=1)
    assert r.win is not None


def _deals(n, seats, lo, hi, seed):
    rng = random.Random(seed)
    deck = [x for x in range(13) for _ in range(4)] + [13, 14]
    out = []
    for _ in range(n):
        rng.shuffle(deck)
        hands, i = [], 0
        for _ in range(seats):
            k = rng.randint(lo, hi)
            h = [0] * 15
            for x in deck[i:i + k]:
                h[x] += 1
            hands.append(h)
            i += k
        out.append(hands)
    return out


@pytest.mark.parametrize("seats,lo,hi", [(2, 6, 8), (3, 4, 5)])
def test_solve_random_endgames(benchmark, seats, lo, hi):
    """500 distinct random endgames per round (one Solver, table reused)."""
    benchmark.group = "solver: random endgames"
    deals = _deals(500, seats, lo, hi, 14)
    landlord = None if seats == 2 else 0
    solver = ddz_fast.Solver(table_mb=32)

    def run():
        return sum(bool(solver.solve(h, landlord=landlord).win) for h in deals)

    benchmark.pedantic(run, rounds=3, iterations=1)
