#!/usr/bin/env python3
"""The batched game (``ddz_fast.VecGame``) against the PettingZoo AEC raw
environment, in table-steps per second, with a uniformly random policy.

* VecGame: ``n`` tables (default 1024), each step picks a uniformly random
  legal id per table from the CSR arrays in NumPy (vectorised) and calls
  ``step(ids)``; the compact observation and the legal ids are refilled
  every step (variants: no observation, dense masks too, 2 threads).  The
  tables auto-reset, so a run covers thousands of distinct seeded deals.
* AEC: ``ddz_fast.envs.aec.raw_env`` with a random agent choosing among the
  ids set in the observation's action mask (``env.last()`` builds the
  observation and the mask each step), over distinct seeded deals.
* ``play_random_games``: the compiled random playouts (no observation, no
  ids, no Python per step): the engine's own ceiling, for scale.
* Recording (``record_section``): ``ddz_fast.trajectories.record`` writing
  every step to Parquet, in games/s, for both policies and both observation
  types, against a hand-written recorder on the AEC env (per-step Python
  lists, then ``np.savez_compressed``), the way a user without the recorder
  would do it.
* the issue-13 targets, PASS/FAIL.

Run it on its own or as a section of compare.py (``vec_section``):

    python benchmarks/vec_compare.py [--quick] [--markdown] [--strict]
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare as C  # noqa: E402  (Out, timing and formatting helpers)
import deals as D  # noqa: E402

# Targets (issue 13)
TABLE_STEPS_PER_S = 1e6     # VecGame, one core, compact observation + legal ids
VS_AEC = 25.0               # ... against the AEC raw env in the same run
RECORD_GAMES_PER_S = 20000  # recording to Parquet on one core

N_TABLES = 1024
STEPS_PER_CHUNK = 20        # VecGame steps per self-timed chunk
AEC_DEALS_PER_CHUNK = 4


def random_legal(vg, rng):
    """One uniformly random legal id per table, from the CSR arrays."""
    off = vg.legal_offsets
    pick = off[:-1] + (rng.random(len(vg)) * np.diff(off)).astype(np.int64)
    return vg.legal_ids[pick]


def vec_steps(vg, rng, steps):
    """``steps`` batched steps with the random policy; returns table-steps."""
    for _ in range(steps):
        vg.step(random_legal(vg, rng))
    return steps * len(vg)


def aec_steps(env, seeds, rng):
    """Whole deals through the AEC env with a masked random agent; returns
    the steps of live agents."""
    return D.aec_random_play(env, seeds, rng)


def _timed(f, *a, **k):
    def run():
        t0 = time.perf_counter()
        f(*a, **k)
        return time.perf_counter() - t0
    return run


def vec_section(out, args, results):
    """Time VecGame and the AEC env, print the table and the target, and
    store the target lines in ``results["vec_targets"]``."""
    import ddz_fast
    n = getattr(args, "vec_tables", None) or N_TABLES
    chunks_n = 4 if getattr(args, "quick", False) else 12
    seed = args.seed
    rules = "standard"
    variants = {
        "VecGame obs + legal ids, threads=1": dict(observations=True),
        "VecGame legal ids only, threads=1": dict(observations=False),
        "VecGame obs + legal ids + masks, threads=1": dict(observations=True, masks=True),
        "VecGame obs + legal ids, threads=2": dict(observations=True, threads=2),
    }
    chunks, steps = {}, {}
    for name, kw in variants.items():
        vg = ddz_fast.VecGame(n, rules, seed, **kw)
        rng = np.random.default_rng(seed)
        chunks[name] = [_timed(vec_steps, vg, rng, STEPS_PER_CHUNK) for _ in range(chunks_n)]
        steps[name] = chunks_n * STEPS_PER_CHUNK * n
    aec_rows = False
    try:
        from ddz_fast.envs.aec import raw_env
    except ImportError as e:
        C.progress(f"AEC env skipped: {e}")
    else:
        env = raw_env(rules=rules)
        rng = np.random.default_rng(seed)
        seeds = [seed + 1000 * k + np.arange(AEC_DEALS_PER_CHUNK) for k in range(chunks_n)]
        chunks["AEC raw_env"] = [_timed(aec_steps, env, s, np.random.default_rng(k))
                                 for k, s in enumerate(seeds)]
        steps["AEC raw_env"] = sum(aec_steps(env, s, np.random.default_rng(k)) for k, s in enumerate(seeds))
        aec_rows = True
    per_chunk = (2000 if getattr(args, "quick", False) else 10000) // chunks_n
    chunks["play_random_games (compiled)"] = [_timed(ddz_fast.play_random_games, per_chunk,
                                                     rules=rules, seed=seed + k) for k in range(chunks_n)]
    steps["play_random_games (compiled)"] = sum(
        int(ddz_fast.play_random_games(per_chunk, rules=rules, seed=seed + k).plies.sum()) for k in range(chunks_n))
    C.progress(f"timing VecGame({n}) and the AEC env ({len(chunks)} items, interleaved)")
    best = C.best_self_timed(chunks, args)
    rate = {name: steps[name] / best[name] for name in steps}

    out.heading(f"Batched game: VecGame({n}) vs the PettingZoo AEC raw env, rules {rules!r}, seed {seed}")
    aec = rate.get("AEC raw_env")
    rows = []
    for name, r in rate.items():
        rows.append([name, f"{r:,.0f}", C.fmt_ratio(r / aec) if aec else "-"])
    out.table(["loop", "table-steps/s", "vs AEC raw_env"], rows, right={1, 2})
    out.note(f"VecGame: {n} tables, {STEPS_PER_CHUNK} steps per timed chunk, a uniformly random legal id per "
             "table drawn in NumPy from legal_offsets/legal_ids each step (the policy's time is included); "
             "auto-reset, so every chunk plays new deals. AEC: whole seeded deals, env.last() then a random "
             "id among the action mask's; steps of live agents. play_random_games: play-phase plies only "
             "(no observation, ids or Python per step), the compiled ceiling. Best chunk timings of an "
             "interleaved run; ratios count, absolute rates are noisy on a shared machine.")
    lines = []
    ours = rate["VecGame obs + legal ids, threads=1"]
    lines.append(("PASS" if ours >= TABLE_STEPS_PER_S else "FAIL",
                  f"VecGame >= {TABLE_STEPS_PER_S / 1e6:g}M table-steps/s on one core",
                  f"{ours / 1e6:,.2f}M table-steps/s (compact observation + legal ids, random NumPy policy)"))
    if aec_rows:
        r = ours / aec
        lines.append(("PASS" if r >= VS_AEC else "FAIL", f"VecGame >= {VS_AEC:g}x the AEC raw env",
                      f"{C.fmt_ratio(r)} ({ours:,.0f} vs {aec:,.0f} steps/s)"))
    else:
        lines.append(("SKIP", f"VecGame >= {VS_AEC:g}x the AEC raw env", "PettingZoo not installed"))
    results["vec"] = rate
    results["vec_targets"] = lines
    return lines


def aec_record(path, seeds):
    """The hand-written baseline: whole deals through the AEC raw env, every
    step's observation, legal ids and action kept in Python lists, then one
    compressed npz.  Returns the number of games."""
    from ddz_fast.envs.aec import raw_env
    env = raw_env()
    obs_rows, legal_rows, actions, games = [], [], [], []

    def keep(game, obs, legal, action):
        obs_rows.append(obs["observation"].astype(np.uint8))
        legal_rows.append(legal.astype(np.int32))
        actions.append(action)
        games.append(game)
    D.aec_random_play(env, seeds, np.random.default_rng(0), on_step=keep)
    counts = np.array([len(x) for x in legal_rows])
    np.savez_compressed(path, observation=np.stack(obs_rows), legal_ids=np.concatenate(legal_rows),
                        legal_counts=counts, action=np.array(actions), game=np.array(games))
    return len(seeds)


def record_section(out, args, results):
    """Recording throughput; stores its target line in ``results["record_targets"]``."""
    import shutil
    import tempfile

    try:
        from ddz_fast import trajectories
        trajectories._pyarrow()
    except ImportError as e:
        C.progress(f"recording skipped: {e}")
        results["record_targets"] = [("SKIP", "recording >= 20,000 games/s", "pyarrow not installed")]
        return results["record_targets"]
    quick = getattr(args, "quick", False)
    games = 4000 if quick else 20000
    tmp = tempfile.mkdtemp(prefix="ddz-record-")
    trajectories.record(os.path.join(tmp, "warm"), 200, seed=args.seed)     # imports and first use
    variants = {
        "record, random policy, binary observations": dict(policy="random"),
        "record, bot policy, binary observations": dict(policy="bot"),
        "record, random policy, list observations": dict(policy="random", observation_type="list"),
        "record, random policy, binary, lz4": dict(policy="random", compression="lz4"),
        "record, random policy, binary, threads=2 (a writer thread)": dict(policy="random", threads=2),
        # wild cards: int64 flat ids, hundreds of legal ids a step under tiandi, the wild column
        "record, rules 'laizi', random policy, binary": dict(policy="random", rules="laizi"),
        "record, rules 'tiandi', random policy, binary": dict(policy="random", rules="tiandi"),
    }
    rate = {}
    cpu_rate = {}           # games per CPU-second (every thread's): the rate on idle cores of a shared machine
    size = {}
    try:
        for name, kw in variants.items():
            best = cpu_best = float("inf")
            for k in range(1 if quick else 3):
                t0, c0 = time.perf_counter(), time.process_time()
                s = trajectories.record(os.path.join(tmp, "d"), games, seed=args.seed + k, overwrite=True, **kw)
                best = min(best, time.perf_counter() - t0)
                cpu_best = min(cpu_best, time.process_time() - c0)
            rate[name], cpu_rate[name] = games / best, games / cpu_best
            size[name] = sum(os.path.getsize(f) for f in s.files) / games
            C.progress(f"{name}: {rate[name]:,.0f} games/s, {cpu_rate[name]:,.0f} games/CPU-s")
        try:
            import ddz_fast.envs.aec  # noqa: F401
        except ImportError:
            pass
        else:
            n_aec = 50 if quick else 200
            t0 = time.perf_counter()
            aec_record(os.path.join(tmp, "aec.npz"), args.seed + np.arange(n_aec))
            rate["hand-written: AEC raw_env + lists + savez_compressed"] = n_aec / (time.perf_counter() - t0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = rate.get("hand-written: AEC raw_env + lists + savez_compressed")
    out.heading(f"Recording self-play: games/s to disk, rules 'standard' unless noted, {games:,} games, "
                "1,024 tables")
    out.table(["recorder", "games/s", "games/CPU-s", "bytes/game", "vs hand-written"],
              [[k, f"{v:,.0f}", f"{cpu_rate[k]:,.0f}" if k in cpu_rate else "-",
                f"{size[k]:,.0f}" if k in size else "-", C.fmt_ratio(v / base) if base else "-"]
               for k, v in rate.items()], right={1, 2, 3, 4})
    out.note("record(): every step (observation, legal ids, action, reward, final score, win, landlord, "
             "seed; under wild-card rules int64 flat ids and the game's wild ranks) as Parquet (zstd unless "
             "noted); 'list' stores observations as fixed-size lists, which "
             "Parquet encodes with repetition levels. Best of the runs; one core (threads=1) unless noted. "
             "games/CPU-s: games per second of CPU time of all the process's threads (on a shared "
             "machine, the rate an idle core would give).")
    ours = rate["record, random policy, binary observations"]
    bot = rate["record, bot policy, binary observations"]
    lines = [("PASS" if ours >= RECORD_GAMES_PER_S else "FAIL",
              f"recording >= {RECORD_GAMES_PER_S:,} games/s to Parquet on one core",
              f"{ours:,.0f} games/s random policy ({cpu_rate['record, random policy, binary observations']:,.0f} "
              f"a CPU-second), {bot:,.0f} bot policy; threads=2: "
              f"{rate['record, random policy, binary, threads=2 (a writer thread)']:,.0f}")]
    results["record"] = rate
    results["record_targets"] = lines
    return lines


def main(argv=None):
    return C.section_main(argv, __doc__, [vec_section, record_section], repeat=30, budget=2.0, quick=(8, 0.5),
                          extra=[(("--vec-tables",), dict(type=int, default=N_TABLES,
                                                         help=f"tables (default {N_TABLES})"))])


if __name__ == "__main__":
    sys.exit(main())
