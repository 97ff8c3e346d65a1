# cython: language_level=3
"""The simple bot, built on the engine's state (:mod:`ddz_fast._engine.engine`):
its auction and play choices as C functions for the playouts, rollouts and
the batched tables, and their Python wrappers for the pure-Python oracle's
tests."""
cimport numpy as cnp
from libc.string cimport memcpy, memcmp, memset

import numpy as np

from .._core.kernels cimport (
    RulesC, MoveInfo, Out, ROW, row_info, gen_of_kind, gen_bombs_beating, out_init, out_free,
)
from .._core.move cimport (
    K_PASS, K_SOLO, K_PAIR, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR, K_FOUR_TWO_SOLO, K_FOUR_TWO_PAIR,
    K_BOMB, K_ROCKET,
)
from .._core.entry cimport rules_id, rules_by_id, _load_position
from .._core.move cimport Move
from .._core.wild cimport WROW, W_PHYS, W_CLASS
from .engine cimport MAXP, A_BID0, A_NO_DOUBLE, auction_code

from ..cards import to_counts

cnp.import_array()

__all__ = ["bot_move_index", "bot_auction_index"]


# ---------------------------------------------------------------------------
# Policies: uniformly random, and the simple bot
# ---------------------------------------------------------------------------

cdef int _strength(const unsigned char* hand) noexcept nogil:
    """A crude hand score: 2s, jokers (the high one twice) and bombs (x2)."""
    cdef int r, bombs = 0
    for r in range(13):
        if hand[r] >= 4:
            bombs += 1
    return hand[12] + hand[13] + 2 * hand[14] + 2 * bombs


cdef int bot_auction(const unsigned char* hand, const unsigned char* codes, int n) noexcept nogil:
    """The simple bot's auction choice (an index into ``codes``): bid up to
    min(3, strength // 2), call or rob from strength 3, double from 5."""
    cdef int st = _strength(hand), want, i
    if codes[0] == A_BID0:
        want = st // 2
        if want > 3:
            want = 3
        for i in range(1, n):
            if codes[i] - A_BID0 <= want:
                return i
        return 0
    if codes[0] == A_NO_DOUBLE:
        return 1 if st >= 5 else 0
    return 1 if st >= 3 else 0


cdef inline bint _ordinary(int kind) noexcept nogil:
    return kind != K_PASS and kind != K_BOMB and kind != K_ROCKET


# The kinds a lead of the lowest rank held can have (the sequences all reach
# higher), in list order, and the cards of that rank each needs.
cdef int[7] _LEAD_KINDS = [K_SOLO, K_PAIR, K_TRIO, K_TRIO_SOLO, K_TRIO_PAIR,
                           K_FOUR_TWO_SOLO, K_FOUR_TWO_PAIR]
cdef int[7] _LEAD_NEED = [1, 2, 3, 3, 3, 4, 4]


# The row of a PASS (all zeros: kind K_PASS), which bot_play returns.
cdef unsigned char _PASS_ROW[ROW]
memset(_PASS_ROW, 0, ROW)


cdef inline const unsigned char* _pass(MoveInfo* mi) noexcept nogil:
    # PASS: its row, and row_info's reading of it
    mi.kind = K_PASS
    mi.rank = -1
    mi.length = 0
    mi.ncards = 0
    return _PASS_ROW


cdef const unsigned char* bot_play(const unsigned char* hand, const RulesC* rc, const MoveInfo* last,
                                   int me, int landlord, int last_player, const int* sizes, int players,
                                   Out* o, MoveInfo* mi) noexcept nogil:
    """The simple bot's move: its row (in ``o``, which is scratch, or a
    static PASS row), with its MoveInfo in ``mi``.  ``last``: the move to
    beat, NULL when leading.  NULL when out of memory.

    The bot passes when the partner farmer holds the table; otherwise it
    plays the legal non-bomb move of lowest rank, more cards first, the
    first in list order among equals; bombs and the rocket only when
    leading with nothing else or when an opponent is down to 6 cards or
    fewer (then the smallest: not the rocket, fewest cards, lowest rank).

    It generates only the moves that can be that choice: a response's moves
    of the kind to beat, of the lowest rank that beats it (list order is by
    rank there, so the first is the choice), and a lead's moves, of the
    kinds that can have the lowest rank held, of that rank (a move's rank
    is one of its ranks); and the bombs only when it may bomb."""
    cdef Py_ssize_t i, best = -1
    cdef int t, r0, opp = 1 << 30
    cdef MoveInfo ci
    if last != NULL and last.kind == K_PASS:
        last = NULL
    if last != NULL and me != landlord and last_player != landlord:
        return _pass(mi)                        # the partner holds the table
    o.n = 0
    if last != NULL:
        if _ordinary(last.kind):
            gen_of_kind(hand, rc, last.kind, last.length, last.rank + 1, True, o)
            if o.oom:
                return NULL
            if o.n:
                row_info(o.data, mi)
                return o.data
    else:
        r0 = 0
        while r0 < 15 and hand[r0] == 0:
            r0 += 1
        if r0 == 15:
            return _pass(mi)                    # (an empty hand: no move to lead)
        for t in range(7):                      # (each kind's moves after the last's)
            if hand[r0] < _LEAD_NEED[t]:
                break
            gen_of_kind(hand, rc, _LEAD_KINDS[t], 1, r0, True, o)
            if o.oom:
                return NULL
        for i in range(o.n):
            row_info(o.data + i * ROW, &ci)
            if ci.rank == r0 and (best < 0 or ci.ncards > mi.ncards):
                best = i
                mi[0] = ci
        if best >= 0:
            return o.data + best * ROW
    # No ordinary move: a bomb or the rocket, when leading or when an
    # opponent is low; else PASS.
    for t in range(players):
        if t != me and (me == landlord or t == landlord) and sizes[t] < opp:
            opp = sizes[t]
    if last != NULL and opp > 6:
        return _pass(mi)
    o.n = 0
    gen_bombs_beating(hand, rc, last, o)
    if o.oom:
        return NULL
    for i in range(o.n):
        row_info(o.data + i * ROW, &ci)
        if (best < 0 or (ci.kind != K_ROCKET and mi.kind == K_ROCKET)
                or ((ci.kind == K_ROCKET) == (mi.kind == K_ROCKET)
                    and (ci.ncards < mi.ncards or (ci.ncards == mi.ncards and ci.rank < mi.rank)))):
            best = i
            mi[0] = ci
    if best >= 0:
        return o.data + best * ROW
    return _pass(mi)


cdef Py_ssize_t bot_index(const unsigned char* hand, const RulesC* rc, const MoveInfo* last, int me,
                          int landlord, int last_player, const int* sizes, int players, Out* o,
                          const unsigned char* rows, Py_ssize_t n) noexcept nogil:
    """The index of the simple bot's move (bot_play) among the n legal rows
    of the position; -1 when out of memory."""
    cdef MoveInfo mi
    cdef Py_ssize_t i
    cdef const unsigned char* row = bot_play(hand, rc, last, me, landlord, last_player, sizes, players,
                                             o, &mi)
    if row == NULL:
        return -1
    for i in range(n):
        if memcmp(rows + i * ROW, row, ROW) == 0:
            return i
    return -1                                   # (not reached: the choice is legal)


cdef inline int _stand_ins(const unsigned char* row) noexcept nogil:
    # wild cards standing in for another rank in a 32-byte wild row
    cdef int r, n = 0
    for r in range(13):
        if row[r] > row[W_PHYS + r]:
            n += row[r] - row[W_PHYS + r]
    return n


cdef Py_ssize_t wild_bot_index(const unsigned char* rows, Py_ssize_t n, bint leading, int me,
                               int landlord, int last_player, const int* sizes,
                               int players) noexcept nogil:
    """The simple bot's move among the n legal 32-byte wild rows of a
    position (gs_gen's list), by the standard bot's rule with one more
    preference first: spend as few wild cards standing in for other ranks
    as it can.  So: pass when the partner farmer holds the table; else the
    non-bomb move with the fewest stand-ins, then of lowest rank, then of
    the most cards, the first in list order among equals; bombs and the
    rocket only when leading with nothing else or when an opponent is down
    to 6 cards or fewer (then the lowest class, fewest cards, lowest rank);
    else PASS (row 0 of a response)."""
    cdef Py_ssize_t i, best = -1
    cdef int t, opp = 1 << 30, sb = 0, cls_b = 0
    cdef int si
    cdef MoveInfo ci, mb
    if not leading and me != landlord and last_player != landlord:
        return 0                                # the partner holds the table: PASS
    for i in range(n):
        row_info(rows + i * WROW, &ci)
        if not _ordinary(ci.kind):
            continue
        si = _stand_ins(rows + i * WROW)
        if (best < 0 or si < sb or (si == sb and (ci.rank < mb.rank
                                                  or (ci.rank == mb.rank and ci.ncards > mb.ncards)))):
            best = i
            sb = si
            mb = ci
    if best >= 0:
        return best
    for t in range(players):
        if t != me and (me == landlord or t == landlord) and sizes[t] < opp:
            opp = sizes[t]
    if not leading and opp > 6:
        return 0
    for i in range(n):
        row_info(rows + i * WROW, &ci)
        if ci.kind != K_BOMB and ci.kind != K_ROCKET:
            continue
        si = rows[i * WROW + W_CLASS]
        if (best < 0 or si < cls_b
                or (si == cls_b and (ci.ncards < mb.ncards or (ci.ncards == mb.ncards and ci.rank < mb.rank)))):
            best = i
            cls_b = si
            mb = ci
    return best if best >= 0 else 0


def bot_auction_index(hand, choices):
    """Index of the simple bot's choice among the auction actions ``choices``."""
    cdef unsigned char codes[4]
    cdef unsigned char h[16]
    cdef int n = len(choices), i
    if not 1 <= n <= 4:
        raise ValueError("the auction offers 1 to 4 choices")
    for i in range(n):
        codes[i] = auction_code(choices[i])
    b = bytes(to_counts(hand, rules="four"))
    memcpy(h, <const char*>b, 15)
    return bot_auction(h, codes, n)


def bot_move_index(hand, last, rules, rows, int me, landlord, last_player, sizes):
    """Index of the simple bot's move (``bot_play``) among the legal move
    ``rows`` ((M, 16) uint8) of a position: the mover's ``hand``, ``last``
    the move to beat (a Move, or None when leading)."""
    cdef cnp.ndarray arr = np.ascontiguousarray(rows, dtype=np.uint8)
    cdef const RulesC* rc = rules_by_id(rules_id(rules))
    cdef int sz[MAXP]
    cdef int players = len(sizes), t
    cdef unsigned char h[16]
    cdef MoveInfo li
    cdef Out o
    cdef Py_ssize_t k
    cdef bint answer
    if arr.ndim != 2 or arr.shape[1] not in (ROW, WROW) or not 3 <= players <= MAXP:
        raise ValueError("rows must be (M, 16) (with wild cards (M, 32)) and sizes one entry per seat")
    for t in range(players):
        sz[t] = sizes[t]
    if arr.shape[1] == WROW:
        # (a wild list: the bot scans it; `last` only says whether it leads)
        if arr.shape[0] == 0:
            raise ValueError("no legal rows given")
        return wild_bot_index(<const unsigned char*>cnp.PyArray_DATA(arr), arr.shape[0],
                              last is None or (<Move?>last).kind_ == K_PASS, me,
                              -1 if landlord is None else landlord,
                              -1 if last_player is None else last_player, sz, players)
    answer = _load_position(hand, last, rules, rc, h, &li)      # (legal_moves' own checks)
    if not out_init(&o, 64, False):
        raise MemoryError()
    try:
        k = bot_index(h, rc, &li if answer else NULL, me, -1 if landlord is None else landlord,
                      -1 if last_player is None else last_player, sz, players, &o,
                      <const unsigned char*>cnp.PyArray_DATA(arr), arr.shape[0])
    finally:
        out_free(&o)
    if k < 0:
        raise ValueError("the simple bot's move is not among the rows given")
    return k
