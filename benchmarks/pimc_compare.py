"""Strength of the PIMC agent: its win rate as landlord and as the farmers
against the simple bot and against random players, on many seeded deals,
with 95% confidence intervals.

    python benchmarks/pimc_compare.py [--deals N] [--worlds W] [--seed S] [--markdown]

Deal k of a row is ``Game(seed=game_seed(seed, k))``; every seat bids with
the simple bot (the PIMC agent delegates its auction to it), so the landlord
of each deal is the same in every row.  In the play phase the agent plays the
landlord seat (row "landlord") or both farmer seats (row "farmers"); the
other seats play the opponent policy (``simple_bot``, or uniformly random
legal moves drawn from a seeded SplitMix64 stream).  The same deals are also
played with the simple bot in the agent's seats: the baseline.  Reported per
row: the agent's win rate and the baseline's (Wilson 95% intervals), and the
paired difference over the same deals (normal 95% interval of the per-deal
differences).  The agent "beats" the baseline when that interval lies above
zero.  Also the mean time of a decision that had a choice (more than one
legal move), in ms.

Issue 14's done-when: the PIMC agent beats the simple bot by a margin with a
confidence interval.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from ddz_fast import PIMCAgent, Session
from ddz_fast.game import Phase, SplitMix64, simple_bot

ROLES = ("landlord", "farmers")
OPPONENTS = ("simple bot", "random")
Z95 = 1.959963984540054


def wilson(wins: int, n: int) -> Tuple[float, float]:
    """The Wilson score 95% interval of a proportion."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    d = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return (mid - half, mid + half)


def paired_difference(a: Sequence[int], b: Sequence[int]) -> Tuple[float, float, float]:
    """Mean of a - b over the same deals and its normal 95% interval."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return mean, mean - half, mean + half


class RandomPlayer:
    """Uniformly random legal actions from a seeded SplitMix64 stream."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def __call__(self, obs: Any) -> Any:
        acts = obs.legal_actions
        return acts[self.rng.below(len(acts))]


class Timed:
    """An agent wrapper that times the decisions that had a choice."""

    def __init__(self, agent: Callable[[Any], Any]) -> None:
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, obs: Any) -> Any:
        if obs.phase is not Phase.PLAY or len(obs.legal_actions) < 2:
            return self.agent(obs)
        t = time.perf_counter()
        a = self.agent(obs)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return a


def play_role(player: Callable[[Any], Any], opponent: Callable[[Any], Any], role: str, deals: int,
              seed: int) -> List[int]:
    """Per deal: 1 when ``player``'s side won.  Every seat bids with the
    simple bot; ``player`` then plays the seats of ``role``."""
    as_landlord = role == "landlord"

    def seat(obs: Any) -> Any:
        if obs.phase is not Phase.PLAY:
            return simple_bot(obs)
        return player(obs) if (obs.player == obs.landlord) == as_landlord else opponent(obs)

    results = Session(seed=seed).play([seat, seat, seat], deals)
    return [int(r.landlord_won == as_landlord) for r in results]


@dataclass
class Row:
    role: str
    opponent: str
    deals: int
    wins: int
    base_wins: int
    diff: Tuple[float, float, float]
    ms_per_decision: float

    @property
    def beats(self) -> bool:
        return self.diff[1] > 0


def measure(role: str, opponent: str, deals: int, seed: int, agent_options: dict) -> Row:
    timed = Timed(PIMCAgent(**agent_options))

    def opp() -> Callable[[Any], Any]:
        return simple_bot if opponent == "simple bot" else RandomPlayer(seed ^ 0x5EED)

    ours = play_role(timed, opp(), role, deals, seed)
    base = play_role(simple_bot, opp(), role, deals, seed)
    ms = 1e3 * timed.seconds / timed.decisions if timed.decisions else float("nan")
    return Row(role, opponent, deals, sum(ours), sum(base), paired_difference(ours, base), ms)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(rows: List[Row], markdown: bool) -> List[str]:
    head = ["PIMC plays", "against", "deals", "PIMC win rate [95% CI]", "simple bot in its seat [95% CI]",
            "difference [95% CI]", "beats it", "ms / decision"]
    cells = []
    for r in rows:
        lo, hi = wilson(r.wins, r.deals)
        blo, bhi = wilson(r.base_wins, r.deals)
        d, dlo, dhi = r.diff
        cells.append([r.role, r.opponent, str(r.deals),
                      f"{pct(r.wins / r.deals)} [{pct(lo)}, {pct(hi)}]",
                      f"{pct(r.base_wins / r.deals)} [{pct(blo)}, {pct(bhi)}]",
                      f"{100 * d:+.1f} pts [{100 * dlo:+.1f}, {100 * dhi:+.1f}]",
                      "yes" if r.beats else "no", f"{r.ms_per_decision:.3f}"])
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
        out += ["| " + " | ".join(c) + " |" for c in cells]
        return out
    w = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w[i]) for i, h in enumerate(head)).rstrip(), "  ".join("-" * x for x in w)]
    out += ["  ".join(c[i].ljust(w[i]) for i in range(len(head))).rstrip() for c in cells]
    return out


def run(deals: int, seed: int, markdown: bool, agent_options: Optional[dict] = None,
        opponents: Sequence[str] = OPPONENTS) -> bool:
    """Print the table; True when the agent beats the simple bot in every row
    against the simple bot (issue 14's done-when)."""
    options = dict(agent_options or {})
    options.setdefault("seed", seed)
    rows = []
    for opponent in opponents:
        for role in ROLES:
            t = time.perf_counter()
            rows.append(measure(role, opponent, deals, seed, options))
            print(f"[pimc] {role} vs {opponent}: {deals} deals in {time.perf_counter() - t:.0f} s",
                  file=sys.stderr, flush=True)
    print("\n".join(table(rows, markdown)))
    agent = PIMCAgent(**options)
    print(f"(agent: {agent!r}; deals {seed=}; the difference is paired over the same deals)")
    ok = all(r.beats for r in rows if r.opponent == "simple bot")
    print(f"target: the PIMC agent beats the simple bot with a 95% interval: {'PASS' if ok else 'FAIL'}")
    return ok


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per row (default 1000)")
    ap.add_argument("--worlds", type=int, default=None, help="worlds per decision (default: the agent's)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--strict", action="store_true", help="exit 1 when the target fails")
    args = ap.parse_args(argv)
    options = {} if args.worlds is None else {"worlds": args.worlds}
    ok = run(args.deals, args.seed, args.markdown, options)
    return 1 if (args.strict and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
