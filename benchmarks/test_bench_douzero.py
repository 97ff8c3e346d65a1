"""DouZero's actor loop with a fixed NumPy linear policy (no torch): stock
DouZero (``Env``: ``GameEnv`` + ``get_obs`` per step) against the batched
drop-in (``VecGame(1024, "douzero", skip_auction=True)`` +
``compat.douzero.VecFeatures``), and the ``get_obs`` drop-in alone.

``extra_info``: ``calls`` = frames (decisions) per round, so the summary's
ns/call is the time per frame, the policy included.  Every round plays new
deals (seeded shuffles for DouZero; auto-reset for the batched game).
benchmarks/douzero_compare.py measures both in one run with the issue-13
target.  Skipped without DouZero (``pip install --no-deps douzero``).
"""
from __future__ import annotations

import itertools

import pytest
from douzero_compare import LinearPolicy, batched_steps, stock_games

import ddz_fast
from ddz_fast.compat import douzero as dz

dz_env = pytest.importorskip("douzero.env.env")

N_TABLES = 1024
STEPS = 10      # batched steps per round
GAMES = 4       # stock games per round


@pytest.mark.parametrize("features", ["douzero", "ddz-fast get_obs"])
def test_stock_actor_loop(benchmark, bench_seed, features):
    """DouZero's Env with its own get_obs, or with compat.douzero.get_obs."""
    policy = LinearPolicy(bench_seed)
    env = dz_env.Env("wp")
    obs_fn = dz_env.get_obs if features == "douzero" else dz.get_obs
    seeds = itertools.count(bench_seed)

    def new_games():                           # every round deals new cards
        return stock_games(env, policy, obs_fn, next(seeds), GAMES)

    benchmark.group = "douzero actor loop"
    # Frames per round vary with the deals; this is their mean over a sample.
    frames = sum(stock_games(env, policy, obs_fn, bench_seed - 1 - k, GAMES) for k in range(3)) / 3
    benchmark.extra_info.update(calls=frames, games=GAMES, features=features)
    assert benchmark(new_games) >= GAMES


def test_batched_actor_loop(benchmark, bench_seed):
    """VecGame(1024) + VecFeatures: update, one einsum, choose, step."""
    policy = LinearPolicy(bench_seed)
    vec = ddz_fast.VecGame(N_TABLES, "douzero", bench_seed, skip_auction=True, observations=False)
    feats = dz.VecFeatures(vec)
    benchmark.group = "douzero actor loop"
    benchmark.extra_info.update(calls=N_TABLES * STEPS, tables=N_TABLES)
    assert benchmark(batched_steps, vec, feats, policy, STEPS) == N_TABLES * STEPS
    batched_steps(vec, feats, policy, 100)     # past every first deal: auto-reset ran
    assert (vec.episodes > 0).all()
