# cython: language_level=3
"""The fast path: validated Python entry points over the C kernels.

Every entry point validates its input (type, shape, dtype, counts within the
deck, the last move legal under the same rules and consistent with the hand)
with the GIL held, then runs the kernels; batch calls release the GIL for the
whole batch.  Results match :mod:`ddz_fast.reference` exactly, order included.
"""
cimport cython
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer, PyCapsule_Destructor, PyCapsule_CheckExact
from libc.stdlib cimport malloc, calloc, free
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport PyObject, Py_INCREF
from libc.string cimport memcpy, memcmp, memset

import operator
import threading

from ._parallel import run_parts

import numpy as np

from ._move cimport Move, make_move, K_PASS
from ._checks cimport as_threads
from ._kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, out_init, out_free, gen_moves,
    row_info, classify_c, beats_c, valid_move_c, pack_row, key_hash, CARD_KEY_BITS,
    count_moves_c,
)
from .cards import to_counts, format_cards
from .moves import parse_move_with
from .rules import MOVE_OPTIONS, PRESETS, Rules, check_rules, resolve_rules

cnp.import_array()

__all__ = ["legal_moves", "classify", "beats", "parse_move", "legal_moves_batch",
           "count_moves", "MoveList", "MoveBatch"]

# ---------------------------------------------------------------------------
# Rules registry: each distinct set of move options gets a small id (0..255),
# the index of its C struct; ids below 64 are also a bit in Move._valid_for
# (the presets register first, so they always get one).
# ---------------------------------------------------------------------------

cdef enum:
    # Rows of the first buffer of a single call: most hands fit (a 20-card
    # lead has 78 moves on average), so most calls allocate once.
    FIRST_ROWS = 192
    MAX_RULES = 256
    VALID_BITS = 64              # ids below this get a Move._valid_for bit
    K_ROCKET_CODE = 14           # the highest kind code

cdef RulesC _RULES[MAX_RULES]     # (one slot per possible option set: see _register_locked)
cdef int _NRULES = 0
cdef dict _RULE_IDS = {}        # move-option tuple -> id
cdef dict _BY_NAME = {}         # preset name -> (id, Rules)
cdef list _RULE_OBJS = []       # id -> a Rules with those options


cdef inline unsigned long long _valid_bit(int cid) noexcept nogil:
    # Move._valid_for has 64 bits; moves of later option sets are re-checked.
    if 0 <= cid < VALID_BITS:
        return (<unsigned long long>1) << cid
    return 0


cdef tuple _move_options(rules):
    # The registry key: the deck and every move option, in Rules field order.
    return (rules.decks,) + tuple([getattr(rules, name) for name in MOVE_OPTIONS])


_REGISTER_LOCK = threading.Lock()


cdef int _register(rules) except -1:
    # Slow path (once per distinct option set), under a lock so that two
    # threads never fill the same slot (the GIL-free build runs them at once).
    with _REGISTER_LOCK:
        return _register_locked(rules)


cdef int _register_locked(rules) except -1:
    global _NRULES
    check_rules(rules)   # the C struct below sizes the kernels' work: only sound rules
    key = _move_options(rules)
    cid = _RULE_IDS.get(key)
    if cid is not None:
        return cid
    if _NRULES >= MAX_RULES:  # cannot happen: there are 256 option combinations
        raise RuntimeError("too many distinct Rules")
    # The options go through a dict keyed by the Rules field names, which
    # Cython coerces to the struct: a field missing on either side fails.
    fields = {name: getattr(rules, name) for name in MOVE_OPTIONS}
    fields.update(id=_NRULES, decks=rules.decks,
                  max_count=4 * rules.decks,   # (from decks itself, never from an overridable property)
                  max_joker=rules.decks)
    _RULES[_NRULES] = fields
    _RULE_IDS[key] = _NRULES
    _RULE_OBJS.append(rules)
    _NRULES += 1
    return _NRULES - 1


cdef object _LAST = (None, -1)     # (the last Rules object looked up, its id)


cdef inline int _rules_id(object rules) except -1:
    """Registry id of a preset name or a Rules (validated)."""
    cdef object hit
    cdef tuple last
    if type(rules) is str:
        hit = _BY_NAME.get(rules)
        if hit is not None:
            return <int>hit
        r = resolve_rules(rules)          # raises for unknown names
        _BY_NAME[rules] = _register(r)
        return _BY_NAME[rules]
    last = <tuple>_LAST                   # (one read: another thread may replace it)
    if <PyObject*>PyTuple_GET_ITEM(last, 0) is <PyObject*>rules:
        return <int><object>PyTuple_GET_ITEM(last, 1)
    return _rules_id_slow(rules)


cdef int _rules_id_slow(object rules) except -1:
    global _LAST
    cdef object hit
    if isinstance(rules, Rules):
        # The id is cached on the object; Rules.__getstate__ leaves it out of
        # pickles, since ids are local to a process.  The last object looked
        # up is also remembered here (no attribute lookup for a Rules used
        # call after call).
        hit = getattr(rules, "_ddz_cid", None)
        if hit is None:
            hit = _register(rules)
            object.__setattr__(rules, "_ddz_cid", hit)
        _LAST = (rules, hit)
        return <int>hit
    if isinstance(rules, str):           # a str subclass such as numpy.str_
        return _rules_id(str(rules))
    resolve_rules(rules)  # raises TypeError
    raise TypeError(f"rules must be a preset name or a Rules, not {type(rules).__name__}")


# The presets take the first ids, so their moves always carry a valid bit.
for _preset in PRESETS:
    _rules_id(_preset)


cdef const RulesC* rules_c(object rules) except NULL:
    """The C rules of a preset name or a Rules (validated, registered)."""
    return &_RULES[_rules_id(rules)]


cdef int rules_id(object rules) except -1:
    return _rules_id(rules)


cdef const RulesC* rules_by_id(int cid) noexcept nogil:
    return &_RULES[cid]


cdef object movelist_from_out(Out* o, int cid):
    return _wrap(o, cid)


cdef Move row_move(const unsigned char* row, int cid):
    return _row_move(row, cid)


def _rules_c_fields():
    """The field names of the C rules struct (for the test that they hold
    exactly the Rules move options)."""
    cdef RulesC rc
    memset(&rc, 0, sizeof(rc))
    return list(<dict>rc)


cdef object _rules_obj(object rules):
    return resolve_rules(rules)    # (checks a Rules subclass; a plain Rules is returned as is)


# ---------------------------------------------------------------------------
# Input loading
# ---------------------------------------------------------------------------

cdef dict _TEXT_CACHE = {}   # (text, decks) -> 15 bytes, for repeated card text


cdef inline bint _within(const unsigned char* h, const RulesC* rc) noexcept:
    cdef int i
    for i in range(13):
        if h[i] > rc.max_count:
            return False
    return h[13] <= rc.max_joker and h[14] <= rc.max_joker


cdef int _load_hand(object hand, object rules, const RulesC* rc, unsigned char* out) except -1:
    """Fill out[0..14] with a validated hand.  Fast for a uint8 numpy array of
    shape (15,); everything else goes through cards.to_counts, which raises
    the documented errors."""
    cdef cnp.ndarray arr
    cdef Py_ssize_t stride
    cdef char* p
    cdef int i
    cdef bytes b
    if type(hand) is cnp.ndarray:
        arr = <cnp.ndarray>hand
        if (cnp.PyArray_NDIM(arr) == 1 and cnp.PyArray_DIM(arr, 0) == 15
                and cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8):
            stride = cnp.PyArray_STRIDE(arr, 0)
            p = <char*>cnp.PyArray_DATA(arr)
            for i in range(15):
                out[i] = <unsigned char>p[i * stride]
            if _within(out, rc):
                return 0
    elif type(hand) is str:
        b = _text_counts(<str>hand, rules, rc.decks)
        memcpy(out, <const char*>b, 15)
        _check_within(out, rc)
        return 0
    b = bytes(to_counts(hand, rules=_rules_obj(rules)))
    if len(b) != 15:    # to_counts guarantees 15; never copy from a shorter buffer
        raise ValueError(f"expected 15 counts, got {len(b)}")
    memcpy(out, <const char*>b, 15)
    _check_within(out, rc)
    return 0


cdef int _check_within(const unsigned char* h, const RulesC* rc) except -1:
    """The kernels' invariant, checked against the registered C rules
    whatever the Python-level check said (a Rules object changed after it
    was registered must not get more cards than the deck into a kernel)."""
    cdef int i
    if not _within(h, rc):
        for i in range(15):
            if h[i] > (rc.max_joker if i >= 13 else rc.max_count):
                raise ValueError(f"{h[i]} cards in slot {i} ({'3456789TJQKA2BR'[i]}): "
                                 f"the deck holds at most {rc.max_joker if i >= 13 else rc.max_count}")
    return 0


cdef bytes _text_counts(str text, object rules, int decks):
    key = (text, decks)
    cached = _TEXT_CACHE.get(key)
    if cached is not None:
        return <bytes>cached
    b = bytes(to_counts(text, rules=_rules_obj(rules)))
    if len(_TEXT_CACHE) > 4096:
        _TEXT_CACHE.clear()
    _TEXT_CACHE[key] = b
    return b


cdef int _load_move(object move, object rules, const RulesC* rc, MoveInfo* mi,
                    str what) except -1:
    """Validate a Move under the rules and fill its MoveInfo.  A move known
    legal under these rules (its _valid_for bit) skips the classification."""
    cdef Move m
    cdef unsigned char row[16]
    cdef unsigned long long bit = _valid_bit(rc.id)
    if not isinstance(move, Move):
        raise TypeError(f"{what} must be a Move, not {type(move).__name__}")
    m = <Move>move
    if m._valid_for & bit:
        mi.kind = m.kind_
        mi.rank = m.rank_
        mi.length = m.length_
        mi.ncards = m.ncards
        return 0
    memcpy(row, m.c, 15)
    row[KIND_BYTE] = <unsigned char>m.kind_
    if not valid_move_c(row, rc, mi):
        _raise_invalid(m, rules, what)
    if mi.rank != m.rank_ or mi.length != m.length_:
        raise ValueError(f"{what} {m!r} has the wrong rank or length for its cards")
    m._valid_for |= bit
    return 0


cdef int _raise_invalid(Move m, object rules, str what) except -1:
    r = _rules_obj(rules)
    to_counts(m.counts, rules=r)  # raises if outside the deck
    raise ValueError(f"{what} {m.cards!r} is not a {m.kind.name} under rules {r.name!r}")


cdef int _check_together(const unsigned char* h, Move last, const RulesC* rc, object rules) except -1:
    cdef unsigned char both[15]
    cdef int i
    for i in range(15):
        both[i] = h[i] + last.c[i]
    if not _within(both, rc):
        try:
            to_counts([int(both[i]) for i in range(15)], rules=_rules_obj(rules))
        except ValueError as e:
            raise ValueError(f"hand and last move cannot both be in play: {e}") from None
        raise ValueError("hand and last move cannot both be in play: more cards than the deck holds")
    return 0


cdef Move _row_move(const unsigned char* row, int cid):
    cdef MoveInfo mi
    row_info(row, &mi)
    cdef Move m = make_move(mi.kind, row, mi.rank, mi.length)
    m._valid_for = _valid_bit(cid)
    return m


# ---------------------------------------------------------------------------
# MoveList
# ---------------------------------------------------------------------------

@cython.no_gc
@cython.final
cdef class MoveList:
    """The legal moves of one hand: a read-only sequence of :class:`Move`
    backed by one compact buffer (16 bytes a move: 15 counts and the kind).

    Indexing and iteration make ``Move`` objects on demand; the array
    properties (``rows``, ``counts``, ``kinds``, ``ranks``, ``lengths``,
    ``n_cards``) give NumPy views or arrays without making any.  A MoveList
    equals another MoveList or a list of moves with the same moves in the
    same order.
    """
    cdef unsigned char* data
    cdef Py_ssize_t n
    cdef int cid
    # Only _info is cached: it holds no reference back to the list, so a
    # MoveList is never part of a reference cycle and needs no GC tracking
    # (the rows view has the list as its base and is made on each access).
    cdef object _info

    def __cinit__(self):
        self.data = NULL
        self.n = 0
        self.cid = -1

    def __dealloc__(self):
        free(self.data)

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
        return _row_move(self.data + i * ROW, self.cid)

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            yield _row_move(self.data + i * ROW, self.cid)

    def __reversed__(self):
        cdef Py_ssize_t i
        for i in range(self.n - 1, -1, -1):
            yield _row_move(self.data + i * ROW, self.cid)

    cdef Py_ssize_t _find(self, Move m):
        cdef Py_ssize_t i
        cdef unsigned char* row
        for i in range(self.n):
            row = self.data + i * ROW
            if row[KIND_BYTE] == m.kind_ and memcmp(row, m.c, 15) == 0:
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
        cdef unsigned char* row
        if isinstance(other, MoveList):
            o = <MoveList>other
            return self.n == o.n and (self.n == 0 or memcmp(self.data, o.data, self.n * ROW) == 0)
        if isinstance(other, (list, tuple)):
            if len(other) != self.n:
                return False
            for i in range(self.n):
                x = other[i]
                if not isinstance(x, Move):
                    return False
                m = <Move>x
                row = self.data + i * ROW
                if row[KIND_BYTE] != m.kind_ or memcmp(row, m.c, 15) != 0:
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
                row = self.data + i * ROW
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
        return (_movelist_from_rows,
                (bytes(self.data[:self.n * ROW]) if self.n else b"", _rules_of(self.cid)))

    @property
    def rows(self):
        """(M, 16) uint8 read-only view of the buffer: 15 counts, then the kind code."""
        cdef cnp.npy_intp dims[2]
        dims[0] = self.n
        dims[1] = ROW
        if self.n == 0:
            arr = np.zeros((0, ROW), dtype=np.uint8)
        else:
            arr = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_UINT8, self.data)
            cnp.set_array_base(arr, self)
        cnp.PyArray_CLEARFLAGS(<cnp.ndarray>arr, cnp.NPY_ARRAY_WRITEABLE)   # (in C: no attribute call)
        return arr

    @property
    def counts(self):
        """(M, 15) uint8 view: the cards of each move."""
        return self.rows[:, :15]

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
                row_info(self.data + i * ROW, &mi)
                info[i, 0] = mi.rank
                info[i, 1] = mi.length
                info[i, 2] = mi.ncards
            info.flags.writeable = False
            self._info = info
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


cdef MoveList _wrap(Out* o, int cid):
    cdef MoveList ml = MoveList.__new__(MoveList)
    ml.data = o.data
    ml.n = o.n
    ml.cid = cid
    o.data = NULL
    return ml


cdef object _rules_of(int cid):
    return _RULE_OBJS[cid] if 0 <= cid < _NRULES else None


cdef int _check_rows(const unsigned char* rows, Py_ssize_t n, object rules) except -1:
    """ValueError unless each of the n rows is a legal move under `rules`
    (None: unless each kind byte is a Kind).  Unpickling goes through this:
    a forged pickle must not make moves the kernels or Move would trust."""
    cdef Py_ssize_t i
    cdef MoveInfo mi
    cdef const RulesC* rc = NULL if rules is None else rules_c(rules)
    for i in range(n):
        if rows[i * ROW + KIND_BYTE] > K_ROCKET_CODE:
            raise ValueError(f"move row {i} has no kind {rows[i * ROW + KIND_BYTE]}")
        if rc != NULL and not valid_move_c(rows + i * ROW, rc, &mi):
            raise ValueError(f"move row {i} is not a legal move under the rules")
    return 0


def _movelist_from_rows(bytes rows, rules):
    """A MoveList over a copy of `rows` (ROW bytes a move), each checked to
    be a legal move under `rules` (the unpickler of MoveList)."""
    if len(rows) % ROW:
        raise ValueError(f"move rows must be a multiple of {ROW} bytes")
    _check_rows(<const unsigned char*>rows, len(rows) // ROW, rules)
    return _movelist_trusted(rows, rules)


cdef MoveList _movelist_trusted(bytes rows, rules):
    """A MoveList over a copy of `rows` (ROW bytes a move); its moves are
    trusted as legal under `rules` (None: not trusted)."""
    cdef MoveList ml = MoveList.__new__(MoveList)
    cdef Py_ssize_t nbytes = len(rows)
    if nbytes % ROW:
        raise ValueError(f"move rows must be a multiple of {ROW} bytes")
    ml.n = nbytes // ROW
    ml.cid = -1 if rules is None else _rules_id(rules)
    ml.data = <unsigned char*>malloc(nbytes if nbytes else 1)
    if ml.data == NULL:
        raise MemoryError()
    if nbytes:
        memcpy(ml.data, <const char*>rows, nbytes)
    return ml


# ---------------------------------------------------------------------------
# Single-hand entry points
# ---------------------------------------------------------------------------

def legal_moves(hand, last=None, *, rules="standard"):
    """Every legal move of ``hand`` as a :class:`MoveList`.

    With ``last`` None or PASS: every lead (never PASS).  Otherwise PASS
    followed by every move that beats ``last``.  Same results, same order as
    :func:`ddz_fast.reference.legal_moves`.
    """
    cdef int cid = _rules_id(rules)
    cdef const RulesC* rc = &_RULES[cid]
    cdef unsigned char h[16]
    cdef MoveInfo li
    cdef MoveInfo* lp = NULL
    cdef Out o
    _load_hand(hand, rules, rc, h)
    if last is not None:
        _load_move(last, rules, rc, &li, "last")
        _check_together(h, <Move>last, rc, rules)
        lp = &li
    out_init(&o, FIRST_ROWS, False)
    gen_moves(h, rc, lp, &o)
    if o.oom:
        out_free(&o)
        raise MemoryError("out of memory generating moves")
    return _wrap(&o, cid)


def classify(cards, *, rules="standard"):
    """Every reading of the cards as a move: one Move per kind, in kind order,
    each with the rank of its highest reading; empty for no move."""
    cdef int cid = _rules_id(rules)
    cdef const RulesC* rc = &_RULES[cid]
    cdef unsigned char c[16]
    cdef MoveInfo infos[15]
    cdef int n, i
    _load_hand(cards, rules, rc, c)
    n = classify_c(c, rc, infos)
    out = []
    for i in range(n):
        m = make_move(infos[i].kind, c, infos[i].rank, infos[i].length)
        (<Move>m)._valid_for = _valid_bit(cid)
        out.append(m)
    return out


def beats(a, b, *, rules="standard"):
    """Does move ``a`` beat move ``b``?  See :func:`ddz_fast.reference.beats`."""
    cdef int cid = _rules_id(rules)
    cdef const RulesC* rc = &_RULES[cid]
    cdef MoveInfo ma, mb
    _load_move(a, rules, rc, &ma, "a")
    _load_move(b, rules, rc, &mb, "b")
    return beats_c(&ma, &mb)


def parse_move(text, kind=None, *, rules="standard"):
    """Turn card text into one typed Move (``"pass"`` is PASS).

    Raises ``ValueError`` for cards that are no legal move, are not of the
    given kind, or are ambiguous (several kinds) when no kind is given.
    """
    return parse_move_with(text, kind, _rules_obj(rules), lambda t: classify(t, rules=rules))


# ---------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------

cdef class MoveBatch:
    """The moves of many hands: ``rows`` is a flat (T, 16) uint8 array (15
    counts and the kind code per move, as in :attr:`MoveList.rows`), and the
    moves of hand ``i`` are ``rows[offsets[i]:offsets[i + 1]]``.

    ``batch[i]`` gives hand i's moves as a :class:`MoveList` (a copy)."""
    cdef readonly object rows
    cdef readonly object offsets
    cdef int cid

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, index):
        cdef Py_ssize_t n = len(self.offsets) - 1
        i = operator.index(index)          # TypeError for floats, slices, None
        if i < 0:
            i += n
        if i < 0 or i >= n:                 # (a Python int: no overflow for huge indices)
            raise IndexError("hand index out of range")
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        return _movelist_trusted(self.rows[a:b].tobytes(), _rules_of(self.cid))

    def __reduce__(self):
        return (_movebatch_from_arrays, (np.asarray(self.rows), np.asarray(self.offsets),
                                         _rules_of(self.cid)))

    @property
    def counts(self):
        """(T, 15) uint8 view: the cards of every move."""
        return self.rows[:, :15]

    @property
    def kinds(self):
        """(T,) uint8 view: the kind code of every move."""
        return self.rows[:, 15]

    @property
    def hand_index(self):
        """(T,) int64: which hand each move belongs to."""
        return np.repeat(np.arange(len(self)), np.diff(self.offsets))

    def __repr__(self):
        return f"MoveBatch({len(self)} hands, {len(self.rows)} moves)"


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
    return _make_batch(rows, offsets.astype(np.int64), -1 if rules is None else _rules_id(rules))


cdef class _Job:
    # One contiguous slice of a batch, run by one thread without the GIL.
    cdef const unsigned char* hands
    cdef const MoveInfo* lasts     # NULL: every hand leads
    cdef Py_ssize_t start, stop
    cdef const RulesC* rc
    cdef Out out
    cdef cnp.int64_t* per_hand     # moves per hand (global array)
    cdef bint count_only

    def __dealloc__(self):
        out_free(&self.out)

    cdef void run(self) noexcept nogil:
        cdef Py_ssize_t i, before
        cdef Out* o = &self.out
        cdef const MoveInfo* lp
        if self.count_only:
            # Count-only: nothing is written.
            out_init(o, 0, True)
        for i in range(self.start, self.stop):
            lp = NULL if self.lasts == NULL else &self.lasts[i]
            before = o.n
            gen_moves(self.hands + i * 15, self.rc, lp, o)
            if o.oom:
                return
            self.per_hand[i] = o.n - before

    def run_py(self):
        with nogil:
            self.run()


cdef object _check_batch_hands(object hands, object rules, const RulesC* rc):
    """Validate an (N, 15) array of hands; return it as C-contiguous uint8."""
    cdef cnp.ndarray arr
    cdef const unsigned char* hp
    cdef Py_ssize_t i
    if (type(hands) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>hands) == cnp.NPY_UINT8
            and cnp.PyArray_NDIM(<cnp.ndarray>hands) == 2 and cnp.PyArray_DIM(<cnp.ndarray>hands, 1) == 15
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>hands)):
        # The common input, checked in C (the numpy checks below cost
        # microseconds a call); any hand outside the deck takes the slow path,
        # which names it.
        arr = <cnp.ndarray>hands
        hp = <const unsigned char*>cnp.PyArray_DATA(arr)
        for i in range(cnp.PyArray_DIM(arr, 0)):
            if not _within(hp + 15 * i, rc):
                break
        else:
            return hands
    if not isinstance(hands, np.ndarray):
        if isinstance(hands, (str, bytes)):
            raise TypeError("hands must be an (N, 15) integer array")
        hands = np.asarray(hands)
    if hands.dtype == np.bool_ or hands.dtype.kind not in "iu":
        raise TypeError(f"hands must have an integer dtype, not {hands.dtype}")
    if hands.ndim != 2 or hands.shape[1] != 15:
        raise ValueError(f"hands must have shape (N, 15), not {hands.shape}")
    limits = np.array([rc.max_count] * 13 + [rc.max_joker] * 2)
    if hands.size:
        bad = (hands < 0) | (hands > limits)
        if bad.any():
            i = np.argwhere(bad)[0][0]
            try:
                to_counts(hands[i], rules=_rules_obj(rules))
            except ValueError as e:
                raise ValueError(f"hand {i}: {e}") from None
            raise ValueError(f"hand {i}: more cards than the deck holds")
    return np.ascontiguousarray(hands, dtype=np.uint8)


cdef object _check_batch_lasts(object lasts, object hands, object rules, const RulesC* rc):
    """Validate one last move per hand; return an (N,) array of MoveInfo
    bytes (4 int32 each) or None.  Each last must be legal under the rules
    and fit in the deck together with its hand.  The per-hand work is C loops
    (a move already known legal under these rules is not re-classified)."""
    cdef Py_ssize_t n = hands.shape[0], i
    cdef cnp.ndarray infos, lastc
    cdef MoveInfo* mp
    cdef unsigned char* lc
    cdef const unsigned char* hp = <const unsigned char*>cnp.PyArray_DATA(hands)
    cdef const unsigned char* src
    cdef unsigned char row[16]
    cdef unsigned char both[15]
    cdef unsigned long long bit = _valid_bit(rc.id)
    cdef Move m
    cdef int j
    if lasts is None:
        return None
    infos = np.zeros((n, 4), dtype=np.int32)
    lastc = np.zeros((n, 15), dtype=np.uint8)
    mp = <MoveInfo*>cnp.PyArray_DATA(infos)
    lc = <unsigned char*>cnp.PyArray_DATA(lastc)
    if isinstance(lasts, np.ndarray) and lasts.dtype != object:
        if lasts.dtype != np.uint8 or lasts.ndim != 2 or lasts.shape != (n, 16):
            raise ValueError(f"lasts as an array must be uint8 rows of shape ({n}, 16), "
                             f"not {lasts.dtype} {lasts.shape}")
        rows = np.ascontiguousarray(lasts)
        src = <const unsigned char*>cnp.PyArray_DATA(rows)
        for i in range(n):
            memcpy(row, src + i * 16, 16)
            if not valid_move_c(row, rc, &mp[i]):
                raise ValueError(f"lasts[{i}] ({format_cards([row[j] for j in range(15)]) or 'no cards'}, "
                                 f"kind {row[15]}) is not a legal move under the rules")
            memcpy(lc + i * 15, row, 15)
    else:
        lasts = list(lasts)
        if len(lasts) != n:
            raise ValueError(f"expected {n} last moves, got {len(lasts)}")
        for i in range(n):
            x = lasts[i]
            if x is None:
                mp[i].kind = K_PASS
                continue
            if type(x) is Move and (<Move>x)._valid_for & bit:
                m = <Move>x
                mp[i].kind = m.kind_
                mp[i].rank = m.rank_
                mp[i].length = m.length_
                mp[i].ncards = m.ncards
            else:
                _load_move(x, rules, rc, &mp[i], f"lasts[{i}]")
                m = <Move>x
            memcpy(lc + i * 15, m.c, 15)
    for i in range(n):
        for j in range(15):
            both[j] = hp[i * 15 + j] + lc[i * 15 + j]
        if not _within(both, rc):
            raise ValueError(f"hand {i} and its last move cannot both be in play "
                             "(more cards than the deck holds)")
    return infos


cdef tuple _run_batch(object hands, object lasts, object rules, object threads, bint count_only):
    cdef int cid = _rules_id(rules)
    cdef const RulesC* rc = &_RULES[cid]
    cdef Py_ssize_t n, t, total
    cdef _Job job
    threads = as_threads(threads)
    hands = _check_batch_hands(hands, rules, rc)
    infos = _check_batch_lasts(lasts, hands, rules, rc)
    n = hands.shape[0]
    per_hand = np.zeros(n, dtype=np.int64)
    threads = max(1, min(threads, n))
    jobs = []
    for t in range(threads):
        job = _Job()
        job.hands = <const unsigned char*>cnp.PyArray_DATA(hands)
        job.lasts = NULL if infos is None else <const MoveInfo*>cnp.PyArray_DATA(infos)
        job.start = n * t // threads
        job.stop = n * (t + 1) // threads
        job.rc = rc
        job.per_hand = <cnp.int64_t*>cnp.PyArray_DATA(per_hand)
        job.count_only = count_only
        if not count_only:
            if not out_init(&job.out, 96 * (job.stop - job.start) + 16, False):
                raise MemoryError("out of memory generating moves")
        jobs.append(job)
    run_parts([j.run_py for j in jobs])
    for job in jobs:
        if job.out.oom:
            raise MemoryError("out of memory generating moves")
    if count_only:
        return per_hand, None, cid
    offsets = _offsets_of(<const cnp.int64_t*>cnp.PyArray_DATA(per_hand), n)
    total = (<cnp.int64_t*>cnp.PyArray_DATA(offsets))[n]
    if threads == 1:
        # One part: hand its buffer to NumPy without copying.
        return offsets, _adopt_rows(&(<_Job>jobs[0]).out), cid
    cdef Out joined
    if not out_init(&joined, total, False):
        raise MemoryError("out of memory generating moves")
    for job in jobs:
        if job.out.n:
            memcpy(joined.data + joined.n * ROW, job.out.data, job.out.n * ROW)
            joined.n += job.out.n
    return offsets, _adopt_rows(&joined), cid


cdef object _offsets_of(const cnp.int64_t* per_hand, Py_ssize_t n):
    """(n + 1,) int64 running sums of per_hand, from 0, in memory of its own
    (a capsule base: see _make_batch)."""
    cdef cnp.npy_intp dim = n + 1
    cdef cnp.int64_t* off = <cnp.int64_t*>malloc((n + 1) * sizeof(cnp.int64_t))
    cdef Py_ssize_t i
    if off == NULL:
        raise MemoryError()
    off[0] = 0
    for i in range(n):
        off[i + 1] = off[i] + per_hand[i]
    capsule = PyCapsule_New(off, NULL, <PyCapsule_Destructor>_free_capsule)
    arr = cnp.PyArray_SimpleNewFromData(1, &dim, cnp.NPY_INT64, off)
    cnp.set_array_base(arr, capsule)
    return arr


cdef void _free_capsule(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, NULL))


cdef object _adopt_rows(Out* o):
    """An (n, ROW) uint8 array that owns the buffer of `o` (which is emptied)."""
    cdef cnp.npy_intp dims[2]
    dims[0] = o.n
    dims[1] = ROW
    capsule = PyCapsule_New(o.data, NULL, <PyCapsule_Destructor>_free_capsule)
    arr = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_UINT8, o.data)
    o.data = NULL
    o.n = 0
    o.cap = 0
    cnp.set_array_base(arr, capsule)
    return arr


def legal_moves_batch(hands, lasts=None, *, rules="standard", threads=1):
    """Legal moves of many hands at once, with the GIL released.

    ``hands``: an (N, 15) integer array.  ``lasts``: None (every hand leads),
    a sequence of N moves (``None`` or PASS for a lead), or an (N, 16) uint8
    array of move rows (15 counts and the kind code, as in ``MoveList.rows``).
    ``threads`` splits the batch into that many contiguous parts run in
    parallel.  Returns a :class:`MoveBatch`; hand i's moves equal
    ``legal_moves(hands[i], lasts[i])``.
    """
    offsets, rows, cid = _run_batch(hands, lasts, rules, threads, False)
    return _make_batch(rows, offsets, cid)


cdef object _frozen(object arr):
    """A read-only view of `arr` that cannot be made writeable again: its
    base is a read-only buffer (moves in a batch are trusted as legal, so
    they must not be edited in place)."""
    if arr.size == 0:
        out = np.zeros(arr.shape, dtype=arr.dtype)
        out.flags.writeable = False
        return out
    flat = np.ascontiguousarray(arr).reshape(-1)
    return np.frombuffer(memoryview(flat).toreadonly(), dtype=arr.dtype).reshape(arr.shape)


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


cdef MoveBatch _make_batch(object rows, object offsets, int cid):
    cdef MoveBatch b = MoveBatch.__new__(MoveBatch)
    b.rows = _read_only(rows)
    b.offsets = _read_only(offsets)
    b.cid = cid
    return b


cdef bint _is_one_hand(object hands):
    """Is this one hand (text, a 1-D array, a flat sequence of counts) rather
    than a batch of hands?"""
    if isinstance(hands, str):
        return True
    if isinstance(hands, np.ndarray):
        return hands.ndim == 1
    if isinstance(hands, (list, tuple)):
        return len(hands) > 0 and not any(
            isinstance(x, (list, tuple, np.ndarray, str, bytes)) for x in hands)
    return False


def count_moves(hands, lasts=None, *, rules="standard", threads=1):
    """How many legal moves each hand has (PASS counted in responses), as an
    (N,) int64 array; for one hand of shape (15,) (or text), an int."""
    if _is_one_hand(hands):
        one = np.asarray(to_counts(hands, rules=_rules_obj(rules)))[None, :]
        per_hand, _, _ = _run_batch(one, None if lasts is None else [lasts], rules, threads, True)
        return int(per_hand[0])
    per_hand, _, _ = _run_batch(hands, lasts, rules, threads, True)
    return per_hand


# ---------------------------------------------------------------------------
# Kernel timing (for benchmarks/compare.py): the kernels alone, called from C
# ---------------------------------------------------------------------------

def _time_kernel(hands, lasts=None, *, rules="standard", int repeat=5, bint count=False):
    """Best wall time (seconds) of running the move kernel over every hand
    (one reused output buffer, nothing kept), the rows written, and the best
    time of a memcpy of those bytes (the floor for writing them).  With
    count=True the closed-form counter is timed instead."""
    import time
    cdef int cid = _rules_id(rules)
    cdef const RulesC* rc = &_RULES[cid]
    hands = _check_batch_hands(hands, rules, rc)
    infos = _check_batch_lasts(lasts, hands, rules, rc)
    cdef const unsigned char* hp = <const unsigned char*>cnp.PyArray_DATA(hands)
    cdef const MoveInfo* lp = NULL if infos is None else <const MoveInfo*>cnp.PyArray_DATA(infos)
    cdef Py_ssize_t n = hands.shape[0], i, total = 0, acc = 0
    cdef Out o
    cdef int _rep
    cdef double best = 1e300, best_copy = 1e300, t
    cdef unsigned char* src
    cdef unsigned char* dst
    if not out_init(&o, 4096, False):
        raise MemoryError()
    try:
        for _rep in range(repeat):
            t = time.perf_counter()
            with nogil:
                total = 0
                for i in range(n):
                    if count:
                        total += count_moves_c(hp + i * 15, rc, NULL if lp == NULL else &lp[i])
                    else:
                        o.n = 0
                        gen_moves(hp + i * 15, rc, NULL if lp == NULL else &lp[i], &o)
                        total += o.n
            t = time.perf_counter() - t
            if t < best:
                best = t
        if o.oom:
            raise MemoryError()
        # the same bytes copied: n rows of ROW bytes, in chunks of the hands' sizes
        src = <unsigned char*>malloc(total * ROW + 1)
        dst = <unsigned char*>malloc(total * ROW + 1)
        if src == NULL or dst == NULL:
            free(src)
            free(dst)
            raise MemoryError()
        memset(src, 1, total * ROW)
        for _rep in range(repeat):
            t = time.perf_counter()
            with nogil:
                memcpy(dst, src, total * ROW)
            t = time.perf_counter() - t
            if t < best_copy:
                best_copy = t
        acc = dst[total * ROW // 2] if total else 0
        free(src)
        free(dst)
    finally:
        out_free(&o)
    return best, total, best_copy + 0 * acc
