# Wild cards (docs/rules.md, "Wild cards"): moves read under one or two wild
# ranks, the combinations the wild cards could make listed as the standard
# kernels list them (their loops, or the kernels themselves) and read onto
# the physical cards.  No Python objects.
#
# A wild move row is 32 bytes (two 16-byte rows): bytes 0..15 are a standard
# row of the combination the cards are read as (represented counts and the
# kind byte), bytes 16..30 the physical counts leaving the hand, byte 31 the
# bomb class (CLS_*).  Standard rows keep their 16 bytes; only wild rules use
# these.
from .kernels cimport RulesC, MoveInfo, Out

cdef enum:
    WROW = 32                # bytes per wild move row
    W_PHYS = 16              # offset of the physical counts
    W_CLASS = 31             # offset of the bomb class

    # Bomb classes, in beating order (a higher class beats any lower one);
    # CLS_NONE for a move that is no bomb.
    CLS_NONE = 0
    CLS_SOFT = 1
    CLS_HARD = 2
    CLS_WILD = 3
    CLS_ROCKET = 4


# The bomb class of a represented combination (kind `kind`, counts rep) made
# with the physical cards phys, under the wild ranks in the mask wmask.
cdef int bomb_class(int kind, const unsigned char* rep, const unsigned char* phys,
                    unsigned int wmask) noexcept nogil

# Does a beat b (MoveInfo of the represented combinations and their classes)?
cdef bint beats_wild(const MoveInfo* a, int acls, const MoveInfo* b, int bcls) noexcept nogil

# The moves of hand h (one deck: at most 8 wild cards) under the wild ranks
# in wmask (one or two bits of ranks 0..12) as 32-byte rows into o (2 of o's 16-byte rows each; o.n counts
# 16-byte rows): every lead (last NULL), or PASS and every move beating the
# 32-byte row `last` (not PASS), in the documented order.  `exact`: keep only
# moves playing every card of h (the readings of h, for classify).
cdef void gen_wild(const unsigned char* h, const RulesC* r, unsigned int wmask,
                   const unsigned char* last, bint exact, Out* o) noexcept nogil
