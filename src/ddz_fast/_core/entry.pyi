"""Type stub for the compiled :mod:`ddz_fast._core.entry` (source: _core/entry.pyx)."""

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from .move import Move
from .movelist import MoveBatch as MoveBatch
from .movelist import MoveList as MoveList
from ..cards import CardsLike, WildLike
from ..kinds import Kind
from ..rules import RulesLike

__all__ = [
    "MoveBatch",
    "MoveList",
    "beats",
    "classify",
    "count_moves",
    "legal_moves",
    "legal_moves_batch",
    "parse_move",
]

# Hands for the batch calls: an (N, 15) integer array (or anything
# numpy.asarray turns into one).
_Hands = npt.NDArray[np.integer[Any]] | Sequence[Sequence[int]]
# One last move per hand: Moves (None or PASS for a lead), or an (N, 16)
# uint8 array of move rows as in MoveList.rows.
_Lasts = Sequence[Move | None] | npt.NDArray[np.uint8]

def legal_moves(
    hand: CardsLike, last: Move | None = None, *, rules: RulesLike = "standard", wild: WildLike = None
) -> MoveList: ...
def classify(cards: CardsLike, *, rules: RulesLike = "standard", wild: WildLike = None) -> list[Move]: ...
def beats(a: Move, b: Move, *, rules: RulesLike = "standard", wild: WildLike = None) -> bool: ...
def parse_move(
    text: str, kind: Kind | int | str | None = None, *, rules: RulesLike = "standard", wild: WildLike = None
) -> Move: ...
def legal_moves_batch(
    hands: _Hands,
    lasts: _Lasts | None = None,
    *,
    rules: RulesLike = "standard",
    threads: int = 1,
    wild: WildLike = None,
) -> MoveBatch: ...

# One hand (text or 15 ints) gives an int; an (N, 15) batch an (N,) int64
# array.  For a numpy array the result depends on its number of dimensions,
# which the type system does not see: annotate the variable you assign to.
@overload
def count_moves(
    hands: str | Sequence[int], lasts: Move | None = None, *, rules: RulesLike = "standard", threads: int = 1,
    wild: WildLike = None,
) -> int: ...
@overload
def count_moves(
    hands: Sequence[Sequence[int]], lasts: _Lasts | None = None, *, rules: RulesLike = "standard", threads: int = 1,
    wild: WildLike = None,
) -> npt.NDArray[np.int64]: ...
@overload
def count_moves(
    hands: npt.NDArray[np.integer[Any]],
    lasts: Move | _Lasts | None = None,
    *,
    rules: RulesLike = "standard",
    threads: int = 1,
    wild: WildLike = None,
) -> Any: ...
