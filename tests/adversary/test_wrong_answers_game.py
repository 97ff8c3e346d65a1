"""Game-side answers are exact for every integer type a caller may pass:
``settle`` computes with Python ints (zero-sum, a winning landlord
positive, no wraparound whatever NumPy dtype comes in), and seats are
never read modulo the table (``hand(-1)``, ``hand(True)``)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_fast import Game
from ddz_fast.game import MAX_BASE, settle

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@settings(max_examples=200, deadline=None)
@given(players=st.sampled_from([3, 4]), data=st.data(), won=st.sampled_from([True, False, np.True_, np.False_]),
       dtype=st.sampled_from(DTYPES))
def test_settle_is_exact_for_every_numpy_dtype(players, data, won, dtype):
    top = 14 if players == 3 else 27
    landlord = data.draw(st.integers(0, players - 1))
    base = data.draw(st.integers(1, MAX_BASE))
    bombs = data.draw(st.integers(0, top))
    spring = data.draw(st.integers(0, 2))
    doubles = data.draw(st.integers(0, players))
    args = [players, landlord, base, bombs, spring, doubles]
    if any(x > np.iinfo(dtype).max for x in args):
        return
    cast = [dtype(x) for x in args]
    value, scores = settle(cast[0], cast[1], won, *cast[2:])
    assert type(value) is int and all(type(x) is int for x in scores)
    assert (value, scores) == settle(*args[:2], bool(won), *args[2:])
    assert value == base << (bombs + doubles + (1 if spring else 0))
    assert sum(scores) == 0 and len(scores) == players
    assert (scores[landlord] > 0) == bool(won)


@pytest.mark.parametrize("name,value", [("base", MAX_BASE + 1), ("base", np.uint64(2**64 - 1)),
                                        ("bombs", np.int64(15)), ("spring", np.int8(-1)),
                                        ("doubles", np.uint8(4)), ("landlord", 3)])
def test_settle_out_of_range_names_the_argument(name, value):
    args = dict(players=3, landlord=0, landlord_won=True, base=1, bombs=0, spring=0, doubles=0)
    args[name] = value
    with pytest.raises(ValueError, match=name):
        settle(**args)


@pytest.mark.parametrize("name", ["players", "landlord", "base", "bombs", "spring", "doubles"])
@pytest.mark.parametrize("value", [True, np.True_, 1.0, None, "1"])
def test_settle_non_ints_are_type_errors(name, value):
    args = dict(players=3, landlord=0, landlord_won=True, base=1, bombs=0, spring=0, doubles=0)
    args[name] = value
    with pytest.raises(TypeError, match=name):
        settle(**args)


def test_settle_landlord_won_takes_bools_only():
    assert settle(3, 0, np.True_, 1, 0, 0) == settle(3, 0, True, 1, 0, 0)
    for bad in (1, np.int8(1), None, "yes"):
        with pytest.raises(TypeError, match="landlord_won"):
            settle(3, 0, bad, 1, 0, 0)


@pytest.mark.parametrize("seat", [-1, 3, 2**64, np.int64(-1), np.uint8(3)])
def test_hand_refuses_seats_outside_the_table(seat):
    with pytest.raises(ValueError, match="seat"):
        Game(seed=1).hand(seat)


@pytest.mark.parametrize("seat", [True, False, np.True_, 1.0, None])
def test_hand_refuses_non_int_seats(seat):
    with pytest.raises(TypeError, match="seat"):
        Game(seed=1).hand(seat)


def test_hand_takes_numpy_ints_as_their_value():
    g = Game(seed=1)
    for seat in range(3):
        for t in (np.int8, np.uint64, int):
            assert np.array_equal(g.hand(t(seat)), g.hands[seat])
