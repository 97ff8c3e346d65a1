"""Batched-game benchmarks: ``VecGame(1024)`` steps with a uniformly random
legal id per table drawn in NumPy from the CSR arrays (vectorised), the
compact observation and the legal ids refilled every step.

``extra_info``: ``calls`` = table-steps per round, so the summary's
ns/call is the time per table-step (the NumPy policy included).  The tables
auto-reset: every round plays on into new seeded deals.  Compare with
test_bench_envs.py (the AEC env, per step) and benchmarks/vec_compare.py
(both in one run, with the issue-13 targets).
"""
from __future__ import annotations

import numpy as np
import pytest

import ddz_fast
from vec_compare import vec_steps

N_TABLES = 1024
STEPS = 20      # steps per round


@pytest.mark.parametrize("rules", ["standard", "four"])
@pytest.mark.parametrize("variant", ["obs", "ids-only", "obs+masks", "obs-threads2"])
def test_vecgame_random_steps(benchmark, rules, variant, bench_seed):
    """VecGame(1024).step with a NumPy random policy, STEPS steps a round."""
    kw = {"obs": {}, "ids-only": {"observations": False}, "obs+masks": {"masks": True},
          "obs-threads2": {"threads": 2}}[variant]
    vg = ddz_fast.VecGame(N_TABLES, rules, bench_seed, **kw)
    rng = np.random.default_rng(bench_seed)
    benchmark.group = f"vecgame {rules}"
    benchmark.extra_info.update(calls=N_TABLES * STEPS, rules=rules, variant=variant)
    assert benchmark(vec_steps, vg, rng, STEPS) == N_TABLES * STEPS
    vec_steps(vg, rng, 200)                   # past the end of every first deal: auto-reset ran
    assert (vg.episodes > 0).all()


@pytest.mark.parametrize("rules", ["laizi", "tiandi"])
def test_vecgame_wild_random_steps(benchmark, rules, bench_seed):
    """VecGame(1024).step under wild cards (flat int64 ids, 32-byte rows kept
    per table), the same NumPy random policy; ns/call = time per table-step."""
    vg = ddz_fast.VecGame(N_TABLES, rules, bench_seed)
    rng = np.random.default_rng(bench_seed)
    benchmark.group = f"vecgame {rules}"
    benchmark.extra_info.update(calls=N_TABLES * STEPS, rules=rules)
    assert benchmark(vec_steps, vg, rng, STEPS) == N_TABLES * STEPS
    vec_steps(vg, rng, 200)
    assert (vg.episodes > 0).all() and vg.legal_ids.dtype == np.int64


@pytest.mark.parametrize("policy", ["random", "bot"])
def test_record_trajectories(benchmark, policy, bench_seed, tmp_path):
    """trajectories.record of 2,000 games (1,024 tables) to Parquet; ns/call = time per game."""
    pytest.importorskip("pyarrow")
    from ddz_fast import trajectories
    games = 2000
    benchmark.group = "record"
    benchmark.extra_info.update(calls=games, policy=policy)

    def run():
        return trajectories.record(tmp_path / "d", games, seed=bench_seed, policy=policy, overwrite=True)
    s = benchmark.pedantic(run, rounds=3, iterations=1)
    assert s.games == games and len(trajectories.TrajectoryDataset(tmp_path / "d")) == s.steps


@pytest.mark.parametrize("rules", ["laizi", "tiandi"])
def test_record_wild_trajectories(benchmark, rules, bench_seed, tmp_path):
    """trajectories.record of 2,000 wild-card games (1,024 tables, random policy) to Parquet: int64
    flat ids, every legal id of every step, and the wild column; ns/call = time per game."""
    pytest.importorskip("pyarrow")
    from ddz_fast import trajectories
    games = 2000
    benchmark.group = "record"
    benchmark.extra_info.update(calls=games, policy="random", rules=rules)

    def run():
        return trajectories.record(tmp_path / "d", games, rules=rules, seed=bench_seed, overwrite=True)
    s = benchmark.pedantic(run, rounds=3, iterations=1)
    assert s.games == games and len(trajectories.TrajectoryDataset(tmp_path / "d")) == s.steps


def test_vector_env_steps(benchmark, bench_seed):
    """DouDizhuVectorEnv(256) steps against the simple bots (the dense masks built and copied each
    step); ns/call = time per learner step."""
    pytest.importorskip("gymnasium")
    from ddz_fast.envs.vector import DouDizhuVectorEnv
    env = DouDizhuVectorEnv(256, seat=None, opponent="simple", seed=bench_seed)
    state = {"obs": env.reset()[0]}
    benchmark.group = "vector env"
    benchmark.extra_info.update(calls=256 * 10)

    def steps():
        for _ in range(10):       # the first legal id of every table (argmax of its mask)
            state["obs"] = env.step(state["obs"]["action_mask"].argmax(axis=1))[0]
    benchmark(steps)
