"""Helpers for turning card text into one typed move, shared by both engines
so that they raise the same errors (``pick_reading`` lives with ``Move``,
whose validating constructor uses it too)."""
from __future__ import annotations

from typing import Callable, List

from ..errors import InvalidMoveError
from .._util.checks import plain_str
from ..kinds import Kind
from ..rules import Rules
from .move import PASS, Move, pick_reading

__all__ = ["pick_reading", "parse_move_with"]


def parse_move_with(
    text: object,
    kind: object,
    rules: Rules,
    readings: Callable[[str], List[Move]],
) -> Move:
    """``parse_move`` for either engine: ``readings(text)`` is that engine's
    classify.  ``"pass"`` (any case) is PASS.

    TypeError when ``text`` is no str; :class:`~ddz_fast.InvalidMoveError`
    when it is no card text of the rules (with the card parser's message) or
    no move of ``kind``; :class:`~ddz_fast.AmbiguousMoveError` when it reads
    as several kinds and ``kind`` is None.
    """
    text = plain_str(text, "move text")
    want = None if kind is None else Kind.coerce(kind)  # type: ignore[arg-type]
    if text.strip().lower() == "pass":
        if want not in (None, Kind.PASS):
            raise InvalidMoveError(f"'pass' is not a {want.name}")
        return PASS
    if want is Kind.PASS:
        raise InvalidMoveError(f"{text!r} is not PASS")
    try:
        found = readings(text)
    except InvalidMoveError:
        raise
    except ValueError as e:          # (the card parser: unknown cards, too many of a rank...)
        raise InvalidMoveError(str(e)) from None
    return pick_reading(found, want, text, rules)
