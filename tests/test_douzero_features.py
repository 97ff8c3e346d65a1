"""DouZero's own action list and features, compiled, against the real DouZero.

The answer is the installed ``douzero`` package (1.1.0): its ``GameEnv``
plays seeded random games over its own legal actions, and at every position
reached its list and ``get_obs`` arrays are compared, element by element and
bit for bit, with :mod:`ddz_fast.compat.douzero`.  The batched path
(:class:`VecFeatures` over a :class:`VecGame`) is checked by replaying each
table's moves in a DouZero ``GameEnv`` dealt the same cards.
"""
from __future__ import annotations

import random
import threading
from types import SimpleNamespace

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast.compat import douzero as dz
from ddz_fast.convert import counts_to_douzero
from optional import require

require("douzero.env.game")
from douzero.env.env import get_obs as douzero_get_obs  # noqa: E402
from douzero.env.game import GameEnv  # noqa: E402

POSITIONS = ("landlord", "landlord_up", "landlord_down")
DECK = [c for c in dz.DOUZERO_CARDS[:13] for _ in range(4)] + [20, 30]
FEATURES = ("x_batch", "z_batch", "x_no_action", "z")


class _Random:
    """A DouZero player choosing uniformly among the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, infoset):
        return self.rng.choice(infoset.legal_actions)


class _Told:
    """A DouZero player making the move it was told."""

    action: list = []

    def act(self, infoset):
        return self.action


def _douzero_positions(min_positions: int, seed: int):
    """Infosets of seeded random DouZero games, at least min_positions."""
    rng = random.Random(seed)
    count = 0
    while count < min_positions:
        deck = DECK[:]
        rng.shuffle(deck)
        player = _Random(rng)
        env = GameEnv({p: player for p in POSITIONS})
        env.card_play_init({
            "landlord": sorted(deck[:20]), "landlord_up": sorted(deck[20:37]),
            "landlord_down": sorted(deck[37:54]), "three_landlord_cards": sorted(deck[17:20]),
        })
        while not env.game_over:
            count += 1
            yield env.game_infoset
            env.step()


def _assert_same_obs(ours, theirs, where):
    assert ours["position"] == theirs["position"], where
    assert ours["legal_actions"] == theirs["legal_actions"], where
    for key in FEATURES:
        a, b = ours[key], theirs[key]
        assert a.dtype == b.dtype and a.shape == b.shape, (where, key, a.dtype, a.shape, b.dtype, b.shape)
        assert np.array_equal(a, b), (where, key, np.argwhere(a != b)[:5])


def test_list_and_features_equal_douzero_on_10000_positions_of_its_own_games():
    seen = dict.fromkeys(POSITIONS, 0)
    responses = 0
    n = 0
    for info in _douzero_positions(10_500, seed=20210601):
        n += 1
        seen[info.player_position] += 1
        responses += len(info.last_move) > 0
        assert dz.listed_actions(info.player_hand_cards, info.last_move) == info.legal_actions, (
            info.player_hand_cards, info.last_move)
        _assert_same_obs(dz.get_obs(info), douzero_get_obs(info), n)
    assert n >= 10_000
    assert min(seen.values()) > 3000
    assert 0.3 * n < responses < 0.9 * n


@pytest.mark.nightly
def test_list_and_features_equal_douzero_on_200000_positions():
    for n, info in enumerate(_douzero_positions(200_000, seed=77), 1):
        assert dz.listed_actions(info.player_hand_cards, info.last_move) == info.legal_actions
        _assert_same_obs(dz.get_obs(info), douzero_get_obs(info), n)


def test_listed_actions_follow_douzero_for_any_hand_order_and_rival():
    """Unsorted and small hands (a set of few card ints iterates in hash-table
    order, not ascending) against DouZero's generator, facing rival moves
    drawn from DouZero's own lists, the quirky airplanes included."""
    rng = random.Random(7)
    env = GameEnv({})
    env.acting_player_position = "landlord"
    for case in range(3000):
        deck = DECK[:]
        rng.shuffle(deck)
        hand = deck[: rng.choice([1, 2, 3, 4, 5, 6, 9, 13, 17, 20])]
        if case % 2:
            hand.sort()
        rival_hand = sorted(deck[20:40])
        rival = rng.choice(dz.listed_actions(rival_hand)) if case % 5 else []
        env.info_sets["landlord"].player_hand_cards = hand
        env.card_play_action_seq = [list(rival)] if rival else []
        assert dz.listed_actions(hand, rival) == env.get_legal_card_play_actions(), (hand, rival)


def test_listed_actions_keep_douzero_repeats_and_pass_last():
    # 555666 with two of 7, 7, 8, 9: DouZero's combinations of the other
    # cards list 7+8 once per 7, with 7+9 between, so both stay.
    hand = [5, 5, 5, 6, 6, 6, 7, 7, 8, 9]
    planes = [m for m in dz.listed_actions(hand) if len(m) == 8]
    assert planes.count([5, 5, 5, 6, 6, 6, 7, 8]) == 2
    reply = dz.listed_actions([3, 4, 4, 4, 4], [3])
    assert reply == [[4], [4, 4, 4, 4], []]


class _Replay:
    """A DouZero GameEnv dealt the cards of table i of a VecGame."""

    def __init__(self, game: ddz.Game) -> None:
        hands = {}
        for seat in range(3):
            role = ("landlord", "landlord_down", "landlord_up")[(seat - game.landlord) % 3]
            hands[role] = counts_to_douzero(game.hand(seat), rules="douzero")
        hands["three_landlord_cards"] = counts_to_douzero(game.kitty, rules="douzero")
        self.player = _Told()
        self.env = GameEnv({p: self.player for p in POSITIONS})
        self.env.card_play_init(hands)


def test_vec_features_equal_douzero_replaying_the_same_games():
    n = 12
    vec = ddz.VecGame(n, rules="douzero", seed=3, skip_auction=True)
    feats = dz.VecFeatures(vec)
    replays = [_Replay(vec.games(i)) for i in range(n)]
    rng = np.random.default_rng(11)
    finished = 0
    for step in range(160):
        feats.update()
        off, ids, pos = feats.offsets, feats.action_ids, feats.position
        assert feats.x_batch.shape == (feats.num_rows, 484) and off[-1] == feats.num_rows
        for i in range(n):
            theirs = douzero_get_obs(replays[i].env.game_infoset)
            ours = feats.obs(i)
            _assert_same_obs(ours, theirs, (step, i))
            _assert_same_obs(dz.game_obs(vec.games(i)), theirs, (step, i))
            assert POSITIONS[pos[i]] == theirs["position"]
            width = dz.X_SIZES[pos[i]]
            assert np.array_equal(feats.x_batch[off[i]:off[i + 1], :width], theirs["x_batch"])
            assert not feats.x_batch[off[i]:off[i + 1], width:].any()
            assert np.array_equal(feats.z[i], theirs["z"])
            assert np.array_equal(feats.x_no_action[i, :width - 54], theirs["x_no_action"])
            assert (feats.row_table[off[i]:off[i + 1]] == i).all()
            legal = set(vec.legal_ids[vec.legal_offsets[i]:vec.legal_offsets[i + 1]].tolist())
            assert set(ids[off[i]:off[i + 1]].tolist()) <= legal
        scores = rng.random(feats.num_rows)
        chosen = feats.choose(scores)
        for i in range(n):
            lo = off[i]
            k = int(np.argmax(scores[lo:off[i + 1]]))
            assert chosen[i] == ids[lo + k]
            move = vec.action(int(chosen[i]))
            replays[i].player.action = counts_to_douzero(move.counts, rules="douzero")
            replays[i].env.step()
        vec.step(chosen)
        for i in range(n):
            assert bool(vec.done[i]) == replays[i].env.game_over
            if vec.done[i]:
                finished += 1
                replays[i] = _Replay(vec.games(i))
    assert finished >= 10


def test_vec_features_with_the_auction_on_describe_the_tables_in_card_play():
    """Tables still bidding have no rows and position -1; the others get
    game_obs's features of the same game, whoever won the auction."""
    n = 24
    vec = ddz.VecGame(n, rules="douzero", seed=6)
    feats = dz.VecFeatures(vec)
    rng = np.random.default_rng(2)
    bidding = playing = 0
    landlords = set()
    for _ in range(120):
        feats.update()
        off, pos = feats.offsets, feats.position
        for i in range(n):
            game = vec.games(i)
            if game.phase != ddz.Phase.PLAY:
                bidding += 1
                assert pos[i] == -1 and off[i] == off[i + 1]
                continue
            playing += 1
            landlords.add(game.landlord)
            theirs = dz.game_obs(game)
            _assert_same_obs(feats.obs(i), theirs, i)
            assert POSITIONS[pos[i]] == theirs["position"]
        scores = feats.choose(rng.random(feats.num_rows))
        lo, count = vec.legal_offsets[:-1], np.diff(vec.legal_offsets)
        random_ids = vec.legal_ids[lo + rng.integers(0, count)]
        vec.step(np.where(pos >= 0, scores, random_ids))
    assert bidding > 50 and playing > 1000 and landlords == {0, 1, 2}


def test_observation_obs_equals_game_obs_from_what_the_player_sees():
    """DouZero's features built from a player's Observation (its hand, the
    unseen cards, the public history) are game_obs's, bit for bit, whoever
    is landlord, with the auction on; they need card play in a dealt
    3-player game without wild cards."""
    rng = np.random.default_rng(5)
    n = 0
    for seed in range(40):
        game = ddz.Game("douzero", seed=seed)
        while not game.is_over:
            if game.phase == ddz.Phase.PLAY:
                n += 1
                _assert_same_obs(dz.observation_obs(game.observation(game.to_move)), dz.game_obs(game), (seed, n))
            legal = game.legal_actions()
            game.step(legal[rng.integers(len(legal))])
    assert n > 1500
    with pytest.raises(TypeError, match="Observation"):
        dz.observation_obs({"hand": []})
    bidding = ddz.Game("douzero", seed=1)
    with pytest.raises(ValueError, match="AUCTION"):
        dz.observation_obs(bidding.observation(0))
    four = ddz.Game("four", seed=1)
    while four.phase != ddz.Phase.PLAY:
        four.step(four.legal_actions()[-1])
    with pytest.raises(ValueError, match="3-player"):
        dz.observation_obs(four.observation(four.to_move))


def test_vec_features_do_not_depend_on_threads():
    runs = []
    for threads in (1, 2):
        vec = ddz.VecGame(40, rules="douzero", seed=8, skip_auction=True, threads=threads)
        feats = dz.VecFeatures(vec)
        seen = []
        for _ in range(30):
            feats.update()
            seen.append((feats.x_batch.copy(), feats.z.copy(), feats.action_ids.copy()))
            vec.step(feats.choose(np.arange(feats.num_rows, dtype=np.float64) % 7))
        runs.append(seen)
    for a, b in zip(*runs):
        assert all(np.array_equal(u, v) for u, v in zip(a, b))


def test_game_obs_moves_step_the_game():
    game = ddz.Game("douzero", seed=4)
    while game.phase.name != "PLAY":
        game.step(game.legal_actions()[-1])
    while not game.is_over:
        obs = dz.game_obs(game)
        assert len(obs["moves"]) == len(obs["legal_actions"]) == obs["x_batch"].shape[0]
        for cards, move in zip(obs["legal_actions"], obs["moves"]):
            assert move is not None and counts_to_douzero(move.counts, rules="douzero") == cards
        game.step(obs["moves"][len(obs["moves"]) // 2])
    with pytest.raises(ValueError, match="over"):
        dz.game_obs(game)


def test_skip_auction_deals_straight_to_card_play_with_a_random_landlord():
    vec = ddz.VecGame(64, rules="douzero", seed=9, skip_auction=True)
    landlords = set()
    for i in range(64):
        g = vec.games(i)
        assert g.phase.name == "PLAY" and g.to_move == g.landlord == g.first_bidder
        assert sorted(g.hand_sizes) == [17, 17, 20]
        landlords.add(g.landlord)
    assert landlords == {0, 1, 2}
    assert vec.skip_auction and not ddz.VecGame(1, rules="douzero").skip_auction
    rob = ddz.VecGame(16, rules=ddz.Rules(auction="rob"), seed=9, skip_auction=True)
    for i in range(16):
        g = rob.games(i)
        assert g.phase.name == "PLAY" and g.landlord == g.first_bidder == g.to_move
        assert g.base == 1 and g.doubles == 0
    with pytest.raises(TypeError, match="skip_auction"):
        ddz.VecGame(1, rules="douzero", skip_auction=1)


# -- bad input -----------------------------------------------------------------

def _infoset(**changes):
    info = next(iter(_douzero_positions(1, seed=1)))
    fields = {k: getattr(info, k) for k in vars(info)}
    fields.update(changes)
    return SimpleNamespace(**fields)


@pytest.mark.parametrize("changes, error, match", [
    ({"player_position": "farmer"}, ValueError, "player_position"),
    ({"player_position": 0}, TypeError, "player_position"),
    ({"player_hand_cards": "3456"}, TypeError, "player_hand_cards"),
    ({"player_hand_cards": [3, 15]}, ValueError, "15 is not a DouZero card"),
    ({"player_hand_cards": [3, 3.0]}, TypeError, "float"),
    ({"player_hand_cards": [3, True]}, TypeError, "bool"),
    ({"player_hand_cards": [3, 3, 3, 3, 3]}, ValueError, "more 3s"),
    ({"other_hand_cards": None}, TypeError, "other_hand_cards"),
    ({"legal_actions": [[3], [99]]}, ValueError, r"legal_actions\[1\]"),
    ({"legal_actions": "pass"}, TypeError, "legal_actions"),
    ({"card_play_action_seq": [[3, "4"]]}, TypeError, "card_play_action_seq"),
    ({"bomb_num": 15}, ValueError, "bomb_num"),
    ({"bomb_num": 1.0}, TypeError, "bomb_num"),
    ({"num_cards_left_dict": {"landlord": 21, "landlord_up": 17, "landlord_down": 17}}, ValueError, "0..20"),
    ({"num_cards_left_dict": {"landlord": 20, "landlord_up": 17}}, ValueError, "landlord_down"),
    ({"played_cards": []}, TypeError, "played_cards"),
])
def test_get_obs_rejects_bad_infosets(changes, error, match):
    with pytest.raises(error, match=match):
        dz.get_obs(_infoset(**changes))


def test_get_obs_takes_numpy_ints_as_cards():
    info = _infoset()
    theirs = douzero_get_obs(info)
    as_numpy = _infoset(player_hand_cards=np.array(info.player_hand_cards),
                        legal_actions=[list(np.array(m, dtype=np.int16)) for m in info.legal_actions])
    ours = dz.get_obs(as_numpy)
    for key in FEATURES:
        assert np.array_equal(ours[key], theirs[key])
    with pytest.raises(TypeError, match="bool"):
        dz.listed_actions([np.bool_(True)])
    with pytest.raises(TypeError, match="float"):
        dz.listed_actions(np.array([3.0, 4.0]))
    with pytest.raises(TypeError, match="masked"):
        dz.listed_actions(np.ma.masked_array([3, 4]))
    with pytest.raises(ValueError, match="1-D"):
        dz.listed_actions(np.array([[3, 4]]))


def test_get_obs_rejects_non_infosets_and_listed_actions_bad_cards():
    with pytest.raises(TypeError, match="InfoSet"):
        dz.get_obs(object())
    with pytest.raises(TypeError, match="hand"):
        dz.listed_actions("33")
    with pytest.raises(ValueError, match="rival_move"):
        dz.listed_actions([3, 3], [16])
    with pytest.raises(ValueError, match="more than 40 cards"):
        dz.listed_actions(DECK[:41])


def test_game_obs_rejects_other_rules_auctions_positions_and_non_games():
    with pytest.raises(ValueError, match="'douzero' rules preset"):
        dz.game_obs(ddz.Game("standard", seed=1))
    with pytest.raises(ValueError, match="auction"):
        dz.game_obs(ddz.Game("douzero", seed=1))
    pos = ddz.Game.from_position(["3", "4", "5"], landlord=0, rules="douzero")
    with pytest.raises(ValueError, match="given position"):
        dz.game_obs(pos)
    with pytest.raises(TypeError, match="Game"):
        dz.game_obs("game")
    with pytest.raises(TypeError, match="never initialised"):
        dz.game_obs(ddz.Game.__new__(ddz.Game))


def test_vec_features_reject_bad_games_scores_and_tables():
    with pytest.raises(ValueError, match="'douzero' rules preset"):
        dz.VecFeatures(ddz.VecGame(2, rules="standard", skip_auction=True))
    with pytest.raises(TypeError, match="VecGame"):
        dz.VecFeatures([])
    blank = dz.VecFeatures.__new__(dz.VecFeatures)
    for call in (blank.update, lambda: blank.x_batch, lambda: blank.choose(np.zeros(0)), lambda: blank.obs(0)):
        with pytest.raises(TypeError, match="never initialised"):
            call()
    vec = ddz.VecGame(3, rules="douzero", seed=2, skip_auction=True, auto_reset=False)
    feats = dz.VecFeatures(vec)
    with pytest.raises(TypeError, match="twice"):
        feats.__init__(vec)
    rows = feats.num_rows
    for bad, error in ((np.zeros(rows, dtype=np.int64), TypeError), (list(range(rows)), TypeError),
                       (np.ma.masked_array(np.zeros(rows)), TypeError), (np.zeros(rows + 1), ValueError),
                       (np.zeros((rows, 1)), ValueError)):
        with pytest.raises(error):
            feats.choose(bad)
    for bad, error in ((3, ValueError), (-1, ValueError), ("0", TypeError), (True, TypeError)):
        with pytest.raises(error):
            feats.obs(bad)
    with pytest.raises(ValueError, match="read-only"):
        feats.x_batch[0, 0] = 1.0
    # Play table 0 to its end: it then has no rows and nobody to act.
    while not vec.done[0]:
        vec.step(feats.choose(np.zeros(feats.num_rows)))
        feats.update()
    assert feats.position[0] == -1 and feats.offsets[1] == feats.offsets[0]
    assert feats.choose(np.zeros(feats.num_rows))[0] == -1
    with pytest.raises(ValueError, match="over"):
        feats.obs(0)


def test_vec_features_refuse_to_read_a_table_being_stepped():
    vec = ddz.VecGame(2000, rules="douzero", seed=2, skip_auction=True)
    feats = dz.VecFeatures(vec)
    errors = []

    def resetter():
        for _ in range(30):
            try:
                vec.reset()
            except RuntimeError as e:
                errors.append(e)

    thread = threading.Thread(target=resetter)
    thread.start()
    for _ in range(30):
        try:
            feats.update()
        except RuntimeError as e:
            errors.append(e)
    thread.join()
    feats.update()
    assert feats.offsets[-1] == feats.num_rows
    for e in errors:
        assert "another thread" in str(e)
