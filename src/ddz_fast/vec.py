"""The batched game: many tables of the engine stepped in one compiled call.

:class:`VecGame` holds ``n`` tables and steps them all with one array of
action ids (the game's one id layout, ``docs/actions.md``), without Python per
table: legal ids (CSR), masks, observations (the engine's one encoder),
rewards, the simple bot's choices and seeded auto-reset.  The guide is
``docs/envs.md``.

>>> from ddz_fast.vec import VecGame
>>> vg = VecGame(4, seed=1)
>>> vg.observations.shape
(4, 131)
"""
from __future__ import annotations

from ._engine.vec import FIRST_MOVE_ID, N_AUCTION_IDS, NO_ACTION, VecGame

__all__ = ["VecGame", "FIRST_MOVE_ID", "N_AUCTION_IDS", "NO_ACTION"]
