"""DouZeroAgent against DouZero's own DeepAgent, on the same positions.

The networks are DouZero's own classes (``douzero.dmc.models``) with seeded
random weights, saved as DouZero saves its checkpoints; DeepAgent
(``douzero.evaluation.deep_agent``) loads them and plays the positions of a
DouZero ``GameEnv`` dealt the cards of each table of a VecGame, replaying the
moves DouZeroAgent plays there.
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast.convert import counts_to_douzero
from ddz_fast.game import simple_bot

# (the packaging check runs the tests with --import-mode=importlib: tests/ is not on sys.path)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from optional import require  # noqa: E402

torch = require("torch")
require("git")                      # (douzero.dmc imports GitPython)
douzero_models = require("douzero.dmc.models")
from douzero.env.env import get_obs as douzero_get_obs  # noqa: E402
from douzero.env.game import GameEnv  # noqa: E402
from douzero.evaluation.deep_agent import DeepAgent  # noqa: E402

from ddz_fast.train import DouZeroAgent, make_model, save_checkpoint  # noqa: E402

POSITIONS = ("landlord", "landlord_up", "landlord_down")
# Two actions whose values DouZero computes closer than this are a tie in
# float32: the LSTM and the matrix products of a batch of rows may round
# differently (a few units in the last place) with the batch's size and
# make-up, so DeepAgent (one position's rows per call) and DouZeroAgent
# (every table's rows at once) may break such a tie differently.
TIE = 1e-5


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    folder = tmp_path_factory.mktemp("douzero_ckpt")
    for k, pos in enumerate(POSITIONS):
        torch.manual_seed(100 + k)
        net = douzero_models.model_dict[pos]()
        # (larger weights than the default initialisation: values far apart, few near-ties)
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(3.0)
        torch.save(net.state_dict(), folder / f"{pos}.ckpt")
    return folder


class _Told:
    """A DouZero player making the move it was told."""

    action: list = []

    def act(self, infoset):
        return self.action


def _replay(game):
    hands = {}
    for seat in range(3):
        role = ("landlord", "landlord_down", "landlord_up")[(seat - game.landlord) % 3]
        hands[role] = counts_to_douzero(game.hand(seat), rules="douzero")
    hands["three_landlord_cards"] = counts_to_douzero(game.kitty, rules="douzero")
    player = _Told()
    env = GameEnv({p: player for p in POSITIONS})
    env.card_play_init(hands)
    return env, player


def _compare(agent, deep, tables, positions_each, seed):
    """Play DouZeroAgent on a VecGame; at each of its positions, DeepAgent
    decides on the same position of the replayed GameEnv.  Returns the count
    of positions per type, of near-ties decided differently and of
    positions where DeepAgent's choice is not legal under the rules."""
    vec = ddz.VecGame(tables, rules="douzero", seed=seed, skip_auction=True, observations=False)
    replays = [_replay(vec.games(i)) for i in range(tables)]
    seen = dict.fromkeys(POSITIONS, 0)
    ties = refused = 0
    every = np.arange(tables)
    while min(seen.values()) < positions_each:
        ids = agent.act_batch(vec, every)
        for i in range(tables):
            env, player = replays[i]
            info = env.game_infoset
            pos = info.player_position
            seen[pos] += 1
            ours = counts_to_douzero(vec.action(int(ids[i])).counts, rules="douzero")
            theirs = deep[pos].act(info)
            if sorted(theirs) != ours:
                obs = douzero_get_obs(info)
                with torch.no_grad():
                    values = deep[pos].model.forward(torch.from_numpy(obs["z_batch"]).float(),
                                                     torch.from_numpy(obs["x_batch"]).float(),
                                                     return_value=True)["values"].numpy().ravel()
                best = float(values.max())
                legal = {tuple(m) for m in (vec.action(int(a)).counts for a in
                         vec.legal_ids[vec.legal_offsets[i]:vec.legal_offsets[i + 1]])}
                mine = float(max(values[k] for k, a in enumerate(info.legal_actions) if sorted(a) == ours))
                if tuple(ddz.convert.douzero_to_counts(theirs)) not in legal:
                    refused += 1                # DeepAgent played a move the rules refuse
                    assert mine == max(values[k] for k, a in enumerate(info.legal_actions)
                                       if tuple(ddz.convert.douzero_to_counts(a)) in legal)
                else:
                    assert best - mine <= TIE, (pos, info.player_hand_cards, info.last_move, theirs, ours,
                                                best, mine)
                    ties += 1
            player.action = ours
            env.step()
        vec.step(ids)
        for i in np.flatnonzero(vec.done):
            assert replays[i][0].game_over
            replays[i] = _replay(vec.games(int(i)))
    return seen, ties, refused


def test_decisions_equal_douzero_deep_agent_on_1000_positions_per_position(checkpoints):
    torch.manual_seed(0)
    agent = DouZeroAgent(checkpoints)
    deep = {pos: DeepAgent(pos, str(checkpoints / f"{pos}.ckpt")) for pos in POSITIONS}
    seen, ties, refused = _compare(agent, deep, tables=64, positions_each=1000, seed=11)
    total = sum(seen.values())
    assert min(seen.values()) >= 1000
    assert ties + refused <= total // 200, (ties, refused, total)


@pytest.mark.slow
def test_decisions_equal_deep_agent_with_douzero_initial_weights_on_5000_positions_per_position(tmp_path):
    """DouZero's own initialisation (values closer together than above, so
    more near-ties), more positions, other deals."""
    for k, pos in enumerate(POSITIONS):
        torch.manual_seed(200 + k)
        torch.save(douzero_models.model_dict[pos]().state_dict(), tmp_path / f"{pos}.ckpt")
    agent = DouZeroAgent(tmp_path)
    deep = {pos: DeepAgent(pos, str(tmp_path / f"{pos}.ckpt")) for pos in POSITIONS}
    seen, ties, refused = _compare(agent, deep, tables=128, positions_each=5000, seed=29)
    assert min(seen.values()) >= 5000
    assert ties + refused <= sum(seen.values()) // 100, (ties, refused, seen)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Checkpoints of small networks of ours (an LSTM of 16, dense layers of 32)."""
    folder = tmp_path_factory.mktemp("small_ckpt")
    torch.manual_seed(7)
    for pos in POSITIONS:
        net = make_model(pos, lstm_size=16, hidden_size=32)
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(4.0)
        save_checkpoint(net, folder / f"{pos}.ckpt")
    return folder


def _values(agent, obs, moves):
    """The agent's networks' value of each move for an Observation (DouZero's rows)."""
    d = ddz.compat.douzero.observation_obs(obs)
    net = agent.models[d["position"]]
    rows = [k for k, a in enumerate(d["legal_actions"]) if any(
        list(ddz.convert.douzero_to_counts(a)) == list(m.counts) for m in moves)]
    with torch.no_grad():
        v = net(torch.from_numpy(d["z_batch"][rows]).float(), torch.from_numpy(d["x_batch"][rows]).float())
    return v.numpy().ravel()


def test_one_seat_calls_equal_the_batch_with_the_auction_on_and_simple_bot_bids(small):
    from ddz_fast.compat import douzero as dz

    agent = DouZeroAgent(small)
    vec = ddz.VecGame(32, rules="douzero", seed=4, observations=False)
    bids = plays = differ = 0
    while plays < 600:
        ids = agent.act_batch(vec, np.arange(32))
        for i in range(32):
            game = vec.games(i)
            obs = game.observation(game.to_move)
            mine = vec.action(int(ids[i]))
            alone = agent(obs, obs.legal_actions)
            assert agent(obs) == alone
            if game.phase != ddz.Phase.PLAY:
                bids += 1
                assert mine == alone == simple_bot(obs, "douzero")
                continue
            plays += 1
            assert dz.game_obs(game)["legal_actions"] == dz.observation_obs(obs)["legal_actions"]
            if mine != alone:        # a float32 near-tie (see TIE) broken the other way
                differ += 1
                v = _values(agent, obs, [mine, alone])
                assert abs(float(v[0]) - float(v[-1])) <= TIE
        vec.step(ids)
    assert bids > 50 and differ <= plays // 100


def test_bidders_play_the_auction(small):
    class Batch:
        phases = []

        def act_batch(self, vec, tables):
            self.phases.extend(vec.games(int(i)).phase for i in tables)
            return vec.legal_ids[vec.legal_offsets[tables + 1] - 1].astype(np.int64)

    last = lambda obs: obs.legal_actions[-1]
    vec = ddz.VecGame(8, rules="douzero", seed=1, observations=False, auto_reset=False)
    batch = Batch()
    for bidder in (last, batch):
        vec.reset(1)
        agent = DouZeroAgent(small, bidder=bidder)
        while (vec.to_move >= 0).any() and not vec.done.any():
            t = np.flatnonzero(vec.to_move >= 0)
            auction = [i for i in t if vec.games(int(i)).phase != ddz.Phase.PLAY]
            ids = agent.act_batch(vec, t)
            for i, a in zip(t, ids):
                if i in auction:
                    assert a == vec.legal_ids[vec.legal_offsets[i + 1] - 1]
            acts = np.full(8, vec.NO_ACTION, dtype=np.int64)
            acts[t] = ids
            vec.step(acts)
    assert batch.phases and ddz.Phase.PLAY not in batch.phases          # (given the auction tables only)
    game = ddz.Game("douzero", seed=2)
    assert DouZeroAgent(small, bidder=last)(game.observation(game.to_move)) == game.legal_actions()[-1]
    with pytest.raises(TypeError, match="batches"):
        DouZeroAgent(small, bidder=Batch())(game.observation(game.to_move))

    class Wrong:
        def __init__(self, answer):
            self.answer = answer

        def act_batch(self, vec, tables):
            return self.answer(tables)

    vec.reset(2)
    for answer in (lambda t: np.zeros(len(t)), lambda t: np.zeros(len(t) + 1, dtype=int),
                   lambda t: np.ma.masked_array(np.zeros(len(t), dtype=int)), lambda t: None):
        with pytest.raises(ValueError, match="integer action ids"):
            DouZeroAgent(small, bidder=Wrong(answer)).act_batch(vec, np.arange(8))


def test_models_in_memory_and_explicit_paths_play_as_the_directory(small, checkpoints):
    from ddz_fast.train import load_checkpoint

    nets = {p: load_checkpoint(small / f"{p}.ckpt", p) for p in POSITIONS}
    agents = [DouZeroAgent(small), DouZeroAgent(models=nets),
              DouZeroAgent(**{p: str(small / f"{p}.ckpt") for p in POSITIONS}),
              DouZeroAgent(checkpoints, landlord=small / "landlord.ckpt", landlord_up=small / "landlord_up.ckpt",
                           landlord_down=small / "landlord_down.ckpt")]
    runs = []
    for agent in agents:
        vec = ddz.VecGame(16, rules="douzero", seed=9, skip_auction=True, observations=False)
        seen = []
        for _ in range(60):
            ids = agent.act_batch(vec, np.arange(16))
            seen.append(ids.copy())
            vec.step(ids)
        runs.append(np.array(seen))
    for run in runs[1:]:
        assert np.array_equal(run, runs[0])
    assert agents[0].models["landlord"].hidden_size == 32
    assert "small_ckpt" in repr(agents[0]) and repr(agents[1]) == "DouZeroAgent('<models>', device='cpu')"


def test_arena_plays_douzero_agents_by_object_and_by_name(small):
    from ddz_fast import arena

    spec = f"douzero:{small}"
    by_name = arena.play([spec, "simple"], deals=6, seed=3, rules="douzero", progress=False)
    by_object = arena.play([DouZeroAgent(small), "simple"], deals=6, seed=3, rules="douzero", tables=5,
                           progress=False)
    assert [list(d.values()) for d in by_name.per_deal()] == [list(d.values()) for d in by_object.per_deal()]
    auction = arena.play([DouZeroAgent(small), "pimc(worlds=4)"], deals=3, seed=1, rules="douzero",
                         landlord="auction", progress=False)
    assert len(auction) == 3 * 6
    assert isinstance(arena.load_agent(spec), DouZeroAgent)
    with pytest.raises(ddz.AgentError, match="'douzero' rules.*--rules douzero"):
        arena.play([DouZeroAgent(small), "simple"], deals=2, progress=False)
    seat = arena.observation_agent(spec, rules="douzero")
    game = ddz.Game("douzero", seed=5)
    assert seat(game.observation(game.to_move)) in game.legal_actions()
    with pytest.raises(ValueError, match="'douzero' rules, not 'standard'"):
        arena.observation_agent(spec)


@pytest.mark.parametrize("spec, match", [
    ("douzero:", "name the directory"),
    ("douzero:/no/such/dir", "not a directory"),
])
def test_bad_douzero_names_are_refused_clearly(spec, match):
    from ddz_fast import arena

    with pytest.raises(ValueError, match=match):
        arena.load_agent(spec)


def test_bad_checkpoint_directories_and_arguments_raise_clear_errors(small, tmp_path):
    (tmp_path / "landlord.ckpt").write_bytes((small / "landlord.ckpt").read_bytes())
    with pytest.raises(ValueError, match="has no landlord_up.ckpt"):
        DouZeroAgent(tmp_path)
    (tmp_path / "landlord_up.ckpt").write_bytes((small / "landlord.ckpt").read_bytes())
    with pytest.raises(ValueError, match=r"landlord_up\.ckpt.*a landlord network's"):
        DouZeroAgent(tmp_path, landlord_down=small / "landlord_down.ckpt")
    with pytest.raises(ValueError, match="no checkpoint for landlord_up"):
        DouZeroAgent(landlord=small / "landlord.ckpt")
    with pytest.raises(TypeError, match="path"):
        DouZeroAgent(3)
    with pytest.raises(TypeError, match="landlord_up"):
        DouZeroAgent(small, landlord_up=1.5)
    nets = {p: make_model(p, lstm_size=4, hidden_size=4) for p in POSITIONS}
    with pytest.raises(ValueError, match="not both"):
        DouZeroAgent(small, models=nets)
    with pytest.raises(ValueError, match="positions"):
        DouZeroAgent(models={"landlord": nets["landlord"]})
    with pytest.raises(ValueError, match="x of 484 columns"):
        DouZeroAgent(models={**nets, "landlord": nets["landlord_up"]})
    with pytest.raises(TypeError, match="QNetwork"):
        DouZeroAgent(models={**nets, "landlord": torch.nn.Linear(1, 1)})
    with pytest.raises(TypeError, match="mapping"):
        DouZeroAgent(models=[nets["landlord"]])
    with pytest.raises(TypeError, match="bidder"):
        DouZeroAgent(small, bidder=3)
    with pytest.raises(ValueError, match="device"):
        DouZeroAgent(small, device="nowhere")
    agent = DouZeroAgent(small)
    vec = ddz.VecGame(3, rules="douzero", seed=1, skip_auction=True, auto_reset=False)
    with pytest.raises(TypeError, match="VecGame"):
        agent.act_batch("vec", [0])
    for bad, error in (([0, 0], ValueError), ([3], ValueError), ([-1], ValueError), (["0"], TypeError),
                       ([True], TypeError), (np.zeros(1), TypeError), (np.zeros((1, 1), dtype=int), TypeError),
                       (0, TypeError), (np.ma.masked_array([0]), TypeError)):
        with pytest.raises(error):
            agent.act_batch(vec, bad)
    assert agent.act_batch(vec, []).shape == (0,)
    with pytest.raises(ValueError, match="'douzero' rules"):
        agent.act_batch(ddz.VecGame(2, rules="standard", seed=1), [0])
    while (vec.to_move >= 0).all():
        vec.step(agent.act_batch(vec, [0, 1, 2]))
    over = int(np.flatnonzero(vec.to_move < 0)[0])
    with pytest.raises(ValueError, match=f"table {over} has nobody to act"):
        agent.act_batch(vec, [0, 1, 2])
    with pytest.raises(TypeError, match="Observation"):
        agent("observation")
    game = ddz.Game("douzero", seed=2)
    with pytest.raises(ValueError, match="no legal actions"):
        agent(game.observation((game.to_move + 1) % 3))


def test_command_line_and_environment_name_douzero_agents(small, capsys, monkeypatch):
    from ddz_fast.cli import main

    code = main(["arena", f"douzero:{small}", "simple", "--rules", "douzero", "--deals", "4", "--json", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["agents"] == ["douzero", "simple"]
    assert main(["arena", f"douzero:{small}", "simple", "--deals", "2", "-q"]) == 2
    assert "--rules douzero" in capsys.readouterr().err
    assert main(["arena", f"douzero:{small}/missing", "simple", "--rules", "douzero"]) == 2
    assert "not a directory" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n" + "#1\n#0\n" * 300))
    assert main(["play", "--rules", "douzero", "--opponent", f"douzero:{small}", "--seed", "2"]) == 0
    assert "over:" in capsys.readouterr().out
    single = require("ddz_fast.envs.single")
    env = single.DouDizhuSingleAgentEnv(rules="douzero", seat=1, opponent=f"douzero:{small}", seed=3)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    agent = DouZeroAgent(small)
    replay = ddz.Game("douzero", seed=env.game.seed)
    for seat, action in env.game.history:
        if seat != 1:
            assert action == agent(replay.observation(seat))
        replay.step(action)


def test_a_pickled_agent_plays_as_the_original(small):
    import pickle

    agent = DouZeroAgent(small, name="mine")
    vec = ddz.VecGame(8, rules="douzero", seed=5, skip_auction=True, observations=False)
    agent.act_batch(vec, np.arange(8))                  # (holds the features of vec now)
    again = pickle.loads(pickle.dumps(agent))
    assert again.name == "mine" and again.paths == agent.paths
    assert np.array_equal(again.act_batch(vec, np.arange(8)), agent.act_batch(vec, np.arange(8)))
    with pytest.raises(ValueError, match="empty"):
        DouZeroAgent(small, name="")
    with pytest.raises(TypeError, match="name"):
        DouZeroAgent(small, name=3)
