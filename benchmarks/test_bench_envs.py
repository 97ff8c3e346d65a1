"""Environment benchmarks: whole deals through the PettingZoo AEC environment
(``ddz_fast.envs.aec.raw_env``) with a random agent that picks uniformly among
the ids set in the observation's action mask.

Skips when PettingZoo is not installed.  Every round replays the same seeded
deals.  ``extra_info``: ``calls`` = ``env.step`` calls of live agents per
round (the final ``step(None)`` of each terminated agent is not counted), so
the summary's ns/call is the time per step including ``last()`` (observation
and mask building) and the agent's mask scan; ``games`` = deals per round.
"""
from __future__ import annotations

import numpy as np
import pytest

from deals import aec_random_play

N_DEALS = 100   # deals per round


def _run(env, seed, deals):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    return aec_random_play(env, deals, rng)


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_aec_random_masked_steps(benchmark, rules, bench_seed):
    """AEC env: reset + observe + mask + step for N_DEALS deals."""
    aec = pytest.importorskip("ddz_fast.envs.aec")
    env = aec.raw_env(rules=rules)
    steps = _run(env, bench_seed, N_DEALS)          # the same in every round
    benchmark.group = "environments"
    benchmark.extra_info.update(calls=steps, games=N_DEALS, rules=rules)
    assert benchmark(_run, env, bench_seed, N_DEALS) == steps
