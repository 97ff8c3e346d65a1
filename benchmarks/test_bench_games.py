"""Random-game benchmarks: the compiled ``ddz_fast.play_random_games`` and a
Python loop stepping ``ddz_fast.Game`` with uniformly random legal actions.

Each benchmark skips (not fails) while the engine's names do not exist.
"""
from __future__ import annotations

import random

import pytest

import deals as D

import ddz_fast

N_COMPILED = 2000   # games per play_random_games round
N_PYTHON = 50       # games per Python-loop round


def _need(name):
    if not hasattr(ddz_fast, name):
        pytest.skip(f"ddz_fast.{name} does not exist yet")
    return getattr(ddz_fast, name)


@pytest.mark.parametrize("rules,threads", [("standard", 1), ("standard", 2), ("four", 1)])
def test_play_random_games(benchmark, rules, threads, bench_seed):
    """Whole games (deal, auction, play) in compiled code."""
    play = _need("play_random_games")
    benchmark.group = "random games (compiled)"
    benchmark.extra_info.update(games=N_COMPILED, rules=rules, threads=threads)
    res = benchmark(play, N_COMPILED, rules=rules, seed=bench_seed, threads=threads)
    assert len(res) == N_COMPILED


def _random_steps(g, rng):
    while not g.is_over:
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    return g


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_game_python_loop(benchmark, rules, bench_seed):
    """Game(rules, seed) then legal_actions() / step(random action) from the
    auction to the end, one Python step per action."""
    Game = _need("Game")

    def run():
        rng = random.Random(1)
        plies = 0
        for i in range(N_PYTHON):
            plies += _random_steps(Game(rules, seed=bench_seed + i), rng).plies
        return plies

    benchmark.group = "random games (Python loop)"
    benchmark.extra_info.update(games=N_PYTHON, rules=rules)
    assert benchmark(run) > 0


def test_game_python_play_phase(benchmark, bench_seed):
    """Play phase only, from the start of play of seeded deals (the landlord,
    seat 0, leads with 20 cards): clone, then random steps to the end."""
    Game = _need("Game")
    starts = [Game.from_position([D.as_u8(d["landlord"]), D.as_u8(d["farmer1"]),
                                  D.as_u8(d["farmer2"])], landlord=0)
              for d in D.make_deals(N_PYTHON, bench_seed)]

    def run():
        rng = random.Random(1)
        return sum(_random_steps(s.clone(), rng).plies for s in starts)

    benchmark.group = "random games (Python loop)"
    benchmark.extra_info.update(games=N_PYTHON, rules="standard")
    assert benchmark(run) > 0
