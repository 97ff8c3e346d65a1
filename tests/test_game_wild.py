"""The game with wild cards (rules ``laizi`` and ``tiandi``; docs/rules.md,
"Wild cards"): the draw, the moves, scoring, pickles, positions, playouts."""
from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import ddz_fast as d
from ddz_fast import Game, IllegalActionError, Move, Rules, legal_moves, parse_move
from ddz_fast.actions import action_space
from ddz_fast.game import simple_bot
from ddz_fast.observation import ObservationLayout

WILD_PRESETS = ("laizi", "tiandi")


def _to_play(g: Game, rng: random.Random) -> Game:
    while g.phase.name not in ("PLAY", "OVER"):
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    return g


def _random_game(rules, seed):
    rng = random.Random(seed)
    return _to_play(Game(rules, seed=seed), rng), rng


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_wild_ranks_are_drawn_when_the_landlord_takes_the_kitty(rules):
    g = Game(rules, seed=11)
    assert g.wild is None
    rng = random.Random(0)
    while g.landlord is None:
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    want = 1 if rules == "laizi" else 2
    assert g.wild is not None and len(g.wild) == want and len(set(g.wild)) == want
    assert all(0 <= r <= 12 for r in g.wild)
    assert g.observation(0).wild == g.wild
    tensor = g.observation_tensor(1)
    fields = ObservationLayout(rules).fields
    wild_field = tensor[fields["wild"]]
    assert sorted(np.flatnonzero(wild_field).tolist()) == list(g.wild)


def test_standard_observations_have_no_wild_field():
    assert "wild" not in ObservationLayout("standard").fields
    assert ObservationLayout("laizi").size == ObservationLayout("standard").size + 13


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_the_draw_is_fixed_by_the_deal_and_survives_undo(rules):
    g, rng = _random_game(rules, 5)
    wild = g.wild
    actions = [a for _, a in g.history]
    while g.history:
        g.undo()
    assert g.wild is None
    for a in actions:
        g.step(a)
    assert g.wild == wild
    assert pickle.loads(pickle.dumps(g)).wild == wild


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_every_wild_rank_is_drawn_across_seeds(rules):
    seen = set()
    for seed in range(300):
        g, _ = _random_game(rules, seed)
        seen.update(g.wild)
    assert seen == set(range(13))


@pytest.mark.parametrize("rules", WILD_PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_a_random_wild_game_plays_the_kernels_moves_and_keeps_the_cards(rules, seed):
    g, rng = _random_game(rules, seed)
    deck = np.array([4] * 13 + [1, 1])
    while not g.is_over:
        p = g.to_move
        acts = g.legal_actions()
        want = legal_moves(g.hand(p), g.last_move, rules=rules, wild=g.wild)
        assert acts == want
        m = acts[rng.randrange(len(acts))]
        before = g.hand(p)
        g.step(m)
        assert (g.hand(p) == before - np.array(m.counts)).all()
        assert (g.hands.sum(axis=0) + g.played_cards.sum(axis=0) == deck).all()
    r = g.result
    assert sum(r.scores) == 0
    assert r.bombs == sum(1 for _, a in g.history if isinstance(a, d.Move) and a.bomb_class is not None)
    clone = pickle.loads(pickle.dumps(g))
    assert clone.snapshot() == g.snapshot()


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_undo_restores_every_wild_state(rules):
    g, rng = _random_game(rules, 3)
    snaps = []
    while not g.is_over:
        snaps.append(g.snapshot())
        acts = g.legal_actions()
        g.step(acts[rng.randrange(len(acts))])
    while snaps:
        g.undo()
        assert g.snapshot() == snaps.pop()


def test_a_move_of_another_reading_is_illegal_and_leaves_the_game():
    g = Game.from_position(["5577", "3", "4"], 0, rules="laizi", wild="7")
    snap = g.snapshot()
    # the cards 55 read as 66: no wild card stands in, so no such move
    with pytest.raises(d.IllegalActionError):
        g.step(d.Move._make_wild(2, bytes([0, 0, 2] + [0] * 12), bytes([0, 0, 0, 2] + [0] * 11), (4,)))
    # a wild move under another wild rank is another move
    with pytest.raises(d.IllegalActionError):
        g.step(parse_move("57=77", rules="laizi", wild="5"))
    assert g.snapshot() == snap
    g.step(parse_move("57=55", rules="laizi", wild="7"))
    assert g.hand(0).tolist()[2] == 1 and g.hand(0).tolist()[4] == 1


def test_from_position_checks_the_wild_ranks():
    with pytest.raises(ValueError, match="wild"):
        Game.from_position(["5577", "3", "4"], 0, rules="laizi")
    with pytest.raises(ValueError, match="wild"):
        Game.from_position(["5577", "3", "4"], 0, rules="standard", wild="7")
    with pytest.raises(ValueError, match="wild"):
        Game.from_position(["5577", "3", "4"], 0, rules="tiandi", wild="7")
    soft = parse_move("5557=5555", rules="laizi", wild="7")
    g = Game.from_position(["3333", "4", "6"], 1, to_move=0, last=soft, last_player=1, rules="laizi",
                           wild="7")
    # a hard bomb beats a soft bomb of a higher rank
    assert [str(m) for m in g.legal_actions()] == ["PASS", "3333"]
    assert g.last_move == soft and g.last_move.bomb_class == "soft"
    assert pickle.loads(pickle.dumps(g)).snapshot() == g.snapshot()
    with pytest.raises(ValueError, match="wild"):
        Game.from_position(["3333", "4", "6"], 1, to_move=0, last=soft, last_player=1, rules="standard")


@pytest.mark.parametrize("doubling, factor", [("all", 2), ("hard_x4", 4)])
def test_bomb_doubling_scores_a_hard_bomb(doubling, factor):
    rules = Rules(wild="laizi", bomb_doubling=doubling)
    g = Game.from_position(["3333", "4", "6"], 0, rules=rules, wild="7")
    g.step(parse_move("3333", rules=rules, wild="7"))
    assert g.is_over and g.result.value == factor      # (no spring: the farmers hold fewer than dealt)


@pytest.mark.parametrize("doubling", ["all", "hard_x4"])
def test_a_soft_bomb_always_doubles(doubling):
    rules = Rules(wild="laizi", bomb_doubling=doubling)
    g = Game.from_position(["3337", "4", "6"], 0, rules=rules, wild="7")
    g.step(parse_move("3337=3333", rules=rules, wild="7"))
    assert g.is_over and g.result.value == 2


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_playouts_and_the_bot_run_on_wild_games(rules):
    g, _ = _random_game(rules, 8)
    r = g.rollout(50, policy="random", seed=1)
    assert len(r.winner) == 50
    assert (r.scores.sum(axis=1) == 0).all()
    rb = g.rollout(10, policy="bot", seed=1)
    assert (rb.scores.sum(axis=1) == 0).all()
    worlds = g.sample_worlds(g.to_move, 4, seed=2)
    moves = list(g.legal_actions())[:3]
    v = g.move_values(worlds, moves, rollouts=2)
    assert v.shape == (4, len(moves)) and ((0 <= v) & (v <= 1)).all()
    m = simple_bot(g.observation(g.to_move), rules)
    assert m in g.legal_actions()


def test_the_wild_bot_spends_no_wild_card_when_a_natural_move_will_do():
    g = Game.from_position(["3577", "4", "6"], 0, rules="laizi", wild="7")
    assert str(simple_bot(g.observation(0), "laizi")) == "3"


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_wild_game_ids_are_the_flat_pairs_and_step_id_plays_them(rules):
    """legal_ids are FIRST_MOVE_ID + reading * cards_size + cards of the
    WildActionSpace pairs; step_id plays each id's move (a twin stepped with
    the Move agrees), and refuses ids that are out of range or not legal."""
    space = action_space(rules)
    g, rng = _random_game(rules, 11)
    twin = copy.copy(g)
    plies = 0
    while not g.is_over and plies < 60:
        ids = g.legal_ids()
        if g.phase.name == "PLAY":
            pairs = space.ids(g.legal_actions(), wild=g.wild)
            np.testing.assert_array_equal(ids, 9 + pairs[:, 0] * space.cards_size + pairs[:, 1])
        k = rng.randrange(len(ids))
        action = g.legal_actions()[k]
        g.step_id(int(ids[k]))
        twin.step(action)
        assert g.snapshot() == twin.snapshot()
        plies += 1
    assert plies > 10
    with pytest.raises(ValueError, match="out of range"):
        g.step_id(9 + space.flat_size)


def test_a_wild_id_that_is_not_legal_is_refused_and_changes_nothing():
    g = Game.from_position(["3577", "4", "6"], 0, rules="laizi", wild="7")
    space = action_space("laizi")
    before = g.snapshot()
    r, c = space.move_to_id(Move("PAIR", "44", rules="laizi", wild="7"), wild="7")
    with pytest.raises(IllegalActionError):
        g.step_id(9 + r * space.cards_size + c)          # no 4 in the hand
    with pytest.raises(ValueError, match="names no move"):
        g.step_id(9 + r * space.cards_size + space.cards_size - 1)
    assert g.snapshot() == before


@pytest.mark.parametrize("rules", WILD_PRESETS)
def test_the_pimc_agent_plays_wild_games_to_the_end(rules):
    from ddz_fast.pimc import PIMCAgent

    agent = PIMCAgent(8, rollouts=1, seed=1, rules=rules)
    g, rng = _random_game(rules, 4)
    while not g.is_over:
        obs = g.observation(g.to_move)
        if g.to_move == g.landlord and sum(g.hand_sizes) <= 24:   # (the endgame: few moves to value)
            m = agent(obs)
        else:
            acts = g.legal_actions()
            m = acts[rng.randrange(len(acts))]
        assert m in g.legal_actions()
        g.step(m)
    assert sum(g.result.scores) == 0
