"""The arena and the bidding estimate: duplicate-deal games per second with
the compiled agents (simple bot against random, and a batch agent), and
landlord-value samples per second.  Each benchmark checks its result, so the
quick mode (``--benchmark-disable``) is a smoke test of the same calls."""
from __future__ import annotations

import numpy as np

import ddz_fast
from ddz_fast import arena
from ddz_fast.bidding import landlord_value

DEALS = 1000                   # duplicate deals per round (x2 rotations)
HANDS = 200                    # distinct hands for the bidding estimate
SAMPLES = 200                  # deals of the unseen cards per hand


class FirstLegal:
    name = "first-legal"

    def act_batch(self, vec, tables):
        return vec.legal_ids[vec.legal_offsets[tables]]


def test_arena_simple_vs_random(benchmark, bench_seed):
    """Duplicate deals, the bot and the random agent computed for all tables together."""
    benchmark.group = "arena: duplicate-deal games"
    benchmark.extra_info.update(games=2 * DEALS)
    res = benchmark.pedantic(lambda: arena.play(["simple", "random"], deals=DEALS, seed=bench_seed),
                             rounds=3, iterations=1)
    assert len(res) == 2 * DEALS and res.stat(0, "wp").low > 0.5


def test_arena_batch_agent(benchmark, bench_seed):
    """A batch-policy agent (one call per step for every table it acts at)."""
    benchmark.group = "arena: duplicate-deal games"
    benchmark.extra_info.update(games=2 * DEALS)
    res = benchmark.pedantic(lambda: arena.play([FirstLegal(), "simple"], deals=DEALS, seed=bench_seed),
                             rounds=3, iterations=1)
    assert len(res) == 2 * DEALS and (res.scores.sum(axis=1) == 0).all()


def test_landlord_value(benchmark, bench_seed):
    """The landlord value of distinct dealt hands by compiled bot playouts."""
    benchmark.group = "bidding: landlord value"
    benchmark.extra_info.update(games=HANDS * SAMPLES)
    hands = [ddz_fast.Game(seed=ddz_fast.game_seed(bench_seed, i)).hand(0) for i in range(HANDS)]

    def run():
        return [landlord_value(h, samples=SAMPLES, seed=i).win_rate.mean for i, h in enumerate(hands)]

    wr = np.array(benchmark.pedantic(run, rounds=3, iterations=1))
    assert ((0 <= wr) & (wr <= 1)).all() and wr.std() > 0
