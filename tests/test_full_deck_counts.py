"""How many lead moves of each kind a whole deck holds, counted independently.

The expected numbers are derived here by combinatorial counting (closed forms
and small loops over count vectors), not by running a generator:

* single-rank kinds, chains and rockets: count ranks and windows;
* trio / four with attachments: count kicker ranks, with binomials;
* AIRPLANE_PAIR: for each window, choose the pair ranks (binomial), minus the
  choices holding both joker pairs;
* AIRPLANE_SOLO: the same cards can be read with different windows
  (333444555666 is trios 3-4-5 + 666 or 4-5-6 + 333) and count once, so we
  count distinct count vectors, twice over: (a) a generating function per
  window that only keeps the *highest* reading of each vector (the reading
  one rank higher exists exactly when the kickers hold three cards of the rank
  just above the window), and (b) an explicit set of count vectors.

The counting functions take any deck (count vector), so they are also checked
on seeded random sub-decks, where the reference engine is quick.

The whole-deck tables are checked against the compiled engine in the default
run (milliseconds; test_differential.py's full-deck test checks that the
compiled engine's whole-deck list equals the reference's) and against the
reference engine itself, which needs 15-30 s a deck, in the nightly run
(``-m nightly``).
"""
import functools
import random
from collections import Counter
from math import comb

import pytest

import ddz_fast
from ddz_fast import PRESETS, Kind
from ddz_fast import reference as ref

K = Kind
B, R = 13, 14
ACE = 11
CHAIN_MIN = {K.CHAIN: (1, 5), K.PAIR_CHAIN: (2, 3), K.AIRPLANE: (3, 2)}


def full_deck(rules):
    return (rules.max_count,) * 13 + (rules.max_jokers,) * 2


def windows(deck, each, min_len):
    """(start, end) of every run of ranks within 3..A, at least min_len long,
    where the deck holds `each` cards of every rank."""
    for s in range(ACE + 1):
        for e in range(s + min_len - 1, ACE + 1):
            if all(deck[r] >= each for r in range(s, e + 1)):
                yield s, e


def poly_mul(p, q):
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def joker_kicker_poly(deck, rules, distinct):
    """Generating polynomial of the joker singles that may be attached."""
    poly = [0] * (2 * rules.max_jokers + 1)
    for kb in range(deck[B] + 1):
        for kr in range(deck[R] + 1):
            if distinct and (kb > 1 or kr > 1):
                continue
            if kb and kr and not rules.both_jokers_as_kickers:
                continue
            poly[kb + kr] += 1
    return poly


def airplane_solo_by_generating_function(deck, rules, max_len=12):
    """Distinct AIRPLANE_SOLO count vectors of at most max_len trios, each
    counted at its highest reading."""
    distinct = rules.airplane_solo_distinct
    total = 0
    for s, e in windows(deck, 3, 2):
        n = e - s + 1
        if n > max_len:
            continue
        poly = joker_kicker_poly(deck, rules, distinct)
        for r in range(13):
            if s <= r <= e:
                continue
            top = min(deck[r], 1 if distinct else deck[r])
            factor = [1] * (top + 1)
            if r == e + 1 and r <= ACE and top >= 3:
                factor[3] = 0  # 3 kickers just above the window: a higher reading exists
            poly = poly_mul(poly, factor)
        total += poly[n] if n < len(poly) else 0
    return total


def airplane_solo_vectors(deck, rules):
    """{count vector: (rank, length)} of every AIRPLANE_SOLO, built by explicit
    loops over kicker count vectors; a vector met again from another window
    keeps the higher rank."""
    distinct = rules.airplane_solo_distinct
    found = {}
    for s, e in windows(deck, 3, 2):
        n = e - s + 1
        others = [r for r in range(15) if not s <= r <= e]

        def fill(i, left, kick):
            if left == 0:
                if kick[B] and kick[R] and not rules.both_jokers_as_kickers:
                    return
                vec = list(kick)
                for r in range(s, e + 1):
                    vec[r] = 3
                key = tuple(vec)
                if key not in found or found[key][0] < e:
                    found[key] = (e, n)
                return
            if i == len(others):
                return
            r = others[i]
            top = min(deck[r], left, 1 if distinct else deck[r])
            for c in range(top + 1):
                kick[r] = c
                fill(i + 1, left - c, kick)
            kick[r] = 0

        fill(0, n, [0] * 15)
    return found


def count_by_kind(deck, rules, max_cards=None):
    """Lead moves of each kind for a hand holding `deck`, by counting; with
    `max_cards`, only the moves of at most that many cards."""
    limit = sum(deck) if max_cards is None else max_cards
    ranks = range(15)
    ordinary = range(13)
    j = rules.max_jokers
    out = Counter()
    out[K.SOLO] = sum(1 for r in ranks if deck[r] >= 1)
    # two equal jokers are a pair only with two decks (one deck holds one of each)
    out[K.PAIR] = sum(1 for r in ranks if deck[r] >= 2)
    out[K.TRIO] = sum(1 for r in ranks if deck[r] >= 3)
    out[K.BOMB] = sum(max(0, min(deck[r], limit) - 3) for r in ordinary)  # sizes 4..deck[r]
    out[K.ROCKET] = int(deck[B] >= j and deck[R] >= j and 2 * j <= limit)
    for kind, (each, min_len) in CHAIN_MIN.items():
        out[kind] = sum(1 for s, e in windows(deck, each, min_len) if each * (e - s + 1) <= limit)

    both_joker_pairs = deck[B] >= 2 and deck[R] >= 2 and not rules.both_jokers_as_kickers
    both_joker_singles = deck[B] >= 1 and deck[R] >= 1 and not rules.both_jokers_as_kickers
    for t in ranks:
        if deck[t] < 3:
            continue
        singles = sum(1 for r in ranks if r != t and deck[r] >= 1)
        pairs = sum(1 for r in ranks if r != t and deck[r] >= 2)
        if rules.solo_kickers:
            out[K.TRIO_SOLO] += singles
        out[K.TRIO_PAIR] += pairs
        if deck[t] >= 4 and rules.four_with_kickers:
            two_singles = comb(singles, 2) - both_joker_singles
            if not rules.four_two_solo_distinct:
                two_singles += pairs  # two singles of one rank
            out[K.FOUR_TWO_SOLO] += two_singles
            out[K.FOUR_TWO_PAIR] += comb(pairs, 2) - both_joker_pairs

    for s, e in windows(deck, 3, 2):
        n = e - s + 1
        if 5 * n > limit:
            continue
        q = sum(1 for r in ranks if not s <= r <= e and deck[r] >= 2)
        out[K.AIRPLANE_PAIR] += comb(q, n) - (comb(q - 2, n - 2) if both_joker_pairs else 0)
    if rules.solo_kickers:
        out[K.AIRPLANE_SOLO] = airplane_solo_by_generating_function(deck, rules, limit // 4)
    return {k: v for k, v in out.items() if v}


# Closed forms for the whole deck, written out by hand (L = airplane length,
# 13 - L windows of L trios within 3..A, 13 - L other ordinary ranks).
STANDARD_TABLE = {
    K.SOLO: 15,
    K.PAIR: 13,
    K.TRIO: 13,
    K.BOMB: 13,
    K.ROCKET: 1,
    K.TRIO_SOLO: 13 * 14,  # 182
    K.TRIO_PAIR: 13 * 12,  # 156
    K.CHAIN: sum(13 - n for n in range(5, 13)),  # 36
    K.PAIR_CHAIN: sum(13 - n for n in range(3, 13)),  # 55
    K.AIRPLANE: sum(13 - n for n in range(2, 13)),  # 66
    K.FOUR_TWO_SOLO: 13 * (comb(14, 2) - 1),  # 1170
    K.FOUR_TWO_PAIR: 13 * comb(12, 2),  # 858
    K.AIRPLANE_PAIR: sum((13 - n) * comb(13 - n, n) for n in range(2, 7)),  # 3436
    K.AIRPLANE_SOLO: 47736,  # see test_standard_airplane_solo_closed_form
}
STRICT_TABLE = {
    **STANDARD_TABLE,
    # distinct singles: n of the 13 - n other ordinary ranks, or n - 1 of them and one joker
    K.AIRPLANE_SOLO: sum((13 - n) * (comb(13 - n, n) + 2 * comb(13 - n, n - 1))
                         for n in range(2, 13)),
}
FOUR_TABLE = {
    K.SOLO: 15,
    K.PAIR: 15,  # 13 ranks + BB + RR
    K.TRIO: 13,
    K.BOMB: 13 * 5,  # 4..8 cards
    K.ROCKET: 1,
    K.TRIO_PAIR: 13 * 14,  # 12 other ranks + two joker pairs
    K.CHAIN: 36,
    K.PAIR_CHAIN: 55,
    K.AIRPLANE: 66,
    # pairs from 13 - n ranks + 2 joker pairs, minus the choices with both joker pairs
    K.AIRPLANE_PAIR: sum((13 - n) * (comb(15 - n, n) - comb(13 - n, n - 2)) for n in range(2, 8)),
}


def test_tables_by_hand():
    # The numbers from the first run of the generator, checked against the
    # closed forms above.
    assert {k.name: v for k, v in STANDARD_TABLE.items()} == {
        "SOLO": 15, "PAIR": 13, "TRIO": 13, "BOMB": 13, "ROCKET": 1, "TRIO_SOLO": 182,
        "TRIO_PAIR": 156, "CHAIN": 36, "PAIR_CHAIN": 55, "AIRPLANE": 66, "FOUR_TWO_SOLO": 1170,
        "FOUR_TWO_PAIR": 858, "AIRPLANE_PAIR": 3436, "AIRPLANE_SOLO": 47736}
    # n = 2..7: 11*(55+22) + 10*(120+90) + 9*(126+168) + 8*(56+140) + 7*(7+42) + 6*(0+2)
    assert STRICT_TABLE[K.AIRPLANE_SOLO] == 847 + 2100 + 2646 + 1568 + 343 + 12 == 7516
    # n = 2..7: 11*(78-1) + 10*(220-10) + 9*(330-36) + 8*(252-56) + 7*(84-35) + 6*(8-6)
    assert FOUR_TABLE[K.AIRPLANE_PAIR] == 7516


@pytest.mark.parametrize("preset, table", [("standard", STANDARD_TABLE), ("strict", STRICT_TABLE),
                                           ("four", FOUR_TABLE)])
def test_counting_functions_match_the_closed_forms(preset, table):
    rules = PRESETS[preset]
    assert count_by_kind(full_deck(rules), rules) == table


def test_standard_airplane_solo_closed_form():
    """47736 by a third route: per window of n trios, kicker vectors of n
    cards over the 13 - n other ordinary ranks (0..4 each, but not exactly 3
    on the rank just above the window when it is in 3..A) and at most one joker;
    inclusion-exclusion on the cap of 4 (a 5th card of a rank)."""
    def vectors(k, m, cap):
        # count vectors of m slots, each 0..cap, summing to k
        return sum((-1) ** i * comb(m, i) * comb(k - i * (cap + 1) + m - 1, m - 1)
                   for i in range(0, k // (cap + 1) + 1) if k - i * (cap + 1) >= 0)

    total = 0
    for n in range(2, 13):
        for e in range(n - 1, ACE + 1):
            m = 13 - n
            for jokers in (0, 1):
                k = n - jokers
                ways = 2 if jokers else 1
                if k < 0:
                    continue
                all_ = vectors(k, m, 4) if m else int(k == 0)
                if e + 1 <= ACE and k >= 3:
                    # vectors with exactly 3 on the rank above: the rest sums to k - 3
                    all_ -= vectors(k - 3, m - 1, 4) if m - 1 else int(k == 3)
                total += ways * all_
    assert total == 47736


@pytest.mark.parametrize("preset", ["standard", "strict"])
def test_airplane_solo_two_ways_agree(preset):
    rules = PRESETS[preset]
    deck = full_deck(rules)
    assert len(airplane_solo_vectors(deck, rules)) == airplane_solo_by_generating_function(deck, rules)


@functools.lru_cache(maxsize=None)
def engine_full_deck(engine, preset):
    rules = PRESETS[preset]
    legal_moves = ref.legal_moves if engine == "reference" else ddz_fast.legal_moves
    return tuple(legal_moves(list(full_deck(rules)), rules=rules))


ENGINES = [pytest.param("compiled"), pytest.param("reference", marks=pytest.mark.nightly)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("preset, table", [("standard", STANDARD_TABLE), ("strict", STRICT_TABLE),
                                           ("four", FOUR_TABLE)])
def test_full_deck_counts(engine, preset, table):
    moves = engine_full_deck(engine, preset)
    got = Counter(m.kind for m in moves)
    assert dict(got) == table
    assert len(moves) == sum(table.values())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("preset", ["standard", "strict"])
def test_full_deck_airplane_solo_cards_and_ranks(engine, preset):
    """Not only how many: exactly which count vectors, with the rank of the
    highest reading and the length."""
    rules = PRESETS[preset]
    want = airplane_solo_vectors(full_deck(rules), rules)
    got = {m.counts: (m.rank, m.length) for m in engine_full_deck(engine, preset)
           if m.kind == K.AIRPLANE_SOLO}
    assert got == want


def random_sub_deck(rng, rules, size):
    cards = [r for r, n in enumerate(full_deck(rules)) for _ in range(n)]
    out = [0] * 15
    for c in rng.sample(cards, size):
        out[c] += 1
    return tuple(out)


@pytest.mark.parametrize("preset", ["standard", "strict", "four"])
def test_sub_deck_counts(preset):
    """The counting functions on seeded random hands of the sizes a landlord
    holds (20 / 33 cards) and a few larger ones."""
    rules = PRESETS[preset]
    rng = random.Random(99 + len(preset))
    sizes = [20] * 12 + [26] * 3 if rules.decks == 1 else [33] * 8 + [45] * 2
    for size in sizes:
        deck = random_sub_deck(rng, rules, size)
        moves = ref.legal_moves(list(deck), rules=rules)
        got = {k: v for k, v in Counter(m.kind for m in moves).items()}
        assert got == count_by_kind(deck, rules), deck
        if rules.solo_kickers:
            want = airplane_solo_vectors(deck, rules)
            assert {m.counts: (m.rank, m.length) for m in moves
                    if m.kind == K.AIRPLANE_SOLO} == want, deck


@pytest.mark.parametrize("preset", ["standard", "strict", "four"])
def test_dense_sub_deck_counts(preset):
    """Sub-decks made of whole ranks (every card of a run of ranks, plus the
    jokers and 2s), where airplanes are plentiful."""
    rules = PRESETS[preset]
    full = full_deck(rules)
    for lo, hi in ((0, 4), (3, 8), (8, 11), (6, 12)):
        deck = tuple(full[r] if lo <= r <= hi or r >= 12 else 0 for r in range(15))
        if rules.decks == 1 and hi - lo >= 5:
            continue  # keep the reference quick
        moves = ref.legal_moves(list(deck), rules=rules)
        assert dict(Counter(m.kind for m in moves)) == count_by_kind(deck, rules), (lo, hi)
