"""Type stub for the compiled :mod:`ddz_fast._engine.playout` (source: _engine/playout.pyx)."""

from typing import Any, ClassVar, SupportsIndex

import numpy as np
import numpy.typing as npt

from ..rules import Rules, RulesLike

__all__ = ["play_random_games", "PlayoutResults", "MAX_GAMES"]

MAX_GAMES: int

class PlayoutResults:
    """Per-game results of :func:`play_random_games` (one row per game)."""

    FIELDS: ClassVar[tuple[str, ...]]
    rules: Rules
    seed: int
    first_game: int
    elapsed: float
    landlord: npt.NDArray[np.int8]
    landlord_won: npt.NDArray[np.bool_]
    scores: npt.NDArray[np.int64]
    plies: npt.NDArray[np.int32]
    bombs: npt.NDArray[np.int32]
    spring: npt.NDArray[np.int8]
    base: npt.NDArray[np.int32]
    redeals: npt.NDArray[np.int32]
    doubles: npt.NDArray[np.int32]
    value: npt.NDArray[np.int64]
    game_seeds: npt.NDArray[np.uint64]
    cards_left: npt.NDArray[np.int16]
    cards_played: npt.NDArray[np.int16]
    def __init__(
        self, rules: Rules, seed: int, first_game: int, elapsed: float, **arrays: npt.NDArray[Any]
    ) -> None: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def as_dict(self) -> dict[str, npt.NDArray[Any]]: ...
    def summary(self) -> dict[str, Any]: ...

def play_random_games(
    n_games: SupportsIndex,
    *,
    rules: RulesLike = "standard",
    seed: int = 0,
    threads: int = 1,
    first_game: int = 0,
) -> PlayoutResults: ...
