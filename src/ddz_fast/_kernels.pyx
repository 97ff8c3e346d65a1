# cython: language_level=3
"""C-level move kernels (see _kernels.pxd for the row layout).

Invariants the kernels rely on (checked by the callers in _fast.pyx before
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
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from ._move cimport (
    N_RANKS, K_PASS, K_SOLO, K_PAIR, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR, K_CHAIN,
    K_PAIR_CHAIN, K_AIRPLANE, K_AIRPLANE_SOLO, K_AIRPLANE_PAIR, K_FOUR_TWO_SOLO,
    K_FOUR_TWO_PAIR, K_BOMB, K_ROCKET,
)

cdef enum:
    ACE = 11          # chains and airplanes use ranks 0..ACE
    TWO = 12
    LOW = 13          # low joker
    HIGH = 14         # high joker
    BIG = 99


# ---------------------------------------------------------------------------
# Output buffer
# ---------------------------------------------------------------------------

cdef bint out_init(Out* o, Py_ssize_t cap, bint count_only) noexcept nogil:
    o.n = 0
    o.oom = False
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


cdef void out_free(Out* o) noexcept nogil:
    free(o.data)
    o.data = NULL
    o.cap = 0
    o.n = 0


cdef bint _grow(Out* o) noexcept nogil:
    cdef Py_ssize_t cap = o.cap * 2 if o.cap else 64
    cdef unsigned char* p = <unsigned char*>realloc(o.data, cap * ROW)
    if p == NULL:
        o.oom = True
        return False
    o.data = p
    o.cap = cap
    return True


cdef unsigned char _SCRATCH[16]     # where count-only rows go (never read)


cdef inline unsigned char* slot(Out* o) noexcept nogil:
    # Room for one more row: returns where to write it.  Rows are built in
    # place (copy a base row, then set a few bytes) rather than on the stack
    # and copied, which would load 16 bytes right after storing one byte of
    # them (a store-forwarding stall on every move).  In count-only mode (and
    # after a failed allocation, which sets oom) the row goes to a scratch
    # area that nobody reads.
    if o.count_only:
        o.n += 1
        return _SCRATCH
    if o.n == o.cap and not _grow(o):
        return _SCRATCH
    o.n += 1
    return o.data + (o.n - 1) * ROW


cdef inline void emit(Out* o, const unsigned char* row) noexcept nogil:
    memcpy(slot(o), row, ROW)


cdef inline void emit1(Out* o, const unsigned char* base, int k, int c) noexcept nogil:
    # base with c cards of rank k
    cdef unsigned char* d = slot(o)
    memcpy(d, base, ROW)
    d[k] = c


cdef inline void emit2(Out* o, const unsigned char* base, int k1, int c1, int k2, int c2) noexcept nogil:
    cdef unsigned char* d = slot(o)
    memcpy(d, base, ROW)
    d[k1] = c1
    d[k2] = c2


# ---------------------------------------------------------------------------
# Generators, one per kind.  Each takes the length range [lmin, lmax] and the
# lowest rank rmin to emit; a lead passes (0, BIG, 0).
#
# A HandInfo is computed once per call: for every threshold t the ranks
# holding at least t cards (ascending), and for t = 1..3 the length of the run
# of consecutive ranks (within 0..ACE) holding at least t cards ending at each
# rank, with its maximum.  Generators loop over these lists, not over all 15
# ranks, and skip whole kinds the hand cannot make.
# ---------------------------------------------------------------------------

cdef struct HandInfo:
    const unsigned char* h
    int total
    int nge[9]            # nge[t] = number of ranks holding >= t cards
    int ge[9][15]         # ge[t][:nge[t]] = those ranks, ascending
    int run[4][12]        # run[t][e] for t = 1..3
    int maxrun[4]


cdef void hand_info(const unsigned char* h, HandInfo* hi) noexcept nogil:
    cdef int x, t, c, total = 0
    cdef int prev1 = 0, prev2 = 0, prev3 = 0
    hi.h = h
    for t in range(9):
        hi.nge[t] = 0
    hi.maxrun[1] = hi.maxrun[2] = hi.maxrun[3] = 0
    for x in range(N_RANKS):
        c = h[x]
        total += c
        t = 1
        while t <= c:
            hi.ge[t][hi.nge[t]] = x
            hi.nge[t] += 1
            t += 1
        if x <= ACE:
            prev1 = prev1 + 1 if c >= 1 else 0
            prev2 = prev2 + 1 if c >= 2 else 0
            prev3 = prev3 + 1 if c >= 3 else 0
            hi.run[1][x] = prev1
            hi.run[2][x] = prev2
            hi.run[3][x] = prev3
            if prev1 > hi.maxrun[1]:
                hi.maxrun[1] = prev1
            if prev2 > hi.maxrun[2]:
                hi.maxrun[2] = prev2
            if prev3 > hi.maxrun[3]:
                hi.maxrun[3] = prev3
    hi.total = total


cdef inline void _clear(unsigned char* row, int kind) noexcept nogil:
    memset(row, 0, ROW)
    row[KIND_BYTE] = kind


cdef void gen_same(const HandInfo* hi, int kind, int each, int rmin, Out* o) noexcept nogil:
    # SOLO / PAIR / TRIO: `each` cards of one rank (jokers included: with two
    # decks two equal jokers are a pair).
    cdef unsigned char row[16]
    cdef int i, x
    _clear(row, kind)
    for i in range(hi.nge[each]):
        x = hi.ge[each][i]
        if x >= rmin:
            emit1(o, row, x, each)


cdef void gen_trio_kick(const HandInfo* hi, int kind, int rmin, Out* o) noexcept nogil:
    # TRIO_SOLO (kicker 1 card) / TRIO_PAIR (kicker 2 cards), kicker rank != trio rank.
    cdef unsigned char row[16]
    cdef int i, j, x, k
    cdef int each = 1 if kind == K_TRIO_SOLO else 2
    cdef int nk = hi.nge[each]
    cdef const int* ks = hi.ge[each]
    _clear(row, kind)
    for i in range(hi.nge[3]):
        x = hi.ge[3][i]
        if x < rmin:
            continue
        row[x] = 3
        for j in range(nk):
            k = ks[j]
            if k != x:
                emit1(o, row, k, each)
        row[x] = 0


cdef void gen_chain(const HandInfo* hi, int kind, int each, int minlen,
                    int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # CHAIN / PAIR_CHAIN / AIRPLANE: `each` cards at every rank of a window
    # within 0..ACE; a window of length L ending at e exists iff run[e] >= L.
    cdef unsigned char row[16]
    cdef const int* run = hi.run[each]
    cdef int e, L
    cdef unsigned char* d
    if lmin < minlen:
        lmin = minlen
    if lmax > hi.maxrun[each]:
        lmax = hi.maxrun[each]
    if lmin > lmax:
        return
    _clear(row, kind)
    for L in range(lmin, lmax + 1):
        for e in range(max(L - 1, rmin), ACE + 1):
            if run[e] >= L:
                d = slot(o)
                memcpy(d, row, ROW)
                memset(d + e - L + 1, each, L)


cdef struct KickCtx:
    unsigned char row[16]   # the window's trios and the kind; kickers are not written here
    unsigned char cnt[15]   # kicker cards chosen so far, per rank
    int kr[16]              # the chosen kicker ranks (with cards), in order
    int kc[16]              # ... and their counts
    int depth
    int cand[15]        # candidate kicker ranks, ascending
    int cap[15]         # most cards each candidate may give
    int suffix[16]      # suffix[i] = sum of cap[i:]
    int ncand
    int forbid3         # rank whose kicker count may not be exactly 3, or -1
    bint both_jokers
    Out* o


cdef inline void _kick_leaf(KickCtx* x) noexcept nogil:
    cdef unsigned char* d = slot(x.o)
    cdef int j
    memcpy(d, x.row, ROW)
    for j in range(x.depth):
        d[x.kr[j]] = x.kc[j]


cdef void kick_solo(KickCtx* x, int i, int need) noexcept nogil:
    # Multisets of `need` single kickers from cand[i:], in ascending
    # lexicographic order of the sorted kicker list: more copies of a smaller
    # rank come first, hence the count loop runs downwards.
    cdef int k, c, cap
    if need == 0:
        _kick_leaf(x)
        return
    if x.suffix[i] < need:      # also stops at i == ncand (suffix 0)
        return
    k = x.cand[i]
    cap = x.cap[i]
    if cap > need:
        cap = need
    if k == HIGH and not x.both_jokers and x.cnt[LOW] > 0:
        cap = 0
    c = cap
    while c > 0:
        if not (c == 3 and k == x.forbid3):
            x.cnt[k] = c
            x.kr[x.depth] = k
            x.kc[x.depth] = c
            x.depth += 1
            kick_solo(x, i + 1, need - c)
            x.depth -= 1
        c -= 1
    x.cnt[k] = 0
    kick_solo(x, i + 1, need)


cdef void kick_pairs(KickCtx* x, int i, int need) noexcept nogil:
    # `need` pairs of distinct ranks from cand[i:], in ascending lexicographic order.
    cdef int j, k
    if need == 0:
        _kick_leaf(x)
        return
    for j in range(i, x.ncand - need + 1):
        k = x.cand[j]
        if k == HIGH and not x.both_jokers and x.cnt[LOW] > 0:
            continue
        x.cnt[k] = 2
        x.kr[x.depth] = k
        x.kc[x.depth] = 2
        x.depth += 1
        kick_pairs(x, j + 1, need - 1)
        x.depth -= 1
        x.cnt[k] = 0


cdef void gen_airplane_kick(const HandInfo* hi, const RulesC* r, int kind,
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
    cdef KickCtx x
    cdef const unsigned char* h = hi.h
    cdef const int* run = hi.run[3]
    cdef int e, L, k, s, j, i
    cdef int per = 4 if kind == K_AIRPLANE_SOLO else 5
    cdef int src = 1 if kind == K_AIRPLANE_SOLO else 2
    if lmin < 2:
        lmin = 2
    if lmax > hi.maxrun[3]:
        lmax = hi.maxrun[3]
    if lmax > hi.total // per:
        lmax = hi.total // per
    if lmin > lmax:
        return
    x.o = o
    x.both_jokers = r.both_jokers
    x.depth = 0
    memset(x.cnt, 0, N_RANKS)
    _clear(x.row, kind)
    for L in range(lmin, lmax + 1):
        for e in range(max(L - 1, rmin), ACE + 1):
            if run[e] < L:
                continue
            s = e - L + 1
            x.ncand = 0
            for j in range(hi.nge[src]):
                k = hi.ge[src][j]
                if s <= k <= e:
                    continue
                x.cand[x.ncand] = k
                if kind == K_AIRPLANE_SOLO and not r.airplane_solo_distinct:
                    x.cap[x.ncand] = h[k]
                    # rlcard-style limits: no bomb among the singles, and at
                    # most two cards of a rank next to the window (three
                    # would make a second reading; a 2 is never next to it).
                    if not r.airplane_bomb_kickers and x.cap[x.ncand] > 3:
                        x.cap[x.ncand] = 3
                    if (not r.airplane_adjacent_trio and x.cap[x.ncand] > 2
                            and (k == s - 1 or (k == e + 1 and k <= ACE))):
                        x.cap[x.ncand] = 2
                else:
                    x.cap[x.ncand] = 1
                x.ncand += 1
            x.suffix[x.ncand] = 0
            i = x.ncand - 1
            while i >= 0:
                x.suffix[i] = x.suffix[i + 1] + x.cap[i]
                i -= 1
            if x.suffix[0] < L:
                continue
            x.forbid3 = e + 1 if (e + 1 <= ACE and not r.airplane_solo_distinct) else -1
            memset(x.row + s, 3, L)
            if kind == K_AIRPLANE_SOLO:
                kick_solo(&x, 0, L)
            else:
                kick_pairs(&x, 0, L)
            memset(x.row + s, 0, L)


cdef void gen_four_two(const HandInfo* hi, const RulesC* r, int kind, int rmin, Out* o) noexcept nogil:
    # FOUR_TWO_SOLO: four of a rank + two singles (distinct ranks when
    # four_two_solo_distinct); FOUR_TWO_PAIR: + two pairs of distinct ranks.
    # Never a low and a high joker together unless both_jokers.
    cdef unsigned char row[16]
    cdef int i, a, b, x, k1, k2
    cdef int each = 1 if kind == K_FOUR_TWO_SOLO else 2
    cdef bint dup = kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct
    cdef int nk = hi.nge[each]
    cdef const int* ks = hi.ge[each]
    _clear(row, kind)
    for i in range(hi.nge[4]):
        x = hi.ge[4][i]
        if x < rmin or x > TWO:
            continue
        row[x] = 4
        for a in range(nk):
            k1 = ks[a]
            if k1 == x:
                continue
            if dup and hi.h[k1] >= 2:
                emit1(o, row, k1, 2)
            for b in range(a + 1, nk):
                k2 = ks[b]
                if k2 == x or (k2 == HIGH and k1 == LOW and not r.both_jokers):
                    continue
                emit2(o, row, k1, each, k2, each)
        row[x] = 0


cdef void gen_bombs(const HandInfo* hi, const RulesC* r, int min_size, int min_rank, Out* o) noexcept nogil:
    # Bombs ordered by size, then rank; those of size min_size start at min_rank.
    cdef unsigned char row[16]
    cdef int size, i, x
    _clear(row, K_BOMB)
    for size in range(min_size, r.max_count + 1):
        for i in range(hi.nge[size]):
            x = hi.ge[size][i]
            if x > TWO or (size == min_size and x < min_rank):
                continue
            emit1(o, row, x, size)


cdef void gen_rocket(const HandInfo* hi, const RulesC* r, Out* o) noexcept nogil:
    cdef unsigned char row[16]
    if hi.h[LOW] >= r.max_joker and hi.h[HIGH] >= r.max_joker:
        _clear(row, K_ROCKET)
        emit2(o, row, LOW, r.max_joker, HIGH, r.max_joker)


cdef void gen_kind(const HandInfo* hi, const RulesC* r, int kind,
                   int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # Every move of one ordinary kind with length in [lmin, lmax] and rank >= rmin.
    cdef bint single = lmin <= 1 <= lmax
    if kind == K_SOLO:
        if single: gen_same(hi, K_SOLO, 1, rmin, o)
    elif kind == K_PAIR:
        if single: gen_same(hi, K_PAIR, 2, rmin, o)
    elif kind == K_TRIO:
        if single: gen_same(hi, K_TRIO, 3, rmin, o)
    elif kind == K_CHAIN:
        gen_chain(hi, K_CHAIN, 1, 5, lmin, lmax, rmin, o)
    elif kind == K_PAIR_CHAIN:
        gen_chain(hi, K_PAIR_CHAIN, 2, 3, lmin, lmax, rmin, o)
    elif hi.nge[3] == 0:
        return              # every other ordinary kind holds a trio or a four
    elif kind == K_TRIO_SOLO:
        if single and r.solo_kickers: gen_trio_kick(hi, K_TRIO_SOLO, rmin, o)
    elif kind == K_TRIO_PAIR:
        if single: gen_trio_kick(hi, K_TRIO_PAIR, rmin, o)
    elif kind == K_AIRPLANE:
        gen_chain(hi, K_AIRPLANE, 3, 2, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE_SOLO:
        if r.solo_kickers: gen_airplane_kick(hi, r, K_AIRPLANE_SOLO, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE_PAIR:
        gen_airplane_kick(hi, r, K_AIRPLANE_PAIR, lmin, lmax, rmin, o)
    elif kind == K_FOUR_TWO_SOLO:
        if single and r.four_with_kickers: gen_four_two(hi, r, K_FOUR_TWO_SOLO, rmin, o)
    elif kind == K_FOUR_TWO_PAIR:
        if single and r.four_with_kickers: gen_four_two(hi, r, K_FOUR_TWO_PAIR, rmin, o)


cdef void gen_lead(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil:
    """Every lead move of hand h, in the documented order (no PASS)."""
    cdef HandInfo hi
    hand_info(h, &hi)
    gen_same(&hi, K_SOLO, 1, 0, o)
    gen_same(&hi, K_PAIR, 2, 0, o)
    if hi.nge[3]:
        gen_same(&hi, K_TRIO, 3, 0, o)
        if r.solo_kickers:
            gen_trio_kick(&hi, K_TRIO_SOLO, 0, o)
        gen_trio_kick(&hi, K_TRIO_PAIR, 0, o)
    gen_chain(&hi, K_CHAIN, 1, 5, 0, BIG, 0, o)
    gen_chain(&hi, K_PAIR_CHAIN, 2, 3, 0, BIG, 0, o)
    if hi.maxrun[3] >= 2:
        gen_chain(&hi, K_AIRPLANE, 3, 2, 0, BIG, 0, o)
        if r.solo_kickers:
            gen_airplane_kick(&hi, r, K_AIRPLANE_SOLO, 0, BIG, 0, o)
        gen_airplane_kick(&hi, r, K_AIRPLANE_PAIR, 0, BIG, 0, o)
    if hi.nge[4]:
        if r.four_with_kickers:
            gen_four_two(&hi, r, K_FOUR_TWO_SOLO, 0, o)
            gen_four_two(&hi, r, K_FOUR_TWO_PAIR, 0, o)
        gen_bombs(&hi, r, 4, 0, o)
    gen_rocket(&hi, r, o)


cdef void gen_response(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """PASS, then every move of h that beats `last` (a non-PASS legal move)."""
    cdef unsigned char row[16]
    cdef HandInfo hi
    _clear(row, K_PASS)
    emit(o, row)
    if last.kind == K_ROCKET:
        return
    hand_info(h, &hi)
    if last.kind == K_BOMB:
        gen_bombs(&hi, r, last.ncards, last.rank + 1, o)
    else:
        gen_kind(&hi, r, last.kind, last.length, last.length, last.rank + 1, o)
        gen_bombs(&hi, r, 4, 0, o)
    gen_rocket(&hi, r, o)


cdef void gen_moves(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """Lead when last is NULL or PASS, else the response list."""
    if last == NULL or last.kind == K_PASS:
        gen_lead(h, r, o)
    else:
        gen_response(h, r, last, o)


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


cdef void row_info(const unsigned char* row, MoveInfo* mi) noexcept nogil:
    """Rank, length and size of a row that holds a legal move of its kind."""
    cdef int kind = row[KIND_BYTE]
    cdef int n = 0, x, top = -1
    for x in range(N_RANKS):
        n += row[x]
        if row[x]:
            top = x
    mi.kind = kind
    mi.ncards = n
    mi.length = 1
    mi.rank = top
    if kind == K_PASS:
        mi.length = 0
        mi.rank = -1
    elif kind == K_CHAIN:
        mi.length = n
    elif kind == K_PAIR_CHAIN:
        mi.length = n // 2
    elif kind == K_AIRPLANE:
        mi.length = n // 3
    elif kind == K_TRIO_SOLO or kind == K_TRIO_PAIR:
        for x in range(N_RANKS):
            if row[x] == 3:
                mi.rank = x
    elif kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR:
        for x in range(N_RANKS):
            if row[x] == 4:
                mi.rank = x
    elif kind == K_AIRPLANE_PAIR:
        mi.length = n // 5
        for x in range(ACE + 1):
            if row[x] == 3:
                mi.rank = x
    elif kind == K_AIRPLANE_SOLO:
        mi.length = n // 4
        mi.rank = _top_trio_window(row, n // 4)


cdef inline bint _jokers_ok(const unsigned char* rest, const RulesC* r) noexcept nogil:
    return r.both_jokers or rest[LOW] == 0 or rest[HIGH] == 0


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
    if not r.airplane_adjacent_trio:
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
            if e >= 0 and (r.both_jokers or c[LOW] == 0 or c[HIGH] == 0):
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
            if ok and pairs == 2 and (r.both_jokers or c[LOW] == 0 or c[HIGH] == 0):
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
