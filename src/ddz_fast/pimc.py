"""A Perfect Information Monte Carlo (PIMC) agent.

At a play-phase decision the agent samples ``worlds`` deals of the cards it
cannot see, consistent with its observation (the engine's sampler,
:func:`~ddz_fast.sample_observed_worlds`: uniform over the unseen physical
cards given every hand's size, the shown kitty cards the landlord cannot have
played staying with the landlord).  It then values every legal move in every
world:

* when the cards left in all hands number at most ``solver_cards``, with the
  compiled endgame solver (:meth:`ddz_fast.Game.solve_values`: every world
  in one compiled call): 1 for a move that wins against best play in that
  world, else 0; a search stopped by ``solver_nodes`` / ``solver_time``
  leaves the world to
* compiled playouts (:meth:`ddz_fast.Game.move_values`): the fraction of
  ``rollouts`` playouts of ``policy`` (the simple bot by default) after the
  move that the agent's side wins.

Under wild cards a lead can have tens of thousands of legal moves (one
reading played with many choices of cards), too many to value in every
world.  So a decision values at most ``candidates`` moves: when there are
more, a cheap, deterministic pre-ranking keeps the likeliest
(:func:`candidate_moves`; the default ``"auto"`` keeps
:data:`WILD_CANDIDATES` under wild cards and values every move without
them).  A ``time_budget`` (seconds, None by default) stops sampling more
worlds once a decision has spent it (at least one world is valued).

The values are aggregated over the worlds (``aggregate="mean"``: the mean
value; ``"vote"``: each world votes for its best move, ties broken by the
mean) and the best move is played (the first in legal order among equals).
Auction and doubling decisions are delegated to
:func:`~ddz_fast.game.simple_bot`.

The agent sees only its :class:`~ddz_fast.Observation`; its randomness is
drawn from ``seed`` and the decision's place in the deal (deal number, plies
of history, seat), so a decision is a function of the observation and the
seed alone: reproducible, and unchanged by any deal of the hidden cards that
agrees with what the agent saw.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Sequence, Tuple, Union, cast

import time

import numpy as np
import numpy.typing as npt

from ._util.checks import (
    check_choice, check_count_limit, check_int, check_limit, check_seed, check_threads,
)
from ._engine.game import Game
from ._engine.worlds import sample_observed_worlds
from ._core.move import Move
from ._core.movelist import MoveList
from .actions import WildActionSpace, action_space
from .kinds import Kind
from ._util.rng import game_seed
from .game import simple_bot
from .game_values import AuctionAction, Observation, Phase
from . import pickling as _pickling
from .rules import Rules, RulesLike, resolve_rules
from .solver import MAX_NODES, Solver

__all__ = ["PIMCAgent", "PIMCValues", "candidate_moves", "WILD_CANDIDATES"]

_AGGREGATES = ("mean", "vote")
_POLICIES = ("bot", "random")

#: The moves a decision values at most under wild-card rules with
#: ``candidates="auto"`` (the default): enough that the likely best moves
#: are valued, few enough that a master-level lead of tens of thousands of
#: legal moves is decided in well under a second (benchmarks/README.md,
#: "The web app: master-level decisions").
WILD_CANDIDATES = 64
#: The largest ``candidates`` (as many moves as ``Game.move_values`` takes).
MAX_CANDIDATES = 1 << 20


def candidate_moves(observation: Observation, moves: Union[MoveList, Sequence[Move]], limit: Optional[int],
                    rules: RulesLike = "standard") -> npt.NDArray[np.intp]:
    """The indices (ascending: legal order) of the at most ``limit`` moves
    of ``moves`` (legal moves at ``observation``) that a :class:`PIMCAgent`
    values; every index when there are ``limit`` or fewer (or ``limit`` is
    None, no limit; else it is an int >= 2: room for the bot's move and
    PASS).

    The pre-ranking is cheap and deterministic:

    1. under wild cards, each reading keeps one choice of cards, the one the
       environments play (the smallest flat id: the fewest wild cards;
       ``docs/envs.md``, "Wild cards");
    2. the simple bot's move (:func:`~ddz_fast.game.simple_bot`) and PASS
       (when legal) are always kept;
    3. the others are ranked by a plays-left estimate of the hand after the
       move (the ranks other than the wild ones that it still holds: at
       most one play each; a bomb or the rocket played counts one more, a
       control spent), then by the wild cards standing in for other ranks
       (fewer first), the represented rank (lower first), the cards played
       (more first), and legal order.

    So fewer than ``limit`` are kept when the moves hold fewer readings.

    >>> from ddz_fast import Game
    >>> from ddz_fast.pimc import candidate_moves
    >>> g = Game.from_position(["3334445557", "66", "88"], landlord=0)
    >>> obs = g.observation(0)
    >>> moves = list(obs.legal_actions)
    >>> len(moves), [moves[i].cards for i in candidate_moves(obs, moves, 3)]
    (33, ['33344', '333444555', '33344457'])
    """
    r = resolve_rules(rules)
    if not isinstance(observation, Observation):
        raise TypeError(f"observation must be an Observation, not {type(observation).__name__}")
    if not isinstance(moves, MoveList):
        moves = PIMCAgent._moves(moves)
    n = len(moves)
    lim = check_count_limit(limit, "limit", 2, MAX_CANDIDATES)
    if lim is None or n <= cast(int, lim):
        return np.arange(n, dtype=np.intp)
    if isinstance(moves, MoveList):
        counts = moves.counts.astype(np.int64)
        reps = moves.represents.astype(np.int64)
        kinds, ranks = moves.kinds.astype(np.int64), moves.ranks.astype(np.int64)
    else:
        counts = np.array([m.counts for m in moves], dtype=np.int64).reshape(n, 15)
        reps = np.array([m.represents for m in moves], dtype=np.int64).reshape(n, 15)
        kinds = np.array([int(m.kind) for m in moves], dtype=np.int64)
        ranks = np.array([m.rank for m in moves], dtype=np.int64)
    wild = tuple(observation.wild or ())
    if r.wild_ranks:
        # one card choice per reading: the smallest cards id (fewest wild cards)
        pairs = cast(WildActionSpace, action_space(r)).ids(moves, wild=wild)
        order = np.lexsort((pairs[:, 1], pairs[:, 0]))
        first = np.ones(n, dtype=bool)
        first[1:] = pairs[order[1:], 0] != pairs[order[:-1], 0]
        pool = order[first]
    else:
        pool = np.arange(n, dtype=np.intp)
    keep = set()
    passes = np.flatnonzero(kinds == int(Kind.PASS))
    if len(passes):
        keep.add(int(passes[0]))
    bot = simple_bot(observation, r)
    if isinstance(bot, Move):
        # (Move equality on the arrays: kind, cards and reading; no Move made per row)
        same = ((kinds == int(bot.kind)) & (counts == np.asarray(bot.counts)).all(axis=1)
                & (reps == np.asarray(bot.represents)).all(axis=1))
        keep.update(int(i) for i in np.flatnonzero(same))
    plain = [x for x in range(15) if x not in wild]
    rest = np.asarray(observation.hand, dtype=np.int64)[None, :] - counts
    plays = (rest[:, plain] > 0).sum(axis=1)
    plays += (kinds == int(Kind.BOMB)) | (kinds == int(Kind.ROCKET))
    stand_ins = np.maximum(reps[:, :13] - counts[:, :13], 0).sum(axis=1)
    p = pool[np.lexsort((pool, -counts[pool].sum(axis=1), ranks[pool], stand_ins[pool], plays[pool]))]
    room = cast(int, lim) - len(keep)
    for i in p:
        if room <= 0:
            break
        if int(i) not in keep:
            keep.add(int(i))
            room -= 1
    return np.array(sorted(keep), dtype=np.intp)


class PIMCValues:
    """What :meth:`PIMCAgent.evaluate` found at one decision: ``moves`` (the
    candidate moves: the legal moves valued, at most the agent's
    ``candidates``, in legal order), ``worlds`` ((n, players, 15) uint8: the
    sampled deals valued), ``values`` ((n, len(moves)) float64: each move's value in each
    world), ``solved`` ((n,) bool: the world was valued by the solver, not by
    playouts) and ``choice`` (the index of the move the agent plays)."""

    __slots__ = ("moves", "worlds", "values", "solved", "choice")

    def __init__(self, moves: Tuple[Move, ...], worlds: npt.NDArray[np.uint8],
                 values: npt.NDArray[np.float64], solved: npt.NDArray[np.bool_], choice: int) -> None:
        self.moves = moves
        self.worlds = worlds
        self.values = values
        self.solved = solved
        self.choice = choice

    @property
    def move(self) -> Move:
        """The move the agent plays."""
        return self.moves[self.choice]

    def __repr__(self) -> str:
        return (f"PIMCValues({len(self.worlds)} worlds, {len(self.moves)} moves, "
                f"{int(self.solved.sum())} solved, move={self.move!r})")


class PIMCAgent:
    """A PIMC player (see the module docstring).  Call it with an
    observation: ``agent(game.observation(seat))`` (a :class:`~ddz_fast.Session`
    agent, an environment opponent), or ``agent(observation, legal_actions)``
    to choose among given legal actions, or ``agent.act(game)`` for the seat
    to move of a game.

    Parameters (keyword-only after ``worlds``; all checked):

    * ``worlds``: deals of the hidden cards sampled per decision (>= 1);
    * ``rollouts``: playouts per (world, move) with ``policy="random"``
      (a ``"bot"`` playout is deterministic: one is played);
    * ``policy``: the playout policy, ``"bot"`` (the simple bot) or ``"random"``;
    * ``solver_cards``: solve a world exactly when the hands hold at most this
      many cards in all (0: never);
    * ``solver_nodes``, ``solver_time``: limits of one world's search (nodes,
      seconds; None: no limit); a world whose search hits one is valued by
      playouts instead;
    * ``solver_table_mb``: the solver's transposition table (a fresh one at
      each decision, shared by its worlds: a table warmed by earlier
      decisions would let a search finish within ``solver_nodes`` that a
      cold one does not, and make a decision depend on what the agent did
      before);
    * ``aggregate``: ``"mean"`` or ``"vote"``;
    * ``seed``: any int (the same seed, the same choices);
    * ``threads``: threads for the playouts (the values never depend on it);
    * ``rules``: the rules of the game played (an observation does not name
      them);
    * ``candidates``: the most moves a decision values (an int >= 2; None:
      every legal move; ``"auto"``, the default: :data:`WILD_CANDIDATES`
      under wild cards, every move without them, so a standard decision is
      what it always was).  When there are more, :func:`candidate_moves`
      keeps the likeliest, always the simple bot's move and PASS;
    * ``time_budget``: seconds a decision may spend (None, the default: no
      limit).  Worlds are then valued one at a time (with
      ``policy="random"``, each from its own seed), and no more once the
      budget is spent (at least one world is valued), so
      how many worlds a decision weighs depends on the machine's speed and
      load: reproducible only while the budget is not reached.

    An agent holds no state between decisions: it may serve several
    threads at once.  An agent pickles as its
    parameters (for worker processes: :mod:`ddz_fast.arena` on Ray).
    """

    __slots__ = ("_worlds", "_rollouts", "_policy", "_solver_cards", "_solver_nodes", "_solver_time",
                 "_aggregate", "_seed", "_threads", "_rules", "_solver_table_mb", "_candidates",
                 "_limit", "_time_budget")

    def __init__(self, worlds: int = 32, *, rollouts: int = 1, policy: str = "bot",
                 solver_cards: int = 16, solver_nodes: Optional[int] = 20000,
                 solver_time: Optional[float] = None, solver_table_mb: float = 4,
                 aggregate: str = "mean", seed: int = 0, threads: int = 1,
                 rules: RulesLike = "standard", candidates: Union[int, str, None] = "auto",
                 time_budget: Optional[float] = None) -> None:
        self._worlds = int(check_int(worlds, "worlds", 1, 1 << 20))
        self._rollouts = int(check_int(rollouts, "rollouts", 1, 1 << 20))
        self._policy = cast(Literal["bot", "random"], check_choice(policy, "policy", _POLICIES))
        self._solver_cards = int(check_int(solver_cards, "solver_cards", 0, 216))
        self._solver_nodes = check_limit(solver_nodes, "solver_nodes", integer=True, cap=MAX_NODES)
        self._solver_time = check_limit(solver_time, "solver_time")
        self._aggregate = check_choice(aggregate, "aggregate", _AGGREGATES)
        self._seed = int(check_seed(seed))
        self._threads = int(check_threads(threads))
        self._rules: Rules = resolve_rules(rules)
        self._solver_table_mb = Solver(solver_table_mb).table_mb     # (checked as a Solver's)
        self._candidates = check_count_limit(candidates, "candidates", 2, MAX_CANDIDATES, ("auto",))
        self._limit: Optional[int] = (
            (WILD_CANDIDATES if self._rules.wild_ranks else None) if self._candidates == "auto"
            else cast(Optional[int], self._candidates))
        self._time_budget = check_limit(time_budget, "time_budget")

    def __reduce__(self) -> Tuple[Any, ...]:
        self._check_ready()
        return (_pickling.load_pimc_agent, ((_pickling.FORMAT, self._worlds, {
            "rollouts": self._rollouts, "policy": self._policy, "solver_cards": self._solver_cards,
            "solver_nodes": self._solver_nodes, "solver_time": self._solver_time,
            "solver_table_mb": self._solver_table_mb, "aggregate": self._aggregate, "seed": self._seed,
            "threads": self._threads, "rules": self._rules, "candidates": self._candidates,
            "time_budget": self._time_budget}),))

    # -- parameters (read-only) ----------------------------------------------------
    worlds = property(lambda self: self._worlds, doc="Worlds sampled per decision.")
    rollouts = property(lambda self: self._rollouts, doc="Playouts per (world, move) with a random policy.")
    policy = property(lambda self: self._policy, doc="The playout policy.")
    solver_cards = property(lambda self: self._solver_cards, doc="Cards in play at most for the solver.")
    solver_nodes = property(lambda self: self._solver_nodes, doc="Node limit of one world's search.")
    solver_time = property(lambda self: self._solver_time, doc="Time limit (s) of one world's search.")
    aggregate = property(lambda self: self._aggregate, doc='"mean" or "vote".')
    seed = property(lambda self: self._seed, doc="The agent's seed.")
    threads = property(lambda self: self._threads, doc="Threads for the playouts.")
    rules = property(lambda self: self._rules, doc="The rules of the game played.")
    candidates = property(lambda self: self._candidates,
                          doc='The most moves a decision values, as given (an int, None or "auto").')
    candidate_limit = property(lambda self: self._limit,
                               doc="The most moves a decision values under these rules (None: every move).")
    time_budget = property(lambda self: self._time_budget, doc="Seconds a decision may spend (None: no limit).")

    def __repr__(self) -> str:
        if not isinstance(getattr(self, "_rules", None), Rules):
            return "PIMCAgent(<uninitialised>)"
        return (f"PIMCAgent(worlds={self._worlds}, rollouts={self._rollouts}, policy={self._policy!r}, "
                f"solver_cards={self._solver_cards}, solver_nodes={self._solver_nodes}, "
                f"aggregate={self._aggregate!r}, seed={self._seed}, rules={self._rules.name!r}, "
                f"candidates={self._candidates!r}, time_budget={self._time_budget!r})")

    # -- playing -------------------------------------------------------------------
    def __call__(self, observation: Observation,
                 legal_actions: Optional[Sequence[Any]] = None) -> Union[Move, AuctionAction]:
        """The action to play (one of ``legal_actions``, by default the
        observation's)."""
        obs = self._check(observation)
        acts: Any = obs.legal_actions if legal_actions is None else legal_actions
        if obs.phase != Phase.PLAY:
            choices = tuple(acts)
            if not choices:
                raise ValueError("no legal actions: it is not this player's turn")
            pick = simple_bot(obs, self._rules)
            if pick not in choices:
                raise ValueError(f"the auction action {pick} is not among legal_actions")
            return cast(AuctionAction, pick)
        moves = self._moves(acts)
        if len(moves) == 1:
            return moves[0]
        return self._evaluate(obs, moves, acts).move

    def act(self, game: Game) -> Union[Move, AuctionAction]:
        """The action for the seat to move of ``game`` (from its observation only)."""
        if not isinstance(game, Game):
            raise TypeError(f"act takes a Game, not {type(game).__name__}")
        if game.to_move is None:
            raise ValueError("the game is over")
        return self(game.observation(game.to_move))

    def evaluate(self, observation: Observation,
                 legal_actions: Optional[Sequence[Any]] = None) -> PIMCValues:
        """The worlds, values and choice behind a play-phase decision."""
        obs = self._check(observation)
        if obs.phase != Phase.PLAY:
            raise ValueError(f"evaluate needs a play-phase observation, not {obs.phase.name}")
        acts = obs.legal_actions if legal_actions is None else legal_actions
        return self._evaluate(obs, self._moves(acts), acts)

    # -- inside --------------------------------------------------------------------
    def _check_ready(self) -> None:
        if not isinstance(getattr(self, "_rules", None), Rules):
            raise TypeError("this PIMCAgent was never initialised (made without __init__): "
                            "make one with PIMCAgent(...)")

    def _check(self, observation: object) -> Observation:
        self._check_ready()
        if not isinstance(observation, Observation):
            raise TypeError(f"a PIMCAgent takes an Observation, not {type(observation).__name__}")
        if len(observation.hand_sizes) != self._rules.players:
            raise ValueError(f"the observation is of a {len(observation.hand_sizes)}-player game; "
                             f"the agent plays rules {self._rules.name!r} ({self._rules.players} players)")
        if observation.to_move != observation.player:
            raise ValueError("it is not this player's turn")
        return observation

    @staticmethod
    def _moves(acts: object) -> Tuple[Move, ...]:
        if isinstance(acts, (str, bytes, Move)):
            raise TypeError("legal_actions must be a sequence of Moves")
        try:
            moves = tuple(cast(Sequence[Any], acts))
        except TypeError:
            raise TypeError(f"legal_actions must be a sequence of Moves, not {type(acts).__name__}") from None
        if not moves:
            raise ValueError("no legal actions: it is not this player's turn")
        for m in moves:
            if not isinstance(m, Move):
                raise TypeError(f"a play-phase legal action must be a Move, not {type(m).__name__}")
        return moves

    def _evaluate(self, obs: Observation, moves: Tuple[Move, ...], acts: object) -> PIMCValues:
        start = time.perf_counter()
        p = obs.player
        if self._limit is not None and len(moves) > self._limit:
            # (a MoveList as given: its rows are read without making Moves)
            keep = candidate_moves(obs, acts if isinstance(acts, MoveList) else moves, self._limit,
                                   self._rules)
            moves = tuple(moves[i] for i in keep)
        # The decision's seed: a function of the agent's seed and public facts only.
        decision = game_seed(self._seed, ((obs.deal_number << 10) + len(obs.history)) * 4 + p)
        worlds = sample_observed_worlds(obs, self._worlds, seed=game_seed(decision, 0))
        landlord = cast(int, obs.landlord)
        last = obs.last_move if obs.last_move is not None and obs.last_player is not None else None
        # The table state of every world (its hidden hands are replaced per world).
        base = Game.from_position(worlds[0], landlord, obs.base, p, last,
                                  last_player=obs.last_player if last is not None else None,
                                  rules=self._rules, bombs=obs.bombs, doubles=obs.doubles, wild=obs.wild)
        if self._time_budget is None:
            values, solved = self._values(base, worlds, moves, game_seed(decision, 1))
            return PIMCValues(moves, worlds, values, solved, self._pick(values))
        # one world at a time (each its own playout seed and solver table)
        # until the budget is spent
        parts = []
        for i in range(len(worlds)):
            parts.append(self._values(base, worlds[i:i + 1], moves, game_seed(decision, 2 + i)))
            if time.perf_counter() - start >= self._time_budget:
                break
        values = np.concatenate([v for v, _ in parts])
        solved = np.concatenate([x for _, x in parts])
        return PIMCValues(moves, worlds[:len(parts)], values, solved, self._pick(values))

    def _values(self, base: Game, worlds: npt.NDArray[np.uint8], moves: Tuple[Move, ...],
                seed: int) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """The values of ``moves`` in ``worlds`` and which worlds were solved."""
        n = len(worlds)
        if int(worlds[0].sum()) > self._solver_cards:
            values = base.move_values(worlds, moves, rollouts=self._rollouts, policy=self._policy,
                                      seed=seed, threads=self._threads)
            return values, np.zeros(n, dtype=np.bool_)
        # every world in one compiled call, with a fresh table (see
        # solver_table_mb); a world a limit stopped (NaN) is left to the playouts
        values = base.solve_values(worlds, moves, max_nodes=self._solver_nodes,
                                   max_time=self._solver_time, table_mb=self._solver_table_mb)
        solved = np.logical_not(np.isnan(values).any(axis=1))
        rest = np.flatnonzero(~solved)
        if len(rest):                   # (solve_values checked the moves)
            values[rest] = base.move_values(worlds[rest], moves, rollouts=self._rollouts,
                                            policy=self._policy, seed=seed, threads=self._threads)
        return values, solved

    def _pick(self, values: npt.NDArray[np.float64]) -> int:
        mean = values.sum(axis=0) / len(values)       # (values.mean, without its wrapper)
        if self._aggregate == "mean":
            return int(mean.argmax())
        votes = np.bincount(np.argmax(values, axis=1), minlength=values.shape[1])
        top = np.flatnonzero(votes == votes.max())
        return int(top[np.argmax(mean[top])])


def _restore(worlds: int, options: Any) -> PIMCAgent:
    # (the unpickler that pickles of ddz-fast 0.1.0 name)
    return PIMCAgent(worlds, **options)
