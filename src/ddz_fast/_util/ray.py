"""Scale-out on Ray (the ``ray`` extra): seeded pieces of an arena run or of
a dataset recording as Ray tasks, gathered in order, so a cluster gives the
same results as one machine (docs/arena.md "On a Ray cluster")."""
from __future__ import annotations

import logging
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ..rules import Rules

__all__ = ["connect", "play_on_ray", "map_on_ray"]


def connect(address: str) -> Any:
    """The ``ray`` module, connected: ``"auto"`` joins the cluster named by
    ``RAY_ADDRESS`` or running on this machine, or else starts a local one;
    ``"local"`` always starts a local instance; anything else is a cluster
    address (``"ray://head:10001"``, ``"10.0.0.1:6379"``).  An already
    initialised Ray is used as it is."""
    if not isinstance(address, str) or not address:
        raise TypeError(f"the Ray address must be a non-empty str, not {address!r}")
    try:
        import ray
    except ImportError:
        raise ImportError("--ray needs Ray: pip install 'ddz-fast[ray]'") from None
    if not ray.is_initialized():
        # quiet: our progress bar and results are the output
        ray.init(address=None if address == "auto" else address,
                 include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    return ray


def map_on_ray(address: str, fn: Callable[..., Any], calls: Sequence[Tuple[Any, ...]],
               progress: Optional[Callable[[int], None]] = None,
               weight: Callable[[int], int] = lambda i: 1) -> List[Any]:
    """``[fn(*args) for args in calls]``, each call a Ray task; ``progress``
    gets the running sum of ``weight(i)`` over the calls done."""
    ray = connect(address)
    task = ray.remote(fn)
    refs = [task.remote(*args) for args in calls]
    index = {r: i for i, r in enumerate(refs)}
    results: List[Any] = [None] * len(refs)
    pending = list(refs)
    done = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for r in ready:
            results[index[r]] = ray.get(r)      # an error in a task is raised here
            done += weight(index[r])
        if progress is not None:
            progress(done)
    return results


def play_on_ray(agents: Sequence[Any], rules: Rules, seed: int, landlord: str, deals: int, rotations: int,
                tables: int, address: str, chunk_deals: int, progress: Optional[Callable[[int], None]]
                ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The games of an arena run, ``chunk_deals`` deals per task."""
    from ..arena import play_games
    bounds = [(k * rotations, min(deals, k + chunk_deals) * rotations) for k in range(0, deals, chunk_deals)]
    calls = [(list(agents), rules, seed, landlord, a, b, tables) for a, b in bounds]
    parts = map_on_ray(address, play_games, calls, progress, lambda i: bounds[i][1] - bounds[i][0])
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
