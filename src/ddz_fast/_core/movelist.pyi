"""Type stub for the compiled :mod:`ddz_fast._core.movelist` (source: _core/movelist.pyx)."""

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, SupportsIndex, final, overload

import numpy as np
import numpy.typing as npt

from .move import Move
from ..rules import Rules

__all__ = ["MoveRows", "MoveList", "MoveBatch"]

class MoveRows:
    """A read-only block of move rows (15 counts, then the kind code): the
    base of :class:`MoveList` and :class:`MoveBatch`, with their shared views."""

    @property
    def rows(self) -> npt.NDArray[np.uint8]:
        """(M, 16) read-only view: 15 counts, then the kind code."""
    @property
    def counts(self) -> npt.NDArray[np.uint8]:
        """(M, 15) read-only view: the cards each move plays."""
    @property
    def represents(self) -> npt.NDArray[np.uint8]:
        """(M, 15) read-only view: the counts each move is read as."""
    @property
    def bomb_classes(self) -> npt.NDArray[np.uint8]:
        """(M,) bomb class codes: 0 none, 1 soft, 2 hard, 3 wild, 4 rocket."""
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

@final
class MoveList(MoveRows):
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

@final
class MoveBatch(MoveRows):
    """The moves of many hands: hand ``i``'s moves are
    ``rows[offsets[i]:offsets[i + 1]]``."""

    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        """(N + 1,) int64 offsets into ``rows``."""
    def __len__(self) -> int: ...
    def __getitem__(self, i: SupportsIndex, /) -> MoveList: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __repr__(self) -> str: ...
    @property
    def hand_index(self) -> npt.NDArray[np.intp]:
        """(T,) which hand each move belongs to."""


def _movelist_from_rows(rows: bytes, rules: Rules | None) -> MoveList: ...
def _movebatch_from_arrays(rows: Any, offsets: Any, rules: Rules | None) -> MoveBatch: ...
def _wild_movelist_from_moves(moves: list[Move], rules: Rules, wild: tuple[int, ...]) -> MoveList: ...
def _wild_movebatch_from_lists(lists: list[list[Move]], rules: Rules, wild: tuple[int, ...]) -> MoveBatch: ...
