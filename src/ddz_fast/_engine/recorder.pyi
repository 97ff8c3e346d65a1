"""Type stub for the compiled :mod:`ddz_fast._engine.recorder` (source: _engine/recorder.pyx)."""

from typing import final

import numpy as np
import numpy.typing as npt

from .vec import VecGame

__all__ = ["StepRecorder"]

@final
class StepRecorder:
    """Every step of a VecGame, handed out as whole games in the order they end."""

    def __init__(self, vg: VecGame, limit: int) -> None: ...
    def step(self, actions: npt.NDArray[np.integer] | list[int] | tuple[int, ...]) -> None: ...
    def take(self) -> dict[str, npt.NDArray[np.generic]]: ...
    @property
    def games(self) -> int: ...
    @property
    def pending_games(self) -> int: ...
    @property
    def pending_rows(self) -> int: ...
    @property
    def pending_ids(self) -> int: ...
