"""Encoders for neural networks: DouZero's 54-slot layout and count vectors.

The 54-slot layout is checked against DouZero's own ``_cards2array`` (from the
real package, imported through tests/optional.py) on thousands of random
hands and moves; the hand-written cases follow DouZero's description (4 slots
a rank, thermometer style, Fortran order, then the two jokers).
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_fast import PASS, legal_moves, legal_moves_batch, parse_move
from ddz_fast.convert import counts_to_douzero
from ddz_fast.encode import DOUZERO_SLOTS, encode_counts, encode_douzero
from optional import require

ONE_DECK = np.array([4] * 13 + [1, 1])


def random_hands(n, seed, deck=ONE_DECK, max_cards=54):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, min(max_cards, int(deck.sum())) + 1, size=n)
    return np.array([rng.multivariate_hypergeometric(deck, int(k)) for k in sizes], dtype=np.uint8)


def test_douzero_layout_by_hand():
    # "33R": rank 3 has 2 cards -> slots 0, 1; the high joker -> slot 53.
    v = encode_douzero("33R")
    assert v.dtype == np.int8 and v.shape == (DOUZERO_SLOTS,)
    assert np.flatnonzero(v).tolist() == [0, 1, 53]
    # "2222B": rank 2 is column 12 -> slots 48..51; the low joker -> slot 52.
    assert np.flatnonzero(encode_douzero("2222B")).tolist() == [48, 49, 50, 51, 52]
    # "4": column 1 -> slot 4 only.
    assert np.flatnonzero(encode_douzero("4")).tolist() == [4]
    assert not encode_douzero(PASS).any()


def test_douzero_equals_cards2array_on_hands():
    env = require("douzero.env.env")
    hs = random_hands(3000, seed=11)
    ours = encode_douzero(hs)
    assert ours.shape == (3000, 54) and ours.dtype == np.int8
    for h, row in zip(hs, ours):
        expected = env._cards2array(counts_to_douzero(h))
        assert expected.dtype == np.int8
        assert np.array_equal(row, expected)
        assert np.array_equal(encode_douzero(h), expected)


def test_douzero_equals_cards2array_on_moves():
    env = require("douzero.env.env")
    hs = random_hands(100, seed=12, max_cards=20)
    batch = legal_moves_batch(hs)
    ours = encode_douzero(batch)
    assert ours.shape == (len(batch.rows), 54)
    assert len(batch.rows) > 2000
    for i, m in enumerate(mv for k in range(len(batch)) for mv in batch[k]):
        assert np.array_equal(ours[i], env._cards2array(counts_to_douzero(m)))
    moves = legal_moves("3334445556BR")
    assert np.array_equal(encode_douzero(moves), [env._cards2array(counts_to_douzero(m)) for m in moves])
    assert np.array_equal(encode_douzero(list(moves)), encode_douzero(moves))
    move = parse_move("TJQKA")
    assert np.array_equal(encode_douzero(move), env._cards2array([10, 11, 12, 13, 14]))


@given(st.tuples(*(st.integers(0, int(c)) for c in ONE_DECK)))
def test_douzero_slots_count_the_cards(counts):
    v = encode_douzero(list(counts))
    # Thermometer: the number of ones in a rank's 4 slots is its count, and
    # the ones come first.
    per_rank = v[:52].reshape(13, 4)
    assert per_rank.sum(axis=1).tolist() == list(counts[:13])
    assert (np.diff(per_rank, axis=1) <= 0).all()
    assert v[52:].tolist() == list(counts[13:])


def test_douzero_rejects_two_decks():
    with pytest.raises(ValueError, match="holds one deck .*'four' use 2 decks"):
        encode_douzero("33", rules="four")
    with pytest.raises(ValueError, match="5 3s .*one deck holds at most 4"):
        encode_douzero([5] + [0] * 14)
    with pytest.raises(ValueError, match=r"row 1: 5 3s"):
        encode_douzero(np.array([[0] * 15, [5] + [0] * 14]))


def test_encoders_bad_input():
    for enc in (encode_douzero, encode_counts):
        with pytest.raises(TypeError, match="integer dtype"):
            enc(np.zeros(15, dtype=np.float64))
        with pytest.raises(TypeError, match="integer dtype"):
            enc(np.zeros((2, 15), dtype=bool))
        with pytest.raises(ValueError, match="shape"):
            enc(np.zeros((2, 14), dtype=np.uint8))
        with pytest.raises(ValueError, match="shape"):
            enc(np.zeros((2, 15, 1), dtype=np.uint8))
        with pytest.raises(ValueError, match="unknown card token"):
            enc("33Z")
        with pytest.raises(ValueError, match="negative"):
            enc(np.array([-1] + [0] * 14))
        with pytest.raises(TypeError):
            enc(3)
    with pytest.raises(TypeError, match="integer or float dtype"):
        encode_counts("3", dtype=bool)
    with pytest.raises(TypeError, match="integer or float dtype"):
        encode_counts("3", dtype=object)


def test_encode_counts():
    v = encode_counts("334R")
    assert v.dtype == np.uint8 and v.tolist() == [2, 1] + [0] * 12 + [1]
    hs = random_hands(50, seed=13)
    f = encode_counts(hs, dtype=np.float32)
    assert f.dtype == np.float32 and f.shape == (50, 15)
    assert np.array_equal(f, hs.astype(np.float32))
    moves = legal_moves("33445566")
    assert np.array_equal(encode_counts(moves), moves.counts)
    assert np.array_equal(encode_counts([m for m in moves]), moves.counts)
    # Two decks are fine for count vectors.
    assert encode_counts([8] * 13 + [2, 2], rules="four").tolist() == [8] * 13 + [2, 2]
    with pytest.raises(ValueError, match="one deck holds at most 4"):
        encode_counts([8] * 13 + [2, 2])
    # The result is a fresh array, not a view of the input.
    assert not np.shares_memory(encode_counts(hs), hs)
