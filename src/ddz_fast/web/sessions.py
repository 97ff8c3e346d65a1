"""Play sessions: one person at one seat against agents, deal after deal.

A :class:`PlaySession` owns its deals (a :class:`~ddz_fast.Session` for the
running totals), the agents at the other seats and the public log of the
current deal; :class:`SessionStore` keeps the sessions of a server.  The
session's methods are plain, blocking code: the app runs them in a worker
thread (agents may think for a while) holding the session's own lock, so
one session's requests run one at a time and never block another's.
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ..errors import AgentError
from ..arena import game_record, load_agent, observation_agent
from ..game import Game, Phase, Session, simple_bot
from ..moves import parse_move
from ..rules import AUCTIONS, PRESETS, Rules, check_rules
from .views import LogEntry, action_json, seat_view

__all__ = ["LEVELS", "GAME_PRESETS", "RequestError", "PlaySession", "SessionStore", "AgentChoices", "game_rules"]

#: The opponent levels the page offers, as arena agent names.
LEVELS: Dict[str, str] = {"leisure": "random", "challenge": "simple", "master": "pimc"}
#: The rules presets the page offers.
GAME_PRESETS = ("standard", "strict", "four", "laizi", "tiandi")


class RequestError(ValueError):
    """A request the game refuses (HTTP ``status``), with the reason."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def game_rules(preset: object, auction: object = None) -> Rules:
    """The rules of a new session: one of :data:`GAME_PRESETS`, its auction
    replaced when ``auction`` ("bid" or "rob") differs."""
    if not isinstance(preset, str) or preset not in GAME_PRESETS:
        raise RequestError(f"preset must be one of {', '.join(GAME_PRESETS)}, not {preset!r}")
    r = PRESETS[preset]
    if auction is None or auction == r.auction:
        return r
    if not isinstance(auction, str) or auction not in AUCTIONS:
        raise RequestError(f"auction must be one of {', '.join(AUCTIONS)}, not {auction!r}")
    return check_rules(r.replace(auction=auction, name=f"{preset}+{auction}"))


class AgentChoices:
    """The opponents a client may choose: the levels, and the agents named
    on the command line (checked once, at start, by the arena's parser), or
    given by name (a mapping of names to arena agents: names or callables).
    A client names one of these; it never names a module to import."""

    def __init__(self, extra: Union[Sequence[str], Mapping[str, Any]] = ()) -> None:
        self.specs: Dict[str, Any] = dict(LEVELS)
        named = extra.items() if isinstance(extra, Mapping) else [(spec, spec) for spec in extra]
        for name, spec in named:
            if isinstance(spec, str):
                load_agent(spec)                # (ValueError naming a bad one)
            self.specs[str(name)] = spec

    @property
    def names(self) -> List[str]:
        return list(self.specs)

    def build(self, name: object, seed: int, rules: Rules) -> Callable[..., Any]:
        if not isinstance(name, str) or name not in self.specs:
            raise RequestError(f"unknown opponent {name!r}: choose one of {', '.join(self.specs)}")
        return observation_agent(self.specs[name], seed=seed, rules=rules)


class PlaySession:
    """One person at ``seat`` against ``opponents`` (a name of
    :class:`AgentChoices` per other seat)."""

    def __init__(self, sid: str, rules: Rules, seat: int, opponents: Sequence[str], choices: AgentChoices,
                 seed: Optional[int] = None) -> None:
        n = rules.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise RequestError(f"seat must be an integer 0..{n - 1}, not {seat!r}")
        if len(opponents) != n - 1:
            raise RequestError(f"name {n - 1} opponents (one per other seat), not {len(opponents)}")
        self.id = sid
        self.rules = rules
        self.seat = seat
        self.session = Session(rules, seed=seed)
        self.agents: List[Optional[Callable[..., Any]]] = []
        self.names: List[str] = []
        others = iter(opponents)
        for s in range(n):
            if s == seat:
                self.agents.append(None)
                self.names.append("you")
            else:
                name = next(others)
                self.agents.append(choices.build(name, seed=(self.session.seed + s) & ((1 << 64) - 1), rules=rules))
                self.names.append(f"{name} ({s})")
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.finished: List[Dict[str, Any]] = []     # game records of the finished deals
        self._new_deal()

    # -- the deal ----------------------------------------------------------
    def _new_deal(self) -> None:
        self.game: Game = self.session.new_game()
        self.log: List[LogEntry] = []
        self._deal_number = 0

    def _step(self, action: object) -> None:
        g = self.game
        seat = g.to_move
        assert seat is not None
        lead = g.phase == Phase.PLAY and g.last_move is None
        g.step(action)
        if g.deal_number != self._deal_number:      # everybody passed: redealt, a new public log
            self._deal_number = g.deal_number
            self.log = []
        else:
            self.log.append(LogEntry(seat, action, lead))
        if g.is_over:
            self.session.record(g)
            self.finished.append(game_record(g, seats=self.names, human_seat=self.seat))

    def run_agents(self) -> None:
        """Let the agents act until it is the person's turn or the deal ends."""
        g = self.game
        while not g.is_over and g.to_move != self.seat:
            seat = g.to_move
            assert seat is not None
            agent = self.agents[seat]
            assert agent is not None
            obs = g.observation(seat)
            try:
                action = agent(obs)
            except Exception as e:
                raise AgentError(f"{self.names[seat]} raised {type(e).__name__}: {e}") from e
            if action not in obs.legal_actions:    # type: ignore[operator]
                raise AgentError(f"{self.names[seat]} chose {action!r}, not a legal action")
            self._step(action)

    # -- requests ----------------------------------------------------------
    def act(self, body: object) -> None:
        """The person's action: ``{"index": i}`` (the i-th of the view's
        ``legal`` or ``options``), or in play ``{"move": text}`` (a move's
        ``text``, such as ``"5577=5555"`` under wild rules, with its ``"kind"``
        when the cards read as several kinds), or both (they must name the
        same move); optionally with ``"ply"`` (how many actions of the deal
        the client has seen: a stale page is refused).  A move is checked
        against the legal moves, never taken on trust, and every check comes
        before the step: a refused request changes nothing."""
        if not isinstance(body, dict):
            raise RequestError("the body must be a JSON object such as {\"index\": 0}")
        unknown = set(body) - {"index", "move", "kind", "ply"}
        if unknown:
            raise RequestError(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}: "
                               "send index or move (and kind, ply)")
        g = self.game
        if g.is_over:
            raise RequestError("the deal is over: start the next one", 409)
        if g.to_move != self.seat:
            raise RequestError("it is not your turn", 409)
        ply = body.get("ply")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool) or ply != len(self.log)):
            raise RequestError(f"stale request: the deal is at action {len(self.log)}, not {ply!r}", 409)
        index, text = body.get("index"), body.get("move")
        acts = g.legal_actions()
        action: object = None
        if index is not None or text is None:
            if not isinstance(index, int) or isinstance(index, bool):
                raise RequestError(f"index must be an integer (or send a move as text), not {index!r}")
            if not 0 <= index < len(acts):
                raise RequestError(f"index {index} is out of range: there are {len(acts)} legal actions")
            action = acts[index]
        if text is not None:
            move = self._legal_move(text, body.get("kind"))
            if action is not None and move != action:
                raise RequestError(f"move {text!r} is not action {index} ({action}): reload the page", 409)
            action = move
        elif "kind" in body:
            raise RequestError("kind goes with a move (text), not alone")
        self._step(action)
        self.touched = time.monotonic()

    def _legal_move(self, text: object, kind: object) -> object:
        """The legal move the text names (checked against the legal moves)."""
        g = self.game
        if g.phase != Phase.PLAY:
            raise RequestError(f"a move is played in the play phase, not in the {g.phase.name.lower()}: "
                               "send the index of an option")
        if not isinstance(text, str) or len(text) > 100:
            raise RequestError(f"move must be the text of a move such as \"5577=5555\", not {text!r:.100}")
        if kind is not None and not isinstance(kind, str):
            raise RequestError(f"kind must be the name of a kind such as \"BOMB\", not {kind!r}")
        try:
            move = parse_move(text, kind, rules=self.rules, wild=g.wild)
        except ValueError as e:            # (InvalidMoveError, AmbiguousMoveError, an unknown kind)
            raise RequestError(f"move {text!r}: {e}") from None
        if move not in g.legal_actions():
            raise RequestError(f"move {text!r} is not a legal move now")
        return move

    def hint(self) -> Dict[str, Any]:
        """A suggested action (the simple bot's) as its index and action."""
        g = self.game
        if g.is_over or g.to_move != self.seat:
            raise RequestError("there is nothing to hint: it is not your turn", 409)
        obs = g.observation(self.seat)
        a = simple_bot(obs, self.rules)
        acts = list(g.legal_actions())
        return {"index": acts.index(a), **action_json(a)}

    def next_deal(self) -> None:
        if not self.game.is_over:
            raise RequestError("the deal is not over yet", 409)
        self._new_deal()
        self.touched = time.monotonic()

    def view(self) -> Dict[str, Any]:
        """The person's view (:func:`~ddz_fast.web.views.seat_view`)."""
        g = self.game
        return seat_view(g.observation(self.seat), self.log, result=g.result,
                         id=self.id, preset=self.rules.name, auction=self.rules.auction,
                         players=self.rules.players, names=self.names, ply=len(self.log),
                         totals=list(self.session.totals), deals=self.session.deals,
                         finished=len(self.finished))

    def replay_record(self, k: int) -> Dict[str, Any]:
        if not 0 <= k < len(self.finished):
            raise RequestError(f"no finished deal {k}: {len(self.finished)} finished so far", 404)
        return self.finished[k]


class SessionStore:
    """The sessions of one server, at most ``limit`` (the least recently
    used one makes room)."""

    def __init__(self, choices: AgentChoices, limit: int = 1000) -> None:
        self.choices = choices
        self.limit = limit
        self._sessions: "OrderedDict[str, PlaySession]" = OrderedDict()
        self._lock = threading.Lock()

    def create(self, body: object) -> PlaySession:
        if not isinstance(body, dict):
            raise RequestError('the body must be a JSON object such as {"preset": "standard", "level": "master"}')
        unknown = set(body) - {"preset", "auction", "level", "opponents", "seat", "seed"}
        if unknown:
            raise RequestError(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        rules = game_rules(body.get("preset", "standard"), body.get("auction"))
        n = rules.players
        seat = body.get("seat", 0)
        opponents = body.get("opponents")
        if opponents is None:
            opponents = [body.get("level", "master")] * (n - 1)
        elif "level" in body:
            raise RequestError("give level or opponents, not both")
        if not isinstance(opponents, list):
            raise RequestError("opponents must be a list of names, one per other seat")
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64):
            raise RequestError(f"seed must be an integer 0..2**64-1, not {seed!r}")
        s = PlaySession(secrets.token_urlsafe(16), rules, seat, opponents, self.choices, seed=seed)
        with self._lock:
            while len(self._sessions) >= self.limit:
                self._sessions.popitem(last=False)
            self._sessions[s.id] = s
        return s

    def get(self, sid: str) -> PlaySession:
        with self._lock:
            s = self._sessions.get(sid)
            if s is None:
                raise RequestError(f"no game {sid!r} (it ended, or the server restarted)", 404)
            self._sessions.move_to_end(sid)
            return s

    def __len__(self) -> int:
        return len(self._sessions)

