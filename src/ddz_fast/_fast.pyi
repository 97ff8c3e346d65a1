"""Type stub for the compiled :mod:`ddz_fast._fast` (source: _fast.pyx)."""

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, SupportsIndex, final, overload

import numpy as np
import numpy.typing as npt

from ._move import Move
from .cards import CardsLike
from .kinds import Kind
from .rules import Rules, RulesLike

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

@final
class MoveList:
    """The legal moves of one hand: a read-only sequence of :class:`Move`
    backed by one buffer of 16-byte rows (15 counts, then the kind code)."""

    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Move: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __reversed__(self) -> Iterator[Move]: ...
    def __contains__(self, move: object, /) -> bool: ...
    def index(self, move: object) -> int: ...
    def count(self, move: object) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def card_lists(self, values: Sequence[Any] | None = None, *, unique: bool = False) -> list[list[Any]]:
        """Each move as a list of card labels, ``values[r]`` once per card of rank ``r``."""
    def tolist(self) -> list[Move]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def rows(self) -> npt.NDArray[np.uint8]:
        """(M, 16) read-only view: 15 counts, then the kind code."""
    @property
    def counts(self) -> npt.NDArray[np.uint8]:
        """(M, 15) read-only view: the cards of each move."""
    @property
    def kinds(self) -> npt.NDArray[np.uint8]:
        """(M,) read-only view: the ``Kind`` value of each move."""
    @property
    def ranks(self) -> npt.NDArray[np.int8]:
        """(M,) rank of each move (-1 for PASS)."""
    @property
    def lengths(self) -> npt.NDArray[np.int8]:
        """(M,) number of primal groups of each move (0 for PASS)."""
    @property
    def n_cards(self) -> npt.NDArray[np.int8]:
        """(M,) number of cards of each move."""

class MoveBatch:
    """The moves of many hands: hand ``i``'s moves are
    ``rows[offsets[i]:offsets[i + 1]]``."""

    @property
    def rows(self) -> npt.NDArray[np.uint8]:
        """(T, 16) read-only uint8 rows of every move."""
    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        """(N + 1,) int64 offsets into ``rows``."""
    def __len__(self) -> int: ...
    def __getitem__(self, i: SupportsIndex, /) -> MoveList: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def counts(self) -> npt.NDArray[np.uint8]: ...
    @property
    def kinds(self) -> npt.NDArray[np.uint8]: ...
    @property
    def hand_index(self) -> npt.NDArray[np.intp]:
        """(T,) which hand each move belongs to."""

def legal_moves(hand: CardsLike, last: Move | None = None, *, rules: RulesLike = "standard") -> MoveList: ...
def classify(cards: CardsLike, *, rules: RulesLike = "standard") -> list[Move]: ...
def beats(a: Move, b: Move, *, rules: RulesLike = "standard") -> bool: ...
def parse_move(text: str, kind: Kind | int | str | None = None, *, rules: RulesLike = "standard") -> Move: ...
def legal_moves_batch(
    hands: _Hands, lasts: _Lasts | None = None, *, rules: RulesLike = "standard", threads: int = 1
) -> MoveBatch: ...

# One hand (text or 15 ints) gives an int; an (N, 15) batch an (N,) int64
# array.  For a numpy array the result depends on its number of dimensions,
# which the type system does not see: annotate the variable you assign to.
@overload
def count_moves(
    hands: str | Sequence[int], lasts: Move | None = None, *, rules: RulesLike = "standard", threads: int = 1
) -> int: ...
@overload
def count_moves(
    hands: Sequence[Sequence[int]], lasts: _Lasts | None = None, *, rules: RulesLike = "standard", threads: int = 1
) -> npt.NDArray[np.int64]: ...
@overload
def count_moves(
    hands: npt.NDArray[np.integer[Any]],
    lasts: Move | _Lasts | None = None,
    *,
    rules: RulesLike = "standard",
    threads: int = 1,
) -> Any: ...
def _movelist_from_rows(rows: bytes, rules: Rules | None) -> MoveList: ...
