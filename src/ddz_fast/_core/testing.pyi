"""Type stub for the compiled :mod:`ddz_fast._core.testing` (source: _core/testing.pyx):
hooks for the benchmarks and the tests only, not part of the API."""

import numpy.typing as npt

from ..rules import RulesLike
from .move import Move

__all__ = ["time_kernel", "rules_c_fields", "move_valid_bits"]

def time_kernel(
    hands: npt.ArrayLike,
    lasts: object = None,
    *,
    rules: RulesLike = "standard",
    repeat: int = 5,
    count: bool = False,
) -> tuple[float, int, float]: ...
def rules_c_fields() -> list[str]: ...
def move_valid_bits(move: Move) -> int: ...
