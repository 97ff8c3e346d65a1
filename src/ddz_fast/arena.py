"""Evaluation arena: agents against each other on duplicate deals, with WP and
ADP and their 95% confidence intervals (docs/arena.md).

Duplicate deals
    Deal ``k`` of a run with ``seed`` is ``Game(rules, seed=game_seed(seed,
    k))``, and every deal is played once per *rotation* of the agents
    through the places at the table, so each agent holds each hand equally
    often and the luck of the cards cancels (as in duplicate bridge):

    * ``landlord="fixed"`` (the way DouZero evaluates): no auction; the
      deal's first bidder is the landlord (the engine's ``skip_auction``) and
      the agents rotate through the roles landlord, farmer after it, farmer
      before it.  With two agents, A is the landlord against B's two
      farmers, then the other way round; with one agent per seat, every
      permutation.  The deal is played at base 1 (the engine plays it at the
      top bid; nothing in play depends on the base, so scores are divided by
      it).
    * ``landlord="auction"``: the agents bid too; they rotate through the
      seats (with two agents every split of the seats between them, with one
      per seat every permutation), and the auction decides the landlord.

Metrics (per agent, overall and per role)
    A game gives an agent one *unit* per role it holds: ``win`` (1 when that
    role's side won) and ``points`` (the sum of the zero-sum scores of
    docs/rules.md "Scoring" of the seats it holds in that role).  WP is the
    mean ``win`` and ADP the mean ``points`` over the units.  Their 95%
    intervals treat the deal as the independent unit (all rotations of a
    deal are correlated by its cards).  ADP's is the ratio estimator's
    delta-method standard error over deals, ``sqrt(D / (D - 1) * sum_d (s_d
    - r n_d)**2) / sum_d n_d`` for ``D`` deals with unit sums ``s_d`` and
    counts ``n_d``, times 1.96 (NaN with fewer than 2 deals).  WP's is the
    Wilson score interval of a proportion (it stays inside [0, 1] and is not
    degenerate at WP 0 or 1) with the effective number of units
    ``n_eff = r (1 - r) / v``, ``v = sum_d (s_d - r n_d)**2 / (sum_d
    n_d)**2`` the variance of ``r`` over deals, at most the number of units
    (and the number of deals when ``r`` is 0 or 1): with one unit per deal
    it is exactly the textbook Wilson interval (:func:`wilson_mean`).

Agents
    ``"random"`` (uniform over the legal actions; decision ``j`` of game
    ``q`` of the run draws from the run's seed, the agent's place in the
    list, ``q`` and ``j``), ``"simple"`` (or ``"bot"``: the engine's simple
    bot), ``"pimc"`` (a :class:`~ddz_fast.PIMCAgent` with its defaults), any
    callable ``agent(observation, legal_actions) -> action``, an object with
    ``act_batch(vec, tables) -> action ids`` (a batch-policy agent: it gets
    the :class:`~ddz_fast.VecGame` and the tables where it is to act, and
    reads their observations and legal ids together), and on the command
    line ``module:attribute`` (a class there is instantiated with no
    arguments) and ``douzero:DIR`` (DouZero's checkpoints in directory
    ``DIR`` as a :class:`~ddz_fast.train.DouZeroAgent`, the ``[train]``
    extra; it plays under the ``douzero`` rules).

Game records
    ``play(..., save_games=file)`` (``ddz-fast arena --save-games``) writes
    every game as one JSON line, its :func:`game_record` (rules, seed,
    actions as ids and text, result, and the run's deal, rotation and seat
    agents), which :func:`game_from_record` replays through the engine's
    checks and ``ddz-fast serve`` shows move by move (docs/web.md).

The results depend only on the agents, the rules, ``seed``, ``deals`` and
``landlord`` (never on ``tables`` nor on how the deals are split between
machines) when every agent is deterministic given its observations, as the
built-in ones are.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import itertools
import json
import math
from dataclasses import dataclass
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

from ._util.checks import check_int, check_seat, check_seed
from ._core.move import Move
from ._util.progress import Progress
from ._util.rng import SplitMix64, game_seed
from ._engine.game import Game
from ._engine.vec import FIRST_MOVE_ID, VecGame
from .errors import AgentError, IllegalActionError
from .game import simple_bot
from .game_values import AUCTION_ACTIONS, AuctionAction, Observation
from .pimc import PIMCAgent
from .rules import Rules, RulesLike, check_rules, resolve_rules

__all__ = ["play", "ArenaResult", "Stat", "rotations", "load_agent", "observation_agent", "game_record",
           "game_from_record", "AgentError", "BUILTIN_AGENTS", "LANDLORD_MODES", "RECORD_FORMAT"]

#: The names of the built-in agents (``"bot"`` is the simple bot's other name).
BUILTIN_AGENTS = ("random", "simple", "bot", "pimc")
#: How the landlord is chosen: by the deal (``"fixed"``) or by the agents' auction.
LANDLORD_MODES = ("fixed", "auction")
ROLES = ("all", "landlord", "farmer")
Z95 = 1.959963984540054

AgentLike = Union[str, Callable[..., Any], Any]


# ---------------------------------------------------------------------------
# Agents
# ---------------------------------------------------------------------------

#: The longest ``pimc(...)`` option string (every option written out takes
#: well under it): a longer one is refused before it is parsed.
MAX_OPTIONS_CHARS = 1000


def _shown(spec: str, limit: int = 60) -> str:
    """``spec`` for an error message, cut to ``limit`` characters."""
    return repr(spec) if len(spec) <= limit else repr(spec[:limit]) + f"... ({len(spec):,} characters)"


def _builtin(spec: str) -> Optional[Tuple[str, Dict[str, Any]]]:
    """``(name, options)`` of a built-in agent name, ``pimc(worlds=64,
    threads=2)`` included (literal option values); None for other names."""
    name, paren, rest = spec.partition("(")
    name = name.strip()
    if name not in BUILTIN_AGENTS:
        return None
    if not paren:
        return name, {}
    if name != "pimc":
        raise ValueError(f"agent {_shown(spec)}: only pimc takes options")
    if len(rest) > MAX_OPTIONS_CHARS:
        raise ValueError(f"agent {_shown(spec)}: the options of pimc(...) are limited to "
                         f"{MAX_OPTIONS_CHARS:,} characters, e.g. pimc(worlds=64, threads=2)")
    try:
        call = ast.parse(f"f({rest}", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        assert all(k.arg is not None for k in call.keywords)
        options: Dict[str, Any] = {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, AssertionError, RecursionError, MemoryError):
        # (RecursionError, MemoryError: values nested too deep for the parser)
        raise ValueError(f"agent {_shown(spec)}: write options as pimc(name=value, ...) with plain "
                         "values, e.g. pimc(worlds=64, threads=2)") from None
    for bad in ("seed", "rules"):
        if bad in options:
            raise ValueError(f"agent {_shown(spec)}: {bad} comes from the arena run")
    try:
        PIMCAgent(**options)                # checked here, by the agent's own checks
    except (TypeError, ValueError) as e:
        raise ValueError(f"agent {_shown(spec)}: {e}") from None
    return name, options


#: Agents named by a kind and a path, ``kind:PATH``: ``douzero:DIR`` (DouZero's checkpoints).
MODEL_AGENTS = ("douzero",)


#: Trained models that ship with the package, by name: ``dmc`` (ddz_fast.train.shipped).
SHIPPED_AGENTS = ("dmc",)


def _model_agent(spec: str) -> Optional[Any]:
    """The agent of a ``douzero:DIR`` name or of a shipped model (``dmc``;
    loaded now, so that a bad directory is reported before any game); None
    for other names."""
    if spec.strip() in SHIPPED_AGENTS:
        try:
            from .train.shipped import dmc_agent     # (the [train] extra: PyTorch, imported only here)
        except ImportError as e:
            raise ValueError(f"agent {_shown(spec)} needs PyTorch: pip install 'ddz-fast[train]' ({e})") from None
        return dmc_agent()
    kind, sep, path = spec.partition(":")
    if not sep or kind.strip() not in MODEL_AGENTS:
        return None
    if not path.strip():
        raise ValueError(f"agent {_shown(spec)}: name the directory of DouZero's checkpoints "
                         "(landlord.ckpt, landlord_up.ckpt, landlord_down.ckpt), e.g. douzero:baselines/douzero_WP")
    try:
        from .train import DouZeroAgent     # (the [train] extra: PyTorch, imported only here)
    except ImportError as e:
        raise ValueError(f"agent {_shown(spec)} needs PyTorch: pip install 'ddz-fast[train]' ({e})") from None
    try:
        return DouZeroAgent(path)
    except (TypeError, ValueError) as e:
        raise ValueError(f"agent {_shown(spec)}: {e}") from None


def load_agent(spec: str) -> Any:
    """A built-in agent name as is (``pimc`` may take options:
    ``pimc(worlds=64)``), DouZero's checkpoints for ``douzero:DIR`` (a
    :class:`~ddz_fast.train.DouZeroAgent`), or the object named by
    ``module:attribute`` (a class is instantiated with no arguments)."""
    if not isinstance(spec, str):
        raise TypeError(f"an agent name must be a str, not {type(spec).__name__}")
    if _builtin(spec) is not None:
        return spec
    model = _model_agent(spec)
    if model is not None:
        return model
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"unknown agent {_shown(spec)}: use one of {', '.join(BUILTIN_AGENTS)}, "
                         "dmc, douzero:DIR or module:attribute")
    try:
        obj: Any = importlib.import_module(module)
    except ImportError as e:
        raise ValueError(f"agent {_shown(spec)}: cannot import {module!r} ({e})") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"agent {_shown(spec)}: {module!r} has no attribute {attr!r}") from None
    if isinstance(obj, type):
        obj = obj()
    if not callable(obj) and not callable(getattr(obj, "act_batch", None)):
        raise ValueError(f"agent {_shown(spec)} is neither callable nor has act_batch")
    return obj


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    # SplitMix64's output function, over arrays (uint64 arithmetic wraps).
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return out


class _Player:
    """How the arena gets one agent's actions for a batch of tables."""

    name = "agent"

    def actions(self, run: "_Run", tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        raise NotImplementedError


class _Random(_Player):
    name = "random"

    def __init__(self, salt: int) -> None:
        self.salt = np.uint64(salt)

    def actions(self, run: "_Run", tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        vg = run.vg
        lo = vg.legal_offsets[tables]
        count = vg.legal_offsets[tables + 1] - lo
        key = _mix(self.salt ^ _mix(run.item[tables].astype(np.uint64))) + run.steps[tables].astype(np.uint64)
        pick = (_mix(key) % count.astype(np.uint64)).astype(np.int64)
        ids: npt.NDArray[np.int64] = vg.legal_ids[lo + pick].astype(np.int64)
        return ids


class _Bot(_Player):
    name = "simple"

    def actions(self, run: "_Run", tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        bot = run.vg.bot_actions
        assert bot is not None                  # the VecGame was made with bot=True
        ids: npt.NDArray[np.int64] = bot[tables].astype(np.int64)
        return ids


class _Batch(_Player):
    def __init__(self, agent: Any, name: str) -> None:
        self.agent = agent
        self.name = name

    def actions(self, run: "_Run", tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        out = _call_agent(self.name, self.agent.act_batch, run.vg, tables.copy())
        try:
            # (a masked array's masked ids are no ids: refused, not read raw)
            ids: npt.NDArray[Any] = np.empty(0) if isinstance(out, np.ma.MaskedArray) else np.asarray(out)
        except Exception:
            ids = np.empty(0)
        if ids.shape != (len(tables),) or ids.dtype.kind not in "iu":
            raise ValueError(f"agent {self.name!r}: act_batch must return {len(tables)} integer action ids, "
                             f"got {type(out).__name__} {getattr(ids, 'dtype', '')} {getattr(ids, 'shape', '')}")
        res: npt.NDArray[np.int64] = ids.astype(np.int64)
        return res


class _PerObservation(_Player):
    def __init__(self, agent: Callable[..., Any], name: str) -> None:
        self.agent = agent
        self.name = name

    def actions(self, run: "_Run", tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        vg = run.vg
        out = np.empty(len(tables), dtype=np.int64)
        for j, i in enumerate(tables.tolist()):
            seat = int(vg.to_move[i])
            obs = vg.games(i).observation(seat)
            a = _call_agent(self.name, self.agent, obs, obs.legal_actions)
            if not isinstance(a, (Move, AuctionAction)):
                raise TypeError(f"agent {self.name!r} returned a {type(a).__name__}, not a Move or an "
                                "auction action")
            try:
                out[j] = vg.action_id(a, table=i)
            except (TypeError, ValueError) as e:
                raise IllegalActionError(f"agent {self.name!r} returned {a!r}, not an action of this "
                                         f"game (seat {seat}): {e}") from None
        return out


def _call_agent(name: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``; an exception the agent raises comes back as an
    AgentError naming the agent (the cause chained), so a failing
    tournament says whose code failed."""
    try:
        return fn(*args)
    except Exception as e:
        raise AgentError(f"agent {name!r} raised {type(e).__name__}: {e}") from e


def _player(agent: AgentLike, index: int, seed: int, rules: Rules) -> _Player:
    if isinstance(agent, str):
        found = _builtin(agent)
        name, options = found if found is not None else ("", {})
        if name == "random":
            return _Random(game_seed(seed ^ 0xA4E7A, index))
        if name in ("simple", "bot"):
            return _Bot()
        if name == "pimc":
            return _PerObservation(PIMCAgent(seed=game_seed(seed, index), rules=rules, **options), agent)
        model = _model_agent(agent)
        if model is not None:
            return _player(model, index, seed, rules)
        raise ValueError(f"unknown agent {agent!r}: use one of {', '.join(BUILTIN_AGENTS)}, a callable "
                         "or an object with act_batch")
    if agent is simple_bot:
        return _Bot()
    name = _agent_name(agent)
    if callable(getattr(agent, "act_batch", None)):
        return _Batch(agent, name)
    if callable(agent):
        return _PerObservation(agent, name)
    raise TypeError(f"an agent must be a name, a callable or an object with act_batch, "
                    f"not {type(agent).__name__}")


def _agent_name(agent: AgentLike) -> str:
    if isinstance(agent, str):
        return "simple" if agent == "bot" else agent
    if agent is simple_bot:
        return "simple"
    if isinstance(agent, PIMCAgent):
        return "pimc"
    return str(getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__)


class _SeededRandom:
    """Uniform over the legal actions, from its own SplitMix64 stream."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = SplitMix64(seed)

    def __call__(self, obs: Observation, legal_actions: Optional[Sequence[Any]] = None) -> Any:
        acts = obs.legal_actions if legal_actions is None else legal_actions
        choices = list(acts)  # type: ignore[call-overload]
        if not choices:
            raise ValueError("no legal actions: it is not this player's turn")
        return choices[self._rng.below(len(choices))]


def observation_agent(agent: AgentLike, *, seed: int = 0, rules: RulesLike = "standard"
                      ) -> Callable[[Observation], Any]:
    """One agent of the arena's kinds (a name such as ``"random"``,
    ``"simple"`` or ``"pimc(worlds=64)"``, ``module:attribute`` resolved by
    :func:`load_agent`, or a callable) as a callable ``agent(observation) ->
    action`` that plays one seat of a :class:`~ddz_fast.Game` (what
    ``ddz-fast serve`` seats at its tables).  ``seed`` seeds ``random`` and
    ``pimc``.  A batch agent (``act_batch``) plays tables, not seats: refused.

    >>> from ddz_fast import Game, arena
    >>> g = Game("standard", seed=1)
    >>> bot = arena.observation_agent("simple")
    >>> bot(g.observation(g.to_move)) in g.legal_actions()
    True
    """
    r = check_rules(resolve_rules(rules))
    sd = int(check_seed(seed))
    if isinstance(agent, str):
        found = _builtin(agent)
        if found is None:
            loaded = load_agent(agent)
            # (a model agent knows the rules it was trained under)
            model = agent.partition(":")[0].strip() in MODEL_AGENTS or agent.strip() in SHIPPED_AGENTS
            own = getattr(loaded, "rules", r) if model else r
            if dataclasses.replace(own, auction=r.auction) != r:      # (a model bids in either auction)
                raise ValueError(f"agent {_shown(agent)} plays under the {getattr(own, 'name', own)!r} rules, "
                                 f"not {r.name!r}")
            return observation_agent(loaded, seed=sd, rules=r)
        name, options = found
        if name == "random":
            return _SeededRandom(sd)
        if name in ("simple", "bot"):
            return functools.partial(simple_bot, rules=r)
        return PIMCAgent(seed=sd, rules=r, **options)
    if callable(agent):
        return cast(Callable[[Observation], Any], agent)
    if callable(getattr(agent, "act_batch", None)):
        raise ValueError(f"agent {_agent_name(agent)!r} plays batches of tables (act_batch), not one seat")
    raise TypeError(f"an agent must be a name or a callable, not {type(agent).__name__}")


# ---------------------------------------------------------------------------
# Game records (--save-games)
# ---------------------------------------------------------------------------

#: The ``format`` field of a game record (docs/web.md, "Game records").
RECORD_FORMAT = "ddz-fast-game"
RECORD_VERSION = 1


def _action_id(action: object, game: Game) -> int:
    from .actions import WildActionSpace, action_space

    if isinstance(action, AuctionAction):
        return AUCTION_ACTIONS.index(action)
    space = action_space(game.rules)
    if isinstance(space, WildActionSpace):
        return FIRST_MOVE_ID + space.flat_id(cast(Move, action), wild=game.wild)
    return FIRST_MOVE_ID + space.move_to_id(cast(Move, action))


def _action_text(action: object) -> str:
    if isinstance(action, Move):
        # (str: the cards, and under wild cards "=" what they are read as)
        return "pass" if action.is_pass else f"{action.kind.name} {action}"
    return str(action)


def game_record(game: Game, **extra: Any) -> Dict[str, Any]:
    """A dealt game (``Game(rules, seed)``, finished or not) as a plain,
    JSON-ready record: its rules (every field), seed, redeals and actions
    (seat, game action id and text), and its result once over; ``extra``
    fields are added as they are (the arena adds its run, deal, rotation
    and the agent at each seat).  :func:`game_from_record` replays it.

    >>> from ddz_fast import Game, arena
    >>> g = Game("standard", seed=5)
    >>> while not g.is_over:
    ...     g.step(g.legal_actions()[-1])
    >>> again = arena.game_from_record(arena.game_record(g))
    >>> again.result == g.result
    True
    """
    if not isinstance(game, Game):
        raise TypeError(f"game_record takes a Game, not {type(game).__name__}")
    if game.seed is None:
        raise ValueError("a position (Game.from_position) has no deal to record: record a Game(rules, seed)")
    rules = game.rules
    actions = [[int(seat), _action_id(a, game), _action_text(a)] for seat, a in game.history]
    res = game.result
    rec: Dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
                           "rules": dataclasses.asdict(rules), "seed": int(game.seed),
                           "deal_number": int(game.deal_number), "actions": actions,
                           "result": None if res is None else dataclasses.asdict(res)}
    rec.update(extra)
    return rec


def game_from_record(record: Dict[str, Any]) -> Game:
    """The game of a :func:`game_record` record, replayed through the
    engine's checks: each redeal (everybody passed, the only way to one),
    then every action, each checked to be legal for the seat the record
    names; a record whose result differs from the replay's is refused.
    Malformed records raise ``ValueError`` naming the problem."""
    from .rules import Rules

    if not isinstance(record, dict):
        raise ValueError(f"a game record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
        raise ValueError(f"not a game record: format must be {RECORD_FORMAT!r} version {RECORD_VERSION}")
    try:
        rules = check_rules(Rules(**record["rules"]))
        seed = check_seed(record["seed"])
        redeals = check_int(record["deal_number"], "deal_number", 0, 1 << 20)
        actions = record["actions"]
        if not isinstance(actions, list):
            raise ValueError("actions must be a list")
        g = Game(rules, seed=seed)
        while g.deal_number < redeals:
            g.step(g.legal_actions()[0])        # (pass or decline: the only way to a redeal)
        for k, entry in enumerate(actions):
            if not (isinstance(entry, list) and len(entry) >= 2):
                raise ValueError(f"action {k} must be [seat, id, ...]")
            seat, aid = check_seat(entry[0], rules.players), check_int(entry[1], "action id", 0, 1 << 62)
            if g.to_move != seat:
                raise ValueError(f"action {k} is by seat {seat}, but seat {g.to_move} is to move")
            g.step_id(aid)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"bad game record: {type(e).__name__}: {e}") from None
    want = record.get("result")
    if want is not None and (g.result is None or dataclasses.asdict(g.result) != {
            **want, "scores": tuple(want.get("scores", ()))}):
        raise ValueError("bad game record: its result is not the replay's")
    return g


# ---------------------------------------------------------------------------
# Rotations
# ---------------------------------------------------------------------------

def rotations(n_agents: int, players: int, landlord: str) -> Tuple[Tuple[int, ...], ...]:
    """The places of the agents in each replay of a deal: tuple ``r`` gives
    the agent (0-based) of each place, the places being the roles landlord,
    then the farmers in play order (``landlord="fixed"``) or the seats
    (``"auction"``).

    >>> rotations(2, 3, "fixed")
    ((0, 1, 1), (1, 0, 0))
    >>> len(rotations(3, 3, "fixed")), len(rotations(2, 3, "auction"))
    (6, 6)
    """
    if landlord not in LANDLORD_MODES:
        raise ValueError(f"landlord must be one of {LANDLORD_MODES}, not {landlord!r}")
    if n_agents == players:
        return tuple(itertools.permutations(range(players)))
    if n_agents == 2:
        if landlord == "fixed":
            return ((0,) + (1,) * (players - 1), (1,) + (0,) * (players - 1))
        return tuple(t for t in itertools.product((0, 1), repeat=players) if 0 < sum(t) < players)
    raise ValueError(f"an arena takes 2 agents or one per seat ({players}), not {n_agents}")


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------

class _Run:
    """Games ``first .. stop-1`` of a run (game q: deal q // R, rotation q % R)
    on a VecGame of ``tables`` tables."""

    def __init__(self, players_: List[_Player], rules: Rules, seed: int, landlord: str,
                 rots: Tuple[Tuple[int, ...], ...], first: int, stop: int, tables: int) -> None:
        self.players = players_
        self.rules = rules
        self.seed = seed
        self.fixed = landlord == "fixed"
        self.rots = np.array(rots, dtype=np.int64)
        self.first, self.stop = first, stop
        n = max(1, min(tables, stop - first))
        need_obs = any(isinstance(p, _Batch) for p in players_)
        self.vg = VecGame(n, rules, seed, auto_reset=False, observations=need_obs,
                          bot=any(isinstance(p, _Bot) for p in players_), skip_auction=self.fixed)
        P = rules.players
        self.item = np.full(n, -1, dtype=np.int64)       # game number at each table (-1: idle)
        self.steps = np.zeros(n, dtype=np.int64)        # actions so far in the table's game
        self.seat_agent = np.zeros((n, P), dtype=np.int64)
        self.next = first
        # The stake of every game (the same for the whole run: with the landlord
        # fixed, the engine's top bid; divided out of the scores).
        self.base = self.vg.games(0).base if self.fixed else 1

    def _start(self, tables: npt.NDArray[np.intp]) -> None:
        k = max(0, min(len(tables), self.stop - self.next))
        self.item[tables[k:]] = -1                       # nothing left to play there
        if k == 0:
            return
        tables = tables[:k]
        q = np.arange(self.next, self.next + k, dtype=np.int64)
        self.next += k
        R = len(self.rots)
        seeds = [game_seed(self.seed, int(d)) for d in (q // R).tolist()]
        vg = self.vg
        vg.set_games(tables, seeds)
        self.item[tables] = q
        self.steps[tables] = 0
        P = self.rules.players
        rot = self.rots[q % R]
        if self.fixed:
            # places are roles: the landlord (who leads), then play order
            ll = vg.to_move[tables].astype(np.int64)
            for seat in range(P):
                self.seat_agent[tables, seat] = rot[np.arange(k), (seat - ll) % P]
        else:
            self.seat_agent[tables] = rot

    def play(self, on_game: Callable[[int], None]) -> None:
        """Play every game; ``on_game(table)`` when a table's game ends (its
        ``item``, ``seat_agent`` and the VecGame's ``scores`` describe it)."""
        vg = self.vg
        n = len(self.item)
        self._start(np.arange(n, dtype=np.intp))
        actions = np.full(n, VecGame.NO_ACTION, dtype=np.int64)
        while True:
            active = np.flatnonzero(self.item >= 0)
            if not len(active):
                return
            seats = vg.to_move[active]
            who = self.seat_agent[active, seats]
            actions.fill(VecGame.NO_ACTION)
            for a, pl in enumerate(self.players):
                t = active[who == a]
                if len(t):
                    ids = pl.actions(self, t)
                    self._check_legal(pl, t, ids)
                    actions[t] = ids
            vg.step(actions)
            self.steps[active] += 1
            ended = active[vg.to_move[active] < 0]
            if len(ended):
                for i in ended.tolist():
                    on_game(i)
                self._start(ended.astype(np.intp))

    def _check_legal(self, pl: _Player, tables: npt.NDArray[np.intp], ids: npt.NDArray[np.int64]) -> None:
        # Each table's id among its legal ids (one vectorised pass), so that a
        # wrong choice is reported with the agent's name.
        vg = self.vg
        lo = vg.legal_offsets[tables]
        count = vg.legal_offsets[tables + 1] - lo
        owner = np.repeat(np.arange(len(tables)), count)
        at = np.arange(len(owner)) - np.repeat(np.cumsum(count) - count, count) + lo[owner]
        found = np.bincount(owner, weights=vg.legal_ids[at] == ids[owner], minlength=len(tables))
        bad = np.flatnonzero(found == 0)
        if len(bad):
            i, q, R = int(tables[bad[0]]), int(self.item[tables[bad[0]]]), len(self.rots)
            raise IllegalActionError(f"agent {pl.name!r} chose action id {int(ids[bad[0]])}, not legal "
                                     f"for seat {int(vg.to_move[i])} in deal {q // R} (rotation {q % R})")


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Stat:
    """A mean with its 95% interval over ``units`` units in ``deals`` deals."""

    mean: float
    low: float
    high: float
    units: int
    deals: int

    def as_dict(self) -> Dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "units": self.units,
                "deals": self.deals}


def _clusters(sums: npt.NDArray[np.float64], counts: npt.NDArray[np.float64]
              ) -> Tuple[Optional[Stat], float, float, int, npt.NDArray[np.float64]]:
    """What both intervals start from: the clusters (deals) with units, the
    ratio ``r = sum(sums) / sum(counts)`` over them, their number of units
    ``n`` and of clusters ``D``, and each cluster's residual ``sums - r *
    counts``; or, first, the Stat to return when there is no interval (no
    units, or fewer than 2 clusters)."""
    keep = counts > 0
    s, c = sums[keep].astype(np.float64), counts[keep].astype(np.float64)
    D, n = len(c), float(c.sum())
    if n == 0:
        return Stat(math.nan, math.nan, math.nan, 0, 0), math.nan, n, D, c
    r = float(s.sum()) / n
    if D < 2:
        return Stat(r, math.nan, math.nan, int(n), D), r, n, D, c
    return None, r, n, D, s - r * c


def clustered_mean(sums: npt.NDArray[np.float64], counts: npt.NDArray[np.float64]) -> Stat:
    """The ratio ``sum(sums) / sum(counts)`` with its 95% interval, each
    cluster (deal) being one independent draw (see the module docstring).
    Clusters with no units take no part."""
    done, r, n, D, e = _clusters(sums, counts)
    if done is not None:
        return done
    se = math.sqrt(D / (D - 1) * float((e * e).sum())) / n
    return Stat(r, r - Z95 * se, r + Z95 * se, int(n), D)


def wilson_mean(sums: npt.NDArray[np.float64], counts: npt.NDArray[np.float64]) -> Stat:
    """The proportion ``sum(sums) / sum(counts)`` (``sums``: wins per
    cluster, ``counts``: units per cluster) with its 95% Wilson score
    interval over clusters (deals) with the effective number of units of the
    module docstring.  Clusters with no units take no part; NaN bounds with
    fewer than 2 clusters."""
    done, p, n, D, e = _clusters(sums, counts)
    if done is not None:
        return done
    var = float((e * e).sum()) / (n * n)
    spread = p * (1.0 - p)
    # (var == 0 with 0 < p < 1: every deal at exactly p; the units bound n_eff)
    n_eff = float(D) if spread == 0.0 else (n if var == 0.0 else min(n, spread / var))
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = Z95 / (1 + z2 / n_eff) * math.sqrt(spread / n_eff + z2 / (4 * n_eff * n_eff))
    return Stat(p, max(0.0, centre - half), min(1.0, centre + half), int(n), D)


class ArenaResult:
    """The games of an arena run and their summary.

    Per game ``q`` (deal ``q // R``, rotation ``q % R``), in order:
    ``deal``, ``rotation``, ``seats`` ((games, players): the agent at each
    seat), ``landlord`` (the landlord's seat), ``landlord_won`` and
    ``scores`` ((games, players) int64, zero-sum; at base 1 with
    ``landlord="fixed"``).
    """

    def __init__(self, agents: Sequence[str], rules: Rules, seed: int, deals: int, landlord: str,
                 rots: Tuple[Tuple[int, ...], ...], seats: npt.NDArray[np.int64],
                 scores: npt.NDArray[np.int64]) -> None:
        self.agents = tuple(agents)
        self.rules = rules
        self.seed = seed
        self.deals = deals
        self.landlord_mode = landlord
        self.rotations = rots
        G = len(scores)
        R = len(rots)
        self.deal = np.arange(G, dtype=np.int64) // R
        self.rotation = np.arange(G, dtype=np.int64) % R
        self.seats = seats
        self.scores = scores
        # the landlord's score is (players - 1) times a farmer's, in size
        self.landlord = np.argmax(np.abs(scores), axis=1).astype(np.int64)
        self.landlord_won = scores[np.arange(G), self.landlord] > 0
        for a in (self.deal, self.rotation, self.seats, self.scores, self.landlord, self.landlord_won):
            a.setflags(write=False)         # the record of the run: read-only

    def __len__(self) -> int:
        return len(self.scores)

    def units(self, agent: int, role: str = "all") -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                                                              npt.NDArray[np.float64]]:
        """``(deal, win, points)`` of every unit of ``agent`` in ``role``
        (``"all"``, ``"landlord"`` or ``"farmer"``), in game order."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        a = check_int(agent, "agent", 0, len(self.agents) - 1)
        G, P = self.scores.shape
        ll = np.zeros((G, P), dtype=bool)
        ll[np.arange(G), self.landlord] = True
        mine = self.seats == a
        parts = []
        for is_ll in ((True, False) if role == "all" else ((role == "landlord"),)):
            held = mine & (ll if is_ll else ~ll)
            has = held.any(axis=1)
            win = (self.landlord_won if is_ll else ~self.landlord_won)[has].astype(np.float64)
            pts = (self.scores * held).sum(axis=1)[has].astype(np.float64)
            parts.append((np.flatnonzero(has), win, pts))
        g = np.concatenate([p[0] for p in parts])
        order = np.argsort(g, kind="stable")
        return (self.deal[g[order]], np.concatenate([p[1] for p in parts])[order],
                np.concatenate([p[2] for p in parts])[order])

    def stat(self, agent: int, metric: str = "wp", role: str = "all", deals: Optional[int] = None) -> Stat:
        """WP (``metric="wp"``) or ADP (``"adp"``) of ``agent`` in ``role``,
        over the first ``deals`` deals (all by default)."""
        if metric not in ("wp", "adp"):
            raise ValueError(f"metric must be 'wp' or 'adp', not {metric!r}")
        d, win, pts = self.units(agent, role)
        D = self.deals if deals is None else check_int(deals, "deals", 0, self.deals)
        keep = d < D
        x = (win if metric == "wp" else pts)[keep]
        sums = np.bincount(d[keep], weights=x, minlength=D).astype(np.float64)
        counts = np.bincount(d[keep], minlength=D).astype(np.float64)
        return wilson_mean(sums, counts) if metric == "wp" else clustered_mean(sums, counts)

    def summary(self) -> Dict[str, Dict[str, Dict[str, Stat]]]:
        """``{agent label: {role: {"wp": Stat, "adp": Stat}}}``."""
        return {label: {role: {m: self.stat(a, m, role) for m in ("wp", "adp")} for role in ROLES}
                for a, label in enumerate(self.labels)}

    @property
    def labels(self) -> Tuple[str, ...]:
        """The agents' names, made distinct (``simple``, ``simple#2``)."""
        seen: Dict[str, int] = {}
        out = []
        for name in self.agents:
            seen[name] = seen.get(name, 0) + 1
            out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
        return tuple(out)

    def per_deal(self) -> List[Dict[str, Any]]:
        """One row per deal: its seed and, per agent, the points and wins of
        its units over the deal's rotations."""
        rows: List[Dict[str, Any]] = [{"deal": k, "seed": game_seed(self.seed, k)} for k in range(self.deals)]
        for a, label in enumerate(self.labels):
            d, win, pts = self.units(a)
            p = np.bincount(d, weights=pts, minlength=self.deals)
            w = np.bincount(d, weights=win, minlength=self.deals)
            c = np.bincount(d, minlength=self.deals)
            for k in range(self.deals):
                rows[k][f"{label} points"] = int(p[k])
                rows[k][f"{label} wins"] = f"{int(w[k])}/{int(c[k])}"
        return rows

    def games(self) -> Iterator[Dict[str, Any]]:
        """One dict per game: deal, rotation, seat agents, landlord, scores."""
        labels = self.labels
        for q in range(len(self)):
            yield {"deal": int(self.deal[q]), "rotation": int(self.rotation[q]),
                   "seats": [labels[a] for a in self.seats[q].tolist()],
                   "landlord": int(self.landlord[q]), "landlord_won": bool(self.landlord_won[q]),
                   "scores": self.scores[q].tolist()}

    def as_dict(self) -> Dict[str, Any]:
        """The run and its summary as plain data (what ``--json`` prints)."""
        return {"agents": list(self.labels), "rules": self.rules.name, "seed": self.seed, "deals": self.deals,
                "landlord": self.landlord_mode, "rotations": [list(r) for r in self.rotations],
                "games": len(self),
                "summary": {label: {role: {m: s.as_dict() for m, s in ms.items()} for role, ms in roles.items()}
                            for label, roles in self.summary().items()}}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, allow_nan=True)

    def format(self) -> str:
        """The summary as a text table."""
        lines = [f"arena: {', '.join(self.labels)} on {self.deals:,} duplicate deals x {len(self.rotations)} "
                 f"rotations = {len(self):,} games (rules {self.rules.name}, seed {self.seed}, "
                 f"landlord {self.landlord_mode})",
                 f"{'agent':<14} {'role':<9} {'WP [95% CI]':>26} {'ADP [95% CI]':>28} {'units':>8}"]
        for label, roles in self.summary().items():
            for role, ms in roles.items():
                wp, adp = ms["wp"], ms["adp"]
                lines.append(f"{label:<14} {role:<9} {_ci(wp, pct=True):>26} {_ci(adp):>28} {wp.units:>8,}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"ArenaResult(agents={list(self.labels)}, deals={self.deals}, games={len(self)}, "
                f"landlord={self.landlord_mode!r})")

    def plot(self, path: Any, *, points: int = 40) -> None:
        """Write a figure (matplotlib, the ``plot`` extra): WP and ADP of each
        agent with their 95% intervals, and how they converge with the number
        of deals (``points`` steps)."""
        from ._util.plot import plot_arena
        plot_arena(self, path, points=points)


def _ci(s: Stat, pct: bool = False) -> str:
    if s.units == 0:
        return "-"
    if pct:
        return f"{100 * s.mean:.1f}% [{100 * s.low:.1f}, {100 * s.high:.1f}]"
    return f"{s.mean:+.3f} [{s.low:+.3f}, {s.high:+.3f}]"


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------

def _check_run(agents: Sequence[AgentLike], deals: int, seed: int, rules: RulesLike, landlord: str,
               tables: int) -> Tuple[List[AgentLike], int, int, Rules, str, int, Tuple[Tuple[int, ...], ...]]:
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list of agents, not {type(agents).__name__}")
    r = check_rules(resolve_rules(rules))
    if not isinstance(landlord, str):
        raise TypeError(f"landlord must be one of {LANDLORD_MODES}, not {type(landlord).__name__}")
    rots = rotations(len(agents), r.players, landlord)
    return (list(agents), int(check_int(deals, "deals", 1, 1 << 40)), int(check_seed(seed)), r, landlord,
            int(check_int(tables, "tables", 1, 1 << 20)), rots)


def play_games(agents: Sequence[AgentLike], rules: Rules, seed: int, landlord: str, first: int, stop: int,
               tables: int, progress: Optional[Callable[[int], None]] = None,
               on_record: Optional[Callable[[Dict[str, Any]], None]] = None
               ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Games ``first .. stop-1`` of a run: ``(seats, scores)`` arrays in game
    order (one piece of :func:`play`; what a Ray task runs).  ``on_record``
    gets each game's :func:`game_record` as the game ends."""
    rots = rotations(len(agents), rules.players, landlord)
    pls = [_player(a, i, seed, rules) for i, a in enumerate(agents)]
    run = _Run(pls, rules, seed, landlord, rots, first, stop, tables)
    G, P = stop - first, rules.players
    seats = np.zeros((G, P), dtype=np.int64)
    scores = np.zeros((G, P), dtype=np.int64)
    done = 0

    def on_game(i: int) -> None:
        nonlocal done
        q = int(run.item[i]) - first
        seats[q] = run.seat_agent[i]
        scores[q] = run.vg.scores[i] // run.base
        if on_record is not None:
            labels = [_agent_name(agents[a]) for a in seats[q].tolist()]
            R = len(rots)
            on_record(game_record(run.vg.games(i), arena={
                "seed": seed, "deal": (first + q) // R, "rotation": (first + q) % R, "landlord": landlord,
                "seats": labels, "scores": scores[q].tolist()}))
        done += 1
        if progress is not None:
            progress(done)              # (every game: the bar itself limits its redraws)

    run.play(on_game)
    return seats, scores


def play(agents: Sequence[AgentLike], deals: int = 1000, *, seed: int = 0, rules: RulesLike = "standard",
         landlord: str = "fixed", tables: int = 256, ray: Optional[str] = None, chunk_deals: int = 250,
         progress: Optional[bool] = None, save_games: Optional[IO[str]] = None) -> ArenaResult:
    """Play ``agents`` (2, or one per seat) against each other on ``deals``
    duplicate deals (see the module docstring) and return the
    :class:`ArenaResult`.

    ``tables``: games played at once (one batched game; batch agents see
    up to this many tables per call).  ``ray``: run on a Ray cluster
    (``"auto"``, an address such as ``"ray://head:10001"``, or
    ``"local"`` for a new local instance; needs the ``ray`` extra), in
    pieces of ``chunk_deals`` deals, with the same result as the local run.
    ``progress``: a progress bar on stderr (games done, rate and ETA):
    None (the default) draws it when stderr is a terminal, True always,
    False never.  ``save_games``: a text file to which every game is written
    as one JSON line, its :func:`game_record` (in the order the games end;
    ``arena.deal`` and ``arena.rotation`` name each; not with ``ray``).

    >>> from ddz_fast import arena
    >>> res = arena.play(["simple", "random"], deals=50, seed=1)
    >>> len(res), res.stat(0, "wp").mean > res.stat(1, "wp").mean
    (100, True)
    """
    agents_, D, sd, r, ll, T, rots = _check_run(agents, deals, seed, rules, landlord, tables)
    labels = [_agent_name(a) for a in agents_]
    for i, a in enumerate(agents_):
        _player(a, i, sd, r)                # checked before anything runs
    G = D * len(rots)
    if save_games is not None and ray is not None:
        raise ValueError("save_games records the games of a local run: not with ray")
    on_record: Optional[Callable[[Dict[str, Any]], None]] = None
    if save_games is not None:
        out = save_games

        def on_record(rec: Dict[str, Any]) -> None:
            out.write(json.dumps(rec) + "\n")
    bar = Progress("arena", G, "games", enabled=progress)
    update = bar.update if bar.enabled else None
    try:
        if ray is None:
            seats, scores = play_games(agents_, r, sd, ll, 0, G, T, update, on_record)
        else:
            from ._util.ray import play_on_ray
            seats, scores = play_on_ray(agents_, r, sd, ll, D, len(rots), T, ray,
                                        int(check_int(chunk_deals, "chunk_deals", 1, 1 << 40)), update)
    finally:
        bar.close()
    return ArenaResult(labels, r, sd, D, ll, rots, seats, scores)
