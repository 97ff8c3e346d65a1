#!/usr/bin/env python3
"""Training at engine speed: ``ddz-fast train`` against DouZero's own
``douzero.dmc`` training, the actors alone, the learning curve of a run and
the bidder, in one run on one machine (docs/train.md, "Benchmarks").

Sections (each can be skipped):

* ``train``: learner frames/s (DouZero's count: ``batch_size x
  unroll_length`` frames per learning step of a position) of ``ddz-fast
  train`` and of DouZero's ``douzero.dmc.train`` (``--actor_device_cpu
  --training_device cpu``), each in its own process group for ``--seconds``,
  with the same game (DouZero's: card play on deals whose first bidder is
  the landlord, ``--auction none``), the same network (DouZero's: LSTM
  128, dense 512; and the shipped model's, LSTM 64, dense 128, DouZero's
  classes built at those sizes), the same number of actor processes, the
  same batch settings (32 x 100), one torch thread a process
  (``OMP_NUM_THREADS=1``) and no evaluation during training.  The rate is
  the frames of each trainer's last log row over the time from its
  process's start to that row (start-up and the first fill of the batches
  included); the steady rate beside it leaves them out (first log row to
  last).  ``--with-bidder`` also times the default run, which learns
  the auction too (its frames are still card-play frames); ``--bf16-actor``
  a run whose actors score in bfloat16 (``--actor-precision bfloat16``: the
  same network, settings and learner, the actors' values rounded to
  bfloat16), its ratio judged against the target beside float32's.
  ``--rounds N``
  repeats the comparison N times, DouZero's trainer then ours in each
  round, and judges the target on the median of the rounds' ratios: on a
  shared VM whose speed drifts by 10% or more from minute to minute, one
  round can land on a slow spell for either trainer.
* ``actor``: decisions/s of one actor alone (no learner), with DouZero's
  network (scoring in float32 and in bfloat16) and with the shipped model's
  size: ddz-fast's ``Actor`` (every table of its VecGame, DouZero's game)
  against DouZero's actor loop (``Env`` plus one forward of the network per
  decision, as ``douzero.dmc.utils.act``).
* ``learner``: learner frames/s alone, one thread, each network (batches of
  32 x 100 frames an actor played): ddz-fast's ``Learner.learn`` and the
  plain step of DouZero's ``learn`` on the same network; with one learner
  thread a trainer cannot learn faster, so this is the training rate's
  ceiling.
* ``precision``: how often bfloat16 scoring of a run's final networks
  (``--run DIR``) picks another move than float32 scoring, on the states
  an actor meets, and what those picks cost in float32 values.
* ``curve``: WP and ADP with 95% intervals of each snapshot of a run
  (``--run DIR``, made with ``--snapshot-every``) against the simple bot
  and against ``PIMCAgent`` (the arena: duplicate deals, rules ``douzero``,
  landlord fixed, as DouZero evaluates).
* ``bidding``: the run's final bidder against the simple bot's bids, both
  with the same card player (the run's networks), in the arena with the
  auction on (``landlord="auction"``), under the bid and the rob auctions.

    python benchmarks/train_compare.py [--seconds 120] [--rounds 3] [--actors 1] [--with-bidder] [--run DIR]
           [--deals 1000] [--pimc-deals 200] [--skip train,actor,learner,precision,curve,bidding] [--json FILE]
"""
from __future__ import annotations

import argparse
import dataclasses
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
TARGET_VS_DOUZERO = 10.0
#: The networks compared: DouZero's own sizes, and the shipped model's.
NETWORKS = {"douzero": (128, 512), "small": (64, 128)}


def _env() -> Dict[str, str]:
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of
    process group ``pgid`` (Linux ``/proc``; 0 elsewhere)."""
    total = 0
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:          # (fields after the name: state, ppid, pgrp, ..., utime, stime at 11, 12)
            total += int(fields[11]) + int(fields[12])
    return total / _TICK


def _run_for(cmd: List[str], seconds: float, cwd: str) -> Tuple[float, List[Tuple[float, float]]]:
    """Run ``cmd`` in its own process group for ``seconds``, then end the
    group; returns the Unix time it started and samples ``(unix time, CPU
    seconds of the group so far)`` taken every half second."""
    started = time.time()
    # (stderr to a file, not a pipe: a pipe nobody reads would stall a chatty trainer)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=_env(), stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        cpu: List[Tuple[float, float]] = []
        try:
            while time.time() - started < seconds:
                if proc.poll() is not None:
                    err.seek(0)
                    raise RuntimeError(f"{cmd[:4]} ended early (exit {proc.returncode}): "
                                       f"{err.read().decode(errors='replace')[-2000:]}")
                cpu.append((time.time(), _group_cpu(proc.pid)))
                time.sleep(0.5)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
    return started, cpu


def _rate(started: float, points: List[tuple], cpu: List[Tuple[float, float]]) -> Dict[str, float]:
    """Learner frames/s from the process's start to its last log row
    ``(unix time, frames)``: start-up and the first fill of the batches
    included, as a user waits for them; and frames per CPU-second of all
    the trainer's processes up to that row (the steadier measure on a
    shared machine, where wall-clock rates follow the other jobs' load);
    and the steady rate, from the first log row to the last (start-up and
    the first fill left out: what a run of hours sees)."""
    if not points:
        return {"frames_per_s": 0.0, "frames": 0.0, "seconds": 0.0, "cpu_seconds": 0.0, "frames_per_cpu_s": 0.0,
                "steady_frames_per_s": 0.0}
    t, f = points[-1]
    t0, f0 = points[0]
    used = max((c for when, c in cpu if when <= t), default=0.0)
    return {"frames_per_s": f / (t - started), "frames": f, "seconds": t - started, "cpu_seconds": used,
            "frames_per_cpu_s": f / used if used else 0.0,
            "steady_frames_per_s": (f - f0) / (t - t0) if t > t0 else 0.0}


def train_ddz(seconds: float, actors: int, lstm: int, hidden: int, tables: int, work: str,
              auction: str = "none", precision: str = "float32") -> Dict[str, float]:
    """``ddz-fast train`` for ``seconds``: ``auction="none"`` plays DouZero's
    game (card play on deals whose first bidder is the landlord), the
    default ``"both"`` trains the bidder too.  No evaluation at the
    checkpoints (``--eval-deals 0``), as DouZero's training runs none.
    ``precision``: the actors' (``--actor-precision``)."""
    # (a new directory each call: a round must not resume or append to an earlier one)
    out = os.path.join(work, f"ddz-{lstm}-{hidden}-{auction}-{precision}-{time.time_ns()}")
    started, cpu = _run_for([sys.executable, "-m", "ddz_fast", "train", "--frames", str(10 ** 12), "--out", out,
              "--actors", str(actors), "--tables", str(tables), "--lstm-size", str(lstm), "--hidden-size",
              str(hidden), "--threads", "1", "--save-every", "10", "--eval-deals", "0", "--auction", auction,
              "--actor-precision", precision, "-q"], seconds, work)
    if not os.path.exists(os.path.join(out, "log.csv")):
        raise RuntimeError(f"ddz-fast train wrote no log in {seconds:.0f} s (killed, e.g. by the kernel's "
                           "out-of-memory killer?)")
    with open(os.path.join(out, "log.csv")) as f:
        pts = [(float(r["unix_time"]), float(r["frames"])) for r in csv.DictReader(f)]
    return _rate(started, pts, cpu)


# DouZero's train with its two network classes built at other sizes (the
# same layers, narrower): the same network as ddz-fast's at those sizes.
_RESIZE = """
import douzero.dmc.models as M
from torch import nn
def sized(x_size, lstm, hidden):
    def init(self):
        nn.Module.__init__(self)
        self.lstm = nn.LSTM(162, lstm, batch_first=True)
        self.dense1 = nn.Linear(x_size + lstm, hidden)
        for k in range(2, 6):
            setattr(self, f"dense{k}", nn.Linear(hidden, hidden))
        self.dense6 = nn.Linear(hidden, 1)
    return init
M.LandlordLstmModel.__init__ = sized(373, __LSTM__, __HIDDEN__)
M.FarmerLstmModel.__init__ = sized(484, __LSTM__, __HIDDEN__)
"""


def train_douzero(seconds: float, actors: int, work: str, lstm: int = 128, hidden: int = 512) -> Dict[str, float]:
    code = "import sys\n"
    if (lstm, hidden) != (128, 512):
        code += _RESIZE.replace("__LSTM__", str(lstm)).replace("__HIDDEN__", str(hidden))
    code += "from douzero.dmc import parser, train\ntrain(parser.parse_args(sys.argv[1:]))\n"
    xpid = f"bench-{lstm}-{hidden}-{time.time_ns()}"      # (a new log each call: DouZero appends)
    started, cpu = _run_for([sys.executable, "-c", code, "--actor_device_cpu", "--training_device", "cpu",
                        "--num_actors", str(actors), "--batch_size", "32", "--unroll_length", "100",
                        "--savedir", os.path.join(work, "douzero"), "--xpid", xpid, "--disable_checkpoint",
                        "--save_interval", "100000"], seconds, work)
    path = os.path.join(work, "douzero", xpid, "logs.csv")
    with open(path) as f:        # (FileWriter writes its header as a comment: "# _tick,_time,...")
        rows = list(csv.DictReader(line[2:] if line.startswith("# ") else line for line in f))
    # one row a learning step, logged with the frames counted after it
    pts = [(float(r["_time"]), float(r["frames"])) for r in rows]
    return _rate(started, pts, cpu)


def actor_rates(seconds: float, lstm: int, hidden: int, tables: int, auction: str = "none",
                precision: str = "float32") -> Dict[str, float]:
    import torch

    from ddz_fast.train.dmc import Actor, Networks, TrainConfig

    torch.set_num_threads(1)
    cfg = TrainConfig(tables=tables, lstm_size=lstm, hidden_size=hidden, auction=auction,
                      actor_precision=precision).check()
    actor = Actor(Networks.fresh(cfg), cfg)
    for _ in range(20):
        actor.step()
    f0, t0 = actor.frames, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actor.step()
        for _ in actor.batches():
            pass
    return {"decisions_per_s": (actor.frames - f0) / (time.perf_counter() - t0)}


def learner_rates(seconds: float, lstm: int, hidden: int) -> Dict[str, float]:
    """Learner frames/s alone, one thread: ddz-fast's ``Learner.learn`` on
    batches of 32 x 100 frames (landlord and farmer in turn, the first ones
    an actor of the untrained networks plays, so that the features are as
    sparse as in training), and the
    plain step DouZero's ``learn`` takes on the same batches (the network's
    forward with torch's default kernels, the MSE, backward, clipping,
    RMSprop).  With one learner thread, no trainer learns faster than its
    learner alone: the ceiling of the training rate."""
    import torch

    from ddz_fast.train.dmc import Actor, Learner, Networks, TrainConfig

    torch.set_num_threads(1)
    cfg = TrainConfig(lstm_size=lstm, hidden_size=hidden).check()
    nets = Networks.fresh(cfg)
    learner = Learner(nets, cfg)
    n = cfg.frames_per_batch
    actor = Actor(nets, dataclasses.replace(cfg, auction="none"))
    batches: Dict[str, Dict[str, np.ndarray]] = {}
    while len(batches) < 2:
        actor.step()
        for k, b in actor.batches():
            if k in ("landlord", "landlord_up"):
                batches.setdefault(k, b)

    def plain(key: str, b: Dict[str, np.ndarray]) -> None:
        net = nets.play[key]
        pred = net(torch.from_numpy(b["z"]).float(), torch.from_numpy(b["x"]).float())[:, 0]
        loss = ((pred - torch.from_numpy(b["target"])) ** 2).mean()
        learner.opt[key].zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        learner.opt[key].step()

    out = {}
    for name, step in (("ddz_fast", learner.learn), ("plain", plain)):
        for k, b in batches.items():
            step(k, b)                                    # (warm-up)
        frames, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds / 2:
            for k, b in batches.items():
                step(k, b)
                frames += n
        out[name] = frames / (time.perf_counter() - t0)
    return out


def matmul_gflops(repeats: int = 300) -> Dict[str, float]:
    """One thread's fp32 matrix throughput at the card-play network's
    shapes (256 rows by 512 x 512, best of ``repeats``): the yardstick of how
    close the actor and the learner run to what the CPU can do.  ``mm``:
    MKL's product, as the learner runs it; ``packed``: oneDNN's linear
    layer and ReLU over packed weights, as the actor runs its hidden layers
    (absent where this PyTorch cannot pack)."""
    import torch

    from ddz_fast.train.models import make_model

    torch.set_num_threads(1)
    a = torch.randn(256, 512)
    net = make_model("landlord")
    layer, packed = net.dense2, net.pack_hidden()      # (packed[0]: this layer's weight)
    runs = {"mm": lambda: torch.mm(a, layer.weight.t())}
    if packed is not None:
        runs["packed"] = lambda: torch.ops.mkldnn._linear_pointwise(a, packed[0], layer.bias, "relu", [], "")
    out = {}
    with torch.inference_mode():
        for name, run in runs.items():
            best = float("inf")
            for _ in range(repeats):
                t0 = time.perf_counter()
                run()
                best = min(best, time.perf_counter() - t0)
            out[name] = 2 * 256 * 512 * 512 / best / 1e9
    return out


def ceilings(actor: float, dz_actor: float, learner: float, dz_train: float) -> Dict[str, float]:
    """What the parts measured alone allow at DouZero's network: per
    CPU-second, a frame costs the actor's and the learner's time (both
    trainers learn with the same math, ours at ``learner`` frames/s); on two
    free cores, one for the actor and one for the learner, the slower of the
    two sets the rate; were the two cores' time shared perfectly between
    acting and learning, a frame would cost half the sum of the two."""
    per_frame = 1 / actor + 1 / learner
    per_cpu = (1 / per_frame) / (1 / (1 / dz_actor + 1 / learner))
    return {"per_cpu_ratio": per_cpu, "two_cores_ratio": min(actor, learner) / dz_train,
            "shared_cores_ratio": 2 / per_frame / dz_train}


def douzero_actor_rate(seconds: float) -> Dict[str, float]:
    """DouZero's actor loop: Env + one forward of its network a decision."""
    import torch
    from douzero.dmc.env_utils import Environment
    from douzero.dmc.models import Model
    from douzero.env.env import Env

    torch.set_num_threads(1)
    np.random.seed(0)
    model = Model(device="cpu")
    env = Environment(Env("adp"), "cpu")
    position, obs, out = env.initial()

    class Flags:
        exp_epsilon = 0.01

    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        with torch.no_grad():
            agent_output = model.forward(position, obs["z_batch"], obs["x_batch"], flags=Flags)
        action = obs["legal_actions"][int(agent_output["action"].cpu().numpy())]
        position, obs, out = env.step(action)
        n += 1
    return {"decisions_per_s": n / (time.perf_counter() - t0)}


def _stat(s: Any) -> Dict[str, float]:
    return {"mean": s.mean, "low": s.low, "high": s.high}


def curve(run: str, deals: int, pimc_deals: int, pimc: str) -> List[Dict[str, Any]]:
    from ddz_fast import arena
    from ddz_fast.train.evaluate import snapshots
    from ddz_fast.train.shipped import trained_agent

    rows: List[Dict[str, Any]] = []
    # the simple bot's own result in each seat, on the same deals: what the model must beat
    base = arena.play(["simple", "simple"], deals=deals, seed=1, rules="douzero", progress=False)
    rows.append({"frames": "simple vs simple", "simple": {role: {m: _stat(base.stat(0, m, role)) for m in ("wp", "adp")}
                                                          for role in ("landlord", "farmer")}})
    print(_curve_line(rows[-1], pimc), flush=True)
    for frames, d in snapshots(run) + [(_final_frames(run), run)]:
        row: Dict[str, Any] = {"frames": frames, "dir": d}
        for opp, n in (("simple", deals), (pimc, pimc_deals)):
            if n <= 0:
                continue
            res = arena.play([trained_agent(d, bidder=False), opp], deals=n, seed=1, rules="douzero", progress=False)
            row[opp] = {role: {m: _stat(res.stat(0, m, role)) for m in ("wp", "adp")}
                        for role in ("landlord", "farmer")}
        rows.append(row)
        print(_curve_line(row, pimc), flush=True)
    return rows


def precision_agreement(run: str, steps: int = 150) -> Dict[str, float]:
    """How often a bfloat16 copy of the run's final card-play networks picks
    the move the float32 networks pick (the greedy choice of each state an
    actor meets, DouZero's game, 256 tables for ``steps`` steps; forced
    moves aside), and what the other picks cost in the float32 values."""
    import torch

    from ddz_fast.train import dmc

    torch.set_num_threads(1)
    nets = dmc.Networks.load(run, bidder=False)
    first = nets.play["landlord"]
    cfg = dmc.TrainConfig(tables=256, lstm_size=first.lstm_size, hidden_size=first.hidden_size, auction="none",
                          seed=7).check()
    actor = dmc.Actor(nets, cfg)
    low = {id(actor.scorers[p]): net for p, net in dmc.scoring_networks(nets.play, "bfloat16").items()}
    plain = dmc.play_scores
    n_states, differ, regret, rel = 0, 0, [], []

    def both(net: Any, z: Any, x_state: Any, action: Any, row_state: Any, packed: Any = None) -> Any:
        nonlocal n_states, differ
        q32 = plain(net, z, x_state, action, row_state, packed)
        q16 = plain(low[id(net)], z, x_state, action, row_state)
        for t in np.unique(row_state):
            rows = np.flatnonzero(row_state == t)
            b32, b16 = rows[np.argmax(q32[rows])], rows[np.argmax(q16[rows])]
            n_states += 1
            if b32 != b16:
                differ += 1
                regret.append(float(q32[b32] - q32[b16]))
        rel.append(float(np.abs(q16 - q32).mean() / max(float(np.abs(q32).mean()), 1e-9)))
        return q32

    dmc.play_scores = both              # (the actor's own scoring, watched)
    try:
        for _ in range(steps):
            actor.step()
            for _ in actor.batches():
                pass
    finally:
        dmc.play_scores = plain
    return {"states": n_states, "differ": differ / max(n_states, 1), "relative_error": float(np.mean(rel)),
            "regret_mean": float(np.mean(regret)) if regret else 0.0,
            "regret_max": float(np.max(regret)) if regret else 0.0}


def _final_frames(run: str) -> int:
    import torch

    return int(torch.load(os.path.join(run, "train_state.pt"), weights_only=False)["frames"])


def _fmt(s: Dict[str, float], pct: bool) -> str:
    if pct:
        return f"{100 * s['mean']:.1f}% [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"
    return f"{s['mean']:+.3f} [{s['low']:+.3f}, {s['high']:+.3f}]"


def _curve_line(row: Dict[str, Any], pimc: str) -> str:
    parts = [f"{row['frames']:>12,}" if isinstance(row["frames"], int) else str(row["frames"])]
    for opp in ("simple", pimc):
        if opp in row:
            for role in ("landlord", "farmer"):
                parts.append(f"{opp} {role}: WP {_fmt(row[opp][role]['wp'], True)} "
                             f"ADP {_fmt(row[opp][role]['adp'], False)}")
    return " | ".join(parts)


def bidding(run: str, deals: int) -> Dict[str, Any]:
    from ddz_fast import arena
    from ddz_fast.train.dmc import auction_rules
    from ddz_fast.train.shipped import trained_agent

    out = {}
    for auction in ("bid", "rob"):
        ours = trained_agent(run, name="dmc-bids")
        theirs = trained_agent(run, bidder=False, name="simple-bids")
        res = arena.play([ours, theirs], deals=deals, seed=2, rules=auction_rules(auction), landlord="auction",
                         progress=False)
        out[auction] = {"wp": _stat(res.stat(0, "wp")), "adp": _stat(res.stat(0, "adp")),
                        "landlord_share": float(np.mean([g["landlord"] is not None and
                                                         g["seats"][g["landlord"]] == "dmc-bids"
                                                         for g in res.games()]))}
        print(f"bidding ({auction}): dmc bids vs simple bids, same card player: "
              f"WP {_fmt(out[auction]['wp'], True)}, ADP {_fmt(out[auction]['adp'], False)}", flush=True)
    return out


def bid_values(run: str, hands: int, samples: int) -> Dict[str, Any]:
    """The bidder's value of bidding 3 over passing, for the first bidder of
    ``hands`` deals, against ``ddz_fast.bidding.landlord_value``'s estimate
    of the hand as landlord (the simple bot at every seat, ``samples``
    deals of the unseen cards): their rank correlation."""
    import ddz_fast as ddz
    from ddz_fast.bidding import landlord_value
    from ddz_fast.train.bidder import DMCBidder, load_bidder

    hook = DMCBidder(load_bidder(os.path.join(run, "bidder.ckpt")))
    vec = ddz.VecGame(hands, rules="douzero", seed=7)
    tables = np.arange(hands)
    q = hook.values(vec, tables)
    gain = q[:, 3] - q[:, 0]                      # Bid(3) against Bid(0), the pass
    seats = np.asarray(vec.to_move)
    value = np.array([landlord_value(vec.observations[i, :15].astype(np.uint8), seat=int(seats[i]),
                                     samples=samples, rules="douzero", seed=i).adp.mean for i in tables])

    def ranks(a: np.ndarray) -> np.ndarray:
        return np.argsort(np.argsort(a)).astype(float)

    rho = float(np.corrcoef(ranks(gain), ranks(value))[0, 1])
    print(f"bidder's value of bid 3 over pass against landlord_value's ADP on {hands} hands: "
          f"Spearman {rho:+.3f}", flush=True)
    return {"spearman": rho, "hands": hands, "samples": samples}


def _verdict(ratio: float) -> str:
    """The target's verdict on a ratio of ddz-fast's training rate to DouZero's."""
    return "PASS" if ratio >= TARGET_VS_DOUZERO else "FAIL"


def _median_line(rounds: List[Dict[str, Any]], key: str, head: str, tail: str = "") -> Tuple[float, str]:
    """The median over ``rounds`` of the ratio ``key``, and the line judging it."""
    med = float(np.median([r[key] for r in rounds]))
    each = ", ".join(f"{r[key]:.1f}x" for r in rounds)
    return med, (f"{head}, the median of {len(rounds)} rounds{tail}: {med:.1f}x (rounds: {each}; target "
                 f"{TARGET_VS_DOUZERO:.0f}x on the median: {_verdict(med)})")


def _train_round(args: argparse.Namespace, net: str, work: str) -> Tuple[Dict[str, Any], List[str]]:
    """One round of the training comparison on network ``net``: DouZero's
    trainer, then ddz-fast's (and its variants asked for), each for
    ``args.seconds``; the results and the lines to print."""
    lstm, hidden = NETWORKS[net]
    dz = train_douzero(args.seconds, args.actors, work, lstm, hidden)
    ours = train_ddz(args.seconds, args.actors, lstm, hidden, args.tables, work)
    ratio = ours["frames_per_s"] / dz["frames_per_s"]
    cpu_ratio = ours["frames_per_cpu_s"] / max(dz["frames_per_cpu_s"], 1e-9)
    res_net: Dict[str, Any] = {"douzero": dz, "ddz_fast": ours, "ratio": ratio, "cpu_ratio": cpu_ratio}
    lines = [f"training frames/s, {net} network (LSTM {lstm}, dense {hidden}), {args.actors} actor(s), "
             f"batch 32 x 100, 1 thread each:",
             f"  douzero.dmc                       {dz['frames_per_s']:10,.0f}",
             f"  ddz-fast train --auction none     {ours['frames_per_s']:10,.0f}   ({ratio:.1f}x; "
             f"target {TARGET_VS_DOUZERO:.0f}x: {_verdict(ratio)}; float32 actors, DouZero's arithmetic; "
             "DouZero's game: card play alone)"]
    if args.with_bidder:
        both = train_ddz(args.seconds, args.actors, lstm, hidden, args.tables, work, auction="both")
        res_net["ddz_fast_with_bidder"] = both
        lines.append(f"  ddz-fast train (bidder too)       {both['frames_per_s']:10,.0f}   "
                     f"({both['frames_per_s'] / dz['frames_per_s']:.1f}x; the default "
                     "--auction both: card-play frames, the auction learnt besides)")
    if args.bf16_actor:
        low = train_ddz(args.seconds, args.actors, lstm, hidden, args.tables, work,
                        precision="bfloat16")
        res_net["ddz_fast_bf16_actor"] = low
        res_net["bf16_ratio"] = low16 = low["frames_per_s"] / dz["frames_per_s"]
        lines.append(f"  ddz-fast train, bfloat16 actors  {low['frames_per_s']:10,.0f}   "
                     f"({low16:.1f}x; target {TARGET_VS_DOUZERO:.0f}x: "
                     f"{_verdict(low16)}; --actor-precision bfloat16: the same "
                     f"network, its values in bfloat16 in the actors; per CPU-second {low['frames_per_cpu_s']:,.0f})")
    lines.append(f"  frames per CPU-second (all processes): douzero.dmc {dz['frames_per_cpu_s']:,.0f}, "
                 f"ddz-fast {ours['frames_per_cpu_s']:,.0f} ({cpu_ratio:.1f}x)")
    steady = ours["steady_frames_per_s"] / max(dz["steady_frames_per_s"], 1e-9)
    res_net["steady_ratio"] = steady
    lines.append(f"  steady frames/s (first log row to last, start-up left out): douzero.dmc "
                 f"{dz['steady_frames_per_s']:,.0f}, ddz-fast {ours['steady_frames_per_s']:,.0f} ({steady:.1f}x)")
    return res_net, lines


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=300.0, help="seconds of each training measurement")
    ap.add_argument("--actor-seconds", type=float, default=30.0, help="seconds of each actor and learner measurement")
    ap.add_argument("--networks", default="douzero,small",
                    help="the networks of the training comparison: douzero (LSTM 128, dense 512), small (64, 128)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of the training comparison, each DouZero's trainer then ours; the verdict is on "
                         "the median ratio (default 1)")
    ap.add_argument("--actors", type=int, default=1, help="actor processes of both trainers (default 1)")
    ap.add_argument("--tables", type=int, default=256, help="tables of each ddz-fast actor (default 256)")
    ap.add_argument("--bf16-actor", action="store_true",
                    help="also time ddz-fast train with bfloat16 actors (--actor-precision bfloat16)")
    ap.add_argument("--with-bidder", action="store_true",
                    help="also time ddz-fast train's default run, which learns the auction besides card play")
    ap.add_argument("--run", help="a run directory of ddz-fast train (snapshots: the learning curve; the bidder)")
    ap.add_argument("--deals", type=int, default=1000, help="duplicate deals against the simple bot, and bidding")
    ap.add_argument("--pimc-deals", type=int, default=100, help="duplicate deals against PIMC (0: skip)")
    ap.add_argument("--pimc", default="pimc(worlds=16)", help="the PIMC agent (arena name)")
    ap.add_argument("--skip", default="", help="sections to skip: train,actor,learner,precision,curve,bidding")
    ap.add_argument("--json", help="write the results as JSON")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    skip = set(filter(None, args.skip.split(",")))
    sys.path.insert(0, SRC)
    res: Dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load": os.getloadavg()}}
    with tempfile.TemporaryDirectory() as work:
        if "train" not in skip:
            res["train"] = {}
            for net in args.networks.split(","):
                rounds = []
                for k in range(args.rounds):
                    one, lines = _train_round(args, net, work)
                    if args.rounds > 1:
                        lines[0] = f"round {k + 1} of {args.rounds}: " + lines[0]
                    print("\n".join(lines), flush=True)
                    rounds.append(one)
                # the round of the median ratio stands for the network (one round: that round)
                order = sorted(range(len(rounds)), key=lambda k: rounds[k]["ratio"])
                res["train"][net] = dict(rounds[order[(len(order) - 1) // 2]],
                                         rounds=[r["ratio"] for r in rounds])
                if args.rounds > 1:
                    judged = [("ratio", f"{net} network", " (each round: douzero.dmc, then ddz-fast)")]
                    if args.bf16_actor:
                        judged.append(("bf16_ratio", f"{net} network, bfloat16 actors", ""))
                    for key, head, tail in judged:
                        med, line = _median_line(rounds, key, head, tail)
                        res["train"][net][f"median_{key}"] = med
                        print(line, flush=True)
    if "actor" not in skip:
        big = actor_rates(args.actor_seconds, 128, 512, args.tables)
        big16 = actor_rates(args.actor_seconds, 128, 512, args.tables, precision="bfloat16")
        small_a = actor_rates(args.actor_seconds, 64, 128, args.tables)
        dz_a = douzero_actor_rate(args.actor_seconds)
        res["actor"] = {"ddz_fast": big, "ddz_fast_bf16": big16, "ddz_fast_small": small_a, "douzero": dz_a}
        print(f"actor decisions/s, one process, one thread: ddz-fast {big['decisions_per_s']:,.0f} "
              f"(DouZero's network; {big16['decisions_per_s']:,.0f} scoring in bfloat16), "
              f"{small_a['decisions_per_s']:,.0f} (small); "
              f"douzero {dz_a['decisions_per_s']:,.0f} (its network)", flush=True)
    if "learner" not in skip:
        res["learner"] = {}
        for net in args.networks.split(","):
            lstm, hidden = NETWORKS[net]
            lr = learner_rates(args.actor_seconds, lstm, hidden)
            res["learner"][net] = lr
            line = (f"learner alone, {net} network, one thread (frames/s, the ceiling of training with one learner "
                    f"thread): ddz-fast {lr['ddz_fast']:,.0f}, plain step {lr['plain']:,.0f}")
            if "train" in res:
                t = res["train"][net]
                line += (f"; training reached {t['ddz_fast']['frames_per_s'] / lr['ddz_fast']:.0%} of it; "
                         f"{TARGET_VS_DOUZERO:.0f}x douzero.dmc would need "
                         f"{TARGET_VS_DOUZERO * t['douzero']['frames_per_s']:,.0f}")
            print(line, flush=True)
    if "douzero" in res.get("learner", {}) and "actor" in res:
        gf = matmul_gflops()
        parts = (res["actor"]["douzero"]["decisions_per_s"], res["learner"]["douzero"]["ddz_fast"],
                 res.get("train", {}).get("douzero", {}).get("douzero", {}).get("frames_per_s", float("nan")))
        c = ceilings(res["actor"]["ddz_fast"]["decisions_per_s"], *parts)
        c16 = ceilings(res["actor"]["ddz_fast_bf16"]["decisions_per_s"], *parts)
        res["ceiling"] = dict(c, matmul_gflops=gf["mm"], packed_gflops=gf.get("packed", float("nan")),
                              bf16=c16)
        print(f"ceilings at DouZero's network from the parts alone: {c['per_cpu_ratio']:.1f}x per CPU-second, "
              f"{c['two_cores_ratio']:.1f}x wall-clock on two free cores (an actor and a learner on a core each), "
              f"{c['shared_cores_ratio']:.1f}x were the two cores shared perfectly; with bfloat16 actors "
              f"{c16['two_cores_ratio']:.1f}x and {c16['shared_cores_ratio']:.1f}x; "
              f"one thread multiplies fp32 matrices at {gf['mm']:,.0f} GFLOP/s (MKL), "
              f"{gf.get('packed', float('nan')):,.0f} with oneDNN's packed layer and ReLU (the actor's)", flush=True)
    if args.run and "precision" not in skip:
        a = res["precision"] = precision_agreement(args.run)
        print(f"bfloat16 against float32 scoring, the run's final networks: the greedy choice differs in "
              f"{100 * a['differ']:.2f}% of {a['states']:,} unforced states (mean |q16 - q32| / mean |q32| "
              f"{a['relative_error']:.4f}; the float32 value lost where they differ: mean {a['regret_mean']:.4f}, "
              f"max {a['regret_max']:.4f})", flush=True)
    if args.run and "curve" not in skip:
        res["curve"] = curve(args.run, args.deals, args.pimc_deals, args.pimc)
    if args.run and "bidding" not in skip:
        res["bidding"] = bidding(args.run, args.deals)
        res["bid_values"] = bid_values(args.run, 300, 200)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
