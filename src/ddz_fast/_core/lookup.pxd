# Move row -> row number of a fixed table, at C level for other compiled
# modules.  IdFinder is the interface, implemented by the action ids'
# combinatorial ranking (_ranks.MoveRanks).
cimport cython
from libc.stdint cimport uint8_t, int64_t, uint64_t


cdef class IdFinder:
    cdef readonly Py_ssize_t n_rows
    # The row numbers of m consecutive 16-byte rows into ids (-1 where a
    # row is not in the table).  Any bytes are safe to pass.
    cdef void find_rows(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil


# Writes the ids of m rows into ids and sets their entries of flags; returns
# -1 when some row has none (its entry of ids is negative, and nothing is set
# for it), else 0.  ctx: the caller's.
ctypedef int64_t (*mark_fn)(void* ctx, const uint8_t* rows, Py_ssize_t m, int64_t* ids,
                            uint8_t* flags) noexcept nogil


cdef extern from *:
    """
    /* A lock for code that runs no Python code and never releases the GIL:
       with a GIL, the GIL already serialises it (a lock of the threading
       module was a tenth of an out= mask call on Python < 3.13); without
       one, a PyMutex.  Zero-initialised is unlocked. */
    #ifdef Py_GIL_DISABLED
    typedef PyMutex ddz_mutex;
    #define ddz_mutex_lock(m) PyMutex_Lock(m)
    #define ddz_mutex_unlock(m) PyMutex_Unlock(m)
    #else
    typedef char ddz_mutex;
    #define ddz_mutex_lock(m) ((void)(m))
    #define ddz_mutex_unlock(m) ((void)(m))
    #endif
    """
    ctypedef struct ddz_mutex:
        pass
    void ddz_mutex_lock(ddz_mutex* m)
    void ddz_mutex_unlock(ddz_mutex* m)


cdef class ReusedMask:
    # Fills one caller's out= mask array call after call (see _core/lookup.pyx).
    cdef IdFinder table
    cdef object last            # the array written last (None: none yet)
    cdef uint8_t* last_data     # its memory when written
    cdef int64_t* ids           # the ids set in it
    cdef Py_ssize_t n_ids, cap
    cdef uint64_t stamp         # the number of its last write (see _core/lookup.pyx, _WRITERS)
    cdef ddz_mutex lock         # serialises calls from several threads (see ddz_mutex)
    # Write the mask of m ids (all >= 0, below the table's n_rows) into
    # `out`, clearing first what the previous call set when `out` is the
    # array it wrote and no other ReusedMask wrote it since (else all of
    # it); returns out.
    cdef object fill_ids(self, const int64_t* ids, Py_ssize_t m, object out)
    # The same with the ids made by `mark` as it sets them (one pass over the
    # rows); None when some row has no id: out is then all False, and
    # bad[0] the first such row.
    cdef object fill_marked(self, mark_fn mark, void* ctx, const uint8_t* rows, Py_ssize_t m,
                            object out, Py_ssize_t* bad)
