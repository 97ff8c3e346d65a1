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


cdef inline void emit(Out* o, const unsigned char* row) noexcept nogil:
    # row is a full 16-byte row (kind byte included).
    if o.count_only:
        o.n += 1
        return
    if o.n == o.cap:
        if not _grow(o):
            return
    memcpy(o.data + o.n * ROW, row, ROW)
    o.n += 1


# ---------------------------------------------------------------------------
# Generators, one per kind.  Each takes the length range [lmin, lmax] and the
# lowest rank rmin to emit; a lead passes (0, BIG, 0).
# ---------------------------------------------------------------------------

cdef inline void _clear(unsigned char* row, int kind) noexcept nogil:
    memset(row, 0, ROW)
    row[KIND_BYTE] = kind


cdef void gen_same(const unsigned char* h, int kind, int each, int rmin, Out* o) noexcept nogil:
    # SOLO / PAIR / TRIO: `each` cards of one rank (jokers included: with two
    # decks two equal jokers are a pair).
    cdef unsigned char row[16]
    cdef int x
    _clear(row, kind)
    for x in range(rmin, N_RANKS):
        if h[x] >= each:
            row[x] = each
            emit(o, row)
            row[x] = 0


cdef void gen_trio_kick(const unsigned char* h, const RulesC* r, int kind, int rmin, Out* o) noexcept nogil:
    # TRIO_SOLO (kicker 1 card) / TRIO_PAIR (kicker 2 cards), kicker rank != trio rank.
    cdef unsigned char row[16]
    cdef int x, k
    cdef int each = 1 if kind == K_TRIO_SOLO else 2
    _clear(row, kind)
    for x in range(rmin, TWO + 1):
        if h[x] < 3:
            continue
        row[x] = 3
        for k in range(N_RANKS):
            if k != x and h[k] >= each:
                row[k] = each
                emit(o, row)
                row[k] = 0
        row[x] = 0


cdef void gen_chain(const unsigned char* h, int kind, int each, int minlen,
                    int lmin, int lmax, int rmin, Out* o) noexcept nogil:
    # CHAIN / PAIR_CHAIN / AIRPLANE: `each` cards at every rank of a window
    # within 0..ACE.  run[e] = length of the run of ranks with >= each cards
    # ending at e.
    cdef unsigned char row[16]
    cdef int run[12]
    cdef int e, L, x, prev = 0
    for e in range(ACE + 1):
        prev = prev + 1 if h[e] >= each else 0
        run[e] = prev
    if lmin < minlen:
        lmin = minlen
    if lmax > ACE + 1:
        lmax = ACE + 1
    _clear(row, kind)
    for L in range(lmin, lmax + 1):
        for e in range(max(L - 1, rmin), ACE + 1):
            if run[e] >= L:
                for x in range(e - L + 1, e + 1):
                    row[x] = each
                emit(o, row)
                for x in range(e - L + 1, e + 1):
                    row[x] = 0


cdef struct KickCtx:
    unsigned char row[16]
    int cand[15]        # candidate kicker ranks, ascending
    int cap[15]         # most cards each candidate may give
    int suffix[16]      # suffix[i] = sum of cap[i:]
    int ncand
    int forbid3         # rank whose kicker count may not be exactly 3, or -1
    bint both_jokers
    Out* o


cdef void kick_solo(KickCtx* x, int i, int need) noexcept nogil:
    # Multisets of `need` single kickers from cand[i:], in ascending
    # lexicographic order of the sorted kicker list: more copies of a smaller
    # rank come first, hence the count loop runs downwards.
    cdef int k, c, cap
    if need == 0:
        emit(x.o, x.row)
        return
    if i == x.ncand or x.suffix[i] < need:
        return
    k = x.cand[i]
    cap = x.cap[i]
    if cap > need:
        cap = need
    if k == HIGH and not x.both_jokers and x.row[LOW] > 0:
        cap = 0
    c = cap
    while c >= 0:
        if not (c == 3 and k == x.forbid3):
            x.row[k] = c
            kick_solo(x, i + 1, need - c)
        c -= 1
    x.row[k] = 0


cdef void kick_pairs(KickCtx* x, int i, int need) noexcept nogil:
    # `need` pairs of distinct ranks from cand[i:], in ascending lexicographic order.
    cdef int j, k
    if need == 0:
        emit(x.o, x.row)
        return
    for j in range(i, x.ncand - need + 1):
        k = x.cand[j]
        if k == HIGH and not x.both_jokers and x.row[LOW] > 0:
            continue
        x.row[k] = 2
        kick_pairs(x, j + 1, need - 1)
        x.row[k] = 0


cdef void gen_airplane_kick(const unsigned char* h, const RulesC* r, int kind,
                            int lmin, int lmax, int rmin, int total, Out* o) noexcept nogil:
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
    cdef int run[12]
    cdef int e, L, k, s, prev = 0
    cdef int per = 4 if kind == K_AIRPLANE_SOLO else 5
    cdef int i
    for e in range(ACE + 1):
        prev = prev + 1 if h[e] >= 3 else 0
        run[e] = prev
    if lmin < 2:
        lmin = 2
    if lmax > ACE + 1:
        lmax = ACE + 1
    if lmax > total // per:
        lmax = total // per
    x.o = o
    x.both_jokers = r.both_jokers
    _clear(x.row, kind)
    for L in range(lmin, lmax + 1):
        for e in range(max(L - 1, rmin), ACE + 1):
            if run[e] < L:
                continue
            s = e - L + 1
            x.ncand = 0
            for k in range(N_RANKS):
                if s <= k <= e:
                    continue
                if kind == K_AIRPLANE_SOLO:
                    if h[k] == 0:
                        continue
                    x.cap[x.ncand] = 1 if r.airplane_solo_distinct else h[k]
                else:
                    if h[k] < 2:
                        continue
                    x.cap[x.ncand] = 1
                x.cand[x.ncand] = k
                x.ncand += 1
            if x.ncand == 0:
                continue
            x.suffix[x.ncand] = 0
            i = x.ncand - 1
            while i >= 0:
                x.suffix[i] = x.suffix[i + 1] + x.cap[i]
                i -= 1
            if x.suffix[0] < L:
                continue
            x.forbid3 = e + 1 if (e + 1 <= ACE and not r.airplane_solo_distinct) else -1
            for k in range(s, e + 1):
                x.row[k] = 3
            if kind == K_AIRPLANE_SOLO:
                kick_solo(&x, 0, L)
            else:
                kick_pairs(&x, 0, L)
            for k in range(s, e + 1):
                x.row[k] = 0


cdef void gen_four_two(const unsigned char* h, const RulesC* r, int kind, int rmin, Out* o) noexcept nogil:
    # FOUR_TWO_SOLO: four of a rank + two singles (distinct ranks when
    # four_two_solo_distinct); FOUR_TWO_PAIR: + two pairs of distinct ranks.
    # Never a low and a high joker together unless both_jokers.
    cdef unsigned char row[16]
    cdef int x, k1, k2
    cdef int each = 1 if kind == K_FOUR_TWO_SOLO else 2
    cdef bint dup = kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct
    _clear(row, kind)
    for x in range(rmin, TWO + 1):
        if h[x] < 4:
            continue
        row[x] = 4
        for k1 in range(N_RANKS):
            if k1 == x or h[k1] < each:
                continue
            if dup and h[k1] >= 2:
                row[k1] = 2
                emit(o, row)
            row[k1] = each
            for k2 in range(k1 + 1, N_RANKS):
                if k2 == x or h[k2] < each:
                    continue
                if k1 == LOW and k2 == HIGH and not r.both_jokers:
                    continue
                row[k2] = each
                emit(o, row)
                row[k2] = 0
            row[k1] = 0
        row[x] = 0


cdef void gen_bombs(const unsigned char* h, const RulesC* r, int min_size, int min_rank, Out* o) noexcept nogil:
    # Bombs ordered by size, then rank; those of size min_size start at min_rank.
    cdef unsigned char row[16]
    cdef int size, x
    _clear(row, K_BOMB)
    for size in range(min_size, r.max_count + 1):
        for x in range(min_rank if size == min_size else 0, TWO + 1):
            if h[x] >= size:
                row[x] = size
                emit(o, row)
                row[x] = 0


cdef void gen_rocket(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil:
    cdef unsigned char row[16]
    if h[LOW] >= r.max_joker and h[HIGH] >= r.max_joker:
        _clear(row, K_ROCKET)
        row[LOW] = r.max_joker
        row[HIGH] = r.max_joker
        emit(o, row)


cdef void gen_kind(const unsigned char* h, const RulesC* r, int kind,
                   int lmin, int lmax, int rmin, int total, Out* o) noexcept nogil:
    # Every move of one ordinary kind with length in [lmin, lmax] and rank >= rmin.
    cdef bint single = lmin <= 1 <= lmax
    if kind == K_SOLO:
        if single: gen_same(h, K_SOLO, 1, rmin, o)
    elif kind == K_PAIR:
        if single: gen_same(h, K_PAIR, 2, rmin, o)
    elif kind == K_TRIO:
        if single: gen_same(h, K_TRIO, 3, rmin, o)
    elif kind == K_TRIO_SOLO:
        if single and r.solo_kickers: gen_trio_kick(h, r, K_TRIO_SOLO, rmin, o)
    elif kind == K_TRIO_PAIR:
        if single: gen_trio_kick(h, r, K_TRIO_PAIR, rmin, o)
    elif kind == K_CHAIN:
        gen_chain(h, K_CHAIN, 1, 5, lmin, lmax, rmin, o)
    elif kind == K_PAIR_CHAIN:
        gen_chain(h, K_PAIR_CHAIN, 2, 3, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE:
        gen_chain(h, K_AIRPLANE, 3, 2, lmin, lmax, rmin, o)
    elif kind == K_AIRPLANE_SOLO:
        if r.solo_kickers: gen_airplane_kick(h, r, K_AIRPLANE_SOLO, lmin, lmax, rmin, total, o)
    elif kind == K_AIRPLANE_PAIR:
        gen_airplane_kick(h, r, K_AIRPLANE_PAIR, lmin, lmax, rmin, total, o)
    elif kind == K_FOUR_TWO_SOLO:
        if single and r.four_with_kickers: gen_four_two(h, r, K_FOUR_TWO_SOLO, rmin, o)
    elif kind == K_FOUR_TWO_PAIR:
        if single and r.four_with_kickers: gen_four_two(h, r, K_FOUR_TWO_PAIR, rmin, o)


cdef inline int _total(const unsigned char* h) noexcept nogil:
    cdef int i, t = 0
    for i in range(N_RANKS):
        t += h[i]
    return t


cdef void gen_lead(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil:
    """Every lead move of hand h, in the documented order (no PASS)."""
    cdef int kind
    cdef int total = _total(h)
    for kind in range(K_SOLO, K_BOMB):
        gen_kind(h, r, kind, 0, BIG, 0, total, o)
    gen_bombs(h, r, 4, 0, o)
    gen_rocket(h, r, o)


cdef void gen_response(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """PASS, then every move of h that beats `last` (a non-PASS legal move)."""
    cdef unsigned char row[16]
    _clear(row, K_PASS)
    emit(o, row)
    if last.kind == K_ROCKET:
        return
    if last.kind == K_BOMB:
        gen_bombs(h, r, last.ncards, last.rank + 1, o)
    else:
        gen_kind(h, r, last.kind, last.length, last.length, last.rank + 1, _total(h), o)
        gen_bombs(h, r, 4, 0, o)
    gen_rocket(h, r, o)


cdef void gen_moves(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil:
    """Lead when last is NULL or PASS, else the response list."""
    if last == NULL or last.kind == K_PASS:
        gen_lead(h, r, o)
    else:
        gen_response(h, r, last, o)


# ---------------------------------------------------------------------------
# Reading rows: rank and length of a generated row, classification, beating.
# ---------------------------------------------------------------------------

cdef void row_info(const unsigned char* row, MoveInfo* mi) noexcept nogil:
    """Rank, length and size of a row that holds a legal move of its kind."""
    cdef int kind = row[KIND_BYTE]
    cdef int n = 0, x, top = -1, e, L, ok
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
        # Highest window of `length` ranks that all hold exactly three cards.
        L = n // 4
        mi.length = L
        e = ACE
        while e >= L - 1:
            ok = 1
            for x in range(e - L + 1, e + 1):
                if row[x] != 3:
                    ok = 0
                    break
            if ok:
                mi.rank = e
                break
            e -= 1


cdef inline bint _jokers_ok(const unsigned char* rest, const RulesC* r) noexcept nogil:
    return r.both_jokers or rest[LOW] == 0 or rest[HIGH] == 0


cdef int classify_c(const unsigned char* c, const RulesC* r, MoveInfo* infos) noexcept nogil:
    """Every reading of cards c: at most one MoveInfo per kind (its highest
    reading), written to infos in kind order; returns how many."""
    cdef int n = 0, total = 0, nused = 0, lo = -1, hi = -1, x, e, L, j
    cdef int cnt3 = 0, cnt4 = 0, r3 = -1, r4 = -1, pairs, ones, ok
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

    # Airplane with singles: highest window of L ranks holding exactly 3.
    if r.solo_kickers and total % 4 == 0 and total >= 8:
        L = total // 4
        e = ACE
        while e >= L - 1:
            ok = 1
            for x in range(e - L + 1, e + 1):
                if c[x] != 3:
                    ok = 0
                    break
            if ok:
                memcpy(rest, c, N_RANKS)
                for x in range(e - L + 1, e + 1):
                    rest[x] = 0
                if _jokers_ok(rest, r):
                    if r.airplane_solo_distinct:
                        for x in range(N_RANKS):
                            if rest[x] > 1:
                                ok = 0
                    if ok:
                        infos[n] = MoveInfo(K_AIRPLANE_SOLO, e, L, total); n += 1
                        break
            e -= 1

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
            # the trios must be consecutive within 0..ACE
            j = 0
            for x in range(ACE + 1):
                if c[x] == 3:
                    j += 1
                    e = x
            if j == L and c[e - L + 1] == 3 and (e - L + 1) >= 0:
                ok = 1
                for x in range(e - L + 1, e + 1):
                    if c[x] != 3:
                        ok = 0
                if ok and (r.both_jokers or c[LOW] == 0 or c[HIGH] == 0):
                    infos[n] = MoveInfo(K_AIRPLANE_PAIR, e, L, total); n += 1

    # Four with two attachments.
    if r.four_with_kickers and cnt4 == 1 and r4 <= TWO:
        if total == 6:
            memcpy(rest, c, N_RANKS)
            rest[r4] = 0
            ok = _jokers_ok(rest, r)
            if r.four_two_solo_distinct:
                for x in range(N_RANKS):
                    if rest[x] > 1:
                        ok = 0
            if ok:
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
