"""Type stub for the compiled :mod:`ddz_fast._core.ranks` (source: _core/ranks.pyx)."""

from typing import final

import numpy as np
import numpy.typing as npt

from .lookup import IdFinder, ReusedMask
from .move import Move
from .movelist import MoveList
from ..cards import CardsLike
from ..rules import Rules, RulesLike

__all__ = ["MoveRanks", "ActionMasks", "TranslatedIds", "WildIds", "space_ranks", "max_hand", "wild_cards_ids"]

@final
class MoveRanks(IdFinder):
    """The action ids of one rules' space, each computed from the move's cards."""

    def __init__(self, rules: RulesLike, max_cards: int) -> None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def table(self) -> npt.NDArray[np.uint8]: ...
    def legal_mask(
        self,
        hand: CardsLike,
        last: Move | None,
        reused: ReusedMask,
        out: npt.NDArray[np.bool_] | None,
    ) -> npt.NDArray[np.bool_]: ...

@final
class TranslatedIds(IdFinder):
    """Another numbering of the moves of a space: ``of_move[k]`` for move ``k``."""

    def __init__(self, ranks: MoveRanks, of_move: npt.ArrayLike, n_ids: int) -> None: ...

class ActionMasks:
    """The compiled base of ``ActionSpace``: its ``mask``."""

    def _set_ranks(self, ranks: MoveRanks, *, rules: Rules, max_cards: int, moves: MoveList) -> None: ...
    @property
    def _lookup(self) -> MoveRanks: ...
    @property
    def _rows(self) -> npt.NDArray[np.uint8]: ...
    @property
    def _rules(self) -> Rules: ...
    @property
    def _max_cards(self) -> int: ...
    @property
    def _moves(self) -> MoveList: ...
    def mask(
        self, hand: CardsLike, last: Move | None = None, *, out: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.bool_]: ...


@final
class WildIds:
    """The flat ids of wild moves: reading id * cards_size + cards id."""

    readings: MoveRanks
    cards_size: int
    def __init__(self, readings: MoveRanks, first: npt.NDArray[np.int64], n: int, splits: int) -> None: ...


def max_hand(rules: RulesLike) -> int:
    """The most cards a player holds in a game under `rules`."""
def space_ranks(rules: RulesLike) -> MoveRanks:
    """The cached ``MoveRanks`` of the action space of `rules`."""
def wild_cards_ids(
    rep_rows: npt.NDArray[np.uint8],
    phys_rows: npt.NDArray[np.uint8],
    wmask: int,
    splits: int,
    first: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> int:
    """Cards ids of wild moves into ``out``; the first move that is no reading (-1: none)."""
