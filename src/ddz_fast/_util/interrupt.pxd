# Stopping a long compiled call (interrupt.pyx): the clock, relaxed atomic
# flags shared by the threads of one call, and the Stop of one call.

cdef extern from *:
    """
    #include <time.h>
    #include "pythread.h"
    #if defined(_WIN32)
    #include <windows.h>
    static double ddz_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    static int ddz_load(volatile int* p) { return *p; }
    static void ddz_store(volatile int* p, int v) { *p = v; }
    #else
    static double ddz_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    static int ddz_load(volatile int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static void ddz_store(volatile int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    #endif
    """
    # seconds on a monotonic clock
    double ddz_now() noexcept nogil
    int ddz_load(volatile int* p) noexcept nogil
    void ddz_store(volatile int* p, int v) noexcept nogil
    unsigned long PyThread_get_thread_ident() noexcept nogil


cdef struct Interrupt:
    int flag                    # set: every part of the call stops (read with ddz_load)
    unsigned long owner         # the thread that polls for signals (the main thread), or 0
    unsigned int calls          # the owner's calls of stop_requested since the last clock read
    double next_poll            # when the owner next runs the signal handlers
    void* stop                  # the Stop holding this


cdef class Stop:
    cdef Interrupt c
    cdef object error           # what a signal handler raised, for the owner to re-raise
    cdef int check(self) except -1


# For the loops of a call without the GIL, between units of work (a game, a
# few hundred nodes): True when the call must stop.  On the main thread it
# runs Python's signal handlers every POLL_SECONDS (taking the GIL then).
cdef bint stop_requested(Interrupt* it) noexcept nogil
