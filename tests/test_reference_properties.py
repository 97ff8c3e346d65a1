"""Properties of the reference engine, and a second, independent engine.

Part 1 is a brute force written from docs/rules.md alone: for a small hand it takes
every sub-multiset of the hand and every way to split it into a primal part
(one rank, a run of equal counts, or all the jokers) and attachments, and
applies the kicker rules to the attachments as the rules page words them.  Its
set of (kind, cards, rank, length) must equal the reference engine's lead list
exactly, for a few hundred seeded random hands per preset and hand-picked edge
cases.

Part 2 holds hypothesis properties on larger hands (up to 20 cards with one
deck, 33 with two): moves fit in the hand, are read back by classify with the
same rank and length, are unique and sorted; responses beat the last move;
beats is a strict partial order and agrees with a second implementation of
the beating rules; text round-trips.
"""
import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddz_fast import PASS, PRESETS, Kind, Move, Rules, to_counts
from ddz_fast import reference as ref

K = Kind
PRESET_NAMES = ["standard", "strict", "four"]
B, R = 13, 14  # low and high joker
ACE = 11


def deck_counts(rules):
    return (rules.max_count,) * 13 + (rules.max_jokers,) * 2


def deck_cards(rules):
    return [r for r, n in enumerate(deck_counts(rules)) for _ in range(n)]


def to_vec(cards):
    out = [0] * 15
    for c in cards:
        out[c] += 1
    return tuple(out)


def sub_multisets(counts):
    """Every sub-multiset of a count vector."""
    for combo in itertools.product(*(range(c + 1) for c in counts)):
        yield combo


# ---------------------------------------------------------------------------
# Part 1: the brute force
# ---------------------------------------------------------------------------

def primal_shapes(p, rules):
    """The ways a count vector can be the primal part of a move, per docs/rules.md.

    Yields (shape, top_rank, groups): shape is one of 'solo', 'pair', 'trios'
    (one or more consecutive trios), 'four', 'bomb', 'rocket', 'chain',
    'pair_chain'; groups is the number of primal groups."""
    support = [r for r in range(15) if p[r]]
    if not support:
        return
    total = sum(p)
    if len(support) == 1:
        r = support[0]
        c = p[r]
        if c == 1:
            yield "solo", r, 1
        if c == 2:  # with one deck a joker count is at most 1, so no joker pairs
            yield "pair", r, 1
        if c == 3:
            yield "trios", r, 1
        if c == 4:
            yield "four", r, 1
        if c >= 4:
            yield "bomb", r, 1
    j = rules.max_jokers
    if support == [B, R] and p[B] == j and p[R] == j:
        yield "rocket", R, 1
    # runs: consecutive ranks within 3..A, equal counts
    lo, hi = support[0], support[-1]
    if hi <= ACE and hi - lo + 1 == len(support):
        each = {p[r] for r in support}
        n = len(support)
        if each == {1} and n >= 5:
            yield "chain", hi, n
        if each == {2} and n >= 3:
            yield "pair_chain", hi, n
        if each == {3} and n >= 2:
            yield "trios", hi, n
    assert total > 0


def as_singles(a):
    """Attachments read as single cards: the list of their ranks."""
    return [r for r in range(15) for _ in range(a[r])]


def as_pairs(a):
    """Attachments split into pairs of equal cards, or None when they cannot
    be (an odd count of some rank).  A count of 4 gives two pairs of one
    rank, which the distinct-ranks rule then rejects."""
    if any(c % 2 for c in a):
        return None
    return [r for r in range(15) for _ in range(a[r] // 2)]


def attachments_ok(ranks, primal_ranks, rules, distinct):
    """The kicker rules shared by every kind with attachments."""
    if any(r in primal_ranks for r in ranks):
        return False  # an attachment never has the rank of a primal group
    if distinct and len(set(ranks)) != len(ranks):
        return False
    if not rules.both_jokers_as_kickers and B in ranks and R in ranks:
        return False  # both jokers attached: that would be a rocket
    return True


def readings_of_split(p, a, rules):
    """(kind, top, groups) for cards split into primal p and attachments a."""
    n_att = sum(a)
    primal_ranks = {r for r in range(15) if p[r]}
    for shape, top, groups in primal_shapes(p, rules):
        if n_att == 0:
            kind = {"solo": K.SOLO, "pair": K.PAIR, "bomb": K.BOMB, "rocket": K.ROCKET,
                    "chain": K.CHAIN, "pair_chain": K.PAIR_CHAIN}.get(shape)
            if shape == "trios":
                kind = K.TRIO if groups == 1 else K.AIRPLANE
            if kind is not None:
                yield kind, top, groups
            continue
        if shape == "trios":
            singles = as_singles(a)
            if rules.solo_kickers and len(singles) == groups:
                distinct = rules.airplane_solo_distinct and groups >= 2
                if attachments_ok(singles, primal_ranks, rules, distinct):
                    yield (K.TRIO_SOLO if groups == 1 else K.AIRPLANE_SOLO), top, groups
            pairs = as_pairs(a)
            if pairs is not None and len(pairs) == groups:
                if attachments_ok(pairs, primal_ranks, rules, True):
                    yield (K.TRIO_PAIR if groups == 1 else K.AIRPLANE_PAIR), top, groups
        elif shape == "four" and rules.four_with_kickers:
            singles = as_singles(a)
            if len(singles) == 2 and attachments_ok(singles, primal_ranks, rules,
                                                    rules.four_two_solo_distinct):
                yield K.FOUR_TWO_SOLO, top, 1
            pairs = as_pairs(a)
            if pairs is not None and len(pairs) == 2 and attachments_ok(
                    pairs, primal_ranks, rules, True):
                yield K.FOUR_TWO_PAIR, top, 1


def brute_force_moves(hand, rules):
    """{(kind, counts): (rank, length)} of every move a hand can lead: every
    sub-multiset of the hand, split every way into primal and attachments;
    the rank is that of the highest reading."""
    hand = tuple(hand)
    best = {}
    # Every primal part p of the hand, then every attachment set a of the rest.
    for p in sub_multisets(hand):
        if not any(True for _ in primal_shapes(p, rules)):
            continue
        rest = tuple(h - x for h, x in zip(hand, p))
        for a in sub_multisets(rest):
            for kind, top, groups in readings_of_split(p, a, rules):
                cards = tuple(x + y for x, y in zip(p, a))
                key = (kind, cards)
                if key in best:
                    old_top, old_groups = best[key]
                    assert old_groups == groups  # same cards, same kind: same length
                    top = max(top, old_top)
                best[key] = (top, groups)
    return best


def reference_moves(hand, rules):
    out = {}
    for m in ref.legal_moves(list(hand), rules=rules):
        key = (m.kind, m.counts)
        assert key not in out
        out[key] = (m.rank, m.length)
    return out


def compare(hand, rules):
    got = reference_moves(hand, rules)
    want = brute_force_moves(hand, rules)
    missing = sorted((k.name, v) for (k, v) in set(want) - set(got))
    extra = sorted((k.name, v) for (k, v) in set(got) - set(want))
    assert not missing and not extra, (hand, missing[:5], extra[:5])
    wrong = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
    assert not wrong, (hand, list(wrong.items())[:5])
    return len(want)


def random_small_hand(rng, rules, max_cards):
    """A random hand of at most max_cards cards: half uniform draws from the
    deck, half dense hands (a few neighbouring ranks with 2..max of each, plus
    jokers and 2s) so that airplanes, fours and joker cases are common."""
    deck = deck_cards(rules)
    if rng.random() < 0.4:
        return to_vec(rng.sample(deck, rng.randint(1, max_cards)))
    counts = [0] * 15
    start = rng.randint(0, 12)
    for r in range(start, min(15, start + rng.randint(1, 4))):
        counts[r] = rng.randint(1, deck_counts(rules)[r])
    for _ in range(rng.randint(0, 3)):
        r = rng.choice([B, R, 12, 11, rng.randint(0, 12)])
        counts[r] = min(counts[r] + rng.randint(1, 2), deck_counts(rules)[r])
    cards = [r for r in range(15) for _ in range(counts[r])]
    if len(cards) > max_cards:
        cards = rng.sample(cards, max_cards)
    return to_vec(cards)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_brute_force_agrees_on_random_small_hands(preset):
    rules = PRESETS[preset]
    rng = random.Random(20240601 + PRESET_NAMES.index(preset))
    max_cards = 11 if rules.decks == 1 else 12
    total = 0
    kinds = Counter()
    for _ in range(300):
        hand = random_small_hand(rng, rules, max_cards)
        total += compare(hand, rules)
        kinds.update(k for k, _ in brute_force_moves(hand, rules))
    assert total > 1000
    # The sample must exercise the attachment kinds, not just singles.
    expected = {K.SOLO, K.PAIR, K.TRIO, K.TRIO_PAIR, K.BOMB, K.AIRPLANE, K.AIRPLANE_PAIR, K.CHAIN}
    if rules.solo_kickers:
        expected |= {K.TRIO_SOLO, K.AIRPLANE_SOLO, K.FOUR_TWO_SOLO, K.FOUR_TWO_PAIR}
    assert expected <= set(kinds), set(expected) - set(kinds)


EDGE_HANDS = {
    "one": [
        "333444555666",  # AIRPLANE 4 / AIRPLANE_SOLO 3, two readings
        "555666777888",
        "33344455",  # singles of one rank
        "3334445556",
        "333444555B",
        "33344455BR",  # both jokers as kickers
        "3333BR45",
        "33334444BR",  # four with a four as attachment
        "3333444455",
        "KKKAAA222B",  # 2s next to aces
        "KKKAAA2222",
        "AAA2222BR",
        "QQKKAA22BR",
        "TJQKA2BR",
        "9TJQKA2",
        "34567BR2",
        "3334445555",
        "33334445",  # kicker of a primal rank
        "22223344B",
        "2222AAAB",
        "BR",
        "B2",
        "3",
    ],
    "four": [
        "BBRR3333",
        "33333333B",
        "BBRR333",
        "333444BBR",
        "333BBRR5",
        "22222BBR",
        "KKKAAA22BB",
        "3333344455",
        "33334444BB",
        "333444BBRR",
        "33355566BB",
        "3333BBRR",
        "AAAAA2222",
        "BBR",
        "RR",
    ],
}


@pytest.mark.parametrize(
    "preset, hand",
    [(p, h) for p in ("standard", "strict") for h in EDGE_HANDS["one"]]
    + [("four", h) for h in EDGE_HANDS["four"]],
)
def test_brute_force_agrees_on_edge_hands(preset, hand):
    rules = PRESETS[preset]
    compare(tuple(int(c) for c in to_counts(hand, rules=rules)), rules)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(four_two_solo_distinct=False),
        Rules(both_jokers_as_kickers=True),
        Rules(airplane_solo_distinct=True, four_two_solo_distinct=False,
              both_jokers_as_kickers=True),
        Rules(players=4, decks=2),  # two decks with every 3-player kind
        Rules(players=4, decks=2, solo_kickers=False, four_with_kickers=False,
              both_jokers_as_kickers=True),
    ],
    ids=["four_two_same", "both_jokers", "all_flipped", "two_decks_all_kinds",
         "four_both_jokers"],
)
def test_brute_force_agrees_on_custom_rules(rules):
    rng = random.Random(7)
    edge = EDGE_HANDS["one"] + (EDGE_HANDS["four"] if rules.decks == 2 else [])
    for text in edge:
        compare(tuple(int(c) for c in to_counts(text, rules=rules)), rules)
    for _ in range(60):
        compare(random_small_hand(rng, rules, 9), rules)


def test_brute_force_self_check():
    """The brute force itself, on hands small enough to count by hand."""
    std = PRESETS["standard"]
    got = brute_force_moves(to_vec([0, 0, 0, 1]), std)  # 3334
    assert {(k, "".join("3456789TJQKA2BR"[r] * c for r, c in enumerate(v))) for k, v in got} == {
        (K.SOLO, "3"), (K.SOLO, "4"), (K.PAIR, "33"), (K.TRIO, "333"), (K.TRIO_SOLO, "3334")}
    got = brute_force_moves(to_vec([0, 0, 0, 1, 1, 1, 2, 2, 2]), std)  # 333444555
    assert got[(K.AIRPLANE_SOLO, (3, 3, 2) + (0,) * 12)] == (1, 2)  # 333444+55
    assert got[(K.AIRPLANE_SOLO, (2, 3, 3) + (0,) * 12)] == (2, 2)  # 444555+33
    assert sorted(v for k, v in got if k == K.AIRPLANE_SOLO) == [
        (2, 3, 3) + (0,) * 12, (3, 3, 2) + (0,) * 12]
    assert got[(K.AIRPLANE, (3, 3, 3) + (0,) * 12)] == (2, 3)
    got = brute_force_moves(to_vec([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]), std)
    assert got[(K.AIRPLANE_SOLO, (3, 3, 3, 3) + (0,) * 11)] == (3, 3)
    assert got[(K.AIRPLANE, (3, 3, 3, 3) + (0,) * 11)] == (3, 4)
    got = brute_force_moves(to_vec([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]), PRESETS["strict"])
    assert (K.AIRPLANE_SOLO, (3, 3, 3, 3) + (0,) * 11) not in got


# ---------------------------------------------------------------------------
# Part 2: hypothesis properties
# ---------------------------------------------------------------------------

MAX_CARDS = {"standard": 20, "strict": 20, "four": 33}


def hands(preset, max_cards=None):
    """Random sub-hands of the preset's deck: uniform draws, or dense hands
    built around a run of neighbouring ranks (airplanes, bombs) plus extras."""
    rules = PRESETS[preset]
    deck = deck_cards(rules)
    limit = deck_counts(rules)
    n = max_cards or MAX_CARDS[preset]

    @st.composite
    def uniform(draw):
        size = draw(st.integers(0, n))
        idx = draw(st.lists(st.integers(0, len(deck) - 1), unique=True,
                            min_size=size, max_size=size))
        return to_vec(deck[i] for i in idx)

    @st.composite
    def dense(draw):
        start = draw(st.integers(0, 12))
        run = draw(st.lists(st.integers(0, limit[0]), min_size=1, max_size=7))
        counts = [0] * 15
        for off, c in enumerate(run):
            if start + off < 13:
                counts[start + off] = c
        extra = draw(st.lists(st.integers(0, 14), max_size=6))
        for r in extra:
            if counts[r] < limit[r]:
                counts[r] += 1
        cards = [r for r in range(15) for _ in range(counts[r])]
        if len(cards) > n:
            keep = draw(st.permutations(range(len(cards))))[:n]
            cards = [cards[i] for i in keep]
        return to_vec(cards)

    return st.one_of(uniform(), dense())


SETTINGS = settings(deadline=None, max_examples=60,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FORBIDDEN = {
    "standard": {K.PASS},
    "strict": {K.PASS},
    "four": {K.PASS, K.TRIO_SOLO, K.AIRPLANE_SOLO, K.FOUR_TWO_SOLO, K.FOUR_TWO_PAIR},
}


def fits(counts, hand):
    return all(c <= h for c, h in zip(counts, hand))


def check_lead_list(moves, hand, preset):
    rules = PRESETS[preset]
    keys = [ref.move_order_key(m) for m in moves]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)  # strictly increasing
    assert len({(m.kind, m.counts) for m in moves}) == len(moves)
    assert len(set(moves)) == len(moves)
    for m in moves:
        assert m.kind not in FORBIDDEN[preset], m
        assert not m.is_pass
        assert fits(m.counts, hand), (m, hand)
        assert m.n_cards == sum(m.counts) > 0
        same = [c for c in ref.classify(m.counts, rules=rules) if c == m]
        assert len(same) == 1, m
        assert (same[0].rank, same[0].length) == (m.rank, m.length), (m, same[0])
        if m.kind == K.BOMB:
            assert 4 <= m.n_cards <= rules.max_count
        if m.kind == K.ROCKET:
            assert m.counts == (0,) * 13 + (rules.max_jokers,) * 2


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_lead_moves(preset):
    @SETTINGS
    @given(hand=hands(preset))
    def run(hand):
        moves = ref.legal_moves(list(hand), rules=preset)
        check_lead_list(moves, hand, preset)
        assert ref.legal_moves(list(hand), PASS, rules=preset) == moves
        if sum(hand) == 0:
            assert moves == []

    run()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_lead_moves_are_complete(preset):
    """Every reading of every sampled sub-multiset of the hand is a lead."""
    rules = PRESETS[preset]

    @SETTINGS
    @given(hand=hands(preset), data=st.data())
    def run(hand, data):
        leads = set(ref.legal_moves(list(hand), rules=preset))
        cards = [r for r in range(15) for _ in range(hand[r])]
        for _ in range(25):
            idx = data.draw(st.lists(st.integers(0, max(len(cards) - 1, 0)), unique=True,
                                     max_size=min(len(cards), 12)))
            if not cards:
                break
            sub = to_vec(cards[i] for i in idx)
            for m in ref.classify(list(sub), rules=rules):
                assert m in leads, (m, hand)

    run()


def special_moves(rules):
    """Bombs of every size and rank, and the rocket."""
    out = [Move(K.BOMB, [n if i == r else 0 for i in range(15)], rules=rules)
           for r in range(13) for n in range(4, rules.max_count + 1)]
    out.append(Move(K.ROCKET, [0] * 13 + [rules.max_jokers] * 2, rules=rules))
    return out


def beats_by_the_rules(a, b):
    """docs/rules.md "Beating a move", written out a second time."""
    if a.kind == K.PASS:
        return False
    if b.kind == K.PASS:
        return True
    if a.kind == K.ROCKET:
        return b.kind != K.ROCKET
    if b.kind == K.ROCKET:
        return False
    if a.kind == K.BOMB and b.kind != K.BOMB:
        return True
    if b.kind == K.BOMB:
        if a.kind != K.BOMB:
            return False
        if a.n_cards != b.n_cards:
            return a.n_cards > b.n_cards
        return a.rank > b.rank
    return a.kind == b.kind and a.length == b.length and a.rank > b.rank


@st.composite
def hand_and_last(draw, preset):
    """A hand, and a move on the table from the rest of the deck: a lead of
    another random hand, or a bomb or the rocket."""
    rules = PRESETS[preset]
    hand = draw(hands(preset))
    rest = tuple(d - h for d, h in zip(deck_counts(rules), hand))
    if draw(st.integers(0, 3)) == 0:
        options = [m for m in special_moves(rules) if fits(m.counts, rest)]
    else:
        rest_cards = [r for r in range(15) for _ in range(rest[r])]
        idx = draw(st.lists(st.integers(0, len(rest_cards) - 1), unique=True,
                            min_size=1, max_size=MAX_CARDS[preset]))
        other = to_vec(rest_cards[i] for i in idx)
        options = ref.legal_moves(list(other), rules=preset)
    last = draw(st.sampled_from(options)) if options else PASS
    return hand, last


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_responses(preset):
    rules = PRESETS[preset]

    @SETTINGS
    @given(case=hand_and_last(preset))
    def run(case):
        hand, last = case
        leads = ref.legal_moves(list(hand), rules=preset)
        resp = ref.legal_moves(list(hand), last, rules=preset)
        if last.is_pass:
            assert resp == leads
            return
        assert resp[0] is PASS
        assert PASS not in resp[1:]
        for m in resp[1:]:
            assert ref.beats(m, last, rules=rules), (m, last)
        assert resp == [PASS] + [m for m in leads if ref.beats(m, last, rules=rules)]
        # and against the rules written out a second time
        assert resp == [PASS] + [m for m in leads if beats_by_the_rules(m, last)]
        for m in resp[1:]:
            if m.kind not in (K.BOMB, K.ROCKET):
                assert (m.kind, m.length, m.n_cards) == (last.kind, last.length, last.n_cards)

    run()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_beats_is_a_strict_partial_order(preset):
    rules = PRESETS[preset]
    specials = special_moves(rules)

    @SETTINGS
    @given(hand=hands(preset), data=st.data())
    def run(hand, data):
        pool = ref.legal_moves(list(hand), rules=preset) + specials + [PASS]
        sample = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12))
        for a in sample:
            assert not ref.beats(a, a, rules=rules)
        for a, b in itertools.product(sample, repeat=2):
            ab = ref.beats(a, b, rules=rules)
            assert ab == beats_by_the_rules(a, b), (a, b)
            if ab:
                assert not ref.beats(b, a, rules=rules), (a, b)
        for a, b, c in itertools.product(sample[:6], repeat=3):
            if ref.beats(a, b, rules=rules) and ref.beats(b, c, rules=rules):
                assert ref.beats(a, c, rules=rules), (a, b, c)

    run()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_text_round_trip(preset):
    @SETTINGS
    @given(hand=hands(preset))
    def run(hand):
        for m in ref.legal_moves(list(hand), rules=preset):
            text = str(m)
            back = ref.parse_move(text, kind=m.kind, rules=preset)
            assert back == m and (back.rank, back.length) == (m.rank, m.length)
            assert ref.parse_move(text.lower(), kind=m.kind.name, rules=preset) == m
            assert tuple(to_counts(text, rules=preset)) == m.counts
            assert Move(m.kind, text, rules=preset) == m
            readings = ref.classify(text, rules=preset)
            if len(readings) == 1:
                assert ref.parse_move(text, rules=preset) == m
            else:
                with pytest.raises(ValueError, match="ambiguous"):
                    ref.parse_move(text, rules=preset)

    run()
