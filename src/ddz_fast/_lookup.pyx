# cython: language_level=3
"""A hash table from move rows to ids, for action ids and legal-action masks.

A move row is 16 bytes (15 counts, then the kind), each below 16, so it packs
into one 64-bit key: byte ``j`` in bits ``4j..4j+3``.  :class:`RowTable` maps
the keys of a fixed table of rows to their row numbers (open addressing,
linear probing, a table at most half full); with ``ignore_kind`` the kind byte
is left out of the key, so every reading of the same cards finds the same id.
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint64_t, int64_t
from libc.string cimport memset

from ._kernels cimport pack_row, key_hash

import numpy as np

cnp.import_array()

__all__ = ["RowTable"]

cdef uint64_t _EMPTY = 0xFFFFFFFFFFFFFFFF  # above every packed key (kind <= 15)
cdef uint64_t _CARDS = 0x0FFFFFFFFFFFFFFF  # the key bits of the 15 counts


cdef inline int _n_cards(const uint8_t* row) noexcept nogil:
    cdef int n = 0
    cdef int j
    for j in range(15):
        n += row[j]
    return n


cdef cnp.ndarray _output(object out, int ndim, cnp.npy_intp* dims):
    """A cleared bool array of the given shape: ``out`` if given (checked), else a new one."""
    if out is None:
        return cnp.PyArray_ZEROS(ndim, dims, cnp.NPY_BOOL, 0)
    if not cnp.PyArray_Check(out):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    cdef cnp.ndarray arr = <cnp.ndarray>out
    if cnp.PyArray_TYPE(arr) != cnp.NPY_BOOL:
        raise TypeError(f"out must have dtype bool, not {arr.dtype}")
    cdef int i
    cdef bint same = cnp.PyArray_NDIM(arr) == ndim
    for i in range(ndim if same else 0):
        same = same and cnp.PyArray_DIMS(arr)[i] == dims[i]
    if not same:
        shape = tuple(dims[i] for i in range(ndim))
        raise ValueError(f"out must have shape {shape}, not {(<object>arr).shape}")
    if not cnp.PyArray_ISCARRAY(arr):
        raise ValueError("out must be C-contiguous and writeable")
    memset(cnp.PyArray_DATA(arr), 0, <size_t>cnp.PyArray_NBYTES(arr))
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


@cython.final
cdef class RowTable:
    """Row number of each row of a fixed ``(n, 16)`` ``uint8`` table.

    The hash table is split into one region per number of cards (a region a
    power of two at most half full), so that the few thousand short moves
    (solos, pairs, trios, chains...) that make most of a hand's moves share a
    small part of the table.
    """

    # The fields are declared in _lookup.pxd.

    def __init__(self, const uint8_t[:, ::1] rows not None, bint ignore_kind=False):
        if rows.shape[1] != 16:
            raise ValueError(f"rows must have shape (n, 16), not ({rows.shape[0]}, {rows.shape[1]})")
        cdef Py_ssize_t per_size[256]
        cdef Py_ssize_t i, total = 0
        cdef int n, bits
        for n in range(256):
            per_size[n] = 0
        for i in range(rows.shape[0]):
            n = _n_cards(&rows[i, 0])
            if n > 255:
                raise ValueError(f"row {i} is not a move row (its counts add up to {n})")
            per_size[n] += 1
        for n in range(256):
            bits = 0
            while (<Py_ssize_t>1 << bits) < 2 * per_size[n]:
                bits += 1
            self._offset[n] = total
            self._region_mask[n] = (<uint64_t>1 << bits) - 1
            self._shift[n] = 64 - bits
            total += <Py_ssize_t>1 << bits
        self._slots = np.full(2 * total, _EMPTY, dtype=np.uint64)
        self.n_rows = rows.shape[0]
        self.ignore_kind = ignore_kind
        cdef uint64_t key, slot
        for i in range(rows.shape[0]):
            n = _n_cards(&rows[i, 0])
            key = self._key(&rows[i, 0])
            slot = self._home(key, n)
            while self._slots[2 * (self._offset[n] + slot)] not in (_EMPTY, key):
                slot = (slot + 1) & self._region_mask[n]
            if self._slots[2 * (self._offset[n] + slot)] == _EMPTY:  # a repeated key keeps its first row
                self._slots[2 * (self._offset[n] + slot)] = key
                self._slots[2 * (self._offset[n] + slot) + 1] = <uint64_t>i

    cdef uint64_t _key(self, const uint8_t* row) noexcept nogil:
        cdef uint64_t key = pack_row(row)
        return key & _CARDS if self.ignore_kind else key

    cdef uint64_t _home(self, uint64_t key, int n) noexcept nogil:
        # A region of one slot has shift 64: no bits of the hash.
        return 0 if self._shift[n] >= 64 else key_hash(key) >> self._shift[n]

    cdef int64_t find_row(self, const uint8_t* row) noexcept nogil:
        cdef int n = _n_cards(row)
        if n > 255:  # not a move row (bytes of 16 or more): in no region
            return -1
        cdef uint64_t key = self._key(row)
        cdef uint64_t slot = self._home(key, n)
        cdef const uint64_t* region = &self._slots[2 * self._offset[n]]
        while True:
            if region[2 * slot] == key:
                return <int64_t>region[2 * slot + 1]
            if region[2 * slot] == _EMPTY:
                return -1
            slot = (slot + 1) & self._region_mask[n]

    def find(self, rows):
        """Row numbers of ``rows`` (``(m, 16)`` ``uint8``) as ``int64``; -1 where absent."""
        cdef cnp.ndarray r = _row_array(rows)
        cdef const uint8_t* data = <const uint8_t*>cnp.PyArray_DATA(r)
        cdef cnp.npy_intp m = cnp.PyArray_DIMS(r)[0]
        cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, &m, cnp.NPY_INT64, 0)
        cdef int64_t* ids = <int64_t*>cnp.PyArray_DATA(out)
        cdef Py_ssize_t i
        with nogil:
            for i in range(m):
                ids[i] = self.find_row(data + 16 * i)
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
        cdef Py_ssize_t i, missing = -1
        cdef int64_t found
        with nogil:
            for i in range(m):
                found = self.find_row(data + 16 * i)
                if found < 0:
                    missing = i
                    break
                flags[found] = 1
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
        cdef Py_ssize_t k, i, missing = -1
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
        cdef int64_t found
        with nogil:
            for k in range(dims[0]):
                for i in range(offsets[k], offsets[k + 1]):
                    found = self.find_row(data + 16 * i)
                    if found < 0:
                        missing = i
                        break
                    flags[k * dims[1] + found] = 1
                if missing >= 0:
                    break
        if missing >= 0:
            raise KeyError(missing)
        return result
