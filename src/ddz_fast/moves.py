"""Moves: the :class:`Move` value, legal-move generation, classification,
comparison and parsing, single and batched (the move core, compiled).

Every name here is also importable from the package itself
(``ddz_fast.legal_moves``); :mod:`ddz_fast.reference` has the pure-Python
oracle with the same names, signatures and results.  The guide is
``docs/moves.md``.

>>> from ddz_fast.moves import legal_moves, parse_move
>>> legal_moves("3345", parse_move("4"))
MoveList([PASS, 5])
"""
from __future__ import annotations

from ._core.entry import (
    MoveBatch,
    MoveList,
    beats,
    classify,
    count_moves,
    legal_moves,
    legal_moves_batch,
    parse_move,
)
from ._core.move import PASS, Move
from .kinds import Kind

__all__ = ["Move", "PASS", "Kind", "legal_moves", "classify", "beats", "parse_move", "legal_moves_batch",
           "count_moves", "MoveList", "MoveBatch"]

# Pickles name the entry points by their public home (the package), never the
# private module that compiles them.
for _f in (beats, classify, count_moves, legal_moves, legal_moves_batch, parse_move):
    _f.__module__ = "ddz_fast"
del _f
