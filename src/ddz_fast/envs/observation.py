"""The environments' observation vector: a fixed-length ``float32`` array.

For ``n`` players (3, or 4 with ``"four"``), seats in absolute order
``0 .. n-1`` and card counts in :data:`ddz_fast.RANKS` order (15 ranks, index
0 = '3' .. 12 = '2', 13 = low joker, 14 = high joker), the fields are, in
order (``ObservationLayout.fields`` maps each name to its slice):

==================  ==========  ===============================================
name                length      meaning
==================  ==========  ===============================================
``hand``            15          the observer's own hand (counts)
``played``          n x 15      cards each seat has played so far this deal
``hand_sizes``      n           cards each seat holds
``kitty``           15          the kitty once revealed (zeros before)
``last_move``       15          the cards of the move to beat (zeros: leading)
``last_kind``       15          one-hot of its :class:`~ddz_fast.Kind` (zeros: leading)
``last_player``     n           one-hot of who made it (zeros: leading)
``me``              n           one-hot of the observer's seat
``to_move``         n           one-hot of the seat to act (zeros: game over)
``landlord``        n           one-hot of the landlord (zeros: auction)
``phase``           4           one-hot of :class:`~ddz_fast.Phase` (auction, doubling, play, over)
``auction_level``   1           bid auction: highest bid so far (0..3);
                                rob auction: calls + robs so far
``auction_leader``  n           one-hot of the highest bidder / last caller or robber
``base``            1           the stake before bombs (the bid, or 2**robs; 0 in the auction)
``bombs``           1           bombs and rockets played
``doubles``         1           doublings (rob auction)
==================  ==========  ===============================================

Total length ``68 + 21*n``: 131 for three players, 152 for four.  Everything in it is public or the observer's own
information.  ``low`` is 0 everywhere; ``high`` holds a bound for every entry.
Nothing here depends on PettingZoo or Gymnasium.
"""
from __future__ import annotations

from typing import Dict, Sequence, Tuple, cast

import numpy as np
import numpy.typing as npt

from .._engine import max_bombs
from ..game import Game
from ..rules import Rules, RulesLike, resolve_rules

__all__ = ["ObservationLayout"]

_N_KINDS = 15
_N_PHASES = 4


class ObservationLayout:
    """Field slices, bounds and the encoder of the observation vector
    (see the module docstring)."""

    def __init__(self, rules: RulesLike = "standard") -> None:
        r = self.rules = resolve_rules(rules)
        n = r.players
        spec: Tuple[Tuple[str, int, float], ...] = (
            ("hand", 15, r.max_count),
            ("played", n * 15, r.max_count),
            ("hand_sizes", n, r.hand_size + r.kitty_size),
            ("kitty", 15, r.max_count),
            ("last_move", 15, r.max_count),
            ("last_kind", _N_KINDS, 1),
            ("last_player", n, 1),
            ("me", n, 1),
            ("to_move", n, 1),
            ("landlord", n, 1),
            ("phase", _N_PHASES, 1),
            ("auction_level", 1, 3 if r.auction == "bid" else n),
            ("auction_leader", n, 1),
            ("base", 1, _max_base(r)),
            ("bombs", 1, max_bombs(r)),
            ("doubles", 1, n),
        )
        self.fields: Dict[str, slice] = {}
        pos = 0
        high = []
        for name, length, bound in spec:
            self.fields[name] = slice(pos, pos + length)
            high.append(np.full(length, bound, dtype=np.float32))
            pos += length
        self.size: int = pos
        self.low: npt.NDArray[np.float32] = np.zeros(pos, dtype=np.float32)
        self.high: npt.NDArray[np.float32] = np.concatenate(high)
        f = self.fields
        # Offsets of the one-hot fields and scalars, for the encoder.
        self._played = f["played"]
        self._sizes = f["hand_sizes"]
        self._kitty = f["kitty"]
        self._last = f["last_move"]
        self._kind0 = f["last_kind"].start
        self._lastp0 = f["last_player"].start
        self._me0 = f["me"].start
        self._to0 = f["to_move"].start
        self._ll0 = f["landlord"].start
        self._ph0 = f["phase"].start
        self._level = f["auction_level"].start
        self._leader0 = f["auction_leader"].start
        self._base = f["base"].start
        self._bombs = f["bombs"].start
        self._doubles = f["doubles"].start

    def encode(self, game: Game, player: int) -> npt.NDArray[np.float32]:
        """The observation of seat ``player`` (a new array), from the game's
        public state only."""
        out = np.zeros(self.size, dtype=np.float32)
        out[0:15] = game.hand(player)
        out[self._played] = game.played_cards.reshape(-1)
        out[self._sizes] = game.hand_sizes
        if game.kitty_revealed:
            kitty = game.kitty
            if kitty is not None:
                out[self._kitty] = kitty
        last = game.last_move
        if last is not None:
            out[self._last] = last.counts
            out[self._kind0 + int(last.kind)] = 1.0
            out[self._lastp0 + cast(int, game.last_player)] = 1.0
        out[self._me0 + player] = 1.0
        to_move = game.to_move
        if to_move is not None:
            out[self._to0 + to_move] = 1.0
        landlord = game.landlord
        if landlord is not None:
            out[self._ll0 + landlord] = 1.0
        out[self._ph0 + int(game.phase)] = 1.0
        out[self._level] = game.auction_level
        leader = game.auction_leader
        if leader is not None:
            out[self._leader0 + leader] = 1.0
        out[self._base] = game.base
        out[self._bombs] = game.bombs
        out[self._doubles] = game.doubles
        return out

    def split(self, observation: Sequence[float]) -> Dict[str, npt.NDArray[np.float32]]:
        """An observation vector cut into its named fields (views)."""
        arr = np.asarray(observation, dtype=np.float32)
        if arr.shape != (self.size,):
            raise ValueError(f"an observation has shape ({self.size},), not {arr.shape}")
        return {name: arr[s] for name, s in self.fields.items()}

    def __repr__(self) -> str:
        return f"ObservationLayout(rules={self.rules.name!r}, size={self.size})"


def _max_base(r: Rules) -> int:
    """Highest possible base: a bid of 3, or 2**robs with at most players-1 robs."""
    return 3 if r.auction == "bid" else 1 << (r.players - 1)
