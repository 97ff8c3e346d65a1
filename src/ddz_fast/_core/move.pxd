# The compiled Move value type, shared by the reference engine and the kernels.

# The kind codes live with the kernels' row format; re-exported here for the
# modules that cimport them together with Move.
from .kernels cimport (
    N_RANKS, N_KINDS, K_PASS, K_SOLO, K_PAIR, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR, K_CHAIN,
    K_PAIR_CHAIN, K_AIRPLANE, K_AIRPLANE_SOLO, K_AIRPLANE_PAIR, K_FOUR_TWO_SOLO,
    K_FOUR_TWO_PAIR, K_BOMB, K_ROCKET,
)


cdef class Move:
    # Invariants: c[] holds the counts of the combination the move is read
    # as, p[] the physical cards leaving the hand (equal but for a wild card
    # standing in for another rank); kind_ is a K_* code; rank_ is the top
    # rank of the highest reading (-1 for PASS); length_ the number of primal
    # groups (0 for PASS); cls_ the bomb class (CLS_* of _core/wild.pxd);
    # wmask_ the wild ranks it was read under (0: none).  Immutable once made.
    cdef unsigned char c[15]
    cdef unsigned char p[15]
    cdef unsigned char cls_
    cdef unsigned short wmask_
    cdef signed char kind_
    cdef signed char rank_
    cdef signed char length_
    cdef unsigned char ncards
    # Bit i set: this move is known legal under the rules with registry id i
    # (set when a kernel made it or a validation passed; saves re-validating).
    # Never visible from Python: the fast path trusts it.
    cdef unsigned long long valid_for
    cdef Py_hash_t hash_


cdef Move make_move(int kind, const unsigned char* counts, int rank, int length)
# A Move made from a 32-byte wild row (_core/wild.pxd) under the wild ranks
# in wmask (trusted legal under registry id `cid` with those wild ranks).
cdef Move wild_row_move(const unsigned char* row, int cid, unsigned int wmask)
# The bit mask of the wild ranks of ``wild=`` under `rules` (0: none; the
# checks of ddz_fast.cards.parse_wild).
cdef unsigned int wild_mask(object wild, object rules) except? 0xFFFFFFFF
# The wild ranks of a mask, ascending (wild_mask's inverse).
cdef tuple wild_ranks_of(unsigned int wmask)
# Every reading of the physical cards `c` under the wild ranks in wmask:
# one Move per (kind, represented counts), in list order.
cdef list wild_readings_of(const unsigned char* c, int cid, unsigned int wmask)
# A Move made from a kernel row (trusted legal under registry id `cid`).
cdef Move row_move(const unsigned char* row, int cid)
# Every reading of the cards `c` as a move under the rules of registry id
# `cid`: one Move per kind, in kind order (trusted legal under `cid`).
cdef list readings_of(const unsigned char* c, int cid)
