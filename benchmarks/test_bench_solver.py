"""Endgame solver benchmarks: each published puzzle (github.com/WZ403809264/
doudizhu_solver, README.md) from a fresh table, and many distinct random
endgames of 6-8 cards a hand (two-player) and 4-5 a seat (three-player);
with wild cards (laizi, tiandi), a few puzzles from a fresh table and many
distinct random wild endgames.

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


# Wild-card endgames: published puzzle hands with a rank made wild.  The
# comments give each search's nodes and time at the time of writing (one
# core of a shared 2-core machine): with many wild cards a node costs far
# more (gen_wild's readings, and min_plays over gen_wild's leads to order them).
WILD_PUZZLES = [
    (("2AKT96554", "BKJT8854"), "laizi", "5"),             # win, 10,206 nodes, ~4 ms
    (("B2AK998553", "RQQJJT953"), "laizi", "9"),           # win, 2,566 nodes, ~1 ms
    (("2AKT96554", "BKJT8854"), "tiandi", "58"),           # loss, 25,939 nodes, ~13 ms
    (("B2AK998553", "RQQJJT953"), "tiandi", "59"),         # win, 4,042 nodes, ~5 ms
    (("RKKQJT9876633", "AAKQJT987"), "laizi", "T"),        # loss, 235,823 nodes, ~90 ms
]


@pytest.mark.parametrize("hands,rules,wild", WILD_PUZZLES,
                         ids=[f"{a}-{b}-{rules}-{wild}" for (a, b), rules, wild in WILD_PUZZLES])
def test_solve_wild_puzzle(benchmark, hands, rules, wild):
    benchmark.group = "solver: wild-card puzzles (fresh table, one thread)"
    r = benchmark.pedantic(lambda: solve(list(hands), rules=rules, wild=wild), rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = r.nodes
    assert r.win is not None


def _wild_deals(n, seats, lo, hi, wilds, seed):
    """Random deals of lo..hi cards a seat, each with its own wild rank(s)."""
    rng = random.Random(seed)
    return [(hands, tuple(rng.sample(range(13), wilds))) for hands in _deals(n, seats, lo, hi, seed)]


@pytest.mark.parametrize("rules,seats,lo,hi", [("laizi", 2, 5, 6), ("tiandi", 2, 4, 5), ("laizi", 3, 3, 4)])
def test_solve_random_wild_endgames(benchmark, rules, seats, lo, hi):
    """200 distinct random wild endgames per round (one Solver: its table is
    cleared whenever the wild ranks change)."""
    benchmark.group = "solver: random wild endgames"
    wilds = 1 if rules == "laizi" else 2
    deals = _wild_deals(200, seats, lo, hi, wilds, 15)
    landlord = None if seats == 2 else 0
    solver = ddz_fast.Solver(table_mb=32)

    def run():
        return sum(bool(solver.solve(h, landlord=landlord, rules=rules, wild=w).win) for h, w in deals)

    benchmark.pedantic(run, rounds=3, iterations=1)
