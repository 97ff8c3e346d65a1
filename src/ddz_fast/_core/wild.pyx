# cython: language_level=3
"""Wild-card move generation (docs/rules.md, "Wild cards"; the row layout in
_core/wild.pxd).

A combination R can be made from a hand when the wild cards cover what the
natural cards lack: its deficit, the sum over ranks of max(0, R[r] - n[r])
with n the hand's natural cards (a wild rank has none: its cards are the
wild ones), is at most the number of wild cards w.  Every such R is a move
of the standard game held by the *virtual hand* min(4, n + w) (jokers as
held), listed once each and in the documented order, with every rule option
applied to R; the kinds with attachments are taken one main part at a time
(a main rank, an airplane's window), their attachments from the virtual
hand of the wild cards the main part leaves.

Each R is read onto the physical cards: every way of playing fewer natural
cards and more wild ones that the wild cards allow (_replace), and with two
wild ranks every split of the wild cards between them (_rows), as 32-byte
rows written through one cursor from per-call tables.

Most combinations never become a standard row: the kinds of one part
(_plain_direct), the trios and fours with attachments (_kicked_direct) and
the airplanes with attachments (_airplanes_direct for two trios,
_airplanes_long for more) run the standard kernel's own loops here,
summing each combination's row, cards (the natural ones it takes, wild
ones for the rest) and deficit from per-rank tables, and write its
readings at once (_combo, or _no_spare / _one_spare when the part leaves
no / one wild card); a lead's bombs with one wild rank and one deck too
(_bombs_direct).  The other bombs (responses, two wild ranks, more
decks), and every kind for classify, are still listed by the standard
kernels as 16-byte rows and read back (_read_all, _read_bombs): what
those kernels list stays the definition of the rest, and the
differential tests hold both to the oracle, ddz_fast.reference.wild_moves.
"""
from libc.string cimport memcpy, memset, memcmp

from .kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, N_RANKS, ACE, K_SOLO, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR, K_CHAIN,
    K_PAIR_CHAIN, K_AIRPLANE, K_AIRPLANE_SOLO, K_AIRPLANE_PAIR, K_FOUR_TWO_SOLO, K_FOUR_TWO_PAIR, K_BOMB,
    K_ROCKET,
    gen_of_kind, gen_airplanes_at, gen_bombs_beating, row_info, beats_c, out_init_on, out_reserve, u64,
    _movemask, _word_cards, _row_ge_mask, _kicker_cap, _kicker_three_forbidden,
)
from .bits cimport top_bit, ctz
from libc.stdlib cimport free

__all__ = []     # a C-level API (_core/wild.pxd)

cdef enum:
    JOKER0 = 13              # ranks 13, 14: the jokers (never wild, never stood for)


cdef extern from *:
    """
    #include <stdlib.h>
    /* The natural cards a 16-byte standard row `row` can take from the
       natural cards `nat` (whose byte 15 is 255: the kind byte lacks
       nothing): min(row, nat) for ranks 0..14, as two little-endian words
       into a (byte 15 cleared); returns the row's deficit, the sum over
       ranks of max(0, row[r] - nat[r]).  With SSE2 (x86-64): a min, a
       saturating subtract and a sum of absolute differences. */
    #if (defined(__SSE2__) && defined(__x86_64__)) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    static inline int ddz_wild_natural(const unsigned char* row, const unsigned char* nat,
                                       unsigned long long* a) {
        __m128i r = _mm_loadu_si128((const __m128i*)row), n = _mm_loadu_si128((const __m128i*)nat);
        __m128i m = _mm_min_epu8(r, n);
        __m128i s = _mm_sad_epu8(_mm_subs_epu8(r, n), _mm_setzero_si128());
        a[0] = (unsigned long long)_mm_cvtsi128_si64(m);
        a[1] = (unsigned long long)_mm_cvtsi128_si64(_mm_srli_si128(m, 8)) & 0x00FFFFFFFFFFFFFFULL;
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8));
    }
    #else
    static inline int ddz_wild_natural(const unsigned char* row, const unsigned char* nat,
                                       unsigned long long* a) {
        int r, n = 0;
        a[0] = a[1] = 0;
        for (r = 0; r < 15; r++) {
            unsigned int m = row[r] < nat[r] ? row[r] : nat[r];
            n += row[r] - m;
            a[r >> 3] |= (unsigned long long)m << ((r & 7) * 8);
        }
        return n;
    }
    #endif
    """
    int _natural "ddz_wild_natural"(const unsigned char* row, const unsigned char* nat, u64* a) noexcept nogil


cdef extern from *:
    """
    /* 16 bytes as two 64-bit lanes (a half of a wild row): one SSE2
       register on x86-64, else two words.  Lane arithmetic is the words'
       (a count moved between the two lanes is two word operations). */
    #if (defined(__SSE2__) && defined(__x86_64__)) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    typedef __m128i ddz_v16;
    static inline ddz_v16 ddz_v16_load(const unsigned char* p) { return _mm_loadu_si128((const __m128i*)p); }
    static inline void ddz_v16_store(unsigned char* p, ddz_v16 v) { _mm_storeu_si128((__m128i*)p, v); }
    static inline ddz_v16 ddz_v16_add(ddz_v16 a, ddz_v16 b) { return _mm_add_epi64(a, b); }
    static inline ddz_v16 ddz_v16_sub(ddz_v16 a, ddz_v16 b) { return _mm_sub_epi64(a, b); }
    static inline ddz_v16 ddz_v16_words(unsigned long long lo, unsigned long long hi) {
        return _mm_set_epi64x((long long)hi, (long long)lo);
    }
    /* What the natural cards nat (byte 15: 255) give to the standard row
       `row`: into q, min(row, nat) with byte 15 cleared; into room, the
       ranks 0..12 of which it takes a natural card (those a wild card
       could replace; jokers never are); returns the row's deficit (see
       ddz_wild_natural). */
    static inline int ddz_wild_take(const unsigned char* row, ddz_v16 nat, ddz_v16* q, unsigned int* room) {
        __m128i r = _mm_loadu_si128((const __m128i*)row), z = _mm_setzero_si128();
        __m128i m = _mm_min_epu8(r, nat);
        __m128i s = _mm_sad_epu8(_mm_subs_epu8(r, nat), z);
        *room = ~(unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(m, z)) & 0x1FFFu;
        *q = _mm_and_si128(m, _mm_set_epi64x(0x00FFFFFFFFFFFFFFLL, -1LL));
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8));
    }
    #else
    #include <string.h>
    typedef struct { unsigned long long w[2]; } ddz_v16;
    static inline ddz_v16 ddz_v16_load(const unsigned char* p) { ddz_v16 v; memcpy(v.w, p, 16); return v; }
    static inline void ddz_v16_store(unsigned char* p, ddz_v16 v) { memcpy(p, v.w, 16); }
    static inline ddz_v16 ddz_v16_add(ddz_v16 a, ddz_v16 b) { a.w[0] += b.w[0]; a.w[1] += b.w[1]; return a; }
    static inline ddz_v16 ddz_v16_sub(ddz_v16 a, ddz_v16 b) { a.w[0] -= b.w[0]; a.w[1] -= b.w[1]; return a; }
    static inline ddz_v16 ddz_v16_words(unsigned long long lo, unsigned long long hi) {
        ddz_v16 v; v.w[0] = lo; v.w[1] = hi; return v;
    }
    static inline int ddz_wild_take(const unsigned char* row, ddz_v16 nat, ddz_v16* q, unsigned int* room) {
        unsigned char n[16];
        int r, need;
        memcpy(n, nat.w, 16);
        need = ddz_wild_natural(row, n, q->w);
        *room = 0;
        for (r = 0; r < 13; r++)
            if (row[r] && n[r])
                *room |= 1u << r;
        return need;
    }
    #endif
    """
    ctypedef struct v16 "ddz_v16":
        pass
    v16 v16_load "ddz_v16_load"(const unsigned char* p) noexcept nogil
    void v16_store "ddz_v16_store"(unsigned char* p, v16 v) noexcept nogil
    v16 v16_add "ddz_v16_add"(v16 a, v16 b) noexcept nogil
    v16 v16_sub "ddz_v16_sub"(v16 a, v16 b) noexcept nogil
    v16 v16_words "ddz_v16_words"(u64 lo, u64 hi) noexcept nogil
    int _take "ddz_wild_take"(const unsigned char* row, v16 nat, v16* q, unsigned int* room) noexcept nogil


cdef extern from *:
    """
    /* The windows of L ranks (tops e = L-1..11) whose deficit is at most w,
       as a mask: ds + 16 holds the 13 prefix sums of the ranks' deficits
       as bytes, 16 zero bytes before them and 19 after.  With SSE2 the 12
       differences ds[e + 1] - ds[e + 1 - L] are one byte subtraction of
       two loads. */
    #if (defined(__SSE2__) && defined(__x86_64__)) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    static inline unsigned int ddz_window_tops(const unsigned char* ds, int L, int w) {
        __m128i a = _mm_loadu_si128((const __m128i*)(ds + 17));
        __m128i b = _mm_loadu_si128((const __m128i*)(ds + 17 - L));
        __m128i d = _mm_sub_epi8(a, b), wv = _mm_set1_epi8((char)w);
        unsigned int ok = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(d, wv), wv));
        return ok & 0xFFFu & ~((1u << (L - 1)) - 1);
    }
    #else
    static inline unsigned int ddz_window_tops(const unsigned char* ds, int L, int w) {
        unsigned int m = 0;
        int e;
        for (e = L - 1; e < 12; e++)
            m |= (unsigned int)(ds[17 + e] - ds[17 + e - L] <= w) << e;
        return m;
    }
    #endif
    """
    unsigned int _tops_of "ddz_window_tops"(const unsigned char* ds, int L, int w) noexcept nogil


cdef extern from *:
    """
    /* The virtual hands vt[b], b = 0..w (16 bytes each): the natural cards
       nat (wild ranks 0, byte 15 255) with b wild cards on each rank 3..2,
       at most 4, the jokers as held, byte 15 0.  With SSE2 one saturating
       add and one min a hand. */
    #if (defined(__SSE2__) && defined(__x86_64__)) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    static inline void ddz_virtual_hands(const unsigned char* nat, int w, unsigned char* vt) {
        __m128i n = _mm_loadu_si128((const __m128i*)nat);
        __m128i ranks = _mm_set_epi8(0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        __m128i cap = _mm_set_epi8(0, -1, -1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4);
        int b;
        for (b = 0; b <= w; b++)
            _mm_storeu_si128((__m128i*)(vt + 16 * b),
                             _mm_min_epu8(_mm_adds_epu8(n, _mm_and_si128(_mm_set1_epi8((char)b), ranks)), cap));
    }
    #else
    static inline void ddz_virtual_hands(const unsigned char* nat, int w, unsigned char* vt) {
        int b, x;
        for (b = 0; b <= w; b++) {
            for (x = 0; x < 13; x++)
                vt[16 * b + x] = (unsigned char)(nat[x] + b < 4 ? nat[x] + b : 4);
            vt[16 * b + 13] = nat[13];
            vt[16 * b + 14] = nat[14];
            vt[16 * b + 15] = 0;
        }
    }
    #endif
    """
    void _virtual_hands "ddz_virtual_hands"(const unsigned char* nat, int w, unsigned char* vt) noexcept nogil


cdef extern from *:
    """
    /* A condition seldom true (the output out of room, out of memory):
       its code laid out of the hot path. */
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_unlikely(c) __builtin_expect(!!(c), 0)
    #else
    #define ddz_unlikely(c) (c)
    #endif
    """
    bint _unlikely "ddz_unlikely"(bint c) noexcept nogil


cdef enum:
    # Candidate rows a call starts with, on the stack: since the direct
    # generators write most kinds straight to the output, what the kernels
    # still list (PASS, the bombs, the airplanes of three or more trios
    # with attachments, between two read-backs) fits most hands; it moves
    # to the heap and grows for the others.  (A 64 KiB malloc and free per
    # call cost more than a short response's rest.)
    CAND_ROWS = 512
    # Rows of room a read-back checks for before writing the rows of one
    # combination with at most one wild card to spare (at most 14 readings
    # of at most 5 splits of the wild cards, 2 rows each; any other
    # checks before each reading), besides out_reserve's spare one: the
    # cursor's end is that far before the cap.
    SLACK = 140


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


cdef inline unsigned int _nonzero(u64 lo, u64 hi) noexcept nogil:
    # the ranks whose byte of (lo, hi) is not 0 (every byte below 128, so
    # adding 0x7F sets a byte's top bit exactly when it is not 0, no carry)
    return _movemask((lo + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) | (
        _movemask((hi + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) << 8)


cdef inline u64 _below(int x) noexcept nogil:
    # the bytes 0..x of a word (x in 0..7)
    return ~((~(<u64>0) << 1) << (8 * x + 7))


cdef inline void _unit(int x, u64* lo, u64* hi) noexcept nogil:
    # one card of rank x (0..14; none for x < 0) as two words
    lo[0] = (<u64>1) << (8 * x) if 0 <= x < 8 else 0
    hi[0] = (<u64>1) << (8 * (x - 8)) if x >= 8 else 0


cdef struct Reader:
    # What the read-backs of one call share.
    const unsigned char* nat    # the natural cards (wild ranks 0; byte 15 is 255)
    int w                       # the wild cards held
    int h0, h1                  # of them, of the lower / the higher wild rank (0: one wild rank)
    bint two                    # two wild ranks
    unsigned int wmask
    u64 e[2]                    # one card of the lower wild rank (two words)
    u64 f[2]                    # one card of the higher wild rank (0 with one wild rank)
    u64 d[2]                    # e - f: a wild card moved from the higher rank to the lower
    bint exact                  # keep only readings playing the whole hand hw
    u64 hw[2]
    const MoveInfo* last        # the move to beat (NULL: a lead), its class
    int lcls
    # The bulk read-back (_read_all): dtab[i], one natural card of rank i
    # replaced by a wild card of the higher wild rank (the only one with one
    # wild rank), as two words to subtract; with b wild cards left unspent
    # (t = w - b played), a reading's rows are scnt[b] splits of them, the
    # first soff[b] (as words) above the one with every wild card of the
    # higher rank, each next one d above the last.
    u64 g[2]                    # one card of the higher wild rank (of the one wild rank)
    v16 dtab[15]                # (13, 14: the jokers, never replaced: 0, for _one_spare's scratch rows)
    int scnt[9]
    v16 soff[9]
    v16 dv                      # d
    v16 gmul[9]                 # gmul[t]: t cards of the higher wild rank (of the one wild rank)
    # The direct generator (_kicked_direct), for c = 1..4 cards of rank y
    # (their represented counts: _ROWV[y][c]): natv, the cards it plays
    # with the fewest wild ones: the natural cards it takes, and for the
    # rest wild cards of the higher wild rank (as gmul; sums of natv are
    # the cards of a combination, as _combo takes them); defc, the wild
    # cards it needs; rbit, its rank bit when it takes a natural card of a
    # rank 3..2 (one a wild card could replace).  Built on first use (tabs).
    bint tabs
    v16 natv[15][5]
    unsigned char defc[15][5]
    unsigned int rbit[15][5]
    unsigned int nmask[5]       # nmask[c]: the ranks with defc 0 for c cards (masks for _one_spare)
    unsigned int rmask          # the ranks with an rbit (for any c: a natural card of a rank 3..2)
    # and for the windows of c = 1, 2, 3 cards a rank (_plain_direct,
    # _airplanes_kicked): the sums of natv and defc over ranks 0..y-1 (y =
    # 0..12; the rows': _RSUM), and the replaceable ranks of them all.
    # Built on first use too (sums; a response rarely needs them).
    bint sums
    v16 qsum[3][ACE + 2]
    int dsum[3][ACE + 2]
    unsigned char dsum8[3][48]  # the same as bytes from dsum8[c][16], 16 zeros before (_tops_of)
    unsigned int rroom[3]
    int windows                 # set by _plain_direct, _airplanes_kicked: the windows of a sequence made
    Out* o                      # the output, written through a cursor p (o.n set at the end)
    unsigned char* p            # where the next row goes
    unsigned char* end          # the last place with room for a row and out_reserve's spare one


cdef inline void _store(unsigned char* p, u64 r0, u64 r1, u64 p0, u64 p1, int cls) noexcept nogil:
    # one 32-byte row: the combination's row, the physical counts, the class
    cdef u64 out_hi = p1 | ((<u64>cls) << 56)
    memcpy(p, &r0, 8)
    memcpy(p + 8, &r1, 8)
    memcpy(p + W_PHYS, &p0, 8)
    memcpy(p + W_PHYS + 8, &out_hi, 8)


cdef bint _grow_rows(Reader* x) noexcept nogil:
    # room for at least one more row at x.p; False when out of memory
    cdef unsigned char* p
    x.o.n = (x.p - x.o.data) // ROW
    p = out_reserve(x.o, SLACK)
    if _unlikely(p == NULL):
        return False
    x.p = p
    x.end = x.o.data + (x.o.cap - SLACK - 1) * ROW
    return True


cdef inline bint _put_reading(Reader* x, u64 r0, u64 r1, u64 p0, u64 p1, int t, int kind,
                              const MoveInfo* mi, bint wild_bomb) noexcept nogil:
    # The rows of the combination (r0, r1) played with the natural cards
    # (p0, p1) and t wild cards: with two wild ranks, every split of them,
    # fewer of the lower rank first.  False when out of memory.
    cdef int lo, hi, _s, cls = CLS_ROCKET if kind == K_ROCKET else CLS_NONE
    cdef u64 d0 = x.d[0], d1 = x.d[1]
    cdef unsigned char* p = x.p
    if not x.two:
        lo = hi = t
        p0 += <u64>t * x.e[0]
        p1 += <u64>t * x.e[1]
    else:
        lo = t - x.h1 if t > x.h1 else 0
        hi = x.h0 if x.h0 < t else t
        p0 += <u64>lo * x.e[0] + <u64>(t - lo) * x.f[0]
        p1 += <u64>lo * x.e[1] + <u64>(t - lo) * x.f[1]
    for _s in range(lo, hi + 1):
        if x.exact and (p0 != x.hw[0] or p1 != x.hw[1]):
            pass                      # (the readings of a whole hand)
        elif kind == K_BOMB and not _bomb_kept(x, mi, p0 == r0 and p1 == (r1 & 0x00FFFFFFFFFFFFFFULL),
                                               wild_bomb, &cls):
            pass
        else:
            if _unlikely(p > x.end):
                x.p = p
                if not _grow_rows(x):
                    return False
                p = x.p
            _store(p, r0, r1, p0, p1, cls)
            p += WROW
        p0 += d0
        p1 += d1
    x.p = p
    return True


cdef inline bint _bomb_kept(const Reader* x, const MoveInfo* mi, bint as_played, bint wild_bomb,
                            int* cls) noexcept nogil:
    # a bomb's class into cls; does it beat the move on the table (if any)?
    cls[0] = _class(K_BOMB, as_played, wild_bomb)
    return x.last == NULL or beats_wild(mi, cls[0], x.last, x.lcls)


cdef inline unsigned char* _rows(unsigned char* p, v16 r, v16 q, int n, v16 off, v16 d,
                                 bint two) noexcept nogil:
    # The rows of one reading at p (with room for them): r the
    # combination's row, q the physical counts with every wild card played
    # of the higher wild rank (of the one wild rank unless `two`) and the
    # class in byte 15; with two wild ranks its n splits of the wild cards,
    # fewer of the lower rank first (the first off above q, each next one d
    # above the last).  Where the next row goes.
    if not two:
        v16_store(p, r)
        v16_store(p + W_PHYS, q)
        return p + WROW
    q = v16_add(q, off)
    while True:
        v16_store(p, r)
        v16_store(p + W_PHYS, q)
        p += WROW
        n -= 1
        if n == 0:
            return p
        q = v16_add(q, d)


cdef inline unsigned char* _reading(Reader* x, unsigned char* p, v16 r, v16 q, int b, bint two) noexcept nogil:
    # _rows of a reading leaving b wild cards unspent, after growing the
    # output if p is past its end; NULL when out of memory
    if _unlikely(p > x.end):
        x.p = p
        if not _grow_rows(x):
            return NULL
        p = x.p
    return _rows(p, r, q, x.scnt[b], x.soff[b], x.dv, two)


cdef inline unsigned char* _replace2(Reader* x, unsigned char* p, v16 r, v16 q, const unsigned char* a,
                                     unsigned int room, bint two) noexcept nogil:
    # _replace with two wild cards to spare (b = 2), its loops unrolled:
    # each rank i of room from the highest, one card of it replaced, then
    # one more of each rank above it, then two of it.  (At most 14
    # readings a rank: one check of the room each, SLACK.)
    cdef unsigned int rest = room, m
    cdef int i, j, n0 = x.scnt[0], n1 = x.scnt[1]
    cdef v16 s, di, off0 = x.soff[0], off1 = x.soff[1], d = x.dv
    while rest:
        i = top_bit(rest)
        rest ^= 1u << i
        if _unlikely(p > x.end):
            x.p = p
            if not _grow_rows(x):
                return NULL
            p = x.p
        di = x.dtab[i]
        s = v16_sub(q, di)
        p = _rows(p, r, s, n1, off1, d, two)
        m = room & ~((2u << i) - 1)
        while m:
            j = top_bit(m)
            m ^= 1u << j
            p = _rows(p, r, v16_sub(s, x.dtab[j]), n0, off0, d, two)
        if a[i] >= 2:
            p = _rows(p, r, v16_sub(s, di), n0, off0, d, two)
    return p


cdef unsigned char* _replace(Reader* x, unsigned char* p, v16 r, v16 q, const unsigned char* a,
                             unsigned int room, int b, bint two) noexcept nogil:
    # The readings of r that replace 1..b more of the natural cards of the
    # reading q, of the ranks in room (at most a[i] of rank i: the natural
    # cards it plays), by wild cards, in the documented order: the replaced
    # counts in lexicographic order with the lowest rank the most
    # significant, so the highest rank is replaced first, and each count of
    # a lower rank is followed by the readings that replace cards of the
    # ranks above it with the wild cards it leaves.  Where the next row
    # goes; NULL when out of memory.
    cdef unsigned int rest = room, above, m
    cdef int i, j, c, cmax, n0
    cdef v16 s, off0, d
    while rest:
        i = top_bit(rest)
        rest ^= 1u << i
        above = room & ~((2u << i) - 1)
        cmax = a[i]
        if cmax > b:
            cmax = b
        s = q
        for c in range(1, cmax + 1):
            s = v16_sub(s, x.dtab[i])
            p = _reading(x, p, r, s, b - c, two)
            if _unlikely(p == NULL):
                return NULL
            if b - c == 1 and above:
                # one wild card left: each rank above it, from the highest
                # (at most 12 readings: one check of the room, SLACK)
                if _unlikely(p > x.end):
                    x.p = p
                    if not _grow_rows(x):
                        return NULL
                    p = x.p
                n0 = x.scnt[0]
                off0 = x.soff[0]
                d = x.dv
                m = above
                while m:
                    j = top_bit(m)
                    m ^= 1u << j
                    p = _rows(p, r, v16_sub(s, x.dtab[j]), n0, off0, d, two)
            elif b - c == 2 and above:
                p = _replace2(x, p, r, s, a, above, two)
                if _unlikely(p == NULL):
                    return NULL
            elif b - c > 2 and above:
                p = _replace(x, p, r, s, a, above, b - c, two)
                if _unlikely(p == NULL):
                    return NULL
    return p


cdef inline bint _read_all(const unsigned char* cand, Py_ssize_t ncand, Reader* x, bint two) noexcept nogil:
    """Write every physical reading the hand can play of each combination
    of cand (ncand 16-byte standard rows) but the bombs (_read_bombs), in
    the documented order (see _replace).  False when out of memory.  (What
    the loop needs of x is in locals: the rows written through p could be
    x's bytes as far as C knows.)"""
    cdef unsigned char a[16]
    cdef const unsigned char* rep
    cdef unsigned char* p = x.p
    cdef unsigned char* end = x.end
    cdef unsigned int room, m
    cdef int need, budget, i, kind, w = x.w, n0 = x.scnt[0], n1 = x.scnt[1]
    cdef v16 r, q, nat = v16_load(x.nat), d = x.dv, off0 = x.soff[0], off1 = x.soff[1]
    cdef v16 rocket = v16_words(0, (<u64>CLS_ROCKET) << 56)
    cdef Py_ssize_t k
    for k in range(ncand):
        rep = cand + k * ROW
        need = _take(rep, nat, &q, &room)
        if need > w:
            continue                  # (the wild cards cannot make it)
        kind = rep[KIND_BYTE]
        if kind == K_BOMB:
            x.p = p
            if not _read_bombs(rep, x):
                return False
            p = x.p
            end = x.end
            continue
        if _unlikely(p > end):
            x.p = p
            if not _grow_rows(x):
                return False
            p = x.p
            end = x.end
        budget = w - need
        r = v16_load(rep)
        # every natural card it can take, the deficit made up with wild cards
        q = v16_add(q, x.gmul[need])
        if kind == K_ROCKET:
            q = v16_add(q, rocket)
        if budget == 0:
            p = _rows(p, r, q, n0, off0, d, two)
        elif budget == 1:
            p = _rows(p, r, q, n1, off1, d, two)
            # one more wild card: each rank it can replace, from the highest
            m = room
            while m:
                i = top_bit(m)
                m ^= 1u << i
                p = _rows(p, r, v16_sub(q, x.dtab[i]), n0, off0, d, two)
        elif budget == 2:
            p = _rows(p, r, q, x.scnt[2], x.soff[2], d, two)
            if room:
                v16_store(a, q)       # (its bytes of the ranks in room: the natural cards taken)
                p = _replace2(x, p, r, q, a, room, two)
                if _unlikely(p == NULL):
                    return False
                end = x.end
        else:
            v16_store(a, q)
            p = _reading(x, p, r, q, budget, two)
            if p != NULL and room:
                p = _replace(x, p, r, q, a, room, budget, two)
            if _unlikely(p == NULL):
                return False
            end = x.end
    x.p = p
    return True


cdef bint _read_bombs(const unsigned char* rep, Reader* x) noexcept nogil:
    """_read_back for the combinations whose readings need a test each:
    bombs (each reading's class, kept when it beats the move on the table)
    and, for classify, the readings of the whole hand only.  The same rows
    in the same order: most natural cards first (fewer replaced at the
    lower ranks first), then, with two wild ranks, fewer cards of the lower
    wild rank first.  False when out of memory.

    The cards are counts in two words: a, the natural cards rep can take;
    k, those replaced by wild cards (k <= a bytewise, sum(k) <= the wild
    cards rep's deficit leaves); the reading plays a - k natural cards and
    deficit + sum(k) wild ones.  The k are walked in lexicographic order of
    their ranks' counts (the highest rank moves fastest): the next k raises
    the highest rank it can, with every rank above it back to 0."""
    cdef u64 a[2]
    cdef u64 r0, r1, k0 = 0, k1 = 0
    cdef int need = _natural(rep, x.nat, a), budget, spent = 0, i
    cdef int kind = rep[KIND_BYTE]
    cdef bint wild_bomb = False
    cdef unsigned int room
    cdef MoveInfo mi
    if need > x.w:
        return True                   # (the wild cards cannot make it)
    budget = x.w - need
    memcpy(&r0, rep, 8)
    memcpy(&r1, rep + 8, 8)
    if kind == K_BOMB:
        row_info(rep, &mi)
        wild_bomb = (x.wmask >> mi.rank) & 1
    # k = 0: every natural card it can take
    if not _put_reading(x, r0, r1, a[0], a[1], need, kind, &mi, wild_bomb):
        return False
    if budget == 0:
        return True                   # (most combinations: no wild card to spare)
    room = _nonzero(a[0], a[1]) & 0x1FFF                    # (jokers are never replaced)
    if budget == 1:
        # one card replaced: each rank that has one, from the highest
        while room:
            i = top_bit(room)
            room ^= 1u << i
            if i < 8:
                k0 = (<u64>1) << (8 * i)
                k1 = 0
            else:
                k0 = 0
                k1 = (<u64>1) << (8 * (i - 8))
            if not _put_reading(x, r0, r1, a[0] - k0, a[1] - k1, need + 1, kind, &mi, wild_bomb):
                return False
        return True
    while True:
        # the next k: the highest rank with a natural card left to replace
        # (k < a), below the highest rank of k when no wild card is left
        if spent == budget:
            room &= (1u << top_bit(_nonzero(k0, k1))) - 1
        if room == 0:
            return True
        i = top_bit(room)
        if i < 8:
            k0 = (k0 & _below(i)) + ((<u64>1) << (8 * i))
            k1 = 0
        else:
            k1 = (k1 & _below(i - 8)) + ((<u64>1) << (8 * (i - 8)))
        spent = _word_cards(k0, k1)
        if not _put_reading(x, r0, r1, a[0] - k0, a[1] - k1, need + spent, kind, &mi, wild_bomb):
            return False
        room = _nonzero(a[0] - k0, a[1] - k1) & 0x1FFF


cdef inline unsigned char* _combo(Reader* x, unsigned char* p, v16 r, v16 q, int budget, unsigned int room,
                                  bint two) noexcept nogil:
    # Every reading of the combination r (not a bomb) whose natural cards
    # (deficit: the wild cards less `budget`, >= 0, those it leaves) leave
    # the ranks `room` to replace, at p, in the documented order (as
    # _read_all); q, the cards of the first reading: every natural card it
    # can take, and its deficit in wild cards of the higher wild rank (a
    # sum of Reader.natv).  Where the next row goes; NULL when out of
    # memory.
    cdef unsigned char a[16]
    cdef unsigned int m
    cdef int i
    if _unlikely(p > x.end):
        x.p = p
        if not _grow_rows(x):
            return NULL
        p = x.p
    if budget == 0:
        return _rows(p, r, q, x.scnt[0], x.soff[0], x.dv, two)
    if budget == 1:
        p = _rows(p, r, q, x.scnt[1], x.soff[1], x.dv, two)
        m = room
        while m:
            i = top_bit(m)
            m ^= 1u << i
            p = _rows(p, r, v16_sub(q, x.dtab[i]), x.scnt[0], x.soff[0], x.dv, two)
        return p
    v16_store(a, q)
    if budget == 2:
        p = _rows(p, r, q, x.scnt[2], x.soff[2], x.dv, two)
        return _replace2(x, p, r, q, a, room, two) if room else p
    p = _reading(x, p, r, q, budget, two)
    if p != NULL and room:
        p = _replace(x, p, r, q, a, room, budget, two)
    return p


cdef inline unsigned char* _one_spare(Reader* x, unsigned char* p, v16 rA, v16 qA, unsigned int ra,
                                      unsigned int kb, int each) noexcept nogil:
    # With one wild rank, the readings of the combinations of a part (its
    # row rA with the kind, natural cards qA, replaceable ranks ra, at most
    # 3 of them) and `each` cards of each rank yb of kb (ascending), when
    # the part leaves one wild card: _combo's readings for a spare wild
    # card (a natural yb: its reading, then one for each rank of ra and yb
    # replaced, from the highest) or none (a yb the wild card makes: its
    # reading).  Every combination's rows are written at fixed places,
    # those it does not have past its last one (out_reserve's SLACK keeps
    # room for them), and the cursor moves past the ones it has: no branch
    # on a combination's spare wild cards or on where yb falls among ra.
    # Where the next row goes; NULL when out of memory.
    cdef v16 dt[4]
    cdef int ri[4]
    cdef int k = 0, i, j, yb, py, up, mine, nat
    cdef unsigned int m = ra, nm = x.nmask[each], rm = x.rmask
    cdef v16 r, q
    while m:
        i = top_bit(m)
        m ^= 1u << i
        ri[k] = i
        dt[k] = x.dtab[i]
        k += 1
    while kb:
        yb = ctz(kb)
        kb &= kb - 1
        if _unlikely(p > x.end):
            x.p = p
            if not _grow_rows(x):
                return NULL
            p = x.p
        r = v16_add(rA, _ROWV[yb][each])
        q = v16_add(qA, x.natv[yb][each])
        mine = (rm >> yb) & 1         # (yb's natural cards are replaceable)
        nat = (nm >> yb) & 1          # (the wild card is spare)
        v16_store(p, r)
        v16_store(p + W_PHYS, q)
        py = 1
        for j in range(k):
            up = ri[j] > yb
            py += up
            i = (1 + j + (mine & (1 - up))) * WROW
            v16_store(p + i, r)
            v16_store(p + i + W_PHYS, v16_sub(q, dt[j]))
        py = (py if mine else k + 1) * WROW
        v16_store(p + py, r)
        v16_store(p + py + W_PHYS, v16_sub(q, x.dtab[yb]))
        p += WROW * (1 + nat * (k + mine))
    return p


cdef inline unsigned char* _no_spare(Reader* x, unsigned char* p, v16 rA, v16 qA, unsigned int kb, int each,
                                     bint two) noexcept nogil:
    # The readings of the combinations of a part (row rA with the kind,
    # cards qA) and `each` cards of each rank of kb (ascending) when the
    # part leaves no wild card: each combination's one reading (its natural
    # cards, with two wild ranks each split of the wild cards), no
    # replacement to look for.  At most 15 combinations of at most 5
    # splits: one check of the room (SLACK).  Where the next row goes; NULL
    # when out of memory.
    cdef int yb, n0 = x.scnt[0]
    cdef v16 off0 = x.soff[0], d = x.dv
    if _unlikely(p > x.end):
        x.p = p
        if not _grow_rows(x):
            return NULL
        p = x.p
    while kb:
        yb = ctz(kb)
        kb &= kb - 1
        p = _rows(p, v16_add(rA, _ROWV[yb][each]), v16_add(qA, x.natv[yb][each]), n0, off0, d, two)
    return p


cdef inline unsigned char* _two_kicks(Reader* x, unsigned char* p, v16 rx, v16 qx, int na, unsigned int ra,
                                      unsigned int ka, const unsigned char* vt, int each, bint dup, bint jokers_ok,
                                      bint two) noexcept nogil:
    # The readings of a main part (its row rx with the kind, natural cards
    # qx, deficit na, replaceable ranks ra) with two attachments of `each`
    # cards from the ranks ka of the virtual hand hv, in the kernel's order
    # (gen_four_two, _kick_two): each rank ascending, first (when dup and
    # the virtual hand of the wild cards the main part leaves holds two of
    # it) two singles of it, then it and each higher rank the wild cards
    # left make (vt + 16 * b: the virtual hand of b wild cards); never the
    # two jokers unless jokers_ok.  ka: the ranks that virtual hand holds
    # `each` of.  Where the next row goes; NULL when out of memory.
    cdef unsigned int kb, rb
    cdef int w = x.w, ya, yb, nb
    cdef v16 rA, qA
    while ka:
        ya = ctz(ka)
        ka &= ka - 1
        if dup and not two and na == w:
            # no wild card left: two natural singles of ya, one reading,
            # when the hand holds them (written, and the cursor moved past
            # it only then: the branch would go either way rank by rank;
            # the row past the cursor is scratch, within SLACK)
            v16_store(p, v16_add(rx, _ROWV[ya][2]))
            v16_store(p + W_PHYS, v16_add(qx, x.natv[ya][2]))
            p += WROW * (vt[ya] >= 2)
        elif dup and vt[16 * (w - na) + ya] >= 2:
            nb = na + x.defc[ya][2]
            p = _combo(x, p, v16_add(rx, _ROWV[ya][2]), v16_add(qx, x.natv[ya][2]), w - nb,
                       ra | x.rbit[ya][2], two)
            if _unlikely(p == NULL):
                return NULL
        nb = na + x.defc[ya][each]    # (at most w: ya is in ka)
        # the second attachment: a higher rank the wild cards left make
        kb = ka & _row_ge_mask(vt + 16 * (w - nb), each)
        if ya == JOKER0 and not jokers_ok:
            kb &= ~(1u << (JOKER0 + 1))
        rA = v16_add(rx, _ROWV[ya][each])
        qA = v16_add(qx, x.natv[ya][each])
        rb = ra | x.rbit[ya][each]
        if not two and nb == w - 1:
            p = _one_spare(x, p, rA, qA, rb, kb, each)
            if _unlikely(p == NULL):
                return NULL
            continue
        if nb == w:
            p = _no_spare(x, p, rA, qA, kb, each, two)
            if _unlikely(p == NULL):
                return NULL
            continue
        while kb:
            yb = ctz(kb)
            kb &= kb - 1
            p = _combo(x, p, v16_add(rA, _ROWV[yb][each]), v16_add(qA, x.natv[yb][each]),
                       w - nb - x.defc[yb][each], rb | x.rbit[yb][each], two)
            if _unlikely(p == NULL):
                return NULL
    return p


# c = 0..4 cards of rank y as a row half (_ROWV[y][c]), and their sums
# over the ranks 0..y-1 of a window of c = 1, 2, 3 cards a rank
# (_RSUM[c - 1][y]): constants, filled when the module loads.
cdef v16 _ROWV[15][5]
cdef v16 _RSUM[3][ACE + 2]
# For a rank y holding n = 0..4 natural cards, and c = 0..4 cards of it:
# the natural cards taken (_NATV0[y][n][c], _ROWV[y][min(c, n)]), the wild
# cards needed (_DEFC0[n][c]) and the rank bit when one is taken
# (_RBIT0[y][n][c], ranks 3..2): Reader's per-rank tables less the wild
# cards' rank, which changes from call to call (_tables).
cdef v16 _NATV0[15][5][5]
cdef unsigned char _DEFC0[5][5]
cdef unsigned int _RBIT0[15][5][5]


cdef void _init_rows() noexcept nogil:
    cdef int y, c, n, t
    cdef u64 u0, u1
    for y in range(N_RANKS):
        _unit(y, &u0, &u1)
        for c in range(5):
            _ROWV[y][c] = v16_words(<u64>c * u0, <u64>c * u1)
    for c in range(3):
        _RSUM[c][0] = v16_words(0, 0)
        for y in range(ACE + 1):
            _RSUM[c][y + 1] = v16_add(_RSUM[c][y], _ROWV[y][c + 1])
    for y in range(N_RANKS):
        for n in range(5):
            for c in range(5):
                t = c if c < n else n
                _NATV0[y][n][c] = _ROWV[y][t]
                _DEFC0[n][c] = <unsigned char>(c - t)
                _RBIT0[y][n][c] = (1u << y) if t > 0 and y < JOKER0 else 0


_init_rows()


cdef void _tables(Reader* x) noexcept nogil:
    # Reader's per-rank tables of the direct generator: the constants of
    # each rank's natural count, and the wild cards of each deficit
    # (c = 0, no card, is never asked for: its entries are left unset)
    cdef int y, c, n
    cdef v16 wg[5][5]                 # [n][c]: the wild cards of _DEFC0[n][c]
    for n in range(5):
        for c in range(1, 5):
            wg[n][c] = x.gmul[_DEFC0[n][c]]
    for y in range(N_RANKS):
        n = x.nat[y] if x.nat[y] < 4 else 4
        for c in range(1, 5):
            x.natv[y][c] = v16_add(_NATV0[y][n][c], wg[n][c])
            x.defc[y][c] = _DEFC0[n][c]
            x.rbit[y][c] = _RBIT0[y][n][c]
    for c in range(1, 5):             # (defc 0: at least c natural cards)
        x.nmask[c] = _row_ge_mask(x.nat, c)
    x.rmask = _row_ge_mask(x.nat, 1) & 0x1FFFu
    x.tabs = True


cdef void _sums(Reader* x) noexcept nogil:
    # Reader's window sums (after _tables)
    cdef int y, c
    for c in range(3):
        x.dsum[c][0] = 0
        x.qsum[c][0] = _RSUM[0][0]
        x.rroom[c] = 0
        for y in range(ACE + 1):
            x.dsum[c][y + 1] = x.dsum[c][y] + x.defc[y][c + 1]
            x.qsum[c][y + 1] = v16_add(x.qsum[c][y], x.natv[y][c + 1])
            x.rroom[c] |= x.rbit[y][c + 1]
        memset(x.dsum8[c], 0, 48)
        for y in range(ACE + 2):
            x.dsum8[c][16 + y] = <unsigned char>x.dsum[c][y]
    x.sums = True


cdef inline unsigned int _window_tops(const Reader* x, int c, int L, int rmin) noexcept nogil:
    # The top ranks e >= rmin of the windows of L ranks (within 0..ACE) of
    # c cards each whose deficit is at most the wild cards (after _sums), as
    # a mask (_tops_of: every window tested at once, with no branch each;
    # the windows are then walked on the mask)
    return _tops_of(x.dsum8[c - 1], L, x.w) & ~((1u << rmin) - 1)


cdef inline bint _kicked_direct(Reader* x, const unsigned char* vt, const RulesC* r, int kind, int rmin,
                                bint two) noexcept nogil:
    """The readings of the trios or fours with attachments (kind) the wild
    cards can make, main rank by main rank from rmin, written straight to
    the output with no standard row in between: the loops of the standard
    kernel's gen_trio_kick and gen_four_two over the virtual hand of the
    wild cards the main part leaves (as _main_kicked asks it; the main
    ranks and the kickers from those hands' masks, so each is one the wild
    cards make), each combination's cards, deficit and replaceable ranks
    summed from per-rank tables.  False when out of memory."""
    cdef int size = 4 if kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR else 3
    cdef int each = 1 if kind == K_TRIO_SOLO or kind == K_FOUR_TWO_SOLO else 2
    cdef bint dup = kind == K_FOUR_TWO_SOLO and not r.four_two_solo_distinct
    cdef int w = x.w, mx, b, ya, na
    cdef const unsigned char* hv
    cdef unsigned int ka, ra, mm
    cdef v16 rx, qx
    cdef v16 kindv = v16_words(0, (<u64>kind) << 56)
    cdef unsigned char* p = x.p
    if not x.tabs:
        _tables(x)
    # the main ranks the wild cards can make: those of the virtual hand of
    # every wild card with `size` cards (ranks 3..2 from rmin)
    mm = _row_ge_mask(vt + 16 * w, size) & 0x1FFFu & ~((1u << rmin) - 1)
    while mm:
        mx = ctz(mm)
        mm &= mm - 1
        na = x.defc[mx][size]         # (the main part's deficit: at most w)
        b = w - na
        hv = vt + 16 * b
        # the kicker ranks: those of the virtual hand of b wild cards with
        # `each` cards, but the main rank
        ka = _row_ge_mask(hv, each) & ~(1u << mx)
        rx = v16_add(_ROWV[mx][size], kindv)
        qx = x.natv[mx][size]
        ra = x.rbit[mx][size]
        if size == 3 and not two and b == 1:
            p = _one_spare(x, p, rx, qx, ra, ka, each)
            if _unlikely(p == NULL):
                return False
            continue
        if size == 3 and b == 0:
            p = _no_spare(x, p, rx, qx, ka, each, two)
            if _unlikely(p == NULL):
                return False
            continue
        if size == 3:
            while ka:                 # (each of them within the wild cards b)
                ya = ctz(ka)
                ka &= ka - 1
                p = _combo(x, p, v16_add(rx, _ROWV[ya][each]), v16_add(qx, x.natv[ya][each]),
                           b - x.defc[ya][each], ra | x.rbit[ya][each], two)
                if _unlikely(p == NULL):
                    return False
            continue
        p = _two_kicks(x, p, rx, qx, na, ra, ka, vt, each, dup, r.both_jokers_as_kickers, two)
        if _unlikely(p == NULL):
            return False
    x.p = p
    return True


cdef inline bint _airplanes_direct(Reader* x, const unsigned char* vt, const RulesC* r, int kind, int rmin,
                                   bint two) noexcept nogil:
    """_kicked_direct for the airplanes of two trios with attachments
    (kind), window by window from the top rank rmin (as _airplanes_kicked
    asks the kernel): gen_airplane_kick's loops for two attachments
    (_kick_two; the caps and the higher-window rule of longer airplanes
    never bind two attachments).  False when out of memory."""
    cdef int each = 1 if kind == K_AIRPLANE_SOLO else 2
    cdef bint dup = kind == K_AIRPLANE_SOLO and not r.airplane_solo_distinct
    cdef int w = x.w, e, na
    cdef unsigned int tops = 0
    cdef const unsigned char* hv
    cdef unsigned char* p = x.p
    cdef v16 kindv = v16_words(0, (<u64>kind) << 56)
    if not x.tabs:
        _tables(x)
    for e in range(1, ACE + 1):       # (the windows the wild cards make, no branch each)
        tops |= (<unsigned int>(x.defc[e - 1][3] + x.defc[e][3] <= w)) << e
    tops &= ~((1u << (rmin if rmin > 1 else 1)) - 1)
    while tops:
        e = ctz(tops)
        tops &= tops - 1
        na = x.defc[e - 1][3] + x.defc[e][3]
        hv = vt + 16 * (w - na)
        p = _two_kicks(x, p, v16_add(v16_add(_ROWV[e - 1][3], _ROWV[e][3]), kindv),
                       v16_add(x.natv[e - 1][3], x.natv[e][3]), na, x.rbit[e - 1][3] | x.rbit[e][3],
                       _row_ge_mask(hv, each) & ~(3u << (e - 1)), vt, each, dup, r.both_jokers_as_kickers,
                       two)
        if _unlikely(p == NULL):
            return False
    x.p = p
    return True


cdef struct AKick:
    # The attachment candidates of one window of a longer airplane
    # (_airplanes_long), as gen_airplane_kick's Kick: their ranks
    # ascending, the most cards each may give (its cap), suffix sums of the
    # caps, the candidate whose count may not be exactly 3 (or -1).
    int y[15]
    int cap[15]
    int suffix[16]
    int n
    int forbid3
    bint jokers_ok
    unsigned int cmask          # the candidates' ranks
    unsigned int nat1, nat2     # the ranks with at least 1, 2 natural cards (vt[0]'s)


cdef unsigned char* _ak_solo(Reader* x, const AKick* k, unsigned char* p, int i, int need, v16 r, v16 q,
                             int b, unsigned int room, bint lowj, bint two) noexcept nogil:
    # kick_solo's multisets of `need` single attachments from candidates
    # i.., in its order, each combination (the part so far: row r, cards q,
    # b wild cards left, replaceable ranks room; lowj: a low joker among
    # them) read at once (_combo); those needing more wild cards than are
    # left are skipped (the read-back's deficit test).  Where the next row
    # goes; NULL when out of memory.
    cdef int c, cap, j, y, dc
    cdef unsigned int lm
    while True:
        if k.suffix[i] < need:        # (also at i == n: suffix 0)
            return p
        if need == 1:
            # the last attachment: candidates i.. (ranks from y[i] up)
            lm = k.cmask & ~((1u << k.y[i]) - 1)
            if lowj and not k.jokers_ok:
                lm &= ~(1u << (JOKER0 + 1))
            if b == 0:                # (natural ones only, each one reading)
                return _no_spare(x, p, r, q, lm & k.nat1, 1, two)
            for j in range(i, k.n):
                y = k.y[j]
                dc = x.defc[y][1]
                if dc > b or (y == JOKER0 + 1 and lowj and not k.jokers_ok):
                    continue
                p = _combo(x, p, v16_add(r, _ROWV[y][1]), v16_add(q, x.natv[y][1]), b - dc, room | x.rbit[y][1],
                           two)
                if _unlikely(p == NULL):
                    return NULL
            return p
        y = k.y[i]
        if not (y == JOKER0 + 1 and lowj and not k.jokers_ok):
            cap = k.cap[i] if k.cap[i] < need else need
            c = cap
            while c > 0:
                dc = x.defc[y][c]
                if dc <= b and not (c == 3 and i == k.forbid3):
                    if c == need:
                        p = _combo(x, p, v16_add(r, _ROWV[y][c]), v16_add(q, x.natv[y][c]), b - dc,
                                   room | x.rbit[y][c], two)
                    else:
                        p = _ak_solo(x, k, p, i + 1, need - c, v16_add(r, _ROWV[y][c]), v16_add(q, x.natv[y][c]),
                                     b - dc, room | x.rbit[y][c], lowj or y == JOKER0, two)
                    if _unlikely(p == NULL):
                        return NULL
                c -= 1
        i += 1


cdef unsigned char* _ak_pairs(Reader* x, const AKick* k, unsigned char* p, int i, int need, v16 r, v16 q,
                              int b, unsigned int room, bint two) noexcept nogil:
    # kick_pairs's `need` pairs of distinct ranks from candidates i.., as
    # _ak_solo (no joker is ever a pair)
    cdef int j, y, dc
    cdef unsigned int lm
    if need == 1:
        if i >= k.n:
            return p
        lm = k.cmask & ~((1u << k.y[i]) - 1)
        if b == 0:                    # (natural pairs only, each one reading)
            return _no_spare(x, p, r, q, lm & k.nat2, 2, two)
        for j in range(i, k.n):
            y = k.y[j]
            dc = x.defc[y][2]
            if dc > b:
                continue
            p = _combo(x, p, v16_add(r, _ROWV[y][2]), v16_add(q, x.natv[y][2]), b - dc, room | x.rbit[y][2], two)
            if _unlikely(p == NULL):
                return NULL
        return p
    for j in range(i, k.n - need + 1):
        y = k.y[j]
        dc = x.defc[y][2]
        if dc > b:
            continue
        p = _ak_pairs(x, k, p, j + 1, need - 1, v16_add(r, _ROWV[y][2]), v16_add(q, x.natv[y][2]), b - dc,
                      room | x.rbit[y][2], two)
        if _unlikely(p == NULL):
            return NULL
    return p


cdef bint _airplanes_long(Reader* x, const unsigned char* vt, const RulesC* r, int kind, int L, int rmin,
                          bint two) noexcept nogil:
    """_airplanes_direct for the airplanes of L >= 3 trios with
    attachments (kind), window by window from the top rank rmin (as
    _airplanes_kicked asks the kernel): gen_airplane_kick's kick_solo /
    kick_pairs over the virtual hand of the wild cards the window leaves,
    its caps (airplane_solo_distinct, airplane_bomb_kickers,
    airplane_adjacent_trio_kickers), no exactly three at the rank above the
    window (that reading lists under the higher window), the high joker
    never with the low one unless both_jokers_as_kickers.  Sets
    x.windows.  False when out of memory."""
    cdef AKick k
    cdef bint solo = kind == K_AIRPLANE_SOLO
    cdef int src = 1 if solo else 2
    cdef int w = x.w, e, s, d, b, y, cap, i
    cdef unsigned int cand, win, tops
    cdef const unsigned char* hv
    cdef unsigned char* p = x.p
    cdef v16 kindv = v16_words(0, (<u64>kind) << 56)
    if not x.tabs:
        _tables(x)
    if not x.sums:
        _sums(x)
    k.jokers_ok = r.both_jokers_as_kickers
    k.nat1 = _row_ge_mask(vt, 1)      # (vt: the virtual hand of no wild card, the natural one)
    k.nat2 = _row_ge_mask(vt, 2)
    x.windows = 0
    tops = _window_tops(x, 3, L, rmin)
    while tops:
        e = ctz(tops)
        tops &= tops - 1
        s = e - L + 1
        d = x.dsum[2][e + 1] - x.dsum[2][s]
        x.windows += 1
        b = w - d
        hv = vt + 16 * b
        win = ((1u << L) - 1) << s
        cand = _row_ge_mask(hv, src) & ~win
        k.cmask = cand
        k.n = 0
        k.forbid3 = -1
        while cand:
            y = ctz(cand)
            cand &= cand - 1
            cap = 1
            if solo:
                cap = _kicker_cap(hv[y], r, y, s, e)
                if _kicker_three_forbidden(r, y, e):
                    k.forbid3 = k.n
            k.y[k.n] = y
            k.cap[k.n] = cap
            k.n += 1
        k.suffix[k.n] = 0
        i = k.n - 1
        while i >= 0:
            k.suffix[i] = k.suffix[i + 1] + k.cap[i]
            i -= 1
        if k.suffix[0] < L:
            continue
        if solo:
            p = _ak_solo(x, &k, p, 0, L, v16_add(v16_sub(_RSUM[2][e + 1], _RSUM[2][s]), kindv),
                         v16_sub(x.qsum[2][e + 1], x.qsum[2][s]), b, x.rroom[2] & win, False, two)
        else:
            p = _ak_pairs(x, &k, p, 0, L, v16_add(v16_sub(_RSUM[2][e + 1], _RSUM[2][s]), kindv),
                          v16_sub(x.qsum[2][e + 1], x.qsum[2][s]), b, x.rroom[2] & win, two)
        if _unlikely(p == NULL):
            return False
    x.p = p
    return True


cdef inline bint _plain_direct(Reader* x, const unsigned char* vt, int kind, int L, int rmin,
                               bint two) noexcept nogil:
    """_kicked_direct for the kinds of one part (SOLO, PAIR, TRIO; CHAIN,
    PAIR_CHAIN, AIRPLANE of length L) with rank >= rmin, in the kernel's
    order (gen_same: by rank; gen_chain: by top rank): a rank or window is
    listed when the virtual hand of every wild card holds it, that is when
    its deficit is at most the wild cards.  A window's row, natural cards
    and deficit are differences of prefix sums.  False when out of
    memory."""
    cdef int c, y, e, w = x.w, need
    cdef v16 kindv = v16_words(0, (<u64>kind) << 56)
    cdef unsigned int m, room, win, tops
    cdef unsigned char* p = x.p
    if not x.tabs:
        _tables(x)
    if kind <= K_TRIO:
        if L != 1:
            return True
        c = kind                      # (the kind code is the card count)
        m = _row_ge_mask(vt + 16 * w, c) & ~((1u << rmin) - 1)
        if w == 0:
            p = _no_spare(x, p, kindv, v16_words(0, 0), m, c, two)
            if _unlikely(p == NULL):
                return False
            x.p = p
            return True
        if not two and w == 1:
            p = _one_spare(x, p, kindv, v16_words(0, 0), 0, m, c)
            if _unlikely(p == NULL):
                return False
            x.p = p
            return True
        while m:
            y = ctz(m)
            m &= m - 1
            p = _combo(x, p, v16_add(_ROWV[y][c], kindv), x.natv[y][c], w - x.defc[y][c], x.rbit[y][c], two)
            if _unlikely(p == NULL):
                return False
        x.p = p
        return True
    c = 1 if kind == K_CHAIN else (2 if kind == K_PAIR_CHAIN else 3)
    if not x.sums:
        _sums(x)
    if L < (5 if c == 1 else (3 if c == 2 else 2)) or L > ACE + 1:
        return True
    room = x.rroom[c - 1]
    x.windows = 0
    tops = _window_tops(x, c, L, rmin)
    while tops:
        e = ctz(tops)
        tops &= tops - 1
        need = x.dsum[c - 1][e + 1] - x.dsum[c - 1][e + 1 - L]
        x.windows += 1
        win = ((1u << L) - 1) << (e + 1 - L)
        p = _combo(x, p, v16_add(v16_sub(_RSUM[c - 1][e + 1], _RSUM[c - 1][e + 1 - L]), kindv),
                   v16_sub(x.qsum[c - 1][e + 1], x.qsum[c - 1][e + 1 - L]), w - need, room & win, two)
        if _unlikely(p == NULL):
            return False
    x.p = p
    return True


cdef bint _bombs_direct(Reader* x, const unsigned char* vt) noexcept nogil:
    """A lead's bombs and rocket with one wild rank and one deck, written
    straight to the output (what gen_bombs_beating lists and _read_bombs
    reads back): each rank 3..2 the wild cards make four of, ascending,
    its readings with k = 0.. of its a natural cards replaced (at most the
    wild cards its deficit leaves), each with its class (four wild cards of
    the wild rank: wild; four natural cards: hard; else soft);
    then the rocket when held.  False when out of memory."""
    cdef unsigned int m = _row_ge_mask(vt + 16 * x.w, 4) & 0x1FFFu
    cdef int y, a, need, kk, top
    cdef v16 r, kindv = v16_words(0, (<u64>K_BOMB) << 56)
    cdef v16 soft = v16_words(0, (<u64>CLS_SOFT) << 56)
    cdef unsigned char* p = x.p
    if _unlikely(p > x.end):          # (at most 13 bombs of 5 readings and the rocket: SLACK)
        if not _grow_rows(x):
            return False
        p = x.p
    while m:
        y = ctz(m)
        m &= m - 1
        a = x.nat[y] if x.nat[y] < 4 else 4
        need = 4 - a
        top = x.w - need
        top = top if top < a else a
        r = v16_add(_ROWV[y][4], kindv)
        # k = 0: every natural card it can take (as played when they are all)
        v16_store(p, r)
        v16_store(p + W_PHYS, v16_add(v16_add(_ROWV[y][a], x.gmul[need]), v16_words(0, (<u64>(
            CLS_WILD if (x.wmask >> y) & 1 else (CLS_HARD if need == 0 else CLS_SOFT))) << 56)))
        p += WROW
        for kk in range(1, top + 1):
            v16_store(p, r)
            v16_store(p + W_PHYS, v16_add(v16_add(_ROWV[y][a - kk], x.gmul[need + kk]), soft))
            p += WROW
    if x.nat[JOKER0] >= 1 and x.nat[JOKER0 + 1] >= 1:
        r = v16_add(_ROWV[JOKER0][1], _ROWV[JOKER0 + 1][1])
        v16_store(p, v16_add(r, v16_words(0, (<u64>K_ROCKET) << 56)))
        v16_store(p + W_PHYS, v16_add(r, v16_words(0, (<u64>CLS_ROCKET) << 56)))
        p += WROW
    x.p = p
    return True


cdef inline bint _flush(Out* cand, Reader* x) noexcept nogil:
    # Read back the combinations in cand and empty it; False when out of
    # memory.  (Inline: called before every kind written directly, most
    # often with nothing to read back.)
    return cand.n == 0 or _flush_rows(cand, x)


cdef bint _flush_rows(Out* cand, Reader* x) noexcept nogil:
    # _flush's read-back
    cdef Py_ssize_t i
    cdef bint ok = True
    if x.exact:                       # (classify: each reading has its test)
        for i in range(cand.n):
            if not _read_bombs(cand.data + i * ROW, x):
                ok = False
                break
    elif x.two:                       # (one copy of the read-back each)
        ok = _read_all(cand.data, cand.n, x, True)
    else:
        ok = _read_all(cand.data, cand.n, x, False)
    cand.n = 0
    return ok


cdef void _airplanes_kicked(const unsigned char* nat, const unsigned char* vt, int w, const RulesC* r, int kind,
                            int L, int rmin, Out* cand, Reader* rd) noexcept nogil:
    # The airplanes with attachments (kind, length L, top rank >= rmin) the
    # wild cards can make, window by window: the trios of the window from the
    # natural cards and the wild ones, the attachments from what the wild
    # cards left over can make, on a virtual hand of just that (the whole
    # virtual hand would offer every wild card to every attachment: most of
    # its airplanes cost more wild cards than the hand has; vt + 16 * b is
    # the virtual hand of b wild cards).  The kernel lists a combination
    # under its highest window only, so each is listed once, in rank order.
    cdef unsigned char hv[16]
    cdef int e, x, d
    cdef bint ok
    if L == 2 and not rd.exact:
        # two trios: read straight to the output (_airplanes_direct)
        if kind == K_AIRPLANE_SOLO and not r.solo_kickers:
            return
        if not _flush(cand, rd):
            cand.oom = True
            return
        ok = _airplanes_direct(rd, vt, r, kind, rmin, True) if rd.two else _airplanes_direct(
            rd, vt, r, kind, rmin, False)
        if not ok:
            cand.oom = True
        return
    if not rd.exact:
        # longer ones: read straight to the output too (_airplanes_long)
        if kind == K_AIRPLANE_SOLO and not r.solo_kickers:
            return
        if not _flush(cand, rd):
            cand.oom = True
            return
        ok = _airplanes_long(rd, vt, r, kind, L, rmin, True) if rd.two else _airplanes_long(
            rd, vt, r, kind, L, rmin, False)
        if not ok:
            cand.oom = True
        return
    # rd.dsum[2][x]: the wild cards the trios of ranks 0..x-1 need
    if not rd.tabs:
        _tables(rd)
    if not rd.sums:
        _sums(rd)
    rd.windows = 0
    for e in range(rmin if rmin > L - 1 else L - 1, ACE + 1):
        d = rd.dsum[2][e + 1] - rd.dsum[2][e - L + 1]
        if d > w:
            continue
        rd.windows += 1
        memcpy(hv, vt + 16 * (w - d), 16)
        for x in range(e - L + 1, e + 1):
            hv[x] = 3
        gen_airplanes_at(hv, r, kind, L, e, cand)
        if cand.oom:
            return


cdef void _main_kicked(const unsigned char* nat, const unsigned char* vt, int w, const RulesC* r, int kind, int L,
                       int rmin, Out* cand, Reader* rd) noexcept nogil:
    # The trios or fours with attachments (kind) the wild cards can make,
    # main rank by main rank (as _airplanes_kicked does window by window):
    # the main part from the natural cards and the wild ones, the
    # attachments from a virtual hand of what the wild cards left over can
    # make.  The kernel lists them by main rank, so the order is the list's.
    cdef unsigned char hv[16]
    cdef int size = 4 if kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR else 3, x, b
    cdef bint ok
    if not rd.exact:
        # (the same combinations in the same order, read straight to the
        # output once the combinations listed before them are)
        if L != 1 or (kind == K_TRIO_SOLO and not r.solo_kickers) or (
                size == 4 and not r.four_with_kickers):
            return
        if not _flush(cand, rd):
            cand.oom = True
            return
        ok = _kicked_direct(rd, vt, r, kind, rmin, True) if rd.two else _kicked_direct(rd, vt, r, kind, rmin,
                                                                                       False)
        if not ok:
            cand.oom = True
        return
    for x in range(rmin, JOKER0):
        b = w - (size - nat[x] if nat[x] < size else 0)
        if b < 0:
            continue
        memcpy(hv, vt + 16 * b, 16)
        hv[x] = <unsigned char>size
        gen_of_kind(hv, r, kind, L, x, True, cand)      # (lowest: the main rank x only)
        if cand.oom:
            return


cdef inline void _of_kind(const unsigned char* nat, const unsigned char* vt, int w, const RulesC* r,
                          int kind, int L, int rmin, Out* cand, Reader* rd) noexcept nogil:
    if kind == K_AIRPLANE_SOLO or kind == K_AIRPLANE_PAIR:
        _airplanes_kicked(nat, vt, w, r, kind, L, rmin, cand, rd)
    elif kind == K_TRIO_SOLO or kind == K_TRIO_PAIR or kind == K_FOUR_TWO_SOLO or kind == K_FOUR_TWO_PAIR:
        _main_kicked(nat, vt, w, r, kind, L, rmin, cand, rd)
    elif not rd.exact:
        # (read straight to the output once the combinations listed
        # before them are)
        if not _flush(cand, rd) or not (_plain_direct(rd, vt, kind, L, rmin, True) if rd.two else _plain_direct(
                rd, vt, kind, L, rmin, False)):
            cand.oom = True
    else:
        gen_of_kind(vt + 16 * w, r, kind, L, rmin, False, cand)


cdef void _candidates(const unsigned char* nat, const unsigned char* vt, int w, const RulesC* r,
                      const MoveInfo* last, Out* cand, Reader* rd) noexcept nogil:
    # The standard combinations the wild cards might make, in list order: a
    # lead's every kind and length, or PASS and the last move's kind and
    # length above its rank; then every bomb and the rocket (bomb classes
    # are compared once the cards are read back).  vt + 16 * b: the
    # virtual hand of the natural cards and b wild cards (see gen_wild).
    cdef int kind, L, lo, hi, x, cards = 0
    cdef unsigned char* p
    cdef const unsigned char* virt = vt + 16 * w
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
                rd.windows = 1
                _of_kind(nat, vt, w, r, kind, L, 0, cand, rd)
                if cand.oom:
                    return
                if rd.windows == 0:
                    break             # (no window of L: every longer one holds one)
    else:
        p = out_reserve(cand, 1)
        if _unlikely(p == NULL):
            return
        memset(p, 0, ROW)                                   # PASS
        cand.n += 1
        if last.kind == K_ROCKET:
            return
        if last.kind != K_BOMB:
            _of_kind(nat, vt, w, r, last.kind, last.length, last.rank + 1, cand, rd)
            if cand.oom:
                return
    if last == NULL and not rd.exact and not rd.two and r.max_count == 4 and r.max_joker == 1:
        if not _flush(cand, rd) or not _bombs_direct(rd, vt):
            cand.oom = True
        return
    gen_bombs_beating(virt, r, NULL, cand)


cdef void gen_wild(const unsigned char* h, const RulesC* r, unsigned int wmask,
                   const unsigned char* last, bint exact, Out* o) noexcept nogil:
    cdef unsigned char nat[16]
    cdef unsigned char vt[9][16]
    cdef unsigned char cbuf[CAND_ROWS * ROW]
    cdef int w = 0, x, wr0 = -1, wr1 = -1, t, lo
    cdef unsigned int m
    cdef v16 gv
    cdef Out cand
    cdef MoveInfo li
    cdef Reader rd
    memcpy(nat, h, 15)
    nat[15] = 255                     # (the kind byte of a row: no deficit; see _natural)
    m = wmask & ((1u << JOKER0) - 1)
    while m:                          # (the wild ranks, ascending)
        x = ctz(m)
        m &= m - 1
        w += h[x]
        nat[x] = 0
        if wr0 < 0:
            wr0 = x
        else:
            wr1 = x
    # the virtual hands: vt[b], the natural cards and b wild cards (each
    # rank 3..2 at most 4, the jokers as held), for b = 0..w
    _virtual_hands(nat, w, &vt[0][0])
    out_init_on(&cand, cbuf, CAND_ROWS)
    rd.nat = nat
    rd.w = w
    rd.wmask = wmask
    rd.two = wr1 >= 0
    rd.h0 = h[wr0] if wr0 >= 0 else 0
    rd.h1 = h[wr1] if wr1 >= 0 else 0
    _unit(wr0, &rd.e[0], &rd.e[1])
    _unit(wr1, &rd.f[0], &rd.f[1])
    rd.d[0] = rd.e[0] - rd.f[0]
    rd.d[1] = rd.e[1] - rd.f[1]
    rd.exact = exact
    # the bulk read-back's tables (see Reader)
    if rd.two:
        rd.g[0] = rd.f[0]
        rd.g[1] = rd.f[1]
    else:
        rd.g[0] = rd.e[0]
        rd.g[1] = rd.e[1]
    gv = v16_words(rd.g[0], rd.g[1])
    for x in range(JOKER0):
        rd.dtab[x] = v16_sub(_ROWV[x][1], gv)
    rd.dtab[JOKER0] = rd.dtab[JOKER0 + 1] = v16_words(0, 0)
    rd.dv = v16_words(rd.d[0], rd.d[1])
    for x in range(9):
        rd.gmul[x] = v16_words(<u64>x * rd.g[0], <u64>x * rd.g[1])
    for x in range(9):
        t = w - x                     # (wild cards played, x of them left)
        if x > w:
            rd.scnt[x] = 0
            rd.soff[x] = v16_words(0, 0)
        elif rd.two:
            lo = t - rd.h1 if t > rd.h1 else 0
            rd.scnt[x] = (rd.h0 if rd.h0 < t else t) - lo + 1
            rd.soff[x] = v16_words(<u64>lo * rd.d[0], <u64>lo * rd.d[1])
        else:
            rd.scnt[x] = 1
            rd.soff[x] = v16_words(0, 0)
    memcpy(&rd.hw[0], h, 8)
    memcpy(&rd.hw[1], h + 7, 8)
    rd.hw[1] >>= 8
    rd.last = NULL
    rd.lcls = CLS_NONE
    rd.o = o
    rd.p = o.data + o.n * ROW
    if o.n + SLACK + 1 <= o.cap:
        rd.end = o.data + (o.cap - SLACK - 1) * ROW
    elif not _grow_rows(&rd):
        o.oom = True
        return
    if last != NULL:
        row_info(last, &li)
        rd.last = &li
        rd.lcls = last[W_CLASS]
    rd.tabs = False
    rd.sums = False
    _candidates(nat, &vt[0][0], w, r, rd.last, &cand, &rd)
    if cand.oom or not _flush(&cand, &rd):
        o.oom = True
    else:
        o.n = (rd.p - o.data) // ROW
    if not cand.borrowed:
        free(cand.data)               # (it grew: a copy of its own)
