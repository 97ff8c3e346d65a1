"""Type stub for the compiled :mod:`ddz_fast._engine.bots` (source: _engine/bots.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .._core.move import Move
from ..game_values import AuctionAction
from ..rules import Rules

__all__ = ["bot_move_index", "bot_auction_index"]

def bot_auction_index(hand: npt.NDArray[np.uint8], choices: Sequence[AuctionAction]) -> int: ...
def bot_move_index(hand: npt.NDArray[np.uint8], last: Move | None, rules: Rules | str,
                   rows: npt.NDArray[np.uint8], me: int, landlord: int | None, last_player: int | None,
                   sizes: Sequence[int]) -> int: ...
