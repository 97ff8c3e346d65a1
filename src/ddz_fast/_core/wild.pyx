# cython: language_level=3
"""Wild-card move generation (docs/rules.md, "Wild cards"; the row layout in
_core/wild.pxd).

A combination R can be made from a hand when the wild cards cover what the
natural cards lack: its deficit, the sum over ranks of max(0, R[r] - n[r])
with n the hand's natural cards (a wild rank has none: its cards are the
wild ones), is at most the number of wild cards w.  Every such R is a move
of the standard game held by the *virtual hand* min(4, n + w) (jokers as
held), so the standard generator lists them, once each and in the
documented order, with every rule option applied to R.  Each R is then read
back onto the physical cards: every way of playing fewer natural cards and
more wild ones that the wild cards allow, and with two wild ranks every split
of the wild cards between them.  The standard kernels stay the one
definition of which combinations are legal and which beat which.
"""
from libc.string cimport memcpy, memset, memcmp

from .kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, N_RANKS, ACE, K_SOLO, K_CHAIN,
    K_PAIR_CHAIN, K_AIRPLANE, K_AIRPLANE_SOLO, K_AIRPLANE_PAIR, K_FOUR_TWO_PAIR, K_BOMB, K_ROCKET,
    gen_of_kind, gen_bombs_beating, row_info, beats_c, out_init_on, out_reserve, u64,
)
from libc.stdlib cimport malloc, free

__all__ = []     # a C-level API (_core/wild.pxd)

cdef enum:
    JOKER0 = 13              # ranks 13, 14: the jokers (never wild, never stood for)


cdef extern from *:
    """
    #include <stdlib.h>
    /* How many cards a 16-byte standard row needs beyond the natural cards
       `nat` (whose byte 15 is 255, so that the kind byte counts nothing):
       the sum over ranks of max(0, row[r] - nat[r]).  With SSE2 one
       saturating subtract and one sum of absolute differences. */
    #if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    static inline int ddz_wild_deficit(const unsigned char* row, const unsigned char* nat) {
        __m128i d = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)row), _mm_loadu_si128((const __m128i*)nat));
        __m128i s = _mm_sad_epu8(d, _mm_setzero_si128());
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8));
    }
    #else
    static inline int ddz_wild_deficit(const unsigned char* row, const unsigned char* nat) {
        int r, n = 0;
        for (r = 0; r < 15; r++) n += row[r] > nat[r] ? row[r] - nat[r] : 0;
        return n;
    }
    #endif
    """
    int _deficit "ddz_wild_deficit"(const unsigned char* row, const unsigned char* nat) noexcept nogil


cdef enum:
    # Candidate rows a call starts with: on the heap, below malloc's mmap
    # threshold (a fresh mapping per call would fault its pages in), enough
    # for most hands' candidates (it grows for the others).
    CAND_ROWS = 4096


cdef inline int _class(int kind, bint as_played, bint wild_rank) noexcept nogil:
    # The one rule of bomb classes: the rocket; a bomb played as exactly the
    # four cards it represents is wild when its rank is wild, else hard; any
    # other bomb (a wild card standing in) is soft.
    if kind == K_ROCKET:
        return CLS_ROCKET
    if kind != K_BOMB:
        return CLS_NONE
    if not as_played:
        return CLS_SOFT
    return CLS_WILD if wild_rank else CLS_HARD


cdef int bomb_class(int kind, const unsigned char* rep, const unsigned char* phys,
                    unsigned int wmask) noexcept nogil:
    cdef int r = 0
    if kind != K_BOMB:
        return _class(kind, False, False)
    while r < JOKER0 and rep[r] == 0:
        r += 1
    return _class(kind, memcmp(rep, phys, N_RANKS) == 0, r < JOKER0 and (wmask >> r) & 1)


cdef bint beats_wild(const MoveInfo* a, int acls, const MoveInfo* b, int bcls) noexcept nogil:
    # Bombs of different classes: the higher class wins; otherwise the
    # standard comparison of the represented combinations.
    if a.kind == K_BOMB and b.kind == K_BOMB and acls != bcls:
        return acls > bcls
    return beats_c(a, b)


cdef inline unsigned char* _room2(Out* o) noexcept nogil:
    # where to write one 32-byte row (two of o's rows); a call only to grow
    if o.n + 3 <= o.cap:
        return o.data + o.n * ROW
    return out_reserve(o, 2)


cdef inline void _set_byte(u64* pw, int x, int v) noexcept nogil:
    # byte x of the two words pw (ranks 0..7 in pw[0], 8..15 in pw[1]) := v
    cdef int sh = (x & 7) * 8
    pw[x >> 3] = (pw[x >> 3] & ~((<u64>0xFF) << sh)) | ((<u64>v) << sh)


cdef bint _read_back(const unsigned char* rep, const unsigned char* h, const unsigned char* nat,
                     int w, unsigned int wmask, int wr0, int wr1, const MoveInfo* last,
                     int lcls, bint exact, Out* o) noexcept nogil:
    """Write every physical reading of the combination `rep` (a 16-byte
    standard row) that h can play, in the documented order: most natural
    cards first (fewer replaced at the lower ranks first), then, with two
    wild ranks, fewer cards of the lower wild rank first.  False when out of
    memory.  (The physical counts live in two words, changed by
    arithmetic: bytes written one by one and then read as words would
    stall every row on a failed store forwarding.)"""
    cdef int x, a, need = 0, nflex = 0, budget, t, lo, hi, split, j, spent, cls, kind = rep[KIND_BYTE]
    cdef int brank = -1
    cdef int k[N_RANKS]
    cdef int most[N_RANKS]
    cdef int fidx[N_RANKS]
    cdef u64 fone[N_RANKS]
    cdef u64 pw[2]
    cdef u64 rw[2]
    cdef u64 hw[2]
    cdef u64 out_hi
    cdef unsigned char* p
    cdef MoveInfo mi
    if _deficit(rep, nat) > w:
        return True                   # (most candidates: the wild cards cannot make them)
    pw[0] = 0
    pw[1] = 0
    for x in range(N_RANKS):
        if rep[x] == 0:
            continue
        a = nat[x] if nat[x] < rep[x] else rep[x]
        need += rep[x] - a
        pw[x >> 3] += (<u64>a) << ((x & 7) * 8)
        if a and x < JOKER0:
            fidx[nflex] = x >> 3
            fone[nflex] = (<u64>1) << ((x & 7) * 8)
            most[nflex] = a
            nflex += 1
    if need > w:
        return True
    budget = w - need
    memcpy(&rw[0], rep, 8)
    memcpy(&rw[1], rep + 8, 8)
    rw[1] &= 0x00FFFFFFFFFFFFFFULL
    if kind == K_BOMB:
        row_info(rep, &mi)
        brank = mi.rank
    if exact:
        memcpy(&hw[0], h, 8)
        memcpy(&hw[1], h + 7, 8)
        hw[1] >>= 8
    for j in range(nflex):
        k[j] = 0
    spent = 0
    while True:
        t = need + spent              # wild cards played
        lo = t - h[wr1] if wr1 >= 0 else t
        if lo < 0:
            lo = 0
        hi = h[wr0] if h[wr0] < t else t
        for split in range(lo, hi + 1):
            _set_byte(pw, wr0, split)
            if wr1 >= 0:
                _set_byte(pw, wr1, t - split)
            if exact and (pw[0] != hw[0] or pw[1] != hw[1]):
                continue
            cls = _class(kind, pw[0] == rw[0] and pw[1] == rw[1], brank >= 0 and (wmask >> brank) & 1)
            if kind == K_BOMB and last != NULL and not beats_wild(&mi, cls, last, lcls):
                continue
            p = _room2(o)
            if p == NULL:
                return False
            memcpy(p, rep, ROW)
            out_hi = pw[1] | ((<u64>cls) << 56)
            memcpy(p + W_PHYS, &pw[0], 8)
            memcpy(p + W_PHYS + 8, &out_hi, 8)
            o.n += 2
        # the next replacement vector k in lexicographic order with
        # sum(k) <= budget and k[j] <= most[j] (the last rank moves fastest)
        j = nflex - 1
        while j >= 0:
            if k[j] < most[j] and spent < budget:
                k[j] += 1
                spent += 1
                pw[fidx[j]] -= fone[j]
                break
            spent -= k[j]
            pw[fidx[j]] += fone[j] * <u64>k[j]
            k[j] = 0
            j -= 1
        if j < 0:
            return True


cdef void _airplanes_kicked(const unsigned char* nat, int w, const RulesC* r, int kind, int L, int rmin,
                            Out* cand) noexcept nogil:
    # The airplanes with attachments (kind, length L, top rank >= rmin) the
    # wild cards can make, window by window: the trios of the window from the
    # natural cards and the wild ones, the attachments from what the wild
    # cards left over can make, on a virtual hand of just that (the whole
    # virtual hand would offer every wild card to every attachment: most of
    # its airplanes cost more wild cards than the hand has).  A combination
    # is kept in the run of its own window (row_info's rank), so each is
    # listed once, in rank order.
    cdef unsigned char hv[16]
    cdef int e, x, d, b
    cdef Py_ssize_t i, k, before
    cdef MoveInfo mi
    for e in range(rmin if rmin > L - 1 else L - 1, ACE + 1):
        d = 0
        for x in range(e - L + 1, e + 1):
            if nat[x] < 3:
                d += 3 - nat[x]
        if d > w:
            continue
        b = w - d
        for x in range(JOKER0):
            hv[x] = <unsigned char>(nat[x] + b if nat[x] + b < 4 else 4)
        hv[13] = nat[13]
        hv[14] = nat[14]
        hv[15] = 0
        for x in range(e - L + 1, e + 1):
            hv[x] = 3
        before = cand.n
        gen_of_kind(hv, r, kind, L, e, False, cand)
        if cand.oom:
            return
        k = before
        for i in range(before, cand.n):
            row_info(cand.data + i * ROW, &mi)
            if mi.rank == e:
                if k != i:
                    memcpy(cand.data + k * ROW, cand.data + i * ROW, ROW)
                k += 1
        cand.n = k


cdef inline void _of_kind(const unsigned char* nat, const unsigned char* virt, int w, const RulesC* r,
                          int kind, int L, int rmin, Out* cand) noexcept nogil:
    if kind == K_AIRPLANE_SOLO or kind == K_AIRPLANE_PAIR:
        _airplanes_kicked(nat, w, r, kind, L, rmin, cand)
    else:
        gen_of_kind(virt, r, kind, L, rmin, False, cand)


cdef void _candidates(const unsigned char* nat, const unsigned char* virt, int w, const RulesC* r,
                      const MoveInfo* last, Out* cand) noexcept nogil:
    # The standard combinations the wild cards might make, in list order: a
    # lead's every kind and length, or PASS and the last move's kind and
    # length above its rank; then every bomb and the rocket (bomb classes
    # are compared once the cards are read back).
    cdef int kind, L, lo, hi, x, cards = 0
    cdef unsigned char* p
    if last == NULL:
        for x in range(N_RANKS):
            cards += virt[x]
        for kind in range(K_SOLO, K_FOUR_TWO_PAIR + 1):
            # the lengths of the kind: a sequence spans at most the 12 ranks
            # 3..A and holds at most the cards of the (virtual) hand
            lo, hi = 1, 1
            if kind == K_CHAIN:
                lo, hi = 5, cards
            elif kind == K_PAIR_CHAIN:
                lo, hi = 3, cards // 2
            elif kind == K_AIRPLANE:
                lo, hi = 2, cards // 3
            elif kind == K_AIRPLANE_SOLO:
                lo, hi = 2, cards // 4
            elif kind == K_AIRPLANE_PAIR:
                lo, hi = 2, cards // 5
            if hi > ACE + 1:
                hi = ACE + 1
            for L in range(lo, hi + 1):
                _of_kind(nat, virt, w, r, kind, L, 0, cand)
                if cand.oom:
                    return
    else:
        p = out_reserve(cand, 1)
        if p == NULL:
            return
        memset(p, 0, ROW)                                   # PASS
        cand.n += 1
        if last.kind == K_ROCKET:
            return
        if last.kind != K_BOMB:
            _of_kind(nat, virt, w, r, last.kind, last.length, last.rank + 1, cand)
            if cand.oom:
                return
    gen_bombs_beating(virt, r, NULL, cand)


cdef void gen_wild(const unsigned char* h, const RulesC* r, unsigned int wmask,
                   const unsigned char* last, bint exact, Out* o) noexcept nogil:
    cdef unsigned char nat[16]
    cdef unsigned char virt[16]
    cdef unsigned char* buf
    cdef int w = 0, x, wr0 = -1, wr1 = -1, lcls = CLS_NONE
    cdef Out cand
    cdef MoveInfo li
    cdef const MoveInfo* lp = NULL
    cdef Py_ssize_t i
    memcpy(nat, h, 15)
    nat[15] = 255                     # (the kind byte of a row: no deficit; see _deficit)
    for x in range(JOKER0):
        if (wmask >> x) & 1:
            w += h[x]
            nat[x] = 0
            if wr0 < 0:
                wr0 = x
            else:
                wr1 = x
    for x in range(JOKER0):
        virt[x] = <unsigned char>(nat[x] + w if nat[x] + w < 4 else 4)
    virt[13] = h[13]
    virt[14] = h[14]
    virt[15] = 0
    buf = <unsigned char*>malloc(CAND_ROWS * ROW)
    if buf == NULL:
        o.oom = True
        return
    out_init_on(&cand, buf, CAND_ROWS)
    if last != NULL:
        row_info(last, &li)
        lp = &li
        lcls = last[W_CLASS]
    _candidates(nat, virt, w, r, lp, &cand)
    if cand.oom:
        o.oom = True
    else:
        for i in range(cand.n):
            if not _read_back(cand.data + i * ROW, h, nat, w, wmask, wr0, wr1, lp, lcls, exact, o):
                o.oom = True
                break
    if not cand.borrowed:
        free(cand.data)               # (it grew: a copy of its own)
    free(buf)
