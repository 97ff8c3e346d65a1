"""Measuring a training run: WP against the simple bot at a checkpoint, the
learning curve over a run's snapshots, and the plot of ``log.csv``
(docs/train.md)."""
from __future__ import annotations

import csv
import os
from typing import Dict, List, Optional, Tuple, Union

from .._util.checks import check_int, check_seed

__all__ = ["wp_vs_simple", "snapshots", "read_log", "plot_log"]

PathLike = Union[str, "os.PathLike[str]"]


def wp_vs_simple(directory: PathLike, deals: int = 200, seed: int = 0, tables: int = 256) -> Tuple[float, float]:
    """(WP as landlord, WP as farmers) of the checkpoint in ``directory``
    against the simple bot, on ``deals`` duplicate deals of the ``douzero``
    rules with the landlord fixed (the arena's method, as DouZero evaluates)."""
    from ..arena import play
    from .shipped import trained_agent

    n = check_int(deals, "deals", 1, 1 << 24)
    # (the landlord is fixed: no auction, so no bidder is needed)
    res = play([trained_agent(directory, bidder=False), "simple"], deals=n, seed=check_seed(seed), rules="douzero",
               tables=tables, progress=False)
    return res.stat(0, "wp", "landlord").mean, res.stat(0, "wp", "farmer").mean


def snapshots(run: PathLike) -> List[Tuple[int, str]]:
    """The snapshots of a run (``--snapshot-every``): ``(frames, directory)``, by frames."""
    root = os.path.join(os.fspath(run), "snapshots")
    if not os.path.isdir(root):
        return []
    out = [(int(d), os.path.join(root, d)) for d in os.listdir(root) if d.isdigit()]
    return sorted(out)


def read_log(run: PathLike) -> List[Dict[str, Optional[float]]]:
    """The rows of a run's ``log.csv`` as dicts of floats (None where empty)."""
    from .dmc import LOG_FILE

    with open(os.path.join(os.fspath(run), LOG_FILE), newline="") as f:
        return [{k: (float(v) if v not in ("", None) else None) for k, v in row.items()} for row in csv.DictReader(f)]


def plot_log(run: PathLike, path: PathLike) -> None:
    """Plot a run's ``log.csv`` (the losses by frames, and WP against the
    simple bot where it was measured) to ``path`` (matplotlib, the plot extra)."""
    from .._util.plot import plot_train_log

    plot_train_log(read_log(run), os.fspath(path))
