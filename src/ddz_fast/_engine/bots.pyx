# cython: language_level=3
"""The simple bot, built on the engine's state (:mod:`ddz_fast._engine.engine`):
its auction and play choices as C functions for the playouts, rollouts and
the batched tables, and their Python wrappers for the pure-Python oracle's
tests."""
cimport numpy as cnp
from libc.string cimport memcpy

import numpy as np

from .._core.kernels cimport MoveInfo, ROW, KIND_BYTE, row_info
from .._core.move cimport K_PASS, K_BOMB, K_ROCKET
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


cdef int bot_move(const unsigned char* rows, Py_ssize_t n, int me, int landlord, int last_player,
                  const int* sizes, int players) noexcept nogil:
    """The simple bot's move (an index into the legal rows; PASS is row 0
    when responding): pass when the partner farmer holds the table;
    otherwise the non-bomb move of lowest rank (more cards first); bombs and
    the rocket only when leading with nothing else or when an opponent is
    down to 6 cards or fewer."""
    cdef bint responding = last_player >= 0
    cdef Py_ssize_t i, best = -1
    cdef int kind, t, opp = 1 << 30
    cdef MoveInfo mi, bi
    if responding and me != landlord and last_player != landlord:
        return 0
    for i in range(n):
        kind = rows[i * ROW + KIND_BYTE]
        if kind == K_PASS or kind == K_BOMB or kind == K_ROCKET:
            continue
        row_info(rows + i * ROW, &mi)
        if best < 0 or mi.rank < bi.rank or (mi.rank == bi.rank and mi.ncards > bi.ncards):
            best = i
            bi = mi
    if best >= 0:
        return <int>best
    for t in range(players):
        if t != me and (me == landlord or t == landlord) and sizes[t] < opp:
            opp = sizes[t]
    if responding and opp > 6:
        return 0
    for i in range(n):
        kind = rows[i * ROW + KIND_BYTE]
        if kind == K_PASS:
            continue
        row_info(rows + i * ROW, &mi)
        if (best < 0 or (mi.kind != K_ROCKET and bi.kind == K_ROCKET)
                or ((mi.kind == K_ROCKET) == (bi.kind == K_ROCKET)
                    and (mi.ncards < bi.ncards or (mi.ncards == bi.ncards and mi.rank < bi.rank)))):
            best = i
            bi = mi
    return 0 if best < 0 else <int>best


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


def bot_move_index(rows, int me, landlord, last_player, sizes):
    """Index of the simple bot's move among legal move ``rows`` ((M, 16)
    uint8, PASS first when responding)."""
    cdef cnp.ndarray arr = np.ascontiguousarray(rows, dtype=np.uint8)
    cdef int sz[MAXP]
    cdef int players = len(sizes), t
    if arr.ndim != 2 or arr.shape[1] != ROW or not 3 <= players <= MAXP:
        raise ValueError("rows must be (M, 16) and sizes one entry per seat")
    for t in range(players):
        sz[t] = sizes[t]
    return bot_move(<const unsigned char*>cnp.PyArray_DATA(arr), arr.shape[0], me,
                    -1 if landlord is None else landlord,
                    -1 if last_player is None else last_player, sz, players)
