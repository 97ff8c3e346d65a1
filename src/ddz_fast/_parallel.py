"""Running the parts of a batch on threads, shared by the batch move calls
and the compiled playouts (each part releases the GIL while it runs)."""
from __future__ import annotations

import threading
from typing import Callable, Sequence

__all__ = ["run_parts"]


def run_parts(parts: Sequence[Callable[[], None]]) -> None:
    """Call every part and wait for all: one part runs on the calling thread,
    several run on a thread each."""
    if len(parts) == 1:
        parts[0]()
        return
    workers = [threading.Thread(target=part) for part in parts]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
