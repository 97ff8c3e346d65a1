#!/usr/bin/env python3
"""Game invariants over many random games (issue 8, item 4).

Plays seeded random games through the public :class:`ddz_fast.Game` API and
checks, at every step, that the engine keeps its promises; see
docs/game-invariants.md for the full list and the fraction of steps each
check runs on.  In short:

* every step: the cards are conserved per rank (hands + cards played this
  deal + the unrevealed kitty = the deck), ``hand_sizes`` matches the
  hands, and the phase, seat to move, auction choices and outcome, table,
  stake, cards played and legal actions agree with the reference game
  (``ddz_fast.reference_game``, with the kernels' moves) stepped alongside;
  ``step`` then ``undo`` then ``step`` again reproduce the full state
  exactly (snapshot, hands, views, legal list bytes...);
* a random subset of steps (``Rates.probe``): illegal actions of every sort
  (moves not in the hand, moves that do not beat the table, PASS when
  leading, auction actions in the wrong phase, moves of another preset, junk
  objects) must raise ``ValueError`` and leave the full state, and the
  pickled game (on a tenth of those steps), byte-for-byte unchanged; the
  chosen action and held moves are checked against the oracle's "beats";
  observations are checked against the state;
* a random subset (``Rates.clone``): a clone equals its original, stepping
  and undoing the clone (even past the clone point) leaves the original
  untouched, and stepping the original leaves the clone untouched;
* a random subset (``Rates.rewind``): undo several plies, comparing every
  state on the way, then replay them;
* every game end: scores sum to zero, ``returns()`` agrees, ``settle``
  recomputed from the result's facts gives the same value and scores, the
  result (landlord, base, bombs, spring, doubles, winner, plies, redeals,
  scores) equals the reference game's, no action is accepted after the end, and
  the result equals game ``i`` of ``play_random_games`` (the random policy
  is the documented one, so the Python game *is* that compiled game);
  a random subset of games (``Rates.unwind``) is undone to the very start
  (across redeals) and replayed.

The compiled playouts are also checked on their own, vectorised, over the
same games (zero-sum rows, card counts, scoring identity, spring facts).

Usage::

    python tests/invariants.py --games 100000 --players 3

runs 100000 games of the 3-player game (half with the "bid" auction, half
with "rob") and prints a summary; the exit status is 1 when a violation was
found.  tests/test_game_invariants.py runs a budgeted number of games in the
default test suite (``DDZ_INVARIANT_GAMES``).
"""
from __future__ import annotations

import argparse
import copy
import pickle
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

import numpy as np

from ddz_fast import (
    BID_PASS,
    CALL,
    DECLINE,
    DOUBLE,
    NO_DOUBLE,
    PASS,
    PRESETS,
    ROB,
    Bid,
    Game,
    Kind,
    Move,
    MoveList,
    Phase,
    PlayoutResults,
    Rules,
    SplitMix64,
    game_seed,
    legal_moves,
    play_random_games,
    policy_seed,
    settle,
)
from ddz_fast import reference
from ddz_fast.reference_game import ReferenceGame

__all__ = [
    "RULES_BY_PLAYERS",
    "Rates",
    "Report",
    "Violation",
    "check_games",
    "check_playout_run",
    "check_playouts",
    "main",
]

#: The rules checked per player count: both auctions of the 3-player
#: standard game and of the 4-player "four" preset.
RULES_BY_PLAYERS: Dict[int, Tuple[Rules, Rules]] = {
    3: (PRESETS["standard"], PRESETS["standard"].replace(auction="rob", name="standard-rob")),
    4: (PRESETS["four"], PRESETS["four"].replace(auction="rob", name="four-rob")),
}

ALL_AUCTION_ACTIONS = (BID_PASS, Bid(1), Bid(2), Bid(3), CALL, ROB, DECLINE, DOUBLE, NO_DOUBLE)


@dataclass(frozen=True)
class Rates:
    """Which fraction of steps (or games, for ``unwind``) gets the costlier checks."""

    probe: float = 0.05    # illegal-action probes, oracle and observation checks
    clone: float = 0.03    # clone independence (clone, copy, deepcopy or pickle)
    rewind: float = 0.03   # undo 2..12 plies and replay them
    unwind: float = 0.02   # (per game) undo to the start, then replay to the end


@dataclass
class Report:
    """What a run did: games, steps, checks made per kind, violations found."""

    label: str
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    checks: Counter = field(default_factory=Counter)
    # Steps that got each optional check (to report the fractions).
    sampled: Counter = field(default_factory=Counter)
    violations: List[str] = field(default_factory=list)

    def add(self, other: "Report") -> None:
        """Accumulate another report into this one."""
        self.games += other.games
        self.steps += other.steps
        self.seconds += other.seconds
        self.checks.update(other.checks)
        self.sampled.update(other.sampled)
        self.violations.extend(other.violations)

    def summary(self) -> str:
        """A human-readable multi-line summary."""
        lines = [
            f"{self.label}: {self.games} games, {self.steps} steps, "
            f"{sum(self.checks.values())} checks, {len(self.violations)} violations, "
            f"{self.seconds:.1f} s ({self.games / self.seconds if self.seconds else 0:.0f} games/s)",
        ]
        if self.steps:
            frac = ", ".join(f"{k} {v} ({100 * v / self.steps:.1f}% of steps)"
                             for k, v in sorted(self.sampled.items()) if k != "unwind")
            lines.append(f"  sampled steps: {frac}; unwound games: {self.sampled['unwind']}")
        lines.append("  checks: " + ", ".join(f"{k}={v}" for k, v in sorted(self.checks.items())))
        for v in self.violations[:20]:
            lines.append(f"  VIOLATION {v}")
        if len(self.violations) > 20:
            lines.append(f"  ... and {len(self.violations) - 20} more")
        return "\n".join(lines)


class Violation(AssertionError):
    """An invariant did not hold (the game it happened in is abandoned)."""


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

class _EqualToEverything:
    """Junk whose ``__eq__`` claims equality with anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "<equal to everything>"


class _RaisingEq:
    """Junk whose ``__eq__`` raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing me")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "<raising __eq__>"


JUNK: Tuple[object, ...] = (
    None, 0, 3, -1, 2 ** 70, 3.5, float("nan"), True, "3", "", "pass", b"3", (), [], {},
    object(), np.zeros(15, dtype=np.uint8), np.uint8(3), Kind.SOLO, Kind.PASS, Phase.PLAY,
    Move, Bid, (0, BID_PASS), _EqualToEverything(), _RaisingEq(),
)


def _move_key(m: Optional[Move]) -> Optional[Tuple[int, int, int, Tuple[int, ...]]]:
    return None if m is None else (int(m.kind), m.rank, m.length, m.counts)


def full_state(g: Game) -> Tuple[Any, ...]:
    """Everything observable about a game as comparable plain data:
    ``snapshot()`` (the documented complete state: rules, seed, generator
    state, hands and kitty bytes, history, auction fields, table, legal
    actions, result, undo depth), plus the bytes of the legal-move rows,
    the table move's rank and length (``Move`` equality looks at kind and
    cards only), the returns and the stake."""
    legal = g.legal_actions()
    legal_data = legal.rows.tobytes() if isinstance(legal, MoveList) else None
    return (g.snapshot(), legal_data, _move_key(g.last_move), g.returns(), g.value)


def _beats(a: Move, b: Move, r: Rules) -> bool:
    """The oracle's "beats" (ddz_fast.reference), the one twin of the
    kernels' comparison."""
    return bool(reference.beats(a, b, rules=r))


def _deck(r: Rules) -> np.ndarray:
    return np.array([4 * r.decks] * 13 + [r.decks] * 2, dtype=np.int64)


def _foreign_moves(r: Rules) -> Tuple[Move, ...]:
    """Moves of the other player count's preset that are never legal under ``r``."""
    if r.players == 3:
        return (Move(Kind.PAIR, "BB", rules="four"), Move(Kind.PAIR, "RR", rules="four"),
                Move(Kind.BOMB, "33333", rules="four"), Move(Kind.BOMB, "22222222", rules="four"),
                Move(Kind.ROCKET, "BBRR", rules="four"))
    return (Move(Kind.TRIO_SOLO, "3334"), Move(Kind.FOUR_TWO_SOLO, "333345"),
            Move(Kind.FOUR_TWO_PAIR, "33334455"), Move(Kind.AIRPLANE_SOLO, "33344456"),
            Move(Kind.ROCKET, "BR"))


def _move_pool(r: Rules, rng: random.Random, size: int = 3000) -> List[Move]:
    """A random sample of every lead of the full deck (all kinds occur)."""
    leads = legal_moves(_deck(r).astype(np.uint8), None, rules=r)
    idx = sorted(rng.sample(range(len(leads)), min(size, len(leads))))
    return [leads[i] for i in idx]


class FastMovesReferenceGame(ReferenceGame):
    """The reference game's auction, table and scoring, with the compiled
    kernels' play-phase moves (checked against the pure-Python oracle by
    the differential suite): the obvious twin, fast enough for many games."""

    @staticmethod
    def play_moves(hand: Sequence[int], last: Optional[Move], rules: Rules) -> Tuple[Move, ...]:
        return tuple(legal_moves(np.array(hand, dtype=np.uint8), last, rules=rules))

    # The checker only steps its twin forward: no undo stack (the reference
    # game's copy of its whole state per action would dominate the run).
    def _state(self) -> Dict[str, Any]:
        return {}

    def undo(self) -> None:
        raise NotImplementedError("the checker's twin only moves forward")


def _twin_view(g: Any) -> Tuple[Any, ...]:
    """What the twin and the engine must agree on after every action."""
    acts = g.legal_actions()
    legal = tuple((a.kind, a.counts) for a in acts) if isinstance(acts, MoveList) or (
        acts and isinstance(acts[0], Move)) else tuple(acts)
    last = g.last_move
    return (g.phase, g.to_move, g.landlord, g.base, g.bombs, g.doubles, g.kitty_revealed,
            None if last is None else (last.kind, last.counts, last.rank, last.length), g.last_player,
            g.passes, g.auction_level, g.auction_leader, legal, g.hand_sizes, g.played,
            g.hands.tobytes(), g.played_cards.tobytes(), g.plies, g.deal_number, g.result)


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------

class _GameChecker:
    """Plays the game with game seed ``gseed`` through the Python API with
    the documented random policy (so it is the compiled playout with that
    game seed), checking as it goes."""

    def __init__(self, r: Rules, gseed: int, rates: Rates, report: Report,
                 pool: Sequence[Move], foreign: Sequence[Move], game_cls: Type[Game] = Game) -> None:
        self.r = r
        self.n = r.players
        self.gseed = gseed
        self.rates = rates
        self.report = report
        self.pool = pool
        self.foreign = foreign
        self.deck = _deck(r)
        self.rng = random.Random(gseed)        # the checker's own choices
        self.game_cls = game_cls
        self.g = game_cls(r, seed=gseed)
        self.twin = FastMovesReferenceGame(r, seed=gseed)
        self.policy = SplitMix64(policy_seed(gseed))
        self.states: List[Tuple[Any, ...]] = [full_state(self.g)]
        self.actions: List[object] = []
        self.played_cards = np.zeros(15, dtype=np.int64)

    def expect(self, ok: bool, what: str, detail: object = "") -> None:
        self.report.checks[what] += 1
        if not ok:
            raise Violation(f"{what}: {detail}" if detail != "" else what)

    # -- checks on the current state -------------------------------------
    def check_state(self) -> None:
        g, r = self.g, self.r
        hands = g.hands
        total = hands.sum(axis=0, dtype=np.int64) + self.played_cards
        if not g.kitty_revealed:
            total += g.kitty
        self.expect(bool((total == self.deck).all()), "cards_conserved", f"hands+played+kitty={total.tolist()}")
        self.expect(tuple(hands.sum(axis=1, dtype=np.int64).tolist()) == g.hand_sizes, "hand_sizes")
        mine, twin = _twin_view(g), _twin_view(self.twin)
        self.expect(mine == twin, "matches_reference_game",
                    [(i, x, y) for i, (x, y) in enumerate(zip(mine, twin)) if x != y])
        if not g.history:                          # a fresh deal
            self.expect(g.hand_sizes == (r.hand_size,) * self.n and int(g.kitty.sum()) == r.kitty_size
                        and g.phase is Phase.AUCTION and g.landlord is None and not g.kitty_revealed,
                        "fresh_deal", (g.hand_sizes, g.kitty))
        if g.phase is Phase.AUCTION or g.phase is Phase.DOUBLING:
            self.expect(g.landlord is None or g.phase is Phase.DOUBLING, "auction_landlord")
        if g.landlord is not None:
            self.expect(g.kitty_revealed, "kitty_revealed")

    def check_observations(self) -> None:
        g = self.g
        acts = g.legal_actions()
        for s in range(self.n):
            o = g.observation(s)
            self.expect(np.array_equal(o.hand, g.hand(s)) and o.hand_sizes == g.hand_sizes
                        and o.landlord == g.landlord and o.to_move == g.to_move
                        and o.history == tuple(g.history) and o.deal_number == g.deal_number
                        and (o.kitty is None) == (not g.kitty_revealed), "observation", s)
            mine = s == g.to_move and not g.is_over
            self.expect(o.legal_actions == acts if mine else o.legal_actions == (), "observation_legal", s)

    # -- illegal actions ---------------------------------------------------
    def _illegal_candidates(self) -> List[Tuple[str, object]]:
        g, r, rng = self.g, self.r, self.rng
        out: List[Tuple[str, object]] = [("junk", x) for x in rng.sample(JUNK, 2)]
        out.append(("junk", JUNK[-2]))                       # the always-equal object, every time
        if g.is_over:
            out += [("after_end", PASS), ("after_end", rng.choice(self.pool)),
                    ("after_end", rng.choice(ALL_AUCTION_ACTIONS))]
            return out
        acts = g.legal_actions()
        if g.phase is not Phase.PLAY:
            allowed = tuple(self.twin.legal_actions())
            wrong = [a for a in ALL_AUCTION_ACTIONS if a not in allowed]
            out += [("auction_out_of_turn", a) for a in rng.sample(wrong, 3)]
            out.append(("move_in_auction", rng.choice((PASS, rng.choice(self.pool)))))
            return out
        assert isinstance(acts, MoveList)
        out.append(("auction_in_play", rng.choice(ALL_AUCTION_ACTIONS)))
        out.append(("other_preset", rng.choice(self.foreign)))
        m0 = acts[rng.randrange(len(acts))]
        out.append(("legal_move_as_data", rng.choice((m0.counts, m0.cards, m0.to_array(), acts))))
        hand = g.hand(g.to_move)
        last = g.last_move
        if last is None:
            out.append(("pass_when_leading", PASS))
        for m in rng.sample(self.pool, 2):
            if any(c > h for c, h in zip(m.counts, hand)):
                out.append(("not_in_hand", m))
            else:
                # Held: legal exactly when it beats the table (the oracle's beats).
                legal = last is None or _beats(m, last, self.r)
                self.expect((m in acts) == legal, "held_move_vs_oracle", (m, last))
                if not legal:
                    out.append(("does_not_beat", m))
        if last is not None:
            leads = legal_moves(hand, None, rules=r)
            for m in (leads[rng.randrange(len(leads))] for _ in range(2)):
                beat = _beats(m, last, self.r)
                self.expect((m in acts) == beat, "held_move_vs_oracle", (m, last))
                if not beat:
                    out.append(("does_not_beat", m))
        return out

    def probe_illegal(self) -> None:
        g = self.g
        before = self.states[-1]
        pickled = pickle.dumps(g) if self.rng.random() < 0.1 else None
        for label, bad in self._illegal_candidates():
            try:
                g.step(bad)
            except ValueError as e:
                self.expect("illegal action" in str(e), "rejected_" + label, f"{bad!r}: message {e}")
            except Exception as e:   # noqa: BLE001 - any other exception is the violation
                raise Violation(f"rejected_{label}: {bad!r} raised {type(e).__name__}: {e}") from None
            else:
                raise Violation(f"accepted_illegal_{label}: {bad!r} was accepted")
            self.expect(g.snapshot() == before[0], "rejected_snapshot_unchanged", repr(bad))
        self.expect(full_state(g) == before, "rejected_full_state_unchanged")
        if pickled is not None:
            self.expect(pickle.dumps(g) == pickled, "rejected_pickle_unchanged")

    # -- clone -------------------------------------------------------------
    def clone_part1(self) -> Game:
        """Copy the game (clone(), copy.copy, copy.deepcopy or a pickle round
        trip, at random), check the copy equals the original, step and undo
        the copy and check the original did not change."""
        g, rng = self.g, self.rng
        before = self.states[-1]
        how = rng.choice(("clone", "copy", "deepcopy", "pickle"))
        self.report.sampled["clone_" + how] += 1
        if how == "clone":
            c = g.clone()
        elif how == "copy":
            c = copy.copy(g)
        elif how == "deepcopy":
            c = copy.deepcopy(g)
        else:
            c = pickle.loads(pickle.dumps(g))
        self.expect(type(c) is type(g) and full_state(c) == before, "clone_equal", how)
        k = 0
        for _ in range(rng.randint(1, 6)):
            if c.is_over:
                break
            ca = c.legal_actions()
            c.step(ca[rng.randrange(len(ca))])
            k += 1
        self.expect(full_state(g) == before, "clone_step_leaves_original")
        back = rng.randint(0, min(3, len(self.states) - 1))
        for _ in range(k + back):
            c.undo()
        self.expect(full_state(c) == self.states[-1 - back], "clone_undo_reaches_original_past")
        self.expect(full_state(g) == before, "clone_undo_leaves_original")
        return c

    # -- the main loop -----------------------------------------------------
    def step(self, a: object, twin: bool = True) -> None:
        g = self.g
        deal = g.deal_number
        history = list(g.history)
        g.step(a)
        if twin:
            self.twin.step(a)
        if g.deal_number != deal:
            # A redeal: everyone passed (bid) or declined (rob) on the old deal.
            nobody = BID_PASS if self.r.auction == "bid" else DECLINE
            acts = [x for _, x in history] + [a]
            self.expect(g.deal_number == deal + 1 and len(acts) == self.n and all(x == nobody for x in acts)
                        and g.history == [] and g.phase is Phase.AUCTION, "redeal", acts)
            self.played_cards = np.zeros(15, dtype=np.int64)
        elif isinstance(a, Move) and not a.is_pass:
            self.played_cards = self.played_cards + np.array(a.counts, dtype=np.int64)

    def play(self) -> None:
        g, rates, rng, rep = self.g, self.rates, self.rng, self.report
        self.check_state()
        while not g.is_over:
            rep.steps += 1
            acts = g.legal_actions()
            before = self.states[-1]
            probe = rng.random() < rates.probe
            if probe:
                rep.sampled["probe"] += 1
                self.check_observations()
                self.probe_illegal()
            clone = None
            if rng.random() < rates.clone:
                rep.sampled["clone"] += 1
                clone = self.clone_part1()
                clone_state = full_state(clone)
            a = acts[self.policy.below(len(acts))]
            if probe and isinstance(a, Move):
                last = g.last_move
                hand = g.hand(g.to_move)
                ok = (a.is_pass and last is not None) or (
                    not a.is_pass and all(c <= h for c, h in zip(a.counts, hand))
                    and (last is None or _beats(a, last, self.r)))
                self.expect(ok, "chosen_move_vs_oracle", (a, last))
            played_before = self.played_cards
            self.step(a, twin=False)
            after = full_state(g)
            g.undo()
            self.expect(g.snapshot() == before[0], "undo_exact", repr(a))
            self.played_cards = played_before
            self.step(a)
            self.expect(g.snapshot() == after[0], "redo_exact", repr(a))
            self.states.append(after)
            self.actions.append(a)
            self.check_state()
            if clone is not None:
                self.expect(full_state(clone) == clone_state, "original_step_leaves_clone")
            if rng.random() < rates.rewind and len(self.actions) >= 2:
                rep.sampled["rewind"] += 1
                self.rewind(rng.randint(2, min(12, len(self.actions))))
        self.check_end()

    def rewind(self, k: int) -> None:
        """Undo k plies comparing every state, then replay them."""
        g = self.g
        saved = self.played_cards
        for i in range(1, k + 1):
            g.undo()
            self.expect(full_state(g) == self.states[-1 - i], "rewind_undo_exact", f"{i} of {k}")
        for i in range(k, 0, -1):
            g.step(self.actions[-i])
            self.expect(full_state(g) == self.states[-i], "rewind_replay_exact", f"{i} of {k}")
        self.played_cards = saved

    def unwind(self) -> None:
        """Undo to the start of the game (across redeals), then replay all."""
        g = self.g
        for i in range(1, len(self.actions) + 1):
            g.undo()
            self.expect(full_state(g) == self.states[-1 - i], "unwind_undo_exact", i)
        try:
            g.undo()
        except IndexError:
            self.expect(True, "unwind_nothing_left")
        else:
            raise Violation("unwind_nothing_left: undo at the start did not raise IndexError")
        self.expect(full_state(g) == full_state(self.game_cls(self.r, seed=self.gseed)), "unwind_is_fresh_game")
        for i, a in enumerate(self.actions):
            g.step(a)
            self.expect(full_state(g) == self.states[i + 1], "unwind_replay_exact", i)

    def check_end(self) -> None:
        g, n = self.g, self.n
        res = g.result
        self.expect(res is not None and g.phase is Phase.OVER and g.to_move is None
                    and tuple(g.legal_actions()) == (), "over_state")
        assert res is not None
        self.expect(sum(res.scores) == 0, "zero_sum", res.scores)
        self.expect(g.returns() == res.scores, "returns")
        self.expect(settle(n, res.landlord, res.landlord_won, res.base, res.bombs, res.spring, res.doubles)
                    == (res.value, res.scores), "settle_from_result", res)
        # The facts: the reference game, stepped alongside, ended the same way.
        self.expect(res == self.twin.result, "result_matches_reference_game", (res, self.twin.result))
        plays = [(s, a) for s, a in g.history if isinstance(a, Move) and not a.is_pass]
        winner = plays[-1][0]
        per_seat = Counter(s for s, _ in plays)
        sizes = g.hand_sizes
        self.expect(sizes[winner] == 0 and all(sizes[s] > 0 for s in range(n) if s != winner), "one_empty_hand",
                    sizes)
        self.expect(g.played == tuple(per_seat[s] for s in range(n)), "played_per_seat")
        self.probe_illegal()
        if self.rng.random() < self.rates.unwind:
            self.report.sampled["unwind"] += 1
            self.unwind()


# ---------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------

def check_playouts(res: PlayoutResults, report: Report) -> None:
    """Vectorised checks of compiled playout results (all games at once)."""
    r = res.rules
    n, players = len(res), r.players
    checks = report.checks

    def expect(ok: np.ndarray, what: str) -> None:
        checks["playout_" + what] += n
        bad = np.flatnonzero(~ok)
        for i in bad[:5]:
            report.violations.append(f"{r.name} playout game {res.first_game + int(i)}: playout_{what}")
        if len(bad) > 5:
            report.violations.append(f"{r.name}: playout_{what} failed in {len(bad)} games")

    rows = np.arange(n)
    ll = res.landlord.astype(np.intp)
    expect((0 <= res.landlord) & (res.landlord < players), "landlord_seat")
    expect(res.scores.sum(axis=1) == 0, "zero_sum")
    expect(res.cards_left.sum(axis=1).astype(np.int64) + res.cards_played == r.deck_size, "cards_conserved")
    expect((res.cards_left >= 0).all(axis=1), "cards_left_nonnegative")
    zero = res.cards_left == 0
    expect(zero.sum(axis=1) == 1, "one_empty_hand")
    expect(zero[rows, ll] == res.landlord_won, "winner_is_landlord_iff_won")
    expect(res.value == res.base.astype(np.int64) << (res.bombs + res.doubles + (res.spring > 0)).astype(np.int64),
           "value_formula")
    sign = np.where(res.landlord_won, 1, -1).astype(np.int64)
    expect(res.scores[rows, ll] == sign * (players - 1) * res.value, "landlord_score")
    farmer = np.ones((n, players), dtype=bool)
    farmer[rows, ll] = False
    expect(np.where(farmer, res.scores == (-sign * res.value)[:, None], True).all(axis=1), "farmer_scores")
    # Farmers who played nothing still hold their whole hand, and conversely.
    untouched = np.where(farmer, res.cards_left == r.hand_size, True).all(axis=1)
    expect((res.spring == 1) == (res.landlord_won & untouched), "spring_iff_farmers_untouched")
    expect((res.spring != 2) | ~res.landlord_won, "anti_spring_only_when_farmers_win")
    expect((res.spring >= 0) & (res.spring <= 2), "spring_range")
    if r.auction == "bid":
        expect((res.base >= 1) & (res.base <= 3) & (res.doubles == 0), "bid_base")
    else:
        expect(np.isin(res.base, [1 << k for k in range(players)]) & (res.doubles >= 0)
               & (res.doubles <= players), "rob_base")
    expect((res.redeals >= 0) & (res.plies >= 1) & (res.bombs >= 0) & (res.bombs <= res.plies), "counters")
    want_seeds = np.array([game_seed(res.seed, res.first_game + i) for i in range(min(n, 1000))],
                          dtype=np.uint64)
    checks["playout_game_seeds"] += len(want_seeds)
    if not np.array_equal(res.game_seeds[:len(want_seeds)], want_seeds):
        report.violations.append(f"{r.name}: playout_game_seeds differ from game_seed(seed, i)")


def check_playout_run(rules: Rules, games: int, *, seed: int = 0, chunk: int = 100_000) -> Report:
    """Vectorised checks of ``games`` compiled playouts alone (no Python
    replay), in chunks of ``chunk`` games."""
    report = Report(f"{rules.name} playouts")
    t0 = time.perf_counter()
    for first in range(0, games, chunk):
        res = play_random_games(min(chunk, games - first), rules=rules, seed=seed, first_game=first)
        check_playouts(res, report)
        report.games += len(res)
    report.seconds = time.perf_counter() - t0
    return report


def _compare_with_playout(g: Game, res: PlayoutResults, i: int) -> Optional[str]:
    out = g.result
    assert out is not None
    got = (out.landlord, out.landlord_won, out.scores, out.plies, out.bombs, out.spring, out.base,
           out.redeals, out.doubles, out.value, g.hand_sizes)
    want = (int(res.landlord[i]), bool(res.landlord_won[i]), tuple(int(x) for x in res.scores[i]),
            int(res.plies[i]), int(res.bombs[i]), int(res.spring[i]), int(res.base[i]),
            int(res.redeals[i]), int(res.doubles[i]), int(res.value[i]),
            tuple(int(x) for x in res.cards_left[i]))
    return None if got == want else f"python {got} != compiled {want}"


def check_games(rules: Rules, games: int, *, seed: int = 0, first_game: int = 0,
                rates: Rates = Rates(), progress: Optional[float] = None,
                game_cls: Type[Game] = Game) -> Report:
    """Check ``games`` random games under ``rules``: games ``first_game ..``
    of ``play_random_games(seed=seed)``, each replayed and checked through
    the Python API, and the compiled results checked on their own.
    ``game_cls`` (a Game subclass) is for testing the checker itself."""
    report = Report(rules.name)
    t0 = time.perf_counter()
    res = play_random_games(games, rules=rules, seed=seed, first_game=first_game)
    check_playouts(res, report)
    prng = random.Random(f"{seed}/{rules.name}")
    pool = _move_pool(rules, prng)
    foreign = _foreign_moves(rules)
    next_note = time.perf_counter() + progress if progress else None
    for i in range(games):
        gseed = int(res.game_seeds[i])
        checker = _GameChecker(rules, gseed, rates, report, pool, foreign, game_cls)
        where = f"{rules.name} game {first_game + i} (game seed {gseed:#x})"
        try:
            checker.play()
            diff = _compare_with_playout(checker.g, res, i)
            checker.expect(diff is None, "matches_compiled_playout", diff)
        except Violation as v:
            report.violations.append(f"{where}: {v}")
        except Exception as e:   # noqa: BLE001 - an unexpected exception is a finding too
            report.violations.append(f"{where}: unexpected {type(e).__name__}: {e}")
        report.games += 1
        if next_note is not None and time.perf_counter() >= next_note:
            print(f"  ... {rules.name}: {report.games}/{games} games, {report.steps} steps, "
                  f"{len(report.violations)} violations, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
            next_note = time.perf_counter() + (progress or 0)
    report.seconds = time.perf_counter() - t0
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: see the module docstring."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000, help="games per player count (split over both auctions)")
    p.add_argument("--players", type=int, choices=(3, 4), action="append",
                   help="player count (repeatable; default both)")
    p.add_argument("--seed", type=int, default=0, help="run seed (game i is play_random_games game i)")
    p.add_argument("--probe", type=float, default=Rates.probe, help="fraction of steps with illegal-action probes")
    p.add_argument("--clone", type=float, default=Rates.clone, help="fraction of steps with clone checks")
    p.add_argument("--rewind", type=float, default=Rates.rewind, help="fraction of steps with multi-ply undo")
    p.add_argument("--unwind", type=float, default=Rates.unwind, help="fraction of games unwound to the start")
    p.add_argument("--playouts", type=int, default=0,
                   help="also check this many compiled playouts per player count on their own (vectorised)")
    p.add_argument("--progress", type=float, default=60.0, help="seconds between progress lines (0: none)")
    args = p.parse_args(argv)
    rates = Rates(args.probe, args.clone, args.rewind, args.unwind)
    total = Report("total")
    for players in args.players or (3, 4):
        per_count = Report(f"{players} players")
        bid, rob = RULES_BY_PLAYERS[players]
        for rules, k in ((bid, (args.games + 1) // 2), (rob, args.games // 2)):
            rep = check_games(rules, k, seed=args.seed, rates=rates, progress=args.progress or None)
            print(rep.summary(), flush=True)
            per_count.add(rep)
        print(per_count.summary(), flush=True)
        total.add(per_count)
        if args.playouts:
            for rules, k in ((bid, (args.playouts + 1) // 2), (rob, args.playouts // 2)):
                # Games k.. of the same seed: the ones not replayed above.
                rep = check_playout_run(rules, k, seed=args.seed + 1)
                print(f"{rep.label}: {rep.games} compiled games, {sum(rep.checks.values())} checks, "
                      f"{len(rep.violations)} violations, {rep.seconds:.1f} s", flush=True)
                for v in rep.violations[:20]:
                    print(f"  VIOLATION {v}")
                total.violations.extend(rep.violations)
    print(f"TOTAL: {total.games} games, {total.steps} steps, {sum(total.checks.values())} checks, "
          f"{len(total.violations)} violations, {total.seconds:.1f} s")
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
