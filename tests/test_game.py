"""The game engine (docs/rules.md "One deal", "Scoring", the 4-player variant):
deals, both auctions, play, scoring, undo/clone, observations, sessions."""
import pickle

import numpy as np
import pytest

import ddz_fast as d
from ddz_fast import (
    BID_PASS, CALL, DECLINE, DOUBLE, NO_DOUBLE, PASS, ROB, Bid, Double, Game, Kind, Move,
    Phase, Rules, Session, SplitMix64, game_seed, parse_move, play_random_games,
    policy_seed, settle,
)
from ddz_fast._engine import deal

ROB_STD = Rules(auction="rob")
ROB_FOUR = d.PRESETS["four"].replace(auction="rob")
ALL_RULES = [
    pytest.param("standard", id="standard"),
    pytest.param("strict", id="strict"),
    pytest.param("four", id="four"),
    pytest.param(ROB_STD, id="standard-rob"),
    pytest.param(ROB_FOUR, id="four-rob"),
]

M64 = (1 << 64) - 1


# ---------------------------------------------------------------------------
# An independent pure-Python SplitMix64 and shuffle (the documented algorithm)
# ---------------------------------------------------------------------------

def _mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class PySplitMix:
    def __init__(self, s):
        self.s = s & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        return _mix(self.s)

    def below(self, n):
        t = (1 << 64) % n
        while True:
            m = self.next() * n
            if m & M64 >= t:
                return m >> 64


def py_deal(rng, rules):
    r = d.resolve_rules(rules)
    deck = [k for k in range(13) for _ in range(4 * r.decks)] + [13] * r.decks + [14] * r.decks
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    h = r.hand_size
    hands = np.zeros((r.players, 15), dtype=np.uint8)
    for i in range(r.players * h):
        hands[i // h, deck[i]] += 1
    kitty = np.bincount(deck[r.players * h:], minlength=15).astype(np.uint8)
    return hands, kitty


def test_splitmix_known_vector_and_python_twin():
    # First outputs of SplitMix64 seeded with 0 (the published reference).
    r = SplitMix64(0)
    assert r.next() == 0xE220A8397B1DCDAF
    assert r.next() == 0x6E789E6AA1B965F4
    for seed in (0, 1, 12345, M64, -1):
        a, b = SplitMix64(seed), PySplitMix(seed)
        for n in (1, 2, 3, 7, 54, 1000, 2**63 + 5):
            assert a.below(n) == b.below(n)
        assert a.state == b.s
    assert game_seed(7, 3) == _mix((7 + 4 * 0x9E3779B97F4A7C15) & M64)
    assert policy_seed(99) == _mix(99 ^ 0x5851F42D4C957F2D)


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_deal_matches_documented_algorithm(rules):
    for seed in range(50):
        a, b = SplitMix64(seed), PySplitMix(seed)
        ha, ka = deal(a, rules)
        hb, kb = py_deal(b, rules)
        assert np.array_equal(ha, hb) and np.array_equal(ka, kb)
        assert a.state == b.s


@pytest.mark.parametrize("rules,sizes,kitty", [("standard", 17, 3), ("four", 25, 8)])
def test_deal_sizes_and_conservation(rules, sizes, kitty):
    r = d.resolve_rules(rules)
    full = np.array([4 * r.decks] * 13 + [r.decks] * 2)
    for seed in range(30):
        g = Game(rules, seed=seed)
        assert g.phase is Phase.AUCTION
        assert g.hand_sizes == (sizes,) * r.players
        assert int(g.kitty.sum()) == kitty
        assert np.array_equal(g.hands.sum(axis=0) + g.kitty, full)
        assert g.hands.dtype == np.uint8 and g.hands.shape == (r.players, 15)
        assert g.to_move == g.first_bidder
        assert 0 <= g.first_bidder < r.players


def test_same_seed_same_deal_and_seed_kept():
    a, b = Game(seed=42), Game(seed=42)
    assert np.array_equal(a.hands, b.hands) and a.first_bidder == b.first_bidder
    assert not np.array_equal(a.hands, Game(seed=43).hands)
    # The deal is a function of the seed alone.
    rng = PySplitMix(42)
    hands, kitty = py_deal(rng, "standard")
    assert np.array_equal(a.hands, hands) and np.array_equal(a.kitty, kitty)
    assert a.first_bidder == rng.below(3)
    g = Game()
    assert isinstance(g.seed, int) and np.array_equal(Game(seed=g.seed).hands, g.hands)
    with pytest.raises(TypeError):
        Game(seed="7")


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

def test_worked_example_settle():
    # docs/rules.md, the worked example: bid 2, one bomb, no spring, landlord wins.
    assert settle(3, 0, True, base=2, bombs=1, spring=0) == (4, (8, -4, -4))
    assert settle(3, 1, False, base=2, bombs=1, spring=0) == (4, (4, -8, 4))
    assert settle(4, 2, True, base=1, bombs=0, spring=1) == (2, (-2, -2, 6, -2))
    assert settle(3, 0, True, base=4, bombs=0, spring=0, doubles=2) == (16, (32, -16, -16))


def test_worked_example_played():
    # The landlord bombs with 5555, both farmers pass, then goes out with a 3.
    g = Game.from_position(["55553", "4", "6"], landlord=0, base=2)
    g.step(parse_move("5555"))
    assert g.bombs == 1 and g.value == 4
    g.step(PASS)
    g.step(PASS)
    assert g.last_move is None and g.to_move == 0          # the table cleared
    assert PASS not in g.legal_actions()
    g.step(parse_move("3"))
    r = g.result
    assert g.is_over and r.landlord_won and r.winner == 0
    assert (r.value, r.scores, r.spring, r.bombs, r.base) == (4, (8, -4, -4), 0, 1, 2)
    assert sum(r.scores) == 0
    assert g.legal_actions() == () and g.to_move is None


FARMER_A = "33344455566677788"   # 17 cards, no bomb, no rocket
FARMER_B = "8999TTTJJJQQQKKKA"


def test_spring():
    # Farmers still hold all their 17 cards; the landlord goes out at once.
    g = Game.from_position(["3456789TJQKA", FARMER_A, FARMER_B], landlord=0)
    assert g.played == (1, 0, 0)
    g.step(parse_move("3456789TJQKA"))
    r = g.result
    assert r.spring == 1 and r.value == 2 and r.scores == (4, -2, -2)


def test_no_spring_when_a_farmer_played():
    g = Game.from_position(["3456789TJQKA", FARMER_A, FARMER_B], landlord=0, played=[1, 0, 1])
    g.step(parse_move("3456789TJQKA"))
    assert g.result.spring == 0 and g.result.scores == (2, -1, -1)


def test_anti_spring():
    g = Game.from_position(["34", "2", "5"], landlord=0, played=[0, 0, 0], base=3)
    g.step(parse_move("3"))
    g.step(parse_move("2"))
    r = g.result
    assert not r.landlord_won and r.winner == 1 and r.spring == 2
    assert r.value == 6 and r.scores == (-12, 6, 6)


def test_no_anti_spring_after_two_landlord_moves():
    g = Game.from_position(["345", "2", "6"], landlord=0, played=[0, 0, 0])
    g.step(parse_move("3"))
    g.step(PASS)
    g.step(PASS)
    g.step(parse_move("4"))
    g.step(parse_move("2"))
    assert g.result.spring == 0 and g.result.scores == (-2, 1, 1)


def test_four_player_scoring_and_table_clearing():
    four = "four"
    g = Game.from_position(["33334", "5", "6", "7"], landlord=0, rules=four, base=2)
    g.step(parse_move("3333", rules=four))
    for _ in range(3):
        assert g.last_move is not None
        g.step(PASS)
    assert g.last_move is None and g.to_move == 0
    g.step(parse_move("4", rules=four))
    r = g.result
    assert r.value == 4 and r.scores == (12, -4, -4, -4)


def test_bigger_bomb_and_rocket_count():
    four = "four"
    g = Game.from_position(["3333K", "44444Q", "BBRR5", "7"], landlord=0, rules=four)
    g.step(parse_move("3333", rules=four))
    g.step(parse_move("44444", rules=four))     # more cards beat fewer
    g.step(parse_move("BBRR", rules=four))
    assert g.bombs == 3 and g.last_move.kind is Kind.ROCKET
    for _ in range(3):
        assert list(g.legal_actions()) == [PASS]
        g.step(PASS)
    assert g.to_move == 2 and g.last_move is None
    g.step(parse_move("5", rules=four))
    r = g.result
    assert not r.landlord_won and r.spring == 0 and r.value == 8
    assert r.scores == (-24, 8, 8, 8)


# ---------------------------------------------------------------------------
# Auctions
# ---------------------------------------------------------------------------

def _seed_with_first(rules, first):
    for s in range(1000):
        g = Game(rules, seed=s)
        if g.first_bidder == first:
            return s
    raise AssertionError


def test_bid_auction_flow():
    g = Game(seed=_seed_with_first("standard", 0))
    assert g.legal_actions() == (BID_PASS, Bid(1), Bid(2), Bid(3))
    g.step(BID_PASS)            # seat 0
    g.step(Bid(1))              # seat 1
    assert g.legal_actions() == (BID_PASS, Bid(2), Bid(3))
    g.step(BID_PASS)            # seat 2
    g.step(Bid(2))              # seat 0 passed before and may still bid higher
    g.step(BID_PASS)            # seat 1
    assert g.phase is Phase.AUCTION and g.landlord is None and not g.kitty_revealed
    g.step(BID_PASS)            # seat 2: two passes after a bid end it
    assert g.phase is Phase.PLAY and g.landlord == 0 and g.base == 2
    assert g.kitty_revealed and g.hand_sizes == (20, 17, 17) and g.to_move == 0
    acts = g.legal_actions()
    assert isinstance(acts, d.MoveList) and acts == d.legal_moves(g.hand(0), None)
    assert g.legal_actions() is acts                      # cached per state
    assert g.history == [(0, Bid(0)), (1, Bid(1)), (2, Bid(0)), (0, Bid(2)), (1, Bid(0)), (2, Bid(0))]


def test_bid_of_three_ends_auction():
    g = Game(seed=_seed_with_first("standard", 1))
    g.step(Bid(1))
    g.step(Bid(3))
    assert g.phase is Phase.PLAY and g.landlord == 2 and g.base == 3
    assert g.legal_actions()[0].kind is not Kind.PASS   # the landlord leads


def test_bid_auction_four_players():
    g = Game("four", seed=_seed_with_first("four", 0))
    g.step(Bid(1))
    for _ in range(2):
        g.step(BID_PASS)
    assert g.phase is Phase.AUCTION
    g.step(BID_PASS)               # three passes after the bid
    assert g.landlord == 0 and g.hand_sizes == (33, 25, 25, 25) and g.base == 1


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_redeal_on_all_pass(rules):
    seed = 1234
    g = Game(rules, seed=seed)
    n = g.players
    first_hands = g.hands
    for _ in range(n - 1):
        g.step(BID_PASS)
        assert g.deal_number == 0
    g.step(BID_PASS)
    assert g.deal_number == 1 and g.phase is Phase.AUCTION and g.history == []
    # The second deal continues the seed's stream: shuffle, first bidder, shuffle, first bidder.
    rng = PySplitMix(seed)
    py_deal(rng, rules)
    rng.below(n)
    hands, kitty = py_deal(rng, rules)
    assert np.array_equal(g.hands, hands) and np.array_equal(g.kitty, kitty)
    assert g.first_bidder == rng.below(n)
    assert not np.array_equal(first_hands, g.hands)
    g.undo()
    assert g.deal_number == 0 and np.array_equal(g.hands, first_hands) and len(g.history) == n - 1


def test_rob_auction_each_rob_doubles_and_doubling():
    g = Game(ROB_STD, seed=_seed_with_first(ROB_STD, 1))
    assert g.legal_actions() == (DECLINE, CALL)
    g.step(CALL)                    # seat 1 calls
    assert g.legal_actions() == (DECLINE, ROB)
    g.step(ROB)                     # seat 2 robs
    g.step(ROB)                     # seat 0 robs: last to rob is landlord
    assert g.phase is Phase.DOUBLING and g.landlord == 0 and g.base == 4
    assert g.kitty_revealed and g.hand_sizes == (20, 17, 17)
    assert g.to_move == 0 and g.legal_actions() == (NO_DOUBLE, DOUBLE)
    g.step(DOUBLE)                  # landlord
    assert g.to_move == 1
    g.step(Double(False))
    g.step(Double(True))
    assert g.phase is Phase.PLAY and g.to_move == 0 and g.doubles == 2 and g.value == 16
    _play_out(g, 5)
    r = g.result
    assert r.base == 4 and r.doubles == 2
    assert r.value == 4 << (r.bombs + 2 + (1 if r.spring else 0))


def test_rob_declined_player_cannot_rob_and_caller_gets_no_second_chance():
    g = Game(ROB_STD, seed=_seed_with_first(ROB_STD, 0))
    g.step(DECLINE)     # seat 0 declines to call
    g.step(CALL)        # seat 1 calls
    assert g.to_move == 2
    g.step(ROB)         # seat 2 robs; seat 0 declined, seat 1 gets no re-rob
    assert g.phase is Phase.DOUBLING and g.landlord == 2 and g.base == 2


def test_rob_nobody_robs():
    g = Game(ROB_STD, seed=_seed_with_first(ROB_STD, 2))
    g.step(CALL)
    g.step(DECLINE)
    g.step(DECLINE)
    assert g.landlord == 2 and g.base == 1


def test_rob_last_seat_calls_ends_auction():
    g = Game(ROB_STD, seed=_seed_with_first(ROB_STD, 0))
    g.step(DECLINE)
    g.step(DECLINE)
    g.step(CALL)        # everybody else declined already
    assert g.phase is Phase.DOUBLING and g.landlord == 2 and g.base == 1


def test_rob_redeal_when_nobody_calls():
    g = Game(ROB_FOUR, seed=5)
    first = g.hands
    for _ in range(4):
        g.step(DECLINE)
    assert g.deal_number == 1 and g.phase is Phase.AUCTION and g.history == []
    assert not np.array_equal(g.hands, first)
    g.undo()
    g2 = Game(ROB_FOUR, seed=5)
    for _ in range(3):
        g2.step(DECLINE)
    assert g.snapshot() == g2.snapshot()


# ---------------------------------------------------------------------------
# Legality, undo, clone, observation
# ---------------------------------------------------------------------------

def _play_out(g, seed):
    rng = SplitMix64(seed)
    while not g.is_over:
        acts = g.legal_actions()
        g.step(acts[rng.below(len(acts))])
    return g


def test_illegal_actions_rejected_state_unchanged():
    g = Game(seed=_seed_with_first("standard", 0))
    g.step(Bid(2))
    snap = g.snapshot()
    for bad in (Bid(1), Bid(2), CALL, ROB, DOUBLE, PASS, parse_move("3"), "bid 3", None, 3):
        with pytest.raises(d.IllegalActionError) as e:
            g.step(bad)
        assert repr(bad) in str(e.value)
        assert g.snapshot() == snap
    g.step(Bid(3))
    assert g.phase is Phase.PLAY
    hand = g.hand(g.to_move)
    missing = next(r for r in range(15) if hand[r] == 0)
    not_held = Move(Kind.SOLO, [1 if i == missing else 0 for i in range(15)])
    snap = g.snapshot()
    for bad in (PASS, not_held, Bid(0), DECLINE, "3", None):
        with pytest.raises(d.IllegalActionError) as e:
            g.step(bad)
        assert repr(bad) in str(e.value)
        assert g.snapshot() == snap
    low = next(m for m in g.legal_actions() if m.kind is Kind.SOLO)
    g.step(low)
    snap = g.snapshot()
    # A card of the same rank does not beat it; a pair is the wrong kind.
    for bad in (low, Move(Kind.PAIR, "33")):
        with pytest.raises(d.IllegalActionError, match="illegal action"):
            g.step(bad)
        assert g.snapshot() == snap
    _play_out(g, 1)
    snap = g.snapshot()
    with pytest.raises(d.IllegalActionError, match="over"):
        g.step(PASS)
    assert g.snapshot() == snap


def test_step_without_legal_actions_call_and_equal_moves():
    g = Game.from_position(["3344", "5", "6"], landlord=0)
    g.step(Move(Kind.PAIR, "33"))     # a fresh, equal Move object is accepted
    assert g.last_move == parse_move("33")


@pytest.mark.parametrize("rules", ALL_RULES)
def test_undo_restores_every_state_exactly(rules):
    for seed in range(8):
        g = Game(rules, seed=seed)
        rng = SplitMix64(seed + 100)
        snaps = [g.snapshot()]
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.below(len(acts))])
            snaps.append(g.snapshot())
        while len(snaps) > 1:
            snaps.pop()
            g.undo()
            assert g.snapshot() == snaps[-1]
        with pytest.raises(IndexError):
            g.undo()


def test_undo_across_redeals():
    # Find games with a redeal in the compiled playouts, replay and unwind them.
    res = play_random_games(400, seed=3)
    seeds = [int(s) for s, k in zip(res.game_seeds, res.redeals) if k > 0][:3]
    assert seeds
    for gs in seeds:
        g = Game("standard", seed=gs)
        rng = SplitMix64(policy_seed(gs))
        snaps = [g.snapshot()]
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.below(len(acts))])
            snaps.append(g.snapshot())
        assert g.deal_number > 0
        for s in reversed(snaps[:-1]):
            g.undo()
            assert g.snapshot() == s


def test_clone_is_independent():
    g = Game(ROB_STD, seed=11)
    rng = SplitMix64(0)
    for _ in range(12):
        acts = g.legal_actions()
        g.step(acts[rng.below(len(acts))])
    snap = g.snapshot()
    c = g.clone()
    assert c.snapshot() == snap
    _play_out(c, 2)
    assert g.snapshot() == snap
    while True:
        try:
            c.undo()
        except IndexError:
            break
    assert g.snapshot() == snap
    # and the other way round
    c2 = g.clone()
    snap2 = c2.snapshot()
    _play_out(g, 3)
    for _ in range(5):
        g.undo()
    assert c2.snapshot() == snap2
    import copy
    assert copy.deepcopy(c2).snapshot() == snap2


def test_clone_across_redeal_records():
    g = Game(seed=1234)
    for _ in range(3):
        g.step(BID_PASS)
    assert g.deal_number == 1
    c = g.clone()
    g.undo()
    g.step(Bid(3))          # mutates the restored first deal's hands
    c.undo()
    assert c.deal_number == 0 and np.array_equal(c.hands, Game(seed=1234).hands)


def test_observation_hides_other_hands():
    g = Game(seed=_seed_with_first("standard", 0))
    o = g.observation(1)
    assert np.array_equal(o.hand, g.hand(1)) and o.hand_sizes == (17, 17, 17)
    assert o.kitty is None and o.landlord is None and o.legal_actions == ()
    assert g.observation(0).legal_actions == g.legal_actions()
    public = ("played_cards", "unseen", "landlord_holds")
    arrays = [v for k, v in vars(o).items() if isinstance(v, np.ndarray) and k not in public]
    assert len(arrays) == 1 and arrays[0] is o.hand      # no other hand, no kitty yet
    assert not o.played_cards.any()                      # (public: the cards played so far)
    # what the player cannot see is the whole deck but its own hand, the kitty included
    assert o.unseen.tolist() == [(4 if r < 13 else 1) - int(o.hand[r]) for r in range(15)]
    assert not o.landlord_holds.any()                    # no kitty shown yet
    g.step(Bid(3))
    o = g.observation(2)
    assert o.landlord == 0 and np.array_equal(o.kitty, g.kitty) and o.hand_sizes == (20, 17, 17)
    assert o.history == ((0, Bid(3)),) and o.phase is Phase.PLAY and o.to_move == 0
    o.hand[:] = 0                 # a copy: the game is untouched
    assert g.hand(2).sum() == 17
    with pytest.raises(ValueError):
        g.observation(3)


def test_observation_play_phase_fields():
    g = Game.from_position(["3344", "55", "66"], landlord=0, base=2)
    g.step(parse_move("33"))
    o = g.observation(1)
    assert o.last_move == parse_move("33") and o.last_player == 0 and o.to_move == 1
    assert o.legal_actions == g.legal_actions() and o.base == 2 and o.kitty is None


# ---------------------------------------------------------------------------
# from_position
# ---------------------------------------------------------------------------

def test_from_position_defaults_and_last_move():
    last = parse_move("44")
    g = Game.from_position(["3355", "66", "77"], landlord=0, to_move=2, last=last, last_player=0)
    assert g.to_move == 2 and g.last_move == last and g.last_player == 0
    assert list(g.legal_actions()) == [PASS, parse_move("77")]
    g.step(PASS)       # seats 1 (implicitly) and 2 passed: the table clears
    assert g.last_move is None and g.to_move == 0
    g2 = Game.from_position([np.array([2, 0, 2] + [0] * 12, dtype=np.uint8), "66", "77"],
                            landlord=1, to_move=0, last=parse_move("55"))
    assert g2.last_player == 2 and g2.legal_actions() == [PASS]


@pytest.mark.parametrize("kwargs,match", [
    (dict(hands=["33", "44"], landlord=0), "3 hands"),
    (dict(hands=["33", "44", ""], landlord=0), "no cards"),
    (dict(hands=["3333", "3", "4"], landlord=0), "at most 4"),
    (dict(hands=["33", "44", "55"], landlord=3), "landlord"),
    (dict(hands=["33", "44", "55"], landlord=0, base=0), "base"),
    (dict(hands=["33", "44", "55"], landlord=0, to_move=1, last=parse_move("33"), last_player=1), "last_player"),
    (dict(hands=["333", "44", "55"], landlord=0, to_move=1, last=parse_move("33")), "at most 4"),
])
def test_from_position_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Game.from_position(**kwargs)


def test_from_position_rejects_invalid_last():
    bad = Move._make(Kind.PAIR, [1, 1] + [0] * 13, 1, 1)
    with pytest.raises(ValueError):
        Game.from_position(["55", "66", "77"], landlord=0, to_move=1, last=bad)


# ---------------------------------------------------------------------------
# Whole random games: invariants, and agreement with the compiled playouts
# ---------------------------------------------------------------------------

def _full_deck(r):
    return np.array([4 * r.decks] * 13 + [r.decks] * 2, dtype=np.int64)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_conservation_and_zero_sum_python_games(rules):
    r = d.resolve_rules(rules)
    full = _full_deck(r)
    for seed in range(60):
        g = Game(r, seed=seed)
        rng = SplitMix64(seed)
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[rng.below(len(acts))])
            played = np.zeros(15, dtype=np.int64)
            for _, a in g.history:
                if isinstance(a, Move):
                    played += np.array(a.counts)
            hidden = 0 if g.kitty_revealed else g.kitty.astype(np.int64)
            assert np.array_equal(g.hands.sum(axis=0, dtype=np.int64) + played + hidden, full)
            assert sum(g.hand_sizes) + int(played.sum()) + (0 if g.kitty_revealed else r.kitty_size) == r.deck_size
        res = g.result
        assert sum(res.scores) == 0
        assert g.hand_sizes[res.winner] == 0
        assert res.landlord_won == (res.winner == res.landlord)
        ll = res.scores[res.landlord]
        assert ll == (r.players - 1) * res.value * (1 if res.landlord_won else -1)


def _python_random_game(rules, gseed):
    g = Game(rules, seed=gseed)
    pol = SplitMix64(policy_seed(gseed))
    while not g.is_over:
        acts = g.legal_actions()
        g.step(acts[pol.below(len(acts))])
    return g


@pytest.mark.parametrize("rules", ALL_RULES)
def test_python_game_replays_compiled_playouts_exactly(rules):
    n = 1000
    res = play_random_games(n, rules=rules, seed=2024)
    for i in range(n):
        g = _python_random_game(rules, int(res.game_seeds[i]))
        r = g.result
        got = (r.landlord, r.landlord_won, r.scores, r.plies, r.bombs, r.spring, r.base,
               r.redeals, r.doubles, r.value, g.hand_sizes, sum(len(a) for _, a in g.history if isinstance(a, Move)))
        want = (int(res.landlord[i]), bool(res.landlord_won[i]), tuple(int(x) for x in res.scores[i]),
                int(res.plies[i]), int(res.bombs[i]), int(res.spring[i]), int(res.base[i]),
                int(res.redeals[i]), int(res.doubles[i]), int(res.value[i]),
                tuple(int(x) for x in res.cards_left[i]), int(res.cards_played[i]))
        assert got == want, f"game {i}"


# ---------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------

def test_session_running_totals_and_deals():
    s = Session("standard", seed=9)
    rng = SplitMix64(1)

    def agent(obs):
        acts = obs.legal_actions
        return acts[rng.below(len(acts))]

    seen = []
    results = s.play([agent] * 3, deals=5, on_step=lambda g, seat, a: seen.append(seat))
    assert len(results) == 5 and s.deals == 5 and len(seen) > 0
    assert s.totals == [sum(r.scores[i] for r in results) for i in range(3)]
    assert sum(s.totals) == 0
    assert np.array_equal(s.new_game().hands, Game(seed=game_seed(9, 5)).hands)
    with pytest.raises(ValueError):
        s.record(Game(seed=1))
    with pytest.raises(ValueError):
        s.play([agent] * 2)


def test_session_deals_match_playouts():
    res = play_random_games(5, rules="four", seed=77)
    s = Session("four", seed=77)
    for i in range(5):
        g = s.new_game()
        assert g.seed == int(res.game_seeds[i])
        pol = SplitMix64(policy_seed(g.seed))
        while not g.is_over:
            acts = g.legal_actions()
            g.step(acts[pol.below(len(acts))])
        s.record(g)
    assert s.totals == [int(x) for x in res.scores.sum(axis=0)]


def test_action_types():
    assert str(Bid(0)) == "pass" and str(Bid(2)) == "bid 2"
    assert Bid(2) == Bid(2) and Bid(2) != Bid(3) and hash(Bid(1)) == hash(Bid(1))
    assert str(DOUBLE) == "double" and str(NO_DOUBLE) == "no double"
    assert CALL != ROB and DECLINE == d.Decline()
    with pytest.raises(ValueError):
        Bid(4)
    with pytest.raises(ValueError):
        Double(1)
    for a in (Bid(1), CALL, ROB, DECLINE, DOUBLE):
        assert pickle.loads(pickle.dumps(a)) == a
        assert isinstance(a, d.AuctionAction)


def test_pickle_round_trip_mid_game():
    for rules in ("standard", ROB_FOUR):
        g = Game(rules, seed=3)
        rng = SplitMix64(1)
        for _ in range(25):
            a = g.legal_actions()
            g.step(a[rng.below(len(a))])
        h = pickle.loads(pickle.dumps(g))
        assert type(h) is Game and h.snapshot() == g.snapshot()
        h.undo()
        g.undo()
        assert h.snapshot() == g.snapshot()
        _play_out(h, 4)
        _play_out(g, 4)
        assert h.result == g.result


def test_game_has_no_instance_dict_and_repr():
    g = Game(seed=1)
    assert not hasattr(g, "__dict__")
    assert "phase=AUCTION" in repr(g)
    g2 = Game.from_position(["33", "44", "55"], landlord=1, to_move=1)
    assert "landlord=1" in repr(g2) and g2.phase is Phase.PLAY and g2.first_bidder is None


@pytest.mark.parametrize("rules", ALL_RULES)
def test_simple_bot_sessions(rules):
    from ddz_fast.game import simple_bot
    r = d.resolve_rules(rules)
    s = Session(r, seed=12)
    bot = lambda obs: simple_bot(obs, r)    # noqa: E731
    results = s.play([bot] * r.players, deals=60)
    assert sum(s.totals) == 0 and len(results) == 60
    assert all(sum(x.scores) == 0 for x in results)
    # deterministic: the same session seed gives the same results
    s2 = Session(r, seed=12)
    assert s2.play([bot] * r.players, deals=60) == results


def test_step_keeps_the_legal_lists_move_not_a_forged_one():
    # A Move forged with the right kind and cards but another rank compares
    # equal to the legal move; the table must hold the legal one.
    from ddz_fast import Move
    g = Game.from_position(["3345", "6", "7"], landlord=0)
    legal = g.legal_actions()[1]
    g.step(Move._make(int(legal.kind), legal.counts, 9, 1))
    assert g.last_move.rank == legal.rank
    assert len(g.legal_actions()) >= 1  # the next player's list builds fine


def test_a_session_refuses_rules_tampered_with_after_construction():
    r = Rules()
    object.__setattr__(r, "players", 2**31)      # frozen dataclass, forced
    with pytest.raises(ValueError, match="players"):
        Session(r)


# ---------------------------------------------------------------------------
# Action ids (docs/actions.md): auction codes 0..8, then move k at 9 + k
# ---------------------------------------------------------------------------

def _documented_ids(g):
    """The ids of g's legal actions by the documented layout, computed from the actions."""
    from ddz_fast.actions import action_space
    from ddz_fast.game_values import AUCTION_ACTIONS
    legal = g.legal_actions()
    if isinstance(legal, tuple):
        return [AUCTION_ACTIONS.index(a) for a in legal]
    space = action_space(g.rules)
    return [9 + space.move_to_id(m) for m in legal]


@pytest.mark.parametrize("rules", ALL_RULES)
def test_legal_ids_are_the_documented_ids_and_step_id_plays_them(rules):
    """Through whole deals (redeals and doubling included): legal_ids lists
    the documented id of each legal action in legal_actions() order, and
    step_id(id) leaves the same state as step(action)."""
    rng = np.random.default_rng(7)
    for seed in range(6):
        a = Game(rules, seed=seed)
        b = Game(rules, seed=seed)
        while not a.is_over:
            ids = a.legal_ids()
            assert ids.dtype == np.int64
            assert ids.tolist() == _documented_ids(a)
            k = int(rng.integers(len(ids)))
            a.step_id(int(ids[k]))
            b.step(b.legal_actions()[k])
            assert a.snapshot() == b.snapshot()
        assert a.legal_ids().tolist() == []


def test_step_id_refuses_bad_ids_and_leaves_the_game_unchanged():
    g = Game("standard", seed=5)
    before = g.snapshot()
    for bad, err, text in [(5, ValueError, "illegal action Call"),          # the other auction's id
                           (9, ValueError, "illegal action Move\\(PASS\\)"),  # a move in the auction
                           (-1, ValueError, "out of range"),
                           (9 + d.action_space("standard").size, ValueError, "out of range"),
                           (3.0, TypeError, "int"), ("3", TypeError, "int")]:
        with pytest.raises(err, match=text):
            g.step_id(bad)
        assert g.snapshot() == before
    g.step_id(np.int64(3))                  # Bid(3), a NumPy integer
    assert g.phase == Phase.PLAY
    with pytest.raises(ValueError, match="a lead cannot be PASS"):
        g.step_id(9)
    with pytest.raises(ValueError, match="takes a Move"):
        g.step_id(3)
    lead = g.legal_actions()[0]
    g.step_id(9 + d.action_space("standard").move_to_id(lead))
    assert g.history[-1][1] == lead
    not_held = [i for i in range(10, 200)
                if d.action_space("standard").id_to_move(i - 9) not in g.legal_actions()]
    with pytest.raises(ValueError, match="illegal action"):
        g.step_id(not_held[0])
