"""ddz-fast: fast, exact Dou Dizhu move generation and a compiled game engine.

The package re-exports the names most code needs from its public modules,
each of which is one concept over the private, compiled layers (see
CONTRIBUTING.md, "Layout"): :mod:`ddz_fast.moves` (the fast move path),
:mod:`ddz_fast.game`, :mod:`ddz_fast.vec`, :mod:`ddz_fast.actions`,
:mod:`ddz_fast.solver`, :mod:`ddz_fast.pimc`, and more.
:mod:`ddz_fast.reference` holds the pure-Python oracle of the move path, with
the same names, signatures and results.

Each name below is written once (``X as X``: an explicit re-export for type
checkers); ``__all__`` is what this file imports.
"""
from types import ModuleType as _ModuleType

from ._version import __version__ as __version__
from .errors import (
    AgentError as AgentError,
    AmbiguousMoveError as AmbiguousMoveError,
    DdzError as DdzError,
    IllegalActionError as IllegalActionError,
    InvalidMoveError as InvalidMoveError,
)
from .kinds import (
    Kind as Kind,
)
from .rules import (
    PRESETS as PRESETS,
    Rules as Rules,
    resolve_rules as resolve_rules,
)
from .cards import (
    RANKS as RANKS,
    format_cards as format_cards,
    parse_cards as parse_cards,
    to_counts as to_counts,
)

# The fast move path.
from .moves import (
    PASS as PASS,
    Move as Move,
    MoveBatch as MoveBatch,
    MoveList as MoveList,
    beats as beats,
    classify as classify,
    count_moves as count_moves,
    legal_moves as legal_moves,
    legal_moves_batch as legal_moves_batch,
    parse_move as parse_move,
)

# The game engine: deals, auctions, play, scoring, sessions, compiled
# playouts, and world sampling from what a player has seen.
from .game import (
    BID_PASS as BID_PASS,
    CALL as CALL,
    DECLINE as DECLINE,
    DOUBLE as DOUBLE,
    NO_DOUBLE as NO_DOUBLE,
    ROB as ROB,
    AuctionAction as AuctionAction,
    Bid as Bid,
    Call as Call,
    Decline as Decline,
    Double as Double,
    Game as Game,
    GameResult as GameResult,
    Observation as Observation,
    Phase as Phase,
    PlayoutResults as PlayoutResults,
    Rob as Rob,
    Session as Session,
    SplitMix64 as SplitMix64,
    game_seed as game_seed,
    play_random_games as play_random_games,
    policy_seed as policy_seed,
    sample_observed_worlds as sample_observed_worlds,
    settle as settle,
)

# Interop: other engines' card formats, encoders for networks, dense action
# ids (RLCard's own ids live in ddz_fast.compat.rlcard).
from .convert import (
    counts_to_douzero as counts_to_douzero,
    counts_to_douzero_batch as counts_to_douzero_batch,
    counts_to_rlcard as counts_to_rlcard,
    counts_to_rlcard_batch as counts_to_rlcard_batch,
    douzero_to_counts as douzero_to_counts,
    douzero_to_counts_batch as douzero_to_counts_batch,
    rlcard_to_counts as rlcard_to_counts,
    rlcard_to_counts_batch as rlcard_to_counts_batch,
    to_counts_batch as to_counts_batch,
)
from .encode import (
    encode_counts as encode_counts,
    encode_douzero as encode_douzero,
)
from .actions import (
    ActionSpace as ActionSpace,
    action_space as action_space,
)

# The batched game: many tables stepped in one compiled call.
from .vec import (
    VecGame as VecGame,
)

# Perfect-information endgame solving, and the search agent built on it.
from .solver import (
    Position as Position,
    SolveResult as SolveResult,
    Solver as Solver,
    position_from_game as position_from_game,
    solve as solve,
    solve_game as solve_game,
    winning_line as winning_line,
)
from .pimc import (
    PIMCAgent as PIMCAgent,
    PIMCValues as PIMCValues,
)

# The module names of pickles written by 0.1.0 (see _legacy).
from . import _legacy  # noqa: F401  (registers the old names)

__all__ = ["__version__"] + sorted(
    name for name, value in globals().items()
    if not name.startswith("_") and not isinstance(value, _ModuleType)
)
