# C-level access to RowTable (move row -> row number) for other compiled
# modules: the batched game looks up the action id of each legal move row
# without the GIL.
from libc.stdint cimport uint8_t, uint64_t, int64_t


cdef class RowTable:
    # Slot s holds a key in _slots[2s] (_EMPTY if free) and its row number in
    # _slots[2s + 1]: one cache line per probe.  Region n (moves of n cards)
    # is slots _offset[n] .. _offset[n] + _region_mask[n].
    cdef uint64_t[::1] _slots
    cdef Py_ssize_t _offset[256]
    cdef uint64_t _region_mask[256]
    cdef int _shift[256]
    cdef readonly Py_ssize_t n_rows
    cdef readonly bint ignore_kind

    cdef uint64_t _home(self, uint64_t key, int n) noexcept nogil
    # The row number of a 16-byte move row; -1 when it is not in the table.
    cdef int64_t find_row(self, const uint8_t* row) noexcept nogil
    # The row numbers of m consecutive rows into ids (-1 where absent); the
    # same answers as find_row, with the table's cache lines fetched ahead.
    cdef void find_rows(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil
