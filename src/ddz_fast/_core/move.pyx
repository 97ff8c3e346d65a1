# cython: language_level=3
"""The :class:`Move` value type.

A move is a kind plus a 15-slot count vector; two moves are equal when both
are equal.  ``rank`` and ``length`` are derived facts stored for speed.  This
module holds no rules logic: moves are made by the engines (reference or
fast), or, when a user builds one, validated by the kernels' classifier
under the registered rules (the same one :func:`ddz_fast.classify` runs).
"""
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.string cimport memcpy, memcmp, memset

from .kernels cimport MoveInfo, Out, ROW, classify_c, row_info, out_init_on, out_free
from .registry cimport rules_id, rules_by_id, valid_bit, check_within
from .wild cimport WROW, W_PHYS, W_CLASS, CLS_NONE, CLS_HARD, CLS_ROCKET, gen_wild, bomb_class

from ..cards import format_cards, parse_wild, to_counts
from ..errors import AmbiguousMoveError, InvalidMoveError
from ..kinds import Kind
from .. import pickling as _pickling
from ..rules import resolve_rules

cdef tuple _KINDS = tuple(Kind)
cdef tuple _INTS = tuple(range(256))
cdef str _RANK_CHARS = "3456789TJQKA2BR"


cdef object _kind_obj(Move m):
    """The Kind of a move; ValueError for a Move that was never initialised
    (``Move.__new__(Move)``, or a subclass that skipped ``Move.__init__``):
    its kind code is not a Kind and must not index the Kind table."""
    if not 0 <= m.kind_ < N_KINDS:
        raise ValueError("uninitialised Move: build moves with Move(kind, cards) or parse_move")
    return _KINDS[m.kind_]


cdef Move make_move(int kind, const unsigned char* counts, int rank, int length):
    """Make a Move without validation (callers guarantee the invariants)."""
    cdef Move m = Move.__new__(Move)
    cdef int i, n = 0
    memcpy(m.c, counts, N_RANKS)
    memcpy(m.p, counts, N_RANKS)
    for i in range(N_RANKS):
        n += counts[i]
    m.cls_ = CLS_HARD if kind == K_BOMB else (CLS_ROCKET if kind == K_ROCKET else CLS_NONE)
    m.wmask_ = 0
    m.kind_ = kind
    m.rank_ = rank
    m.length_ = length
    m.ncards = n
    m.hash_ = -1
    return m


cdef Move row_move(const unsigned char* row, int cid):
    cdef MoveInfo mi
    row_info(row, &mi)
    cdef Move m = make_move(mi.kind, row, mi.rank, mi.length)
    m.valid_for = valid_bit(cid)
    return m


cdef Move wild_row_move(const unsigned char* row, int cid, unsigned int wmask):
    cdef Move m = row_move(row, cid)
    memcpy(m.p, row + W_PHYS, N_RANKS)
    m.cls_ = row[W_CLASS]
    m.wmask_ = <unsigned short>wmask
    return m


cdef Move wild_row_move_parts(const unsigned char* rep_row, const unsigned char* phys,
                              unsigned int wmask):
    # A Move of the 16-byte represented row and the physical counts, class
    # derived, trusted under no rules (valid_for 0: re-checked before use)
    cdef MoveInfo mi
    row_info(rep_row, &mi)
    cdef Move m = make_move(mi.kind, rep_row, mi.rank, mi.length)
    memcpy(m.p, phys, N_RANKS)
    m.cls_ = <unsigned char>bomb_class(mi.kind, rep_row, phys, wmask)
    m.wmask_ = <unsigned short>wmask
    m.valid_for = 0
    return m


cdef unsigned int wild_mask(object wild, object rules) except? 0xFFFFFFFF:
    cdef unsigned int mask = 0
    for x in parse_wild(wild, rules):
        mask |= 1u << <int>x
    return mask


cdef tuple wild_ranks_of(unsigned int wmask):
    return tuple([x for x in range(13) if (wmask >> x) & 1])


cdef list wild_readings_of(const unsigned char* c, int cid, unsigned int wmask):
    cdef Out o
    cdef unsigned char first[16 * WROW]
    cdef Py_ssize_t i
    cdef list out = []
    out_init_on(&o, first, 32)
    gen_wild(c, rules_by_id(cid), wmask, NULL, True, &o)
    try:
        if o.oom:
            raise MemoryError("out of memory reading wild cards")
        for i in range(0, o.n, 2):
            out.append(wild_row_move(o.data + i * ROW, cid, wmask))
    finally:
        out_free(&o)
    return out


cdef list readings_of(const unsigned char* c, int cid):
    cdef MoveInfo infos[N_KINDS]
    cdef int n = classify_c(c, rules_by_id(cid), infos), i
    cdef list out = []
    cdef Move m
    for i in range(n):
        m = make_move(infos[i].kind, c, infos[i].rank, infos[i].length)
        m.valid_for = valid_bit(cid)
        out.append(m)
    return out


def pick_reading(readings, want, text, rules):
    """The one reading of `text` of kind `want` (a Kind or None), or its only
    reading; `rules` (a Rules) names the rules in the errors.

    Raises :class:`~ddz_fast.InvalidMoveError` when the cards are no move or
    are not of kind `want`, :class:`~ddz_fast.AmbiguousMoveError` when they
    read as several kinds and `want` is None (both ValueErrors).
    """
    if not readings:
        raise InvalidMoveError(f"{text!r} is no legal move under rules {rules.name!r}")
    if want is not None:
        for m in readings:
            if m.kind == want:
                return m
        raise InvalidMoveError(
            f"{text!r} is not a {want.name} under rules {rules.name!r}; it reads as "
            + " or ".join([m.kind.name for m in readings])
        )
    if len(readings) > 1:
        raise AmbiguousMoveError(
            f"{text!r} is ambiguous: it reads as "
            + " or ".join([m.kind.name for m in readings])
            + "; pass kind= to choose"
        )
    return readings[0]


cdef bytes _counts_bytes(object cards, object r):
    counts = bytes(to_counts(cards, rules=r))
    if len(counts) != N_RANKS:    # to_counts guarantees 15; never read past a shorter buffer
        raise ValueError(f"expected 15 counts, got {len(counts)}")
    return counts


cdef Move _validated(object kind, object cards, object rules, object wild, object represents):
    """The Move ``Move(kind, cards, rules=rules, wild=wild,
    represents=represents)`` describes, after checking that the cards are a
    move of that kind (read as `represents`, by default themselves) under
    the rules and wild ranks."""
    cdef unsigned char c[N_RANKS]
    cdef int cid
    cdef unsigned int wmask
    r = resolve_rules(rules)
    k = Kind.coerce(kind)
    wmask = wild_mask(wild, r)
    if k == Kind.PASS:
        if (cards is not None and any(to_counts(cards, rules=r))) or (
                represents is not None and any(to_counts(represents, rules=r))):
            raise ValueError("PASS has no cards")
        return None
    if cards is None:
        raise TypeError(f"Move({k.name}, ...) needs cards")
    cid = rules_id(r)
    counts = _counts_bytes(cards, r)
    memcpy(c, <const char*>counts, N_RANKS)
    check_within(c, rules_by_id(cid))
    rep = counts if represents is None else _counts_bytes(represents, r)
    text = format_cards(list(counts), rules=r)
    if not wmask:
        if rep != counts:
            raise ValueError(f"without wild cards a move represents its own cards, not "
                             f"{format_cards(list(rep), rules=r)!r}")
        return pick_reading(readings_of(c, cid), k, text, r)
    if rep != counts:
        text += "=" + format_cards(list(rep), rules=r)
    readings = [m for m in wild_readings_of(c, cid, wmask) if bytes((<Move>m).c[:N_RANKS]) == rep]
    return pick_reading(readings, k, text, r)


cdef class Move:
    """One move: a kind and its cards.

    Build one from text with :func:`ddz_fast.parse_move`, or as
    ``Move(kind, cards, rules="standard")``, which checks that the cards are a
    move of that kind under the rules.  Moves are immutable and hashable.

    Attributes: ``kind`` (:class:`Kind`), ``rank`` (top rank index of the
    primal group, highest reading; -1 for PASS), ``length`` (number of primal
    groups; 0 for PASS), ``counts`` (tuple of 15 ints: the cards played),
    ``represents`` (tuple of 15 ints: the combination they are read as),
    ``bomb_class``, ``n_cards``.

    With wild cards (rules ``laizi``, ``tiandi``; docs/rules.md, "Wild
    cards") a move is its kind, the cards played and the combination they
    are read as: ``Move(kind, cards, rules="laizi", wild=w,
    represents=...)`` (``represents`` defaults to the cards themselves).
    """

    def __cinit__(self):
        self.kind_ = -2   # not yet initialised

    def __init__(self, kind, cards=None, *, rules="standard", wild=None, represents=None):
        if self.kind_ != -2:
            raise TypeError("Move is immutable")
        cdef Move m = _validated(kind, cards, rules, wild, represents)
        if m is None:       # PASS
            memset(self.c, 0, N_RANKS)
            memset(self.p, 0, N_RANKS)
            self.cls_ = CLS_NONE
            self.wmask_ = 0
            self.kind_ = K_PASS
            self.rank_ = -1
            self.length_ = 0
            self.ncards = 0
            self.valid_for = 0
        else:
            memcpy(self.c, m.c, N_RANKS)
            memcpy(self.p, m.p, N_RANKS)
            self.cls_ = m.cls_
            self.wmask_ = m.wmask_
            self.kind_ = m.kind_
            self.rank_ = m.rank_
            self.length_ = m.length_
            self.ncards = m.ncards
            self.valid_for = m.valid_for
        self.hash_ = -1

    @staticmethod
    def _make(kind, counts, rank, length):
        """Internal (the reference engine and unpickling): build a move from
        fields that are not checked against the rules, only for being in
        range (a kind code 0..14, 15 counts 0..255, rank -1..14, length
        0..20), so that a forged pickle cannot make a Move that indexes out
        of bounds.  The fast path re-validates such a move before use."""
        cdef unsigned char buf[15]
        cdef int i
        for name, value, low, high in (("kind", kind, 0, N_KINDS - 1), ("rank", rank, -1, N_RANKS - 1),
                                       ("length", length, 0, 20)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"Move {name} must be an int {low}..{high}, not {value!r}")
        if isinstance(counts, (str, bytes)) or len(counts) != N_RANKS:
            raise ValueError("expected 15 counts")
        for i in range(N_RANKS):
            v = counts[i]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 255:
                raise ValueError(f"count {i} must be an int 0..255, not {v!r}")
            buf[i] = v
        return make_move(kind, buf, rank, length)

    @staticmethod
    def _make_wild(kind, counts, represents, wild):
        """Internal (unpickling): a wild-card move from its kind, the cards
        played, the counts they represent and the wild ranks, each checked
        for range only (one deck; rank and length read off the represented
        counts), like ``_make``: the fast path re-validates it before use."""
        cdef unsigned char c[16]
        cdef unsigned char ph[16]
        cdef unsigned int wmask = 0
        cdef Move m
        if isinstance(kind, bool) or not isinstance(kind, int) or not 0 <= kind < N_KINDS:
            raise ValueError(f"Move kind must be an int 0..{N_KINDS - 1}, not {kind!r}")
        _one_deck_counts(counts, "counts", ph)
        _one_deck_counts(represents, "represents", c)
        if not isinstance(wild, tuple) or not 1 <= len(wild) <= 2:
            raise ValueError("a wild Move's wild ranks must be a tuple of one or two ranks")
        for x in wild:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 12:
                raise ValueError(f"a wild rank must be an int 0..12, not {x!r}")
            wmask |= 1u << <int>x
        c[15] = <unsigned char>kind
        m = wild_row_move_parts(c, ph, wmask)
        return m

    @property
    def kind(self):
        return _kind_obj(self)

    @property
    def rank(self):
        return self.rank_

    @property
    def length(self):
        return self.length_

    @property
    def n_cards(self):
        return self.ncards

    @property
    def counts(self):
        """The cards played: a tuple of 15 counts."""
        # (every interop function reads a Move through .counts: an
        # uninitialised one must not pass for an empty card set)
        _kind_obj(self)
        return _count_tuple(self.p)

    @property
    def represents(self):
        """The combination the cards are read as: a tuple of 15 counts (the
        cards themselves unless a wild card stands in for another rank)."""
        _kind_obj(self)
        return _count_tuple(self.c)

    @property
    def bomb_class(self):
        """``None`` for a move that is no bomb; else ``"soft"`` (a wild card
        stands in for another rank), ``"hard"``, ``"wild"`` (four wild cards
        as themselves) or ``"rocket"``, in beating order."""
        _kind_obj(self)
        return _CLASSES[self.cls_]

    @property
    def cards(self):
        """Canonical card text of the cards played (empty for PASS)."""
        _kind_obj(self)
        return _text(self.p)

    def __str__(self):
        if self.kind_ == K_PASS:
            return "PASS"
        if memcmp(self.c, self.p, N_RANKS) != 0:
            return self.cards + "=" + _text(self.c)
        return self.cards

    def __repr__(self):
        if self.kind_ == K_PASS:
            return "Move(PASS)"
        if not 0 <= self.kind_ < N_KINDS:
            return "Move(<uninitialised>)"
        if memcmp(self.c, self.p, N_RANKS) != 0:
            return (f"Move({_kind_obj(self).name}, {self.cards!r}, represents={_text(self.c)!r}, "
                    f"rank={self.rank_}, length={self.length_})")
        return f"Move({_kind_obj(self).name}, {self.cards!r}, rank={self.rank_}, length={self.length_})"

    def __len__(self):
        return self.ncards

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        cdef Move o = <Move>other
        return (self.kind_ == o.kind_ and memcmp(self.c, o.c, N_RANKS) == 0
                and memcmp(self.p, o.p, N_RANKS) == 0)

    def __ne__(self, other):
        r = self.__eq__(other)
        if r is NotImplemented:
            return r
        return not r

    def __hash__(self):
        if self.hash_ == -1:
            if memcmp(self.c, self.p, N_RANKS) != 0:
                h = hash((self.kind_, bytes(self.c[:N_RANKS]), bytes(self.p[:N_RANKS])))
            else:
                h = hash((self.kind_, bytes(self.c[:N_RANKS])))
            self.hash_ = -2 if h == -1 else h
        return self.hash_

    def __reduce__(self):
        if self.wmask_:
            # (checked again when loaded: the rules, the wild ranks, the reading)
            return (_pickling.load_wild_move,
                    ((_pickling.FORMAT, int(self.kind_), bytes(self.p[:N_RANKS]), bytes(self.c[:N_RANKS]),
                      wild_ranks_of(self.wmask_)),))
        return (_pickling.load_move,
                ((_pickling.FORMAT, int(self.kind_), bytes(self.c[:N_RANKS]), self.rank_, self.length_),))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    @property
    def is_pass(self):
        return self.kind_ == K_PASS

    def to_array(self):
        """The cards as a fresh ``uint8`` numpy array of shape (15,)."""
        import numpy as np
        return np.frombuffer(bytes(self.p[:N_RANKS]), dtype=np.uint8).copy()


cdef int _one_deck_counts(object src, str name, unsigned char* dst) except -1:
    # 15 bytes of one deck's counts into dst (a wild Move's pickled fields)
    cdef int i
    if not isinstance(src, bytes) or len(src) != N_RANKS:
        raise ValueError(f"a wild Move's {name} must be 15 bytes")
    for i in range(N_RANKS):
        if src[i] > (1 if i >= 13 else 4):
            raise ValueError(f"a wild Move's {name} hold more cards than one deck")
        dst[i] = src[i]
    return 0


cdef tuple _CLASSES = (None, "soft", "hard", "wild", "rocket")


cdef tuple _count_tuple(const unsigned char* c):
    cdef tuple t = PyTuple_New(N_RANKS)
    cdef int i
    cdef object v
    for i in range(N_RANKS):
        v = _INTS[c[i]]
        Py_INCREF(v)
        PyTuple_SET_ITEM(t, i, v)
    return t


cdef str _text(const unsigned char* c):
    cdef list out = []
    cdef int i
    for i in range(N_RANKS):
        if c[i]:
            out.append(_RANK_CHARS[i] * c[i])
    return "".join(out)


cdef unsigned char _ZERO[15]
for _i in range(N_RANKS):
    _ZERO[_i] = 0

PASS = make_move(K_PASS, _ZERO, -1, 0)
(<Move>PASS).valid_for = <unsigned long long>(-1)
