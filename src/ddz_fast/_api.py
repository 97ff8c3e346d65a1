"""The public entry points: the fast path (compiled), plus the helper behind
the validating ``Move(kind, cards)`` constructor."""
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
from .cards import CardsLike, format_cards, to_counts
from .kinds import Kind
from .moves import pick_reading
from .rules import RulesLike, resolve_rules

__all__ = ["legal_moves", "classify", "beats", "parse_move", "legal_moves_batch",
           "count_moves", "MoveList", "MoveBatch"]


def _validated_move_fields(
    kind: Kind | int | str, cards: CardsLike | None, rules: RulesLike
) -> tuple[int, tuple[int, ...], int, int, int]:
    """Fields of ``Move(kind, cards, rules=...)`` after checking that the cards
    are a move of that kind under the rules."""
    r = resolve_rules(rules)
    k = Kind.coerce(kind)
    if k == Kind.PASS:
        if cards is not None and any(to_counts(cards, rules=r)):
            raise ValueError("PASS has no cards")
        return 0, (0,) * 15, -1, 0, 0
    if cards is None:
        raise TypeError(f"Move({k.name}, ...) needs cards")
    counts = tuple(int(c) for c in to_counts(cards, rules=r))
    m = pick_reading(classify(counts, rules=r), k, format_cards(counts, rules=r), r)
    return int(k), counts, m.rank, m.length, m._valid_for
