"""Type stub for the compiled :mod:`ddz_fast._playout` (source: _playout.pyx)."""

from collections.abc import Sequence
from typing import Any, ClassVar, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from ._fast import MoveList
from ._move import Move
from .game import AuctionAction, GameResult
from .rules import Rules, RulesLike

__all__ = ["GameCore", "PlayoutResults", "SplitMix64", "deal", "game_seed", "play_random_games", "policy_seed"]

class SplitMix64:
    """The project's seeded 64-bit generator (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None: ...
    @property
    def state(self) -> int: ...
    @state.setter
    def state(self, value: int) -> None: ...
    def next(self) -> int: ...
    def below(self, n: SupportsIndex) -> int:
        """An unbiased int in ``[0, n)``."""
    def copy(self) -> SplitMix64: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def game_seed(seed: int, i: int) -> int: ...
def policy_seed(g: int) -> int: ...
def deal(rng: SplitMix64, rules: RulesLike = "standard") -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...

class GameCore:
    """State and per-action work of :class:`ddz_fast.game.Game` (which
    subclasses it and documents the API).  Names starting with ``_`` are
    internal."""

    rules: Rules
    seed: int | None
    history: list[tuple[int, Any]]
    kitty: npt.NDArray[np.uint8] | None
    first_bidder: int | None
    deal_number: int
    base: int
    bombs: int
    kitty_revealed: bool
    # Internal state (public to the Game subclass).
    _undo: list[Any]
    _legal: Any
    _result: GameResult | None
    _rng: SplitMix64 | None
    _last: Move | None
    _queue: tuple[int, ...]
    _n: int
    _hsize: int
    _ksize: int
    _phase: int
    _to_move: int
    _landlord: int
    _doubles: int
    _plies: int
    _bid: int
    _bidder: int
    _apasses: int
    _caller: int
    _robs: int
    _last_player: int
    _passes: int
    _rob: bool
    @property
    def _hands(self) -> npt.NDArray[np.uint8]: ...
    @property
    def _views(self) -> list[npt.NDArray[np.uint8]]: ...
    # Supplied by the subclass.
    _BID_CHOICES: ClassVar[tuple[tuple[AuctionAction, ...], ...]]
    _CALL_CHOICES: ClassVar[tuple[AuctionAction, ...]]
    _ROB_CHOICES: ClassVar[tuple[AuctionAction, ...]]
    _DOUBLE_CHOICES: ClassVar[tuple[AuctionAction, ...]]
    def _configure(self, rules: Rules, seed: int | None) -> None: ...
    def _set_hands(self, hands: npt.NDArray[np.uint8], sizes: Sequence[int] | None = None) -> None: ...
    def _set_played(self, played: Sequence[int]) -> None: ...
    def _new_deal(self) -> None: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards held per seat."""
    @property
    def played(self) -> tuple[int, ...]:
        """Non-pass moves made so far per seat."""
    def legal_actions(self) -> MoveList | tuple[AuctionAction, ...]:
        """The legal actions of the player to move: a MoveList in the play
        phase, a tuple of auction actions in the auction and doubling phases,
        ``()`` when the game is over."""
    def step(self, action: object) -> None: ...
    def undo(self) -> None: ...
    def clone(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any) -> Self: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

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
def _rebuild_game(cls: type[GameCore], state: tuple[Any, ...]) -> GameCore: ...
