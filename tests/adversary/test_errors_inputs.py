"""Every int argument of the card, move, batch, interop and action-space
functions, given any int, NumPy int, bool, float or None, either works or
raises TypeError/ValueError naming the problem: never IndexError, KeyError,
OverflowError or AttributeError (docs/hardening.md, "The contract")."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz_fast
from ddz_fast import actions, cards, convert, encode
from ddz_fast._util.rng import SplitMix64, game_seed, policy_seed

_NP_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]

_EDGES = [0, 1, -1, 15, 16, 255, 256, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**64 + 1,
          10**30, -2**63, -2**63 - 1, -10**30]


def _np_int(draw_value, dtype):
    info = np.iinfo(dtype)
    return dtype(min(max(draw_value, info.min), info.max))


ints_and_junk = st.one_of(
    st.sampled_from(_EDGES),
    st.integers(),
    st.builds(_np_int, st.integers(-2**64, 2**64), st.sampled_from(_NP_INTS)),
    st.booleans(),
    st.sampled_from([np.True_, np.False_]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
)

_SPACE = ddz_fast.action_space("standard")
_HANDS = np.ones((2, 15), np.uint8)


def _move_cards(x):
    return ddz_fast.Move(ddz_fast.Kind.SOLO, [x] + [0] * 14)


# Each takes the one value `x` in one int argument (or in one slot of a
# count vector / one DouZero card).
_CALLS = {
    "ActionSpace.id_to_move": lambda x: _SPACE.id_to_move(x),
    "ActionSpace.moves": lambda x: _SPACE.moves([x]),
    "ActionSpace.moves array": lambda x: _SPACE.moves(np.array([x])),
    "to_counts slot": lambda x: ddz_fast.to_counts([x] + [0] * 14),
    "to_counts array": lambda x: ddz_fast.to_counts(np.array([x] + [0] * 14)),
    "format_cards slot": lambda x: ddz_fast.format_cards([0] * 14 + [x]),
    "legal_moves slot": lambda x: ddz_fast.legal_moves([x] * 15),
    "count_moves slot": lambda x: ddz_fast.count_moves([x] + [1] * 14),
    "classify slot": lambda x: ddz_fast.classify([x] + [0] * 14),
    "Move counts": _move_cards,
    "beats": lambda x: ddz_fast.beats(_move_cards(x), ddz_fast.parse_move("3")),
    "parse_move kind": lambda x: ddz_fast.parse_move("3", x),
    "Move kind": lambda x: ddz_fast.Move(x, "3"),
    "legal_moves_batch threads": lambda x: ddz_fast.legal_moves_batch(_HANDS, threads=x),
    "count_moves threads": lambda x: ddz_fast.count_moves(_HANDS, threads=x),
    "count_moves one-hand threads": lambda x: ddz_fast.count_moves("33", threads=x),
    "legal_moves_batch lasts": lambda x: ddz_fast.legal_moves_batch(_HANDS, [x, None]),
    "legal_moves_batch hands": lambda x: ddz_fast.legal_moves_batch([[x] * 15]),
    "legal_moves_batch lasts rows": lambda x: ddz_fast.legal_moves_batch(
        _HANDS[:1], np.array([[x] + [0] * 14 + [1]]).astype(np.uint8) if isinstance(x, int)
        and 0 <= x < 256 else np.array([[x] * 16])),
    "douzero_to_counts": lambda x: convert.douzero_to_counts([x]),
    "douzero_to_counts array": lambda x: convert.douzero_to_counts(np.array([x])),
    "douzero_to_counts_batch": lambda x: convert.douzero_to_counts_batch([[x], []]),
    "counts_to_douzero": lambda x: convert.counts_to_douzero([x] + [0] * 14),
    "counts_to_douzero_batch": lambda x: convert.counts_to_douzero_batch([[x] + [0] * 14]),
    "counts_to_rlcard": lambda x: convert.counts_to_rlcard([x] + [0] * 14),
    "counts_to_rlcard_batch": lambda x: convert.counts_to_rlcard_batch([[x] + [0] * 14]),
    "to_counts_batch": lambda x: convert.to_counts_batch([[x] + [0] * 14]),
    "to_counts_batch array": lambda x: convert.to_counts_batch(np.array([[x] + [0] * 14])),
    "encode_counts": lambda x: encode.encode_counts([x] + [0] * 14),
    "encode_douzero": lambda x: encode.encode_douzero([[x] + [0] * 14]),
    "SplitMix64": lambda x: SplitMix64(x),
    "SplitMix64.state": lambda x: setattr(SplitMix64(), "state", x),
    "SplitMix64.below": lambda x: SplitMix64(1).below(x),
    "game_seed seed": lambda x: game_seed(x, 0),
    "game_seed index": lambda x: game_seed(0, x),
    "policy_seed": lambda x: policy_seed(x),
    "pack_rows": lambda x: actions.pack_rows(np.array([[x] + [0] * 15])),
    "pack_rows list": lambda x: actions.pack_rows([[x] + [0] * 15]),
    "rank_index": lambda x: cards.rank_index(x),
    "max_hand": lambda x: actions.max_hand(x),
    "action_space rules": lambda x: ddz_fast.action_space(x),
    "MoveList index": lambda x: _index(ddz_fast.legal_moves("345"), x),
    "MoveBatch index": lambda x: _index(ddz_fast.legal_moves_batch(_HANDS), x),
}


def _index(seq, x):
    # (IndexError is the documented answer of MoveList/MoveBatch indexing
    # out of range: the contract allows it there and only there)
    try:
        return seq[x]
    except IndexError as e:
        assert "range" in str(e), e
        return None


@pytest.mark.parametrize("name", sorted(_CALLS))
@settings(max_examples=60, deadline=None)
@given(x=ints_and_junk)
def test_an_int_argument_works_or_raises_a_type_or_value_error(name, x):
    try:
        _CALLS[name](x)
    except (TypeError, ValueError) as e:
        assert str(e), "an exception without a message"


def test_pack_rows_refuses_bytes_that_do_not_fit_its_4_bit_fields():
    """(a byte of 16 or more would spill into the next field's bits)"""
    row = np.zeros((1, 16), np.int64)
    row[0, 3] = 16
    with pytest.raises(ValueError, match="0..15"):
        actions.pack_rows(row)
    row[0, 3] = -1
    with pytest.raises(ValueError, match="0..15"):
        actions.pack_rows(row)
    assert actions.pack_rows(np.ones((2, 16), np.uint8)).tolist() == [int("1" * 16, 16)] * 2


def test_an_action_space_of_tampered_rules_is_a_value_error():
    """Rules whose fields were changed after construction (object.__setattr__)
    are checked before they size the action tables: a ValueError naming the
    game, never an OverflowError from a table size."""
    r = ddz_fast.Rules()
    object.__setattr__(r, "decks", 2**70)
    with pytest.raises(ValueError, match="unsupported game"):
        ddz_fast.action_space(r)


@pytest.mark.parametrize("x, name", [(True, "bool"), (np.bool_(True), "numpy.bool"),
                                     (1.0, "float"), (np.float64(1), "numpy.float64")])
def test_a_refused_int_argument_names_its_type_with_its_module(x, name):
    """NumPy's bool is named numpy.bool, not bool (its __name__ in NumPy 2)."""
    with pytest.raises(TypeError, match=rf"seat must be an int, not {name}$"):
        ddz_fast.Game(seed=1).hand(x)
    with pytest.raises(TypeError, match=rf"n_games must be an int, not {name}$"):
        ddz_fast.play_random_games(x)
