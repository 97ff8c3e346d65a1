"""Deep Monte-Carlo training, as DouZero trains, on batched tables
(docs/train.md).

The actors play self-play deals on :class:`~ddz_fast.VecGame` tables with
the auction on: at every step, every table in card play is scored by its
position's Q-network (DouZero's features from
:class:`~ddz_fast.compat.douzero.VecFeatures`, one forward per position for
all tables), every table in the auction or the doubling by the bidding
network (:mod:`ddz_fast.train.bidder`), each picks its best action (a random
one with probability ``epsilon``), and one ``vec.step`` moves them all.
When a deal ends, every decision of it gets its Monte-Carlo return: for
card play DouZero's ADP target (the seat's score over the stake before
play, halved for the landlord, who is paid by two farmers: +-2^bombs, x2 for
a spring), for the auction the seat's whole score of the deal (0 for an
auction everyone passed, after which the cards are dealt again).  The learner fits
each network to these returns by mean squared error with RMSprop, as
DouZero's ``dmc`` does, on batches of ``batch_size * unroll_length`` frames
a position.

Actors run in their own processes (``torch.multiprocessing``), reading the
learner's networks from shared memory; ``actors=0`` runs one actor in the
learner's process, turn about.
"""
from __future__ import annotations

import copy
import csv
import dataclasses
import json
import os
import queue as queue_mod
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from .._engine.douzero import POSITIONS, X_SIZES, VecFeatures
from .._engine.vec import VecGame
from .._util.checks import check_choice, check_int, check_number, check_seed
from .._util.rng import game_seed
from .._util.train_options import ACTOR_PRECISIONS, TRAIN_AUCTIONS
from ..rules import AUCTIONS as RULE_AUCTIONS, PRESETS, Rules
from .bidder import IN_SIZE, BidNetwork, auction_mask, bid_inputs, load_bidder, save_bidder
from .models import ACTION_SIZE, QNetwork, check_device, load_checkpoint, make_model, save_checkpoint

__all__ = ["TrainConfig", "train", "Actor", "Learner", "auction_rules", "AUCTIONS", "STATE_FILE",
           "BIDDER_FILE", "LOG_FILE", "CONFIG_FILE"]

#: The auctions the bidder trains on (:data:`ddz_fast._util.train_options.TRAIN_AUCTIONS`).
AUCTIONS = TRAIN_AUCTIONS
STATE_FILE = "train_state.pt"
BIDDER_FILE = "bidder.ckpt"
LOG_FILE = "log.csv"
CONFIG_FILE = "train.json"
_OBS = {k: v for k, v in (("phase", 120), ("base", 128), ("doubles", 130))}
_LANDLORD = slice(117, 120)
_ROB_SEGMENTS = 16         # ring of finished deals' returns a table keeps (> steps between resolutions)
_RESOLVE_EVERY = 8
# the narrowest hidden layers an actor packs for oneDNN (one thread, actor
# alone: +4.5% decisions/s at 512, +2.5% at 384, even at 256, -10% at 128)
_PACK_FROM = 384


def auction_rules(auction: str) -> Rules:
    """The ``douzero`` preset with the given auction (``"bid"`` or ``"rob"``)."""
    base = PRESETS["douzero"]
    a = check_choice(auction, "auction", RULE_AUCTIONS)
    return base if a == "bid" else dataclasses.replace(base, auction="rob", name="douzero-rob")


@dataclass
class TrainConfig:
    """Every setting of a run; the defaults of the learner are DouZero's
    (``douzero/dmc/arguments.py``), the network sizes a small model's."""

    frames: int = 1_000_000
    out: str = "dmc"
    auction: str = "both"
    lstm_size: int = 64
    hidden_size: int = 128
    bid_hidden: int = 256
    actors: int = 1
    tables: int = 256
    batch_size: int = 32
    unroll_length: int = 100
    learning_rate: float = 1e-4
    bid_learning_rate: float = 1e-4
    alpha: float = 0.99
    rms_epsilon: float = 1e-5
    max_grad_norm: float = 40.0
    epsilon: float = 0.01
    bid_epsilon: float = 0.1
    seed: int = 0
    device: str = "cpu"
    threads: int = 1
    actor_precision: str = "float32"
    save_every: float = 300.0
    snapshot_every: int = 0
    eval_deals: int = 0

    def check(self) -> "TrainConfig":
        """The config with every field checked (TypeError/ValueError naming it)."""
        check_int(self.frames, "frames", 1, 1 << 50)
        if not isinstance(self.out, (str, os.PathLike)):
            raise TypeError(f"out must be a path, not {type(self.out).__name__}")
        check_choice(self.auction, "auction", AUCTIONS)
        for name in ("lstm_size", "hidden_size", "bid_hidden"):
            check_int(getattr(self, name), name.replace("_", " "), 1, 4096)
        check_int(self.actors, "actors", 0, 256)
        check_int(self.tables, "tables", 2 if self.auction == "both" else 1, 1 << 16)
        check_int(self.batch_size, "batch size", 1, 1 << 16)
        check_int(self.unroll_length, "unroll length", 1, 1 << 16)
        for name in ("learning_rate", "bid_learning_rate", "rms_epsilon", "max_grad_norm"):
            check_number(getattr(self, name), name.replace("_", " "), 0.0, 1e6, above=True)
        check_number(self.alpha, "alpha", 0.0, 1.0)
        check_number(self.epsilon, "epsilon", 0.0, 1.0)
        check_number(self.bid_epsilon, "bid epsilon", 0.0, 1.0)
        check_seed(self.seed)
        check_device(self.device)
        check_int(self.threads, "threads", 1, 1024)
        check_choice(self.actor_precision, "actor precision", ACTOR_PRECISIONS)
        check_number(self.save_every, "save_every", 0.0, 1e9, above=True)
        check_int(self.snapshot_every, "snapshot_every", 0, 1 << 50)
        check_int(self.eval_deals, "eval_deals", 0, 1 << 20)
        return self

    @property
    def frames_per_batch(self) -> int:
        return self.batch_size * self.unroll_length


# ---------------------------------------------------------------------------
# The networks
# ---------------------------------------------------------------------------

@dataclass
class Networks:
    """The three card-play Q-networks (by position) and the bidding network;
    ``updates``: the learning steps each card-play network has taken (in
    :data:`POSITIONS`' order), which tell the actors when to refresh their
    copies."""

    play: Dict[str, QNetwork]
    bid: Optional[BidNetwork]      # None: a card-play run (``auction="none"``)
    updates: torch.Tensor = field(default_factory=lambda: torch.zeros(len(POSITIONS), dtype=torch.int64))

    @classmethod
    def fresh(cls, cfg: TrainConfig) -> "Networks":
        torch.manual_seed(cfg.seed)
        play = {p: make_model(p, cfg.device, lstm_size=cfg.lstm_size, hidden_size=cfg.hidden_size)
                for p in POSITIONS}
        bid = None if cfg.auction == "none" else BidNetwork(cfg.bid_hidden).to(torch.device(cfg.device))
        return cls(play, bid)

    @classmethod
    def load(cls, directory: str, device: str = "cpu", *, bidder: bool = True) -> "Networks":
        """The networks in ``directory``; its bidder too when ``bidder``."""
        play = {p: load_checkpoint(os.path.join(directory, f"{p}.ckpt"), p, device) for p in POSITIONS}
        return cls(play, load_bidder(os.path.join(directory, BIDDER_FILE), device) if bidder else None)

    def save(self, directory: str) -> None:
        """DouZero's layout (``landlord.ckpt`` ...) plus ``bidder.ckpt`` if
        there is a bidder, each written to a temporary name then moved, so a
        reader never sees half a file."""
        os.makedirs(directory, exist_ok=True)
        for p, net in self.play.items():
            tmp = os.path.join(directory, f".{p}.ckpt.tmp")
            save_checkpoint(net, tmp)
            os.replace(tmp, os.path.join(directory, f"{p}.ckpt"))
        if self.bid is not None:
            tmp = os.path.join(directory, f".{BIDDER_FILE}.tmp")
            save_bidder(self.bid, tmp)
            os.replace(tmp, os.path.join(directory, BIDDER_FILE))

    def modules(self) -> Iterator[nn.Module]:
        yield from self.play.values()
        if self.bid is not None:
            yield self.bid

    def share_memory(self) -> None:
        for m in self.modules():
            m.share_memory()
        self.updates.share_memory_()  # type: ignore[no-untyped-call]


def scoring_networks(play: Dict[str, QNetwork], precision: str) -> Dict[str, QNetwork]:
    """The card-play networks an actor scores with at ``precision`` (one of
    :data:`ACTOR_PRECISIONS`): a copy of each of ``play``'s in that
    precision, which :meth:`Actor.sync` refreshes from the learner's."""
    dtype = getattr(torch, check_choice(precision, "actor precision", ACTOR_PRECISIONS))
    return {p: copy.deepcopy(net).to(dtype) for p, net in play.items()}


def play_scores(net: QNetwork, z: npt.NDArray[np.float32], x_state: npt.NDArray[np.int8],
                action: npt.NDArray[np.float32], row_state: npt.NDArray[np.intp],
                packed: Optional[Tuple[torch.Tensor, ...]] = None) -> npt.NDArray[np.float32]:
    """One position's values for its rows: the LSTM and ``dense1``'s part
    over the state run once per table (``z``, ``x_state``: one row per
    table), the rest once per row (``action``; ``row_state``: the row's
    table among those of ``z``), :meth:`QNetwork.shared_values` (with
    ``packed``, :meth:`QNetwork.pack_hidden`'s snapshot of ``net``'s
    hidden layers); in the network's own precision, the values as float32.
    The LSTM is :meth:`QNetwork.sparse_state`: ``z`` holds about 2 nonzero
    entries in 162, and the actor's hundreds of tables make the sparse sums
    pay."""
    dt = net.dense1.weight.dtype
    with torch.inference_mode():
        state = net.sparse_state(torch.from_numpy(z))
        q = net.shared_values(state, torch.from_numpy(x_state).to(dt), torch.from_numpy(action).to(dt),
                              torch.from_numpy(row_state), packed)
    out: npt.NDArray[np.float32] = q[:, 0].float().numpy()
    return out


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------

def _empty_play(pos: int, n: int = 0) -> Dict[str, np.ndarray]:
    return {"x": np.zeros((n, X_SIZES[pos]), np.int8), "z": np.zeros((n, 5, 162), np.int8),
            "target": np.zeros(n, np.float32)}


def _empty_bid(n: int = 0) -> Dict[str, np.ndarray]:
    return {"inputs": np.zeros((n, IN_SIZE), np.float32), "action": np.zeros(n, np.int64),
            "target": np.zeros(n, np.float32)}


def _concat(chunks: List[Dict[str, np.ndarray]]) -> Dict[str, np.ndarray]:
    return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}


def _take(d: Dict[str, np.ndarray], idx: Any) -> Dict[str, np.ndarray]:
    return {k: v[idx] for k, v in d.items()}


class _Stream:
    """Decisions waiting for their deal's end, then ready frames.

    Each pending row carries its table, the table's segment (a deal, or an
    auction everyone passed) and the seat; a segment's returns are kept in a
    small ring per table until the rows are resolved."""

    def __init__(self, empty: Callable[[], Dict[str, np.ndarray]]) -> None:
        self.empty = empty
        self.pending: List[Dict[str, np.ndarray]] = []
        self.ready: List[Dict[str, np.ndarray]] = []
        self.n_ready = 0

    def add(self, rows: Dict[str, np.ndarray]) -> None:
        if len(rows["table"]):
            self.pending.append(rows)

    def resolve(self, ended: npt.NDArray[np.int64], returns: npt.NDArray[np.float32]) -> None:
        """Move the rows whose segment has ended to the ready frames, with
        their return as target (``ended[t]``: segments of table t ended so
        far; ``returns[t, seg % ring, seat]``)."""
        if not self.pending:
            return
        rows = _concat(self.pending) if len(self.pending) > 1 else self.pending[0]
        t, seg = rows["table"], rows["segment"]
        done = seg < ended[t]
        if done.any():
            got = _take(rows, done)
            got["target"] = returns[got["table"], got["segment"] % _ROB_SEGMENTS, got["seat"]].astype(np.float32)
            for k in ("table", "segment", "seat"):
                del got[k]
            self.ready.append(got)
            self.n_ready += int(done.sum())
        self.pending = [_take(rows, ~done)] if not done.all() else []

    def pop(self, n: int) -> Optional[Dict[str, np.ndarray]]:
        """``n`` ready frames, oldest first, or None when fewer are ready."""
        if self.n_ready < n:
            return None
        allr = _concat(self.ready)
        out, rest = _take(allr, slice(0, n)), _take(allr, slice(n, None))
        self.ready = [rest] if len(rest["target"]) else []
        self.n_ready -= n
        return out


# ---------------------------------------------------------------------------
# The actor
# ---------------------------------------------------------------------------

class _Tables:
    """One VecGame (one auction) with its features and per-table bookkeeping."""

    def __init__(self, rules: Rules, n: int, seed: int, skip_auction: bool = False) -> None:
        self.vec = VecGame(n, rules=rules, seed=seed, observations=True, skip_auction=skip_auction)
        self.feats = VecFeatures(self.vec)
        self.rob = rules.auction == "rob"
        self.n = n
        self.segment = np.zeros(n, np.int64)           # segments ended so far = id of the current one
        self.card_ret = np.zeros((n, _ROB_SEGMENTS, 3), np.float32)
        self.bid_ret = np.zeros((n, _ROB_SEGMENTS, 3), np.float32)
        self.stake = np.ones(n, np.float64)            # base x 2^doubles once play starts
        self.landlord = np.zeros(n, np.int64)
        self.quiet = np.zeros(n, np.int64)             # passes in a row before any bid or call


class Actor:
    """Self-play on ``tables`` VecGame tables (half under each auction with
    ``auction="both"``), DouZero's epsilon-greedy choice, Monte-Carlo
    returns; :meth:`run` yields batches of ready frames by stream."""

    def __init__(self, nets: Networks, cfg: TrainConfig, index: int = 0) -> None:
        self.nets = nets
        self.cfg = cfg
        auctions = {"both": list(RULE_AUCTIONS), "none": ["bid"]}.get(cfg.auction, [cfg.auction])
        sizes = [cfg.tables // len(auctions) + (1 if k < cfg.tables % len(auctions) else 0)
                 for k in range(len(auctions))]
        # (auction "none": every deal starts at card play, the bidder never acts)
        self.groups = [_Tables(auction_rules(a), n, game_seed(cfg.seed, (index << 8) + k),
                               skip_auction=cfg.auction == "none")
                       for k, (a, n) in enumerate(zip(auctions, sizes))]
        self.rng = np.random.default_rng([cfg.seed, index, 1])
        # the card-play networks the actor runs: its own copy of the learner's,
        # in the actor's precision, refreshed after each learning step (as
        # DouZero's actors hold theirs); a private copy can keep its hidden
        # layers packed
        self.scorers = scoring_networks(nets.play, cfg.actor_precision)
        self.packed: Dict[str, Optional[Tuple[torch.Tensor, ...]]] = {}
        self.seen = nets.updates.clone()
        self.sync()
        self.play = [_Stream(lambda p=p: _empty_play(p)) for p in range(3)]  # type: ignore[misc]
        self.bid = _Stream(_empty_bid)
        self.steps = 0
        self.frames = 0            # decisions made
        self.deals = 0
        self.returns: List[float] = []   # the landlord's recent card-play targets

    # -- one step of every group ------------------------------------------
    def sync(self, positions: Iterable[str] = POSITIONS) -> None:
        """Copy the learner's current weights into the actor's networks of
        ``positions`` (and pack their hidden layers again)."""
        with torch.no_grad():
            for p in positions:
                own = self.scorers[p]
                for dst, src in zip(own.parameters(), self.nets.play[p].parameters()):
                    dst.copy_(src)
                self.packed[p] = own.pack_hidden() if own.hidden_size >= _PACK_FROM else None

    def step(self) -> None:
        # the networks the learner has updated since the last look
        updates = self.nets.updates.clone()
        changed = torch.nonzero(updates != self.seen).flatten().tolist()
        if changed:
            self.seen = updates
            self.sync([POSITIONS[i] for i in changed])
        for g in self.groups:
            self._step(g)
        self.steps += 1
        if self.steps % _RESOLVE_EVERY == 0:
            self.resolve()

    def resolve(self) -> None:
        # every stream holds rows of every group: the table ids are offset per group
        ended = np.concatenate([g.segment for g in self.groups])
        card = np.concatenate([g.card_ret for g in self.groups])
        bid = np.concatenate([g.bid_ret for g in self.groups])
        for s in self.play:
            s.resolve(ended, card)
        self.bid.resolve(ended, bid)

    def _offset(self, g: _Tables) -> int:
        off = 0
        for h in self.groups:
            if h is g:
                return off
            off += h.n
        raise AssertionError("unknown group")

    def _step(self, g: _Tables) -> None:
        vec, feats = g.vec, g.feats
        feats.update()
        n = g.n
        off = self._offset(g)
        obs = vec.observations
        assert obs is not None
        pos = np.asarray(feats.position).astype(np.intp)
        actions = np.full(n, -1, dtype=np.int64)
        tables = np.arange(n)
        # -- card play: one forward per position over all its tables' rows
        offsets = np.asarray(feats.offsets)
        counts = np.diff(offsets)
        if feats.num_rows:
            x_all = feats.x_batch
            z_all = feats.z
            x_state = feats.x_no_action
            ids = np.asarray(feats.action_ids)
            scores = np.full(feats.num_rows, -np.inf, dtype=np.float32)
            row_table = np.asarray(feats.row_table).astype(np.intp)
            # epsilon-greedy's random choice, drawn first: a table that explores
            # (a legal row picked uniformly) needs no values
            playing = np.flatnonzero(counts > 0)
            starts = offsets[playing]
            exploring = np.flatnonzero(self.rng.random(len(playing)) < self.cfg.epsilon)
            pick = starts[exploring] + (self.rng.random(len(exploring)) * counts[playing[exploring]]).astype(np.int64)
            legal = ids[pick] >= 0        # (a row the rules refuse: the greedy choice stands)
            exploring, pick = exploring[legal], pick[legal]
            # nor does a table with one legal action (about a third: a pass,
            # forced): its -inf score is the best of its one row
            choosing = np.where(counts > 1, pos, -1)
            choosing[playing[exploring]] = -1
            for p in range(3):
                tp = np.flatnonzero(choosing == p)
                if len(tp) == 0:
                    continue
                rows = np.flatnonzero(choosing[row_table] == p)
                local = np.empty(n, np.intp)
                local[tp] = np.arange(len(tp))
                split = X_SIZES[p] - ACTION_SIZE
                scores[rows] = play_scores(self.scorers[POSITIONS[p]], z_all[tp], x_state[tp, :split],
                                           x_all[rows, split:X_SIZES[p]], local[row_table[rows]],
                                           self.packed[POSITIONS[p]])
            scores[ids < 0] = -np.inf
            best = np.maximum.reduceat(scores, starts)
            is_best = scores == best[np.searchsorted(playing, row_table)]
            cand = np.where(is_best, np.arange(len(scores)), len(scores))
            row = np.minimum.reduceat(cand, starts)
            row[exploring] = pick
            actions[playing] = ids[row]
            seat = vec.to_move[playing]
            for p in range(3):
                m = pos[playing] == p
                if not m.any():
                    continue
                tp = playing[m]
                self.play[p].add({"table": tp + off, "segment": g.segment[tp], "seat": seat[m].astype(np.int64),
                                  "x": x_all[row[m], :X_SIZES[p]].astype(np.int8),
                                  "z": z_all[tp].astype(np.int8)})
            # the stake and the landlord, read once play has started
            g.stake[playing] = obs[playing, _OBS["base"]] * np.exp2(obs[playing, _OBS["doubles"]])
            g.landlord[playing] = obs[playing, _LANDLORD].argmax(axis=1)
        # -- the auction and the doubling: the bidding network
        bidding = np.flatnonzero((pos < 0) & (np.asarray(vec.to_move) >= 0))
        if len(bidding):
            assert self.nets.bid is not None, "a table in its auction without a bidder"
            inputs = bid_inputs(obs[bidding], g.rob)
            mask = auction_mask(np.asarray(vec.legal_offsets), np.asarray(vec.legal_ids), bidding)
            with torch.inference_mode():
                q = self.nets.bid(torch.from_numpy(inputs)).numpy()
            q = np.where(mask, q, -np.inf)
            choice = q.argmax(axis=1)
            explore = self.rng.random(len(bidding)) < self.cfg.bid_epsilon
            if explore.any():
                k = np.flatnonzero(explore)
                # a uniform legal id: the first legal id after a random number of legal ones
                legal_n = mask[k].sum(axis=1)
                nth = (self.rng.random(len(k)) * legal_n).astype(np.int64)
                choice[k] = (np.cumsum(mask[k], axis=1) > nth[:, None]).argmax(axis=1)
            actions[bidding] = choice
            self.bid.add({"table": bidding + off, "segment": g.segment[bidding],
                          "seat": np.asarray(vec.to_move)[bidding].astype(np.int64),
                          "inputs": inputs, "action": choice.astype(np.int64)})
            # a pass (or decline) before any bid or call: the third in a row is a redeal
            level = obs[bidding, 124]
            quiet = (level == 0) & ((choice == 0) | (choice == 4))
            g.quiet[bidding] = np.where(quiet, g.quiet[bidding] + 1, 0)
        vec.step(actions[tables].astype(np.int32))
        self.frames += int((actions >= 0).sum())
        # -- segments that ended: finished deals and redeals
        done = np.flatnonzero(np.asarray(vec.done))
        redeal = np.flatnonzero(g.quiet >= 3)
        if len(done):
            sc = np.asarray(vec.scores)[done].astype(np.float64)
            slot = g.segment[done] % _ROB_SEGMENTS
            card = sc / g.stake[done, None]
            card[np.arange(len(done)), g.landlord[done]] /= 2.0
            g.card_ret[done, slot] = card
            g.bid_ret[done, slot] = sc
            self.returns.extend(card[np.arange(len(done)), g.landlord[done]].tolist())
            if len(self.returns) > 1000:
                del self.returns[:-1000]
            self.deals += len(done)
        if len(redeal):
            slot = g.segment[redeal] % _ROB_SEGMENTS
            g.card_ret[redeal, slot] = 0.0
            g.bid_ret[redeal, slot] = 0.0
        ended = np.union1d(done, redeal)
        g.segment[ended] += 1
        g.quiet[ended] = 0
        g.stake[ended] = 1.0

    def batches(self) -> Iterator[Tuple[str, Dict[str, np.ndarray]]]:
        """The batches ready now: ``(position or "bid", frames)``."""
        size = self.cfg.frames_per_batch
        for p in range(3):
            b = self.play[p].pop(size)
            while b is not None:
                yield POSITIONS[p], b
                b = self.play[p].pop(size)
        b = self.bid.pop(size)
        while b is not None:
            yield "bid", b
            b = self.bid.pop(size)


def _actor_main(index: int, nets: Networks, cfg: TrainConfig, out: Any, stop: Any) -> None:
    """An actor process: steps its tables and sends each batch (and its
    counts) to the learner until ``stop`` is set."""
    torch.set_num_threads(cfg.threads)
    actor = Actor(nets, cfg, index)
    try:
        while not stop.is_set():
            actor.step()
            for key, b in actor.batches():
                while not stop.is_set():
                    try:
                        out.put((index, key, b, actor.frames, actor.deals, list(actor.returns[-200:])), timeout=1.0)
                        break
                    except queue_mod.Full:
                        continue
    except KeyboardInterrupt:
        pass


# ---------------------------------------------------------------------------
# The learner
# ---------------------------------------------------------------------------

class Learner:
    """RMSprop on MSE to the Monte-Carlo targets, one optimizer a network
    (DouZero's ``learn``: gradient norm clipped at ``max_grad_norm``)."""

    def __init__(self, nets: Networks, cfg: TrainConfig) -> None:
        self.nets = nets
        self.cfg = cfg
        self.device = torch.device(cfg.device)

        def rms(params: Any, lr: float) -> torch.optim.Optimizer:
            return torch.optim.RMSprop(params, lr=lr, momentum=0.0, eps=cfg.rms_epsilon, alpha=cfg.alpha)

        self.opt: Dict[str, torch.optim.Optimizer] = {p: rms(nets.play[p].parameters(), cfg.learning_rate)
                                                      for p in POSITIONS}
        if nets.bid is not None:
            self.opt["bid"] = rms(nets.bid.parameters(), cfg.bid_learning_rate)
        self.loss: Dict[str, float] = {}
        self.frames: Dict[str, int] = {k: 0 for k in self.opt}

    def learn(self, key: str, batch: Dict[str, np.ndarray]) -> float:
        dev = self.device
        target = torch.from_numpy(batch["target"]).to(dev)
        if key == "bid":
            assert self.nets.bid is not None, "a bidding batch without a bidder"
            net: nn.Module = self.nets.bid
            q = net(torch.from_numpy(batch["inputs"]).to(dev))
            pred = q.gather(1, torch.from_numpy(batch["action"]).to(dev)[:, None])[:, 0]
        else:
            play = self.nets.play[key]
            net = play
            z = torch.from_numpy(batch["z"]).to(dev)
            x = torch.from_numpy(batch["x"]).to(dev).float()
            pred = play.learning_forward(z, x)[:, 0]
        loss = ((pred - target) ** 2).mean()
        opt = self.opt[key]
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), self.cfg.max_grad_norm)
        opt.step()
        if key != "bid":
            self.nets.updates[POSITIONS.index(key)] += 1      # (the actors refresh their copies)
        value = float(loss.item())
        self.loss[key] = value
        self.frames[key] += len(batch["target"])
        return value

    def state_dict(self) -> Dict[str, Any]:
        return {"optimizers": {k: o.state_dict() for k, o in self.opt.items()}, "loss": dict(self.loss),
                "frames": dict(self.frames)}

    def load_state_dict(self, state: Dict[str, Any]) -> None:
        for k, o in self.opt.items():
            o.load_state_dict(state["optimizers"][k])
        self.loss = dict(state["loss"])
        self.frames = {k: int(v) for k, v in state["frames"].items()}


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

@dataclass
class RunStats:
    frames: int = 0            # card-play frames learnt from (DouZero's count)
    actor_frames: int = 0      # decisions the actors made, auction included
    deals: int = 0
    seconds: float = 0.0       # training time, over all sessions of the run
    returns: List[float] = field(default_factory=list)


_LOG_FIELDS = ("seconds", "frames", "actor_frames", "deals", "frames_per_s", "loss_landlord",
               "loss_landlord_up", "loss_landlord_down", "loss_bid", "landlord_return", "wp_landlord",
               "wp_farmer", "unix_time")


def _write_config(cfg: TrainConfig, out: str) -> None:
    d = dataclasses.asdict(cfg)
    d["out"] = os.fspath(cfg.out)
    with open(os.path.join(out, CONFIG_FILE), "w") as f:
        json.dump(d, f, indent=1, sort_keys=True)


def _read_config(out: str) -> Dict[str, Any]:
    path = os.path.join(out, CONFIG_FILE)
    with open(path) as f:
        d: Dict[str, Any] = json.load(f)
    return d


def resume_config(cfg: TrainConfig) -> TrainConfig:
    """``cfg`` with the network shapes and auction of the run in ``cfg.out``
    (a resumed run keeps them; the rest may change)."""
    out = os.fspath(cfg.out)
    if not os.path.exists(os.path.join(out, STATE_FILE)):
        raise ValueError(f"--resume: {out!r} holds no training state ({STATE_FILE}); start a run there first")
    old = _read_config(out)
    keep = {k: old[k] for k in ("lstm_size", "hidden_size", "bid_hidden", "auction") if k in old}
    return dataclasses.replace(cfg, **keep)


def train(cfg: TrainConfig, *, resume: bool = False, progress: Optional[bool] = None,
          on_batch: Optional[Callable[[str, float, RunStats], None]] = None,
          evaluate: Optional[Callable[[str], Tuple[float, float]]] = None) -> RunStats:
    """Train until ``cfg.frames`` card-play frames have been learnt from;
    checkpoints in ``cfg.out`` every ``cfg.save_every`` seconds and at the
    end (the networks in DouZero's layout plus ``bidder.ckpt``, the
    optimizers and counts in ``train_state.pt``, the settings in
    ``train.json``), a row of ``log.csv`` at each checkpoint, and a
    snapshot of the networks in ``snapshots/<frames>/`` every
    ``cfg.snapshot_every`` frames.  ``resume=True`` continues the run in
    ``cfg.out``.  A KeyboardInterrupt (Ctrl-C) writes a checkpoint, then
    propagates.  ``evaluate(directory)`` (optional) gives (WP as landlord,
    WP as farmers) of the checkpoint in ``directory``, logged with it."""
    from .._util.progress import Progress

    if resume:
        cfg = resume_config(cfg)
    cfg.check()
    out = os.fspath(cfg.out)
    if not resume and os.path.exists(os.path.join(out, STATE_FILE)):
        raise ValueError(f"{out!r} already holds a run ({STATE_FILE}): pass resume=True (--resume) to "
                         "continue it, or another directory")
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(cfg.threads)
    stats = RunStats()
    if resume:
        nets = Networks.load(out, cfg.device, bidder=cfg.auction != "none")
        for m in nets.modules():
            m.train()
        state = torch.load(os.path.join(out, STATE_FILE), map_location=cfg.device, weights_only=False)
        learner = Learner(nets, cfg)
        learner.load_state_dict(state["learner"])
        stats.frames, stats.actor_frames = int(state["frames"]), int(state["actor_frames"])
        stats.deals, stats.seconds = int(state["deals"]), float(state["seconds"])
    else:
        nets = Networks.fresh(cfg)
        learner = Learner(nets, cfg)
    _write_config(cfg, out)
    log_path = os.path.join(out, LOG_FILE)
    if not os.path.exists(log_path):
        with open(log_path, "w", newline="") as f:
            csv.writer(f).writerow(_LOG_FIELDS)

    started = time.perf_counter()
    seconds0, frames0 = stats.seconds, stats.frames
    last_save = started
    next_snapshot = ((stats.frames // cfg.snapshot_every) + 1) * cfg.snapshot_every if cfg.snapshot_every else 0
    bar = Progress("train", cfg.frames, unit="frames", enabled=progress)
    bar.update(min(stats.frames, cfg.frames))

    def checkpoint() -> None:
        nonlocal last_save
        now = time.perf_counter()
        stats.seconds = seconds0 + (now - started)
        nets.save(out)
        tmp = os.path.join(out, f".{STATE_FILE}.tmp")
        torch.save({"learner": learner.state_dict(), "frames": stats.frames, "actor_frames": stats.actor_frames,
                    "deals": stats.deals, "seconds": stats.seconds}, tmp)
        os.replace(tmp, os.path.join(out, STATE_FILE))
        wp: Tuple[Any, Any] = ("", "")
        if evaluate is not None:
            wp = evaluate(out)
            bar.postfix(wp=f"{wp[0]:.2f}/{wp[1]:.2f}")
        fps = (stats.frames - frames0) / max(stats.seconds - seconds0, 1e-9)
        ret = float(np.mean(stats.returns)) if stats.returns else ""
        with open(log_path, "a", newline="") as f:
            csv.writer(f).writerow([f"{stats.seconds:.1f}", stats.frames, stats.actor_frames, stats.deals,
                                    f"{fps:.1f}", *(learner.loss.get(k, "") for k in (*POSITIONS, "bid")),
                                    ret, *wp, f"{time.time():.1f}"])
        last_save = time.perf_counter()

    def take(key: str, batch: Dict[str, np.ndarray]) -> None:
        nonlocal next_snapshot
        loss = learner.learn(key, batch)
        if key != "bid":
            stats.frames += len(batch["target"])
        bar.update(min(stats.frames, cfg.frames))
        bar.postfix(loss=f"{np.mean([learner.loss.get(p, np.nan) for p in POSITIONS]):.3f}",
                    fps=f"{(stats.frames - frames0) / max(time.perf_counter() - started, 1e-9):.0f}")
        if on_batch is not None:
            on_batch(key, loss, stats)
        if cfg.snapshot_every and stats.frames >= next_snapshot:
            nets.save(os.path.join(out, "snapshots", f"{stats.frames:012d}"))
            next_snapshot = ((stats.frames // cfg.snapshot_every) + 1) * cfg.snapshot_every
        if time.perf_counter() - last_save >= cfg.save_every:
            checkpoint()

    try:
        if cfg.actors == 0:
            actor = Actor(nets, cfg, 0)
            actor_frames0, deals0 = stats.actor_frames, stats.deals
            while stats.frames < cfg.frames:
                actor.step()
                stats.actor_frames, stats.deals = actor_frames0 + actor.frames, deals0 + actor.deals
                for key, b in actor.batches():
                    take(key, b)
                stats.returns = actor.returns[-200:]
        else:
            _run_actors(cfg, nets, stats, take)
    except KeyboardInterrupt:
        # Ctrl-C: keep what was learnt (a resume goes on from here), then stop as asked
        bar.close()
        checkpoint()
        raise
    finally:
        bar.close()
    checkpoint()
    return stats


def _run_actors(cfg: TrainConfig, nets: Networks, stats: RunStats,
                take: Callable[[str, Dict[str, np.ndarray]], None]) -> None:
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    nets.share_memory()
    q = ctx.Queue(maxsize=4 * cfg.actors)
    stop = ctx.Event()
    procs = [ctx.Process(target=_actor_main, args=(i, nets, cfg, q, stop), daemon=True) for i in range(cfg.actors)]
    for p in procs:
        p.start()
    frames0, deals0 = stats.actor_frames, stats.deals
    by_actor: Dict[int, Tuple[int, int]] = {}
    try:
        while stats.frames < cfg.frames:
            try:
                index, key, batch, frames, deals, rets = q.get(timeout=5.0)
            except queue_mod.Empty:
                dead = [p for p in procs if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"an actor process stopped (exit code {dead[0].exitcode})") from None
                continue
            by_actor[index] = (frames, deals)
            stats.actor_frames = frames0 + sum(f for f, _ in by_actor.values())
            stats.deals = deals0 + sum(d for _, d in by_actor.values())
            stats.returns = rets
            take(key, batch)
    finally:
        stop.set()
        while True:           # drain, so that the actors blocked on put can see stop and leave
            try:
                q.get_nowait()
            except (queue_mod.Empty, OSError, ValueError):
                break
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
