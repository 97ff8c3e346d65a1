"""Dense action ids per rule set (ActionSpace) and legal-action masks.

Sizes are cross-checked against per-kind counts derived by combinatorial
counting (closed forms written out below, and count_by_kind of
tests/test_full_deck_counts.py), not by running the move generator: a space
holds PASS and every move of at most as many cards as the largest hand of the
game (20 with one deck, 33 with two).  Ids and masks
are checked against plain Python lookups over the space's own move table and
against legal_moves; the ranking that computes ids from the cards
(ddz_fast._core.ranks) is checked against the row number of every row of the
table, for every preset and every set of move options.
"""
import pickle

import ddz_fast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_fast import PASS, PRESETS, Kind, Move, Rules, legal_moves, legal_moves_batch, parse_move
from math import comb

from ddz_fast.actions import ActionSpace, action_space, max_hand, pack_rows
from optional import require
from test_full_deck_counts import (FOUR_TABLE, STANDARD_TABLE,
                                   airplane_solo_by_generating_function, count_by_kind, full_deck)

ONE_DECK = np.array([4] * 13 + [1, 1])
TWO_DECKS = np.array([8] * 13 + [2, 2])
PRESET_NAMES = ["standard", "strict", "four", "douzero", "rlcard"]


def random_hands(n, seed, deck=ONE_DECK, max_cards=20):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, max_cards + 1, size=n)
    return np.array([rng.multivariate_hypergeometric(deck, int(k)) for k in sizes], dtype=np.uint8)


def fits(hand, move, deck):
    """Can `move` have been played while `hand` is held (both within the deck)?"""
    return bool((hand + np.array(move.counts) <= deck).all())


K = Kind

# The moves of at most 20 cards (one deck) or 33 (two decks), by kind, in
# closed form (L = length: 13 - L windows of L consecutive ranks in 3..A).
# Only the long kinds lose moves to the limit.
STANDARD_PLAYABLE = {
    **STANDARD_TABLE,
    K.PAIR_CHAIN: sum(13 - n for n in range(3, 11)),  # 2L <= 20: 52
    K.AIRPLANE: sum(13 - n for n in range(2, 7)),  # 3L <= 20: 45
    K.AIRPLANE_PAIR: sum((13 - n) * comb(13 - n, n) for n in range(2, 5)),  # 5L <= 20
    # 4L <= 20, by the generating function of test_full_deck_counts.py
    K.AIRPLANE_SOLO: airplane_solo_by_generating_function(full_deck(PRESETS["standard"]),
                                                          PRESETS["standard"], max_len=5),
}
STRICT_PLAYABLE = {
    **STANDARD_PLAYABLE,
    K.AIRPLANE_SOLO: sum((13 - n) * (comb(13 - n, n) + 2 * comb(13 - n, n - 1))
                         for n in range(2, 6)),
}
FOUR_PLAYABLE = {
    **FOUR_TABLE,
    K.AIRPLANE: sum(13 - n for n in range(2, 12)),  # 3L <= 33: 65
    K.AIRPLANE_PAIR: sum((13 - n) * (comb(15 - n, n) - comb(13 - n, n - 2)) for n in range(2, 7)),
}


@pytest.mark.parametrize("preset, table", [("standard", STANDARD_PLAYABLE), ("strict", STRICT_PLAYABLE),
                                           ("four", FOUR_PLAYABLE)])
def test_sizes_match_independent_counts(preset, table):
    space = action_space(preset)
    rules = PRESETS[preset]
    # PASS plus every lead of the full deck of at most max_hand cards,
    # counted by kind in closed form, and by count_by_kind.
    assert table == count_by_kind(full_deck(rules), rules, max_cards=max_hand(rules))
    assert space.size == len(space) == 1 + sum(table.values())
    kinds, per_kind = np.unique(space.rows[1:, 15], return_counts=True)
    assert {Kind(int(k)): int(n) for k, n in zip(kinds, per_kind)} == table


def test_max_cards_is_the_largest_hand():
    # the landlord's 17 + 3 cards, and 25 + 8 in the four-player game
    assert max_hand(PRESETS["standard"]) == action_space("standard").max_cards == 20
    assert max_hand(PRESETS["four"]) == action_space("four").max_cards == 33
    for preset in PRESET_NAMES:
        space = action_space(preset)
        assert int(space.rows[:, :15].sum(axis=1).max()) == space.max_cards


def per_kind(space):
    kinds, n = np.unique(space.rows[1:, 15], return_counts=True)
    return {Kind(int(k)): int(c) for k, c in zip(kinds, n)}


def test_douzero_size_matches_counting():
    # count_by_kind (test_full_deck_counts.py) counts by combinatorics and
    # models the douzero options (pairs as two singles, both jokers attached).
    rules = PRESETS["douzero"]
    assert per_kind(action_space("douzero")) == count_by_kind(full_deck(rules), rules, max_cards=20)


def test_rlcard_size_matches_counting_and_rlcard():
    rules = PRESETS["rlcard"]
    space = action_space("rlcard")
    counted = count_by_kind(full_deck(rules), rules, max_cards=20)
    ours = per_kind(space)
    # The rlcard options only restrict airplane singles: every other kind is
    # counted as usual.
    assert {k: v for k, v in ours.items() if k != Kind.AIRPLANE_SOLO} == {
        k: v for k, v in counted.items() if k != Kind.AIRPLANE_SOLO}
    # Airplanes with singles of up to 5 trios (20 cards) are RLCard's
    # trio_solo_chain_2..5 card sets, counted from RLCard's own type table.
    utils = require("rlcard.games.doudizhu.utils")
    rl_count = sum(1 for types in utils.CARD_TYPE[0].values()
                   if types[0][0].startswith("trio_solo_chain_"))
    solos = space.rows[1:][space.rows[1:, 15] == Kind.AIRPLANE_SOLO]
    assert int((solos[:, :15].sum(axis=1) <= 20).sum()) == rl_count


def test_known_sizes():
    # 1 + the sums of the closed-form tables above (the sizes given in the
    # project's issue 15, derived there independently) and, for douzero and
    # rlcard, of count_by_kind; RLCard's own space has 27,472 ids too.
    assert action_space("standard").size == 28356
    assert action_space("strict").size == 12655
    assert action_space("four").size == 7952
    assert action_space("douzero").size == 29994
    assert action_space("rlcard").size == 27472


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_table_is_pass_then_full_deck_moves_in_order(preset):
    space = action_space(preset)
    rules = PRESETS[preset]
    full = [rules.max_count] * 13 + [rules.max_jokers] * 2
    rows = space.rows
    assert rows.dtype == np.uint8 and rows.shape == (space.size, 16)
    assert not rows.flags.writeable
    assert not rows[0].any()
    every = legal_moves(full, rules=rules)
    assert np.array_equal(rows[1:], every.rows[every.n_cards <= max_hand(rules)])
    assert space.id_to_move(0) is PASS or space.id_to_move(0) == PASS
    assert space.move_to_id(PASS) == 0
    assert space.rules == rules


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_id_round_trips(preset):
    space = action_space(preset)
    rng = np.random.default_rng(5)
    sample = np.unique(np.concatenate([[0, 1, space.size - 1], rng.integers(0, space.size, 2000)]))
    moves = space.moves(sample)
    for i, m in zip(sample.tolist(), moves):
        assert isinstance(m, Move)
        assert space.move_to_id(m) == i
        # The row of id i holds that move's cards and kind.
        assert space.rows[i, :15].tolist() == list(m.counts)
        assert space.rows[i, 15] == int(m.kind)
    assert space.ids(moves).tolist() == sample.tolist()


def test_typed_moves_have_two_ids():
    space = action_space("standard")
    a = space.move_to_id(Move("AIRPLANE", "555666777888"))
    b = space.move_to_id(Move("AIRPLANE_SOLO", "555666777888"))
    assert a != b
    assert space.rows[a, :15].tolist() == space.rows[b, :15].tolist()
    assert 0 < a < b  # kinds in Kind order


def test_ids_vectorised_equal_single_lookups():
    space = action_space("standard")
    hs = random_hands(200, seed=6)
    batch = legal_moves_batch(hs)
    ids = space.ids(batch)
    assert ids.dtype == np.int64 and ids.shape == (len(batch.rows),)
    # Independent oracle: a dict over the table's rows.
    by_row = {bytes(row): i for i, row in enumerate(space.rows)}
    assert ids.tolist() == [by_row[bytes(r)] for r in batch.rows]
    ml = legal_moves("3334445556BR")
    assert space.ids(ml).tolist() == [space.move_to_id(m) for m in ml]
    assert space.ids(list(ml)).tolist() == space.ids(ml).tolist()
    assert space.ids([]).shape == (0,)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_mask_is_true_exactly_at_legal_moves(preset):
    space = action_space(preset)
    deck = ONE_DECK if PRESETS[preset].decks == 1 else TWO_DECKS
    hands = random_hands(60, seed=7, deck=deck, max_cards=25)
    for h in hands:
        own = [m for m in list(legal_moves(h, rules=preset))[:6] if fits(h, m, deck)]
        for last in (None, *own[:3]):
            mask = space.mask(h, last)
            assert mask.dtype == np.bool_ and mask.shape == (space.size,)
            expected = sorted(space.move_to_id(m) for m in legal_moves(h, last, rules=preset))
            assert np.flatnonzero(mask).tolist() == expected


def test_mask_with_last_move():
    space = action_space("standard")
    last = parse_move("3334")
    mask = space.mask("4445556667BR", last)
    legal = legal_moves("4445556667BR", last)
    assert mask[0]  # PASS
    assert mask.sum() == len(legal)
    assert set(np.flatnonzero(mask).tolist()) == {space.move_to_id(m) for m in legal}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_masks_batch_equals_single(preset):
    space = action_space(preset)
    deck = ONE_DECK if PRESETS[preset].decks == 1 else TWO_DECKS
    hands = random_hands(80, seed=8, deck=deck, max_cards=20)
    masks = space.masks(hands)
    assert masks.shape == (80, space.size) and masks.dtype == np.bool_
    for h, m in zip(hands, masks):
        assert np.array_equal(m, space.mask(h))
    lasts = [None if i % 2 else next(iter(legal_moves(h, rules=preset)), None)
             for i, h in enumerate(hands)]
    # Answering one's own first move is fine as long as the cards fit the deck.
    lasts = [m if m is not None and fits(h, m, deck) else None for h, m in zip(hands, lasts)]
    masks = space.masks(hands, lasts, threads=2)
    for h, last, m in zip(hands, lasts, masks):
        assert np.array_equal(m, space.mask(h, last))
    # Hands as card text or lists of counts give the same masks.
    texts = [ddz_fast.format_cards(h, rules=preset) for h in hands[:10]]
    assert np.array_equal(space.masks(texts), space.masks(hands[:10]))
    assert np.array_equal(space.masks([h.tolist() for h in hands[:10]]), space.masks(hands[:10]))


def test_cached_and_pickled():
    assert action_space("standard") is action_space("standard")
    assert action_space(PRESETS["strict"]) is action_space("strict")
    # A custom Rules equal to a preset shares its space.
    assert action_space(Rules(airplane_solo_distinct=True)) is action_space("strict")
    for preset in PRESET_NAMES:
        space = action_space(preset)
        clone = pickle.loads(pickle.dumps(space))
        assert clone is space
    assert isinstance(action_space(), ActionSpace)
    assert "standard" in repr(action_space()) and "28356" in repr(action_space())


def test_moves_illegal_under_the_rules():
    strict = action_space("strict")
    # Two equal singles on an airplane: legal in standard, not in strict.
    m = Move("AIRPLANE_SOLO", "33344455", rules="standard")
    assert action_space("standard").move_to_id(m) > 0
    with pytest.raises(ValueError, match=r"not a legal move under rules 'strict'"):
        strict.move_to_id(m)
    with pytest.raises(ValueError, match=r"move 1 \(AIRPLANE_SOLO 33344455\) is not a legal move under rules 'strict'"):
        strict.ids([PASS, m])
    # TRIO_SOLO does not exist in the four-player game.
    with pytest.raises(ValueError, match="rules 'four'"):
        action_space("four").move_to_id(parse_move("3334"))
    with pytest.raises(ValueError, match="rules 'four'"):
        action_space("four").ids(legal_moves("3334"))
    # A two-deck bomb is not in the one-deck space.
    big = Move("BOMB", "33333", rules="four")
    with pytest.raises(ValueError, match="rules 'standard'"):
        action_space("standard").move_to_id(big)
    # A move of more cards than any hand holds has no id.
    long_airplane = Move("AIRPLANE", "333444555666777", rules="standard")
    assert action_space("standard").move_to_id(long_airplane) > 0
    seven = Move("AIRPLANE", "333444555666777888999", rules="standard")
    with pytest.raises(ValueError, match="21 cards: no hand of this game holds more than 20"):
        action_space("standard").move_to_id(seven)
    with pytest.raises(ValueError, match="21 cards"):
        action_space("standard").mask([3] * 7 + [0] * 8)


def test_bad_ids_and_types():
    space = action_space("standard")
    for bad in (-1, space.size, 10**20, np.int64(space.size)):
        with pytest.raises(ValueError, match="out of range"):
            space.id_to_move(bad)
    for bad in (True, np.bool_(False), 1.0, np.float32(1), "1", None):
        with pytest.raises(TypeError, match="action id must be an int"):
            space.id_to_move(bad)
    assert space.id_to_move(np.int16(1)) == space.id_to_move(1)
    assert space.id_to_move(np.uint64(2)) == space.id_to_move(2)
    with pytest.raises(TypeError, match="integer dtype"):
        space.moves(np.array([1.0]))
    with pytest.raises(ValueError, match="1-D"):
        space.moves(np.array([[1]]))
    with pytest.raises(ValueError, match="out of range"):
        space.moves([0, space.size])
    with pytest.raises(TypeError):
        space.moves("12")
    with pytest.raises(TypeError, match="must be a Move"):
        space.move_to_id("3334")
    with pytest.raises(TypeError, match="item 1 is a str, not a Move"):
        space.ids([PASS, "3"])
    with pytest.raises(TypeError, match="MoveList, a MoveBatch or a sequence of Move"):
        space.ids(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ValueError, match="one deck holds at most 4"):
        space.mask([5] + [0] * 14)
    with pytest.raises(ValueError, match="cannot both be in play"):
        space.mask("3333", parse_move("3334"))
    with pytest.raises(ValueError, match="unknown rules preset"):
        action_space("nope")
    with pytest.raises(TypeError):
        action_space(3)


def test_pack_rows_layout():
    # Count i in bits 4i..4i+3, the kind in the top 4 bits (hand-computed).
    row = np.zeros((1, 16), dtype=np.uint8)
    row[0, 0], row[0, 14], row[0, 15] = 3, 1, Kind.ROCKET
    assert int(pack_rows(row)[0]) == 3 | (1 << 56) | (int(Kind.ROCKET) << 60)
    keys = pack_rows(action_space("four").rows)
    assert np.unique(keys).size == keys.size


def test_pack_rows_puts_byte_j_in_bits_4j_of_any_rows():
    """Random rows of bytes 0..15 (not only move rows), as uint8, wider
    integers, a list and a strided view, against the key summed in Python;
    a byte of 16..255 in a uint8 array is refused like a wider one."""
    rows = np.random.default_rng(30).integers(0, 16, size=(500, 16), dtype=np.uint8)
    expect = [sum(int(b) << (4 * j) for j, b in enumerate(row)) for row in rows]
    assert pack_rows(rows).tolist() == expect
    assert pack_rows(rows.astype(np.int64)).tolist() == expect
    assert pack_rows(rows[:3].tolist()).tolist() == expect[:3]
    assert pack_rows(np.repeat(rows, 2, axis=0)[::2]).tolist() == expect
    assert pack_rows(np.zeros((0, 16), np.uint8)).dtype == np.uint64
    for byte in (16, 255):
        bad = rows.copy()
        bad[321, 15] = byte
        with pytest.raises(ValueError, match="0..15"):
            pack_rows(bad)
    with pytest.raises(ValueError, match="shape"):
        pack_rows(rows[:, :15])


@settings(max_examples=60)
@given(st.tuples(*(st.integers(0, int(c)) for c in ONE_DECK)).filter(lambda t: sum(t) <= 20))
def test_mask_property(hand):
    space = action_space("strict")
    mask = space.mask(list(hand))
    moves = space.moves(np.flatnonzero(mask))
    assert moves == list(legal_moves(list(hand), rules="strict"))


def test_mask_into_a_given_array():
    space = action_space("standard")
    buf = np.ones(space.size, dtype=bool)  # stale content must be cleared
    got = space.mask("3345", out=buf)
    assert got is buf
    assert np.array_equal(buf, space.mask("3345"))
    hands = random_hands(5, seed=9)
    many = np.ones((5, space.size), dtype=bool)
    assert space.masks(hands, out=many) is many
    assert np.array_equal(many, space.masks(hands))
    with pytest.raises(TypeError, match="dtype bool"):
        space.mask("3", out=np.zeros(space.size, dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(28356,\)"):
        space.mask("3", out=np.zeros(10, dtype=bool))
    with pytest.raises(ValueError, match=r"shape \(5, 28356\)"):
        space.masks(hands, out=np.zeros((4, space.size), dtype=bool))
    with pytest.raises(ValueError, match="C-contiguous and writeable"):
        space.mask("3", out=np.zeros(2 * space.size, dtype=bool)[::2])
    ro = np.zeros(space.size, dtype=bool)
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="C-contiguous and writeable"):
        space.mask("3", out=ro)
    with pytest.raises(TypeError, match="numpy array"):
        space.mask("3", out=[False] * space.size)


@pytest.mark.parametrize("preset", ["standard", "four"])
def test_mask_reusing_one_out_array_equals_a_fresh_mask(preset):
    """Passing the same out= array call after call (only the entries the last
    call set are cleared) gives exactly a fresh mask every time, also after a
    call that failed part way and when two arrays take turns."""
    space = action_space(preset)
    deck = ONE_DECK if preset == "standard" else [8] * 13 + [2, 2]
    hands = random_hands(60, seed=21, deck=deck, max_cards=max_hand(space.rules))
    one = np.zeros(space.size, dtype=bool)
    two = np.ones(space.size, dtype=bool)
    too_many = [space.rules.max_count] * 13 + [space.rules.max_jokers] * 2
    for i, h in enumerate(hands):
        expected = space.mask(h)
        buf = one if i % 3 else two
        assert space.mask(h, out=buf) is buf
        assert np.array_equal(buf, expected), i
        if i % 7 == 0:  # a hand with moves beyond any hand of the game: refused part way
            with pytest.raises(ValueError, match="no action id"):
                space.mask(too_many, out=buf)
            assert np.array_equal(buf, expected), i  # left as it was
    one[:] = False  # clearing it yourself is always safe
    assert np.array_equal(space.mask(hands[0], out=one), space.mask(hands[0]))


@pytest.mark.parametrize("preset", ["standard", "four"])
def test_mask_into_one_out_array_shared_by_several_spaces_equals_a_fresh_mask(preset):
    """Several ActionSpace objects of one rules writing one out= array in any
    order: each call gives exactly a fresh mask, whoever wrote the array
    last."""
    spaces = [ActionSpace(preset), ActionSpace(preset), action_space(preset)]
    deck = ONE_DECK if preset == "standard" else [8] * 13 + [2, 2]
    hands = random_hands(60, seed=34, deck=deck, max_cards=max_hand(spaces[0].rules))
    shared = np.zeros(spaces[0].size, dtype=bool)
    own = np.zeros(spaces[0].size, dtype=bool)
    rng = np.random.default_rng(34)
    for i, h in enumerate(hands):
        space = spaces[rng.integers(len(spaces))]
        expected = space.mask(h)
        assert np.array_equal(space.mask(h, out=shared), expected), i
        if i % 5 == 0:     # another array in between: the shared one is still known
            spaces[0].mask(hands[i - 1], out=own)


def test_mask_of_a_space_never_initialised_is_refused():
    """An ActionSpace made without __init__ has no ids: mask refuses it, and
    the ids of a space are given once."""
    blank = ActionSpace.__new__(ActionSpace)
    with pytest.raises(TypeError, match="ActionSpace was never initialised"):
        blank.mask("3345")
    from ddz_fast._core.ranks import MoveRanks

    with pytest.raises(TypeError, match="set once"):
        action_space("standard")._set_ranks(MoveRanks("standard", 20), rules=Rules(), max_cards=20,
                                            moves=legal_moves("3"))
    assert np.flatnonzero(action_space("standard").mask("3345")).tolist() == [1, 2, 3, 16]


def test_mask_out_refuses_subclasses_and_masked_arrays():
    space = action_space("standard")

    class Flags(np.ndarray):
        pass

    for bad in (np.ma.zeros(space.size, dtype=bool), np.zeros(space.size, dtype=bool).view(Flags)):
        with pytest.raises(TypeError, match="plain numpy.ndarray"):
            space.mask("3345", out=bad)
        with pytest.raises(TypeError, match="plain numpy.ndarray"):
            space.masks(random_hands(2, seed=1), out=np.zeros((2, space.size), dtype=bool).view(type(bad)))


def test_mask_out_from_several_threads():
    import threading

    space = action_space("standard")
    hands = random_hands(40, seed=5)
    expected = [space.mask(h) for h in hands]
    errors = []

    def work(seed):
        buf = np.zeros(space.size, dtype=bool)
        order = np.random.default_rng(seed).permutation(len(hands))
        for _ in range(5):
            for i in order:
                if not np.array_equal(space.mask(hands[i], out=buf), expected[i]):
                    errors.append(i)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize("preset", PRESETS)
def test_every_id_is_found_from_its_row(preset):
    space = action_space(preset)
    assert space._lookup.find(space.rows).tolist() == list(range(space.size))



def _rows_with_ids(space):
    """Every id's row, found by a plain dict over the space's own table."""
    return {bytes(row): i for i, row in enumerate(space.rows)}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_ranking_gives_every_id_of_the_table(preset):
    """MoveRanks computes each id from the cards: it equals the row number of
    every row of the table, in a shuffled order too."""
    from ddz_fast._core.ranks import MoveRanks

    space = action_space(preset)
    ranks = MoveRanks(preset, max_hand(space.rules))
    assert ranks.n_rows == space.size
    assert np.array_equal(ranks.table, space.rows) and not ranks.table.flags.writeable
    assert ranks.find(space.rows).tolist() == list(range(space.size))
    order = np.random.default_rng(7).permutation(space.size)
    assert ranks.find(space.rows[order]).tolist() == order.tolist()


def _move_option_rules():
    from itertools import product

    from ddz_fast.rules import MOVE_OPTIONS

    for values in product([False, True], repeat=len(MOVE_OPTIONS)):
        options = dict(zip(MOVE_OPTIONS, values))
        yield Rules(**options)
        if not options["solo_kickers"]:
            # (two decks with single kickers make a full-deck list far too
            # long to build here)
            yield Rules(players=4, decks=2, **options)


def test_ranking_fits_every_set_of_move_options():
    """Every set of move options (3 players; 4 players without single
    kickers): the ranking built from the space's table gives every id back
    (ActionSpace builds it, and building checks every row)."""
    from ddz_fast._core.ranks import MoveRanks

    seen = 0
    for rules in _move_option_rules():
        space = ActionSpace(rules)
        ranks = MoveRanks(rules, max_hand(rules))
        assert ranks.find(space.rows).tolist() == list(range(space.size)), rules
        seen += 1
    assert seen == 128 + 64


def test_mask_equals_the_ids_of_the_legal_moves_under_every_set_of_move_options():
    """The mask writes most ids straight from the generators (their id
    mode), the other moves ranked from rows: under every set of move
    options it is the set of ids of legal_moves, for hands rich in fours,
    trios, pairs and jokers, as a fresh array and into a reused one."""
    crafted = ["33334444555666BR", "3333444455556666", "444555667788BR22",
               "33344455566677788899", "KKKAAA2222BR34", "3344556677889TTJJQ", "BR", "2222B"]
    seen = 0
    for rules in _move_option_rules():
        space = ActionSpace(rules)
        deck = np.array([rules.max_count] * 13 + [rules.max_jokers] * 2)
        rng = np.random.default_rng(seen)
        hands = [rng.multivariate_hypergeometric(deck, int(k)) for k in rng.integers(12, 21, size=12)]
        hands += [ddz_fast.to_counts(t, rules=rules) for t in crafted]
        buf = np.zeros(space.size, dtype=bool)
        for h in hands:
            h = np.asarray(h, dtype=np.uint8)
            lead = legal_moves(h, rules=rules)
            for last in (None, *[m for m in list(lead)[:40:7] if fits(h, m, deck)]):
                expected = sorted(space.ids(legal_moves(h, last, rules=rules)).tolist())
                assert np.flatnonzero(space.mask(h, last)).tolist() == expected, (rules, h, last)
                space.mask(h, last, out=buf)
                assert np.flatnonzero(buf).tolist() == expected, (rules, h, last)
        seen += 1
    assert seen == 128 + 64


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32 - 1))
def test_ranking_never_gives_an_id_to_a_row_not_in_the_table(preset, seed):
    """Rows near the table's (one count or the kind changed) and rows of
    random bytes: the id found is -1 or the id whose row it is."""
    space = action_space(preset)
    known = _rows_with_ids(space)
    rng = np.random.default_rng(seed)
    rows = space.rows[rng.integers(0, space.size, size=400)].copy()
    slot = rng.integers(0, 16, size=400)
    rows[np.arange(400), slot] += rng.integers(1, 3, size=400).astype(np.uint8)
    noise = rng.integers(0, 256, size=(200, 16), dtype=np.uint8)
    small = rng.integers(0, 5, size=(200, 16), dtype=np.uint8)
    small[:, 15] = rng.integers(0, 16, size=200)
    rows = np.concatenate([rows, noise, small])
    want = [known.get(bytes(row), -1) for row in rows]
    assert space._lookup.find(rows).tolist() == want


def test_ranking_not_built_finds_nothing():
    from ddz_fast._core.lookup import ReusedMask
    from ddz_fast._core.ranks import MoveRanks

    rows = action_space("standard").rows
    blank = MoveRanks.__new__(MoveRanks)
    assert blank.n_rows == 0
    assert blank.find(rows[:3].copy()).tolist() == [-1, -1, -1]
    with pytest.raises(ValueError, match="never initialised"):
        blank.legal_mask("3", None, ReusedMask(blank), None)
    built = MoveRanks("standard", 20)
    with pytest.raises(TypeError, match="once"):
        built.__init__("strict", 20)
    with pytest.raises(ValueError, match="over this MoveRanks"):
        built.legal_mask("3", None, ReusedMask(blank), None)


def test_translated_ids_renumber_the_moves_of_a_space():
    from ddz_fast._core.ranks import TranslatedIds, space_ranks

    ranks = space_ranks("standard")
    of_move = np.arange(ranks.n_rows)[::-1] % 1000          # many moves to one id
    of_move[5] = -1
    t = TranslatedIds(ranks, of_move, 1000)
    assert t.n_rows == 1000
    rows = ranks.table[[0, 5, 7]].copy()
    assert t.find(rows).tolist() == [of_move[0], -1, of_move[7]]
    assert np.flatnonzero(t.mask(rows[[0, 2]].copy())).tolist() == sorted({of_move[0], of_move[7]})
    with pytest.raises(KeyError):
        t.mask(rows)
    nonsense = np.full((1, 16), 9, dtype=np.uint8)         # no move of the space
    assert t.find(nonsense).tolist() == [-1]
    with pytest.raises(ValueError, match="shape"):
        TranslatedIds(ranks, of_move[:-1], 1000)
    with pytest.raises(ValueError, match="ids -1 .. 999"):
        TranslatedIds(ranks, of_move + 1, 1000)
