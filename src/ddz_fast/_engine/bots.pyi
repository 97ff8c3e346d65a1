"""Type stub for the compiled :mod:`ddz_fast._engine.bots` (source: _engine/bots.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..game_values import AuctionAction

__all__ = ["bot_move_index", "bot_auction_index"]

def bot_auction_index(hand: npt.NDArray[np.uint8], choices: Sequence[AuctionAction]) -> int: ...
def bot_move_index(rows: npt.NDArray[np.uint8], me: int, landlord: int | None, last_player: int | None,
                   sizes: Sequence[int]) -> int: ...
