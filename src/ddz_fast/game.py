"""The game: deal, auction, play, result (RULES.md "One deal", "Scoring" and
the 4-player variant), plus multi-deal sessions.

Quick start::

    from ddz_fast import Game
    g = Game("standard", seed=7)          # shuffled and dealt, auction begins
    while not g.is_over:
        actions = g.legal_actions()       # auction actions, or a MoveList
        g.step(actions[0])                # any element of that list
    print(g.result.scores)

Seats and order
---------------
Seats are ``0 .. players-1``.  Play and the auction go "anticlockwise", which
here means seat order ``0 -> 1 -> 2 -> 0`` (``... -> 3 -> 0`` with four).

The deal
--------
``Game(rules, seed)`` shuffles with the project's SplitMix64 generator (see
:mod:`ddz_fast._playout`; the same seed gives the same deal on every
platform): Fisher-Yates over the rank-sorted deck, seat s gets the s-th block
of 17 (25 with four players) cards, the last 3 (8) are the face-down kitty;
then the first bidder is drawn uniformly.  Hands are ``uint8`` count vectors
of shape (15,).

Actions
-------
In the auction and doubling phases :meth:`Game.legal_actions` returns a
tuple of small frozen dataclasses (all subclasses of :class:`AuctionAction`),
always in this order:

* auction ``"bid"``: ``Bid(0)`` (pass, also called ``BID_PASS``), then
  ``Bid(v)`` for every ``v`` above the current bid up to 3;
* auction ``"rob"``: ``(DECLINE, CALL)`` while nobody has called, then
  ``(DECLINE, ROB)`` for each player allowed to rob;
* doubling (``"rob"`` auction only): ``(NO_DOUBLE, DOUBLE)``, i.e.
  ``Double(False), Double(True)``.

In the play phase it returns the :class:`~ddz_fast.MoveList` of
``ddz_fast.legal_moves(hand, last)`` (its documented order; PASS first when
responding, no PASS when leading) and :meth:`Game.step` takes a
:class:`~ddz_fast.Move`.  When the game is over it returns ``()``.

Design decisions where the rules leave room
--------------------------------------------
* **Bid auction.** A player who passed may still bid later (only "higher"
  is required).  The auction ends at a bid of 3, or after a bid when all the
  others pass in a row (2 passes with 3 players, 3 with 4); when all players
  pass before any bid, the cards are redealt.
* **Rob auction.** From the first bidder on, each player in turn calls or
  declines.  Once someone calls, each player after the caller in seat order
  who has not yet declined (i.e. up to, not including, the first bidder) has
  exactly one chance to rob or decline; every rob doubles the base (base =
  2**robs) and the last to call or rob is landlord.  The caller gets no
  chance to rob back.  Players who declined the call are skipped (no action
  is asked of them).  If everyone declines, the cards are redealt.
* **Redeal.** A new shuffle continues the same SplitMix64 stream (so it is
  fixed by the seed), followed by a new first-bidder draw; ``deal_number``
  counts redeals (0 for the first deal), ``history`` then starts afresh and
  :meth:`Game.undo` can step back across the redeal.
* **Doubling** (``"rob"`` only): after the landlord has taken the kitty, the
  landlord and then each farmer in seat order answers ``Double(True/False)``
  once; each ``True`` doubles the stake of the whole deal (the stake is one
  number: every farmer's payment doubles).
* **The kitty** is shown to all (``Observation.kitty``) as soon as the
  landlord is known, and added to the landlord's hand, who leads.
* **Scoring.** value = base x 2**(bombs + rockets played) x 2 (spring or
  anti-spring) x 2**doubles.  Spring: the landlord wins and no farmer played
  a card (passes do not count); anti-spring: the farmers win and the landlord
  played only one move (the opening lead).  A winning landlord gets
  ``(players-1) * value`` and each farmer pays ``value``; a losing landlord
  pays each farmer ``value``.  Scores always sum to zero.
* **plies** counts play-phase turns, passes included (auction actions not).
* **History** entries are plain ``(seat, action)`` tuples of the current
  deal, auction and play, in order.
* **from_position** knows nothing of earlier play: pass ``played=`` (moves
  per seat so far) for exact spring scoring; by default a seat holding fewer
  cards than it was dealt counts as having played once.

For search code
---------------
The state and the per-action work (``legal_actions``, ``step``, ``undo``,
``clone``) are compiled (:class:`ddz_fast._playout.GameCore`, which
:class:`Game` subclasses).  Legal actions are computed once per state and
cached (also across ``undo``); ``step`` validates by membership in that list
and raises ``ValueError`` naming the action, leaving the state untouched;
``undo`` takes back any action, across a redeal too; ``clone`` copies the
hands (one small array), the history and the undo stack (shallow: their
entries are immutable).  Games pickle.

The compiled random playouts (:func:`play_random_games`) implement the same
auction and play logic separately in C; game i of a run is reproduced
exactly by stepping ``Game(rules, seed=game_seeds[i])`` with the random
policy described in :mod:`ddz_fast._playout` (the tests check every field).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy as np

from ._fast import MoveList
from ._fast import legal_moves as _legal_moves
from ._move import PASS, Move
from ._playout import (
    GameCore,
    PlayoutResults,
    SplitMix64,
    game_seed,
    play_random_games,
    policy_seed,
)
from .cards import CardsLike, check_counts, format_cards, to_counts
from .kinds import Kind
from .rules import Rules, RulesLike, resolve_rules

__all__ = [
    "Game",
    "Session",
    "Phase",
    "GameResult",
    "Observation",
    "AuctionAction",
    "Bid",
    "Call",
    "Rob",
    "Decline",
    "Double",
    "BID_PASS",
    "CALL",
    "ROB",
    "DECLINE",
    "DOUBLE",
    "NO_DOUBLE",
    "settle",
    "simple_bot",
    "SplitMix64",
    "game_seed",
    "policy_seed",
    "play_random_games",
    "PlayoutResults",
]

_MASK = (1 << 64) - 1


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------

class AuctionAction:
    """Base class of the auction and doubling actions."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Bid(AuctionAction):
    """Bid auction: ``Bid(0)`` is a pass, ``Bid(1)``..``Bid(3)`` a bid."""

    value: int

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or not 0 <= self.value <= 3:
            raise ValueError(f"a bid is 0 (pass) or 1, 2 or 3, not {self.value!r}")

    def __str__(self) -> str:
        return "pass" if self.value == 0 else f"bid {self.value}"


@dataclass(frozen=True, slots=True)
class Call(AuctionAction):
    """Rob auction: call the landlord."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class Rob(AuctionAction):
    """Rob auction: rob the landlord (doubles the stake)."""

    def __str__(self) -> str:
        return "rob"


@dataclass(frozen=True, slots=True)
class Decline(AuctionAction):
    """Rob auction: decline to call, or to rob."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Double(AuctionAction):
    """Doubling phase: ``Double(True)`` doubles the stake, ``Double(False)`` not."""

    yes: bool

    def __post_init__(self) -> None:
        if not isinstance(self.yes, bool):
            raise ValueError(f"Double takes True or False, not {self.yes!r}")

    def __str__(self) -> str:
        return "double" if self.yes else "no double"


BID_PASS = Bid(0)
CALL = Call()
ROB = Rob()
DECLINE = Decline()
DOUBLE = Double(True)
NO_DOUBLE = Double(False)

_BIDS = (Bid(0), Bid(1), Bid(2), Bid(3))
_BID_CHOICES = tuple((BID_PASS,) + _BIDS[cur + 1:] for cur in range(4))
_CALL_CHOICES = (DECLINE, CALL)
_ROB_CHOICES = (DECLINE, ROB)
_DOUBLE_CHOICES = (NO_DOUBLE, DOUBLE)


class Phase(IntEnum):
    AUCTION = 0   # bidding, or calling/robbing
    DOUBLING = 1  # "rob" auction: landlord then farmers may double
    PLAY = 2
    OVER = 3


_AUCTION, _DOUBLING, _PLAY, _OVER = Phase.AUCTION, Phase.DOUBLING, Phase.PLAY, Phase.OVER
_PHASES = (Phase.AUCTION, Phase.DOUBLING, Phase.PLAY, Phase.OVER)
_BOMB, _ROCKET = Kind.BOMB, Kind.ROCKET


# ---------------------------------------------------------------------------
# Results and observations
# ---------------------------------------------------------------------------

def settle(players: int, landlord: int, landlord_won: bool, base: int, bombs: int,
           spring: int, doubles: int = 0) -> Tuple[int, Tuple[int, ...]]:
    """``(value, scores)`` of a finished deal (see "Scoring" above).

    >>> settle(3, 0, True, base=2, bombs=1, spring=0)   # RULES.md's known answer
    (4, (8, -4, -4))
    """
    _check_settle_args(players, landlord, base, bombs, spring, doubles)
    return _settle(players, landlord, landlord_won, base, bombs, spring, doubles)


def _settle(players: int, landlord: int, landlord_won: bool, base: int, bombs: int,
            spring: int, doubles: int) -> Tuple[int, Tuple[int, ...]]:
    # settle() without the argument checks, for the engine's own sound facts.
    value = base << (bombs + doubles + (1 if spring else 0))
    sign = 1 if landlord_won else -1
    scores = tuple(sign * (players - 1) * value if s == landlord else -sign * value
                   for s in range(players))
    return value, scores


# More doublings than any real deal can have (54 or 108 cards: at most 27
# bombs); the bound keeps ``base << doublings`` a small int.
_MAX_DOUBLINGS = 1000


def _check_settle_args(players: object, landlord: object, base: object, bombs: object,
                       spring: object, doubles: object) -> None:
    """ValueError/TypeError for arguments of :func:`settle` that no deal has."""
    def whole(x: object, what: str, low: int, high: int) -> int:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
            raise TypeError(f"settle: {what} must be an int, not {type(x).__name__}")
        if not low <= x <= high:
            raise ValueError(f"settle: {what} must be {low}..{high}, not {x!r}")
        return int(x)

    n = whole(players, "players", 3, 4)
    whole(landlord, "landlord", 0, n - 1)
    whole(base, "base", 0, 2**32)
    total = whole(bombs, "bombs", 0, _MAX_DOUBLINGS) + whole(doubles, "doubles", 0, _MAX_DOUBLINGS)
    whole(spring, "spring", 0, 2)
    if total > _MAX_DOUBLINGS:
        raise ValueError(f"settle: bombs + doubles must be at most {_MAX_DOUBLINGS}, not {total}")


@dataclass(frozen=True)
class GameResult:
    """The result of a finished deal.

    ``spring`` is 0 (none), 1 (spring) or 2 (anti-spring); ``value`` is what
    each farmer wins or loses; ``scores[s]`` is seat s's delta (sum 0);
    ``winner`` the seat that emptied its hand; ``redeals`` the deal number.
    """

    landlord: int
    landlord_won: bool
    winner: int
    base: int
    bombs: int
    spring: int
    doubles: int
    value: int
    scores: Tuple[int, ...]
    plies: int
    redeals: int


@dataclass(frozen=True)
class Observation:
    """What seat ``player`` knows: its own hand, the others' card counts, the
    kitty once revealed, the public history and table state.  ``legal_actions``
    is the player's legal actions when it is to act, else ``()``."""

    player: int
    phase: Phase
    hand: np.ndarray
    hand_sizes: Tuple[int, ...]
    landlord: Optional[int]
    kitty: Optional[np.ndarray]
    history: Tuple[Tuple[int, object], ...]
    last_move: Optional[Move]
    last_player: Optional[int]
    to_move: Optional[int]
    base: int
    bombs: int
    doubles: int
    deal_number: int
    legal_actions: object


def _seed_int(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    return int(seed) & _MASK


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

class Game(GameCore):
    """One deal of Dou Dizhu, from the shuffle (or a given position) to the
    result.  See the module docstring for the rules choices.

    ``Game(rules="standard", seed=None)``: shuffle and deal with ``seed``
    (a random seed when None; stored as ``game.seed``), draw the first bidder
    and start the auction.  :meth:`from_position` starts from a play-phase
    position instead.

    Core API (compiled, in :class:`ddz_fast._playout.GameCore`):
    ``legal_actions()``, ``step(action)``, ``undo()``, ``clone()``; here:
    :meth:`observation`, :meth:`snapshot`, ``history``, ``result`` and the
    read-only views below.  Attributes starting with ``_`` are internal.
    """

    __slots__ = ()

    # The auction choices, in their documented order (GameCore reads these:
    # an action's meaning is its position in the tuple).
    _BID_CHOICES = _BID_CHOICES
    _CALL_CHOICES = _CALL_CHOICES
    _ROB_CHOICES = _ROB_CHOICES
    _DOUBLE_CHOICES = _DOUBLE_CHOICES

    def __init__(self, rules: RulesLike = "standard", seed: Optional[int] = None) -> None:
        r = resolve_rules(rules)
        self._configure(r, secrets.randbits(64) if seed is None else _seed_int(seed))
        self._new_deal()

    # -- starting from a position ------------------------------------------
    @classmethod
    def from_position(
        cls,
        hands: Sequence[CardsLike],
        landlord: int,
        base: int = 1,
        to_move: Optional[int] = None,
        last: Optional[Move] = None,
        *,
        last_player: Optional[int] = None,
        rules: RulesLike = "standard",
        bombs: int = 0,
        doubles: int = 0,
        played: Optional[Sequence[int]] = None,
        kitty: Optional[CardsLike] = None,
    ) -> "Game":
        """A play-phase game from a given position (for search code).

        ``hands``: one card input per seat (text, 15 counts or a uint8
        array).  ``base``: the stake before bombs (the bid, or 2**robs).
        ``to_move``: whose turn (default the landlord).  ``last``: the move to
        beat (None or PASS: ``to_move`` leads), made by ``last_player``
        (default the seat before ``to_move``; the seats in between passed).
        ``bombs``/``doubles``: multipliers so far.  ``played``: non-pass
        moves made so far per seat, for spring scoring; by default a seat
        holding fewer cards than it was dealt (17, or 20 for the landlord;
        25/33 with four) counts as having played one move, others none.
        ``kitty``: the revealed kitty, if known.  No seed: nothing is random,
        and there is nothing to undo at the start.
        """
        r = resolve_rules(rules)
        n = r.players
        if isinstance(hands, (str, np.ndarray)) or len(hands) != n:
            raise ValueError(f"from_position needs {n} hands (one per seat)")
        arr = np.ascontiguousarray(np.stack([to_counts(h, rules=r) for h in hands]), dtype=np.uint8)
        sizes = [int(x) for x in arr.sum(axis=1)]
        for s, c in enumerate(sizes):
            if c == 0:
                raise ValueError(f"seat {s} holds no cards: the deal would be over")

        def seat(x: object, what: str) -> int:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < n:
                raise ValueError(f"{what} must be a seat 0..{n - 1}, not {x!r}")
            return int(x)

        def count(x: object, what: str, low: int = 0) -> int:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < low:
                raise ValueError(f"{what} must be an int >= {low}, not {x!r}")
            return int(x)

        landlord = seat(landlord, "landlord")
        to_move = landlord if to_move is None else seat(to_move, "to_move")
        base = count(base, "base", 1)
        bombs = count(bombs, "bombs")
        doubles = count(doubles, "doubles")
        if last is not None and not isinstance(last, Move):
            raise TypeError(f"last must be a Move or None, not {type(last).__name__}")
        if last is not None and last.is_pass:
            last = None
        if last is None:
            last_player = None
        else:
            last_player = (to_move - 1) % n if last_player is None else seat(last_player, "last_player")
            if last_player == to_move:
                raise ValueError("last_player cannot be to_move: the others would all have passed "
                                 "and the table would be clear (use last=None)")
        total = arr.sum(axis=0, dtype=np.int64)
        if last is not None:
            total = total + np.array(last.counts, dtype=np.int64)
        kitty_arr = None
        if kitty is not None:
            kitty_arr = to_counts(kitty, rules=r)
        check_counts([int(x) for x in total], r, source="the hands and last move together")
        if played is None:
            dealt = [r.hand_size + (r.kitty_size if s == landlord else 0) for s in range(n)]
            played = [0 if sizes[s] >= dealt[s] else 1 for s in range(n)]
            if last_player is not None:
                played[last_player] = max(played[last_player], 1)
        else:
            played = [count(x, "played[i]") for x in played]
            if len(played) != n:
                raise ValueError(f"played needs {n} entries")
        legal = _legal_moves(arr[to_move], last, rules=r)      # validates `last`

        g = cls.__new__(cls)
        g._configure(r, None)
        g.first_bidder = None
        g._set_hands(arr, sizes)
        g._set_played(played)
        g.kitty = kitty_arr
        g.kitty_revealed = kitty_arr is not None
        g._phase = _PLAY
        g._landlord = landlord
        g.history = []
        g.base = base
        g.bombs = bombs
        g._to_move = to_move
        g._bid = base if r.auction == "bid" and base <= 3 else 0
        g._bidder = landlord
        g._doubles = doubles
        g._last = last
        g._last_player = -1 if last_player is None else last_player
        g._passes = 0 if last_player is None else (to_move - last_player - 1) % n
        g._legal = legal
        return g

    # -- reading the state --------------------------------------------------
    @property
    def phase(self) -> Phase:
        return _PHASES[self._phase]

    @property
    def players(self) -> int:
        return self._n

    @property
    def to_move(self) -> Optional[int]:
        """The seat to act (None when the game is over)."""
        return None if self._phase == 3 else self._to_move

    current_player = to_move

    @property
    def landlord(self) -> Optional[int]:
        """The landlord's seat (None during the auction)."""
        return None if self._landlord < 0 else self._landlord

    @property
    def is_over(self) -> bool:
        return self._phase == 3

    @property
    def result(self) -> Optional[GameResult]:
        """The :class:`GameResult` once the game is over, else None."""
        return self._result

    def returns(self) -> Tuple[int, ...]:
        """Score deltas per seat (all zero until the game is over)."""
        return self._result.scores if self._result is not None else (0,) * self._n

    @property
    def last_move(self) -> Optional[Move]:
        """The move to beat (None when the player to move leads)."""
        return self._last

    @property
    def last_player(self) -> Optional[int]:
        """Who made :attr:`last_move` (None when the player to move leads)."""
        return None if self._last is None else self._last_player

    @property
    def doubles(self) -> int:
        return self._doubles

    @property
    def value(self) -> int:
        """The stake so far: base x 2**(bombs + doubles) (spring not yet known)."""
        return self.base << (self.bombs + self._doubles)

    @property
    def plies(self) -> int:
        """Play-phase turns so far, passes included."""
        return self._plies

    def hand(self, seat: int) -> np.ndarray:
        """A copy of one seat's hand (uint8, shape (15,))."""
        out: np.ndarray = self._views[seat].copy()    # (numpy's stubs type copy() as Any)
        return out

    @property
    def hands(self) -> np.ndarray:
        """A copy of all hands, shape (players, 15)."""
        out: np.ndarray = self._hands.copy()
        return out

    # -- hooks called by GameCore ----------------------------------------------
    def _make_result(self, winner: int, won: bool, spring: int) -> GameResult:
        ll = self._landlord
        value, scores = _settle(self._n, ll, won, self.base, self.bombs, spring, self._doubles)
        return GameResult(
            landlord=ll, landlord_won=bool(won), winner=winner, base=self.base, bombs=self.bombs,
            spring=spring, doubles=self._doubles, value=value, scores=scores,
            plies=self._plies, redeals=self.deal_number,
        )

    def _illegal(self, action: object) -> ValueError:
        if self._phase == 3:
            return ValueError(f"illegal action {action!r}: the game is over")
        who = f"seat {self._to_move}"
        r = self.rules
        if self._phase == 2:
            if isinstance(action, Move):
                hand = format_cards(self._views[self._to_move], rules=r)
                if self._last is None and action.is_pass:
                    why = "a lead cannot be PASS"
                elif self._last is None:
                    why = f"it is not a move of the hand {hand}"
                else:
                    why = f"it does not beat {self._last} or is not in the hand {hand}"
                return ValueError(f"illegal action {action!r} for {who}: {why}")
            return ValueError(f"illegal action {action!r} for {who}: the play phase takes a Move")
        options = ", ".join(str(a) for a in self.legal_actions())
        return ValueError(f"illegal action {action!r} for {who} in the {self.phase.name.lower()} "
                          f"phase; legal: {options}")

    # -- views ---------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        """What ``player`` may see (other hands hidden: only their sizes)."""
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self._n:
            raise ValueError(f"player must be a seat 0..{self._n - 1}, not {player!r}")
        over = self._phase == 3
        return Observation(
            player=int(player),
            phase=self.phase,
            hand=self._views[player].copy(),
            hand_sizes=self.hand_sizes,
            landlord=self.landlord,
            kitty=self.kitty.copy() if self.kitty_revealed and self.kitty is not None else None,
            history=tuple(self.history),
            last_move=self._last,
            last_player=self.last_player,
            to_move=None if over else self._to_move,
            base=self.base,
            bombs=self.bombs,
            doubles=self._doubles,
            deal_number=self.deal_number,
            legal_actions=self.legal_actions() if not over and player == self._to_move else (),
        )

    def snapshot(self) -> Dict[str, Any]:
        """The complete state as plain, comparable data (for tests and
        debugging; two games with equal snapshots behave identically)."""
        legal = self.legal_actions()
        return {
            "rules": self.rules,
            "seed": self.seed,
            "rng": None if self._rng is None else self._rng.state,
            "deal_number": self.deal_number,
            "first_bidder": self.first_bidder,
            "phase": self.phase,
            "to_move": self._to_move,
            "hands": self._hands.tobytes(),
            "hand_sizes": self.hand_sizes,
            "kitty": None if self.kitty is None else self.kitty.tobytes(),
            "kitty_revealed": self.kitty_revealed,
            "landlord": self.landlord,
            "history": tuple(self.history),
            "base": self.base,
            "bombs": self.bombs,
            "played": self.played,
            "plies": self._plies,
            "auction": (self._bid, self._bidder, self._apasses, self._caller, self._robs,
                        self._queue, self._doubles),
            "last": self._last,
            "last_player": self.last_player,
            "passes": self._passes,
            "legal": tuple(legal),
            "result": self._result,
            "undo_depth": len(self._undo),
        }

    def __repr__(self) -> str:
        r = self.rules
        parts = [f"rules={r.name!r}", f"phase={self.phase.name}"]
        if self._phase != 3:
            parts.append(f"to_move={self._to_move}")
        if self._landlord >= 0:
            parts.append(f"landlord={self._landlord}")
        parts.append("hands=[" + ", ".join(format_cards(h, rules=r) for h in self._views) + "]")
        if self._last is not None:
            parts.append(f"last={self._last} by {self._last_player}")
        if self._result is not None:
            parts.append(f"scores={self._result.scores}")
        return "Game(" + ", ".join(parts) + ")"


# ---------------------------------------------------------------------------
# A simple bot
# ---------------------------------------------------------------------------

def _strength(hand: np.ndarray, rules: Rules) -> int:
    """A crude hand score: 2s, jokers (the high one twice) and bombs (x2)."""
    bombs = int(np.count_nonzero(hand[:13] >= 4))
    return int(hand[12]) + int(hand[13]) + 2 * int(hand[14]) + 2 * bombs


def simple_bot(obs: Observation, rules: RulesLike = "standard") -> Union[Move, AuctionAction]:
    """A weak, deterministic baseline player (used by ``ddz-fast play``).

    Auction: bids up to ``min(3, strength // 2)`` (strength: one point per 2
    and low joker, two per high joker and per bomb), calls or robs from
    strength 3, doubles from strength 5.  Play: passes when the partner
    farmer holds the table; otherwise plays the legal non-bomb move of
    lowest rank (more cards first); bombs and the rocket only when leading
    with nothing else or when an opponent is down to 6 cards or fewer.
    """
    acts = obs.legal_actions
    if not acts:
        raise ValueError("it is not this player's turn")
    r = resolve_rules(rules)
    if obs.phase is _AUCTION or obs.phase is _DOUBLING:
        choices = cast(Tuple[AuctionAction, ...], acts)
        st = _strength(obs.hand, r)
        first = choices[0]
        if isinstance(first, Bid):
            want = min(3, st // 2)
            bids = [a for a in cast(Tuple[Bid, ...], choices) if a.value and a.value <= want]
            return bids[0] if bids else BID_PASS
        if obs.phase is _DOUBLING:
            return DOUBLE if st >= 5 else NO_DOUBLE
        return choices[1] if st >= 3 else DECLINE
    me, ll = obs.player, obs.landlord
    responding = obs.last_move is not None
    if responding and me != ll and obs.last_player != ll:
        return PASS                       # the partner holds the table
    moves = [m for m in cast(MoveList, acts) if not m.is_pass]
    if not moves:
        return PASS
    ordinary = [m for m in moves if m.kind is not _BOMB and m.kind is not _ROCKET]
    if ordinary:
        return min(ordinary, key=lambda m: (m.rank, -m.n_cards))
    opponents = [s for s in range(len(obs.hand_sizes)) if s != me and (me == ll or s == ll)]
    if not responding or min(obs.hand_sizes[s] for s in opponents) <= 6:
        return min(moves, key=lambda m: (m.kind is _ROCKET, m.n_cards, m.rank))
    return PASS


# ---------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------

Agent = Callable[[Observation], object]


class Session:
    """Several deals with running totals.

    Deal k (0-based) of a session with ``seed`` is ``Game(rules,
    seed=game_seed(seed, k))`` -- the same deal as game k of
    ``play_random_games(..., seed=seed)``.
    """

    def __init__(self, rules: RulesLike = "standard", seed: Optional[int] = None) -> None:
        self.rules = resolve_rules(rules)
        self.seed = secrets.randbits(64) if seed is None else _seed_int(seed)
        self.totals: List[int] = [0] * self.rules.players
        self.results: List[GameResult] = []

    @property
    def deals(self) -> int:
        """Deals recorded so far."""
        return len(self.results)

    def new_game(self) -> Game:
        """The next deal (not yet recorded)."""
        return Game(self.rules, seed=game_seed(self.seed, len(self.results)))

    def record(self, game: Game) -> GameResult:
        """Add a finished game's scores to the totals."""
        res = game.result
        if res is None:
            raise ValueError("the game is not over")
        self.results.append(res)
        for s, d in enumerate(res.scores):
            self.totals[s] += d
        return res

    def play(self, agents: Sequence[Agent], deals: int = 1,
             on_step: Optional[Callable[[Game, int, object], None]] = None) -> List[GameResult]:
        """Play ``deals`` deals; ``agents[s](observation)`` returns seat s's
        action (one of ``observation.legal_actions``).  ``on_step(game, seat,
        action)`` is called after every action.  Returns the new results."""
        if len(agents) != self.rules.players:
            raise ValueError(f"need {self.rules.players} agents, got {len(agents)}")
        out = []
        for _ in range(deals):
            g = self.new_game()
            while not g.is_over:
                s = g.to_move
                assert s is not None          # the game is not over
                a = agents[s](g.observation(s))
                g.step(a)
                if on_step is not None:
                    on_step(g, s, a)
            out.append(self.record(g))
        return out

    def __repr__(self) -> str:
        return f"Session(rules={self.rules.name!r}, deals={self.deals}, totals={self.totals})"
