"""Type stub for the compiled :mod:`ddz_fast._core.move` (source: _core/move.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import CardsLike, WildLike
from ..kinds import Kind
from ..rules import Rules, RulesLike

class Move:
    """One move: a kind and its cards.  Immutable and hashable."""

    def __init__(
        self,
        kind: Kind | int | str,
        cards: CardsLike | Move | None = None,
        *,
        rules: RulesLike = "standard",
        wild: WildLike = None,
        represents: CardsLike | None = None,
    ) -> None: ...
    @staticmethod
    def _make(kind: int, counts: Any, rank: int, length: int) -> Move: ...
    @staticmethod
    def _make_wild(kind: int, counts: bytes, represents: bytes, wild: tuple[int, ...]) -> Move: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def rank(self) -> int:
        """Top rank index of the primal group (highest reading); -1 for PASS."""
    @property
    def length(self) -> int:
        """Number of primal groups; 0 for PASS."""
    @property
    def n_cards(self) -> int: ...
    @property
    def counts(self) -> tuple[int, ...]:
        """The cards played: a tuple of 15 counts."""
    @property
    def represents(self) -> tuple[int, ...]:
        """The combination the cards are read as: a tuple of 15 counts."""
    @property
    def bomb_class(self) -> str | None:
        """None, "soft", "hard", "wild" or "rocket"."""
    @property
    def cards(self) -> str:
        """Canonical card text (empty for PASS)."""
    @property
    def is_pass(self) -> bool: ...
    def to_array(self) -> npt.NDArray[np.uint8]:
        """The cards as a fresh ``uint8`` array of shape (15,)."""
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: Any) -> Move: ...

PASS: Move

def pick_reading(readings: list[Move], want: Kind | None, text: str, rules: Rules) -> Move:
    """The one reading of ``text`` of kind ``want``, or its only reading
    (``InvalidMoveError`` or ``AmbiguousMoveError`` otherwise)."""
