"""Running the parts of a batch on threads, shared by the batch move calls
and the compiled playouts (each part releases the GIL while it runs).

The worker threads persist between calls: starting a thread costs tens of
microseconds, more than a whole batch of a few hundred hands.  At most
``KEEP_IDLE`` of them wait between calls; those a larger call started end
before it returns (a thread's stack is megabytes of address space).
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Callable, List, Optional, Sequence

__all__ = ["run_parts", "KEEP_IDLE"]

# The idle workers kept between calls: one a core (more parts than cores
# gain nothing), and at least 8, what a few concurrent callers need.
KEEP_IDLE = max(8, os.cpu_count() or 1)


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
    """Up to n idle workers (new ones when too few are idle: concurrent
    callers never wait for each other's parts).  Fewer when the OS refuses
    a new thread (address-space or pid limits): the caller runs the parts
    left over itself."""
    global _pid
    with _lock:
        if os.getpid() != _pid:     # a forked child: the parent's threads are not here
            _idle.clear()
            _pid = os.getpid()
        took = [_idle.pop() for _ in range(min(n, len(_idle)))]
    while len(took) < n:
        try:
            took.append(_Worker())
        except (RuntimeError, MemoryError, OSError):   # "can't start new thread"
            break
    return took


def _give_back(workers: List[_Worker]) -> None:
    """Keep up to KEEP_IDLE idle workers; end the others and wait for them
    (they are idle: each ends at once)."""
    with _lock:
        if os.getpid() != _pid:
            return
        keep = max(0, min(len(workers), KEEP_IDLE - len(_idle)))
        _idle.extend(workers[:keep])
    ending = workers[keep:]
    for w in ending:
        w.tasks.put(None)
    for w in ending:
        w.thread.join()


def _signalled(e: BaseException) -> BaseException:
    """The exception a signal handler raised in ``Event.wait``.  When it
    arrives while CPython's ``Condition.wait`` takes its lock back, the
    lock is not held and leaving the ``with`` raises RuntimeError("release
    unlocked lock") with the handler's exception as its context: that is the
    interrupt to re-raise (the lock is left free, so the next wait works)."""
    if isinstance(e, RuntimeError) and "unlocked lock" in str(e) and e.__context__ is not None:
        return e.__context__
    return e


def run_parts(parts: Sequence[Callable[[], None]], cancel: Optional[Callable[[], None]] = None) -> None:
    """Call every part and wait for all: the first runs on the calling
    thread, the others on persistent worker threads, one each (when threads
    cannot be started, the calling thread also runs the parts that got
    none).  The first exception raised by a part is re-raised once all have
    finished: never before, since the parts write into the caller's buffers,
    which may be freed as soon as this returns or raises.  ``cancel``: called
    when a part on the calling thread raised or the wait was interrupted
    (Ctrl-C), to make the parts on the workers stop early."""
    if len(parts) == 1:
        parts[0]()
        return
    workers = _take(len(parts) - 1)
    dispatched = [_Task(p) for p in parts[1:1 + len(workers)]]
    for w, t in zip(workers, dispatched):
        w.tasks.put(t)
    here = [_Task(p) for p in [parts[0], *parts[1 + len(workers):]]]
    for t in here:
        t.run()
        if t.error is not None:
            if cancel is not None:
                cancel()
            break
    # Wait for every dispatched part, even through KeyboardInterrupt (a
    # signal arrives in Event.wait on the main thread): the interrupt is
    # raised once no worker can still write.
    interrupted: Optional[BaseException] = None
    for t in dispatched:
        while not t.done.is_set():
            try:
                t.done.wait()
            except BaseException as e:
                if cancel is not None:
                    cancel()
                interrupted = interrupted or _signalled(e)
    _give_back(workers)
    if interrupted is not None:
        raise interrupted
    for t in here + dispatched:
        if t.error is not None:
            raise t.error
