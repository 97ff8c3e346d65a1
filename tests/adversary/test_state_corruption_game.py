"""No Python-reachable input leaves a game-side object in a state the rules
cannot reach: ``Game.from_position`` checks the whole position together (so
every later step, result and score stays exact), a refused
``Session.record`` changes nothing, and copies are independent."""
import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz_fast as d
from ddz_fast import Game, Session, Solver, parse_move
from ddz_fast.game import game_seed

# A four-player position holding 25 bombs: with bombs=27 already played,
# the stake would pass 2**63 and the scores wrap.
BOMB_HANDS = ["3333444455556666777788889999TTTTJ", "333344445555666677778888Q",
              "99990000JJJJQQQQKKKKAAAAQ".replace("0", "T"), "KKKKAAAA22222222BBRR"]


def _play_to_end(g, pick=-1):
    while not g.is_over:
        g.step(g.legal_actions()[pick])
    return g


def test_from_position_refuses_bombs_the_deck_cannot_hold_with_the_hands():
    with pytest.raises(ValueError, match="bombs"):
        Game.from_position(BOMB_HANDS, 0, rules="four", bombs=27, doubles=4, base=2**20)
    with pytest.raises(ValueError, match="bombs"):
        Game.from_position(["3333", "4", "5"], 0, bombs=14)      # 14 so far and one in hand


@settings(max_examples=40, deadline=None)
@given(bombs=st.integers(0, 27), doubles=st.integers(0, 4), base=st.sampled_from([1, 3, 2**10, 2**20]),
       seed=st.integers(0, 2**32))
def test_every_accepted_position_scores_exactly(bombs, doubles, base, seed):
    try:
        g = Game.from_position(BOMB_HANDS, 0, rules="four", bombs=bombs, doubles=doubles, base=base)
    except ValueError:
        return
    r = g.rollout(64, seed=seed)
    sums = r.scores.sum(axis=1)
    assert not sums.any()
    ll = r.scores[:, 0]
    assert (ll[r.landlord_won] > 0).all() and (ll[~r.landlord_won] < 0).all()
    # and the Python path agrees: exact, zero-sum, landlord's sign right
    res = _play_to_end(g.clone()).result
    assert sum(res.scores) == 0 and (res.scores[0] > 0) == res.landlord_won
    assert res.value == base << (res.bombs + res.doubles + (1 if res.spring else 0))


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(hands=["3", "4", "5"], landlord=0, kitty="3333"), ValueError, "kitty"),
    (dict(hands=["3", "4", "5"], landlord=0, kitty="3" * 4 + "4" * 4 + "5"), ValueError, "kitty"),
    (dict(hands=["3", "4", "5"], landlord=0, last_player=1), ValueError, "last_player"),
    (dict(hands=["3", "4", "5"], landlord=0, to_move=1, last=parse_move("6"), last_player=1),
     ValueError, "last_player"),
    (dict(hands=["3", "4", "5"], landlord=0, played=iter([0, 0, 0])), TypeError, "played"),
    (dict(hands=["3", "4", "5"], landlord=0, played="000"), TypeError, "played"),
    (dict(hands=["3", "4", "5"], landlord=0, played=[2**31 - 1, 0, 0]), ValueError, "played"),
    (dict(hands=["3", "4", "5"], landlord=0, base=np.uint64(2**63)), ValueError, "base"),
    (dict(hands=["3", "4", "5"], landlord=0, doubles=np.int8(4)), ValueError, "doubles"),
    (dict(hands=["3", "4", "5"], landlord=np.True_), TypeError, "landlord"),
    (dict(hands=["3" * 5, "4", "5"], landlord=0), ValueError, "3"),
    (dict(hands=["BB", "4", "5"], landlord=0), ValueError, "joker"),
    (dict(hands=["3456789TJQKA2BR345", "6", "7"], landlord=1), ValueError, "dealt"),
])
def test_from_position_refuses_inconsistent_positions(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        Game.from_position(**kwargs)


def test_from_position_converts_numpy_ints_once():
    g = Game.from_position(["3", "4", "5"], np.int64(1), base=np.uint16(3), to_move=np.int8(1),
                           bombs=np.uint8(1), doubles=np.int32(2), played=np.array([0, 0, 0]))
    assert (g.landlord, g.base, g.bombs, g.doubles) == (1, 3, 1, 2)
    assert all(type(x) is int for x in (g.landlord, g.base, g.bombs, g.doubles, g.value))


def _finished_deal(session):
    return _play_to_end(session.new_game())


def test_session_refuses_another_rules_game_and_changes_nothing():
    s = Session("standard", seed=1)
    four = _play_to_end(Game("four", seed=game_seed(1, 0)))
    with pytest.raises(ValueError, match="rules"):
        s.record(four)
    assert s.totals == [0, 0, 0] and s.deals == 0 and s.results == []


def test_session_records_a_deal_once():
    s = Session("standard", seed=2)
    g = _finished_deal(s)
    res = s.record(g)
    totals = list(s.totals)
    for again in (g, g.clone(), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        with pytest.raises(ValueError, match="next deal"):
            s.record(again)
    assert s.totals == totals and s.results == [res] and sum(totals) == 0


def test_session_refuses_positions_and_other_sessions_deals():
    s = Session("standard", seed=3)
    other = _finished_deal(Session("standard", seed=4))
    pos = _play_to_end(Game.from_position(["3", "4", "5"], 0))
    for g in (other, pos, _play_to_end(Game(seed=3))):
        with pytest.raises(ValueError, match="next deal"):
            s.record(g)
    assert s.totals == [0, 0, 0] and s.deals == 0
    assert s.record(_finished_deal(s)) is s.results[0]        # its own deal is fine


def test_all_pass_auctions_redeal_each_step_a_legal_action():
    # legal_actions()[0] is the pass: the auction redeals, the game goes on.
    g = Game(seed=5)
    for _ in range(300):
        g.step(g.legal_actions()[0])
    assert g.deal_number == 100 and not g.is_over
    for _ in range(300):
        g.undo()
    assert g.snapshot() == Game(seed=5).snapshot()


def test_copies_of_a_game_are_independent():
    g = Game.from_position(["3344A2K", "5566", "77"], 0, kitty="A2K", to_move=1,
                           last=parse_move("3"), last_player=0, played=[1, 0, 0])
    for c in (g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        before = g.snapshot()
        k = c.kitty
        k[:] = 0
        _play_to_end(c, 0)
        assert g.snapshot() == before and int(g.kitty.sum()) == 3


def test_solver_copies_are_new_solvers_of_the_same_size():
    s = Solver(table_mb=2)
    for c in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert c is not s and c.table_mb == 2 and c._engine is not s._engine
        assert c.solve(["KK5543", "225543"]).win is True


def test_vecgame_cannot_be_copied_or_pickled():
    vg = d.VecGame(2)
    for f in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError):
            f(vg)


def _batched_read_only_arrays():
    from ddz_fast.compat import douzero as dz
    vec = d.VecGame(4, rules="douzero", seed=3, skip_auction=True, masks=True, observations=True)
    feats = dz.VecFeatures(vec)
    feats.update()
    arrays = {name: getattr(vec, name) for name in
              ("to_move", "legal_offsets", "legal_ids", "masks", "observations", "scores", "wins", "done")}
    arrays.update({f"features.{name}": getattr(feats, name) for name in
                   ("position", "offsets", "x_batch", "action_ids", "row_table", "z", "x_no_action")})
    arrays["features.choose"] = feats.choose(np.zeros(feats.num_rows))
    return vec, arrays


def test_the_batched_games_read_only_arrays_cannot_be_made_writeable():
    """VecGame's step arrays and the DouZero features are views of the
    engine's own buffers: setflags(write=True) is refused, so no caller can
    write the state the next step reads."""
    _, arrays = _batched_read_only_arrays()
    for name, a in arrays.items():
        assert not a.flags.writeable, name
        with pytest.raises(ValueError):
            a.setflags(write=True)


def test_the_batched_games_read_only_views_follow_the_steps():
    """The read-only views stay live: after a step they show the new state."""
    vec, arrays = _batched_read_only_arrays()
    to_move, before = arrays["to_move"], arrays["to_move"].copy()
    ids, offsets = vec.legal_ids, vec.legal_offsets
    vec.step(np.array([ids[offsets[i]] for i in range(4)]))
    assert not np.array_equal(to_move, before)
    assert np.array_equal(to_move, vec.to_move)
