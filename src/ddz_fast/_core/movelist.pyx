# cython: language_level=3
"""The move containers.

:class:`MoveList` (the moves of one hand) and :class:`MoveBatch` (the moves of
many hands) are both a :class:`MoveRows`: one read-only block of 16-byte
kernel rows (15 counts, then the kind code) with the same NumPy views
(``rows``, ``counts``, ``kinds``, ``ranks``, ``lengths``, ``n_cards``).  A
``MoveBatch[i]`` is a ``MoveList`` viewing the batch's own rows (no copy).
"""
cimport cython
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_CheckExact
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport PyObject, Py_INCREF
from cpython.object cimport PyTypeObject
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memcmp

import operator

import numpy as np

from .._util.checks import frozen
from .. import pickling as _pickling

from .move cimport Move, row_move, wild_row_move, wild_mask, wild_ranks_of
from .kernels cimport RulesC, MoveInfo, Out, ROW, KIND_BYTE, K_ROCKET, row_info, valid_move_c
from .wild cimport WROW, W_PHYS, W_CLASS
from .bits cimport pack_row, key_hash, CARD_KEY_BITS
from .registry cimport rules_id, rules_c, rules_of

cnp.import_array()

__all__ = ["MoveRows", "MoveList", "MoveBatch"]


# ---------------------------------------------------------------------------
# The shared base
# ---------------------------------------------------------------------------

cdef object _EMPTY_ROWS = frozen(np.zeros((0, ROW), dtype=np.uint8))
cdef object _EMPTY_WILD_ROWS = frozen(np.zeros((0, WROW), dtype=np.uint8))


cdef inline Move _move_at(MoveRows r, Py_ssize_t i):
    if r.wmask:
        return wild_row_move(r.data + i * WROW, r.cid, r.wmask)
    return row_move(r.data + i * ROW, r.cid)


@cython.no_gc
cdef class MoveRows:
    """A read-only block of move rows (16 bytes a move: 15 counts and the
    kind code): the base of :class:`MoveList` and :class:`MoveBatch`, which
    share its NumPy views.  ``rows``, ``counts`` and ``kinds`` view the rows
    themselves; ``ranks``, ``lengths`` and ``n_cards`` are computed once.
    """

    def __cinit__(self):
        self.data = NULL
        self.n = 0
        self.cid = -1
        self.stride = ROW
        self.wmask = 0

    # No __dealloc__: the memory of the rows is the object's own or an
    # owner's (_owner), so freeing a container is freeing its fields (a
    # __dealloc__ costs a save and restore of the error state on every free).

    @property
    def rows(self):
        """(M, 16) uint8 read-only view of the rows: 15 counts, then the kind
        code.  Wild-card moves have (M, 32) rows: the represented counts and
        the kind, then the cards played and the bomb class (docs/moves.md)."""
        cdef cnp.npy_intp dims[2]
        dims[0] = self.n
        dims[1] = self.stride
        if self.n == 0:
            arr = _EMPTY_ROWS if self.stride == ROW else _EMPTY_WILD_ROWS
        else:
            arr = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_UINT8, self.data)
            cnp.set_array_base(arr, self)
        cnp.PyArray_CLEARFLAGS(<cnp.ndarray>arr, cnp.NPY_ARRAY_WRITEABLE)   # (in C: no attribute call)
        return arr

    @property
    def counts(self):
        """(M, 15) uint8 view: the cards each move plays."""
        return self.rows[:, W_PHYS:W_PHYS + 15] if self.wmask else self.rows[:, :15]

    @property
    def represents(self):
        """(M, 15) uint8 view: the counts each move is read as (``counts``
        but for wild cards standing in for other ranks)."""
        return self.rows[:, :15]

    @property
    def bomb_classes(self):
        """(M,) uint8: each move's bomb class code, 0 none, 1 soft, 2 hard,
        3 wild, 4 rocket (``Move.bomb_class`` in that order)."""
        if self.wmask:
            return self.rows[:, W_CLASS]
        kinds = self.kinds
        return _read_only(np.where(kinds == 13, 2, np.where(kinds == 14, 4, 0)).astype(np.uint8))

    @property
    def kinds(self):
        """(M,) uint8 view: the kind code (``Kind`` value) of each move."""
        return self.rows[:, 15]

    cdef object _infos(self):
        cdef cnp.ndarray[cnp.int8_t, ndim=2] info
        cdef Py_ssize_t i
        cdef MoveInfo mi
        if self._info is None:
            info = np.empty((self.n, 3), dtype=np.int8)
            for i in range(self.n):
                row_info(self.data + i * self.stride, &mi)
                info[i, 0] = mi.rank
                info[i, 1] = mi.length
                info[i, 2] = mi.ncards
            self._info = frozen(info)   # (an array of its own could be made writeable again)
        return self._info

    @property
    def ranks(self):
        """(M,) int8: rank of each move (highest reading; -1 for PASS)."""
        return self._infos()[:, 0]

    @property
    def lengths(self):
        """(M,) int8: number of primal groups of each move (0 for PASS)."""
        return self._infos()[:, 1]

    @property
    def n_cards(self):
        """(M,) int8: number of cards of each move."""
        return self._infos()[:, 2]


# ---------------------------------------------------------------------------
# MoveList
# ---------------------------------------------------------------------------

@cython.no_gc
@cython.final
cdef class MoveList(MoveRows):
    """The legal moves of one hand: a read-only sequence of :class:`Move`
    backed by one compact buffer (16 bytes a move: 15 counts and the kind).

    Indexing and iteration make ``Move`` objects on demand; the array
    properties (``rows``, ``counts``, ``kinds``, ``ranks``, ``lengths``,
    ``n_cards``, from :class:`MoveRows`) give NumPy views or arrays without
    making any.  A MoveList equals another MoveList or a list of moves with
    the same moves in the same order.
    """

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        cdef Py_ssize_t i
        if isinstance(index, slice):
            return [self[j] for j in range(*index.indices(self.n))]
        try:
            i = index
        except OverflowError:
            raise IndexError("move index out of range") from None
        if i < 0:
            i += self.n
        if i < 0 or i >= self.n:
            raise IndexError("move index out of range")
        return _move_at(self, i)

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            yield _move_at(self, i)

    def __reversed__(self):
        cdef Py_ssize_t i
        for i in range(self.n - 1, -1, -1):
            yield _move_at(self, i)

    cdef Py_ssize_t _find(self, Move m):
        cdef Py_ssize_t i
        cdef unsigned char* row
        for i in range(self.n):
            row = self.data + i * self.stride
            if _row_is(self, row, m):
                return i
        return -1

    def __contains__(self, move):
        return isinstance(move, Move) and self._find(<Move>move) >= 0

    def index(self, move):
        """Position of a move in the list; ValueError if absent."""
        cdef Py_ssize_t i = self._find(move) if isinstance(move, Move) else -1
        if i < 0:
            raise ValueError(f"{move!r} is not in the move list")
        return i

    def count(self, move):
        return 1 if move in self else 0

    def __eq__(self, other):
        cdef MoveList o
        cdef Py_ssize_t i
        cdef Move m
        if isinstance(other, MoveList):
            o = <MoveList>other
            return self.n == o.n and self.stride == o.stride and (
                self.n == 0 or memcmp(self.data, o.data, self.n * self.stride) == 0)
        if isinstance(other, (list, tuple)):
            if len(other) != self.n:
                return False
            for i in range(self.n):
                x = other[i]
                if not isinstance(x, Move):
                    return False
                m = <Move>x
                if not _row_is(self, self.data + i * self.stride, m):
                    return False
            return True
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __repr__(self):
        cdef Py_ssize_t i
        shown = ", ".join(str(self[i]) for i in range(min(self.n, 8)))
        more = f", ... ({self.n} moves)" if self.n > 8 else ""
        return f"MoveList([{shown}{more}])"

    def card_lists(self, values=None, *, bint unique=False):
        """Each move as a list of card labels: ``values[r]`` repeated once per
        card of rank ``r`` (ranks ascending; PASS is ``[]``).

        ``values`` is a sequence of 15 labels, one per rank 3..A, 2, low
        joker, high joker (default: the rank indices 0..14), for example
        DouZero's ints ``(3, ..., 14, 17, 20, 30)``.  With ``unique=True`` a
        move whose cards equal an earlier move's (the same cards read as two
        kinds) is left out.  Fresh lists each call.
        """
        cdef tuple vals = tuple(range(15)) if values is None else tuple(values)
        if len(vals) != 15:
            raise ValueError(f"values must hold 15 labels (one per rank), not {len(vals)}")
        cdef list out = []
        cdef list cards
        cdef Py_ssize_t i, j, total, slot, mask = 0
        cdef int r, _copy
        cdef PyObject* item
        cdef unsigned long long key
        cdef unsigned long long* seen = NULL
        cdef const unsigned char* row
        if unique and self.n:
            mask = 1
            while mask < 2 * self.n:
                mask <<= 1
            seen = <unsigned long long*>calloc(mask, sizeof(unsigned long long))
            if seen == NULL:
                raise MemoryError()
            mask -= 1
        try:
            for i in range(self.n):
                row = self.data + i * self.stride
                if self.wmask:
                    row = row + W_PHYS     # (the cards played; no kind byte follows them)
                if seen != NULL:
                    # The cards of the row as one exact key (the kind left
                    # out); +1 keeps 0 free as the empty-slot marker.
                    key = (pack_row(row) & ((1ULL << CARD_KEY_BITS) - 1)) + 1
                    slot = <Py_ssize_t>(key_hash(key) >> 40) & mask
                    while seen[slot] != 0 and seen[slot] != key:
                        slot = (slot + 1) & mask
                    if seen[slot] == key:
                        continue
                    seen[slot] = key
                total = 0
                for r in range(15):
                    total += row[r]
                cards = PyList_New(total)
                j = 0
                for r in range(15):
                    item = PyTuple_GET_ITEM(vals, r)
                    for _copy in range(row[r]):
                        Py_INCREF(<object>item)
                        PyList_SET_ITEM(cards, j, <object>item)
                        j += 1
                out.append(cards)
        finally:
            free(seen)
        return out

    def tolist(self):
        """The moves as a list of Move."""
        return list(self)

    def __reduce__(self):
        # Registry ids are local to a process: pickle the Rules themselves.
        if self.wmask:
            return (_pickling.load_wild_move_list,
                    ((_pickling.FORMAT, list(self), rules_of(self.cid),
                      wild_ranks_of(self.wmask)),))
        return (_pickling.load_move_list,
                ((_pickling.FORMAT, bytes(self.data[:self.n * ROW]) if self.n else b"", rules_of(self.cid)),))


# A free list of MoveList objects: most calls make one and drop it soon,
# and the allocator's malloc and free are a large part of a small call.
# Cython keeps free lists only for types without a base type, so MoveList
# (final: its size is fixed) gets its own allocation slots.  Only with the
# GIL: the list is the interpreter's (none in a free-threaded build).
cdef extern from *:
    """
    #define DDZ_ML_FREE 64
    static PyObject* ddz_ml_free[DDZ_ML_FREE];
    static int ddz_ml_nfree = 0;
    static PyObject* ddz_ml_alloc(PyTypeObject* t, Py_ssize_t nitems) {
        if (nitems == 0 && ddz_ml_nfree > 0) {
            /* (no memset: tp_new and __cinit__ write every field of a
               MoveList, and its inline rows are read only up to n) */
            return PyObject_INIT(ddz_ml_free[--ddz_ml_nfree], t);
        }
        return PyType_GenericAlloc(t, nitems);
    }
    static void ddz_ml_release(void* p) {
        if (ddz_ml_nfree < DDZ_ML_FREE)
            ddz_ml_free[ddz_ml_nfree++] = (PyObject*)p;
        else
            PyObject_Free(p);
    }
    static void ddz_ml_install(PyTypeObject* t) {
    #ifndef Py_GIL_DISABLED
        if (t->tp_alloc == PyType_GenericAlloc && t->tp_free == PyObject_Free) {
            t->tp_alloc = ddz_ml_alloc;
            t->tp_free = ddz_ml_release;
        }
    #else
        (void)t;
    #endif
    }
    """
    void _use_free_list "ddz_ml_install"(PyTypeObject* t)


@cython.no_gc
@cython.final
cdef class _RowBlock:
    # A malloc'd block of rows, freed with this object: the owner of the
    # rows of a MoveList that took over a kernel's grown buffer.
    cdef unsigned char* data

    def __dealloc__(self):
        free(self.data)


cdef int _hold_copy(MoveList ml, const unsigned char* rows, Py_ssize_t n, Py_ssize_t readable) except -1:
    # ml's rows: a copy of the n rows at `rows` (readable: how many rows
    # there may be read), in the list itself when they fit, else in a bytes
    # object of exactly their size (a new one: never one of the
    # interpreter's shared ones, which are at most one byte).
    cdef object block
    if n <= INLINE_ROWS:
        ml.data = ml.inline_rows
        # (a copy of a constant size is a few moves, not a call)
        if readable >= INLINE_ROWS:
            memcpy(ml.data, rows, INLINE_ROWS * ROW)
        else:
            memcpy(ml.data, rows, n * ROW)
    else:
        block = PyBytes_FromStringAndSize(<const char*>rows, n * ROW)
        ml.data = <unsigned char*>PyBytes_AS_STRING(block)
        ml._owner = block
    ml.n = n
    return 0


cdef MoveList movelist_from_out(Out* o, int cid):
    cdef MoveList ml = MoveList.__new__(MoveList)
    cdef _RowBlock block
    if o.borrowed:
        # rows still in the caller's first buffer (small sizes are the
        # allocator's fastest)
        _hold_copy(ml, o.data, o.n, o.cap)
    else:
        block = _RowBlock.__new__(_RowBlock)
        block.data = ml.data = o.data
        ml._owner = block
        ml.n = o.n
    ml.cid = cid
    o.data = NULL
    o.borrowed = False
    return ml


cdef MoveList wild_movelist_from_out(Out* o, int cid, unsigned int wmask):
    cdef MoveList ml = movelist_from_out(o, cid)
    ml.n //= 2
    ml.stride = WROW
    ml.wmask = wmask
    return ml


cdef inline bint _row_is(MoveRows r, const unsigned char* row, Move m):
    # the row holds move m (kind, represented counts, and the cards played)
    if row[KIND_BYTE] != m.kind_ or memcmp(row, m.c, 15) != 0:
        return False
    return memcmp(row + W_PHYS if r.wmask else row, m.p, 15) == 0


cdef int _check_rows(const unsigned char* rows, Py_ssize_t n, object rules) except -1:
    """ValueError unless each of the n rows is a legal move under `rules`
    (None: unless each kind byte is a Kind).  Unpickling goes through this:
    a forged pickle must not make moves the kernels or Move would trust."""
    cdef Py_ssize_t i
    cdef MoveInfo mi
    cdef const RulesC* rc = NULL if rules is None else rules_c(rules)
    for i in range(n):
        if rows[i * ROW + KIND_BYTE] > K_ROCKET:
            raise ValueError(f"move row {i} has no kind {rows[i * ROW + KIND_BYTE]}")
        if rc != NULL and not valid_move_c(rows + i * ROW, rc, &mi):
            raise ValueError(f"move row {i} is not a legal move under the rules")
    return 0


def _movelist_from_rows(bytes rows, rules):
    """A MoveList over a copy of `rows` (ROW bytes a move), each checked to
    be a legal move under `rules` (the unpickler of MoveList)."""
    cdef MoveList ml = MoveList.__new__(MoveList)
    cdef Py_ssize_t nbytes = len(rows)
    if nbytes % ROW:
        raise ValueError(f"move rows must be a multiple of {ROW} bytes")
    _check_rows(<const unsigned char*>rows, nbytes // ROW, rules)
    ml.cid = -1 if rules is None else rules_id(rules)
    # (a copy: the caller's bytes object may be shared)
    _hold_copy(ml, <const unsigned char*>rows, nbytes // ROW, nbytes // ROW)
    return ml


def _wild_movelist_from_moves(moves, rules, wild):
    """A MoveList of wild-card moves, each checked to be a reading of its
    cards under `rules` and the wild ranks `wild` (the unpickler of a wild
    MoveList)."""
    cdef MoveList ml = MoveList.__new__(MoveList)
    cdef int cid = rules_id(rules)
    cdef unsigned int wmask = wild_mask(wild, rules)
    cdef Move m
    cdef bytearray buf = bytearray()
    cdef unsigned char row[WROW]
    if not isinstance(moves, list):
        raise TypeError("a wild MoveList's moves must be a list")
    for x in moves:
        if not isinstance(x, Move):
            raise TypeError(f"a wild MoveList holds Moves, not {type(x).__name__}")
        m = Move(x.kind, x.counts, rules=rules, wild=wild, represents=x.represents)
        memcpy(row, m.c, 15)
        row[KIND_BYTE] = <unsigned char>m.kind_
        memcpy(row + W_PHYS, m.p, 15)
        row[W_CLASS] = m.cls_
        buf += row[:WROW]
    ml.cid = cid
    cdef bytes block = bytes(buf)
    _hold_copy(ml, <const unsigned char*>block, 2 * len(moves), 2 * len(moves))
    ml.n = len(moves)
    ml.stride = WROW
    ml.wmask = wmask
    return ml


_use_free_list(<PyTypeObject*>MoveList)


# ---------------------------------------------------------------------------
# MoveBatch
# ---------------------------------------------------------------------------

@cython.no_gc
@cython.final
cdef class MoveBatch(MoveRows):
    """The moves of many hands: ``rows`` is a flat (T, 16) uint8 array (15
    counts and the kind code per move, as in :attr:`MoveList.rows`), and the
    moves of hand ``i`` are ``rows[offsets[i]:offsets[i + 1]]``.

    ``batch[i]`` gives hand i's moves as a :class:`MoveList` that views the
    batch's rows (no copy).  The views of :class:`MoveRows` (``ranks``,
    ``n_cards``...) cover every move of the batch."""

    def __cinit__(self):
        self.nh = 0
        self.off = NULL

    def __len__(self):
        return self.nh

    def __getitem__(self, index):
        i = operator.index(index)          # TypeError for floats, slices, None
        if i < 0:
            i += self.nh
        if not 0 <= i < self.nh:           # (a Python int: no overflow for huge indices)
            raise IndexError("hand index out of range")
        cdef Py_ssize_t k = i
        cdef MoveList ml = MoveList.__new__(MoveList)
        ml.data = self.data + self.off[k] * self.stride
        ml.n = self.off[k + 1] - self.off[k]
        ml.cid = self.cid
        ml.stride = self.stride
        ml.wmask = self.wmask
        ml._owner = self                   # (keeps the rows alive; a batch never refers to its lists)
        return ml

    @property
    def offsets(self):
        """(N + 1,) int64 read-only offsets into ``rows``."""
        if self._offsets is None:          # (a MoveBatch made by __new__ alone: no hands)
            return _read_only(np.zeros(1, dtype=np.int64))
        return self._offsets

    def __reduce__(self):
        if self.wmask:
            return (_pickling.load_wild_move_batch,
                    ((_pickling.FORMAT, [list(self[i]) for i in range(self.nh)], rules_of(self.cid),
                      wild_ranks_of(self.wmask)),))
        return (_pickling.load_move_batch,
                ((_pickling.FORMAT, np.asarray(self.rows), np.asarray(self.offsets), rules_of(self.cid)),))

    @property
    def hand_index(self):
        """(T,) int64: which hand each move belongs to."""
        return np.repeat(np.arange(len(self)), np.diff(self.offsets))

    def __repr__(self):
        return f"MoveBatch({len(self)} hands, {self.n} moves)"


def _movebatch_from_arrays(rows, offsets, rules):
    """The unpickler of MoveBatch: checks that `rows` are (T, 16) legal moves
    under `rules` and `offsets` run from 0 to T without going down."""
    rows = np.asarray(rows)
    offsets = np.asarray(offsets)
    if rows.dtype != np.uint8 or rows.ndim != 2 or rows.shape[1] != ROW:
        raise ValueError(f"MoveBatch rows must be a uint8 (T, {ROW}) array, not {rows.dtype} {rows.shape}")
    if (offsets.dtype.kind not in "iu" or offsets.ndim != 1 or len(offsets) < 1 or offsets[0] != 0
            or offsets[-1] != len(rows) or (np.diff(offsets.astype(np.int64)) < 0).any()):
        raise ValueError("MoveBatch offsets must run from 0 to the number of rows without going down")
    rows = np.ascontiguousarray(rows)
    _check_rows(<const unsigned char*>cnp.PyArray_DATA(rows), len(rows), rules)
    return make_batch(rows, offsets.astype(np.int64), -1 if rules is None else rules_id(rules))


cdef object _frozen(object arr):
    """A read-only copy of `arr` that cannot be made writeable again
    (moves in a batch are trusted as legal, so they must not be edited in
    place)."""
    return frozen(arr)


cdef object _read_only(object arr):
    """`arr` read-only for good.  An array over memory a capsule owns (the
    batch kernels' own buffers) just loses its writeable flag, which NumPy
    will not set again (the capsule exports no writeable buffer); anything
    else goes through _frozen."""
    cdef PyObject* base
    if type(arr) is cnp.ndarray:
        base = <PyObject*>cnp.PyArray_BASE(<cnp.ndarray>arr)
        if base != NULL and PyCapsule_CheckExact(<object>base):
            cnp.PyArray_CLEARFLAGS(<cnp.ndarray>arr, cnp.NPY_ARRAY_WRITEABLE)
            return arr
    return _frozen(arr)


cdef MoveBatch make_batch(object rows, object offsets, int cid, unsigned int wmask=0):
    cdef MoveBatch b = MoveBatch.__new__(MoveBatch)
    cdef int stride = WROW if wmask else ROW
    rows = _read_only(rows)
    offsets = _read_only(offsets)
    # The views and batch[i] read the memory directly: it must be what they assume.
    if not (cnp.PyArray_Check(rows) and cnp.PyArray_TYPE(<cnp.ndarray>rows) == cnp.NPY_UINT8
            and cnp.PyArray_NDIM(<cnp.ndarray>rows) == 2 and cnp.PyArray_DIM(<cnp.ndarray>rows, 1) == stride
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>rows)):
        raise ValueError(f"MoveBatch rows must be a C-contiguous uint8 (T, {stride}) array")
    if not (cnp.PyArray_Check(offsets) and cnp.PyArray_TYPE(<cnp.ndarray>offsets) == cnp.NPY_INT64
            and cnp.PyArray_NDIM(<cnp.ndarray>offsets) == 1 and cnp.PyArray_DIM(<cnp.ndarray>offsets, 0) >= 1
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>offsets)):
        raise ValueError("MoveBatch offsets must be a C-contiguous (N + 1,) int64 array")
    b._owner = rows
    b.data = <unsigned char*>cnp.PyArray_DATA(<cnp.ndarray>rows)
    b.n = cnp.PyArray_DIM(<cnp.ndarray>rows, 0)
    b._offsets = offsets
    b.off = <const int64_t*>cnp.PyArray_DATA(<cnp.ndarray>offsets)
    b.nh = cnp.PyArray_DIM(<cnp.ndarray>offsets, 0) - 1
    b.cid = cid
    b.stride = stride
    b.wmask = wmask
    return b


def _wild_movebatch_from_lists(lists, rules, wild):
    """The unpickler of a wild-card MoveBatch: each hand's moves checked as
    by _wild_movelist_from_moves."""
    if not isinstance(lists, list):
        raise TypeError("a wild MoveBatch's hands must be a list")
    parts = [_wild_movelist_from_moves(x, rules, wild) for x in lists]
    cdef unsigned int wmask = wild_mask(wild, rules)
    rows = np.concatenate([np.asarray(p.rows) for p in parts]) if parts else np.zeros((0, WROW), np.uint8)
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(p) for p in parts])
    return make_batch(np.ascontiguousarray(rows), offsets, rules_id(rules), wmask)
