"""The observation tensor: what one seat may see, as a fixed-length ``float32``
vector (:meth:`ddz_fast.Game.observation_tensor`; the rows of
:attr:`ddz_fast.VecGame.observations`, the environments' observations and the
datasets' ``observation`` column).

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
``wild``            13          the deal's wild ranks, once drawn (only under wild-card rules)
==================  ==========  ===============================================

Total length ``68 + 21*n``: 131 for three players, 152 for four; 13 more under
wild-card rules (``laizi``, ``tiandi``), where ``last_move`` holds the counts
the move is read as and ``played`` the cards played.  Everything in it is public or the observer's own
information.  ``low`` is 0 everywhere; ``high`` holds a bound for every entry.
The engine's encoder writes these fields and is their one description; this
class reads their names, slices and bounds from it.  Nothing here depends on
PettingZoo or Gymnasium.

>>> from ddz_fast import Game
>>> layout = ObservationLayout("standard")
>>> layout.size, layout.fields["played"]
(131, slice(15, 60, None))
>>> obs = layout.split(Game(seed=0).observation_tensor(1))
>>> obs["me"].tolist(), obs["phase"].tolist()
([0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0])
"""
from __future__ import annotations

from typing import Dict, Sequence

import numpy as np
import numpy.typing as npt

from ._engine.engine import observation_fields
from ._engine.game import Game
from .rules import RulesLike, resolve_rules

__all__ = ["ObservationLayout"]


class ObservationLayout:
    """Field slices and bounds of the observation vector of ``rules`` (see
    the module docstring)."""

    def __init__(self, rules: RulesLike = "standard") -> None:
        self.rules = resolve_rules(rules)
        spec = observation_fields(self.rules)
        self.fields: Dict[str, slice] = {name: slice(start, stop) for name, start, stop, _ in spec}
        self.size: int = spec[-1][2]
        self.low: npt.NDArray[np.float32] = np.zeros(self.size, dtype=np.float32)
        self.high: npt.NDArray[np.float32] = np.concatenate(
            [np.full(stop - start, high, dtype=np.float32) for _, start, stop, high in spec])

    def encode(self, game: Game, player: int) -> npt.NDArray[np.float32]:
        """The observation of seat ``player`` (a new array): ``game.observation_tensor(player)``."""
        if game.players != self.rules.players:
            raise ValueError(f"this layout is for {self.rules.players} players, the game has {game.players}")
        if bool(game.rules.wild_ranks) != bool(self.rules.wild_ranks):
            raise ValueError(f"this layout is for rules {'with' if self.rules.wild_ranks else 'without'} "
                             f"wild cards, the game's rules {game.rules.name!r} are not")
        return game.observation_tensor(player)

    def split(self, observation: Sequence[float]) -> Dict[str, npt.NDArray[np.float32]]:
        """An observation vector cut into its named fields (views)."""
        arr = np.asarray(observation, dtype=np.float32)
        if arr.shape != (self.size,):
            raise ValueError(f"an observation has shape ({self.size},), not {arr.shape}")
        return {name: arr[s] for name, s in self.fields.items()}

    def __repr__(self) -> str:
        return f"ObservationLayout(rules={self.rules.name!r}, size={self.size})"
