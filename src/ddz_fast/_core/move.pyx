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

from .kernels cimport MoveInfo, classify_c, row_info
from .registry cimport rules_id, rules_by_id, valid_bit, check_within

from ..cards import format_cards, to_counts
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
    for i in range(N_RANKS):
        n += counts[i]
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


cdef Move _validated(object kind, object cards, object rules):
    """The Move ``Move(kind, cards, rules=rules)`` describes, after checking
    that the cards are a move of that kind under the rules."""
    cdef unsigned char c[N_RANKS]
    cdef int cid
    r = resolve_rules(rules)
    k = Kind.coerce(kind)
    if k == Kind.PASS:
        if cards is not None and any(to_counts(cards, rules=r)):
            raise ValueError("PASS has no cards")
        return None
    if cards is None:
        raise TypeError(f"Move({k.name}, ...) needs cards")
    cid = rules_id(r)
    counts = bytes(to_counts(cards, rules=r))
    if len(counts) != N_RANKS:    # to_counts guarantees 15; never read past a shorter buffer
        raise ValueError(f"expected 15 counts, got {len(counts)}")
    memcpy(c, <const char*>counts, N_RANKS)
    check_within(c, rules_by_id(cid))
    return pick_reading(readings_of(c, cid), k, format_cards(list(counts), rules=r), r)


cdef class Move:
    """One move: a kind and its cards.

    Build one from text with :func:`ddz_fast.parse_move`, or as
    ``Move(kind, cards, rules="standard")``, which checks that the cards are a
    move of that kind under the rules.  Moves are immutable and hashable.

    Attributes: ``kind`` (:class:`Kind`), ``rank`` (top rank index of the
    primal group, highest reading; -1 for PASS), ``length`` (number of primal
    groups; 0 for PASS), ``counts`` (tuple of 15 ints), ``n_cards``.
    """

    def __cinit__(self):
        self.kind_ = -2   # not yet initialised

    def __init__(self, kind, cards=None, *, rules="standard"):
        if self.kind_ != -2:
            raise TypeError("Move is immutable")
        cdef Move m = _validated(kind, cards, rules)
        if m is None:       # PASS
            memset(self.c, 0, N_RANKS)
            self.kind_ = K_PASS
            self.rank_ = -1
            self.length_ = 0
            self.ncards = 0
            self.valid_for = 0
        else:
            memcpy(self.c, m.c, N_RANKS)
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
        cdef tuple t
        cdef int i
        cdef object v
        # (every interop function reads a Move through .counts: an
        # uninitialised one must not pass for an empty card set)
        _kind_obj(self)
        t = PyTuple_New(N_RANKS)
        for i in range(N_RANKS):
            v = _INTS[self.c[i]]
            Py_INCREF(v)
            PyTuple_SET_ITEM(t, i, v)
        return t

    @property
    def cards(self):
        """Canonical card text (empty for PASS)."""
        cdef list out = []
        cdef int i
        _kind_obj(self)
        for i in range(N_RANKS):
            if self.c[i]:
                out.append(_RANK_CHARS[i] * self.c[i])
        return "".join(out)

    def __str__(self):
        if self.kind_ == K_PASS:
            return "PASS"
        return self.cards

    def __repr__(self):
        if self.kind_ == K_PASS:
            return "Move(PASS)"
        if not 0 <= self.kind_ < N_KINDS:
            return "Move(<uninitialised>)"
        return f"Move({_kind_obj(self).name}, {self.cards!r}, rank={self.rank_}, length={self.length_})"

    def __len__(self):
        return self.ncards

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        cdef Move o = <Move>other
        return self.kind_ == o.kind_ and memcmp(self.c, o.c, N_RANKS) == 0

    def __ne__(self, other):
        r = self.__eq__(other)
        if r is NotImplemented:
            return r
        return not r

    def __hash__(self):
        if self.hash_ == -1:
            h = hash((self.kind_, bytes(self.c[:N_RANKS])))
            self.hash_ = -2 if h == -1 else h
        return self.hash_

    def __reduce__(self):
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
        return np.frombuffer(bytes(self.c[:N_RANKS]), dtype=np.uint8).copy()


cdef unsigned char _ZERO[15]
for _i in range(N_RANKS):
    _ZERO[_i] = 0

PASS = make_move(K_PASS, _ZERO, -1, 0)
(<Move>PASS).valid_for = <unsigned long long>(-1)
