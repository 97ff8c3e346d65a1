"""Action ids of wild-card moves (WildActionSpace; docs/actions.md, "Wild cards").

A wild move's id is the pair (reading id, cards id): the standard action id
of the represented combination, and the lexicographic index of the
substitution (for each rank 3..2 that is not wild, how many wild cards stand
in for it), times 5 plus the cards of the lower wild rank under tiandi.

Checked here against independent computations: the substitutions listed in
lexicographic order by a plain recursion; the represented combinations
looked up in the standard space's table; the number of moves of a reading
by enumerating every set of physical cards and reading it with ``classify``;
the total number of laizi moves against a count that does not go through
the substitutions (a move whose cards are not its reading has exactly one
rank with more cards played than represented: the wild rank).  Every move of
random wild positions (tests/wild_strategies.py) round-trips id <-> move.
"""
import itertools
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast as fast
from ddz_fast import Kind, Move, legal_moves, parse_move
from ddz_fast.actions import ActionSpace, WildActionSpace, _substitution_ranks, \
    _unrank_substitutions, action_space
from ddz_fast._core.ranks import wild_cards_ids
from wild_strategies import wild_hand, wild_position

PRESETS = ["laizi", "tiandi"]
CARDS_SIZE = {"laizi": 2380, "tiandi": 196210 * 5}


def api_wild(wild):
    return wild[0] if len(wild) == 1 else tuple(wild)


def substitutions(most, k=13):
    """Every vector of k counts 0..4 summing to at most `most`, in
    lexicographic order."""
    if k == 0:
        yield ()
        return
    for x in range(min(4, most) + 1):
        for rest in substitutions(most - x, k - 1):
            yield (x,) + rest


def compiled_last(last, preset, wild):
    if last is None:
        return None
    kind, rep, cnt = last
    if kind == Kind.PASS:
        return fast.PASS
    return Move(kind, cnt, rules=preset, wild=api_wild(wild), represents=rep)


def assert_same_moves(got, want):
    """Equal lists of moves; else the first difference (a short message even
    for lists of many thousands of moves)."""
    got, want = list(got), list(want)
    if got != want:
        i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise AssertionError(f"{len(got)} moves against {len(want)}; first difference at {i}: "
                             f"{got[i] if i < len(got) else None} != {want[i] if i < len(want) else None}")


# ---------------------------------------------------------------------------
# The substitution index
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("most", [4, 8])
def test_substitution_index_is_the_lexicographic_position(most):
    listed = np.array(list(substitutions(most)), dtype=np.int64)
    first, n = _substitution_ranks(most)
    assert n == len(listed)
    assert np.array_equal(_unrank_substitutions(np.arange(n), most), listed)
    # the compiled ranking, on moves that read s with every wild card
    # standing in (the wild ranks' own counts: where s is 0)
    for wild in ([5], [0, 12]) if most == 8 else ([5], [12], [0]):
        sel = listed[(listed[:, wild] == 0).all(axis=1)]
        pos = np.flatnonzero((listed[:, wild] == 0).all(axis=1))
        rep = np.zeros((len(sel), 16), dtype=np.uint8)
        rep[:, :13] = sel
        phys = np.zeros((len(sel), 15), dtype=np.uint8)
        total = sel.sum(axis=1)
        if len(wild) == 1:
            keep = total <= 4
            phys[:, wild[0]] = np.minimum(total, 4)
            splits, low = 1, 0
        else:
            keep = total <= 8
            phys[:, wild[0]] = np.minimum(total, 4)
            phys[:, wild[1]] = np.clip(total - 4, 0, 4)
            splits, low = 5, phys[:, wild[0]].astype(np.int64)
        rep, phys, pos, low = rep[keep], phys[keep], pos[keep], np.broadcast_to(low, keep.shape)[keep]
        out = np.empty(len(rep), dtype=np.int64)
        assert wild_cards_ids(rep, phys, sum(1 << x for x in wild), splits, first, out) == -1
        assert np.array_equal(out, pos * splits + low)


@pytest.mark.parametrize("preset", PRESETS)
def test_sizes(preset):
    space = action_space(preset)
    assert isinstance(space, WildActionSpace)
    assert space.reading_size == space.size == len(space) == action_space("standard").size
    assert space.readings is action_space("standard")
    assert space.readings.rules.name == "standard"   # (cached under the preset's name)
    assert space.cards_size == CARDS_SIZE[preset]
    assert space.first_id == 9 and space.n_actions == 9 + space.reading_size
    assert type(action_space("standard")) is ActionSpace


# ---------------------------------------------------------------------------
# Every move of random positions
# ---------------------------------------------------------------------------

def check_moves(space, preset, wild, moves):
    w = api_wild(wild)
    ids = space.ids(moves, wild=w)
    assert ids.dtype == np.int64 and ids.shape == (len(moves), 2)
    assert (ids >= 0).all()
    assert (ids[:, 0] < space.reading_size).all() and (ids[:, 1] < space.cards_size).all()
    # the reading id is the standard id of the represented combination
    std = action_space("standard")
    assert np.array_equal(std.rows[ids[:, 0], :15], moves.represents)
    assert np.array_equal(std.rows[ids[:, 0], 15], moves.kinds)
    # cards id 0 (tiandi: below 5) is no wild card standing in for another rank
    natural = (ids[:, 1] // (5 if len(wild) == 2 else 1)) == 0
    stands_in = [any(m.represents[r] > m.counts[r] for r in range(13) if r not in wild) for m in moves]
    assert natural.tolist() == [not x for x in stands_in]
    # the list's order is the order of the pairs: so the pairs are distinct
    start = 1 if len(moves) and moves[0].kind == Kind.PASS else 0
    key = ids[start:, 0] * space.cards_size + ids[start:, 1]
    assert (np.diff(key) > 0).all()
    assert len({tuple(p) for p in ids.tolist()}) == len(moves)
    back = space.moves(ids, wild=w)
    assert_same_moves(back, moves)
    assert [m.bomb_class for m in back] == [m.bomb_class for m in moves]
    # one at a time, on a sample, with the pair as a tuple and as a list
    for i in range(0, len(moves), max(1, len(moves) // 7)):
        pair = space.move_to_id(moves[i], wild=w)
        assert pair == tuple(ids[i].tolist())
        assert space.id_to_move(pair, wild=w) == moves[i]
        assert space.id_to_move(list(pair), wild=w) == moves[i]
    assert np.array_equal(space.ids(list(moves), wild=w), ids)
    return ids


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_move_of_a_position_round_trips(preset, data):
    wild, last, hand = data.draw(wild_position(preset), label="wild, last, hand")
    space = action_space(preset)
    last_m = compiled_last(last, preset, wild)
    moves = legal_moves(hand, last_m, rules=preset, wild=api_wild(wild))
    ids = check_moves(space, preset, wild, moves)
    mask = space.mask(hand, last_m, wild=api_wild(wild))
    assert mask.shape == (space.reading_size,)
    assert np.flatnonzero(mask).tolist() == sorted(set(ids[:, 0].tolist()))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_masks_of_many_hands(preset, data):
    n = 1 if preset == "laizi" else 2
    wild = data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n, unique=True).map(sorted))
    hands = [data.draw(wild_hand(wild)) for _ in range(3)]
    space = action_space(preset)
    masks = space.masks(np.array(hands, dtype=np.uint8), wild=api_wild(wild))
    assert masks.shape == (3, space.reading_size)
    for hand, mask in zip(hands, masks):
        assert np.array_equal(mask, space.mask(hand, wild=api_wild(wild)))
    batch = fast.legal_moves_batch(np.array(hands, dtype=np.uint8), rules=preset, wild=api_wild(wild))
    assert np.array_equal(space.ids(batch, wild=api_wild(wild)), np.concatenate(
        [space.ids(legal_moves(h, rules=preset, wild=api_wild(wild)), wild=api_wild(wild)) for h in hands]))
    out = np.ones((3, space.reading_size), dtype=bool)
    assert space.masks(np.array(hands, dtype=np.uint8), wild=api_wild(wild), out=out) is out
    assert np.array_equal(out, masks)


@pytest.mark.parametrize("preset, hand, wild", [
    ("laizi", "33455689TJQKA2BR7777", "7"),
    ("tiandi", "3456789TJQKA2B77799", "79"),
    ("tiandi", "3344556688TT99997777", "79"),
])
def test_large_hands(preset, hand, wild):
    space = action_space(preset)
    w = fast.cards.parse_wild(wild, preset)
    check_moves(space, preset, w, legal_moves(hand, rules=preset, wild=wild))


# ---------------------------------------------------------------------------
# How many moves a reading has
# ---------------------------------------------------------------------------

def readings_by_brute_force(space, preset, wild, reading):
    """Every physical set of cards that can be played as `reading` under the
    wild ranks, each checked with classify: the natural ranks give at most
    what is represented, the wild ranks anything the deck holds, the same
    number of cards in all."""
    rep = tuple(int(x) for x in space.rows[reading, :15])
    kind = Kind(int(space.rows[reading, 15]))
    choices = [range(5) if r in wild else range(rep[r] + 1) if r < 13 else [rep[r]]
               for r in range(15)]
    found = []
    for cards in itertools.product(*choices):
        if sum(cards) != sum(rep):
            continue
        ms = [m for m in fast.classify(list(cards), rules=preset, wild=api_wild(wild))
              if m.kind == kind and m.represents == rep]
        assert len(ms) <= 1
        found += ms
    return found


@pytest.mark.parametrize("preset, wild, text_", [
    ("laizi", (4,), "5555"), ("laizi", (4,), "7777"), ("laizi", (4,), "333444"),
    ("laizi", (0,), "3334445566"), ("laizi", (9,), "TTTJJJQQ"), ("laizi", (12,), "3456789"),
    ("tiandi", (4, 6), "5555"), ("tiandi", (4, 6), "77779"), ("tiandi", (0, 12), "3334"),
    ("tiandi", (2, 3), "55556677"),
])
def test_cards_counts_by_brute_force(preset, wild, text_):
    space = action_space(preset)
    kinds = {m.kind for m in fast.classify(text_, rules="standard")}
    for kind in kinds:
        reading = space.readings.move_to_id(Move(kind, text_, rules="standard"))
        found = readings_by_brute_force(space, preset, wild, reading)
        assert space.cards_counts(wild=api_wild(wild))[reading] == len(found) > 0
        ids = space.ids(found, wild=api_wild(wild))
        assert (ids[:, 0] == reading).all()
        assert len(set(ids[:, 1].tolist())) == len(found)
        assert_same_moves(space.moves(ids, wild=api_wild(wild)), found)


def test_laizi_total_by_the_excess_rank():
    # A laizi move with wild rank w whose cards differ from its reading plays
    # more cards than represented at exactly one rank, w; one whose cards
    # are its reading is a move under every wild rank.  So the moves of all
    # thirteen wild ranks together are the pairs (reading, cards) with the
    # same number of cards, jokers as read, at most 4 of a rank and at most
    # one rank with more cards than read: counted here by a walk over the
    # ranks, without substitutions.
    space = action_space("laizi")
    rep = space.rows[:, :13].astype(np.int64)
    off = 20                                      # balance = cards - represented so far
    ways = np.zeros((len(rep), 41, 2), dtype=np.int64)
    ways[:, off, 0] = 1
    for r in range(13):
        grown = np.zeros_like(ways)
        for c in range(5):
            d = c - rep[:, r]
            for dv in np.unique(d):
                sel = d == dv
                e = int(dv > 0)
                src = ways[sel]
                moved = np.zeros_like(src)
                if dv >= 0:
                    moved[:, dv:, e:] = src[:, :41 - dv, :2 - e]
                else:
                    moved[:, :41 + dv, e:] = src[:, -dv:, :2 - e]
                grown[sel] += moved
        ways = grown
    union = int(ways[:, off, :].sum())
    per_rank = [space.n_moves(wild=w) for w in range(13)]
    assert union == space.size + sum(n - space.size for n in per_rank)


# ---------------------------------------------------------------------------
# Errors, pickles
# ---------------------------------------------------------------------------

def test_errors():
    space = action_space("laizi")
    ms = legal_moves("5577", rules="laizi", wild="7")
    with pytest.raises(ValueError, match="pass the deal's wild rank"):
        space.ids(ms)
    with pytest.raises(ValueError, match="draw 1 wild rank"):
        space.ids(ms, wild="79")
    soft = parse_move("5577=5555", rules="laizi", wild="7")
    with pytest.raises(ValueError, match=r"BOMB 5577=5555\) is no move under wild rank 9"):
        space.move_to_id(soft, wild="9")
    with pytest.raises(ValueError, match="is no move under wild rank 9"):
        space.ids(ms, wild=6)      # (rank index 6: the 9)
    with pytest.raises(TypeError, match="must be a Move"):
        space.move_to_id("5577", wild="7")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="item 1 is a str"):
        space.ids([soft, "x"], wild="7")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="a pair"):
        space.id_to_move(5, wild="7")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reading id 28356 is out of range"):
        space.id_to_move((28356, 0), wild="7")
    with pytest.raises(ValueError, match="cards id 2380 is out of range"):
        space.id_to_move((1, 2380), wild="7")
    with pytest.raises(TypeError):
        space.id_to_move((1.0, 0), wild="7")  # type: ignore[arg-type]
    # reading 1 is the 3 alone: one wild card can stand in for it, not for the 4
    three_by_wild = space.move_to_id(parse_move("7=3", rules="laizi", wild="7"), wild="7")
    assert space.id_to_move(three_by_wild, wild="8") == parse_move("8=3", rules="laizi", wild="8")
    with pytest.raises(ValueError, match="names no move under wild rank 3: it puts wild cards in for a wild rank"):
        space.id_to_move(three_by_wild, wild="3")
    four_by_wild = space.move_to_id(parse_move("7=4", rules="laizi", wild="7"), wild="7")
    with pytest.raises(ValueError, match="more wild cards than the reading has"):
        space.id_to_move((1, four_by_wild[1]), wild="7")
    bomb = space.move_to_id(parse_move("7777=5555", rules="laizi", wild="7"), wild="7")
    four_two = space.readings.move_to_id(Move(Kind.FOUR_TWO_SOLO, "555578"))
    with pytest.raises(ValueError, match="do not fit"):   # four 7s for the 5s, one more for the 7
        space.id_to_move((four_two, bomb[1]), wild="7")
    with pytest.raises(TypeError, match="integer dtype"):
        space.moves(np.zeros((2, 2)), wild="7")
    with pytest.raises(ValueError, match=r"shape \(M, 2\)"):
        space.moves(np.zeros(4, dtype=np.int64), wild="7")
    with pytest.raises(ValueError, match="cards id -1"):
        space.moves(np.array([[1, -1]]), wild="7")
    with pytest.raises(TypeError, match="sequence of"):
        space.moves("12", wild="7")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no hand of this game holds more than 20"):
        space.mask("3456789TJQKA" * 2, wild="7")
    with pytest.raises(ValueError, match="wild cards"):
        ActionSpace("laizi")
    with pytest.raises(ValueError, match="no wild cards"):
        WildActionSpace("standard")
    tiandi = action_space("tiandi")
    with pytest.raises(ValueError, match="draw 2 wild ranks"):
        tiandi.ids(ms, wild="7")


def test_mask_into_out():
    space = action_space("laizi")
    out = np.ones(space.reading_size, dtype=bool)      # cleared first
    assert space.mask("57", wild="7", out=out) is out
    assert np.array_equal(out, space.mask("57", wild="7"))
    assert np.flatnonzero(out).tolist() == sorted(
        set(space.ids(legal_moves("57", rules="laizi", wild="7"), wild="7")[:, 0].tolist()))
    with pytest.raises(ValueError, match="shape"):
        space.mask("57", wild="7", out=np.ones(3, dtype=bool))


def test_the_same_pair_under_other_wild_ranks():
    space = action_space("tiandi")
    m = parse_move("5799=5555", rules="tiandi", wild="79")
    pair = space.move_to_id(m, wild="79")
    assert pair[1] % 5 == 1                    # one card of the lower wild rank
    assert str(space.id_to_move(pair, wild="8T")) == "58TT=5555"
    assert str(space.id_to_move(pair, wild=(0, 1))) == "3445=5555"


def test_pickles_and_cache():
    for preset in PRESETS:
        space = action_space(preset)
        assert pickle.loads(pickle.dumps(space)) is space
    assert action_space(fast.Rules(wild="laizi")) is action_space("laizi")
    custom = action_space(fast.Rules(wild="laizi", airplane_solo_distinct=True))
    assert custom.readings is action_space("strict")
