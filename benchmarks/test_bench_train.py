"""The DMC trainer's two halves (benchmarks/train_compare.py times whole
runs against DouZero's): one actor step over every table (features, one
forward per position, the bidding network, the step, the bookkeeping) and
one learning step on a batch of DouZero's size (32 x 100 frames).

``extra_info``: ``calls`` = decisions per round for the actor, frames per
round for the learner, so ns/call is the time per decision or frame.
Skipped without PyTorch.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from ddz_fast.train.dmc import Actor, Learner, Networks, TrainConfig  # noqa: E402

TABLES = 64


@pytest.fixture(scope="module")
def small():
    torch.set_num_threads(1)
    cfg = TrainConfig(tables=TABLES, lstm_size=64, hidden_size=128, bid_hidden=128).check()
    return cfg, Networks.fresh(cfg)


def test_actor_step(benchmark, small):
    """One step of 64 tables (half bid, half rob auction) with the shipped model's sizes."""
    cfg, nets = small
    actor = Actor(nets, cfg)
    for _ in range(10):
        actor.step()
    before = actor.frames
    benchmark.group = "dmc trainer"
    benchmark.pedantic(actor.step, rounds=20, iterations=1)
    benchmark.extra_info["calls"] = (actor.frames - before) / 20


def test_learner_step(benchmark, small):
    """One RMSprop step of the landlord's network on 3,200 frames."""
    cfg, nets = small
    actor = Actor(nets, cfg)
    batch = None
    while batch is None:
        actor.step()
        batch = next((b for k, b in actor.batches() if k == "landlord"), None)
    learner = Learner(nets, cfg)
    benchmark.group = "dmc trainer"
    benchmark.pedantic(lambda: learner.learn("landlord", batch), rounds=3, iterations=1)
    benchmark.extra_info["calls"] = len(batch["target"])
