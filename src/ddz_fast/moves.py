"""Helpers for turning card text into one typed move, shared by both engines
so that they raise the same errors."""
from __future__ import annotations

from typing import List, Optional

from ._move import Move
from .kinds import Kind
from .rules import Rules

__all__ = ["pick_reading"]


def pick_reading(readings: List[Move], want: Optional[Kind], text: str, rules: Rules) -> Move:
    """The one reading of `text` of kind `want`, or its only reading.

    Raises ``ValueError`` when the cards are no move, are not of kind `want`,
    or read as several kinds and `want` is None.
    """
    if not readings:
        raise ValueError(f"{text!r} is no legal move under rules {rules.name!r}")
    if want is not None:
        for m in readings:
            if m.kind == want:
                return m
        raise ValueError(
            f"{text!r} is not a {want.name} under rules {rules.name!r}; it reads as "
            + " or ".join(m.kind.name for m in readings)
        )
    if len(readings) > 1:
        raise ValueError(
            f"{text!r} is ambiguous: it reads as "
            + " or ".join(m.kind.name for m in readings)
            + "; pass kind= to choose"
        )
    return readings[0]
