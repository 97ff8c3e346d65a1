"""Helpers for turning card text into one typed move, shared by both engines
so that they raise the same errors."""
from __future__ import annotations

from typing import Callable, List, Optional

from ._move import Move
from .kinds import Kind
from .rules import Rules

__all__ = ["pick_reading", "parse_move_with"]


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


def parse_move_with(
    text: object,
    kind: object,
    rules: Rules,
    readings: Callable[[str], List[Move]],
) -> Move:
    """``parse_move`` for either engine: ``readings(text)`` is that engine's
    classify.  ``"pass"`` (any case) is PASS."""
    from ._move import PASS

    if not isinstance(text, str):
        raise TypeError(f"move text must be a str, not {type(text).__name__}")
    want = None if kind is None else Kind.coerce(kind)  # type: ignore[arg-type]
    if text.strip().lower() == "pass":
        if want not in (None, Kind.PASS):
            raise ValueError(f"'pass' is not a {want.name}")
        return PASS
    if want is Kind.PASS:
        raise ValueError(f"{text!r} is not PASS")
    return pick_reading(readings(text), want, text, rules)
