"""Perfect-information endgame solving: who wins a position where every hand
is known, and with which move.

Two forms of the game:

* the two-player puzzle (``landlord=None``): two hands, each its own side,
  as in the endgame puzzles published with other solvers;
* the full table (``landlord=`` a seat): one hand per seat of the rules
  (three, or four with the ``four`` preset); the landlord plays against the
  farmers, and a farmer who empties his hand wins for every farmer.

The search is compiled (:mod:`ddz_fast._search.solver`); this module checks the
arguments and reads the result.  A :class:`~ddz_fast.Game`'s position goes to
the search straight from the engine's state (:func:`solve_game`,
:meth:`Game.solve_values <ddz_fast.Game.solve_values>`).  :mod:`ddz_fast.solver_reference` is its
pure-Python twin.
"""
from __future__ import annotations

import functools
import itertools
import operator
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

from .moves import classify
from ._util.checks import check_limit, check_number, check_seat
from ._core.move import Move
from ._search.solver import MAX_SEATS, _Engine, _Position, _RootShare, next_turn, solve_worlds
from ._util.parallel import run_parts
from .cards import CardsLike, WildLike, check_counts, parse_wild, to_counts
from .kinds import Kind
from . import pickling as _pickling
from .rules import Rules, RulesLike, resolve_rules

if TYPE_CHECKING:
    from .game import Game

__all__ = ["solve", "solve_game", "solve_values", "position_from_game", "Solver", "SolveResult", "Position",
           "DEFAULT_TABLE_MB", "winning_line"]

DEFAULT_TABLE_MB = 16
"""Default size of the transposition table, in MiB."""

_MiB = 1 << 20
_UNBANNABLE = (Kind.PASS, Kind.SOLO)   # every hand must keep a lead and a pass


class Position(TypedDict):
    """The arguments of :func:`solve` for a position (see :func:`position_from_game`)."""

    hands: List[np.ndarray]
    to_move: int
    landlord: Optional[int]
    last: Optional[Move]
    last_by: Optional[int]
    rules: Rules
    wild: Optional[Tuple[int, ...]]


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``win``: True when the side of ``to_move`` wins with best play, False
    when it loses whatever it does, None when a limit stopped the search
    first (``status == "unknown"``, ``limit`` names it).  ``move``: an
    optimal move (a winning one when ``win``; the first move tried when the
    position is lost; None when unknown).  ``winning_moves``: every winning
    move, in search order, when asked for (``all_moves=True``) and known.
    ``nodes``: positions searched.  ``seconds``: wall time of the search.
    """

    win: Optional[bool]
    move: Optional[Move]
    nodes: int
    to_move: int
    winning_moves: Optional[Tuple[Move, ...]] = None
    limit: Optional[str] = None
    seconds: float = 0.0

    @property
    def status(self) -> str:
        """``"win"``, ``"loss"`` or ``"unknown"``."""
        return "unknown" if self.win is None else ("win" if self.win else "loss")

    def __repr__(self) -> str:
        extra = f", limit={self.limit!r}" if self.limit else ""
        return f"SolveResult(status={self.status!r}, move={self.move!r}, nodes={self.nodes}{extra})"


_LIMITS = {1: "nodes", 2: "time", 3: "memory"}


def _ban_mask(ban: Iterable[Union[Kind, int, str]]) -> Tuple[int, Tuple[Kind, ...]]:
    if isinstance(ban, (str, int, Kind)):
        ban = (ban,)
    try:
        items = list(ban)
    except TypeError:
        raise TypeError(f"ban must be kinds (names, ints or Kind), not {type(ban).__name__}") from None
    mask = 0
    kinds = []
    for item in items:
        k = Kind.coerce(item)
        if k in _UNBANNABLE:
            raise ValueError(f"{k.name} cannot be banned (every hand must keep a legal move)")
        mask |= 1 << int(k)
        kinds.append(k)
    return mask, tuple(sorted(set(kinds)))


# A node limit above this is never reached (a search visits far fewer
# nodes in any time a caller waits), so larger ones are taken as it: the
# engine counts nodes in a C long long.
MAX_NODES = 1 << 62


class _Args:
    """A checked position (what the engine is given)."""

    __slots__ = ("rules", "wild", "wmask", "hands", "sides", "to_move", "last", "last_row", "last_by",
                 "landlord")

    def __init__(self, hands: Sequence[CardsLike], to_move: object, landlord: object,
                 last: object, last_by: object, rules: RulesLike, wild: object = None) -> None:
        r = resolve_rules(rules)
        self.rules = r
        # () without wild cards (parse_wild's answer, without its call for
        # the standard game's None)
        self.wild = () if wild is None and not r.wild_ranks else parse_wild(wild, r)
        self.wmask = sum(1 << x for x in self.wild) if self.wild else 0
        obj: object = hands
        if isinstance(obj, (str, bytes)) or (isinstance(obj, np.ndarray) and obj.ndim != 2):
            raise TypeError("hands must be a sequence of hands (one per seat), not one hand")
        try:
            # at most one hand more than a game has seats: an endless
            # iterable is not read to its (never coming) end
            hand_list = list(itertools.islice(hands, MAX_SEATS + 1))
        except TypeError:
            raise TypeError(f"hands must be a sequence of hands, not {type(hands).__name__}") from None
        if len(hand_list) > MAX_SEATS:
            raise ValueError(f"hands: more than {MAX_SEATS} hands (a game has at most {MAX_SEATS} seats)")
        if landlord is None:
            if len(hand_list) != 2:
                raise ValueError(f"the two-player puzzle (landlord=None) needs 2 hands, got {len(hand_list)}; "
                                 f"give landlord= a seat for the {r.players}-player game")
            n = 2
            sides: Tuple[int, ...] = (0, 1)
            self.landlord = None
        else:
            n = r.players
            if len(hand_list) != n:
                raise ValueError(f"the {n}-player game (landlord={landlord!r}) needs {n} hands, "
                                 f"got {len(hand_list)}")
            ll = check_seat(landlord, n, "landlord")
            sides = tuple(0 if s == ll else 1 for s in range(n))
            self.landlord = ll
        arrs = [to_counts(h, rules=r) for h in hand_list]
        self.to_move = check_seat(to_move, n, "to_move")
        for s, a in enumerate(arrs):
            if int(a.sum()) == 0:
                raise ValueError(f"seat {s} holds no cards: the game is already over")
        total = np.sum(np.stack(arrs).astype(np.int64), axis=0)
        if last is not None and not isinstance(last, Move):
            raise TypeError(f"last must be a Move or None, not {type(last).__name__}")
        if last is not None and last.kind == Kind.PASS:
            last = None
        self.last_row: Optional[bytes] = None
        if last is None:
            if last_by is not None:
                raise ValueError("last_by is given but there is no move to beat (last=None)")
            self.last_by = -1
        else:
            if self.wild:
                # (read again under these wild ranks: its bomb class is theirs)
                readings = [m for m in classify(last.counts, rules=r, wild=self.wild)
                            if m.kind == last.kind and m.represents == last.represents]
                if not readings:
                    raise ValueError(f"last {last!r} is not a legal move under rules {r.name!r} "
                                     f"with wild ranks {self.wild}")
                last = readings[0]
            elif last.represents != last.counts or not any(
                    m.kind == last.kind for m in classify(last.counts, rules=r)):
                raise ValueError(f"last {last!r} is not a legal move under rules {r.name!r}")
            self.last_by = (self.to_move - 1) % n if last_by is None else check_seat(last_by, n, "last_by")
            if self.last_by == self.to_move:
                raise ValueError("last_by cannot be to_move: the others would all have passed "
                                 "and the table would be clear (use last=None)")
            total = total + np.array(last.counts, dtype=np.int64)
            self.last_row = bytes(last.represents) + bytes([int(last.kind)])
            if self.wild:
                # (the 32-byte row of _core/wild.pxd; the engine fills in the class)
                self.last_row += bytes(last.counts) + b"\0"
        self.last = last
        check_counts([int(x) for x in total], r, source="the hands and last move together")
        self.hands = b"".join(bytes(a) for a in arrs)
        self.sides = sides

    def position(self) -> _Position:
        """The position as the engine takes it."""
        return _Position.from_counts(self.hands, self.sides, self.rules, self.to_move, self.last_row,
                                     self.last_by, self.wmask)


class _Options:
    """Checked search options (those of :func:`solve` but the position)."""

    __slots__ = ("ban", "all_moves", "max_nodes", "max_time", "threads")

    def __init__(self, ban: Iterable[Union[Kind, int, str]], all_moves: object, max_nodes: object,
                 max_time: object, threads: object) -> None:
        self.ban, _ = _ban_mask(ban)
        if not isinstance(all_moves, (bool, np.bool_)):
            raise TypeError(f"all_moves must be a bool, not {type(all_moves).__name__}")
        self.all_moves = bool(all_moves)
        self.max_nodes = check_limit(max_nodes, "max_nodes", integer=True, cap=MAX_NODES) or 0
        self.max_time = check_limit(max_time, "max_time") or 0.0
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
            raise TypeError(f"threads must be an int, not {type(threads).__name__}")
        if not 1 <= threads <= 64:
            raise ValueError(f"threads must be 1..64, not {threads!r}")
        self.threads = operator.index(threads)


class Solver:
    """A reusable solver: one transposition table kept between calls.

    Solving many positions of one game (a line of play, or the worlds of a
    PIMC agent) with one Solver reuses what earlier calls proved; the table
    is cleared when the seats, sides, rules, wild ranks or banned kinds change.  A
    Solver serves one call at a time (use one per thread); the module-level
    :func:`solve` makes a fresh one per call.

    ``table_mb``: the table's size in MiB (0: no table); the search uses
    little memory besides it.  A copy (``copy``, ``deepcopy``, pickle) is a
    new Solver of the same size with an empty table.
    """

    _engine: Optional[_Engine] = None     # set by __init__ (None: never initialised)

    def __init__(self, table_mb: float = DEFAULT_TABLE_MB) -> None:
        self.table_mb = check_number(table_mb, "table_mb", 0, 1 << 20)
        self._engine = _Engine(int(self.table_mb * _MiB))

    def solve(self, hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
              last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
              wild: WildLike = None, ban: Iterable[Union[Kind, int, str]] = (), all_moves: bool = False,
              max_nodes: Optional[int] = None, max_time: Optional[float] = None,
              threads: int = 1) -> SolveResult:
        """Solve one position; the arguments are those of :func:`solve`."""
        self._ready()
        a = _Args(hands, to_move, landlord, last, last_by, rules, wild)
        return self._run(a.position(), _Options(ban, all_moves, max_nodes, max_time, threads))

    def __reduce__(self) -> Tuple[Any, ...]:
        # A copy or an unpickled Solver is a new one of the same size: the
        # table is a cache (results never depend on it), not state to share.
        self._ready()
        return (_pickling.load_solver, ((_pickling.FORMAT, self.table_mb),))

    def _ready(self) -> _Engine:
        engine = self._engine
        if not isinstance(engine, _Engine):
            raise TypeError("this Solver was never initialised (made without __init__): "
                            "make one with Solver(table_mb)")
        return engine

    def _run(self, pos: _Position, o: _Options) -> SolveResult:
        engine = self._ready()
        all_moves, threads = o.all_moves, o.threads
        start = time.perf_counter()
        if threads == 1:
            aborted, results, moves, nodes = engine.run_position(pos, o.ban, all_moves, o.max_nodes, o.max_time)
        else:
            # Root splitting: the threads take the root moves one at a time,
            # the even ones from the front of the search order, the odd ones
            # from its back (when the ordering puts a winning move late, a
            # thread reaches it early), each with its own table (the size
            # split between them); one order for all, set before they start.
            engines = [engine] + [
                _Engine(engine.table_bytes // threads) for _ in range(threads - 1)]
            share = _RootShare()
            engine.run_position(pos, o.ban, all_moves, o.max_nodes, o.max_time, share)
            outs: List[Tuple[int, List[int], List[Move], int]] = [(0, [], [], 0)] * threads

            def part(i: int) -> None:
                outs[i] = engines[i].run_position(pos, o.ban, all_moves, o.max_nodes, o.max_time, share,
                                                  i % 2 == 1)

            run_parts([functools.partial(part, i) for i in range(threads)], share.stop.cancel)
            moves = outs[0][2]
            results = [max(o[1][k] for o in outs) if moves else -1 for k in range(len(moves))]
            nodes = sum(o[3] for o in outs)
            real = [o[0] for o in outs if o[0] not in (0, 4)]
            aborted = real[0] if real else 0
        seconds = time.perf_counter() - start
        winners = tuple(m for m, v in zip(moves, results) if v == 1)
        complete = all(v >= 0 for v in results)
        if winners and not all_moves:
            return SolveResult(True, winners[0], nodes, pos.to_move, None, None, seconds)
        if aborted or not complete:
            if winners:     # a win is proved even if the list of winners is not complete
                return SolveResult(True, winners[0], nodes, pos.to_move, None, _LIMITS.get(aborted), seconds)
            return SolveResult(None, None, nodes, pos.to_move, None, _LIMITS.get(aborted, "nodes"), seconds)
        if winners:
            return SolveResult(True, winners[0], nodes, pos.to_move, winners, None, seconds)
        return SolveResult(False, moves[0] if moves else None, nodes, pos.to_move,
                           () if all_moves else None, None, seconds)


def solve(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
          last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
          wild: WildLike = None, ban: Iterable[Union[Kind, int, str]] = (), all_moves: bool = False,
          max_nodes: Optional[int] = None, max_time: Optional[float] = None,
          table_mb: float = DEFAULT_TABLE_MB, threads: int = 1) -> SolveResult:
    """Solve a position where every hand is known.

    ``hands``: one hand per seat (text, 15 counts or arrays).  With
    ``landlord=None`` the two-player puzzle: two hands, each its own side.
    With ``landlord=`` a seat: ``rules.players`` hands, the landlord against
    the farmers (a farmer's win is both farmers' win).  ``to_move``: the seat
    to play (the puzzles' "who moves first").  ``last``: the move on the
    table, made by ``last_by`` (default: the seat before ``to_move``; None:
    ``to_move`` leads).  ``wild``: the deal's wild rank(s) under the
    ``laizi`` and ``tiandi`` rules (as for :func:`~ddz_fast.legal_moves`;
    None otherwise): the hands are the physical cards, and every move is
    a reading of them (docs/solver.md, "Wild cards").  ``ban``: kinds nobody may play (e.g.
    ``("TRIO_PAIR", "FOUR_TWO_SOLO")``; PASS and SOLO cannot be banned).
    ``all_moves``: also list every winning move.  ``max_nodes``,
    ``max_time`` (seconds), ``table_mb`` (MiB): limits; a search stopped by
    one gives ``win=None`` (``status == "unknown"``).  ``threads``: search
    the root moves on that many threads.  Called on the main thread, the
    search stops on Ctrl-C within a fraction of a second and raises
    KeyboardInterrupt, with or without ``max_time``.

    >>> r = solve(["KK5543", "225543"])
    >>> r.win, r.status
    (True, 'win')
    """
    return Solver(table_mb).solve(hands, to_move=to_move, landlord=landlord, last=last, last_by=last_by,
                                  rules=rules, wild=wild, ban=ban, all_moves=all_moves, max_nodes=max_nodes,
                                  max_time=max_time, threads=threads)


def position_from_game(game: "Game") -> Position:
    """The :func:`solve` arguments of a game in its play phase (its hands,
    seat to move, landlord, move to beat and who made it, rules, and the
    deal's wild ranks: None without wild cards)."""
    from .game import Game, Phase

    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    if game.phase != Phase.PLAY or game.to_move is None:
        raise ValueError(f"the game is not in its play phase (phase {game.phase.name})")
    hands = [np.array(h, dtype=np.uint8) for h in game.hands]
    return Position(hands=hands, to_move=int(game.to_move), landlord=game.landlord,
                    last=game.last_move, last_by=game.last_player, rules=game.rules, wild=game.wild)


_GAME_OPTIONS = ("ban", "all_moves", "max_nodes", "max_time", "table_mb", "threads")


def solve_game(game: "Game", **options: Any) -> SolveResult:
    """Solve a game's current position (``options``: those of :func:`solve`
    but the position).  The position goes from the engine's state to the
    search as it is: :func:`solve` of :func:`position_from_game`, without
    the Python objects."""
    for name in options:
        if name in ("hands", "to_move", "landlord", "last", "last_by", "rules"):
            raise TypeError(f"solve_game() takes the position from the game; {name}= is not an option")
        if name not in _GAME_OPTIONS:
            raise TypeError(f"solve_game() got an unexpected keyword argument {name!r}")
    pos = _Position.from_game(game)
    solver = Solver(options.get("table_mb", DEFAULT_TABLE_MB))
    return solver._run(pos, _Options(options.get("ban", ()), options.get("all_moves", False),
                                     options.get("max_nodes"), options.get("max_time"), options.get("threads", 1)))


def solve_values(game: "Game", worlds: npt.NDArray[np.uint8], moves: Sequence[Move], *,
                 max_nodes: Optional[int] = None, max_time: Optional[float] = None,
                 table_mb: Optional[float] = None) -> npt.NDArray[np.float64]:
    """:meth:`Game.solve_values <ddz_fast.Game.solve_values>` (see there):
    the solver's value of each move of the player to move of ``game`` in
    each world, every world solved in one compiled call without the GIL."""
    nodes = check_limit(max_nodes, "max_nodes", integer=True, cap=MAX_NODES) or 0
    seconds = check_limit(max_time, "max_time") or 0.0
    mb = DEFAULT_TABLE_MB if table_mb is None else check_number(table_mb, "table_mb", 0, 1 << 20)
    return solve_worlds(game, worlds, moves, nodes, seconds, int(mb * _MiB))


def winning_line(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
                 last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
                 wild: WildLike = None, ban: Iterable[Union[Kind, int, str]] = (),
                 table_mb: float = DEFAULT_TABLE_MB, max_time: Optional[float] = None) -> List[Tuple[int, Move]]:
    """A line of play to the end: the winning side plays a winning move at
    every turn, the losing side the first move the search tries.  Returns
    ``(seat, move)`` pairs; raises ValueError when a limit leaves a turn
    unknown.  One table is shared along the line."""
    solver = Solver(table_mb)
    a = _Args(hands, to_move, landlord, last, last_by, rules, wild)
    r = a.rules
    n = len(a.sides)
    cur = [np.frombuffer(a.hands, dtype=np.uint8)[15 * s:15 * s + 15].copy() for s in range(n)]
    p, lst, lby = a.to_move, a.last, a.last_by
    line: List[Tuple[int, Move]] = []
    while True:
        res = solver.solve(cur, to_move=p, landlord=a.landlord, last=lst, last_by=None if lby < 0 else lby,
                           rules=r, wild=a.wild or None, ban=ban, max_time=max_time)
        if res.move is None:
            raise ValueError(f"the search stopped ({res.limit} limit) at ply {len(line)}")
        m = res.move
        line.append((p, m))
        passed = m.kind == Kind.PASS
        if not passed:
            cur[p] = cur[p] - np.array(m.counts, dtype=np.uint8)
            if int(cur[p].sum()) == 0:
                return line
        # (whose turn it is, and whether the table clears: the engine's one rule)
        p, lby = next_turn(n, p, passed, lby)
        if not passed:
            lst = m
        elif lby < 0:
            lst = None
