"""The environments' action ids: the game's action ids (``docs/actions.md``).

One ``Discrete(layout.size)`` space covers a whole deal, with the ids of
:meth:`Game.legal_ids <ddz_fast.Game.legal_ids>` and
:class:`~ddz_fast.VecGame`:

* ids ``0 .. 8``: the auction and doubling actions, the id indexing
  ``ddz_fast.game_values.AUCTION_ACTIONS`` -- ``Bid(0)`` (pass), ``Bid(1)``,
  ``Bid(2)``, ``Bid(3)`` (the ``"bid"`` auction), then ``DECLINE``, ``CALL``,
  ``ROB``, ``NO_DOUBLE``, ``DOUBLE`` (the ``"rob"`` auction); a rules'
  auction uses only its own, the others are never legal;

* ids ``FIRST_MOVE_ID + k`` (``FIRST_MOVE_ID == 9``) for ``k`` in
  ``0 .. space.size-1``: the card-play move with dense id ``k`` of
  :func:`ddz_fast.actions.action_space` for the same rules (``k = 0`` is the
  play-phase PASS), i.e. ``play_offset = FIRST_MOVE_ID``.

The auction pass (``Bid(0)`` / ``DECLINE``) and the play-phase PASS are
different ids.  Nothing here depends on PettingZoo or Gymnasium.

Wild cards (``laizi``, ``tiandi``): a move is a pair (reading, cards) of
the :class:`~ddz_fast.actions.WildActionSpace`, far too many for one
``Discrete`` space with a mask (67 million ids under ``laizi``, 27.8
billion under ``tiandi``).  The environments factor it: their id of a move
is ``FIRST_MOVE_ID +`` its *reading* id (the numbering of the same rules
without wild cards, so ``size`` is that of ``standard``), and the engine
plays the reading with the cards of its smallest game id, which spends the
fewest wild cards (a wild card stands in only where the hand lacks the
natural card; with two wild ranks, the higher one's cards first).  Each
reading is listed once, in ascending id order.  Agents that choose the
cards too use :class:`~ddz_fast.VecGame` or :meth:`Game.legal_ids
<ddz_fast.Game.legal_ids>`, whose ids name every pair
(docs/actions.md, "Wild cards").
"""
from __future__ import annotations

from typing import Any, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

from .._util.checks import check_index
from .._core.entry import MoveList
from .._core.move import Move
from ..actions import FIRST_MOVE_ID, WildActionSpace, action_space
from ..game import AuctionAction
from ..game_values import AUCTION_ACTIONS
from ..rules import Rules, RulesLike, resolve_rules

__all__ = ["ActionLayout", "Action"]

Action = Union[AuctionAction, Move]

# The ids (codes) each auction uses: the bids, or decline .. double.
_AUCTION_IDS = {"bid": range(0, 4), "rob": range(4, 9)}


class ActionLayout:
    """The action ids of one set of rules (see the module docstring).

    ``size``: total number of ids; ``n_auction``: how many auction ids come
    first (9, for every rules); ``play_offset``: the id of the play-phase
    PASS (``FIRST_MOVE_ID``); ``auction_actions``: the auction actions of
    these rules' auction, in id order.
    """

    def __init__(self, rules: RulesLike = "standard") -> None:
        self.rules: Rules = resolve_rules(rules)
        self._space = action_space(self.rules)
        self._own = _AUCTION_IDS[self.rules.auction]
        self.auction_actions: Tuple[AuctionAction, ...] = tuple(AUCTION_ACTIONS[i] for i in self._own)
        self.n_auction: int = FIRST_MOVE_ID
        self.play_offset: int = FIRST_MOVE_ID
        self.size: int = self._space.n_actions
        #: Under wild cards, game ids of moves are flat pairs (see the module docstring).
        self.wild: bool = isinstance(self._space, WildActionSpace)

    def play_choices(self, offsets: npt.NDArray[np.int64], game_ids: npt.NDArray[Any]
                     ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The environments' legal ids of rows of game ids in CSR form
        (``game_ids[offsets[i]:offsets[i + 1]]``, the engine's lists):
        ``(offsets, ids, played)``, ``played`` the game id each id plays.
        Without wild cards the same ids; under wild cards each reading once,
        in ascending order, played by its smallest game id (see the module
        docstring)."""
        ids = np.asarray(game_ids, dtype=np.int64)
        off = np.asarray(offsets, dtype=np.int64)
        if not self.wild:
            return off, ids, ids
        reading, _ = cast(WildActionSpace, self._space).split_flat(ids - FIRST_MOVE_ID)
        env = np.where(ids >= FIRST_MOVE_ID, FIRST_MOVE_ID + reading, ids)
        row = np.repeat(np.arange(len(off) - 1, dtype=np.int64), np.diff(off))
        order = np.lexsort((ids, env, row))       # (by row, then reading, then game id)
        env, row, ids = env[order], row[order], ids[order]
        first = np.ones(len(env), dtype=bool)
        first[1:] = (env[1:] != env[:-1]) | (row[1:] != row[:-1])
        counts = np.bincount(row[first], minlength=len(off) - 1)
        new_off = np.zeros(len(off), dtype=np.int64)
        np.cumsum(counts, out=new_off[1:])
        return new_off, env[first], ids[first]

    def ids(self, legal: Union[MoveList, Tuple[AuctionAction, ...]]) -> npt.NDArray[np.int64]:
        """The ids of a ``Game.legal_actions()`` result, in its order (int64;
        ``Game.legal_ids()`` gives them without the actions).  Under wild
        cards each move's reading id (a reading played with other cards
        repeats)."""
        if isinstance(legal, MoveList) and self.wild:
            return np.array([self.move_id(m) for m in legal], dtype=np.int64)
        if isinstance(legal, MoveList):
            out: npt.NDArray[np.int64] = np.asarray(self._space.ids(legal), dtype=np.int64) + self.play_offset
            return out
        return np.array([self.auction_id(a) for a in legal], dtype=np.int64)

    def auction_id(self, action: AuctionAction) -> int:
        """The id of an auction action; ValueError if these rules' auction has none such."""
        for i in self._own:
            a = AUCTION_ACTIONS[i]
            if type(a) is type(action) and a == action:
                return i
        raise ValueError(f"{action!r} is not an action of the {self.rules.auction!r} auction")

    def move_id(self, move: Move) -> int:
        """The id of a card-play move (PASS included)."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, not {type(move).__name__}")
        if self.wild:
            # (its reading: the standard move of the represented cards)
            readings = cast(WildActionSpace, self._space).readings
            return self.play_offset + int(readings.move_to_id(Move(move.kind, move.represents,
                                                                    rules=readings.rules)))
        return self.play_offset + int(self._space.move_to_id(move))

    def action_id(self, action: Action) -> int:
        """The id of an auction action or a move."""
        if isinstance(action, Move):
            return self.move_id(action)
        if isinstance(action, AuctionAction):
            return self.auction_id(action)
        raise TypeError(f"action must be an AuctionAction or a Move, not {type(action).__name__}")

    def action(self, action_id: int) -> Action:
        """The action with this id (ValueError when out of range; an auction
        id of the other auction names its action, which is never legal here)."""
        i = check_action_id(action_id, self.size)
        if i < self.play_offset:
            return AUCTION_ACTIONS[i]
        space = cast(WildActionSpace, self._space).readings if self.wild else self._space
        move: Move = space.id_to_move(i - self.play_offset)
        return move

    def __repr__(self) -> str:
        return (f"ActionLayout(rules={self.rules.name!r}, size={self.size}, "
                f"n_auction={self.n_auction}, play_offset={self.play_offset})")


def check_action_id(action_id: object, size: int) -> int:
    """``action_id`` as an int in ``0 .. size-1``; TypeError/ValueError otherwise.

    Accepts Python and NumPy integers and 0-d / single-element integer arrays
    (what ``Discrete.sample()`` and many RL libraries return).
    """
    if isinstance(action_id, np.ndarray) and action_id.size == 1 and np.issubdtype(action_id.dtype, np.integer):
        action_id = action_id.reshape(()).item()
    return check_index(action_id, size, "action id")
