"""Hand-built known answers for every kind, every kicker rule and every option of
docs/rules.md, for each preset, plus beating, parsing of moves and the errors of the
move functions.

Every expected value here was written by hand from docs/rules.md, not produced by
running the engine.  Ranks are written as their card character (``"6"`` is rank
index 3) and converted with ``RANKS.index``.

The tests run on the reference engine and on the public API (which must give
the same answers).
"""
import itertools

import pytest

import ddz_fast
from ddz_fast import PASS, RANKS, AmbiguousMoveError, InvalidMoveError, Kind, Move, Rules
from ddz_fast import reference

K = Kind


@pytest.fixture(params=["reference", "public"])
def engine(request):
    return reference if request.param == "reference" else ddz_fast


def rd(kind, rank_char, length=1):
    """An expected reading: (kind, rank index, length)."""
    return (kind, RANKS.index(rank_char), length)


def readings(engine, text, rules):
    out = engine.classify(text, rules=rules)
    for m in out:
        assert m.cards == ddz_fast.format_cards(text, rules=rules)
    # classify gives one move per kind, in kind order
    kinds = [m.kind for m in out]
    assert kinds == sorted(set(kinds))
    return {(m.kind, m.rank, m.length) for m in out}


# ---------------------------------------------------------------------------
# classify: every kind and every kicker rule
# ---------------------------------------------------------------------------

# Same answer under `standard` and `strict` (the 3-player, one-deck game).
ONE_DECK = [
    # SOLO, PAIR, TRIO, BOMB, ROCKET
    ("3", {rd(K.SOLO, "3")}),
    ("2", {rd(K.SOLO, "2")}),
    ("B", {rd(K.SOLO, "B")}),
    ("R", {rd(K.SOLO, "R")}),
    ("33", {rd(K.PAIR, "3")}),
    ("TT", {rd(K.PAIR, "T")}),
    ("22", {rd(K.PAIR, "2")}),
    ("34", set()),
    ("2B", set()),
    ("BR", {rd(K.ROCKET, "R")}),  # the two jokers are not a pair
    ("333", {rd(K.TRIO, "3")}),
    ("222", {rd(K.TRIO, "2")}),
    ("3333", {rd(K.BOMB, "3")}),  # not a trio with a 3 attached
    ("2222", {rd(K.BOMB, "2")}),
    # TRIO_SOLO, TRIO_PAIR
    ("3334", {rd(K.TRIO_SOLO, "3")}),
    ("3332", {rd(K.TRIO_SOLO, "3")}),
    ("2223", {rd(K.TRIO_SOLO, "2")}),
    ("222B", {rd(K.TRIO_SOLO, "2")}),
    ("333R", {rd(K.TRIO_SOLO, "3")}),  # one joker may be an attachment
    ("33344", {rd(K.TRIO_PAIR, "3")}),
    ("33322", {rd(K.TRIO_PAIR, "3")}),
    ("22233", {rd(K.TRIO_PAIR, "2")}),
    ("333BR", set()),  # the jokers are no pair, and may not both be attached
    ("33345", set()),  # singles and pairs are never mixed; a trio takes one single
    ("33334", set()),  # attachment of the trio's own rank
    ("333444", {rd(K.AIRPLANE, "4", 2)}),
    # CHAIN
    ("34567", {rd(K.CHAIN, "7", 5)}),
    ("TJQKA", {rd(K.CHAIN, "A", 5)}),
    ("3456789TJQKA", {rd(K.CHAIN, "A", 12)}),
    ("3456", set()),
    ("34568", set()),
    ("JQKA2", set()),  # no 2 in a chain
    ("TJQKA2", set()),
    ("QKA23", set()),  # no wrap-around
    ("3456789TJQKA2", set()),
    ("9TJQKAB", set()),
    # PAIR_CHAIN
    ("334455", {rd(K.PAIR_CHAIN, "5", 3)}),
    ("QQKKAA", {rd(K.PAIR_CHAIN, "A", 3)}),
    ("33445566778899TTJJQQKKAA", {rd(K.PAIR_CHAIN, "A", 12)}),
    ("3344", set()),
    ("KKAA22", set()),
    ("334466", set()),
    # AIRPLANE
    ("KKKAAA", {rd(K.AIRPLANE, "A", 2)}),
    ("333444555", {rd(K.AIRPLANE, "5", 3)}),
    ("333444555666777888", {rd(K.AIRPLANE, "8", 6)}),
    ("AAA222", set()),
    ("KKKAAA222", set()),
    ("333555", set()),
    # AIRPLANE_SOLO (distinct singles: the same under both presets)
    ("33344456", {rd(K.AIRPLANE_SOLO, "4", 2)}),
    ("3334445B", {rd(K.AIRPLANE_SOLO, "4", 2)}),
    ("KKKAAA2B", {rd(K.AIRPLANE_SOLO, "A", 2)}),
    ("333444555678", {rd(K.AIRPLANE_SOLO, "5", 3)}),
    ("333444555666789T", {rd(K.AIRPLANE_SOLO, "6", 4)}),
    ("333444BR", set()),  # both jokers attached
    ("33334445", set()),  # a 3 attached to trios 3-4
    ("33344445", set()),
    ("3334445", set()),
    ("333444555BR6", set()),
    # AIRPLANE_PAIR
    ("3334445566", {rd(K.AIRPLANE_PAIR, "4", 2)}),
    ("KKKAAA2233", {rd(K.AIRPLANE_PAIR, "A", 2)}),
    ("333444555667788", {rd(K.AIRPLANE_PAIR, "5", 3)}),
    ("3334445555", set()),  # 333444+5555: not two pairs
    ("KKKAAA2222", set()),
    ("3334445566B", set()),
    ("33334444", set()),
    ("3333444455", set()),
    ("3334445567", set()),  # singles and pairs mixed
    # FOUR_TWO_SOLO
    ("333345", {rd(K.FOUR_TWO_SOLO, "3")}),
    ("33334B", {rd(K.FOUR_TWO_SOLO, "3")}),
    ("222234", {rd(K.FOUR_TWO_SOLO, "2")}),
    ("2222BA", {rd(K.FOUR_TWO_SOLO, "2")}),
    ("333344", set()),  # singles of one rank (four_two_solo_distinct)
    ("3333BR", set()),  # both jokers attached
    ("33334", set()),
    # FOUR_TWO_PAIR
    ("33334455", {rd(K.FOUR_TWO_PAIR, "3")}),
    ("22223344", {rd(K.FOUR_TWO_PAIR, "2")}),
    ("3333AA22", {rd(K.FOUR_TWO_PAIR, "3")}),
    ("33334444", set()),  # 3333+4444 is not a four with two pairs
    ("AAAA2222", set()),
    ("3333445", set()),
    ("333344556", set()),
    # nothing
    ("", set()),
    ("3456789TJQKA2BR", set()),
]

# Only in `standard`: airplane singles may share a rank.
STANDARD_ONLY = [
    ("33344455", {rd(K.AIRPLANE_SOLO, "4", 2)}),  # 333444+55
    ("KKKAAA22", {rd(K.AIRPLANE_SOLO, "A", 2)}),
    ("333444555777", {rd(K.AIRPLANE_SOLO, "5", 3)}),  # 333444555+777
    ("333444555667", {rd(K.AIRPLANE_SOLO, "5", 3)}),
    # The ambiguity cases: an AIRPLANE of 4 and an AIRPLANE_SOLO of 3; rank of
    # the highest reading (trios 6-7-8, singles 5-5-5).
    ("555666777888", {rd(K.AIRPLANE, "8", 4), rd(K.AIRPLANE_SOLO, "8", 3)}),
    ("333444555666", {rd(K.AIRPLANE, "6", 4), rd(K.AIRPLANE_SOLO, "6", 3)}),
    # trios 3-6 with 777,8 or trios 4-7 with 333,8: the higher reading
    ("3334445556667778", {rd(K.AIRPLANE_SOLO, "7", 4)}),
    # 5 trios 4-8 with 333,99 / 3-7 with 888,99
    ("33344455566677788899", {rd(K.AIRPLANE_SOLO, "8", 5)}),
    # 24 cards: AIRPLANE of 8, AIRPLANE_SOLO of 6 (three readings, the top one is 5-T)
    ("333444555666777888999TTT", {rd(K.AIRPLANE, "T", 8), rd(K.AIRPLANE_SOLO, "T", 6)}),
]

STRICT_ONLY = [
    ("33344455", set()),
    ("KKKAAA22", set()),
    ("333444555777", set()),
    ("333444555667", set()),
    ("555666777888", {rd(K.AIRPLANE, "8", 4)}),
    ("333444555666", {rd(K.AIRPLANE, "6", 4)}),
    ("3334445556667778", set()),
    ("33344455566677788899", set()),
    ("333444555666777888999TTT", {rd(K.AIRPLANE, "T", 8)}),
]

FOUR = [
    ("3", {rd(K.SOLO, "3")}),
    ("B", {rd(K.SOLO, "B")}),
    ("R", {rd(K.SOLO, "R")}),
    ("33", {rd(K.PAIR, "3")}),
    ("22", {rd(K.PAIR, "2")}),
    # joker pairs; the rocket needs all four jokers
    ("BB", {rd(K.PAIR, "B")}),
    ("RR", {rd(K.PAIR, "R")}),
    ("BR", set()),
    ("XD", set()),
    ("BBR", set()),
    ("BRR", set()),
    ("BBRR", {rd(K.ROCKET, "R")}),
    ("333", {rd(K.TRIO, "3")}),
    # bombs of 4..8 cards
    ("3333", {rd(K.BOMB, "3")}),
    ("33333", {rd(K.BOMB, "3")}),
    ("333333", {rd(K.BOMB, "3")}),
    ("3333333", {rd(K.BOMB, "3")}),
    ("33333333", {rd(K.BOMB, "3")}),
    ("22222222", {rd(K.BOMB, "2")}),
    ("33334444", set()),
    ("333344445555", set()),
    # no single attachments, no four-with-attachments
    ("3334", set()),
    ("333B", set()),
    ("33344456", set()),
    ("33344455", set()),
    ("333444555777", set()),
    ("333345", set()),
    ("33334455", set()),
    ("3333BB", set()),
    ("3333BBRR", set()),
    # trio with a pair, including a pair of equal jokers
    ("33344", {rd(K.TRIO_PAIR, "3")}),
    ("333BB", {rd(K.TRIO_PAIR, "3")}),
    ("333RR", {rd(K.TRIO_PAIR, "3")}),
    ("222BB", {rd(K.TRIO_PAIR, "2")}),
    ("333BR", set()),
    ("33333", {rd(K.BOMB, "3")}),  # not a trio with a pair of its own rank
    ("3333344", set()),
    ("3335555", set()),
    ("33333BB", set()),
    # chains as in the 3-player game
    ("34567", {rd(K.CHAIN, "7", 5)}),
    ("JQKA2", set()),
    ("3344556677", {rd(K.PAIR_CHAIN, "7", 5)}),
    ("KKAA22", set()),
    ("333444", {rd(K.AIRPLANE, "4", 2)}),
    ("333444555666", {rd(K.AIRPLANE, "6", 4)}),
    ("555666777888", {rd(K.AIRPLANE, "8", 4)}),
    # airplanes with pairs
    ("3334445566", {rd(K.AIRPLANE_PAIR, "4", 2)}),
    ("333444BB55", {rd(K.AIRPLANE_PAIR, "4", 2)}),
    ("333444RR55", {rd(K.AIRPLANE_PAIR, "4", 2)}),
    ("KKKAAA22BB", {rd(K.AIRPLANE_PAIR, "A", 2)}),
    ("333444555BB6677", {rd(K.AIRPLANE_PAIR, "5", 3)}),
    ("333444BBRR", set()),  # both jokers as attachments (they would be the rocket)
    ("333444555BBRR66", set()),
    ("3334445555", set()),
    ("3333344455", set()),  # attachment of a primal rank
    ("KKKAAA2222", set()),
    ("KKKAAA22", set()),
]


@pytest.mark.parametrize("preset", ["standard", "strict"])
@pytest.mark.parametrize("text, expected", ONE_DECK)
def test_classify_one_deck(engine, preset, text, expected):
    assert readings(engine, text, preset) == expected


@pytest.mark.parametrize("text, expected", STANDARD_ONLY)
def test_classify_standard(engine, text, expected):
    assert readings(engine, text, "standard") == expected


@pytest.mark.parametrize("text, expected", STRICT_ONLY)
def test_classify_strict(engine, text, expected):
    assert readings(engine, text, "strict") == expected


@pytest.mark.parametrize("text, expected", FOUR)
def test_classify_four(engine, text, expected):
    assert readings(engine, text, "four") == expected


def test_known_tables_cover_every_kind():
    seen = {k for _, exp in ONE_DECK + STANDARD_ONLY for k, _, _ in exp}
    assert seen == set(Kind) - {Kind.PASS}
    seen4 = {k for _, exp in FOUR for k, _, _ in exp}
    assert seen4 == set(Kind) - {Kind.PASS, Kind.TRIO_SOLO, Kind.AIRPLANE_SOLO,
                                 Kind.FOUR_TWO_SOLO, Kind.FOUR_TWO_PAIR}


def test_airplane_solo_rank_is_the_highest_reading():
    # docs/rules.md: 333444555666 as AIRPLANE_SOLO is one move of rank 6 (index 3)
    m = reference.parse_move("333444555666", kind="AIRPLANE_SOLO")
    assert (m.rank, m.length) == (3, 3)
    assert RANKS[m.rank] == "6"


def test_classify_accepts_counts_and_moves(engine):
    counts = [3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert [(m.kind, m.rank, m.length) for m in engine.classify(counts)] == [(K.AIRPLANE, 1, 2)]
    m = Move(K.AIRPLANE, counts)
    assert engine.classify(m) == [m]


# ---------------------------------------------------------------------------
# Custom options (a user may build their own Rules)
# ---------------------------------------------------------------------------

def test_option_four_two_solo_distinct_off(engine):
    r = Rules(four_two_solo_distinct=False)
    assert readings(engine, "333344", r) == {rd(K.FOUR_TWO_SOLO, "3")}
    assert readings(engine, "333345", r) == {rd(K.FOUR_TWO_SOLO, "3")}
    assert readings(engine, "333344", "standard") == set()


def test_option_both_jokers_as_kickers(engine):
    r = Rules(both_jokers_as_kickers=True)
    assert readings(engine, "3333BR", r) == {rd(K.FOUR_TWO_SOLO, "3")}
    assert readings(engine, "333444BR", r) == {rd(K.AIRPLANE_SOLO, "4", 2)}
    assert readings(engine, "333BR", r) == set()  # still no pair
    assert readings(engine, "BR", r) == {rd(K.ROCKET, "R")}
    r4 = PRESETS_FOUR.replace(both_jokers_as_kickers=True)
    assert readings(engine, "333444BBRR", r4) == {rd(K.AIRPLANE_PAIR, "4", 2)}
    assert readings(engine, "3333BBRR", r4) == set()  # no four-with-kickers in four


def test_option_solo_kickers_and_four_with_kickers_in_two_decks(engine):
    r = PRESETS_FOUR.replace(solo_kickers=True, four_with_kickers=True)
    assert readings(engine, "3334", r) == {rd(K.TRIO_SOLO, "3")}
    assert readings(engine, "333B", r) == {rd(K.TRIO_SOLO, "3")}
    assert readings(engine, "33344456", r) == {rd(K.AIRPLANE_SOLO, "4", 2)}
    assert readings(engine, "333345", r) == {rd(K.FOUR_TWO_SOLO, "3")}
    assert readings(engine, "33334455", r) == {rd(K.FOUR_TWO_PAIR, "3")}
    assert readings(engine, "3333BBRR", r) == set()  # both jokers attached
    assert readings(engine, "3333BB", r) == set()  # two singles of one rank
    assert readings(engine, "33333", r) == {rd(K.BOMB, "3")}  # not a four with a 3
    assert readings(engine, "3333BBRR", r.replace(both_jokers_as_kickers=True)) == {
        rd(K.FOUR_TWO_PAIR, "3")}


PRESETS_FOUR = ddz_fast.PRESETS["four"]


# ---------------------------------------------------------------------------
# legal_moves: whole lists in the documented order
# ---------------------------------------------------------------------------

def listing(moves):
    return [(m.kind.name, str(m)) for m in moves]


@pytest.mark.parametrize(
    "preset, hand, expected",
    [
        ("standard", "", []),
        ("standard", "3", [("SOLO", "3")]),
        ("standard", "3345", [("SOLO", "3"), ("SOLO", "4"), ("SOLO", "5"), ("PAIR", "33")]),
        ("standard", "R3B3", [("SOLO", "3"), ("SOLO", "B"), ("SOLO", "R"), ("PAIR", "33"),
                              ("ROCKET", "BR")]),
        ("standard", "3334", [("SOLO", "3"), ("SOLO", "4"), ("PAIR", "33"), ("TRIO", "333"),
                              ("TRIO_SOLO", "3334")]),
        ("standard", "33334", [("SOLO", "3"), ("SOLO", "4"), ("PAIR", "33"), ("TRIO", "333"),
                               ("TRIO_SOLO", "3334"), ("BOMB", "3333")]),
        ("standard", "2AAA", [("SOLO", "A"), ("SOLO", "2"), ("PAIR", "AA"), ("TRIO", "AAA"),
                              ("TRIO_SOLO", "AAA2")]),
        ("standard", "33344", [("SOLO", "3"), ("SOLO", "4"), ("PAIR", "33"), ("PAIR", "44"),
                               ("TRIO", "333"), ("TRIO_SOLO", "3334"), ("TRIO_PAIR", "33344")]),
        ("four", "3334", [("SOLO", "3"), ("SOLO", "4"), ("PAIR", "33"), ("TRIO", "333")]),
        ("four", "BBRR", [("SOLO", "B"), ("SOLO", "R"), ("PAIR", "BB"), ("PAIR", "RR"),
                          ("ROCKET", "BBRR")]),
        ("four", "BBR", [("SOLO", "B"), ("SOLO", "R"), ("PAIR", "BB")]),
        ("four", "333333", [("SOLO", "3"), ("PAIR", "33"), ("TRIO", "333"), ("BOMB", "3333"),
                            ("BOMB", "33333"), ("BOMB", "333333")]),
        ("four", "33333BB", [("SOLO", "3"), ("SOLO", "B"), ("PAIR", "33"), ("PAIR", "BB"),
                             ("TRIO", "333"), ("TRIO_PAIR", "333BB"), ("BOMB", "3333"),
                             ("BOMB", "33333")]),
        # kind, then length, then cards, then rank, then attachments
        ("standard", "3456789", [("SOLO", c) for c in "3456789"]
         + [("CHAIN", "34567"), ("CHAIN", "45678"), ("CHAIN", "56789"),
            ("CHAIN", "345678"), ("CHAIN", "456789"), ("CHAIN", "3456789")]),
        ("standard", "3334445", [("SOLO", "3"), ("SOLO", "4"), ("SOLO", "5"), ("PAIR", "33"),
                                 ("PAIR", "44"), ("TRIO", "333"), ("TRIO", "444"),
                                 ("TRIO_SOLO", "3334"), ("TRIO_SOLO", "3335"),
                                 ("TRIO_SOLO", "3444"), ("TRIO_SOLO", "4445"),
                                 ("TRIO_PAIR", "33344"), ("TRIO_PAIR", "33444"),
                                 ("AIRPLANE", "333444")]),
    ],
)
def test_legal_moves_known_lists(engine, preset, hand, expected):
    assert listing(engine.legal_moves(hand, rules=preset)) == expected
    assert listing(engine.legal_moves(hand, PASS, rules=preset)) == expected
    assert listing(engine.legal_moves(hand, None, rules=preset)) == expected


def test_typed_moves_not_card_sets(engine):
    hand = "555666777888"
    std = engine.legal_moves(hand)
    whole = [m for m in std if m.cards == hand]
    assert sorted((m.kind.name, m.rank, m.length) for m in whole) == [
        ("AIRPLANE", 5, 4), ("AIRPLANE_SOLO", 5, 3)]
    strict = [m for m in engine.legal_moves(hand, rules="strict") if m.cards == hand]
    assert [(m.kind.name, m.rank, m.length) for m in strict] == [("AIRPLANE", 5, 4)]
    # one AIRPLANE_SOLO for 333444555666 although it has two readings
    alls = [m for m in engine.legal_moves("333444555666")
            if m.cards == "333444555666" and m.kind == K.AIRPLANE_SOLO]
    assert [(m.rank, m.length) for m in alls] == [(3, 3)]


def test_small_hand_counts_by_kind(engine):
    # 333444555 + 6: trios 3,4,5; airplanes 34, 45, 345; AIRPLANE_SOLO of 2
    # trios take 2 singles from the other cards of the hand.
    moves = engine.legal_moves("3334445556")
    by = {}
    for m in moves:
        by.setdefault(m.kind.name, []).append(str(m))
    assert by["AIRPLANE"] == ["333444", "444555", "333444555"]
    # trios 3-4 + two singles from {5,5,5,6}: 55, 56 ; trios 4-5 + from {3,3,3,6}: 33, 36
    # trios 3-4-5 + three singles from {6}: none
    assert sorted(by["AIRPLANE_SOLO"]) == sorted(["33344455", "33344456", "33444555", "34445556"])
    # TRIO_SOLO: 3 trios x 3 other ranks
    assert len(by["TRIO_SOLO"]) == 9
    # TRIO_PAIR: trio of x with pair of y != x, y in {3,4,5}
    assert len(by["TRIO_PAIR"]) == 6
    assert "FOUR_TWO_SOLO" not in by and "BOMB" not in by
    strict = {m.kind.name: [] for m in engine.legal_moves("3334445556", rules="strict")}
    for m in engine.legal_moves("3334445556", rules="strict"):
        strict[m.kind.name].append(str(m))
    assert sorted(strict["AIRPLANE_SOLO"]) == sorted(["33344456", "34445556"])


def test_airplane_length_limits_from_the_hand(engine):
    def longest(hand, kind):
        return max(m.length for m in engine.legal_moves(hand) if m.kind == kind)

    # docs/rules.md: a 20-card hand allows airplanes of at most 6 trios, 5 with
    # singles, 4 with pairs.
    h1 = "333444555666777888" + "9T"
    assert longest(h1, K.AIRPLANE) == 6
    assert longest(h1, K.AIRPLANE_SOLO) == 5
    h2 = "333444555666" + "778899TT"
    assert longest(h2, K.AIRPLANE_PAIR) == 4
    assert longest(h2, K.AIRPLANE) == 4


def test_no_kinds_of_the_three_player_game_in_four(engine):
    hand = "33334444555566667777888899TTJJQQKKAA22BBRR"
    kinds = {m.kind for m in engine.legal_moves(hand, rules="four")}
    assert not kinds & {K.TRIO_SOLO, K.AIRPLANE_SOLO, K.FOUR_TWO_SOLO, K.FOUR_TWO_PAIR, K.PASS}
    assert {K.SOLO, K.PAIR, K.TRIO, K.TRIO_PAIR, K.CHAIN, K.PAIR_CHAIN, K.AIRPLANE,
            K.AIRPLANE_PAIR, K.BOMB, K.ROCKET} <= kinds


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------

def pm(text, preset="standard", kind=None):
    return reference.parse_move(text, kind, rules=preset)


@pytest.mark.parametrize(
    "preset, hand, last, expected",
    [
        ("standard", "33334444BR", "22",
         [("PASS", "PASS"), ("BOMB", "3333"), ("BOMB", "4444"), ("ROCKET", "BR")]),
        ("standard", "3456789TJQKA2BR", "34567",
         [("PASS", "PASS")]
         + [("CHAIN", c) for c in ("45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA")]
         + [("ROCKET", "BR")]),
        ("standard", "3456789TJQKA2", "BR", [("PASS", "PASS")]),
        ("standard", "AAAA2222", "3333", [("PASS", "PASS"), ("BOMB", "AAAA"), ("BOMB", "2222")]),
        ("standard", "3456", "2", [("PASS", "PASS")]),
        ("standard", "6664", "8883", [("PASS", "PASS")]),
        ("standard", "8883", "6664", [("PASS", "PASS"), ("TRIO_SOLO", "3888")]),
        ("standard", "99944", "88833", [("PASS", "PASS"), ("TRIO_PAIR", "44999")]),
        ("standard", "2B", "A", [("PASS", "PASS"), ("SOLO", "2"), ("SOLO", "B")]),
        ("standard", "R2", "B", [("PASS", "PASS"), ("SOLO", "R")]),
        ("four", "BBRR", "22",
         [("PASS", "PASS"), ("PAIR", "BB"), ("PAIR", "RR"), ("ROCKET", "BBRR")]),
        ("four", "RR22", "BB", [("PASS", "PASS"), ("PAIR", "RR")]),
        ("four", "22222333333", "44444",
         [("PASS", "PASS"), ("BOMB", "22222"), ("BOMB", "333333")]),
        ("four", "2222", "33333", [("PASS", "PASS")]),
        ("four", "333344445", "3456789TJQKA",
         [("PASS", "PASS"), ("BOMB", "3333"), ("BOMB", "4444")]),
    ],
)
def test_legal_responses_known(engine, preset, hand, last, expected):
    got = engine.legal_moves(hand, pm(last, preset), rules=preset)
    assert listing(got) == expected
    assert got[0] is PASS or got[0] == PASS


def test_response_to_a_typed_last(engine):
    # The table holds 555666777888 as an AIRPLANE (of 4) or an AIRPLANE_SOLO (of 3).
    hand = "999TTTJJJQQQ"
    as_plane = engine.legal_moves(hand, pm("555666777888", kind="AIRPLANE"))
    as_solo = engine.legal_moves(hand, pm("555666777888", kind="AIRPLANE_SOLO"))
    assert listing(as_plane) == [("PASS", "PASS"), ("AIRPLANE", "999TTTJJJQQQ")]
    assert listing(as_solo) == [("PASS", "PASS"), ("AIRPLANE_SOLO", "999TTTJJJQQQ")]


# ---------------------------------------------------------------------------
# beats
# ---------------------------------------------------------------------------

BEATS_ONE_DECK = [
    # (a, b, a beats b); kind= given where the text is ambiguous
    ("8883", "6664", True),  # RULES: attachments do not count
    ("6664", "8883", False),
    ("8884", "8883", False),  # equal ranks never beat
    ("4443", "333A", True),
    ("333A", "4443", False),
    ("4", "3", True),
    ("3", "4", False),
    ("3", "3", False),
    ("2", "A", True),
    ("B", "2", True),
    ("R", "B", True),
    ("B", "R", False),
    ("44", "33", True),
    ("22", "AA", True),
    ("4", "33", False),  # different kinds
    ("33", "4", False),
    ("44455", "3334", False),
    ("45678", "34567", True),
    ("456789", "34567", False),  # different lengths never beat
    ("34567", "456789", False),
    ("3456789TJQKA", "3456789TJQK", False),
    ("445566", "334455", True),
    ("44556677", "334455", False),
    ("444555", "333444", True),
    ("444555666", "333444", False),
    ("44455567", "33344489", True),
    ("44455533", "333444AA", True),  # kicker 33 < AA does not matter
    ("333444AA", "44455533", False),
    ("4445556677", "33344499AA", True),
]


def _beats_cases():
    out = []
    for a, b, exp in BEATS_ONE_DECK:
        out.append(("standard", a, None, b, None, exp))
        if not any(x in ("44455533", "333444AA") for x in (a, b)):
            out.append(("strict", a, None, b, None, exp))
    extra = [
        # four-with-two is ranked by its four and is not a bomb
        ("444456", None, "333378", None, True),
        ("333378", None, "444456", None, False),
        ("22223344", None, "AAAA3344", None, True),
        ("44445566", None, "333378", None, False),
        ("3333", None, "222234", None, True),
        ("222234", None, "3333", None, False),
        ("3333", None, "22223344", None, True),
        # bombs
        ("4444", None, "3333", None, True),
        ("3333", None, "4444", None, False),
        ("2222", None, "AAAA", None, True),
        ("3333", None, "3333", None, False),
        ("3333", None, "2", None, True),
        ("3333", None, "22", None, True),
        ("3333", None, "222", None, True),
        ("3333", None, "3456789TJQKA", None, True),
        ("3333", None, "33445566778899TTJJQQKKAA", None, True),
        ("3333", None, "KKKAAA2233", None, True),
        ("2", None, "3333", None, False),
        ("AAA2", None, "3333", None, False),
        # rocket
        ("BR", None, "2222", None, True),
        ("BR", None, "2", None, True),
        ("BR", None, "222234", None, True),
        ("2222", None, "BR", None, False),
        ("BR", None, "BR", None, False),
        ("B", None, "BR", None, False),
        # typed moves of the same cards
        ("555666777888", "AIRPLANE", "444555666777", "AIRPLANE", True),
        ("555666777888", "AIRPLANE", "333444555666", "AIRPLANE_SOLO", False),
        ("555666777888", "AIRPLANE_SOLO", "333444555666", "AIRPLANE_SOLO", True),
        # the highest reading counts: rank 6 (trios 4-5-6) vs rank 6 / rank 5
        ("333444555666", "AIRPLANE_SOLO", "444555666789", None, False),
        ("444555666789", None, "333444555666", "AIRPLANE_SOLO", False),
        ("333444555666", "AIRPLANE_SOLO", "333444555789", None, True),
        ("333444555789", None, "333444555666", "AIRPLANE_SOLO", False),
    ]
    for a, ka, b, kb, exp in extra:
        out.append(("standard", a, ka, b, kb, exp))
    return out


@pytest.mark.parametrize("preset, a, ka, b, kb, expected", _beats_cases())
def test_beats_one_deck(engine, preset, a, ka, b, kb, expected):
    ma, mb = pm(a, preset, ka), pm(b, preset, kb)
    assert engine.beats(ma, mb, rules=preset) is expected


FOUR_BOMBS = [r * n for n in range(4, 9) for r in "3456789TJQKA2"]  # weakest first


def test_four_bomb_order(engine):
    moves = [pm(t, "four") for t in FOUR_BOMBS] + [pm("BBRR", "four")]
    assert [m.kind for m in moves] == [K.BOMB] * 65 + [K.ROCKET]
    for (i, a), (j, b) in itertools.product(enumerate(moves), repeat=2):
        assert engine.beats(a, b, rules="four") is (i > j), (str(a), str(b))


def test_four_bombs_more_cards_beat_fewer_whatever_the_rank(engine):
    b = lambda x, y: engine.beats(pm(x, "four"), pm(y, "four"), rules="four")
    assert b("33333", "2222")
    assert not b("2222", "33333")
    assert b("44444", "33333")
    assert not b("33333", "44444")
    assert b("33333333", "2222222")
    assert b("BBRR", "22222222")
    assert not b("22222222", "BBRR")
    assert b("3333", "BB")
    assert b("3333", "KKKAAA22BB")
    assert not b("KKKAAA22BB", "3333")


def test_four_joker_pairs(engine):
    b = lambda x, y: engine.beats(pm(x, "four"), pm(y, "four"), rules="four")
    assert b("RR", "BB")
    assert not b("BB", "RR")
    assert b("BB", "22")
    assert not b("22", "BB")
    assert not b("BB", "BB")
    assert b("44455", "333RR")  # attachments do not count
    assert not b("333RR", "44455")
    assert not b("R", "BB")


def test_beats_pass(engine):
    three = pm("3")
    assert engine.beats(three, PASS) is True
    assert engine.beats(PASS, three) is False
    assert engine.beats(PASS, PASS) is False
    assert engine.beats(pm("BR"), PASS) is True


def test_beats_errors(engine):
    with pytest.raises(TypeError, match="must be a Move"):
        engine.beats("3", pm("3"))
    with pytest.raises(TypeError, match="must be a Move"):
        engine.beats(pm("3"), None)
    four_two = pm("333345")
    with pytest.raises(ValueError, match="not a FOUR_TWO_SOLO under rules 'four'"):
        engine.beats(four_two, pm("3", "four"), rules="four")
    with pytest.raises(ValueError, match="AIRPLANE_SOLO"):
        engine.beats(pm("33344455"), pm("44455567"), rules="strict")
    bogus = Move._make(K.SOLO, [1] + [0] * 14, 5, 1)
    with pytest.raises(ValueError, match="wrong rank or length"):
        engine.beats(bogus, pm("3"))


# ---------------------------------------------------------------------------
# parse_move
# ---------------------------------------------------------------------------

def test_parse_move_ambiguous_text_needs_kind(engine):
    with pytest.raises(AmbiguousMoveError) as info:
        engine.parse_move("555666777888")
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert "ambiguous" in msg and "AIRPLANE" in msg and "AIRPLANE_SOLO" in msg
    assert "kind" in msg
    for kind in (K.AIRPLANE, "AIRPLANE", "airplane", 8):
        m = engine.parse_move("555666777888", kind)
        assert (m.kind, m.rank, m.length) == (K.AIRPLANE, 5, 4)
    for kind in (K.AIRPLANE_SOLO, "AIRPLANE_SOLO", 9):
        m = engine.parse_move("555666777888", kind=kind)
        assert (m.kind, m.rank, m.length) == (K.AIRPLANE_SOLO, 5, 3)
    # unambiguous under strict
    m = engine.parse_move("555666777888", rules="strict")
    assert (m.kind, m.rank, m.length) == (K.AIRPLANE, 5, 4)
    with pytest.raises(InvalidMoveError, match="not a AIRPLANE_SOLO under rules 'strict'"):
        engine.parse_move("555666777888", kind="AIRPLANE_SOLO", rules="strict")
    with pytest.raises(AmbiguousMoveError, match="ambiguous"):
        engine.parse_move("333444555666")


def test_parse_move_known(engine):
    m = engine.parse_move("8 8 8 3")
    assert (m.kind, m.rank, m.length, str(m)) == (K.TRIO_SOLO, 5, 1, "3888")
    m = engine.parse_move("x,d")
    assert (m.kind, m.rank, str(m)) == (K.ROCKET, 14, "BR")
    m = engine.parse_move("10 J Q K A")
    assert (m.kind, m.rank, m.length, str(m)) == (K.CHAIN, 11, 5, "TJQKA")
    m = engine.parse_move("bb", rules="four")
    assert (m.kind, m.rank) == (K.PAIR, 13)
    m = engine.parse_move("33333", rules="four")
    assert (m.kind, m.rank, m.n_cards) == (K.BOMB, 0, 5)
    for text in ("pass", "PASS", " Pass "):
        assert engine.parse_move(text) == PASS
    assert engine.parse_move("pass", kind="PASS") == PASS
    assert engine.parse_move("3", kind="SOLO") == Move(K.SOLO, "3")


@pytest.mark.parametrize(
    "text, kind, rules, exc, words",
    [
        ("34", None, "standard", InvalidMoveError, ["'34'", "no legal move"]),
        ("", None, "standard", InvalidMoveError, ["no legal move"]),
        ("3334", None, "four", InvalidMoveError, ["no legal move", "four"]),
        ("333345", None, "four", InvalidMoveError, ["no legal move"]),
        ("BR", None, "four", InvalidMoveError, ["no legal move"]),
        ("33", "SOLO", "standard", InvalidMoveError, ["not a SOLO", "PAIR"]),
        ("pass", "SOLO", "standard", InvalidMoveError, ["SOLO"]),
        ("3", "PASS", "standard", InvalidMoveError, ["not PASS"]),
        ("3", "SOLOO", "standard", ValueError, ["unknown move kind"]),
        ("3", 42, "standard", ValueError, ["unknown move kind"]),
        ("3Z", None, "standard", InvalidMoveError, ["unknown card token", "'Z'"]),
        ("33333", None, "standard", InvalidMoveError, ["at most 4"]),
        ("BB", None, "standard", InvalidMoveError, ["low jokers"]),
        ("3" * 9, None, "four", InvalidMoveError, ["at most 8"]),
        ("3", None, "nope", ValueError, ["standard, strict, four"]),
        (None, None, "standard", TypeError, ["str"]),
        (["3"], None, "standard", TypeError, ["str"]),
        ("3", 1.5, "standard", TypeError, ["kind"]),
    ],
)
def test_parse_move_errors(engine, text, kind, rules, exc, words):
    # (text that is no move: InvalidMoveError, a ValueError; a bad kind= or
    # rules= argument: a plain ValueError/TypeError)
    with pytest.raises(exc) as info:
        engine.parse_move(text, kind, rules=rules)
    assert (type(info.value) is InvalidMoveError) == (exc is InvalidMoveError)
    for w in words:
        assert w in str(info.value)


# ---------------------------------------------------------------------------
# legal_moves errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("last", ["33", [2] + [0] * 14, 3, Kind.PAIR, (Kind.PAIR, "33")])
def test_last_must_be_a_move(engine, last):
    with pytest.raises(TypeError, match="last must be a Move"):
        engine.legal_moves("3456", last)


@pytest.mark.parametrize(
    "last_text, made_under, used_under, words",
    [
        ("333345", "standard", "four", ["FOUR_TWO_SOLO", "four"]),
        ("33334455", "standard", "four", ["FOUR_TWO_PAIR", "four"]),
        ("3334", "standard", "four", ["TRIO_SOLO", "four"]),
        ("33344456", "standard", "four", ["AIRPLANE_SOLO", "four"]),
        ("33344455", "standard", "strict", ["AIRPLANE_SOLO", "strict"]),
        ("BB", "four", "standard", ["low jokers"]),
        ("33333", "four", "standard", ["at most 4"]),
        ("BR", "standard", "four", ["ROCKET", "four"]),
    ],
)
def test_last_illegal_under_the_preset(engine, last_text, made_under, used_under, words):
    last = reference.parse_move(last_text, rules=made_under)
    with pytest.raises(ValueError) as info:
        engine.legal_moves("3456789", last, rules=used_under)
    for w in words:
        assert w in str(info.value)


def test_last_with_wrong_rank_or_length(engine):
    bogus = Move._make(K.PAIR, [2] + [0] * 14, 0, 2)
    with pytest.raises(ValueError, match="wrong rank or length"):
        engine.legal_moves("44", bogus)


@pytest.mark.parametrize(
    "hand, last, rules",
    [
        ("333", "33", "standard"),
        ("3333", "3", "standard"),
        ("B", "B", "standard"),
        ("R4", "BR", "standard"),
        ("3333333", "33", "four"),
        ("BBR", "BB", "four"),
        ("3456789TJQKA2" * 4 + "BR", "3", "standard"),
    ],
)
def test_hand_and_last_exceed_the_deck(engine, hand, last, rules):
    with pytest.raises(ValueError, match="cannot both be in play"):
        engine.legal_moves(hand, reference.parse_move(last, rules=rules), rules=rules)


def test_hand_and_last_that_just_fit(engine):
    assert listing(engine.legal_moves("33", pm("33"))) == [("PASS", "PASS")]
    assert listing(engine.legal_moves("333333", pm("33", "four"), rules="four"))[0] == ("PASS", "PASS")


@pytest.mark.parametrize(
    "hand, exc",
    [("33333", ValueError), ("RR", ValueError), ("3Z", ValueError), (None, TypeError),
     ([0] * 14, ValueError), ([1.0] * 15, TypeError)],
)
def test_bad_hand(engine, hand, exc):
    with pytest.raises(exc):
        engine.legal_moves(hand)
