"""The evaluation arena: duplicate deals, agents, metrics and their intervals,
checked against a plain Game loop (the obvious twin of the batched arena)."""
import itertools
import json
import math
import sys
import types

import numpy as np
import pytest

from ddz_fast import PRESETS, Game, Phase, PIMCAgent, VecGame, game_seed
from ddz_fast import arena
from ddz_fast.arena import clustered_mean, load_agent, rotations, wilson_mean
from ddz_fast.game import simple_bot
from ddz_fast.game_values import AuctionAction
from ddz_fast.cli import main


def first_legal(obs, legal):
    """A deterministic agent: the first legal action."""
    return legal[0]


def most_cards(obs, legal):
    """A deterministic agent: the legal action with most cards (last of equals)."""
    if obs.phase != Phase.PLAY:
        return legal[-1]
    best = max(range(len(legal)), key=lambda i: (legal[i].n_cards, i))
    return legal[best]


class FirstLegalBatch:
    """A batch agent: the first legal id at every table given."""

    name = "first-batch"

    def __init__(self):
        self.calls = 0
        self.largest = 0

    def act_batch(self, vec, tables):
        self.calls += 1
        self.largest = max(self.largest, len(tables))
        assert vec.observations is not None and vec.observations.shape[0] == len(vec)
        return vec.legal_ids[vec.legal_offsets[tables]]


# ---------------------------------------------------------------------------
# The obvious twin: one Game per (deal, rotation), agents called in turn
# ---------------------------------------------------------------------------

def reference_games(agents, deals, seed, rules, landlord):
    r = PRESETS[rules] if isinstance(rules, str) else rules
    P = r.players
    rots = rotations(len(agents), P, landlord)
    seats_out, scores_out = [], []
    for k in range(deals):
        for rot in rots:
            g = Game(r, seed=game_seed(seed, k))
            if landlord == "fixed":
                # the deal's first bidder takes the top bid; nobody else bids or doubles
                while g.phase != Phase.PLAY:
                    acts = g.legal_actions()
                    g.step(acts[-1] if g.auction_leader is None and g.phase == Phase.AUCTION else acts[0])
                ll = g.landlord
                seat_agent = [rot[(s - ll) % P] for s in range(P)]
            else:
                seat_agent = list(rot)
            base = g.base if landlord == "fixed" else 1
            while not g.is_over:
                s = g.to_move
                obs = g.observation(s)
                a = agents[seat_agent[s]]
                if a == "simple":
                    act = simple_bot(obs, r)
                else:
                    act = a(obs, obs.legal_actions)
                g.step(act)
            seats_out.append(seat_agent)
            scores_out.append([x // base for x in g.result.scores])
    return np.array(seats_out), np.array(scores_out)


ROB = PRESETS["standard"].replace(auction="rob", name="standard+rob")


@pytest.mark.parametrize("rules", ["standard", ROB, "four", "laizi", "tiandi"],
                         ids=["standard", "rob", "four", "laizi", "tiandi"])
@pytest.mark.parametrize("landlord", ["fixed", "auction"])
def test_every_game_matches_a_plain_game_loop(rules, landlord):
    agents = ["simple", most_cards] if rules != "four" else ["simple", first_legal]
    res = arena.play(agents, deals=12, seed=5, rules=rules, landlord=landlord, tables=7)
    seats, scores = reference_games(agents, 12, 5, rules, landlord)
    assert np.array_equal(res.seats, seats)
    assert np.array_equal(res.scores, scores)
    assert (res.scores.sum(axis=1) == 0).all()


def test_one_agent_per_seat_plays_every_permutation():
    agents = ["simple", most_cards, first_legal]
    res = arena.play(agents, deals=4, seed=2, landlord="auction", tables=5)
    seats, scores = reference_games(agents, 4, 2, "standard", "auction")
    assert np.array_equal(res.scores, scores) and np.array_equal(res.seats, seats)
    assert len(res) == 4 * 6
    assert sorted(map(tuple, res.seats[:6])) == sorted(itertools.permutations(range(3)))


def test_results_do_not_depend_on_the_number_of_tables():
    agents = ["random", "simple"]
    runs = [arena.play(agents, deals=40, seed=9, tables=t) for t in (1, 6, 256)]
    for r in runs[1:]:
        assert np.array_equal(r.scores, runs[0].scores)
        assert np.array_equal(r.seats, runs[0].seats)


def test_random_agents_differ_by_place_and_seed():
    a = arena.play(["random", "random"], deals=30, seed=1)
    b = arena.play(["random", "random"], deals=30, seed=2)
    assert not np.array_equal(a.scores, b.scores)
    # the two random agents draw from different streams: the rotations of a deal differ
    assert not np.array_equal(a.scores[0::2], -a.scores[1::2])


def test_a_batch_agent_gets_many_tables_and_matches_its_per_observation_twin():
    batch = FirstLegalBatch()
    res = arena.play([batch, "simple"], deals=30, seed=3, tables=16)
    twin = arena.play([first_legal, "simple"], deals=30, seed=3, tables=16)
    assert np.array_equal(res.scores, twin.scores)
    assert batch.largest > 1 and res.labels == ("first-batch", "simple")


# ---------------------------------------------------------------------------
# Duplicate deals and the metrics
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["standard", "four"])
def test_two_copies_of_a_deterministic_agent_tie_on_every_deal(rules):
    res = arena.play(["simple", "simple"], deals=60, seed=4, rules=rules)
    for a in (0, 1):
        d, win, pts = res.units(a)
        assert np.bincount(d, weights=pts, minlength=60).tolist() == [0] * 60
        all_adp = res.stat(a, "adp")
        assert all_adp.mean == 0 and all_adp.low == 0 and all_adp.high == 0
        assert res.stat(a, "wp").mean == 0.5
    assert res.labels == ("simple", "simple#2")


@pytest.mark.parametrize("landlord", ["fixed", "auction"])
def test_rotations_give_every_agent_every_place_equally_often(landlord):
    for n, P in ((2, 3), (3, 3), (2, 4), (4, 4)):
        rots = np.array(rotations(n, P, landlord))
        for place in range(P):
            counts = np.bincount(rots[:, place], minlength=n)
            assert (counts == counts[0]).all(), (n, P, place)
        assert len({tuple(r) for r in rots}) == len(rots)
        assert all(set(r) == set(range(n)) for r in rots.tolist())


def test_units_and_stats_follow_their_definitions():
    res = arena.play(["simple", "random"], deals=50, seed=6)
    P = 3
    for a in (0, 1):
        for role in ("landlord", "farmer"):
            wins, points = [], []
            for q in range(len(res)):
                ll = res.landlord[q]
                held = [s for s in range(P) if res.seats[q, s] == a and (s == ll) == (role == "landlord")]
                if held:
                    wins.append(float(res.landlord_won[q] == (role == "landlord")))
                    points.append(float(sum(res.scores[q, s] for s in held)))
            assert res.stat(a, "wp", role).mean == pytest.approx(np.mean(wins))
            assert res.stat(a, "adp", role).mean == pytest.approx(np.mean(points))
            assert res.stat(a, "wp", role).units == len(wins)
    # with the landlord fixed, each agent holds each role once per deal
    assert res.stat(0, "wp", "landlord").units == 50 == res.stat(0, "wp", "landlord").deals
    # zero-sum between the two sides of every game
    assert res.stat(0, "adp").mean == pytest.approx(-res.stat(1, "adp").mean)


def test_the_interval_of_one_unit_per_deal_is_the_classic_one():
    rng = np.random.default_rng(0)
    x = rng.normal(1.0, 2.0, size=400)
    st = clustered_mean(x, np.ones(400))
    half = 1.959963984540054 * x.std(ddof=1) / math.sqrt(400)
    assert st.mean == pytest.approx(x.mean())
    assert st.high - st.mean == pytest.approx(half) and st.mean - st.low == pytest.approx(half)


# Wilson score intervals at 95%, from Newcombe (1998), "Two-sided confidence
# intervals for the single proportion", Stat. Med. 17, Table II (checked with
# scipy.stats.binomtest(k, n).proportion_ci(method="wilson")), and 1 of 50.
WILSON_KNOWN = [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
                (1, 29, 0.0061, 0.1718), (1, 50, 0.0035, 0.1050)]


@pytest.mark.parametrize("k, n, low, high", WILSON_KNOWN)
def test_wp_with_one_unit_per_deal_has_the_textbook_wilson_interval(k, n, low, high):
    wins = np.zeros(n)
    wins[:k] = 1
    st = wilson_mean(wins, np.ones(n))
    assert st.mean == pytest.approx(k / n)
    assert round(st.low, 4) == low and round(st.high, 4) == high


def test_the_wp_interval_of_two_identical_units_a_deal_is_that_of_one_unit_a_deal():
    rng = np.random.default_rng(3)
    won = (rng.random(120) < 0.3).astype(float)
    twice = wilson_mean(2 * won, np.full(120, 2.0))
    once = wilson_mean(won, np.ones(120))
    assert (twice.mean, twice.units, twice.deals) == (once.mean, 240, 120)
    assert twice.low == pytest.approx(once.low) and twice.high == pytest.approx(once.high)


def test_an_arena_wp_of_zero_still_has_an_interval():
    """An agent that never wins gets [0, z^2 / (D + z^2)] over D deals, not [0, 0]."""
    def loser(obs, legal):                     # passes whenever it may, else the first move
        return legal[0]
    res = arena.play(["simple", loser], deals=60, seed=2)
    st = res.stat(1, "wp")
    z2 = 1.959963984540054 ** 2
    assert st.mean == 0 == st.low and st.high == pytest.approx(z2 / (60 + z2))
    d, win, _ = res.units(0)
    assert res.stat(0, "wp") == wilson_mean(np.bincount(d, weights=win, minlength=60),
                                            np.bincount(d, minlength=60).astype(float))


def test_the_interval_widens_with_correlated_units_in_a_deal():
    rng = np.random.default_rng(1)
    deal_effect = rng.normal(0, 1, size=300)
    # two identical units per deal: the effective sample is 300, not 600
    sums, counts = 2 * deal_effect, np.full(300, 2.0)
    clustered = clustered_mean(sums, counts)
    flat = clustered_mean(np.repeat(deal_effect, 2), np.ones(600))
    assert clustered.mean == pytest.approx(flat.mean)
    assert (clustered.high - clustered.low) / (flat.high - flat.low) == pytest.approx(math.sqrt(2), rel=0.01)


def test_fewer_than_two_deals_have_no_interval():
    st = clustered_mean(np.array([3.0]), np.array([2.0]))
    assert st.mean == 1.5 and math.isnan(st.low) and math.isnan(st.high)
    assert math.isnan(clustered_mean(np.zeros(3), np.zeros(3)).mean)


def test_a_better_agent_wins_with_an_interval_clear_of_the_weaker():
    res = arena.play(["simple", "random"], deals=200, seed=1)
    s, r = res.stat(0, "wp"), res.stat(1, "wp")
    assert s.low > 0.5 > r.high
    assert res.stat(0, "adp").low > 0


def test_summary_json_format_per_deal_and_games():
    res = arena.play(["simple", "random"], deals=10, seed=2)
    data = json.loads(res.to_json())
    assert data["agents"] == ["simple", "random"] and data["games"] == 20
    assert data["summary"]["simple"]["landlord"]["wp"]["units"] == 10
    assert set(res.summary()["random"]) == {"all", "landlord", "farmer"}
    text = res.format()
    assert "WP [95% CI]" in text and "simple" in text and "farmer" in text
    rows = res.per_deal()
    assert len(rows) == 10 and rows[3]["seed"] == game_seed(2, 3)
    assert sum(r["simple points"] + r["random points"] for r in rows) == 0
    with pytest.raises(ValueError, match="read-only"):
        res.scores[0, 0] = 5
    games = list(res.games())
    assert len(games) == 20 and games[1]["rotation"] == 1 and sum(games[0]["scores"]) == 0


def test_pimc_plays_in_the_arena_and_pickles_as_its_parameters():
    import pickle
    agent = PIMCAgent(worlds=4, seed=7)
    clone = pickle.loads(pickle.dumps(agent))
    assert repr(clone) == repr(agent)
    a = arena.play([agent, "simple"], deals=3, seed=1)
    b = arena.play([clone, "simple"], deals=3, seed=1, tables=1)
    assert np.array_equal(a.scores, b.scores) and a.labels[0] == "pimc"


# ---------------------------------------------------------------------------
# Agents by name, and bad input
# ---------------------------------------------------------------------------

def test_load_agent_names_and_module_attributes(monkeypatch):
    mod = types.ModuleType("arena_test_agents")
    mod.first = first_legal
    mod.Batch = FirstLegalBatch
    mod.value = 3
    monkeypatch.setitem(sys.modules, "arena_test_agents", mod)
    assert load_agent("random") == "random" and load_agent("pimc") == "pimc"
    assert load_agent("arena_test_agents:first") is first_legal
    assert isinstance(load_agent("arena_test_agents:Batch"), FirstLegalBatch)
    with pytest.raises(ValueError, match="neither callable"):
        load_agent("arena_test_agents:value")
    with pytest.raises(ValueError, match="no attribute"):
        load_agent("arena_test_agents:missing")
    with pytest.raises(ValueError, match="cannot import"):
        load_agent("no_such_module_xyz:f")
    with pytest.raises(ValueError, match="unknown agent"):
        load_agent("alphazero")
    with pytest.raises(TypeError):
        load_agent(3)


def test_pimc_takes_options_by_name():
    assert load_agent("pimc(worlds=8, solver_cards=10)") == "pimc(worlds=8, solver_cards=10)"
    res = arena.play(["pimc(worlds=8, solver_cards=10)", "simple"], deals=2, seed=1)
    ref = arena.play([PIMCAgent(8, solver_cards=10, seed=game_seed(1, 0)), "simple"], deals=2, seed=1)
    assert np.array_equal(res.scores, ref.scores)
    assert res.labels[0] == "pimc(worlds=8, solver_cards=10)"
    for bad, match in (("pimc(worlds=0)", "worlds 0 is out of range"), ("pimc(wrlds=3)", "wrlds"),
                       ("pimc(seed=3)", "comes from the arena"), ("simple(x=1)", "only pimc"),
                       ("pimc(3)", "name=value"), ("pimc(worlds=open)", "name=value"),
                       ("pimc(worlds=8", "name=value")):
        with pytest.raises(ValueError, match=match):
            load_agent(bad)


def test_pimc_takes_its_candidate_limit_and_time_budget_by_name():
    spec = "pimc(worlds=4, candidates=8, time_budget=None)"
    res = arena.play([spec, "simple"], deals=2, seed=1, rules="laizi")
    ref = arena.play([PIMCAgent(4, candidates=8, seed=game_seed(1, 0), rules="laizi"), "simple"],
                     deals=2, seed=1, rules="laizi")
    assert np.array_equal(res.scores, ref.scores)
    assert load_agent("pimc(candidates=None, time_budget=0.5)") == "pimc(candidates=None, time_budget=0.5)"
    for bad, match in (("pimc(candidates=1)", "candidates 1 is out of range"),
                       ("pimc(candidates='all')", "candidates must be"),
                       ("pimc(time_budget=0)", "time_budget must be > 0")):
        with pytest.raises(ValueError, match=match):
            load_agent(bad)


def test_bad_arguments_are_refused_before_anything_runs():
    with pytest.raises(ValueError, match="2 agents or one per seat"):
        arena.play(["simple"] * 3 + ["random"], deals=1)
    with pytest.raises(ValueError, match="unknown agent"):
        arena.play(["simple", "nobody"], deals=1)
    with pytest.raises(TypeError, match="an agent must be"):
        arena.play(["simple", 42], deals=1)
    with pytest.raises(ValueError, match="landlord"):
        arena.play(["simple", "random"], deals=1, landlord="seat0")
    with pytest.raises(ValueError, match="deals"):
        arena.play(["simple", "random"], deals=0)
    with pytest.raises(TypeError, match="deals"):
        arena.play(["simple", "random"], deals=2.5)
    with pytest.raises(TypeError, match="agents"):
        arena.play("simple", deals=1)
    with pytest.raises(ValueError, match="tables"):
        arena.play(["simple", "random"], deals=1, tables=0)


def test_an_agent_that_plays_an_illegal_or_foreign_action_is_named():
    from ddz_fast import parse_move

    def cheat(obs, legal):
        return parse_move("RB") if obs.phase == Phase.PLAY else legal[0]

    def liar(obs, legal):
        return "33"

    class BadBatch:
        def act_batch(self, vec, tables):
            return np.zeros(len(tables) + 1, dtype=np.int64)

    with pytest.raises(ValueError, match="agent 'cheat' chose action id"):
        arena.play([cheat, "simple"], deals=2)
    with pytest.raises(TypeError, match="agent 'liar' returned a str"):
        arena.play([liar, "simple"], deals=2)
    with pytest.raises(ValueError, match="act_batch must return"):
        arena.play([BadBatch(), "simple"], deals=2)


def test_units_and_stat_check_their_arguments():
    res = arena.play(["simple", "random"], deals=3, seed=1)
    with pytest.raises(ValueError, match="role"):
        res.units(0, "kitty")
    with pytest.raises(ValueError, match="agent"):
        res.units(2)
    with pytest.raises(ValueError, match="metric"):
        res.stat(0, "elo")
    with pytest.raises(ValueError, match="deals"):
        res.stat(0, "wp", deals=4)


# ---------------------------------------------------------------------------
# The command line and the plot
# ---------------------------------------------------------------------------

def test_cli_arena_prints_the_library_result(capsys):
    assert main(["arena", "simple", "random", "--deals", "40", "--seed", "3", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = arena.play(["simple", "random"], deals=40, seed=3)
    assert out["summary"] == json.loads(res.to_json())["summary"]
    assert main(["arena", "simple", "random", "--deals", "5", "-q"]) == 0
    assert "landlord" in capsys.readouterr().out
    assert main(["arena", "simple", "--deals", "5", "-q"]) == 2
    assert "2 agents" in capsys.readouterr().err
    assert main(["arena", "simple", "nobody:x", "--deals", "5", "-q"]) == 2
    assert "cannot import" in capsys.readouterr().err
    assert main(["arena", "simple", "random", "--deals", str(10 ** 11), "-q"]) == 2
    assert "out of memory" in capsys.readouterr().err


def test_cli_arena_writes_the_per_deal_table(tmp_path, capsys):
    import csv
    path = tmp_path / "deals.csv"
    assert main(["arena", "simple", "random", "--deals", "12", "--seed", "2", "-q", "--per-deal", str(path)]) == 0
    rows = list(csv.DictReader(path.open()))
    expected = arena.play(["simple", "random"], deals=12, seed=2).per_deal()
    assert len(rows) == 12
    assert [int(r["simple points"]) for r in rows] == [e["simple points"] for e in expected]
    assert [int(r["seed"]) for r in rows] == [game_seed(2, k) for k in range(12)]


def test_cli_arena_writes_a_plot(tmp_path, capsys):
    from optional import require
    require("matplotlib")
    path = tmp_path / "arena.png"
    assert main(["arena", "simple", "random", "--deals", "30", "-q", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(path) in capsys.readouterr().out


def test_set_games_starts_the_chosen_deals():
    vg = VecGame(4, seed=3, auto_reset=False)
    seeds = [game_seed(9, 0), game_seed(9, 1)]
    vg.set_games([3, 1], seeds)
    for t, s in ((3, seeds[0]), (1, seeds[1])):
        g, ref = vg.games(t), Game("standard", seed=s)
        assert [g.hand(p).tolist() for p in range(3)] == [ref.hand(p).tolist() for p in range(3)]
        assert g.to_move == ref.to_move and int(vg.game_seeds[t]) == s
    assert vg.episodes.tolist() == [0, 1, 0, 1]
    skip = VecGame(2, skip_auction=True)
    skip.set_games(np.array([0]), np.array([seeds[0]], dtype=np.uint64))
    assert skip.games(0).phase == Phase.PLAY
    for bad, err in ((([1, 1], [1, 2]), ValueError), (([0, 4], [1, 2]), ValueError),
                     (([0], [1, 2]), ValueError), (("01", [1, 2]), TypeError),
                     ((np.ma.masked_array([0]), [1]), TypeError), (([0.5], [1]), TypeError),
                     ((np.zeros((1, 1), dtype=int), [1]), ValueError)):
        with pytest.raises(err):
            vg.set_games(*bad)
    assert vg.episodes.tolist() == [0, 1, 0, 1]


def test_auction_actions_of_agents_are_mapped_to_ids():
    picks = []

    def bidder(obs, legal):
        if obs.phase != Phase.PLAY:
            assert all(isinstance(a, AuctionAction) for a in legal)
            picks.append(legal[-1])
        return legal[-1] if obs.phase != Phase.PLAY else legal[0]

    arena.play([bidder, "simple"], deals=2, landlord="auction")
    assert picks


def test_cli_arena_checks_for_matplotlib_before_playing(monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)        # (import matplotlib: ImportError)

    def no_games(*args, **kwargs):
        raise AssertionError("the games were played before the missing extra was noticed")
    monkeypatch.setattr(arena, "play", no_games)
    assert main(["arena", "simple", "random", "--deals", "3", "-q", "--plot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert "matplotlib" in err and "pip install '.[plot]'" in err and "ddz-fast[" not in err


def test_cli_arena_writes_its_results_before_a_plot_that_fails(tmp_path, capsys):
    from optional import require
    require("matplotlib")
    table = tmp_path / "deals.csv"
    code = main(["arena", "simple", "random", "--deals", "4", "-q", "--json", "--per-deal", str(table),
                 "--plot", str(tmp_path / "no such folder" / "x.png")])
    out, err = capsys.readouterr()
    assert code == 2 and "no such folder" in err and "Traceback" not in err
    assert json.loads(out)["deals"] == 4
    assert len(table.read_text().splitlines()) == 1 + 4


def test_cli_arena_finds_module_attribute_agents_in_the_current_directory(tmp_path, monkeypatch, capsys):
    import sys
    (tmp_path / "my_arena_agent.py").write_text(
        "def first_legal(obs, legal):\n    return legal[0]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "my_arena_agent", raising=False)
    assert main(["arena", "my_arena_agent:first_legal", "simple", "--deals", "3", "-q", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agents"][0] == "first_legal"


@pytest.mark.parametrize("options", ["worlds=" + "[" * 100_000 + "]" * 100_000, "worlds=" + "-" * 100_000 + "1",
                                     "worlds=" + "[" * 300 + "]" * 300, "worlds=" + "-" * 900 + "1"])
def test_an_overlong_or_overdeep_pimc_option_string_is_a_clear_error(options, capsys):
    """Refused as an option string (not "out of memory"), and the message
    quotes only its start."""
    spec = f"pimc({options})"
    shown = r"agent 'pimc\(worlds=.*characters\): (the options of pimc|write options)"
    with pytest.raises(ValueError, match=shown) as e:
        load_agent(spec)
    assert len(str(e.value)) < 300
    assert main(["arena", spec, "simple", "--deals", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert "pimc(" in err and "out of memory" not in err


@pytest.mark.parametrize("rules", ["standard", "laizi", "tiandi"])
def test_game_records_replay_to_the_same_game(rules):
    """A record's ids (flat wild ids under wild cards) replay, through the
    engine's checks, to the same history and result."""
    g = Game(rules, seed=8)
    while not g.is_over:
        g.step(g.legal_actions()[-1])
    rec = json.loads(json.dumps(arena.game_record(g)))
    again = arena.game_from_record(rec)
    assert again.history == g.history and again.result == g.result
    if rules != "standard":
        assert any("=" in text for _, _, text in rec["actions"])   # (a wild card read as another rank)
