"""Running the parts of a batch on threads, shared by the batch move calls
and the compiled playouts (each part releases the GIL while it runs)."""
from __future__ import annotations

import threading
from typing import Callable, Sequence

__all__ = ["run_parts"]


def run_parts(parts: Sequence[Callable[[], None]]) -> None:
    """Call every part and wait for all: the first runs on the calling
    thread, each other one on a thread of its own."""
    if len(parts) == 1:
        parts[0]()
        return
    workers = [threading.Thread(target=part) for part in parts[1:]]
    started = []
    try:
        for w in workers:
            w.start()
            started.append(w)
        parts[0]()
    finally:
        # Even when a thread could not be started, the ones that were keep
        # writing into the caller's buffers: wait for them before the error
        # (or the result) reaches the caller.
        for w in started:
            w.join()
