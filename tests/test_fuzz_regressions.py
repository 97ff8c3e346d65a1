"""Regression tests for the bugs found by the fuzzers (tests/fuzz/).

Each test names the bug it pins: the input that used to crash, return a wrong
result or raise an undocumented exception, and the documented outcome now.
"""
import pickle

import pytest

import ddz_fast as ddz
from ddz_fast import Move, reference


def test_uninitialised_move_raises_instead_of_reading_out_of_bounds():
    # Bug: Move.__new__(Move) has kind code -2, and .kind / repr indexed the
    # Kind tuple with it unchecked (read memory before the tuple: garbage or
    # a crash).  Now every use says the Move is uninitialised.
    m = Move.__new__(Move)
    assert repr(m) == "Move(<uninitialised>)"    # repr never raises (debuggers, tracebacks)
    for use in (lambda x: x.kind, lambda x: ddz.legal_moves("3", x),
                lambda x: reference.legal_moves("3", x), lambda x: ddz.beats(x, ddz.PASS),
                lambda x: pickle.loads(pickle.dumps(x))):
        with pytest.raises(ValueError, match="uninitialised Move|kind must be"):
            use(m)


class _SkipsInit(Move):
    def __init__(self):
        pass


def test_move_subclass_that_skips_init_is_rejected():
    with pytest.raises(ValueError, match="uninitialised Move"):
        ddz.legal_moves("33", _SkipsInit())


@pytest.mark.parametrize("args", [
    (99, (0,) * 15, 0, 0),             # kind code past the Kind table
    (-2, (0,) * 15, -1, 0),
    (1, (300,) + (0,) * 14, 0, 1),      # OverflowError before
    (1, (1,) + (0,) * 14, 2**40, 1),    # OverflowError before
    (1, (1,) * 3, 0, 1),
    (1, "3" * 15, 0, 1),
])
def test_move_make_rejects_out_of_range_fields(args):
    # Move._make is what unpickling calls: a forged pickle must not build a
    # Move whose kind indexes past the Kind table.
    with pytest.raises(ValueError):
        Move._make(*args)


@pytest.mark.parametrize("index", [2**63, -(2**63) - 1, 10**30, -(2**70)])
def test_movebatch_huge_index_is_an_index_error(index):
    # Bug: MoveBatch.__getitem__ took a C Py_ssize_t, so a huge index raised
    # OverflowError instead of IndexError (MoveList already said IndexError).
    b = ddz.legal_moves_batch([[1] + [0] * 14])
    with pytest.raises(IndexError):
        b[index]
    with pytest.raises(TypeError):
        b[0.0]
    assert list(b[-1]) == list(ddz.legal_moves([1] + [0] * 14))


@pytest.mark.parametrize("kwargs", [
    dict(n_games=2**63), dict(n_games=10**30),
    dict(n_games=1, first_game=2**64), dict(n_games=1, first_game=-1),
])
def test_play_random_games_out_of_range_counts_are_value_errors(kwargs):
    # Bug: n_games or first_game >= 2**63 raised OverflowError (C Py_ssize_t).
    n = kwargs.pop("n_games")
    with pytest.raises(ValueError):
        ddz.play_random_games(n, **kwargs)


def test_play_random_games_first_game_uses_the_full_64_bit_game_index():
    # first_game up to 2**64 - 1 is allowed (game indices are 64-bit, as in
    # game_seed); game i's seed is game_seed(seed, first_game + i), computed
    # here independently through game_seed (which wraps mod 2**64).
    first = 2**64 - 2
    r = ddz.play_random_games(3, seed=5, first_game=first)
    assert r.game_seeds.tolist() == [ddz.game_seed(5, (first + i) % 2**64) for i in range(3)]


@pytest.mark.parametrize("fn", [ddz.SplitMix64, lambda x: ddz.game_seed(x, 0),
                                lambda x: ddz.game_seed(0, x), ddz.policy_seed])
@pytest.mark.parametrize("bad", [float("inf"), float("nan"), 1.5, "12", None, b"1"])
def test_seeds_must_be_ints(fn, bad):
    # Bug: seeds went through int(), so inf raised OverflowError and 1.5 or
    # "12" were silently truncated or parsed.
    with pytest.raises(TypeError, match="must be an int"):
        fn(bad)


def test_seed_state_setter_must_be_an_int():
    rng = ddz.SplitMix64(3)
    with pytest.raises(TypeError):
        rng.state = float("inf")
    assert rng == ddz.SplitMix64(3)
    import numpy as np
    assert ddz.SplitMix64(np.uint64(2**64 - 1)) == ddz.SplitMix64(-1)   # both mod 2**64


@pytest.mark.parametrize("args, exc", [
    ((3, 0, True, 1, 10**20, 0), ValueError),   # OverflowError (too many digits) before
    ((3, 0, True, 1, -1, 0), ValueError),
    ((3, 7, True, 1, 1, 0), ValueError),        # no such landlord: scores did not sum to zero
    ((10**9, 0, True, 1, 1, 0), ValueError),    # a 10**9-seat tuple before
    ((3, 0, True, 1.5, 0, 0), TypeError),
    ((3, 0, True, 1, 0, 5), ValueError),
])
def test_settle_rejects_arguments_no_deal_has(args, exc):
    with pytest.raises(exc):
        ddz.settle(*args)


class _DuckMove:
    def __init__(self, counts):
        self.kind = 1
        self.counts = counts


@pytest.mark.parametrize("counts, exc", [
    ([1, 2], ValueError),                  # 2 counts: legal_moves copied 15 bytes from a 2-byte buffer
    ([1.5] * 15, TypeError),               # floats were truncated to 1 by np.array(..., uint8)
    ([True] * 15, TypeError),
    ("33", TypeError),
    (None, TypeError),
])
def test_move_like_objects_have_their_counts_checked(counts, exc):
    # Bug: to_counts(obj) for an object with .kind and .counts returned
    # np.array(obj.counts, uint8) after checking only the bounds, so a short
    # list gave a (2,) array (an out-of-bounds read in the fast path) and
    # floats were silently truncated.
    for fn in (ddz.to_counts, ddz.legal_moves, ddz.classify, reference.legal_moves):
        with pytest.raises(exc):
            fn(_DuckMove(counts))


def test_a_real_move_still_works_as_cards():
    m = ddz.parse_move("3334")
    assert ddz.to_counts(m).tolist() == list(m.counts)
    assert list(ddz.legal_moves(m)) == reference.legal_moves(m)


def test_unpickling_a_forged_movelist_is_refused():
    # Bug: MoveList's unpickler trusted its rows; a row with kind byte 255
    # made a Move whose kind indexed past the Kind table (garbage or a crash),
    # and rows that are no legal move were trusted as legal by the kernels.
    from ddz_fast._core.movelist import _movelist_from_rows
    with pytest.raises(ValueError):
        _movelist_from_rows(b"\xff" * 16, "standard")
    with pytest.raises(ValueError):
        _movelist_from_rows(b"\xff" * 16, None)
    with pytest.raises(ValueError):      # 3 threes are no SOLO
        _movelist_from_rows(bytes([3] + [0] * 14 + [1]), "standard")
    ml = ddz.legal_moves("334BR")
    assert pickle.loads(pickle.dumps(ml)) == ml


def test_unpickling_a_forged_movebatch_is_refused():
    import numpy as np
    from ddz_fast._core.movelist import _movebatch_from_arrays
    good = ddz.legal_moves_batch(np.array([[1] * 13 + [0, 0], [0] * 14 + [1]]))
    rows, offsets = np.asarray(good.rows), np.asarray(good.offsets)
    assert pickle.loads(pickle.dumps(good)).rows.tolist() == rows.tolist()
    for bad_rows, bad_offsets in [
        (rows.astype(np.float64), offsets),                        # wrong dtype
        (rows, np.array([0, 5])),                                  # offsets past the rows
        (rows, offsets[::-1]),                                     # offsets going down
        (np.full((1, 16), 255, np.uint8), np.array([0, 1])),       # no kind 255
    ]:
        with pytest.raises(ValueError):
            _movebatch_from_arrays(bad_rows, bad_offsets, "standard")


class _BigDeckRules(ddz.Rules):
    @property
    def max_count(self):
        return 100


class _SkipsChecks(ddz.Rules):
    def __post_init__(self):
        pass


class _BigHands(ddz.Rules):
    @property
    def hand_size(self):
        return 40


def _tampered(**fields):
    r = ddz.Rules()
    for k, v in fields.items():
        object.__setattr__(r, k, v)
    return r


@pytest.mark.parametrize("make_rules", [
    _BigDeckRules,                                  # segfault before: 50 threes reached the kernels
    lambda: _SkipsChecks(players=9, decks=7),
    lambda: _SkipsChecks(solo_kickers=1),
    _BigHands,                                      # the deal would read past the deck
    lambda: _tampered(decks=3),
    lambda: _tampered(players=9),
])
def test_unsound_rules_objects_are_refused_everywhere(make_rules):
    # Bug: a Rules subclass overriding max_count (or skipping __post_init__)
    # passed the Python-level count check with 50 threes and the kernels,
    # which size their work by the deck, crashed (segfault).  Such rules are
    # now refused by resolve_rules/check_rules and the registry.
    r = make_rules()
    for call in (lambda: ddz.legal_moves([50] + [0] * 14, rules=r),
                 lambda: ddz.legal_moves("3", rules=r),
                 lambda: ddz.Game(r, seed=1),
                 lambda: ddz.play_random_games(2, rules=r)):
        with pytest.raises((TypeError, ValueError)):
            call()
    if type(r) is not ddz.Rules:
        # (The pure-Python reference trusts a plain Rules, whose fields only
        # object.__setattr__ can change; it checks every subclass.)
        with pytest.raises((TypeError, ValueError)):
            reference.legal_moves("3", rules=r)


def test_rules_changed_after_registration_cannot_get_cards_past_the_deck():
    # A plain Rules used once (registered: its C struct says one deck) and
    # then changed to two decks behind the frozen dataclass's back: the fast
    # path still checks every hand against the registered deck.
    r = ddz.Rules()
    ddz.legal_moves("3", rules=r)
    object.__setattr__(r, "decks", 2)
    for hand in ([8] * 13 + [0, 0], "33333333"):
        with pytest.raises(ValueError):
            ddz.legal_moves(hand, rules=r)
    with pytest.raises(ValueError):
        ddz.legal_moves_batch([[8] * 13 + [0, 0]], rules=r)


def test_a_sound_rules_subclass_still_works():
    class Mine(ddz.Rules):
        pass
    assert list(ddz.legal_moves("3334BR", rules=Mine())) == reference.legal_moves("3334BR")


def test_parse_move_checks_a_rules_subclass_like_the_reference():
    # Found by the differential fuzzer: the fast parse_move passed a Rules
    # subclass through unchecked, so parse_move("pass", rules=unsound) worked
    # while the reference raised ValueError.
    for engine in (ddz, reference):
        with pytest.raises(ValueError, match="max_count"):
            engine.parse_move("pass", rules=_BigDeckRules())


def test_every_rules_option_set_can_be_registered():
    # Bug (on main since the two airplane-kicker options): the registry
    # allowed 256 option sets (MAX_RULES) but its C table had 64 slots, so
    # the 65th distinct Rules wrote past the table (segfault).  Register all
    # 2 x 2**7 option sets, then check a few of them and the presets against
    # the reference engine.
    import itertools
    names = ["solo_kickers", "four_with_kickers", "airplane_solo_distinct", "four_two_solo_distinct",
             "both_jokers_as_kickers", "airplane_bomb_kickers", "airplane_adjacent_trio_kickers"]
    every = [ddz.Rules(players=p, decks=d, **dict(zip(names, bits)))
             for p, d in ((3, 1), (4, 2)) for bits in itertools.product([False, True], repeat=len(names))]
    assert len(every) == 256
    for r in every:
        ddz.legal_moves("3", rules=r)
    for r in every[::37] + ["standard", "four", "rlcard"]:
        hand = "33334444555BBRR" if ddz.resolve_rules(r).decks == 2 else "3334445556667BR"
        assert list(ddz.legal_moves(hand, rules=r)) == reference.legal_moves(hand, rules=r)


@pytest.mark.parametrize("cards, exc", [
    ([3] * 14 + [2**63], ValueError),         # OverflowError (int64 conversion) before
    ([2**70], ValueError),
    ("masked", TypeError),                      # numpy.ma.MaskError before
])
def test_douzero_cards_out_of_int64_or_masked_are_refused(cards, exc):
    import numpy as np
    convert = pytest.importorskip("ddz_fast.convert")
    if cards == "masked":
        cards = np.ma.masked_array([3, 4, 5], mask=[True, False, False])
    with pytest.raises(exc):
        convert.douzero_to_counts(cards)
    with pytest.raises(exc):
        convert.douzero_to_counts_batch([cards])
    assert convert.douzero_to_counts([3, 3, 20, 30]).tolist() == [2] + [0] * 12 + [1, 1]
