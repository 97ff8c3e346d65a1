"""The arena's figure (matplotlib, the ``plot`` extra): WP and ADP per agent
and role with their 95% intervals, and their convergence with the deals."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..arena import ArenaResult

__all__ = ["plot_arena", "plot_train_log", "require_matplotlib"]


def require_matplotlib() -> Any:
    """The ``matplotlib`` module; ImportError saying how to install it (the
    command line checks this before it plays any game)."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("plots need matplotlib: pip install '.[plot]' from a clone of ddz-fast, "
                          "or pip install matplotlib") from None
    return matplotlib


def _pyplot() -> Any:
    matplotlib = require_matplotlib()
    matplotlib.use("Agg")            # files only: no screen needed
    import matplotlib.pyplot as plt
    return plt


def plot_arena(res: "ArenaResult", path: Any, *, points: int = 40) -> None:
    plt = _pyplot()
    roles = ("all", "landlord", "farmer")
    labels = res.labels
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    width = 0.8 / len(labels)
    for col, metric in enumerate(("wp", "adp")):
        ax = axes[0, col]
        for a, label in enumerate(labels):
            st = [res.stat(a, metric, role) for role in roles]
            mean = np.array([s.mean for s in st])
            err = np.array([[s.mean - s.low for s in st], [s.high - s.mean for s in st]])
            scale = 100.0 if metric == "wp" else 1.0
            ax.bar(np.arange(3) + a * width - 0.4 + width / 2, scale * mean, width,
                   yerr=scale * np.nan_to_num(err), capsize=3, label=label)
        ax.set_xticks(np.arange(3), roles)
        ax.set_ylabel("WP (%)" if metric == "wp" else "ADP (points per game)")
        ax.set_title(("WP" if metric == "wp" else "ADP") + " with 95% intervals")
        ax.axhline(50.0 if metric == "wp" else 0.0, color="grey", lw=0.8)
        ax.legend()
        ax = axes[1, col]
        steps = np.unique(np.linspace(2, res.deals, max(2, points)).astype(int)) if res.deals >= 2 \
            else np.array([res.deals])
        for a, label in enumerate(labels):
            st = [res.stat(a, metric, "all", deals=int(d)) for d in steps]
            scale = 100.0 if metric == "wp" else 1.0
            mean = scale * np.array([s.mean for s in st])
            ax.plot(steps, mean, label=label)
            ax.fill_between(steps, scale * np.array([s.low for s in st]), scale * np.array([s.high for s in st]),
                            alpha=0.25)
        ax.set_xlabel("duplicate deals")
        ax.set_ylabel("WP (%)" if metric == "wp" else "ADP")
        ax.set_title("convergence (all roles)")
        ax.legend()
    fig.suptitle(f"{' vs '.join(labels)}: {res.deals:,} duplicate deals, rules {res.rules.name}, "
                 f"landlord {res.landlord_mode}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_train_log(rows: Any, path: Any) -> None:
    """A training run's figure (``ddz-fast train --plot``): each network's
    loss by frames, and WP against the simple bot where it was measured;
    ``rows`` are ``log.csv``'s rows as dicts of floats or None."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    frames = [r["frames"] for r in rows]
    for key in ("loss_landlord", "loss_landlord_up", "loss_landlord_down"):
        axes[0].plot(frames, [r.get(key) for r in rows], label=key[len("loss_"):])
    axes[0].set_xlabel("frames")
    axes[0].set_ylabel("MSE loss (card play)")
    axes[0].legend()
    for key, label in (("wp_landlord", "as landlord"), ("wp_farmer", "as farmers")):
        pts = [(r["frames"], r[key]) for r in rows if r.get(key) is not None]
        if pts:
            axes[1].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    axes[1].set_xlabel("frames")
    axes[1].set_ylabel("WP against the simple bot")
    if any(r.get("wp_landlord") is not None for r in rows):
        axes[1].legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
