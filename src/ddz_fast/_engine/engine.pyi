"""Type stub for the compiled :mod:`ddz_fast._engine.engine` (source: _engine/engine.pyx)."""

import numpy as np
import numpy.typing as npt

from .._util.rng import SplitMix64
from ..rules import Rules, RulesLike

__all__ = ["deal", "settle_scores", "MAX_BASE", "max_bombs", "observation_fields"]

MAX_BASE: int

def max_bombs(rules: Rules) -> int: ...
def observation_fields(rules: RulesLike) -> tuple[tuple[str, int, int, int], ...]: ...
def deal(rng: SplitMix64, rules: RulesLike = "standard") -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
def settle_scores(players: int, landlord: int, landlord_won: bool, base: int, bombs: int,
                  spring: int, doubles: int) -> tuple[int, tuple[int, ...]]: ...
