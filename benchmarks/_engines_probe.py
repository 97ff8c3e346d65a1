#!/usr/bin/env python3
"""Side-by-side probe of other Dou Dizhu move generators (research prototype).

Standalone: it does not import ddz_fast.  It only *calls* other engines through
their public modules; none of their code is copied here.  Each engine is
imported optionally; a missing one is reported and skipped.

Engines and what is timed
-------------------------
* OpenSpiel ``dou_dizhu`` (C++ via pyspiel): ``state.legal_actions()`` on a
  play-phase state reached by replaying a chosen deal (state building is not
  timed).
* DouZero (pure Python, ``douzero.env`` only -- no torch):
  ``GameEnv.get_legal_card_play_actions`` called unbound on a tiny stand-in
  object (it builds ``MovesGener``, generates, filters via
  ``move_selector``, adds bombs/rocket/pass and sorts each move).
* RLCard (pure Python + numpy): lead = ``DoudizhuJudger.playable_cards_from_hand``;
  response = ``rlcard.games.doudizhu.utils.get_gt_cards`` (what
  ``DoudizhuPlayer.available_actions`` calls when it must beat someone).

Our card representation: a length-15 count list, rank index 0..14 =
3 4 5 6 7 8 9 T J Q K A 2 B(small joker) R(big joker).

Deals: ``numpy.random.default_rng(seed).permutation(54)`` per deal, over card ids
0..53 with rank(id) = id % 13 for id < 52, 52 -> small joker, 53 -> big joker
(the OpenSpiel card-id convention).  Landlord = perm[0:17] + perm[51:54]
(20 cards, leads), farmer after the landlord = perm[17:34], other farmer =
perm[34:51].

Scenarios
---------
* lead: the landlord's 20-card hand leads.
* resp-random: the next farmer (17 cards) answers a move of the landlord,
  chosen by picking a kind uniformly among the simple kinds the landlord can
  play (solo, pair, trio, trio+solo, trio+pair, chain, pair chain, airplane,
  bomb), then a move of that kind uniformly.
* resp-beatable: the same, restricted to landlord moves the farmer can beat
  with a same-kind move (so the answer is not just pass + bombs).
* resp-solo: the next farmer answers the landlord's lowest single card.

Run:  python benchmarks/_engines_probe.py [--hands 200] [--seed 12345] [--quick]
"""
from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.util
import os
import random
import sys
import time
from types import SimpleNamespace

import numpy as np

RANKS = "3456789TJQKA2BR"
N_RANKS = 15

# --------------------------------------------------------------------------
# Deals in our representation
# --------------------------------------------------------------------------


def card_id_rank(card_id: int) -> int:
    """OpenSpiel card id (0..53) -> our rank index (0..14)."""
    if card_id >= 52:
        return card_id - 52 + 13
    return card_id % 13


def ids_to_counts(ids) -> list:
    c = [0] * N_RANKS
    for i in ids:
        c[card_id_rank(int(i))] += 1
    return c


def make_deals(n: int, seed: int = 12345):
    """n seeded deals: dicts with card ids and count vectors.

    Keys: ``perm`` (54 card ids), ``landlord`` / ``farmer1`` / ``farmer2``
    (count lists of 20 / 17 / 17 cards), ``bottom`` (3 landlord card ids).
    """
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(n):
        perm = [int(x) for x in rng.permutation(54)]
        deals.append({
            "perm": perm,
            "landlord": ids_to_counts(perm[0:17] + perm[51:54]),
            "farmer1": ids_to_counts(perm[17:34]),
            "farmer2": ids_to_counts(perm[34:51]),
            "bottom": perm[51:54],
        })
    return deals


def counts_to_text(counts) -> str:
    return "".join(RANKS[r] * int(c) for r, c in enumerate(counts))


# A tiny, engine-neutral enumerator of the *simple* kinds, used only to pick
# the "previous move" for the response scenario (not a full move generator).
def simple_moves_by_kind(h):
    out = {}
    rs = range(N_RANKS)

    def add(kind, mv):
        out.setdefault(kind, []).append(tuple(mv))

    for r in rs:
        if h[r] >= 1:
            add("solo", [1 if i == r else 0 for i in rs])
        if h[r] >= 2 and r < 13:
            add("pair", [2 if i == r else 0 for i in rs])
        if h[r] >= 3 and r < 13:
            add("trio", [3 if i == r else 0 for i in rs])
            for k in rs:
                if k != r and h[k] >= 1:
                    mv = [0] * N_RANKS
                    mv[r] = 3
                    mv[k] = 1
                    add("trio_solo", mv)
                if k != r and k < 13 and h[k] >= 2:
                    mv = [0] * N_RANKS
                    mv[r] = 3
                    mv[k] = 2
                    add("trio_pair", mv)
        if h[r] == 4 and r < 13:
            add("bomb", [4 if i == r else 0 for i in rs])
    for need, minlen, kind in ((1, 5, "chain"), (2, 3, "pair_chain"), (3, 2, "airplane")):
        for start in range(12):
            end = start
            while end < 12 and h[end] >= need:
                end += 1
                length = end - start
                if length >= minlen:
                    mv = [0] * N_RANKS
                    for i in range(start, end):
                        mv[i] = need
                    add(kind, mv)
    return out


def _simple_key(kind, mv):
    """(kind, length, rank) of a simple move from simple_moves_by_kind."""
    primal = {"solo": 1, "pair": 2, "trio": 3, "trio_solo": 3, "trio_pair": 3,
              "bomb": 4, "chain": 1, "pair_chain": 2, "airplane": 3}[kind]
    ranks = [r for r in range(N_RANKS) if mv[r] == primal]
    return kind, len(ranks), max(ranks)


def pick_prev_moves(deals, seed: int = 12345):
    """(kind, counts) of the landlord move farmer1 answers, for three scenarios.

    random:   kind uniform among the landlord's simple kinds, then a move of it.
    beatable: same, restricted to moves farmer1 can beat without a bomb/rocket
              (falls back to `random` when there is none).
    solo:     the landlord's lowest single card.
    """
    rng = random.Random(seed)
    rand, beat, solo = [], [], []
    for d in deals:
        h = d["landlord"]
        by_kind = simple_moves_by_kind(h)
        # OpenSpiel 2.0.2 cannot lead a chain / pair chain / airplane whose
        # lowest rank the leader holds 4 times (its search skips such heads),
        # so such moves are never picked: every engine replays the same trick.
        for k in ("chain", "pair_chain", "airplane"):
            if k in by_kind:
                by_kind[k] = [m for m in by_kind[k]
                              if h[min(r for r in range(N_RANKS) if m[r])] != 4]
                if not by_kind[k]:
                    del by_kind[k]
        kind = rng.choice(sorted(by_kind))
        rand.append((kind, list(rng.choice(by_kind[kind]))))
        f1 = simple_moves_by_kind(d["farmer1"])
        f1_keys = {_simple_key(k, m) for k, ms in f1.items() for m in ms}
        ok = {}
        for k, ms in by_kind.items():
            for m in ms:
                kk, ln, rk = _simple_key(k, m)
                if any(fk == kk and fl == ln and fr > rk for fk, fl, fr in f1_keys):
                    ok.setdefault(k, []).append(m)
        if ok:
            kind = rng.choice(sorted(ok))
            beat.append((kind, list(rng.choice(ok[kind]))))
        else:
            beat.append(rand[-1])
        low = min(r for r in range(N_RANKS) if d["landlord"][r])
        solo.append(("solo", [1 if i == low else 0 for i in range(N_RANKS)]))
    return rand, beat, solo


# --------------------------------------------------------------------------
# Timing helper
# --------------------------------------------------------------------------


def time_calls(calls, min_seconds: float = 0.5, repeat: int = 3):
    """calls: list of zero-arg callables (one per hand).

    Runs the whole list ``loops`` times (loops grown until one pass takes
    >= min_seconds), ``repeat`` times; returns (best us/call, mean result len).
    """
    sizes = [len(f()) for f in calls]  # also warms up
    loops = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(loops):
            for f in calls:
                f()
        dt = time.perf_counter() - t0
        if dt >= min_seconds or loops >= 1 << 20:
            break
        loops *= 2 if dt * 4 > min_seconds else 8
    best = dt
    for _ in range(repeat - 1):
        t0 = time.perf_counter()
        for _ in range(loops):
            for f in calls:
                f()
        best = min(best, time.perf_counter() - t0)
    return best / (loops * len(calls)) * 1e6, sum(sizes) / len(sizes)


# --------------------------------------------------------------------------
# OpenSpiel
# --------------------------------------------------------------------------
# Action ids, as in the open-spiel 2.0.2 wheel (checked with action_to_string;
# chance and player actions are separate id spaces):
#   chance 0..50    "Decide first card up position": the deal index whose
#                   receiver bids first
#   chance 51..104  "Deal <card>": card id = action - 51; the k-th deal action
#                   goes to player k % 3; the 3 ids never dealt are the
#                   landlord cards, added to the auction winner's hand
#   player 0 Pass, 1..3 Bid 1..3, 4.. play moves (num_distinct_actions() =
#                   26057; 4 = solo 3, 26056 = rocket).  No four-with-two kinds.
OS_DEAL_BASE = 51
OS_PASS = 0
OS_BID3 = 3
OS_PLAY_BASE = 4

try:
    import pyspiel  # type: ignore
    _OS_GAME = pyspiel.load_game("dou_dizhu")
except Exception as exc:  # pragma: no cover - optional engine
    pyspiel = None
    _OS_GAME = None
    _OS_ERR = repr(exc)


def openspiel_string_to_counts(s: str) -> list:
    """OpenSpiel play-action string -> counts ("333444-56", "(BWJ)(CJ)", "Pass")."""
    c = [0] * N_RANKS
    if s == "Pass":
        return c
    s = s.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")
    for ch in s:
        c[RANKS.index(ch)] += 1
    return c


def openspiel_state_for_deal(perm, landlord: int = 0):
    """Replay a deal to the start of play: `landlord` bids 3 and holds 20.

    perm[0:17] -> landlord, perm[17:34] -> landlord+1, perm[34:51] -> landlord+2,
    perm[51:54] -> the 3 landlord cards (left undealt).
    """
    st = _OS_GAME.new_initial_state()
    order = [None] * 51
    for j, p in enumerate(range(3)):
        seat = (landlord + p) % 3
        cards = perm[17 * j:17 * (j + 1)]
        for k, cid in enumerate(cards):
            order[3 * k + seat] = cid  # deal k-th round card to `seat`
    st.apply_action(landlord)  # face-up position == deal index `landlord` -> it bids first
    for cid in order:
        st.apply_action(OS_DEAL_BASE + cid)
    st.apply_action(OS_BID3)  # bid 3 ends the auction at once
    assert st.current_player() == landlord
    return st


def openspiel_action_for_counts(state, counts, allow_kickers: bool = False) -> int:
    """Play-action id of `state`'s current player whose cards are `counts`.

    Pure chains/airplanes are preferred over "airplane + kickers" readings of
    the same cards (e.g. 555666777888) unless allow_kickers.
    """
    p = state.current_player()
    target = list(counts)
    hits = []
    for a in state.legal_actions():
        s = state.action_to_string(p, a)
        if openspiel_string_to_counts(s) == target:
            hits.append((("-" in s) != allow_kickers, a))
    if not hits:
        raise ValueError(f"no OpenSpiel action for {counts_to_text(counts)}")
    return min(hits)[1]


def openspiel_lead_timer(deal):
    """Zero-arg callable: legal leads of the 20-card landlord (action ids)."""
    st = openspiel_state_for_deal(deal["perm"])
    return st.legal_actions


def openspiel_response_timer(deal, prev_counts):
    """Zero-arg callable: legal answers of farmer1 to the landlord's `prev_counts`."""
    st = openspiel_state_for_deal(deal["perm"])
    st.apply_action(openspiel_action_for_counts(st, prev_counts))
    assert st.current_player() == 1
    return st.legal_actions


def openspiel_moves_as_counts(state):
    p = state.current_player()
    return [tuple(openspiel_string_to_counts(state.action_to_string(p, a)))
            for a in state.legal_actions()]


def openspiel_random_playouts(n_games: int, seed: int = 1):
    """Python loop of random legal actions from a fresh state (deal+auction+play).

    Returns (full games/s, play-phase playouts/s, mean play plies,
    fraction of deals where all three passed).
    """
    rng = random.Random(seed)
    game = _OS_GAME
    t0 = time.perf_counter()
    all_pass = 0
    play_starts = []
    for _ in range(n_games):
        st = game.new_initial_state()
        saved = False
        while not st.is_terminal():
            if st.is_chance_node():
                acts = st.legal_actions()  # uniform outcomes
            else:
                acts = st.legal_actions()
                if not saved and acts[-1] >= OS_PLAY_BASE:
                    play_starts.append(st.clone())
                    saved = True
            st.apply_action(acts[rng.randrange(len(acts))])
        if not saved:
            all_pass += 1
    full_rate = n_games / (time.perf_counter() - t0)
    # play phase only: random playouts from the saved start-of-play states
    plies = 0
    t0 = time.perf_counter()
    for s0 in play_starts:
        st = s0.clone()
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])
            plies += 1
    dt = time.perf_counter() - t0
    # subtract clone cost
    t0 = time.perf_counter()
    for s0 in play_starts:
        s0.clone()
    dt -= time.perf_counter() - t0
    return (full_rate, len(play_starts) / dt, plies / max(1, len(play_starts)),
            all_pass / n_games)


# --------------------------------------------------------------------------
# DouZero (douzero.env only; never douzero.dmc / douzero.evaluation: torch)
# --------------------------------------------------------------------------
# Card encoding: list of ints, 3..14 for 3..A, 17 for 2, 20 small joker, 30 big joker.
DZ_RANK = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
_DZ_INDEX = {v: i for i, v in enumerate(DZ_RANK)}


def _load_douzero_game():
    """Return the douzero.env.game module without importing torch.

    In douzero 1.1.0 douzero/__init__.py is empty and douzero/env/__init__.py
    only imports env.py -> game.py (numpy only), so a plain import is
    torch-free; douzero.dmc.* and douzero.evaluation.deep_agent import torch.
    Fallback (or DDZ_PROBE_DZ_BYPATH=1): load utils, move_detector,
    move_selector, move_generator and game by file path under their real names,
    with empty stand-in packages for douzero and douzero.env, so that no
    __init__ runs (their absolute "from douzero.env.utils import *" then hits
    the stand-ins).
    """
    if not os.environ.get("DDZ_PROBE_DZ_BYPATH"):
        try:
            return importlib.import_module("douzero.env.game")
        except Exception:
            pass
    spec = importlib.util.find_spec("douzero")  # finds, does not execute
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("douzero is not installed")
    root = list(spec.submodule_search_locations)[0]
    env_dir = os.path.join(root, "env")
    for pkg, path in (("douzero", root), ("douzero.env", env_dir)):
        if pkg not in sys.modules:
            shell = importlib.util.module_from_spec(
                importlib.machinery.ModuleSpec(pkg, None, is_package=True))
            shell.__path__ = [path]
            sys.modules[pkg] = shell
    for name in ("utils", "move_detector", "move_selector", "move_generator", "game"):
        full = f"douzero.env.{name}"
        if full in sys.modules:
            continue
        s = importlib.util.spec_from_file_location(full, os.path.join(env_dir, f"{name}.py"))
        m = importlib.util.module_from_spec(s)
        sys.modules[full] = m
        s.loader.exec_module(m)
    return sys.modules["douzero.env.game"]


try:
    _dz_game = _load_douzero_game()
    _DZ_GameEnv = _dz_game.GameEnv
    _DZ_MovesGener = _dz_game.MovesGener
except Exception as exc:  # pragma: no cover
    _dz_game = None
    _DZ_ERR = repr(exc)


def counts_to_douzero(counts) -> list:
    return [DZ_RANK[r] for r in range(N_RANKS) for _ in range(int(counts[r]))]


def douzero_to_counts(cards) -> list:
    c = [0] * N_RANKS
    for v in cards:
        c[_DZ_INDEX[v]] += 1
    return c


def _douzero_stub(hand, seq):
    return SimpleNamespace(
        acting_player_position="landlord",
        info_sets={"landlord": SimpleNamespace(player_hand_cards=hand)},
        card_play_action_seq=seq)


def douzero_legal(hand_dz, prev_dz=None):
    """GameEnv.get_legal_card_play_actions on a stand-in: lead if prev is None.

    Returns a list of sorted int lists; [] in the list is "pass" (responses only).
    """
    seq = [] if not prev_dz else [list(prev_dz)]
    return _DZ_GameEnv.get_legal_card_play_actions(_douzero_stub(hand_dz, seq))


def douzero_lead(counts):
    """Zero-arg callable: DouZero's legal leads of `counts` (raw, with duplicates)."""
    hand = counts_to_douzero(counts)
    stub = _douzero_stub(hand, [])
    f = _DZ_GameEnv.get_legal_card_play_actions
    return lambda: f(stub)


def douzero_response(counts, prev_counts):
    hand = counts_to_douzero(counts)
    stub = _douzero_stub(hand, [counts_to_douzero(prev_counts)])
    f = _DZ_GameEnv.get_legal_card_play_actions
    return lambda: f(stub)


def douzero_gen_moves(counts):
    """Zero-arg callable: bare MovesGener(hand).gen_moves() (no sort, no rule filter)."""
    hand = counts_to_douzero(counts)
    return lambda: _DZ_MovesGener(hand).gen_moves()


# --------------------------------------------------------------------------
# RLCard
# --------------------------------------------------------------------------
# Card encoding: strings over "3456789TJQKA2BR" (B = black/small joker,
# R = red/big joker), sorted low -> high; moves are the same strings
# ("33344456" ...), "pass" is the pass action.  Hands inside the game are
# lists of rlcard.games.base.Card(suit, rank); jokers are Card('BJ','') / Card('RJ','').
try:
    from rlcard.games.doudizhu.judger import DoudizhuJudger as _RL_Judger  # type: ignore
    from rlcard.games.doudizhu import utils as _rl_utils  # type: ignore
    from rlcard.games.base import Card as _RL_Card  # type: ignore
except Exception as exc:  # pragma: no cover
    _RL_Judger = None
    _RL_ERR = repr(exc)

_RL_SUITS = "SHDC"


def counts_to_rlcard_str(counts) -> str:
    return "".join(RANKS[r] * int(counts[r]) for r in range(N_RANKS))


def rlcard_str_to_counts(s: str) -> list:
    c = [0] * N_RANKS
    if s == "pass":
        return c
    for ch in s:
        c[RANKS.index(ch)] += 1
    return c


def counts_to_rlcard_cards(counts) -> list:
    """List of rlcard Card objects in rank order (as a player's current_hand)."""
    cards = []
    for r in range(13):
        for k in range(int(counts[r])):
            cards.append(_RL_Card(_RL_SUITS[k], RANKS[r]))
    if counts[13]:
        cards.append(_RL_Card("BJ", ""))
    if counts[14]:
        cards.append(_RL_Card("RJ", ""))
    return cards


def rlcard_lead(counts):
    """Zero-arg callable: DoudizhuJudger.playable_cards_from_hand(str) -> set of str."""
    s = counts_to_rlcard_str(counts)
    f = _RL_Judger.playable_cards_from_hand
    return lambda: f(s)


def rlcard_response(counts, prev_counts):
    """Zero-arg callable: utils.get_gt_cards(player, greater_player) -> list of str incl. 'pass'."""
    player = SimpleNamespace(current_hand=counts_to_rlcard_cards(counts))
    greater = SimpleNamespace(played_cards=counts_to_rlcard_str(prev_counts))
    f = _rl_utils.get_gt_cards
    return lambda: f(player, greater)


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def _engines():
    eng = {}
    if _OS_GAME is not None:
        eng["openspiel"] = (
            lambda d: openspiel_lead_timer(d),
            lambda d, prev: openspiel_response_timer(d, prev))
    else:
        print(f"[skip] OpenSpiel: {_OS_ERR}")
    if _dz_game is not None:
        eng["douzero"] = (
            lambda d: douzero_lead(d["landlord"]),
            lambda d, prev: douzero_response(d["farmer1"], prev))
    else:
        print(f"[skip] DouZero: {_DZ_ERR}")
    if _RL_Judger is not None:
        eng["rlcard"] = (
            lambda d: rlcard_lead(d["landlord"]),
            lambda d, prev: rlcard_response(d["farmer1"], prev))
    else:
        print(f"[skip] RLCard: {_RL_ERR}")
    return eng


def moves_as_count_set(engine, call):
    """Distinct card-count vectors (pass excluded) that one adapter call returns."""
    res = call()
    if engine == "openspiel":
        st = call.__self__  # the bound state.legal_actions
        p = st.current_player()
        return {tuple(openspiel_string_to_counts(st.action_to_string(p, a))) for a in res if a != OS_PASS}
    if engine == "douzero":
        return {tuple(douzero_to_counts(m)) for m in res if m}
    return {tuple(rlcard_str_to_counts(m)) for m in res if m != "pass"}


def compare_sets(per_engine, names, out=print, n_examples=6):
    """per_engine: {engine: [set per hand]}; prints pairwise differences."""
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            same = sum(x == y for x, y in zip(per_engine[a], per_engine[b]))
            ab = [m for x, y in zip(per_engine[a], per_engine[b]) for m in x - y]
            ba = [m for x, y in zip(per_engine[a], per_engine[b]) for m in y - x]
            line = f"  {a} vs {b}: identical on {same}/{len(per_engine[a])} hands"
            if ab:
                line += f"; only {a}: {len(ab)} e.g. " + " ".join(counts_to_text(m) for m in ab[:n_examples])
            if ba:
                line += f"; only {b}: {len(ba)} e.g. " + " ".join(counts_to_text(m) for m in ba[:n_examples])
            out(line)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--min-seconds", type=float, default=0.5)
    ap.add_argument("--playouts", type=int, default=2000)
    ap.add_argument("--quick", action="store_true", help="40 hands, short timings")
    args = ap.parse_args(argv)
    if args.quick:
        args.hands, args.min_seconds, args.playouts = 40, 0.1, 200

    deals = make_deals(args.hands, args.seed)
    rand, beat, solo = pick_prev_moves(deals, args.seed)
    eng = _engines()
    print(f"{args.hands} deals, seed {args.seed}; lead = 20-card landlord, "
          f"responses = 17-card farmer answering the landlord\n")
    hdr = f"{'engine':<10} {'scenario':<13} {'us/call':>10} {'moves/call':>11} {'distinct':>9}"
    print(hdr)
    print("-" * len(hdr))
    scenarios = (("lead", None), ("resp-random", rand), ("resp-beatable", beat), ("resp-solo", solo))
    sets = {scen: {} for scen, _ in scenarios}
    for name, (lead_f, resp_f) in eng.items():
        for scen, prevs in scenarios:
            if prevs is None:
                calls = [lead_f(d) for d in deals]
            else:
                calls = [resp_f(d, p[1]) for d, p in zip(deals, prevs)]
            us, avg = time_calls(calls, args.min_seconds)
            sets[scen][name] = [moves_as_count_set(name, f) for f in calls]
            dist = sum(map(len, sets[scen][name])) / len(calls)
            print(f"{name:<10} {scen:<13} {us:>10.2f} {avg:>11.1f} {dist:>9.1f}")
        if name == "douzero":
            us, avg = time_calls([douzero_gen_moves(d["landlord"]) for d in deals], args.min_seconds)
            print(f"{name:<10} {'gen_moves':<13} {us:>10.2f} {avg:>11.1f} {'':>9}")
    print("\nmoves/call = length of the engine's answer (incl. pass, duplicates); "
          "distinct = distinct card sets, pass excluded")
    if len(eng) > 1:
        print("\nMove sets compared as card-count sets:")
        for scen, _ in scenarios:
            print(f" {scen}:")
            compare_sets(sets[scen], list(eng))
    if _OS_GAME is not None:
        full, play, plies, allpass = openspiel_random_playouts(args.playouts)
        print(f"\nOpenSpiel random playouts ({args.playouts} games, Python loop): "
              f"{full:.0f} full games/s (deal+auction+play; {allpass:.1%} all-pass deals), "
              f"{play:.0f} play-phase playouts/s ({plies:.1f} plies/game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
