#!/usr/bin/env python3
"""The long compiled calls (playouts, worlds, solver) timed in two source
trees, alternately, each in a fresh process: an A/B of an engine change
(e.g. the Ctrl-C polling of ``ddz_fast._util.interrupt``).

    python benchmarks/ab_compare.py /path/to/base/src /path/to/new/src [--rounds 8]

Each tree must be built in place.  Prints the best time of each call in
each tree and their ratio (new / base)."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Callable, Dict, List

FUZZ = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "fuzz")


def _best(f: Callable[[], object], reps: int = 5) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def measure() -> Dict[str, float]:
    """One process's timings (run with the tree under test on sys.path)."""
    import ddz_fast as ddz
    sys.path.insert(0, FUZZ)
    from concurrency import play_phase_game

    g = play_phase_game("standard", 4, 3)
    worlds = g.sample_worlds(g.to_move, 32, seed=1)
    moves = g.legal_actions()
    end = play_phase_game("standard", 13, 12)      # a 1.07M-node solve
    end_worlds = end.sample_worlds(end.to_move, 4, seed=2)
    return {
        "play_random_games(20000)": _best(lambda: ddz.play_random_games(20000, seed=1)),
        "play_random_games(20000, threads=2)": _best(lambda: ddz.play_random_games(20000, seed=1, threads=2)),
        "rollout(20000)": _best(lambda: g.rollout(20000)),
        "rollout(5000, policy='bot')": _best(lambda: g.rollout(5000, policy="bot")),
        "move_values(32 worlds, bot)": _best(lambda: g.move_values(worlds, moves)),
        "move_values(32 worlds, 20 random)": _best(
            lambda: g.move_values(worlds, moves, rollouts=20, policy="random")),
        "sample_worlds(100000)": _best(lambda: g.sample_worlds(0, 100000)),
        "solve_game (1.07M nodes)": _best(lambda: ddz.solve_game(end), 3),
        "solve_values (4 worlds)": _best(
            lambda: end.solve_values(end_worlds, end.legal_actions(), max_nodes=200000), 3),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return 0
    runs: Dict[str, List[Dict[str, float]]] = {"base": [], "new": []}
    for r in range(args.rounds):
        for name in (("base", "new") if r % 2 == 0 else ("new", "base")):
            env = dict(os.environ, PYTHONPATH=getattr(args, name))
            out = subprocess.run([sys.executable, __file__, args.base, args.new, "--measure"], env=env,
                                 capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{'call':38} {'base ms':>9} {'new ms':>9} {'new/base':>8}")
    for call in runs["base"][0]:
        b = min(x[call] for x in runs["base"])
        n = min(x[call] for x in runs["new"])
        print(f"{call:38} {b * 1e3:9.2f} {n * 1e3:9.2f} {n / b:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
