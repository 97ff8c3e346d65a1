"""The reference engine: the oracle every fast path is checked against.

Written for obviousness, not speed.  Move generation proposes candidate card
sets kind by kind, reads every candidate with :func:`classify` (which tries
every way to split the cards into primal groups and attachments and applies
every kicker rule), keeps the distinct ``(kind, cards)`` pairs, and sorts them
into the documented order (see :func:`move_order_key`).

Public functions mirror :mod:`ddz_fast` name for name.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._move import PASS, Move
from .cards import ACE, HIGH_JOKER, LOW_JOKER, N_RANKS, CardsLike, to_counts
from .kinds import Kind
from .moves import parse_move_with
from .rules import Rules, RulesLike, resolve_rules

__all__ = ["legal_moves", "classify", "beats", "parse_move", "move_order_key", "check_move"]

Counts = Tuple[int, ...]

# Chains and airplanes use ranks 3..A only (indices 0..11).
_CHAIN_RANKS = range(0, ACE + 1)
_MIN_CHAIN = {Kind.CHAIN: 5, Kind.PAIR_CHAIN: 3, Kind.AIRPLANE: 2}


# ---------------------------------------------------------------------------
# Reading cards as moves
# ---------------------------------------------------------------------------

def _windows(min_len: int) -> Iterator[Tuple[int, int]]:
    """Every run of consecutive ranks within 3..A of at least min_len ranks,
    as (start, end) inclusive."""
    for start in _CHAIN_RANKS:
        for end in range(start + min_len - 1, ACE + 1):
            yield start, end


def _kickers_ok(rest: Counts, rules: Rules) -> bool:
    """Rules shared by every kind with attachments: not a low and a high joker
    together (unless allowed)."""
    if not rules.both_jokers_as_kickers and rest[LOW_JOKER] > 0 and rest[HIGH_JOKER] > 0:
        return False
    return True


def _airplane_singles_ok(rest: Counts, s: int, e: int, rules: Rules) -> bool:
    """The airplane-only kicker rules for singles `rest` on trios s..e."""
    if rules.airplane_solo_distinct and any(c > 1 for c in rest):
        return False
    if not rules.airplane_bomb_kickers and any(c >= 4 for c in rest):
        return False
    if not rules.airplane_adjacent_trio_kickers:
        neighbours = [r for r in (s - 1, e + 1) if 0 <= r <= ACE]
        if any(rest[r] >= 3 for r in neighbours):
            return False
    return True


def _minus(counts: Counts, ranks: Sequence[int], each: int) -> Optional[Counts]:
    """counts with `each` cards removed at every rank in `ranks`, or None."""
    out = list(counts)
    for r in ranks:
        out[r] -= each
        if out[r] < 0:
            return None
    return tuple(out)


def _is_pairs(rest: Counts, n: int) -> bool:
    """rest is exactly n pairs of pairwise distinct ranks."""
    return all(c in (0, 2) for c in rest) and sum(1 for c in rest if c == 2) == n


def _readings(counts: Counts, rules: Rules) -> List[Tuple[Kind, int, int]]:
    """Every (kind, rank, length) reading of the cards, all splits included."""
    total = sum(counts)
    out: List[Tuple[Kind, int, int]] = []
    if total == 0:
        return out
    used = [r for r in range(N_RANKS) if counts[r]]

    # Single-rank kinds.
    if len(used) == 1:
        r = used[0]
        c = counts[r]
        if c == 1:
            out.append((Kind.SOLO, r, 1))
        elif c == 2:
            out.append((Kind.PAIR, r, 1))
        elif c == 3:
            out.append((Kind.TRIO, r, 1))
        elif c >= 4:
            out.append((Kind.BOMB, r, 1))

    # Rocket: every joker of the deck and nothing else.
    j = rules.max_jokers
    if counts[LOW_JOKER] == j and counts[HIGH_JOKER] == j and total == 2 * j:
        out.append((Kind.ROCKET, HIGH_JOKER, 1))

    # Chains of singles, pairs and trios (no attachments).
    for kind, each in ((Kind.CHAIN, 1), (Kind.PAIR_CHAIN, 2), (Kind.AIRPLANE, 3)):
        for s, e in _windows(_MIN_CHAIN[kind]):
            window = range(s, e + 1)
            if all(counts[r] == each for r in window) and total == each * len(window):
                out.append((kind, e, len(window)))

    # A trio with one attachment.
    for r in range(N_RANKS):
        rest = _minus(counts, [r], 3)
        if rest is None or rest[r] != 0:
            continue
        if rules.solo_kickers and sum(rest) == 1:
            out.append((Kind.TRIO_SOLO, r, 1))
        if _is_pairs(rest, 1):
            out.append((Kind.TRIO_PAIR, r, 1))

    # Airplanes with attachments.
    for s, e in _windows(2):
        window = range(s, e + 1)
        n = len(window)
        rest = _minus(counts, window, 3)
        if rest is None or any(rest[r] for r in window) or not _kickers_ok(rest, rules):
            continue
        if rules.solo_kickers and sum(rest) == n and _airplane_singles_ok(rest, s, e, rules):
            out.append((Kind.AIRPLANE_SOLO, e, n))
        if _is_pairs(rest, n):
            out.append((Kind.AIRPLANE_PAIR, e, n))

    # Four with two attachments.
    if rules.four_with_kickers:
        for r in range(N_RANKS):
            rest = _minus(counts, [r], 4)
            if rest is None or rest[r] != 0 or not _kickers_ok(rest, rules):
                continue
            if sum(rest) == 2 and (not rules.four_two_solo_distinct or all(c <= 1 for c in rest)):
                out.append((Kind.FOUR_TWO_SOLO, r, 1))
            if _is_pairs(rest, 2):
                out.append((Kind.FOUR_TWO_PAIR, r, 1))
    return out


def _classify_counts(counts: Counts, rules: Rules) -> List[Move]:
    best: Dict[Kind, Tuple[int, int]] = {}
    for kind, rank, length in _readings(counts, rules):
        if kind not in best or rank > best[kind][0]:
            best[kind] = (rank, length)
    return [Move._make(kind, counts, rank, length) for kind, (rank, length) in sorted(best.items())]


def classify(cards: CardsLike, *, rules: RulesLike = "standard") -> List[Move]:
    """Every reading of the cards as a move: one Move per kind, in kind order,
    each with the rank of its highest reading.  Empty for cards that are no
    move (and for no cards)."""
    r = resolve_rules(rules)
    counts = tuple(int(c) for c in to_counts(cards, rules=r))
    return _classify_counts(counts, r)


# ---------------------------------------------------------------------------
# The documented order of a move list
# ---------------------------------------------------------------------------

def _primal(move: Move) -> Counts:
    """The primal cards of a move's highest reading."""
    k, r, n = move.kind, move.rank, move.length
    primal = [0] * N_RANKS
    if k in (Kind.SOLO, Kind.PAIR, Kind.TRIO, Kind.BOMB, Kind.ROCKET, Kind.CHAIN,
             Kind.PAIR_CHAIN, Kind.AIRPLANE):
        return move.counts
    if k in (Kind.TRIO_SOLO, Kind.TRIO_PAIR, Kind.AIRPLANE_SOLO, Kind.AIRPLANE_PAIR):
        for x in range(r - n + 1, r + 1):
            primal[x] = 3
    elif k in (Kind.FOUR_TWO_SOLO, Kind.FOUR_TWO_PAIR):
        primal[r] = 4
    return tuple(primal)


def move_order_key(move: Move) -> Tuple[int, int, int, int, Tuple[int, ...]]:
    """Sort key of the documented move-list order.

    PASS first; then by kind (``Kind`` value order); then length; then number
    of cards (this separates bomb sizes in the two-deck game); then rank; then
    the attachments, as the ascending list of their rank indices, compared
    lexicographically.
    """
    primal = _primal(move)
    kickers = []
    for r in range(N_RANKS):
        kickers.extend([r] * (move.counts[r] - primal[r]))
    return (int(move.kind), move.length, move.n_cards, move.rank, tuple(kickers))


# ---------------------------------------------------------------------------
# Candidate generation
# ---------------------------------------------------------------------------

def _candidates(hand: Counts, rules: Rules) -> Iterator[Tuple[Kind, Counts]]:
    """Yield (kind, counts) candidates; some break kicker rules and are
    dropped by classification."""
    def cards(*groups: Tuple[Sequence[int], int]) -> Counts:
        out = [0] * N_RANKS
        for ranks, each in groups:
            for x in ranks:
                out[x] += each
        return tuple(out)

    ks: Tuple[int, ...]
    for r in range(N_RANKS):
        for each, kind in ((1, Kind.SOLO), (2, Kind.PAIR), (3, Kind.TRIO)):
            if hand[r] >= each:
                yield kind, cards(([r], each))
        for size in range(4, hand[r] + 1):
            yield Kind.BOMB, cards(([r], size))
    j = rules.max_jokers
    if hand[LOW_JOKER] >= j and hand[HIGH_JOKER] >= j:
        yield Kind.ROCKET, cards(([LOW_JOKER, HIGH_JOKER], j))

    # Trio / four with attachments.
    for r in range(N_RANKS):
        others = [k for k in range(N_RANKS) if k != r]
        if hand[r] >= 3:
            for k in others:
                if hand[k] >= 1:
                    yield Kind.TRIO_SOLO, cards(([r], 3), ([k], 1))
                if hand[k] >= 2:
                    yield Kind.TRIO_PAIR, cards(([r], 3), ([k], 2))
        if hand[r] >= 4:
            for ks in combinations_with_replacement(others, 2):
                yield Kind.FOUR_TWO_SOLO, cards(([r], 4), (ks, 1))
            for ks in combinations([k for k in others if hand[k] >= 2], 2):
                yield Kind.FOUR_TWO_PAIR, cards(([r], 4), (ks, 2))

    # Chains and airplanes.
    for kind, each in ((Kind.CHAIN, 1), (Kind.PAIR_CHAIN, 2), (Kind.AIRPLANE, 3)):
        for s, e in _windows(_MIN_CHAIN[kind]):
            if all(hand[x] >= each for x in range(s, e + 1)):
                yield kind, cards((range(s, e + 1), each))
    for s, e in _windows(2):
        window = range(s, e + 1)
        if not all(hand[x] >= 3 for x in window):
            continue
        n = len(window)
        others = [k for k in range(N_RANKS) if k not in window]
        for ks in combinations_with_replacement(others, n):
            yield Kind.AIRPLANE_SOLO, cards((window, 3), (ks, 1))
        for ks in combinations([k for k in others if hand[k] >= 2], n):
            yield Kind.AIRPLANE_PAIR, cards((window, 3), (ks, 2))


def _lead_moves(hand: Counts, rules: Rules) -> List[Move]:
    found = {}
    for kind, counts in _candidates(hand, rules):
        if any(c > h for c, h in zip(counts, hand)) or (kind, counts) in found:
            continue
        for move in _classify_counts(counts, rules):
            if move.kind == kind:
                found[(kind, counts)] = move
    return sorted(found.values(), key=move_order_key)


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

def check_move(move: object, rules: Rules, what: str = "move") -> Move:
    """Raise unless `move` is a Move that is legal under `rules` (PASS is)."""
    if not isinstance(move, Move):
        raise TypeError(f"{what} must be a Move, not {type(move).__name__}")
    if move.kind == Kind.PASS:
        if any(move.counts) or (move.rank, move.length) != (-1, 0):
            raise ValueError(f"{what} {move!r} is not a PASS: a pass has no cards")
        return move
    to_counts(move.counts, rules=rules)  # within the deck
    for m in _classify_counts(move.counts, rules):
        if m.kind == move.kind:
            if (m.rank, m.length) != (move.rank, move.length):
                raise ValueError(f"{what} {move!r} has the wrong rank or length; expected {m!r}")
            return move
    raise ValueError(
        f"{what} {move.cards!r} is not a {move.kind.name} under rules {rules.name!r}"
    )


def beats(a: Move, b: Move, *, rules: RulesLike = "standard") -> bool:
    """Does move `a` beat move `b`?

    A BOMB beats every ordinary move and every weaker bomb (more cards first,
    then higher rank); the ROCKET beats everything; otherwise only the same
    kind and length with a higher rank.  PASS beats nothing; anything but PASS
    beats PASS (an empty table).
    """
    r = resolve_rules(rules)
    check_move(a, r, "a")
    check_move(b, r, "b")
    if a.kind == Kind.PASS:
        return False
    if b.kind == Kind.PASS:
        return True
    if b.kind == Kind.ROCKET:
        return False
    if a.kind == Kind.ROCKET:
        return True
    if a.kind == Kind.BOMB:
        if b.kind != Kind.BOMB:
            return True
        return (a.n_cards, a.rank) > (b.n_cards, b.rank)
    return a.kind == b.kind and a.length == b.length and a.rank > b.rank


def legal_moves(hand: CardsLike, last: Optional[Move] = None, *, rules: RulesLike = "standard") -> List[Move]:
    """Every legal move of `hand`.

    With ``last`` None or PASS: every lead (never PASS).  Otherwise PASS
    followed by every move that beats ``last``.  Each distinct (kind, cards)
    pair appears once, in the order of :func:`move_order_key`.
    """
    r = resolve_rules(rules)
    h = tuple(int(c) for c in to_counts(hand, rules=r))
    if last is not None:
        check_move(last, r, "last")
        _check_together(h, last, r)
    leads = _lead_moves(h, r)
    if last is None or last.kind == Kind.PASS:
        return leads
    return [PASS] + [m for m in leads if beats(m, last, rules=r)]


def _check_together(hand: Counts, last: Move, rules: Rules) -> None:
    """A hand and the move on the table come from one deck: their union must
    fit in it."""
    together = [h + c for h, c in zip(hand, last.counts)]
    try:
        to_counts(together, rules=rules)
    except ValueError as e:
        raise ValueError(f"hand and last move cannot both be in play: {e}") from None


def parse_move(text: str, kind: Optional[Union[Kind, int, str]] = None, *,
               rules: RulesLike = "standard") -> Move:
    """Turn card text into one typed Move.

    ``"pass"`` (any case) is PASS.  Raises :class:`~ddz_fast.InvalidMoveError`
    when the text is no cards of the rules or no legal move, or when ``kind``
    is given and the cards are not that kind, and
    :class:`~ddz_fast.AmbiguousMoveError` when the cards read as several
    kinds and ``kind`` is not given (for example ``555666777888``: AIRPLANE or
    AIRPLANE_SOLO); both are ValueErrors.
    """
    r = resolve_rules(rules)
    return parse_move_with(text, kind, r, lambda t: classify(t, rules=r))
