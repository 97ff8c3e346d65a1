"""The rlcard preset against the real RLCard (rlcard 1.2).

RLCard's legal moves are a fixed table of 27,471 card sets, each with one
type and a weight (``card_type.json``): a lead is any table entry the hand
holds (``DoudizhuJudger.playable_cards_from_hand``), and an answer is a table
entry of the same type with a higher weight, or a bomb or the rocket
(``utils.get_gt_cards``).  Both are called here on seeded random hands.
"""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

import ddz_fast as ddz
from ddz_fast import Kind
from optional import require

require("rlcard.games.doudizhu.utils")
from rlcard.games.doudizhu import utils as rl  # noqa: E402
from rlcard.games.doudizhu.judger import DoudizhuJudger  # noqa: E402

DECK = "".join(r * 4 for r in "3456789TJQKA2") + "BR"
DEALS = 1500

TYPE_KIND = {
    "solo": Kind.SOLO, "pair": Kind.PAIR, "trio": Kind.TRIO, "bomb": Kind.BOMB,
    "rocket": Kind.ROCKET, "trio_solo": Kind.TRIO_SOLO, "trio_pair": Kind.TRIO_PAIR,
    "solo_chain": Kind.CHAIN, "pair_chain": Kind.PAIR_CHAIN, "trio_chain": Kind.AIRPLANE,
    "trio_solo_chain": Kind.AIRPLANE_SOLO, "trio_pair_chain": Kind.AIRPLANE_PAIR,
    "four_two_solo": Kind.FOUR_TWO_SOLO, "four_two_pair": Kind.FOUR_TWO_PAIR,
}


def kind_and_length(rl_type):
    m = re.fullmatch(r"(.*?)_(\d+)", rl_type)
    if m and m.group(1) in TYPE_KIND:
        return TYPE_KIND[m.group(1)], int(m.group(2))
    return TYPE_KIND[rl_type], 1


def text(counts):
    return ddz.format_cards(counts)


def table():
    return {k: v[0] for k, v in rl.CARD_TYPE[0].items()}


def test_table_is_every_rlcard_preset_move_of_at_most_20_cards():
    full = ddz.to_counts([4] * 13 + [1, 1])
    ours = {text(m.counts) for m in ddz.legal_moves(full, rules="rlcard") if m.n_cards <= 20}
    theirs = {text(ddz.parse_cards(s)) for s in table()}
    assert len(theirs) == 27471
    assert ours == theirs


def test_every_table_entry_has_one_reading_of_rlcards_type_and_weight_order():
    """Each card set classifies as exactly one move whose kind and length are
    RLCard's type, and RLCard's weights order each type as our ranks do."""
    by_type = {}
    for cards, (rl_type, weight) in table().items():
        moves = ddz.classify(cards, rules="rlcard")
        assert len(moves) == 1, cards
        assert (moves[0].kind, moves[0].length) == kind_and_length(rl_type), cards
        by_type.setdefault(rl_type, []).append((int(weight), moves[0].rank))
    for rl_type, pairs in by_type.items():
        for w1, r1 in pairs:
            for w2, r2 in pairs[:50]:
                assert (w1 > w2) == (r1 > r2), rl_type


def deals(seed):
    rng = random.Random(seed)
    for _ in range(DEALS):
        cards = list(DECK)
        rng.shuffle(cards)
        size = rng.choice([20, 17, rng.randint(1, 20)])
        hand = text(ddz.parse_cards("".join(cards[:size])))
        other = text(ddz.parse_cards("".join(cards[size:size + 17])))
        yield rng, hand, other


def test_leads_equal_rlcard_judger():
    for _, hand, _ in deals("rl-leads"):
        theirs = {text(ddz.parse_cards(s)) for s in DoudizhuJudger.playable_cards_from_hand(hand)}
        ours = {text(m.counts) for m in ddz.legal_moves(hand, rules="rlcard")}
        assert ours == theirs, hand


def _player(hand):
    cards = [SimpleNamespace(rank="", suit={"B": "BJ", "R": "RJ"}[c]) if c in "BR"
             else SimpleNamespace(rank=c, suit="S") for c in hand]
    return SimpleNamespace(current_hand=cards)


def test_responses_equal_rlcard_gt_cards():
    checked = 0
    for rng, hand, other in deals("rl-responses"):
        if checked >= 600:  # get_gt_cards scans RLCard's whole table: slow
            break
        rival_cards = rng.choice(sorted(DoudizhuJudger.playable_cards_from_hand(other)))
        rival = text(ddz.parse_cards(rival_cards))
        greater = SimpleNamespace(played_cards=rival)
        theirs = {("PASS" if s == "pass" else text(ddz.parse_cards(s)))
                  for s in rl.get_gt_cards(_player(hand), greater)}
        (last,) = ddz.classify(rival, rules="rlcard")
        ours = {("PASS" if m.kind == Kind.PASS else text(m.counts))
                for m in ddz.legal_moves(hand, last, rules="rlcard")}
        assert ours == theirs, (hand, rival)
        checked += 1
    assert checked == 600


@pytest.mark.parametrize("cards, std, rl_ok", [
    ("3334445555", False, False),                # not an airplane with pairs anywhere
    ("333444555666" + "7777", True, False),      # a bomb as airplane singles
    ("444555666" + "777", True, False),          # a neighbouring trio as singles
    ("444555666" + "333", True, False),
    ("444555666" + "999", True, True),           # a trio that is no neighbour
    ("QQQKKKAAA" + "222", True, True),           # 2 is never next to a chain
    ("5555" + "66", False, True),                # a pair as a four's two singles
    ("5555" + "BR", False, False),               # never both jokers
    ("333444" + "BR", False, False),
])
def test_edge_cases(cards, std, rl_ok):
    def has_kicker_reading(rules):
        return any(m.kind in (Kind.AIRPLANE_SOLO, Kind.FOUR_TWO_SOLO, Kind.AIRPLANE_PAIR)
                   for m in ddz.classify(cards, rules=rules))
    assert has_kicker_reading("standard") == std
    assert has_kicker_reading("rlcard") == rl_ok
    assert (text(ddz.parse_cards(cards)) in {text(ddz.parse_cards(s)) for s in table()}
            if rl_ok else True)
