# cython: language_level=3
"""The compiled perfect-information solver (see ddz_fast.solver for the API).

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
one 60-bit word per hand (4 bits a rank) and one word for the rest.

Only this module's own buffers are touched inside the search, which runs
without the GIL; an _Engine is used by one search at a time (its lock).
"""
from libc.stdlib cimport calloc, realloc, free
from libc.string cimport memcpy, memset

import threading

from ._move cimport make_move, K_PASS, K_BOMB, K_ROCKET
from ._kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, out_init, out_free, gen_moves, row_info,
    valid_move_c,
)
from ._fast cimport rules_c

__all__ = ["_Engine", "_StopFlag", "MAX_SEATS"]

MAX_SEATS = 4

cdef extern from *:
    """
    #include <time.h>
    #if defined(_WIN32)
    #include <windows.h>
    static double ddz_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    static int ddz_load(volatile int* p) { return *p; }
    static void ddz_store(volatile int* p, int v) { *p = v; }
    #else
    static double ddz_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    static int ddz_load(volatile int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static void ddz_store(volatile int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    #endif
    """
    double ddz_now() noexcept nogil
    int ddz_load(volatile int* p) noexcept nogil
    void ddz_store(volatile int* p, int v) noexcept nogil


cdef enum:
    NSEATS = 4
    BUCKET = 4                  # entries per table bucket
    CHECK_EVERY = 4095          # nodes between clock / stop-flag checks (mask)
    # why a search stopped early (Ctx.aborted)
    AB_NONE = 0
    AB_NODES = 1
    AB_TIME = 2
    AB_MEMORY = 3
    AB_STOPPED = 4              # another thread found the root's answer

# The last word of a table entry (besides the hands):
#   bits 0-3 kind of the move to beat (0: a lead), 4-7 its rank + 1,
#   8-11 its length, 12-15 its size when a bomb, 16-18 seat to move,
#   19-21 seat that made the move to beat + 1, 22 occupied,
#   23 value (the side of the seat to move wins), 24-29 log2 of the
#   subtree's node count (the replacement priority).
cdef extern from *:
    """
    #define DDZ_KEY_MASK ((1ULL << 22) - 1)
    #define DDZ_OCCUPIED (1ULL << 22)
    #define DDZ_VALUE_BIT (1ULL << 23)
    #define DDZ_WORK_SHIFT 24
    """
    unsigned long long KEY_MASK "DDZ_KEY_MASK"
    unsigned long long OCCUPIED "DDZ_OCCUPIED"
    unsigned long long VALUE_BIT "DDZ_VALUE_BIT"
    int WORK_SHIFT "DDZ_WORK_SHIFT"


cdef struct Ply:
    Out out                     # the moves generated at this depth
    int* order                  # indices of the moves to try, best first
    int* score
    Py_ssize_t cap              # capacity of order / score


cdef struct Ctx:
    int n                       # seats (2..4)
    int side[4]                 # side of each seat (0 or 1)
    const RulesC* r
    unsigned int ban            # bit k set: moves of kind k are not allowed
    unsigned char hand[4][15]   # the hands, changed in place while searching
    int total[4]                # cards in each hand
    # transposition table: nbuckets * BUCKET entries of W words
    unsigned long long* tt
    size_t nbuckets
    int W
    # limits and counters
    long long nodes
    long long max_nodes         # 0: none
    double deadline             # 0: none
    int aborted
    volatile int* stop          # shared by the threads of one root, or NULL
    # per-depth buffers
    Ply* plies
    int nplies
    int history[2][512]         # cut-off counts per side and move hash


cdef inline unsigned long long pack_hand(const unsigned char* h) noexcept nogil:
    cdef unsigned long long w = 0
    cdef int j
    for j in range(15):
        w |= (<unsigned long long>h[j]) << (4 * j)
    return w


cdef inline unsigned long long pack_meta(const MoveInfo* last, int p, int last_by) noexcept nogil:
    cdef unsigned long long m = (<unsigned long long>p) << 16
    m |= (<unsigned long long>(last_by + 1)) << 19
    if last != NULL:
        m |= <unsigned long long>last.kind
        m |= (<unsigned long long>(last.rank + 1)) << 4
        m |= (<unsigned long long>last.length) << 8
        if last.kind == K_BOMB:
            m |= (<unsigned long long>last.ncards) << 12
    return m


cdef inline unsigned long long mix(unsigned long long x) noexcept nogil:
    # splitmix64's finaliser
    x ^= x >> 30
    x *= <unsigned long long>0xBF58476D1CE4E5B9
    x ^= x >> 27
    x *= <unsigned long long>0x94D049BB133111EB
    x ^= x >> 31
    return x


cdef inline unsigned int row_hash(const unsigned char* row) noexcept nogil:
    cdef unsigned long long k = 0
    cdef int j
    for j in range(ROW):
        k = k * 31 + row[j]
    return <unsigned int>(mix(k) & 511)


cdef inline int log2_work(long long n) noexcept nogil:
    cdef int b = 0
    while n > 1 and b < 63:
        n >>= 1
        b += 1
    return b


cdef unsigned long long* tt_bucket(Ctx* c, const unsigned long long* key) noexcept nogil:
    cdef unsigned long long h = key[c.n] & KEY_MASK
    cdef int i
    for i in range(c.n):
        h = mix(h ^ key[i])
    return c.tt + (h & (c.nbuckets - 1)) * (BUCKET * c.W)


cdef int tt_probe(Ctx* c, const unsigned long long* key) noexcept nogil:
    """1 or 0: the stored value of the position; -1: not stored."""
    cdef unsigned long long* e
    cdef int _i, j, ok
    if c.tt == NULL:
        return -1
    e = tt_bucket(c, key)
    for _i in range(BUCKET):
        if (e[c.n] & OCCUPIED) and (e[c.n] & KEY_MASK) == key[c.n]:
            ok = 1
            for j in range(c.n):
                if e[j] != key[j]:
                    ok = 0
                    break
            if ok:
                return 1 if e[c.n] & VALUE_BIT else 0
        e += c.W
    return -1


cdef void tt_store(Ctx* c, const unsigned long long* key, int value, long long work) noexcept nogil:
    cdef unsigned long long* e
    cdef unsigned long long* victim
    cdef unsigned long long prio, best = <unsigned long long>-1
    cdef int _i
    if c.tt == NULL:
        return
    e = tt_bucket(c, key)
    victim = e
    for _i in range(BUCKET):
        if not (e[c.n] & OCCUPIED):
            victim = e
            break
        prio = e[c.n] >> WORK_SHIFT
        if prio < best:
            best = prio
            victim = e
        e += c.W
    memcpy(victim, key, c.n * sizeof(unsigned long long))
    victim[c.n] = (key[c.n] | OCCUPIED | (VALUE_BIT if value else 0)
                   | ((<unsigned long long>log2_work(work)) << WORK_SHIFT))


cdef bint ply_reserve(Ply* pl, Py_ssize_t n) noexcept nogil:
    cdef int* o
    cdef int* s
    if n <= pl.cap:
        return True
    o = <int*>realloc(pl.order, n * sizeof(int))
    if o == NULL:
        return False
    pl.order = o
    s = <int*>realloc(pl.score, n * sizeof(int))
    if s == NULL:
        return False
    pl.score = s
    pl.cap = n
    return True


cdef inline int move_score(Ctx* c, int p, const unsigned char* row, const MoveInfo* mi) noexcept nogil:
    # Order: moves that leave the hand with few cards first (more cards
    # played), bombs and the rocket after the ordinary moves (a control move
    # kept is worth more than a few cards played), PASS last; ties go to the
    # moves that cut off most often before (history heuristic).
    cdef int s = mi.ncards * 64
    if mi.kind == K_PASS:
        s = -100000
    elif mi.kind == K_BOMB or mi.kind == K_ROCKET:
        s -= 2000
    return s * 64 + c.history[c.side[p]][row_hash(row)]


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


cdef int search(Ctx* c, int p, const MoveInfo* last, int last_by, int depth) noexcept nogil:
    """1 when the side of seat p (to move) wins with best play, 0 when it
    loses, -1 when the search stopped (a limit, or another thread)."""
    cdef unsigned long long key[5]
    cdef Ply* pl
    cdef Py_ssize_t i, m, nmoves
    cdef int v, child, nxt, k, result = 0, idx, t
    cdef long long before
    cdef const unsigned char* row
    cdef MoveInfo mi
    cdef unsigned char* h

    c.nodes += 1
    if (c.nodes & CHECK_EVERY) == 0:
        if c.stop != NULL and ddz_load(c.stop):
            c.aborted = AB_STOPPED
        elif c.deadline > 0 and ddz_now() > c.deadline:
            c.aborted = AB_TIME
    if c.max_nodes > 0 and c.nodes > c.max_nodes:
        c.aborted = AB_NODES
    if c.aborted:
        return -1
    if depth >= c.nplies:
        c.aborted = AB_MEMORY       # cannot happen: nplies bounds every line
        return -1

    for i in range(c.n):
        key[i] = pack_hand(c.hand[i])
    key[c.n] = pack_meta(last, p, last_by)
    v = tt_probe(c, key)
    if v >= 0:
        return v
    before = c.nodes

    pl = &c.plies[depth]
    pl.out.n = 0
    gen_moves(c.hand[p], c.r, last, &pl.out)
    if pl.out.oom or not ply_reserve(pl, pl.out.n):
        c.aborted = AB_MEMORY
        return -1
    h = c.hand[p]

    # A move that plays the whole hand wins at once; otherwise score and sort.
    m = 0
    for i in range(pl.out.n):
        row = pl.out.data + i * ROW
        k = row[KIND_BYTE]
        if (c.ban >> k) & 1:
            continue
        row_info(row, &mi)
        if mi.ncards == c.total[p]:
            tt_store(c, key, 1, 1)
            return 1
        order_insert(pl, m, move_score(c, p, row, &mi), <int>i)
        m += 1
    nmoves = m

    for i in range(nmoves):
        idx = pl.order[i]
        row = pl.out.data + idx * ROW
        row_info(row, &mi)
        nxt = p + 1
        if nxt == c.n:
            nxt = 0
        if mi.kind == K_PASS:
            if nxt == last_by:
                child = search(c, nxt, NULL, -1, depth + 1)
            else:
                child = search(c, nxt, last, last_by, depth + 1)
        else:
            for t in range(15):
                h[t] -= row[t]
            c.total[p] -= mi.ncards
            child = search(c, nxt, &mi, p, depth + 1)
            for t in range(15):
                h[t] += row[t]
            c.total[p] += mi.ncards
            # (the generated rows of this depth are intact: deeper plies use
            # their own buffers)
        if child < 0:
            return -1
        if c.side[nxt] != c.side[p]:
            child = 1 - child
        if child:
            result = 1
            t = row_hash(row)
            if c.history[c.side[p]][t] < 1000000:
                c.history[c.side[p]][t] += 1
            break
    tt_store(c, key, result, c.nodes - before)
    return result


cdef class _StopFlag:
    """A flag shared by the threads solving one root: set when the answer is known."""
    cdef int* flag

    def __cinit__(self):
        self.flag = <int*>calloc(1, sizeof(int))
        if self.flag == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.flag)


cdef class _Engine:
    """One search context: a transposition table of a fixed size and the
    per-depth move buffers.  Internal; see :class:`ddz_fast.solver.Solver`.

    The table is kept between calls with the same seats, sides, rules and
    banned kinds (its values depend on nothing else) and cleared otherwise.
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
        free(self.c.tt)
        self.c.tt = NULL

    cdef void _free_plies(self) noexcept:
        cdef int i
        if self.c.plies != NULL:
            for i in range(self.c.nplies):
                out_free(&self.c.plies[i].out)
                free(self.c.plies[i].order)
                free(self.c.plies[i].score)
            free(self.c.plies)
        self.c.plies = NULL
        self.c.nplies = 0

    cdef int _setup_table(self, int n) except -1:
        # Entries of n + 1 words; the bucket count a power of two.
        cdef Py_ssize_t W = n + 1
        cdef Py_ssize_t per_bucket = BUCKET * W * sizeof(unsigned long long)
        cdef size_t nb = 1
        if self.table_bytes < per_bucket:
            free(self.c.tt)
            self.c.tt = NULL
            self.c.nbuckets = 0
            self.c.W = <int>W
            return 0
        while nb * 2 * per_bucket <= <size_t>self.table_bytes:
            nb *= 2
        if self.c.tt != NULL and self.c.nbuckets == nb and self.c.W == W:
            with nogil:
                memset(self.c.tt, 0, nb * per_bucket)
            return 0
        free(self.c.tt)
        self.c.tt = <unsigned long long*>calloc(nb * BUCKET * W, sizeof(unsigned long long))
        if self.c.tt == NULL:
            self.c.nbuckets = 0
            raise MemoryError(f"cannot allocate a {self.table_bytes}-byte transposition table")
        self.c.nbuckets = nb
        self.c.W = <int>W
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

    def run(self, bytes hands, tuple sides, rules, unsigned int ban, int to_move,
            bytes last_row, int last_by, bint all_moves, long long max_nodes,
            double max_time, int part=0, int parts=1, _StopFlag stop=None):
        """Solve one position (arguments validated by ddz_fast.solver).

        Returns (aborted, results, moves, nodes): the root moves in search
        order with their values (1 win / 0 loss / -1 unknown) for the side
        of ``to_move``; only the moves ``i % parts == part`` are searched.
        """
        cdef int n = len(sides)
        cdef int i, j, total_cards = 0, child, st
        cdef const RulesC* rc = rules_c(rules)
        cdef MoveInfo last_mi
        cdef MoveInfo mi
        cdef const MoveInfo* lastp = NULL
        cdef unsigned char lrow[16]
        cdef Ply* pl
        cdef Py_ssize_t k, nroot
        cdef const unsigned char* row
        cdef list results = []
        cdef list moves = []
        cdef int found = 0
        # (ddz_fast.solver checks everything first; these keep the kernels'
        # invariants whatever a direct caller passes)
        if not 2 <= n <= NSEATS or len(hands) != 15 * n:
            raise ValueError(f"need 2..{NSEATS} sides and 15 counts per seat")
        for i in range(n):
            if sides[i] not in (0, 1):
                raise ValueError("sides must be 0 or 1")
            for j in range(15):
                if hands[15 * i + j] > (rc.max_joker if j >= 13 else rc.max_count):
                    raise ValueError(f"seat {i} holds more cards of rank slot {j} than the deck")
        if not 0 <= to_move < n or not -1 <= last_by < n or parts < 1 or not 0 <= part < parts:
            raise ValueError("to_move, last_by or part out of range")
        if last_row is not None and len(last_row) != 16:
            raise ValueError("last_row must be 16 bytes")
        if not self.lock.acquire(False):
            raise RuntimeError("this Solver is already solving a position in another thread; "
                               "use one Solver per thread")
        try:
            cid = rc.id
            # (a tuple of these straight from the C struct hangs Cython 3.3.1)
            config = (cid, ban, n, self.table_bytes) + sides
            if config != self.config:
                self._setup_table(n)
                memset(self.c.history, 0, sizeof(self.c.history))
                self.config = config
            self.c.n = n
            self.c.r = rc
            self.c.ban = ban
            for i in range(n):
                self.c.side[i] = sides[i]
                self.c.total[i] = 0
                for j in range(15):
                    self.c.hand[i][j] = hands[15 * i + j]
                    self.c.total[i] += hands[15 * i + j]
                total_cards += self.c.total[i]
            if last_row is not None:
                for j in range(16):
                    lrow[j] = last_row[j]
                if not valid_move_c(lrow, rc, &last_mi) or last_mi.kind == K_PASS:
                    raise ValueError("the move to beat is not a legal move under these rules")
                lastp = &last_mi
            # a line plays at least one card every n plies
            self._setup_plies(n * (total_cards + 2) + 2)
            self.c.nodes = 0
            self.c.max_nodes = max_nodes
            self.c.deadline = ddz_now() + max_time if max_time > 0 else 0.0
            self.c.aborted = AB_NONE
            self.c.stop = stop.flag if stop is not None else NULL

            # The root: every move, in the search order, each searched in turn.
            pl = &self.c.plies[0]
            with nogil:
                pl.out.n = 0
                gen_moves(self.c.hand[to_move], rc, lastp, &pl.out)
                if pl.out.oom or not ply_reserve(pl, pl.out.n):
                    self.c.aborted = AB_MEMORY
                else:
                    nroot = 0
                    for k in range(pl.out.n):
                        row = pl.out.data + k * ROW
                        if (ban >> row[KIND_BYTE]) & 1:
                            continue
                        row_info(row, &mi)
                        st = 1000000 if mi.ncards == self.c.total[to_move] else move_score(
                            &self.c, to_move, row, &mi)
                        order_insert(pl, nroot, st, <int>k)
                        nroot += 1
            if self.c.aborted:
                return self.c.aborted, [], [], self.c.nodes
            for k in range(nroot):
                row = pl.out.data + pl.order[k] * ROW
                row_info(row, &mi)
                moves.append(make_move(mi.kind, row, mi.rank, mi.length))
                if k % parts != part or (found and not all_moves) or self.c.aborted:
                    results.append(-1)
                    continue
                with nogil:
                    child = self._root_child(to_move, row, &mi, lastp, last_by)
                results.append(child)
                if child == 1:
                    found = 1
                    if stop is not None and not all_moves:
                        ddz_store(stop.flag, 1)
            self.last_nodes = self.c.nodes
            return self.c.aborted, results, moves, self.c.nodes
        finally:
            self.c.stop = NULL
            self.lock.release()

    cdef int _root_child(self, int p, const unsigned char* row, const MoveInfo* mi,
                         const MoveInfo* last, int last_by) noexcept nogil:
        # The value of one root move for the side of p (1 / 0, -1 stopped).
        cdef Ctx* c = &self.c
        cdef int nxt = (p + 1) % c.n, child, t
        if mi.kind == K_PASS:
            if nxt == last_by:
                child = search(c, nxt, NULL, -1, 1)
            else:
                child = search(c, nxt, last, last_by, 1)
        else:
            if mi.ncards == c.total[p]:
                return 1
            for t in range(15):
                c.hand[p][t] -= row[t]
            c.total[p] -= mi.ncards
            child = search(c, nxt, mi, p, 1)
            for t in range(15):
                c.hand[p][t] += row[t]
            c.total[p] += mi.ncards
        if child < 0:
            return -1
        if c.side[nxt] != c.side[p]:
            child = 1 - child
        return child
