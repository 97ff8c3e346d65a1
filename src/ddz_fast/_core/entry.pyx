# cython: language_level=3
"""The fast path: validated Python entry points over the C kernels.

The rules registry is :mod:`ddz_fast._core.registry`, the result containers
(``MoveList``, ``MoveBatch``) are :mod:`ddz_fast._core.movelist`; this module
loads and checks the input, runs the kernels and wraps their output.

Every entry point validates its input (type, shape, dtype, counts within the
deck, the last move legal under the same rules and consistent with the hand)
with the GIL held, then runs the kernels; batch calls release the GIL for the
whole batch.  Results match :mod:`ddz_fast.reference` exactly, order included.
"""
cimport numpy as cnp
from cpython.pycapsule cimport (
    PyCapsule_New, PyCapsule_GetPointer, PyCapsule_Destructor, PyCapsule_SetContext, PyCapsule_GetContext,
)
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset

from .._util.parallel import run_parts

import numpy as np

from .move cimport Move, K_PASS, readings_of, wild_mask, wild_ranks_of, wild_readings_of
from .wild cimport WROW, W_PHYS, W_CLASS, gen_wild, beats_wild, bomb_class
from .._util.checks cimport as_threads
from .._util.checks import bounded_list, private_array
from .kernels cimport (
    RulesC, MoveInfo, Out, IdSink, ROW, KIND_BYTE, u64, _hand_words, _word_cards, row_info,
    out_init, out_init_on, out_init_batch, out_free, release_rows,
    gen_moves,
    beats_c, valid_move_c, count_moves_c,
)
from .registry cimport rules_id, rules_by_id, valid_bit, within, within_words, check_within
from .movelist cimport movelist_from_out, wild_movelist_from_out, make_batch

from .movelist import MoveBatch, MoveList  # noqa: F401  (the result types, re-exported)
from ..cards import to_counts, format_cards, parse_wild
from .parse import parse_move_with
from ..rules import resolve_rules

cnp.import_array()

__all__ = ["legal_moves", "classify", "beats", "parse_move", "legal_moves_batch",
           "count_moves", "MoveList", "MoveBatch"]

cdef object _rules_obj(object rules):
    return resolve_rules(rules)    # (checks a Rules subclass; a plain Rules is returned as is)


# ---------------------------------------------------------------------------
# Thin entry points
# ---------------------------------------------------------------------------

# The single-hand entry points are called millions of times with one or two
# positional arguments and at most rules=.  A Cython def is a cyfunction:
# the interpreter reaches it through a generic call, and its argument parser
# takes a reference to every argument and default.  Each public function
# below is instead a builtin function (METH_FASTCALL: the interpreter's
# specialised call) that runs the function's body directly for those forms,
# and hands every other form (keywords, wrong counts) to the full Cython def,
# whose parser makes the usual checks and errors.  The builtin carries the
# def's signature (__text_signature__) and docstring, and pickles by name.
ctypedef object (*EntryBody)(object, object, object)

cdef extern from *:
    """
    typedef PyObject* (*ddz_entry_body)(PyObject*, PyObject*, PyObject*);
    typedef struct {
        ddz_entry_body body;       /* (first, second or None, rules) */
        PyObject* full;            /* the def: every other form of call */
        PyObject* rules_name;      /* "rules", interned */
        PyObject* rules_default;
        Py_ssize_t min_pos, max_pos;
        PyMethodDef def;
    } ddz_entry;

    static PyObject* ddz_entry_call(ddz_entry* e, PyObject* const* args, Py_ssize_t nargs,
                                    PyObject* kwnames) {
        PyObject* rules = e->rules_default;
        if (nargs >= e->min_pos && nargs <= e->max_pos) {
            if (kwnames != NULL) {
                /* only rules= (its name interned, as keywords in source are) */
                if (PyTuple_GET_SIZE(kwnames) != 1 || PyTuple_GET_ITEM(kwnames, 0) != e->rules_name)
                    goto full;
                rules = args[nargs];
            }
            return e->body(args[0], nargs > 1 ? args[1] : Py_None, rules);
        }
      full:
        return PyObject_Vectorcall(e->full, args, (size_t)nargs, kwnames);
    }

    #define DDZ_ENTRY(NAME) \\
        static ddz_entry NAME##_entry; \\
        static PyObject* NAME##_fastcall(PyObject* self, PyObject* const* args, Py_ssize_t nargs, \\
                                         PyObject* kwnames) { \\
            (void)self; \\
            return ddz_entry_call(&NAME##_entry, args, nargs, kwnames); \\
        }
    DDZ_ENTRY(legal_moves)
    DDZ_ENTRY(count_moves)
    DDZ_ENTRY(classify)
    DDZ_ENTRY(beats)

    /* The builtin of entry e: the caller keeps `full`, `rules_name`,
       `rules_default`, `module` and the bytes of `doc` alive for good. */
    typedef PyObject* (*ddz_fastcall)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
    static PyObject* ddz_entry_make(ddz_entry* e, ddz_fastcall fastcall, ddz_entry_body body,
                                    PyObject* full, PyObject* rules_name, PyObject* rules_default,
                                    Py_ssize_t min_pos, Py_ssize_t max_pos,
                                    const char* name, const char* doc, PyObject* module) {
        e->body = body;
        e->full = full;
        e->rules_name = rules_name;
        e->rules_default = rules_default;
        e->min_pos = min_pos;
        e->max_pos = max_pos;
        e->def.ml_name = name;
        e->def.ml_meth = (PyCFunction)(void(*)(void))fastcall;
        e->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
        e->def.ml_doc = doc;
        return PyCFunction_NewEx(&e->def, NULL, module);
    }
    """
    ctypedef struct ddz_entry:
        pass
    ctypedef void* ddz_fastcall      # (opaque here: a C function pointer)
    ddz_entry legal_moves_entry, count_moves_entry, classify_entry, beats_entry
    ddz_fastcall legal_moves_fastcall, count_moves_fastcall, classify_fastcall, beats_fastcall
    object ddz_entry_make(ddz_entry* e, ddz_fastcall fastcall, EntryBody body, object full, object rules_name,
                          object rules_default, Py_ssize_t min_pos, Py_ssize_t max_pos,
                          const char* name, const char* doc, object module)


cdef list _ENTRY_KEEP = []     # what the builtins point to, alive for good


cdef object _thin_entry(ddz_entry* e, ddz_fastcall fastcall, EntryBody body, object full,
                        Py_ssize_t min_pos, Py_ssize_t max_pos):
    """The builtin that calls body(first, second or None, rules) for the
    positional forms of `full` (with or without rules=), else `full`."""
    sig, _, rest = full.__doc__.partition("\n")
    name = full.__name__.encode()
    # "name(signature)\n--\n\n": the form the interpreter reads
    # __text_signature__ from (inspect.signature, help)
    doc = (sig + "\n--\n\n" + rest.lstrip("\n")).encode()
    module = full.__module__
    rules_name = "rules"
    rules_default = full.__kwdefaults__[rules_name]
    _ENTRY_KEEP.append((full, rules_name, rules_default, name, doc, module))
    return ddz_entry_make(e, fastcall, body, full, rules_name, rules_default, min_pos, max_pos,
                          name, doc, module)


# ---------------------------------------------------------------------------
# Input loading
# ---------------------------------------------------------------------------

cdef dict _TEXT_CACHE = {}   # (text, decks) -> 15 bytes, for repeated card text


cdef inline bint _is_hand_array(cnp.ndarray arr):
    # a uint8 array of shape (15,): the layout _load_hand reads directly
    return (cnp.PyArray_NDIM(arr) == 1 and cnp.PyArray_DIM(arr, 0) == 15
            and cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8)


cdef inline int _load_hand(object hand, object rules, const RulesC* rc, unsigned char* out) except -1:
    """Fill out[0..14] with a validated hand.  Fast for a contiguous uint8
    numpy array of shape (15,) (inline: most calls pass one); everything
    else goes through _load_hand_slow."""
    cdef cnp.ndarray arr
    if type(hand) is cnp.ndarray:
        arr = <cnp.ndarray>hand
        if _is_hand_array(arr) and cnp.PyArray_STRIDE(arr, 0) == 1:
            memcpy(out, cnp.PyArray_DATA(arr), 15)
            if within(out, rc):
                return 0
    return _load_hand_slow(hand, rules, rc, out)


cdef int _load_hand_slow(object hand, object rules, const RulesC* rc, unsigned char* out) except -1:
    cdef cnp.ndarray arr
    cdef Py_ssize_t stride
    cdef char* p
    cdef int i
    cdef bytes b
    if type(hand) is cnp.ndarray:
        arr = <cnp.ndarray>hand
        if _is_hand_array(arr):
            stride = cnp.PyArray_STRIDE(arr, 0)
            p = <char*>cnp.PyArray_DATA(arr)
            for i in range(15):
                out[i] = <unsigned char>p[i * stride]
            if within(out, rc):
                return 0
    elif type(hand) is str:
        b = _text_counts(<str>hand, rules, rc.decks)
        memcpy(out, <const char*>b, 15)
        check_within(out, rc)
        return 0
    b = bytes(to_counts(hand, rules=_rules_obj(rules)))
    if len(b) != 15:    # to_counts guarantees 15; never copy from a shorter buffer
        raise ValueError(f"expected 15 counts, got {len(b)}")
    memcpy(out, <const char*>b, 15)
    check_within(out, rc)
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
    legal under these rules (its valid_for bit) skips the classification."""
    cdef Move m
    cdef unsigned char row[16]
    cdef unsigned long long bit = valid_bit(rc.id)
    if not isinstance(move, Move):
        raise TypeError(f"{what} must be a Move, not {type(move).__name__}")
    m = <Move>move
    if m.valid_for & bit:
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
    m.valid_for |= bit
    return 0


cdef int _raise_invalid(Move m, object rules, str what) except -1:
    r = _rules_obj(rules)
    to_counts(m.counts, rules=r)  # raises if outside the deck
    raise ValueError(f"{what} {m.cards!r} is not a {m.kind.name} under rules {r.name!r}")


cdef int _check_together(const unsigned char* h, Move last, const RulesC* rc, object rules) except -1:
    cdef u64 lo, hi, mlo, mhi
    cdef int i
    _hand_words(h, &lo, &hi)
    _hand_words(last.c, &mlo, &mhi)
    # (bytewise sums: each side is within the deck, so no byte carries)
    if not within_words(lo + mlo, hi + mhi, rc):
        both = [int(h[i]) + int(last.c[i]) for i in range(15)]
        try:
            to_counts(both, rules=_rules_obj(rules))
        except ValueError as e:
            raise ValueError(f"hand and last move cannot both be in play: {e}") from None
        raise ValueError("hand and last move cannot both be in play: more cards than the deck holds")
    return 0


# ---------------------------------------------------------------------------
# Single-hand entry points
# ---------------------------------------------------------------------------

def legal_moves(hand, last=None, *, rules="standard", wild=None):
    """Every legal move of ``hand`` as a :class:`MoveList`.

    With ``last`` None or PASS: every lead (never PASS).  Otherwise PASS
    followed by every move that beats ``last``.  Same results, same order as
    :func:`ddz_fast.reference.legal_moves`.  Under wild-card rules
    (``laizi``, ``tiandi``) ``wild`` gives the deal's wild rank(s) and the
    moves are those of :func:`ddz_fast.reference.wild_moves`.
    """
    if wild is not None:
        return _wild_legal_moves(hand, last, rules, wild)
    return _legal_moves(hand, last, rules)


cdef object _legal_moves(object hand, object last, object rules):
    cdef int cid = rules_id(rules)
    cdef Out o
    cdef unsigned char first[FIRST_BYTES]
    _generate_here(hand, last, rules, cid, &o, first, NULL, NULL)
    return movelist_from_out(&o, cid)


cdef int _load_position(object hand, object last, object rules, const RulesC* rc,
                        unsigned char* h, MoveInfo* li) except -1:
    """The checked input of one hand's call: the hand into h (16 bytes),
    the last move's info into li; 1 when there is a last move to answer
    (not None), 0 for a lead."""
    if rc.wild_ranks:
        parse_wild(None, rules)     # (raises: wild rules need wild=)
    _load_hand(hand, rules, rc, h)
    if last is None:
        return 0
    _load_move(last, rules, rc, li, "last")
    _check_together(h, <Move>last, rc, rules)
    return 1


cdef int _generate(object hand, object last, object rules, int cid, Out* o,
                   unsigned char* first, int* cards, IdSink* ids) except -1:
    """The moves of legal_moves(hand, last) into `o`, started on `first`
    (see _core/entry.pxd): the input checked, the kernel run; the number of cards
    in the hand into cards[0] (unless NULL); in id mode when ids is not NULL."""
    return _generate_here(hand, last, rules, cid, o, first, cards, ids)


cdef inline int _generate_here(object hand, object last, object rules, int cid, Out* o,
                               unsigned char* first, int* cards, IdSink* ids) except -1:
    # _generate, inlined into legal_moves (a call and its frame are a
    # noticeable part of a small call)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef unsigned char h[16]
    cdef MoveInfo li
    cdef u64 lo, hi
    cdef bint answer = _load_position(hand, last, rules, rc, h, &li)
    out_init_on(o, first, FIRST_ROWS)
    o.ids = ids
    gen_moves(h, rc, &li if answer else NULL, o)
    if o.oom or (ids != NULL and ids.oom):
        out_free(o)
        raise MemoryError("out of memory generating moves")
    if cards != NULL:
        _hand_words(h, &lo, &hi)
        cards[0] = _word_cards(lo, hi)
    return 0


def classify(cards, *, rules="standard", wild=None):
    """Every reading of the cards as a move: one Move per kind, in kind order,
    each with the rank of its highest reading; empty for no move.  With wild
    cards (``wild=``): one Move per kind and represented combination, in
    list order."""
    if wild is not None:
        return _wild_classify(cards, rules, wild)
    return _classify(cards, None, rules)


cdef object _classify(object cards, object _unused, object rules):
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef unsigned char c[16]
    if rc.wild_ranks:
        parse_wild(None, rules)     # (raises: wild rules need wild=)
    _load_hand(cards, rules, rc, c)
    return readings_of(c, cid)


def beats(a, b, *, rules="standard", wild=None):
    """Does move ``a`` beat move ``b``?  See :func:`ddz_fast.reference.beats`
    (with wild cards, :func:`ddz_fast.reference.wild_beats`: bombs compare
    by class first)."""
    if wild is not None:
        return _wild_beats(a, b, rules, wild)
    return _beats(a, b, rules)


cdef object _beats(object a, object b, object rules):
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef MoveInfo ma, mb
    if rc.wild_ranks:
        parse_wild(None, rules)     # (raises: wild rules need wild=)
    _load_move(a, rules, rc, &ma, "a")
    _load_move(b, rules, rc, &mb, "b")
    return beats_c(&ma, &mb)


def parse_move(text, kind=None, *, rules="standard", wild=None):
    """Turn card text into one typed Move (``"pass"`` is PASS).

    Raises :class:`~ddz_fast.InvalidMoveError` for text that is no cards of
    the rules or no legal move, or not of the given kind, and
    :class:`~ddz_fast.AmbiguousMoveError` when it reads as several kinds and
    no kind is given (both ValueErrors).  With wild cards (``wild=``) the
    text is ``"<cards>=<represented>"``, for example ``"5577=5555"`` with 7
    wild (without ``=``: the cards read as themselves).
    """
    if wild is not None:
        wild_mask(wild, rules)      # (checked before the text)
        return parse_move_with(text, kind, _rules_obj(rules),
                               lambda t: _wild_text_readings(t, rules, wild))
    return parse_move_with(text, kind, _rules_obj(rules), lambda t: classify(t, rules=rules))


# ---------------------------------------------------------------------------
# Wild cards (docs/rules.md, "Wild cards"; the kernel: _core/wild.pyx)
# ---------------------------------------------------------------------------

cdef int _load_wild_last(object last, object rules, int cid, unsigned int wmask,
                         const unsigned char* h, unsigned char* row) except -1:
    """The move to answer as a 32-byte wild row (its reading checked under
    the wild ranks, its cards together with the hand within the deck): 1,
    or 0 for a lead (None or PASS)."""
    cdef Move m
    cdef const RulesC* rc = rules_by_id(cid)
    cdef unsigned char both[16]
    cdef int i
    if last is None:
        return 0
    if not isinstance(last, Move):
        raise TypeError(f"last must be a Move, not {type(last).__name__}")
    m = <Move>last
    if m.kind_ == K_PASS:
        return 0
    if not (m.wmask_ == wmask and m.valid_for & valid_bit(cid)):
        m = Move(last.kind, last.counts, rules=rules, wild=wild_ranks_of(wmask), represents=last.represents)
    memset(row, 0, WROW)
    memcpy(row, m.c, 15)
    row[KIND_BYTE] = <unsigned char>m.kind_
    memcpy(row + W_PHYS, m.p, 15)
    row[W_CLASS] = <unsigned char>bomb_class(m.kind_, m.c, m.p, wmask)
    for i in range(15):
        both[i] = h[i] + m.p[i]
    if not within(both, rc):
        raise ValueError("hand and last move cannot both be in play: more cards than the deck holds")
    return 1


cdef object _wild_legal_moves(object hand, object last, object rules, object wild):
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef unsigned int wmask = wild_mask(wild, rules)
    cdef unsigned char h[16]
    cdef unsigned char lrow[WROW]
    cdef unsigned char first[FIRST_BYTES]
    cdef Out o
    cdef bint answer
    _load_hand(hand, rules, rc, h)
    answer = _load_wild_last(last, rules, cid, wmask, h, lrow)
    out_init_on(&o, first, FIRST_ROWS)
    with nogil:
        gen_wild(h, rc, wmask, lrow if answer else NULL, False, &o)
    if o.oom:
        out_free(&o)
        raise MemoryError("out of memory generating moves")
    return wild_movelist_from_out(&o, cid, wmask)


cdef object _wild_classify(object cards, object rules, object wild):
    cdef int cid = rules_id(rules)
    cdef unsigned int wmask = wild_mask(wild, rules)
    cdef unsigned char c[16]
    _load_hand(cards, rules, rules_by_id(cid), c)
    return wild_readings_of(c, cid, wmask)


cdef object _wild_beats(object a, object b, object rules, object wild):
    cdef int cid = rules_id(rules)
    cdef unsigned int wmask = wild_mask(wild, rules)
    cdef unsigned char ra[WROW]
    cdef unsigned char rb[WROW]
    cdef unsigned char none[16]
    cdef MoveInfo ma, mb
    memset(none, 0, 16)
    _wild_row_of(a, rules, cid, wmask, none, ra, "a")
    _wild_row_of(b, rules, cid, wmask, none, rb, "b")
    row_info(ra, &ma)
    row_info(rb, &mb)
    return beats_wild(&ma, ra[W_CLASS], &mb, rb[W_CLASS])


cdef int _wild_row_of(object x, object rules, int cid, unsigned int wmask, const unsigned char* none,
                      unsigned char* row, str what) except -1:
    # a Move (PASS included) as a checked 32-byte wild row
    if not isinstance(x, Move):
        raise TypeError(f"{what} must be a Move, not {type(x).__name__}")
    memset(row, 0, WROW)
    if (<Move>x).kind_ != K_PASS:
        _load_wild_last(x, rules, cid, wmask, none, row)
    return 0


cdef list _wild_text_readings(object text, object rules, object wild):
    # the readings of "<cards>=<represented>" (or of "<cards>" as themselves)
    cards, sep, rep = text.partition("=")
    r = _rules_obj(rules)
    want = bytes(to_counts(rep if sep else cards, rules=r))
    return [m for m in _wild_classify(cards, rules, wild) if bytes(m.represents) == want]


# ---------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------

cdef class _Job:
    # One contiguous slice of a batch, run by one thread without the GIL.
    cdef const unsigned char* hands
    cdef const MoveInfo* lasts     # NULL: every hand leads
    cdef Py_ssize_t start, stop
    cdef const RulesC* rc
    cdef Out out
    cdef cnp.int64_t* per_hand     # moves per hand (global array)
    cdef bint count_only
    cdef object arrays   # the arrays behind the pointers above, alive while a worker may use them

    def __dealloc__(self):
        out_free(&self.out)

    def run_py(self):
        with nogil:
            _run_range(self.hands, self.lasts, self.start, self.stop, self.rc,
                       &self.out, self.per_hand, self.count_only)


cdef void _run_range(const unsigned char* hands, const MoveInfo* lasts, Py_ssize_t start,
                     Py_ssize_t stop, const RulesC* rc, Out* o, cnp.int64_t* per_hand,
                     bint count_only) noexcept nogil:
    # Hands start..stop-1 of a batch into `o`, moves per hand into per_hand.
    cdef Py_ssize_t i, before
    cdef const MoveInfo* lp
    if count_only:
        # Count-only: nothing is written.
        out_init(o, 0, True)
    for i in range(start, stop):
        lp = NULL if lasts == NULL else &lasts[i]
        before = o.n
        gen_moves(hands + i * 15, rc, lp, o)
        if o.oom:
            return
        per_hand[i] = o.n - before


cdef object _check_batch_hands(object hands, object rules, const RulesC* rc):
    """Validate an (N, 15) array of hands; return a C-contiguous uint8 copy
    of its own.  The copy is taken first and then checked: the GIL-free
    kernels read exactly what was checked, whatever another thread does to
    the caller's array meanwhile."""
    cdef cnp.ndarray arr
    cdef const unsigned char* hp
    cdef Py_ssize_t i
    if (type(hands) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>hands) == cnp.NPY_UINT8
            and cnp.PyArray_NDIM(<cnp.ndarray>hands) == 2 and cnp.PyArray_DIM(<cnp.ndarray>hands, 1) == 15):
        # The common input, checked in C (the numpy checks below cost
        # microseconds a call); any hand outside the deck takes the slow path,
        # which names it.
        arr = <cnp.ndarray>cnp.PyArray_NewCopy(<cnp.ndarray>hands, cnp.NPY_CORDER)
        hp = <const unsigned char*>cnp.PyArray_DATA(arr)
        for i in range(cnp.PyArray_DIM(arr, 0)):
            if not within(hp + 15 * i, rc):
                break
        else:
            return arr
        hands = arr
    elif isinstance(hands, (str, bytes)):
        raise TypeError("hands must be an (N, 15) integer array")
    else:
        hands = private_array(hands, "hands")
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
    return np.ascontiguousarray(hands, dtype=np.uint8)   # (of the private copy)


cdef enum:
    SEEN_ROWS = 256      # slots of _check_batch_lasts' table of validated rows


cdef inline int _row_slot(const unsigned char* row) noexcept nogil:
    # A slot of the table of validated rows: the 16 bytes folded.
    cdef unsigned long long a, b
    memcpy(&a, row, 8)
    memcpy(&b, row + 8, 8)
    a = (a ^ (b * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL
    return <int>(a >> 56)


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
    cdef unsigned long long bit = valid_bit(rc.id)
    cdef Move m
    cdef int j, slot
    cdef unsigned char seen_rows[SEEN_ROWS][16]
    cdef MoveInfo seen_info[SEEN_ROWS]
    cdef unsigned char seen_ok[SEEN_ROWS]
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
        rows = np.ascontiguousarray(private_array(lasts, "lasts"))
        src = <const unsigned char*>cnp.PyArray_DATA(rows)
        # A row equal to one already validated in this call is not classified
        # again: a small direct-mapped table of the rows found legal (the same
        # bytes have the same answer), since the lasts of a batch repeat.
        memset(seen_ok, 0, sizeof(seen_ok))
        for i in range(n):
            memcpy(row, src + i * 16, 16)
            slot = _row_slot(row)
            if seen_ok[slot] and memcmp(seen_rows[slot], row, 16) == 0:
                mp[i] = seen_info[slot]
            elif valid_move_c(row, rc, &mp[i]):
                memcpy(seen_rows[slot], row, 16)
                seen_info[slot] = mp[i]
                seen_ok[slot] = 1
            else:
                raise ValueError(f"lasts[{i}] ({format_cards([row[j] for j in range(15)]) or 'no cards'}, "
                                 f"kind {row[15]}) is not a legal move under the rules")
            memcpy(lc + i * 15, row, 15)
    else:
        lasts = bounded_list(lasts, n, "lasts")
        if len(lasts) != n:
            raise ValueError(f"expected {n} last moves, got {len(lasts)}")
        for i in range(n):
            x = lasts[i]
            if x is None:
                mp[i].kind = K_PASS
                continue
            if type(x) is Move and (<Move>x).valid_for & bit:
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
        if not within(both, rc):
            raise ValueError(f"hand {i} and its last move cannot both be in play "
                             "(more cards than the deck holds)")
    return infos


cdef enum:
    # A batch's row buffer starts at 96 rows a hand (more than a 20-card
    # lead has on average), but at most this many rows (1 MiB), and doubles
    # as the rows need it: its memory grows with the output, not with a
    # guess per hand (20 million one-card hands would have reserved 30 GB):
    # at most twice the rows written.  The unused end is not given back: a
    # shrinking realloc makes glibc unmap the block when it is freed, and
    # the next batch then faults in fresh pages (7x slower on 1024 leads).
    BATCH_FIRST_ROWS = 1 << 16


cdef inline Py_ssize_t _first_rows(Py_ssize_t hands) noexcept nogil:
    return (hands * 96 if hands < BATCH_FIRST_ROWS // 96 else BATCH_FIRST_ROWS) + 16


cdef tuple _run_batch(object hands, object lasts, object rules, object threads, bint count_only):
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef Py_ssize_t n, t, total
    cdef _Job job
    if rc.wild_ranks:
        parse_wild(None, rules)     # (raises: wild rules need wild=)
    threads = as_threads(threads)
    hands = _check_batch_hands(hands, rules, rc)
    infos = _check_batch_lasts(lasts, hands, rules, rc)
    n = hands.shape[0]
    cdef cnp.npy_intp dim = n
    per_hand = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_INT64, 0)
    threads = max(1, min(threads, n))
    cdef Out single
    cdef const unsigned char* hp
    cdef cnp.int64_t* ph
    cdef const MoveInfo* lp = NULL if infos is None else <const MoveInfo*>cnp.PyArray_DATA(infos)
    if threads == 1:
        # On the calling thread: no job object, no worker hand-off.
        hp = <const unsigned char*>cnp.PyArray_DATA(hands)
        ph = <cnp.int64_t*>cnp.PyArray_DATA(per_hand)
        if not (out_init(&single, 0, True) if count_only else out_init_batch(&single, _first_rows(n), 96 * n)):
            raise MemoryError("out of memory generating moves")
        with nogil:
            _run_range(hp, lp, 0, n, rc, &single, ph, count_only)
        if single.oom:
            out_free(&single)
            raise MemoryError("out of memory generating moves")
        if count_only:
            return per_hand, None, cid
        try:
            offsets = _offsets_of(<const cnp.int64_t*>cnp.PyArray_DATA(per_hand), n)
        except MemoryError:
            out_free(&single)
            raise
        return offsets, _adopt_rows(&single), cid
    jobs = []
    for t in range(threads):
        job = _Job()
        job.hands = <const unsigned char*>cnp.PyArray_DATA(hands)
        job.lasts = lp
        job.start = n * t // threads
        job.stop = n * (t + 1) // threads
        job.rc = rc
        job.per_hand = <cnp.int64_t*>cnp.PyArray_DATA(per_hand)
        job.count_only = count_only
        job.arrays = (hands, infos, per_hand)
        if not count_only:
            if not out_init_batch(&job.out, _first_rows(job.stop - job.start), 96 * (job.stop - job.start)):
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
    cdef Out joined
    if not out_init_batch(&joined, total, total):
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


cdef void _release_rows_capsule(object capsule) noexcept:
    # the capsule's context is the buffer's capacity in rows
    release_rows(<unsigned char*>PyCapsule_GetPointer(capsule, NULL),
                 <Py_ssize_t><size_t>PyCapsule_GetContext(capsule))


cdef object _adopt_rows(Out* o):
    """An (n, ROW) uint8 array that owns the buffer of `o` (which is emptied;
    freed, the buffer goes to release_rows)."""
    cdef cnp.npy_intp dims[2]
    dims[0] = o.n
    dims[1] = ROW
    try:
        capsule = PyCapsule_New(o.data, NULL, <PyCapsule_Destructor>_release_rows_capsule)
    except MemoryError:
        out_free(o)
        raise
    PyCapsule_SetContext(capsule, <void*><size_t>o.cap)   # (cannot fail on a valid capsule)
    o.data = NULL
    o.n = 0
    o.cap = 0
    arr = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_UINT8, PyCapsule_GetPointer(capsule, NULL))
    cnp.set_array_base(arr, capsule)
    return arr


cdef tuple _run_wild_batch(object hands, object lasts, object rules, object wild, object threads,
                           bint count_only):
    # legal_moves_batch and count_moves with wild cards: each hand's moves
    # by gen_wild (one thread: the threads argument is checked, the hands
    # run in order), the lasts checked one by one.
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    cdef unsigned int wmask = wild_mask(wild, rules)
    cdef Py_ssize_t n, i, before
    cdef cnp.ndarray lrows
    cdef unsigned char* lp
    cdef const unsigned char* hp
    cdef cnp.int64_t* ph
    cdef unsigned char* answer
    cdef Out o
    as_threads(threads)
    hands = _check_batch_hands(hands, rules, rc)
    n = hands.shape[0]
    hp = <const unsigned char*>cnp.PyArray_DATA(hands)
    lrows = np.zeros((n, WROW), dtype=np.uint8)
    has = np.zeros(n, dtype=np.uint8)
    lp = <unsigned char*>cnp.PyArray_DATA(lrows)
    answer = <unsigned char*>cnp.PyArray_DATA(has)
    if lasts is not None:
        lasts = bounded_list(lasts, n, "lasts")
        if len(lasts) != n:
            raise ValueError(f"expected {n} last moves, got {len(lasts)}")
        for i in range(n):
            answer[i] = _load_wild_last(lasts[i], rules, cid, wmask, hp + 15 * i, lp + WROW * i)
    per_hand = np.zeros(n, dtype=np.int64)
    ph = <cnp.int64_t*>cnp.PyArray_DATA(per_hand)
    if not out_init_batch(&o, _first_rows(n), 96 * n):
        raise MemoryError("out of memory generating moves")
    with nogil:
        for i in range(n):
            before = o.n
            gen_wild(hp + 15 * i, rc, wmask, lp + WROW * i if answer[i] else NULL, False, &o)
            if o.oom:
                break
            ph[i] = (o.n - before) // 2
            if count_only:
                o.n = 0
    if o.oom:
        out_free(&o)
        raise MemoryError("out of memory generating moves")
    if count_only:
        out_free(&o)
        return per_hand, None, cid, wmask
    offsets = _offsets_of(<const cnp.int64_t*>cnp.PyArray_DATA(per_hand), n)
    rows = _adopt_rows(&o).reshape(-1, WROW)
    return offsets, rows, cid, wmask


def legal_moves_batch(hands, lasts=None, *, rules="standard", threads=1, wild=None):
    """Legal moves of many hands at once, with the GIL released.

    ``hands``: an (N, 15) integer array.  ``lasts``: None (every hand leads),
    a sequence of N moves (``None`` or PASS for a lead), or an (N, 16) uint8
    array of move rows (15 counts and the kind code, as in ``MoveList.rows``).
    ``threads`` splits the batch into that many contiguous parts run in
    parallel.  Returns a :class:`MoveBatch`; hand i's moves equal
    ``legal_moves(hands[i], lasts[i])``.

    Memory: the rows buffer grows with the output (at most twice the rows
    written).  When a batch whose buffer is 1-256 MiB is freed, the buffer
    is kept (two at most) for the next batches, which would otherwise fault
    every page of a fresh one in again; a batch alive is never reused.

    With wild cards (``wild=``, the same wild ranks for every hand) the
    rows are 32 bytes (see ``MoveList.rows``) and the hands run on one
    thread; ``lasts`` is then None or a sequence of moves.
    """
    if wild is not None:
        offsets, rows, cid, wmask = _run_wild_batch(hands, lasts, rules, wild, threads, False)
        return make_batch(rows, offsets, cid, wmask)
    offsets, rows, cid = _run_batch(hands, lasts, rules, threads, False)
    return make_batch(rows, offsets, cid)


cdef bint _is_one_hand(object hands):
    """Is this one hand (text, a 1-D array, a flat sequence of counts) rather
    than a batch of hands?"""
    if isinstance(hands, str):
        return True
    if isinstance(hands, np.ndarray):
        return hands.ndim == 1
    if isinstance(hands, (list, tuple)):
        # (a loop, not any() over a generator: that would allocate a closure
        # on every call)
        for x in hands:
            if isinstance(x, (list, tuple, np.ndarray, str, bytes)):
                return False
        return len(hands) > 0
    return False


def count_moves(hands, lasts=None, *, rules="standard", threads=1, wild=None):
    """How many legal moves each hand has (PASS counted in responses), as an
    (N,) int64 array; for one hand of shape (15,) (or text), an int.  With
    wild cards (``wild=``) the moves are counted as generated."""
    if wild is not None:
        if _is_one_hand(hands):
            as_threads(threads)
            return len(_wild_legal_moves(hands, lasts, rules, wild))
        return _run_wild_batch(hands, lasts, rules, wild, threads, True)[0]
    return _count_moves(hands, lasts, rules, threads)


cdef object _count_moves_1(object hands, object lasts, object rules):
    return _count_moves(hands, lasts, rules, 1)


cdef object _count_moves(object hands, object lasts, object rules, object threads):
    cdef int cid
    cdef const RulesC* rc
    cdef unsigned char h[16]
    cdef MoveInfo li
    if _is_one_hand(hands):
        cid = rules_id(rules)
        rc = rules_by_id(cid)
        as_threads(threads)    # (checked as for a batch, though one hand runs here)
        if _load_position(hands, lasts, rules, rc, h, &li):
            return count_moves_c(h, rc, &li)
        return count_moves_c(h, rc, NULL)
    per_hand, _, _ = _run_batch(hands, lasts, rules, threads, True)
    return per_hand


legal_moves = _thin_entry(&legal_moves_entry, legal_moves_fastcall, _legal_moves, legal_moves, 1, 2)
count_moves = _thin_entry(&count_moves_entry, count_moves_fastcall, _count_moves_1, count_moves, 1, 2)
classify = _thin_entry(&classify_entry, classify_fastcall, _classify, classify, 1, 1)
beats = _thin_entry(&beats_entry, beats_fastcall, _beats, beats, 2, 2)
