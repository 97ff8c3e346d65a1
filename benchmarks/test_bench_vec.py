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
