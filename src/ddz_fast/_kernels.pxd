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
# not in _move.pxd, so that the kernels depend on no extension type (_move
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

# Every byte of a move row is below 16, so a row packs into one 64-bit key:
# byte j in bits 4j..4j+3 (the 15 counts in bits 0..59, the kind in 60..63).
# Shared by the id tables (_lookup) and MoveList.card_lists.
cdef enum:
    CARD_KEY_BITS = 60

cdef inline unsigned long long pack_row(const unsigned char* row) noexcept nogil:
    cdef unsigned long long key = 0
    cdef int j
    for j in range(ROW):
        key |= (<unsigned long long>row[j]) << (4 * j)
    return key


cdef inline unsigned long long key_hash(unsigned long long key) noexcept nogil:
    # Fibonacci hashing (key * 2^64 / golden ratio): use the top bits.
    return key * <unsigned long long>0x9E3779B97F4A7C15


cdef struct RulesC:
    # The deck, derived from Rules.decks (never from overridable properties).
    int id                       # registry id (0..255) or -1
    int decks
    int max_count                # 4 * decks: most cards of one rank 3..2
    int max_joker                # decks: most cards of each joker
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

cdef struct MoveInfo:
    int kind
    int rank
    int length
    int ncards

cdef struct Out:
    unsigned char* data          # ROW bytes per move; NULL in count-only mode
    Py_ssize_t n                 # moves written (or counted)
    Py_ssize_t cap               # capacity in moves
    bint count_only
    bint oom                     # set when growing the buffer failed

cdef bint out_init(Out* o, Py_ssize_t cap, bint count_only) noexcept nogil
cdef void out_free(Out* o) noexcept nogil
cdef void gen_lead(const unsigned char* h, const RulesC* r, Out* o) noexcept nogil
cdef void gen_response(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil
cdef void gen_moves(const unsigned char* h, const RulesC* r, const MoveInfo* last, Out* o) noexcept nogil
# How many rows gen_moves would write (PASS included in responses), in closed form.
cdef Py_ssize_t count_moves_c(const unsigned char* h, const RulesC* r, const MoveInfo* last) noexcept nogil
cdef void row_info(const unsigned char* row, MoveInfo* mi) noexcept nogil
cdef int classify_c(const unsigned char* c, const RulesC* r, MoveInfo* infos) noexcept nogil
cdef bint beats_c(const MoveInfo* a, const MoveInfo* b) noexcept nogil
cdef bint valid_move_c(const unsigned char* row, const RulesC* r, MoveInfo* mi) noexcept nogil
