"""The reference engine: the oracle every fast path is checked against.

Written for obviousness, not speed.  Move generation proposes candidate card
sets kind by kind, reads every candidate with :func:`classify` (which tries
every way to split the cards into primal groups and attachments and applies
every kicker rule), keeps the distinct ``(kind, cards)`` pairs, and sorts them
into the documented order (see :func:`move_order_key`).

Public functions mirror :mod:`ddz_fast` name for name.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ._core.move import PASS, Move
from .cards import ACE, HIGH_JOKER, LOW_JOKER, N_RANKS, RANKS, TWO, CardsLike, format_cards, to_counts
from .kinds import Kind
from ._core.parse import parse_move_with
from .rules import Rules, RulesLike, resolve_rules

__all__ = ["legal_moves", "classify", "beats", "parse_move", "move_order_key", "check_move",
           "wild_moves", "wild_move_count", "wild_readings", "wild_beats", "wild_bomb_class",
           "WILD_PASS", "BOMB_CLASSES"]

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
        _check_together(h, last.counts, r)
    leads = _lead_moves(h, r)
    if last is None or last.kind == Kind.PASS:
        return leads
    return [PASS] + [m for m in leads if beats(m, last, rules=r)]


def _check_together(hand: Counts, last: Sequence[int], rules: Rules) -> None:
    """A hand and the cards of the move on the table come from one deck:
    their union must fit in it."""
    together = [h + c for h, c in zip(hand, last)]
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


# ---------------------------------------------------------------------------
# Wild cards (docs/rules.md, "Wild cards (laizi and tiandi)")
# ---------------------------------------------------------------------------
#
# A wild move is a plain tuple (kind, represents, counts): the standard-game
# combination the cards are read as, and the physical cards leaving the hand.
# Everything about the represented combination (which kinds it is, its rank
# and length, the order of a move list) is decided by the standard functions
# above, applied to `represents`; this section only adds which combinations a
# hand can form with its wild cards, which cards play them, and the bomb
# classes.
#
# Terms: W is the tuple of wild ranks; the natural cards `n` are the hand
# with W's counts set to 0 (jokers kept); `w` is the number of wild cards in
# the hand.  A combination R needs `deficit(R) = sum(max(0, R[r] - n[r]))`
# wild cards (every represented card of a wild rank comes from the wild pool).

WildMove = Tuple[Kind, Counts, Counts]
_ZEROS: Counts = (0,) * N_RANKS
#: PASS as a wild move: no combination, no cards.
WILD_PASS: WildMove = (Kind.PASS, _ZEROS, _ZEROS)
#: The bomb classes, lowest first (a bomb of a later class beats any bomb of
#: an earlier one).
BOMB_CLASSES = ("soft", "hard", "wild", "rocket")


def _wild_rules(rules: RulesLike, wild: object) -> Tuple[Rules, Tuple[int, ...]]:
    """The Rules and the sorted tuple of wild ranks, checked."""
    r = resolve_rules(rules)
    if r.decks != 1:
        raise ValueError(
            f"wild cards are a variant of the one-deck game; rules {r.name!r} have {r.decks} decks"
        )
    if isinstance(wild, bool) or not isinstance(wild, (int, tuple, list)):
        raise TypeError(f"wild must be a tuple of wild rank indices, not {type(wild).__name__}")
    ranks = [wild] if isinstance(wild, int) else list(wild)
    for x in ranks:
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError(f"a wild rank must be an int rank index, not {type(x).__name__}")
        if not 0 <= x <= TWO:
            raise ValueError(
                f"wild rank {x} is not a rank 3..2 (indices 0..{TWO}); jokers are never wild"
            )
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"the wild ranks {tuple(ranks)} must be different")
    if len(ranks) > 2:
        raise ValueError(f"at most two wild ranks (tiandi), not {len(ranks)}")
    # Rules that name a wild mode fix the number of wild ranks; the standard
    # options (wild "none", or Rules without the field) accept 0..2.
    wanted = {"laizi": 1, "tiandi": 2}.get(getattr(r, "wild", "none"))
    if wanted is not None and len(ranks) != wanted:
        raise ValueError(
            f"rules {r.name!r} have {wanted} wild rank{'s' if wanted > 1 else ''}, not {len(ranks)}"
        )
    return r, tuple(sorted(int(x) for x in ranks))


def _wild_counts(cards: object, rules: Rules, what: str) -> Counts:
    """15 counts within the deck, as a tuple of ints."""
    try:
        return tuple(int(c) for c in to_counts(cards, rules=rules))  # type: ignore[arg-type]
    except (TypeError, ValueError) as e:
        raise type(e)(f"{what}: {e}") from None


@lru_cache(maxsize=1 << 17)
def _kinds_read(represents: Counts, rules: Rules) -> Dict[Kind, Move]:
    """The standard readings of a represented combination, by kind (cached:
    the oracle reads the same combinations over and over)."""
    return {m.kind: m for m in _classify_counts(represents, rules)}


def _is_reading(counts: Counts, represents: Counts, wild: Tuple[int, ...]) -> bool:
    """Do the physical cards `counts` read as `represents`?  Each natural
    card stands for itself; the wild cards make up the rest (never a joker)."""
    for r in range(N_RANKS):
        if r in wild:
            continue
        if r >= LOW_JOKER and counts[r] != represents[r]:
            return False
        if counts[r] > represents[r]:
            return False
    return sum(counts) == sum(represents)


def _check_wild_move(move: object, rules: Rules, wild: Tuple[int, ...], what: str) -> WildMove:
    """A (kind, represents, counts) tuple that is a legal wild move."""
    if not isinstance(move, tuple) or len(move) != 3:
        raise TypeError(f"{what} must be a (kind, represents, counts) tuple, not {move!r}")
    kind_in, rep_in, cnt_in = move
    if isinstance(kind_in, bool) or not isinstance(kind_in, int):
        raise TypeError(f"{what}: the kind must be a Kind, not {type(kind_in).__name__}")
    try:
        kind = Kind(kind_in)
    except ValueError:
        raise ValueError(f"{what}: {kind_in!r} is no Kind") from None
    rep = _wild_counts(rep_in, rules, f"{what} represents")
    cnt = _wild_counts(cnt_in, rules, f"{what} counts")
    if kind == Kind.PASS:
        if any(rep) or any(cnt):
            raise ValueError(f"{what} is not a PASS: a pass has no cards")
        return WILD_PASS
    if kind not in _kinds_read(rep, rules):
        raise ValueError(
            f"{what}: {format_cards(rep)!r} is not a {kind.name} under rules {rules.name!r}"
        )
    if not _is_reading(cnt, rep, wild):
        raise ValueError(
            f"{what}: the cards {format_cards(cnt)!r} cannot read as {format_cards(rep)!r} "
            f"with wild ranks {''.join(RANKS[x] for x in wild) or 'none'}"
        )
    return (kind, rep, cnt)


def _deficit(represents: Sequence[int], natural: Counts) -> int:
    """Wild cards needed to make `represents` from the natural cards."""
    return sum(max(0, c - m) for c, m in zip(represents, natural))


def _represented_candidates(natural: Counts, w: int, size: int) -> Iterator[Tuple[Kind, Counts]]:
    """Candidate (kind, represents) pairs a hand can form: the shapes of
    :func:`_candidates` (a group of one rank, chains, trios or a four with
    attachments) over the virtual hand (`natural` + `w` wild cards per rank
    3..2, at most 4), kept only when they need at most `w` wild cards and hold
    at most `size` cards.  Generous like `_candidates`: classification
    decides the rules."""
    cap = [min(4, natural[r] + w) for r in range(TWO + 1)] + [natural[LOW_JOKER], natural[HIGH_JOKER]]

    def fits(rep: Sequence[int]) -> bool:
        return (all(c <= m for c, m in zip(rep, cap)) and sum(rep) <= size
                and _deficit(rep, natural) <= w)

    def group(ranks: Iterable[int], each: int) -> List[int]:
        out = [0] * N_RANKS
        for x in ranks:
            out[x] += each
        return out

    def attach(base: List[int], others: Sequence[int], k: int, each: int) -> Iterator[Counts]:
        """base + k attachments of `each` cards from `others` (singles may
        repeat a rank, pairs have different ranks), within the budget."""
        def walk(i: int, left: int) -> Iterator[Counts]:
            if left == 0:
                yield tuple(base)
                return
            if i == len(others):
                return
            r = others[i]
            yield from walk(i + 1, left)
            most = left if each == 1 else 1
            for g in range(1, most + 1):
                base[r] += each
                if not fits(base):
                    base[r] -= g * each
                    break
                yield from walk(i + 1, left - g)
            else:
                base[r] -= most * each
        if fits(base):
            yield from walk(0, k)

    for r in range(N_RANKS):
        for each, kind in ((1, Kind.SOLO), (2, Kind.PAIR), (3, Kind.TRIO), (4, Kind.BOMB)):
            rep = group([r], each)
            if fits(rep):
                yield kind, tuple(rep)
    rocket = group([LOW_JOKER, HIGH_JOKER], 1)
    if fits(rocket):
        yield Kind.ROCKET, tuple(rocket)
    for r in range(N_RANKS):
        others = [k for k in range(N_RANKS) if k != r]
        for k_each, kind in ((1, Kind.TRIO_SOLO), (2, Kind.TRIO_PAIR)):
            for rep_t in attach(group([r], 3), others, 1, k_each):
                yield kind, rep_t
        for k_each, kind in ((1, Kind.FOUR_TWO_SOLO), (2, Kind.FOUR_TWO_PAIR)):
            for rep_t in attach(group([r], 4), others, 2, k_each):
                yield kind, rep_t
    for kind, each in ((Kind.CHAIN, 1), (Kind.PAIR_CHAIN, 2), (Kind.AIRPLANE, 3)):
        for s, e in _windows(_MIN_CHAIN[kind]):
            rep = group(range(s, e + 1), each)
            if fits(rep):
                yield kind, tuple(rep)
    for s, e in _windows(2):
        window = range(s, e + 1)
        others = [k for k in range(N_RANKS) if k not in window]
        for k_each, kind in ((1, Kind.AIRPLANE_SOLO), (2, Kind.AIRPLANE_PAIR)):
            for rep_t in attach(group(window, 3), others, len(window), k_each):
                yield kind, rep_t


def _natural_of(hand: Counts, wild: Tuple[int, ...]) -> Counts:
    return tuple(0 if r in wild else c for r, c in enumerate(hand))


def _physical_readings(represents: Counts, hand: Counts, wild: Tuple[int, ...]) -> Iterator[Counts]:
    """Every set of physical cards of `hand` that reads as `represents`:
    for each non-wild rank r, u natural cards (the rest of R[r] are wild
    cards; jokers are always natural), then the wild cards played, split over
    the wild ranks in every way the hand allows."""
    natural = _natural_of(hand, wild)
    w = sum(hand[x] for x in wild)
    used = [0] * N_RANKS

    def split(t: int) -> Iterator[Counts]:
        if not wild:
            if t == 0:
                yield tuple(used)
            return
        low = wild[0]
        high = wild[-1] if len(wild) == 2 else None
        for x in range(0, min(t, hand[low]) + 1):
            rest = t - x
            if high is None and rest:
                continue
            if high is not None and rest > hand[high]:
                continue
            out = list(used)
            out[low] = x
            if high is not None:
                out[high] = rest
            yield tuple(out)

    ranks = [r for r in range(N_RANKS) if represents[r]]

    def walk(i: int, spare: int) -> Iterator[Counts]:
        """The represented ranks ranks[i:] still to choose; `spare` wild
        cards not yet used."""
        if i == len(ranks):
            yield from split(w - spare)
            return
        r = ranks[i]
        want = represents[r]
        if r in wild:
            if want <= spare:
                yield from walk(i + 1, spare - want)
            return
        least = want if r >= LOW_JOKER else max(0, want - spare)
        for u in range(min(natural[r], want), least - 1, -1):
            used[r] = u
            yield from walk(i + 1, spare - (want - u))
        used[r] = 0

    yield from walk(0, w)


def _wild_order_key(move: WildMove, rules: Rules, wild: Tuple[int, ...]) -> Tuple[object, ...]:
    """Sort key of the documented order of a wild move list: the standard
    order of the represented move; then most natural cards first; then (two
    wild ranks) fewer cards of the lower wild rank first."""
    kind, rep, cnt = move
    if kind == Kind.PASS:
        return ((-1,),)
    naturals = tuple(-cnt[r] for r in range(N_RANKS) if r not in wild)
    low_wild = cnt[wild[0]] if len(wild) == 2 else 0
    return (_represented_order(kind, rep, rules), naturals, low_wild)


@lru_cache(maxsize=1 << 17)
def _represented_order(kind: Kind, represents: Counts, rules: Rules) -> Tuple[object, ...]:
    """move_order_key of the represented move (cached)."""
    return move_order_key(_kinds_read(represents, rules)[kind])


def _wild_leads(hand: Counts, rules: Rules, wild: Tuple[int, ...]) -> List[WildMove]:
    natural = _natural_of(hand, wild)
    w = sum(hand[x] for x in wild)
    combos = set()
    for kind, rep in _represented_candidates(natural, w, sum(hand)):
        if kind in _kinds_read(rep, rules):
            combos.add((kind, rep))
    # Sorting the combinations is enough: _physical_readings yields the
    # cards of one combination in the documented order already (rank by
    # rank, most natural cards first; then fewer of the lower wild rank).
    ordered = sorted(combos, key=lambda kr: _represented_order(kr[0], kr[1], rules))
    return [(kind, rep, cnt) for kind, rep in ordered for cnt in _physical_readings(rep, hand, wild)]


def wild_bomb_class(kind: Union[Kind, int], represents: CardsLike, counts: CardsLike,
                    wild: Sequence[int], *, rules: RulesLike = "standard") -> Optional[str]:
    """The bomb class of a wild move: None (no bomb), ``"soft"``, ``"hard"``,
    ``"wild"`` or ``"rocket"``.

    A bomb played with exactly the four cards it represents is ``"wild"``
    when its rank is a wild rank and ``"hard"`` otherwise; any other bomb
    (a wild card standing in for another rank) is ``"soft"``.
    """
    r, w = _wild_rules(rules, wild)
    k, rep, cnt = _check_wild_move((kind, represents, counts), r, w, "move")
    return _bomb_class(k, rep, cnt, w)


def _bomb_class(kind: Kind, rep: Counts, cnt: Counts, wild: Tuple[int, ...]) -> Optional[str]:
    if kind == Kind.ROCKET:
        return "rocket"
    if kind != Kind.BOMB:
        return None
    if cnt != rep:
        return "soft"
    rank = max(range(N_RANKS), key=lambda x: rep[x])
    return "wild" if rank in wild else "hard"


def _wild_beats(a: WildMove, b: WildMove, rules: Rules, wild: Tuple[int, ...]) -> bool:
    if a[0] == Kind.PASS:
        return False
    if b[0] == Kind.PASS:
        return True
    class_a, class_b = _bomb_class(*a, wild), _bomb_class(*b, wild)
    if class_a is not None or class_b is not None:
        if class_b is None:
            return True   # any bomb (a soft one too) beats every non-bomb
        if class_a is None:
            return False
        if class_a != class_b:
            return BOMB_CLASSES.index(class_a) > BOMB_CLASSES.index(class_b)
    # The same class of bomb, or two non-bombs: the standard comparison of
    # the represented combinations.
    ma, mb = _kinds_read(a[1], rules)[a[0]], _kinds_read(b[1], rules)[b[0]]
    if class_a is not None:
        return ma.rank > mb.rank
    return ma.kind == mb.kind and ma.length == mb.length and ma.rank > mb.rank


def wild_beats(a: WildMove, b: WildMove, wild: Sequence[int], *,
               rules: RulesLike = "standard") -> bool:
    """Does wild move `a` beat wild move `b`?

    Bombs by class (rocket > wild > hard > soft), then within a class by the
    represented rank; a bomb of any class beats every non-bomb; non-bombs as
    in the standard game, by their represented combinations.  PASS beats
    nothing and anything but PASS beats PASS.
    """
    r, w = _wild_rules(rules, wild)
    return _wild_beats(_check_wild_move(a, r, w, "a"), _check_wild_move(b, r, w, "b"), r, w)


def wild_moves(hand: CardsLike, last: Optional[WildMove] = None, *, rules: RulesLike = "standard",
               wild: Sequence[int]) -> List[WildMove]:
    """Every legal wild move of `hand`, as (kind, represents, counts) tuples.

    ``wild`` is the tuple of wild ranks (indices 0..12).  With ``last`` None
    or PASS: every lead.  Otherwise PASS first, then every move that beats
    ``last``.  Each distinct (kind, represents, counts) appears once, in the
    documented order (:func:`_wild_order_key`).  The standard options of
    ``rules`` apply to the represented combinations.
    """
    r, w = _wild_rules(rules, wild)
    h = _wild_counts(hand, r, "hand")
    leads = _wild_leads(h, r, w)
    if last is None:
        return leads
    before = _check_wild_move(last, r, w, "last")
    _check_together(h, before[2], r)
    if before[0] == Kind.PASS:
        return leads
    return [WILD_PASS] + [m for m in leads if _wild_beats(m, before, r, w)]


def wild_move_count(hand: CardsLike, last: Optional[WildMove] = None, *,
                    rules: RulesLike = "standard", wild: Sequence[int]) -> int:
    """``len(wild_moves(hand, last, rules=rules, wild=wild))``."""
    return len(wild_moves(hand, last, rules=rules, wild=wild))


def wild_readings(cards: CardsLike, *, rules: RulesLike = "standard",
                  wild: Sequence[int]) -> List[WildMove]:
    """Every reading of a set of physical cards: each (kind, represents)
    the wild cards among them can make, with these cards as the counts, in
    the documented order.  Empty when the cards are no move."""
    r, w = _wild_rules(rules, wild)
    cnt = _wild_counts(cards, r, "cards")
    n_wild = sum(cnt[x] for x in w)
    natural = _natural_of(cnt, w)
    found: List[WildMove] = []
    for stand_for in combinations_with_replacement(range(TWO + 1), n_wild):
        rep = list(natural)
        for x in stand_for:
            rep[x] += 1
        if max(rep[:TWO + 1]) > 4:
            continue
        found.extend((kind, tuple(rep), cnt) for kind in _kinds_read(tuple(rep), r))
    return sorted(found, key=lambda m: _wild_order_key(m, r, w))
