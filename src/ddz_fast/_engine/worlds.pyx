# cython: language_level=3
"""Hidden information, built on the engine's state
(:mod:`ddz_fast._engine.engine`): the cards a player cannot see, those the
landlord is known to hold, and the sampling of worlds consistent with what a
player has seen, from a state (:meth:`Game.sample_worlds`) or from an
:class:`~ddz_fast.Observation` (:func:`sample_observed_worlds`): one
sampler for both."""
cimport numpy as cnp
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

import numpy as np

from .._util.rng cimport ddz_below
from .._util.checks cimport as_int, as_seed, as_seat
from .engine cimport GState, MAXP, HB

from ..game_values import Observation

cnp.import_array()

__all__ = ["MAX_WORLDS", "sample_observed_worlds"]

# Most worlds one sampling call returns: the result is allocated up front
# (16.7 million worlds are 0.7 GiB with three players, 1 GiB with four), so
# a typo such as n=10**12 is refused instead of asking for terabytes.
MAX_WORLDS = 1 << 24


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------

cdef void gs_unseen(const GState* s, int player, unsigned char* out) noexcept nogil:
    """The cards ``player`` cannot see: the deck minus its own hand, minus
    every card played (for a position: the move on the table counts as
    played by its player, and the cards gone before it as seen)."""
    cdef int r, t, v
    for r in range(15):
        v = (s.decks if r >= 13 else 4 * s.decks) - s.hands[player][r] - s.gone[r]
        for t in range(s.players):
            v -= s.played[t][r]
        out[r] = <unsigned char>v


cdef void gs_reserved(const GState* s, int player, unsigned char* out) noexcept nogil:
    """Cards the landlord is known to hold, as seen by ``player``: the shown
    kitty minus what the landlord can have played of each rank."""
    cdef int r, v, ll = s.landlord
    memset(out, 0, HB)
    if not s.kitty_revealed or not s.kitty_known or ll < 0 or ll == player:
        return
    for r in range(15):
        v = s.kitty[r] - s.played[ll][r] - s.gone[r]
        out[r] = <unsigned char>(v if v > 0 else 0)


cdef void gs_sample_world(const GState* s, int player, uint64_t* rs, unsigned char* out) noexcept nogil:
    """One world (``players`` rows of 15 counts) consistent with what
    ``player`` has seen: its own hand, the hand sizes, the cards played and
    the reserved kitty cards; every other unseen card is dealt uniformly at
    random (as physical cards) to the hidden hands and, before the kitty is
    shown, to the kitty (then dropped)."""
    cdef unsigned char unseen[HB]
    cdef unsigned char res[HB]
    gs_unseen(s, player, unseen)
    gs_reserved(s, player, res)
    sample_world_c(s.players, player, s.landlord, s.hands[player], s.ncards, unseen, res, rs, out)


cdef void sample_world_c(int players, int player, int landlord, const unsigned char* hand,
                         const int* sizes, const unsigned char* unseen, const unsigned char* res,
                         uint64_t* rs, unsigned char* out) noexcept nogil:
    """The sampling itself, from what ``player`` knows (its hand, every
    seat's size, the unseen cards and those the landlord is known to hold);
    the caller guarantees the pool holds enough cards for the hidden hands."""
    cdef unsigned char pool[108]
    cdef int need[MAXP]
    cdef int n = 0, r, k, t, i, j, seat, left
    cdef unsigned char c
    for r in range(15):
        for k in range(unseen[r] - res[r]):  # no-cython-lint (count-only loop)
            pool[n] = <unsigned char>r
            n += 1
    memset(out, 0, players * 15)
    for t in range(players):
        need[t] = 0 if t == player else sizes[t]
    if landlord >= 0 and landlord != player:
        for r in range(15):
            out[landlord * 15 + r] = res[r]
            need[landlord] -= res[r]
    for r in range(15):
        out[player * 15 + r] = hand[r]
    # A partial Fisher-Yates shuffle deals the pool seat by seat.
    i = 0
    for seat in range(players):
        left = need[seat]
        while left > 0:
            j = i + <int>ddz_below(rs, <uint64_t>(n - i))
            c = pool[j]
            pool[j] = pool[i]
            pool[i] = c
            out[seat * 15 + c] += 1
            i += 1
            left -= 1


cdef int _obs_counts(object x, str what, unsigned char* out) except -1:
    # A (15,) uint8 field of an Observation, copied to out.
    a = np.ascontiguousarray(x, dtype=np.uint8) if isinstance(x, np.ndarray) else None
    if a is None or a.shape != (15,):
        raise ValueError(f"observation.{what} must be a (15,) array of counts")
    memcpy(out, cnp.PyArray_DATA(a), 15)
    return 0


def sample_observed_worlds(observation, n, *, seed=0):
    """``n`` worlds consistent with an :class:`~ddz_fast.Observation`: the
    same worlds, from the same seed, as ``Game.sample_worlds(player, n,
    seed=seed)`` on the game the observation came from (one sampler: the
    observation carries what it needs, ``unseen`` and ``landlord_holds``).
    An observation that is not one a game gives raises ValueError; ``n``
    is 0..``MAX_WORLDS``."""
    if not isinstance(observation, Observation):
        raise TypeError(f"expected an Observation, not {type(observation).__name__}")
    o = observation
    if o.unseen is None or o.landlord_holds is None:
        raise ValueError("the observation carries no unseen cards (make it with Game.observation)")
    cdef Py_ssize_t count = as_int(n, "n", 0, MAX_WORLDS), i
    cdef uint64_t rs = as_seed(seed, "seed")
    sizes_t = o.hand_sizes
    if not isinstance(sizes_t, tuple) or len(sizes_t) not in (3, 4):
        raise ValueError("observation.hand_sizes must be a tuple of 3 or 4 sizes")
    cdef int players = len(sizes_t), t, r, pool = 0, need = 0, held = 0, kept = 0
    cdef int p = as_seat(o.player, players, "observation.player")
    cdef int ll = -1 if o.landlord is None else as_seat(o.landlord, players, "observation.landlord")
    cdef int sizes[MAXP]
    cdef unsigned char hand[15]
    cdef unsigned char unseen[15]
    cdef unsigned char res[15]
    _obs_counts(o.hand, "hand", hand)
    _obs_counts(o.unseen, "unseen", unseen)
    _obs_counts(o.landlord_holds, "landlord_holds", res)
    for t in range(players):
        sizes[t] = <int>as_int(sizes_t[t], "observation.hand_sizes", 0, 108)
        if t != p:
            need += sizes[t]
    for r in range(15):
        held += hand[r]
        kept += res[r]
        if res[r] > unseen[r]:
            raise ValueError("observation.landlord_holds is not part of observation.unseen")
        pool += unseen[r] - res[r]
        need -= res[r] if ll >= 0 and ll != p else 0
        if ll < 0 or ll == p:
            if res[r]:
                raise ValueError("observation.landlord_holds must be empty here")
    if held != sizes[p]:
        raise ValueError("observation.hand does not hold observation.hand_sizes[player] cards")
    if pool > 108 or need < 0 or pool < need or (ll >= 0 and ll != p and kept > sizes[ll]):
        raise ValueError("observation.unseen does not fit the hidden hands' sizes")
    out = np.empty((count, players, 15), dtype=np.uint8)
    cdef unsigned char* op = <unsigned char*>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(count):
            sample_world_c(players, p, ll, hand, sizes, unseen, res, &rs,
                           op + i * players * 15)
    return out


cdef object sample_worlds_array(const GState* s, int player, Py_ssize_t n, uint64_t seed):
    """``n`` worlds for ``player`` drawn from ``seed``, as a new (n, players,
    15) uint8 array (the arguments checked by the caller)."""
    # What the player knows is copied while the GIL is held: the sampling
    # runs without it, and another thread may step or undo the game then.
    cdef int players = s.players, landlord = s.landlord, t
    cdef int sizes[MAXP]
    cdef unsigned char hand[HB]
    cdef unsigned char unseen[HB]
    cdef unsigned char res[HB]
    cdef Py_ssize_t i
    cdef uint64_t rs = seed
    for t in range(players):
        sizes[t] = s.ncards[t]
    for t in range(15):
        hand[t] = s.hands[player][t]
    gs_unseen(s, player, unseen)
    gs_reserved(s, player, res)
    out = np.empty((n, players, 15), dtype=np.uint8)
    cdef unsigned char* op = <unsigned char*>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(n):
            sample_world_c(players, player, landlord, hand, sizes, unseen, res, &rs, op + i * players * 15)
    return out
