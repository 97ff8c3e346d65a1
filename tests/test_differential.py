"""Differential tests: the fast path (the top-level ``ddz_fast`` API, Cython
kernels) against the pure-Python oracle ``ddz_fast.reference``.

"Same" always means: identical move lists in identical order (kind and cards),
with identical ranks, lengths and sizes, both as Move objects and through the
MoveList array views (see ``assert_same_moves`` in conftest.py).

1. Hypothesis: random and structured hands with random last moves drawn from
   another hand's reference lead list (the two hands fit in one deck), PASS and
   free leads, every kind as the last move, bombs of every size in ``four``,
   the rocket; classify, beats and parse_move on drawn inputs.
2. A seeded bulk run of whole random deals (17/20-card hands with one deck,
   25/33 with two), leads and responses as in a real game; its samples are
   also run through ``legal_moves_batch`` and ``count_moves``.
3. Exhaustive: every sub-multiset of a few small hands rich in trios, pairs,
   bombs and jokers, leads and responses.
4. The whole deck (54 cards; 108 for ``four``) as one hand (``slow``).

Everything runs for every preset and a few custom Rules.
"""
import functools
import itertools
import random
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast as fast
from ddz_fast import PASS, PRESETS, Kind, Rules, resolve_rules
from ddz_fast import reference as ref

K = Kind
B, R = 13, 14  # low and high joker

FOUR = PRESETS["four"]
RULES_CASES = {
    "standard": "standard",
    "strict": "strict",
    "four": "four",
    "both_jokers": Rules(both_jokers_as_kickers=True),
    "four_two_dup": Rules(four_two_solo_distinct=False),
    "strict_both_jokers": Rules(airplane_solo_distinct=True, both_jokers_as_kickers=True),
    "four_both_jokers": FOUR.replace(both_jokers_as_kickers=True),
    # two decks with every kind of the 3-player game (solo kickers, fours
    # with kickers, equal singles on a four): an unusual mix for the kernels
    "two_decks_all_kinds": Rules(players=4, decks=2, four_two_solo_distinct=False),
    "douzero": "douzero",
    "rlcard": "rlcard",
    # the two rlcard airplane limits one at a time
    "no_bomb_kickers": Rules(airplane_bomb_kickers=False),
    "no_adjacent_trio_kickers": Rules(airplane_adjacent_trio_kickers=False),
}
RULE_IDS = list(RULES_CASES)
# (the wild-card presets have their own oracle and suite: tests/test_wild_differential.py)
PRESET_NAMES = [name for name, r in PRESETS.items() if not r.wild_ranks]

KICKER_KINDS = [K.TRIO_SOLO, K.TRIO_PAIR, K.AIRPLANE_SOLO, K.AIRPLANE_PAIR,
                K.FOUR_TWO_SOLO, K.FOUR_TWO_PAIR]

HSETTINGS = dict(deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def deck_counts(rules):
    r = resolve_rules(rules)
    return (r.max_count,) * 13 + (r.max_jokers,) * 2


def deck_cards(rules, counts=None):
    counts = deck_counts(rules) if counts is None else counts
    return [x for x, n in enumerate(counts) for _ in range(n)]


def vec(cards):
    out = [0] * 15
    for c in cards:
        out[c] += 1
    return out


def minus(a, b):
    out = [x - y for x, y in zip(a, b)]
    assert min(out) >= 0
    return out


def fits(small, big):
    return all(s <= b for s, b in zip(small, big))


def kinds_of(rules):
    r = resolve_rules(rules)
    out = [k for k in Kind if k != K.PASS]
    if not r.solo_kickers:
        out = [k for k in out if k not in (K.TRIO_SOLO, K.AIRPLANE_SOLO)]
    if not r.four_with_kickers:
        out = [k for k in out if k not in (K.FOUR_TWO_SOLO, K.FOUR_TWO_PAIR)]
    return out


def check_hand(same_moves, hand, last, rules, context=""):
    """Compare fast and reference on one (hand, last); return the reference list."""
    expected = ref.legal_moves(hand, last, rules=rules)
    got = fast.legal_moves(hand, last, rules=rules)
    same_moves(got, expected, f"hand={ref_text(hand)!r} last={last!r} rules={rules!r} {context}")
    return expected


def ref_text(counts):
    return "".join("3456789TJQKA2BR"[i] * int(c) for i, c in enumerate(counts))


# Pools of last moves: reference lead lists of a few rich hands per deck size.
POOL_HANDS = {
    1: ["3333444455556666BR", "3456789TJQKA22BR", "333444555777888JJQQ",
        "99TTTJJJQQQKKKAAA22"],
    2: ["33334444555566667777BBRR", "3456789TJQKA22BBRR", "333444555777888JJQQ"],
}


@functools.lru_cache(maxsize=None)
def last_pool(rid):
    rules = RULES_CASES[rid]
    moves = []
    for text in POOL_HANDS[resolve_rules(rules).decks]:
        moves.extend(ref.legal_moves(text, rules=rules))
    return tuple(dict.fromkeys(moves))  # unique, stable order


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

@st.composite
def structured_hand(draw, rules, limit, avail):
    """A hand rich in runs of pairs/trios/fours plus scattered cards (and
    often jokers), at most `limit` cards, within `avail`."""
    two = resolve_rules(rules).decks == 2
    counts = [0] * 15
    lo = draw(st.integers(0, 11))
    length = draw(st.integers(1, 6))
    per_rank = [1, 2, 3, 3, 4, 5, 6, 8] if two else [1, 2, 3, 3, 3, 4]
    for x in range(lo, min(lo + length, 12)):
        counts[x] = min(avail[x], draw(st.sampled_from(per_rank)))
    for x in draw(st.lists(st.integers(0, 14), max_size=8)):
        if counts[x] < avail[x]:
            counts[x] += 1
    if draw(st.booleans()):
        counts[B], counts[R] = avail[B], avail[R]
    while sum(counts) > limit:
        top = max(x for x in range(15) if counts[x])
        counts[top] -= 1
    return counts


@st.composite
def two_hands(draw, rules, max_hand, max_other):
    """(hand, other): two disjoint hands of one deck, each random (a shuffled
    deck's prefix) or structured."""
    deck = list(deck_counts(rules))

    def one(avail, limit):
        if draw(st.booleans()):
            return draw(structured_hand(rules, limit, avail))
        cards = draw(st.permutations(deck_cards(rules, avail)))
        return vec(cards[:draw(st.integers(0, limit))])

    hand = one(deck, max_hand)
    other = one(minus(deck, hand), max_other)
    return hand, other


def hand_limits(rules):
    return (20, 14) if resolve_rules(rules).decks == 1 else (28, 16)


# ---------------------------------------------------------------------------
# 1. Hypothesis
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=25, **HSETTINGS)
@given(data=st.data())
def test_leads_and_responses(rid, data, same_moves):
    rules = RULES_CASES[rid]
    hand, other = data.draw(two_hands(rules, *hand_limits(rules)), label="hand, other")
    leads = check_hand(same_moves, hand, None, rules, "lead")
    # PASS on the table is a free lead too.
    same_moves(fast.legal_moves(hand, PASS, rules=rules), leads, "last=PASS")
    # The same hand in other input forms.
    same_moves(fast.legal_moves(np.array(hand, dtype=np.uint8), rules=rules), leads, "uint8 array")
    same_moves(fast.legal_moves(ref_text(hand), rules=rules), leads, "text")
    pool = ref.legal_moves(other, rules=rules)
    if pool:
        lasts = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True),
                          label="lasts")
        for last in lasts:
            check_hand(same_moves, hand, last, rules, "response")


@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=40, **HSETTINGS)
@given(data=st.data())
def test_count_moves_equals_enumeration(rid, data):
    """count_moves counts in closed form (popcounts, binomials, a product of
    small polynomials for airplane singles): equal to the length of the
    enumerated list for leads and for responses to every kind, on hands up to
    the whole deck."""
    rules = RULES_CASES[rid]
    deck = list(deck_counts(rules))
    if data.draw(st.booleans(), label="structured"):
        hand = data.draw(structured_hand(rules, sum(deck), deck), label="hand")
    else:
        cards = data.draw(st.permutations(deck_cards(rules)), label="deck order")
        hand = vec(cards[:data.draw(st.integers(0, len(cards)), label="size")])
    assert fast.count_moves(hand, rules=rules) == len(fast.legal_moves(hand, rules=rules))
    pool = [m for m in last_pool(rid) if fits(m.counts, minus(deck, hand))]
    if pool:
        lasts = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12, unique=True),
                          label="lasts")
        for last in lasts:
            n = len(fast.legal_moves(hand, last, rules=rules))
            assert fast.count_moves(hand, last, rules=rules) == n, (ref_text(hand), last)
        batch = np.array([hand] * len(lasts), dtype=np.uint8)
        assert fast.count_moves(batch, lasts, rules=rules).tolist() == [
            len(fast.legal_moves(hand, m, rules=rules)) for m in lasts]


@functools.lru_cache(maxsize=None)
def _kind_cases():
    out = []
    for rid in PRESET_NAMES:
        out += [(rid, k) for k in kinds_of(RULES_CASES[rid])]
    for rid in RULE_IDS:
        if rid not in PRESET_NAMES:
            out += [(rid, k) for k in KICKER_KINDS if k in kinds_of(RULES_CASES[rid])]
    return out


@pytest.mark.parametrize("rid, kind", _kind_cases(), ids=lambda x: getattr(x, "name", x))
@settings(max_examples=6, **HSETTINGS)
@given(data=st.data())
def test_every_kind_as_last(rid, kind, data, same_moves):
    """Responses to a last move of each kind (presets: every kind; custom
    rules: every kind with attachments), the hand from the rest of the deck."""
    rules = RULES_CASES[rid]
    pool = [m for m in last_pool(rid) if m.kind == kind]
    assert pool, f"no {kind.name} in the pool hands for {rid}"
    last = data.draw(st.sampled_from(pool), label="last")
    avail = minus(deck_counts(rules), last.counts)
    limit = hand_limits(rules)[0] - 3
    if data.draw(st.booleans()):
        hand = data.draw(structured_hand(rules, limit, avail), label="hand")
    else:
        cards = data.draw(st.permutations(deck_cards(rules, avail)))
        hand = vec(cards[:data.draw(st.integers(0, limit))])
    check_hand(same_moves, hand, last, rules)


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("rid", ["four", "four_both_jokers", "two_decks_all_kinds"])
@settings(max_examples=6, **HSETTINGS)
@given(data=st.data())
def test_bombs_of_every_size_two_decks(rid, size, data, same_moves):
    rules = RULES_CASES[rid]
    rank = data.draw(st.integers(0, 12), label="bomb rank")
    bomb = fast.parse_move("3456789TJQKA2"[rank] * size, rules=rules)
    assert bomb.kind == K.BOMB and bomb.n_cards == size
    avail = minus(deck_counts(rules), bomb.counts)
    if data.draw(st.booleans()):
        hand = data.draw(structured_hand(rules, 20, avail), label="hand")
    else:
        cards = data.draw(st.permutations(deck_cards(rules, avail)))
        hand = vec(cards[:data.draw(st.integers(0, 20))])
    check_hand(same_moves, hand, bomb, rules)
    check_hand(same_moves, hand, ref.parse_move(bomb.cards, rules=rules), rules)


@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=8, **HSETTINGS)
@given(data=st.data())
def test_rocket_as_last(rid, data, same_moves):
    rules = RULES_CASES[rid]
    rocket = ref.parse_move("BR" * resolve_rules(rules).max_jokers, rules=rules)
    assert rocket.kind == K.ROCKET
    avail = minus(deck_counts(rules), rocket.counts)
    cards = data.draw(st.permutations(deck_cards(rules, avail)))
    hand = vec(cards[:data.draw(st.integers(0, hand_limits(rules)[0]))])
    assert check_hand(same_moves, hand, rocket, rules) == [PASS]


@st.composite
def card_set(draw, rid):
    """Cards to classify: often a move (from the pool), sometimes changed by
    a card, else a small random or structured set."""
    rules = RULES_CASES[rid]
    deck = deck_counts(rules)
    how = draw(st.sampled_from(["move", "move+-1", "random", "structured"]))
    if how.startswith("move"):
        counts = list(draw(st.sampled_from(last_pool(rid))).counts)
        if how == "move+-1":
            x = draw(st.integers(0, 14))
            if counts[x] and draw(st.booleans()):
                counts[x] -= 1
            elif counts[x] < deck[x]:
                counts[x] += 1
        return counts
    if how == "random":
        cards = draw(st.permutations(deck_cards(rules)))
        return vec(cards[:draw(st.integers(0, 14))])
    return draw(structured_hand(rules, 16, deck))


@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=150, **HSETTINGS)
@given(data=st.data())
def test_classify(rid, data):
    rules = RULES_CASES[rid]
    counts = data.draw(card_set(rid), label="cards")
    expected = ref.classify(counts, rules=rules)
    for form in (counts, tuple(counts), np.array(counts, dtype=np.uint8),
                 np.array(counts, dtype=np.int64), ref_text(counts)):
        got = fast.classify(form, rules=rules)
        assert type(got) is list
        assert got == expected, (counts, rules)
        assert [(m.kind, m.counts, m.rank, m.length, m.n_cards) for m in got] == \
            [(m.kind, m.counts, m.rank, m.length, m.n_cards) for m in expected]


@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=25, **HSETTINGS)
@given(data=st.data())
def test_beats(rid, data):
    rules = RULES_CASES[rid]
    hand, other = data.draw(two_hands(rules, 14, 14), label="hands")
    pool_a = ref.legal_moves(hand, rules=rules) + [PASS]
    pool_b = ref.legal_moves(other, rules=rules) + [PASS]
    fast_a = list(fast.legal_moves(hand, rules=rules)) + [PASS]
    for _ in range(6):
        b = data.draw(st.sampled_from(pool_b), label="b")
        same_kind = [m for m in pool_a if m.kind == b.kind]
        if same_kind and data.draw(st.booleans()):
            a = data.draw(st.sampled_from(same_kind), label="a (same kind)")
        else:
            a = data.draw(st.sampled_from(pool_a), label="a")
        want = ref.beats(a, b, rules=rules)
        assert fast.beats(a, b, rules=rules) == want, (a, b)
        assert fast.beats(b, a, rules=rules) == ref.beats(b, a, rules=rules), (b, a)
        # moves made by the fast path are interchangeable with reference moves
        fa = fast_a[pool_a.index(a)]
        assert fa == a and hash(fa) == hash(a)
        assert fast.beats(fa, b, rules=rules) == want
        assert ref.beats(fa, b, rules=rules) == want


def _outcome(fn, *args, **kwargs):
    try:
        m = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - we compare exception types
        return ("raises", type(e))
    return ("move", m, m.kind, m.counts, m.rank, m.length)


def _variants(draw, text):
    """Other spellings of canonical card text that parse to the same cards."""
    spell = {"T": draw(st.sampled_from(["T", "t", "10"])),
             "B": draw(st.sampled_from(["B", "b", "X", "x"])),
             "R": draw(st.sampled_from(["R", "r", "D", "d"]))}
    sep = draw(st.sampled_from(["", " ", ",", "-", "+", ", "]))
    tokens = [spell.get(ch, ch.lower() if draw(st.booleans()) else ch) for ch in text]
    return sep.join(tokens)


@pytest.mark.parametrize("rid", RULE_IDS)
@settings(max_examples=60, **HSETTINGS)
@given(data=st.data())
def test_parse_move(rid, data):
    rules = RULES_CASES[rid]
    m = data.draw(st.sampled_from(last_pool(rid)), label="move")
    text = _variants(data.draw, m.cards)
    got = fast.parse_move(text, m.kind, rules=rules)
    assert got == m == ref.parse_move(text, m.kind, rules=rules)
    assert (got.rank, got.length, got.n_cards) == (m.rank, m.length, m.n_cards)
    kind_form = data.draw(st.sampled_from([m.kind, int(m.kind), m.kind.name, m.kind.name.lower()]))
    assert fast.parse_move(text, kind_form, rules=rules) == m
    # Without a kind: the same move, or the same error (ambiguous text).
    assert _outcome(fast.parse_move, text, rules=rules) == _outcome(ref.parse_move, text, rules=rules)
    # A wrong kind, and junk text.
    other_kind = data.draw(st.sampled_from(list(Kind)), label="other kind")
    assert _outcome(fast.parse_move, text, other_kind, rules=rules) == \
        _outcome(ref.parse_move, text, other_kind, rules=rules)
    junk = data.draw(st.text(alphabet="3456789TJQKA2BRXDtxd10 ,-+/|pasZ!", max_size=12), label="junk")
    assert _outcome(fast.parse_move, junk, rules=rules) == _outcome(ref.parse_move, junk, rules=rules)


# ---------------------------------------------------------------------------
# 2. Seeded bulk run of random deals
# ---------------------------------------------------------------------------

# Deals per preset, sized so the three bulk tests together take about 60 s
# on one core (the reference engine dominates: ~5 ms for a 17-card lead, ~10
# ms for 20 cards, ~30 ms for 25 cards and ~100 ms for 33 cards; a deal is
# its full-hand leads and responses plus a played-out game).
BULK_DEALS = {"standard": 30, "strict": 18, "four": 7, "douzero": 18, "rlcard": 18}
# The nightly run plays ten times as many deals, from other seeds.
BULK_SCALES = [pytest.param(1, id="default"), pytest.param(10, id="nightly", marks=pytest.mark.nightly)]
BULK_SEED = 20240613
MAX_TURNS = 80


def play_deal(rules, rng, check):
    """Deal, check every full hand's leads and its response to a move drawn
    from the previous player's lead list, then play a random game checking
    every turn.  `check(hand, last)` returns the reference list."""
    r = resolve_rules(rules)
    cards = deck_cards(r)
    rng.shuffle(cards)
    n = r.hand_size
    hands = [vec(cards[i * n:(i + 1) * n]) for i in range(r.players)]
    landlord = rng.randrange(r.players)
    for c in cards[r.players * n:]:
        hands[landlord][c] += 1
    leads = [check(h, None) for h in hands]
    for i, h in enumerate(hands):
        prev = leads[i - 1]
        if prev:
            check(h, rng.choice(prev))
    turn, last, passes = landlord, None, 0
    for _ in range(MAX_TURNS):
        moves = check(hands[turn], last)
        real = [m for m in moves if not m.is_pass]
        if last is None or (real and rng.random() < 0.7):
            move = rng.choice(real)
            hands[turn] = minus(hands[turn], move.counts)
            if sum(hands[turn]) == 0:
                return
            last, passes = move, 0
        else:
            passes += 1
            if passes == r.players - 1:
                last, passes = None, 0
        turn = (turn + 1) % r.players


@pytest.mark.parametrize("scale", BULK_SCALES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bulk_random_deals(preset, scale, same_moves):
    rng = random.Random(f"{BULK_SEED}-{preset}" + ("" if scale == 1 else f"-x{scale}"))
    deals = BULK_DEALS[preset] * scale
    samples = []

    def check(hand, last):
        expected = check_hand(same_moves, hand, last, preset)
        samples.append((list(hand), last, expected))
        return expected

    start = time.perf_counter()
    for _ in range(deals):
        play_deal(preset, rng, check)
    assert len(samples) > 10 * deals
    sizes = {sum(h) for h, _, _ in samples}
    assert sizes >= ({17, 20} if preset != "four" else {25, 33})

    # The same samples through the batch API: rows equal the reference lists.
    hands = np.array([h for h, _, _ in samples], dtype=np.uint8)
    lasts = [last for _, last, _ in samples]
    batch = fast.legal_moves_batch(hands, lasts, rules=preset, threads=2)
    counts = fast.count_moves(hands, lasts, rules=preset, threads=2)
    assert counts.tolist() == [len(e) for _, _, e in samples]
    for i, (_, _, expected) in enumerate(samples):
        a, b = batch.offsets[i], batch.offsets[i + 1]
        assert batch.rows[a:b].tolist() == [list(m.counts) + [int(m.kind)] for m in expected], i
    elapsed = time.perf_counter() - start
    print(f"bulk {preset}: {deals} deals, {len(samples)} checks, {elapsed:.1f} s")


# ---------------------------------------------------------------------------
# 3. Exhaustive: every sub-multiset of small rich hands
# ---------------------------------------------------------------------------

EXHAUSTIVE_HANDS = {
    1: ["333444555BR",      # airplanes with both jokers as kickers, rocket
        "555666777888",     # AIRPLANE vs AIRPLANE_SOLO, several readings
        "33334444BR2",      # bombs, fours with kickers, 33334444 readings
        "33445566777",      # pair chains, trio + pair
        "TTTJJJQQKA2"],     # airplanes at the top, chains to A, 2 as kicker
    2: ["33333444BBRR",     # bombs of 4-5, joker pairs, rocket of 4 jokers
        "3334445555BR",     # bomb kickers, one joker each
        "33334444BBR",      # two 4-bombs, four with kickers (custom)
        "TTTJJJQQQABB"],    # airplanes with a joker-pair kicker
}
# Last moves for the responses: text, kind (those that do not fit in one deck
# together with the hand are skipped for that hand).
EXHAUSTIVE_LASTS = {
    1: [("6", None), ("99", None), ("999", None), ("999+6", K.TRIO_SOLO),
        ("666+99", K.TRIO_PAIR), ("6789T", None), ("667788", None), ("666777", None),
        ("666777+89", K.AIRPLANE_SOLO), ("666777+9922", K.AIRPLANE_PAIR),
        ("9999+68", K.FOUR_TWO_SOLO), ("9999+6688", K.FOUR_TWO_PAIR), ("9999", None),
        ("KKKK", None), ("BR", None)],
    2: [("6", None), ("66", None), ("999", None), ("999+6", K.TRIO_SOLO),
        ("666+99", K.TRIO_PAIR), ("6789T", None), ("667788", None), ("666777", None),
        ("666777+89", K.AIRPLANE_SOLO), ("666777+9922", K.AIRPLANE_PAIR),
        ("9999+68", K.FOUR_TWO_SOLO), ("9999+6688", K.FOUR_TWO_PAIR), ("6666", None),
        ("66666", None), ("99999999", None), ("KKKKKK", None), ("BBRR", None)],
}


def _exhaustive_cases():
    out = []
    for rid in RULE_IDS:
        if rid == "strict_both_jokers":  # its two options are each covered here
            continue
        decks = resolve_rules(RULES_CASES[rid]).decks
        for text in EXHAUSTIVE_HANDS[decks]:
            out.append((rid, text))
    return out


def sub_multisets(counts):
    for combo in itertools.product(*(range(c + 1) for c in counts)):
        yield list(combo)


def derived_response(leads, last, rules, memo=None):
    """The reference response list derived from the reference lead list of
    the same hand: PASS, then every lead that the reference's beats() says
    beats `last` (only moves of the same kind and length, bombs and the
    rocket can).  This is how reference.legal_moves builds responses, with
    a cheap prefilter and a memo: the reference's beats() is slow."""
    memo = {} if memo is None else memo

    def ref_beats(m):
        key = (m, last)
        if key not in memo:
            memo[key] = ref.beats(m, last, rules=rules)
        return memo[key]

    return [PASS] + [m for m in leads
                     if (m.kind in (K.BOMB, K.ROCKET)
                         or (m.kind == last.kind and m.length == last.length))
                     and ref_beats(m)]


def test_derived_response_matches_reference():
    """The shortcut used below agrees with reference.legal_moves."""
    for text in ["333444555BR", "TTTJJJQQKA2", "33445566777"]:
        leads = ref.legal_moves(text)
        for last_text, kind in EXHAUSTIVE_LASTS[1]:
            last = ref.parse_move(last_text, kind)
            hand = list(fast.to_counts(text))
            if fits([a + b for a, b in zip(hand, last.counts)], deck_counts("standard")):
                assert derived_response(leads, last, "standard") == ref.legal_moves(hand, last)


@pytest.mark.parametrize("rid, text", _exhaustive_cases())
def test_exhaustive_sub_hands(rid, text, same_moves):
    rules = RULES_CASES[rid]
    full = list(fast.to_counts(text, rules=rules))
    decks = resolve_rules(rules).decks
    lasts = []
    for last_text, kind in EXHAUSTIVE_LASTS[decks]:
        try:
            last = ref.parse_move(last_text, kind, rules=rules)
        except ValueError:  # kind not in these rules
            continue
        if fits([a + b for a, b in zip(full, last.counts)], deck_counts(rules)):
            lasts.append(last)
    assert len(lasts) >= 4
    n = 0
    memo = {}
    for sub in sub_multisets(full):
        leads = check_hand(same_moves, sub, None, rules)
        for last in lasts:
            same_moves(fast.legal_moves(sub, last, rules=rules),
                       derived_response(leads, last, rules, memo),
                       f"hand={ref_text(sub)!r} last={last!r} rules={rules!r}")
        n += 1
    assert n == int(np.prod([c + 1 for c in full]))


# ---------------------------------------------------------------------------
# 4. The whole deck as one hand
# ---------------------------------------------------------------------------

FULL_DECK_LASTS = {
    # (text, kind): one last move of most kinds; the hand is the deck minus it
    1: [("3", None), ("AA", None), ("KKK", None), ("888+3", K.TRIO_SOLO), ("999+22", K.TRIO_PAIR),
        ("3456789TJQ", None), ("TTJJQQ", None), ("444555666777", K.AIRPLANE),
        ("333444+9T", K.AIRPLANE_SOLO), ("888999TTTJJJ", K.AIRPLANE_SOLO),
        ("444555666777888+33399", K.AIRPLANE_SOLO),
        ("3334445566", K.AIRPLANE_PAIR), ("8888+3B", K.FOUR_TWO_SOLO),
        ("55554466", K.FOUR_TWO_PAIR), ("JJJJ", None), ("BR", None)],
    2: [("3", None), ("BB", None), ("KKK", None), ("999+RR", K.TRIO_PAIR),
        ("3456789TJQ", None), ("TTJJQQ", None), ("444555666777", K.AIRPLANE),
        ("3334445566", K.AIRPLANE_PAIR), ("JJJJ", None), ("333333", None),
        ("22222222", None), ("BBRR", None)],
}


@functools.lru_cache(maxsize=None)
def full_deck_reference(rid):
    rules = RULES_CASES[rid]
    return tuple(ref.legal_moves(deck_counts(rules), rules=rules))


@pytest.mark.slow
@pytest.mark.parametrize("rid", PRESET_NAMES)
def test_full_deck(rid, same_moves):
    """The whole deck as the hand: the strongest single check (every move of
    every kind, all reading ambiguities).  Then responses with the deck minus
    the last move as the hand, checked against the reference's lead list of
    the deck filtered by the reference's own beats (a move is a lead of a
    hand iff its cards fit in the hand)."""
    rules = RULES_CASES[rid]
    deck = list(deck_counts(rules))
    expected = list(full_deck_reference(rid))
    same_moves(fast.legal_moves(deck, rules=rules), expected, "full deck")
    same_moves(fast.legal_moves(deck, PASS, rules=rules), expected, "full deck, last=PASS")
    assert fast.count_moves(deck, rules=rules) == len(expected)

    decks = resolve_rules(rules).decks
    for text, kind in FULL_DECK_LASTS[decks]:
        try:
            last = ref.parse_move(text, kind, rules=rules)
        except ValueError:  # e.g. equal singles on an airplane under 'strict'
            continue
        hand = minus(deck, last.counts)
        candidates = [m for m in expected if fits(m.counts, hand)
                      and (m.kind in (K.BOMB, K.ROCKET)
                           or (m.kind == last.kind and m.length == last.length))]
        want = [PASS] + [m for m in candidates if ref.beats(m, last, rules=rules)]
        same_moves(fast.legal_moves(hand, last, rules=rules), want, f"deck minus {last!r}")
