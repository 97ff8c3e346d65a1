"""The plain values of a game: auction and doubling actions, phases,
results and observations (everything :class:`ddz_fast.Game` hands out
besides moves).  No game logic lives here: the rules are decided in the
compiled engine, :mod:`ddz_fast._engine.engine`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Optional, Tuple

import numpy as np

from ._core.move import Move

__all__ = [
    "AuctionAction", "Bid", "Call", "Rob", "Decline", "Double",
    "BID_PASS", "CALL", "ROB", "DECLINE", "DOUBLE", "NO_DOUBLE",
    "AUCTION_ACTIONS", "Phase", "GameResult", "Observation", "Rollouts",
]


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

# Every auction and doubling action, indexed by its action code: the codes
# the compiled engine works with (and the batched game's auction ids).
AUCTION_ACTIONS: Tuple[AuctionAction, ...] = (
    Bid(0), Bid(1), Bid(2), Bid(3), DECLINE, CALL, ROB, NO_DOUBLE, DOUBLE,
)


class Phase(IntEnum):
    """Where a deal stands: ``AUCTION`` (bidding, or calling and robbing),
    ``DOUBLING`` (after a ``"rob"`` auction: the landlord, then each farmer,
    may double), ``PLAY`` and ``OVER``."""

    AUCTION = 0   # bidding, or calling/robbing
    DOUBLING = 1  # "rob" auction: landlord then farmers may double
    PLAY = 2
    OVER = 3


# ---------------------------------------------------------------------------
# Results and observations
# ---------------------------------------------------------------------------

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
    is the player's legal actions when it is to act, else ``()``;
    ``played_cards`` the (players, 15) cards each seat has played this deal;
    ``passes`` the passes in a row since the last move; ``auction_level`` and
    ``auction_leader`` as :attr:`ddz_fast.Game.auction_level` and
    :attr:`~ddz_fast.Game.auction_leader`; ``unseen`` the cards the player
    cannot see (:meth:`ddz_fast.Game.unseen`) and ``landlord_holds`` those of
    them the landlord is known to hold (the shown kitty cards it cannot have
    played; zeros when the player is the landlord or none is shown): with
    the hand sizes, what world sampling needs
    (:func:`ddz_fast.sample_observed_worlds`).  ``wild``: the deal's wild
    ranks once drawn (:attr:`ddz_fast.Game.wild`), else None."""

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
    played_cards: Optional[np.ndarray] = None
    passes: int = 0
    auction_level: int = 0
    auction_leader: Optional[int] = None
    unseen: Optional[np.ndarray] = None
    landlord_holds: Optional[np.ndarray] = None
    wild: Optional[Tuple[int, ...]] = None


@dataclass(frozen=True)
class Rollouts:
    """Outcomes of :meth:`ddz_fast.Game.rollout`, one row per rollout:
    ``winner`` (int8: the seat that emptied its hand), ``landlord_won``
    (bool: the winning side), ``scores`` ((n, players) int64 score deltas,
    each row summing to zero) and ``plies`` (int32: the deal's play-phase
    turns at its end, passes included)."""

    winner: np.ndarray
    landlord_won: np.ndarray
    scores: np.ndarray
    plies: np.ndarray

    def __len__(self) -> int:
        return len(self.winner)

    def mean_scores(self) -> np.ndarray:
        """Mean score delta per seat (NaN for no rollouts)."""
        if not len(self):
            return np.full(self.scores.shape[1], np.nan)
        out: np.ndarray = self.scores.mean(axis=0)
        return out
