# cython: language_level=3
"""The compiled perfect-information solver (see ddz_fast.solver for the API).
Under wild cards the same search plays gen_wild's moves (Beat, above search).

A position is every seat's hand, the seat to move, the move on the table (as
its MoveInfo: kind, rank, length, and size for a bomb -- the cards of a move
that was played no longer matter) and the seat that made it.  Every seat
belongs to one of two sides; a seat that empties its hand wins for its side.
The game tree has no cycles (a round of passes ends with a lead, and every
lead plays cards), so a plain depth-first AND/OR search is exact:

    wins(p) = any move m of p such that
              (m empties p's hand) or
              (the seat after m is on p's side and wins) or
              (the seat after m is on the other side and does not win)

Values are booleans, so a node stops at its first winning move (the
alpha-beta cut of a win/loss game) and every value stored in the
transposition table is exact.  The table holds whole keys (no false hits):
one 60-bit word per hand (4 bits a rank, the ranks renumbered so that
positions equal but for which ranks are held share an entry) and one word
for the rest.  Besides the table: a move that empties the hand, or that
nobody on the other side can beat and leaves one move in hand, wins
without a search below it; a seat whose only move is PASS is passed over
(the position is worth the one after the pass); moves are tried in the
order of how few plays the rest of the hand needs (min_plays).

A position comes as C data (_Position, Root): from counts the Python side
checked, or straight from a Game's GState (solve_game, and solve_worlds for
Game.solve_values, which solves every world in one call).  Whose turn it is
after a move or a pass is the engine's one rule, turn_after (_engine.pxd).

Only this module's own buffers are touched inside the search, which runs
without the GIL; an _Engine is used by one search at a time (its lock).
"""
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memcmp, memcpy, memset
from cpython.pythread cimport (
    PyThread_type_lock, PyThread_allocate_lock, PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK,
)

import threading

import numpy as np

from .._engine.engine cimport GState, PH_PLAY, LAST_NONE, turn_after, gs_last_row
from .._engine.game cimport game_state, checked_worlds, checked_move_rows
from ..game_values import Phase
from .._core.move cimport make_move, wild_row_move, K_PASS, K_SOLO, K_PAIR, K_BOMB, K_ROCKET, K_CHAIN, K_AIRPLANE_PAIR
from .._core.kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, N_KINDS, out_init, out_init_on, out_free, gen_moves, row_info,
    valid_move_c, classify_c, count_moves_c,
)
from .._core.entry cimport rules_c, rules_by_id
from .._core.wild cimport WROW, W_PHYS, W_CLASS, gen_wild
from .._core.bits cimport ctz64, top_bit64, pack_hand
from .._util.interrupt cimport Interrupt, Stop, stop_requested, ddz_now, ddz_load, ddz_store

__all__ = ["_Engine", "_RootShare", "_Position", "MAX_SEATS", "solve_worlds", "next_turn"]

MAX_SEATS = 4

cdef extern from *:
    """
    /* 1 when this call set *p from 0 to 1 (it claimed it), 0 when it was set */
    #if defined(_WIN32)
    static int ddz_claim(volatile long* p) { return InterlockedExchange(p, 1) == 0; }
    #else
    static int ddz_claim(volatile long* p) { return __atomic_exchange_n(p, 1, __ATOMIC_ACQ_REL) == 0; }
    #endif
    /* bits set in x, which has bits only at 4j (15 nibbles at most) */
    static int ddz_nib_count(unsigned long long x) {
        return (int)((x * 0x1111111111111111ULL) >> 60);
    }
    """
    int ddz_nib_count(unsigned long long x) noexcept nogil
    int ddz_claim(volatile long* p) noexcept nogil


cdef enum:
    NSEATS = 4
    RK_SLOTS = 512              # rank_key's memo (a power of two)
    BUCKET = 4                  # entries per table bucket
    # a table starts this small (384-640 KiB, zeroed in microseconds) and
    # doubles when 3/4 full; each doubling rescans every entry (from 512
    # buckets, three doublings were ~10% of a 3 ms solve)
    FIRST_BUCKETS = 4096
    # nodes between clock / stop-flag checks (a mask: a thread stops within
    # ~0.1 ms of the answer)
    CHECK_EVERY = 255
    # why a search stopped early (Ctx.aborted)
    AB_NONE = 0
    AB_NODES = 1
    AB_TIME = 2
    AB_MEMORY = 3
    AB_STOPPED = 4              # another thread found the root's answer
    AB_INTERRUPTED = 5          # a signal handler raised (Ctrl-C): the caller raises it

# A table entry is its key (rank_key: one word per hand, ranks renumbered)
# and a last word:
#   bits 0-3 kind of the move to beat (0: a lead), 4-7 its renumbered rank,
#   8-11 its length, 12-15 its size when a bomb, 16-18 seat to move,
#   19-21 seat that made the move to beat + 1, 22 occupied,
#   23 value (the side of the seat to move wins), 24-29 log2 of the
#   subtree's node count (the replacement priority), 30 some hand can still
#   make a chain (the renumbering kept empty slots), 32-63 the table's tag
#   (Ctx.live): an entry of another tag is empty.
cdef extern from *:
    """
    #define DDZ_CHAINS_BIT (1ULL << 30)
    #define DDZ_KEY_MASK (((1ULL << 22) - 1) | DDZ_CHAINS_BIT)
    #define DDZ_OCCUPIED (1ULL << 22)
    #define DDZ_VALUE_BIT (1ULL << 23)
    #define DDZ_WORK_SHIFT 24
    #define DDZ_TAG_MASK 0xFFFFFFFF00000000ULL
    """
    unsigned long long KEY_MASK "DDZ_KEY_MASK"
    unsigned long long CHAINS_BIT "DDZ_CHAINS_BIT"
    unsigned long long OCCUPIED "DDZ_OCCUPIED"
    unsigned long long VALUE_BIT "DDZ_VALUE_BIT"
    int WORK_SHIFT "DDZ_WORK_SHIFT"
    unsigned long long TAG_MASK "DDZ_TAG_MASK"


cdef struct Ply:
    Out out                     # the moves generated at this depth
    int* order                  # indices of the moves to try, best first
    int* score
    int* slot                   # each allowed move's row in out ...
    MoveInfo* info              # ... its kind, rank, length, size ...
    unsigned long long* packed  # ... and its counts packed (pack_hand)
    Py_ssize_t cap              # capacity of the five
    int chains                  # 0: no hand of this depth's position can make a chain


cdef struct Ctx:
    int n                       # seats (2..4)
    int side[4]                 # side of each seat (0 or 1)
    const RulesC* r
    unsigned int ban            # bit k set: moves of kind k are not allowed
    unsigned char hand[4][16]   # the hands, changed in place while searching (byte 15: 0)
    int total[4]                # cards in each hand
    # transposition table: nbuckets * BUCKET entries of W words
    unsigned long long* tt
    size_t tt_cap               # bytes of the block tt points into (>= the table now)
    size_t nbuckets             # buckets now (a power of two) ...
    size_t max_nbuckets         # ... doubled up to this (the size limit)
    size_t nstored              # occupied entries
    int W
    unsigned long long hw[4]    # the hands packed (pack_hand), kept in step
    # rank_key's renumbering of a set of ranks held (and whether a chain
    # can be made), memoised: the set's tag (held | chains << 63), the
    # nibbles of the ranks held and the nibbles they move to (move_nibbles).
    # (A search goes up and down between a few sets, and the renumbering of
    # one depends on nothing else; an all-zero entry is right for its tag.)
    unsigned long long rk_memo[RK_SLOTS][3]
    # limits and counters
    long long nodes
    long long max_nodes         # 0: none
    double deadline             # 0: none
    int aborted
    volatile int* stop          # shared by the threads of one root, or NULL
    Interrupt* intr             # the call's Stop (Ctrl-C), shared by its threads
    # per-depth buffers
    Ply* plies
    int nplies
    int history[2][512]         # cut-off counts per side and move hash
    # fewest plays that empty a hand alone (move ordering): memo and buffers
    unsigned long long* mp_keys  # packed hand + 1 (0: empty slot)
    unsigned char* mp_vals
    size_t mp_cap               # a power of two
    size_t mp_n
    Out* mp_out                 # one per recursion depth
    int mp_depth
    # clears_leading's memo: CL_SLOTS entries of n + 1 words (the hand, the
    # other side's hands in their seats' words, then p + 1 | budget << 4 |
    # value << 8), direct-mapped, replaced on a clash
    unsigned long long* cl_memo
    size_t cl_cap               # bytes of cl_memo's block
    # (last: the standard search's fields keep their places)
    unsigned int wmask          # the wild ranks (bit r: rank r; 0: no wild cards, the standard search)
    # the tag of the table's and clears_leading memo's live entries (bits
    # 32-63 of an entry's last word; live_tag): a new table or memo takes a
    # new tag instead of being zeroed, so the entries of earlier ones in its
    # block read as empty
    unsigned long long live


cdef extern from *:
    """
    #include <string.h>
    /* dst = h - row over the 15 counts, a word at a time (dst and h are
       16-byte hands, byte 15 zero; row is a 16-byte row, byte 15 its kind;
       no borrows: every count of row is <= h's) */
    static void ddz_sub_row(unsigned char* dst, const unsigned char* h, const unsigned char* row) {
        unsigned long long a, b, x, y;
        memcpy(&a, h, 8);
        memcpy(&b, h + 8, 8);
        memcpy(&x, row, 8);
        memcpy(&y, row + 8, 8);
        a -= x;
        b -= y & 0x00FFFFFFFFFFFFFFULL;
        memcpy(dst, &a, 8);
        memcpy(dst + 8, &b, 8);
    }
    static void ddz_add_row(unsigned char* h, const unsigned char* row) {
        unsigned long long a, b, x, y;
        memcpy(&a, h, 8);
        memcpy(&b, h + 8, 8);
        memcpy(&x, row, 8);
        memcpy(&y, row + 8, 8);
        a += x;
        b += y & 0x00FFFFFFFFFFFFFFULL;
        memcpy(h, &a, 8);
        memcpy(h + 8, &b, 8);
    }
    """
    void sub_row "ddz_sub_row"(unsigned char* dst, const unsigned char* h, const unsigned char* row) noexcept nogil
    void add_row "ddz_add_row"(unsigned char* h, const unsigned char* row) noexcept nogil


cdef extern from *:
    """
    /* The nibbles of x under mask `from` moved, in order, to the nibbles of
       mask `to` by one PEXT/PDEP pair, for move_nibbles on CPUs that have
       fast ones (ddz_fast_bmi2, checked at run time: not the first two Zen
       generations, whose PDEP is microcoded; elsewhere move_nibbles moves
       the nibbles one by one and this is never called). */
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    #include <immintrin.h>
    __attribute__((target("bmi2")))
    static unsigned long long ddz_pdep_pext(unsigned long long x, unsigned long long from,
                                            unsigned long long to) {
        return _pdep_u64(_pext_u64(x, from), to);
    }
    static int ddz_fast_bmi2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1")
               && !__builtin_cpu_is("znver2");
    }
    #else
    static unsigned long long ddz_pdep_pext(unsigned long long x, unsigned long long from,
                                            unsigned long long to) { return 0; }
    static int ddz_fast_bmi2(void) { return 0; }
    #endif
    """
    unsigned long long ddz_pdep_pext(unsigned long long x, unsigned long long frm,
                                     unsigned long long to) noexcept nogil
    int ddz_fast_bmi2() noexcept nogil

cdef bint FAST_BMI2 = ddz_fast_bmi2()


def _use_pext(bint on):
    """(For tests.)  Let rank_key move nibbles by PEXT/PDEP where the CPU
    has fast ones (on) or always by the portable loop (off); returns the
    setting before.  Not while a search runs."""
    global FAST_BMI2
    cdef bint was = FAST_BMI2
    FAST_BMI2 = on and ddz_fast_bmi2()
    return was


cdef inline unsigned long long move_nibbles(unsigned long long x, unsigned long long frm,
                                            unsigned long long to) noexcept nogil:
    # The nibbles of x under mask frm, in order, to the nibbles of mask to
    # (as many; x is zero in frm's gaps)
    cdef unsigned long long w = 0
    cdef int i, j
    if FAST_BMI2:
        return ddz_pdep_pext(x, frm, to)
    while frm:
        i = ctz64(frm)
        j = ctz64(to)
        w |= ((x >> i) & 15) << j
        frm &= ~((<unsigned long long>15) << i)
        to &= ~((<unsigned long long>15) << j)
    return w


cdef extern from *:
    """
    #define DDZ_NIB 0x0111111111111111ULL        /* the low bit of each of 15 nibbles */
    #define DDZ_NIB_CHAIN 0x0000111111111111ULL  /* ... of ranks 0..ACE */
    #define DDZ_NIB_PLAIN 0x0001111111111111ULL  /* ... of ranks 0..TWO */
    #define DDZ_JOKER_NIBS 0x0FF0000000000000ULL
    """
    unsigned long long NIB "DDZ_NIB"
    unsigned long long NIB_CHAIN "DDZ_NIB_CHAIN"
    unsigned long long NIB_PLAIN "DDZ_NIB_PLAIN"
    unsigned long long JOKER_NIBS "DDZ_JOKER_NIBS"


cdef inline unsigned long long nib_ge1(unsigned long long x) noexcept nogil:
    # bit 4j set when nibble j (a rank's count) is >= 1; likewise >= 2, >= 3
    return (x | (x >> 1) | (x >> 2) | (x >> 3)) & NIB


cdef inline unsigned long long nib_ge2(unsigned long long x) noexcept nogil:
    return ((x >> 1) | (x >> 2) | (x >> 3)) & NIB


cdef inline unsigned long long nib_ge3(unsigned long long x) noexcept nogil:
    return ((x >> 2) | (x >> 3) | (x & (x >> 1))) & NIB


cdef inline int nib_sum(unsigned long long x) noexcept nogil:
    # the sum of the 16 nibbles of x (cards of a packed hand)
    x = (x & <unsigned long long>0x0F0F0F0F0F0F0F0F) + ((x >> 4) & <unsigned long long>0x0F0F0F0F0F0F0F0F)
    return <int>((x * <unsigned long long>0x0101010101010101) >> 56)


cdef inline int rank_key(Ctx* c, const MoveInfo* last, int p, int last_by, unsigned long long* key,
                         bint may_chain) noexcept nogil:
    """The table key of a position: every hand, the seat to move, the move
    to beat and who made it -- with the ranks renumbered, since only their
    order and which are next to each other matter.  Ranks nobody holds drop
    out: a run of them among 3..A leaves one empty slot when it parts ranks
    held (a chain cannot cross it), none at the bottom; the 2 and the jokers
    keep their places.  When no hand can ever make a chain (5 singles, 3
    pairs or 2 trios in a row; hands only shrink), no empty slot is kept and
    the 2 is renumbered too (may_chain false: the caller knows no hand can;
    returns whether some hand can).  The rank of the move to beat becomes how many
    ranks held are not above it (a joker's is kept); every answer to it is
    decided by that.  So positions equal up to renumbering share an entry."""
    cdef unsigned long long held = 0, chains = 0, x, s1, s2, s3, w, m, tag, run
    cdef unsigned long long* rk
    cdef int i, j, _seat, slot = 0
    for i in range(c.n):
        x = c.hw[i]
        s1 = nib_ge1(x)
        held |= s1
        if may_chain:
            s1 &= NIB_CHAIN
            s2 = nib_ge2(x) & NIB_CHAIN
            s3 = nib_ge3(x) & NIB_CHAIN
            chains |= ((s1 & (s1 >> 4) & (s1 >> 8) & (s1 >> 12) & (s1 >> 16))
                       | (s2 & (s2 >> 4) & (s2 >> 8)) | (s3 & (s3 >> 4)))
    held &= NIB_PLAIN
    chains = chains != 0
    tag = held | (chains << 63)
    rk = c.rk_memo[(tag * <unsigned long long>0x9E3779B97F4A7C15) >> 55]   # (9 bits: RK_SLOTS)
    if rk[0] != tag:
        # runs of ranks held, lowest first: each moves down as a block, one
        # empty slot between two when chains are possible (none at the
        # bottom); then the 2, in place
        rk[0] = tag
        rk[1] = 0
        rk[2] = 0
        x = held & (NIB_CHAIN if chains else NIB_PLAIN)
        while x:
            i = ctz64(x)
            j = ctz64(~(x >> i) & NIB)            # 4 * the run's length
            if chains and rk[1]:
                slot += 4
            run = ((<unsigned long long>1) << j) - 1
            rk[1] |= run << i
            rk[2] |= run << slot
            x &= ~(run << i)
            slot += j
        if chains and (held >> 48) & 1:
            rk[1] |= (<unsigned long long>15) << 48
            rk[2] |= (<unsigned long long>15) << 48
    for i in range(c.n):
        x = c.hw[i]
        key[i] = x if rk[1] == rk[2] else (x & JOKER_NIBS) | move_nibbles(x, rk[1], rk[2])
    m = ((<unsigned long long>p) << 16) | ((<unsigned long long>(last_by + 1)) << 19)
    if chains:
        m |= CHAINS_BIT
    if last != NULL:
        m |= <unsigned long long>last.kind
        m |= (<unsigned long long>last.length) << 8
        if last.kind == K_BOMB:
            m |= (<unsigned long long>last.ncards) << 12
        if last.rank >= 13:
            m |= (<unsigned long long>(last.rank + 1)) << 4          # 14, 15: a joker
        elif chains or not (K_CHAIN <= last.kind <= K_AIRPLANE_PAIR):
            # (with no chain possible, only a bomb answers a chain: rank 0)
            # Counted among the ranks of the seats that may answer it before
            # it comes back to its maker: every answer starts at one of them.
            w = 0
            i = p
            for _seat in range(c.n):
                w |= nib_ge1(c.hw[i])
                i += 1
                if i == c.n:
                    i = 0
                if i == last_by:
                    break
            w &= held & ((<unsigned long long>1 << (4 * last.rank + 4)) - 1)
            m |= (<unsigned long long>ddz_nib_count(w)) << 4           # 0..13
    key[c.n] = m
    return <int>chains


cdef inline unsigned long long mix(unsigned long long x) noexcept nogil:
    # splitmix64's finaliser
    x ^= x >> 30
    x *= <unsigned long long>0xBF58476D1CE4E5B9
    x ^= x >> 27
    x *= <unsigned long long>0x94D049BB133111EB
    x ^= x >> 31
    return x


cdef inline unsigned int row_hash(const unsigned char* row) noexcept nogil:
    # 9 bits of the row's 16 bytes (read as two words)
    cdef unsigned long long lo, hi
    memcpy(&lo, row, 8)
    memcpy(&hi, row + 8, 8)
    return <unsigned int>(((lo * <unsigned long long>0x9E3779B97F4A7C15) ^ hi)
                          * <unsigned long long>0xBF58476D1CE4E5B9 >> 55)


cdef inline int log2_work(long long n) noexcept nogil:
    # floor(log2(n)), 0 for n <= 1
    return top_bit64(<unsigned long long>n) if n > 1 else 0


cdef unsigned long long _HASH_MUL[4]
_HASH_MUL[0] = 0xBF58476D1CE4E5B9
_HASH_MUL[1] = 0x94D049BB133111EB
_HASH_MUL[2] = 0xD6E8FEB86659FD93
_HASH_MUL[3] = 0xC2B2AE3D27D4EB4F


cdef inline unsigned long long tt_hash(Ctx* c, const unsigned long long* key) noexcept nogil:
    # (an entry begins with its key, so this hashes stored entries too)
    # (the words multiplied by distinct odd constants, independently, and
    # one finaliser: a chain of one mix per word was ~3% of the solver)
    cdef unsigned long long h = (key[c.n] & KEY_MASK) * <unsigned long long>0x9E3779B97F4A7C15
    cdef int i
    for i in range(c.n):
        h ^= key[i] * _HASH_MUL[i]
    return mix(h)


cdef inline unsigned long long* tt_bucket(Ctx* c, unsigned long long h) noexcept nogil:
    # the bucket of hash h (tt_hash) in the table as it is now
    return c.tt + (h & (c.nbuckets - 1)) * (BUCKET * c.W)


# Blocks freed by engines, kept for the next ones (solve() makes a fresh
# engine per call): a block of a few hundred KiB that goes back to the
# system costs a page fault per 4 KiB page when the next table or memo
# touches it again (~8% of a 4 ms solve).  The contents are not reused:
# the table and the memo that take a block take a new tag (live_tag), so
# what their block held reads as empty.  Blocks over POOL_MAX_BYTES are freed.
cdef enum:
    POOL_SLOTS = 4

cdef size_t POOL_MAX_BYTES = 64 << 20
cdef void* _pool_ptr[POOL_SLOTS]
cdef size_t _pool_cap[POOL_SLOTS]
cdef PyThread_type_lock _pool_lock = PyThread_allocate_lock()
if _pool_lock == NULL:
    raise MemoryError()
cdef unsigned long long _last_tag = 0     # the last tag handed out (under _pool_lock)
cdef bint _tags_wrapped = False         # they ran out once: pool_take zeroes every block since


cdef unsigned long long live_tag() noexcept nogil:
    """A tag for a new table and memo (Ctx.live).  Bit 63 is set in every
    tag, never in the other words of an entry (a packed hand uses bits
    0..59; a key's last word bits 0..30), and a block is written only with
    whole entries or zeroed: so in the block a new table takes, zeros, the
    entries of earlier tags, and words of an earlier use with another entry
    size all read as empty.  After 2^31 tags they start again, and from then
    on pool_take zeroes what it hands out (a kept block may hold a tag
    given again)."""
    global _last_tag, _tags_wrapped
    cdef unsigned long long t
    PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
    _last_tag += 1
    if _last_tag >= (<unsigned long long>1 << 31):
        _last_tag = 1
        _tags_wrapped = True
    t = _last_tag
    PyThread_release_lock(_pool_lock)
    return (t | (<unsigned long long>1 << 31)) << 32


def _set_tags(unsigned long long last, bint wrapped):
    """(For tests) Set the last tag handed out (below 2^31) and whether the
    tags ran out; returns what they were."""
    global _last_tag, _tags_wrapped
    if last >= (<unsigned long long>1 << 31):
        raise ValueError("the last tag must be below 2**31")
    PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
    was = (_last_tag, _tags_wrapped)
    _last_tag = last
    _tags_wrapped = wrapped
    PyThread_release_lock(_pool_lock)
    return was


cdef void* pool_take(size_t size, bint largest, size_t* cap) noexcept nogil:
    """A block of at least size bytes (its capacity in cap): a kept one (the
    largest, or the smallest that fits; as it was, see live_tag) or a new
    one (zeroed); NULL when out of memory."""
    cdef int i, k = -1
    cdef void* x = NULL
    cdef bint zero
    PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
    zero = _tags_wrapped
    for i in range(POOL_SLOTS):
        if _pool_ptr[i] != NULL and _pool_cap[i] >= size and (
                k < 0 or (_pool_cap[i] > _pool_cap[k]) == largest):
            k = i
    if k >= 0:
        x = _pool_ptr[k]
        cap[0] = _pool_cap[k]
        _pool_ptr[k] = NULL
    PyThread_release_lock(_pool_lock)
    if x != NULL:
        if zero:
            memset(x, 0, size)
        return x
    cap[0] = size
    return calloc(size, 1)


cdef void pool_give(void* x, size_t cap) noexcept nogil:
    # Keep block x (cap bytes) for pool_take, in place of a smaller kept
    # one when every slot is taken; free it when it is kept no better.
    cdef int i, k = -1
    if x == NULL:
        return
    if cap <= POOL_MAX_BYTES:
        PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
        for i in range(POOL_SLOTS):
            if _pool_ptr[i] == NULL:
                k = i
                break
            if _pool_cap[i] < cap and (k < 0 or _pool_cap[i] < _pool_cap[k]):
                k = i
        if k >= 0:
            x, _pool_ptr[k] = _pool_ptr[k], x
            _pool_cap[k] = cap
        PyThread_release_lock(_pool_lock)
    free(x)


cdef void tt_grow(Ctx* c) noexcept nogil:
    # Double the table in place: bucket b's entries stay in b or move to
    # b + nbuckets (the next hash bit), which starts empty.  A table grows
    # with the work done, so a small search touches little memory.
    cdef size_t nb = c.nbuckets, stride = BUCKET * c.W, b
    cdef size_t need = 2 * nb * stride * sizeof(unsigned long long)
    cdef unsigned long long* t = c.tt
    cdef unsigned long long* e
    cdef unsigned long long* dst
    cdef int _i
    if need > c.tt_cap:
        t = <unsigned long long*>realloc(c.tt, need)
        if t == NULL:
            c.max_nbuckets = nb         # stay at this size
            return
        # (what realloc added is not ours yet: zeroed; within the block, the
        # new half holds only entries of other tags or zeros)
        memset(<char*>t + c.tt_cap, 0, need - c.tt_cap)
        c.tt_cap = need
    c.tt = t
    c.nbuckets = 2 * nb
    for b in range(nb):
        e = t + b * stride
        dst = t + (b + nb) * stride
        for _i in range(BUCKET):
            if (e[c.n] & TAG_MASK) == c.live and (tt_hash(c, e) & nb):
                memcpy(dst, e, c.W * sizeof(unsigned long long))
                e[c.n] = 0
                dst += c.W
            e += c.W


cdef int tt_probe(Ctx* c, const unsigned long long* key, unsigned long long* e) noexcept nogil:
    """1 or 0: the stored value of the position (e: its bucket); -1: not stored."""
    cdef int _i, j, ok
    if e == NULL:
        return -1
    for _i in range(BUCKET):
        if (e[c.n] & (TAG_MASK | KEY_MASK)) == (c.live | key[c.n]):
            ok = 1
            for j in range(c.n):
                if e[j] != key[j]:
                    ok = 0
                    break
            if ok:
                return 1 if e[c.n] & VALUE_BIT else 0
        e += c.W
    return -1


cdef void tt_store(Ctx* c, const unsigned long long* key, unsigned long long h, int value,
                   long long work) noexcept nogil:
    # (h: tt_hash(c, key), computed once for the probe and the store)
    cdef unsigned long long* e
    cdef unsigned long long* victim
    cdef unsigned long long prio, best = <unsigned long long>-1
    cdef int _i
    if c.tt == NULL:
        return
    e = tt_bucket(c, h)         # (again: the table may have grown since the probe)
    victim = e
    for _i in range(BUCKET):
        if (e[c.n] & TAG_MASK) != c.live:
            victim = e
            c.nstored += 1
            break
        prio = (e[c.n] >> WORK_SHIFT) & 63
        if prio < best:
            best = prio
            victim = e
        e += c.W
    for _i in range(c.n):           # (a loop: memcpy of a size known only at run time is a call)
        victim[_i] = key[_i]
    victim[c.n] = (key[c.n] | c.live | OCCUPIED | (VALUE_BIT if value else 0)
                   | ((<unsigned long long>log2_work(work)) << WORK_SHIFT))
    if c.nstored * 4 > c.nbuckets * (3 * BUCKET) and c.nbuckets < c.max_nbuckets:
        tt_grow(c)


cdef bint ply_reserve(Ply* pl, Py_ssize_t n) noexcept nogil:
    cdef void* x
    if n <= pl.cap:
        return True
    x = realloc(pl.order, n * sizeof(int))
    if x == NULL:
        return False
    pl.order = <int*>x
    x = realloc(pl.score, n * sizeof(int))
    if x == NULL:
        return False
    pl.score = <int*>x
    x = realloc(pl.slot, n * sizeof(int))
    if x == NULL:
        return False
    pl.slot = <int*>x
    x = realloc(pl.info, n * sizeof(MoveInfo))
    if x == NULL:
        return False
    pl.info = <MoveInfo*>x
    x = realloc(pl.packed, n * sizeof(unsigned long long))
    if x == NULL:
        return False
    pl.packed = <unsigned long long*>x
    pl.cap = n
    return True


cdef enum:
    MP_FIRST = 1024             # memo slots at first
    MP_MAX = 1 << 20            # most memo slots (9 bytes each)


cdef bint mp_grow(Ctx* c) noexcept nogil:
    cdef size_t cap = c.mp_cap * 2 if c.mp_cap else MP_FIRST, i, j
    cdef unsigned long long* keys = <unsigned long long*>calloc(cap, sizeof(unsigned long long))
    cdef unsigned char* vals = <unsigned char*>calloc(cap, 1)
    if keys == NULL or vals == NULL:
        free(keys)
        free(vals)
        return False
    for i in range(c.mp_cap):
        if c.mp_keys[i]:
            j = <size_t>(mix(c.mp_keys[i]) & (cap - 1))
            while keys[j]:
                j = (j + 1) & (cap - 1)
            keys[j] = c.mp_keys[i]
            vals[j] = c.mp_vals[i]
    free(c.mp_keys)
    free(c.mp_vals)
    c.mp_keys = keys
    c.mp_vals = vals
    c.mp_cap = cap
    return True


# The search, its move ordering (move_score, min_plays) and the root's
# children are written once for both kinds of game and compiled twice,
# over Beat, the type of the move to beat as a node is given it:
# * MoveInfo: the standard game.  Moves are gen_moves' rows (ROW bytes),
#   whose counts are the cards played; the move to beat needs no more than
#   its kind, rank, length and size.
# * WildRow: wild cards (c.wmask != 0).  Moves are gen_wild's rows (WROW
#   bytes: the combination represented, bytes 0..15 as a standard row; the
#   physical cards leaving the hand, W_PHYS..; the bomb class, W_CLASS); the
#   move to beat is its row, which gen_wild reads.
# The accessors below (compile-time branches on Beat, inlined) are where the
# two differ; a function takes a `fmt` argument only for its type (NULL).
cdef struct WildRow:
    unsigned char b[WROW]

ctypedef fused Beat:
    MoveInfo
    WildRow


cdef inline Py_ssize_t row_bytes(const Beat* fmt) noexcept nogil:
    # bytes per move row
    if Beat is WildRow:
        return WROW
    else:
        return ROW


cdef inline const unsigned char* phys(const Beat* fmt, const unsigned char* row) noexcept nogil:
    # the physical cards a move row plays (15 counts, then a byte sub_row
    # and pack_hand ignore); a standard row's counts are its cards
    if Beat is WildRow:
        return row + W_PHYS
    else:
        return row


cdef inline Py_ssize_t gen_rows(Ctx* c, const unsigned char* h, const Beat* last, Out* o) noexcept nogil:
    # Hand h's moves in answer to last (NULL: its leads) appended to o;
    # returns how many rows o holds
    if Beat is WildRow:
        gen_wild(h, c.r, c.wmask, <const unsigned char*>last, False, o)
        return o.n * ROW // WROW
    else:
        gen_moves(h, c.r, last, o)
        return o.n


cdef inline const Beat* beat_of(const Beat* fmt, const unsigned char* row, const MoveInfo* mi) noexcept nogil:
    # the move to beat once move row (mi: its info) is played; valid while
    # row and mi are (the mover's ply keeps both)
    if Beat is WildRow:
        return <const WildRow*>row
    else:
        return mi


cdef const Out* _leads_at(Ctx* c, const unsigned char* h, int depth, const Out* leads,
                          int* low, Py_ssize_t* nrows, const Beat* fmt) noexcept nogil:
    # The leads of a non-empty hand h in depth's buffer (or `leads`, when
    # the caller has them already) and their number in nrows, and in low the
    # rank of h's lowest card (a split of h into leads has a move that holds
    # it, so min_plays and clears_leading_search try only those); NULL when
    # the buffer cannot grow.
    cdef Out* o = &c.mp_out[depth]
    if leads != NULL:
        o = <Out*>leads
        nrows[0] = o.n * ROW // row_bytes(fmt)
    else:
        o.n = 0
        nrows[0] = gen_rows(c, h, <const Beat*>NULL, o)
        if o.oom:
            o.oom = False       # (the next hand may fit)
            return NULL
    low[0] = 0
    while h[low[0]] == 0:
        low[0] += 1
    return o


cdef inline bint _holds_low(const Ctx* c, const unsigned char* row, int low, const Beat* fmt) noexcept nogil:
    # a lead of _leads_at worth trying: it holds the lowest card, its kind is allowed
    return phys(fmt, row)[low] != 0 and not (c.ban >> row[KIND_BYTE]) & 1


cdef inline int min_plays(Ctx* c, const unsigned char* h, unsigned long long hw, int total,
                          int depth, const Beat* fmt) noexcept nogil:
    """The fewest moves (allowed leads) that play out hand h with nobody
    answering: some move of every such split holds h's lowest (physical)
    card, so only those moves are tried.  Memoised (both games share the
    memo: it is cleared with the config, which holds the wild ranks); only
    orders moves (an estimate, the number of ranks held, when the memo is
    full or a buffer fails).  (Inline: the memo's answer, nearly every call,
    costs no call.)"""
    cdef size_t j
    if total == 0:
        return 0
    if c.mp_cap:
        j = <size_t>(mix(hw + 1) & (c.mp_cap - 1))
        while c.mp_keys[j]:
            if c.mp_keys[j] == hw + 1:
                return c.mp_vals[j]
            j = (j + 1) & (c.mp_cap - 1)
    return min_plays_search(c, h, hw, total, depth, fmt)


cdef int min_plays_search(Ctx* c, const unsigned char* h, unsigned long long hw, int total,
                          int depth, const Beat* fmt) noexcept nogil:
    # min_plays of a hand not in the memo (total > 0): searched, then memoised
    cdef size_t j = 0
    cdef const Out* o
    cdef Py_ssize_t i, nrows = 0
    cdef const unsigned char* row
    cdef const unsigned char* cards
    cdef unsigned char rest[16]
    cdef unsigned long long rw
    cdef int low = 0, best = 99, v, n
    if depth >= c.mp_depth or (c.mp_n * 2 >= c.mp_cap and (c.mp_cap >= MP_MAX or not mp_grow(c))):
        return ddz_nib_count(nib_ge1(hw))       # (the ranks held)
    o = _leads_at(c, h, depth, NULL, &low, &nrows, fmt)
    if o == NULL:
        return ddz_nib_count(nib_ge1(hw))
    for i in range(nrows):
        row = o.data + i * row_bytes(fmt)
        if not _holds_low(c, row, low, fmt):
            continue
        cards = phys(fmt, row)
        rw = pack_hand(cards)
        n = nib_sum(rw)
        if n == total:
            best = 1
            break
        if best > 2:
            sub_row(rest, h, cards)
            v = 1 + min_plays(c, rest, hw - rw, total - n, depth + 1, fmt)
            if v < best:
                best = v
    # (the memo may have grown meanwhile: find the slot again)
    j = <size_t>(mix(hw + 1) & (c.mp_cap - 1))
    while c.mp_keys[j]:
        j = (j + 1) & (c.mp_cap - 1)
    c.mp_keys[j] = hw + 1
    c.mp_vals[j] = <unsigned char>best
    c.mp_n += 1
    return best


cdef inline bint unbeatable(Ctx* c, int p, const MoveInfo* mi) noexcept nogil:
    # Can no seat of the other side answer move mi of seat p (PASS is its
    # only move)?  count_moves_c counts banned kinds too: then it may say no
    # when the answer is yes, never the reverse.
    cdef int q
    cdef unsigned long long above
    if mi.kind == K_SOLO or mi.kind == K_PAIR:
        # (first the common case: a higher single or pair of a plain rank
        # over there; a "yes, beatable" is always safe here, see above)
        above = ~((<unsigned long long>1 << (4 * mi.rank + 4)) - 1)
        for q in range(c.n):
            if c.side[q] != c.side[p]:
                if mi.kind == K_SOLO:
                    if nib_ge1(c.hw[q]) & above:
                        return False
                elif nib_ge2(c.hw[q]) & NIB_PLAIN & above:
                    return False
    for q in range(c.n):
        if c.side[q] != c.side[p] and count_moves_c(c.hand[q], c.r, mi) > 1:
            return False
    return True


cdef inline bint only_pass(Ctx* c, int p, const MoveInfo* last) noexcept nogil:
    # Is PASS the only legal move of seat p in answer to `last`?  A single
    # or a pair is answered only by a higher one, a bomb or the rocket: with
    # none of those in the hand (no four of a rank, no joker pair, not both
    # jokers), a look at the ranks above decides; otherwise count_moves_c,
    # which counts every kind, allowed or not (so a yes is always right).
    cdef unsigned long long x = c.hw[p], above
    if last.kind == K_SOLO or last.kind == K_PAIR:
        above = ~((<unsigned long long>1 << (4 * last.rank + 4)) - 1)
        if last.kind == K_SOLO:
            if nib_ge1(x) & above:
                return False
        elif nib_ge2(x) & NIB_PLAIN & above:
            return False
        if (not (((x >> 2) | (x >> 3)) & NIB) and not (nib_ge2(x) & JOKER_NIBS)
                and (nib_ge1(x) & JOKER_NIBS) != (JOKER_NIBS & NIB)):
            return True
    return count_moves_c(c.hand[p], c.r, last) <= 1


cdef inline int move_score(Ctx* c, int p, const unsigned char* row, unsigned long long packed,
                           const MoveInfo* mi, const Beat* fmt) noexcept nogil:
    # Order (a guess, never a proof): the moves after which the hand can be
    # played out alone in the fewest moves first (min_plays; a bomb or the
    # rocket counts one more: a control kept is worth more), then the lower
    # (represented) ranks (rid of the small cards, keep the big ones); PASS
    # last; ties go to the moves that cut off most often before (history
    # heuristic, capped below the other terms), then to the generator's
    # order (gen_wild's: fewer wild cards played first).
    cdef unsigned char rest[16]
    cdef int plays, hist
    if mi.kind == K_PASS:
        return -100000000
    hist = c.history[c.side[p]][row_hash(row)]
    if hist > 1023:
        hist = 1023
    sub_row(rest, c.hand[p], phys(fmt, row))
    plays = min_plays(c, rest, c.hw[p] - packed, c.total[p] - mi.ncards, 0, fmt)
    if mi.kind == K_BOMB or mi.kind == K_ROCKET:
        plays += 1
    return ((40 - plays) * 32 + (16 - mi.rank)) * 1024 + hist


cdef inline void order_insert(Ply* pl, Py_ssize_t m, int sc, int idx) noexcept nogil:
    # Insert move idx with score sc into the sorted prefix order[:m], best
    # first (insertion sort: move lists are short).
    cdef Py_ssize_t j = m
    while j > 0 and pl.score[j - 1] < sc:
        pl.score[j] = pl.score[j - 1]
        pl.order[j] = pl.order[j - 1]
        j -= 1
    pl.score[j] = sc
    pl.order[j] = idx


cdef inline void play(Ctx* c, int p, const unsigned char* row, unsigned long long packed,
                      int ncards) noexcept nogil:
    sub_row(c.hand[p], c.hand[p], row)
    c.hw[p] -= packed               # (no borrows: every count of row <= the hand's)
    c.total[p] -= ncards


cdef inline void unplay(Ctx* c, int p, const unsigned char* row, unsigned long long packed,
                        int ncards) noexcept nogil:
    add_row(c.hand[p], row)
    c.hw[p] += packed
    c.total[p] += ncards


cdef enum:
    CL_SLOTS = 1 << 14


cdef inline void beat_lows(Ctx* c, int p, unsigned long long* low1, unsigned long long* low2) noexcept nogil:
    # For fewest_beatable: the ranks below the highest card (low1) and below
    # the highest pair (low2) of the other side of seat p, as nibble bits
    # (the highest pair is no higher than the highest card).
    cdef unsigned long long o = 0, o2 = 0
    cdef int q
    for q in range(c.n):
        if c.side[q] != c.side[p]:
            o |= c.hw[q]
            o2 |= nib_ge2(c.hw[q])
    o = nib_ge1(o)
    o2 &= NIB_PLAIN
    low1[0] = ((<unsigned long long>1 << top_bit64(o)) - 1) & NIB if o else 0
    low2[0] = ((<unsigned long long>1 << top_bit64(o2)) - 1) & NIB if o2 else 0


cdef inline int fewest_beatable(unsigned long long x, unsigned long long low1,
                                unsigned long long low2) noexcept nogil:
    """A lower bound on the beatable parts of any split of hand x (packed)
    into leads, for clears_leading to reject without a search (low1, low2:
    beat_lows of the seat's other side); 0 when it cannot tell.  It tells
    when x has only singles and pairs to play (no rank held three times, no
    chain, no rocket, no joker pair).  Then a single is beatable by some
    higher card on the other side, and a pair by a higher pair there or,
    split, by a higher card twice: each single below the other side's
    highest card and each pair below its highest pair count one.  (Their
    bombs and the rest of their answers only make more parts beatable.  A
    bound too high would only cost a search: clears_leading's no is never
    taken as a loss.)"""
    cdef unsigned long long g1 = nib_ge1(x), g2 = nib_ge2(x), s1, s2
    if nib_ge3(x) or (g2 & JOKER_NIBS) or (g1 & JOKER_NIBS) == (JOKER_NIBS & NIB):
        return 0
    s1 = g1 & NIB_CHAIN
    s2 = g2 & NIB_CHAIN
    if (s1 & (s1 >> 4) & (s1 >> 8) & (s1 >> 12) & (s1 >> 16)) or (s2 & (s2 >> 4) & (s2 >> 8)):
        return 0
    return ddz_nib_count(g1 & ~g2 & low1) + ddz_nib_count(g2 & low2)


cdef bint clears_leading(Ctx* c, int p, const unsigned char* h, int total, int beatable,
                         int depth, const Out* leads) noexcept nogil:
    # (clears_leading_search, memoised on the hand and the other side's hands;
    # leads: h's leads when the caller has them, else NULL)
    cdef unsigned long long key[5]
    cdef unsigned long long hsh, low1, low2
    cdef unsigned long long* e
    cdef int s
    cdef bint v
    if total == 0:
        return True
    beat_lows(c, p, &low1, &low2)
    if fewest_beatable(pack_hand(h), low1, low2) > beatable:
        return False
    if beatable == 0:
        return groups_unbeatable(c, p, h)
    if c.cl_memo == NULL:
        return clears_leading_search(c, p, h, total, beatable, depth, leads)
    key[p] = pack_hand(h)
    hsh = mix(key[p] ^ (<unsigned long long>(p + 1 + 16 * beatable)))
    for s in range(c.n):
        if s != p:
            key[s] = c.hw[s] if c.side[s] != c.side[p] else 0
            hsh = mix(hsh ^ key[s])
    key[c.n] = <unsigned long long>(p + 1 + 16 * beatable)
    e = c.cl_memo + (hsh & (CL_SLOTS - 1)) * (c.n + 1)
    if (e[c.n] & (TAG_MASK | 255)) == (c.live | key[c.n]):
        for s in range(c.n):
            if e[s] != key[s]:
                break
        else:
            return (e[c.n] >> 8) & 1
    v = clears_leading_search(c, p, h, total, beatable, depth, leads)
    memcpy(e, key, c.n * sizeof(unsigned long long))
    e[c.n] = key[c.n] | ((<unsigned long long>v) << 8) | c.live
    return v


cdef bint groups_unbeatable(Ctx* c, int p, const unsigned char* h) noexcept nogil:
    """Is hand h, split by rank (the jokers together), all allowed leads
    nobody on the other side can beat?  (A quick sufficient test for "h is
    all unbeatable leads": it does not look for chains or kickers.)"""
    cdef unsigned char g[15]
    cdef MoveInfo infos[N_KINDS]
    cdef MoveInfo mi
    cdef int r, t, nr, ok
    memset(g, 0, 15)
    for r in range(14):
        if r < 13 and h[r] == 0 or r == 13 and h[13] == 0 and h[14] == 0:
            continue
        if r < 13 and h[r] == 1:
            mi.kind = K_SOLO
            mi.rank = r
            mi.length = 1
            mi.ncards = 1
            if not unbeatable(c, p, &mi):
                return False
            continue
        if r < 13:
            g[r] = h[r]
        else:
            g[13] = h[13]
            g[14] = h[14]
        nr = classify_c(g, c.r, infos)
        g[r] = 0
        if r == 13:
            g[14] = 0
        ok = 0
        for t in range(nr):
            if not (c.ban >> infos[t].kind) & 1 and unbeatable(c, p, &infos[t]):
                ok = 1
                break
        if not ok:
            return False
    return True


cdef bint clears_leading_search(Ctx* c, int p, const unsigned char* h, int total, int beatable,
                                int depth, const Out* leads) noexcept nogil:
    """Can seat p, leading with hand h, play it out whatever the others do:
    is h a set of allowed leads of which at most `beatable` can be answered
    by a seat of the other side?  p plays the unbeatable ones first (every
    seat passes each back to p: the partners by choice; the other side's
    hands do not change meanwhile), the beatable one last, emptying the hand.
    Exact as a proof of a win (unbeatable() may say no when only a banned
    kind answers; never the reverse).  Some part holds h's lowest card, so
    only the moves that hold it are tried (as min_plays does; the two share
    the per-depth buffers, never nesting)."""
    cdef const Out* o
    cdef Py_ssize_t i, nrows = 0
    cdef const unsigned char* row
    cdef unsigned char rest[16]
    cdef MoveInfo mi
    cdef int low = 0, ub
    cdef const MoveInfo* std = NULL         # (standard rows: _leads_at's format)
    if total == 0:
        return True
    if depth >= c.mp_depth:
        return False
    o = _leads_at(c, h, depth, leads, &low, &nrows, std)
    if o == NULL:
        return False
    for i in range(nrows):
        row = o.data + i * ROW
        if not _holds_low(c, row, low, std):
            continue
        row_info(row, &mi)
        if mi.ncards == total:
            if beatable > 0 or unbeatable(c, p, &mi):
                return True
            continue
        ub = unbeatable(c, p, &mi)
        if not ub and beatable == 0:
            continue
        sub_row(rest, h, row)
        if clears_leading(c, p, rest, total - mi.ncards, beatable - (0 if ub else 1), depth + 1, NULL):
            return True
    return False


cdef inline bint node_stops(Ctx* c, int depth) noexcept nogil:
    # Count a node at `depth` and check the limits: True (c.aborted set)
    # when the search must stop.
    c.nodes += 1
    if (c.nodes & CHECK_EVERY) == 0:
        if c.stop != NULL and ddz_load(c.stop):
            c.aborted = AB_STOPPED
        elif c.intr != NULL and stop_requested(c.intr):
            c.aborted = AB_INTERRUPTED
        elif c.deadline > 0 and ddz_now() > c.deadline:
            c.aborted = AB_TIME
    if c.max_nodes > 0 and c.nodes > c.max_nodes:
        c.aborted = AB_NODES
    if c.aborted:
        return True
    if depth >= c.nplies:
        c.aborted = AB_MEMORY       # cannot happen: nplies bounds every line
        return True
    return False


cdef inline void wild_key(Ctx* c, const unsigned char* last, int p, int last_by,
                          unsigned long long* key) noexcept nogil:
    """The table key of a position under wild cards: every hand as it is (no
    renumbering: a wild card stands for ranks nobody holds), the seat to
    move, the seat that made the move to beat, and that move as every
    answer to it is decided: the represented combination's kind, rank and
    length and its bomb class (bits as in rank_key's; the class in place
    of a bomb's size, which is always 4: wild cards are a one-deck game)."""
    cdef MoveInfo mi
    cdef int i
    cdef unsigned long long m = ((<unsigned long long>p) << 16) | ((<unsigned long long>(last_by + 1)) << 19)
    for i in range(c.n):
        key[i] = c.hw[i]
    if last != NULL:
        row_info(last, &mi)
        m |= (<unsigned long long>mi.kind | (<unsigned long long>mi.rank) << 4
              | (<unsigned long long>mi.length) << 8 | (<unsigned long long>last[W_CLASS]) << 12)
    key[c.n] = m


cdef int search(Ctx* c, int p, const Beat* last, int last_by, int depth) noexcept nogil:
    """1 when the side of seat p (to move) wins with best play, 0 when it
    loses, -1 when the search stopped (a limit, or another thread).  `last`:
    the move to beat (NULL: p leads); it stays valid below (it is in a
    shallower ply, or the root's).

    Under wild cards (Beat WildRow; docs/rules.md, "Wild cards") the
    standard search's shortcuts are not used: they read a hand's moves off
    its ranks (only_pass, unbeatable, clears_leading, the renumbered key),
    and with wild cards a hand's moves are not those.  What holds in any
    game of cards is shared: the table (keyed on the hands as they are,
    wild_key), a move that empties the hand wins, the moves ordered by
    move_score, the first winning move cuts."""
    cdef unsigned long long key[5]
    cdef unsigned long long h = 0, low1, low2
    cdef Ply* pl
    cdef Py_ssize_t i, m, nmoves, nrows
    cdef Py_ssize_t stride = row_bytes(last)
    cdef int v, child, nxt, lb, passes = 0, result = 0, idx, t
    cdef long long before
    cdef const unsigned char* row
    cdef MoveInfo mi
    cdef unsigned char rest_h[16]

    if Beat is MoveInfo:
        if last != NULL and depth < c.nplies and only_pass(c, p, last):
            # A seat that can only pass is not a node of its own: the position
            # is worth the one after the pass (not counted, not stored).
            lb = last_by
            nxt = turn_after(c.n, p, True, &lb, &passes)
            c.plies[depth].chains = c.plies[depth - 1].chains
            child = search(c, nxt, last if lb >= 0 else NULL, lb, depth + 1)
            if child < 0 or c.side[nxt] == c.side[p]:
                return child
            return 1 - child

    if node_stops(c, depth):
        return -1

    if Beat is MoveInfo:
        # (hands only shrink: once no hand can make a chain, none below can)
        c.plies[depth].chains = rank_key(c, last, p, last_by, key, c.plies[depth - 1].chains)
    else:
        wild_key(c, <const unsigned char*>last, p, last_by, key)
    if c.tt != NULL:
        # (a position stored is never one where a move plays the whole hand;
        # probed before the moves are generated: a hit needs none)
        h = tt_hash(c, key)
        v = tt_probe(c, key, tt_bucket(c, h))
        if v >= 0:
            return v

    pl = &c.plies[depth]
    pl.out.n = 0
    nrows = gen_rows(c, c.hand[p], last, &pl.out)
    if pl.out.oom or not ply_reserve(pl, nrows):
        c.aborted = AB_MEMORY
        return -1
    # A move that plays the whole hand wins at once (not worth a table
    # entry).  The allowed moves go to the front of the buffers.
    m = 0
    for i in range(nrows):
        row = pl.out.data + i * stride
        if (c.ban >> row[KIND_BYTE]) & 1:
            continue
        row_info(row, &pl.info[m])
        if pl.info[m].ncards == c.total[p]:
            return 1
        pl.packed[m] = pack_hand(phys(last, row))
        pl.slot[m] = <int>i
        m += 1
    nmoves = m
    before = c.nodes
    if Beat is MoveInfo:
        # A hand of moves nobody on the other side can beat but (at most) one
        # wins too; so does, in answer, a move nobody can beat that leaves such
        # a hand.
        if last == NULL:
            # (the leads of the hand are this node's moves, generated above)
            if clears_leading(c, p, c.hand[p], c.total[p], 1, 0, &pl.out):
                tt_store(c, key, h, 1, 1)
                return 1
        else:
            beat_lows(c, p, &low1, &low2)
            for i in range(nmoves):
                # (the bound first: it is cheaper than unbeatable's counts)
                if (pl.info[i].kind != K_PASS and fewest_beatable(c.hw[p] - pl.packed[i], low1, low2) <= 1
                        and unbeatable(c, p, &pl.info[i])):
                    row = pl.out.data + pl.slot[i] * ROW
                    sub_row(rest_h, c.hand[p], row)
                    if clears_leading(c, p, rest_h, c.total[p] - pl.info[i].ncards, 1, 0, NULL):
                        tt_store(c, key, h, 1, 1)
                        return 1
    # Sort: order[] becomes indices into info / packed, best first.  (In
    # answer to a move, PASS and one play need no scores: the play goes
    # first.  Only in the standard game: under wild cards the scores fill
    # min_plays' memo as they always did, and with it the node counts.)
    if Beat is MoveInfo and last != NULL and nmoves <= 2:
        m = 0
        for i in range(nmoves):
            if pl.info[i].kind != K_PASS:
                pl.order[m] = <int>i
                m += 1
        for i in range(nmoves):
            if pl.info[i].kind == K_PASS:
                pl.order[m] = <int>i
                m += 1
    else:
        for i in range(nmoves):
            order_insert(pl, i, move_score(c, p, pl.out.data + pl.slot[i] * stride, pl.packed[i],
                                           &pl.info[i], last), <int>i)

    for i in range(nmoves):
        idx = pl.order[i]
        mi = pl.info[idx]
        lb = last_by
        nxt = turn_after(c.n, p, mi.kind == K_PASS, &lb, &passes)
        if mi.kind == K_PASS:
            child = search(c, nxt, last if lb >= 0 else NULL, lb, depth + 1)
        else:
            row = pl.out.data + pl.slot[idx] * stride
            play(c, p, phys(last, row), pl.packed[idx], mi.ncards)
            child = search(c, nxt, beat_of(last, row, &mi), lb, depth + 1)
            unplay(c, p, phys(last, row), pl.packed[idx], mi.ncards)
            # (the generated rows of this depth are intact: deeper plies use
            # their own buffers)
        if child < 0:
            return -1
        if c.side[nxt] != c.side[p]:
            child = 1 - child
        if child:
            result = 1
            t = row_hash(pl.out.data + pl.slot[idx] * stride)
            if c.history[c.side[p]][t] < 1000000:
                c.history[c.side[p]][t] += 1
            break
    tt_store(c, key, h, result, c.nodes - before)
    return result


cdef class _RootShare:
    """The root of one position as the threads solving it share it: the
    order of its moves (set by the first run given it, which searches
    nothing), which moves a thread has taken, and a flag set when the answer
    is known."""
    cdef int* flag
    cdef unsigned char* rows     # the root moves in search order, `stride` bytes each
    cdef Py_ssize_t stride       # ROW, or WROW with wild cards
    cdef long* claimed           # claimed[k]: some thread took move k
    cdef Py_ssize_t nroot        # -1: no order yet
    cdef readonly Stop stop      # the call's Stop (Ctrl-C), made on the calling thread

    def __cinit__(self):
        self.stop = Stop()
        self.flag = <int*>calloc(1, sizeof(int))
        if self.flag == NULL:
            raise MemoryError()
        self.rows = NULL
        self.claimed = NULL
        self.nroot = -1

    def __dealloc__(self):
        free(self.flag)
        free(self.rows)
        free(self.claimed)

    cdef int _set_order(self, const Ply* pl, Py_ssize_t nroot, Py_ssize_t stride) except -1:
        cdef Py_ssize_t k
        self.rows = <unsigned char*>malloc(max(nroot, 1) * stride)
        self.claimed = <long*>calloc(max(nroot, 1), sizeof(long))
        if self.rows == NULL or self.claimed == NULL:
            raise MemoryError()
        for k in range(nroot):
            memcpy(self.rows + k * stride, pl.out.data + pl.order[k] * stride, stride)
        self.nroot = nroot
        self.stride = stride
        return 0

    cdef int _take_order(self, Ply* pl, Py_ssize_t nroot, unsigned int ban, Py_ssize_t stride) except -1:
        # pl.order[k] := the generated row equal to the shared order's move k
        # (which must be the allowed moves generated, each once; rows of
        # `stride` bytes)
        cdef Py_ssize_t k, i
        cdef const unsigned char* row
        if self.nroot != nroot or self.stride != stride:
            raise ValueError("the shared root order is not this position's")
        for k in range(nroot):
            pl.order[k] = -1
            for i in range(pl.out.n * ROW // stride):
                row = pl.out.data + i * stride
                if not (ban >> row[KIND_BYTE]) & 1 and memcmp(row, self.rows + k * stride, stride) == 0:
                    pl.order[k] = <int>i
                    break
            if pl.order[k] < 0:
                raise ValueError("the shared root order is not this position's")
        return 0


cdef struct Root:
    # A position to solve: seats, sides, rules, hands, the seat to move and
    # the move to beat (last: when last_by >= 0, the seat that made it).
    int n
    int side[4]
    const RulesC* rc
    unsigned char hand[4][16]
    int to_move
    int last_by
    MoveInfo last
    unsigned int wmask          # the wild ranks (0: none) ...
    unsigned char last_row[32]  # ... and then the move to beat as its 32-byte row (_core/wild.pxd)


cdef Py_ssize_t root_order(Ctx* c, const Root* pos, const unsigned char* only, Py_ssize_t nonly,
                           const Beat* last) noexcept nogil:
    # The root's moves (every allowed move, or those among the nonly rows
    # `only`) in search order, in plies[0].order (indices of rows of
    # root_stride bytes); how many, or -1 when out of memory (c.aborted set).
    # last: the root's move to beat in this game's format (read when
    # pos.last_by >= 0).
    cdef Ply* pl = &c.plies[0]
    cdef Py_ssize_t k, j, nroot = 0, stride = row_bytes(last), nrows
    cdef const unsigned char* row
    cdef MoveInfo mi
    cdef int st
    pl.chains = 1           # (the root's children work it out)
    pl.out.n = 0
    nrows = gen_rows(c, c.hand[pos.to_move], last if pos.last_by >= 0 else NULL, &pl.out)
    if pl.out.oom or not ply_reserve(pl, nrows):
        c.aborted = AB_MEMORY
        return -1
    for k in range(nrows):
        row = pl.out.data + k * stride
        if (c.ban >> row[KIND_BYTE]) & 1:
            continue
        if only != NULL:
            j = 0
            while j < nonly and memcmp(row, only + j * stride, stride) != 0:
                j += 1
            if j == nonly:
                continue
        row_info(row, &mi)
        if mi.ncards == c.total[pos.to_move]:
            st = 1 << 30
        else:
            st = move_score(c, pos.to_move, row, pack_hand(phys(last, row)), &mi, last)
        order_insert(pl, nroot, st, <int>k)
        nroot += 1
    return nroot


cdef int root_child(Ctx* c, const Root* pos, const unsigned char* row, const Beat* last) noexcept nogil:
    # The value of root move `row` for the side of the seat to move (1 / 0,
    # -1 stopped); last: the root's move to beat in this game's format.
    cdef int p = pos.to_move, lb = pos.last_by, passes = 0, child
    cdef MoveInfo mi
    row_info(row, &mi)
    cdef int nxt = turn_after(c.n, p, mi.kind == K_PASS, &lb, &passes)
    if mi.kind == K_PASS:
        child = search(c, nxt, last if lb >= 0 else NULL, lb, 1)
    elif mi.ncards == c.total[p]:
        return 1
    else:
        play(c, p, phys(last, row), pack_hand(phys(last, row)), mi.ncards)
        child = search(c, nxt, beat_of(last, row, &mi), lb, 1)
        unplay(c, p, phys(last, row), pack_hand(phys(last, row)), mi.ncards)
    if child < 0:
        return -1
    if c.side[nxt] != c.side[p]:
        child = 1 - child
    return child


cdef bint _wild_reading(bytes given, const RulesC* rc, unsigned int wmask,
                        unsigned char* out) except -1:
    # out := the 32-byte row of gen_wild's reading of the physical counts in
    # given[16:31] that equals given in bytes 0..30 (class included); False
    # when there is none.
    cdef unsigned char phys[16]
    cdef unsigned char first[16 * WROW]
    cdef Out o
    cdef Py_ssize_t i
    cdef bint found = False
    for i in range(15):
        if given[W_PHYS + i] > (rc.max_joker if i >= 13 else rc.max_count):
            return False
        phys[i] = given[W_PHYS + i]
    phys[15] = 0
    out_init_on(&o, first, 32)
    gen_wild(phys, rc, wmask, NULL, True, &o)
    try:
        if o.oom:
            raise MemoryError("out of memory reading wild cards")
        for i in range(0, o.n, 2):
            if memcmp(o.data + i * ROW, <const char*>given, W_CLASS) == 0:
                memcpy(out, o.data + i * ROW, WROW)
                found = True
                break
    finally:
        out_free(&o)
    return found


cdef inline int popcount32(unsigned int x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline Py_ssize_t root_stride(const Root* pos) noexcept nogil:
    # bytes per move row of pos's moves: 32 with wild cards, else 16
    return WROW if pos.wmask else ROW


cdef class _Position:
    """A position for _Engine.run_position, as C data: from checked counts
    (from_counts) or straight from a Game's state (from_game)."""
    cdef Root root

    @staticmethod
    def from_counts(bytes hands, tuple sides, rules, int to_move, bytes last_row, int last_by,
                    unsigned int wmask=0):
        """A position of 15 counts per seat (ddz_fast.solver checks the
        arguments first; these checks keep the kernels' invariants whatever
        a direct caller passes).  With wild cards, ``wmask`` holds the wild
        ranks (bit r: rank r) and ``last_row`` is 32 bytes: the represented
        counts, the kind and the physical counts of a reading of those
        cards (byte 31 is not read: the class is the reading's)."""
        cdef _Position self = _Position.__new__(_Position)
        cdef Root* pos = &self.root
        cdef int n = len(sides)
        cdef int i, j
        cdef const RulesC* rc = rules_c(rules)
        cdef unsigned char lrow[16]
        if wmask >> 13 or popcount32(wmask) != rc.wild_ranks:
            raise ValueError(f"wmask {wmask:#x}: the rules draw {rc.wild_ranks} wild ranks of 0..12")
        if not 2 <= n <= NSEATS or len(hands) != 15 * n:
            raise ValueError(f"need 2..{NSEATS} sides and 15 counts per seat")
        for i in range(n):
            if sides[i] not in (0, 1):
                raise ValueError("sides must be 0 or 1")
            for j in range(15):
                if hands[15 * i + j] > (rc.max_joker if j >= 13 else rc.max_count):
                    raise ValueError(f"seat {i} holds more cards of rank slot {j} than the deck")
        if not 0 <= to_move < n or not -1 <= last_by < n:
            raise ValueError("to_move or last_by out of range")
        if last_row is not None and len(last_row) != (32 if wmask else 16):
            raise ValueError(f"last_row must be {32 if wmask else 16} bytes")
        if last_row is not None and last_by < 0:
            raise ValueError("a move to beat needs last_by, the seat that made it")
        pos.n = n
        pos.rc = rc
        pos.to_move = to_move
        pos.last_by = -1
        pos.wmask = wmask
        for i in range(n):
            pos.side[i] = sides[i]
            for j in range(15):
                pos.hand[i][j] = hands[15 * i + j]
            pos.hand[i][15] = 0
        if last_row is not None and wmask:
            if not _wild_reading(last_row, rc, wmask, pos.last_row):
                raise ValueError("the move to beat is not a reading of its cards under these rules "
                                 "and wild ranks")
            row_info(pos.last_row, &pos.last)
            pos.last_by = last_by
        elif last_row is not None:
            for j in range(16):
                lrow[j] = last_row[j]
            if not valid_move_c(lrow, rc, &pos.last) or pos.last.kind == K_PASS:
                raise ValueError("the move to beat is not a legal move under these rules")
            pos.last_by = last_by
        return self

    @staticmethod
    def from_game(game):
        """The position of a game in its play phase (the landlord against
        the farmers), read from its state: no check needed, the engine
        keeps the state valid."""
        cdef _Position self = _Position.__new__(_Position)
        cdef const GState* s = game_state(game)
        if s.phase != PH_PLAY:
            raise ValueError(f"the game is not in its play phase (phase {Phase(s.phase).name})")
        load_state(&self.root, s)
        return self

    @property
    def to_move(self):
        return self.root.to_move


cdef class _Engine:
    """One search context: a transposition table of a fixed size and the
    per-depth move buffers.  Internal; see :class:`ddz_fast.solver.Solver`.

    The table is kept between calls with the same seats, sides, rules, wild
    ranks and banned kinds (its values depend on nothing else) and cleared
    otherwise.
    """
    cdef Ctx c
    cdef object lock
    cdef object config            # what the stored values depend on
    cdef readonly Py_ssize_t table_bytes
    cdef readonly long long last_nodes

    def __cinit__(self, Py_ssize_t table_bytes):
        memset(&self.c, 0, sizeof(Ctx))
        self.lock = threading.Lock()
        self.config = None
        if table_bytes < 0:
            raise ValueError("table size must be >= 0")
        self.table_bytes = table_bytes

    def __init__(self, Py_ssize_t table_bytes):
        pass                      # (set up in __cinit__; here for the signature)

    def __dealloc__(self):
        self._free_plies()
        self._free_memo()
        pool_give(self.c.tt, self.c.tt_cap)
        self.c.tt = NULL

    cdef void _free_memo(self) noexcept:
        cdef int i
        if self.c.mp_out != NULL:
            for i in range(self.c.mp_depth):
                out_free(&self.c.mp_out[i])
            free(self.c.mp_out)
        self.c.mp_out = NULL
        self.c.mp_depth = 0
        free(self.c.mp_keys)
        free(self.c.mp_vals)
        pool_give(self.c.cl_memo, self.c.cl_cap)
        self.c.cl_memo = NULL
        self.c.mp_keys = NULL
        self.c.mp_vals = NULL
        self.c.mp_cap = 0
        self.c.mp_n = 0

    cdef int _setup_memo(self, int depth) except -1:
        cdef int i
        if self.c.cl_memo == NULL:
            # (n + 1 words an entry; entries of a clashing n never meet:
            # the memo is cleared with the config)
            # (the table's tag: _setup_table gave a new one with the config)
            self.c.cl_memo = <unsigned long long*>pool_take(
                CL_SLOTS * (self.c.n + 1) * sizeof(unsigned long long), False, &self.c.cl_cap)
            if self.c.cl_memo == NULL:
                raise MemoryError()
        if depth <= self.c.mp_depth:
            return 0
        if self.c.mp_out != NULL:
            for i in range(self.c.mp_depth):
                out_free(&self.c.mp_out[i])
            free(self.c.mp_out)
        self.c.mp_depth = 0
        self.c.mp_out = <Out*>calloc(depth, sizeof(Out))
        if self.c.mp_out == NULL:
            raise MemoryError()
        self.c.mp_depth = depth
        for i in range(depth):
            if not out_init(&self.c.mp_out[i], 64, False):
                raise MemoryError()
        return 0

    cdef void _free_plies(self) noexcept:
        cdef int i
        if self.c.plies != NULL:
            for i in range(self.c.nplies):
                out_free(&self.c.plies[i].out)
                free(self.c.plies[i].order)
                free(self.c.plies[i].score)
                free(self.c.plies[i].slot)
                free(self.c.plies[i].info)
                free(self.c.plies[i].packed)
            free(self.c.plies)
        self.c.plies = NULL
        self.c.nplies = 0

    cdef int _setup_table(self, int n) except -1:
        # An empty table of entries of n + 1 words: FIRST_BUCKETS buckets
        # (fewer if the limit says so), doubled by the search as it fills,
        # up to the most buckets (a power of two) within table_bytes.
        cdef Py_ssize_t W = n + 1
        cdef Py_ssize_t per_bucket = BUCKET * W * sizeof(unsigned long long)
        cdef size_t nb = 1, first
        pool_give(self.c.tt, self.c.tt_cap)
        self.c.tt = NULL
        self.c.live = live_tag()
        self.c.nbuckets = 0
        self.c.max_nbuckets = 0
        self.c.nstored = 0
        self.c.W = <int>W
        if self.table_bytes < per_bucket:
            return 0
        while nb * 2 * per_bucket <= <size_t>self.table_bytes:
            nb *= 2
        first = nb if nb < FIRST_BUCKETS else FIRST_BUCKETS
        # (the largest block kept: the table grows into it without a realloc)
        self.c.tt = <unsigned long long*>pool_take(first * BUCKET * W * sizeof(unsigned long long), True,
                                                   &self.c.tt_cap)
        if self.c.tt == NULL:
            raise MemoryError(f"cannot allocate a {self.table_bytes}-byte transposition table")
        self.c.nbuckets = first
        self.c.max_nbuckets = nb
        return 0

    cdef int _setup_plies(self, int depth) except -1:
        cdef int i
        if depth <= self.c.nplies:
            return 0
        self._free_plies()
        self.c.plies = <Ply*>calloc(depth, sizeof(Ply))
        if self.c.plies == NULL:
            raise MemoryError()
        self.c.nplies = depth
        for i in range(depth):
            if not out_init(&self.c.plies[i].out, 64, False):
                raise MemoryError()
        return 0

    cdef int _prepare(self, const Root* pos, unsigned int ban) except -1:
        # Make the context ready for pos: the table kept if the config is
        # the same, else a new one; pos's seats, sides and hands loaded; the
        # per-depth buffers sized for its cards.  Then _load_hands may give
        # other hands of the same sizes.
        cdef int i, total_cards = 0
        # (a tuple of these straight from the C struct hangs Cython 3.3.1)
        cid = pos.rc.id
        wmask = pos.wmask
        config = (cid, wmask, ban, pos.n, self.table_bytes) + tuple([pos.side[i] for i in range(pos.n)])
        if config != self.config:
            self._setup_table(pos.n)
            self._free_memo()
            memset(self.c.history, 0, sizeof(self.c.history))
            self.config = config
        self.c.n = pos.n
        self.c.r = pos.rc
        self.c.wmask = pos.wmask
        self.c.ban = ban
        for i in range(pos.n):
            self.c.side[i] = pos.side[i]
        self._load_hands(&pos.hand[0][0], 16)
        for i in range(pos.n):
            total_cards += self.c.total[i]
        # a line plays at least one card every n plies
        self._setup_plies(pos.n * (total_cards + 2) + 2)
        self._setup_memo(total_cards + 2)
        return 0

    cdef void _load_hands(self, const unsigned char* hands, Py_ssize_t stride) noexcept nogil:
        # The hands of seats 0..n-1: 15 counts each, `stride` bytes apart.
        cdef int i, j
        for i in range(self.c.n):
            self.c.total[i] = 0
            for j in range(15):
                self.c.hand[i][j] = hands[i * stride + j]
                self.c.total[i] += self.c.hand[i][j]
            self.c.hand[i][15] = 0
            self.c.hw[i] = pack_hand(self.c.hand[i])

    cdef void _start(self, long long max_nodes, double max_time, volatile int* stop,
                     Interrupt* intr) noexcept nogil:
        # The counters and limits of one search.
        self.c.nodes = 0
        self.c.max_nodes = max_nodes
        self.c.deadline = ddz_now() + max_time if max_time > 0 else 0.0
        self.c.aborted = AB_NONE
        self.c.stop = stop
        self.c.intr = intr

    cdef Py_ssize_t _order_root(self, const Root* pos, const unsigned char* only,
                                Py_ssize_t nonly) noexcept nogil:
        # (root_order in this game's row format)
        if pos.wmask:
            return root_order(&self.c, pos, only, nonly, <const WildRow*>pos.last_row)
        return root_order(&self.c, pos, only, nonly, &pos.last)

    cdef int _root_child(self, const Root* pos, const unsigned char* row) noexcept nogil:
        # The value of one root move for the side of the seat to move (1 /
        # 0, -1 stopped).
        if pos.wmask:
            return root_child(&self.c, pos, row, <const WildRow*>pos.last_row)
        return root_child(&self.c, pos, row, &pos.last)

    def run(self, bytes hands, tuple sides, rules, unsigned int ban, int to_move,
            bytes last_row, int last_by, bint all_moves, long long max_nodes,
            double max_time, _RootShare share=None, bint from_back=False):
        """Solve one position given as bytes (see run_position; the
        arguments are checked here too, whatever a direct caller passes).
        ``hands``: 15 counts per seat; ``last_row``: the move to beat (16
        bytes, kind last) or None."""
        return self.run_position(_Position.from_counts(hands, sides, rules, to_move, last_row, last_by),
                                 ban, all_moves, max_nodes, max_time, share, from_back)

    def run_position(self, _Position position not None, unsigned int ban, bint all_moves,
                     long long max_nodes, double max_time, _RootShare share=None, bint from_back=False):
        """Solve one position.

        Returns (aborted, results, moves, nodes): the root moves in search
        order with their values (1 win / 0 loss / -1 unknown) for the side
        of the seat to move.  With ``share`` (threads solving one position):
        the first run given it only sets the shared order of the root moves;
        later ones search the moves no other thread has taken, from the
        front of the order or (``from_back``) from its back, and stop when
        one of them has the answer.  A signal handler's exception (Ctrl-C)
        raised during the search is raised here (with ``share``: by the run
        on the main thread; the others stop with aborted AB_INTERRUPTED).
        """
        cdef const Root* pos = &position.root
        cdef int child
        cdef MoveInfo mi
        cdef Ply* pl
        cdef Py_ssize_t k, step, nroot = 0, stride = root_stride(pos)
        cdef const unsigned char* row
        cdef list results = []
        cdef list moves = []
        cdef int found = 0, set_only = 0
        cdef Stop stop = share.stop if share is not None else Stop()
        if pos.rc == NULL:
            raise ValueError("an empty _Position: make one with from_counts or from_game")
        if not self.lock.acquire(False):
            raise RuntimeError("this Solver is already solving a position in another thread; "
                               "use one Solver per thread")
        try:
            self._prepare(pos, ban)
            self._start(max_nodes, max_time, share.flag if share is not None else NULL, &stop.c)
            # The root: every move, in the search order, each searched in turn.
            pl = &self.c.plies[0]
            with nogil:
                nroot = self._order_root(pos, NULL, 0)
            if self.c.aborted:
                return self.c.aborted, [], [], self.c.nodes
            if share is not None:
                # (the threads must agree on the order: results are by index)
                if share.nroot < 0:
                    share._set_order(pl, nroot, stride)
                    set_only = 1
                else:
                    share._take_order(pl, nroot, ban, stride)
            for k in range(nroot):
                row = pl.out.data + pl.order[k] * stride
                row_info(row, &mi)
                if pos.wmask:
                    moves.append(wild_row_move(row, pos.rc.id, pos.wmask))
                else:
                    moves.append(make_move(mi.kind, row, mi.rank, mi.length))
                results.append(-1)
            for step in range(0 if set_only else nroot):
                k = nroot - 1 - step if from_back else step
                if (found and not all_moves) or self.c.aborted:
                    break
                if share is not None and (ddz_load(share.flag) or not ddz_claim(&share.claimed[k])):
                    continue
                row = pl.out.data + pl.order[k] * stride
                with nogil:
                    child = self._root_child(pos, row)
                results[k] = child
                if child == 1:
                    found = 1
                    if share is not None and not all_moves:
                        ddz_store(share.flag, 1)
            self.last_nodes = self.c.nodes
            stop.check()
            return self.c.aborted, results, moves, self.c.nodes
        finally:
            self.c.stop = NULL
            self.c.intr = NULL
            self.lock.release()

    cdef int _solve_worlds(self, const Root* pos, const unsigned char* worlds, Py_ssize_t nw,
                           const unsigned char* rows, Py_ssize_t nm, long long max_nodes,
                           double max_time, Interrupt* intr, double* out) noexcept nogil:
        # Solve_values' search (the context ready for pos: _prepare): for
        # each world w (pos.n hands of 15 counts), the value of each of the
        # nm rows into out[w * nm + m], NaN where unknown; the worlds in
        # order, each from the table the ones before it left.  Returns 1
        # when a search ran out of memory, else 0 (and stops at once when
        # intr says so: the caller raises what stopped it).
        cdef Ply* pl = &self.c.plies[0]
        cdef Py_ssize_t w, k, m, nroot, stride = root_stride(pos)
        cdef const unsigned char* row
        cdef int child, oom = 0
        for w in range(nw):
            self._load_hands(worlds + w * pos.n * 15, 15)
            self._start(max_nodes, max_time, NULL, intr)
            nroot = self._order_root(pos, rows, nm)
            for k in range(nroot):
                if self.c.aborted:
                    break
                row = pl.out.data + pl.order[k] * stride
                child = self._root_child(pos, row)
                if child < 0:
                    break
                for m in range(nm):
                    if memcmp(row, rows + m * stride, stride) == 0:
                        out[w * nm + m] = child
            if self.c.aborted == AB_MEMORY:
                oom = 1
            if self.c.aborted == AB_INTERRUPTED:
                break
        self.c.intr = NULL
        self.last_nodes = self.c.nodes
        return oom


cdef void load_state(Root* pos, const GState* s) noexcept nogil:
    # pos := the position of state s, in its play phase
    cdef int t
    pos.n = s.players
    pos.rc = rules_by_id(s.cid)
    pos.wmask = s.wmask
    for t in range(s.players):
        pos.side[t] = 0 if t == s.landlord else 1
    memcpy(pos.hand, s.hands, sizeof(pos.hand))
    pos.to_move = s.to_move
    if s.last_src == LAST_NONE:
        pos.last_by = -1
    else:
        pos.last_by = s.last_player
        pos.last = s.last
        if s.wmask:
            memcpy(pos.last_row, gs_last_row(s), WROW)


def solve_worlds(game, worlds, moves, long long max_nodes, double max_time, Py_ssize_t table_bytes):
    """Game.solve_values' compiled search (ddz_fast.solver.solve_values
    checks the limits): one fresh engine of ``table_bytes``, every world
    solved in order without the GIL."""
    cdef const GState* s = game_state(game)
    cdef Root root
    if s.phase != PH_PLAY:
        raise ValueError(f"solve_values needs the play phase, not {Phase(s.phase).name}")
    load_state(&root, s)
    w = checked_worlds(s, worlds, True)
    rows = checked_move_rows(s, root.rc, moves)
    cdef Py_ssize_t nw = w.shape[0], nm = rows.shape[0]
    out = np.full((nw, nm), np.nan)
    if nw == 0 or nm == 0:
        return out
    cdef const unsigned char[:, :, ::1] wv = w
    cdef const unsigned char[:, ::1] rv = rows
    cdef double[:, ::1] ov = out
    cdef _Engine engine = _Engine(table_bytes)
    engine._prepare(&root, 0)
    cdef int oom
    cdef Stop stop = Stop()
    with nogil:
        oom = engine._solve_worlds(&root, &wv[0, 0, 0], nw, &rv[0, 0], nm, max_nodes, max_time, &stop.c,
                                   &ov[0, 0])
    stop.check()
    if oom:
        raise MemoryError("out of memory in solve_values")
    return out


def next_turn(int players, int mover, bint passed, int last_by):
    """The seat to move after seat ``mover`` moved (``passed``: it passed),
    the move to beat made by seat ``last_by`` (-1: none), and the maker of
    the move to beat then (-1: the table cleared): the engine's one rule of
    turn order (_engine.pxd's turn_after), for ddz_fast.solver.winning_line."""
    cdef int passes = 0
    if not 2 <= players <= NSEATS or not 0 <= mover < players or not -1 <= last_by < players:
        raise ValueError("players, mover or last_by out of range")
    cdef int nxt = turn_after(players, mover, passed, &last_by, &passes)
    return nxt, last_by
