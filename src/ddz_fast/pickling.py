"""The unpickling entry points of ddz-fast: the only names its pickles hold.

Every object of ddz-fast that can be pickled reduces to one of the ``load_*``
functions below and one *state*: a tuple whose first item is the state's
format version (:data:`FORMAT` for the pickles this release writes),
followed by plain values (ints, bytes, NumPy arrays, a :class:`~ddz_fast.Rules`).
Pickles therefore name no private module, and the private modules can move
between releases without breaking saved games, datasets or Ray workers. A
state whose version this release does not read is refused with a
``ValueError`` that names both versions.

Each loader checks its state as it would check a call from Python: a forged
or damaged pickle fails with ``TypeError``/``ValueError``; it never makes an
object that breaks the engine.

>>> import pickle, ddz_fast
>>> game = ddz_fast.Game(seed=1)
>>> game.step(game.legal_actions()[-1])
>>> pickle.loads(pickle.dumps(game)).history == game.history
True
>>> ddz_fast.Move.__reduce__(ddz_fast.parse_move("55"))[0] is load_move
True

Pickles written by ddz-fast 0.1.0, which named private modules, still load
(``tests/test_pickle_compat.py`` holds such pickles).
"""
from __future__ import annotations

import importlib
from typing import Any, Dict, Tuple

import numpy as np

from .rules import Rules

__all__ = ["FORMAT", "load_move", "load_wild_move", "load_move_list", "load_wild_move_list",
           "load_move_batch", "load_wild_move_batch", "load_game", "load_split_mix", "load_action_space",
           "load_solver", "load_pimc_agent", "load_playout_results"]

#: The format version of the states this release writes.
FORMAT = 1


_IMPORTED: Dict[Tuple[str, str], Any] = {}


def _late(module: str, name: str) -> Any:
    """``name`` of ``module`` (relative to the package), imported on first
    use: the modules that pickle import this one at load time, so it cannot
    import them at its own (and an import statement per unpickled object is a
    measurable part of a small unpickle)."""
    try:
        return _IMPORTED[module, name]
    except KeyError:
        value = _IMPORTED[module, name] = getattr(importlib.import_module(module, __package__), name)
        return value


def _fields(state: object, what: str, n: int) -> Tuple[Any, ...]:
    """The ``n`` fields after the version of a ``what`` state."""
    if type(state) is tuple and len(state) == n + 1 and type(state[0]) is int and state[0] == FORMAT:
        return state[1:]         # (the common case, first: unpickling is often in a hot loop)
    if not isinstance(state, tuple) or not state:
        raise TypeError(f"a pickled {what} state must be a tuple, not {type(state).__name__}")
    version = state[0]
    if type(version) is not int:
        raise ValueError(f"a pickled {what} state must start with its format version, not {version!r}")
    if version != FORMAT:
        raise ValueError(f"this {what} was pickled in format {version}; this release of ddz-fast reads "
                         f"format {FORMAT}")
    if len(state) != n + 1:
        raise ValueError(f"a pickled {what} state of format {FORMAT} has {n + 1} items, not {len(state)}")
    return state[1:]


def load_move(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.Move` from ``(FORMAT, kind, counts, rank, length)``:
    the kind's code, the 15 counts as bytes, the rank and the length."""
    kind, counts, rank, length = _fields(state, "Move", 4)
    if not isinstance(counts, bytes):
        raise TypeError(f"a pickled Move's counts must be bytes, not {type(counts).__name__}")
    return _late("._core.move", "Move")._make(kind, tuple(counts), rank, length)


def load_wild_move(state: Tuple[Any, ...]) -> Any:
    """A wild-card :class:`~ddz_fast.Move` from ``(FORMAT, kind, counts,
    represents, wild)``: the kind's code, the cards played and the counts
    they represent as 15 bytes each, and the wild ranks (a tuple)."""
    kind, counts, represents, wild = _fields(state, "Move", 4)
    return _late("._core.move", "Move")._make_wild(kind, counts, represents, wild)


def load_move_list(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.MoveList` from ``(FORMAT, rows, rules)``: 16 bytes
    a move, each checked to be a legal move under ``rules`` (a Rules or
    None)."""
    rows, rules = _fields(state, "MoveList", 2)
    return _late("._core.movelist", "_movelist_from_rows")(rows, rules)


def load_wild_move_list(state: Tuple[Any, ...]) -> Any:
    """A wild-card :class:`~ddz_fast.MoveList` from ``(FORMAT, moves, rules,
    wild)``: its moves (each checked to be a reading of its cards under the
    rules and the wild ranks)."""
    moves, rules, wild = _fields(state, "MoveList", 3)
    return _late("._core.movelist", "_wild_movelist_from_moves")(moves, rules, wild)


def load_move_batch(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.MoveBatch` from ``(FORMAT, rows, offsets, rules)``."""
    rows, offsets, rules = _fields(state, "MoveBatch", 3)
    return _late("._core.movelist", "_movebatch_from_arrays")(rows, offsets, rules)


def load_wild_move_batch(state: Tuple[Any, ...]) -> Any:
    """A wild-card :class:`~ddz_fast.MoveBatch` from ``(FORMAT, hands, rules,
    wild)``: each hand's moves as a list (checked as for a wild MoveList)."""
    lists, rules, wild = _fields(state, "MoveBatch", 3)
    return _late("._core.movelist", "_wild_movebatch_from_lists")(lists, rules, wild)


def load_game(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.Game` from ``(FORMAT, rules, origin, actions)``:
    its origin (``("deal", seed, deal_number)`` or ``("position", kwargs)``
    of :meth:`Game.from_position <ddz_fast.Game.from_position>`) and its
    actions (17 bytes each: the action code and the move row), replayed
    through the checked entry points."""
    rules, origin, actions = _fields(state, "Game", 3)
    return _late("._engine.game", "_restore_game")(rules, origin, actions)


def load_split_mix(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.SplitMix64` from ``(FORMAT, state)``."""
    (s,) = _fields(state, "SplitMix64", 1)
    return _late("._util.rng", "SplitMix64")(s)


def load_action_space(state: Tuple[Any, ...]) -> Any:
    """The :class:`~ddz_fast.ActionSpace` of ``(FORMAT, rules)``."""
    (rules,) = _fields(state, "ActionSpace", 1)
    return _late(".actions", "action_space")(rules)


def load_solver(state: Tuple[Any, ...]) -> Any:
    """A new :class:`~ddz_fast.Solver` from ``(FORMAT, table_mb)`` (its table
    is a cache, not state: an unpickled Solver starts empty)."""
    (table_mb,) = _fields(state, "Solver", 1)
    return _late(".solver", "Solver")(table_mb)


def load_pimc_agent(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.PIMCAgent` from ``(FORMAT, worlds, options)``,
    ``options`` being its keyword arguments."""
    worlds, options = _fields(state, "PIMCAgent", 2)
    if not isinstance(options, dict):
        raise TypeError(f"a pickled PIMCAgent's options must be a dict, not {type(options).__name__}")
    return _late(".pimc", "PIMCAgent")(worlds, **options)


def load_playout_results(state: Tuple[Any, ...]) -> Any:
    """A :class:`~ddz_fast.game.PlayoutResults` from ``(FORMAT, rules, seed,
    first_game, elapsed, arrays)``, ``arrays`` a dict of its per-game NumPy
    arrays (every field, one length)."""
    PlayoutResults = _late("._engine.playout", "PlayoutResults")
    rules, seed, first_game, elapsed, arrays = _fields(state, "PlayoutResults", 5)
    if not isinstance(rules, Rules):
        raise TypeError(f"a pickled PlayoutResults' rules must be a Rules, not {type(rules).__name__}")
    if not isinstance(arrays, dict) or set(arrays) != set(PlayoutResults.FIELDS):
        raise ValueError(f"a pickled PlayoutResults holds the arrays {', '.join(PlayoutResults.FIELDS)}")
    if not all(isinstance(a, np.ndarray) for a in arrays.values()) or \
            len({len(a) for a in arrays.values()}) != 1:
        raise ValueError("a pickled PlayoutResults' arrays must be NumPy arrays of one length")
    return PlayoutResults(rules, seed, first_game, elapsed, **arrays)
