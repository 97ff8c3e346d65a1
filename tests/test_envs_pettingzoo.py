"""The PettingZoo AEC environment (ddz_fast.envs.aec): PettingZoo's own API and
seed tests, the action-id layout, the observation vector checked field by field
against the Game, random masked play over thousands of deals, illegal actions,
rendering, and the import guard when PettingZoo is missing."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

from optional import require

import ddz_fast
from ddz_fast import BID_PASS, PRESETS, Bid, Move, Rules

RULES = [
    pytest.param("standard", id="standard"),
    pytest.param("four", id="four"),
    pytest.param(Rules(auction="rob", name="rob"), id="standard-rob"),
    pytest.param(PRESETS["four"].replace(auction="rob"), id="four-rob"),
    pytest.param("douzero", id="douzero"),
    pytest.param("rlcard", id="rlcard"),
    pytest.param("laizi", id="laizi"),
    pytest.param("tiandi", id="tiandi"),
]


@pytest.fixture(scope="module")
def aec():
    require("pettingzoo")
    from ddz_fast.envs import aec
    return aec


def _play_random(e, rng, check=None):
    """Play one episode of env `e` (already reset) with uniformly random legal
    actions read from the action mask; returns the rewards seen by last()."""
    seen = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            seen[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        if check is not None:
            check(e.unwrapped, agent, obs)
        legal = np.flatnonzero(obs["action_mask"].view(bool))   # (a bool view: ~10x faster)
        e.step(int(legal[rng.integers(len(legal))]))
    return seen


# ---------------------------------------------------------------------------
# PettingZoo's own checks
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test(aec, rules):
    from pettingzoo.test import api_test
    with warnings.catch_warnings():
        # Dict observations (with the action mask) always draw these two
        # advisory warnings, as for PettingZoo's own classic games.
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(aec.env(rules=rules), num_cycles=1000)
        api_test(aec.raw_env(rules=rules), num_cycles=1000)
        api_test(aec.env(rules=rules, max_cycles=4), num_cycles=1000)    # truncated deals


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_seed_test(aec, rules):
    from pettingzoo.test import seed_test
    seed_test(lambda: aec.env(rules=rules), num_cycles=300)


def test_metadata_agents_and_spaces(aec):
    from ddz_fast.envs.action_layout import ActionLayout
    from ddz_fast.actions import action_space
    e = aec.raw_env()
    assert e.metadata["name"] == "ddz_fast_v1"
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert aec.raw_env("four").possible_agents == [f"player_{i}" for i in range(4)]
    n_ids = 9 + action_space("standard").size          # the 9 auction codes, then every card-play id
    assert e.action_space("player_1").n == n_ids == ActionLayout("standard").size
    assert e.observation_space("player_0")["action_mask"].shape == (n_ids,)
    assert e.observation_space("player_0")["observation"].shape == (131,)
    assert aec.raw_env("four").observation_space("player_0")["observation"].shape == (152,)
    rob = aec.raw_env(Rules(auction="rob"))
    assert rob.action_space("player_0").n == 9 + action_space("standard").size


# ---------------------------------------------------------------------------
# Seeding
# ---------------------------------------------------------------------------

def test_reset_seed_reproduces_deals_and_play(aec):
    def run(seed):
        e = aec.env()
        e.reset(seed=seed)
        rng = np.random.default_rng(3)
        out = [e.unwrapped.game.seed]
        _play_random(e, rng)
        out.append(tuple(e.unwrapped.game.history))
        e.reset()                                  # continues the seeded generator
        out.append(e.unwrapped.game.seed)
        return out

    a, b, c = run(11), run(11), run(12)
    assert a == b
    assert a[0] != c[0] and a[2] != c[2]


# ---------------------------------------------------------------------------
# Action ids
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_mask_is_exactly_the_legal_actions(aec, rules):
    e = aec.raw_env(rules=rules)
    e.reset(seed=1)
    layout = e.table.actions
    rng = np.random.default_rng(1)

    def check(env, agent, obs):
        g = env.game
        legal = g.legal_actions()
        ids = np.flatnonzero(obs["action_mask"])
        # Every legal action's id is set, and nothing else (ids are distinct,
        # but under wild cards a reading played with other cards shares its id).
        assert sorted({layout.action_id(a) for a in legal}) == ids.tolist()
        if not layout.wild:
            assert len(legal) == len(ids)
        for a in legal:
            back = layout.action(layout.action_id(a))
            if isinstance(a, Move):         # (the id names the reading: the represented cards)
                assert back.kind == a.kind and np.array_equal(back.counts, a.represents)
            else:
                assert back == a
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()

    for _ in range(5):
        _play_random(e, rng, check)
        e.reset()


def test_auction_ids_come_first(aec):
    e = aec.raw_env()
    layout = e.table.actions
    assert [layout.action(i) for i in range(4)] == [Bid(0), Bid(1), Bid(2), Bid(3)]
    assert layout.auction_actions == (Bid(0), Bid(1), Bid(2), Bid(3))
    assert layout.play_offset == 9
    pass_move = layout.action(9)
    assert isinstance(pass_move, Move) and pass_move.is_pass
    rob = aec.raw_env(Rules(auction="rob")).table.actions
    assert [str(rob.action(i)) for i in range(4, 9)] == ["decline", "call", "rob", "no double", "double"]
    assert [str(a) for a in rob.auction_actions] == ["decline", "call", "rob", "no double", "double"]
    assert rob.auction_id(rob.action(5)) == 5
    with pytest.raises(ValueError, match="not an action of the 'rob' auction"):
        rob.auction_id(Bid(2))
    # the same ids as the game's, whatever the rules
    for rules in ("standard", Rules(auction="rob")):
        g = ddz_fast.Game(rules, seed=3)
        lay = aec.raw_env(rules).table.actions
        while not g.is_over:
            assert lay.ids(g.legal_actions()).tolist() == g.legal_ids().tolist()
            g.step(g.legal_actions()[-1])


# ---------------------------------------------------------------------------
# Observations, checked against the Game
# ---------------------------------------------------------------------------

def _check_observation(env, agent, obs):
    g = env.game
    seat = env.possible_agents.index(agent)
    ol = env.table.observations
    n = g.players
    for who in env.possible_agents:
        vec = env.observe(who)["observation"]
        assert env.observation_space(who)["observation"].contains(vec)
        f = ol.split(vec)
        s = env.possible_agents.index(who)
        assert np.array_equal(f["hand"], g.hand(s))
        # Played cards, recomputed from the public history of the deal.
        played = np.zeros((n, 15))
        for p, a in g.history:
            if isinstance(a, Move):
                played[p] += a.counts
        assert np.array_equal(f["played"].reshape(n, 15), played)
        assert f["hand_sizes"].tolist() == list(g.hand_sizes)
        assert np.array_equal(f["kitty"], g.kitty if g.kitty_revealed else np.zeros(15))
        last = g.last_move
        # (the combination on the table: under wild cards what the cards are read as)
        assert np.array_equal(f["last_move"], np.zeros(15) if last is None else np.array(last.represents))
        assert np.flatnonzero(f["last_kind"]).tolist() == ([] if last is None else [int(last.kind)])
        assert np.flatnonzero(f["last_player"]).tolist() == ([] if last is None else [g.last_player])
        assert np.flatnonzero(f["me"]).tolist() == [s]
        assert np.flatnonzero(f["to_move"]).tolist() == [g.to_move]
        assert np.flatnonzero(f["landlord"]).tolist() == ([] if g.landlord is None else [g.landlord])
        assert np.flatnonzero(f["phase"]).tolist() == [int(g.phase)]
        assert (f["base"][0], f["bombs"][0], f["doubles"][0]) == (g.base, g.bombs, g.doubles)
        # Auction level and leader, recomputed from the history.
        level, leader = 0, []
        for p, a in g.history:
            if isinstance(a, Bid) and a.value:
                level, leader = a.value, [p]
            elif str(a) in ("call", "rob"):
                level, leader = level + 1, [p]
        assert f["auction_level"][0] == level
        assert np.flatnonzero(f["auction_leader"]).tolist() == leader
    assert np.array_equal(obs["observation"], env.observe(agent)["observation"])
    assert seat == g.to_move


@pytest.mark.parametrize("rules", RULES)
def test_observation_fields_match_the_game(aec, rules):
    e = aec.raw_env(rules=rules)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(4):
        _play_random(e, rng, _check_observation)
        e.reset()


def test_auction_level_and_leader_follow_the_bids(aec):
    e = aec.raw_env()
    e.reset(seed=4)
    layout, fields = e.table.actions, e.table.observations.fields
    bidder = e.game.to_move
    e.step(layout.auction_id(Bid(2)))
    vec = e.observe("player_0")["observation"]
    assert vec[fields["auction_level"]][0] == 2
    assert np.flatnonzero(vec[fields["auction_leader"]]).tolist() == [bidder]


def test_redeal_continues_the_episode_and_resets_the_auction(aec):
    e = aec.raw_env()
    e.reset(seed=4)
    layout = e.table.actions
    first = e.agent_selection
    for _ in range(3):                                  # everyone passes: redeal
        assert not any(e.terminations.values())
        e.step(layout.auction_id(BID_PASS))
    g = e.game
    assert g.deal_number == 1 and g.history == []
    assert not any(e.terminations.values())
    assert e.agent_selection == f"player_{g.first_bidder}"
    f = e.table.observations.split(e.observe(first)["observation"])
    assert f["auction_level"][0] == 0 and not f["auction_leader"].any()


# ---------------------------------------------------------------------------
# Random masked play: thousands of deals, no illegal action, zero-sum rewards
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules, deals", [("standard", 2000), ("four", 300),
                                          (Rules(auction="rob"), 300)])
def test_random_masked_agents_finish_zero_sum(aec, rules, deals):
    # The raw env raises on any illegal action, so finishing proves none was taken.
    e = aec.raw_env(rules=rules)
    e.reset(seed=20261129)
    rng = np.random.default_rng(0)
    landlord_wins = 0
    for _ in range(deals):
        rewards = _play_random(e, rng)
        res = e.game.result
        assert res is not None
        assert [rewards[a] for a in e.possible_agents] == [float(x) for x in res.scores]
        assert sum(rewards.values()) == 0 and any(rewards.values())
        assert e.agents == []
        landlord_wins += res.landlord_won
        e.reset()
    assert 0 < landlord_wins < deals


@pytest.mark.parametrize("max_cycles", [1, 2, 5])
def test_max_cycles_truncates_unfinished_deals(aec, max_cycles):
    e = aec.env(max_cycles=max_cycles)
    e.reset(seed=12)
    rng = np.random.default_rng(12)
    live_steps, finished = 0, {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            finished[agent] = True
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"].view(bool))[rng.integers(obs["action_mask"].sum())]))
        live_steps += 1
    # This seeded deal is still running after 15 actions (result is None), so
    # each run stops exactly at max_cycles * 3 actions.
    assert live_steps == max_cycles * 3
    assert e.unwrapped.game.result is None
    assert set(finished) == set(e.possible_agents) and e.agents == []
    with pytest.raises(ValueError, match="max_cycles"):
        aec.raw_env(max_cycles=0)


# ---------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------

def test_raw_env_raises_on_illegal_action_and_keeps_the_state(aec):
    from ddz_fast.envs.table import IllegalActionError
    e = aec.raw_env()
    e.reset(seed=6)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[-1])
    before = e.game.snapshot()
    with pytest.raises(IllegalActionError, match=f"action id {bad}"):
        e.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        e.step(e.action_space("player_0").n)
    with pytest.raises(TypeError, match="must be an int"):
        e.step("1")
    with pytest.raises(ValueError, match="not None"):
        e.step(None)
    assert e.game.snapshot() == before


def test_wrapped_env_terminates_on_illegal_action(aec):
    e = aec.env(illegal_reward=-5)
    e.reset(seed=6)
    offender = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values())
    rewards = {}
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        assert term or trunc
        rewards[agent] = reward
        e.step(None)
    assert rewards == {a: (-5 if a == offender else 0) for a in e.possible_agents}


def test_numpy_action_ids_are_accepted(aec):
    e = aec.raw_env()
    e.reset(seed=8)
    ids = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.int32(ids[0]))
    e.step(np.array(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert len(e.game.history) == 2


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def test_render_modes(aec, capsys):
    e = aec.raw_env(render_mode="ansi")
    e.reset(seed=9)
    text = e.render()
    g = e.game
    for s in range(3):
        from ddz_fast import format_cards
        assert format_cards(g.hand(s)) in text
    assert f"> seat {g.to_move}" in text
    h = aec.raw_env(render_mode="human")
    h.reset(seed=9)
    assert h.render() is None
    assert capsys.readouterr().out.strip() == text
    with pytest.warns(UserWarning, match="render_mode"):
        assert aec.raw_env().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        aec.raw_env(render_mode="rgb_array")


# ---------------------------------------------------------------------------
# Optional dependency
# ---------------------------------------------------------------------------

def test_import_guard_without_pettingzoo():
    # A fresh interpreter where importing pettingzoo fails: ddz_fast and
    # ddz_fast.envs import fine, ddz_fast.envs.aec names the extra.
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "import ddz_fast, ddz_fast.envs\n"
        "assert 'gymnasium' not in sys.modules\n"
        "try:\n"
        "    import ddz_fast.envs.aec\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install ".[pettingzoo]"' in out.stdout


def test_the_raw_env_refuses_to_step_observe_or_report_before_reset(aec):
    e = aec.raw_env()
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), e.last, lambda: e.last(observe=False)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    e.reset(seed=1)
    assert e.last()[0]["action_mask"].any()
