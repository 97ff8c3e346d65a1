"""Encoders of hands and moves for neural networks, vectorised over batches.

Each encoder takes one hand or move (15 counts, card text, a ``(15,)`` array,
a :class:`~ddz_fast.Move`) and returns one vector, or takes many (an
``(N, 15)`` integer array, a sequence of hands or moves, a
:class:`~ddz_fast.MoveList`, a :class:`~ddz_fast.MoveBatch`) and returns one
row per item.  A 1-D array or a sequence of 15 ints is one hand; a 2-D array
or a sequence of hands is a batch.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
from numpy.typing import DTypeLike

from ._core.entry import MoveBatch, MoveList
from ._core.move import Move
from ._engine.douzero import cards54_rows
from .cards import CardsLike
from .convert import CountsBatchLike, card_counts, to_counts_batch
from .rules import RulesLike, resolve_rules

__all__ = ["DOUZERO_SLOTS", "encode_douzero", "encode_counts"]

#: Length of DouZero's card vector: 4 slots for each of the 13 ranks 3..2, then 2 jokers.
DOUZERO_SLOTS = 54


def _is_batch(x: object) -> bool:
    """Is `x` many hands (True) or one hand (False)?"""
    if isinstance(x, (MoveList, MoveBatch)):
        return True
    if isinstance(x, (str, Move)):
        return False
    if isinstance(x, np.ndarray):
        return x.ndim == 2
    if isinstance(x, Sequence) and len(x) > 0:
        first = x[0]
        return isinstance(first, (str, Move, Sequence, np.ndarray))
    return False


def _counts(x: CardsLike | Move | CountsBatchLike, rules: RulesLike) -> tuple[npt.NDArray[np.uint8], bool]:
    """Validated counts as an (N, 15) array, and whether the input was a batch."""
    if _is_batch(x):
        return to_counts_batch(x, rules=rules), True  # type: ignore[arg-type]
    return card_counts(x, rules=rules)[None, :], False  # type: ignore[arg-type]


def encode_douzero(
    x: CardsLike | Move | CountsBatchLike, *, rules: RulesLike = "standard"
) -> npt.NDArray[np.int8]:
    """DouZero's 54-slot card encoding: ``int8`` ``(54,)``, or ``(N, 54)`` for a batch.

    Slot ``4 * j + i`` (rank ``j`` = 0..12 for 3..2, ``i`` = 0..3) is 1 when
    the cards hold more than ``i`` cards of rank ``j`` ("thermometer" style);
    slot 52 is the low joker, slot 53 the high joker.  This is DouZero's
    ``_cards2array`` (a 4 x 13 matrix flattened in Fortran order, then the two
    jokers).  It holds one deck only: two-deck rules raise ``ValueError``.

    >>> encode_douzero("33R")[:8].tolist(), encode_douzero("33R")[52:].tolist()
    ([1, 1, 0, 0, 0, 0, 0, 0], [0, 1])
    >>> encode_douzero(["3", "BR"]).shape
    (2, 54)
    """
    r = resolve_rules(rules)
    if r.decks != 1:
        raise ValueError(
            f"DouZero's 54-slot encoding holds one deck (4 cards a rank); "
            f"rules {r.name!r} use {r.decks} decks"
        )
    counts, batch = _counts(x, r)
    out = cards54_rows(np.ascontiguousarray(counts, dtype=np.uint8))   # (the features' own encoder)
    return out if batch else out[0]


def encode_counts(
    x: CardsLike | Move | CountsBatchLike,
    *,
    dtype: DTypeLike = np.uint8,
    rules: RulesLike = "standard",
) -> npt.NDArray[Any]:
    """The 15 rank counts, ``(15,)`` or ``(N, 15)`` for a batch, in ``dtype``.

    The default ``uint8`` is exact and compact; pass ``dtype=np.float32`` for a
    network input.  Counts are checked against the rules' deck.

    >>> encode_counts("334R", dtype=np.float32).tolist()[:3]
    [2.0, 1.0, 0.0]
    """
    try:
        dt = np.dtype(dtype)
    except (TypeError, ValueError, SyntaxError, OverflowError):   # (NumPy parses some strings as Python)
        raise TypeError(f"encode_counts needs a NumPy integer or float dtype, not {dtype!r:.80}") from None
    if dt.kind not in "iuf" or dt == np.bool_:
        raise TypeError(f"encode_counts needs an integer or float dtype, not {dt}")
    counts, batch = _counts(x, resolve_rules(rules))
    out = counts.astype(dt)
    return out if batch else out[0]
