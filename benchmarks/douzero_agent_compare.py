#!/usr/bin/env python3
"""DouZero's checkpoints playing: DouZero's own DeepAgent on its GameEnv
against the batched DouZeroAgent on a VecGame, in decisions per second.

Both play the same networks: DouZero's ``douzero.dmc.models`` classes at
DouZero's sizes with seeded random weights, saved as DouZero saves its
checkpoints and loaded by each side (real weights play at the same speed).
A decision is one move of the player to act.

* DouZero: ``GameEnv`` with a ``DeepAgent`` per position (its ``act``:
  ``get_obs``, then one forward pass over the listed actions; none when
  there is one action), whole games from seeded shuffles;
* ddz-fast: ``VecGame(tables, "douzero", skip_auction=True)`` stepped with
  ``DouZeroAgent.act_batch`` (``VecFeatures``, then one forward pass per
  position over every table's rows); tables auto-reset into new deals.

Chunks of both alternate in one process (same machine, same moment); the
rate of each is its decisions over its time, summed over the chunks; the
ratio is the result.  Both use the same number of torch threads
(``--threads``, default 1: small batches; see docs/douzero.md).

    python benchmarks/douzero_agent_compare.py [--tables 256] [--rounds 5] [--threads 1]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from typing import Dict, List, Tuple

import numpy as np

POSITIONS = ("landlord", "landlord_up", "landlord_down")


def write_checkpoints(folder: str, seed: int) -> None:
    """DouZero's own networks, seeded random weights, saved as DouZero saves them."""
    import torch
    from douzero.dmc.models import model_dict

    for k, pos in enumerate(POSITIONS):
        torch.manual_seed(seed + k)
        torch.save(model_dict[pos]().state_dict(), os.path.join(folder, f"{pos}.ckpt"))


def stock_games(players: Dict[str, object], rng: random.Random, games: int) -> int:
    """Play ``games`` whole games of DouZero's GameEnv; returns the decisions made."""
    from douzero.env.game import GameEnv

    deck = [c for c in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17) for _ in range(4)] + [20, 30]
    frames = 0
    for _ in range(games):
        rng.shuffle(deck)
        env = GameEnv(players)
        env.card_play_init({"landlord": sorted(deck[:20]), "landlord_up": sorted(deck[20:37]),
                            "landlord_down": sorted(deck[37:54]), "three_landlord_cards": sorted(deck[17:20])})
        while not env.game_over:
            env.step()
            frames += 1
    return frames


def batched_steps(agent: object, vec: object, steps: int) -> int:
    """``steps`` steps of every table with ``act_batch``; returns the decisions made."""
    every = np.arange(len(vec))  # type: ignore[arg-type]
    for _ in range(steps):
        vec.step(agent.act_batch(vec, every))  # type: ignore[attr-defined]
    return steps * len(every)


def measure(tables: int, rounds: int, games: int, steps: int, seed: int) -> Tuple[float, float, int, int]:
    """(stock decisions/s, batched decisions/s, stock decisions, batched decisions)."""
    import ddz_fast
    from ddz_fast.train import DouZeroAgent
    from douzero.evaluation.deep_agent import DeepAgent

    with tempfile.TemporaryDirectory() as folder:
        write_checkpoints(folder, seed)
        deep = {pos: DeepAgent(pos, os.path.join(folder, f"{pos}.ckpt")) for pos in POSITIONS}
        agent = DouZeroAgent(folder)
    vec = ddz_fast.VecGame(tables, "douzero", seed, skip_auction=True, observations=False)
    rng = random.Random(seed)
    stock_games(deep, rng, 1)                   # warm-up (first calls of torch)
    batched_steps(agent, vec, 2)
    times: List[float] = [0.0, 0.0]
    frames = [0, 0]
    for _ in range(rounds):
        t = time.perf_counter()
        frames[0] += stock_games(deep, rng, games)
        times[0] += time.perf_counter() - t
        t = time.perf_counter()
        frames[1] += batched_steps(agent, vec, steps)
        times[1] += time.perf_counter() - t
    return frames[0] / times[0], frames[1] / times[1], frames[0], frames[1]


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=256, help="VecGame tables (default 256)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating chunks of each (default 5)")
    ap.add_argument("--games", type=int, default=4, help="DouZero games per chunk (default 4)")
    ap.add_argument("--steps", type=int, default=10, help="batched steps per chunk (default 10)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads for both (default 1)")
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    stock, ours, n_stock, n_ours = measure(args.tables, args.rounds, args.games, args.steps, args.seed)
    print(f"DouZero's networks at full size (LSTM 128, dense 512), torch {torch.__version__}, "
          f"{args.threads} thread(s), seed {args.seed}")
    print(f"{'':38}{'decisions/s':>12}{'decisions':>11}")
    print(f"{'DouZero DeepAgent on its GameEnv':38}{stock:12,.0f}{n_stock:11,}")
    print(f"{f'DouZeroAgent.act_batch, {args.tables} tables':38}{ours:12,.0f}{n_ours:11,}")
    print(f"speed-up: {ours / stock:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
