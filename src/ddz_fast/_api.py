"""The public entry points of the fast path (compiled in :mod:`ddz_fast._fast`)."""
from __future__ import annotations

from ._fast import (  # noqa: F401  (re-exported)
    MoveBatch,
    MoveList,
    beats,
    classify,
    count_moves,
    legal_moves,
    legal_moves_batch,
    parse_move,
)

# Pickles name the entry points by their public home, never _fast.
for _f in (beats, classify, count_moves, legal_moves, legal_moves_batch, parse_move):
    _f.__module__ = "ddz_fast"
del _f

__all__ = ["legal_moves", "classify", "beats", "parse_move", "legal_moves_batch",
           "count_moves", "MoveList", "MoveBatch"]

