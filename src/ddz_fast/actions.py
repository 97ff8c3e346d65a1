"""Dense action ids per rule set, and legal-action masks.

The game's action ids (``docs/actions.md``) are one layout for every rules:
ids ``0 .. FIRST_MOVE_ID-1`` are the auction and doubling actions (id ==
index in ``ddz_fast.game_values.AUCTION_ACTIONS``), then the moves:
game id ``FIRST_MOVE_ID + k`` is move ``k`` of the rules' ``ActionSpace``.

An :class:`ActionSpace` numbers the move block, from 0: id 0 is ``PASS``, ids ``1..size-1`` are the moves of at most
:attr:`ActionSpace.max_cards` cards (the largest hand of the game: 20 cards
with one deck, 33 with two) that ``legal_moves(full_deck, rules=rules)``
returns, in that order (the documented move-list order: kind, length, number
of cards, rank, attachments).  Moves of more cards are no action of any
player.  Moves are typed: the same cards read as two kinds are two ids.

Ids are computed from the cards, not looked up (:mod:`ddz_fast._core.ranks`): the
first id of the move's body (kind, length, rank) plus the rank of its
attachments among those the body takes.  :meth:`ActionSpace.mask` is one
compiled call without a ``MoveList``: the generators write the ids of most
moves themselves (singles, pairs, trios and their kickers, chains, fours with
two, two-trio airplanes, read off the masks they build anyway), and the other
moves are generated as rows and ranked.
"""
from __future__ import annotations

import functools
from typing import Any, NoReturn, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._util.checks import check_index
from ._core.entry import MoveBatch, MoveList, legal_moves, legal_moves_batch
from ._core.lookup import pack_rows
from ._core.ranks import ActionMasks, max_hand, space_ranks
from ._engine.vec import FIRST_MOVE_ID
from ._core.move import PASS, Move
from ._core.movelist import _movelist_from_rows
from .cards import N_RANKS, RANKS, CardsLike
from .kinds import Kind
from .convert import CountsBatchLike, to_counts_batch
from . import pickling as _pickling
from .rules import Rules, RulesLike, resolve_rules

__all__ = ["ActionSpace", "action_space", "max_hand", "MovesLike", "pack_rows", "move_rows",
           "FIRST_MOVE_ID"]

#: Many moves: a ``MoveList``, a ``MoveBatch`` or a sequence of ``Move``.
MovesLike = Union[MoveList, MoveBatch, Sequence[Move]]

_ROW = N_RANKS + 1


def move_rows(moves: MovesLike) -> npt.NDArray[np.uint8]:
    """The ``(M, 16)`` ``uint8`` rows (15 counts, then the kind) of a ``MoveList``,
    a ``MoveBatch`` or a sequence of ``Move`` (``TypeError`` for anything else)."""
    if isinstance(moves, (MoveList, MoveBatch)):
        return moves.rows
    given: object = moves
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise TypeError(
            f"moves must be a MoveList, a MoveBatch or a sequence of Move, not {type(given).__name__}"
        )
    rows = np.zeros((len(moves), _ROW), dtype=np.uint8)
    for i, m in enumerate(moves):
        if not isinstance(m, Move):
            raise TypeError(f"item {i} is a {type(m).__name__}, not a Move")
        rows[i, :N_RANKS] = m.counts
        rows[i, N_RANKS] = int(m.kind)
    return rows


def _describe_row(row: npt.NDArray[np.uint8]) -> str:
    """Kind name and cards of one move row, for error messages."""
    code = int(row[N_RANKS])
    kind = Kind(code).name if code < len(Kind) else f"kind {code}"
    cards = "".join(RANKS[r] * int(c) for r, c in enumerate(row[:N_RANKS]))
    return f"{kind} {cards}".rstrip()


def _check_index(i: object, size: int) -> int:
    return check_index(i, size, "action id")


class ActionSpace(ActionMasks):
    """Dense ids of every move a hand of the game can hold, under one set of rules.

    Build it with :func:`action_space` (cached per rules).  ``len(space)`` and
    ``space.size`` are the number of ids; ``space.rows`` is the read-only
    ``(size, 16)`` ``uint8`` table (row 0 is PASS, all zeros).  Its ids
    number the move block of the game's action ids: move ``k`` is game id
    ``first_id + k`` (:attr:`first_id` is ``FIRST_MOVE_ID``), and a game
    of these rules has :attr:`n_actions` ids in all.  An
    ``ActionSpace`` pickles by its rules: unpickling gives the cached space.

    >>> space = action_space("strict")
    >>> space.size, space.max_cards, space.id_to_move(0), space.id_to_move(1)
    (12655, 20, Move(PASS), Move(SOLO, '3', rank=0, length=1))
    >>> space.move_to_id(space.id_to_move(123))
    123
    """

    def __init__(self, rules: RulesLike = "standard") -> None:
        r = resolve_rules(rules)
        lookup = space_ranks(r)
        # (each row checked a legal move under r once more)
        moves = _movelist_from_rows(lookup.table.tobytes(), r)
        # (held by the compiled base, which Python cannot set)
        self._set_ranks(lookup, rules=r, max_cards=max_hand(r), moves=moves)

    # Basic facts ----------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules whose moves this space numbers."""
        return self._rules

    @property
    def max_cards(self) -> int:
        """The most cards of a move in this space: the largest hand of the game."""
        return self._max_cards

    @property
    def size(self) -> int:
        """Number of action ids (PASS included)."""
        return int(self._rows.shape[0])

    @property
    def rows(self) -> npt.NDArray[np.uint8]:
        """The ``(size, 16)`` read-only ``uint8`` table: row ``i`` is action ``i``."""
        return self._rows

    @property
    def first_id(self) -> int:
        """The game action id of move 0 (PASS): ``FIRST_MOVE_ID``, the same for every rules."""
        return FIRST_MOVE_ID

    @property
    def n_actions(self) -> int:
        """Number of game action ids of these rules: ``first_id + size``."""
        return FIRST_MOVE_ID + self.size

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"ActionSpace(rules={self._rules.name!r}, size={self.size})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_pickling.load_action_space, ((_pickling.FORMAT, self._rules),))

    # Single moves -----------------------------------------------------------
    def move_to_id(self, move: Move) -> int:
        """The id of one move; ``ValueError`` if the move is not in this space."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, not {type(move).__name__}")
        row = np.empty((1, _ROW), dtype=np.uint8)
        row[0, :N_RANKS] = move.counts
        row[0, N_RANKS] = int(move.kind)
        found = int(self._lookup.find(row)[0])
        if found < 0:
            self._reject(row, 0)
        return found

    def id_to_move(self, i: int) -> Move:
        """The move of one id (``TypeError`` for a non-integer, ``ValueError`` out of range)."""
        v = _check_index(i, self.size)
        return PASS if v == 0 else self._moves[v]

    # Many moves -------------------------------------------------------------
    def _ids_of_rows(self, rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """Ids of (M, 16) move rows; ValueError naming the first row not in this space."""
        ids = self._lookup.find(np.ascontiguousarray(rows, dtype=np.uint8))
        if ids.size and ids.min() < 0:
            self._reject(rows, int(np.argmin(ids)))
        return ids

    def _reject(self, rows: npt.NDArray[np.uint8], bad: int) -> NoReturn:
        n = int(np.asarray(rows[bad][:N_RANKS], dtype=np.int64).sum())
        if n > self._max_cards:
            raise ValueError(
                f"move {bad} ({_describe_row(rows[bad])}) has {n} cards: no hand of this game "
                f"holds more than {self._max_cards}, so it has no action id"
            )
        raise ValueError(
            f"move {bad} ({_describe_row(rows[bad])}) is not a legal move under "
            f"rules {self._rules.name!r}"
        )

    def ids(self, moves: MovesLike) -> npt.NDArray[np.int64]:
        """The ids of many moves as an ``int64`` array (vectorised over the rows).

        >>> space = action_space()
        >>> space.ids(legal_moves("3345", rules="standard")).tolist()
        [1, 2, 3, 16]
        """
        return self._ids_of_rows(move_rows(moves))

    def moves(self, ids: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[Move]:
        """The moves of many ids."""
        if isinstance(ids, np.ndarray):
            if ids.dtype == np.bool_ or ids.dtype.kind not in "iu":
                raise TypeError(f"action ids must have an integer dtype, not {ids.dtype}")
            if ids.ndim != 1:
                raise ValueError(f"action ids must be 1-D, not shape {ids.shape}")
            ids = ids.tolist()
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
            raise TypeError(f"action ids must be a sequence of ints, not {type(ids).__name__}")
        return [self.id_to_move(i) for i in ids]

    # Masks ------------------------------------------------------------------
    # mask(hand, last=None, *, out=None): compiled, see ActionMasks.mask

    def _reject_move(self, hand: CardsLike, last: Move | None, bad: int) -> NoReturn:
        """The error of move ``bad`` of ``legal_moves(hand, last)``, which has no id."""
        self._reject(legal_moves(hand, last, rules=self._rules).rows, bad)

    def masks(
        self,
        hands: CountsBatchLike,
        lasts: Sequence[Move | None] | npt.NDArray[np.uint8] | None = None,
        *,
        threads: int = 1,
        out: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Boolean ``(N, size)`` masks of many hands (one ``legal_moves_batch`` call).

        ``hands``: an ``(N, 15)`` integer array or anything
        :func:`~ddz_fast.convert.to_counts_batch` accepts (e.g. card texts).

        ``threads`` is passed to ``legal_moves_batch``; ``out`` is an optional
        C-contiguous ``bool`` array of shape ``(N, size)`` to fill.
        """
        counts = hands if isinstance(hands, np.ndarray) else to_counts_batch(hands, rules=self._rules)
        batch = legal_moves_batch(counts, lasts, rules=self._rules, threads=threads)
        try:
            return self._lookup.masks(batch.rows, batch.offsets, out)
        except KeyError as e:  # a hand of more cards than any player holds
            self._reject(batch.rows, e.args[0])


@functools.lru_cache(maxsize=None)
def _space(rules: Rules) -> ActionSpace:
    return ActionSpace(rules)


def action_space(rules: RulesLike = "standard") -> ActionSpace:
    """The (cached) :class:`ActionSpace` of a preset name or a ``Rules``.

    >>> action_space("standard") is action_space("standard")
    True
    """
    return _space(resolve_rules(rules))
