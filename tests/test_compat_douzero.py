"""The douzero preset and the DouZero accelerator against the real DouZero.

DouZero (installed with ``pip install --no-deps douzero``) is the answer here,
not the rules: its own generator and its own GameEnv are called on the same
seeded random hands and rival moves.  Moves are compared as card multisets
(DouZero does not type its moves), duplicates removed.
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import Kind
from ddz_fast.compat import douzero as dz
from optional import require

require("douzero.env.game")
from douzero.env import move_detector as md  # noqa: E402
from douzero.env.game import GameEnv, InfoSet  # noqa: E402
from douzero.env.move_generator import MovesGener  # noqa: E402

DECK = [c for c in dz.DOUZERO_CARDS[:13] for _ in range(4)] + [20, 30]
DEALS = 1500

# DouZero's move types, as our kinds (move_detector.TYPE_*).
TYPE_KIND = {
    md.TYPE_1_SINGLE: Kind.SOLO, md.TYPE_2_PAIR: Kind.PAIR, md.TYPE_3_TRIPLE: Kind.TRIO,
    md.TYPE_4_BOMB: Kind.BOMB, md.TYPE_5_KING_BOMB: Kind.ROCKET,
    md.TYPE_6_3_1: Kind.TRIO_SOLO, md.TYPE_7_3_2: Kind.TRIO_PAIR,
    md.TYPE_8_SERIAL_SINGLE: Kind.CHAIN, md.TYPE_9_SERIAL_PAIR: Kind.PAIR_CHAIN,
    md.TYPE_10_SERIAL_TRIPLE: Kind.AIRPLANE, md.TYPE_11_SERIAL_3_1: Kind.AIRPLANE_SOLO,
    md.TYPE_12_SERIAL_3_2: Kind.AIRPLANE_PAIR, md.TYPE_13_4_2: Kind.FOUR_TWO_SOLO,
    md.TYPE_14_4_22: Kind.FOUR_TWO_PAIR,
}


def to_counts(cards):
    out = np.zeros(15, dtype=np.uint8)
    for c in cards:
        out[dz.DOUZERO_CARDS.index(c)] += 1
    return out


def to_ints(counts):
    return tuple(v for v, n in zip(dz.DOUZERO_CARDS, counts) for _ in range(int(n)))


def as_set(moves):
    return {tuple(sorted(m)) for m in moves}


def douzero_own(hand, rival):
    """DouZero's GameEnv.get_legal_card_play_actions on a minimal env."""
    env = SimpleNamespace(acting_player_position="landlord",
                          info_sets={"landlord": InfoSet("landlord")},
                          card_play_action_seq=[list(rival)] if rival else [])
    env.info_sets["landlord"].player_hand_cards = list(hand)
    original = dz._original or GameEnv.get_legal_card_play_actions
    return original(env)


def deals(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        cards = DECK[:]
        rng.shuffle(cards)
        size = rng.choice([20, 17, rng.randint(1, 20)])
        yield rng, sorted(cards[:size]), sorted(cards[size:size + 17])


def test_leads_equal_douzero_generator():
    sizes = set()
    for _, hand, _ in deals("dz-leads", DEALS):
        theirs = as_set(MovesGener(hand).gen_moves())
        ours = {to_ints(m.counts) for m in ddz.legal_moves(to_counts(hand), rules="douzero")}
        assert ours == theirs, hand
        sizes.add(len(hand))
    assert {17, 20} <= sizes and len(sizes) > 10


def test_edge_cases_where_douzero_differs_from_standard():
    # both jokers as kickers of an airplane and of a four; a pair as a four's
    # two singles; a bomb's four cards as airplane singles.
    for hand, move in [([3, 3, 3, 4, 4, 4, 20, 30], [3, 3, 3, 4, 4, 4, 20, 30]),
                       ([5, 5, 5, 5, 20, 30], [5, 5, 5, 5, 20, 30]),
                       ([9, 9, 9, 9, 6, 6], [6, 6, 9, 9, 9, 9]),
                       ([3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 8],
                        [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 8])]:
        assert tuple(sorted(move)) in as_set(MovesGener(hand).gen_moves())
        assert tuple(sorted(move)) in {tuple(m) for m in dz.legal_actions(hand)}
        assert ddz.classify(to_counts(move), rules="douzero")
    assert not ddz.classify(to_counts([5, 5, 5, 5, 20, 30]), rules="standard")


def test_accelerated_actions_equal_douzero_everywhere():
    """legal_actions equals DouZero's own list as a set, for leads and for
    rival moves taken from another hand's DouZero moves; no duplicates."""
    delegated = 0
    checked = 0
    for rng, hand, other in deals("dz-responses", DEALS):
        rivals = [[]] + rng.sample(MovesGener(other).gen_moves(), 3)
        for rival in rivals:
            rival = sorted(rival)
            ours = dz.legal_actions(hand, rival)
            assert len(ours) == len(as_set(ours))
            assert as_set(ours) == as_set(douzero_own(hand, rival)), (hand, rival)
            if rival:
                assert ours[-1] == []
                last = ddz.classify(to_counts(rival), rules="douzero")
                if last and dz._needs_douzero(last[0].kind, last[0].length,
                                              to_counts(rival), to_counts(hand)):
                    delegated += 1
            checked += 1
    assert checked == 4 * DEALS
    assert delegated < checked // 50  # the delegated situations are rare


def _douzero_rank(cards, kind):
    """The rank DouZero's move selector compares for an airplane with singles:
    the highest rank held three times, kickers included (as an index)."""
    counts = to_counts(cards)
    return max(i for i in range(15) if counts[i] == 3)


def test_preset_responses_equal_douzero_except_its_airplane_ranking():
    """The douzero preset's typed responses equal DouZero's for every rival
    that DouZero classifies as we do; where they differ, the difference is
    DouZero's ranking of airplanes with singles by their highest trio
    (kickers included), and nothing else."""
    same = differ = 0
    for rng, hand, other in deals("dz-preset", DEALS):
        for rival in rng.sample(MovesGener(other).gen_moves(), 3):
            rival = sorted(rival)
            detected = md.get_move_type(list(rival))
            readings = {m.kind: m for m in ddz.classify(to_counts(rival), rules="douzero")}
            kind = TYPE_KIND.get(detected["type"])
            theirs = as_set(douzero_own(hand, rival))
            if kind is None or kind not in readings:
                # DouZero cannot classify its own move: it answers with bombs only.
                assert detected["type"] == md.TYPE_15_WRONG
                assert all(len(set(m)) == 1 or m == (20, 30) for m in theirs if m), theirs
                differ += 1
                continue
            last = readings[kind]
            ours = {to_ints(m.counts) for m in ddz.legal_moves(to_counts(hand), last, rules="douzero")}
            if ours == theirs:
                same += 1
                continue
            differ += 1
            assert kind == Kind.AIRPLANE_SOLO
            for move in ours ^ theirs:
                # a move of the same length whose verdict flips with DouZero's rank
                m = [x for x in ddz.classify(to_counts(move), rules="douzero")
                     if x.kind == Kind.AIRPLANE_SOLO]
                assert m and m[0].length == last.length
                theirs_beats = _douzero_rank(move, kind) > _douzero_rank(rival, kind)
                assert theirs_beats == (move in theirs)
    assert same > 3 * DEALS * 0.95 and differ < 3 * DEALS * 0.05


def test_accelerate_patches_and_restores_game_env():
    assert not dz.is_accelerated()
    original = GameEnv.get_legal_card_play_actions
    dz.accelerate()
    try:
        dz.accelerate()  # twice is harmless
        assert dz.is_accelerated()
        assert GameEnv.get_legal_card_play_actions is not original
        # whole DouZero games: the patched env lists DouZero's own actions
        rng = random.Random(7)
        for _ in range(30):
            env = _new_game(rng)
            plies = 0
            while not env.game_over:
                actions = env.get_legal_card_play_actions()
                assert actions == original(env)        # DouZero's own list, in its order
                action = actions[rng.randrange(len(actions))]
                _play(env, list(action))
                plies += 1
            assert plies >= 6
    finally:
        dz.restore()
    assert not dz.is_accelerated()
    assert GameEnv.get_legal_card_play_actions is original
    dz.restore()  # harmless when not patched


def test_accelerated_env_lists_exactly_douzero_own_actions():
    """Over whole random DouZero games (thousands of positions, actions drawn
    from the list) and random hands facing random rivals, the accelerated
    GameEnv lists exactly what DouZero's own method lists: the same actions,
    in the same order, repeats included."""
    original = GameEnv.get_legal_card_play_actions
    rng = random.Random(34)
    positions = 0
    dz.accelerate()
    try:
        for _ in range(150):
            env = _new_game(rng)
            while not env.game_over:
                actions = env.get_legal_card_play_actions()
                assert actions == original(env), (env.info_sets[env.acting_player_position].player_hand_cards,
                                                  _rival(env.card_play_action_seq))
                positions += 1
                # (favour long moves: they reach the airplanes and fours DouZero repeats)
                longest = max(len(a) for a in actions)
                pick = [a for a in actions if len(a) == longest] if rng.random() < 0.3 else actions
                _play(env, list(pick[rng.randrange(len(pick))]))
        for _, hand, other in deals("dz-accelerated", 600):
            rival = sorted(rng.choice(MovesGener(other).gen_moves()))
            env = SimpleNamespace(acting_player_position="landlord",
                                  info_sets={"landlord": InfoSet("landlord")},
                                  card_play_action_seq=[rival, []] if rng.random() < 0.5 else [rival])
            env.info_sets["landlord"].player_hand_cards = hand
            assert GameEnv.get_legal_card_play_actions(env) == original(env), (hand, rival)
            positions += 1
    finally:
        dz.restore()
    assert positions > 3000


def _rival(seq):
    if not seq:
        return []
    return seq[-2] if len(seq[-1]) == 0 else seq[-1]


def _new_game(rng):
    """A DouZero GameEnv at the start of card play of a shuffled deal."""
    cards = DECK[:]
    rng.shuffle(cards)
    env = GameEnv(players={})
    env.card_play_init({"landlord": sorted(cards[:20]),
                        "landlord_up": sorted(cards[20:37]),
                        "landlord_down": sorted(cards[37:]),
                        "three_landlord_cards": sorted(cards[17:20])})
    return env


def _play(env, action):
    """GameEnv.step without agents: DouZero's own bookkeeping for one action."""
    env.players = {env.acting_player_position: SimpleNamespace(act=lambda infoset: action)}
    env.game_infoset = env.get_infoset()
    env.step()


@pytest.mark.parametrize("bad, error, what", [
    ([3, 3, 16], ValueError, "DouZero card 16 is not a card"),
    ([3, "4"], TypeError, "DouZero card '4' is a str"),
    ([3.0], TypeError, "DouZero card 3.0 is a float"),
    ([True], TypeError, "DouZero card True is a bool"),
    ([3, None], TypeError, "DouZero card None"),
])
def test_bad_cards_raise(bad, error, what):
    dz.legal_actions([3])  # a cached (3,) must not let (3.0,) or (True,) through
    with pytest.raises(error, match=what):
        dz.legal_actions(bad)
    with pytest.raises(error, match=what):
        dz.legal_actions([5], bad)


def test_impossible_hands_raise():
    with pytest.raises(ValueError):
        dz.legal_actions([3] * 5)
    with pytest.raises(ValueError, match="cannot both be in play"):
        dz.legal_actions([3, 3, 3], [3, 3])


def test_douzeros_own_quirks_and_the_accelerator_follows_them():
    """The two documented departures of DouZero from the rules, built on
    purpose (random deals almost never reach them): the douzero preset
    follows the rules, the accelerator follows DouZero."""
    # 1. An airplane with a trio as kickers ranks by that trio in DouZero:
    #    444555666+JJJ (a 6 by the rules) beats 777888999+3TQ (a 9) there.
    hand = [4, 4, 4, 5, 5, 5, 6, 6, 6, 11, 11, 11]
    rival = [3, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 12]
    move = (4, 4, 4, 5, 5, 5, 6, 6, 6, 11, 11, 11)
    assert move in as_set(douzero_own(hand, rival))
    last = ddz.classify(to_counts(rival), rules="douzero")[0]
    assert (last.kind, last.length) == (Kind.AIRPLANE_SOLO, 3)
    preset = {to_ints(m.counts) for m in ddz.legal_moves(to_counts(hand), last, rules="douzero")}
    assert move not in preset
    assert as_set(dz.legal_actions(hand, rival)) == as_set(douzero_own(hand, rival))

    # 2. An airplane with a bomb as singles is a move DouZero generates but
    #    cannot classify: it answers with bombs (and pass) only.
    other = [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 8]
    rival = list(other)
    assert tuple(rival) in as_set(MovesGener(other).gen_moves())
    assert md.get_move_type(rival)["type"] == md.TYPE_15_WRONG
    hand = [7, 7, 7, 7, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 13]
    theirs = as_set(douzero_own(hand, rival))
    assert theirs == {(), (7, 7, 7, 7)}
    last = ddz.classify(to_counts(rival), rules="douzero")[0]
    preset = {to_ints(m.counts) for m in ddz.legal_moves(to_counts(hand), last, rules="douzero")}
    assert preset > theirs  # the rules also allow 999TTTJJJQQQ+7777-style answers
    assert as_set(dz.legal_actions(hand, rival)) == theirs
