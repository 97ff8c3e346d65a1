"""The reference game on its own (RULES.md "One deal", "Scoring" and the
4-player variant), so that it is checked against the rules and not only
against the compiled engine (tests/test_game_state_machine.py)."""
import copy
import pickle

import pytest

import ddz_fast as d
from ddz_fast import PASS, parse_move
from ddz_fast.game import BID_PASS, CALL, DECLINE, DOUBLE, NO_DOUBLE, ROB, Bid, Phase
from ddz_fast.reference_game import ReferenceGame, SplitMix64, deal

ROB_STD = d.PRESETS["standard"].replace(auction="rob")


def _seed_with_first(rules, first):
    return next(s for s in range(1000) if ReferenceGame(rules, seed=s).first_bidder == first)


def test_splitmix64_known_outputs():
    # The first outputs of SplitMix64 seeded with 0 (Steele, Lea & Flood's
    # reference implementation).
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_deal_sizes_and_conservation(rules):
    r = d.resolve_rules(rules)
    deck = [4 * r.decks] * 13 + [r.decks] * 2
    for seed in range(10):
        g = ReferenceGame(rules, seed=seed)
        assert g.phase is Phase.AUCTION and g.to_move == g.first_bidder
        assert g.hand_sizes == (r.hand_size,) * r.players
        assert int(g.kitty.sum()) == r.kitty_size
        assert (g.hands.sum(axis=0) + g.kitty).tolist() == deck
        assert g.unseen(0).tolist() == (g.hands[1:].sum(axis=0) + g.kitty).tolist()


def test_worked_example_bid_two_one_bomb_no_spring():
    # RULES.md's example: bid 2, one bomb, no spring: value 4, landlord +8,
    # each farmer -4.
    g = ReferenceGame.from_position(["55553", "4", "6"], landlord=0, base=2)
    g.step(parse_move("5555"))
    assert g.bombs == 1 and g.value == 4
    g.step(PASS)
    assert g.passes == 1 and g.last_player == 0
    g.step(PASS)
    assert g.last_move is None and g.last_player is None and g.passes == 0 and g.to_move == 0
    assert PASS not in g.legal_actions()
    g.step(parse_move("3"))
    r = g.result
    assert g.is_over and g.to_move is None and g.legal_actions() == ()
    assert (r.landlord_won, r.winner, r.spring, r.value, r.scores) == (True, 0, 0, 4, (8, -4, -4))
    assert g.returns() == (8, -4, -4) and g.plies == 4


def test_spring_doubles_the_value():
    g = ReferenceGame.from_position(["3456789TJQKA", "33344455566677788", "8999TTTJJJQQQKKKA"],
                                    landlord=0)
    assert g.played == (1, 0, 0)            # the farmers still hold all 17 cards
    g.step(parse_move("3456789TJQKA"))
    assert g.result.spring == 1 and g.result.value == 2 and g.result.scores == (4, -2, -2)


def test_anti_spring_and_its_absence_after_a_second_landlord_move():
    g = ReferenceGame.from_position(["34", "2", "5"], landlord=0, played=[0, 0, 0], base=3)
    g.step(parse_move("3"))
    g.step(parse_move("2"))
    r = g.result
    assert (r.landlord_won, r.winner, r.spring, r.value, r.scores) == (False, 1, 2, 6, (-12, 6, 6))
    g = ReferenceGame.from_position(["345", "2", "6"], landlord=0, played=[0, 0, 0])
    for m in ("3", "pass", "pass", "4", "2"):
        g.step(parse_move(m))
    assert g.result.spring == 0 and g.result.scores == (-2, 1, 1)


def test_four_players_table_clears_after_three_passes():
    g = ReferenceGame.from_position(["33334", "5", "6", "7"], landlord=0, rules="four", base=2)
    g.step(parse_move("3333", rules="four"))
    for passes in (1, 2):
        g.step(PASS)
        assert g.passes == passes and g.last_player == 0
    g.step(PASS)
    assert g.last_move is None and g.passes == 0 and g.to_move == 0
    g.step(parse_move("4", rules="four"))
    assert g.result.value == 4 and g.result.scores == (12, -4, -4, -4)


def test_bid_auction_a_passed_player_may_bid_later():
    g = ReferenceGame(seed=_seed_with_first("standard", 0))
    assert g.legal_actions() == (BID_PASS, Bid(1), Bid(2), Bid(3))
    for a in (BID_PASS, Bid(1), BID_PASS, Bid(2), BID_PASS):
        g.step(a)
    assert g.auction_level == 2 and g.auction_leader == 0 and g.phase is Phase.AUCTION
    g.step(BID_PASS)                        # two passes after a bid end it
    assert g.phase is Phase.PLAY and g.landlord == 0 and g.base == 2 and g.to_move == 0
    assert g.kitty_revealed and g.hand_sizes == (20, 17, 17)
    assert g.history == [(0, Bid(0)), (1, Bid(1)), (2, Bid(0)), (0, Bid(2)), (1, Bid(0)), (2, Bid(0))]


def test_rob_auction_queue_doubling_and_base():
    g = ReferenceGame(ROB_STD, seed=_seed_with_first(ROB_STD, 0))
    g.step(DECLINE)                         # seat 0 declines to call
    g.step(CALL)                            # seat 1 calls: only seat 2 may still rob
    assert g.auction_level == 1 and g.legal_actions() == (DECLINE, ROB) and g.to_move == 2
    g.step(ROB)
    assert g.phase is Phase.DOUBLING and g.landlord == 2 and g.base == 2
    assert g.to_move == 2 and g.legal_actions() == (NO_DOUBLE, DOUBLE)
    g.step(DOUBLE)                          # landlord, then the farmers in seat order
    assert g.to_move == 0
    g.step(NO_DOUBLE)
    g.step(DOUBLE)
    assert g.phase is Phase.PLAY and g.to_move == 2 and g.doubles == 2 and g.value == 8

    g = ReferenceGame(ROB_STD, seed=_seed_with_first(ROB_STD, 1))
    g.step(CALL)
    g.step(ROB)
    g.step(ROB)                             # the last to rob is landlord; base 2**robs
    assert g.auction_level == 3 and g.landlord == 0 and g.base == 4


@pytest.mark.parametrize("rules", ["standard", ROB_STD, "four"])
def test_redeal_continues_the_stream_and_undoes(rules):
    r = d.resolve_rules(rules)
    g = ReferenceGame(rules, seed=1234)
    first = g.hands
    for _ in range(r.players):
        g.step(g.legal_actions()[0])        # pass / decline
    assert g.deal_number == 1 and g.phase is Phase.AUCTION and g.history == []
    rng = SplitMix64(1234)
    deal(rng, r)
    rng.below(r.players)
    hands, kitty = deal(rng, r)
    assert g.hands.tolist() == hands and g.kitty.tolist() == kitty
    assert g.first_bidder == rng.below(r.players)
    g.undo()
    assert g.deal_number == 0 and g.hands.tolist() == first.tolist()
    assert len(g.history) == r.players - 1
    g.step(g.legal_actions()[0])            # the same redeal again
    assert g.deal_number == 1 and g.hands.tolist() == hands


def test_illegal_actions_and_undo_leave_the_state_unchanged():
    g = ReferenceGame.from_position(["345", "2", "6"], landlord=0)
    with pytest.raises(IndexError):
        g.undo()
    before = copy.deepcopy(vars(g))
    for bad in (PASS, parse_move("2"), BID_PASS, CALL, DOUBLE, None, "3"):
        with pytest.raises(ValueError):
            g.step(bad)
    assert vars(g) == before
    g.step(parse_move("3"))
    with pytest.raises(ValueError):
        g.step(parse_move("3"))             # does not beat a 3
    g.undo()
    assert vars(g) == before


def test_copies_are_independent():
    g = ReferenceGame(seed=3)
    for make in (ReferenceGame.clone, copy.copy, copy.deepcopy,
                 lambda x: pickle.loads(pickle.dumps(x))):
        c = make(g)
        c.step(c.legal_actions()[-1])
        assert g.history == [] and c.history != []
        h = g.hands
        h[:] = 0                            # arrays handed out are copies
        assert g.hand_sizes == (17, 17, 17)


def test_from_position_checks():
    with pytest.raises(ValueError):
        ReferenceGame.from_position(["4", "3333", "5"], landlord=0, kitty="345")  # a fifth 3
    with pytest.raises(ValueError):
        ReferenceGame.from_position(["3", "4", "5"], landlord=0, kitty="33")    # two cards
    with pytest.raises(ValueError):
        ReferenceGame.from_position(["3", "4", "5"], landlord=0, base=0)
    with pytest.raises(ValueError):
        ReferenceGame.from_position(["3", "4", "5"], landlord=0, last=parse_move("6"),
                                    last_player=0)
    # The landlord took a 3 from the kitty and has just played it: the three
    # other 3s held by the farmers are no contradiction.
    g = ReferenceGame.from_position(["4", "333", "5"], landlord=0, to_move=1,
                                    last=parse_move("3"), last_player=0, kitty="36K")
    assert g.passes == 0 and tuple(g.played_cards[0]) == parse_move("3").counts
    assert g.kitty_revealed and g.unseen(1).tolist() == d.to_counts("45").tolist()
