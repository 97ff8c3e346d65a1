"""Adapters that time ddz-fast and other Dou Dizhu move generators on the same
deals (used by compare.py).

Every other engine is optional: it is imported on first use, and a missing
one is reported (``Engine.error``) and skipped.  Only their public modules are
called; none of their code is copied here.

What is timed, per engine (one zero-argument callable per hand, built outside
the timed code, each as cheap to call as the engine allows):

* ddz-fast: ``ddz_fast.legal_moves(hand)`` / ``legal_moves(hand, last)`` with
  the hand a (15,) uint8 array (the fast path) -> ``MoveList``.
* OpenSpiel ``dou_dizhu`` (C++ via pyspiel, open-spiel 2.0.2):
  ``state.legal_actions()`` on a play-phase state reached by replaying the
  deal (and, for responses, the landlord's move) -> list of action ids.
* DouZero (pure Python; ``douzero.env`` only, never torch):
  ``GameEnv.get_legal_card_play_actions`` called unbound on a small stand-in
  object (it builds ``MovesGener``, generates, filters with
  ``move_selector``, adds bombs / rocket / pass) -> list of card lists.
* RLCard (rlcard 1.2.0, pure Python): lead =
  ``DoudizhuJudger.playable_cards_from_hand`` -> set of str; response =
  ``rlcard.games.doudizhu.utils.get_gt_cards`` (what
  ``DoudizhuPlayer.available_actions`` calls when it must beat a move).

Deals come from deals.make_deals (OpenSpiel card ids), so every engine sees
exactly the same cards.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import random
import sys
import time
from functools import partial
from types import SimpleNamespace

from deals import N_RANKS, RANKS, as_u8, counts_to_text

DOUZERO_HINT = ("install it with `pip install --no-deps douzero` (its declared "
                "dependencies are torch and rlcard; only the torch-free douzero.env is used)")


def _version(dist: str):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


class Engine:
    """One move generator.  Subclasses fill in _load / lead_call /
    response_call / move_set."""

    name = "?"
    dist = None          # distribution name, for the version
    returns = "?"        # what one call returns (the single-call tables' column)

    def returned(self, scenario: str) -> str:
        """What a call of the scenario ("lead", "resp-...") returns."""
        return self.returns

    def __init__(self):
        self._loaded = False
        self.error = None

    @property
    def version(self):
        return _version(self.dist) if self.dist else None

    def available(self) -> bool:
        if not self._loaded:
            self._loaded = True
            try:
                self._load()
            except Exception as exc:  # a missing or broken optional engine
                self.error = f"{type(exc).__name__}: {exc}"
        return self.error is None

    def _load(self):
        raise NotImplementedError

    def lead_call(self, deal):
        """Zero-arg callable: every lead of the deal's 20-card landlord."""
        raise NotImplementedError

    def response_call(self, deal, prev):
        """Zero-arg callable: every answer of farmer1 (17 cards) to the
        landlord's move prev = (kind name, counts) (see deals.pick_prev_moves)."""
        raise NotImplementedError

    def move_set(self, call):
        """The distinct card-count tuples (PASS left out) one call returns."""
        raise NotImplementedError


# ---------------------------------------------------------------------------
# ddz-fast
# ---------------------------------------------------------------------------

_OUR_KIND = {"solo": "SOLO", "pair": "PAIR", "trio": "TRIO", "trio_solo": "TRIO_SOLO",
             "trio_pair": "TRIO_PAIR", "bomb": "BOMB", "chain": "CHAIN",
             "pair_chain": "PAIR_CHAIN", "airplane": "AIRPLANE"}


class DdzFast(Engine):
    name = "ddz-fast"
    dist = "ddz-fast"
    returns = "MoveList (rows; Moves made when read)"

    def _load(self):
        import ddz_fast
        self.mod = ddz_fast

    def move_for(self, prev):
        kind, counts = prev
        return self.mod.parse_move(counts_to_text(counts), _OUR_KIND[kind])

    def lead_call(self, deal, rules="standard"):
        # positional arguments only for the default rules: the call a program makes
        if rules == "standard":
            return partial(self.mod.legal_moves, as_u8(deal["landlord"]))
        return partial(self.mod.legal_moves, as_u8(deal["landlord"]), rules=rules)

    def response_call(self, deal, prev, rules="standard"):
        if rules == "standard":
            return partial(self.mod.legal_moves, as_u8(deal["farmer1"]), self.move_for(prev))
        return partial(self.mod.legal_moves, as_u8(deal["farmer1"]), self.move_for(prev),
                       rules=rules)

    def move_set(self, call):
        return {tuple(m.counts) for m in call() if m.kind != 0}

    def kinds_of(self, call):
        """card tuple -> kind names, for the moves of one call."""
        out = {}
        for m in call():
            out.setdefault(tuple(m.counts), []).append(m.kind.name)
        return out


# ---------------------------------------------------------------------------
# OpenSpiel
# ---------------------------------------------------------------------------
# Action ids in the open-spiel 2.0.2 wheel (checked with action_to_string;
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


def openspiel_string_to_counts(s: str) -> list:
    """OpenSpiel play-action string -> counts ("333444-56", "(BWJ)(CJ)", "Pass")."""
    if s == "Pass":
        return [0] * N_RANKS
    from ddz_fast.convert import rlcard_to_counts  # imported on use, like every engine
    return rlcard_to_counts(s.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")).tolist()


class OpenSpiel(Engine):
    name = "OpenSpiel"
    dist = "open-spiel"
    returns = "list of int action ids"

    def _load(self):
        import pyspiel
        self.game = pyspiel.load_game("dou_dizhu")

    def state_for_deal(self, perm, landlord: int = 0):
        """Replay a deal to the start of play: `landlord` bids 3 and holds 20.

        perm[0:17] -> landlord, perm[17:34] -> landlord+1, perm[34:51] ->
        landlord+2, perm[51:54] -> the 3 landlord cards (left undealt).
        """
        st = self.game.new_initial_state()
        order = [None] * 51
        for j in range(3):
            seat = (landlord + j) % 3
            for k, cid in enumerate(perm[17 * j:17 * (j + 1)]):
                order[3 * k + seat] = cid  # the k-th round card goes to `seat`
        st.apply_action(landlord)  # face-up position = deal index `landlord`: it bids first
        for cid in order:
            st.apply_action(OS_DEAL_BASE + cid)
        st.apply_action(OS_BID3)  # a bid of 3 ends the auction at once
        assert st.current_player() == landlord
        return st

    def action_for_counts(self, state, counts, allow_kickers: bool = False) -> int:
        """Play-action id of the current player whose cards are `counts`
        (pure chains / airplanes preferred over kicker readings)."""
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

    def lead_call(self, deal):
        return self.state_for_deal(deal["perm"]).legal_actions

    def response_call(self, deal, prev):
        st = self.state_for_deal(deal["perm"])
        st.apply_action(self.action_for_counts(st, prev[1]))
        assert st.current_player() == 1
        return st.legal_actions

    def move_set(self, call):
        st = call.__self__  # the bound state.legal_actions
        p = st.current_player()
        return {tuple(openspiel_string_to_counts(st.action_to_string(p, a)))
                for a in call() if a != OS_PASS}

    # --- Python-stepped random playouts -----------------------------------
    def full_games(self, n_games: int, seed: int = 1):
        """n random games from a fresh state (deal + auction + play), one
        Python step per action.  Returns (seconds, plies of play)."""
        rng = random.Random(seed)
        plies = 0
        t0 = time.perf_counter()
        for _ in range(n_games):
            st = self.game.new_initial_state()
            playing = False
            while not st.is_terminal():
                acts = st.legal_actions()  # chance outcomes are uniform
                if not playing:
                    playing = acts[-1] >= OS_PLAY_BASE and not st.is_chance_node()
                plies += playing
                st.apply_action(acts[rng.randrange(len(acts))])
        return time.perf_counter() - t0, plies

    def play_phase(self, starts, seed: int = 1):
        """Random play from a fresh clone of each start-of-play state to the
        end, one Python step per move (the clones are made before the clock
        starts).  Returns (seconds, plies)."""
        rng = random.Random(seed)
        states = [s0.clone() for s0 in starts]
        plies = 0
        t0 = time.perf_counter()
        for st in states:
            while not st.is_terminal():
                acts = st.legal_actions()
                st.apply_action(acts[rng.randrange(len(acts))])
                plies += 1
        return time.perf_counter() - t0, plies


# ---------------------------------------------------------------------------
# DouZero (douzero.env only; never douzero.dmc / douzero.evaluation: torch)
# ---------------------------------------------------------------------------
# Cards: ints 3..14 for 3..A, 17 for 2, 20 low joker, 30 high joker
# (ddz_fast.convert.counts_to_douzero / douzero_to_counts).


def _load_douzero_game():
    """The douzero.env.game module, without importing torch.

    In douzero 1.1.0 douzero/__init__.py is empty and douzero/env/__init__.py
    only imports env.py -> game.py (numpy only), so a plain import is
    torch-free.  Fallback (or DDZ_BENCH_DZ_BYPATH=1): load utils,
    move_detector, move_selector, move_generator and game by file path under
    their real names, with empty stand-in packages for douzero and
    douzero.env, so that no __init__ runs.
    """
    if not os.environ.get("DDZ_BENCH_DZ_BYPATH"):
        try:
            return importlib.import_module("douzero.env.game")
        except ImportError as exc:
            if "douzero" not in str(exc) or importlib.util.find_spec("douzero") is None:
                raise ImportError(f"douzero is not installed; {DOUZERO_HINT}") from None
    spec = importlib.util.find_spec("douzero")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"douzero is not installed; {DOUZERO_HINT}")
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


class DouZero(Engine):
    name = "DouZero"
    dist = "douzero"
    returns = "list of lists of card ints"

    def _load(self):
        self.GameEnv = _load_douzero_game().GameEnv

    @staticmethod
    def _stub(hand, seq):
        return SimpleNamespace(
            acting_player_position="landlord",
            info_sets={"landlord": SimpleNamespace(player_hand_cards=hand)},
            card_play_action_seq=seq)

    def lead_call(self, deal):
        from ddz_fast.convert import counts_to_douzero
        stub = self._stub(counts_to_douzero(deal["landlord"]), [])
        return partial(self.GameEnv.get_legal_card_play_actions, stub)

    def response_call(self, deal, prev):
        from ddz_fast.convert import counts_to_douzero
        stub = self._stub(counts_to_douzero(deal["farmer1"]), [counts_to_douzero(prev[1])])
        return partial(self.GameEnv.get_legal_card_play_actions, stub)

    def move_set(self, call):
        from ddz_fast.convert import douzero_to_counts
        return {tuple(douzero_to_counts(m).tolist()) for m in call() if m}


# ---------------------------------------------------------------------------
# RLCard
# ---------------------------------------------------------------------------
# Cards: strings over "3456789TJQKA2BR" (B = black / low joker, R = red /
# high joker), sorted low -> high; "pass" is the pass action.  Hands inside
# the game are lists of rlcard.games.base.Card(suit, rank); jokers are
# Card('BJ', '') / Card('RJ', '').
_RL_SUITS = "SHDC"


class RLCard(Engine):
    name = "RLCard"
    dist = "rlcard"
    returns = "list of str"

    def returned(self, scenario: str) -> str:
        return "set of str" if scenario.startswith("lead") else self.returns

    def _load(self):
        from rlcard.games.base import Card
        from rlcard.games.doudizhu import utils
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        self.Card, self.utils, self.Judger = Card, utils, DoudizhuJudger

    def _cards(self, counts):
        """rlcard Card objects in rank order (a player's current_hand)."""
        cards = []
        for r in range(13):
            for k in range(int(counts[r])):
                cards.append(self.Card(_RL_SUITS[k], RANKS[r]))
        if counts[13]:
            cards.append(self.Card("BJ", ""))
        if counts[14]:
            cards.append(self.Card("RJ", ""))
        return cards

    def lead_call(self, deal):
        return partial(self.Judger.playable_cards_from_hand, counts_to_text(deal["landlord"]))

    def response_call(self, deal, prev):
        player = SimpleNamespace(current_hand=self._cards(deal["farmer1"]))
        greater = SimpleNamespace(played_cards=counts_to_text(prev[1]))
        return partial(self.utils.get_gt_cards, player, greater)

    def move_set(self, call):
        from ddz_fast.convert import rlcard_to_counts
        return {tuple(rlcard_to_counts(m).tolist()) for m in call() if m != "pass"}


OTHER_ENGINES = (OpenSpiel, DouZero, RLCard)


# ---------------------------------------------------------------------------
# ddz-fast random games (the game engine is being written concurrently: these
# adapt to it when present and raise NotImplementedError otherwise)
# ---------------------------------------------------------------------------

def play_random_games_call(n_games, rules="standard", seed=1, threads=1, first_game=0):
    """Zero-arg callable running ddz_fast.play_random_games once (games
    first_game .. first_game + n_games - 1 of the seed's stream; without a
    first_game parameter, the seed is offset instead)."""
    import inspect

    import ddz_fast
    f = getattr(ddz_fast, "play_random_games", None)
    if f is None:
        raise NotImplementedError("ddz_fast.play_random_games does not exist yet")
    try:
        has_first = "first_game" in inspect.signature(f).parameters
    except (TypeError, ValueError):
        has_first = False
    if has_first:
        return partial(f, n_games, rules=rules, seed=seed, threads=threads, first_game=first_game)
    return partial(f, n_games, rules=rules, seed=seed + first_game, threads=threads)


def _game_class():
    import ddz_fast
    Game = getattr(ddz_fast, "Game", None)
    if Game is None:
        raise NotImplementedError("ddz_fast.Game does not exist yet")
    return Game


def python_game_loop(n_games, rules="standard", seed=1):
    """n random games with ddz_fast.Game (deal + auction + play), one Python
    step per action: ``legal_actions()`` then ``step(random choice)``.

    Returns (seconds, plies of play).  Raises NotImplementedError when
    ddz_fast.Game does not exist (yet).
    """
    Game = _game_class()
    rng = random.Random(seed)
    plies = 0
    t0 = time.perf_counter()
    for i in range(n_games):
        g = Game(rules, seed=seed * 1_000_003 + i)
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
        plies += g.plies
    return time.perf_counter() - t0, plies


def game_starts(deals):
    """Start-of-play ddz_fast.Game positions of 3-player deals: seat 0 is
    the landlord with 20 cards and leads (as OpenSpiel.state_for_deal)."""
    Game = _game_class()
    return [Game.from_position([as_u8(d["landlord"]), as_u8(d["farmer1"]), as_u8(d["farmer2"])],
                               landlord=0) for d in deals]


def python_play_phase(starts, seed=1):
    """Random play from a fresh clone of each start position to the end, one
    Python step per move (the clones are made before the clock starts, as in
    OpenSpiel.play_phase).  Returns (seconds, plies)."""
    rng = random.Random(seed)
    games = [s0.clone() for s0 in starts]
    t0 = time.perf_counter()
    for g in games:
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.randrange(len(acts))])
    return time.perf_counter() - t0, sum(g.plies for g in games)
