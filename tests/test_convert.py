"""Card conversions to and from DouZero's int lists and RLCard's strings.

Known answers are written by hand from the two engines' documented card
codes: DouZero uses 3..14 for 3..A, 17 for a 2, 20 / 30 for the low / high
joker; RLCard writes ranks as "3456789TJQKA2BR".  Where the real packages are
installed, their own helpers are used as the oracle (RLCard's sorting of card
strings, DouZero's card ints in its deck).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz_fast
from ddz_fast import PASS, legal_moves, legal_moves_batch, parse_move
from ddz_fast.convert import (
    DOUZERO_CARDS,
    counts_to_douzero,
    counts_to_douzero_batch,
    counts_to_rlcard,
    counts_to_rlcard_batch,
    douzero_to_counts,
    douzero_to_counts_batch,
    rlcard_to_counts,
    rlcard_to_counts_batch,
    to_counts_batch,
)
from optional import require

ONE_DECK = np.array([4] * 13 + [1, 1])
TWO_DECKS = np.array([8] * 13 + [2, 2])


def hands(deck=ONE_DECK):
    """Hypothesis strategy: a count vector within `deck`."""
    return st.tuples(*(st.integers(0, int(c)) for c in deck)).map(
        lambda t: np.array(t, dtype=np.uint8)
    )


def random_hands(n, seed, deck=ONE_DECK):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, int(deck.sum()) + 1, size=n)
    return np.array([rng.multivariate_hypergeometric(deck, int(k)) for k in sizes], dtype=np.uint8)


# ---------------------------------------------------------------------------
# DouZero
# ---------------------------------------------------------------------------

def test_douzero_known_hand():
    # 3 3 A 2 B R: slots 0 (x2), 11, 12, 13, 14.
    counts = douzero_to_counts([30, 3, 14, 17, 3, 20])
    assert counts.dtype == np.uint8 and counts.shape == (15,)
    assert counts.tolist() == [2] + [0] * 10 + [1, 1, 1, 1]
    assert counts_to_douzero(counts) == [3, 3, 14, 17, 20, 30]


def test_douzero_deck_matches_douzero_package():
    env = require("douzero.env.env")
    # DouZero's own deck: 4 of each 3..14 and 17, one 20 and one 30.
    assert douzero_to_counts(sorted(env.deck)).tolist() == ONE_DECK.tolist()
    assert counts_to_douzero(ONE_DECK) == sorted(env.deck)


def test_douzero_accepts_moves_and_text():
    move = parse_move("777888TJ")
    assert counts_to_douzero(move) == [7, 7, 7, 8, 8, 8, 10, 11]
    assert counts_to_douzero("2BR") == [17, 20, 30]
    assert counts_to_douzero(PASS) == []
    assert counts_to_douzero(move.to_array()) == counts_to_douzero(move.counts)


@given(hands())
def test_douzero_round_trip(counts):
    ints = counts_to_douzero(counts)
    assert ints == sorted(ints)
    assert all(i in DOUZERO_CARDS for i in ints)
    assert douzero_to_counts(ints).tolist() == counts.tolist()


@settings(max_examples=30)
@given(hands(TWO_DECKS))
def test_douzero_round_trip_two_decks(counts):
    ints = counts_to_douzero(counts, rules="four")
    assert douzero_to_counts(ints, rules="four").tolist() == counts.tolist()


def test_douzero_batch_equals_single():
    hs = random_hands(300, seed=1)
    lists = counts_to_douzero_batch(hs)
    assert lists == [counts_to_douzero(h) for h in hs]
    back = douzero_to_counts_batch(lists)
    assert back.dtype == np.uint8 and back.shape == (300, 15)
    assert np.array_equal(back, hs)
    # Order inside a hand does not matter on the way in.
    shuffled = [list(reversed(x)) for x in lists]
    assert np.array_equal(douzero_to_counts_batch(shuffled), hs)


def test_douzero_batch_of_movelist_and_movebatch():
    moves = legal_moves("33344456BR")
    assert counts_to_douzero_batch(moves) == [counts_to_douzero(m) for m in moves]
    batch = legal_moves_batch(np.ones((1, 15), dtype=np.uint8))
    assert counts_to_douzero_batch(batch) == [counts_to_douzero(m) for m in batch[0]]


def test_douzero_empty_batches():
    assert douzero_to_counts_batch([]).shape == (0, 15)
    assert counts_to_douzero_batch(np.zeros((0, 15), dtype=np.uint8)) == []
    assert counts_to_douzero_batch(np.zeros((2, 15), dtype=np.uint8)) == [[], []]


@pytest.mark.parametrize("bad", [0, 2, 15, 16, 18, 19, 21, 29, 31, -3])
def test_douzero_bad_card_int(bad):
    with pytest.raises(ValueError, match=rf"DouZero card {bad} is not a card; valid: 3\.\.14, 17, 20, 30"):
        douzero_to_counts([3, bad])
    with pytest.raises(ValueError, match=rf"hand 1: DouZero card {bad} is not a card"):
        douzero_to_counts_batch([[3], [4, bad]])


@pytest.mark.parametrize("bad", [[3.0], [True], ["3"], [None], [np.float64(3)]])
def test_douzero_bad_card_type(bad):
    with pytest.raises(TypeError, match="DouZero card"):
        douzero_to_counts(bad)
    with pytest.raises(TypeError, match="hand 0: DouZero card"):
        douzero_to_counts_batch([bad])


@pytest.mark.parametrize("bad", ["3 4", b"34", 3, None, np.zeros((2, 2), dtype=int)])
def test_douzero_bad_container(bad):
    with pytest.raises((TypeError, ValueError)):
        douzero_to_counts(bad)


def test_douzero_bad_array_dtype():
    with pytest.raises(TypeError, match="DouZero cards must be ints"):
        douzero_to_counts(np.array([3.0, 4.0]))
    assert douzero_to_counts(np.array([3, 30])).tolist()[::14] == [1, 1]


def test_douzero_too_many_copies():
    with pytest.raises(ValueError, match=r"5 3s .*one deck holds at most 4"):
        douzero_to_counts([3] * 5)
    with pytest.raises(ValueError, match=r"2 low jokers .*at most 1"):
        douzero_to_counts([20, 20])
    assert douzero_to_counts([20, 20], rules="four").tolist()[13] == 2
    with pytest.raises(ValueError, match=r"9 .*2 decks holds at most 8"):
        douzero_to_counts([17] * 9, rules="four")
    with pytest.raises(ValueError, match=r"row 1: 5 3s .*at most 4"):
        douzero_to_counts_batch([[3], [3] * 5])


def test_counts_to_douzero_bad_counts():
    with pytest.raises(ValueError, match="at most 4"):
        counts_to_douzero([5] + [0] * 14)
    with pytest.raises(TypeError):
        counts_to_douzero(np.zeros(15, dtype=float))
    with pytest.raises(ValueError, match="shape"):
        counts_to_douzero(np.zeros(14, dtype=np.uint8))
    with pytest.raises(ValueError, match=r"row 0: 5 3s"):
        counts_to_douzero_batch(np.array([[5] + [0] * 14]))
    with pytest.raises(ValueError, match=r"row 0: negative count"):
        counts_to_douzero_batch(np.array([[-1] + [0] * 14]))
    with pytest.raises(TypeError, match="integer dtype"):
        counts_to_douzero_batch(np.zeros((1, 15), dtype=np.float32))
    with pytest.raises(TypeError, match="integer dtype"):
        counts_to_douzero_batch(np.zeros((1, 15), dtype=bool))
    with pytest.raises(ValueError, match=r"shape \(N, 15\)"):
        counts_to_douzero_batch(np.zeros((1, 14), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(N, 15\)"):
        counts_to_douzero_batch(np.zeros(15, dtype=np.uint8))
    with pytest.raises(TypeError):
        counts_to_douzero_batch("3344")


# ---------------------------------------------------------------------------
# RLCard
# ---------------------------------------------------------------------------

def test_rlcard_known_strings():
    assert rlcard_to_counts("33444BR").tolist() == [2, 3] + [0] * 11 + [1, 1]
    assert counts_to_rlcard([2, 3] + [0] * 11 + [1, 1]) == "33444BR"
    assert counts_to_rlcard(parse_move("TJQKA")) == "TJQKA"
    # Input order does not matter; output is sorted by rank.
    assert counts_to_rlcard(rlcard_to_counts("R2A3")) == "3A2R"


def test_rlcard_pass_and_empty():
    assert rlcard_to_counts("pass").tolist() == [0] * 15
    assert rlcard_to_counts("").tolist() == [0] * 15
    assert counts_to_rlcard([0] * 15) == "pass"
    assert counts_to_rlcard(PASS) == "pass"
    assert counts_to_rlcard([0] * 15, empty="") == ""
    assert counts_to_rlcard_batch(np.zeros((2, 15), dtype=np.uint8), empty="") == ["", ""]
    with pytest.raises(TypeError, match="empty must be a str"):
        counts_to_rlcard([0] * 15, empty=None)


def test_rlcard_sorting_matches_rlcard():
    utils = require("rlcard.games.doudizhu.utils")
    import functools

    for i, h in enumerate(random_hands(200, seed=2)):
        text = counts_to_rlcard(h, empty="")
        scrambled = "".join(np.random.default_rng(i).permutation(list(text)))
        rl_sorted = "".join(sorted(scrambled, key=functools.cmp_to_key(utils.doudizhu_sort_str)))
        assert text == rl_sorted
        assert rlcard_to_counts(scrambled).tolist() == h.tolist()


@given(hands())
def test_rlcard_round_trip(counts):
    text = counts_to_rlcard(counts)
    assert rlcard_to_counts(text).tolist() == counts.tolist()
    assert text == "pass" or text == ddz_fast.format_cards(counts)


def test_rlcard_batch_equals_single():
    hs = random_hands(300, seed=3)
    texts = counts_to_rlcard_batch(hs)
    assert texts == [counts_to_rlcard(h) for h in hs]
    assert np.array_equal(rlcard_to_counts_batch(texts), hs)
    moves = legal_moves("4445556667BR", parse_move("3337"))
    assert counts_to_rlcard_batch(moves) == [counts_to_rlcard(m) for m in moves]
    assert counts_to_rlcard_batch(moves)[0] == "pass"
    assert rlcard_to_counts_batch([]).shape == (0, 15)


@pytest.mark.parametrize("bad,char,pos", [("33x", "x", 2), ("3 4", " ", 1), ("t", "t", 0),
                                          ("10", "1", 0), ("PASS", "P", 0), ("3é", "é", 1)])
def test_rlcard_bad_characters(bad, char, pos):
    with pytest.raises(ValueError, match=rf"RLCard card {char!r} at position {pos}"):
        rlcard_to_counts(bad)
    with pytest.raises(ValueError, match=rf"item 1: RLCard card {char!r} at position {pos}"):
        rlcard_to_counts_batch(["3", bad])


def test_rlcard_bad_types_and_counts():
    for bad in (3, None, b"33", ["3"]):
        with pytest.raises(TypeError, match="RLCard cards must be a str"):
            rlcard_to_counts(bad)
    with pytest.raises(TypeError, match="item 0"):
        rlcard_to_counts_batch([3])
    with pytest.raises(TypeError):
        rlcard_to_counts_batch("33")
    with pytest.raises(ValueError, match="5 3s .*at most 4"):
        rlcard_to_counts("33333")
    with pytest.raises(ValueError, match="2 low jokers"):
        rlcard_to_counts("BB")
    assert rlcard_to_counts("BB", rules="four").tolist()[13] == 2
    with pytest.raises(ValueError, match=r"row 1: 5 3s"):
        rlcard_to_counts_batch(["3", "33333"])
    with pytest.raises(ValueError, match="at most 4"):
        counts_to_rlcard([5] + [0] * 14)
    with pytest.raises(ValueError, match=r"row 0: 2 high jokers"):
        counts_to_rlcard_batch([[0] * 14 + [2]])


def test_to_counts_batch_inputs():
    hs = random_hands(5, seed=4)
    assert np.array_equal(to_counts_batch(hs), hs)
    assert np.array_equal(to_counts_batch([h.tolist() for h in hs]), hs)
    assert np.array_equal(to_counts_batch([ddz_fast.format_cards(h) for h in hs]), hs)
    moves = list(legal_moves("345678"))
    assert np.array_equal(to_counts_batch(moves), legal_moves("345678").counts)
    with pytest.raises(ValueError, match=r"row 1: .*unknown card token"):
        to_counts_batch(["3", "3Z"])
    with pytest.raises(TypeError, match="batch of card counts"):
        to_counts_batch(5)
