# The compiled Move value type, shared by the reference engine and the kernels.

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


cdef class Move:
    # Invariants: c[] holds the move's cards; kind_ is a K_* code; rank_ is
    # the top rank of the highest reading (-1 for PASS); length_ the number of
    # primal groups (0 for PASS).  Immutable once made.
    cdef unsigned char c[15]
    cdef signed char kind_
    cdef signed char rank_
    cdef signed char length_
    cdef unsigned char ncards
    # Bit i set: this move is known legal under the rules with registry id i
    # (set when a kernel made it or a validation passed; saves re-validating).
    cdef public unsigned long long _valid_for
    cdef Py_hash_t hash_


cdef Move make_move(int kind, const unsigned char* counts, int rank, int length)
