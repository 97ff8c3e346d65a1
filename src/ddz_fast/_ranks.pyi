"""Type stub for the compiled :mod:`ddz_fast._ranks` (source: _ranks.pyx)."""

from typing import final

import numpy as np
import numpy.typing as npt

from ._lookup import IdFinder, ReusedMask
from ._move import Move
from .cards import CardsLike
from .rules import Rules, RulesLike

__all__ = ["MoveRanks", "ActionMasks", "TranslatedIds", "space_ranks", "max_hand", "FIRST_MOVE_ID"]

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

    def _set_ranks(self, ranks: MoveRanks) -> None: ...
    def mask(
        self, hand: CardsLike, last: Move | None = None, *, out: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.bool_]: ...

FIRST_MOVE_ID: int

def max_hand(rules: RulesLike) -> int:
    """The most cards a player holds in a game under `rules`."""
def space_ranks(rules: RulesLike) -> MoveRanks:
    """The cached ``MoveRanks`` of the action space of `rules`."""
