"""Bidding evaluation: what a hand is worth as landlord, before the auction
(docs/arena.md "Bidding evaluation").

:func:`landlord_value` estimates, for a hand and its seat, the landlord's
win rate and average score (ADP) by compiled playouts
(:meth:`ddz_fast.Game.rollout` with ``worlds``) over deals of the cards the
player cannot see: each sample deals the unseen physical cards uniformly at
random into the kitty (which the landlord takes) and the other hands, and
plays the deal out from the landlord's lead with ``policy`` at every seat.
The score is proportional to the stake and nothing in play depends on it,
so the ADP at each possible base (each bid of the ``bid`` auction, each
number of robs of the ``rob`` auction) is that base times the ADP at base 1.

:func:`record_bidding` writes a supervised dataset of many such estimates
(hand -> value), one Parquet file like the trajectory recorder's.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._util.checks import check_int, check_seat, check_seed, check_threads
from ._engine.game import Game
from ._engine.playout import MAX_GAMES
from ._util.rng import game_seed
from ._version import __version__
from .arena import Stat, clustered_mean
from .cards import CardsLike, to_counts
from .rules import Rules, RulesLike, check_rules, resolve_rules

__all__ = ["BidValue", "landlord_value", "record_bidding", "MAX_SAMPLES"]

_POLICIES = ("bot", "random")


@dataclass(frozen=True)
class BidValue:
    """The estimate of :func:`landlord_value`: ``win_rate`` and ``adp`` (the
    landlord's mean score at base 1) as :class:`~ddz_fast.arena.Stat` (mean
    and 95% interval over the ``samples`` deals), and ``by_base``: the ADP
    at each base the auction can reach (``{1: ..., 2: ..., 3: ...}`` for
    the ``bid`` auction)."""

    win_rate: Stat
    adp: Stat
    samples: int
    rollouts: int
    by_base: Dict[int, float]

    def adp_at(self, base: int) -> float:
        """The ADP when the stake before bombs is ``base``."""
        return check_int(base, "base", 1, 1 << 20) * self.adp.mean


# Most deals one landlord_value call samples: they are dealt up front, about
# 150 bytes each with what their playouts return (4,194,304 deals: 0.6 GiB),
# so a typo such as samples=2**30 is refused instead of asking for 300 GiB.
MAX_SAMPLES = 1 << 22


def _card_list(counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    return np.repeat(np.arange(15, dtype=np.uint8), counts.astype(np.int64))


def deal_unseen(hand: npt.NDArray[np.uint8], unseen: npt.NDArray[np.uint8], seat: int, rules: Rules,
                samples: int, seed: int) -> npt.NDArray[np.uint8]:
    """``samples`` deals ``(samples, players, 15)`` at the start of play with
    ``seat`` the landlord: it holds ``hand`` plus the kitty; every other seat
    as many cards as ``hand``; the kitty the rest of ``unseen``; the unseen
    physical cards dealt uniformly (NumPy's generator seeded with ``seed``)."""
    P = rules.players
    cards = _card_list(unseen)
    each = int(hand.sum())
    kitty = len(cards) - (P - 1) * each
    rng = np.random.default_rng(seed)
    shuffled = rng.permuted(np.broadcast_to(cards, (samples, len(cards))), axis=1)
    out = np.zeros((samples, P, 15), dtype=np.uint8)
    rows = np.arange(samples)[:, None]
    out[:, seat] = hand
    # the kitty goes to the landlord; the rest in blocks to the other seats
    np.add.at(out, (rows, np.intp(seat), shuffled[:, :kitty]), 1)
    for j in range(1, P):
        block = shuffled[:, kitty + (j - 1) * each: kitty + j * each]
        np.add.at(out, (rows, np.intp((seat + j) % P), block), 1)
    return out


def landlord_value(hand: CardsLike, *, seat: int = 0, samples: int = 1000, policy: str = "bot",
                   rollouts: int = 1, seed: int = 0, threads: int = 1, rules: RulesLike = "standard",
                   unseen: Optional[CardsLike] = None) -> BidValue:
    """The value of ``hand`` (dealt to ``seat``) as landlord: win rate and
    ADP with 95% intervals over ``samples`` deals of the unseen cards (see
    the module docstring).

    ``policy``: ``"bot"`` (every seat the simple bot; deterministic, one
    playout a deal) or ``"random"`` (``rollouts`` playouts a deal).
    ``unseen``: the cards the player cannot see, by default the deck minus
    the hand; each other seat gets as many cards as the hand and the kitty
    the rest (smaller ``hand`` and ``unseen`` make small deals, which can be
    enumerated exactly).  The same arguments give the same estimate whatever
    ``threads`` is.  Limits, checked before anything is dealt: ``samples``
    1..``MAX_SAMPLES``, ``rollouts`` 1..2**20, and ``samples * rollouts``
    at most ``MAX_GAMES`` playouts.

    >>> from ddz_fast.bidding import landlord_value
    >>> strong = landlord_value("22AAKKQQJJ99BR345", samples=200)
    >>> weak = landlord_value("3345567899TJQKA26"[:17], samples=200)
    >>> strong.win_rate.mean > weak.win_rate.mean
    True
    """
    r = check_rules(resolve_rules(rules))
    h = to_counts(hand, rules=r)
    p = check_seat(seat, r.players, "seat")
    n = check_int(samples, "samples", 1, MAX_SAMPLES)
    reps = check_int(rollouts, "rollouts", 1, 1 << 20)
    sd = check_seed(seed)
    check_threads(threads)
    if not isinstance(policy, str) or policy not in _POLICIES:
        raise ValueError(f"policy must be one of {_POLICIES}, not {policy!r}")
    deck = np.array([4 * r.decks] * 13 + [r.decks] * 2, dtype=np.int64)
    if unseen is None:
        u = (deck - h).astype(np.uint8)
        if int(h.sum()) != r.hand_size:
            raise ValueError(f"a hand before the auction holds {r.hand_size} cards, not {int(h.sum())} "
                             "(pass unseen= for a smaller deal)")
    else:
        u = to_counts(unseen, rules=r)
        if (u.astype(np.int64) + h > deck).any():
            rank = int(np.flatnonzero(u.astype(np.int64) + h > deck)[0])
            raise ValueError(f"the hand and unseen hold more cards of {'3456789TJQKA2BR'[rank]} than the deck")
    each = int(h.sum())
    kitty = int(u.sum()) - (r.players - 1) * each
    if each == 0:
        raise ValueError("the hand is empty")
    if kitty < 0:
        raise ValueError(f"unseen holds {int(u.sum())} cards: fewer than the other seats' "
                         f"{(r.players - 1) * each}")
    if policy == "bot":
        reps = 1
    if n * reps > MAX_GAMES:        # (refused before anything is dealt)
        raise ValueError(f"landlord_value: samples * rollouts = {n * reps} games, more than MAX_GAMES "
                         f"({MAX_GAMES}) in one call")
    worlds = deal_unseen(h, u, p, r, n, game_seed(sd, 0))
    # Nobody has played yet: played=0 everywhere keeps spring scoring exact.
    g = Game.from_position(worlds[0], p, 1, p, rules=r, played=[0] * r.players)
    out = g.rollout(reps, policy="bot" if policy == "bot" else "random", seed=game_seed(sd, 1),
                    threads=threads, worlds=worlds)
    won = out.landlord_won.reshape(n, reps).astype(np.float64).sum(axis=1)
    pts = out.scores[:, p].reshape(n, reps).astype(np.float64).sum(axis=1)
    counts = np.full(n, float(reps))
    wr, adp = clustered_mean(won, counts), clustered_mean(pts, counts)
    wr = Stat(wr.mean, max(0.0, wr.low), min(1.0, wr.high), wr.units, wr.deals)
    bases = (1, 2, 3) if r.auction == "bid" else tuple(2 ** k for k in range(r.players))
    return BidValue(wr, adp, n, reps, {b: b * adp.mean for b in bases})


# ---------------------------------------------------------------------------
# A supervised dataset
# ---------------------------------------------------------------------------

_FIELDS = ("hand", "seat", "game_seed", "win_rate", "win_low", "win_high", "adp", "adp_low", "adp_high",
           "samples")


def record_bidding(path: Union[str, "os.PathLike[str]"], hands: int, *, samples: int = 256,
                   policy: str = "bot", seed: int = 0, threads: int = 1, rules: RulesLike = "standard",
                   overwrite: bool = False) -> Tuple[str, int]:
    """Estimate :func:`landlord_value` for ``hands`` dealt hands and write
    them as one Parquet file (needs pyarrow): hand ``i`` is seat ``i %
    players`` of ``Game(rules, seed=game_seed(seed, i))`` (the hand it is
    dealt before the auction).  Columns: ``hand`` (fixed_size_list<uint8>
    of 15 counts), ``seat`` (int8), ``game_seed`` (uint64), ``win_rate``,
    ``win_low``, ``win_high``, ``adp``, ``adp_low``, ``adp_high`` (float64:
    the estimates and their 95% intervals, ADP at base 1) and ``samples``
    (int32).  The schema metadata (key ``ddz_fast``) records the rules,
    seed, policy and samples.  Returns ``(path, hands)``."""
    from .trajectories import _pyarrow, _rules_dict

    pa = _pyarrow()
    import pyarrow.parquet as pq

    r = check_rules(resolve_rules(rules))
    n = check_int(hands, "hands", 1, 1 << 32)
    sd = check_seed(seed)
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a path, not {type(path).__name__}")
    if type(overwrite) is not bool:
        raise TypeError(f"overwrite must be a bool, not {type(overwrite).__name__}")
    out = os.fspath(path)
    if os.path.exists(out) and not overwrite:
        raise ValueError(f"{out} exists; pass overwrite=True to replace it")
    cols: Dict[str, Any] = {k: [] for k in _FIELDS}
    for i in range(n):
        gs = game_seed(sd, i)
        seat = i % r.players
        hand = Game(r, seed=gs).hand(seat)
        v = landlord_value(hand, seat=seat, samples=samples, policy=policy, seed=gs, threads=threads, rules=r)
        for k, x in (("hand", hand), ("seat", seat), ("game_seed", gs), ("win_rate", v.win_rate.mean),
                     ("win_low", v.win_rate.low), ("win_high", v.win_rate.high), ("adp", v.adp.mean),
                     ("adp_low", v.adp.low), ("adp_high", v.adp.high), ("samples", v.samples)):
            cols[k].append(x)
    meta = {"format": "ddz-fast bidding values", "version": 1, "ddz_fast": __version__,
            "rules": _rules_dict(r), "seed": sd, "policy": policy, "samples": samples}
    table = pa.table({
        "hand": pa.FixedSizeListArray.from_arrays(pa.array(np.concatenate(cols["hand"]).astype(np.uint8)), 15),
        "seat": pa.array(np.array(cols["seat"], dtype=np.int8)),
        "game_seed": pa.array(np.array(cols["game_seed"], dtype=np.uint64)),
        **{k: pa.array(np.array(cols[k], dtype=np.float64)) for k in _FIELDS[3:9]},
        "samples": pa.array(np.array(cols["samples"], dtype=np.int32)),
    }).replace_schema_metadata({"ddz_fast": json.dumps(meta)})
    tmp = out + ".tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, out)
    return out, n

