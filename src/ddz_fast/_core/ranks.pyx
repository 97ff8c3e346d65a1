# cython: language_level=3
"""Action ids computed from a move's cards: a combinatorial ranking.

An action space lists the moves of each kind by shape (length, or bomb
size), then by the rank of the move's body, then by its attachments in
ascending lexicographic order (the move-list order).  So the id of a move is
the first id of its body plus the rank of its attachments among those that
body takes:

* no attachments (solos to airplanes, bombs, the rocket): the first id of
  (kind, shape, lowest rank), one table lookup;
* a trio's kicker: the id of (kind, trio rank, kicker rank);
* a four's two kickers a <= b: the id of (kind, four rank, a, b);
* an airplane's L kickers, as counts c_0, c_1, ... over its candidate ranks
  (which come in the generator's order: at each candidate more copies
  first): the sum over candidates i of the choices that agree before i and
  give more copies at i, each counted by ``ways[i + 1][r][f]`` (the ways to
  give r more kickers from the candidates after i; f: a low joker taken,
  which bars the high joker unless the rules allow both).

Every table is read off the space's own move table when it is built (which
ranks give kickers, how many copies, which second kickers a four takes), so
no rule is decided here: the generators stay the one place of each rule.
Building then checks that every row of the table ranks to its own id.
Looking up a row that is not known to be a generated move
(:meth:`IdFinder.find`) ranks it and compares it with the table's row of
that id, so a row that is no move of the space is never given one.
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

import threading

import numpy as np

from .._util.checks import frozen

from .kernels cimport (
    u64, _ge_mask, _row_ge_mask, _windows, CHAIN_RANKS, ROW, KIND_BYTE, N_KINDS,
    K_PASS, K_SOLO, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR, K_CHAIN,
    K_AIRPLANE, K_AIRPLANE_SOLO, K_AIRPLANE_PAIR, K_FOUR_TWO_SOLO, K_FOUR_TWO_PAIR,
    K_BOMB, K_ROCKET,
)
from .kernels cimport RulesC, Out, IdSink, out_init, out_free, gen_lead
from .bits cimport ctz, top_bit, popcount
from .lookup cimport IdFinder, ReusedMask
from .registry cimport rules_id, rules_by_id
from .entry cimport _generate, FIRST_BYTES

from ..rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["MoveRanks", "ActionMasks", "TranslatedIds", "WildIds", "space_ranks", "max_hand", "wild_cards_ids"]

cdef enum:
    LOW = 13
    HIGH = 14
    FIRST_IDS = 256      # ids of a mask kept on the stack (a 20-card lead has ~80 moves)

cdef u64 _LOW7 = 0x7F7F7F7F7F7F7F7FULL


cdef inline void _words(const uint8_t* row, u64* lo, u64* hi) noexcept nogil:
    memcpy(lo, row, 8)
    memcpy(hi, row + 8, 8)
    hi[0] &= 0x00FFFFFFFFFFFFFFULL      # the kind byte is no count


cdef inline bint _same_row(const uint8_t* a, const uint8_t* b) noexcept nogil:
    cdef u64 a0, a1, b0, b1
    memcpy(&a0, a, 8)
    memcpy(&a1, a + 8, 8)
    memcpy(&b0, b, 8)
    memcpy(&b1, b + 8, 8)
    return ((a0 ^ b0) | (a1 ^ b1)) == 0


cdef inline int _cards(u64 lo, u64 hi) noexcept nogil:
    # the sum of the counts (each below 128: the caller checked)
    return <int>(((lo & 0x00FF00FF00FF00FFULL) + ((lo >> 8) & 0x00FF00FF00FF00FFULL)
                  + (hi & 0x00FF00FF00FF00FFULL) + ((hi >> 8) & 0x00FF00FF00FF00FFULL))
                 * 0x0001000100010001ULL >> 48)


cdef inline int _airplane_shape(u64 lo, u64 hi, int kind, int* L, int* s) noexcept nogil:
    # Length and lowest rank of an airplane with kickers: its trios are the
    # highest window of L ranks holding exactly three cards (a higher window
    # would hold the next rank up, whose three cards the generator never
    # gives as kickers of the lower one).  0 when there is none.
    cdef int n = _cards(lo, hi)
    cdef unsigned int w
    L[0] = n // 4 if kind == K_AIRPLANE_SOLO else n // 5    # (divisions by constants)
    if L[0] * (4 if kind == K_AIRPLANE_SOLO else 5) != n or L[0] < 2 or L[0] > 12:
        return 0
    w = _windows(_ge_mask(lo, hi, 3) & ~_ge_mask(lo, hi, 4) & CHAIN_RANKS, L[0])
    if not w:
        return 0
    s[0] = top_bit(w)
    return 1


cdef inline unsigned int _kick_units(const KickGroup* g, const uint8_t* row, int i) noexcept nogil:
    # kicker units candidate i gives in the row; a large value when not whole
    cdef unsigned int c = row[g.rank[i]]
    if g.each == 2:
        return 255 if c & 1 else c >> 1
    return c


cdef inline unsigned int _allowed(const KickGroup* g, int i, bint low_taken) noexcept nogil:
    if low_taken and i == g.high and not g.jokers:
        return 0
    return g.allowed[i]


cdef inline int64_t _past(const KickGroup* g, int i, int r, int c, bint f) noexcept nogil:
    return g.past[((i * (g.L + 1) + r) * (g.L + 1) + c) * 2 + f]


cdef int64_t _kick_rank(const KickGroup* g, const uint8_t* row, unsigned int kick) noexcept nogil:
    # Rank of the row's kickers (the ranks in `kick`) among the group's
    # choices; -1 for none: one lookup for a group with a two-kicker table,
    # else the walk.
    if g.two == NULL:
        return _kick_walk(g, row, kick)
    if kick & ~g.cand or not kick:
        return -1
    # (a generated row's two kickers name its choice; any other row is told
    # apart by the callers' checks: see _rank and find_rows)
    return g.two[ctz(kick) * 15 + top_bit(kick)]


cdef int64_t _kick_walk(const KickGroup* g, const uint8_t* row, unsigned int kick) noexcept nogil:
    # _kick_rank by a walk over the candidates.  Coming from candidate i to
    # the next kicker rank j (the candidates between give none) passes over
    # ways[i][r][f] - ways[j][r][f] choices (those that give something
    # before j), and at j over the choices that give more units there:
    # together ways[i][r][f] + past(j, r, c, f).
    cdef int r = g.L, i = 0, j, y
    cdef unsigned int c
    cdef bint low_taken = False
    cdef int64_t rank = 0
    if kick & ~g.cand:
        return -1
    while kick:
        y = ctz(kick)
        kick &= kick - 1
        j = popcount(g.cand & ((1u << y) - 1))
        c = _kick_units(g, row, j)
        if c > <unsigned int>r or not (_allowed(g, j, low_taken) >> c) & 1:
            return -1
        rank += g.ways[i][r][low_taken] + _past(g, j, r, c, low_taken)
        low_taken = low_taken or j == g.low
        r -= c
        i = j + 1
    return rank if r == 0 else -1


cdef void _list_candidates(KickGroup* g) noexcept nogil:
    # the candidate ranks seen, ascending, with the counts each gave
    cdef unsigned int cand = g.cand
    cdef int y
    g.n = 0
    while cand:
        y = ctz(cand)
        cand &= cand - 1
        g.rank[g.n] = <uint8_t>y
        g.allowed[g.n] = g.by_rank[y] & ~1u
        if y == LOW:
            g.low = g.n
        elif y == HIGH:
            g.high = g.n
        g.n += 1


cdef int _count_past(KickGroup* g) except -1:
    # past(i, r, c, f) from ways (after _count_ways)
    cdef int i, r, c, more, f
    cdef unsigned int al
    cdef int64_t total
    g.past = <int64_t*>calloc(g.n * (g.L + 1) * (g.L + 1) * 2 + 1, sizeof(int64_t))
    if g.past == NULL:
        raise MemoryError()
    for i in range(g.n):
        for f in range(2):
            al = _allowed(g, i, f)
            for r in range(g.L + 1):
                for c in range(r + 1):
                    total = -g.ways[i][r][f]
                    for more in range(c + 1, r + 1):
                        if (al >> more) & 1:
                            total += g.ways[i + 1][r - more][f or i == g.low]
                    g.past[((i * (g.L + 1) + r) * (g.L + 1) + c) * 2 + f] = total
    return 0


cdef void _count_ways(KickGroup* g) noexcept nogil:
    cdef int i, r, c, f
    cdef unsigned int al
    cdef int64_t total
    for f in range(2):
        for r in range(g.L + 1):
            g.ways[g.n][r][f] = 1 if r == 0 else 0
    i = g.n - 1
    while i >= 0:
        for f in range(2):
            al = _allowed(g, i, f)
            for r in range(g.L + 1):
                total = g.ways[i + 1][r][f]
                for c in range(1, r + 1):
                    if (al >> c) & 1:
                        total += g.ways[i + 1][r - c][f or i == g.low]
                g.ways[i][r][f] = total
        i -= 1


cdef inline int64_t _rank(MoveRanks self, const uint8_t* row) noexcept nogil:
    # The id of a move row of the table; for any other row -1 or an id
    # whose table row differs from it.  The kinds without attachments and
    # the trios with a kicker here (most moves of a hand), the rest in
    # MoveRanks._rank_kicked.
    cdef u64 lo, hi
    cdef int kind = row[KIND_BYTE], n, x
    cdef unsigned int m1, body, kick
    if kind == K_PASS:
        return 0
    _words(row, &lo, &hi)
    if kind >= N_KINDS or (lo | hi) & ~_LOW7:
        return -1
    m1 = _ge_mask(lo, hi, 1)
    if not m1:
        return -1
    if kind <= K_TRIO or K_CHAIN <= kind <= K_AIRPLANE or kind == K_ROCKET:
        return self.base[kind][popcount(m1)][ctz(m1)]
    if kind <= K_TRIO_PAIR:
        body = _ge_mask(lo, hi, 3)
        if not body:
            return -1
        x = ctz(body)
        kick = m1 & ~(1u << x)
        return self.head[kind - K_TRIO_SOLO][x][ctz(kick)] if kick else -1
    if kind == K_BOMB:
        n = _cards(lo, hi)
        return self.base[kind][n][ctz(m1)] if n < N_SHAPES else -1
    return self._rank_kicked(row, lo, hi, m1, kind)


cdef object _space_table(const RulesC* rc, Py_ssize_t max_cards):
    """PASS, then the full deck's leads of at most max_cards cards, in order,
    as a read-only (n, 16) uint8 array."""
    cdef unsigned char full[16]
    cdef Out o
    cdef Py_ssize_t i, n = 1
    cdef u64 lo, hi
    for i in range(15):
        full[i] = rc.max_count if i < 13 else rc.max_joker
    if not out_init(&o, 4096, False):
        raise MemoryError()
    gen_lead(full, rc, &o)
    if o.oom:
        out_free(&o)
        raise MemoryError()
    try:
        table = np.zeros((o.n + 1, ROW), dtype=np.uint8)
        dst = <unsigned char*>cnp.PyArray_DATA(table)
        for i in range(o.n):
            _words(o.data + ROW * i, &lo, &hi)
            if _cards(lo, hi) <= max_cards:
                memcpy(dst + ROW * n, o.data + ROW * i, ROW)
                n += 1
    finally:
        out_free(&o)
    return frozen(table[:n])   # (shared process-wide: a writeable copy could change every space's actions)


cdef inline int64_t _mark(uint8_t* flags, int64_t i, uint64_t n) noexcept nogil:
    # Set entry i of a mask of n entries (none when flags is NULL: ids only):
    # 0, or -1 (nothing set) when i is no id (negative: the ranking found none)
    if <uint64_t>i < n:
        if flags != NULL:
            flags[i] = 1
        return 0
    return -1


cdef struct _MaskJob:
    # What a mask call generated in id mode: rows to rank, and ids
    void* ranks                  # the MoveRanks (borrowed)
    Py_ssize_t n_ids             # its number of ids
    Py_ssize_t n_rows            # the rows (the rest of the m moves are ids.data)
    const IdSink* ids


cdef int64_t _mark_job(void* job, const uint8_t* rows, Py_ssize_t m, int64_t* ids,
                       uint8_t* flags) noexcept nogil:
    # mark_fn of a _MaskJob (m = its rows and ids): the rows ranked, then
    # the ids the generators wrote
    cdef const _MaskJob* j = <const _MaskJob*>job
    cdef uint64_t n = <uint64_t>j.n_ids
    cdef int64_t result = _rank_generated(<MoveRanks>j.ranks, rows, j.n_rows, ids, flags)
    cdef Py_ssize_t i
    cdef int64_t v
    for i in range(m - j.n_rows):
        v = j.ids.data[i]
        ids[j.n_rows + i] = v
        result |= _mark(flags, v, n)
    return result


cdef int64_t _rank_generated(MoveRanks self, const uint8_t* rows, Py_ssize_t m, int64_t* ids,
                             uint8_t* flags) noexcept nogil:
    # _rank of m rows the kernels generated (bytes <= 8, in the move-list
    # order, so in runs of one kind), each kind's run in a loop of its own
    # over whole-row masks, each id set in the mask `flags` as it is found.
    # Returns -1 when some row has no id (its entry of ids is negative, and
    # nothing is set for it), else 0: a mark_fn of ReusedMask.fill_marked.
    cdef Py_ssize_t k = 0
    cdef int kind, x
    cdef unsigned int m1, kick
    cdef const int32_t* table
    cdef const uint8_t* row
    cdef int64_t seen = 0
    cdef uint64_t n = <uint64_t>self.n_rows
    while k < m:
        kind = rows[ROW * k + KIND_BYTE]
        if K_SOLO <= kind <= K_TRIO or K_CHAIN <= kind <= K_AIRPLANE:
            table = &self.base[kind][0][0]
            while k < m and rows[ROW * k + KIND_BYTE] == kind:
                m1 = _row_ge_mask(rows + ROW * k, 1)
                x = ctz(m1)
                # (a generated row of these kinds holds one run of ranks: its
                # length is its top rank's distance from its lowest, plus one)
                ids[k] = table[(top_bit(m1) - x + 1) * 16 + x]
                seen |= _mark(flags, ids[k], n)
                k += 1
        elif kind == K_TRIO_SOLO or kind == K_TRIO_PAIR:
            table = &self.head[kind - K_TRIO_SOLO][0][0]
            while k < m and rows[ROW * k + KIND_BYTE] == kind:
                row = rows + ROW * k
                x = ctz(_row_ge_mask(row, 3))
                ids[k] = table[x * 15 + ctz(_row_ge_mask(row, 1) & ~(1u << x))]
                seen |= _mark(flags, ids[k], n)
                k += 1
        elif kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR:
            table = &self.four[kind - K_FOUR_TWO_SOLO][0][0]
            while k < m and rows[ROW * k + KIND_BYTE] == kind:
                row = rows + ROW * k
                x = ctz(_row_ge_mask(row, 4))
                kick = _row_ge_mask(row, 1) & ~(1u << x)
                ids[k] = table[x * 225 + ctz(kick) * 15 + top_bit(kick)]
                seen |= _mark(flags, ids[k], n)
                k += 1
        elif kind == K_AIRPLANE_SOLO or kind == K_AIRPLANE_PAIR:
            k = _rank_airplanes(self, rows, k, m, kind, ids, flags, &seen)
        else:
            ids[k] = _rank(self, rows + ROW * k)
            seen |= _mark(flags, ids[k], n)
            k += 1
    return seen


cdef Py_ssize_t _rank_airplanes(MoveRanks self, const uint8_t* rows, Py_ssize_t k, Py_ssize_t m,
                                int kind, int64_t* ids, uint8_t* flags, int64_t* seen) noexcept nogil:
    # A run of generated airplanes with kickers from row k; returns the row
    # after it (seen[0] = -1 when a row has no id).  Rows of one window
    # come together: the window is worked out again only when the ranks
    # holding exactly three cards change.
    cdef u64 lo, hi
    cdef unsigned int m1, m3x, last_m3x = 0xFFFFFFFFu, win = 0
    cdef int L, s, g = -1, last_n = -1, n
    cdef int64_t first = -1, r
    while k < m and rows[ROW * k + KIND_BYTE] == kind:
        _words(rows + ROW * k, &lo, &hi)
        m3x = _ge_mask(lo, hi, 3) & ~_ge_mask(lo, hi, 4)
        n = _cards(lo, hi)
        if m3x != last_m3x or n != last_n:
            last_m3x = m3x
            last_n = n
            g = -1
            if _airplane_shape(lo, hi, kind, &L, &s):
                g = self.group_of[kind - K_AIRPLANE_SOLO][L][s]
                first = self.base[kind][L][s]
                win = ((1u << L) - 1) << s
        r = -1
        if g >= 0:
            m1 = _ge_mask(lo, hi, 1)
            r = _kick_rank(&self.groups[g], rows + ROW * k, m1 & ~win)
        ids[k] = -1 if r < 0 else first + r
        seen[0] |= _mark(flags, ids[k], <uint64_t>self.n_rows)
        k += 1
    return k


@cython.final
cdef class MoveRanks(IdFinder):
    """The action ids of one rules' space (``MoveRanks(rules, max_cards)``):
    PASS, then every move of the full deck of at most ``max_cards`` cards, in
    the move-list order, each id computed from the move's cards."""

    # The fields are declared in _core/ranks.pxd.

    def __cinit__(self):
        # -1: no such body (a row of it ranks as no id)
        memset(self.base, 0xFF, sizeof(self.base))
        memset(self.head, 0xFF, sizeof(self.head))
        memset(self.four, 0xFF, sizeof(self.four))
        memset(self.group_of, 0xFF, sizeof(self.group_of))
        self.groups = NULL
        self.n_groups = 0
        self.rows = NULL
        memset(&self.ids_of, 0, sizeof(self.ids_of))

    def __dealloc__(self):
        cdef int i
        for i in range(2 * 16):
            free(<int32_t*>self.ids_of.two[i // 16][i % 16])     # (made by _id_tables)
        if self.groups != NULL:
            for i in range(self.n_groups):
                free(self.groups[i].past)
                free(self.groups[i].two)
        free(self.groups)

    def __init__(self, rules, Py_ssize_t max_cards):
        if self.rows != NULL:
            raise TypeError("MoveRanks is initialised once")
        r = resolve_rules(rules)
        cdef int cid = rules_id(r)
        table = _space_table(rules_by_id(cid), max_cards)
        cdef const uint8_t[:, ::1] rows = table
        cdef Py_ssize_t i
        cdef int64_t got
        for i in range(1, rows.shape[0]):
            if not self._learn(&rows[i, 0], i):
                raise ValueError(f"row {i} is no move the ranking knows (kind {rows[i, KIND_BYTE]})")
        for i in range(self.n_groups):
            _list_candidates(&self.groups[i])
            _count_ways(&self.groups[i])
            _count_past(&self.groups[i])
        self._tabulate_two_trios(rows)
        for i in range(rows.shape[0]):
            got = _rank(self, &rows[i, 0])
            if got != i:
                raise ValueError(f"row {i} ranks as {got}: the table is not in the move-list order")
        self._id_tables()
        self._table = table
        self.rules = r
        self.cid = cid
        self.max_cards = max_cards
        self.n_rows = rows.shape[0]
        self.rows = &rows[0, 0]

    @property
    def table(self):
        """The read-only ``(n_rows, 16)`` ``uint8`` table: row ``i`` is id ``i``
        (PASS, then the moves of at most ``max_cards`` cards of the full
        deck, in the move-list order)."""
        return self._table

    def legal_mask(self, hand, last, ReusedMask reused not None, out):
        """The mask over these ids of ``legal_moves(hand, last, rules=self.rules)``
        (``ActionSpace.mask``), without a MoveList: into ``out`` through
        ``reused`` (made over this object) when out is not None, else a new
        array.  ``KeyError(i)`` when move i has no id (``out`` is then left
        as it was)."""
        cdef Py_ssize_t bad
        result = self._legal_mask(hand, last, reused, out, &bad)
        if result is None:
            raise KeyError(bad)
        return result

    cdef object _legal_mask(self, object hand, object last, ReusedMask reused, object out,
                            Py_ssize_t* bad):
        cdef Out o
        cdef unsigned char first_rows[FIRST_BYTES]
        cdef int64_t first[FIRST_IDS]
        cdef int32_t first_sink[FIRST_IDS]
        cdef int64_t* found = first
        cdef Py_ssize_t m
        cdef cnp.npy_intp size = self.n_rows
        cdef int cards
        cdef IdSink sink
        cdef _MaskJob job
        if self.rows == NULL:
            raise ValueError("MoveRanks was never initialised")
        if reused is None or reused.table is not self:
            raise ValueError("reused must be a ReusedMask over this MoveRanks")
        bad[0] = -1
        # Id mode: the generators write the ids they know (most moves of a
        # hand), the other moves as rows, ranked here.  Every one is a move
        # of the full deck of at most max_cards cards, so it has an id, when
        # the hand holds at most max_cards cards.
        sink.t = &self.ids_of
        sink.data = first_sink
        sink.n = 0
        sink.cap = FIRST_IDS
        sink.borrowed = True
        sink.oom = False
        _generate(hand, last, self.rules, self.cid, &o, first_rows, &cards, &sink)
        try:
            if cards <= self.max_cards:
                job.ranks = <void*>self
                job.n_ids = self.n_rows
                job.n_rows = o.n
                job.ids = &sink
                m = o.n + sink.n
                if out is not None:
                    result = reused.fill_marked(_mark_job, &job, o.data, m, out, bad)
                    if result is not None:
                        return result
                else:
                    if m > FIRST_IDS:
                        found = <int64_t*>malloc(m * sizeof(int64_t))
                        if found == NULL:
                            raise MemoryError()
                    result = cnp.PyArray_ZEROS(1, &size, cnp.NPY_BOOL, 0)
                    if _mark_job(&job, o.data, m, found, <uint8_t*>cnp.PyArray_DATA(result)) == 0:
                        return result
        finally:
            out_free(&o)
            if not sink.borrowed:
                free(sink.data)
            if found != first:
                free(found)
                found = first
        # A move with no id (a hand of more cards than any hand of the game):
        # the rows in the move-list order, to name the first such move.
        return self._mask_of_rows(hand, last, reused, out, bad)

    cdef object _mask_of_rows(self, object hand, object last, ReusedMask reused, object out,
                              Py_ssize_t* bad):
        # _legal_mask without the id mode: every move a row, ranked in order
        cdef Out o
        cdef unsigned char first_rows[FIRST_BYTES]
        cdef int64_t first[FIRST_IDS]
        cdef int64_t* found = first
        cdef Py_ssize_t k
        cdef cnp.npy_intp size = self.n_rows
        _generate(hand, last, self.rules, self.cid, &o, first_rows, NULL, NULL)
        try:
            if o.n > FIRST_IDS:
                found = <int64_t*>malloc(o.n * sizeof(int64_t))
                if found == NULL:
                    raise MemoryError()
            result = cnp.PyArray_ZEROS(1, &size, cnp.NPY_BOOL, 0)
            if _rank_generated(self, o.data, o.n, found,
                               <uint8_t*>cnp.PyArray_DATA(result)) < 0:
                for k in range(o.n):
                    if found[k] < 0:
                        bad[0] = k
                        return None
            if out is None:
                return result
            return reused.fill_ids(found, o.n, out)
        finally:
            out_free(&o)
            if found != first:
                free(found)

    cdef bint _learn(self, const uint8_t* row, Py_ssize_t i) except -1:
        """Record move row i in the first-id tables and the kicker groups."""
        cdef u64 lo, hi
        cdef int kind = row[KIND_BYTE], x, a, b, L, s, k, y
        cdef unsigned int m1, kick, body
        cdef KickGroup* g
        _words(row, &lo, &hi)
        if kind == K_PASS or kind >= N_KINDS or (lo | hi) & ~_LOW7:
            return False
        m1 = _ge_mask(lo, hi, 1)
        if not m1:
            return False
        if kind <= K_TRIO or K_CHAIN <= kind <= K_AIRPLANE or kind == K_BOMB or kind == K_ROCKET:
            k = _cards(lo, hi) if kind == K_BOMB else popcount(m1)
            if k >= N_SHAPES:
                return False
            if self.base[kind][k][ctz(m1)] < 0:
                self.base[kind][k][ctz(m1)] = <int>i
            return True
        if kind == K_TRIO_SOLO or kind == K_TRIO_PAIR or kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR:
            # (a trio's kicker rank, a four's two kicker ranks name the
            # move: one id each)
            body = _ge_mask(lo, hi, 3 if kind <= K_TRIO_PAIR else 4)
            if not body:
                return False
            x = ctz(body)
            kick = m1 & ~(1u << x)
            if not kick:
                return False
            a = ctz(kick)
            b = top_bit(kick)
            if kind <= K_TRIO_PAIR:
                if a != b:
                    return False
                self.head[kind - K_TRIO_SOLO][x][a] = <int>i
            else:
                self.four[kind - K_FOUR_TWO_SOLO][x][a * 15 + b] = <int>i
            return True
        # airplanes with kickers
        if not _airplane_shape(lo, hi, kind, &L, &s):
            return False
        k = kind - K_AIRPLANE_SOLO
        if self.group_of[k][L][s] < 0:
            self._new_group(k, L, s, i)
        g = &self.groups[self.group_of[k][L][s]]
        kick = m1 & ~(((1u << L) - 1) << s)
        g.cand |= kick
        if row[LOW] and row[HIGH]:
            g.jokers = True
        while kick:
            y = ctz(kick)
            kick &= kick - 1
            g.by_rank[y] |= 1u << (row[y] // g.each)
        return True

    cdef int _id_tables(self) except -1:
        """The tables of the generators' id mode (ids_of): views of base,
        head and four, and the two-trio airplanes' ids by window."""
        cdef int k, s, i, g
        cdef int32_t first
        cdef int32_t* ids
        for k in range(2):
            for s in range(16):
                g = self.group_of[k][2][s]
                if g < 0 or self.groups[g].two == NULL:
                    continue
                ids = <int32_t*>malloc(15 * 15 * sizeof(int32_t))
                if ids == NULL:
                    raise MemoryError()
                first = self.base[K_AIRPLANE_SOLO + k][2][s]
                for i in range(15 * 15):
                    ids[i] = -1 if self.groups[g].two[i] < 0 else first + self.groups[g].two[i]
                self.ids_of.two[k][s] = ids
        self.ids_of.base = &self.base[0][0][0]
        self.ids_of.head = &self.head[0][0][0]
        self.ids_of.four = &self.four[0][0][0]
        return 0

    cdef int _tabulate_two_trios(self, const uint8_t[:, ::1] rows) except -1:
        """Fill the two-kicker tables of the L == 2 groups from the table
        rows, each ranked by the walk over the candidates."""
        cdef Py_ssize_t i
        cdef int kind, L, s, g, x
        cdef u64 lo, hi
        cdef unsigned int kick
        cdef int64_t r
        cdef int32_t* two
        for i in range(1, rows.shape[0]):
            kind = rows[i, KIND_BYTE]
            if kind != K_AIRPLANE_SOLO and kind != K_AIRPLANE_PAIR:
                continue
            _words(&rows[i, 0], &lo, &hi)
            if not _airplane_shape(lo, hi, kind, &L, &s) or L != 2:
                continue
            g = self.group_of[kind - K_AIRPLANE_SOLO][L][s]
            two = self.groups[g].two
            if two == NULL:
                two = <int32_t*>malloc(15 * 15 * sizeof(int32_t))
                if two == NULL:
                    raise MemoryError()
                for x in range(15 * 15):
                    two[x] = -1
            self.groups[g].two = two
            kick = _ge_mask(lo, hi, 1) & ~(3u << s)
            r = _kick_walk(&self.groups[g], &rows[i, 0], kick)
            if r < 0 or not kick:
                raise ValueError(f"row {i} has no two-kicker rank")
            two[ctz(kick) * 15 + top_bit(kick)] = <int32_t>r
        return 0

    cdef int _new_group(self, int k, int L, int s, Py_ssize_t first) except -1:
        cdef KickGroup* grown
        cdef KickGroup* g
        if self.n_groups % 16 == 0:
            grown = <KickGroup*>calloc(self.n_groups + 16, sizeof(KickGroup))
            if grown == NULL:
                raise MemoryError()
            if self.n_groups:
                memcpy(grown, self.groups, self.n_groups * sizeof(KickGroup))
            free(self.groups)
            self.groups = grown
        self.group_of[k][L][s] = self.n_groups
        self.base[K_AIRPLANE_SOLO + k][L][s] = <int>first
        g = &self.groups[self.n_groups]
        g.L = L
        g.each = 1 if k == 0 else 2
        g.low = g.high = -1
        self.n_groups += 1
        return 0

    cdef int64_t rank_row(self, const uint8_t* row) noexcept nogil:
        return _rank(self, row)

    cdef int64_t rank_generated(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil:
        return _rank_generated(self, rows, m, ids, NULL)

    cdef int64_t _rank_kicked(self, const uint8_t* row, u64 lo, u64 hi, unsigned int m1,
                              int kind) noexcept nogil:
        # _rank of a four with two kickers or an airplane with kickers
        cdef int x, L, s, k
        cdef unsigned int body, kick
        cdef int64_t r
        if kind >= K_FOUR_TWO_SOLO:
            body = _ge_mask(lo, hi, 4)
            if not body:
                return -1
            x = ctz(body)
            kick = m1 & ~(1u << x)
            if not kick:
                return -1
            return self.four[kind - K_FOUR_TWO_SOLO][x][ctz(kick) * 15 + top_bit(kick)]
        if not _airplane_shape(lo, hi, kind, &L, &s):
            return -1
        k = self.group_of[kind - K_AIRPLANE_SOLO][L][s]
        if k < 0:
            return -1
        r = _kick_rank(&self.groups[k], row, m1 & ~(((1u << L) - 1) << s))
        return -1 if r < 0 else self.base[kind][L][s] + r

    cdef void find_rows(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil:
        # Rank, then compare with the table's row of that id: a row that is
        # no move of the table ranks somewhere, but never equals that row.
        cdef Py_ssize_t k
        cdef int64_t i
        for k in range(m):
            i = _rank(self, rows + ROW * k)
            if i < 0 or i >= self.n_rows or not _same_row(self.rows + ROW * i, rows + ROW * k):
                i = -1
            ids[k] = i


cdef class ActionMasks:
    """The compiled base of :class:`ddz_fast.actions.ActionSpace`: its
    ``mask``, called straight from Python (no Python frame in between), and
    the space's state, held in C fields that Python reads and cannot set.
    The subclass gives them once (``_set_ranks``) and ``_reject_move``,
    which raises the error of a move that has no id."""

    cdef MoveRanks _ranks
    cdef ReusedMask _reused
    cdef object space_rules
    cdef object space_moves
    cdef Py_ssize_t space_max_cards

    def _set_ranks(self, MoveRanks ranks not None, *, rules, Py_ssize_t max_cards, moves):
        """The ranking of the space's ids, its Rules, the most cards of a
        hand and its moves (a MoveList, id order), given once."""
        if self._ranks is not None:
            raise TypeError(f"the ids of an {type(self).__name__} are set once")
        self._ranks = ranks
        self._reused = ReusedMask(ranks)
        self.space_rules = rules
        self.space_max_cards = max_cards
        self.space_moves = moves

    @property
    def _lookup(self):
        """The ranking of the ids (a MoveRanks)."""
        return self._ranks

    @property
    def _rows(self):
        """The read-only (size, 16) table of the moves' rows."""
        return None if self._ranks is None else self._ranks.table

    @property
    def _rules(self):
        return self.space_rules

    @property
    def _max_cards(self):
        return self.space_max_cards

    @property
    def _moves(self):
        return self.space_moves

    def mask(self, hand, last=None, *, out=None):
        """Boolean ``(size,)`` mask, True exactly at the ids of ``legal_moves(hand, last)``.

        ``out``: a plain (not a subclass), writeable, C-contiguous ``bool``
        array of shape ``(size,)`` to write the mask into instead of
        allocating one; it is returned.  Reusing one array call after call is
        the fast way: when ``out`` is the array this space's last ``mask``
        call wrote, and no other space's ``mask`` wrote it since, only the
        entries that call set are cleared, so it must still hold what that
        call left there (clear it in full yourself, e.g. ``out[:] = False``,
        after writing into it; that is always safe).  Any other array is
        cleared in full first.  On an error ``out`` is left as it was.

        >>> space = action_space()
        >>> np.flatnonzero(space.mask("3345")).tolist()
        [1, 2, 3, 16]
        """
        cdef Py_ssize_t bad
        if self._ranks is None:
            raise TypeError(f"{type(self).__name__} was never initialised")
        result = self._ranks._legal_mask(hand, last, self._reused, out, &bad)
        if result is None:
            self._reject_move(hand, last, bad)
        return result


def max_hand(rules):
    """The most cards a player holds in a game under `rules`: the landlord's
    hand after taking the kitty (20 with one deck, 33 with two)."""
    r = resolve_rules(rules)
    check_rules(r)   # (fields changed with object.__setattr__ would size the tables)
    return r.hand_size + r.kitty_size


# One MoveRanks per rules, shared by every consumer of the action ids.
cdef dict _RANKS = {}
_RANKS_LOCK = threading.Lock()


cdef MoveRanks ranks_for(object rules):
    r = resolve_rules(rules)
    with _RANKS_LOCK:
        hit = _RANKS.get(r)
    if hit is None:
        built = MoveRanks(r, max_hand(r))       # (outside the lock: it takes a while)
        with _RANKS_LOCK:
            hit = _RANKS.setdefault(r, built)
    return <MoveRanks>hit


def space_ranks(rules):
    """The (cached) :class:`MoveRanks` of the action space of `rules`: the
    moves of at most :func:`max_hand` cards."""
    return ranks_for(rules)


@cython.final
cdef class TranslatedIds(IdFinder):
    """Another numbering of the moves of a space (a foreign format's ids):
    ``TranslatedIds(ranks, of_move, n_ids)`` gives a row the id
    ``of_move[k]`` of its move ``k`` under ``ranks`` (-1: none, or a row that
    is no move of the space); ``n_rows`` is ``n_ids``."""

    cdef MoveRanks ranks
    cdef object _of_move
    cdef const int64_t* of_move

    def __init__(self, MoveRanks ranks not None, of_move, Py_ssize_t n_ids):
        if self._of_move is not None:
            raise TypeError("TranslatedIds is initialised once")
        table = np.array(of_move, dtype=np.int64, copy=True)
        if table.shape != (ranks.n_rows,):
            raise ValueError(f"of_move must have shape ({ranks.n_rows},), not {table.shape}")
        if n_ids < 0 or table.size and (table.min() < -1 or table.max() >= n_ids):
            raise ValueError(f"of_move must hold ids -1 .. {n_ids - 1}")
        self._of_move = frozen(table)       # (kept: of_move points into it)
        self.of_move = <const int64_t*>cnp.PyArray_DATA(<cnp.ndarray>self._of_move)
        self.ranks = ranks
        self.n_rows = n_ids

    cdef void find_rows(self, const uint8_t* rows, Py_ssize_t m, int64_t* ids) noexcept nogil:
        cdef Py_ssize_t k
        if self.of_move == NULL:
            for k in range(m):
                ids[k] = -1
            return
        self.ranks.find_rows(rows, m, ids)
        for k in range(m):
            if ids[k] >= 0:
                ids[k] = self.of_move[ids[k]]


cdef inline int64_t _cards_id(const uint8_t* rep, const uint8_t* phys, unsigned int wmask,
                              const int64_t* first, int most, int splits) noexcept nogil:
    # The cards id of the wild move reading as rep[:15] and playing
    # phys[:15] under the wild ranks of wmask (docs/actions.md, "Wild
    # cards"): the index of its substitution (for each rank 3..2 not wild,
    # the represented cards minus those played) by `first` (shape (13, most
    # + 1, 5), C order), times `splits`, plus the cards of the lower wild
    # rank when splits > 1.  -1 when phys does not read as rep.
    cdef int x, s, before = 0, played = 0, wild_cards = 0, low = -1
    cdef int64_t index = 0
    for x in range(13):
        if (wmask >> x) & 1:
            # (every represented card of a wild rank is a wild card)
            played += rep[x]
            wild_cards += phys[x]
            if phys[x] > 4:
                return -1
            if low < 0:
                low = phys[x]
            continue
        s = <int>rep[x] - <int>phys[x]
        if s < 0 or s > 4 or before + s > most:
            return -1
        index += first[(x * (most + 1) + before) * 5 + s]
        before += s
    if played + before != wild_cards or phys[13] != rep[13] or phys[14] != rep[14] or low < 0:
        return -1
    return index * splits + (low if splits > 1 else 0)


@cython.final
cdef class WildIds:
    """The flat ids of wild moves: ``reading id * cards_size + cards id``
    (docs/actions.md, "Wild cards"), for ``Game.legal_ids`` and ``VecGame``.
    ``WildIds(readings, first, n, splits)``: the MoveRanks of the reading
    ids, the substitution table of ``ddz_fast.actions._substitution_ranks``
    (shape (13, most + 1, 5)) and its number of substitutions ``n``, and
    the splits of the lower wild rank."""

    def __init__(self, MoveRanks readings not None, first, int64_t n, int splits):
        if self.readings is not None:
            raise TypeError("WildIds is initialised once")
        table = np.array(first, dtype=np.int64, order="C", copy=True)
        if (table.ndim != 3 or table.shape[0] != 13 or table.shape[1] < 1 or table.shape[2] != 5
                or splits < 1 or n < 1):
            raise ValueError("WildIds: the substitution table does not fit")
        self._first = frozen(table)     # (kept: first points into it)
        self.first = <const int64_t*>cnp.PyArray_DATA(<cnp.ndarray>self._first)
        self.most = <int>table.shape[1] - 1
        self.splits = splits
        # (every entry of a count that would pass `most` is n: the number of substitutions)
        self.cards_size = <int64_t>n * splits
        self.readings = readings

    cdef int64_t cards_id(self, const uint8_t* rep, const uint8_t* phys, unsigned int wmask) noexcept nogil:
        return _cards_id(rep, phys, wmask, self.first, self.most, self.splits)

    cdef int64_t rank_wild(self, const uint8_t* rows, Py_ssize_t m, unsigned int wmask,
                           int64_t* ids) noexcept nogil:
        cdef Py_ssize_t k
        cdef int64_t r, c, result = 0
        for k in range(m):
            r = self.readings.rank_row(rows + k * 32)
            c = _cards_id(rows + k * 32, rows + k * 32 + 16, wmask, self.first, self.most, self.splits)
            if r < 0 or c < 0:
                ids[k] = -1
                result = -1
            else:
                ids[k] = r * self.cards_size + c
        return result


@cython.boundscheck(False)
@cython.wraparound(False)
def wild_cards_ids(rep_rows, phys_rows, unsigned int wmask, Py_ssize_t splits,
                   const int64_t[:, :, ::1] first, int64_t[::1] out):
    """The cards ids of wild moves (docs/actions.md, "Wild cards"): move k
    reads as ``rep[k, :15]`` and plays ``phys[k, :15]`` under the wild ranks
    of ``wmask``.  Its substitution (for each rank 3..2 not wild, the
    represented cards minus those played) is indexed by ``first`` (the
    table of ``ddz_fast.actions._substitution_ranks``, shape (13, most + 1,
    5)); the id is that index times ``splits``, plus the cards of the lower
    wild rank when ``splits > 1``.  Returns the first move whose cards do
    not read as its counts under these wild ranks (-1: none); ``out[k]`` is
    written for the moves before it."""
    # (rows of any layout: copied to C order when they are not)
    cdef const uint8_t[:, ::1] rep = np.ascontiguousarray(rep_rows, dtype=np.uint8)
    cdef const uint8_t[:, ::1] phys = np.ascontiguousarray(phys_rows, dtype=np.uint8)
    cdef Py_ssize_t k, m = rep.shape[0], bad = -1
    cdef int64_t c
    if (phys.shape[0] != m or out.shape[0] != m or rep.shape[1] < 15 or phys.shape[1] < 15
            or first.shape[0] != 13 or first.shape[1] < 1 or first.shape[2] != 5 or splits < 1):
        raise ValueError("wild_cards_ids: the arrays do not fit together")
    if m == 0:
        return -1
    with nogil:
        for k in range(m):
            c = _cards_id(&rep[k, 0], &phys[k, 0], wmask, &first[0, 0, 0], <int>first.shape[1] - 1,
                          <int>splits)
            if c < 0:
                bad = k
                break
            out[k] = c
    return bad
