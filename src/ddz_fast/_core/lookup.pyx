# cython: language_level=3
"""Move rows to ids, for action ids and legal-action masks.

:class:`IdFinder` is the interface (row numbers of many rows, masks of row
groups), which :class:`ddz_fast._core.ranks.MoveRanks` implements: it computes an
action space's ids from the cards (the one row -> id method, see
``docs/actions.md``).  :class:`ReusedMask` fills one caller's ``out=`` mask
call after call.
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int64_t, uint64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from .bits cimport row_key

import numpy as np

from .._util.checks import private_array

cnp.import_array()

__all__ = ["IdFinder", "ReusedMask", "pack_rows"]

cdef enum:
    BLOCK = 64     # rows looked up together


def pack_rows(rows):
    """One ``uint64`` key per ``(M, 16)`` move row: count ``i`` in bits ``4i..4i+3``,
    the kind in bits 60..63.  Every byte must be below 16 (true of move rows).

    >>> int(pack_rows(np.array([[1] + [0] * 14 + [1]], dtype=np.uint8))[0]) == 1 | 1 << 60
    True
    """
    given = private_array(rows, "rows")
    if given.dtype == np.bool_ or given.dtype.kind not in "iu":
        raise TypeError(f"rows must be an integer array, not {given.dtype}")
    if given.ndim != 2 or given.shape[1] != 16:
        raise ValueError(f"rows must have shape (M, 16), not {given.shape}")
    if given.dtype != np.uint8 and given.size and (given.min() < 0 or given.max() > 255):
        _raise_byte()                     # (before the cast to bytes wraps them)
    cdef const uint8_t[:, ::1] r = np.ascontiguousarray(given, dtype=np.uint8)
    cdef cnp.ndarray keys = np.empty(r.shape[0], dtype=np.uint64)
    cdef uint64_t* out = <uint64_t*>cnp.PyArray_DATA(keys)
    cdef Py_ssize_t i, bad = -1
    with nogil:
        for i in range(r.shape[0]):
            if row_key(&r[i, 0], &out[i]) < 0:
                bad = i
                break
    if bad >= 0:
        _raise_byte()
    return keys


cdef int _raise_byte() except -1:
    raise ValueError("every byte of a move row must be 0..15 (4 bits of the key)")


cdef cnp.ndarray _output(object out, int ndim, cnp.npy_intp* dims):
    """A cleared bool array of the given shape: ``out`` if given (checked), else a new one."""
    if out is None:
        return cnp.PyArray_ZEROS(ndim, dims, cnp.NPY_BOOL, 0)
    cdef cnp.ndarray arr = _checked_out(out, ndim, dims)
    memset(cnp.PyArray_DATA(arr), 0, <size_t>cnp.PyArray_NBYTES(arr))
    return arr


cdef int _raise_shape(cnp.ndarray arr, int ndim, cnp.npy_intp* dims) except -1:
    # (apart from _checked_out: a generator expression there would make the
    # function allocate its closure on every call)
    shape = tuple([dims[i] for i in range(ndim)])
    raise ValueError(f"out must have shape {shape}, not {(<object>arr).shape}")


cdef cnp.ndarray _checked_out(object out, int ndim, cnp.npy_intp* dims):
    """``out`` checked to be a plain, writeable, C-contiguous bool array of the
    given shape.  A subclass is refused: a masked array (or any subclass
    with its own idea of its contents) would not show what was written."""
    if not cnp.PyArray_Check(out):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    if type(out) is not cnp.ndarray:
        raise TypeError(f"out must be a plain numpy.ndarray, not a {type(out).__name__}")
    cdef cnp.ndarray arr = <cnp.ndarray>out
    if cnp.PyArray_TYPE(arr) != cnp.NPY_BOOL:
        raise TypeError(f"out must have dtype bool, not {arr.dtype}")
    cdef int i
    cdef bint same = cnp.PyArray_NDIM(arr) == ndim
    for i in range(ndim if same else 0):
        same = same and cnp.PyArray_DIMS(arr)[i] == dims[i]
    if not same:
        _raise_shape(arr, ndim, dims)
    if not cnp.PyArray_ISCARRAY(arr):
        raise ValueError("out must be C-contiguous and writeable")
    return arr


cdef cnp.ndarray _row_array(object rows):
    """``rows`` as a C-contiguous ``(m, 16)`` ``uint8`` array.

    Works on the array object itself (no buffer export: a fresh view, such as
    ``MoveList.rows``, would pay for building its buffer description)."""
    cdef cnp.ndarray arr
    if (cnp.PyArray_Check(rows) and cnp.PyArray_TYPE(<cnp.ndarray>rows) == cnp.NPY_UINT8
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>rows)):
        arr = <cnp.ndarray>rows
    elif cnp.PyArray_Check(rows) and cnp.PyArray_TYPE(<cnp.ndarray>rows) != cnp.NPY_UINT8:
        raise TypeError(f"rows must have dtype uint8, not {(<object>rows).dtype}")
    else:
        arr = np.ascontiguousarray(rows, dtype=np.uint8)
    if cnp.PyArray_NDIM(arr) != 2 or cnp.PyArray_DIMS(arr)[1] != 16:
        raise ValueError(f"rows must have shape (m, 16), not {(<object>arr).shape}")
    return arr


cdef class IdFinder:
    """Row number of each move row of a fixed ``(n_rows, 16)`` table; -1 for a
    row not in it.  Subclasses define ``find_rows``."""

    # The fields are declared in _core/lookup.pxd.

    cdef void find_rows(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(m):
            ids[i] = -1

    def find(self, rows):
        """Row numbers of ``rows`` (``(m, 16)`` ``uint8``) as ``int64``; -1 where absent."""
        cdef cnp.ndarray r = _row_array(rows)
        cdef const uint8_t* data = <const uint8_t*>cnp.PyArray_DATA(r)
        cdef cnp.npy_intp m = cnp.PyArray_DIMS(r)[0]
        cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, &m, cnp.NPY_INT64, 0)
        cdef int64_t* ids = <int64_t*>cnp.PyArray_DATA(out)
        with nogil:
            self.find_rows(data, m, ids)
        return out

    def mask(self, rows, out=None):
        """Boolean ``(n_rows,)`` mask, True at the rows found, in a new array or
        in ``out`` (cleared first).  Raises ``KeyError(i)`` when row ``i`` is
        the first not in the table."""
        cdef cnp.ndarray r = _row_array(rows)
        cdef const uint8_t* data = <const uint8_t*>cnp.PyArray_DATA(r)
        cdef Py_ssize_t m = cnp.PyArray_DIMS(r)[0]
        cdef cnp.npy_intp dim = self.n_rows
        cdef cnp.ndarray result = _output(out, 1, &dim)
        cdef uint8_t* flags = <uint8_t*>cnp.PyArray_DATA(result)
        cdef Py_ssize_t missing
        with nogil:
            missing = _mark(self, data, m, flags, NULL)
        if missing >= 0:
            raise KeyError(missing)
        return result

    def masks(self, rows, const int64_t[::1] offsets not None, out=None):
        """Boolean ``(len(offsets) - 1, n_rows)`` masks: row ``k`` is True at the
        rows ``rows[offsets[k]:offsets[k + 1]]``, in a new array or in ``out``
        (cleared first).  Raises ``KeyError(i)`` when row ``i`` is the first
        not in the table."""
        cdef cnp.ndarray r = _row_array(rows)
        cdef const uint8_t* data = <const uint8_t*>cnp.PyArray_DATA(r)
        cdef Py_ssize_t m = cnp.PyArray_DIMS(r)[0]
        cdef Py_ssize_t k, missing = -1
        if offsets.shape[0] < 1 or offsets[0] < 0:
            raise ValueError("offsets do not fit the rows")
        for k in range(offsets.shape[0] - 1):
            if offsets[k + 1] < offsets[k] or offsets[k + 1] > m:
                raise ValueError("offsets do not fit the rows")
        cdef cnp.npy_intp dims[2]
        dims[0] = offsets.shape[0] - 1
        dims[1] = self.n_rows
        cdef cnp.ndarray result = _output(out, 2, dims)
        cdef uint8_t* flags = <uint8_t*>cnp.PyArray_DATA(result)
        with nogil:
            for k in range(dims[0]):
                missing = _mark(self, data + 16 * offsets[k], offsets[k + 1] - offsets[k],
                                flags + k * dims[1], NULL)
                if missing >= 0:
                    missing += offsets[k]
                    break
        if missing >= 0:
            raise KeyError(missing)
        return result


cdef Py_ssize_t _mark(IdFinder table, const uint8_t* rows, Py_ssize_t m, uint8_t* flags,
                      int64_t* seen) noexcept nogil:
    """Set ``flags[id]`` for the id of each of the m rows (and write the ids
    into ``seen`` unless NULL); stop at the first row not in the table and
    return its index (-1: every row was found).  The rows before it are set."""
    cdef int64_t ids[BLOCK]
    cdef Py_ssize_t start, k, stop
    start = 0
    while start < m:
        stop = min(m - start, <Py_ssize_t>BLOCK)
        table.find_rows(rows + 16 * start, stop, ids)
        for k in range(stop):
            if ids[k] < 0:
                return start + k
            flags[ids[k]] = 1
            if seen != NULL:
                seen[start + k] = ids[k]
        start += stop
    return -1


cdef int64_t _copy_marks(void* ctx, const uint8_t* rows, Py_ssize_t m, int64_t* ids,
                         uint8_t* flags) noexcept nogil:
    # mark_fn of ids given (ctx; all >= 0): copied and set
    cdef const int64_t* given = <const int64_t*>ctx
    cdef Py_ssize_t i
    for i in range(m):
        ids[i] = given[i]
        flags[given[i]] = 1
    return 0


# Who wrote each out= array last, shared by every ReusedMask: a slot per
# hash of the array's memory holds that memory and the stamp of the write
# (a number no other write gets).  Several objects may fill one array in
# turn (two ActionSpaces of the same rules); a ReusedMask clears only its
# own ids when the slot still names its own last write, and clears the
# whole array otherwise, so another writer's ids never stay set.  Two
# arrays whose memory shares a slot evict each other: a full clear, never a
# stale entry.
cdef enum:
    WRITER_SLOTS = 256


cdef struct Writer:
    const uint8_t* data
    uint64_t stamp


cdef Writer _WRITERS[WRITER_SLOTS]
cdef uint64_t _LAST_STAMP = 0
cdef ddz_mutex _WRITERS_LOCK      # (guards both; taken inside a ReusedMask's own lock)


cdef inline Py_ssize_t _writer_slot(const uint8_t* data) noexcept nogil:
    # Fibonacci hashing of the address; the top 8 bits pick one of 256 slots
    return <Py_ssize_t>(((<uint64_t><uintptr_t>data) * <uint64_t>0x9E3779B97F4A7C15ULL) >> 56)


cdef inline bint _take_over(uint64_t* stamp, const uint8_t* data) noexcept:
    """Record a new write into `data` by the writer whose last write has the
    stamp `stamp[0]` (given the new one); was that writer the last to write
    there (so that its own record of the ids set is the whole truth)?"""
    global _LAST_STAMP
    cdef Writer* w = &_WRITERS[_writer_slot(data)]
    cdef bint own
    ddz_mutex_lock(&_WRITERS_LOCK)
    own = w.data == data and w.stamp == stamp[0]
    _LAST_STAMP += 1
    stamp[0] = _LAST_STAMP
    w.data = data
    w.stamp = _LAST_STAMP
    ddz_mutex_unlock(&_WRITERS_LOCK)
    return own


@cython.final
cdef class ReusedMask:
    """Fills one caller's ``out=`` mask array call after call, clearing only
    the entries the previous call set (instead of the whole array).

    It remembers the array it wrote last (a reference to it) and the ids it
    set.  Given that same array again, and when no other ReusedMask wrote
    the array since (``_WRITERS``), it clears just those ids, so the array
    must still hold what the previous call left there: an entry the caller
    set True meanwhile is not cleared.  Any other array is cleared in full
    first.  Calls from several threads are serialised by a lock.
    """

    # The fields are declared in _core/lookup.pxd.

    def __cinit__(self, IdFinder table not None):
        self.table = table
        self.last = None
        self.last_data = NULL
        self.ids = NULL
        self.n_ids = 0
        self.cap = 0
        self.stamp = 0                  # (no write yet: no slot holds stamp 0 with memory)

    def __dealloc__(self):
        free(self.ids)

    cdef object fill_ids(self, const int64_t* ids, Py_ssize_t m, object out):
        cdef Py_ssize_t bad
        return self.fill_marked(_copy_marks, <void*>ids, NULL, m, out, &bad)

    cdef object fill_marked(self, mark_fn mark, void* ctx, const uint8_t* rows, Py_ssize_t m,
                            object out, Py_ssize_t* bad):
        cdef cnp.npy_intp dim = self.table.n_rows
        cdef cnp.ndarray arr = _checked_out(out, 1, &dim)
        cdef uint8_t* flags = <uint8_t*>cnp.PyArray_DATA(arr)
        cdef int64_t* grown
        cdef int64_t* kept
        cdef int64_t seen
        cdef object previous
        cdef Py_ssize_t i
        bad[0] = -1
        # (the guarded code runs no Python code and keeps the GIL: ddz_mutex)
        ddz_mutex_lock(&self.lock)
        try:
            previous = self.last        # (released after the lock: see below)
            if m > self.cap:
                # (before anything is cleared: out stays as it was on failure)
                grown = <int64_t*>malloc(m * sizeof(int64_t))
                if grown == NULL:
                    raise MemoryError()
                if self.n_ids:
                    memcpy(grown, self.ids, self.n_ids * sizeof(int64_t))
                free(self.ids)
                self.ids = grown
                self.cap = m
            kept = self.ids             # (a local: the byte stores below cannot change it)
            if _take_over(&self.stamp, flags) and previous is arr and self.last_data == flags:
                for i in range(self.n_ids):
                    flags[kept[i]] = 0
            else:
                memset(flags, 0, <size_t>dim)
            seen = mark(ctx, rows, m, kept, flags)
            self.n_ids = m
            self.last = arr
            self.last_data = flags
            if seen < 0:
                for i in range(m):
                    if 0 <= kept[i] < dim:
                        flags[kept[i]] = 0
                    elif bad[0] < 0:
                        bad[0] = i
                self.n_ids = 0
        finally:
            ddz_mutex_unlock(&self.lock)
        # `previous` is dropped here, outside the lock: freeing an array can
        # run arbitrary code, which must not find the lock held.
        previous = None
        return None if bad[0] >= 0 else arr

    def fill(self, rows, out):
        """Write into ``out`` (a plain, writeable, C-contiguous ``(n_rows,)``
        bool array) the mask of the table rows in ``rows``; return ``out``.
        Raises ``KeyError(i)`` when row ``i`` is the first not in the table
        (``out`` is then left as it was)."""
        cdef cnp.ndarray r = _row_array(rows)
        cdef const uint8_t* data = <const uint8_t*>cnp.PyArray_DATA(r)
        cdef cnp.npy_intp m = cnp.PyArray_DIMS(r)[0]
        cdef cnp.npy_intp dim = self.table.n_rows
        _checked_out(out, 1, &dim)
        cdef cnp.ndarray found = cnp.PyArray_EMPTY(1, &m, cnp.NPY_INT64, 0)
        cdef int64_t* ids = <int64_t*>cnp.PyArray_DATA(found)
        cdef Py_ssize_t i
        with nogil:
            self.table.find_rows(data, m, ids)
        for i in range(m):
            if ids[i] < 0:
                raise KeyError(i)
        return self.fill_ids(ids, m, out)
