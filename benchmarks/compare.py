#!/usr/bin/env python3
"""ddz-fast against OpenSpiel, DouZero and RLCard on the same seeded deals.

Everything is measured in one process, in one run, on the same deals:

1. single calls: every lead of the 20-card landlord, and farmer1's answers
   (17 cards) to a landlord move in three scenarios -- per-call time, moves
   per call, moves per second, and ddz-fast's speed-up over each engine,
   with what each engine returns; the lead and the random response again
   with every engine's inputs scattered in memory; then calls returning
   action ids on both sides (Game.legal_ids, ActionSpace.ids against
   OpenSpiel's legal_actions);
2. the batch kernel (legal_moves_batch, count_moves; 1 and 2 threads):
   moves/s and bytes per move;
3. how the cost grows with work: ns per generated move by hand size and by
   moves per hand, from 5-card hands to 33-card ``four`` hands;
4. random games (when ddz_fast.play_random_games / ddz_fast.Game exist)
   against OpenSpiel's Python random-playout loop;
5. agreement of the move sets, and PASS/FAIL per performance target;
6. the game engine, the batched game and DouZero's actor loop, stock
   against batched (engine_compare.py, vec_compare.py, douzero_compare.py).

Times are minimums over many short timeit timings (about 2 ms each, so
that most fit in one scheduler time slice of a shared machine), taken per
chunk of calls and summed, with the engines interleaved in every round so
that the load of the moment hurts them alike (see best_times).  A missing
engine is reported and skipped.

Install and run (from the repository root):

    pip install -e ".[compare]"          # OpenSpiel and RLCard
    pip install --no-deps douzero        # DouZero (its deps are torch + rlcard)
    python benchmarks/compare.py --markdown

Options: --quick (about a minute; the full run takes about 5 min, 15 with
--solver-anchors, on a loaded 2-core machine), --hands N, --seed S,
--markdown, --strict (exit status 1 when a target fails); see --help for the
rest.

Kernel against kernel with DLE (zizhang-qiu/doudizhu_learning_environment,
C++): set DDZ_DLE_DIR to a checkout of it; its move library and
benchmarks/dle/dle_kernel.cc are compiled with g++ into a shared library
(cached under ~/.cache/ddz_fast_bench), loaded with ctypes and timed in this
process, alternating with our kernel round by round (dle_section).
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import timeit
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import deals as D  # noqa: E402
import engines as E  # noqa: E402

# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------
LEAD_VS_OPENSPIEL = 20.0      # lead generation, per call from Python, distinct 20-card hands
LEAD_VS_DOUZERO = 100.0
RESPONSE_VS_OPENSPIEL = 3.0   # responses, per call, pooled over the scenarios
BATCH_MOVES_PER_S = 100e6     # legal_moves_batch, one thread, 20-card leads
KERNEL_MOVES_PER_S = 500e6    # the lead kernel from C, one core, distinct 20-card hands
KERNEL_VS_MEMCPY = 8.0        # ... within 8x of a memcpy of the same output bytes
COUNT_VS_GENERATION = 10.0    # count_moves kernel against the lead kernel, 20-card hands
CALL_FIXED_NS = 40.0          # a legal_moves call on a one-card hand, less the loop's own cost
MASK_VS_CALL = 1.5            # ActionSpace.mask against a legal_moves call, same hands
BYTES_PER_MOVE = 16.0         # bytes of output (rows) per generated move
FLAT_RATIO = 1.5              # ns/move of 20/25/33-card hands within 1.5x of 17-card hands

# ---------------------------------------------------------------------------
# Output: aligned text or markdown
# ---------------------------------------------------------------------------


class Out:
    def __init__(self, markdown: bool):
        self.md = markdown

    def heading(self, text):
        if self.md:
            print(f"\n### {text}\n")
        else:
            print(f"\n== {text} ==")
        sys.stdout.flush()

    def note(self, text):
        print(text if not self.md else text + "\n")
        sys.stdout.flush()

    def table(self, headers, rows, right=None):
        """rows: lists of cells (str); right: set of column indices to right-align
        (default: every column but the first two)."""
        rows = [[str(c) for c in r] for r in rows]
        if right is None:
            right = set(range(2, len(headers)))
        if self.md:
            print("| " + " | ".join(headers) + " |")
            print("|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|")
            for r in rows:
                print("| " + " | ".join(r) + " |")
            print()
        else:
            w = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                 for i, h in enumerate(headers)]

            def line(cells):
                return "  ".join(c.rjust(w[i]) if i in right else c.ljust(w[i])
                                 for i, c in enumerate(cells)).rstrip()
            print(line(headers))
            print("  ".join("-" * x for x in w))
            for r in rows:
                print(line(r))
        sys.stdout.flush()


def progress(msg):
    print(f"[compare] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


class Direct:
    """Calls of one function on many argument tuples, timed as the plain
    loop ``for a, b in args: fn(a, b)`` -- no wrapper object (such as a
    functools.partial, whose keyword handling alone costs 65-90 ns a call)
    between the loop and the engine; ``then``: a second function applied to
    each result, in the same loop (``then(fn(a, b))``).  Indexing and
    iteration give zero-arg callables, for the checks that run the calls one
    by one."""

    def __init__(self, fn, args, keywords=None, then=None):
        self.fn, self.args, self.then = fn, list(args), then
        self.keywords = dict(keywords or {})   # the same keyword arguments in every call
        self.arity = len(self.args[0]) if self.args else 0
        assert all(len(a) == self.arity for a in self.args)

    def __len__(self):
        return len(self.args)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return Direct(self.fn, self.args[k], self.keywords, self.then)
        a = self.args[k]
        if self.then is not None:
            return lambda: self.then(self.fn(*a, **self.keywords))
        return lambda: self.fn(*a, **self.keywords)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def timer(self):
        # keywords written out in the loop (name=global), as a program would
        # pass them: no dict unpacking per call
        names = ", ".join(f"a{i}" for i in range(self.arity))
        kw = "".join(f", {k}=kw_{k}" for k in self.keywords)
        call = f"fn({names}{kw})" if self.then is None else f"then(fn({names}{kw}))"
        loop = f"for {names}{',' if self.arity == 1 else ''} in args: {call}"
        env = {"fn": self.fn, "then": self.then, "args": self.args,
               **{f"kw_{k}": v for k, v in self.keywords.items()}}
        return timeit.Timer(loop, globals=env)


def direct(calls):
    """A list of functools.partial objects of one function with positional
    arguments only, as a Direct; anything else unchanged."""
    calls = list(calls) if not isinstance(calls, Direct) else calls
    if (isinstance(calls, list) and calls and all(type(c) is partial for c in calls)
            and len({id(c.func) for c in calls}) == 1 and not any(c.keywords for c in calls)):
        return Direct(calls[0].func, [c.args for c in calls])
    return calls


def _timer(calls):
    if isinstance(calls, Direct):
        return calls.timer()
    return timeit.Timer("for f in calls: f()", globals={"calls": calls})


def best_times(named_calls, args):
    """{name: list of zero-arg callables} -> {name: best seconds per call}.

    A shared machine is noisy, and its noise comes in scheduler time slices
    of a few milliseconds, so many short timings keep more of the clean ones
    than a few long ones.  Each list is cut into chunks that take about
    ``args.min_time`` seconds a pass (one call per chunk at least); a chunk
    is timed as ``number`` passes of ``for f in chunk: f()`` (timeit, GC off)
    so that a timing takes about ``args.min_time``.  Every chunk is timed up
    to ``args.repeat`` times (at least 10, and at most what fits in
    ``args.budget`` seconds per name), the names interleaved within each
    round so that the load of the moment hits them alike; a chunk's best
    timing counts, and the name's time is the sum over its chunks.
    """
    plans, best = {}, {}
    named_calls = {name: direct(calls) for name, calls in named_calls.items()}
    for name, calls in named_calls.items():
        for f in calls:  # warm-up
            f()
        t0 = time.perf_counter()
        for f in calls:
            f()
        per_call = max((time.perf_counter() - t0) / len(calls), 1e-9)
        size = max(1, min(len(calls), int(args.min_time / per_call)))
        chunks = [calls[k:k + size] for k in range(0, len(calls), size)]
        plan = [(_timer(c), max(1, round(args.min_time / (per_call * len(c))))) for c in chunks]
        pass_time = sum(number * len(c) * per_call for (_, number), c in zip(plan, chunks))
        reps = int(min(args.repeat, max(10, args.budget / pass_time)))
        plans[name] = (plan, reps)
        best[name] = [float("inf")] * len(plan)
    for r in range(max(reps for _, reps in plans.values())):
        for name, (plan, reps) in plans.items():
            if r >= reps:
                continue
            for k, (timer, number) in enumerate(plan):
                best[name][k] = min(best[name][k], timer.timeit(number) / number)
    return {name: sum(best[name]) / len(named_calls[name]) for name in named_calls}


def best_self_timed(named_chunks, args):
    """{name: list of zero-arg callables that time themselves and return
    seconds} -> {name: sum over the chunks of each chunk's best}; rounds
    interleaved as in best_times (up to args.repeat, within args.budget)."""
    best, reps = {}, {}
    for name, chunks in named_chunks.items():
        t = [f() for f in chunks]  # warm-up, and the estimate
        best[name] = t
        reps[name] = int(min(args.repeat, max(10, args.budget / max(sum(t), 1e-9))))
    for r in range(1, max(reps.values(), default=0)):
        for name, chunks in named_chunks.items():
            if r < reps[name]:
                best[name] = [min(b, f()) for b, f in zip(best[name], chunks)]
    return {name: sum(b) for name, b in best.items()}


# ---------------------------------------------------------------------------
# Formatting helpers
# ---------------------------------------------------------------------------


def section_main(argv, doc, sections, *, repeat, budget, quick, extra=()):
    """The command line of a benchmark module run on its own: common options
    (seed, repeat, budget, quick, markdown, strict) plus ``extra`` (tuples of
    add_argument args and kwargs), then ``sections`` (functions ``(out, args,
    results) -> target lines``) and the targets.  ``quick`` is the
    ``(repeat, budget)`` of ``--quick``."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for flags, kwargs in extra:
        ap.add_argument(*flags, **kwargs)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--repeat", type=int, default=repeat, help=f"timings per chunk, at most (default {repeat})")
    ap.add_argument("--budget", type=float, default=budget,
                    help=f"seconds of timing per item (default {budget})")
    ap.add_argument("--quick", action="store_true", help="fewer chunks and timings")
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--strict", action="store_true", help="exit with status 1 when a target fails")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeat, args.budget = quick
    out = Out(args.markdown)
    results = {}
    lines = [line for section in sections for line in section(out, args, results)]
    out.heading("Targets")
    for status, name, detail in lines:
        print(f"{status}  {name}: {detail}" + ("  " if out.md else ""))
    return 1 if args.strict and any(st == "FAIL" for st, _, _ in lines) else 0


def fmt_us(s):
    us = s * 1e6
    return f"{us:.3f}" if us < 1 else f"{us:.2f}" if us < 100 else f"{us:,.0f}"


def fmt_rate(x):
    """moves/s as M/s."""
    return f"{x / 1e6:,.1f}" if x < 1e9 else f"{x / 1e6:,.0f}"


def fmt_ratio(x):
    return f"{x:,.1f}x" if x < 1000 else f"{x:,.0f}x"


def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=10,
                              cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except Exception:
        return ""


def cpu_name():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# ---------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------

SCENARIOS = (
    ("lead", "every lead of the 20-card landlord"),
    ("resp-random", "farmer1 (17) answers a random simple move of the landlord"),
    ("resp-beatable", "the same, restricted to moves farmer1 can beat with the same kind"),
    ("resp-solo", "farmer1 answers the landlord's lowest single card"),
)
# The same calls with their inputs scattered in memory (see scattered_calls).
SCATTERED = ("lead", "resp-random")


def scattered_calls(make, items, seed):
    """make(item) for every item, built in a random order with live filler
    objects of random sizes allocated between them (small ones from Python's
    allocator, large ones from malloc), so that consecutive calls read inputs
    far apart in memory, as in a program whose hands were made at different
    times; the calls are returned in the items' order, with the fillers
    (which the caller keeps alive as long as the calls)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(items))
    calls, fillers = [None] * len(items), []
    for i in order:
        for size in rng.integers(16, 2048, size=int(rng.integers(1, 5))):
            fillers.append(bytearray(int(size)) if size > 512 else np.zeros(int(size), np.uint8))
        calls[i] = make(items[i])
    return calls, fillers


def _star(fn):
    """fn called with one tuple of its arguments."""
    return lambda a: fn(*a)


def engine_section(out, args, ours, others, deals, prevs, results):
    out.heading(f"Single calls: {len(deals)} deals, seed {args.seed}")
    engines = [ours] + others
    rows = []
    per = {}  # (scenario, engine) -> (seconds/call, moves/call)
    names = [s for s, _ in SCENARIOS] + [f"{s} (scattered)" for s in SCATTERED]
    for scen in names:
        base = scen.split(" ")[0]
        progress(f"timing {scen} ({', '.join(e.name for e in engines)})")
        calls, fillers = {}, {}      # (the fillers live as long as the calls)
        for e in engines:
            if base == "lead":
                make, items = e.lead_call, list(deals)
            else:
                make, items = _star(e.response_call), list(zip(deals, prevs[base]))
            if scen == base:
                calls[e.name] = direct(make(x) for x in items)
            else:
                built, fillers[e.name] = scattered_calls(make, items, args.seed)
                calls[e.name] = direct(built)
        sizes = {n: float(np.mean([len(f()) for f in c])) for n, c in calls.items()}
        best = best_times(calls, args)
        for n in calls:
            per[(scen, n)] = (best[n], sizes[n])
        if scen == base:
            results["calls"][scen] = calls
        del calls, fillers
    pooled = [s for s, _ in SCENARIOS if s != "lead"]
    for e in engines:
        per[("responses (pooled)", e.name)] = (
            float(np.mean([per[(s, e.name)][0] for s in pooled])),
            float(np.mean([per[(s, e.name)][1] for s in pooled])))
    for scen in names[:len(SCENARIOS)] + ["responses (pooled)"] + names[len(SCENARIOS):]:
        t_ours = per[(scen, ours.name)][0]
        for e in engines:
            t, m = per[(scen, e.name)]
            rows.append([scen, e.name, e.returned(scen), fmt_us(t), f"{m:.1f}", fmt_rate(m / t),
                         "-" if e is ours else fmt_ratio(t / t_ours)])
    out.table(["scenario", "engine", "returns", "us/call", "moves/call", "Mmoves/s", "ddz-fast speed-up"],
              rows, right={3, 4, 5, 6})
    out.note("Scenarios: " + "; ".join(f"{s} = {d}" for s, d in SCENARIOS) + ". "
             "Inputs (our hand arrays and Moves, OpenSpiel's states, DouZero's and RLCard's arguments) "
             "are built one after another in the order of the calls (contiguous in memory), or, in the "
             "'(scattered)' rows, in a random order with live objects of random sizes allocated "
             "between them (scattered_calls).")
    out.note("moves/call = length of each engine's own answer (PASS included in responses; "
             "DouZero's list holds duplicates, OpenSpiel has no four-with-two kinds). "
             "speed-up = the engine's time per call / ddz-fast's, on the same deals. "
             "'responses (pooled)' = mean over the three response scenarios. Each engine returns "
             "what its 'returns' column says: ours a MoveList, which makes Move objects only when "
             "read; for a table where both sides return action ids see the next section.")
    results["per"] = per


def ids_section(out, args, ours, others, deals, prevs, results):
    """Single calls that return action ids on both sides: OpenSpiel's
    state.legal_actions() (a list of ints) against ours through
    Game.legal_ids() (an int64 array, from a Game at the same position) and
    ActionSpace.ids(legal_moves(hand[, last])) (a MoveList turned into an
    int64 array)."""
    import ddz_fast
    from ddz_fast.actions import FIRST_MOVE_ID
    os_engine = next((e for e in others if e.name == "OpenSpiel"), None)
    out.heading(f"Single calls returning action ids: {len(deals)} deals")
    space = ddz_fast.action_space("standard")
    lm = ddz_fast.legal_moves
    rows = []
    for scen, _ in SCENARIOS:
        games, hands = [], []
        for i, d in enumerate(deals):
            hl, h1, h2 = D.as_u8(d["landlord"]), D.as_u8(d["farmer1"]), D.as_u8(d["farmer2"])
            if scen == "lead":
                games.append(ddz_fast.Game.from_position([hl, h1, h2], landlord=0))
                hands.append((hl,))
            else:
                m = ours.move_for(prevs[scen][i])
                games.append(ddz_fast.Game.from_position([hl - D.as_u8(m.counts), h1, h2], landlord=0, to_move=1,
                                                         last=m, last_player=0))
                hands.append((h1, m))
        calls = {"Game.legal_ids()": Direct(ddz_fast.Game.legal_ids, [(g,) for g in games]),
                 "ActionSpace.ids(legal_moves(...))": Direct(lm, hands, then=space.ids)}
        if os_engine is not None:
            calls["OpenSpiel state.legal_actions()"] = results["calls"][scen]["OpenSpiel"]
        for k in range(0, len(games), max(1, len(games) // 16)):     # the same ids both ways
            assert np.array_equal(games[k].legal_ids() - FIRST_MOVE_ID, calls[
                "ActionSpace.ids(legal_moves(...))"][k]())
        progress(f"timing action ids ({scen})")
        best = best_times(calls, args)
        sizes = {n: float(np.mean([len(f()) for f in c])) for n, c in calls.items()}
        ref = best.get("OpenSpiel state.legal_actions()")
        for name in calls:
            returns = "list of int" if name.startswith("OpenSpiel") else "int64 array"
            rows.append([scen, name, returns, fmt_us(best[name]), f"{sizes[name]:.1f}",
                         "-" if ref is None or name.startswith("OpenSpiel") else fmt_ratio(ref / best[name])])
        results.setdefault("ids", {})[scen] = best
    out.table(["scenario", "call", "returns", "us/call", "ids/call", "ddz-fast speed-up"], rows,
              right={3, 4, 5})
    out.note("Game.legal_ids() on a Game at the deal's position (from_position: the landlord to lead, or "
             "farmer1 to answer the landlord's move) returns game action ids (ActionSpace ids + "
             "FIRST_MOVE_ID, checked equal); ActionSpace.ids(legal_moves(hand[, last])) is two calls, "
             "timed as one expression in the loop. OpenSpiel's list is that of the tables above (its "
             "ids have no four-with-two kinds, so it lists fewer).")


COMPAT_PRESET = {"DouZero": "douzero", "RLCard": "rlcard"}


def agreement_section(out, args, ours, others, deals, prevs, results):
    """Our move sets against each engine's; then our exact lists against
    ddz_fast.reference on the first few deals plus every deal where some
    engine disagrees with us (so a real bug is told from a rules difference)."""
    out.heading("Agreement of the move sets (distinct card sets, PASS left out)")
    from ddz_fast import reference
    rows = []
    for scen, _ in SCENARIOS:
        calls = results["calls"][scen]
        ours_sets = [ours.move_set(f) for f in calls[ours.name]]
        kinds = [ours.kinds_of(f) for f in calls[ours.name]]
        check = set(range(min(len(deals), args.reference_hands)))
        erows = []
        for e in others:
            theirs = [e.move_set(f) for f in calls[e.name]]
            same = 0
            only_ours, only_theirs = {}, []
            for i, (a, b, k) in enumerate(zip(ours_sets, theirs, kinds)):
                if a == b:
                    same += 1
                    continue
                check.add(i)
                for m in a - b:
                    for kn in k[m]:
                        only_ours[kn] = only_ours.get(kn, 0) + 1
                only_theirs.extend(b - a)
            ours_txt = ", ".join(f"{k} {v}" for k, v in sorted(only_ours.items())) or "0"
            theirs_txt = str(len(only_theirs))
            if only_theirs:
                theirs_txt += " e.g. " + " ".join(D.counts_to_text(m) for m in only_theirs[:4])
            erows.append([scen, e.name, f"{same}/{len(ours_sets)}", ours_txt, theirs_txt])
            preset = COMPAT_PRESET.get(e.name)
            if preset is not None:
                psame, pdiff = 0, []
                for i, b in enumerate(theirs):
                    call = (ours.lead_call(deals[i], rules=preset) if scen == "lead"
                            else ours.response_call(deals[i], prevs[scen][i], rules=preset))
                    a = ours.move_set(call)
                    if a == b:
                        psame += 1
                    else:
                        pdiff.append(i)
                results.setdefault("compat", {})[(scen, e.name)] = (psame, len(theirs), pdiff)
                erows.append([scen, f"{e.name} vs preset {preset!r}", f"{psame}/{len(theirs)}",
                              "-" if not pdiff else f"deals {pdiff[:6]}", ""])
        progress(f"checking {scen} against ddz_fast.reference on {len(check)} deals")
        same = 0
        bad = []
        for i in sorted(check):
            d = deals[i]
            if scen == "lead":
                exp = reference.legal_moves(D.as_u8(d["landlord"]))
            else:
                exp = reference.legal_moves(D.as_u8(d["farmer1"]), ours.move_for(prevs[scen][i]))
            if calls[ours.name][i]() == exp:
                same += 1
            else:
                bad.append(i)
        ref_txt = "exact lists, order included"
        if bad:
            ref_txt += "; DIFFERENT on deals " + ", ".join(map(str, bad[:8]))
        rows.append([scen, "ddz_fast.reference", f"{same}/{len(check)}", ref_txt, ""])
        rows.extend(erows)
        results.setdefault("reference_bad", {})[scen] = bad
    out.table(["scenario", "engine", "identical hands", "only ddz-fast (by kind)", "only the engine"],
              rows, right={2})
    out.note(f"ddz_fast.reference is checked on the first {args.reference_hands} deals and on "
             "every deal where another engine disagrees with ddz-fast. Known rules differences: "
             "OpenSpiel has no four-with-two kinds and skips chains whose lowest rank the hand holds "
             "four times; DouZero and RLCard accept a four with two singles of one rank (JJJJ+KK), "
             "which the standard preset does not (four_two_solo_distinct). The rows 'vs preset' "
             "compare the engine with ddz-fast under its compatibility preset (douzero, rlcard), "
             "where every hand should be identical.")


def accelerator_section(out, args, others, results):
    """DouZero's GameEnv.get_legal_card_play_actions against the same method
    patched by ddz_fast.compat.douzero.accelerate(), on the same stubs."""
    dz_engine = next((e for e in others if e.name == "DouZero"), None)
    if dz_engine is None:
        return
    from ddz_fast.compat import douzero as dz
    out.heading("DouZero accelerator: GameEnv.get_legal_card_play_actions, own vs ddz_fast.compat.douzero")
    rows = []
    for scen, _ in SCENARIOS:
        own = results["calls"][scen]["DouZero"]
        fast = Direct(dz._get_legal_card_play_actions, own.args)
        same = sum(a() == b() for a, b in zip(own, fast))
        progress(f"timing the DouZero accelerator ({scen})")
        best = best_times({"own": own, "accelerated": fast}, args)
        results.setdefault("accel", {})[scen] = best["own"] / best["accelerated"]
        rows.append([scen, fmt_us(best["own"]), fmt_us(best["accelerated"]),
                     fmt_ratio(best["own"] / best["accelerated"]), f"{same}/{len(own)}"])
    out.table(["scenario", "DouZero us/call", "accelerated us/call", "speed-up", "same list"],
              rows, right={4})
    out.note("Both return the same Python lists of DouZero ints (same order, DouZero's repeats "
             "included). Most of the accelerated time is building those lists.")


def batch_section(out, args, ours, deals, prevs_all, results):
    import ddz_fast
    n = len(deals)
    out.heading(f"Batch kernel: {n} deals, 20-card leads and 17-card responses")
    lead_h = np.array([d["landlord"] for d in deals], dtype=np.uint8)
    resp_h = np.array([d["farmer1"] for d in deals], dtype=np.uint8)
    resp_last = D.lasts_as_rows([ours.move_for(p) for p in prevs_all])
    single_lead = [ours.lead_call(d) for d in deals]
    single_resp = [ours.response_call(d, p) for d, p in zip(deals, prevs_all)]
    # name -> (one call per hand or None for one batch call, threads, scenario, count only)
    cases = {
        "legal_moves lead, one call per hand": (single_lead, 1, "lead", False),
        "legal_moves_batch lead, threads=1": (None, 1, "lead", False),
        "legal_moves_batch lead, threads=2": (None, 2, "lead", False),
        "count_moves lead, threads=1": (None, 1, "lead", True),
        "count_moves lead, threads=2": (None, 2, "lead", True),
        "legal_moves response, one call per hand": (single_resp, 1, "resp", False),
        "legal_moves_batch response, threads=1": (None, 1, "resp", False),
        "legal_moves_batch response, threads=2": (None, 2, "resp", False),
        "count_moves response, threads=1": (None, 1, "resp", True),
    }
    calls = {}
    for name, (single, threads, scen, count) in cases.items():
        hands = lead_h if scen == "lead" else resp_h
        lasts = None if scen == "lead" else resp_last
        if single is not None:
            calls[name] = single
        else:
            f = ddz_fast.count_moves if count else ddz_fast.legal_moves_batch
            c = args.batch_chunk
            # (rules and threads are positional-free keywords: a closure per
            # chunk, one call per chunk of --batch-chunk hands)
            calls[name] = [_batch_call(f, hands[k:k + c], None if lasts is None else lasts[k:k + c],
                                       threads) for k in range(0, n, c)]
    progress("timing the batch kernel")
    best = best_times(calls, args)
    lead_total = int(ddz_fast.count_moves(lead_h).sum())
    resp_total = int(ddz_fast.count_moves(resp_h, resp_last).sum())
    b_lead = ddz_fast.legal_moves_batch(lead_h)
    b_resp = ddz_fast.legal_moves_batch(resp_h, resp_last)
    assert len(b_lead.rows) == lead_total and len(b_resp.rows) == resp_total
    assert sum(len(f()) for f in single_lead) == lead_total
    assert sum(len(f()) for f in single_resp) == resp_total
    rows = []
    for name, (single, threads, scen, count) in cases.items():
        total = lead_total if scen == "lead" else resp_total
        t = best[name] * len(calls[name])  # seconds for all hands
        if count:
            bpm = "0 (counts only)"
        elif single is not None:
            bpm = "16 (MoveList rows)"
        else:
            b = b_lead if scen == "lead" else b_resp
            bpm = (f"{b.rows.nbytes / len(b.rows):.1f} "
                   f"({(b.rows.nbytes + b.offsets.nbytes) / len(b.rows):.2f} with offsets)")
        rows.append([name, f"{n}", f"{total / n:.1f}", f"{t * 1e3:.2f}", f"{t / n * 1e9:,.0f}",
                     f"{t / total * 1e9:.1f}", fmt_rate(total / t), bpm])
        results["batch"][name] = total / t
    out.table(["call", "hands", "moves/hand", "ms (all hands)", "ns/hand", "ns/move", "Mmoves/s",
               "bytes/move"], rows, right={1, 2, 3, 4, 5, 6})
    results["bytes_per_move"] = b_lead.rows.nbytes / len(b_lead.rows)
    results["bytes_per_move_offsets"] = (b_lead.rows.nbytes + b_lead.offsets.nbytes) / len(b_lead.rows)
    out.note(f"{os.cpu_count()} CPUs visible. Rows are 15 counts + the kind code = 16 bytes a move; "
             "offsets add 8 bytes a hand.")


def _batch_call(f, hands, lasts, threads):
    if threads == 1:
        return (lambda: f(hands)) if lasts is None else (lambda: f(hands, lasts))
    return ((lambda: f(hands, threads=threads)) if lasts is None
            else (lambda: f(hands, lasts, threads=threads)))


def kernel_section(out, args, ours, deals, prevs_all, results):
    """The kernels alone, called from C in a loop over distinct hands
    (ddz_fast._core.testing.time_kernel), against a memcpy of the same output
    bytes, and the closed-form counter against generation."""
    from ddz_fast._core.testing import time_kernel
    out.heading(f"Kernels from C: {len(deals)} distinct deals")
    lead_h = np.array([d["landlord"] for d in deals], dtype=np.uint8)
    resp_h = np.array([d["farmer1"] for d in deals], dtype=np.uint8)
    resp_last = D.lasts_as_rows([ours.move_for(p) for p in prevs_all])
    progress("timing the kernels from C")
    rows = []
    cases = {"lead, 20 cards": (lead_h, None), "response, 17 cards": (resp_h, resp_last)}
    for k in (17, 10, 5):
        cases[f"lead, {k} cards"] = (D.random_hands(len(deals), k, 1, args.seed), None)
    for name, (H, L) in cases.items():
        t, moves, t_copy = time_kernel(H, L, repeat=max(5, args.repeat // 10))
        c, _, _ = time_kernel(H, L, repeat=max(5, args.repeat // 10), count=True)
        rows.append([name, f"{moves / len(H):.1f}", f"{t / len(H) * 1e9:,.1f}", f"{t / moves * 1e9:.2f}",
                     fmt_rate(moves / t), f"{t / t_copy:.1f}x", f"{c / len(H) * 1e9:,.1f}", f"{t / c:.1f}x"])
        results["kernel"][name] = (t / len(H), moves / t, t / t_copy, t / c)
    out.table(["kernel", "moves/hand", "ns/hand", "ns/move", "Mmoves/s", "vs memcpy of the rows",
               "count ns/hand", "generation / count"], rows, right={1, 2, 3, 4, 5, 6, 7})
    out.note("One reused output buffer, nothing kept (the move rows of every hand written, 16 bytes a "
             "move); 'vs memcpy' = kernel time / a memcpy of all the rows written, measured in the same "
             "run (the floor for storing them). count = count_moves' closed form (no rows).")


def _build_dle(src):
    """Compile benchmarks/dle/dle_kernel.cc with the DLE sources at `src`
    (the repository root of zizhang-qiu/doudizhu_learning_environment) into
    a shared library in a cache directory; returns its path, or raises with
    the reason."""
    import glob
    import hashlib
    lib = os.path.join(src, "doudizhu_learning_environment", "doudizhu_lib")
    sources = sorted(f for f in glob.glob(os.path.join(lib, "*.cc")) if not f.endswith("_test.cc"))
    if not sources:
        raise RuntimeError(f"no DLE sources under {lib}")
    harness = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dle", "dle_kernel.cc")
    digest = hashlib.sha1()
    for f in sources + [harness]:
        with open(f, "rb") as fh:
            digest.update(fh.read())
    out_dir = os.path.join(os.path.expanduser("~"), ".cache", "ddz_fast_bench")
    os.makedirs(out_dir, exist_ok=True)
    so = os.path.join(out_dir, f"dle_kernel_{digest.hexdigest()[:12]}.so")
    if not os.path.exists(so):
        cmd = ["g++", "-O3", "-std=c++17", "-shared", "-fPIC", "-I", lib, harness] + sources + ["-o", so]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("building DLE failed: " + r.stderr[-400:])
    return so


class DleKernel:
    """DLE's move search (benchmarks/dle/dle_kernel.cc, built by _build_dle)
    loaded into this process with ctypes: one timed pass over the hands
    given to the constructor."""

    def __init__(self, so, hands):
        import ctypes
        self._ct = ctypes
        self.lib = lib = ctypes.CDLL(so)
        lib.dle_new.restype = ctypes.c_void_p
        lib.dle_new.argtypes = [ctypes.c_int32, ctypes.c_void_p]
        lib.dle_pass.restype = ctypes.c_double
        lib.dle_pass.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.POINTER(ctypes.c_int64)]
        lib.dle_delete.restype = None
        lib.dle_delete.argtypes = [ctypes.c_void_p]
        self.hands = np.ascontiguousarray(hands, dtype=np.uint8)
        self.n = len(self.hands)
        self.handle = lib.dle_new(self.n, self.hands.ctypes.data)
        if not self.handle:
            raise MemoryError("DLE: out of memory")

    def run(self, rank=None, num=None):
        """(seconds, moves) of one pass: the leads, or the answers to the
        single-rank moves (rank[i], num[i]) (int8 arrays kept by the caller)."""
        moves = self._ct.c_int64(0)
        t = self.lib.dle_pass(self.handle, None if rank is None else rank.ctypes.data,
                              None if num is None else num.ctypes.data, self._ct.byref(moves))
        return t, moves.value

    def close(self):
        if self.handle:
            self.lib.dle_delete(self.handle)
            self.handle = None


def single_rank_lasts(ours, lead_hands, seed):
    """The landlord moves farmer1 answers in the DLE rows, each as (rank,
    cards) int8 arrays and our (N, 16) last rows: the lowest single (the
    easiest: most answers), a random single (a uniformly random rank of
    the landlord's hand), and a random single, pair or trio (a size the
    landlord can play, uniformly, then a rank of it)."""
    rng = np.random.default_rng(seed)
    n = len(lead_hands)
    low = np.array([int(np.flatnonzero(h)[0]) for h in lead_hands], dtype=np.int8)
    rand = np.array([int(rng.choice(np.flatnonzero(h))) for h in lead_hands], dtype=np.int8)
    sr_rank, sr_num = np.zeros(n, np.int8), np.zeros(n, np.int8)
    for i, h in enumerate(lead_hands):
        size = int(rng.choice([k for k in (1, 2, 3) if (h[:13] >= k).any() or (k == 1 and h.any())]))
        sr_num[i] = size
        sr_rank[i] = int(rng.choice(np.flatnonzero(h >= size)))
    kinds = {1: "solo", 2: "pair", 3: "trio"}

    def rows(rank, num):
        moves = []
        for r, k in zip(rank.tolist(), num.tolist()):
            counts = [0] * 15
            counts[r] = k
            moves.append(ours.move_for((kinds[k], counts)))
        return D.lasts_as_rows(moves)

    ones = np.ones(n, np.int8)
    return {"response to the lowest single, 17 cards": (low, ones, rows(low, ones)),
            "response to a random single, 17 cards": (rand, ones, rows(rand, ones)),
            "response to a random single, pair or trio, 17 cards": (sr_rank, sr_num, rows(sr_rank, sr_num))}


def spread(xs):
    """min / median / max of a list of numbers, as a string."""
    return f"{min(xs):,.1f} / {float(np.median(xs)):,.1f} / {max(xs):,.1f}"


def dle_section(out, args, ours, deals, results):
    """Kernel against kernel, both called from compiled code on the same
    distinct deals and in the same process: DLE's move search (C++, loaded
    with ctypes) and ours (C), one pass of each in turn, round after round
    (the first of the pair alternating), so that the load of the moment hits
    both alike.  Needs DDZ_DLE_DIR (a checkout of
    zizhang-qiu/doudizhu_learning_environment) and g++."""
    from ddz_fast._core.testing import time_kernel
    src = os.environ.get("DDZ_DLE_DIR")
    if not src:
        results["dle"] = "DDZ_DLE_DIR not set"
        return
    try:
        so = _build_dle(src)
    except (OSError, RuntimeError) as e:
        results["dle"] = str(e)
        return
    out.heading(f"Kernel against kernel: DLE (C++) and ddz-fast (C), {len(deals)} distinct deals, "
                "interleaved in one process")
    lead_h = np.array([d["landlord"] for d in deals], dtype=np.uint8)
    resp_h = np.array([d["farmer1"] for d in deals], dtype=np.uint8)
    scenarios = {"lead, 20 cards": (lead_h, None, None, None)}
    for name, (rank, num, last_rows) in single_rank_lasts(ours, lead_h, args.seed).items():
        scenarios[name] = (resp_h, rank, num, last_rows)
    rounds = max(11, args.repeat // 4)
    progress(f"timing DLE's kernel and ours from compiled code, {rounds} interleaved rounds")
    rows = []
    handles = []

    def sides(H, rank, num, last_rows):
        """The two sides as lists of (self-timing pass, passes a round) per
        chunk of hands, a chunk's pass taking about --min-time (or one hand)."""
        n = len(H)
        whole = DleKernel(so, H)
        handles.append(whole)
        per = {"dle": whole.run(rank, num)[0] / n, "ours": time_kernel(H, last_rows, repeat=1)[0] / n}
        out = {}
        for side, t in per.items():
            size = max(1, min(n, int(args.min_time / max(t, 1e-12))))
            parts = []
            for a in range(0, n, size):
                sl = slice(a, min(n, a + size))
                # at least 3 passes a chunk, so that one preempted pass does not make a round
                k = max(3, round(args.min_time / (t * (sl.stop - a))))
                if side == "dle":
                    dk = DleKernel(so, H[sl])
                    handles.append(dk)
                    r = None if rank is None else np.ascontiguousarray(rank[sl])
                    m = None if num is None else np.ascontiguousarray(num[sl])
                    parts.append((lambda dk=dk, r=r, m=m: dk.run(r, m), k))
                else:
                    h = np.ascontiguousarray(H[sl])
                    lr = None if last_rows is None else np.ascontiguousarray(last_rows[sl])
                    parts.append((lambda h=h, lr=lr, k=k: time_kernel(h, lr, repeat=k)[:2], 1))
            out[side] = parts
        return out

    def one_round(parts):
        """([seconds of each chunk: its best of its passes], moves of all the hands)."""
        ts, moves = [], 0
        for run, k in parts:
            t, m = min(run() for _ in range(k))
            ts.append(t)
            moves += m
        return ts, moves

    try:
        for name, (H, rank, num, last_rows) in scenarios.items():
            parts = sides(H, rank, num, last_rows)
            chunk_t = {"dle": [], "ours": []}      # side -> per round, the chunks' times
            for r in range(rounds):
                for side in (("dle", "ours") if r % 2 == 0 else ("ours", "dle")):
                    ts, m = one_round(parts[side])
                    chunk_t[side].append(ts)
                    if side == "dle":
                        dle_moves = m
                    else:
                        moves = m
            ns = {side: np.array(v) / len(H) * 1e9 for side, v in chunk_t.items()}
            # best: each chunk's best round, summed (as best_times); the spread: whole rounds
            t_dle, t_ours = ns["dle"].min(0).sum(), ns["ours"].min(0).sum()
            per_round = (ns["dle"].sum(1) / ns["ours"].sum(1)).tolist()
            best = t_dle / t_ours
            rows.append([name, f"{t_dle:,.1f}", f"{dle_moves / len(H):.1f}", f"{t_ours:,.1f}",
                         f"{moves / len(H):.1f}", fmt_ratio(best), spread(per_round)])
            results.setdefault("dle_ratio", {})[name] = best
            results.setdefault("dle_ns", {})[name] = (t_dle, t_ours)
    finally:
        for dk in handles:
            dk.close()
    out.table(["kernel", "DLE ns/hand", "DLE moves/hand", "ddz-fast ns/hand", "ddz-fast moves/hand",
               "ddz-fast speed-up", "per round: min / median / max"], rows, right={1, 2, 3, 4, 5, 6})
    out.note(f"One process: DLE's play-phase LegalMoves body (PASS for a response, the rocket, then "
             "SearchForAllMoves / SearchForSingleRankMoves into a reused std::vector; "
             "benchmarks/dle/dle_kernel.cc, loaded with ctypes) and ours (gen_moves into one reused "
             f"buffer, ddz_fast._core.testing.time_kernel), in turn, {rounds} rounds (the first of each "
             f"pair alternating); a round of a side passes over all the hands in chunks of about "
             f"{args.min_time * 1e3:g} ms, each chunk's best of 3 or more passes counting. ns/hand: "
             "each chunk's best round, summed, as in the other tables; speed-up: DLE's / ours; per "
             "round: DLE's time / ours in the same round (whole rounds). The move sets differ "
             "where the rules do (DLE's responses to a single-rank move hold no bombs).")


def call_section(out, args, deals, results):
    """Fixed cost of a call and of a legal-action mask, per call from Python."""
    import ddz_fast
    out.heading("Per-call costs from Python")
    one = D.as_u8([1] + [0] * 14)
    lead_h = [D.as_u8(d["landlord"]) for d in deals]
    space = ddz_fast.action_space("standard")
    buf = np.zeros(space.size, dtype=bool)
    lm = ddz_fast.legal_moves
    calls = {
        # the interpreter's own cost of the loop and of a call into C: the
        # cheapest C function of the same argument, in the same loop
        "len(one card) (the loop's own cost)": Direct(len, [(one,)] * 2048),
        "legal_moves(one card)": Direct(lm, [(one,)] * 2048),
        "legal_moves(20-card hand)": Direct(lm, [(h,) for h in lead_h]),
        "ActionSpace.mask(20-card hand)": Direct(space.mask, [(h,) for h in lead_h]),
        "ActionSpace.mask(20-card hand, out=)": Direct(space.mask, [(h,) for h in lead_h], {"out": buf}),
    }
    progress("timing per-call costs")
    best = best_times(calls, args)
    rows = [[name, f"{best[name] * 1e9:,.0f}"] for name in calls]
    out.table(["call", "ns/call"], rows, right={1})
    results["call"] = best


SIZES = (("standard", 1, (5, 10, 14, 17, 20)), ("four", 2, (25, 29, 33)))
BUCKETS = (1, 8, 16, 32, 64, 128, 256, 512, 1024, 1 << 30)


def _batch_and_single(groups, args):
    """groups: {key: (rules, hands array)} -> {key: (batch s, single-calls s)}
    for all the hands of each group, every group timed in the same
    interleaved repeats (so the load of the moment hits all sizes alike)."""
    import ddz_fast
    calls = {}
    for key, (rules, H) in groups.items():
        r = ddz_fast.resolve_rules(rules)
        calls[(key, "batch")] = [lambda H=H, r=r: ddz_fast.legal_moves_batch(H, rules=r)]
        # one Rules object passed call after call, as a program would
        calls[(key, "single")] = [lambda h=H[i], r=r: ddz_fast.legal_moves(h, rules=r)
                                  for i in range(len(H))]
    best = best_times(calls, args)
    return {key: (best[(key, "batch")], best[(key, "single")] * len(H))
            for key, (_, H) in groups.items()}


def scaling_section(out, args, results):
    import ddz_fast
    out.heading("Cost per move as the work grows (random hands, leads)")
    groups, counts = {}, {}
    for rules, decks, sizes in SIZES:
        for k in sizes:
            H = D.random_hands(args.scale_hands, k, decks, args.seed)
            groups[k] = (rules, H)
            counts[k] = ddz_fast.count_moves(H, rules=rules)
    progress("timing cost per move by hand size")
    times = _batch_and_single(groups, args)
    rows, flat = [], {}
    for k, (rules, H) in groups.items():
        total = int(counts[k].sum())
        tb, ts = times[k]
        rows.append([rules, f"{k}", f"{len(H)}", f"{total / len(H):.1f}", f"{int(counts[k].max())}",
                     f"{tb / total * 1e9:.1f}", f"{ts / total * 1e9:.1f}", f"{ts / len(H) * 1e6:.2f}"])
        flat[k] = tb / total * 1e9
        results["flat_single"][k] = ts / total * 1e9
    out.table(["rules", "cards", "hands", "moves/hand", "max moves", "batch ns/move", "single-call ns/move",
               "single-call us/call"], rows, right={1, 2, 3, 4, 5, 6, 7})
    results["flat"] = flat

    progress("timing cost per move by moves per hand")
    buckets, totals = {}, {}
    for rules in ("standard", "four"):
        Hs = np.concatenate([H for k, (r, H) in groups.items() if r == rules])
        cs = np.concatenate([counts[k] for k, (r, _) in groups.items() if r == rules])
        for lo, hi in zip(BUCKETS, BUCKETS[1:]):
            sel = (cs >= lo) & (cs < hi)
            if sel.sum() >= 10:
                buckets[(rules, lo, hi)] = (rules, np.ascontiguousarray(Hs[sel]))
                totals[(rules, lo, hi)] = int(cs[sel].sum())
    times = _batch_and_single(buckets, args)
    rows = []
    for (rules, lo, hi), (_, H) in buckets.items():
        total = totals[(rules, lo, hi)]
        tb, ts = times[(rules, lo, hi)]
        label = f"{lo}-{hi - 1}" if hi < (1 << 30) else f">= {lo}"
        rows.append([rules, label, f"{len(H)}", f"{total / len(H):.1f}",
                     f"{tb / total * 1e9:.1f}", f"{ts / total * 1e9:.1f}"])
    out.table(["rules", "moves per hand", "hands", "mean moves", "batch ns/move", "single-call ns/move"],
              rows, right={2, 3, 4, 5})
    out.note(f"{args.scale_hands} random hands per size (standard: one deck; four: two decks). "
             "Single calls carry a fixed per-call cost (argument checks, the MoveList object), "
             "so their ns/move falls as hands get more moves; the batch kernel shows the cost of "
             "the generation itself.")


def games_section(out, args, os_engine, deals, results):
    """Random games: Python-stepped loops (OpenSpiel vs ddz_fast.Game) and
    the compiled ddz_fast.play_random_games.  Every loop runs in chunks of
    --chunk-games games (each chunk's best time counts, as in best_times)."""
    out.heading("Random games (uniformly random legal actions)")
    n_py, c = args.py_games, args.chunk_games
    loops = {}   # name -> list of self-timed chunks
    plies = {}   # (name, chunk) -> plies of play
    notes = []

    def chunk(name, k, fn, *a, **kw):
        def run():
            r = fn(*a, **kw)
            plies[(name, k)] = r[-1]
            return r[0]
        return run

    parts = [(k, deals[k * c:(k + 1) * c]) for k in range((n_py + c - 1) // c)]
    if os_engine is not None:
        name = "OpenSpiel: Python loop, deal + auction + play"
        loops[name] = [chunk(name, k, os_engine.full_games, len(d), seed=k + 1) for k, d in parts]
        name = "OpenSpiel: Python loop, play phase only"
        loops[name] = [chunk(name, k, os_engine.play_phase,
                             [os_engine.state_for_deal(x["perm"]) for x in d], seed=k + 1)
                       for k, d in parts]
    else:
        notes.append("OpenSpiel missing: no Python random-playout baseline.")
    try:
        name = "ddz-fast: Python loop over Game, deal + auction + play"
        loops[name] = [chunk(name, k, E.python_game_loop, len(d), rules="standard", seed=k + 1)
                       for k, d in parts]
        name = "ddz-fast: Python loop over Game, play phase only"
        loops[name] = [chunk(name, k, E.python_play_phase, E.game_starts(d), seed=k + 1)
                       for k, d in parts]
    except NotImplementedError as exc:
        loops = {k: v for k, v in loops.items() if not k.startswith("ddz")}
        notes.append(f"ddz-fast Python-stepped Game loop: skipped ({exc}).")
    progress("timing Python-stepped random games")
    best = best_self_timed(loops, args)
    rate = {name: n_py / t for name, t in best.items()}
    base = {"deal": "OpenSpiel: Python loop, deal + auction + play",
            "play": "OpenSpiel: Python loop, play phase only"}
    rows = []
    for name in loops:
        kind = "play" if "play phase" in name else "deal"
        p = sum(v for (nm, _), v in plies.items() if nm == name) / n_py
        ratio = (f"{rate[name] / rate[base[kind]]:,.1f}x" if name.startswith("ddz") and base[kind] in rate
                 else "-")
        rows.append([name, f"{n_py}", f"{rate[name]:,.0f}", f"{p:.1f}", ratio])

    n, cg = args.games, args.chunk_games * 20
    for threads in (1, 2):
        try:
            E.play_random_games_call(1, threads=threads)
        except NotImplementedError as exc:
            notes.append(f"ddz-fast play_random_games: skipped ({exc}).")
            break
        calls = [E.play_random_games_call(min(cg, n - k), rules="standard", seed=args.seed,
                                          threads=threads, first_game=k)
                 for k in range(0, n, cg)]
        progress(f"timing play_random_games threads={threads}")
        t = best_times({"games": calls}, args)["games"] * len(calls)
        res = calls[0]()
        p = float(np.mean(res.plies)) if hasattr(res, "plies") else float("nan")
        results["games"][threads] = n / t
        ref = base["deal"]
        rows.append([f"ddz-fast: play_random_games (compiled), threads={threads}", f"{n}",
                     f"{n / t:,.0f}", f"{p:.1f}", f"{n / t / rate[ref]:,.0f}x" if ref in rate else "-"])
    if rows:
        out.table(["loop", "games", "games/s", "plies/game", "ddz-fast speed-up"], rows, right={1, 2, 3, 4})
    out.note("Python loops: legal_actions(), then step/apply_action of a uniformly random one, "
             "one Python step per action (OpenSpiel's deal is 54 chance steps; ddz_fast.Game deals "
             "from its seed). 'Play phase only' starts from the same deals as the tables above "
             "(landlord with 20 cards leads), each game from a clone of the start made before the clock starts. "
             "Speed-ups are against the OpenSpiel loop of the same scope.")
    for n_ in notes:
        out.note(n_)


def targets_section(out, results):
    out.heading("Targets")
    per = results["per"]
    lines = []

    def add(name, ok, detail):
        status = "SKIP" if ok is None else ("PASS" if ok else "FAIL")
        lines.append((status, name, detail))

    ours_lead = per[("lead", "ddz-fast")][0]
    ours_resp = per[("responses (pooled)", "ddz-fast")][0]
    for eng, target in (("OpenSpiel", LEAD_VS_OPENSPIEL), ("DouZero", LEAD_VS_DOUZERO)):
        key = ("lead", eng)
        if key in per:
            r = per[key][0] / ours_lead
            rs = per[("lead (scattered)", eng)][0] / per[("lead (scattered)", "ddz-fast")][0]
            add(f"lead >= {target:g}x {eng}", min(r, rs) >= target,
                f"{fmt_ratio(r)} ({fmt_us(per[key][0])} us vs {fmt_us(ours_lead)} us per call); inputs "
                f"scattered in memory {fmt_ratio(rs)}")
        else:
            add(f"lead >= {target:g}x {eng}", None, f"{eng} not installed")
    key = ("responses (pooled)", "OpenSpiel")
    if key in per:
        r = per[key][0] / ours_resp
        worst = min(per[(s, "OpenSpiel")][0] / per[(s, "ddz-fast")][0]
                    for s in [s for s, _ in SCENARIOS if s != "lead"] + [f"{s} (scattered)" for s in SCATTERED
                                                                      if s != "lead"])
        add(f"response >= {RESPONSE_VS_OPENSPIEL:g}x OpenSpiel", r >= RESPONSE_VS_OPENSPIEL,
            f"{fmt_ratio(r)} pooled ({fmt_us(per[key][0])} us vs {fmt_us(ours_resp)} us per call; "
            f"worst scenario, scattered inputs included, {fmt_ratio(worst)})")
    else:
        add(f"response >= {RESPONSE_VS_OPENSPIEL:g}x OpenSpiel", None, "OpenSpiel not installed")
    rate = results["batch"]["legal_moves_batch lead, threads=1"]
    add(f"batch >= {BATCH_MOVES_PER_S / 1e6:g}M moves/s on one core", rate >= BATCH_MOVES_PER_S,
        f"{rate / 1e6:,.1f}M moves/s = {rate / BATCH_MOVES_PER_S:.2f}x the target "
        "(legal_moves_batch, 20-card leads, threads=1)")
    bpm = results["bytes_per_move"]
    add(f"<= {BYTES_PER_MOVE:g} bytes per move", bpm <= BYTES_PER_MOVE,
        f"{bpm:.1f} bytes per move in the batch rows ({results['bytes_per_move_offsets']:.2f} with "
        "the per-hand offsets)")
    flat = results["flat"]
    base = flat[17]
    worst_k = max((20, 25, 33), key=lambda k: flat[k])
    r = flat[worst_k] / base
    add(f"flat cost per move, 17 -> 33 cards (within {FLAT_RATIO:g}x)", r <= FLAT_RATIO,
        f"{r:.2f}x (batch ns/move: " + ", ".join(f"{k} cards {flat[k]:.1f}" for k in (17, 20, 25, 33))
        + "; single calls: " + ", ".join(f"{k} {results['flat_single'][k]:.1f}" for k in (17, 20, 25, 33))
        + ")")
    k = results.get("kernel", {})
    if k:
        t_lead, rate, vs_copy, vs_count = k["lead, 20 cards"]
        add(f"lead kernel >= {KERNEL_MOVES_PER_S / 1e6:g}M moves/s on one core", rate >= KERNEL_MOVES_PER_S,
            f"{rate / 1e6:,.0f}M moves/s ({t_lead * 1e9:.0f} ns a 20-card hand, from C)")
        add(f"lead kernel within {KERNEL_VS_MEMCPY:g}x of a memcpy of its rows", vs_copy <= KERNEL_VS_MEMCPY,
            f"{vs_copy:.1f}x")
        add(f"count_moves >= {COUNT_VS_GENERATION:g}x generation (20-card leads)",
            vs_count >= COUNT_VS_GENERATION, f"{vs_count:.1f}x")
    d = results.get("dle_ratio")
    if d:
        ns = results["dle_ns"]
        resp = [k for k in ns if k.startswith("response")]
        r = float(np.mean([ns[k][0] for k in resp]) / np.mean([ns[k][1] for k in resp]))
        worst = min(resp, key=lambda k: d[k])
        add("responses >= 2x DLE's response kernel", r >= 2.0,
            f"{r:.1f}x pooled over the {len(resp)} response scenarios (worst {d[worst]:.1f}x: "
            f"{worst.rsplit(',', 1)[0]}; lead {d['lead, 20 cards']:.1f}x), both from compiled code, "
            "interleaved in one process")
    else:
        add("responses >= 2x DLE's response kernel", None, results.get("dle", "DLE not run"))
    c = results.get("call", {})
    if c:
        call = c["legal_moves(one card)"] * 1e9
        fixed = call - c["len(one card) (the loop's own cost)"] * 1e9
        add(f"single call fixed cost <= {CALL_FIXED_NS:g} ns", fixed <= CALL_FIXED_NS,
            f"{fixed:.0f} ns (legal_moves on a one-card hand, {call:.0f} ns a call, less the loop's "
            f"own cost: a len() of the same argument in the same loop)")
        r = min(c["ActionSpace.mask(20-card hand)"], c["ActionSpace.mask(20-card hand, out=)"]) / c[
            "legal_moves(20-card hand)"]
        add(f"mask <= {MASK_VS_CALL:g}x a legal_moves call", r <= MASK_VS_CALL, f"{r:.2f}x")
    bad = {s: v for s, v in results.get("reference_bad", {}).items() if v}
    add("ddz-fast == ddz_fast.reference on the checked deals (not a speed target)", not bad,
        "identical" if not bad else "DIFFERENT in " + ", ".join(f"{s} ({len(v)} deals)" for s, v in bad.items()))
    lines.extend(results.get("engine_targets", []))  # engine_compare.engine_section
    lines.extend(results.get("vec_targets", []))  # vec_compare.vec_section
    lines.extend(results.get("record_targets", []))  # vec_compare.record_section
    lines.extend(results.get("douzero_targets", []))  # douzero_compare.douzero_section
    lines.extend(results.get("wild_targets", []))  # wild_compare.wild_section
    for status, name, detail in lines:
        print(f"{status}  {name}: {detail}" + ("  " if out.md else ""))
    results["target_lines"] = lines
    return all(s != "FAIL" for s, _, _ in lines)


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=4096,
                    help="distinct deals for the engine comparison (default 4096: a branch "
                         "predictor learns a few hundred hands cycled over and over)")
    ap.add_argument("--batch-hands", type=int, default=4096, help="deals for the batch kernel (default 4096)")
    ap.add_argument("--scale-hands", type=int, default=2000, help="random hands per hand size (default 2000)")
    ap.add_argument("--games", type=int, default=20000,
                    help="games per play_random_games timing (default 20000)")
    ap.add_argument("--py-games", type=int, default=500,
                    help="games per Python-stepped playout timing (default 500)")
    ap.add_argument("--reference-hands", type=int, default=10,
                    help="deals also checked against ddz_fast.reference (default 10)")
    ap.add_argument("--seed", type=int, default=D.DEFAULT_SEED)
    ap.add_argument("--repeat", type=int, default=200,
                    help="timings per measured chunk, at most; the best counts (default 200)")
    ap.add_argument("--min-time", type=float, default=0.002,
                    help="seconds per timing, about (default 0.002: shorter than a time slice)")
    ap.add_argument("--budget", type=float, default=1.0,
                    help="seconds of timing per measured item, about (default 1.0)")
    ap.add_argument("--batch-chunk", type=int, default=1024,
                    help="hands per batch call (default 1024)")
    ap.add_argument("--chunk-games", type=int, default=25,
                    help="games per timed Python-loop chunk (x20 for play_random_games; default 25)")
    ap.add_argument("--engines", default="openspiel,douzero,rlcard",
                    help="other engines to compare (default: openspiel,douzero,rlcard)")
    ap.add_argument("--quick", action="store_true",
                    help="256 deals, 1024 batch deals, 100 hands per size, fewer timings (about a minute)")
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--strict", action="store_true", help="exit with status 1 when a target fails")
    ap.add_argument("--no-engine", action="store_true", help="skip the game-engine section (engine_compare.py)")
    ap.add_argument("--no-vec", action="store_true", help="skip the batched-game section (vec_compare.py)")
    ap.add_argument("--no-wild", action="store_true", help="skip the wild-card section (wild_compare.py)")
    ap.add_argument("--no-douzero-loop", action="store_true",
                    help="skip DouZero's actor loop, stock vs batched (douzero_compare.py)")
    ap.add_argument("--solver-anchors", metavar="DIR",
                    help="also run benchmarks/solver_compare.py (the endgame solver against the anchor "
                         "solvers, built from their checkouts in DIR)")
    ap.add_argument("--pimc-deals", type=int, default=0, metavar="N",
                    help="also run benchmarks/pimc_compare.py (the PIMC agent's win rates against the "
                         "simple bot and random players) on N deals per row (default 0: skip)")
    args = ap.parse_args(argv)
    if args.quick:
        args.hands, args.batch_hands, args.scale_hands, args.reference_hands = 256, 1024, 100, 4
        args.games, args.py_games, args.repeat, args.budget = 2000, 100, 40, 0.15

    out = Out(args.markdown)
    ours = E.DdzFast()
    if not ours.available():
        print(f"ddz_fast is not importable ({ours.error}); install it: pip install -e .", file=sys.stderr)
        return 2
    wanted = {w.strip().lower() for w in args.engines.split(",") if w.strip()}
    others = []
    missing = []
    for cls in E.OTHER_ENGINES:
        if cls.name.lower() not in wanted:
            continue
        e = cls()
        if e.available():
            others.append(e)
        else:
            hint = f"; {E.DOUZERO_HINT}" if cls is E.DouZero and "--no-deps" not in e.error else ""
            missing.append(f"{cls.name}: skipped ({e.error}{hint})")

    import ddz_fast
    commit = sh(["git", "rev-parse", "--short", "HEAD"])
    dirty = "+dirty" if sh(["git", "status", "--porcelain", "--", "../src"]) else ""
    out.heading("Setup")
    versions = [f"ddz-fast {ddz_fast.__version__}" + (f" ({commit}{dirty})" if commit else "")]
    versions += [f"{e.name} {e.version}" for e in others]
    out.note(f"{cpu_name()}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
             f"numpy {np.__version__}; " + ", ".join(versions) + ". "
             f"Timings of about {args.min_time * 1e3:g} ms, the best of up to {args.repeat} per chunk "
             f"(at most ~{args.budget:g} s per item); seed {args.seed}; "
             f"load average at start {os.getloadavg()[0]:.2f}.")
    for m in missing:
        out.note(m)

    t_start = time.perf_counter()
    n_all = max(args.hands, args.batch_hands, args.py_games)
    progress(f"building {n_all} deals")
    deals = D.make_deals(n_all, args.seed)
    rand, beat, solo = D.pick_prev_moves(deals, args.seed)
    cmp_deals = deals[:args.hands]
    prevs = {"resp-random": rand[:args.hands], "resp-beatable": beat[:args.hands],
             "resp-solo": solo[:args.hands]}

    results = {"calls": {}, "batch": {}, "flat_single": {}, "games": {}, "kernel": {}}
    engine_section(out, args, ours, others, cmp_deals, prevs, results)
    ids_section(out, args, ours, others, cmp_deals, prevs, results)
    kernel_section(out, args, ours, deals[:args.batch_hands], rand[:args.batch_hands], results)
    dle_section(out, args, ours, deals[:args.batch_hands], results)
    call_section(out, args, deals[:args.batch_hands], results)
    batch_section(out, args, ours, deals[:args.batch_hands], rand[:args.batch_hands], results)
    scaling_section(out, args, results)
    os_engine = next((e for e in others if e.name == "OpenSpiel"), None)
    games_section(out, args, os_engine, deals, results)
    agreement_section(out, args, ours, others, cmp_deals, prevs, results)
    accelerator_section(out, args, others, results)
    if not args.no_engine:
        import engine_compare
        engine_compare.engine_section(out, args, results)
    if not args.no_vec:
        import vec_compare
        vec_compare.vec_section(out, args, results)
        vec_compare.record_section(out, args, results)
    if not args.no_wild:
        import wild_compare
        wild_compare.wild_section(out, args, results)
    if not args.no_douzero_loop:
        import douzero_compare
        douzero_compare.douzero_section(out, args, results)
    ok = targets_section(out, results)
    if args.solver_anchors:
        import solver_compare

        out.heading("Endgame solver")
        ok = solver_compare.run(Path(args.solver_anchors), 300.0, args.markdown) and ok
    if args.pimc_deals > 0:
        import pimc_compare

        out.heading("PIMC agent: win rates")
        ok = pimc_compare.run(args.pimc_deals, args.seed, args.markdown) and ok
    progress(f"done in {time.perf_counter() - t_start:.0f} s")
    return 1 if (args.strict and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
