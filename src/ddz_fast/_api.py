"""The public entry points (dispatch to the fast path)."""
from __future__ import annotations

from .reference import beats, classify, legal_moves, parse_move, _pick_reading, _classify_counts
from .cards import to_counts, format_cards
from .kinds import Kind
from .rules import resolve_rules

__all__ = ["legal_moves", "classify", "beats", "parse_move"]


def _validated_move_fields(kind, cards, rules):
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
    m = _pick_reading(_classify_counts(counts, r), k, format_cards(counts, rules=r), r)
    return int(k), counts, m.rank, m.length, 0
