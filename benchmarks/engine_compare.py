#!/usr/bin/env python3
"""The compiled game engine (``ddz_fast.Game``) against its targets, a Python
loop over itself and OpenSpiel, on thousands of distinct mid-game positions.

Measured in one process, in one run, the engines interleaved in every round
(``compare.best_times``), on ``deals.mid_game_positions``: one position per
seeded deal, 6..30 random moves into the play phase, the same cards played
in ddz-fast and in OpenSpiel's ``dou_dizhu`` (when pyspiel is importable).

* per call: ``clone`` (against OpenSpiel's ``state.clone()``), ``copy.copy``,
  a pickle round trip, ``from_position`` (uint8 array hands and text hands),
  ``step`` + ``undo`` (against OpenSpiel's ``clone()`` + ``apply_action``: it
  has no undo), ``legal_actions`` on a fresh state, ``unseen``,
  ``sample_worlds``;
* per rollout (uniformly random legal actions to the end): a Python loop
  over ``Game`` (``clone``, ``legal_actions``, ``step(acts[rng.below(n)])``:
  it replays exactly the compiled rollout's games), the same loop over
  pyspiel (``clone``, ``legal_actions``, ``apply_action``), and the compiled
  ``Game.rollout`` (random and bot policies, 1 and 2 threads);
* the issue-12 targets, PASS/FAIL.

Run it on its own or as a section of compare.py (``engine_section``):

    python benchmarks/engine_compare.py [--quick] [--markdown] [--strict]
"""
from __future__ import annotations

import argparse
import copy
import os
import pickle
import platform
import sys
import time
from functools import partial

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare as C  # noqa: E402  (Out, timing and formatting helpers)
import deals as D  # noqa: E402
import engines as E  # noqa: E402

# ---------------------------------------------------------------------------
# Targets (issue 12)
# ---------------------------------------------------------------------------
CLONE_US = 0.3              # Game.clone, per call
FROM_POSITION_US = 2.0      # Game.from_position (uint8 array hands), per call
ROLLOUT_VS_LOOP = 50.0      # Game.rollout against the Python-loop rollout, per rollout
WORLDS_PER_S = 1e6          # Game.sample_worlds

ROLLOUTS_PER_CALL = 16      # Game.rollout(n) rows: n per position
WORLDS_PER_CALL = 256       # Game.sample_worlds(player, n): n per position
LEGAL_CHUNK = 256           # positions per self-timed chunk of fresh legal_actions


# ---------------------------------------------------------------------------
# The timed calls (shared with test_bench_engine.py)
# ---------------------------------------------------------------------------

def python_rollout(game, seed):
    """One random rollout of ``game`` in a Python loop; plays exactly the
    game ``game.rollout(1, seed=seed)`` plays.  Returns the deal's plies."""
    from ddz_fast._util.rng import SplitMix64, game_seed, policy_seed
    g = game.clone()
    rng = SplitMix64(policy_seed(game_seed(seed, 0)))
    while not g.is_over:
        acts = g.legal_actions()
        g.step(acts[rng.below(len(acts))])
    return g.plies


def rollout_plies(game, seed):
    """The positions python_rollout(game, seed) generates moves for: (hands
    of the player to move, the move to beat or None), one per ply."""
    from ddz_fast._util.rng import SplitMix64, game_seed, policy_seed
    g = game.clone()
    rng = SplitMix64(policy_seed(game_seed(seed, 0)))
    out = []
    while not g.is_over:
        out.append((g.hands[g.to_move].copy(), g.last_move))
        acts = g.legal_actions()
        g.step(acts[rng.below(len(acts))])
    return out


def generation_chunk(games):
    """Self-timed: the move kernel alone (from C, one reused buffer:
    ddz_fast._core.testing.time_kernel) on every ply of the Python-loop
    rollouts of ``games`` (the games of Game.rollout(1)), and the
    closed-form counter on the same plies; returns the two callables (one
    pass, seconds) and the number of plies."""
    from ddz_fast._core.testing import time_kernel
    plies = [p for i, g in enumerate(games) for p in rollout_plies(g, i)]
    hands = np.array([h for h, _ in plies], dtype=np.uint8)
    rows = np.zeros((len(plies), 16), dtype=np.uint8)       # PASS rows (kind 0): a lead
    answers = [i for i, (_, m) in enumerate(plies) if m is not None]
    rows[answers] = D.lasts_as_rows([plies[i][1] for i in answers])
    return ((lambda: time_kernel(hands, rows, repeat=1)[0]),
            (lambda: time_kernel(hands, rows, repeat=1, count=True)[0]), len(plies))


def openspiel_rollout(state, seed):
    """One random rollout of a pyspiel state in a Python loop (clone, then
    ``legal_actions`` / ``apply_action`` with the same generator as
    python_rollout).  Returns the plies it made."""
    from ddz_fast._util.rng import SplitMix64
    st = state.clone()
    rng = SplitMix64(seed)
    plies = 0
    while not st.is_terminal():
        acts = st.legal_actions()
        st.apply_action(acts[rng.below(len(acts))])
        plies += 1
    return plies


def step_undo(game, move):
    game.step(move)
    game.undo()


def openspiel_clone_apply(state, action):
    state.clone().apply_action(action)


def pickle_round_trip(game):
    return pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))


def position_args(game, text=False):
    """(args, kwargs) rebuilding ``game`` with Game.from_position: hands as
    one (players, 15) uint8 array, or as card text per seat."""
    import ddz_fast
    hands = game.hands
    if text:
        hands = [ddz_fast.format_cards(h) for h in hands]
    return (hands, game.landlord), dict(to_move=game.to_move, last=game.last_move,
                                        last_player=game.last_player, bombs=game.bombs)


def a_move(game, i):
    """A legal move of the position (seeded by its index), for step + undo."""
    acts = game.legal_actions()
    return acts[(i * 7919) % len(acts)]


def unseen_to_move(game):
    return game.unseen(game.to_move)


def fresh_legal_chunk(games, moves):
    """Self-timed: legal_actions() on fresh copies of ``games`` (a clone
    shares its original's cached list; step + undo drops it), made before
    the clock starts.  Returns seconds."""
    def run():
        fresh = []
        for g, m in zip(games, moves):
            c = g.clone()
            c.step(m)
            c.undo()
            fresh.append(c)
        calls = [c.legal_actions for c in fresh]
        t0 = time.perf_counter()
        for f in calls:
            f()
        return time.perf_counter() - t0
    return run


def fresh_os_legal_chunk(states):
    def run():
        calls = [s.clone().legal_actions for s in states]
        t0 = time.perf_counter()
        for f in calls:
            f()
        return time.perf_counter() - t0
    return run


# ---------------------------------------------------------------------------
# The section
# ---------------------------------------------------------------------------

def _n_positions(args):
    n = getattr(args, "positions", None)
    return n if n else (600 if getattr(args, "quick", False) else D.N_POSITIONS)


def engine_section(out, args, results):
    """Time the engine on mid-game positions, print the tables and the
    targets, and store the target lines in ``results["engine_targets"]``
    (``(status, name, detail)``, as compare.targets_section's lines)."""
    import ddz_fast
    Game = ddz_fast.Game
    n = _n_positions(args)
    rpc = getattr(args, "rollouts_per_call", None) or ROLLOUTS_PER_CALL
    wpc = getattr(args, "worlds_per_call", None) or WORLDS_PER_CALL
    os_engine = E.OpenSpiel()
    have_os = os_engine.available()
    C.progress(f"building {n} mid-game positions" + (" (ddz-fast and OpenSpiel)" if have_os else ""))
    pos = D.mid_game_positions(n, args.seed, os_engine if have_os else None)
    games = [p.game for p in pos]
    states = [p.os_state for p in pos] if have_os else []
    moves = [a_move(g, i) for i, g in enumerate(games)]
    arr_args = [position_args(g) for g in games]
    txt_args = [position_args(g, text=True) for g in games]
    worlds = [partial(g.sample_worlds, g.to_move, wpc, seed=i) for i, g in enumerate(games)]

    out.heading(f"Game engine: {n} mid-game positions, seed {args.seed}")
    calls = {
        "clone": [g.clone for g in games],
        "copy.copy": [partial(copy.copy, g) for g in games],
        "pickle round trip": [partial(pickle_round_trip, g) for g in games],
        "from_position (uint8 array)": [partial(Game.from_position, *a, **k) for a, k in arr_args],
        "from_position (text)": [partial(Game.from_position, *a, **k) for a, k in txt_args],
        "step + undo": [partial(step_undo, g, m) for g, m in zip(games, moves)],
        "unseen": [partial(unseen_to_move, g) for g in games],
        f"sample_worlds({wpc})": worlds,
        "python loop": [partial(python_rollout, g, i) for i, g in enumerate(games)],
        "rollout(1)": [partial(g.rollout, 1, seed=i) for i, g in enumerate(games)],
    }
    for policy in ("random", "bot"):
        for threads in (1, 2):
            calls[f"rollout({rpc}) {policy} t{threads}"] = [
                partial(g.rollout, rpc, policy=policy, seed=i, threads=threads)
                for i, g in enumerate(games)]
    if have_os:
        calls["os clone"] = [s.clone for s in states]
        calls["os clone + apply_action"] = [
            partial(openspiel_clone_apply, s, s.legal_actions()[(i * 7919) % len(s.legal_actions())])
            for i, s in enumerate(states)]
        calls["os python loop"] = [partial(openspiel_rollout, s, i) for i, s in enumerate(states)]

    # What one call of each does, checked before anything is timed.
    plies_py = np.array([f() for f in calls["python loop"]]) - [g.plies for g in games]
    plies_c1 = np.array([f().plies[0] for f in calls["rollout(1)"]]) - [g.plies for g in games]
    assert (plies_py == plies_c1).all(), "the Python loop and rollout(1) played different games"
    plies_cn = float(np.mean([f().plies.mean() - g.plies
                              for f, g in zip(calls[f"rollout({rpc}) random t1"], games)]))
    plies_bot = float(np.mean([f().plies.mean() - g.plies
                               for f, g in zip(calls[f"rollout({rpc}) bot t1"], games)]))
    plies_os = float(np.mean([f() for f in calls["os python loop"]])) if have_os else float("nan")
    assert all(w().shape == (wpc, 3, 15) for w in worlds[:50])

    C.progress(f"timing the engine ({len(calls)} items, interleaved)")
    best = C.best_times(calls, args)
    chunks = {"legal_actions (fresh)": [fresh_legal_chunk(games[k:k + LEGAL_CHUNK], moves[k:k + LEGAL_CHUNK])
                                        for k in range(0, n, LEGAL_CHUNK)]}
    if have_os:
        chunks["os legal_actions (fresh)"] = [fresh_os_legal_chunk(states[k:k + LEGAL_CHUNK])
                                              for k in range(0, n, LEGAL_CHUNK)]
    gen, count, gen_plies = zip(*[generation_chunk(games[k:k + LEGAL_CHUNK]) for k in range(0, n, LEGAL_CHUNK)])
    chunks["move generation"], chunks["move count"] = list(gen), list(count)
    legal = {k: v / n for k, v in C.best_self_timed(chunks, args).items()}
    best.update(legal)
    gen_ply = best.pop("move generation") * n / sum(gen_plies)    # seconds a ply
    count_ply = best.pop("move count") * n / sum(gen_plies)

    def os_cell(key):
        return (C.fmt_us(best[key]), C.fmt_ratio(best[key] / ours)) if key in best else ("-", "-")

    rows = []
    for name, os_key, os_name in (
            ("clone", "os clone", "clone()"),
            ("copy.copy", None, ""),
            ("pickle round trip", None, ""),
            ("from_position (uint8 array)", None, ""),
            ("from_position (text)", None, ""),
            ("step + undo", "os clone + apply_action", "clone() + apply_action (no undo)"),
            ("legal_actions (fresh)", "os legal_actions (fresh)", "legal_actions()"),
            ("unseen", None, ""),
            (f"sample_worlds({wpc})", None, "")):
        ours = best[name]
        c_os, ratio = os_cell(os_key) if os_key else ("-", "-")
        rows.append([name, C.fmt_us(ours), os_name or "-", c_os, ratio])
    out.table(["operation", "ddz-fast us/call", "OpenSpiel", "OpenSpiel us/call", "ddz-fast speed-up"],
              rows, right={1, 3, 4})

    loop = best["python loop"]
    loop_ply = loop / float(plies_py.mean())       # seconds a ply (every ratio below is per ply)
    os_loop = best.get("os python loop")
    os_ply = os_loop / plies_os if os_loop else None
    rrows = []

    def rrow(label, per_rollout, plies, comparable=True):
        ply = per_rollout / plies if per_rollout is not None else None
        vs_loop = C.fmt_ratio(loop_ply / ply) if comparable else "-"
        vs_os = C.fmt_ratio(os_ply / ply) if os_ply and comparable else "-"
        rrows.append([label, C.fmt_us(per_rollout) if per_rollout else "-", f"{plies:.1f}",
                      f"{ply * 1e9:,.1f}", f"{1 / per_rollout:,.0f}" if per_rollout else "-", vs_loop, vs_os])

    if os_loop:
        rrow("OpenSpiel: Python loop (clone, legal_actions, apply_action)", os_loop, plies_os)
    rrow("ddz-fast: Python loop (clone, legal_actions, step)", loop, float(plies_py.mean()))
    rrow("ddz-fast: Game.rollout(1), random", best["rollout(1)"], float(plies_c1.mean()))
    per = {}
    for policy in ("random", "bot"):
        for threads in (1, 2):
            key = f"rollout({rpc}) {policy} t{threads}"
            per[key] = best[key] / rpc
            rrow(f"ddz-fast: Game.rollout({rpc}), {policy}, threads={threads}", per[key],
                 plies_cn if policy == "random" else plies_bot, comparable=policy == "random")
    for label, t in (("the move kernel alone, from C, on the plies of the Python loop's games", gen_ply),
                     ("the closed-form move counter alone, the same plies", count_ply)):
        rrows.append([label, "-", f"{float(plies_py.mean()):.1f}", f"{t * 1e9:,.1f}", "-", "-", "-"])
    out.table(["rollout", "us/rollout", "plies/rollout", "ns/ply", "rollouts/s", "vs ddz-fast Python loop",
               "vs OpenSpiel Python loop"], rrows, right={1, 2, 3, 4, 5, 6})
    out.note("Positions: one per seeded deal, 6..30 uniformly random moves into the play phase "
             "(never emptying a hand); with OpenSpiel the moves are drawn from its legal actions and "
             "the same cards are played in both engines. Every call is timed on every position in "
             "turn. Python loops: uniformly random legal actions, SplitMix64.below for both engines; "
             "the ddz-fast loop plays exactly the games of Game.rollout(1) (checked); Game.rollout(n) "
             "plays n other games from each position, so the ratios are per ply. "
             "plies/rollout: plies from the position to the end. OpenSpiel's legal actions differ "
             "(no four-with-two kinds, its own kicker lists), so its games differ. The bot policy "
             f"is not the random policy: its rows are not compared. A call runs at least 16 games a "
             f"thread, so rollout({rpc}) with threads=2 runs {'one part' if rpc < 32 else 'two parts'}. "
             "The last two rows are floors, on the "
             "plies of the Python loop's games (hands and moves to beat collected beforehand): the kernel "
             "writing every legal move (what Game.rollout and the loop do at each ply), and the "
             "closed-form counter (the least a uniform draw among the legal moves needs, before the "
             "draw, the chosen move and the play).")
    out.note("The machine is shared and loaded: absolute times are not meaningful; the ratios, "
             "measured in the same run with the items interleaved, are.")

    lines = []

    def add(name, ok, detail):
        lines.append(("PASS" if ok else "FAIL", name, detail))

    t = best["clone"]   # seconds per call, as every entry of best
    add(f"clone <= {CLONE_US:g} us", t * 1e6 <= CLONE_US,
        f"{C.fmt_us(t)} us per call" + (f" ({C.fmt_ratio(best['os clone'] / t)} OpenSpiel's clone())"
                                        if have_os else ""))
    t = best["from_position (uint8 array)"]
    add(f"from_position <= {FROM_POSITION_US:g} us", t * 1e6 <= FROM_POSITION_US,
        f"{C.fmt_us(t)} us per call, uint8 array hands (text hands {C.fmt_us(best['from_position (text)'])} us)")
    ply = per[f"rollout({rpc}) random t1"] / plies_cn
    r = loop_ply / ply
    add(f"Game.rollout >= {ROLLOUT_VS_LOOP:g}x the Python-loop rollout", r >= ROLLOUT_VS_LOOP,
        f"{C.fmt_ratio(r)} per ply (rollout({rpc}), random, threads=1: {ply * 1e9:.1f} ns a ply against the "
        f"loop's {loop_ply * 1e9:.0f}; rollout(1), the loop's own games: "
        f"{C.fmt_ratio(loop / best['rollout(1)'])}); {ROLLOUT_VS_LOOP:g}x would need "
        f"{loop_ply / ROLLOUT_VS_LOOP * 1e9:.1f} ns a ply, below the move generation alone "
        f"({gen_ply * 1e9:.1f} ns a ply on the same plies; counting alone {count_ply * 1e9:.1f}): the "
        f"loop calls the same compiled generator and step, so the ratio is bounded by the "
        f"interpreter's share of the loop")
    rate = wpc / best[f"sample_worlds({wpc})"]
    add(f"sample_worlds >= {WORLDS_PER_S / 1e6:g}M worlds/s", rate >= WORLDS_PER_S,
        f"{rate / 1e6:,.2f}M worlds/s = {rate / WORLDS_PER_S:.2f}x the target "
        f"(sample_worlds(player, {wpc}), one thread)")
    results["engine"] = best
    results["engine_targets"] = lines
    return lines


# ---------------------------------------------------------------------------
# Standalone
# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=None,
                    help=f"mid-game positions (default {D.N_POSITIONS}; 600 with --quick)")
    ap.add_argument("--rollouts-per-call", type=int, default=ROLLOUTS_PER_CALL,
                    help=f"n of the Game.rollout(n) rows (default {ROLLOUTS_PER_CALL})")
    ap.add_argument("--worlds-per-call", type=int, default=WORLDS_PER_CALL,
                    help=f"n of sample_worlds(player, n) (default {WORLDS_PER_CALL})")
    ap.add_argument("--seed", type=int, default=D.DEFAULT_SEED)
    ap.add_argument("--repeat", type=int, default=200, help="timings per chunk, at most (default 200)")
    ap.add_argument("--min-time", type=float, default=0.002, help="seconds per timing (default 0.002)")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds of timing per item (default 1.0)")
    ap.add_argument("--quick", action="store_true", help="600 positions, fewer timings")
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--strict", action="store_true", help="exit with status 1 when a target fails")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeat, args.budget = 40, 0.15
    out = C.Out(args.markdown)
    import ddz_fast
    os_engine = E.OpenSpiel()
    out.heading("Setup")
    out.note(f"{C.cpu_name()}, {os.cpu_count()} CPUs; Python {platform.python_version()}, numpy "
             f"{np.__version__}; ddz-fast {ddz_fast.__version__}"
             + (f", OpenSpiel {os_engine.version}" if os_engine.available()
                else f"; OpenSpiel skipped ({os_engine.error})")
             + f". Seed {args.seed}; load average at start {os.getloadavg()[0]:.2f}.")
    t0 = time.perf_counter()
    lines = engine_section(out, args, {})
    out.heading("Targets")
    for status, name, detail in lines:
        print(f"{status}  {name}: {detail}" + ("  " if out.md else ""))
    C.progress(f"done in {time.perf_counter() - t0:.0f} s")
    return 1 if args.strict and any(s == "FAIL" for s, _, _ in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
