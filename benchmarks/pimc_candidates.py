"""What the candidate limit of ``PIMCAgent`` costs under wild cards
(docs/solver.md, "Many moves: the candidate limit").

At every play decision of ``--moves LO HI`` legal moves in the simple bot's
seeded deals of ``laizi`` and ``tiandi``, the agent valuing every move
(``candidates=None``) is compared with the agent limited to each of
``--limits``: how often the limited one plays the same move, and how much
worse its move is by the unlimited agent's own mean value over the worlds.

    python benchmarks/pimc_candidates.py [--seeds 6] [--limits 16 32 64 128 256]

Prints one row per limit, and the seconds each agent spent in all.
"""
from __future__ import annotations

import argparse
import time

from ddz_fast import Game, PIMCAgent, Phase
from ddz_fast.game import simple_bot


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=6, help="deals per preset (seeds 0..N-1)")
    p.add_argument("--limits", type=int, nargs="+", default=[16, 32, 64, 128, 256])
    p.add_argument("--moves", type=int, nargs=2, default=[80, 1500], metavar=("LO", "HI"))
    p.add_argument("--worlds", type=int, default=32)
    args = p.parse_args()
    presets = ("laizi", "tiandi")
    full = {r: PIMCAgent(args.worlds, seed=1, rules=r, candidates=None) for r in presets}
    cut = {(r, n): PIMCAgent(args.worlds, seed=1, rules=r, candidates=n) for r in presets for n in args.limits}
    same = dict.fromkeys(args.limits, 0)
    lost = dict.fromkeys(args.limits, 0.0)
    spent = dict.fromkeys(args.limits, 0.0)
    spent_full, decisions = 0.0, 0
    for seed in range(args.seeds):
        for r in presets:
            g = Game(r, seed=seed)
            while not g.is_over:
                obs = g.observation(g.to_move)
                if g.phase == Phase.PLAY and args.moves[0] <= len(obs.legal_actions) <= args.moves[1]:
                    t = time.perf_counter()
                    ev = full[r].evaluate(obs)
                    spent_full += time.perf_counter() - t
                    mean = ev.values.mean(axis=0)
                    decisions += 1
                    for n in args.limits:
                        t = time.perf_counter()
                        m = cut[(r, n)](obs)
                        spent[n] += time.perf_counter() - t
                        same[n] += m == ev.move
                        lost[n] += float(mean.max() - mean[ev.moves.index(m)])
                g.step(simple_bot(obs, r))
    print(f"{decisions} decisions of {args.moves[0]}..{args.moves[1]} moves; every move valued: {spent_full:.1f} s")
    print(f"{'limit':>6} {'same move':>10} {'value lost':>11} {'seconds':>8}")
    for n in args.limits:
        print(f"{n:>6} {same[n] / decisions:>10.1%} {lost[n] / decisions:>11.4f} {spent[n]:>8.1f}")


if __name__ == "__main__":
    main()
