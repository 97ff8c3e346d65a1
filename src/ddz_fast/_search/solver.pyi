"""Type stub for the compiled :mod:`ddz_fast._search.solver` (source: _search/solver.pyx).
Internal: the public API is :mod:`ddz_fast.solver`."""

from .._core.move import Move
from ..rules import RulesLike

__all__ = ["_Engine", "_RootShare", "MAX_SEATS"]

MAX_SEATS: int

class _RootShare:
    def __init__(self) -> None: ...

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
