"""The wild-card oracle (``reference.wild_moves`` and friends) on its own.

Known answers were worked out by hand from docs/rules.md ("Wild cards");
the properties check every list against the rules' definitions, and a brute
force (every sub-multiset of a small hand, every rank its wild cards can
stand for, read by the standard classifier) against the oracle's pruned
generation.  The oracle takes the standard options (``rules="standard"``)
and the wild ranks as a tuple of rank indices.
"""
import functools
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddz_fast import RANKS, Kind, Rules
from ddz_fast import reference as ref
from ddz_fast.cards import to_counts
from wild_strategies import DECK, bomb_last, text, wild_cards, wild_hand, wild_position, wild_ranks

K = Kind
SEVEN, NINE = RANKS.index("7"), RANKS.index("9")
ZEROS = (0,) * 15
SETTINGS = settings(deadline=None, max_examples=40,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def c(cards):
    """Counts of card text."""
    return tuple(int(x) for x in to_counts(cards))


def shown(moves):
    """Moves as (kind name, represented text, cards text)."""
    return [(m[0].name, text(m[1]), text(m[2])) for m in moves]


@functools.lru_cache(maxsize=None)
def standard_readings(rep):
    """The standard moves the represented counts read as, by kind."""
    return {m.kind: m for m in ref.classify(rep)}


def order_key(move, wild):
    """The documented order, restated: the standard order of the represented
    move, then most natural cards first, then (two wild ranks) fewer cards of
    the lower wild rank first."""
    kind, rep, cnt = move
    std = standard_readings(rep)[kind]
    naturals = tuple(-cnt[r] for r in range(15) if r not in wild)
    return (ref.move_order_key(std), naturals, cnt[wild[0]] if len(wild) == 2 else 0)


def brute_force(hand, wild):
    """Every (kind, represents, counts): every non-empty sub-multiset of the
    hand, each of its wild cards standing for any rank 3..2, read by the
    standard classifier."""
    out = set()
    for cnt in itertools.product(*[range(h + 1) for h in hand]):
        if not any(cnt):
            continue
        n_wild = sum(cnt[x] for x in wild)
        for stand_for in itertools.combinations_with_replacement(range(13), n_wild):
            rep = [0 if r in wild else cnt[r] for r in range(15)]
            for x in stand_for:
                rep[x] += 1
            if max(rep) > 4:
                continue
            out.update((m.kind, tuple(rep), tuple(cnt)) for m in ref.classify(rep))
    return out


# ---------------------------------------------------------------------------
# Known answers
# ---------------------------------------------------------------------------

def test_a_lone_wild_leads_as_thirteen_solos():
    moves = ref.wild_moves("7", wild=(SEVEN,))
    assert shown(moves) == [("SOLO", r, "7") for r in "3456789TJQKA2"]


def test_a_pair_with_two_wilds_lists_every_reading():
    """5577 with 7 wild: 14 solos (a 5 is a natural 5 or a wild one), 15
    pairs (55 three ways: 55, 57, 77), two trios of 5 (557, 577), 555 with
    any other single (12), and the soft bomb 5555: 44 moves."""
    moves = ref.wild_moves("5577", wild=(SEVEN,))
    assert len(moves) == 44
    kinds = [m[0] for m in moves]
    assert [kinds.count(k) for k in (K.SOLO, K.PAIR, K.TRIO, K.TRIO_SOLO, K.BOMB)] == [14, 15, 2, 12, 1]
    assert [s for s in shown(moves) if s[1] == "55"] == [("PAIR", "55", "55"), ("PAIR", "55", "57"),
                                                         ("PAIR", "55", "77")]
    assert shown(moves)[:5] == [("SOLO", "3", "7"), ("SOLO", "4", "7"), ("SOLO", "5", "5"),
                                ("SOLO", "5", "7"), ("SOLO", "6", "7")]
    assert [s for s in shown(moves) if s[0] in ("TRIO", "BOMB")] == [
        ("TRIO", "555", "557"), ("TRIO", "555", "577"), ("BOMB", "5555", "5577")]
    assert ("TRIO_SOLO", "5557", "5577") in shown(moves)
    assert not any(s[0] == "TRIO_SOLO" and s[1] == "5555" for s in shown(moves))  # no 5 on 555


def test_two_wild_ranks_fewer_of_the_lower_first():
    moves = ref.wild_moves("7799", wild=(SEVEN, NINE))
    assert [s for s in shown(moves) if s[1] == "33"] == [("PAIR", "33", "99"), ("PAIR", "33", "79"),
                                                         ("PAIR", "33", "77")]


@pytest.mark.parametrize("kind, cards, represents, wild, cls", [
    (K.BOMB, "7777", "7777", (SEVEN,), "wild"),
    (K.BOMB, "5555", "5555", (SEVEN,), "hard"),
    (K.BOMB, "5557", "5555", (SEVEN,), "soft"),
    (K.BOMB, "5777", "5555", (SEVEN,), "soft"),
    (K.BOMB, "7777", "9999", (SEVEN, NINE), "soft"),
    (K.BOMB, "7799", "9999", (SEVEN, NINE), "soft"),
    (K.BOMB, "9999", "9999", (SEVEN, NINE), "wild"),
    (K.ROCKET, "BR", "BR", (SEVEN,), "rocket"),
    (K.TRIO, "557", "555", (SEVEN,), None),
    (K.TRIO_SOLO, "5557", "5557", (SEVEN,), None),
    (K.FOUR_TWO_SOLO, "555734", "555534", (SEVEN,), None),
])
def test_bomb_classes(kind, cards, represents, wild, cls):
    assert ref.wild_bomb_class(kind, represents, cards, wild) == cls


def test_four_wild_cards_make_one_bomb_of_every_rank():
    moves = ref.wild_moves("7777", wild=(SEVEN,))
    bombs = [m for m in moves if m[0] == K.BOMB]
    assert [text(m[1]) for m in bombs] == [r * 4 for r in "3456789TJQKA2"]
    assert [ref.wild_bomb_class(*m, (SEVEN,)) for m in bombs] == ["soft"] * 4 + ["wild"] + ["soft"] * 8


def B_(rep, cards):  # a bomb tuple from texts
    return (K.BOMB, c(rep), c(cards))


ROCKET = (K.ROCKET, c("BR"), c("BR"))


@pytest.mark.parametrize("a, b", [
    (ROCKET, B_("7777", "7777")),            # rocket over the wild bomb
    (B_("3333", "3333"), B_("2222", "2222")),  # a wild bomb of 3s (3 wild) over a hard bomb of 2s
    (B_("4444", "4444"), B_("2222", "2223")),  # a hard bomb over a soft one of a higher rank
    (B_("6666", "6633"), B_("5555", "5553")),  # soft over a lower soft
    (B_("4444", "3333"), (K.AIRPLANE_PAIR, c("KKKAAA2233"), c("KKKAAA2233"))),  # soft over a non-bomb
    ((K.PAIR, c("22"), c("23")), (K.PAIR, c("AA"), c("AA"))),   # non-bombs by represented rank
    ((K.SOLO, c("5"), c("5")), ref.WILD_PASS),
])
def test_beats_known(a, b):
    wild = (0,)  # 3 is wild
    assert ref.wild_beats(a, b, wild) is True
    assert ref.wild_beats(b, a, wild) is False


@pytest.mark.parametrize("a, b", [
    (B_("5555", "5533"), B_("5555", "5333")),    # equal soft bombs do not beat
    (B_("7777", "7773"), B_("7777", "7777")),    # soft 7s under hard 7s
    ((K.PAIR, c("55"), c("53")), (K.PAIR, c("55"), c("55"))),   # equal represented pairs
    ((K.CHAIN, c("45678"), c("45678")), (K.CHAIN, c("3456789"), c("3456789"))),  # other length
    (ref.WILD_PASS, (K.SOLO, c("3"), c("3"))),
    (ref.WILD_PASS, ref.WILD_PASS),
])
def test_does_not_beat(a, b):
    assert ref.wild_beats(a, b, (0,)) is False


def test_equal_bombs_of_one_class_beat_neither_way():
    a, b = B_("5555", "5533"), B_("5555", "5333")
    assert not ref.wild_beats(a, b, (0,)) and not ref.wild_beats(b, a, (0,))


def test_a_hard_bomb_beats_a_soft_one_of_the_same_rank():
    assert ref.wild_beats(B_("7777", "7777"), B_("7777", "7773"), (0,))


def test_a_response_to_the_rocket_is_pass_only():
    assert ref.wild_moves("7777", ROCKET, wild=(SEVEN,)) == [ref.WILD_PASS]


def test_a_response_starts_with_pass_and_keeps_what_beats():
    last = (K.PAIR, c("KK"), c("KK"))
    moves = ref.wild_moves("5577", last, wild=(SEVEN,))
    assert shown(moves) == [("PASS", "", ""), ("PAIR", "AA", "77"), ("PAIR", "22", "77"),
                            ("BOMB", "5555", "5577")]


def test_wild_cards_never_stand_for_jokers():
    moves = ref.wild_moves("77B", wild=(SEVEN,))
    assert not any(m[0] == K.ROCKET for m in moves)
    assert all(m[1][13:] == m[2][13:] for m in moves)
    assert ref.wild_readings("7B", wild=(SEVEN,)) == []  # no rocket, no pair with a joker


def test_no_rank_is_represented_more_than_four_times():
    moves = ref.wild_moves("55557", wild=(SEVEN,))
    assert max(max(m[1]) for m in moves) == 4
    assert (K.BOMB, c("5555"), c("5555")) in moves and (K.BOMB, c("5555"), c("5557")) in moves
    assert ref.wild_readings("55557", wild=(SEVEN,)) == []  # 55555 is no move


def test_readings_of_cards():
    """5 and a wild 7: a pair of 5s only (5 is natural); 77 with 7 wild: every pair."""
    assert shown(ref.wild_readings("57", wild=(SEVEN,))) == [("PAIR", "55", "57")]
    assert [s[1] for s in shown(ref.wild_readings("77", wild=(SEVEN,)))] == [r * 2 for r in "3456789TJQKA2"]
    assert ref.wild_readings("56", wild=(SEVEN,)) == []


def test_no_wild_rank_is_the_standard_game():
    hand = "33444556789TJQKA2BR"
    assert ref.wild_moves(hand, wild=()) == [(m.kind, m.counts, m.counts) for m in ref.legal_moves(hand)]


def test_standard_options_apply_to_the_represented_combination():
    """333444 + two 5s as singles: an AIRPLANE_SOLO under standard, not
    under strict (singles of different ranks), with or without a wild 5."""
    for cards in ("33344455", "33344457"):
        std = ref.wild_moves(cards, rules="standard", wild=(SEVEN,))
        strict = ref.wild_moves(cards, rules="strict", wild=(SEVEN,))
        rep = c("33344455")
        assert any(m[0] == K.AIRPLANE_SOLO and m[1] == rep for m in std)
        assert not any(m[0] == K.AIRPLANE_SOLO and m[1] == rep for m in strict)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, match", [
    (dict(wild=(13,)), ValueError, "jokers are never wild"),
    (dict(wild=(-1,)), ValueError, "not a rank"),
    (dict(wild=(4, 4)), ValueError, "different"),
    (dict(wild=(1, 2, 3)), ValueError, "at most two"),
    (dict(wild="7"), TypeError, "tuple of wild rank"),
    (dict(wild=(True,)), TypeError, "int rank index"),
    (dict(wild=(4.0,)), TypeError, "int rank index"),
    (dict(wild=(4,), rules="four"), ValueError, "one-deck"),
    (dict(wild=(4,), rules=Rules(players=4, decks=2)), ValueError, "2 decks"),
])
def test_bad_wild_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        ref.wild_moves("5577", **kwargs)


@pytest.mark.parametrize("hand, last, error, match", [
    ("55555", None, ValueError, "hand"),
    ("5577", (K.BOMB, c("5555"), c("5556")), ValueError, "cannot read as"),
    ("5577", (K.BOMB, c("5556"), c("5556")), ValueError, "not a BOMB"),
    ("5577", (K.PASS, c("5"), c("5")), ValueError, "not a PASS"),
    ("5577", (K.SOLO, c("B"), c("7")), ValueError, "cannot read as"),
    ("5557", (K.PAIR, c("55"), c("55")), ValueError, "cannot both be in play"),
    ("5577", (K.SOLO, c("3")), TypeError, "tuple"),
    ("5577", [K.SOLO, c("3"), c("3")], TypeError, "tuple"),
    ("5577", ("SOLO", c("3"), c("3")), TypeError, "Kind"),
    ("5577", (99, c("3"), c("3")), ValueError, "no Kind"),
    ("5577", (K.SOLO, "3?", c("3")), ValueError, "represents"),
])
def test_bad_positions(hand, last, error, match):
    with pytest.raises(error, match=match):
        ref.wild_moves(hand, last, wild=(SEVEN,))


def test_bad_moves_to_compare():
    with pytest.raises(ValueError, match="cannot read as"):
        ref.wild_beats((K.SOLO, c("3"), c("4")), ref.WILD_PASS, (SEVEN,))
    with pytest.raises(ValueError, match="cannot read as"):
        ref.wild_bomb_class(K.BOMB, c("3333"), c("3334"), (SEVEN,))
    with pytest.raises(ValueError, match="cards"):
        ref.wild_readings("77777", wild=(SEVEN,))


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

def check_list(moves, hand, wild, last=None):
    """Every property a wild move list must have."""
    leads = moves if last is None or last[0] == K.PASS else moves[1:]
    if last is not None and last[0] != K.PASS:
        assert moves[0] == ref.WILD_PASS
    assert len(set(leads)) == len(leads)
    keys = [order_key(m, wild) for m in leads]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for kind, rep, cnt in leads:
        assert kind != K.PASS
        assert all(x <= h for x, h in zip(cnt, hand)), "counts fit in the hand"
        assert sum(rep) == sum(cnt)
        assert max(rep[:13]) <= 4 and rep[13:] == cnt[13:]
        assert all(cnt[r] <= rep[r] for r in range(13) if r not in wild), "natural cards stand for themselves"
        assert kind in standard_readings(rep), "the represented combination is a move"
        if last is not None and last[0] != K.PASS:
            assert ref.wild_beats((kind, rep, cnt), last, wild)


@pytest.mark.parametrize("preset", ["laizi", "tiandi"])
@SETTINGS
@given(data=st.data())
def test_list_properties(preset, data):
    wild, last, hand = data.draw(wild_position(preset, rules="standard"))
    if last is not None:
        assert all(h + x <= d for h, x, d in zip(hand, last[2], DECK))
    moves = ref.wild_moves(hand, last, wild=wild)
    check_list(moves, hand, wild, last)
    if last is not None and last[0] != K.PASS:
        leads = ref.wild_moves(hand, wild=wild)
        assert moves == [ref.WILD_PASS] + [m for m in leads if ref.wild_beats(m, last, wild)]
        assert ref.wild_move_count(hand, last, wild=wild) == len(moves)
        assert not ref.wild_beats(last, last, wild)


@pytest.mark.parametrize("preset", ["laizi", "tiandi"])
@settings(SETTINGS, max_examples=15)
@given(data=st.data())
def test_small_hands_against_brute_force(preset, data):
    wild = data.draw(wild_ranks(preset))
    hand = data.draw(wild_hand(wild, max_size=6, max_wild=3))
    moves = ref.wild_moves(hand, wild=wild)
    assert set(moves) == brute_force(hand, wild)


@pytest.mark.parametrize("preset", ["laizi", "tiandi"])
@SETTINGS
@given(data=st.data())
def test_readings_are_the_moves_playing_every_card(preset, data):
    wild, cards = data.draw(wild_cards(preset, max_size=7, max_wild=4))
    readings = ref.wild_readings(cards, wild=wild)
    assert readings == [m for m in ref.wild_moves(cards, wild=wild) if m[2] == cards]


@pytest.mark.parametrize("preset", ["laizi", "tiandi"])
@SETTINGS
@given(data=st.data())
def test_bombs_order(preset, data):
    """Bombs by class (rocket > wild > hard > soft), then represented rank;
    a bomb beats any non-bomb; nothing beats itself; no two moves beat each
    other."""
    wild = data.draw(wild_ranks(preset))
    a, b = data.draw(bomb_last(wild)), data.draw(bomb_last(wild))
    classes = ["soft", "hard", "wild", "rocket"]
    ca, cb = (classes.index(ref.wild_bomb_class(*m, wild)) for m in (a, b))
    ra, rb = (max(range(15), key=lambda r: m[1][r]) for m in (a, b))
    assert ref.wild_beats(a, b, wild) == ((ca, ra) > (cb, rb))
    solo = (K.PAIR, c("22"), c("22"))
    assert ref.wild_beats(a, solo, wild) and not ref.wild_beats(solo, a, wild)
