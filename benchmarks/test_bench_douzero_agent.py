"""DouZero's checkpoints playing (full-size networks, seeded random weights):
DouZero's DeepAgent on its own GameEnv against the batched DouZeroAgent on
``VecGame(256, "douzero", skip_auction=True)``, one torch thread each.

``extra_info``: ``calls`` = decisions per round, so the summary's ns/call is
the time per decision.  benchmarks/douzero_agent_compare.py measures both in
one run and prints the ratio.  Skipped without torch or DouZero.
"""
from __future__ import annotations

import random

import pytest

pytest.importorskip("torch")
pytest.importorskip("git")                     # (douzero.dmc imports GitPython)
pytest.importorskip("douzero.dmc.models")

from douzero_agent_compare import POSITIONS, batched_steps, stock_games, write_checkpoints  # noqa: E402

import ddz_fast  # noqa: E402

N_TABLES = 256
STEPS = 4       # batched steps per round
GAMES = 2       # DouZero games per round


@pytest.fixture(scope="module")
def folder(tmp_path_factory, bench_seed):
    path = tmp_path_factory.mktemp("douzero_ckpt")
    write_checkpoints(str(path), bench_seed)
    return path


@pytest.fixture(autouse=True)
def one_thread():
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_douzero_deep_agent_games(benchmark, folder, bench_seed):
    from douzero.evaluation.deep_agent import DeepAgent

    deep = {pos: DeepAgent(pos, str(folder / f"{pos}.ckpt")) for pos in POSITIONS}
    rng = random.Random(bench_seed)
    benchmark.group = "douzero checkpoints playing"
    frames = sum(stock_games(deep, random.Random(bench_seed - 1 - k), GAMES) for k in range(2)) / 2
    benchmark.extra_info.update(calls=frames, games=GAMES)
    assert benchmark(stock_games, deep, rng, GAMES) > 0


def test_douzero_agent_act_batch(benchmark, folder, bench_seed):
    from ddz_fast.train import DouZeroAgent

    agent = DouZeroAgent(folder)
    vec = ddz_fast.VecGame(N_TABLES, "douzero", bench_seed, skip_auction=True, observations=False)
    benchmark.group = "douzero checkpoints playing"
    benchmark.extra_info.update(calls=N_TABLES * STEPS, tables=N_TABLES)
    assert benchmark(batched_steps, agent, vec, STEPS) == N_TABLES * STEPS
