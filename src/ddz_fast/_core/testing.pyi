"""Type stub for the compiled :mod:`ddz_fast._core.testing` (source: _core/testing.pyx):
hooks for the benchmarks and the tests only, not part of the API."""

from collections.abc import Sequence
from typing import Any

import numpy.typing as npt

from ..rules import RulesLike
from .move import Move

__all__ = ["time_kernel", "time_wild_kernel", "rules_c_fields", "rules_c_of", "move_valid_bits"]

def time_kernel(
    hands: npt.ArrayLike,
    lasts: object = None,
    *,
    rules: RulesLike = "standard",
    repeat: int = 5,
    count: bool = False,
) -> tuple[float, int, float]: ...
def time_wild_kernel(
    hands: Any, wild_ranks: Sequence[Any], *, rules: RulesLike = "laizi", repeat: int = 5
) -> tuple[float, int]: ...
def rules_c_fields() -> list[str]: ...
def rules_c_of(rules: object) -> dict[str, int]: ...
def move_valid_bits(move: Move) -> int: ...
