"""Type stub for the compiled :mod:`ddz_fast._search.solver` (source: _search/solver.pyx).
Internal: the public API is :mod:`ddz_fast.solver`."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .._core.move import Move
from .._engine.game import Game
from ..rules import RulesLike
from .._util.interrupt import Stop

__all__ = ["_Engine", "_RootShare", "_Position", "MAX_SEATS", "solve_worlds", "next_turn"]

MAX_SEATS: int

class _RootShare:
    def __init__(self) -> None: ...
    @property
    def stop(self) -> Stop: ...

class _Position:
    @staticmethod
    def from_counts(hands: bytes, sides: tuple[int, ...], rules: RulesLike, to_move: int,
                    last_row: bytes | None, last_by: int, wmask: int = 0) -> _Position: ...
    @staticmethod
    def from_game(game: Game) -> _Position: ...
    @property
    def to_move(self) -> int: ...

class _Engine:
    @property
    def table_bytes(self) -> int: ...
    @property
    def last_nodes(self) -> int: ...
    def __init__(self, table_bytes: int) -> None: ...
    def run(
        self,
        hands: bytes,
        sides: tuple[int, ...],
        rules: RulesLike,
        ban: int,
        to_move: int,
        last_row: bytes | None,
        last_by: int,
        all_moves: bool,
        max_nodes: int,
        max_time: float,
        share: _RootShare | None = None,
        from_back: bool = False,
    ) -> tuple[int, list[int], list[Move], int]: ...
    def run_position(
        self,
        position: _Position,
        ban: int,
        all_moves: bool,
        max_nodes: int,
        max_time: float,
        share: _RootShare | None = None,
        from_back: bool = False,
    ) -> tuple[int, list[int], list[Move], int]: ...

def solve_worlds(game: Game, worlds: npt.NDArray[np.uint8], moves: Sequence[Move], max_nodes: int,
                 max_time: float, table_bytes: int) -> npt.NDArray[np.float64]: ...
def next_turn(players: int, mover: int, passed: bool, last_by: int) -> tuple[int, int]: ...
def _set_tags(last: int, wrapped: bool) -> tuple[int, bool]: ...
