"""ddz-fast: fast, exact Dou Dizhu move generation.

The top-level functions are the fast path; :mod:`ddz_fast.reference` holds the
pure-Python oracle with the same names, signatures and results.
"""
from ._version import __version__
from ._move import PASS, Move
from .kinds import Kind
from .rules import PRESETS, Rules, resolve_rules
from .cards import RANKS, format_cards, parse_cards, to_counts
from ._api import (
    MoveBatch,
    MoveList,
    beats,
    classify,
    count_moves,
    legal_moves,
    legal_moves_batch,
    parse_move,
)

__all__ = [
    "__version__",
    "Kind",
    "Move",
    "PASS",
    "Rules",
    "PRESETS",
    "resolve_rules",
    "RANKS",
    "parse_cards",
    "format_cards",
    "to_counts",
    "legal_moves",
    "classify",
    "beats",
    "parse_move",
    "legal_moves_batch",
    "count_moves",
    "MoveList",
    "MoveBatch",
]

# The exceptions (ddz_fast.errors): illegal actions, move text that is no
# move or reads as several, an agent whose code raised.
from .errors import AgentError, AmbiguousMoveError, DdzError, IllegalActionError, InvalidMoveError  # noqa: E402

__all__ += ["DdzError", "IllegalActionError", "InvalidMoveError", "AmbiguousMoveError", "AgentError"]

# The game engine: deals, auctions, play, scoring, sessions and compiled playouts.
from .game import (  # noqa: E402
    BID_PASS,
    CALL,
    DECLINE,
    DOUBLE,
    NO_DOUBLE,
    ROB,
    AuctionAction,
    Bid,
    Call,
    Decline,
    Double,
    Game,
    GameResult,
    Observation,
    Phase,
    PlayoutResults,
    Rob,
    Session,
    SplitMix64,
    game_seed,
    play_random_games,
    policy_seed,
    settle,
)

__all__ += [
    "Game",
    "Session",
    "Phase",
    "GameResult",
    "Observation",
    "AuctionAction",
    "Bid",
    "Call",
    "Rob",
    "Decline",
    "Double",
    "BID_PASS",
    "CALL",
    "ROB",
    "DECLINE",
    "DOUBLE",
    "NO_DOUBLE",
    "settle",
    "play_random_games",
    "PlayoutResults",
    "SplitMix64",
    "game_seed",
    "policy_seed",
]

# Interop: other engines' card formats, encoders for networks, dense action ids.
# (RLCard's action ids live in ddz_fast.compat.rlcard.)
from .convert import (  # noqa: E402
    counts_to_douzero,
    counts_to_douzero_batch,
    counts_to_rlcard,
    counts_to_rlcard_batch,
    douzero_to_counts,
    douzero_to_counts_batch,
    rlcard_to_counts,
    rlcard_to_counts_batch,
    to_counts_batch,
)
from .encode import encode_counts, encode_douzero  # noqa: E402
from .actions import ActionSpace, action_space  # noqa: E402

__all__ += [
    "douzero_to_counts",
    "counts_to_douzero",
    "douzero_to_counts_batch",
    "counts_to_douzero_batch",
    "rlcard_to_counts",
    "counts_to_rlcard",
    "rlcard_to_counts_batch",
    "counts_to_rlcard_batch",
    "to_counts_batch",
    "encode_douzero",
    "encode_counts",
    "ActionSpace",
    "action_space",
]

# The batched game: many tables stepped in one compiled call.
from ._vec import VecGame  # noqa: E402

__all__ += ["VecGame"]

# Perfect-information endgame solving (the compiled search in _solver).
from .solver import (  # noqa: E402
    Position,
    SolveResult,
    Solver,
    position_from_game,
    solve,
    solve_game,
    winning_line,
)

__all__ += ["solve", "solve_game", "position_from_game", "winning_line", "Solver", "SolveResult", "Position"]

# Search: world sampling from what a player has seen.
from ._engine import sample_observed_worlds  # noqa: E402

__all__ += ["sample_observed_worlds"]

# Search agents.
from .pimc import PIMCAgent, PIMCValues  # noqa: E402

__all__ += ["PIMCAgent", "PIMCValues"]
