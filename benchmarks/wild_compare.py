#!/usr/bin/env python3
"""Wild-card moves (rules ``laizi`` and ``tiandi``): the compiled generator
against the pure-Python oracle, and against the standard kernel on the same
hands without wild cards.

* Per call: ``ddz_fast.legal_moves(hand, last, rules=..., wild=w)`` against
  ``ddz_fast.reference.wild_moves`` on the same deals (leads of the
  landlord's 20 cards and farmer1's responses to the landlord's moves), the
  lists checked equal on the oracle's deals.
* Per move: ``gen_wild`` from C (``_core.testing.time_wild_kernel``)
  against the standard kernel from C (``time_kernel``) on the same hands
  read without wild cards (rules ``standard``): nanoseconds per move
  written.  Target: at most 2x.
* The 20-card, four-wild lead: its move count and time.
* Random whole games per second, compiled (``play_random_games``), wild
  against standard.

Each deal draws its own wild rank(s) from the seed.  Run it on its own or as
a section of compare.py (``wild_section``):

    python benchmarks/wild_compare.py [--quick] [--markdown] [--strict]
"""
from __future__ import annotations

import os
import sys
import time
from functools import partial

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare as C  # noqa: E402  (Out, timing and formatting helpers)
import deals as D  # noqa: E402

PER_MOVE_VS_STANDARD = 2.0   # target: ns per move at most 2x the standard kernel's

#: The 20-card lead with four wild cards shown in the README (7 wild).
FOUR_WILD_HAND = "33445566777789TJQKA2"


def _wilds(n, k, seed):
    rng = np.random.default_rng([seed, 32, k])
    return [tuple(sorted(rng.choice(13, size=k, replace=False).tolist())) for _ in range(n)]


def wild_section(out, args, results):
    import ddz_fast
    from ddz_fast import reference
    from ddz_fast._core.testing import time_kernel, time_wild_kernel

    n = args.hands
    deals = D.make_deals(n, args.seed)
    lead_h = np.array([d["landlord"] for d in deals], dtype=np.uint8)
    lines = []
    for preset, k in (("laizi", 1), ("tiandi", 2)):
        wilds = _wilds(n, k, args.seed)
        out.heading(f"Wild cards ({preset}): {n} distinct deals, each with its own wild rank(s)")
        # responses: farmer1 answers one of the landlord's moves (a random
        # reading from the landlord's lead list, PASS excluded)
        rng = np.random.default_rng([args.seed, 33, k])
        lasts = []
        for d, w in zip(deals, wilds):
            leads = ddz_fast.legal_moves(np.array(d["landlord"], np.uint8), rules=preset, wild=w)
            lasts.append(leads[int(rng.integers(len(leads)))])
        C.progress(f"{preset}: timing calls")
        calls = {
            "lead (20 cards)": [partial(ddz_fast.legal_moves, lead_h[i], None, rules=preset, wild=wilds[i])
                                for i in range(n)],
            "response (17 cards)": [partial(ddz_fast.legal_moves, np.array(deals[i]["farmer1"], np.uint8),
                                            lasts[i], rules=preset, wild=wilds[i]) for i in range(n)],
        }
        ref_n = max(1, min(args.reference_hands, n))
        ref_calls = {
            "lead (20 cards)": [partial(reference.wild_moves, lead_h[i], None, rules="standard",
                                        wild=wilds[i]) for i in range(ref_n)],
        }
        t_ours = C.best_times(calls, args)
        t_ref = {}
        for name, fs in ref_calls.items():
            t0 = time.perf_counter()
            for f in fs:
                f()
            t_ref[name] = (time.perf_counter() - t0) / len(fs)
        # agreement with the oracle on its deals
        bad = 0
        for i in range(ref_n):
            ours = [(m.kind, m.represents, m.counts) for m in ddz_fast.legal_moves(lead_h[i], rules=preset,
                                                                                     wild=wilds[i])]
            theirs = [(k_, tuple(r), tuple(c)) for k_, r, c in reference.wild_moves(lead_h[i], None,
                                                                                  rules="standard",
                                                                                  wild=wilds[i])]
            bad += ours != theirs
        moves = {name: np.mean([len(f()) for f in fs[:200]]) for name, fs in calls.items()}
        rows = []
        for name in calls:
            r = t_ref.get(name)
            rows.append([name, f"{moves[name]:,.0f}", C.fmt_us(t_ours[name]),
                         C.fmt_us(r) if r else "-", C.fmt_ratio(r / t_ours[name]) if r else "-"])
        out.table(["call", "moves/call", "ddz-fast us", "reference us", "ratio"], rows,
                  right={1, 2, 3, 4})
        out.note(f"The reference (pure Python) is timed on {ref_n} of the deals, once each; its lists "
                 f"equal ours on {ref_n - bad} of {ref_n}.")
        # kernel against kernel, per move
        C.progress(f"{preset}: timing the kernels from C")
        rep = max(5, args.repeat // 10)
        tw, mw = time_wild_kernel(lead_h, wilds, rules=preset, repeat=rep)
        ts, ms, _ = time_kernel(lead_h, None, rules="standard", repeat=rep)
        ms //= 1  # (rows = moves for standard rows)
        per_w, per_s = tw / mw * 1e9, ts / ms * 1e9
        out.table(["kernel (20-card leads)", "moves/hand", "ns/hand", "ns/move"], [
            [f"{preset} (gen_wild)", f"{mw / n:,.0f}", f"{tw / n * 1e9:,.0f}", f"{per_w:.2f}"],
            ["standard, same hands (gen_lead)", f"{ms / n:,.0f}", f"{ts / n * 1e9:,.0f}", f"{per_s:.2f}"],
        ], right={1, 2, 3})
        ratio = per_w / per_s
        ok = ratio <= PER_MOVE_VS_STANDARD
        lines.append(("PASS" if ok else "FAIL",
                      f"{preset}: ns per move <= {PER_MOVE_VS_STANDARD:g}x the standard kernel's",
                      f"{ratio:.2f}x ({per_w:.2f} vs {per_s:.2f} ns/move)"))
        lines.append(("PASS" if not bad else "FAIL", f"{preset}: ddz-fast == reference.wild_moves "
                      f"on {ref_n} deals (not a speed target)", f"{ref_n - bad}/{ref_n}"))
    # random whole games, compiled (no Python per ply): the auction, the
    # wild draw and every ply's move list
    C.progress("random games")
    n_games = max(200, args.hands // 2)
    rates = {}
    for preset in ("standard", "laizi", "tiandi"):
        best = float("inf")
        for k in range(3):
            t0 = time.perf_counter()
            ddz_fast.play_random_games(n_games, rules=preset, seed=args.seed + k)
            best = min(best, time.perf_counter() - t0)
        rates[preset] = n_games / best
    out.table(["random games (play_random_games, one thread)", "games/s", "vs standard"],
              [[p, f"{r:,.0f}", f"{r / rates['standard']:.3f}x"] for p, r in rates.items()],
              right={1, 2})
    results["wild_games"] = rates
    # the README's four-wild lead
    h = ddz_fast.cards.to_counts(FOUR_WILD_HAND)
    t = C.best_times({"four": [partial(ddz_fast.legal_moves, h, None, rules="laizi", wild="7")]}, args)["four"]
    n4 = len(ddz_fast.legal_moves(h, rules="laizi", wild="7"))
    out.note(f"The 20-card lead {FOUR_WILD_HAND} with 7 wild (four wild cards): {n4:,} moves in "
             f"{C.fmt_us(t)} us ({t / n4 * 1e9:.1f} ns a move, the MoveList included).")
    results.setdefault("wild_targets", []).extend(lines)
    results["wild_four"] = (n4, t)
    return lines


def main(argv=None):
    def run(out, args, results):
        return wild_section(out, args, results)

    return C.section_main(argv, __doc__, [run], repeat=100, budget=0.5, quick=(20, 0.1),
                          extra=[(("--hands",), dict(type=int, default=1024)),
                                 (("--reference-hands",), dict(type=int, default=8)),
                                 (("--min-time",), dict(type=float, default=0.002))])


if __name__ == "__main__":
    sys.exit(main())
