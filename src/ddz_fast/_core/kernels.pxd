# C-level move kernels: enumerate, classify and compare moves on raw count
# buffers.  No Python objects; every function here runs without the GIL.
#
# A move row is 16 bytes: counts of the 15 ranks in bytes 0..14 and the kind
# code (K_* below) in byte 15.  Rank and length are derived from the
# row when needed (row_info), so a generated move costs 16 bytes of output.

cdef enum:
    ROW = 16
    KIND_BYTE = 15

# Kind codes (byte 15 of a row; the values of ddz_fast.Kind).  Declared here,
# not in _core/move.pxd, so that the kernels depend on no extension type (_move
# re-exports them for the modules that cimport them from there).
cdef enum:
    N_RANKS = 15
    N_KINDS = 15
    K_PASS = 0
    K_SOLO = 1
    K_PAIR = 2
    K_TRIO = 3
    K_TRIO_SOLO = 4
    K_TRIO_PAIR = 5
    K_CHAIN = 6
    K_PAIR_CHAIN = 7
    K_AIRPLANE = 8
    K_AIRPLANE_SOLO = 9
    K_AIRPLANE_PAIR = 10
    K_FOUR_TWO_SOLO = 11
    K_FOUR_TWO_PAIR = 12
    K_BOMB = 13
    K_ROCKET = 14

# Rank masks of counts (shared by the generators and the action-id ranking,
# _ranks): a row or hand as two little-endian 64-bit words, bytes 0..7 and
# 8..14; bit r of a mask is rank r.
from libc.string cimport memcpy
from libc.stdint cimport int32_t
from .bits cimport ctz, top_bit

cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #error "ddz_fast's move kernels build rows in little-endian 64-bit words"
    #endif
    /* Ranks holding >= t cards of the counts in two words, with SSE2 (part
       of every x86-64): one byte compare and one movemask. */
    #if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
    #include <emmintrin.h>
    #define DDZ_HAVE_SSE2 1
    static inline unsigned int ddz_ge_mask_sse2(unsigned long long lo, unsigned long long hi, int t) {
        __m128i v = _mm_set_epi64x((long long)hi, (long long)lo);
        return (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8((char)(t - 1))));
    }
    /* the same of a 16-byte move row, loaded whole (its kind byte is no rank) */
    static inline unsigned int ddz_row_ge_mask_sse2(const unsigned char* row, int t) {
        __m128i v = _mm_loadu_si128((const __m128i*)row);
        return (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8((char)(t - 1)))) & 0x7FFFu;
    }
    #else
    #define DDZ_HAVE_SSE2 0
    static inline unsigned int ddz_ge_mask_sse2(unsigned long long lo, unsigned long long hi, int t) {
        (void)lo; (void)hi; (void)t; return 0;
    }
    static inline unsigned int ddz_row_ge_mask_sse2(const unsigned char* row, int t) {
        (void)row; (void)t; return 0;
    }
    #endif
    """
    bint HAVE_SSE2 "DDZ_HAVE_SSE2"
    unsigned int _ge_mask_sse2 "ddz_ge_mask_sse2"(unsigned long long lo, unsigned long long hi, int t) noexcept nogil
    unsigned int _row_ge_mask_sse2 "ddz_row_ge_mask_sse2"(const unsigned char* row, int t) noexcept nogil

ctypedef unsigned long long u64

cdef enum:
    ACE = 11                  # chains and airplanes use ranks 0..ACE
    CHAIN_RANKS = 0xFFF       # ranks 0..ACE: chains and airplanes
    BOMB_RANKS = 0x1FFF       # ranks 0..TWO: fours and bombs
    LOW_BIT = 1 << 13
    HIGH_BIT = 1 << 14
    MAX_T = 8                 # most cards of a rank (two decks)

cdef inline unsigned int _movemask(u64 x) noexcept nogil:
    # bit 7 of byte j -> bit j (the bits of distinct bytes never collide)
    return <unsigned int>((((x >> 7) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56)


cdef inline void _hand_words(const unsigned char* h, u64* lo, u64* hi) noexcept nogil:
    # the 15 counts as bytes 0..7 and 8..14 of two words
    memcpy(lo, h, 8)
    memcpy(hi, h + 7, 8)      # bytes 7..14 (a hand has 15 bytes, no 16th)
    hi[0] >>= 8


cdef inline void _row_words(const unsigned char* row, u64* lo, u64* hi) noexcept nogil:
    # _hand_words of a 16-byte move row: two aligned word loads (a row just
    # written as two words forwards to them; a load across the two would
    # stall), the kind byte masked off
    memcpy(lo, row, 8)
    memcpy(hi, row + 8, 8)
    hi[0] &= 0x00FFFFFFFFFFFFFFULL


cdef inline int _word_cards(u64 lo, u64 hi) noexcept nogil:
    # the sum of the counts in two words (any counts of a hand or row: the
    # total stays below 256, so the byte sums carry nowhere)
    return <int>((lo * 0x0101010101010101ULL) >> 56) + <int>((hi * 0x0101010101010101ULL) >> 56)


cdef inline unsigned int _ge_mask(u64 lo, u64 hi, int t) noexcept nogil:
    # Ranks holding >= t cards (t >= 1; hi's top byte is 0).  Without SSE2:
    # counts are <= 8, so adding 0x80 - t to each byte sets its top bit
    # exactly when the count is >= t, without carries between bytes.
    if HAVE_SSE2:
        return _ge_mask_sse2(lo, hi, t)
    cdef u64 add = (<u64>(0x80 - t)) * 0x0101010101010101ULL
    return _movemask((lo + add) & 0x8080808080808080ULL) | (
        _movemask((hi + add) & 0x0080808080808080ULL) << 8)


cdef inline unsigned int _row_ge_mask(const unsigned char* row, int t) noexcept nogil:
    # _ge_mask of a 16-byte move row (counts <= 8; byte 15, the kind, is
    # no rank): one 16-byte load with SSE2.
    cdef u64 lo, hi
    if HAVE_SSE2:
        return _row_ge_mask_sse2(row, t)
    memcpy(&lo, row, 8)
    memcpy(&hi, row + 8, 8)
    return _ge_mask(lo, hi & 0x00FFFFFFFFFFFFFFULL, t)


cdef inline unsigned int _windows(unsigned int m, int L) noexcept nogil:
    # Bottom ranks s of the windows s..s+L-1 within 0..ACE whose ranks are all in m.
    cdef unsigned int w = m & CHAIN_RANKS
    cdef int i
    for i in range(1, L):
        w &= (m & CHAIN_RANKS) >> i
    return w


cdef struct RulesC:
    # The deck, derived from Rules.decks (never from overridable properties).
    int id                       # registry id (0..1023) or -1
    int decks
    int max_count                # 4 * decks: most cards of one rank 3..2
    int max_joker                # decks: most cards of each joker
    int wild_ranks               # Rules.wild: 0, 1 (laizi) or 2 (tiandi) wild ranks per deal
    bint hard_x4                 # Rules.bomb_doubling == "hard_x4" (the game's scoring only)
    # The move options: exactly the bool fields of ddz_fast.rules.Rules, with
    # the same names (the registry fills them from a dict built from those
    # fields; test_rules checks that the two lists are equal).
    bint solo_kickers
    bint four_with_kickers
    bint airplane_solo_distinct
    bint four_two_solo_distinct
    bint both_jokers_as_kickers
    bint airplane_bomb_kickers           # may airplane singles hold >= 4 of a rank?
    bint airplane_adjacent_trio_kickers  # ... >= 3 of a rank next to the trios?


# The airplane single-kicker rules, for the standard kernel and the wild
# one's direct generator alike.
cdef inline int _kicker_cap(int held, const RulesC* r, int y, int s, int e) noexcept nogil:
    # Most single kickers of rank y, of which the hand holds `held`, on the
    # airplane with trios s..e.
    if r.airplane_solo_distinct:
        return 1
    # rlcard-style limits: no bomb among the singles, and at most two cards
    # of a rank next to the window (three would make a second reading; a 2
    # is never next to it).
    if not r.airplane_bomb_kickers and held > 3:
        held = 3
    if not r.airplane_adjacent_trio_kickers and held > 2 and (y == s - 1 or (y == e + 1 and y <= ACE)):
        held = 2
    return held


cdef inline bint _kicker_three_forbidden(const RulesC* r, int y, int e) noexcept nogil:
    # Exactly three single kickers of rank y on the airplane ending at e
    # would read as a longer airplane (a higher reading of the same cards).
    return y == e + 1 and y <= ACE and not r.airplane_solo_distinct


cdef struct MoveInfo:
    int kind
    int rank
    int length
    int ncards

cdef struct IdTables:
    # The action ids of a space (filled by _ranks.MoveRanks), for the id mode
    # of the generators: the commonest moves' ids read off the masks the
    # generator has anyway, instead of a row ranked again afterwards.
    const int32_t* base          # [kind][length][lowest rank], 15 x 16 x 16; -1: none
    const int32_t* head          # [kind - TRIO_SOLO][trio][kicker], 2 x 15 x 15
    const int32_t* four          # [kind - FOUR_TWO_SOLO][four][a * 15 + b], 2 x 15 x 225
    # [kind - AIRPLANE_SOLO][s]: the ids of the two-trio airplanes of window
    # s..s+1, with kickers a <= b at [a * 15 + b]; NULL: none
    const int32_t* two[2][16]

cdef struct IdSink:
    # Where the id mode writes: the ids of the moves it took over from rows.
    const IdTables* t
    int32_t* data
    Py_ssize_t n, cap
    bint borrowed                # data is the caller's memory
    bint oom

cdef struct Out:
    unsigned char* data          # ROW bytes per move; NULL in count-only mode
    Py_ssize_t n                 # moves written (or counted)
    Py_ssize_t cap               # capacity in moves
    bint count_only
    bint oom                     # set when growing the buffer failed
    bint borrowed                # data is the caller's memory (never freed or realloc'd)
    # Id mode (NULL: off): the moves whose ids the generators know are
    # written there as ids, the others as rows here; the order of moves is
    # then not the move-list order (a mask needs none).
    IdSink* ids

cdef bint out_init(Out* o, Py_ssize_t cap, bint count_only) noexcept nogil
# An Out over the caller's buffer of `cap` rows (a stack buffer: no malloc for
# the common case); growing past it moves the rows to malloc'd memory.
cdef void out_init_on(Out* o, unsigned char* buf, Py_ssize_t cap) noexcept nogil
cdef void out_free(Out* o) noexcept nogil
# out_init for a batch expected to write about `expect` rows: it may start on
# the block of a large buffer freed before (see release_rows).
cdef bint out_init_batch(Out* o, Py_ssize_t cap, Py_ssize_t expect) noexcept nogil
# Room for k more rows after o.n (grown as needed): where to write them;
# NULL when out of memory (o.oom set).  The caller then adds what it wrote to o.n.
cdef unsigned char* out_reserve(Out* o, Py_ssize_t k) noexcept nogil
# Free a row buffer of `cap` rows; a large one is kept for the next batch.
cdef void release_rows(unsigned char* data, Py_ssize_t cap) noexcept nogil
cdef void gen_lead(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil
cdef void gen_response(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil
cdef void gen_moves(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil
# The moves of h of one ordinary kind (not PASS, BOMB or ROCKET) and one
# length with rank >= rmin, in list order (by rank, then attachments): the
# part of a response of that kind, or of a lead, that a caller who wants
# only some moves (the simple bot) needs, without the rest of the list.
# `lowest`: of a kind of one main rank (not a sequence), only the moves of
# the lowest main rank >= rmin.  (o must not be count-only.)
cdef void gen_of_kind(const unsigned char* h, const RulesC* r, int kind, int length, int rmin,
                      bint lowest, Out* o) noexcept nogil
# The airplanes with attachments (kind AIRPLANE_SOLO or AIRPLANE_PAIR) of h
# whose trios are the window of `length` ranks up to `top` (top >= length - 1),
# in list order: those a lead lists for that window (each combination is
# listed under its highest window only, so these are exactly the lead's
# moves of that kind, length and rank).
cdef void gen_airplanes_at(const unsigned char* h, const RulesC* r, int kind, int length, int top,
                           Out* o) noexcept nogil
# The bombs and the rocket of h that beat `last` (NULL: every one), in list
# order: the end of the list of a lead or a response.
cdef void gen_bombs_beating(const unsigned char* h, const RulesC* r, const MoveInfo* last,
                            Out* o) noexcept nogil
# How many rows gen_moves would write (PASS included in responses), in closed form.
cdef Py_ssize_t count_moves_c(const unsigned char* h, const RulesC* r, const MoveInfo* last) noexcept nogil
cdef int classify_c(const unsigned char* c, const RulesC* r, MoveInfo* infos) noexcept nogil
cdef bint beats_c(const MoveInfo* a, const MoveInfo* b) noexcept nogil
cdef bint valid_move_c(const unsigned char* row, const RulesC* r, MoveInfo* mi) noexcept nogil


# Top rank of the highest window of L consecutive ranks within 0..ACE that
# all hold exactly three cards, or -1 (row_info reads an airplane with it).
cdef int _top_trio_window(const unsigned char* c, int L) noexcept nogil


cdef inline void row_info(const unsigned char* row, MoveInfo* mi) noexcept nogil:
    """Rank, length and size of a row that holds a legal move of its kind.
    (Inline: the solver calls it on every move it generates.)"""
    cdef int kind = row[KIND_BYTE]
    cdef int n, x, top
    cdef u64 lo, hi
    cdef unsigned int held
    _row_words(row, &lo, &hi)
    n = _word_cards(lo, hi)
    held = _ge_mask(lo, hi, 1)
    top = top_bit(held) if held else -1
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
