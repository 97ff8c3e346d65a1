# cython: language_level=3
"""Stopping long compiled calls (``Game.rollout``, ``play_random_games``,
``Game.move_values``, the solver) when a signal handler raises, e.g. Ctrl-C's
KeyboardInterrupt.

Python runs signal handlers only on the main thread, and only between
bytecodes: a call that runs for minutes without the GIL would hold Ctrl-C
back until it ends.  So the part of a call that runs on the main thread
polls (:c:func:`stop_requested`): every ``POLL_SECONDS`` it takes the GIL
and runs the handlers.  An exception from a handler sets the call's shared
flag, which the parts on worker threads read between units of work, and is
raised by the caller once every part has stopped (:meth:`Stop.check`).
"""
from cpython.exc cimport PyErr_CheckSignals

import threading

__all__ = ["Stop", "POLL_SECONDS"]

# How often the main thread runs the signal handlers during a long call:
# often enough for Ctrl-C to feel immediate, rarely enough that taking the
# GIL (up to the interpreter's switch interval when another thread holds
# it) costs nothing measurable.
POLL_SECONDS = 0.02
cdef double _POLL = POLL_SECONDS

cdef enum:
    CLOCK_EVERY = 15            # calls between clock reads (a mask)


cdef class Stop:
    """The stop of one long compiled call, shared by its parts: set when a
    signal handler raised on the calling thread (the main thread), or by
    :meth:`cancel` (e.g. from ``run_parts`` when the wait for the workers is
    interrupted)."""

    def __cinit__(self):
        cdef unsigned long me = PyThread_get_thread_ident()
        # (asked each time: after a fork the forking thread is the main one)
        cdef unsigned long main = threading.main_thread().ident
        self.c.flag = 0
        self.c.calls = 0
        self.c.owner = me if me == main else 0
        self.c.next_poll = ddz_now() + _POLL
        self.c.stop = <void*>self
        self.error = None

    def cancel(self):
        """Stop every part of the call at its next check."""
        ddz_store(&self.c.flag, 1)

    @property
    def stopped(self):
        """True once the call was told to stop."""
        return bool(ddz_load(&self.c.flag))

    cdef int check(self) except -1:
        # On the calling thread, after the parts: re-raise what a signal
        # handler raised during the call (its results are then incomplete).
        if self.error is not None and PyThread_get_thread_ident() == self.c.owner:
            e, self.error = self.error, None
            raise e
        return 0


cdef bint _run_handlers(Interrupt* it) noexcept with gil:
    try:
        PyErr_CheckSignals()
    except BaseException as e:
        (<Stop>it.stop).error = e
        ddz_store(&it.flag, 1)
        return True
    it.next_poll = ddz_now() + _POLL
    return False


cdef bint stop_requested(Interrupt* it) noexcept nogil:
    if ddz_load(&it.flag):
        return True
    if it.owner == 0 or it.owner != PyThread_get_thread_ident():
        return False
    it.calls += 1
    if (it.calls & CLOCK_EVERY) != 0 or ddz_now() < it.next_poll:
        return False
    return _run_handlers(it)
