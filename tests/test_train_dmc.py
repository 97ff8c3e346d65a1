"""The Deep Monte-Carlo trainer (ddz_fast.train.dmc) and its bidding network:
the actor's bookkeeping against the engine, a short run whose loss moves,
checkpoints that round-trip (save, resume, load as an agent) and clear
errors for bad settings."""
from __future__ import annotations

import csv
import json
import os
import re

import numpy as np
import pytest

from optional import require

torch = require("torch")

import ddz_fast as ddz  # noqa: E402
from ddz_fast.cli import main  # noqa: E402
from ddz_fast.compat import douzero as dz  # noqa: E402
from ddz_fast.train import bidder as bidmod  # noqa: E402
from ddz_fast.train.dmc import (BIDDER_FILE, LOG_FILE, STATE_FILE, Actor, Learner, Networks,  # noqa: E402
                                TrainConfig, auction_rules, play_scores, train)
from ddz_fast.train.models import ACTION_SIZE, POSITIONS  # noqa: E402

SMALL = dict(lstm_size=8, hidden_size=16, bid_hidden=16, tables=16, batch_size=2, unroll_length=50, actors=0)


def _cfg(tmp_path, **kw):
    args = {**SMALL, "out": str(tmp_path / "run"), "frames": 300, **kw}
    return TrainConfig(**args)


def test_auction_rules_are_douzero_with_either_auction_and_features_accept_both():
    assert auction_rules("bid") == ddz.PRESETS["douzero"]
    rob = auction_rules("rob")
    assert rob.auction == "rob" and rob.four_two_solo_distinct is False
    feats = dz.VecFeatures(ddz.VecGame(4, rules=rob, seed=1))
    assert (np.asarray(feats.position) == -1).all()          # everyone still in the auction
    with pytest.raises(ValueError, match="douzero"):
        dz.VecFeatures(ddz.VecGame(2, rules=ddz.Rules(auction="rob"), seed=1))
    with pytest.raises(ValueError, match="auction"):
        auction_rules("both")


def test_segments_end_exactly_when_the_engine_ends_a_deal_or_deals_again():
    # random bids: many auctions where everyone passes, which the engine deals again
    cfg = TrainConfig(tables=8, bid_epsilon=1.0, lstm_size=8, hidden_size=16, bid_hidden=16).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    ends = redeals = 0
    for g in actor.groups:
        deal_no = [g.vec.games(i).deal_number for i in range(g.n)]
        episodes = np.array(g.vec.episodes)
        for _ in range(120):
            before = g.segment.copy()
            actor._step(g)
            now = [g.vec.games(i).deal_number for i in range(g.n)]
            eps = np.array(g.vec.episodes)
            engine = np.array([a != b for a, b in zip(now, deal_no)]) | (eps != episodes)
            redeals += int(((np.array(now) != np.array(deal_no)) & (eps == episodes)).sum())
            assert np.array_equal(g.segment != before, engine)
            ends += int(engine.sum())
            deal_no, episodes = now, eps
    assert ends > 5 and redeals > 0


def test_card_play_targets_are_the_scores_over_the_stake_and_bid_targets_the_scores():
    cfg = TrainConfig(tables=8, auction="rob", lstm_size=8, hidden_size=16, bid_hidden=16, bid_epsilon=0.3).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    g = actor.groups[0]
    checked = 0
    for _ in range(250):
        stake_before = g.stake.copy()
        landlord = g.landlord.copy()
        seg = g.segment.copy()
        actor._step(g)
        for t in np.flatnonzero(np.asarray(g.vec.done)):
            sc = np.asarray(g.vec.scores)[t].astype(float)
            slot = seg[t] % 16
            want = sc / stake_before[t]
            want[landlord[t]] /= 2
            assert np.allclose(g.card_ret[t, slot], want)
            assert np.allclose(g.bid_ret[t, slot], sc)
            # the landlord's card-play target is DouZero's: +-2^(bombs) x 2 if spring
            assert abs(want[landlord[t]]) in (1, 2, 4, 8, 16, 32, 64)
            checked += 1
    assert checked > 10


def test_frames_hold_the_chosen_rows_features():
    cfg = TrainConfig(tables=6, auction="bid", epsilon=0.0, lstm_size=8, hidden_size=16, bid_hidden=16).check()
    nets = Networks.fresh(cfg)
    actor = Actor(nets, cfg)
    g = actor.groups[0]
    for _ in range(30):
        actor._step(g)
    # Replay a fresh step by hand: the greedy action is the argmax row of each table's values.
    feats = g.feats
    feats.update()
    pos = np.asarray(feats.position)
    before = [len(s.pending) for s in actor.play]
    actor._step(g)
    for p in range(3):
        if not (pos == p).any():
            continue
        assert len(actor.play[p].pending) == before[p] + 1
        rows = actor.play[p].pending[-1]
        assert rows["x"].shape[1] == dz.X_SIZES[p] and rows["z"].shape[1:] == (5, 162)
        assert set(np.unique(rows["x"])) <= {0, 1}


def _scores_and_plain_values(actor, g):
    """For each position with tables in card play in ``g``: the actor's
    scores of every legal row (``play_scores`` with ``actor.scorers``) and
    the plain forward of the learner's network on those rows (the actor's
    packed hidden layers included, where this PyTorch packs them)."""
    feats = g.feats
    feats.update()
    pos = np.asarray(feats.position).astype(np.intp)
    row_table = np.asarray(feats.row_table).astype(np.intp)
    for p in range(3):
        tp = np.flatnonzero(pos == p)
        rows = np.flatnonzero(pos[row_table] == p)
        if not len(rows):
            continue
        size, split = dz.X_SIZES[p], dz.X_SIZES[p] - ACTION_SIZE
        local = np.empty(g.n, np.intp)
        local[tp] = np.arange(len(tp))
        got = play_scores(actor.scorers[POSITIONS[p]], feats.z[tp], feats.x_no_action[tp, :split],
                          feats.x_batch[rows, split:size], local[row_table[rows]], actor.packed[POSITIONS[p]])
        with torch.no_grad():
            want = actor.nets.play[POSITIONS[p]](torch.from_numpy(feats.z[row_table[rows]]),
                                                 torch.from_numpy(feats.x_batch[rows, :size].copy()))[:, 0].numpy()
        yield got, want


def test_the_actors_scores_are_the_networks_values_of_every_legal_row():
    cfg = TrainConfig(tables=12, auction="rob", lstm_size=8, hidden_size=16, bid_hidden=16).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    g = actor.groups[0]
    checked = 0
    for _ in range(40):
        actor._step(g)
        for got, want in _scores_and_plain_values(actor, g):
            assert np.allclose(got, want, rtol=1e-5, atol=1e-6)
            checked += len(got)
    assert checked > 200


def test_actors_score_with_copies_refreshed_after_each_learning_step():
    """The actor scores with its own copy of the learner's card-play
    networks: a learning step of one position's network reaches that
    position's copy at the actor's next step, not before, and leaves the
    other copies alone; the refreshed copy's scores are the updated
    network's values (its hidden layers packed, at a width the actor
    packs)."""
    cfg = TrainConfig(**{**SMALL, "auction": "none", "hidden_size": 384}).check()
    nets = Networks.fresh(cfg)
    actor, learner = Actor(nets, cfg), Learner(nets, cfg)
    assert all(actor.scorers[p] is not nets.play[p] for p in POSITIONS)
    assert all((actor.packed[p] is None) == (nets.play[p].pack_hidden() is None) for p in POSITIONS)
    batch = None
    for _ in range(400):
        actor.step()
        batch = next((kb for kb in actor.batches() if kb[0] != "bid"), None)
        if batch is not None:
            break
    assert batch is not None
    key, frames = batch
    old = {p: [t.clone() for t in actor.scorers[p].parameters()] for p in POSITIONS}
    learner.learn(key, frames)
    assert nets.updates.tolist() == [int(p == key) for p in POSITIONS]

    def same(p):
        return all(torch.equal(a, b) for a, b in zip(actor.scorers[p].parameters(), nets.play[p].parameters()))

    assert not same(key)
    actor.step()
    assert same(key)
    for p in POSITIONS:
        if p != key:
            assert all(torch.equal(a, b) for a, b in zip(actor.scorers[p].parameters(), old[p]))
    checked = 0
    for _ in range(10):
        actor._step(actor.groups[0])
        for got, want in _scores_and_plain_values(actor, actor.groups[0]):
            assert np.allclose(got, want, rtol=1e-5, atol=1e-6)
            checked += len(got)
    assert checked > 20


def _actor_follows(nets, cfg, ready, out):
    """In a spawned process: an actor on the shared ``nets`` steps until its
    landlord copy equals the learner's weights after their change (sends
    True), or 400 steps pass (False)."""
    actor = Actor(nets, cfg)
    ready.set()
    for _ in range(400):
        actor.step()
        if nets.updates[0] > 0 and all(torch.equal(a, b) for a, b in
                                       zip(actor.scorers["landlord"].parameters(),
                                           nets.play["landlord"].parameters())):
            out.put(bool(torch.equal(actor.scorers["landlord"].dense6.bias, torch.full((1,), 5.0))))
            return
    out.put(False)


def test_an_actor_process_refreshes_its_copy_after_a_learning_step_in_another():
    """The learning-step counter lives in shared memory with the networks:
    an actor in its own (spawned) process sees the learner's count move
    and copies the changed weights."""
    import torch.multiprocessing as mp

    cfg = TrainConfig(**{**SMALL, "auction": "none"}).check()
    nets = Networks.fresh(cfg)
    nets.share_memory()
    ctx = mp.get_context("spawn")
    ready, out = ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=_actor_follows, args=(nets, cfg, ready, out), daemon=True)
    proc.start()
    try:
        assert ready.wait(60)
        with torch.no_grad():
            nets.play["landlord"].dense6.bias.fill_(5.0)
        nets.updates[0] += 1
        assert out.get(timeout=60) is True
    finally:
        proc.join(timeout=10)
        if proc.is_alive():
            proc.terminate()


@pytest.mark.parametrize("key", ["landlord", "landlord_down", "bid"])
def test_a_learning_step_is_rmsprop_on_the_plain_mse_of_the_batch(key):
    """One step of the learner: its loss, gradients and updated weights are
    those of a plain computation (the network's own forward on the batch,
    mean squared error to the targets, the gradient clipped, RMSprop with
    the config's settings) on a copy of the networks."""
    import copy

    cfg = TrainConfig(tables=8, lstm_size=8, hidden_size=16, bid_hidden=16, max_grad_norm=0.05).check()
    nets = Networks.fresh(cfg)
    net = nets.bid if key == "bid" else nets.play[key]
    ref = copy.deepcopy(net)
    rng = np.random.default_rng(3)
    n = 300
    target = (rng.standard_normal(n) * 5).astype(np.float32)
    if key == "bid":
        batch = {"inputs": rng.random((n, bidmod.IN_SIZE)).astype(np.float32),
                 "action": rng.integers(0, 9, n).astype(np.int64), "target": target}
        inputs = torch.from_numpy(batch["inputs"])
        pred = ref(inputs)[torch.arange(n), torch.from_numpy(batch["action"])]
    else:
        size = dz.X_SIZES[POSITIONS.index(key)]
        batch = {"x": (rng.random((n, size)) < 0.2).astype(np.int8),
                 "z": (rng.random((n, 5, 162)) < 0.1).astype(np.int8), "target": target}
        pred = ref(torch.from_numpy(batch["z"]).float(), torch.from_numpy(batch["x"]).float())[:, 0]
    want_loss = torch.mean((pred - torch.from_numpy(target)) ** 2)
    want_loss.backward()
    norm = torch.sqrt(sum((p.grad ** 2).sum() for p in ref.parameters()))
    assert norm > cfg.max_grad_norm                       # (the clipping is exercised)
    for p in ref.parameters():
        p.grad *= cfg.max_grad_norm / (norm + 1e-6)
    opt = torch.optim.RMSprop(ref.parameters(), lr=cfg.bid_learning_rate if key == "bid" else cfg.learning_rate,
                              alpha=cfg.alpha, eps=cfg.rms_epsilon, momentum=0.0)
    opt.step()

    learner = Learner(nets, cfg)
    before = [p.detach().clone() for p in net.parameters()]
    loss = learner.learn(key, batch)
    assert loss == pytest.approx(want_loss.item(), rel=1e-5)
    for (name, got), want in zip(net.named_parameters(), ref.parameters()):
        assert torch.allclose(got.grad, want.grad, rtol=1e-4, atol=1e-7), name
        assert torch.allclose(got, want, rtol=1e-5, atol=1e-7), name
    assert not all(torch.equal(a, b) for a, b in zip(before, net.parameters()))


class _StepRecorder:
    """A VecGame stand-in that records the action ids each step gives it."""

    def __init__(self, vec):
        self._vec = vec
        self.steps = []

    def __getattr__(self, name):
        return getattr(self._vec, name)

    def step(self, actions):
        self.steps.append(np.array(actions))
        return self._vec.step(actions)


@pytest.mark.parametrize("auction", ["none", "rob"])
def test_greedy_actors_play_the_first_best_row_of_the_full_network_and_forced_moves(auction):
    """With epsilon 0 each table plays its first row of highest value,
    the values those of the plain network over every legal row; a table
    with one legal action plays it."""
    cfg = TrainConfig(tables=16, auction=auction, epsilon=0.0, lstm_size=8, hidden_size=16,
                      bid_hidden=16).check()
    nets = Networks.fresh(cfg)
    actor = Actor(nets, cfg)
    g = actor.groups[0]
    rec = _StepRecorder(g.vec)
    g.vec = rec
    forced = chosen = 0
    for _ in range(60):
        g.feats.update()
        feats = g.feats
        pos = np.asarray(feats.position).astype(np.intp)
        offsets = np.asarray(feats.offsets)
        ids = np.asarray(feats.action_ids)
        want = {}
        for t in np.flatnonzero(pos >= 0):
            lo, hi = offsets[t], offsets[t + 1]
            if hi == lo:
                continue
            p = pos[t]
            size = dz.X_SIZES[p]
            with torch.no_grad():
                v = nets.play[POSITIONS[p]](torch.from_numpy(np.repeat(feats.z[t:t + 1], hi - lo, axis=0)),
                                            torch.from_numpy(feats.x_batch[lo:hi, :size].copy()))[:, 0].numpy()
            want[t] = ids[lo + int(np.argmax(v))]
            forced += hi - lo == 1
        actor._step(g)
        got = rec.steps[-1]
        for t, a in want.items():
            assert got[t] == a, (t, got[t], a)
        chosen += len(want)
    assert forced > 20 and chosen > 300


def test_exploring_actors_play_a_uniform_legal_row_without_scoring_it(monkeypatch):
    """With epsilon 1 every card-play choice is a legal row drawn uniformly
    from its table's rows, and no network is run to make it."""
    from ddz_fast.train import dmc

    def refuse(*args):
        raise AssertionError("an exploring actor scored its rows")

    monkeypatch.setattr(dmc, "play_scores", refuse)
    cfg = TrainConfig(tables=32, auction="none", epsilon=1.0, lstm_size=8, hidden_size=16).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    g = actor.groups[0]
    rec = _StepRecorder(g.vec)
    g.vec = rec
    where = []          # (index of the chosen row among its table's rows, their number)
    for _ in range(200):
        g.feats.update()
        offsets = np.asarray(g.feats.offsets)
        ids = np.asarray(g.feats.action_ids)
        tables = [t for t in range(g.n) if offsets[t + 1] - offsets[t] > 1]
        rows = {t: list(ids[offsets[t]:offsets[t + 1]]) for t in tables}
        actor._step(g)
        got = rec.steps[-1]
        for t in tables:
            assert got[t] in rows[t]
            where.append((rows[t].index(got[t]), len(rows[t])))
    idx, n = np.array(where).T
    assert len(idx) > 3000
    # a uniform index has (idx + 0.5) / n uniform on (0, 1): mean 1/2, sd 1/sqrt(12) / sqrt(N)
    u = (idx + 0.5) / n
    assert abs(u.mean() - 0.5) < 4 / np.sqrt(12 * len(u))
    assert (idx == n - 1).any() and (idx == 0).any()


def test_a_bfloat16_actor_scores_with_a_copy_that_follows_the_learners_weights(tmp_path):
    """``actor_precision="bfloat16"``: the actor scores with bfloat16 copies
    of the card-play networks, close to the float32 values of every legal
    row, refreshed from the learner's weights; the learner stays float32
    and a run trains."""
    cfg = TrainConfig(tables=16, auction="none", lstm_size=16, hidden_size=32, actor_precision="bfloat16").check()
    nets = Networks.fresh(cfg)
    actor = Actor(nets, cfg)
    assert all(next(actor.scorers[p].parameters()).dtype == torch.bfloat16 for p in POSITIONS)
    assert all(next(nets.play[p].parameters()).dtype == torch.float32 for p in POSITIONS)
    checked = 0
    for _ in range(5):
        actor.step()
    for got, want in _scores_and_plain_values(actor, actor.groups[0]):
        assert got.dtype == np.float32
        # bfloat16 keeps 8 bits of mantissa: values agree to a few parts in a hundred
        assert np.allclose(got, want, rtol=0.05, atol=0.02 * (np.abs(want).max() + 1e-3))
        checked += len(got)
    assert checked > 20
    # the learner changes a weight: the copy has it after the next refresh, not before
    with torch.no_grad():
        nets.play["landlord"].dense6.bias += 1.0
    low = actor.scorers["landlord"].dense6.bias
    assert not torch.equal(low.float(), nets.play["landlord"].dense6.bias.to(torch.bfloat16).float())
    actor.sync()
    assert torch.equal(low, nets.play["landlord"].dense6.bias.to(torch.bfloat16))
    stats = train(_cfg(tmp_path, auction="none", frames=600, save_every=1e6, actor_precision="bfloat16"))
    assert stats.frames >= 600
    state = torch.load(tmp_path / "run" / "landlord.ckpt", weights_only=True)
    assert state["dense1.weight"].dtype == torch.float32          # (the checkpoints are the learner's)


def test_a_card_play_run_plays_douzeros_deals_without_a_bidder(tmp_path):
    """``auction="none"``: every deal starts at card play (the first bidder
    the landlord), nothing is learnt for the auction, no bidder.ckpt is
    written, and the run resumes as one."""
    cfg = _cfg(tmp_path, auction="none", frames=600, save_every=1e6).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    for _ in range(30):
        g = actor.groups[0]
        g.feats.update()
        assert (np.asarray(g.feats.position) >= 0).all()       # nobody is ever in an auction
        actor.step()
    assert not actor.bid.pending and not actor.bid.ready
    keys = []
    stats = train(cfg, on_batch=lambda key, loss, st: keys.append(key))
    out = tmp_path / "run"
    assert stats.frames >= 600 and set(keys) <= set(POSITIONS) and keys
    assert not (out / BIDDER_FILE).exists() and (out / STATE_FILE).exists()
    assert Networks.load(str(out), bidder=False).bid is None
    with pytest.raises(ValueError, match=BIDDER_FILE):
        from ddz_fast.train.shipped import trained_agent
        trained_agent(out)
    more = train(_cfg(tmp_path, frames=900, save_every=1e6), resume=True)   # (auction "both" asked: kept none)
    assert more.frames >= 900 and not (out / BIDDER_FILE).exists()
    with open(out / "train.json") as f:
        assert json.load(f)["auction"] == "none"
    from ddz_fast.train.evaluate import wp_vs_simple
    wl, wf = wp_vs_simple(out, deals=4, seed=2)
    assert 0.0 <= wl <= 1.0 and 0.0 <= wf <= 1.0


def test_a_short_run_moves_the_loss_and_its_checkpoints_round_trip(tmp_path):
    losses = {}

    def on_batch(key, loss, stats):
        losses.setdefault(key, []).append(loss)

    cfg = _cfg(tmp_path, frames=1500, save_every=1e6)
    before = Networks.fresh(cfg.check())
    stats = train(cfg, on_batch=on_batch)
    out = tmp_path / "run"
    assert stats.frames >= 1500 and stats.deals > 0
    for p in ("landlord", "landlord_up", "landlord_down"):
        assert len(losses[p]) >= 2 and len(set(losses[p])) > 1
    assert "bid" in losses
    loaded = Networks.load(str(out))
    # the networks were trained: the saved weights are not the initial ones
    for p in loaded.play:
        a, b = loaded.play[p].state_dict(), before.play[p].state_dict()
        assert any(not torch.equal(a[k], b[k]) for k in a)
    # DouZero's layout: one state dict a position, loadable by douzero's own loader's torch.load
    state = torch.load(out / "landlord.ckpt", weights_only=True)
    assert set(state) >= {"lstm.weight_ih_l0", "dense1.weight", "dense6.bias"}
    assert (out / BIDDER_FILE).exists() and (out / STATE_FILE).exists()
    with open(out / LOG_FILE) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and int(rows[0]["frames"]) == stats.frames
    # resume: the counts go on from the checkpoint and the log grows
    more = train(_cfg(tmp_path, frames=1800, save_every=1e6), resume=True)
    assert more.frames >= 1800 and more.deals > stats.deals
    with open(out / LOG_FILE) as f:
        assert len(list(csv.DictReader(f))) == 2
    with open(out / "train.json") as f:
        assert json.load(f)["lstm_size"] == 8


def test_a_trained_directory_plays_as_an_agent_with_its_bidder(tmp_path):
    train(_cfg(tmp_path, frames=200, save_every=1e6))
    from ddz_fast.train.shipped import trained_agent

    agent = trained_agent(tmp_path / "run")
    from ddz_fast import arena

    res = arena.play([agent, "simple"], deals=4, seed=1, rules="douzero", landlord="auction", progress=False)
    assert len(res) > 0
    vec = ddz.VecGame(3, rules="douzero", seed=5)
    ids = agent.bidder.act_batch(vec, np.arange(3))
    legal = [set(vec.legal_ids[vec.legal_offsets[i]:vec.legal_offsets[i + 1]].tolist()) for i in range(3)]
    assert all(int(a) in s for a, s in zip(ids, legal))


def test_actor_processes_train_through_shared_memory(tmp_path):
    stats = train(_cfg(tmp_path, actors=1, frames=300, save_every=1e6))
    assert stats.frames >= 300 and stats.actor_frames >= stats.frames
    Networks.load(str(tmp_path / "run"))


def test_bad_settings_are_refused_with_clear_errors(tmp_path):
    bad = [(dict(frames=0), ValueError, "frames"), (dict(frames=1.5), TypeError, "frames"),
           (dict(auction="dutch"), ValueError, "auction"), (dict(actors=-1), ValueError, "actors"),
           (dict(epsilon=2.0), ValueError, "epsilon"), (dict(learning_rate=0.0), ValueError, "learning rate"),
           (dict(device="gpu9"), ValueError, "device"), (dict(tables=1), ValueError, "tables"),
           (dict(out=3), TypeError, "out"), (dict(actor_precision="float16"), ValueError, "actor precision"),
           (dict(actor_precision=16), TypeError, "actor precision")]
    for kw, error, match in bad:
        with pytest.raises(error, match=match):
            _cfg(tmp_path, **kw).check()
    with pytest.raises(ValueError, match="no training state"):
        train(_cfg(tmp_path), resume=True)
    train(_cfg(tmp_path, frames=100))
    with pytest.raises(ValueError, match="already holds a run"):
        train(_cfg(tmp_path, frames=100))


def test_the_command_line_trains_resumes_and_reports_bad_arguments(tmp_path, capsys):
    out = str(tmp_path / "cli")
    args = ["train", "--frames", "200", "--out", out, "--actors", "0", "--tables", "8", "--batch-size", "2",
            "--unroll-length", "50", "--lstm-size", "8", "--hidden-size", "16", "--bid-hidden", "16", "-q",
            "--eval-deals", "0"]
    assert main(args) == 0
    said = re.search(r"ddz-fast train: ([\d,]+) frames", capsys.readouterr().out)
    assert said and int(said.group(1).replace(",", "")) >= 200
    assert main([*args[:2], "300", *args[3:], "--resume", "--eval-deals=10", "--plot", str(tmp_path / "c.png")]) == 0
    with open(os.path.join(out, LOG_FILE)) as f:
        last = list(csv.DictReader(f))[-1]
    assert 0 <= float(last["wp_landlord"]) <= 1 and 0 <= float(last["wp_farmer"]) <= 1
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert main(["train", "--frames", "0", "--out", str(tmp_path / "x")]) == 2
    assert "frames" in capsys.readouterr().err
    assert main(args) == 2
    assert "--resume" in capsys.readouterr().err
    card_play = str(tmp_path / "card-play")
    assert main(["train", "--frames", "200", "--out", card_play, *args[5:], "--auction", "none",
                 "--actor-precision", "bfloat16"]) == 0
    assert not os.path.exists(os.path.join(card_play, BIDDER_FILE))
    with open(os.path.join(card_play, "train.json")) as f:
        assert json.load(f)["auction"] == "none"


def test_bidder_checkpoints_round_trip_and_refuse_other_files(tmp_path):
    net = bidmod.BidNetwork(16)
    bidmod.save_bidder(net, tmp_path / "b.ckpt")
    back = bidmod.load_bidder(tmp_path / "b.ckpt")
    x = torch.rand(5, bidmod.IN_SIZE)
    assert torch.equal(net(x), back(x))
    with pytest.raises(ValueError, match="no such file"):
        bidmod.load_bidder(tmp_path / "missing.ckpt")
    torch.save({"w": torch.zeros(2)}, tmp_path / "other.ckpt")
    with pytest.raises(ValueError, match="not a bidding network"):
        bidmod.load_bidder(tmp_path / "other.ckpt")
    with pytest.raises(TypeError, match="BidNetwork"):
        bidmod.DMCBidder("net")


@pytest.mark.parametrize("auction", ["bid", "rob"])
def test_the_bidder_reads_an_observation_as_the_engine_encodes_it_and_bids_as_in_batches(auction):
    from ddz_fast.observation import ObservationLayout

    layout = ObservationLayout("douzero")
    rules = auction_rules(auction)
    hook = bidmod.DMCBidder(bidmod.BidNetwork(16))
    torch.manual_seed(3)
    checked = 0
    rng = np.random.default_rng(0)
    for seed in range(40):
        game = ddz.Game(rules, seed=seed)
        while game.phase.name in ("AUCTION", "DOUBLING"):
            seat = game.to_move
            obs = game.observation(seat)
            assert np.array_equal(bidmod.auction_vector(obs, layout), game.observation_tensor(seat))
            if game.deal_number == 0 and rng.random() < 0.3:     # (a redeal starts a new history)
                vec = ddz.VecGame(1, rules=rules, seed=0)
                vec.set_games([0], [seed])
                for a in game.history:
                    vec.step([vec.action_id(a[1])])
                assert np.array_equal(vec.observations[0], game.observation_tensor(seat))
                assert vec.action_id(hook(obs)) == hook.act_batch(vec, np.array([0]))[0]
            checked += 1
            legal = game.legal_actions()
            game.step(legal[int(rng.integers(len(legal)))])
    assert checked > 50


def test_the_shipped_model_is_agent_dmc_in_the_arena_environments_and_play():
    from ddz_fast import arena
    from ddz_fast.arena import load_agent, observation_agent
    from ddz_fast.train.shipped import MODEL_DIR

    size = sum(os.path.getsize(os.path.join(MODEL_DIR, f)) for f in os.listdir(MODEL_DIR))
    assert size < 4_000_000                               # a few MB at most
    agent = load_agent("dmc")
    assert agent.name == "dmc" and agent.bidder is not None
    res = arena.play(["dmc", "simple"], deals=6, seed=2, rules=auction_rules("rob"), landlord="auction")
    assert res.labels == ("dmc", "simple")
    for rules in ("douzero", auction_rules("rob")):      # one seat at a time, auction and play
        bot = observation_agent("dmc", rules=rules)
        game = ddz.Game(rules, seed=4)
        while game.phase.name != "OVER":
            action = bot(game.observation(game.to_move))
            assert action in game.legal_actions()
            game.step(action)
    with pytest.raises(ValueError, match="douzero"):
        observation_agent("dmc", rules="standard")


def test_an_interrupted_run_keeps_a_checkpoint_that_resumes(tmp_path):
    seen = []

    def stop_after_two(key, loss, stats):
        seen.append(key)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(_cfg(tmp_path, frames=10_000, save_every=1e6), on_batch=stop_after_two)
    state = torch.load(tmp_path / "run" / STATE_FILE, weights_only=False)
    assert state["frames"] == 200                       # two batches of 2 x 50 frames
    more = train(_cfg(tmp_path, frames=400, save_every=1e6), resume=True)
    assert more.frames >= 400
