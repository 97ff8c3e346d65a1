"""The Gymnasium VectorEnv (ddz_fast.envs.vector): every table checked against
a Game twin that plays the learner's actions and the simple bot's replies in
Python, rewards against the twin's result, seeding, and bad input."""
import numpy as np
import pytest

from optional import require

import ddz_fast as ddz
from ddz_fast import Game, game_seed
from ddz_fast.envs import ActionLayout, ObservationLayout
from ddz_fast.game import simple_bot

gym = require("gymnasium")
from ddz_fast.envs.vector import DouDizhuVectorEnv  # noqa: E402

ROB = ddz.PRESETS["standard"].replace(auction="rob")


def _to_seat(game, seat, rules):
    """The twin: the simple bot plays the other seats until ``seat`` acts or the deal ends."""
    while not game.is_over and game.to_move != seat:
        game.step(simple_bot(game.observation(game.to_move), rules))


def _wild_cards(move, wild):
    """(wild cards the move plays, those of the lower wild rank)."""
    c = np.asarray(move.counts)
    return int(sum(c[w] for w in wild)), int(c[min(wild)]) if len(wild) > 1 else 0


def _twin_action(layout, game, action_id):
    """What an environment id plays at the twin: its action, or under wild
    cards the legal move with that reading that plays the fewest wild
    cards (then the fewest of the lower wild rank), found by scanning."""
    if not layout.wild or action_id < layout.play_offset:
        return layout.action(int(action_id))
    same = [m for m in game.legal_actions() if layout.action_id(m) == action_id]
    return min(same, key=lambda m: _wild_cards(m, game.wild))


def _fresh(rules, seed, table, k, seat):
    """Table ``table``'s deal number k, advanced to the learner's first turn;
    deals that end before it are skipped (as the env does)."""
    while True:
        g = Game(rules, seed=game_seed(seed, table * 2**32 + k))
        _to_seat(g, seat, rules)
        if not g.is_over:
            return g, k
        k += 1


@pytest.mark.parametrize("rules, seat", [("standard", 0), ("standard", None), ("four", 2), (ROB, 1),
                                         ("laizi", None), ("tiandi", 0)],
                         ids=["standard-0", "standard-all", "four-2", "rob-1", "laizi-all", "tiandi-0"])
def test_every_table_follows_its_twin_game(rules, seat):
    r = ddz.resolve_rules(rules)
    n = 6
    env = DouDizhuVectorEnv(n, r, seat=seat, opponent="simple", seed=11)
    obs, info = env.reset()
    layout, ol = ActionLayout(r), ObservationLayout(r)
    seats = [seat if seat is not None else i % r.players for i in range(n)]
    twins = [_fresh(r, 11, i, 0, seats[i]) for i in range(n)]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(60):
        for i, (g, _) in enumerate(twins):
            np.testing.assert_array_equal(obs["observation"][i], ol.encode(g, seats[i]))
            want = np.zeros(layout.size, np.int8)
            want[layout.ids(g.legal_actions())] = 1
            np.testing.assert_array_equal(obs["action_mask"][i], want)
        off, ids = env.legal_ids()
        legal = [np.flatnonzero(obs["action_mask"][i]) for i in range(n)]
        for i in range(n):
            want_ids = layout.ids(twins[i][0].legal_actions())
            if layout.wild:                 # (each reading once, ascending)
                want_ids = np.unique(want_ids)
            np.testing.assert_array_equal(ids[off[i]:off[i + 1]], want_ids)
            np.testing.assert_array_equal(np.sort(ids[off[i]:off[i + 1]]), legal[i])
        acts = np.array([lg[rng.integers(len(lg))] for lg in legal])
        obs, rew, term, trunc, info = env.step(acts)
        assert not trunc.any()
        if term.any():
            # Gymnasium's same-step convention: the finished episodes' last
            # observations and infos, each with its "_" mask.
            assert np.array_equal(info["_final_obs"], term) and np.array_equal(info["_final_info"], term)
            assert np.array_equal(info["final_info"]["_scores"], term)
        else:
            assert "final_obs" not in info and "final_info" not in info
        for i, (g, k) in enumerate(twins):
            g.step(_twin_action(layout, g, acts[i]))
            _to_seat(g, seats[i], r)
            if g.is_over:
                assert term[i] and rew[i] == g.result.scores[seats[i]]
                final = info["final_obs"][i]
                np.testing.assert_array_equal(final["observation"], ol.encode(g, seats[i]))
                np.testing.assert_array_equal(final["action_mask"], np.zeros(layout.size, np.int8))
                assert tuple(info["final_info"]["scores"][i]) == tuple(g.result.scores)
                twins[i] = _fresh(r, 11, i, k + 1, seats[i])
                ended += 1
            else:
                assert not term[i] and rew[i] == 0
                assert "final_obs" not in info or info["final_obs"][i] is None
    assert ended > 0


def test_an_illegal_action_ends_its_table_only_and_deals_the_tables_next_game():
    # (illegal_action="terminate", the default) Every table is followed by its
    # twin: a cheating table's episode ends with illegal_reward and its twin
    # moves on to the table's next deal, the others play on.
    r = ddz.resolve_rules("standard")
    n, seed = 5, 7
    env = DouDizhuVectorEnv(n, r, seat=0, opponent="simple", seed=seed, illegal_reward=-3)
    obs, _ = env.reset()
    layout, ol = ActionLayout(r), ObservationLayout(r)
    twins = [_fresh(r, seed, i, 0, 0) for i in range(n)]
    rng = np.random.default_rng(2)
    cheats = ended = 0
    for _ in range(100):
        for i, (g, _) in enumerate(twins):
            np.testing.assert_array_equal(obs["observation"][i], ol.encode(g, 0))
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        cheat = rng.random(n) < 0.04
        for i in np.flatnonzero(cheat):
            acts[i] = rng.choice(np.flatnonzero(obs["action_mask"][i] == 0))
        before = {i: (obs["observation"][i].copy(), obs["action_mask"][i].copy()) for i in np.flatnonzero(cheat)}
        obs, rew, term, trunc, info = env.step(acts)
        assert not trunc.any()
        if cheat.any():
            assert np.array_equal(info["illegal_action"], cheat)
            assert np.array_equal(info["_illegal_action"], cheat)
            assert np.array_equal(info["final_info"]["illegal_action"], cheat)
            assert np.array_equal(info["final_info"]["_illegal_action"], cheat)
        else:
            assert "illegal_action" not in info
        for i, (g, k) in enumerate(twins):
            if cheat[i]:
                assert term[i] and rew[i] == -3
                # (the episode ended where the learner cheated: its last observation is that position)
                np.testing.assert_array_equal(info["final_obs"][i]["observation"], before[i][0])
                np.testing.assert_array_equal(info["final_obs"][i]["action_mask"], before[i][1])
                twins[i] = _fresh(r, seed, i, k + 1, 0)
                cheats += 1
                continue
            g.step(layout.action(int(acts[i])))
            _to_seat(g, 0, r)
            if g.is_over:
                assert term[i] and rew[i] == g.result.scores[0]
                twins[i] = _fresh(r, seed, i, k + 1, 0)
                ended += 1
            else:
                assert not term[i] and rew[i] == 0
    assert cheats > 0 and ended > 0


def test_win_rewards_and_random_opponents_are_seeded():
    def run(seed):
        env = DouDizhuVectorEnv(8, seat=None, opponent="random", reward="win", seed=seed)
        obs, _ = env.reset()
        rng = np.random.default_rng(0)
        out = []
        for _ in range(80):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
            obs, rew, term, _, _ = env.step(acts)
            assert set(np.unique(rew[term])) <= {-1.0, 1.0} and not rew[~term].any()
            out.append(rew.copy())
        return np.array(out)
    a, b, c = run(3), run(3), run(4)
    assert np.array_equal(a, b) and not np.array_equal(a, c) and (a != 0).any()


def test_spaces_make_vec_and_masks():
    env = gym.make_vec("ddz_fast/DouDizhuVector-v1", num_envs=3, opponent="simple")
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    assert env.action_space.shape == (3,)
    inner = env.unwrapped if hasattr(env, "unwrapped") else env
    assert inner.action_masks().dtype == bool
    assert np.array_equal(inner.action_masks(), obs["action_mask"].astype(bool))
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP


def test_the_same_step_infos_match_gymnasiums_own_vector_env():
    """The keys and layout of a finishing step's info are those Gymnasium's
    SyncVectorEnv gives in SAME_STEP mode over single-seat environments."""
    from ddz_fast.envs.single import DouDizhuSingleAgentEnv
    n = 4
    ours = DouDizhuVectorEnv(n, seat=0, opponent="simple", seed=3)
    theirs = gym.vector.SyncVectorEnv([lambda: DouDizhuSingleAgentEnv(seat=0, opponent="simple")] * n,
                                      autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)

    def finishing_info(env, seed):
        obs, _ = env.reset(seed=seed)
        while True:
            acts = obs["action_mask"].argmax(axis=1)
            obs, _, term, _, info = env.step(acts)
            if term.any():
                return term, info
    for term, info in (finishing_info(ours, 3), finishing_info(theirs, 3)):
        assert {"final_obs", "_final_obs", "final_info", "_final_info"} <= set(info)
        assert info["final_obs"].dtype == object and info["final_obs"].shape == (n,)
        assert np.array_equal(info["_final_obs"], term) and np.array_equal(info["_final_info"], term)
        for i in range(n):
            if term[i]:
                assert set(info["final_obs"][i]) == {"observation", "action_mask"}
                assert ours.single_observation_space.contains(info["final_obs"][i])
            else:
                assert info["final_obs"][i] is None
        assert np.array_equal(info["final_info"]["_scores"], term)


def test_bad_input_raises_and_changes_nothing():
    env = DouDizhuVectorEnv(3, seed=1, illegal_action="raise")
    for call in (lambda: env.step(np.zeros(3, np.int64)), env.action_masks, env.legal_ids):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    obs, _ = env.reset()
    before = [env.vg.games(i).snapshot() for i in range(3)]
    legal = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    illegal = legal.copy()
    illegal[1] = np.flatnonzero(obs["action_mask"][1] == 0)[-1]
    for bad, err, match in [(illegal, ddz.IllegalActionError, "table 1: action id"),
                            (legal[:2], ValueError, "shape"),
                            (legal.astype(float), TypeError, "integer"),
                            (np.array([0, -1, 0]), ValueError, "table 1: action id -1 is out of range"),
                            (np.array([0, 10**6, 0]), ValueError, "out of range")]:
        with pytest.raises(err, match=match):
            env.step(bad)
        assert [env.vg.games(i).snapshot() for i in range(3)] == before
    for kwargs, err in [({"num_envs": 0}, ValueError), ({"num_envs": 2, "seat": 3}, ValueError),
                        ({"num_envs": 2, "opponent": "dqn"}, ValueError),
                        ({"num_envs": 2, "reward": "elo"}, ValueError),
                        ({"num_envs": 2, "rules": "nope"}, ValueError),
                        ({"num_envs": 2.0}, TypeError)]:
        with pytest.raises(err):
            DouDizhuVectorEnv(**kwargs)
