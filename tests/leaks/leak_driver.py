"""Leak check: each entry point is called many times (until a call count or a
time budget runs out) after a warm-up, and memory must stay flat.

Three measures per entry point, each after a warm-up and ``gc.collect()``:

* RSS (``/proc/self/statm``, resident pages): sees C-level leaks (malloc'd
  move buffers, NumPy data) that the Python allocators do not;
* ``sys.getallocatedblocks()``: live Python-allocator blocks, so a leaked
  reference (an object never freed) shows even when it is small;
* tracemalloc's traced current size over a shorter second run (tracemalloc
  slows every allocation, so it gets its own phase): where a leak was
  allocated.

Run it in a fresh process (tests/test_leaks.py does)::

    python tests/leaks/leak_driver.py                   # default budget (~60 s)
    python tests/leaks/leak_driver.py --seconds 10      # longer per entry point
    python tests/leaks/leak_driver.py --only legal_moves,clone

Exit status 1 when any entry point grows past the bounds (printed).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import tracemalloc
from typing import Callable, Dict, List, Tuple

import numpy as np

import ddz_fast as ddz
from ddz_fast import Game, Move

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

# Bounds (after warm-up): RSS may move by allocator noise (arenas, page
# reuse), so it gets 1 MB plus 1 MB per million calls; a leak of even 8
# bytes a call over a million calls is 8 MB.  Python blocks and traced bytes
# must be flat up to small, bounded noise (free lists, interned ints).
RSS_BASE_KB = 1024
RSS_PER_MILLION_KB = 1024
BLOCKS_LIMIT = 300
TRACED_LIMIT_KB = 32


def rss_kb() -> int:
    """Resident set size in KB (Linux /proc); 0 where there is no /proc
    (macOS, Windows: only the block and tracemalloc measures apply there)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE // 1024
    except OSError:
        return 0


def _entry_points() -> Dict[str, Callable[[], object]]:
    """name -> one call (a callable without arguments).  Inputs are made once
    here, so the loop measures the entry point, not the test's allocations."""
    g = Game("standard", seed=3)
    while g.phase.name != "PLAY":
        g.step(g.legal_actions()[-1])
    hand = g.hand(g.to_move)
    hand_text = ddz.format_cards(hand)
    last = ddz.parse_move("6663")
    resp_hand = ddz.parse_cards("3334445556677889TJQKA2BR").copy()
    resp_hand[3] = 0          # no sixes: the hand and the last fit in one deck
    rng = np.random.default_rng(0)
    games = [Game("standard", seed=s) for s in range(64)]
    hands = np.array([gg.hand(0) for gg in games], dtype=np.uint8)
    lasts_rows = np.zeros((len(hands), 16), dtype=np.uint8)     # all PASS rows: leads
    moves = list(ddz.legal_moves(resp_hand))
    a, b = ddz.parse_move("KKKK"), ddz.parse_move("33344456")
    bad_hand = np.array([9] + [0] * 14, dtype=np.int64)
    bad_batch = hands.astype(np.int64)
    bad_batch[5, 2] = 7
    play_game = g.clone()
    first_move = play_game.legal_actions()[0]
    ml = ddz.legal_moves(resp_hand)
    wild_hand = ddz.parse_cards("33445566777789TJQKA2")      # four wild 7s: the candidate buffer grows
    wild_last = ddz.parse_move("88", rules="laizi", wild="7")
    wild_hands = np.array([ddz.parse_cards("3457799TJQK")] * 8, dtype=np.uint8)
    wild_game = Game("laizi", seed=3)
    while wild_game.phase.name != "PLAY":
        wild_game.step(wild_game.legal_actions()[-1])
    del rng

    def step_undo() -> None:
        play_game.step(first_move)
        play_game.undo()

    def raises(fn: Callable[[], object], exc: type) -> Callable[[], object]:
        def call() -> None:
            try:
                fn()
            except exc:
                return
            raise AssertionError("expected an exception")
        return call

    return {
        "legal_moves": lambda: ddz.legal_moves(hand),
        "legal_moves_last": lambda: ddz.legal_moves(resp_hand, last),
        "legal_moves_text": lambda: ddz.legal_moves(hand_text),
        "movelist_iter": lambda: (list(ml), ml.rows, ml.ranks, ml[3]),
        "legal_moves_batch": lambda: ddz.legal_moves_batch(hands),
        "legal_moves_batch_k2": lambda: ddz.legal_moves_batch(hands, lasts_rows, threads=2),
        "count_moves": lambda: ddz.count_moves(hands, lasts_rows),
        "parse_cards": lambda: ddz.parse_cards("3 4 5 10 J Q K A 2 x d"),
        "classify": lambda: ddz.classify(moves[-1].counts),
        "beats": lambda: ddz.beats(a, b),
        "parse_move": lambda: ddz.parse_move("333444555666", "AIRPLANE_SOLO"),
        "move_new": lambda: Move("TRIO_SOLO", "3334"),
        "wild_legal_moves": lambda: ddz.legal_moves(wild_hand, rules="laizi", wild="7"),
        "wild_response": lambda: ddz.legal_moves(wild_hand, wild_last, rules="laizi", wild="7"),
        "wild_batch_classify": lambda: (ddz.legal_moves_batch(wild_hands, rules="tiandi", wild="79"),
                                        ddz.classify("5577", rules="laizi", wild="7")),
        "wild_rollout": lambda: wild_game.rollout(2, seed=1),
        "err_wild": raises(lambda: ddz.legal_moves(hand, rules="laizi", wild="B"), ValueError),
        "game_step_undo": step_undo,
        "game_clone": lambda: play_game.clone(),
        "game_new": lambda: Game("standard", seed=7),
        "play_random_games": lambda: ddz.play_random_games(4, seed=1),
        "err_legal_moves": raises(lambda: ddz.legal_moves(bad_hand), ValueError),
        "err_last": raises(lambda: ddz.legal_moves(hand, "6663"), TypeError),
        "err_batch": raises(lambda: ddz.legal_moves_batch(bad_batch), ValueError),
        "err_parse_cards": raises(lambda: ddz.parse_cards("33Z"), ValueError),
        "err_parse_move": raises(lambda: ddz.parse_move("555666777888"), ValueError),
        "err_step": raises(lambda: play_game.step(b), ValueError),
        "err_rules": raises(lambda: ddz.legal_moves(hand, rules="nope"), ValueError),
    }


def _loop(fn: Callable[[], object], max_calls: int, seconds: float) -> Tuple[int, float]:
    """Call fn until max_calls or the time budget; checks the clock every 256 calls."""
    calls, t0 = 0, time.perf_counter()
    deadline = t0 + seconds
    while calls < max_calls:
        for _ in range(256):
            fn()
        calls += 256
        if time.perf_counter() > deadline:
            break
    return calls, time.perf_counter() - t0


def measure(name: str, fn: Callable[[], object], max_calls: int, seconds: float) -> Dict[str, float]:
    _loop(fn, 20_000, min(0.5, seconds / 4))          # warm-up: caches, free lists, arenas
    gc.collect()
    rss0, blocks0 = rss_kb(), sys.getallocatedblocks()
    calls, elapsed = _loop(fn, max_calls, seconds)
    gc.collect()
    rss1, blocks1 = rss_kb(), sys.getallocatedblocks()
    # tracemalloc phase (slower): a tenth of the time.
    tracemalloc.start()
    _loop(fn, 2_000, 0.1)
    gc.collect()
    traced0 = tracemalloc.get_traced_memory()[0]
    tcalls, _ = _loop(fn, max_calls // 10, seconds / 10)
    gc.collect()
    traced1 = tracemalloc.get_traced_memory()[0]
    top = tracemalloc.take_snapshot().statistics("lineno")[:3] if traced1 - traced0 > TRACED_LIMIT_KB * 1024 else []
    tracemalloc.stop()
    out = {"calls": calls, "seconds": elapsed, "rss_kb": rss1 - rss0, "blocks": blocks1 - blocks0,
           "traced_calls": tcalls, "traced_kb": (traced1 - traced0) / 1024}
    limit = RSS_BASE_KB + RSS_PER_MILLION_KB * calls / 1e6
    out["ok"] = (out["rss_kb"] <= limit and out["blocks"] <= BLOCKS_LIMIT and out["traced_kb"] <= TRACED_LIMIT_KB)
    if top:
        out["top"] = "; ".join(str(s) for s in top)  # type: ignore[assignment]
    return out


def main(argv: List[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time budget per entry point (RSS phase)")
    p.add_argument("--max-calls", type=int, default=3_000_000, help="call budget per entry point")
    p.add_argument("--only", default="", help="comma-separated entry point names")
    args = p.parse_args(argv)
    points = _entry_points()
    names = [n for n in args.only.split(",") if n] or list(points)
    total_calls = failed = 0
    t0 = time.perf_counter()
    print(f"{'entry point':<22} {'calls':>10} {'s':>5} {'RSS KB':>7} {'blocks':>6} "
          f"{'traced calls':>12} {'traced KB':>9}", flush=True)
    for name in names:
        r = measure(name, points[name], args.max_calls, args.seconds)
        total_calls += int(r["calls"]) + int(r["traced_calls"])
        failed += not r["ok"]
        print(f"{name:<22} {int(r['calls']):>10} {r['seconds']:>5.1f} {int(r['rss_kb']):>7} {int(r['blocks']):>6} "
              f"{int(r['traced_calls']):>12} {r['traced_kb']:>9.1f}{'' if r['ok'] else '  LEAK'}", flush=True)
        if "top" in r:
            print(f"    top allocations: {r['top']}")
    print(f"total calls: {total_calls} in {time.perf_counter() - t0:.1f} s; "
          f"entry points: {len(names)}, leaking: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
