#!/usr/bin/env python3
"""A fixed, small workload for counting the instructions of the wild-card
move kernel under valgrind (instruction counts repeat exactly; wall times
on a shared machine do not).

Leads of the landlord's 20 cards on ``--hands`` seeded deals (each with its
own wild rank(s), drawn as wild_compare.py draws them), generated once by
``gen_wild`` from C (``time_wild_kernel``), or by the standard kernel on the
same hands (``standard``).  Count them, for example::

    valgrind --tool=callgrind --toggle-collect='*time_wild_kernel' \\
        --toggle-collect='*1time_kernel' python benchmarks/wild_callgrind.py laizi
    callgrind_annotate --inclusive=yes callgrind.out.<pid> | grep -E 'gen_wild |gen_lead'

(add ``--branch-sim=yes`` for mispredicted branches).  The script prints the
moves written.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import deals as D  # noqa: E402
from wild_compare import _wilds  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rules", choices=["laizi", "tiandi", "standard"])
    ap.add_argument("--hands", type=int, default=128)
    ap.add_argument("--seed", type=int, default=D.DEFAULT_SEED)
    args = ap.parse_args(argv)
    from ddz_fast._core.testing import time_kernel, time_wild_kernel

    hands = np.array([d["landlord"] for d in D.make_deals(args.hands, args.seed)], dtype=np.uint8)
    if args.rules == "standard":
        _, moves, _ = time_kernel(hands, None, rules="standard", repeat=1)
    else:
        k = 1 if args.rules == "laizi" else 2
        _, moves = time_wild_kernel(hands, _wilds(args.hands, k, args.seed), rules=args.rules, repeat=1)
    print(f"{args.rules}: {moves} moves on {args.hands} hands ({moves / args.hands:,.1f} a hand)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
