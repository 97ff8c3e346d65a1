#!/usr/bin/env python3
"""DouZero's actor loop, stock against ddz-fast's batched drop-in, in frames/s.

A frame is one decision of the player to act, as DouZero counts them.  Both
loops run the same stand-in policy, a fixed NumPy linear layer per position
(no torch): ``score = x_batch @ wx[position] + z.ravel() @ wz[position]``
(``np.einsum``) over the rows of DouZero's ``x_batch`` (one per listed
action), then the argmax row is played.

* stock: ``douzero.env.env.Env`` (its ``GameEnv`` plus ``get_obs`` at every
  step, as DouZero's actors run it), whole games from seeded shuffles
  (``np.random.seed``), so every chunk plays new deals;
* ddz-fast: ``VecGame(n, "douzero", skip_auction=True)`` and
  ``compat.douzero.VecFeatures``: per step ``update()`` (DouZero's list
  and features of every table, compiled), the same linear layer over all
  rows in one matmul, ``choose(scores)`` (the per-table argmax), then
  ``step``; tables auto-reset into new seeded deals;
* ``get_obs`` drop-in: the stock loop with ``compat.douzero.get_obs`` in
  place of DouZero's (same GameEnv), for scale;
* the issue-13 target, PASS/FAIL.

Run it on its own or as a section of compare.py (``douzero_section``):

    python benchmarks/douzero_compare.py [--quick] [--markdown] [--strict]
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare as C  # noqa: E402  (Out, timing and formatting helpers)

# Target (issue 13): DouZero features for every step, against DouZero's own loop.
VS_DOUZERO = 30.0

N_TABLES = 1024
STEPS_PER_CHUNK = 10        # batched steps per self-timed chunk
GAMES_PER_CHUNK = 4         # stock games per self-timed chunk
POSITIONS = ("landlord", "landlord_up", "landlord_down")
X_SIZES = (373, 484, 484)


class LinearPolicy:
    """Fixed random weights per position: wx (3, 484) with the landlord's
    row zero past its 373 columns, wz (3, 810).  Both loops score with
    ``np.einsum`` (one thread, no BLAS thread pool: the same arithmetic on
    the same resources whatever the machine's load)."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.wx = rng.standard_normal((3, 484)).astype(np.float32)
        self.wx[0, X_SIZES[0]:] = 0.0
        self.wz = rng.standard_normal((3, 810)).astype(np.float32)

    def best_row(self, obs) -> int:
        """The argmax row of one DouZero obs dict."""
        p = POSITIONS.index(obs["position"])
        x = obs["x_batch"]
        z = np.einsum("j,j->", obs["z"].ravel().astype(np.float32), self.wz[p])
        scores = np.einsum("ij,j->i", x, self.wx[p, :x.shape[1]]) + z
        return int(np.argmax(scores))

    def batch_scores(self, feats):
        """One score per row of a VecFeatures update."""
        pos = feats.position
        rt = feats.row_table
        x_scores = np.einsum("ij,kj->ik", feats.x_batch, self.wx)          # (rows, 3)
        z_scores = np.einsum("ij,kj->ik", feats.z.reshape(len(pos), -1), self.wz)  # (tables, 3)
        row_pos = pos[rt]
        return x_scores[np.arange(len(rt)), row_pos] + z_scores[rt, row_pos]


def stock_games(env, policy, obs_fn, seed, games):
    """Whole games of DouZero's Env (GameEnv + obs_fn per step); returns frames."""
    from douzero.env import env as dz_env

    np.random.seed(seed)
    frames = 0
    saved = dz_env.get_obs
    dz_env.get_obs = obs_fn
    try:
        for _ in range(games):
            obs = env.reset()
            done = False
            while not done:
                action = obs["legal_actions"][policy.best_row(obs)]
                obs, _, done, _ = env.step(action)
                frames += 1
    finally:
        dz_env.get_obs = saved
    return frames


def batched_steps(vec, feats, policy, steps):
    """``steps`` steps of every table; returns frames (tables with a player to act)."""
    frames = 0
    for _ in range(steps):
        feats.update()
        frames += int((feats.position >= 0).sum())
        vec.step(feats.choose(policy.batch_scores(feats)))
    return frames


def _timed(f, *a):
    def run():
        t0 = time.perf_counter()
        f(*a)
        return time.perf_counter() - t0
    return run


def douzero_section(out, args, results):
    """Time both loops, print the table and the target, and store the target
    lines in ``results["douzero_targets"]``."""
    import ddz_fast
    from ddz_fast.compat import douzero as dz

    lines = []
    try:
        from douzero.env import env as dz_env
    except ImportError as e:
        C.progress(f"DouZero actor loop skipped: {e}")
        lines.append(("SKIP", f"DouZero features every step >= {VS_DOUZERO:g}x DouZero's GameEnv + get_obs",
                      "douzero not installed"))
        results["douzero_targets"] = lines
        return lines
    n = getattr(args, "douzero_tables", None) or N_TABLES
    chunks_n = 3 if getattr(args, "quick", False) else 8
    seed = args.seed
    policy = LinearPolicy(seed)
    chunks, frames = {}, {}

    env = dz_env.Env("wp")
    name_stock = "stock DouZero: Env (GameEnv + get_obs)"
    chunks[name_stock] = [_timed(stock_games, env, policy, dz_env.get_obs, seed + k, GAMES_PER_CHUNK)
                          for k in range(chunks_n)]
    frames[name_stock] = sum(stock_games(env, policy, dz_env.get_obs, seed + k, GAMES_PER_CHUNK)
                             for k in range(chunks_n))
    name_drop = "DouZero's GameEnv + compat.douzero.get_obs"
    chunks[name_drop] = [_timed(stock_games, env, policy, dz.get_obs, seed + k, GAMES_PER_CHUNK)
                         for k in range(chunks_n)]
    frames[name_drop] = frames[name_stock]          # the same games, move for move
    name_ours = f"ddz-fast: VecGame({n}) + VecFeatures, threads=1"
    vec = ddz_fast.VecGame(n, "douzero", seed, skip_auction=True, observations=False)
    feats = dz.VecFeatures(vec)
    runs = []
    for _ in range(chunks_n):
        runs.append(_timed(batched_steps, vec, feats, policy, STEPS_PER_CHUNK))
    chunks[name_ours] = runs
    frames[name_ours] = chunks_n * STEPS_PER_CHUNK * n   # auto-reset: every table acts every step
    C.progress(f"timing DouZero's actor loop and VecGame({n}) + VecFeatures (interleaved)")
    best = C.best_self_timed(chunks, args)
    rate = {k: frames[k] / best[k] for k in chunks}

    out.heading(f"DouZero's actor loop: stock vs the batched drop-in, linear stand-in policy, seed {seed}")
    stock = rate[name_stock]
    rows = [[k, f"{r:,.0f}", C.fmt_ratio(r / stock)] for k, r in rate.items()]
    out.table(["loop", "frames/s", "vs stock"], rows, right={1, 2})
    out.note(f"Per frame: DouZero's features of the player to act (x_batch one row per listed action, "
             f"z), a fixed linear layer per position scoring every row, the argmax played. Stock: "
             f"{GAMES_PER_CHUNK} whole games per timed chunk from np.random-seeded shuffles. ddz-fast: "
             f"{n} tables, {STEPS_PER_CHUNK} steps per chunk (update, one einsum over all rows, choose, "
             "step), auto-reset into new seeded deals. The feature rows are DouZero's, bit for bit "
             "(tests/test_douzero_features.py). Best chunk timings of an interleaved run.")
    ours = rate[name_ours]
    r = ours / stock
    lines.append(("PASS" if r >= VS_DOUZERO else "FAIL",
                  f"DouZero features every step >= {VS_DOUZERO:g}x DouZero's GameEnv + get_obs",
                  f"{C.fmt_ratio(r)} ({ours:,.0f} vs {stock:,.0f} frames/s, same policy)"))
    results["douzero"] = rate
    results["douzero_targets"] = lines
    return lines


def main(argv=None):
    return C.section_main(argv, __doc__, [douzero_section], repeat=20, budget=3.0, quick=(5, 0.5),
                          extra=[(("--douzero-tables",), dict(type=int, default=N_TABLES,
                                                             help=f"tables (default {N_TABLES})"))])


if __name__ == "__main__":
    sys.exit(main())
