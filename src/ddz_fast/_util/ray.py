"""Scale-out on Ray (the ``ray`` extra): seeded pieces of an arena run or of
a dataset recording as Ray tasks, gathered in order, so a cluster gives the
same results as one machine (docs/arena.md "On a Ray cluster")."""
from __future__ import annotations

import logging
import os
import socket
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ..rules import Rules

__all__ = ["connect", "probe", "play_on_ray", "map_on_ray", "PROBE_SECONDS", "INSTALL_HINT"]

#: How long the address of a Ray cluster may take to accept a connection.
#: (Ray itself retries an unreachable address for many minutes.)
PROBE_SECONDS = 5.0
#: How to install the ``ray`` extra (the package is on no index: from a clone).
INSTALL_HINT = "pip install '.[ray]' from a clone of ddz-fast, or pip install ray"


def _host_port(address: str) -> Tuple[str, int]:
    """``(host, port)`` of ``"host:port"`` or ``"ray://host:port"``
    (``"[::1]:6379"`` for IPv6); ValueError otherwise."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"the Ray address must be 'auto', 'local', 'host:port' or 'ray://host:port', "
                         f"not {address!r}")
    return host, int(port)


def probe(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Check that something accepts connections at a Ray cluster's address
    (``"host:port"`` or ``"ray://host:port"``) within ``timeout`` seconds:
    ConnectionError naming the address otherwise, in seconds rather than
    after Ray's own minutes of retries."""
    host, port = _host_port(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as e:
        raise ConnectionError(
            f"cannot reach a Ray cluster at {address!r} within {timeout:g} s ({e.strerror or e}); "
            "start one there (ray start --head), or use --ray local / ray='local' for a new local "
            "instance") from None


def connect(address: str) -> Any:
    """The ``ray`` module, connected: ``"auto"`` joins the cluster named by
    ``RAY_ADDRESS`` or running on this machine, or else starts a local one;
    ``"local"`` always starts a local instance; anything else is a cluster
    address (``"ray://head:10001"``, ``"10.0.0.1:6379"``), probed first
    (:func:`probe`: ConnectionError within :data:`PROBE_SECONDS` when nothing
    answers there).  An already initialised Ray is used as it is."""
    if not isinstance(address, str) or not address:
        raise TypeError(f"the Ray address must be a non-empty str, not {address!r}")
    if address not in ("auto", "local"):
        _host_port(address)             # (a malformed address: ValueError, also with Ray running)
    try:
        import ray
    except ImportError:
        raise ImportError(f"--ray needs Ray: {INSTALL_HINT}") from None
    if not ray.is_initialized():
        # An unreachable cluster fails here at once, not after Ray's retries.
        target = os.environ.get("RAY_ADDRESS", "") if address == "auto" else address
        if target not in ("", "local", "auto"):
            probe(target)
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
