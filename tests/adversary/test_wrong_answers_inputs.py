"""Inputs that used to give a plausible but wrong answer: a Move whose
``__init__`` never ran read as an empty card set, and seeds and game
indices outside their range wrapping to another game."""
import numpy as np
import pytest

import ddz_fast
from ddz_fast import Move, convert, encode
from ddz_fast._util.rng import SplitMix64, game_seed, policy_seed


class _MoveSkippingInit(Move):
    def __init__(self):
        pass


def _uninitialised():
    return [Move.__new__(Move), _MoveSkippingInit()]


_TAKES_A_MOVE = {
    "to_counts": ddz_fast.to_counts,
    "format_cards": ddz_fast.format_cards,
    "card_counts": convert.card_counts,
    "counts_to_douzero": convert.counts_to_douzero,
    "counts_to_rlcard": convert.counts_to_rlcard,
    "encode_counts": encode.encode_counts,
    "encode_douzero": encode.encode_douzero,
    "to_counts_batch": lambda m: convert.to_counts_batch([m]),
    "counts_to_douzero_batch": lambda m: convert.counts_to_douzero_batch([m]),
    "counts_to_rlcard_batch": lambda m: convert.counts_to_rlcard_batch([m]),
    "encode_counts batch": lambda m: encode.encode_counts([m, m]),
    "legal_moves last": lambda m: ddz_fast.legal_moves("33", m),
    "count_moves last": lambda m: ddz_fast.count_moves("33", m),
    "legal_moves_batch lasts": lambda m: ddz_fast.legal_moves_batch([[1] * 15], [m]),
    "beats": lambda m: ddz_fast.beats(m, ddz_fast.parse_move("3")),
    "move_to_id": lambda m: ddz_fast.action_space("standard").move_to_id(m),
    "Move.counts": lambda m: m.counts,
    "Move.cards": lambda m: m.cards,
}


@pytest.mark.parametrize("name", sorted(_TAKES_A_MOVE))
@pytest.mark.parametrize("which", [0, 1], ids=["__new__", "subclass-skipping-init"])
def test_an_uninitialised_move_is_refused_by_every_function_that_takes_a_move(name, which):
    move = _uninitialised()[which]
    with pytest.raises(ValueError, match="uninitialised Move"):
        _TAKES_A_MOVE[name](move)


def test_an_initialised_move_still_converts():
    move = ddz_fast.parse_move("334455")
    assert convert.counts_to_douzero(move) == [3, 3, 4, 4, 5, 5]
    assert convert.counts_to_rlcard(move) == "334455"
    assert encode.encode_counts(move).tolist()[:3] == [2, 2, 2]
    assert convert.counts_to_rlcard(Move(ddz_fast.Kind.PASS)) == "pass"


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1])
@pytest.mark.parametrize("wrap", [2**64, -2**64, 5 * 2**64])
def test_seeds_are_taken_modulo_2_64_everywhere_alike(seed, wrap):
    """The documented seed contract: any int, modulo 2**64, the same for
    SplitMix64, game_seed's seed, policy_seed and Game(seed=...)."""
    assert SplitMix64(seed + wrap).state == seed
    assert game_seed(seed + wrap, 3) == game_seed(seed, 3)
    assert policy_seed(seed + wrap) == policy_seed(seed)
    assert ddz_fast.Game(seed=seed + wrap).snapshot() == ddz_fast.Game(seed=seed).snapshot()


@pytest.mark.parametrize("index", [-1, -2**63 - 1, 2**64, 2**70])
def test_a_game_index_outside_0_to_2_64_is_refused(index):
    with pytest.raises(ValueError, match="game index"):
        game_seed(7, index)


@pytest.mark.parametrize("index", [0, 1, 2**64 - 1, np.uint64(2**64 - 1), np.int8(5)])
def test_game_indices_in_range_are_accepted(index):
    assert game_seed(7, index) == game_seed(7, int(index))


@pytest.mark.parametrize("index", [True, 1.0, None, "1"])
def test_a_game_index_that_is_not_an_int_is_a_type_error(index):
    with pytest.raises(TypeError):
        game_seed(7, index)
