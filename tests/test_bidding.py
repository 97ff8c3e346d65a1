"""Bidding evaluation: the landlord-value estimate against exhaustive
enumeration of small deals, and the playouts over worlds it runs on."""
import itertools
import math

import numpy as np
import pytest

from ddz_fast import Game, game_seed, parse_cards
from ddz_fast.bidding import deal_unseen, landlord_value, record_bidding
from ddz_fast.game import simple_bot

RANKS = "3456789TJQKA2BR"


def bot_playout(hands, landlord, rules="standard"):
    """One game from the landlord's lead, every seat the simple bot, in plain Python."""
    g = Game.from_position(hands, landlord, 1, landlord, rules=rules, played=[0] * len(hands))
    while not g.is_over:
        g.step(simple_bot(g.observation(g.to_move), rules))
    return g.result


def exact_landlord_value(hand, unseen, seat=0, players=3):
    """Win rate and mean landlord score over every deal of the unseen physical
    cards (the kitty to the landlord, blocks to the others), all equally likely."""
    cards = [r for r in range(15) for _ in range(unseen[r])]
    each = int(sum(hand))
    kitty = len(cards) - (players - 1) * each
    wins = pts = n = 0
    idx = range(len(cards))
    for k in itertools.combinations(idx, kitty):
        rest = [i for i in idx if i not in k]
        for a in itertools.combinations(rest, each):
            other = [i for i in rest if i not in a]
            hands = np.zeros((players, 15), dtype=np.uint8)
            hands[seat] = hand
            for i in k:
                hands[seat, cards[i]] += 1
            for i in a:
                hands[(seat + 1) % players, cards[i]] += 1
            for i in other:
                hands[(seat + 2) % players, cards[i]] += 1
            res = bot_playout(hands, seat)
            wins += res.landlord_won
            pts += res.scores[seat]
            n += 1
    return wins / n, pts / n


SMALL = [("3456", "789TJQKAA"), ("2BTT", "3345567QK"), ("55AA", "44KK22R93"), ("9TJQK", "3456789TJQ2")]


@pytest.mark.parametrize("hand,unseen", SMALL)
def test_the_estimate_agrees_with_exhaustive_enumeration_of_small_deals(hand, unseen):
    h, u = parse_cards(hand), parse_cards(unseen)
    exact_wr, exact_adp = exact_landlord_value(h, u)
    v = landlord_value(h, unseen=u, samples=20000, seed=3)
    se_wr = (v.win_rate.high - v.win_rate.mean) / 1.96
    assert abs(v.win_rate.mean - exact_wr) <= 4 * se_wr + 1e-12
    se_adp = (v.adp.high - v.adp.mean) / 1.96
    assert abs(v.adp.mean - exact_adp) <= 4 * se_adp + 1e-12
    assert v.samples == 20000 and v.by_base[3] == pytest.approx(3 * v.adp.mean)


def test_small_deals_cover_wins_and_losses():
    values = [exact_landlord_value(parse_cards(h), parse_cards(u))[0] for h, u in SMALL]
    assert min(values) < 1 and max(values) > 0


def test_dealt_worlds_are_uniform_physical_deals():
    h, u = parse_cards("3456"), parse_cards("789TJQKAA")
    from ddz_fast import PRESETS
    w = deal_unseen(h, u, 1, PRESETS["standard"], 30000, 5)
    assert (w[:, 1] >= h).all() and (w.sum(axis=2) == [4, 5, 4]).all()
    assert (w.sum(axis=1) == h + u).all()
    # each physical A (two of them) lands in the kitty with probability 1/9 each
    kitty_aces = (w[:, 1, 11] - h[11]).mean()
    assert kitty_aces == pytest.approx(2 / 9, abs=0.01)


def test_rollout_over_worlds_plays_each_world_as_a_plain_game_would():
    dealt = Game(seed=11)
    while dealt.phase != dealt.phase.PLAY:
        dealt.step(dealt.legal_actions()[-1])       # the first bidder bids 3
    ll = dealt.landlord
    g = Game.from_position([dealt.hand(p) for p in range(3)], ll, 1, ll, played=[0, 0, 0])
    worlds = g.sample_worlds((ll + 1) % 3, 6, seed=2)
    out = g.rollout(2, policy="bot", worlds=worlds)
    assert len(out) == 12
    for j in range(6):
        ref = bot_playout(worlds[j], ll)
        for k in range(2):
            assert out.scores[2 * j + k].tolist() == list(ref.scores)
            assert bool(out.landlord_won[2 * j + k]) == ref.landlord_won
    rnd = g.rollout(3, policy="random", seed=4, worlds=worlds, threads=2)
    assert np.array_equal(rnd.scores, g.rollout(3, policy="random", seed=4, worlds=worlds).scores)


def test_rollout_worlds_are_checked():
    g = Game.from_position(["3344", "55", "66"], 0)
    bad_size = np.zeros((1, 3, 15), dtype=np.uint8)
    with pytest.raises(ValueError, match="gives seat 0"):
        g.rollout(1, worlds=bad_size)
    with pytest.raises(ValueError, match="shape"):
        g.rollout(1, worlds=np.zeros((1, 2, 15), dtype=np.uint8))
    with pytest.raises(TypeError, match="numpy array"):
        g.rollout(1, worlds=[[[0] * 15] * 3])
    too_many = np.zeros((1, 3, 15), dtype=np.uint8)
    too_many[0, 0, 0] = 4
    too_many[0, 1, 0] = 2
    too_many[0, 2, 0] = 2
    with pytest.raises(ValueError, match="more cards of 3"):
        g.rollout(1, worlds=too_many)
    with pytest.raises(ValueError, match="play phase"):
        Game(seed=1).rollout(1, worlds=np.zeros((0, 3, 15), dtype=np.uint8))
    assert len(g.rollout(5, worlds=np.zeros((0, 3, 15), dtype=np.uint8))) == 0


def test_landlord_value_ranks_hands_and_is_reproducible():
    strong = landlord_value("22AAKKQQJJ99BR345", samples=300, seed=1)
    weak = landlord_value("33445567899TJQK6A", samples=300, seed=1)
    assert strong.win_rate.low > weak.win_rate.high
    assert strong.adp.mean > weak.adp.mean
    again = landlord_value("22AAKKQQJJ99BR345", samples=300, seed=1, threads=2)
    assert again == strong
    rnd = landlord_value("22AAKKQQJJ99BR345", samples=100, policy="random", rollouts=3, seed=1)
    assert rnd.rollouts == 3 and rnd.win_rate.units == 300 and rnd.win_rate.deals == 100
    rob = landlord_value("22AAKKQQJJ99BR345", samples=50, rules=Game("standard").rules.replace(auction="rob"))
    assert sorted(rob.by_base) == [1, 2, 4]


def test_landlord_value_refuses_bad_input():
    with pytest.raises(ValueError, match="holds 17 cards"):
        landlord_value("345")
    with pytest.raises(ValueError, match="more cards of 3"):
        landlord_value("3333", unseen="3456789TJQ")
    with pytest.raises(ValueError, match="fewer than"):
        landlord_value("3456", unseen="789")
    with pytest.raises(ValueError, match="policy"):
        landlord_value("22AAKKQQJJ99BR345", policy="greedy")
    with pytest.raises(ValueError, match="samples"):
        landlord_value("22AAKKQQJJ99BR345", samples=0)
    with pytest.raises(ValueError, match="seat"):
        landlord_value("22AAKKQQJJ99BR345", seat=3)
    with pytest.raises(ValueError):
        landlord_value("", unseen="345")


def test_record_bidding_writes_the_estimates(tmp_path):
    from optional import require
    pq = require("pyarrow.parquet")
    path = tmp_path / "bids.parquet"
    out, n = record_bidding(path, 6, samples=64, seed=2)
    t = pq.read_table(out)
    assert n == 6 and t.num_rows == 6
    row = t.slice(4, 1).to_pylist()[0]
    gs = game_seed(2, 4)
    hand = Game("standard", seed=gs).hand(4 % 3)
    assert row["hand"] == hand.tolist() and row["seat"] == 1 and row["game_seed"] == gs
    v = landlord_value(hand, seat=1, samples=64, seed=gs)
    assert row["win_rate"] == v.win_rate.mean and row["adp_high"] == v.adp.high
    assert b"ddz_fast" in t.schema.metadata
    with pytest.raises(ValueError, match="exists"):
        record_bidding(path, 1)
    assert not math.isnan(row["adp_low"])


@pytest.mark.parametrize("samples, rollouts", [(2**30, 1), (2**22, 2**20), (2**16, 2**17)])
def test_landlord_value_refuses_huge_requests_before_dealing(samples, rollouts):
    """Too many deals, or more playouts than MAX_GAMES, raise ValueError
    naming the limit before anything is dealt (NumPy's allocations, traced,
    stay small)."""
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="samples|MAX_GAMES"):
            landlord_value("22AAKKQQJJ99BR345", samples=samples, rollouts=rollouts, policy="random")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"{peak} bytes allocated before the refusal"


def test_landlord_value_deals_as_before_with_small_card_codes():
    # the deals are made from uint8 card codes (8x less memory): the same
    # deals as NumPy's permutation of the int64 codes gives
    h = parse_cards("22AAKKQQJJ99BR345")
    u = (np.array([4] * 13 + [1, 1]) - h).astype(np.uint8)
    got = deal_unseen(h, u, 0, Game("standard").rules, 50, 9)
    cards = np.repeat(np.arange(15, dtype=np.int64), u.astype(np.int64))
    perm = np.random.default_rng(9).permuted(np.broadcast_to(cards, (50, len(cards))), axis=1)
    want = np.zeros((50, 3, 15), np.uint8)
    want[:, 0] = h
    for i in range(50):
        for j, c in enumerate(perm[i]):
            want[i, 0 if j < 3 else 1 + (j - 3) // 17, c] += 1
    assert np.array_equal(got, want)
