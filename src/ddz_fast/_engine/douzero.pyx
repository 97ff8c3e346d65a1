# cython: language_level=3
"""DouZero's legal-action list and features, compiled (the public API is
:mod:`ddz_fast.compat.douzero`).

Two things are reproduced here exactly as the ``douzero`` package (1.1.0)
computes them, on raw buffers and without the GIL:

* the list ``GameEnv.get_legal_card_play_actions`` returns: its order (which
  follows the iteration order of a CPython ``set`` and ``dict`` built from
  the hand), its repeats, and DouZero's own reading of the move to beat,
  where that departs from the rules (docs/compat.md);
* the arrays of ``douzero.env.env.get_obs``: ``x_batch`` (one row per
  listed action), ``z_batch``, ``x_no_action`` and ``z``.

Ranks are our indices 0..14 (3..A, 2, low joker, high joker) throughout; a
move is a 16-byte row of counts (byte 15 unused here, or the kind when a
row is looked up in an action space).  Positions are numbered in DouZero's
order: 0 landlord, 1 landlord_up, 2 landlord_down.
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from .._core.kernels cimport RulesC, MoveInfo, ROW, KIND_BYTE, classify_c
from .._core.move cimport K_PASS
from .game cimport game_state
from .engine cimport GState, PH_PLAY, PH_OVER, ORIGIN_DEAL, A_MOVE, MOVE_ID0
from .vec cimport vec_states, vec_release
from .._core.entry cimport rules_id, rules_by_id, row_move
from .._core.ranks cimport MoveRanks, ranks_for

import threading

import numpy as np

from .._util.checks import read_only_view

cnp.import_array()

__all__ = ["POSITIONS", "X_SIZES", "listed_actions", "obs_from_lists", "game_obs", "VecFeatures", "cards54_rows"]

#: DouZero's positions, in the order of its own position lists.
POSITIONS = ("landlord", "landlord_up", "landlord_down")
#: Width of an x_batch row per position (x_no_action is 54 less).
X_SIZES = (373, 484, 484)

cdef enum:
    NR = 15
    XW = 484                 # widest x_batch row (the farmers')
    NOACT_L = 319            # x_no_action widths
    NOACT_F = 430
    ZLEN = 15                # moves in z (5 rounds of 3)
    ZW = 810                 # 15 * 54

    # DouZero's move types (its detector's numbering).
    T_PASS = 0
    T_SINGLE = 1
    T_PAIR = 2
    T_TRIPLE = 3
    T_BOMB = 4
    T_ROCKET = 5
    T_3_1 = 6
    T_3_2 = 7
    T_CHAIN = 8
    T_PAIR_CHAIN = 9
    T_TRIO_CHAIN = 10
    T_PLANE_1 = 11
    T_PLANE_2 = 12
    T_4_2 = 13
    T_4_22 = 14
    T_WRONG = 15

# DouZero's int for each rank (its set/dict order depends on these values).
cdef int DZV[15]
DZV[:] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
cdef dict _DZ_INDEX = {v: i for i, v in enumerate([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30])}


# ---------------------------------------------------------------------------
# A growable list of move rows
# ---------------------------------------------------------------------------

cdef struct Rows:
    uint8_t* data            # ROW bytes per move
    Py_ssize_t n, cap
    bint oom


cdef bint rows_init(Rows* l, Py_ssize_t cap) noexcept nogil:
    l.data = <uint8_t*>malloc(cap * ROW)
    l.n = 0
    l.cap = cap if l.data != NULL else 0
    l.oom = l.data == NULL
    return not l.oom


cdef void rows_free(Rows* l) noexcept nogil:
    free(l.data)
    l.data = NULL
    l.n = l.cap = 0


cdef uint8_t* rows_add(Rows* l) noexcept nogil:
    """A zeroed new row at the end (NULL, and l.oom, when out of memory)."""
    cdef uint8_t* grown
    cdef Py_ssize_t cap
    if l.oom:
        return NULL
    if l.n == l.cap:
        cap = 2 * l.cap if l.cap else 64
        grown = <uint8_t*>realloc(l.data, cap * ROW)
        if grown == NULL:
            l.oom = True
            return NULL
        l.data = grown
        l.cap = cap
    cdef uint8_t* r = l.data + l.n * ROW
    memset(r, 0, ROW)
    l.n += 1
    return r


cdef inline void add1(Rows* l, int a, int ca) noexcept nogil:
    cdef uint8_t* r = rows_add(l)
    if r != NULL:
        r[a] = <uint8_t>ca


cdef inline void add2(Rows* l, int a, int ca, int b, int cb) noexcept nogil:
    cdef uint8_t* r = rows_add(l)
    if r != NULL:
        r[a] += <uint8_t>ca
        r[b] += <uint8_t>cb


# ---------------------------------------------------------------------------
# The hand as DouZero's generator sees it
# ---------------------------------------------------------------------------

cdef struct Hand:
    int cnt[15]
    int seq[40]              # the cards in the hand's list order (rank indices)
    int n
    int dict_order[15]       # distinct ranks by first appearance (a dict's order)
    int set_order[15]        # distinct ranks in CPython set(list) iteration order
    int nd


cdef void set_iteration_order(Hand* h) noexcept nogil:
    """The order in which CPython iterates ``set(cards)`` for DouZero's card
    ints (small ints hash to themselves): an 8-slot table probed with
    ``i = 5*i + 1`` (the perturbation is 0 below 32) until the fifth insert
    resizes it to 32 slots, where every value sits at its own index."""
    cdef int table[32]
    cdef int size = 8, fill = 0, k, i, v, t
    for k in range(32):
        table[k] = -1
    for k in range(h.n):
        v = DZV[h.seq[k]]
        i = v & (size - 1)
        while table[i] != -1 and table[i] != v:
            i = (i * 5 + 1) & (size - 1)
        if table[i] == v:
            continue
        table[i] = v
        fill += 1
        if size == 8 and fill * 5 >= 7 * 3:
            for t in range(8):          # reinsert: no collisions at 32 slots
                table[t] = -1
            size = 32
            for t in range(k + 1):
                table[DZV[h.seq[t]]] = DZV[h.seq[t]]
    t = 0
    for k in range(size):
        if table[k] != -1:
            h.set_order[t] = _rank_of(table[k])
            t += 1


cdef inline int _rank_of(int v) noexcept nogil:
    if v <= 14:
        return v - 3
    if v == 17:
        return 12
    return 13 if v == 20 else 14


cdef void hand_from_seq(Hand* h, const int* seq, int n) noexcept nogil:
    """seq: rank indices in list order (n <= 40, counts already checked)."""
    cdef int k, r
    memset(h.cnt, 0, sizeof(h.cnt))
    h.n = n
    h.nd = 0
    for k in range(n):
        r = seq[k]
        h.seq[k] = r
        if h.cnt[r] == 0:
            h.dict_order[h.nd] = r
            h.nd += 1
        h.cnt[r] += 1
    set_iteration_order(h)


cdef void hand_from_counts(Hand* h, const uint8_t* c) noexcept nogil:
    """A hand DouZero keeps sorted (ascending), as the engine holds it."""
    cdef int seq[40]
    cdef int n = 0, r, _k
    for r in range(NR):
        for _k in range(c[r]):
            seq[n] = r
            n += 1
    hand_from_seq(h, seq, n)


# ---------------------------------------------------------------------------
# DouZero's reading of the move to beat
# ---------------------------------------------------------------------------

cdef inline bint chain_run(const int* ranks, int n) noexcept nogil:
    """Ascending ranks with consecutive DouZero values (a 2 or a joker
    never follows an ace: 14 -> 17)."""
    cdef int i
    for i in range(n - 1):
        if ranks[i + 1] != ranks[i] + 1 or ranks[i + 1] > 11:
            return False
    return True


cdef int dz_type(const uint8_t* c, int* length) noexcept nogil:
    """DouZero's move type of cards c (and its chain length in length)."""
    cdef int size = 0, nd = 0, r
    cdef int cc[5]
    cdef int keys[15]
    cdef int s3[15]
    cdef int n3 = 0
    memset(cc, 0, sizeof(cc))
    length[0] = 1
    for r in range(NR):
        if c[r]:
            keys[nd] = r
            nd += 1
            size += c[r]
            cc[c[r] if c[r] <= 4 else 4] += 1
            if c[r] == 3:
                s3[n3] = r
                n3 += 1
    if size == 0:
        return T_PASS
    if size == 1:
        return T_SINGLE
    if size == 2:
        if nd == 1:
            return T_PAIR
        if c[13] == 1 and c[14] == 1:
            return T_ROCKET
        return T_WRONG
    if size == 3:
        return T_TRIPLE if nd == 1 else T_WRONG
    if size == 4:
        if nd == 1:
            return T_BOMB
        if nd == 2 and cc[3] == 1:
            return T_3_1
        return T_WRONG
    if nd == size and chain_run(keys, nd):
        length[0] = size
        return T_CHAIN
    if size == 5:
        return T_3_2 if nd == 2 else T_WRONG
    if size == 6 and (nd == 2 or nd == 3) and cc[4] == 1 and (cc[2] == 1 or cc[1] == 2):
        return T_4_2
    if size == 8 and (((nd == 3 or nd == 2) and cc[4] == 1 and cc[2] == 2) or cc[4] == 2):
        return T_4_22
    if nd == cc[2] and chain_run(keys, nd):
        length[0] = nd
        return T_PAIR_CHAIN
    if nd == cc[3] and chain_run(keys, nd):
        length[0] = nd
        return T_TRIO_CHAIN
    if cc[3] >= 2:
        if cc[4]:
            return T_WRONG
        if chain_run(s3, n3):
            if n3 == cc[1] + 2 * cc[2]:
                length[0] = n3
                return T_PLANE_1
            if n3 == cc[2] and nd == 2 * n3:
                length[0] = n3
                return T_PLANE_2
        if n3 == 4 and (chain_run(s3 + 1, 3) or chain_run(s3, 3)):
            length[0] = 3
            return T_PLANE_1
    return T_WRONG


cdef int sorted_at(const uint8_t* c, int k) noexcept nogil:
    """The rank of card k of the cards in ascending order."""
    cdef int r, seen = 0
    for r in range(NR):
        seen += c[r]
        if seen > k:
            return r
    return -1


cdef int top_with(const uint8_t* c, int count) noexcept nogil:
    """The highest rank held exactly `count` times (-1: none)."""
    cdef int r
    for r in range(NR - 1, -1, -1):
        if c[r] == count:
            return r
    return -1


cdef int beat_key(const uint8_t* c, int t) noexcept nogil:
    """The rank DouZero compares for a move of type t."""
    if t == T_3_1:
        return sorted_at(c, 1)
    if t == T_3_2 or t == T_4_2:
        return sorted_at(c, 2)
    if t == T_PLANE_1 or t == T_PLANE_2:
        return top_with(c, 3)
    if t == T_4_22:
        return top_with(c, 4)
    return sorted_at(c, 0)


# ---------------------------------------------------------------------------
# DouZero's generator
# ---------------------------------------------------------------------------

cdef int chains(const Hand* h, int least, int min_len, int want, int* starts, int* lens) noexcept nogil:
    """Chains of ranks held >= `least` times: DouZero's serial generator.
    want == 0 (or below min_len): every length from min_len up, by run,
    then length, then start; else only chains of length want."""
    cdef int n = 0, r = 0, s, L, steps, i
    if want < min_len:
        want = 0
    while r < 12:
        if h.cnt[r] < least:
            r += 1
            continue
        s = r
        while r + 1 < 12 and h.cnt[r + 1] >= least:
            r += 1
        L = r - s + 1
        r += 1
        if L < min_len:
            continue
        if want == 0:
            for steps in range(min_len, L + 1):
                for i in range(L - steps + 1):
                    starts[n] = s + i
                    lens[n] = steps
                    n += 1
        elif L >= want:
            for i in range(L - want + 1):
                starts[n] = s + i
                lens[n] = want
                n += 1
    return n


cdef void add_chains(Rows* out, const Hand* h, int least, int min_len, int want) noexcept nogil:
    cdef int starts[80]
    cdef int lens[80]
    cdef int n = chains(h, least, min_len, want, starts, lens), k, r
    cdef uint8_t* row
    for k in range(n):
        row = rows_add(out)
        if row == NULL:
            return
        for r in range(starts[k], starts[k] + lens[k]):
            row[r] = <uint8_t>least


cdef bint next_combo(int* idx, int k, int m) noexcept nogil:
    """Advance idx (k ascending indices below m) in itertools.combinations order."""
    cdef int i = k - 1, j
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


cdef void add_combos(Rows* out, const uint8_t* base, const int* pool, int m, int k, int per,
                     bint dedupe) noexcept nogil:
    """base plus `per` cards of each rank of every k-combination of pool
    (in combinations order); dedupe drops a combination equal, card for
    card, to the one before it (itertools.groupby over the lists)."""
    cdef int idx[20]
    cdef int prev[20]
    cdef int i
    cdef bint same
    cdef uint8_t* row
    if k > m or k > 20:
        return
    for i in range(k):
        idx[i] = i
    cdef bint first = True
    while True:
        same = not first
        if dedupe and not first:
            for i in range(k):
                if pool[idx[i]] != prev[i]:
                    same = False
                    break
        if not (dedupe and same):
            row = rows_add(out)
            if row == NULL:
                return
            memcpy(row, base, NR)
            for i in range(k):
                row[pool[idx[i]]] += <uint8_t>per
        if dedupe:
            for i in range(k):
                prev[i] = pool[idx[i]]
        first = False
        if not next_combo(idx, k, m):
            return


cdef void gen_singles(Rows* o, const Hand* h) noexcept nogil:
    cdef int k
    for k in range(h.nd):
        add1(o, h.set_order[k], 1)


cdef void gen_groups(Rows* o, const Hand* h, int least, int exactly) noexcept nogil:
    """Pairs / trios (held >= least) or bombs (held == 4), in dict order."""
    cdef int k, r
    for k in range(h.nd):
        r = h.dict_order[k]
        if (exactly and h.cnt[r] == exactly) or (not exactly and h.cnt[r] >= least):
            add1(o, r, exactly if exactly else least)


cdef void gen_rocket(Rows* o, const Hand* h) noexcept nogil:
    if h.cnt[13] and h.cnt[14]:
        add2(o, 13, 1, 14, 1)


cdef void gen_trio_with(Rows* o, const Hand* h, int kick) noexcept nogil:
    """Trio + single (kick 1: singles in set order) or + pair (kick 2:
    pairs in dict order), the kicker the outer loop."""
    cdef int a, b, t, r
    for a in range(h.nd):
        t = h.set_order[a] if kick == 1 else h.dict_order[a]
        if h.cnt[t] < kick:
            continue
        for b in range(h.nd):
            r = h.dict_order[b]
            if h.cnt[r] >= 3 and r != t:
                add2(o, t, kick, r, 3)


cdef void gen_planes(Rows* o, const Hand* h, int kick, int want) noexcept nogil:
    """Trio chains with `kick`-card attachments (1: any cards of the hand in
    its order, repeats of consecutive equal lists dropped; 2: pairs of
    other ranks, ascending)."""
    cdef int starts[80]
    cdef int lens[80]
    cdef int pool[40]
    cdef uint8_t base[16]
    cdef int n = chains(h, 3, 2, want, starts, lens), k, r, m, j
    for k in range(n):
        memset(base, 0, 16)
        for r in range(starts[k], starts[k] + lens[k]):
            base[r] = 3
        m = 0
        if kick == 1:
            for j in range(h.n):
                if base[h.seq[j]] == 0:
                    pool[m] = h.seq[j]
                    m += 1
        else:
            for r in range(NR):
                if h.cnt[r] >= 2 and base[r] == 0:
                    pool[m] = r
                    m += 1
        add_combos(o, base, pool, m, lens[k], kick, kick == 1)


cdef void gen_four_with(Rows* o, const Hand* h, int kick) noexcept nogil:
    """Four + two cards (kick 1: the hand's other cards in order, repeats of
    consecutive equal lists dropped) or + two pairs (kick 2: ranks held
    twice or more, dict order)."""
    cdef int pool[40]
    cdef uint8_t base[16]
    cdef int a, f, j, m, r
    for a in range(h.nd):
        f = h.dict_order[a]
        if h.cnt[f] != 4:
            continue
        memset(base, 0, 16)
        base[f] = 4
        m = 0
        if kick == 1:
            for j in range(h.n):
                if h.seq[j] != f:
                    pool[m] = h.seq[j]
                    m += 1
        else:
            for j in range(h.nd):
                r = h.dict_order[j]
                if r != f and h.cnt[r] >= 2:
                    pool[m] = r
                    m += 1
        add_combos(o, base, pool, m, 2, kick, kick == 1)


cdef void keep_beating(Rows* o, Py_ssize_t start, const uint8_t* rival, int t) noexcept nogil:
    """Drop rows from `start` on whose compared rank is not above the rival's."""
    cdef int key = beat_key(rival, t)
    cdef Py_ssize_t k, w = start
    for k in range(start, o.n):
        if beat_key(o.data + k * ROW, t) > key:
            if w != k:
                memcpy(o.data + w * ROW, o.data + k * ROW, ROW)
            w += 1
    o.n = w


cdef void dz_legal(const Hand* h, const uint8_t* rival, Rows* o) noexcept nogil:
    """GameEnv.get_legal_card_play_actions: the hand h facing `rival` (all
    zeros: a lead), appended to o in DouZero's order, repeats included."""
    cdef int length
    cdef int t = dz_type(rival, &length)
    cdef Py_ssize_t start = o.n
    if t == T_PASS:
        gen_singles(o, h)
        gen_groups(o, h, 2, 0)
        gen_groups(o, h, 3, 0)
        gen_groups(o, h, 0, 4)
        gen_rocket(o, h)
        gen_trio_with(o, h, 1)
        gen_trio_with(o, h, 2)
        add_chains(o, h, 1, 5, 0)
        add_chains(o, h, 2, 3, 0)
        add_chains(o, h, 3, 2, 0)
        gen_planes(o, h, 1, 0)
        gen_planes(o, h, 2, 0)
        gen_four_with(o, h, 1)
        gen_four_with(o, h, 2)
        return
    if t == T_SINGLE:
        gen_singles(o, h)
    elif t == T_PAIR:
        gen_groups(o, h, 2, 0)
    elif t == T_TRIPLE:
        gen_groups(o, h, 3, 0)
    elif t == T_BOMB:
        gen_groups(o, h, 0, 4)
        gen_rocket(o, h)
    elif t == T_3_1:
        gen_trio_with(o, h, 1)
    elif t == T_3_2:
        gen_trio_with(o, h, 2)
    elif t == T_CHAIN:
        add_chains(o, h, 1, 5, length)
    elif t == T_PAIR_CHAIN:
        add_chains(o, h, 2, 3, length)
    elif t == T_TRIO_CHAIN:
        add_chains(o, h, 3, 2, length)
    elif t == T_PLANE_1:
        gen_planes(o, h, 1, length)
    elif t == T_PLANE_2:
        gen_planes(o, h, 2, length)
    elif t == T_4_2:
        gen_four_with(o, h, 1)
    elif t == T_4_22:
        gen_four_with(o, h, 2)
    if t != T_ROCKET and t != T_WRONG:
        keep_beating(o, start, rival, t)
    if t != T_BOMB and t != T_ROCKET:
        gen_groups(o, h, 0, 4)
        gen_rocket(o, h)
    rows_add(o)                                  # the pass


# ---------------------------------------------------------------------------
# DouZero's features
# ---------------------------------------------------------------------------

cdef struct View:
    # What get_obs reads from an infoset; per-position arrays by POSITIONS index.
    int pos
    uint8_t hand[16]
    uint8_t other[16]
    uint8_t last[16]         # the move to beat (zeros: none)
    uint8_t played[3][16]
    uint8_t last_move[3][16]
    int left[3]
    int bombs
    uint8_t seq[15][16]      # the last 15 card-play actions, oldest first, zeros in front


ctypedef fused slot_t:
    int8_t
    float


cdef inline void cards54(const uint8_t* c, slot_t* out) noexcept nogil:
    """DouZero's 54-slot card array: rank r's k-th card in slot 4r + k, the
    jokers in 52 and 53 (into int8 features or a float x_batch row)."""
    cdef int r, k
    for r in range(13):
        for k in range(c[r]):
            out[r * 4 + k] = 1
    if c[13]:
        out[52] = 1
    if c[14]:
        out[53] = 1


def cards54_rows(const uint8_t[:, ::1] counts not None):
    """DouZero's 54-slot card array (``cards54``) of each row of ``counts``,
    an ``(N, 15)`` ``uint8`` array already checked to hold one deck: ``int8``
    ``(N, 54)``.  The one encoder behind :func:`ddz_fast.encode.encode_douzero`
    and the features."""
    if counts.shape[1] != 15:
        raise ValueError(f"counts must have shape (N, 15), not ({counts.shape[0]}, {counts.shape[1]})")
    cdef Py_ssize_t n = counts.shape[0], i, r
    for i in range(n):              # (the slots of a rank hold 4 cards, a joker 1)
        for r in range(15):
            if counts[i, r] > (4 if r < 13 else 1):
                raise ValueError(f"row {i} holds {counts[i, r]} cards of slot {r}: one deck holds fewer")
    out = np.zeros((n, 54), dtype=np.int8)
    cdef int8_t[:, ::1] o = out
    with nogil:
        for i in range(n):
            cards54(&counts[i, 0], &o[i, 0])
    return out


cdef inline void one_hot(int8_t* out, int n, int size) noexcept nogil:
    # DouZero indexes with n - 1: an empty hand lands on the last slot.
    out[n - 1 if n > 0 else size - 1] = 1


cdef int no_action(const View* v, int8_t* x) noexcept nogil:
    """x_no_action (zeroed first); returns its width."""
    cdef int mate
    if v.pos == 0:
        memset(x, 0, NOACT_L)
        cards54(v.hand, x)
        cards54(v.other, x + 54)
        cards54(v.last, x + 108)
        cards54(v.played[1], x + 162)
        cards54(v.played[2], x + 216)
        one_hot(x + 270, v.left[1], 17)
        one_hot(x + 287, v.left[2], 17)
        x[304 + v.bombs] = 1
        return NOACT_L
    mate = 2 if v.pos == 1 else 1
    memset(x, 0, NOACT_F)
    cards54(v.hand, x)
    cards54(v.other, x + 54)
    cards54(v.played[0], x + 108)
    cards54(v.played[mate], x + 162)
    cards54(v.last, x + 216)
    cards54(v.last_move[0], x + 270)
    cards54(v.last_move[mate], x + 324)
    one_hot(x + 378, v.left[0], 20)
    one_hot(x + 398, v.left[mate], 17)
    x[415 + v.bombs] = 1
    return NOACT_F


cdef void history_z(const View* v, int8_t* z) noexcept nogil:
    cdef int k
    memset(z, 0, ZW)
    for k in range(ZLEN):
        cards54(v.seq[k], z + 54 * k)


cdef void action_rows(const int8_t* x, int width, const uint8_t* moves, Py_ssize_t n,
                      float* out, Py_ssize_t stride) noexcept nogil:
    """x_batch: x_no_action then the action's 54 slots, one row per move
    (the shared part converted once, then copied row to row)."""
    cdef float base[XW]
    cdef Py_ssize_t k
    cdef int j
    cdef float* row
    for j in range(width):
        base[j] = x[j]
    for j in range(width, stride):
        base[j] = 0
    for k in range(n):
        row = out + k * stride
        memcpy(row, base, stride * sizeof(float))
        cards54(moves + k * ROW, row + width)


cdef int view_from_state(const GState* s, View* v) noexcept nogil:
    """The view of the seat to act of a 3-player play-phase state from a
    deal; its DouZero position."""
    cdef int p = s.to_move, L = s.landlord, t, r, pos, i, k, found = 0
    cdef int posof[3]
    cdef bint seen[3]
    for t in range(3):
        pos = (t - L + 3) % 3                  # 0 landlord, 1 down, 2 up (seat order)
        posof[t] = 0 if pos == 0 else (2 if pos == 1 else 1)
        seen[t] = False
    memset(v, 0, sizeof(View))
    v.pos = posof[p]
    for r in range(NR):
        v.hand[r] = s.hands[p][r]
    for t in range(3):
        for r in range(NR):
            v.played[posof[t]][r] = s.played[t][r]
            if t != p:
                v.other[r] += s.hands[t][r]
        v.left[posof[t]] = s.ncards[t]
    if s.last_src >= 0:
        memcpy(v.last, s.hist[s.last_src].row, NR)
    v.bombs = s.bombs
    k = ZLEN
    i = s.nh - 1
    while i >= 0 and (k > 0 or found < 3):
        if s.hist[i].action == A_MOVE:
            t = s.hist[i].seat
            if k > 0:
                k -= 1
                memcpy(v.seq[k], s.hist[i].row, NR)
            if not seen[t]:
                seen[t] = True
                found += 1
                memcpy(v.last_move[posof[t]], s.hist[i].row, NR)
        i -= 1
    for k in range(ZLEN):
        v.seq[k][KIND_BYTE] = 0
    for t in range(3):
        v.last_move[t][KIND_BYTE] = 0
    v.last[KIND_BYTE] = 0
    return v.pos


# ---------------------------------------------------------------------------
# Python boundary: DouZero card lists
# ---------------------------------------------------------------------------

cdef int card_list(object cards, uint8_t* out, int* seq, int cap, str what) except -1:
    """Counts (and, with seq, the rank order) of a DouZero card list; checks
    types and the deck.  Returns the number of cards."""
    cdef int n = 0, r
    if type(cards) is not list and type(cards) is not tuple:
        if isinstance(cards, np.ndarray):
            if isinstance(cards, np.ma.MaskedArray):
                raise TypeError(f"{what} must be a plain list or array of card ints, not a masked array")
            if cards.ndim != 1:
                raise ValueError(f"{what} must be a 1-D list of card ints, not shape {cards.shape}")
        elif isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
            raise TypeError(f"{what} must be a list of DouZero card ints, not {type(cards).__name__}")
    memset(out, 0, 16)
    for v in cards:
        if type(v) is not int:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{what}: card {v!r} is a {type(v).__name__}, not an int")
            v = int(v)
        idx = _DZ_INDEX.get(v)
        if idx is None:
            raise ValueError(f"{what}: {v!r} is not a DouZero card (3..14, 17, 20, 30)")
        r = <int>idx
        out[r] += 1
        if out[r] > (1 if r >= 13 else 4):
            raise ValueError(f"{what}: more {v}s than one deck holds")
        if seq != NULL:
            if n >= cap:
                raise ValueError(f"{what}: more than {cap} cards")
            seq[n] = r
        n += 1
    return n


cdef list rows_to_lists(const uint8_t* data, Py_ssize_t n):
    cdef Py_ssize_t k
    cdef int r, _j
    out = []
    for k in range(n):
        m = []
        for r in range(NR):
            for _j in range(data[k * ROW + r]):
                m.append(DZV[r])
        out.append(m)
    return out


def listed_actions(hand, rival_move=()):
    """DouZero's ``get_legal_card_play_actions`` list for ``hand`` (a list of
    DouZero ints, in the order DouZero holds it) facing ``rival_move``
    (``[]``: a lead): the same actions, in the same order, repeats included."""
    cdef Hand h
    cdef int seq[40]
    cdef uint8_t counts[16]
    cdef uint8_t rival[16]
    cdef Rows o
    cdef int n = card_list(hand, counts, seq, 40, "hand")
    card_list(rival_move, rival, NULL, 0, "rival_move")
    if not rows_init(&o, 256):
        raise MemoryError("out of memory")
    try:
        with nogil:
            hand_from_seq(&h, seq, n)
            dz_legal(&h, rival, &o)
        if o.oom:
            raise MemoryError("out of memory")
        return rows_to_lists(o.data, o.n)
    finally:
        rows_free(&o)


cdef dict make_obs(const View* v, const uint8_t* moves, Py_ssize_t n, object legal):
    """get_obs's dict for a view and its listed actions (fresh arrays)."""
    cdef int8_t xna[NOACT_F]
    cdef int8_t zz[ZW]
    cdef int width
    cdef Py_ssize_t k
    with nogil:
        width = no_action(v, xna)
        history_z(v, zz)
    cdef int xw = width + 54
    x_batch = np.empty((n, xw), dtype=np.float32)
    z_batch = np.empty((n, 5, 162), dtype=np.float32)
    x_no = np.empty(width, dtype=np.int8)
    z = np.empty((5, 162), dtype=np.int8)
    cdef float* xb = <float*>cnp.PyArray_DATA(x_batch)
    cdef float* zb = <float*>cnp.PyArray_DATA(z_batch)
    cdef int8_t* xo = <int8_t*>cnp.PyArray_DATA(x_no)
    cdef int8_t* zo = <int8_t*>cnp.PyArray_DATA(z)
    cdef int j
    with nogil:
        memcpy(xo, xna, width)
        memcpy(zo, zz, ZW)
        action_rows(xna, width, moves, n, xb, xw)
        for k in range(n):
            for j in range(ZW):
                zb[k * ZW + j] = zz[j]
    return {
        "position": POSITIONS[v.pos],
        "x_batch": x_batch,
        "z_batch": z_batch,
        "legal_actions": legal,
        "x_no_action": x_no,
        "z": z,
    }


def obs_from_lists(position, hand, other, last, played, last_moves, left, bomb_num, seq, legal):
    """get_obs from an infoset's fields (checked here; compat.douzero.get_obs
    reads them off the infoset).  played, last_moves, left: per position in
    POSITIONS order; seq: the card-play actions so far (the last 15 count)."""
    cdef View v
    cdef Rows o
    cdef Py_ssize_t n, k
    cdef int t
    memset(&v, 0, sizeof(View))
    if position not in POSITIONS:
        raise ValueError(f"player_position must be one of {POSITIONS}, not {position!r}")
    v.pos = POSITIONS.index(position)
    card_list(hand, v.hand, NULL, 0, "player_hand_cards")
    card_list(other, v.other, NULL, 0, "other_hand_cards")
    card_list(last, v.last, NULL, 0, "last_move")
    for t in range(3):
        card_list(played[t], v.played[t], NULL, 0, f"played_cards[{POSITIONS[t]!r}]")
        card_list(last_moves[t], v.last_move[t], NULL, 0, f"last_move_dict[{POSITIONS[t]!r}]")
        n_left = left[t]
        if type(n_left) is not int and (isinstance(n_left, bool) or not isinstance(n_left, int)):
            raise TypeError(f"num_cards_left_dict[{POSITIONS[t]!r}] must be an int, not {type(n_left).__name__}")
        if not 0 <= n_left <= (20 if t == 0 else 17):
            raise ValueError(f"num_cards_left_dict[{POSITIONS[t]!r}] = {n_left} is out of range "
                             f"0..{20 if t == 0 else 17}")
        v.left[t] = n_left
    if type(bomb_num) is not int and (isinstance(bomb_num, bool) or not isinstance(bomb_num, int)):
        raise TypeError(f"bomb_num must be an int, not {type(bomb_num).__name__}")
    if not 0 <= bomb_num <= 14:
        raise ValueError(f"bomb_num = {bomb_num} is out of range 0..14")
    v.bombs = bomb_num
    if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
        raise TypeError(f"card_play_action_seq must be a list of card lists, not {type(seq).__name__}")
    tail = seq[-ZLEN:]
    for k in range(len(tail)):
        card_list(tail[k], v.seq[ZLEN - len(tail) + k], NULL, 0, f"card_play_action_seq[{len(seq) - len(tail) + k}]")
    if isinstance(legal, (str, bytes)) or not isinstance(legal, (list, tuple)):
        raise TypeError(f"legal_actions must be a list of card lists, not {type(legal).__name__}")
    n = len(legal)
    if not rows_init(&o, n if n else 1):
        raise MemoryError("out of memory")
    try:
        for k in range(n):
            card_list(legal[k], rows_add(&o), NULL, 0, f"legal_actions[{k}]")
        return make_obs(&v, o.data, n, legal)
    finally:
        rows_free(&o)


cdef object _DOUZERO_RULES = None


cdef int check_douzero_rules(object rules, str what) except -1:
    global _DOUZERO_RULES
    if _DOUZERO_RULES is None:
        from ..rules import PRESETS
        _DOUZERO_RULES = PRESETS["douzero"]
    if rules != _DOUZERO_RULES and not _same_but_auction(rules, _DOUZERO_RULES):
        raise ValueError(f"DouZero's features need a {what} under the 'douzero' rules preset, "
                         f"not {getattr(rules, 'name', rules)!r} (its auction may be 'bid' or 'rob')")
    return 0


cdef bint _same_but_auction(object rules, object douzero):
    """Are these the douzero preset's rules but for the auction (and the
    name)?  The features describe card play, which the auction does not touch."""
    import dataclasses
    if type(rules) is not type(douzero):
        return False
    return all(getattr(rules, f.name) == getattr(douzero, f.name)
               for f in dataclasses.fields(douzero) if f.name not in ("auction", "name"))


cdef int check_state(const GState* s, str where) except -1:
    if s.phase != PH_PLAY:
        state = "over" if s.phase == PH_OVER else "still in the auction"
        raise ValueError(f"{where}is {state}: DouZero's features describe card play only")
    if s.origin != ORIGIN_DEAL:
        raise ValueError(f"{where}starts from a given position: DouZero's features need the "
                         "whole card-play history of a dealt game")
    return 0


def game_obs(game):
    """get_obs for the player to act in a Game under the ``douzero`` preset
    (a dealt game in card play), plus ``"moves"``: the Game's Move for each
    listed action (None where the rules refuse what DouZero lists)."""
    cdef const GState* s = game_state(game)
    check_douzero_rules(game.rules, "Game")
    check_state(s, "the game ")
    cdef View v
    cdef Hand h
    cdef Rows o
    cdef const RulesC* rc = rules_by_id(s.cid)
    if not rows_init(&o, 256):
        raise MemoryError("out of memory")
    try:
        with nogil:
            view_from_state(s, &v)
            hand_from_counts(&h, v.hand)
            dz_legal(&h, v.last, &o)
        if o.oom:
            raise MemoryError("out of memory")
        obs = make_obs(&v, o.data, o.n, rows_to_lists(o.data, o.n))
        obs["moves"] = [_engine_move(s, rc, o.data + k * ROW) for k in range(o.n)]
        return obs
    finally:
        rows_free(&o)


cdef object _engine_move(const GState* s, const RulesC* rc, const uint8_t* counts):
    cdef uint8_t row[16]
    cdef int64_t found = engine_row(s, rc, counts, row)
    if found < 0:
        return None
    return row_move(row, s.cid)


cdef int64_t engine_row(const GState* s, const RulesC* rc, const uint8_t* counts,
                        uint8_t* row) noexcept nogil:
    """Fill row with counts and the kind of a reading of them that is legal
    now (a pass when empty); 0 when found, -1 when the rules refuse them."""
    cdef MoveInfo infos[16]
    cdef MoveInfo mi
    cdef int n, i, r, total = 0
    memcpy(row, counts, NR)
    for r in range(NR):
        total += counts[r]
    if total == 0:
        row[KIND_BYTE] = K_PASS
        return 0 if gs_move_legal_c(s, rc, row, &mi) else -1
    n = classify_c(row, rc, infos)
    for i in range(n):
        row[KIND_BYTE] = <uint8_t>infos[i].kind
        if gs_move_legal_c(s, rc, row, &mi):
            return 0
    return -1


from .engine cimport gs_move_legal as gs_move_legal_c


# ---------------------------------------------------------------------------
# Batched: every table of a VecGame
# ---------------------------------------------------------------------------

@cython.final
cdef class VecFeatures:
    """DouZero's features of the player to act at every table of a
    :class:`~ddz_fast.VecGame` (see :class:`ddz_fast.compat.douzero.VecFeatures`)."""
    cdef object _vec
    cdef MoveRanks table      # move row -> move k (the game's id MOVE_ID0 + k)
    cdef const RulesC* rc
    cdef Py_ssize_t n, cap, nrows
    cdef Rows* lists          # per table: DouZero's list this update
    cdef View* views
    cdef bint _ready
    cdef object _pos, _off, _x, _z, _xna, _ids, _rt, _choice, _lock
    cdef float* p_x
    cdef int32_t* p_ids
    cdef int32_t* p_rt
    cdef int8_t* p_pos
    cdef int64_t* p_off
    cdef float* p_z
    cdef int8_t* p_xna
    cdef int32_t* p_choice

    def __cinit__(self):
        self.lists = NULL
        self.views = NULL
        self.n = 0
        self._ready = False

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.lists != NULL:
            for i in range(self.n):
                rows_free(&self.lists[i])
            free(self.lists)
        free(self.views)

    def __init__(self, vec):
        cdef Py_ssize_t n, i
        if self._ready or self.lists != NULL:
            raise TypeError("VecFeatures.__init__ cannot be called twice")
        vec_states(vec, &n)          # type check (and not being stepped)
        vec_release(vec)
        check_douzero_rules(vec.rules, "VecGame")
        # (with the auction on, a table still bidding has no rows, like a finished one)
        self._vec = vec
        self.table = ranks_for(vec.rules)
        self.rc = rules_by_id(rules_id(vec.rules))
        self.lists = <Rows*>malloc(n * sizeof(Rows))
        self.views = <View*>malloc(n * sizeof(View))
        if self.lists == NULL or self.views == NULL:
            raise MemoryError("out of memory")
        for i in range(n):
            self.lists[i].data = NULL
            self.lists[i].n = self.lists[i].cap = 0
            self.lists[i].oom = False
        self.n = n
        for i in range(n):
            if not rows_init(&self.lists[i], 64):
                raise MemoryError("out of memory")
        self._pos = np.zeros(n, dtype=np.int8)
        self._off = np.zeros(n + 1, dtype=np.int64)
        self._z = np.zeros((n, 5, 162), dtype=np.float32)
        self._xna = np.zeros((n, NOACT_F), dtype=np.int8)
        self._choice = np.zeros(n, dtype=np.int32)
        self.p_pos = <int8_t*>cnp.PyArray_DATA(self._pos)
        self.p_off = <int64_t*>cnp.PyArray_DATA(self._off)
        self.p_z = <float*>cnp.PyArray_DATA(self._z)
        self.p_xna = <int8_t*>cnp.PyArray_DATA(self._xna)
        self.p_choice = <int32_t*>cnp.PyArray_DATA(self._choice)
        self._lock = threading.Lock()
        self._alloc_rows(max(16 * n, 1024))
        self._ready = True
        self.update()

    cdef int _alloc_rows(self, Py_ssize_t cap) except -1:
        self._x = np.zeros((cap, XW), dtype=np.float32)
        self._ids = np.zeros(cap, dtype=np.int32)
        self._rt = np.zeros(cap, dtype=np.int32)
        self.p_x = <float*>cnp.PyArray_DATA(self._x)
        self.p_ids = <int32_t*>cnp.PyArray_DATA(self._ids)
        self.p_rt = <int32_t*>cnp.PyArray_DATA(self._rt)
        self.cap = cap
        return 0

    cdef int _check(self) except -1:
        if not self._ready:
            raise TypeError("this VecFeatures was never initialised: make one with VecFeatures(vec)")
        return 0

    cdef int _enter(self) except -1:
        self._check()
        if not self._lock.acquire(False):
            raise RuntimeError("this VecFeatures is being updated by another thread")
        return 0

    def update(self):
        """Recompute every table's features from the VecGame's current state
        (call it after each ``vec.step``)."""
        cdef Py_ssize_t n, total
        cdef GState** st
        self._enter()
        try:
            st = vec_states(self._vec, &n)
            try:
                with nogil:
                    total = self._lists(st)
                if total < 0:
                    raise MemoryError("out of memory listing DouZero's actions")
                if total > self.cap:
                    self._alloc_rows(max(total, 2 * self.cap))
                with nogil:
                    self._write(st)
                self.nrows = total
            finally:
                vec_release(self._vec)
        finally:
            self._lock.release()

    cdef Py_ssize_t _lists(self, GState** st) noexcept nogil:
        """Each table's view and DouZero list; the offsets; total rows (-1: out of memory)."""
        cdef Py_ssize_t i
        cdef Hand h
        cdef GState* s
        self.p_off[0] = 0
        for i in range(self.n):
            s = st[i]
            self.lists[i].n = 0
            if s.phase == PH_PLAY:
                view_from_state(s, &self.views[i])
                hand_from_counts(&h, self.views[i].hand)
                dz_legal(&h, self.views[i].last, &self.lists[i])
                if self.lists[i].oom:
                    self.lists[i].oom = False
                    return -1
                self.p_pos[i] = <int8_t>self.views[i].pos
            else:
                self.p_pos[i] = -1
            self.p_off[i + 1] = self.p_off[i] + self.lists[i].n
        return self.p_off[self.n]

    cdef void _write(self, GState** st) noexcept nogil:
        cdef Py_ssize_t i, k, at
        cdef int width, j
        cdef int8_t zz[ZW]
        cdef uint8_t row[16]
        cdef int64_t found
        cdef int8_t* xna
        cdef float* z
        cdef const uint8_t* moves
        for i in range(self.n):
            xna = self.p_xna + i * NOACT_F
            z = self.p_z + i * ZW
            if self.p_pos[i] < 0:
                memset(xna, 0, NOACT_F)
                memset(z, 0, ZW * sizeof(float))
                continue
            width = no_action(&self.views[i], xna)
            if width < NOACT_F:
                memset(xna + width, 0, NOACT_F - width)
            history_z(&self.views[i], zz)
            for j in range(ZW):
                z[j] = zz[j]
            at = self.p_off[i]
            moves = self.lists[i].data
            action_rows(xna, width, moves, self.lists[i].n, self.p_x + at * XW, XW)
            for k in range(self.lists[i].n):
                self.p_rt[at + k] = <int32_t>i
                found = -1
                if engine_row(st[i], self.rc, moves + k * ROW, row) == 0:
                    self.table.find_rows(row, 1, &found)     # (-1: no move of the space)
                self.p_ids[at + k] = <int32_t>(MOVE_ID0 + found) if found >= 0 else -1

    def choose(self, scores):
        """The action id of each table's best-scoring row: ``scores`` holds one
        number per row (``num_rows`` of them); the first highest row wins, as
        ``argmax`` picks it; rows the rules refuse (id -1) are never chosen.
        Returns an owned (n,) int32 array (-1 for a table with no rows),
        ready for ``vec.step``."""
        self._enter()
        try:
            if isinstance(scores, np.ma.MaskedArray):
                raise TypeError("scores must be a plain float array, not a masked array")
            if not isinstance(scores, np.ndarray):
                raise TypeError(f"scores must be a NumPy float array, not {type(scores).__name__}")
            if scores.dtype.kind != "f":
                raise TypeError(f"scores must have a float dtype, not {scores.dtype}")
            if scores.shape != (self.nrows,):
                raise ValueError(f"scores must have shape ({self.nrows},) (one per row), not {scores.shape}")
            arr = np.ascontiguousarray(scores, dtype=np.float64)
            self._argmax(<double*>cnp.PyArray_DATA(arr))
            return read_only_view(self._choice)
        finally:
            self._lock.release()

    cdef void _argmax(self, const double* sc) noexcept nogil:
        cdef Py_ssize_t i, k, best
        for i in range(self.n):
            best = -1
            for k in range(self.p_off[i], self.p_off[i + 1]):
                if self.p_ids[k] >= 0 and (best < 0 or sc[k] > sc[best]):
                    best = k
            self.p_choice[i] = self.p_ids[best] if best >= 0 else -1

    def obs(self, i):
        """get_obs's dict for table ``i`` (fresh arrays; ``legal_actions`` as
        DouZero lists), plus ``"action_ids"``."""
        self._enter()
        try:
            return self._obs(i)
        finally:
            self._lock.release()

    cdef dict _obs(self, object i):
        if type(i) is not int and (isinstance(i, bool) or not isinstance(i, int)):
            raise TypeError(f"table must be an int, not {type(i).__name__}")
        if not 0 <= i < self.n:
            raise ValueError(f"table {i} is out of range 0..{self.n - 1}")
        p = int(self.p_pos[i])
        if p < 0:
            raise ValueError(f"table {i} has nobody to act (the game is over)")
        lo, hi = int(self.p_off[i]), int(self.p_off[i + 1])
        xw = X_SIZES[p]
        x = np.array(self._x[lo:hi, :xw])
        z = np.array(self._z[i], dtype=np.float32)
        return {
            "position": POSITIONS[p],
            "x_batch": x,
            "z_batch": np.repeat(z[np.newaxis], hi - lo, axis=0),
            "legal_actions": rows_to_lists(self.lists[i].data, self.lists[i].n),
            "x_no_action": np.array(self._xna[i, :xw - 54]),
            "z": z.astype(np.int8),
            "action_ids": np.array(self._ids[lo:hi]),
        }

    cdef object _ro(self, object a):
        self._check()
        return read_only_view(a)

    @property
    def vec(self):
        self._check()
        return self._vec

    @property
    def num_rows(self):
        self._check()
        return self.nrows

    @property
    def position(self):
        return self._ro(self._pos)

    @property
    def offsets(self):
        return self._ro(self._off)

    @property
    def x_batch(self):
        self._check()
        return self._ro(self._x[:self.nrows])

    @property
    def action_ids(self):
        self._check()
        return self._ro(self._ids[:self.nrows])

    @property
    def row_table(self):
        self._check()
        return self._ro(self._rt[:self.nrows])

    @property
    def z(self):
        return self._ro(self._z)

    @property
    def x_no_action(self):
        return self._ro(self._xna)

    def __len__(self):
        self._check()
        return self.n

    def __repr__(self):
        if not self._ready:
            return "VecFeatures(<uninitialised>)"
        return f"VecFeatures({self._vec!r})"

    def __reduce__(self):
        raise TypeError("a VecFeatures cannot be pickled")
