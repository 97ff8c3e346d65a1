# cython: language_level=3
"""C-level move kernels (see _core/kernels.pxd for the row layout).

Invariants the kernels rely on (checked by the callers (_core/entry.pyx, _core/move.pyx) before
any kernel runs):

* a hand ``h`` is 15 counts with ``h[0..12] <= 4 * decks`` and
  ``h[13], h[14] <= decks``;
* a ``MoveInfo`` for a last move describes a move that is legal under the
  same rules (``valid_move_c``);
* ``RulesC`` comes from ``Rules`` and is never modified during a call.

Order of emitted moves (the documented move-list order): kind code, then
length, then number of cards (bomb sizes), then rank, then the attachments as
an ascending list of rank indices compared lexicographically.  Each kind
generator below is written so that its loops run in exactly that order; the
differential suite checks it against ``reference.move_order_key``.
"""
from libc.stdlib cimport malloc, realloc
from libc.string cimport memcpy, memset

from .bits cimport popcount

cdef enum:
    TWO = 12
    LOW = 13          # low joker
    HIGH = 14         # high joker
    BIG = 99


# ---------------------------------------------------------------------------
# Output buffer
# ---------------------------------------------------------------------------

cdef extern from *:
    """
    /* Spare row blocks: a large batch's buffer is an mmap of its own, given
       back to the system when the batch is freed, so the next batch of that
       size page-faults every page in again (most of its time on 65,536
       hands).  Freed blocks of DDZ_SPARE_MIN..DDZ_SPARE_MAX bytes are kept in
       DDZ_SPARES slots instead, for the next batch to take.  A block keeps
       its size in its first bytes while it waits.  The slots are swapped
       atomically: any thread may free or take a block. */
    #include <stdlib.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    #define DDZ_XCHG(slot, v) _InterlockedExchangePointer((void* volatile*)(slot), (v))
    #else
    #define DDZ_XCHG(slot, v) __atomic_exchange_n((slot), (v), __ATOMIC_ACQ_REL)
    #endif
    #define DDZ_SPARES 2
    #define DDZ_SPARE_MIN ((size_t)1 << 20)
    #define DDZ_SPARE_MAX ((size_t)1 << 28)
    static void* ddz_spares[DDZ_SPARES];

    static void ddz_release_rows(void* p, size_t nbytes) {
        int i;
        if (p == NULL)
            return;
        if (nbytes < DDZ_SPARE_MIN || nbytes > DDZ_SPARE_MAX) {
            free(p);
            return;
        }
        memcpy(p, &nbytes, sizeof nbytes);
        for (i = 0; i < DDZ_SPARES && p != NULL; i++)
            p = DDZ_XCHG(&ddz_spares[i], p);
        free(p);    /* the oldest, when every slot was taken (free(NULL) is a no-op) */
    }

    /* A spare block of at least `least` and at most `most` bytes (its size in
       *got), or NULL. */
    static void* ddz_take_rows(size_t least, size_t most, size_t* got) {
        int i;
        size_t size;
        void* q;
        for (i = 0; i < DDZ_SPARES; i++) {
            q = DDZ_XCHG(&ddz_spares[i], NULL);
            if (q == NULL)
                continue;
            memcpy(&size, q, sizeof size);
            if (least <= size && size <= most) {
                *got = size;
                return q;
            }
            ddz_release_rows(q, size);   /* not this one: back to the slots */
        }
        return NULL;
    }
    """
    void ddz_release_rows(void* p, size_t nbytes) noexcept nogil
    void* ddz_take_rows(size_t least, size_t most, size_t* got) noexcept nogil


cdef void release_rows(unsigned char* data, Py_ssize_t cap) noexcept nogil:
    ddz_release_rows(data, <size_t>cap * ROW)


cdef bint out_init_batch(Out* o, Py_ssize_t cap, Py_ssize_t expect) noexcept nogil:
    # out_init for a batch expected to write about `expect` rows: a spare
    # block of at least cap and at most 4 * expect rows if there is one.
    cdef size_t got = 0
    cdef void* q
    if cap < 16:
        cap = 16
    q = ddz_take_rows(<size_t>cap * ROW, <size_t>(expect if expect > cap else cap) * 4 * ROW, &got)
    if q == NULL:
        return out_init(o, cap, False)
    out_init_on(o, <unsigned char*>q, <Py_ssize_t>(got // ROW))
    o.borrowed = False                # (ours: grown by realloc, freed by out_free)
    return True


cdef bint out_init(Out* o, Py_ssize_t cap, bint count_only) noexcept nogil:
    o.n = 0
    o.ids = NULL
    o.oom = False
    o.borrowed = False
    o.count_only = count_only
    if count_only:
        o.data = NULL
        o.cap = 0
        return True
    if cap < 16:
        cap = 16
    o.data = <unsigned char*>malloc(cap * ROW)
    o.cap = cap if o.data != NULL else 0
    o.oom = o.data == NULL
    return not o.oom


cdef void out_init_on(Out* o, unsigned char* buf, Py_ssize_t cap) noexcept nogil:
    o.n = 0
    o.ids = NULL
    o.oom = False
    o.count_only = False
    o.borrowed = True
    o.data = buf
    o.cap = cap


cdef void out_free(Out* o) noexcept nogil:
    if not o.borrowed:
        release_rows(o.data, o.cap)
    o.borrowed = False
    o.data = NULL
    o.cap = 0
    o.n = 0


# ---------------------------------------------------------------------------
# Hand masks.  A hand is described by bit masks over the 15 ranks: m[t] holds
# the ranks with at least t cards.  Generators loop over set bits (lowest
# first, so ranks ascend), and a row is built in two 64-bit words (bytes 0..7
# and 8..15 of the row) in registers and stored once: a rank mask turns into
# bytes through _SPREAD (one byte per bit of an 8-bit mask).
# ---------------------------------------------------------------------------

cdef u64 _SPREAD[256]         # _SPREAD[b]: byte j is bit j of b
cdef u64 _ONE[2][15]          # _ONE[w][k]: one card of rank k in word w of a row

# _NWIN[i][m]: how many chains a lead has in the 12-bit chain mask m (ranks
# 0..ACE holding enough cards), for i = 0 (chains, >= 5 ranks), 1 (pair
# chains, >= 3) and 2 (airplanes, >= 2); filled from _count_windows below.
# One load where _count_windows loops with a data-dependent exit, which
# mispredicts on every fresh hand.
cdef unsigned char _NWIN[3][CHAIN_RANKS + 1]


cdef void _init_tables() noexcept:
    cdef int b, j
    for b in range(256):
        _SPREAD[b] = 0
        for j in range(8):
            if b >> j & 1:
                _SPREAD[b] |= (<u64>1) << (8 * j)
    for j in range(N_RANKS):
        _ONE[0][j] = (<u64>1) << (8 * j) if j < 8 else 0
        _ONE[1][j] = (<u64>1) << (8 * (j - 8)) if j >= 8 else 0


_init_tables()


cdef struct Hand:
    const unsigned char* h
    unsigned int m[MAX_T + 2]    # m[t]: ranks holding >= t cards (m[MAX_T + 1] = 0)
    int total


cdef inline void hand_masks(const unsigned char* h, int max_count, Hand* k) noexcept nogil:
    cdef u64 lo, hi
    cdef int t
    _hand_words(h, &lo, &hi)
    k.h = h
    k.m[0] = 0x7FFF
    # fixed trip counts: a loop bounded by max_count became a call to memset
    for t in range(1, 5):
        k.m[t] = _ge_mask(lo, hi, t)
    if max_count > 4:
        for t in range(5, MAX_T + 1):
            k.m[t] = _ge_mask(lo, hi, t)
    else:
        for t in range(5, MAX_T + 1):
            k.m[t] = 0
    k.m[MAX_T + 1] = 0
    # the sum of the bytes (each word's sum is below 256)
    k.total = _word_cards(lo, hi)


cdef inline unsigned int _from(int rmin) noexcept nogil:
    # ranks >= rmin (rmin in 0..15)
    return ~((1u << rmin) - 1) if rmin > 0 else 0xFFFFFFFFu


cdef inline u64 _spread_lo(unsigned int mask) noexcept nogil:
    return _SPREAD[mask & 0xFF]


cdef inline u64 _spread_hi(unsigned int mask) noexcept nogil:
    return _SPREAD[(mask >> 8) & 0xFF]


cdef inline u64 _kind_hi(int kind) noexcept nogil:
    return (<u64>kind) << 56


cdef inline void _put(unsigned char* p, u64 lo, u64 hi) noexcept nogil:
    memcpy(p, &lo, 8)
    memcpy(p + 8, &hi, 8)


cdef inline void* _grow(void* data, Py_ssize_t n, Py_ssize_t* cap, bint* borrowed,
                        Py_ssize_t need, size_t item) noexcept nogil:
    # The memory of a buffer of n items (of `item` bytes) grown to room for
    # at least `need`: doubled (from 64), moved to malloc'd memory when it is
    # the caller's (borrowed), else realloc'd; cap and borrowed updated.
    # NULL: out of memory (nothing changed).
    cdef Py_ssize_t c = cap[0] * 2 if cap[0] else 64
    cdef void* q
    if c < need:
        c = need
    if borrowed[0]:
        q = malloc(c * item)
        if q != NULL and n:
            memcpy(q, data, n * item)
    else:
        q = realloc(data, c * item)
    if q != NULL:
        borrowed[0] = False
        cap[0] = c
    return q


cdef inline unsigned char* _reserve(Out* o, Py_ssize_t k) noexcept nogil:
    # Room for k more rows and one scratch row (see _put_each); where to
    # write them (NULL: out of memory).
    cdef void* q
    if o.n + k + 1 > o.cap:
        q = _grow(o.data, o.n, &o.cap, &o.borrowed, o.n + k + 1, ROW)
        if q == NULL:
            o.oom = True
            return NULL
        o.data = <unsigned char*>q
    return o.data + o.n * ROW


cdef unsigned char* out_reserve(Out* o, Py_ssize_t k) noexcept nogil:
    return _reserve(o, k)


cdef inline void _commit(Out* o, unsigned char* p) noexcept nogil:
    o.n = (p - o.data) // ROW


# Id mode (Out.ids): the generators that know their moves' ids from their
# masks write the ids, through a cursor like the rows'.

cdef inline int32_t* _reserve_ids(IdSink* s, Py_ssize_t k) noexcept nogil:
    # Room for k more ids and one to spare (see _ids_each); where to write
    # them (NULL: out of memory).
    cdef void* q
    if s.n + k + 1 > s.cap:
        q = _grow(s.data, s.n, &s.cap, &s.borrowed, s.n + k + 1, sizeof(int32_t))
        if q == NULL:
            s.oom = True
            return NULL
        s.data = <int32_t*>q
    return s.data + s.n


cdef inline int32_t* _ids_each(int32_t* q, unsigned int m, const int32_t* ids) noexcept nogil:
    # ids[x] for each rank x in m, ascending: _put_each's moves as ids (the
    # same write-always, advance-if-in-m loop; one id to spare)
    cdef int x
    for x in range(N_RANKS):
        q[0] = ids[x]
        q += (m >> x) & 1
    return q


# ---------------------------------------------------------------------------
# Generators, one per kind.  Each takes the length range [lmin, lmax] and the
# lowest rank rmin to emit; a lead passes (0, BIG, 0).  Each reserves the
# room it needs once (an exact bound) and writes through a local cursor.
# ---------------------------------------------------------------------------

cdef inline unsigned char* _put_sparse(unsigned char* p, unsigned int m, u64 c, u64 lo, u64 hi) noexcept nogil:
    # one row per rank in m (ascending): the row (lo, hi) plus c cards of that
    # rank (lo, hi: the kind code alone, or a trio/four the kickers go with);
    # returns the cursor after them.  For masks of a few ranks (trios, bombs).
    cdef int x
    while m:
        x = ctz(m)
        m &= m - 1
        _put(p, lo + c * _ONE[0][x], hi + c * _ONE[1][x])
        p += ROW
    return p


cdef inline unsigned char* _put_each(unsigned char* p, unsigned int m, u64 c, u64 lo, u64 hi) noexcept nogil:
    # _put_sparse without branches, for masks of many ranks (singles, pairs,
    # kickers): a row is written at the cursor for every rank, and the cursor
    # moves past it only for the ranks in m.  A loop over the set bits
    # mispredicts its exit on nearly every fresh hand, which costs more than
    # the stores.  The rows after the cursor are scratch: every reservation
    # (_reserve) keeps one row to spare for the last of them.
    cdef int x
    for x in range(8):
        _put(p, lo + (c << (8 * x)), hi)
        p += ROW * ((m >> x) & 1)
    for x in range(8, N_RANKS):
        _put(p, lo, hi + (c << (8 * (x - 8))))
        p += ROW * ((m >> x) & 1)
    return p


cdef inline void _put_same(unsigned int m, int kind, int each, bint sparse, Out* o) noexcept nogil:
    # One row of `each` cards for every rank of m (sparse: a loop over its
    # set bits, for masks of few ranks; else _put_each, branch-free).
    cdef unsigned char* p
    if not m:
        return
    p = _reserve(o, popcount(m))
    if p == NULL:
        return
    if sparse:
        p = _put_sparse(p, m, each, 0, _kind_hi(kind))
    else:
        p = _put_each(p, m, each, 0, _kind_hi(kind))
    _commit(o, p)


cdef void gen_same(const Hand* k, int kind, int each, int rmin, Out* o) noexcept nogil:
    # SOLO / PAIR / TRIO: `each` cards of one rank (jokers included: with two
    # decks two equal jokers are a pair).
    _put_same(k.m[each] & _from(rmin), kind, each, each == 3, o)


cdef inline unsigned char* _put_trio_kicks(unsigned char* p, unsigned int trios, unsigned int kicks,
                                           int each, u64 kh) noexcept nogil:
    # For each trio rank (ascending), one row per kicker rank of `kicks`
    # other than the trio's own: `each` cards of it.  Returns the cursor.
    cdef int x
    while trios:
        x = ctz(trios)
        trios &= trios - 1
        p = _put_each(p, kicks & ~(1u << x), each, 3 * _ONE[0][x], 3 * _ONE[1][x] | kh)
    return p


cdef void gen_trio_kick(const Hand* k, int kind, int rmin, Out* o) noexcept nogil:
    # TRIO_SOLO (kicker 1 card) / TRIO_PAIR (kicker 2 cards), kicker rank != trio rank.
    cdef int each = 1 if kind == K_TRIO_SOLO else 2
    cdef unsigned int trios = k.m[3] & _from(rmin)
    cdef unsigned char* p
    cdef u64 kh = _kind_hi(kind)
    if not trios or popcount(k.m[each]) < 2:
        return
    p = _reserve(o, popcount(trios) * (popcount(k.m[each]) - 1))
    if p == NULL:
        return
    _commit(o, _put_trio_kicks(p, trios, k.m[each], each, kh))


cdef inline unsigned int _tops_from(int rmin, int L) noexcept nogil:
    # window bottoms s whose top s + L - 1 is >= rmin
    return _from(rmin - L + 1) if rmin - L + 1 > 0 else 0xFFFFFFFFu


cdef inline void gen_chain(const Hand* k, int kind, int each, int minlen,
                           int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # CHAIN / PAIR_CHAIN / AIRPLANE: `each` cards at every rank of a window
    # within 0..ACE, by length, then top rank, in one reservation (exact: a
    # lead's count from _NWIN, a response's from its one length).
    cdef unsigned int m = k.m[each] & CHAIN_RANKS, w, ws, win
    cdef unsigned char* p
    cdef u64 kh = _kind_hi(kind), c = each
    cdef int L, s
    cdef Py_ssize_t n
    if lmin < minlen:
        lmin = minlen
    if lmax > 12:
        lmax = 12
    if lmin > lmax:
        return
    w = _windows(m, lmin)
    if not w:
        return
    if lmin == lmax:
        n = popcount(w & _tops_from(rmin, lmin))
    elif lmin == minlen and lmax == 12 and rmin == 0:
        n = _NWIN[each - 1][m]                # a lead: every chain
    else:
        n = _count_windows(m, minlen, lmin, lmax, rmin)
    if o.ids != NULL:
        _chain_ids(o.ids, kind, w, m, lmin, lmax, rmin, n)
        return
    p = _reserve(o, n)
    if p == NULL:
        return
    L = lmin
    while w and L <= lmax:
        ws = w & _tops_from(rmin, L)
        while ws:
            s = ctz(ws)
            ws &= ws - 1
            win = ((1u << L) - 1) << s
            _put(p, c * _spread_lo(win), c * _spread_hi(win) | kh)
            p += ROW
        w &= m >> L
        L += 1
    _commit(o, p)


cdef void _chain_ids(IdSink* ids, int kind, unsigned int w, unsigned int m, int lmin, int lmax,
                     int rmin, Py_ssize_t n) noexcept nogil:
    # gen_chain's loop in id mode: the id of each window (length L, lowest s)
    cdef int32_t* q = _reserve_ids(ids, n)
    cdef const int32_t* by_length
    cdef unsigned int ws
    cdef int L = lmin
    if q == NULL:
        return
    while w and L <= lmax:
        ws = w & _tops_from(rmin, L)
        by_length = ids.t.base + (kind * 16 + L) * 16
        while ws:
            q[0] = by_length[ctz(ws)]
            q += 1
            ws &= ws - 1
        w &= m >> L
        L += 1
    ids.n = q - ids.data


cdef struct Kick:
    # The kicker candidates of one airplane window, ascending.
    u64 lo[15]          # one card of candidate i, in the row's two words
    u64 hi[15]
    int cap[15]         # most cards candidate i may give
    int suffix[16]      # suffix[i] = sum of cap[i:]
    int n
    int forbid3         # candidate index whose count may not be exactly 3, or -1
    int high            # candidate index of the high joker, or -1
    bint jokers_ok      # may the low and the high joker both be kickers?
    Out* o
    unsigned char* p    # write cursor and the end of the room reserved
    unsigned char* end


cdef inline bint _room(Kick* x) noexcept nogil:
    # Make room for at least one row at x.p (grows by doubling).
    cdef unsigned char* p
    _commit(x.o, x.p)
    p = _reserve(x.o, x.o.cap if x.o.cap > 64 else 64)
    if p == NULL:
        return False
    x.p = p
    x.end = x.o.data + x.o.cap * ROW
    return True


cdef inline bint _emit(Kick* x, u64 lo, u64 hi) noexcept nogil:
    if x.p == x.end and not _room(x):
        return False
    _put(x.p, lo, hi)
    x.p += ROW
    return True


cdef inline bint _high_blocked(const Kick* x, int i, u64 hi) noexcept nogil:
    # candidate i is the high joker and a low joker is already a kicker
    return i == x.high and not x.jokers_ok and (hi >> 40) & 0xFF


cdef bint kick_solo(Kick* x, int i, int need, u64 lo, u64 hi) noexcept nogil:
    # Multisets of `need` single kickers from candidates i.., in ascending
    # lexicographic order of the sorted kicker list: more copies of a smaller
    # rank come first, hence the count loop runs downwards.  False: out of memory.
    cdef int c, cap, j
    while True:
        if x.suffix[i] < need:          # also stops at i == n (suffix 0)
            return True
        if need == 1:
            for j in range(i, x.n):
                if not _high_blocked(x, j, hi) and not _emit(x, lo + x.lo[j], hi + x.hi[j]):
                    return False
            return True
        if not _high_blocked(x, i, hi):
            cap = x.cap[i] if x.cap[i] < need else need
            c = cap
            while c > 0:
                if not (c == 3 and i == x.forbid3):
                    if c == need:
                        if not _emit(x, lo + c * x.lo[i], hi + c * x.hi[i]):
                            return False
                    elif not kick_solo(x, i + 1, need - c, lo + c * x.lo[i], hi + c * x.hi[i]):
                        return False
                c -= 1
        i += 1


cdef bint kick_pairs(Kick* x, int i, int need, u64 lo, u64 hi) noexcept nogil:
    # `need` pairs of distinct ranks from candidates i.., in ascending
    # lexicographic order.  False: out of memory.
    cdef int j
    if need == 1:
        for j in range(i, x.n):
            if not _high_blocked(x, j, hi) and not _emit(x, lo + 2 * x.lo[j], hi + 2 * x.hi[j]):
                return False
        return True
    for j in range(i, x.n - need + 1):
        if not _high_blocked(x, j, hi) and not kick_pairs(x, j + 1, need - 1, lo + 2 * x.lo[j], hi + 2 * x.hi[j]):
            return False
    return True


cdef bint _kick_two(Kick* x, const Hand* k, const RulesC* r, unsigned int cand, int each,
                    u64 lo, u64 hi, int s) noexcept nogil:
    # The commonest airplane, two trios: kick_solo / kick_pairs for two
    # attachments from the ranks in cand, in the same order, with the rows
    # after each first attachment written by _put_each.  Singles: two cards
    # of a rank that holds two (no cap below two applies to two cards), then
    # that rank and a higher one; pairs: two distinct ranks.  Never the low
    # and the high joker together unless allowed.  False: out of memory.
    cdef unsigned int rest = cand, above
    cdef int y
    cdef bint doubles = each == 1 and not r.airplane_solo_distinct
    cdef u64 c = each, lo1, hi1
    cdef unsigned char* p
    cdef Py_ssize_t n = popcount(cand)
    cdef const int32_t* two
    cdef int32_t* q
    _commit(x.o, x.p)
    if x.o.ids != NULL and x.o.ids.t.two[each - 1][s] != NULL:
        # id mode: the ids of (a, b) of this window's table, in the same loops
        two = x.o.ids.t.two[each - 1][s]
        q = _reserve_ids(x.o.ids, n * (n + 1) // 2)
        if q == NULL:
            return False
        while rest:
            y = ctz(rest)
            rest &= rest - 1
            if doubles:
                q[0] = two[y * 15 + y]
                q += k.h[y] >= 2
            above = rest
            if y == LOW and not r.both_jokers_as_kickers:
                above &= ~HIGH_BIT
            q = _ids_each(q, above, two + y * 15)
        x.o.ids.n = q - x.o.ids.data
        return True
    p = _reserve(x.o, n * (n + 1) // 2)
    if p == NULL:
        return False
    while rest:
        y = ctz(rest)
        rest &= rest - 1
        lo1 = lo + c * _ONE[0][y]
        hi1 = hi + c * _ONE[1][y]
        if doubles:
            _put(p, lo1 + _ONE[0][y], hi1 + _ONE[1][y])
            p += ROW * (k.h[y] >= 2)
        above = rest
        if y == LOW and not r.both_jokers_as_kickers:
            above &= ~HIGH_BIT
        p = _put_each(p, above, c, lo1, hi1)
    _commit(x.o, p)
    x.p = p
    x.end = x.o.data + x.o.cap * ROW
    return True


cdef void gen_airplane_kick(const Hand* k, const RulesC* r, int kind,
                            int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # AIRPLANE_SOLO / AIRPLANE_PAIR: L consecutive trios within 0..ACE plus L
    # single / pair attachments from ranks outside the window.
    #
    # A card set can read as AIRPLANE_SOLO with several windows; it is one
    # move whose rank is the top of its highest reading.  It is emitted only
    # for that window.  A reading with top e has a higher reading iff the
    # kickers hold exactly three cards of rank e+1 (<= ACE): then the window
    # shifted up by one is valid (its ranks hold exactly three cards and the
    # old bottom trio becomes three kickers); conversely any higher window
    # contains e+1, whose three cards must all be kickers.  So the kicker
    # enumeration for top e forbids a count of exactly 3 at rank e+1.  With
    # distinct singles no rank holds 3 kickers and the reading is unique.
    cdef Kick x
    cdef unsigned int m3 = k.m[3] & CHAIN_RANKS, w, ws, win, cand
    cdef int per = 4 if kind == K_AIRPLANE_SOLO else 5
    cdef int src = 1 if kind == K_AIRPLANE_SOLO else 2
    cdef int L, s, e, y, i
    cdef bint solo = kind == K_AIRPLANE_SOLO
    cdef u64 kh = _kind_hi(kind), lo, hi
    if lmin < 2:
        lmin = 2
    if lmax > k.total // per:
        lmax = k.total // per
    if lmax > 12:
        lmax = 12
    if lmin > lmax:
        return
    x.o = o
    x.jokers_ok = r.both_jokers_as_kickers
    x.p = _reserve(o, 0)
    if x.p == NULL:
        return
    x.end = o.data + o.cap * ROW
    w = _windows(m3, lmin)
    L = lmin
    while w and L <= lmax:
        ws = w & _tops_from(rmin, L)
        while ws:
            s = ctz(ws)
            ws &= ws - 1
            e = s + L - 1
            win = ((1u << L) - 1) << s
            cand = k.m[src] & ~win
            if popcount(cand) < (1 if solo else L):
                continue
            x.n = 0
            x.high = -1
            x.forbid3 = -1
            while cand:
                y = ctz(cand)
                cand &= cand - 1
                x.lo[x.n] = _ONE[0][y]
                x.hi[x.n] = _ONE[1][y]
                x.cap[x.n] = _kicker_cap(k.h[y], r, y, s, e) if solo else 1
                if y == HIGH:
                    x.high = x.n
                if solo and _kicker_three_forbidden(r, y, e):
                    x.forbid3 = x.n
                x.n += 1
            x.suffix[x.n] = 0
            i = x.n - 1
            while i >= 0:
                x.suffix[i] = x.suffix[i + 1] + x.cap[i]
                i -= 1
            if x.suffix[0] < L:
                continue
            lo = 3 * _spread_lo(win)
            hi = 3 * _spread_hi(win) | kh
            if L == 2:
                if not _kick_two(&x, k, r, k.m[src] & ~win, src, lo, hi, s):
                    return
            elif solo:
                if not kick_solo(&x, 0, L, lo, hi):
                    return
            elif not kick_pairs(&x, 0, L, lo, hi):
                return
        w &= m3 >> L
        L += 1
    _commit(o, x.p)


cdef void gen_four_two(const Hand* k, const RulesC* r, int kind, int rmin, Out* o) noexcept nogil:
    # FOUR_TWO_SOLO: four of a rank + two singles (distinct ranks when
    # four_two_solo_distinct); FOUR_TWO_PAIR: + two pairs of distinct ranks.
    # Never a low and a high joker together unless both_jokers_as_kickers.
    cdef int each = 1 if kind == K_FOUR_TWO_SOLO else 2
    cdef bint dup = kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct
    cdef unsigned int fours = k.m[4] & BOMB_RANKS & _from(rmin), ka, kb
    cdef unsigned char* p
    cdef u64 kh = _kind_hi(kind), c = each, lo, hi, lo1, hi1
    cdef int x, a, n = popcount(k.m[each]) - 1
    if not fours or n < 1:
        return
    if o.ids != NULL:
        _four_two_ids(o.ids, k, r, kind, fours, popcount(fours) * (n * (n - 1) // 2 + (n if dup else 0)))
        return
    p = _reserve(o, popcount(fours) * (n * (n - 1) // 2 + (n if dup else 0)))
    if p == NULL:
        return
    while fours:
        x = ctz(fours)
        fours &= fours - 1
        lo = 4 * _ONE[0][x]
        hi = 4 * _ONE[1][x] | kh
        ka = k.m[each] & ~(1u << x)
        while ka:
            a = ctz(ka)
            ka &= ka - 1
            lo1 = lo + c * _ONE[0][a]
            hi1 = hi + c * _ONE[1][a]
            if dup and k.h[a] >= 2:
                _put(p, lo1 + _ONE[0][a], hi1 + _ONE[1][a])
                p += ROW
            kb = ka
            if a == LOW and not r.both_jokers_as_kickers:
                kb &= ~HIGH_BIT
            p = _put_each(p, kb, c, lo1, hi1)
    _commit(o, p)


cdef void _four_two_ids(IdSink* ids, const Hand* k, const RulesC* r, int kind,
                        unsigned int fours, Py_ssize_t n) noexcept nogil:
    # gen_four_two's loops in id mode: the id of each (four, a, b)
    cdef int each = 1 if kind == K_FOUR_TWO_SOLO else 2
    cdef bint dup = kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct
    cdef unsigned int ka, kb
    cdef int x, a
    cdef const int32_t* by_a
    cdef int32_t* q = _reserve_ids(ids, n)
    if q == NULL:
        return
    while fours:
        x = ctz(fours)
        fours &= fours - 1
        ka = k.m[each] & ~(1u << x)
        while ka:
            a = ctz(ka)
            ka &= ka - 1
            by_a = ids.t.four + ((kind - K_FOUR_TWO_SOLO) * 15 + x) * 225 + a * 15
            if dup and k.h[a] >= 2:
                q[0] = by_a[a]
                q += 1
            kb = ka
            if a == LOW and not r.both_jokers_as_kickers:
                kb &= ~HIGH_BIT
            q = _ids_each(q, kb, by_a)
    ids.n = q - ids.data


cdef inline unsigned int _bombs_of_size(const Hand* k, int size, int min_size, int min_rank) noexcept nogil:
    # ranks holding a bomb of `size` cards that gen_bombs emits
    cdef unsigned int m = k.m[size] & BOMB_RANKS
    if size == min_size:
        m &= _from(min_rank)
    return m


cdef inline unsigned char* _put_bombs(unsigned char* p, const Hand* k, const RulesC* r,
                                      int min_size, int min_rank) noexcept nogil:
    cdef int size
    for size in range(min_size, r.max_count + 1):
        p = _put_sparse(p, _bombs_of_size(k, size, min_size, min_rank), size, 0, _kind_hi(K_BOMB))
    return p


cdef void gen_bombs(const Hand* k, const RulesC* r, int min_size, int min_rank, Out* o) noexcept nogil:
    # Bombs ordered by size, then rank; those of size min_size start at min_rank.
    cdef unsigned char* p
    cdef int size, n = 0
    for size in range(min_size, r.max_count + 1):
        n += popcount(_bombs_of_size(k, size, min_size, min_rank))
    if n == 0:
        return
    p = _reserve(o, n)
    if p == NULL:
        return
    _commit(o, _put_bombs(p, k, r, min_size, min_rank))


cdef inline int _has_rocket(const unsigned char* h, const RulesC* r) noexcept nogil:
    # 1 when hand h holds the rocket (every joker of the deck), else 0; no branch
    return (h[LOW] >= r.max_joker) & (h[HIGH] >= r.max_joker)


cdef inline unsigned char* _put_rocket(unsigned char* p, int has, const RulesC* r) noexcept nogil:
    # The rocket's row at p (room for it reserved); the cursor moves on only
    # when has is 1.
    cdef u64 c = r.max_joker
    _put(p, 0, (c * _ONE[1][LOW] + c * _ONE[1][HIGH]) | _kind_hi(K_ROCKET))
    return p + ROW * has


cdef void gen_rocket(const Hand* k, const RulesC* r, Out* o) noexcept nogil:
    cdef unsigned char* p
    if _has_rocket(k.h, r):
        p = _reserve(o, 1)
        if p != NULL:
            _commit(o, _put_rocket(p, 1, r))


cdef void gen_kind(const Hand* k, const RulesC* r, int kind,
                   int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # Every move of one ordinary kind with length in [lmin, lmax] and rank >= rmin.
    cdef bint single = lmin <= 1 <= lmax
    if kind == K_SOLO:
        if single: gen_same(k, K_SOLO, 1, rmin, o)
    elif kind == K_PAIR:
        if single: gen_same(k, K_PAIR, 2, rmin, o)
    elif kind == K_TRIO:
        if single: gen_same(k, K_TRIO, 3, rmin, o)
    elif kind == K_CHAIN:
        gen_chain(k, K_CHAIN, 1, 5, lmin, lmax, rmin, o)
    elif kind == K_PAIR_CHAIN:
        gen_chain(k, K_PAIR_CHAIN, 2, 3, lmin, lmax, rmin, o)
    elif k.m[3] == 0:
        return              # every other ordinary kind holds a trio or a four
    elif kind == K_TRIO_SOLO:
        if single and r.solo_kickers: gen_trio_kick(k, K_TRIO_SOLO, rmin, o)
    elif kind == K_TRIO_PAIR:
        if single: gen_trio_kick(k, K_TRIO_PAIR, rmin, o)
    elif kind == K_AIRPLANE:
        gen_chain(k, K_AIRPLANE, 3, 2, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE_SOLO:
        if r.solo_kickers: gen_airplane_kick(k, r, K_AIRPLANE_SOLO, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE_PAIR:
        gen_airplane_kick(k, r, K_AIRPLANE_PAIR, lmin, lmax, rmin, o)
    elif kind == K_FOUR_TWO_SOLO:
        if single and r.four_with_kickers: gen_four_two(k, r, K_FOUR_TWO_SOLO, rmin, o)
    elif kind == K_FOUR_TWO_PAIR:
        if single and r.four_with_kickers: gen_four_two(k, r, K_FOUR_TWO_PAIR, rmin, o)


cdef void _lead_ranks(const Hand* k, const RulesC* r, Out* o) noexcept nogil:
    # A lead's singles, pairs, trios and trios with a kicker (gen_same and
    # gen_trio_kick in kind order) in one reservation: these are most of
    # the moves of a hand.
    cdef unsigned int m1 = k.m[1], m2 = k.m[2], trios = k.m[3]
    cdef int n1, n2, n3
    cdef unsigned char* p
    if k.total <= 4 and o.ids == NULL:
        # a hand of a few cards (the end of a game): at most 9 such moves (3
        # a card bounds them without counting ranks), a row per rank held,
        # not one for each of the 15 ranks
        p = _reserve(o, 3 * k.total)
        if p == NULL:
            return
        p = _put_sparse(p, m1, 1, 0, _kind_hi(K_SOLO))
        p = _put_sparse(p, m2, 2, 0, _kind_hi(K_PAIR))
    else:
        n1 = popcount(m1)
        n2 = popcount(m2)
        n3 = popcount(trios)
        if o.ids != NULL:
            _lead_rank_ids(o.ids, r, m1, m2, trios, n1 + n2 + n3 * (1 + n1 + n2))
            return
        p = _reserve(o, n1 + n2 + n3 * (n2 + (n1 if r.solo_kickers else 1)))
        if p == NULL:
            return
        p = _put_each(p, m1, 1, 0, _kind_hi(K_SOLO))
        p = _put_each(p, m2, 2, 0, _kind_hi(K_PAIR))
    if trios:
        p = _put_sparse(p, trios, 3, 0, _kind_hi(K_TRIO))
        if r.solo_kickers:
            p = _put_trio_kicks(p, trios, m1, 1, _kind_hi(K_TRIO_SOLO))
        p = _put_trio_kicks(p, trios, m2, 2, _kind_hi(K_TRIO_PAIR))
    _commit(o, p)


cdef void _lead_rank_ids(IdSink* s, const RulesC* r, unsigned int m1, unsigned int m2,
                         unsigned int trios, Py_ssize_t most) noexcept nogil:
    # _lead_ranks in id mode: the same moves (singles, pairs, trios, trios
    # with a kicker of another rank), as ids
    cdef const IdTables* t = s.t
    cdef int32_t* q = _reserve_ids(s, most)
    cdef int x
    if q == NULL:
        return
    q = _ids_each(q, m1, t.base + (K_SOLO * 16 + 1) * 16)
    q = _ids_each(q, m2, t.base + (K_PAIR * 16 + 1) * 16)
    q = _ids_each(q, trios, t.base + (K_TRIO * 16 + 1) * 16)
    while trios:
        x = ctz(trios)
        trios &= trios - 1
        if r.solo_kickers:
            q = _ids_each(q, m1 & ~(1u << x), t.head + x * 15)
        q = _ids_each(q, m2 & ~(1u << x), t.head + (15 + x) * 15)
    s.n = q - s.data


cdef void gen_lead(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil:
    """Every lead move of hand h, in the documented order (no PASS)."""
    cdef Hand k
    if o.count_only:
        o.n += count_moves_c(h, r, NULL)
        return
    hand_masks(h, r.max_count, &k)
    _lead_ranks(&k, r, o)
    if k.total >= 5:          # a chain holds 5 cards at least, the other sequences 6
        gen_chain(&k, K_CHAIN, 1, 5, 0, BIG, 0, o)
        gen_chain(&k, K_PAIR_CHAIN, 2, 3, 0, BIG, 0, o)
        if k.m[3] & (k.m[3] >> 1) & CHAIN_RANKS:
            gen_chain(&k, K_AIRPLANE, 3, 2, 0, BIG, 0, o)
            if r.solo_kickers:
                gen_airplane_kick(&k, r, K_AIRPLANE_SOLO, 0, BIG, 0, o)
            gen_airplane_kick(&k, r, K_AIRPLANE_PAIR, 0, BIG, 0, o)
    if k.m[4]:
        if r.four_with_kickers:
            gen_four_two(&k, r, K_FOUR_TWO_SOLO, 0, o)
            gen_four_two(&k, r, K_FOUR_TWO_PAIR, 0, o)
        gen_bombs(&k, r, 4, 0, o)
    gen_rocket(&k, r, o)


cdef void gen_response(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """PASS, then every move of h that beats `last` (a non-PASS legal move)."""
    cdef Hand k
    cdef unsigned char* p
    if o.count_only:
        o.n += count_moves_c(h, r, last)
        return
    if last.kind == K_ROCKET:
        p = _reserve(o, 1)
        if p != NULL:
            _put(p, 0, _kind_hi(K_PASS))
            o.n += 1
        return
    if K_SOLO <= last.kind <= K_TRIO or last.kind == K_BOMB:
        _respond_single_rank(h, r, last, o)
        return
    hand_masks(h, r.max_count, &k)
    p = _reserve(o, 1)
    if p == NULL:
        return
    _put(p, 0, _kind_hi(K_PASS))
    o.n += 1
    gen_kind(&k, r, last.kind, last.length, last.length, last.rank + 1, o)
    gen_bombs(&k, r, 4, 0, o)
    gen_rocket(&k, r, o)


cdef void _respond_single_rank(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    # The commonest answers (to a solo, pair, trio or bomb) in one reservation
    # and one pass: PASS, the same kind higher, the bombs that beat it, the
    # rocket; only the masks they need.
    cdef unsigned int same = 0, bombs[MAX_T + 1]
    cdef int min_size = 4, min_rank = 0, size, n
    cdef unsigned char* p
    cdef int rocket = _has_rocket(h, r)
    cdef u64 lo, hi
    _hand_words(h, &lo, &hi)
    if last.kind == K_BOMB:
        min_size = last.ncards
        min_rank = last.rank + 1
    else:
        same = _ge_mask(lo, hi, last.ncards) & _from(last.rank + 1)
    n = 1 + popcount(same) + rocket
    for size in range(min_size, r.max_count + 1):
        bombs[size] = _ge_mask(lo, hi, size) & BOMB_RANKS
        if size == min_size:
            bombs[size] &= _from(min_rank)
        n += popcount(bombs[size])
    p = _reserve(o, n)
    if p == NULL:
        return
    _put(p, 0, _kind_hi(K_PASS))
    p = _put_each(p + ROW, same, last.ncards, 0, _kind_hi(last.kind))
    for size in range(min_size, r.max_count + 1):
        p = _put_sparse(p, bombs[size], size, 0, _kind_hi(K_BOMB))
    _commit(o, _put_rocket(p, rocket, r))


cdef void gen_of_kind(const unsigned char* h, const RulesC* r, int kind, int length, int rmin,
                      bint lowest, Out* o) noexcept nogil:
    """The moves of one ordinary kind and length with rank >= rmin (kernels.pxd)."""
    cdef Hand k
    cdef int main
    cdef unsigned int m
    cdef u64 lo, hi
    if K_SOLO <= kind <= K_TRIO:
        # (the commonest: gen_same's moves from the one mask they need, no Hand)
        if length != 1:
            return
        _hand_words(h, &lo, &hi)
        m = _ge_mask(lo, hi, kind) & _from(rmin)       # (the kind code is the card count)
        if lowest:
            m &= ~m + 1
        _put_same(m, kind, kind, lowest or kind == K_TRIO, o)
        return
    hand_masks(h, r.max_count, &k)
    if lowest and length == 1:
        # the main part's mask keeps its lowest rank >= rmin (the kickers
        # come from the other masks, and do not depend on the main rank)
        main = 4 if kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR else 3
        m = k.m[main] & _from(rmin)
        k.m[main] = m & (~m + 1)
    gen_kind(&k, r, kind, length, length, rmin, o)


cdef void gen_airplanes_at(const unsigned char* h, const RulesC* r, int kind, int length, int top,
                           Out* o) noexcept nogil:
    """The airplanes with attachments of one window (kernels.pxd)."""
    cdef Hand k
    hand_masks(h, r.max_count, &k)
    # (gen_airplane_kick takes its windows from the trio mask alone)
    k.m[3] &= ((1u << length) - 1) << (top - length + 1)
    gen_kind(&k, r, kind, length, length, top, o)


cdef void gen_bombs_beating(const unsigned char* h, const RulesC* r, const MoveInfo* last,
                            Out* o) noexcept nogil:
    """The bombs and the rocket that beat last (NULL: all), in list order."""
    cdef Hand k
    if last != NULL and last.kind == K_ROCKET:
        return
    hand_masks(h, r.max_count, &k)
    if last != NULL and last.kind == K_BOMB:
        gen_bombs(&k, r, last.ncards, last.rank + 1, o)
    else:
        gen_bombs(&k, r, 4, 0, o)
    gen_rocket(&k, r, o)


cdef void gen_moves(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """Lead when last is NULL or PASS, else the response list."""
    if last == NULL or last.kind == K_PASS:
        gen_lead(h, r, o)
    else:
        gen_response(h, r, last, o)


# ---------------------------------------------------------------------------
# Counting without enumerating: popcounts and binomials, and for airplane
# singles the coefficient of x^L in a product of small polynomials (one
# factor per kicker rank: 1 + x + ... + x^cap).  Each count mirrors the
# generator of its kind above; the differential suite checks them equal.
# ---------------------------------------------------------------------------

cdef enum:
    MAX_L = 12                # longest window (ranks 3..A)

cdef u64 _BINOM[16][16]
cdef u64 _POW[MAX_T + 1][16][MAX_L + 1]   # _POW[c][g][j]: [x^j] (1 + x + ... + x^c)^g


cdef void _init_count_tables() noexcept:
    cdef int n, j, c, g, _i
    for n in range(16):
        for j in range(16):
            _BINOM[n][j] = 0
        _BINOM[n][0] = 1
        for j in range(1, n + 1):
            _BINOM[n][j] = _BINOM[n - 1][j - 1] + (_BINOM[n - 1][j] if j <= n - 1 else 0)
    for c in range(MAX_T + 1):
        for g in range(16):
            for j in range(MAX_L + 1):
                _POW[c][g][j] = 1 if j == 0 else 0
            for _i in range(g):       # multiply by (1 + ... + x^c), high degrees first
                for j in range(MAX_L, -1, -1):
                    _POW[c][g][j] = _sum_low(_POW[c][g], j, c)


cdef u64 _sum_low(u64* a, int j, int c) noexcept:
    # a[j] + a[j - 1] + ... + a[j - c] (indices >= 0)
    cdef u64 s = 0
    cdef int i
    for i in range(j - c if j - c > 0 else 0, j + 1):
        s += a[i]
    return s


_init_count_tables()


cdef void _init_window_tables() noexcept:
    cdef unsigned int m
    for m in range(CHAIN_RANKS + 1):
        _NWIN[0][m] = <unsigned char>_count_windows(m, 5, 0, BIG, 0)
        _NWIN[1][m] = <unsigned char>_count_windows(m, 3, 0, BIG, 0)
        _NWIN[2][m] = <unsigned char>_count_windows(m, 2, 0, BIG, 0)


cdef inline u64 _choose(int n, int k) noexcept nogil:
    if k < 0 or n < k or n < 0:
        return 0
    return _BINOM[n][k]


cdef inline void _mul(u64* a, const u64* b, int L) noexcept nogil:
    # a *= b, truncated at degree L
    cdef int i, j
    cdef u64 s
    for j in range(L, -1, -1):
        s = 0
        for i in range(j + 1):
            s += a[i] * b[j - i]
        a[j] = s


cdef inline void _mul_cap(u64* a, int cap, int L) noexcept nogil:
    # a *= 1 + x + ... + x^cap
    _mul(a, _POW[cap if cap < MAX_T else MAX_T][1], L)


cdef inline void _mul_factor(u64* a, int cap, bint no_three, int L) noexcept nogil:
    # a *= 1 + x + ... + x^cap, without the x^3 term when no_three
    cdef u64 f[MAX_L + 1]
    cdef int j
    for j in range(L + 1):
        f[j] = 1 if j <= cap and not (no_three and j == 3) else 0
    _mul(a, f, L)


cdef u64 _count_windows(unsigned int m, int minlen, int lmin, int lmax, int rmin) noexcept nogil:
    # How many windows gen_chain emits: popcounts of the window masks.
    cdef unsigned int w
    cdef u64 n = 0
    cdef int L
    m &= CHAIN_RANKS
    if lmin < minlen:
        lmin = minlen
    if lmax > MAX_L:
        lmax = MAX_L
    if lmin > lmax:
        return 0
    w = _windows(m, lmin)
    L = lmin
    while w and L <= lmax:
        n += popcount(w & _tops_from(rmin, L))
        w &= m >> L
        L += 1
    return n


_init_window_tables()


cdef inline u64 _count_distinct_kickers(unsigned int cand, const RulesC* r, int L) noexcept nogil:
    # L attachments of distinct ranks from the ranks in cand (airplane pairs,
    # or singles under airplane_solo_distinct), less the choices holding both
    # jokers when those may not go together.
    cdef int n = popcount(cand)
    if not r.both_jokers_as_kickers and (cand & LOW_BIT) and (cand & HIGH_BIT):
        return _choose(n, L) - _choose(n - 2, L - 2)
    return _choose(n, L)


cdef u64 _count_solo_kickers(const Hand* k, const RulesC* r, unsigned int win, int s, int e, int L) noexcept nogil:
    # Multisets of L single kickers for the airplane with trios s..e, as
    # kick_solo enumerates them.
    cdef unsigned int cand = k.m[1] & ~win, plain, group
    cdef u64 a[MAX_L + 1]
    cdef u64 jl[MAX_L + 1]
    cdef int t, j, cap, y, bomb_cap
    cdef int n = popcount(cand)
    cdef bint jokers_apart = not r.both_jokers_as_kickers and (cand & LOW_BIT) and (cand & HIGH_BIT)
    if r.airplane_solo_distinct:
        return _count_distinct_kickers(cand, r, L)
    if L == 2:
        # Two singles (the commonest airplane by far): two ranks, or two cards
        # of a rank that holds two (every cap below is >= 2 then), never the
        # low and the high joker apart; no rank can hold three.
        return _choose(n, 2) + popcount(cand & k.m[2]) - jokers_apart
    for j in range(L + 1):
        a[j] = 1 if j == 0 else 0
    # The ranks next to the window (caps and the forbidden three) and the
    # jokers (not both, unless allowed) are factors of their own.
    plain = cand & ~(LOW_BIT | HIGH_BIT)
    for t in range(2):
        y = s - 1 if t == 0 else e + 1
        if 0 <= y <= ACE and plain >> y & 1:
            plain &= ~(1u << y)
            cap = _kicker_cap(k.h[y], r, y, s, e)
            if cap > L:
                cap = L
            # no exactly-three at e+1: that would be a higher reading
            _mul_factor(a, cap, _kicker_three_forbidden(r, y, e) and cap >= 3, L)
    bomb_cap = MAX_T if r.airplane_bomb_kickers else 3
    for t in range(1, MAX_T + 1):
        group = plain & k.m[t] & ~k.m[t + 1]
        if group:
            cap = t if t < bomb_cap else bomb_cap
            _mul(a, _POW[cap][popcount(group)], L)
    if cand & (LOW_BIT | HIGH_BIT):
        for j in range(L + 1):
            jl[j] = 0
        if jokers_apart:
            # only lows, or only highs (the empty choice counted once)
            for j in range(L + 1):
                jl[j] = (1 if j <= k.h[LOW] else 0) + (1 if j <= k.h[HIGH] else 0) - (1 if j == 0 else 0)
            _mul(a, jl, L)
        else:
            if cand & LOW_BIT:
                _mul_cap(a, k.h[LOW], L)
            if cand & HIGH_BIT:
                _mul_cap(a, k.h[HIGH], L)
    return a[L]


cdef u64 _count_airplane_kick(const Hand* k, const RulesC* r, int kind,
                              int lmin, int lmax, int rmin) noexcept nogil:
    cdef unsigned int m3 = k.m[3] & CHAIN_RANKS, w, ws, win
    cdef int per = 4 if kind == K_AIRPLANE_SOLO else 5
    cdef int L, s
    cdef u64 total = 0
    if lmin < 2:
        lmin = 2
    if lmax > k.total // per:
        lmax = k.total // per
    if lmax > MAX_L:
        lmax = MAX_L
    if lmin > lmax:
        return 0
    w = _windows(m3, lmin)
    L = lmin
    while w and L <= lmax:
        ws = w & _tops_from(rmin, L)
        while ws:
            s = ctz(ws)
            ws &= ws - 1
            win = ((1u << L) - 1) << s
            if kind == K_AIRPLANE_SOLO:
                total += _count_solo_kickers(k, r, win, s, s + L - 1, L)
            else:
                total += _count_distinct_kickers(k.m[2] & ~win, r, L)
        w &= m3 >> L
        L += 1
    return total


cdef inline int _four_two_per(const RulesC* r, int kind, unsigned int m1, unsigned int m2) noexcept nogil:
    # The kickers one four of gen_four_two takes (every four takes the same
    # number): two singles / pairs of the other ranks (not both jokers unless
    # allowed), plus two equal singles when allowed; m1, m2: the ranks
    # holding a card, two cards.  Branch-free; only meaningful when the hand
    # holds a four (its rank is in both masks, so n >= 0).
    cdef unsigned int ks = m1 if kind == K_FOUR_TWO_SOLO else m2
    cdef int n = popcount(ks) - 1
    cdef int per = n * (n - 1) // 2
    if not r.both_jokers_as_kickers:
        per -= (ks >> LOW) & (ks >> HIGH) & 1
    if kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct:
        per += popcount(m2) - 1
    return per


cdef u64 _count_lead_airplanes(const Hand* k, const RulesC* r) noexcept nogil:
    # _count_airplane_kick of both kinds for a lead, in one pass over the windows.
    cdef unsigned int m3 = k.m[3] & CHAIN_RANKS, w, ws, win
    cdef int L, s, lmax = k.total // 4 if r.solo_kickers else k.total // 5
    cdef u64 total = 0
    if lmax > MAX_L:
        lmax = MAX_L
    w = _windows(m3, 2)
    L = 2
    while w and L <= lmax:
        ws = w
        while ws:
            s = ctz(ws)
            ws &= ws - 1
            win = ((1u << L) - 1) << s
            if r.solo_kickers:
                total += _count_solo_kickers(k, r, win, s, s + L - 1, L)
            if 5 * L <= k.total:
                total += _count_distinct_kickers(k.m[2] & ~win, r, L)
        w &= m3 >> L
        L += 1
    return total


cdef u64 _count_four_two(const Hand* k, const RulesC* r, int kind, int rmin) noexcept nogil:
    cdef int fours = popcount(k.m[4] & BOMB_RANKS & _from(rmin))
    return <u64>(fours * _four_two_per(r, kind, k.m[1], k.m[2])) if fours else 0


cdef u64 _count_bombs(const Hand* k, const RulesC* r, int min_size, int min_rank) noexcept nogil:
    cdef u64 n = 0
    cdef int size
    for size in range(min_size, r.max_count + 1):
        n += popcount(k.m[size] & BOMB_RANKS & (_from(min_rank) if size == min_size else 0xFFFFFFFFu))
    return n


cdef u64 _count_kind(const Hand* k, const RulesC* r, int kind, int lmin, int lmax, int rmin) noexcept nogil:
    # How many moves gen_kind emits.
    cdef bint single = lmin <= 1 <= lmax
    cdef unsigned int trios = k.m[3] & _from(rmin)
    if kind == K_SOLO:
        return popcount(k.m[1] & _from(rmin)) if single else 0
    if kind == K_PAIR:
        return popcount(k.m[2] & _from(rmin)) if single else 0
    if kind == K_TRIO:
        return popcount(trios) if single else 0
    if kind == K_CHAIN:
        return _count_windows(k.m[1], 5, lmin, lmax, rmin)
    if kind == K_PAIR_CHAIN:
        return _count_windows(k.m[2], 3, lmin, lmax, rmin)
    if k.m[3] == 0:
        return 0
    if kind == K_TRIO_SOLO:
        return popcount(trios) * (popcount(k.m[1]) - 1) if single and r.solo_kickers else 0
    if kind == K_TRIO_PAIR:
        return popcount(trios) * (popcount(k.m[2]) - 1) if single else 0
    if kind == K_AIRPLANE:
        return _count_windows(k.m[3], 2, lmin, lmax, rmin)
    if kind == K_AIRPLANE_SOLO:
        return _count_airplane_kick(k, r, K_AIRPLANE_SOLO, lmin, lmax, rmin) if r.solo_kickers else 0
    if kind == K_AIRPLANE_PAIR:
        return _count_airplane_kick(k, r, K_AIRPLANE_PAIR, lmin, lmax, rmin)
    if kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR:
        return _count_four_two(k, r, kind, rmin) if single and r.four_with_kickers else 0
    return 0


cdef inline u64 _count_lead_ranks(const RulesC* r, unsigned int m1, unsigned int m2,
                                  unsigned int m3, unsigned int m4) noexcept nogil:
    # gen_lead's kinds in order but the airplanes with attachments and the
    # bombs above four cards, from the masks alone and without branches on
    # the hand: a fresh hand's data-dependent branches mispredict, and they
    # cost more than the arithmetic they skip.
    cdef int n1 = popcount(m1), n2 = popcount(m2), n3 = popcount(m3)
    cdef int fours = popcount(m4 & BOMB_RANKS)
    cdef u64 n = n1 + n2 + n3 + _NWIN[0][m1 & CHAIN_RANKS] + _NWIN[1][m2 & CHAIN_RANKS]
    # a trio's rank holds a pair and a single too, so n1, n2 >= 1 when n3 > 0
    n += n3 * (n2 - 1) + (n3 * (n1 - 1) if r.solo_kickers else 0) + _NWIN[2][m3 & CHAIN_RANKS]
    if r.four_with_kickers:
        n += <u64>(fours * (_four_two_per(r, K_FOUR_TWO_SOLO, m1, m2) + _four_two_per(r, K_FOUR_TWO_PAIR, m1, m2)))
    return n + fours                          # + the bombs of four cards


cdef u64 _count_lead(const Hand* k, const RulesC* r) noexcept nogil:
    cdef u64 n = _count_lead_ranks(r, k.m[1], k.m[2], k.m[3], k.m[4])
    cdef int size
    if _NWIN[2][k.m[3] & CHAIN_RANKS]:
        n += _count_lead_airplanes(k, r)
    for size in range(5, r.max_count + 1):
        n += popcount(k.m[size] & BOMB_RANKS)
    return n


cdef Py_ssize_t count_moves_c(const unsigned char* h, const RulesC* r, const MoveInfo* last) noexcept nogil:
    """How many rows gen_moves(h, r, last) writes, without writing them."""
    cdef Hand k
    cdef u64 n, lo, hi
    cdef unsigned int m3
    cdef int rocket = _has_rocket(h, r)
    if last == NULL or last.kind == K_PASS:
        _hand_words(h, &lo, &hi)
        m3 = _ge_mask(lo, hi, 3)
        if not _NWIN[2][m3 & CHAIN_RANKS] and r.max_count == 4:
            # the common lead: no airplane, one deck; the masks stay in registers
            return <Py_ssize_t>(_count_lead_ranks(r, _ge_mask(lo, hi, 1), _ge_mask(lo, hi, 2), m3,
                                                  _ge_mask(lo, hi, 4)) + rocket)
        hand_masks(h, r.max_count, &k)
        return <Py_ssize_t>(_count_lead(&k, r) + rocket)
    if last.kind == K_ROCKET:
        return 1
    hand_masks(h, r.max_count, &k)
    n = 1
    if last.kind == K_BOMB:
        n += _count_bombs(&k, r, last.ncards, last.rank + 1)
    else:
        n += _count_kind(&k, r, last.kind, last.length, last.length, last.rank + 1)
        n += _count_bombs(&k, r, 4, 0)
    return <Py_ssize_t>(n + rocket)


# ---------------------------------------------------------------------------
# Reading rows: rank and length of a generated row, classification, beating.
# ---------------------------------------------------------------------------

cdef int _top_trio_window(const unsigned char* c, int L) noexcept nogil:
    """Top rank of the highest window of L consecutive ranks within 0..ACE
    that all hold exactly three cards, or -1."""
    cdef int e = ACE, x, ok
    while e >= L - 1:
        ok = 1
        for x in range(e - L + 1, e + 1):
            if c[x] != 3:
                ok = 0
                break
        if ok:
            return e
        e -= 1
    return -1


cdef inline bint _jokers_ok(const unsigned char* rest, const RulesC* r) noexcept nogil:
    return r.both_jokers_as_kickers or rest[LOW] == 0 or rest[HIGH] == 0


cdef inline bint _singles_ok(const unsigned char* rest, const RulesC* r, bint distinct) noexcept nogil:
    # Single attachments `rest`: not both jokers (unless allowed), and of
    # pairwise distinct ranks when `distinct`.
    cdef int x
    if not _jokers_ok(rest, r):
        return False
    if distinct:
        for x in range(N_RANKS):
            if rest[x] > 1:
                return False
    return True


cdef inline bint _airplane_limits_ok(const unsigned char* rest, int s, int e, const RulesC* r) noexcept nogil:
    # The rlcard-style limits on airplane singles `rest` for trios s..e:
    # no four of a rank, and fewer than three of a rank next to the window.
    # Checking the highest reading suffices: a card set with two readings
    # holds three kickers next to each window, so it has no valid reading.
    cdef int x
    if not r.airplane_bomb_kickers:
        for x in range(N_RANKS):
            if rest[x] >= 4:
                return False
    if not r.airplane_adjacent_trio_kickers:
        if s >= 1 and rest[s - 1] >= 3:
            return False
        if e + 1 <= ACE and rest[e + 1] >= 3:
            return False
    return True


cdef int classify_c(const unsigned char* c, const RulesC* r, MoveInfo* infos) noexcept nogil:
    """Every reading of cards c: at most one MoveInfo per kind (its highest
    reading), written to infos in kind order; returns how many."""
    cdef int n = 0, total = 0, nused = 0, lo = -1, hi = -1, x, e, L
    cdef int cnt3 = 0, cnt4 = 0, r3 = -1, r4 = -1, pairs, ok
    cdef unsigned char rest[15]
    for x in range(N_RANKS):
        total += c[x]
        if c[x]:
            nused += 1
            if lo < 0:
                lo = x
            hi = x
            if c[x] == 3:
                cnt3 += 1
                r3 = x
            elif c[x] == 4:
                cnt4 += 1
                r4 = x
    if total == 0:
        return 0

    # Counts of the jokers are <= decks, so a single rank >= 13 is a joker pair.
    if nused == 1:
        if c[lo] == 1:
            infos[n] = MoveInfo(K_SOLO, lo, 1, total); n += 1
        elif c[lo] == 2:
            infos[n] = MoveInfo(K_PAIR, lo, 1, total); n += 1
        elif c[lo] == 3:
            infos[n] = MoveInfo(K_TRIO, lo, 1, total); n += 1

    # Trio with one attachment: exactly {3, 1} or {3, 2}.
    if nused == 2 and cnt3 == 1:
        if total == 4 and r.solo_kickers:
            infos[n] = MoveInfo(K_TRIO_SOLO, r3, 1, total); n += 1
        elif total == 5:
            infos[n] = MoveInfo(K_TRIO_PAIR, r3, 1, total); n += 1

    # Plain chains: every used rank holds `each`, consecutive, within 0..ACE.
    if hi <= ACE and hi - lo + 1 == nused:
        ok = 1
        for x in range(lo, hi + 1):
            if c[x] != c[lo]:
                ok = 0
                break
        if ok:
            if c[lo] == 1 and nused >= 5:
                infos[n] = MoveInfo(K_CHAIN, hi, nused, total); n += 1
            elif c[lo] == 2 and nused >= 3:
                infos[n] = MoveInfo(K_PAIR_CHAIN, hi, nused, total); n += 1
            elif c[lo] == 3 and nused >= 2:
                infos[n] = MoveInfo(K_AIRPLANE, hi, nused, total); n += 1

    # Airplane with singles: the highest window of L ranks holding exactly 3
    # is the highest reading.  The kicker rules do not depend on the window:
    # jokers are never primal, and with distinct singles exactly L ranks hold
    # 3 (any other window leaves a rank of 3 among the kickers).
    if r.solo_kickers and total % 4 == 0 and total >= 8:
        L = total // 4
        e = _top_trio_window(c, L)
        if e >= 0:
            memcpy(rest, c, N_RANKS)
            memset(rest + e - L + 1, 0, L)
            if _singles_ok(rest, r, r.airplane_solo_distinct) and _airplane_limits_ok(rest, e - L + 1, e, r):
                infos[n] = MoveInfo(K_AIRPLANE_SOLO, e, L, total); n += 1

    # Airplane with pairs: the ranks holding 3 form the window, the rest are
    # pairs of distinct ranks.
    if total % 5 == 0 and total >= 10:
        L = total // 5
        pairs = 0
        ok = 1
        for x in range(N_RANKS):
            if c[x] == 2:
                pairs += 1
            elif c[x] != 0 and c[x] != 3:
                ok = 0
        if ok and cnt3 == L and pairs == L:
            # the L ranks holding 3 must be one window within 0..ACE
            e = _top_trio_window(c, L)
            if e >= 0 and (r.both_jokers_as_kickers or c[LOW] == 0 or c[HIGH] == 0):
                infos[n] = MoveInfo(K_AIRPLANE_PAIR, e, L, total); n += 1

    # Four with two attachments.
    if r.four_with_kickers and cnt4 == 1 and r4 <= TWO:
        if total == 6:
            memcpy(rest, c, N_RANKS)
            rest[r4] = 0
            if _singles_ok(rest, r, r.four_two_solo_distinct):
                infos[n] = MoveInfo(K_FOUR_TWO_SOLO, r4, 1, total); n += 1
        elif total == 8:
            pairs = 0
            ok = 1
            for x in range(N_RANKS):
                if x == r4 or c[x] == 0:
                    continue
                if c[x] == 2:
                    pairs += 1
                else:
                    ok = 0
            if ok and pairs == 2 and (r.both_jokers_as_kickers or c[LOW] == 0 or c[HIGH] == 0):
                infos[n] = MoveInfo(K_FOUR_TWO_PAIR, r4, 1, total); n += 1

    if nused == 1 and c[lo] >= 4 and lo <= TWO:
        infos[n] = MoveInfo(K_BOMB, lo, 1, total); n += 1
    if nused == 2 and c[LOW] == r.max_joker and c[HIGH] == r.max_joker:
        infos[n] = MoveInfo(K_ROCKET, HIGH, 1, total); n += 1
    return n


cdef bint valid_move_c(const unsigned char* row, const RulesC* r, MoveInfo* mi) noexcept nogil:
    """Is row (counts + kind byte) a legal move under r?  Fills mi if so.
    PASS (all zero counts) is valid."""
    cdef MoveInfo infos[15]
    cdef int n, i, kind = row[KIND_BYTE], x
    for x in range(N_RANKS):
        if row[x] > (r.max_joker if x >= LOW else r.max_count):
            return False
    if kind == K_PASS:
        for x in range(N_RANKS):
            if row[x]:
                return False
        mi.kind = K_PASS
        mi.rank = -1
        mi.length = 0
        mi.ncards = 0
        return True
    n = classify_c(row, r, infos)
    for i in range(n):
        if infos[i].kind == kind:
            mi[0] = infos[i]
            return True
    return False


cdef bint beats_c(const MoveInfo* a, const MoveInfo* b) noexcept nogil:
    """Does a beat b?  Both legal under the same rules."""
    if a.kind == K_PASS:
        return False
    if b.kind == K_PASS:
        return True
    if b.kind == K_ROCKET:
        return False
    if a.kind == K_ROCKET:
        return True
    if a.kind == K_BOMB:
        if b.kind != K_BOMB:
            return True
        return a.ncards > b.ncards or (a.ncards == b.ncards and a.rank > b.rank)
    return a.kind == b.kind and a.length == b.length and a.rank > b.rank
