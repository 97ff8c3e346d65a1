"""A :class:`~ddz_fast.Game` driven by action ids, with its legal-action ids,
masks and observation vector.  Both environments (:mod:`ddz_fast.envs.aec`,
:mod:`ddz_fast.envs.single`) run their deals through a ``Table``; nothing here
depends on PettingZoo or Gymnasium.
"""
from __future__ import annotations

from typing import List, Optional

import numpy as np
import numpy.typing as npt

from .._util.checks import check_seat
from .._core.move import Move
from ..cards import format_cards
from ..errors import IllegalActionError
from ..game import Game
from ..rules import RulesLike, resolve_rules
from .action_layout import Action, ActionLayout, check_action_id
from .observation import ObservationLayout

__all__ = ["Table", "IllegalActionError"]


class Table:
    """One deal at a time: ``new_game(seed)``, then ``step(action_id)`` until
    ``game.is_over``.

    ``actions`` (:class:`ActionLayout`) and ``observations``
    (:class:`ObservationLayout`) describe the ids and the observation vector.
    ``game`` is the running :class:`~ddz_fast.Game` (read-only; steps go
    through :meth:`step`, which keeps the cached legal ids in step).
    """

    # (class defaults: a Table made without __init__ has no game, and says so)
    _game: Optional[Game] = None
    _legal_ids: Optional[npt.NDArray[np.int64]] = None
    _played: Optional[npt.NDArray[np.int64]] = None

    def __init__(self, rules: RulesLike = "standard") -> None:
        self.rules = resolve_rules(rules)
        self.actions = ActionLayout(self.rules)
        self.observations = ObservationLayout(self.rules)
        self._game: Optional[Game] = None
        self._legal_ids: Optional[npt.NDArray[np.int64]] = None

    # -- the deal ------------------------------------------------------------
    def new_game(self, seed: int) -> Game:
        """Start a new deal, shuffled with ``seed`` (see :class:`~ddz_fast.Game`)."""
        self._game = Game(self.rules, seed=seed)
        self._legal_ids = None
        return self._game

    @property
    def has_game(self) -> bool:
        """Has :meth:`new_game` been called?"""
        return self._game is not None

    @property
    def game(self) -> Game:
        """The running game (RuntimeError before :meth:`new_game`)."""
        if self._game is None:
            raise RuntimeError("no game yet: call new_game(seed) (the environments' reset) first")
        return self._game

    @property
    def played(self) -> npt.NDArray[np.uint8]:
        """A copy of the cards played per seat this deal, shape (players, 15)."""
        out: npt.NDArray[np.uint8] = self.game.played_cards
        return out

    # -- actions ---------------------------------------------------------------
    def legal_ids(self) -> npt.NDArray[np.int64]:
        """The ids of the legal actions of the player to move, in
        ``Game.legal_actions()`` order (empty when the game is over); under
        wild cards the reading ids, ascending (:class:`ActionLayout`).
        A new array on each call (the cached ids stay private)."""
        out: npt.NDArray[np.int64] = self._ids().copy()
        return out

    def _ids(self) -> npt.NDArray[np.int64]:
        ids = self._legal_ids
        if ids is None:
            game_ids = self.game.legal_ids()
            _, ids, self._played = self.actions.play_choices(np.array([0, len(game_ids)]), game_ids)
            self._legal_ids = ids
        return ids

    def action_mask(self, player: Optional[int] = None) -> npt.NDArray[np.int8]:
        """``int8`` 0/1 mask over all action ids: the legal actions of
        ``player`` (default: the player to move); all zeros when it is not
        that player's turn or the game is over."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        g = self.game
        if player is not None:
            player = check_seat(player, g.players, "player")
        if not g.is_over and (player is None or player == g.to_move):
            mask[self._ids()] = 1
        return mask

    def is_legal(self, action_id: object) -> bool:
        """Whether ``action_id`` is a legal action of the player to move."""
        try:
            i = check_action_id(action_id, self.actions.size)
        except (TypeError, ValueError):
            return False
        return bool(np.any(self._ids() == i))

    def illegal_reason(self, action_id: int) -> Optional[str]:
        """None when the action id (checked: an int in range) is legal for
        the player to move; otherwise why it is not (the message of the
        :class:`~ddz_fast.IllegalActionError` the environments raise)."""
        g = self.game
        if g.is_over:
            return f"action id {action_id}: the game is over"
        if not np.any(self._ids() == action_id):
            return f"action id {action_id} ({self.describe(action_id)}) is not legal for seat {g.to_move} now"
        return None

    def step(self, action_id: object) -> Action:
        """Apply the action with this id for the player to move; return it.

        Raises :class:`~ddz_fast.IllegalActionError` (a ValueError) when it
        is not legal now (the state is unchanged), TypeError/ValueError when
        it is not an action id at all.
        """
        g = self.game
        i = check_action_id(action_id, self.actions.size)
        why = self.illegal_reason(i)
        if why is not None:
            raise IllegalActionError(why)
        played = self._played
        assert played is not None           # (set with the legal ids illegal_reason read)
        g.step_id(int(played[np.flatnonzero(self._ids() == i)[0]]))
        self._legal_ids = self._played = None
        if self.actions.wild and i >= self.actions.play_offset:
            return g.history[-1][1]         # (the move played, with its cards)
        return self.actions.action(i)

    def describe(self, action_id: int) -> str:
        """Human-readable text of an action id (``"bid 2"``, ``"33 (PAIR)"``...)."""
        a = self.actions.action(action_id)
        if isinstance(a, Move):
            return "pass" if a.is_pass else f"{a.cards} ({a.kind.name})"
        return str(a)

    # -- views -----------------------------------------------------------------
    def observe(self, player: int) -> npt.NDArray[np.float32]:
        """Seat ``player``'s observation vector (see :mod:`ddz_fast.observation`)."""
        return self.game.observation_tensor(player)

    def render(self) -> str:
        """The whole table as text (all hands shown: an observer's view)."""
        g = self.game
        r = self.rules
        head = f"deal {g.deal_number} ({r.name}), phase {g.phase.name}"
        if g.landlord is not None:
            head += f", landlord seat {g.landlord}, base {g.base}, bombs {g.bombs}, doubles {g.doubles}"
        lines: List[str] = [head]
        for s in range(g.players):
            mark = ">" if not g.is_over and g.to_move == s else " "
            role = "" if g.landlord is None else (" landlord" if s == g.landlord else " farmer")
            hand = format_cards(g.hand(s), rules=r) or "-"
            played = format_cards(g.played_cards[s], rules=r) or "-"
            lines.append(f"{mark} seat {s}{role}: {g.hand_sizes[s]:2d} cards {hand}   played {played}")
        if g.last_move is not None:
            lines.append(f"  to beat: {g.last_move.cards} ({g.last_move.kind.name}) by seat {g.last_player}")
        if g.result is not None:
            lines.append(f"  over: seat {g.result.winner} went out, scores {g.result.scores}")
        elif g.history:
            seat, action = g.history[-1]
            text = ("pass" if action.is_pass else action.cards) if isinstance(action, Move) else str(action)
            lines.append(f"  last action: seat {seat} {text}")
        return "\n".join(lines)
