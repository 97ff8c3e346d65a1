"""Type stub for the compiled :mod:`ddz_fast._engine.worlds` (source: _engine/worlds.pyx)."""

from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from ..game_values import Observation

__all__ = ["MAX_WORLDS", "sample_observed_worlds"]

MAX_WORLDS: int

def sample_observed_worlds(observation: Observation, n: SupportsIndex, *,
                           seed: int = 0) -> npt.NDArray[np.uint8]: ...
