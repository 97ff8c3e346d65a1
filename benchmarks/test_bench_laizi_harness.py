"""The adapter layer of laizi_compare.py (no Go, no other engine needed):
the engine's card types against our kinds, the keys both sides are compared
by, and the explanations given to differences the engine is known to show."""
from __future__ import annotations

import pytest

from ddz_fast import Kind

from laizi_compare import T, TYPE_KIND, explain_extra, explain_missing, key_of, their_info, their_key


def counts(text: str) -> tuple:
    return tuple(text.count(r) for r in "3456789TJQKA2BR")


SEVEN = 4      # rank index of 7
FIVE = 2


@pytest.mark.parametrize("kind_cls", sorted(set(TYPE_KIND.values()), key=lambda kc: kc[0]))
def test_a_key_goes_to_the_engine_and_back(kind_cls):
    """Every kind the engine has is sent as its (type, min, max) and read back
    as the same key; sequences keep their length."""
    kind, cls = kind_cls
    length = {Kind.CHAIN: 6, Kind.PAIR_CHAIN: 3, Kind.AIRPLANE: 2, Kind.AIRPLANE_SOLO: 2,
              Kind.AIRPLANE_PAIR: 3}.get(kind, 1)
    rank = 14 if kind == Kind.ROCKET else 9
    key = (kind, rank, length, cls)
    assert their_key(*their_info(key)) == key


def test_types_without_counterpart_have_no_key():
    for name in ("RuanZhaDan5", "LaiZiZhaDan5", "RuanZhaDan12", "RuanLianZha", "LianZha"):
        assert their_key(T[name], 5, 6) is None


def test_bomb_class_follows_cards_and_represents():
    assert key_of((Kind.BOMB, counts("5555"), counts("5577")), SEVEN) == (Kind.BOMB, FIVE, 1, "soft")
    assert key_of((Kind.BOMB, counts("7777"), counts("7777")), SEVEN) == (Kind.BOMB, SEVEN, 1, "wild")
    assert key_of((Kind.BOMB, counts("5555"), counts("5555")), SEVEN) == (Kind.BOMB, FIVE, 1, "hard")
    assert key_of((Kind.CHAIN, counts("34567"), counts("34577")), SEVEN) == (Kind.CHAIN, SEVEN, 5, None)


def test_engine_moves_outside_our_rules_are_explained():
    # a five-card soft bomb (33 and three wild 4s): no counterpart
    assert explain_extra(their_key(T["RuanZhaDan5"], 3, 0), T["RuanZhaDan5"], counts("33444"), 1) == "big-bomb"
    # 8TJK (8 wild) played as the chain T..A: four cards for five
    key = their_key(T["ShunZi"], 10, 14)
    assert explain_extra(key, T["ShunZi"], counts("8TJK"), 5) == "short"
    # QQB (Q wild) played as a trio of low jokers
    key = their_key(T["SanBuDai"], 16, 0)
    assert explain_extra(key, T["SanBuDai"], counts("QQB"), 9) == "wild-joker"
    # 5TJQKA (5 wild) played as the chain T..2
    key = their_key(T["ShunZi"], 10, 15)
    assert explain_extra(key, T["ShunZi"], counts("5TJQKA"), FIVE) == "chain-two"
    assert explain_extra(None, -1, counts("4455JJAA22"), 5) == "crash"


def test_our_readings_missing_from_the_engine_are_explained():
    lone = counts("T")
    assert explain_missing((Kind.SOLO, 3, 1, None), [(Kind.SOLO, 7, 1, None)], lone, 7, False) == "lone-wild"
    # a chain between the engine's lowest and highest reading of the same cards
    mid = (Kind.CHAIN, 6, 5, None)
    known = [(Kind.CHAIN, 5, 5, None), (Kind.CHAIN, 7, 5, None)]
    assert explain_missing(mid, known, counts("45677"), SEVEN, False) == "min-max"
    above = (Kind.CHAIN, 8, 5, None)
    assert explain_missing(above, known, counts("45677"), SEVEN, False) == "max-miss"


def test_rule_choices_are_told_apart_from_bugs():
    """The agreement 'where the rules agree' discounts the engine's rule
    choices and its design, never its bugs."""
    from laizi_compare import NOT_FAULTS
    assert {"big-bomb", "lone-wild", "one-natural-rank", "kicker-pair", "min-max", "hint-no-split"} <= NOT_FAULTS
    assert not {"crash", "short", "chain-two", "wild-joker", "bad-kickers", "max-miss",
                "unexplained", "hint-miss"} & NOT_FAULTS
