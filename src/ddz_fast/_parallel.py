"""Running the parts of a batch on threads, shared by the batch move calls
and the compiled playouts (each part releases the GIL while it runs).

The worker threads persist between calls: starting a thread costs tens of
microseconds, more than a whole batch of a few hundred hands.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Callable, List, Optional, Sequence

__all__ = ["run_parts"]


class _Worker:
    """One persistent daemon thread running the parts it is handed."""

    def __init__(self) -> None:
        self.tasks: "queue.SimpleQueue[Optional[_Task]]" = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="ddz_fast-worker", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while True:
            task = self.tasks.get()
            if task is None:
                return
            task.run()


class _Task:
    __slots__ = ("part", "done", "error")

    def __init__(self, part: Callable[[], None]) -> None:
        self.part = part
        self.done = threading.Event()
        self.error: Optional[BaseException] = None

    def run(self) -> None:
        try:
            self.part()
        except BaseException as e:  # handed back to the caller
            self.error = e
        finally:
            self.done.set()


_lock = threading.Lock()
_idle: List[_Worker] = []
_pid = os.getpid()


def _take(n: int) -> List[_Worker]:
    """n idle workers (new ones when too few are idle: concurrent callers
    never wait for each other's parts)."""
    global _pid
    with _lock:
        if os.getpid() != _pid:     # a forked child: the parent's threads are not here
            _idle.clear()
            _pid = os.getpid()
        took = [_idle.pop() for _ in range(min(n, len(_idle)))]
    while len(took) < n:
        took.append(_Worker())
    return took


def _give_back(workers: List[_Worker]) -> None:
    with _lock:
        if os.getpid() == _pid:
            _idle.extend(workers)


def run_parts(parts: Sequence[Callable[[], None]]) -> None:
    """Call every part and wait for all: the first runs on the calling
    thread, the others on persistent worker threads, one each.  The first
    exception raised by a part is re-raised once all have finished."""
    if len(parts) == 1:
        parts[0]()
        return
    workers = _take(len(parts) - 1)
    tasks = [_Task(p) for p in parts[1:]]
    for w, t in zip(workers, tasks):
        w.tasks.put(t)
    first: Optional[BaseException] = None
    try:
        parts[0]()
    except BaseException as e:
        first = e
    for t in tasks:
        t.done.wait()
    _give_back(workers)
    if first is not None:
        raise first
    for t in tasks:
        if t.error is not None:
            raise t.error
