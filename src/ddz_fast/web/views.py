"""What the web app sends: the view of a deal for one seat, and the open view
of a deal for replays.

:func:`seat_view` is the one function that builds what a playing client
receives.  It reads only an :class:`~ddz_fast.Observation` of that seat
(its own hand, the public state, the cards played), the public log of the
deal and, once the deal is over, its result: it is never given the game, so
it cannot show another seat's hidden cards.  :func:`table_view` shows every
hand (replays, and finished games only).

Cards travel as lists of rank labels (``"3"`` .. ``"2"``, ``"B"`` the black
joker, ``"R"`` the red one), one label per card, lowest rank first; the page
draws them from the labels of :func:`rank_table` alone, so a new rank needs
only its label there.  Under wild-card rules the deal's wild ranks (public
once drawn) travel as labels too, and a move read as other cards than it
plays carries that reading (``reads``) beside its cards.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, cast

import numpy as np

from .._core.move import Move
from ..cards import RANKS
from ..game import Game, GameResult, Observation, Phase
from ..game_values import AuctionAction

__all__ = ["LogEntry", "rank_table", "cards_json", "wild_json", "action_json", "seat_view", "table_view", "result_json"]

_RANK_NAMES = {"T": "10", "B": "Black joker", "R": "Red joker"}


def rank_table() -> List[Dict[str, Any]]:
    """The ranks the page draws, lowest first: label, display name, joker."""
    return [{"label": r, "name": _RANK_NAMES.get(r, r), "joker": r in "BR"} for r in RANKS]


def cards_json(counts: Any) -> List[str]:
    """A count vector as one rank label per card, lowest rank first."""
    if not isinstance(counts, tuple):          # (a move's counts are a tuple already: thousands per view)
        counts = np.asarray(counts).tolist()
    return list("".join(map(operator.mul, RANKS, map(int, counts))))


def wild_json(wild: Optional[Sequence[int]]) -> Optional[List[str]]:
    """The wild ranks as labels (None before the draw, or without wild cards)."""
    return None if wild is None else [RANKS[r] for r in wild]


def action_json(action: object) -> Dict[str, Any]:
    """A move (kind, cards, text; a bomb's or rocket's ``bomb_class``; and
    ``reads``, the cards it is read as, when a wild card makes them differ
    from those played) or an auction action (text).  The text is the move's own (``parse_move``
    reads it back): the cards, then ``=`` and the reading for a wild reading."""
    if isinstance(action, Move):
        if action.is_pass:
            return {"type": "move", "kind": "PASS", "cards": [], "text": "pass"}
        out = {"type": "move", "kind": action.kind.name, "cards": cards_json(action.counts), "text": str(action)}
        if action.represents != action.counts:
            out["reads"] = cards_json(action.represents)
        if action.bomb_class is not None:
            out["bomb_class"] = action.bomb_class
        return out
    if isinstance(action, AuctionAction):
        return {"type": "auction", "text": str(action)}
    raise TypeError(f"not an action: {type(action).__name__}")


@dataclass(frozen=True)
class LogEntry:
    """One public action of a deal: who, what, and whether it led a round
    (the table was empty when it was played)."""

    seat: int
    action: object
    lead: bool


def _entries(log: Sequence[LogEntry]) -> List[Dict[str, Any]]:
    return [{"seat": e.seat, "lead": e.lead, **action_json(e.action)} for e in log]


def _trick(log: Sequence[LogEntry]) -> List[Dict[str, Any]]:
    """The play actions of the current round: from the last lead on."""
    start = None
    for i in range(len(log) - 1, -1, -1):
        if isinstance(log[i].action, Move) and log[i].lead:
            start = i
            break
    return [] if start is None else _entries(log[start:])


def result_json(res: GameResult, players: int) -> Dict[str, Any]:
    """The result with its stake explained factor by factor."""
    factors = [f"base {res.base}"]
    if res.bombs:
        factors.append(f"x 2^{res.bombs} for {res.bombs} bomb{'s' if res.bombs > 1 else ''}/rocket")
    if res.spring:
        factors.append("x 2 for the " + ("spring" if res.spring == 1 else "anti-spring"))
    if res.doubles:
        factors.append(f"x 2^{res.doubles} for {res.doubles} double{'s' if res.doubles > 1 else ''}")
    lead = f"the landlord gets {players - 1} x {res.value}" if res.landlord_won else \
        f"the landlord pays {res.value} to each farmer"
    return {"landlord": res.landlord, "landlord_won": res.landlord_won, "winner": res.winner,
            "base": res.base, "bombs": res.bombs, "spring": res.spring, "doubles": res.doubles,
            "value": res.value, "scores": list(res.scores),
            "explain": f"stake {res.value} = {' '.join(factors)}; {lead}"}


def seat_view(obs: Observation, log: Sequence[LogEntry], *, result: Optional[GameResult] = None,
              **public: Any) -> Dict[str, Any]:
    """Everything a playing client receives about its deal, from what its
    seat may see: ``obs`` (the seat's observation), ``log`` (the deal's
    public actions) and the ``result`` once over; ``public`` adds the
    session's own fields (names, totals, ids) as they are."""
    acts = cast(Sequence[object], obs.legal_actions)     # a MoveList, auction actions, or ()
    legal: List[Dict[str, Any]] = []
    options: List[Dict[str, Any]] = []
    if obs.phase == Phase.PLAY:
        legal = [{"index": i, **action_json(m)} for i, m in enumerate(acts)]
    else:
        options = [{"index": i, **action_json(a)} for i, a in enumerate(acts)]
    played = obs.played_cards
    view: Dict[str, Any] = {
        "seat": obs.player,
        "phase": obs.phase.name,
        "to_move": obs.to_move,
        "your_turn": obs.to_move == obs.player and bool(legal or options),
        "hand": cards_json(obs.hand),
        "hand_sizes": list(obs.hand_sizes),
        "wild": wild_json(obs.wild),
        "landlord": obs.landlord,
        "kitty": None if obs.kitty is None else cards_json(obs.kitty),
        "base": obs.base,
        "bombs": obs.bombs,
        "doubles": obs.doubles,
        "stake": obs.base << (obs.bombs + obs.doubles),
        "deal_number": obs.deal_number,
        "auction_level": obs.auction_level,
        "last_move": None if obs.last_move is None else action_json(obs.last_move),
        "last_player": obs.last_player,
        "played": [] if played is None else [cards_json(row) for row in played],
        "history": _entries(log),
        "trick": _trick(log),
        "legal": legal,
        "options": options,
        "can_pass": any(m["kind"] == "PASS" for m in legal),
        "result": None if result is None else result_json(result, len(obs.hand_sizes)),
    }
    view.update(public)
    return view


def table_view(game: Game, log: Sequence[LogEntry]) -> Dict[str, Any]:
    """The deal open: every hand face up, the kitty, the public state (for
    replays; never for a seat at play)."""
    kitty = game.kitty
    return {
        "phase": game.phase.name,
        "to_move": game.to_move,
        "hands": [cards_json(game.hand(s)) for s in range(game.players)],
        "hand_sizes": list(game.hand_sizes),
        "wild": wild_json(game.wild),
        "landlord": game.landlord,
        "kitty": None if kitty is None else cards_json(kitty),
        "base": game.base,
        "bombs": game.bombs,
        "doubles": game.doubles,
        "stake": game.value,
        "last_move": None if game.last_move is None else action_json(game.last_move),
        "last_player": game.last_player,
        "history": _entries(log),
        "trick": _trick(log),
        "result": None if game.result is None else result_json(game.result, game.players),
    }
