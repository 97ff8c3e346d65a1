"""Differential tests of the wild-card presets: the compiled move functions
against the oracle (``reference.wild_moves``, ``wild_readings``,
``wild_beats``, ``wild_bomb_class``).

A wild move is compared as its identity ``(kind, represents, counts)``.
"Same" means the same list in the same order (docs/moves.md, the order of a
wild move list).  For each of ``laizi`` and ``tiandi``:

1. Hypothesis positions (tests/wild_strategies.py): 1-20 cards with 0-4 wild
   cards (tiandi: 0-8 over the two ranks), a lead, PASS on the table, any move
   another hand can make, or a bomb of each class (rocket, wild, hard, soft):
   ``legal_moves`` against ``wild_moves``, ``count_moves`` against its length,
   every bomb's ``Move.bomb_class`` against ``wild_bomb_class``, and the text
   form of a sample of moves through ``parse_move``.
2. ``classify`` against ``wild_readings`` on sets of cards.
3. ``beats`` and ``bomb_class`` on pairs of moves of every class.
4. Fixed positions: the 20-card hand with four wild cards, eight wild cards
   under tiandi, and the forms of the ``wild=`` argument.

``DDZ_WILD_EXAMPLES`` sets the Hypothesis examples of each test per preset
(the nightly workflow runs 10,000); the default keeps the file short.
"""
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast as fast
from ddz_fast import RANKS, Kind
from ddz_fast import reference as ref
from wild_strategies import bomb_last, other_last, text, wild_cards, wild_position, wild_ranks

K = Kind
PRESETS = ["laizi", "tiandi"]
EXAMPLES = int(os.environ.get("DDZ_WILD_EXAMPLES", "0"))


def examples(default):
    return settings(settings(), max_examples=EXAMPLES or default, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def api_wild(wild):
    """The ``wild=`` argument of the compiled API: one rank as an int, two
    as a tuple."""
    return wild[0] if len(wild) == 1 else wild


def identity(move):
    return (move.kind, move.represents, move.counts)


def text_form(move):
    """``<cards>=<represented>``, or the cards alone when they represent
    themselves."""
    kind, rep, cnt = move
    return text(cnt) if cnt == rep else f"{text(cnt)}={text(rep)}"


def compiled(move, preset, wild):
    """The compiled Move of an oracle tuple, through its text form."""
    if move[0] == K.PASS:
        return fast.PASS
    m = fast.parse_move(text_form(move), move[0], rules=preset, wild=api_wild(wild))
    assert identity(m) == move, f"parse_move({text_form(move)!r}) gave {identity(m)}"
    return m


def assert_same(got, expected, context):
    if got == expected:
        return
    n = min(len(got), len(expected))
    first = next((i for i in range(n) if got[i] != expected[i]), n)

    def show(ms, i):
        return (ms[i][0].name, text_form(ms[i])) if i < len(ms) else None
    only_fast = sorted(text_form(m) + ":" + m[0].name for m in set(got) - set(expected))[:10]
    only_ref = sorted(text_form(m) + ":" + m[0].name for m in set(expected) - set(got))[:10]
    raise AssertionError(
        f"lists differ [{context}]: fast {len(got)}, reference {len(expected)}; first difference "
        f"at {first}: fast {show(got, first)} vs reference {show(expected, first)}; "
        f"only in fast: {only_fast}; only in reference: {only_ref}")


def check_position(preset, wild, last, hand):
    context = f"{preset} wild={''.join(RANKS[x] for x in wild)} hand={text(hand)} " \
              f"last={None if last is None else (last[0].name, text_form(last))}"
    expected = ref.wild_moves(hand, last, rules=preset, wild=wild)
    last_f = None if last is None else compiled(last, preset, wild)
    got = fast.legal_moves(hand, last_f, rules=preset, wild=api_wild(wild))
    assert_same([identity(m) for m in got], expected, context)
    assert fast.count_moves(hand, last_f, rules=preset, wild=api_wild(wild)) == len(expected), context
    for m in got:
        if m.kind in (K.BOMB, K.ROCKET):
            assert m.bomb_class == ref.wild_bomb_class(*identity(m), wild, rules=preset), (context, m)
        else:
            assert m.bomb_class is None, (context, m)
    # The text form of a sample of the moves, both ways.
    for m in list(got)[1::max(1, len(got) // 12)]:
        if m.kind != K.PASS:
            if m.counts != m.represents:
                assert str(m) == text_form(identity(m)), (context, m)
            assert compiled(identity(m), preset, wild) == m, (context, m)
    return expected


# ---------------------------------------------------------------------------
# 1. Positions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@examples(30)
@given(data=st.data())
def test_legal_moves_and_counts(preset, data):
    wild, last, hand = data.draw(wild_position(preset), label="wild, last, hand")
    check_position(preset, wild, last, hand)


#: The move options of Rules (every one changes which combinations are legal).
OPTIONS = ["solo_kickers", "four_with_kickers", "airplane_solo_distinct", "four_two_solo_distinct",
           "both_jokers_as_kickers", "airplane_bomb_kickers", "airplane_adjacent_trio_kickers"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("option", OPTIONS)
@examples(8)
@given(data=st.data())
def test_each_move_option_applies_under_wild_cards(preset, option, data):
    """A wild preset with one move option flipped lists what the oracle
    lists under the same Rules: the options decide the represented
    combinations (kickers, airplanes, bombs as kickers) whatever the wild
    cards stand for."""
    base = fast.Rules(wild=preset)
    rules = base.replace(**{option: not getattr(base, option)})
    wild, last, hand = data.draw(wild_position(preset, rules=rules), label="wild, last, hand")
    expected = ref.wild_moves(hand, last, rules=rules, wild=wild)
    last_f = None if last is None else compiled(last, rules, wild)
    got = fast.legal_moves(hand, last_f, rules=rules, wild=api_wild(wild))
    assert_same([identity(m) for m in got], expected,
                f"{option}={getattr(rules, option)} wild={wild} hand={text(hand)} last={last}")


# ---------------------------------------------------------------------------
# 2. Readings of cards
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@examples(40)
@given(data=st.data())
def test_classify(preset, data):
    # (at most four wild cards: the oracle reads every rank each can stand for)
    wild, cards = data.draw(wild_cards(preset, max_size=20, max_wild=4), label="wild, cards")
    expected = ref.wild_readings(cards, rules=preset, wild=wild)
    got = fast.classify(cards, rules=preset, wild=api_wild(wild))
    assert_same([identity(m) for m in got], expected, f"{preset} wild={wild} cards={text(cards)}")


# ---------------------------------------------------------------------------
# 3. Beating and bomb classes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
@examples(60)
@given(data=st.data())
def test_beats_and_bomb_class(preset, data):
    wild = data.draw(wild_ranks(preset), label="wild")
    one_move = st.one_of(bomb_last(wild), other_last(wild, preset))
    a, b = data.draw(one_move, label="a"), data.draw(one_move, label="b")
    fa, fb = compiled(a, preset, wild), compiled(b, preset, wild)
    for x, fx in ((a, fa), (b, fb)):
        assert fx.bomb_class == ref.wild_bomb_class(*x, wild, rules=preset), fx
    for x, y, fx, fy in ((a, b, fa, fb), (b, a, fb, fa), (a, a, fa, fa)):
        assert fast.beats(fx, fy, rules=preset, wild=api_wild(wild)) == \
            ref.wild_beats(x, y, wild, rules=preset), (fx, fy)
    assert not fast.beats(fast.PASS, fa, rules=preset, wild=api_wild(wild))
    assert fast.beats(fa, fast.PASS, rules=preset, wild=api_wild(wild))


# ---------------------------------------------------------------------------
# 4. Fixed positions
# ---------------------------------------------------------------------------

SEVEN, NINE = RANKS.index("7"), RANKS.index("9")


def c(cards):
    return tuple(int(x) for x in fast.to_counts(cards))


@pytest.mark.parametrize("preset, wild, hand, answer_pair", [
    ("laizi", (SEVEN,), "34566889TJQKA22B7777", True),          # 20 cards, four wild 7s
    ("laizi", (SEVEN,), "33344455566688877779", True),
    ("tiandi", (SEVEN, NINE), "34567777899998TTJQKA", False),   # eight wild cards
    ("tiandi", (SEVEN, NINE), "3377992BR", True),
])
def test_fixed_hands(preset, wild, hand, answer_pair):
    """Leads, PASS on the table, and the answers to a soft bomb of 3s (and
    to a pair of 3s, a list as long as the leads)."""
    counts = c(hand)
    leads = check_position(preset, wild, None, counts)
    got = fast.legal_moves(counts, fast.PASS, rules=preset, wild=api_wild(wild))
    assert_same([identity(m) for m in got], leads, "last=PASS")
    lasts = [(K.BOMB, c("3333"), c("3" + 3 * RANKS[wild[0]]))]
    if answer_pair:
        lasts.append((K.PAIR, c("33"), c("33")))
    for last in lasts:
        if all(h + x <= (4 if r < 13 else 1) for r, (h, x) in enumerate(zip(counts, last[2]))):
            check_position(preset, wild, last, counts)


@pytest.mark.parametrize("preset, forms", [
    ("laizi", [SEVEN, "7"]),
    ("tiandi", [(SEVEN, NINE), [SEVEN, NINE], (NINE, SEVEN), "79"]),
])
def test_forms_of_the_wild_argument(preset, forms):
    hand = "5577999T"
    lists = [[identity(m) for m in fast.legal_moves(hand, rules=preset, wild=w)] for w in forms]
    assert all(x == lists[0] for x in lists)
    wild = (SEVEN,) if preset == "laizi" else (SEVEN, NINE)
    assert lists[0] == ref.wild_moves(hand, rules=preset, wild=wild)


@pytest.mark.parametrize("preset, wild", [
    ("laizi", None), ("laizi", 13), ("laizi", "B"), ("laizi", (SEVEN, NINE)),
    ("tiandi", SEVEN), ("tiandi", (SEVEN, SEVEN)), ("tiandi", None),
    ("standard", SEVEN),
])
def test_bad_wild_arguments_are_refused(preset, wild):
    with pytest.raises((TypeError, ValueError)):
        fast.legal_moves("5577", rules=preset, wild=wild)


@pytest.mark.parametrize("hand, wild", [
    ("333444555666777888TJQK", (12,)),          # long airplanes with singles
    ("3334445556667778889TJQKA", (12,)),       # 24 cards: a six-trio airplane with singles
    ("33344455566677788899TTJJ", (11,)),       # 24 cards: long pair chains and airplanes with pairs
])
def test_hands_of_more_than_twenty_cards_list_every_sequence_length(hand, wild):
    """legal_moves takes any hand the deck holds, not only a game's 20 cards:
    sequences as long as the hand allows are listed, as by the oracle."""
    got = [(m.kind, m.represents, m.counts) for m in fast.legal_moves(hand, rules="laizi", wild=wild)]
    want = [(k, tuple(r), tuple(c)) for k, r, c in ref.wild_moves(hand, rules="laizi", wild=wild)]
    assert got == want
