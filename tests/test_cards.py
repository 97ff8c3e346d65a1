"""Cards, their text form and count-vector validation (docs/rules.md, "Cards and ranks").

Known answers are written by hand from the rank table:
index 0..14 = 3 4 5 6 7 8 9 T J Q K A 2 B R.
"""
import itertools
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz_fast
from ddz_fast import RANKS, Kind, Move, PASS, format_cards, parse_cards, to_counts
from ddz_fast.cards import check_counts, rank_index
from ddz_fast.rules import PRESETS


def vec(**by_rank):
    """A 15-slot count vector from keyword counts, e.g. vec(_3=2, T=1, B=1)."""
    out = [0] * 15
    for key, n in by_rank.items():
        out[RANKS.index(key.lstrip("_"))] = n
    return out


# ---------------------------------------------------------------------------
# The rank table
# ---------------------------------------------------------------------------

def test_rank_order_is_the_rules_table():
    assert RANKS == "3456789TJQKA2BR"
    assert len(RANKS) == 15
    expected = {"3": 0, "4": 1, "5": 2, "6": 3, "7": 4, "8": 5, "9": 6, "10": 7, "T": 7,
                "J": 8, "Q": 9, "K": 10, "A": 11, "2": 12, "B": 13, "R": 14, "X": 13, "D": 14}
    for token, index in expected.items():
        assert rank_index(token) == index, token
        assert rank_index(token.lower()) == index, token


@pytest.mark.parametrize("token", ["1", "0", "11", "Z", "", "33", "joker", "S"])
def test_rank_index_unknown_token(token):
    with pytest.raises(ValueError, match="unknown card token"):
        rank_index(token)


# ---------------------------------------------------------------------------
# Parsing: known answers
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, expected",
    [
        ("", [0] * 15),
        ("3", vec(_3=1)),
        ("33", vec(_3=2)),
        ("3456789TJQKA2BR", [1] * 15),
        ("T", vec(T=1)),
        ("10", vec(T=1)),
        ("1010", vec(T=2)),
        ("10T t", vec(T=3)),
        ("jqka", vec(J=1, Q=1, K=1, A=1)),
        ("b r", vec(B=1, R=1)),
        ("X", vec(B=1)),
        ("D", vec(R=1)),
        ("xd", vec(B=1, R=1)),
        ("3 3,4-4+5", vec(_3=2, _4=2, _5=1)),
        ("3, 3 , 10 , x , d", vec(_3=2, T=1, B=1, R=1)),
        ("  2222  ", vec(_2=4)),
        ("A2A2", vec(A=2, _2=2)),
        ("3\t4\n5", vec(_3=1, _4=1, _5=1)),
        ("3/4|5", vec(_3=1, _4=1, _5=1)),
        ("R B 3", vec(_3=1, B=1, R=1)),  # order of input does not matter
    ],
)
def test_parse_cards_known(text, expected):
    got = parse_cards(text)
    assert got.dtype == np.uint8
    assert got.shape == (15,)
    assert got.tolist() == expected
    # to_counts of text agrees
    assert to_counts(text).tolist() == expected


def test_docstring_examples():
    assert parse_cards("3 3 10 x d").tolist() == [2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1]
    assert format_cards([1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 1]) == "3TTBR"


@pytest.mark.parametrize(
    "counts, text",
    [
        ([0] * 15, ""),
        (vec(_3=3, _4=3, T=2, B=1), "333444TTB"),
        ([1] * 15, "3456789TJQKA2BR"),
        (vec(R=1, _3=1), "3R"),
        (vec(_2=4, A=4), "AAAA2222"),
    ],
)
def test_format_cards_canonical(counts, text):
    assert format_cards(counts) == text
    assert format_cards(np.array(counts, dtype=np.int64)) == text
    assert format_cards(tuple(counts)) == text


def test_format_accepts_text_and_canonicalises():
    assert format_cards("x d 10 3 3") == "33TBR"
    assert format_cards("2a") == "A2"


def test_two_deck_text():
    counts = parse_cards("3" * 8 + "BBRR", rules="four")
    assert counts.tolist() == vec(_3=8, B=2, R=2)
    assert format_cards(counts, rules="four") == "33333333BBRR"
    full = "3456789TJQKA2" * 8 + "XXDD"
    c = to_counts(full, rules="four")
    assert c.tolist() == [8] * 13 + [2, 2]
    assert int(c.sum()) == 108


def test_full_single_deck_parses():
    c = to_counts("3456789TJQKA2" * 4 + "BR")
    assert c.tolist() == [4] * 13 + [1, 1]
    assert int(c.sum()) == 54


def test_round_trip_every_single_deck_count_vector_sample():
    """text -> counts -> text -> counts for a structured sample of vectors."""
    for a, b, j1, j2 in itertools.product(range(5), range(5), range(2), range(2)):
        counts = [a, 0, b, 0, 0, 0, 0, (a + b) % 5, 0, 0, 0, b, a, j1, j2]
        text = format_cards(counts)
        assert parse_cards(text).tolist() == counts
        # lower case, separators and the alternative spellings give the same counts
        alt = " , ".join(text.lower()).replace("t", "10").replace("b", "x").replace("r", "d")
        assert parse_cards(alt).tolist() == counts
        assert format_cards(parse_cards(alt)) == text


@st.composite
def spelled(draw):
    """A random count vector of one or two decks, and a random spelling of it."""
    decks = draw(st.sampled_from([1, 2]))
    counts = [draw(st.integers(0, 4 * decks)) for _ in range(13)]
    counts += [draw(st.integers(0, decks)) for _ in range(2)]
    spellings = {"T": ["T", "t", "10"], "B": ["B", "b", "X", "x"], "R": ["R", "r", "D", "d"]}
    tokens = []
    for r, n in enumerate(counts):
        ch = RANKS[r]
        for _ in range(n):
            tokens.append(draw(st.sampled_from(spellings.get(ch, [ch, ch.lower()]))))
    order = draw(st.permutations(range(len(tokens))))
    seps = draw(st.lists(st.sampled_from(["", " ", ",", "-", "+", ", ", " + "]),
                         min_size=len(tokens), max_size=len(tokens)))
    text = "".join(tokens[i] + sep for i, sep in zip(order, seps))
    return counts, text, ("standard" if decks == 1 else "four")


@settings(max_examples=200, deadline=None)
@given(spelled())
def test_any_spelling_round_trips(case):
    counts, text, rules = case
    got = parse_cards(text, rules=rules)
    assert got.tolist() == counts
    canonical = format_cards(got, rules=rules)
    assert canonical == "".join(RANKS[r] * n for r, n in enumerate(counts))
    assert parse_cards(canonical, rules=rules).tolist() == counts
    assert format_cards(text, rules=rules) == canonical


# ---------------------------------------------------------------------------
# to_counts on numbers and arrays
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "cards",
    [
        [2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1],
        (2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1),
        np.array([2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1], dtype=np.uint8),
        np.array([2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1], dtype=np.int64),
        np.array([2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1], dtype=np.int8),
        [np.int32(2)] + [0] * 6 + [np.uint8(1)] + [0] * 5 + [1, 1],
        "33TBR",
    ],
)
def test_to_counts_accepts(cards):
    out = to_counts(cards)
    assert out.dtype == np.uint8 and out.shape == (15,)
    assert out.tolist() == [2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1]


def test_to_counts_returns_a_fresh_array():
    src = np.array([1] * 15, dtype=np.uint8)
    out = to_counts(src)
    out[0] = 0
    assert src[0] == 1


def test_to_counts_of_a_move_is_its_cards():
    m = Move(Kind.TRIO_PAIR, "33344")
    assert to_counts(m).tolist() == vec(_3=3, _4=2)
    assert format_cards(m) == "33344"


# ---------------------------------------------------------------------------
# Bad input: every error names the problem
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, token",
    [
        ("33Z", "Z"),
        ("3 4 ? 5", "?"),
        ("1", "1"),
        ("11", "1"),
        ("0", "0"),
        ("3;4", ";"),
        ("3_4", "_"),
        ("joker", "o"),  # 'j' is a jack; 'o' is the first unknown token
        ("３", "３"),  # full-width digit
        ("3.4", "."),
    ],
)
def test_unknown_token_is_named(text, token):
    with pytest.raises(ValueError) as info:
        parse_cards(text)
    msg = str(info.value)
    assert "unknown card token" in msg
    assert repr(token) in msg
    with pytest.raises(ValueError, match="unknown card token"):
        to_counts(text)


@pytest.mark.parametrize(
    "text, rules, what",
    [
        ("33333", "standard", "5 3s"),
        ("3 3 3 3 3", "strict", "5 3s"),
        ("RR", "standard", "2 high jokers"),
        ("DD", "standard", "2 high jokers"),
        ("BB", "standard", "2 low jokers"),
        ("XX", "strict", "2 low jokers"),
        ("222222222", "four", "9 2s"),
        ("3" * 9, "four", "9 3s"),
        ("BBB", "four", "3 low jokers"),
        ("RRR", "four", "3 high jokers"),
        ("TTTTT", "standard", "5 Ts"),
        ("10101010 10", "standard", "5 Ts"),
    ],
)
def test_more_cards_than_the_deck(text, rules, what):
    with pytest.raises(ValueError) as info:
        parse_cards(text, rules=rules)
    msg = str(info.value)
    assert what in msg
    assert "at most" in msg


def test_deck_limits_are_exact():
    parse_cards("3333", rules="standard")
    parse_cards("B R", rules="standard")
    parse_cards("33333333BBRR", rules="four")
    to_counts([4] * 13 + [1, 1])
    to_counts([8] * 13 + [2, 2], rules="four")
    with pytest.raises(ValueError, match="at most 4"):
        to_counts([4] * 12 + [5, 1, 1])
    with pytest.raises(ValueError, match="at most 1"):
        to_counts([0] * 13 + [2, 0])
    with pytest.raises(ValueError, match="at most 8"):
        to_counts([0] * 12 + [9, 0, 0], rules="four")
    with pytest.raises(ValueError, match="at most 2"):
        to_counts([0] * 14 + [3], rules="four")


@pytest.mark.parametrize(
    "cards",
    [
        [-1] + [0] * 14,
        np.array([0] * 14 + [-1], dtype=np.int64),
        [0, 0, 0, -3] + [0] * 11,
    ],
)
def test_negative_counts(cards):
    with pytest.raises(ValueError, match="negative count"):
        to_counts(cards)


@pytest.mark.parametrize("n", [0, 1, 13, 14, 16, 30])
def test_wrong_length(n):
    with pytest.raises(ValueError, match=f"expected 15 counts, got {n}"):
        to_counts([0] * n)


@pytest.mark.parametrize("shape", [(14,), (16,), (1, 15), (15, 1), (3, 5), ()])
def test_wrong_numpy_shape(shape):
    with pytest.raises(ValueError, match="shape"):
        to_counts(np.zeros(shape, dtype=np.uint8))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, object, np.complex128, "U1"])
def test_non_integer_numpy_dtype(dtype):
    with pytest.raises(TypeError, match="integer dtype"):
        to_counts(np.zeros(15, dtype=dtype))


@pytest.mark.parametrize(
    "cards, slot",
    [
        ([0.0] * 15, 0),
        ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0], 14),
        ([1, 2, 0.5] + [0] * 12, 2),
        ([np.float64(1)] + [0] * 14, 0),
        ([True] + [0] * 14, 0),
        ([0] * 5 + [False] + [0] * 9, 5),
        ([np.bool_(True)] + [0] * 14, 0),
        ([None] * 15, 0),
        (["3"] + [0] * 14, 0),
    ],
)
def test_non_integer_elements(cards, slot):
    with pytest.raises(TypeError) as info:
        to_counts(cards)
    msg = str(info.value)
    assert f"slot {slot}" in msg
    assert "must be an int" in msg


@pytest.mark.parametrize("cards", [None, 3, 3.0, True, b"3456", bytearray(b"33"), object()])
def test_wrong_type(cards):
    with pytest.raises(TypeError):
        to_counts(cards)


@pytest.mark.parametrize("text", [None, 3, b"33", ["3", "3"]])
def test_parse_cards_needs_text(text):
    with pytest.raises(TypeError, match="str"):
        parse_cards(text)


def test_check_counts_messages():
    check_counts([4] * 13 + [1, 1], PRESETS["standard"])
    with pytest.raises(ValueError, match=r"negative count -2 in slot 3 \(6\)"):
        check_counts([0, 0, 0, -2] + [0] * 11, PRESETS["standard"])
    with pytest.raises(ValueError, match="one deck holds at most 4"):
        check_counts([5] + [0] * 14, PRESETS["standard"])
    with pytest.raises(ValueError, match="2 decks holds at most 8"):
        check_counts([9] + [0] * 14, PRESETS["four"])


def test_unknown_preset_in_card_functions():
    for fn in (parse_cards, to_counts, format_cards):
        with pytest.raises(ValueError, match="standard, strict, four"):
            fn("33", rules="nope")


# ---------------------------------------------------------------------------
# The Move value type
# ---------------------------------------------------------------------------

def test_move_fields():
    m = Move(Kind.TRIO_SOLO, "3334")
    assert m.kind is Kind.TRIO_SOLO
    assert m.rank == 0 and m.length == 1
    assert m.counts == tuple(vec(_3=3, _4=1))
    assert isinstance(m.counts, tuple)
    assert m.cards == "3334" and str(m) == "3334"
    assert len(m) == 4 and m.n_cards == 4
    assert not m.is_pass
    arr = m.to_array()
    assert arr.dtype == np.uint8 and arr.tolist() == vec(_3=3, _4=1)
    assert "TRIO_SOLO" in repr(m) and "3334" in repr(m)


def test_pass():
    assert PASS.is_pass
    assert PASS.kind is Kind.PASS
    assert PASS.rank == -1 and PASS.length == 0
    assert PASS.counts == (0,) * 15
    assert str(PASS) == "PASS" and repr(PASS) == "Move(PASS)"
    assert len(PASS) == 0
    assert Move(Kind.PASS) == PASS
    assert Move("PASS", [0] * 15) == PASS
    with pytest.raises(ValueError, match="PASS has no cards"):
        Move(Kind.PASS, "3")


def test_move_equality_and_hash():
    a = Move("AIRPLANE", "555666777888")
    b = Move(Kind.AIRPLANE_SOLO, "555666777888")
    c = Move(8, "5 5 5 6 6 6 7 7 7 8 8 8")
    assert a == c and hash(a) == hash(c)
    assert a != b  # same cards, different kind
    assert len({a, b, c}) == 2
    assert a != "555666777888"
    assert a != PASS


def test_move_is_immutable_and_pickles():
    m = Move(Kind.FOUR_TWO_PAIR, "22223344")
    with pytest.raises(AttributeError):
        m.rank = 3
    with pytest.raises(AttributeError):
        m.kind = Kind.BOMB
    m2 = pickle.loads(pickle.dumps(m))
    assert m2 == m and (m2.rank, m2.length, m2.kind) == (m.rank, m.length, m.kind)
    p = pickle.loads(pickle.dumps(PASS))
    assert p == PASS and p.is_pass


def test_move_cannot_be_reinitialised():
    """Moves are documented as immutable (and are dict keys): calling
    ``__init__`` again on an existing move must not change it."""
    m = Move(Kind.SOLO, "3")
    before = (m.kind, m.counts, m.rank, hash(m))
    try:
        m.__init__(Kind.PAIR, "44")
    except (TypeError, AttributeError, ValueError):
        pass
    assert (m.kind, m.counts, m.rank, hash(m)) == before


def test_pass_singleton_cannot_be_reinitialised():
    # in a child process, so that a failure cannot corrupt PASS for other tests
    code = (
        "from ddz_fast import PASS, Kind\n"
        "try:\n    PASS.__init__(Kind.SOLO, '5')\n"
        "except Exception:\n    pass\n"
        "assert PASS.is_pass and str(PASS) == 'PASS', repr(PASS)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_kind_coerce_accepts_numpy_integers():
    """Kind.coerce takes "a Kind, its integer value or its name"; numpy integer
    scalars (what a kinds column or array yields) are integer values, as they
    are for card counts in to_counts."""
    assert Kind.coerce(np.int64(8)) is Kind.AIRPLANE
    assert Kind.coerce(np.uint8(1)) is Kind.SOLO
    assert Move(np.int32(2), "33") == Move(Kind.PAIR, "33")
    with pytest.raises(TypeError):
        Kind.coerce(np.bool_(True))


def test_move_constructor_accepts_all_card_forms():
    for cards in ("33344", [3, 2] + [0] * 13, np.array([3, 2] + [0] * 13, dtype=np.int16)):
        m = Move("trio_pair", cards)
        assert m.kind is Kind.TRIO_PAIR and m.cards == "33344"


@pytest.mark.parametrize(
    "kind, cards, rules",
    [
        (Kind.PAIR, "34", "standard"),
        (Kind.SOLO, "33", "standard"),
        (Kind.PAIR, "BR", "standard"),
        (Kind.PAIR, "BR", "four"),
        (Kind.BOMB, "33334", "standard"),
        (Kind.CHAIN, "3456", "standard"),
        (Kind.CHAIN, "TJQKA2", "standard"),
        (Kind.AIRPLANE_SOLO, "33344455", "strict"),
        (Kind.AIRPLANE_SOLO, "555666777888", "strict"),
        (Kind.TRIO_SOLO, "3334", "four"),
        (Kind.FOUR_TWO_SOLO, "333345", "four"),
        (Kind.AIRPLANE_PAIR, "3334445555", "standard"),
        (Kind.ROCKET, "BR", "four"),
        (Kind.TRIO, "", "standard"),
    ],
)
def test_move_constructor_rejects_cards_of_another_kind(kind, cards, rules):
    with pytest.raises(ValueError) as info:
        Move(kind, cards, rules=rules)
    msg = str(info.value)
    # names the cards, and either the kind asked for or that they are no move at all
    assert repr(cards) in msg
    assert f"not a {kind.name}" in msg or "no legal move" in msg


def test_move_constructor_bad_arguments():
    with pytest.raises(TypeError, match="needs cards"):
        Move(Kind.SOLO)
    with pytest.raises(ValueError, match="unknown move kind"):
        Move("SOLOO", "3")
    with pytest.raises(ValueError, match="unknown move kind"):
        Move(99, "3")
    with pytest.raises(TypeError):
        Move(True, "3")
    with pytest.raises(TypeError):
        Move(1.0, "3")
    with pytest.raises(ValueError, match="unknown card token"):
        Move(Kind.SOLO, "Z")
    with pytest.raises(ValueError, match="at most"):
        Move(Kind.BOMB, "33333")
    with pytest.raises(ValueError, match="standard, strict, four"):
        Move(Kind.SOLO, "3", rules="nope")


def test_kind_values_are_the_api():
    assert [k.name for k in Kind] == [
        "PASS", "SOLO", "PAIR", "TRIO", "TRIO_SOLO", "TRIO_PAIR", "CHAIN", "PAIR_CHAIN",
        "AIRPLANE", "AIRPLANE_SOLO", "AIRPLANE_PAIR", "FOUR_TWO_SOLO", "FOUR_TWO_PAIR",
        "BOMB", "ROCKET",
    ]
    assert [int(k) for k in Kind] == list(range(15))
    assert Kind.coerce("airplane_solo") is Kind.AIRPLANE_SOLO
    assert Kind.coerce(" Bomb ") is Kind.BOMB
    assert Kind.coerce(14) is Kind.ROCKET
    assert Kind.coerce(Kind.PAIR) is Kind.PAIR


def test_public_namespace():
    for name in ("Kind", "Move", "PASS", "Rules", "PRESETS", "resolve_rules", "RANKS",
                 "parse_cards", "format_cards", "to_counts", "legal_moves", "classify",
                 "beats", "parse_move", "__version__"):
        assert hasattr(ddz_fast, name), name
