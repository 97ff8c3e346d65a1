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
"""
from __future__ import annotations

from typing import Tuple, Union

import numpy as np
import numpy.typing as npt

from .._checks import check_index
from .._fast import MoveList
from .._move import Move
from ..actions import FIRST_MOVE_ID, action_space
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

    def ids(self, legal: Union[MoveList, Tuple[AuctionAction, ...]]) -> npt.NDArray[np.int64]:
        """The ids of a ``Game.legal_actions()`` result, in its order (int64;
        ``Game.legal_ids()`` gives them without the actions)."""
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
        move: Move = self._space.id_to_move(i - self.play_offset)
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
