"""Move kinds.

The numeric values are part of the API: they are the ``kinds`` column of a
:class:`~ddz_fast.MoveList`, the first key of the move-list order, and the
codes the compiled kernels write.
"""
from __future__ import annotations

import operator
from enum import IntEnum

from ._util.checks import plain_str

__all__ = ["Kind"]


class Kind(IntEnum):
    """The kind of a move (docs/rules.md, "Move kinds")."""

    PASS = 0
    SOLO = 1
    PAIR = 2
    TRIO = 3
    TRIO_SOLO = 4
    TRIO_PAIR = 5
    CHAIN = 6
    PAIR_CHAIN = 7
    AIRPLANE = 8
    AIRPLANE_SOLO = 9
    AIRPLANE_PAIR = 10
    FOUR_TWO_SOLO = 11
    FOUR_TWO_PAIR = 12
    BOMB = 13
    ROCKET = 14

    @classmethod
    def coerce(cls, value: "Kind | int | str") -> "Kind":
        """Return the kind named by a ``Kind``, its integer value or its name
        (case-insensitive).  Raises ``ValueError`` for anything else."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            value = plain_str(value, "a move kind")
            try:
                return cls[value.strip().upper()]
            except KeyError:
                raise ValueError(
                    f"unknown move kind {value!r}; valid kinds: "
                    + ", ".join(k.name for k in cls)
                ) from None
        given: object = value      # (callers pass anything)
        what = f"the class {given.__name__}" if isinstance(given, type) else type(given).__name__
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise TypeError(f"a move kind must be a Kind, int or str, not {what}")
        try:
            value = operator.index(value)
        except TypeError:       # (an array of several items, or a class such as int: both have __index__)
            raise TypeError(f"a move kind must be a Kind, int or str, not {what}") from None
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"unknown move kind {value}; valid values are 0..{len(cls) - 1}") from None
