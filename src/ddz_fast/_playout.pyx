# cython: language_level=3
"""Compiled random playouts, and the seeded random numbers shared with
:mod:`ddz_fast.game`.

Random numbers
--------------
Everything random in ddz-fast (shuffles, the first bidder, the random policy
of the playouts) comes from **SplitMix64** (Steele, Lea & Flood 2014), a
64-bit generator with one word of state, identical on every platform:

    next():   state = (state + 0x9E3779B97F4A7C15) mod 2**64
              return mix64(state)
    mix64(z): z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
              z = (z ^ (z >> 27)) * 0x94D049BB133111EB
              return z ^ (z >> 31)            (all mod 2**64)
    below(n): draw x = next() until (x * n) mod 2**64 >= 2**64 mod n;
              return (x * n) >> 64       (Lemire's unbiased integer in [0, n))

Seeds are taken modulo 2**64 (so -1 is 2**64 - 1).

* **Game i of a run** with seed ``seed`` (``play_random_games``, ``Session``)
  has the game seed ``game_seed(seed, i) = mix64(seed + (i + 1) * 0x9E3779B97F4A7C15)``
  (the (i+1)-th output of SplitMix64 started at ``seed``).
* **The deal stream** of a game with game seed ``g`` is SplitMix64 started at
  state ``g`` (``Game(seed=g)`` uses exactly this).  Each deal of a game
  draws, in this order: the shuffle, then the first bidder ``below(players)``.
  A redeal continues the same stream (so deal k of a game is fixed by ``g``).
* **The policy stream** (the random player of the playouts) is SplitMix64
  started at ``policy_seed(g) = mix64(g ^ 0x5851F42D4C957F2D)``.  Every
  decision -- bid, call/rob, double, move -- draws ``below(len(legal
  actions))`` once, even when there is one choice, and picks that entry of
  the legal-action list in :class:`ddz_fast.game.Game`'s documented order.

So a Python loop over :class:`~ddz_fast.game.Game` that picks
``actions[SplitMix64(policy_seed(g)).below(len(actions))]`` replays game
``g`` of the compiled playouts exactly (the tests do this).

The shuffle
-----------
The deck is listed by rank (``4 * decks`` cards of each rank 3..2, then
``decks`` low and ``decks`` high jokers), then shuffled by Fisher-Yates:
``for i = N-1 down to 1: j = below(i + 1); swap(deck[i], deck[j])``.  Seat s
receives ``deck[s * H:(s + 1) * H]`` (H = 17, or 25 with four players) and
the rest is the face-down kitty.
"""
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t
from libc.string cimport memcpy, memset

from ._parallel import run_parts

import numpy as np

from ._kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, out_init, out_free, gen_moves, row_info,
)
from ._move cimport Move, K_PASS, K_BOMB, K_ROCKET
from ._fast cimport rules_c
from ._fast import legal_moves as _legal_moves
from .rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["play_random_games", "PlayoutResults", "SplitMix64", "game_seed",
           "policy_seed", "deal", "GameCore"]

cdef extern from *:
    """
    #include <stdint.h>
    #define DDZ_GOLDEN 0x9E3779B97F4A7C15ULL
    #define DDZ_POLICY_SALT 0x5851F42D4C957F2DULL
    static inline uint64_t ddz_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline uint64_t ddz_next(uint64_t* s) {
        *s += DDZ_GOLDEN;
        return ddz_mix64(*s);
    }
    /* High and low 64 bits of the 128-bit product a * b. */
    static inline uint64_t ddz_mul128(uint64_t a, uint64_t b, uint64_t* lo) {
    #if defined(__SIZEOF_INT128__)
        unsigned __int128 m = (unsigned __int128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    #else
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
        *lo = (mid << 32) | (uint32_t)p00;
        return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    #endif
    }
    /* Unbiased integer in [0, n), n >= 1 (Lemire 2019): the high word of
       x * n, rejecting x when the low word is below 2**64 mod n. */
    static inline uint64_t ddz_below(uint64_t* s, uint64_t n) {
        uint64_t lo, hi = ddz_mul128(ddz_next(s), n, &lo);
        if (lo < n) {
            uint64_t t = (0 - n) % n;  /* 2**64 mod n */
            while (lo < t)
                hi = ddz_mul128(ddz_next(s), n, &lo);
        }
        return hi;
    }
    static inline uint64_t ddz_game_seed(uint64_t seed, uint64_t i) {
        return ddz_mix64(seed + (i + 1) * DDZ_GOLDEN);
    }
    static inline uint64_t ddz_policy_seed(uint64_t g) {
        return ddz_mix64(g ^ DDZ_POLICY_SALT);
    }
    """
    uint64_t ddz_mix64(uint64_t z) noexcept nogil
    uint64_t ddz_next(uint64_t* s) noexcept nogil
    uint64_t ddz_below(uint64_t* s, uint64_t n) noexcept nogil
    uint64_t ddz_game_seed(uint64_t seed, uint64_t i) noexcept nogil
    uint64_t ddz_policy_seed(uint64_t g) noexcept nogil

cdef object _MASK = (1 << 64) - 1

cdef enum:
    MAXP = 4          # most players
    HB = 16           # bytes per hand in the C arrays


# ---------------------------------------------------------------------------
# SplitMix64 for Python
# ---------------------------------------------------------------------------

cdef uint64_t _u64(object value, str what) except? 0:
    """An int (or NumPy integer) taken mod 2**64; TypeError for anything else
    (floats, text, None: ``int()`` would truncate, parse or overflow them)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return <uint64_t>(int(value) & _MASK)


cdef class SplitMix64:
    """The project's random generator (see the module docstring).

    ``SplitMix64(seed)`` starts at state ``seed mod 2**64``.  ``next()`` gives
    a 64-bit int, ``below(n)`` an unbiased int in ``[0, n)``.  ``state`` can
    be read and set; ``copy()`` gives an independent generator.
    """
    cdef uint64_t s

    def __init__(self, seed=0):
        self.s = _u64(seed, "seed")

    @property
    def state(self):
        return self.s

    @state.setter
    def state(self, value):
        self.s = _u64(value, "state")

    def next(self):
        return ddz_next(&self.s)

    def below(self, n):
        cdef uint64_t m
        if type(n) is int and 0 < <object>n <= _MASK:
            m = n
        elif isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 < n <= _MASK:
            raise ValueError(f"below(n) needs an int 1 <= n < 2**64, not {n!r}")
        else:
            m = int(n)
        return ddz_below(&self.s, m)

    def copy(self):
        cdef SplitMix64 r = SplitMix64.__new__(SplitMix64)
        r.s = self.s
        return r

    def __eq__(self, other):
        if not isinstance(other, SplitMix64):
            return NotImplemented
        return self.s == (<SplitMix64>other).s

    def __hash__(self):
        return hash(("SplitMix64", self.s))

    def __reduce__(self):
        return (SplitMix64, (self.s,))

    def __repr__(self):
        return f"SplitMix64(state={self.s:#018x})"


def game_seed(seed, i):
    """Game seed of game ``i`` (0-based) of a run with ``seed``."""
    return ddz_game_seed(_u64(seed, "seed"), _u64(i, "game index"))


def policy_seed(g):
    """Initial state of the random-policy stream of the game with seed ``g``."""
    return ddz_policy_seed(_u64(g, "game seed"))


# ---------------------------------------------------------------------------
# The deal (shared by Game and the playouts)
# ---------------------------------------------------------------------------

cdef void deal_c(uint64_t* s, int players, int decks, int hand_size,
                 unsigned char* hands, unsigned char* kitty) noexcept nogil:
    """Shuffle and deal: hands gets players * HB bytes (15 counts each)."""
    cdef unsigned char deck[108]
    cdef int n = 0, r, k, i, j
    cdef unsigned char t
    for r in range(13):
        for k in range(4 * decks):  # no-cython-lint (count-only loop)
            deck[n] = r
            n += 1
    for r in range(13, 15):
        for k in range(decks):  # no-cython-lint (count-only loop)
            deck[n] = r
            n += 1
    i = n - 1
    while i > 0:
        j = <int>ddz_below(s, <uint64_t>(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
        i -= 1
    memset(hands, 0, players * HB)
    memset(kitty, 0, HB)
    for i in range(players * hand_size):
        hands[(i // hand_size) * HB + deck[i]] += 1
    for i in range(players * hand_size, n):
        kitty[deck[i]] += 1


def deal(SplitMix64 rng, rules="standard"):
    """Shuffle and deal with ``rng`` (advancing it): returns ``(hands,
    kitty)``, a ``(players, 15)`` and a ``(15,)`` uint8 array."""
    return _deal(rng, check_rules(resolve_rules(rules)))


cdef tuple _deal(SplitMix64 rng, r):
    # r: checked rules (check_rules); its players and hand size size hb.
    cdef int players = r.players, decks = r.decks, hs = r.hand_size
    cdef unsigned char hb[MAXP * HB]
    cdef unsigned char kb[HB]
    deal_c(&rng.s, players, decks, hs, hb, kb)
    hands = np.empty((players, 15), dtype=np.uint8)
    cdef unsigned char* hp = <unsigned char*>cnp.PyArray_DATA(hands)
    cdef int p
    for p in range(players):
        memcpy(hp + p * 15, hb + p * HB, 15)
    kitty = np.empty(15, dtype=np.uint8)
    memcpy(<unsigned char*>cnp.PyArray_DATA(kitty), kb, 15)
    return hands, kitty


# ---------------------------------------------------------------------------
# The state and hot paths of ddz_fast.game.Game
# ---------------------------------------------------------------------------

cdef enum:
    PH_AUCTION = 0
    PH_DOUBLING = 1
    PH_PLAY = 2
    PH_OVER = 3


cdef class GameCore:
    """The state of one deal and the per-action work of
    :class:`ddz_fast.game.Game` (which subclasses it and documents the API).

    Holds the hands as one C-contiguous ``(players, 15)`` uint8 array (rows
    passed to ``ddz_fast.legal_moves`` as the fast path, and updated in place
    here).  A subclass supplies the auction choice tuples as class
    attributes (``_BID_CHOICES``, ``_CALL_CHOICES``, ``_ROB_CHOICES``,
    ``_DOUBLE_CHOICES``) and the methods ``_make_result(winner, won,
    spring)`` and ``_illegal(action)``; the meaning of an auction action is
    its position in its choice tuple (as in the compiled playouts).
    Attributes starting with ``_`` are internal.
    """
    cdef public object rules, seed, history, kitty, first_bidder
    cdef public int deal_number, base, bombs
    cdef public bint kitty_revealed
    cdef public object _undo, _legal, _result, _rng, _last, _queue
    cdef public int _n, _hsize, _ksize, _phase, _to_move, _landlord, _doubles, _plies
    cdef public int _bid, _bidder, _apasses, _caller, _robs, _last_player, _passes
    cdef public bint _rob
    cdef readonly object _hands, _views
    cdef unsigned char* _hp
    cdef int _ncards[MAXP]
    cdef int _played[MAXP]

    def __cinit__(self):
        self._hp = NULL
        self._landlord = -1
        self._last_player = -1
        self._bidder = -1
        self._caller = -1
        self._queue = ()

    # -- setting up ----------------------------------------------------------
    def _configure(self, rules, seed):
        """Set the rules and the seed (a fresh deal stream when not None)."""
        check_rules(rules)     # players and hand sizes size C arrays below
        self.rules = rules
        self.seed = seed
        self._n = rules.players
        self._hsize = rules.hand_size
        self._ksize = rules.kitty_size
        self._rob = rules.auction == "rob"
        self._rng = None if seed is None else SplitMix64(seed)
        self.deal_number = 0
        self._undo = []

    def _set_hands(self, hands, sizes=None):
        """Install a C-contiguous (players, 15) uint8 array as the hands."""
        cdef cnp.ndarray arr = hands
        cdef int s, i, t
        if (cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_NDIM(arr) != 2
                or cnp.PyArray_DIM(arr, 0) != self._n or cnp.PyArray_DIM(arr, 1) != 15
                or not cnp.PyArray_IS_C_CONTIGUOUS(arr) or not cnp.PyArray_ISWRITEABLE(arr)):
            raise ValueError("hands must be a writeable C-contiguous (players, 15) uint8 array")
        self._hands = arr
        self._hp = <unsigned char*>cnp.PyArray_DATA(arr)
        self._views = list(arr)
        for s in range(self._n):
            if sizes is None:
                t = 0
                for i in range(15):
                    t += self._hp[s * 15 + i]
                self._ncards[s] = t
            else:
                self._ncards[s] = sizes[s]

    def _set_played(self, played):
        cdef int s
        for s in range(self._n):
            self._played[s] = played[s]

    def _new_deal(self):
        """Shuffle and deal from the deal stream; start the auction."""
        cdef int s, n = self._n
        hands, kitty = _deal(self._rng, self.rules)   # checked by _configure
        self.first_bidder = self._rng.below(n)
        self._set_hands(hands)
        for s in range(n):
            self._played[s] = 0
        self.kitty = kitty
        self.kitty_revealed = False
        self._phase = PH_AUCTION
        self._landlord = -1
        self.history = []
        self.base = 0
        self.bombs = 0
        self._to_move = self.first_bidder
        self._legal = None
        self._result = None
        self._plies = 0
        self._bid = 0
        self._bidder = -1
        self._apasses = 0
        self._caller = -1
        self._robs = 0
        self._queue = ()
        self._doubles = 0
        self._last = None
        self._last_player = -1
        self._passes = 0

    @property
    def hand_sizes(self):
        """Cards held per seat."""
        return tuple(self._ncards[s] for s in range(self._n))

    @property
    def played(self):
        """Non-pass moves made so far per seat."""
        return tuple(self._played[s] for s in range(self._n))

    # -- actions -------------------------------------------------------------
    def legal_actions(self):
        """The legal actions of the player to move (cached per state)."""
        legal = self._legal
        if legal is None:
            if self._phase == PH_PLAY:
                legal = _legal_moves(self._views[self._to_move], self._last, rules=self.rules)
            elif self._phase == PH_AUCTION:
                if not self._rob:
                    legal = self._BID_CHOICES[self._bid]
                else:
                    legal = self._CALL_CHOICES if self._caller < 0 else self._ROB_CHOICES
            elif self._phase == PH_DOUBLING:
                legal = self._DOUBLE_CHOICES
            else:
                legal = ()
            self._legal = legal
        return legal

    def step(self, action):
        """Apply the action of the player to move; ValueError (state
        unchanged) when it is not legal now."""
        cdef Move m
        cdef int p, i, passes
        cdef unsigned char* h
        cdef unsigned char row[16]
        cdef MoveInfo info
        if self._phase != PH_PLAY:
            self._step_other(action)
            return
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_moves(self._views[self._to_move], self._last, rules=self.rules)
        if type(action) is not Move or action not in legal:
            raise self._illegal(action)
        m = <Move>action
        # Equal kind and cards, but a Move forged through Move._make can carry
        # another rank or length: then take the list's own Move, whose rank
        # and length the kernels made.
        memcpy(row, m.c, 15)
        row[KIND_BYTE] = <unsigned char>m.kind_
        row_info(row, &info)
        if info.rank != m.rank_ or info.length != m.length_:
            m = <Move>legal[legal.index(action)]
        p = self._to_move
        self._undo.append((p, m, self._last, self._last_player, self._passes, legal))
        self.history.append((p, m))
        self._plies += 1
        self._legal = None
        if m.kind_ == K_PASS:
            passes = self._passes + 1
            if passes == self._n - 1:
                self._last = None        # the table is cleared; the last player leads
                passes = 0
            self._passes = passes
        else:
            h = self._hp + p * 15
            for i in range(15):
                h[i] -= m.c[i]
            self._ncards[p] -= m.ncards
            self._played[p] += 1
            if m.kind_ == K_BOMB or m.kind_ == K_ROCKET:
                self.bombs += 1
            self._last = m
            self._last_player = p
            self._passes = 0
            if self._ncards[p] == 0:
                self._finish(p)
                return
        p += 1
        self._to_move = 0 if p == self._n else p

    cdef _finish(self, int winner):
        cdef int s, ll = self._landlord, spring = 0
        cdef bint won = winner == ll
        if won:
            spring = 1
            for s in range(self._n):
                if s != ll and self._played[s] != 0:
                    spring = 0
        elif self._played[ll] == 1:
            spring = 2
        self._phase = PH_OVER
        self._result = self._make_result(winner, won, spring)

    cdef tuple _auction_state(self):
        return (self._phase, self._to_move, self._bid, self._bidder, self._apasses,
                self._caller, self._robs, self._queue, self._doubles, self._landlord,
                self.base, self.kitty_revealed, self._legal)

    cdef _set_auction_state(self, tuple t):
        (self._phase, self._to_move, self._bid, self._bidder, self._apasses,
         self._caller, self._robs, self._queue, self._doubles, self._landlord,
         self.base, self.kitty_revealed, self._legal) = t

    cdef _step_other(self, action):
        cdef int n = self._n, p = self._to_move, k, q, fb
        cdef bint took = False
        if self._phase == PH_OVER:
            raise self._illegal(action)
        legal = self.legal_actions()
        try:
            k = legal.index(action)
        except Exception:
            raise self._illegal(action) from None
        if type(action) is not type(legal[k]):
            # Equal only by the action's own __eq__ (an object equal to
            # everything, say): the auction choices are equal only to
            # instances of their own class.
            raise self._illegal(action)
        action = legal[k]
        saved = self._auction_state()
        redeal = None
        if self._phase == PH_DOUBLING:
            if k == 1:
                self._doubles += 1
            self._queue = self._queue[1:]
            if self._queue:
                self._to_move = self._queue[0]
            else:
                self._phase = PH_PLAY
                self._to_move = self._landlord
        elif not self._rob:                          # bid: 0 pass, k: bid + k
            if k == 0:
                self._apasses += 1
                if self._bidder < 0 and self._apasses == n:
                    redeal = self._redeal_record()
                elif self._bidder >= 0 and self._apasses == n - 1:
                    took = True
                    self._end_auction(self._bidder, self._bid)
                else:
                    self._to_move = (p + 1) % n
            else:
                self._bid += k
                self._bidder = p
                self._apasses = 0
                if self._bid == 3:
                    took = True
                    self._end_auction(p, 3)
                else:
                    self._to_move = (p + 1) % n
        elif self._caller < 0:                       # rob, calling: 0 decline, 1 call
            if k == 1:
                self._caller = p
                self._bidder = p
                fb = self.first_bidder
                queue = []
                q = (p + 1) % n
                while q != fb:
                    queue.append(q)
                    q = (q + 1) % n
                self._queue = tuple(queue)
                if queue:
                    self._to_move = queue[0]
                else:
                    took = True
                    self._end_auction(p, 1)
            else:
                self._apasses += 1
                if self._apasses == n:
                    redeal = self._redeal_record()
                else:
                    self._to_move = (p + 1) % n
        else:                                        # rob, robbing: 0 decline, 1 rob
            if k == 1:
                self._robs += 1
                self._bidder = p
            self._queue = self._queue[1:]
            if self._queue:
                self._to_move = self._queue[0]
            else:
                took = True
                self._end_auction(self._bidder, 1 << self._robs)
        if redeal is None:
            self.history.append((p, action))
            self._legal = None
        self._undo.append(("auction", saved, took, redeal))

    cdef tuple _redeal_record(self):
        rec = (self._hands.copy(), self.kitty.copy(), tuple(self.history), self._rng.state,
               self.deal_number, self.first_bidder)
        self.deal_number += 1
        self._new_deal()
        return rec

    cdef _add_kitty(self, int seat, int sign):
        cdef const unsigned char* k = <const unsigned char*>cnp.PyArray_DATA(self.kitty)
        cdef unsigned char* h = self._hp + seat * 15
        cdef int i
        for i in range(15):
            h[i] = <unsigned char>(h[i] + sign * k[i])
        self._ncards[seat] += sign * self._ksize

    cdef _end_auction(self, int landlord, int base):
        cdef int i
        self._landlord = landlord
        self.base = base
        self.kitty_revealed = True
        self._add_kitty(landlord, 1)
        if self._rob:
            self._phase = PH_DOUBLING
            self._queue = tuple((landlord + i) % self._n for i in range(self._n))
        else:
            self._phase = PH_PLAY
            self._queue = ()
        self._to_move = landlord

    def undo(self):
        """Take back the last action, restoring the state exactly;
        IndexError when there is nothing to undo."""
        cdef Move m
        cdef int p, i
        cdef unsigned char* h
        if not self._undo:
            raise IndexError("nothing to undo")
        rec = self._undo.pop()
        if type(rec[0]) is int:
            p = rec[0]
            m = <Move>rec[1]
            self.history.pop()
            self._plies -= 1
            if m.kind_ != K_PASS:
                h = self._hp + p * 15
                for i in range(15):
                    h[i] += m.c[i]
                self._ncards[p] += m.ncards
                self._played[p] -= 1
                if m.kind_ == K_BOMB or m.kind_ == K_ROCKET:
                    self.bombs -= 1
                if self._phase == PH_OVER:
                    self._phase = PH_PLAY
                    self._result = None
            self._last = rec[2]
            self._last_player = rec[3]
            self._passes = rec[4]
            self._legal = rec[5]
            self._to_move = p
            return
        _, saved, took, redeal = rec
        if redeal is not None:
            hands, kitty, history, rng_state, deal_number, first = redeal
            self._new_deal()                 # resets every per-deal field ...
            self._set_hands(hands.copy())
            self.kitty = kitty.copy()
            self.history = list(history)
            self._rng.state = rng_state
            self.deal_number = deal_number
            self.first_bidder = first
        else:
            self.history.pop()
            if took:
                self._add_kitty(self._landlord, -1)
        self._set_auction_state(saved)       # ... and this restores the auction fields

    def clone(self):
        """An independent copy (hands, lists and the generator copied;
        immutable parts shared)."""
        cdef GameCore g = type(self).__new__(type(self))
        cdef int s
        g.rules = self.rules
        g.seed = self.seed
        g.history = list(self.history)
        g.kitty = self.kitty
        g.first_bidder = self.first_bidder
        g.deal_number = self.deal_number
        g.base = self.base
        g.bombs = self.bombs
        g.kitty_revealed = self.kitty_revealed
        g._undo = list(self._undo)
        g._legal = self._legal
        g._result = self._result
        g._rng = None if self._rng is None else self._rng.copy()
        g._last = self._last
        g._queue = self._queue
        g._n = self._n
        g._hsize = self._hsize
        g._ksize = self._ksize
        g._phase = self._phase
        g._to_move = self._to_move
        g._landlord = self._landlord
        g._doubles = self._doubles
        g._plies = self._plies
        g._bid = self._bid
        g._bidder = self._bidder
        g._apasses = self._apasses
        g._caller = self._caller
        g._robs = self._robs
        g._last_player = self._last_player
        g._passes = self._passes
        g._rob = self._rob
        g._set_hands(self._hands.copy(), self.hand_sizes)
        for s in range(self._n):
            g._played[s] = self._played[s]
        return g

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    # -- pickling --------------------------------------------------------------
    def __reduce__(self):
        state = (self.rules, self.seed, list(self.history), self.kitty, self.first_bidder,
                 self.deal_number, self.base, self.bombs, self.kitty_revealed,
                 list(self._undo), self._legal, self._result,
                 None if self._rng is None else self._rng.state, self._last, self._queue,
                 self._phase, self._to_move, self._landlord, self._doubles, self._plies,
                 self._bid, self._bidder, self._apasses, self._caller, self._robs,
                 self._last_player, self._passes, self._hands.copy(), self.hand_sizes,
                 self.played)
        return (_rebuild_game, (type(self), state))


def _rebuild_game(cls, state):
    cdef GameCore g = cls.__new__(cls)
    (rules, seed, history, kitty, first_bidder, deal_number, base, bombs, kitty_revealed,
     undo, legal, result, rng_state, last, queue, phase, to_move, landlord, doubles, plies,
     bid, bidder, apasses, caller, robs, last_player, passes, hands, sizes, played) = state
    g._configure(rules, None)
    g.seed = seed
    g._rng = None if rng_state is None else SplitMix64(rng_state)
    g.history = history
    g.kitty = kitty
    g.first_bidder = first_bidder
    g.deal_number = deal_number
    g.base = base
    g.bombs = bombs
    g.kitty_revealed = kitty_revealed
    g._undo = undo
    g._legal = legal
    g._result = result
    g._last = last
    g._queue = queue
    g._phase = phase
    g._to_move = to_move
    g._landlord = landlord
    g._doubles = doubles
    g._plies = plies
    g._bid = bid
    g._bidder = bidder
    g._apasses = apasses
    g._caller = caller
    g._robs = robs
    g._last_player = last_player
    g._passes = passes
    g._set_hands(hands, sizes)
    g._set_played(played)
    return g


# ---------------------------------------------------------------------------
# One random game in C
# ---------------------------------------------------------------------------

cdef struct Result:
    int landlord
    int landlord_won
    int plies
    int bombs
    int spring
    int base
    int redeals
    int doubles
    int64_t value
    int64_t scores[MAXP]
    int cards_left[MAXP]
    int cards_played


cdef int bid_auction(uint64_t* ps, int players, int first, int* base) noexcept nogil:
    """Auction "bid": returns the landlord, or -1 when all pass (redeal).
    Choice k of a decision: 0 = pass, k >= 1 = bid (current + k)."""
    cdef int cur = 0, holder = -1, passes = 0, p = first, k
    while True:
        k = <int>ddz_below(ps, <uint64_t>(4 - cur))
        if k == 0:
            passes += 1
            if holder < 0 and passes == players:
                return -1
            if holder >= 0 and passes == players - 1:
                break
        else:
            cur += k
            holder = p
            passes = 0
            if cur == 3:
                break
        p = (p + 1) % players
    base[0] = cur
    return holder


cdef int rob_auction(uint64_t* ps, int players, int first, int* robs) noexcept nogil:
    """Auction "rob": returns the landlord, or -1 when nobody calls.
    Choices: 0 = decline, 1 = call (or rob)."""
    cdef int t, p = first, caller = -1, landlord, q
    for t in range(players):  # no-cython-lint (count-only loop)
        if ddz_below(ps, 2) == 1:
            caller = p
            break
        p = (p + 1) % players
    if caller < 0:
        return -1
    landlord = caller
    robs[0] = 0
    # Each player after the caller who has not yet declined may rob once.
    q = (caller + 1) % players
    while q != first:
        if ddz_below(ps, 2) == 1:
            landlord = q
            robs[0] += 1
        q = (q + 1) % players
    return landlord


cdef int play_game(const RulesC* rc, int players, int hand_size, bint rob,
                   uint64_t g, Out* o, Result* res) noexcept nogil:
    """Deal, auction and play one game with uniformly random choices.
    Returns 0, or -1 when out of memory."""
    cdef uint64_t ds = g
    cdef uint64_t ps = ddz_policy_seed(g)
    cdef unsigned char hands[MAXP * HB]
    cdef unsigned char kitty[HB]
    cdef int cards[MAXP]
    cdef int played[MAXP]
    cdef int first, landlord = -1, base = 1, robs = 0, doubles = 0, redeals = 0
    cdef int p, t, i, passes, plies = 0, bombs = 0, spring = 0, kind, won
    cdef int cards_played = 0
    cdef bint have_last = False
    cdef MoveInfo last
    cdef unsigned char* row
    cdef unsigned char* h
    cdef int64_t value

    while True:
        deal_c(&ds, players, rc.decks, hand_size, hands, kitty)
        first = <int>ddz_below(&ds, <uint64_t>players)
        if rob:
            landlord = rob_auction(&ps, players, first, &robs)
            base = 1 << robs
        else:
            landlord = bid_auction(&ps, players, first, &base)
        if landlord >= 0:
            break
        redeals += 1

    # The landlord takes the kitty.
    for i in range(15):
        hands[landlord * HB + i] += kitty[i]
    if rob:
        # The landlord, then each farmer in seat order, may double once.
        for t in range(players):  # no-cython-lint (count-only loop)
            if ddz_below(&ps, 2) == 1:
                doubles += 1

    for p in range(players):
        cards[p] = hand_size
        played[p] = 0
    for i in range(15):
        cards[landlord] += kitty[i]

    p = landlord
    passes = 0
    while True:
        h = hands + p * HB
        o.n = 0
        gen_moves(h, rc, &last if have_last else NULL, o)
        if o.oom:
            return -1
        row = o.data + (<Py_ssize_t>ddz_below(&ps, <uint64_t>o.n)) * ROW
        plies += 1
        kind = row[KIND_BYTE]
        if kind == K_PASS:
            passes += 1
            if passes == players - 1:
                have_last = False        # the table is cleared
                passes = 0
        else:
            for i in range(15):
                h[i] -= row[i]
                cards_played += row[i]
            row_info(row, &last)
            have_last = True
            passes = 0
            played[p] += 1
            cards[p] -= last.ncards
            if kind == K_BOMB or kind == K_ROCKET:
                bombs += 1
            if cards[p] == 0:
                break
        p = (p + 1) % players

    won = p == landlord
    if won:
        spring = 1
        for t in range(players):
            if t != landlord and played[t] != 0:
                spring = 0
    else:
        spring = 2 if played[landlord] == 1 else 0
    value = (<int64_t>base) << (bombs + doubles + (1 if spring else 0))
    for t in range(players):
        if t == landlord:
            res.scores[t] = (players - 1) * value if won else -(players - 1) * value
        else:
            res.scores[t] = -value if won else value
    # Cards left, counted from the hands themselves (the tests check
    # cards_left + cards_played == the deck).
    for t in range(players):
        res.cards_left[t] = 0
        for i in range(15):
            res.cards_left[t] += hands[t * HB + i]
    res.cards_played = cards_played
    res.landlord = landlord
    res.landlord_won = won
    res.plies = plies
    res.bombs = bombs
    res.spring = spring
    res.base = base
    res.redeals = redeals
    res.doubles = doubles
    res.value = value
    return 0


# ---------------------------------------------------------------------------
# Batches of games, optionally on several threads
# ---------------------------------------------------------------------------

cdef class _Job:
    cdef RulesC rc
    cdef int players, hand_size
    cdef bint rob
    cdef uint64_t seed
    cdef uint64_t first
    cdef Py_ssize_t start, stop
    cdef bint failed
    cdef signed char* landlord
    cdef cnp.npy_bool* won
    cdef int64_t* scores
    cdef int* plies
    cdef int* bombs
    cdef signed char* spring
    cdef int* base
    cdef int* redeals
    cdef int* doubles
    cdef int64_t* value
    cdef uint64_t* seeds
    cdef short* cards_left
    cdef short* cards_played

    cdef void run(self) noexcept nogil:
        cdef Out o
        cdef Result res
        cdef Py_ssize_t i
        cdef int t
        cdef uint64_t g
        if not out_init(&o, 512, False):
            self.failed = True
            return
        for i in range(self.start, self.stop):
            g = ddz_game_seed(self.seed, self.first + <uint64_t>i)
            if play_game(&self.rc, self.players, self.hand_size, self.rob, g, &o, &res) < 0:
                self.failed = True
                break
            self.seeds[i] = g
            self.landlord[i] = <signed char>res.landlord
            self.won[i] = res.landlord_won
            for t in range(self.players):
                self.scores[i * self.players + t] = res.scores[t]
                self.cards_left[i * self.players + t] = <short>res.cards_left[t]
            self.cards_played[i] = <short>res.cards_played
            self.plies[i] = res.plies
            self.bombs[i] = res.bombs
            self.spring[i] = <signed char>res.spring
            self.base[i] = res.base
            self.redeals[i] = res.redeals
            self.doubles[i] = res.doubles
            self.value[i] = res.value
        out_free(&o)

    def run_py(self):
        with nogil:
            self.run()


class PlayoutResults:
    """Per-game results of :func:`play_random_games` (one row per game).

    Attributes (numpy arrays of length ``n``): ``landlord`` (int8 seat),
    ``landlord_won`` (bool), ``scores`` ((n, players) int64, each row sums to
    zero), ``plies`` (int32: play-phase turns, passes included), ``bombs``
    (int32: bombs and rockets played), ``spring`` (int8: 0 none, 1 spring, 2
    anti-spring), ``base`` (int32: the winning bid, or 2**robs), ``redeals``
    (int32), ``doubles`` (int32: doubles taken, "rob" auction only),
    ``value`` (int64: the stake each farmer wins or loses), ``game_seeds``
    (uint64: ``Game(rules, seed=game_seeds[i])`` deals game i),
    ``cards_left`` ((n, players) int16: cards in each hand at the end,
    counted from the hands) and ``cards_played`` (int16: cards played).
    ``cards_left.sum(1) + cards_played`` is always the deck size.
    Also ``rules``, ``seed``, ``first_game``, ``elapsed`` (seconds).
    """

    FIELDS = ("landlord", "landlord_won", "scores", "plies", "bombs", "spring",
              "base", "redeals", "doubles", "value", "game_seeds", "cards_left",
              "cards_played")

    def __init__(self, rules, seed, first_game, elapsed, **arrays):
        self.rules = rules
        self.seed = seed
        self.first_game = first_game
        self.elapsed = elapsed
        for name in self.FIELDS:
            setattr(self, name, arrays[name])

    def __len__(self):
        return len(self.landlord)

    def __repr__(self):
        return (f"PlayoutResults({len(self)} games, rules={self.rules.name!r}, "
                f"seed={self.seed}, first_game={self.first_game})")

    def as_dict(self):
        """The per-game arrays as a dict (field name -> array)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def summary(self):
        """Aggregate statistics as a dict (empty runs give NaN means)."""
        n = len(self)
        lscore = self.scores[np.arange(n), self.landlord.astype(np.intp)] if n else np.zeros(0)
        mean = (lambda a: float(np.mean(a)) if n else float("nan"))
        return {
            "games": n,
            "landlord_win_rate": mean(self.landlord_won),
            "mean_landlord_score": mean(lscore),
            "bombs_per_game": mean(self.bombs),
            "springs": int(np.count_nonzero(self.spring == 1)),
            "anti_springs": int(np.count_nonzero(self.spring == 2)),
            "redeals_per_game": mean(self.redeals),
            "plies_per_game": mean(self.plies),
            "mean_value": mean(self.value),
            "max_value": int(self.value.max()) if n else 0,
            "seconds": self.elapsed,
            "games_per_second": n / self.elapsed if self.elapsed > 0 else float("inf"),
        }


def play_random_games(n_games, *, rules="standard", seed=0, threads=1, first_game=0):
    """Play ``n_games`` whole games (deal, auction, play) with uniformly
    random legal actions, entirely in compiled code without the GIL.

    Game ``i`` uses the game seed ``game_seed(seed, first_game + i)``, so the
    results depend only on (rules, seed, game index): never on ``threads``
    or on how a run is split into calls.  ``threads`` splits the games into
    that many contiguous parts run in parallel.  Returns
    :class:`PlayoutResults`.
    """
    import time
    r = check_rules(resolve_rules(rules))
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or not 0 <= n_games < 2**62:
        raise ValueError(f"n_games must be an int 0 <= n_games < 2**62, not {n_games!r}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    if (isinstance(first_game, bool) or not isinstance(first_game, (int, np.integer))
            or not 0 <= first_game < 2**64):
        raise ValueError(f"first_game must be an int 0 <= first_game < 2**64, not {first_game!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    cdef Py_ssize_t n = n_games
    cdef int players = r.players
    arrays = {
        "landlord": np.zeros(n, dtype=np.int8),
        "landlord_won": np.zeros(n, dtype=np.bool_),
        "scores": np.zeros((n, players), dtype=np.int64),
        "plies": np.zeros(n, dtype=np.int32),
        "bombs": np.zeros(n, dtype=np.int32),
        "spring": np.zeros(n, dtype=np.int8),
        "base": np.zeros(n, dtype=np.int32),
        "redeals": np.zeros(n, dtype=np.int32),
        "doubles": np.zeros(n, dtype=np.int32),
        "value": np.zeros(n, dtype=np.int64),
        "game_seeds": np.zeros(n, dtype=np.uint64),
        "cards_left": np.zeros((n, players), dtype=np.int16),
        "cards_played": np.zeros(n, dtype=np.int16),
    }
    cdef int nthreads = max(1, min(int(threads), n)) if n else 1
    cdef _Job job
    jobs = []
    for t in range(nthreads):
        job = _Job()
        job.rc = rules_c(r)[0]
        job.players = players
        job.hand_size = r.hand_size
        job.rob = r.auction == "rob"
        job.seed = <uint64_t>(int(seed) & _MASK)
        job.first = first_game
        job.start = n * t // nthreads
        job.stop = n * (t + 1) // nthreads
        job.failed = False
        job.landlord = <signed char*>cnp.PyArray_DATA(arrays["landlord"])
        job.won = <cnp.npy_bool*>cnp.PyArray_DATA(arrays["landlord_won"])
        job.scores = <int64_t*>cnp.PyArray_DATA(arrays["scores"])
        job.plies = <int*>cnp.PyArray_DATA(arrays["plies"])
        job.bombs = <int*>cnp.PyArray_DATA(arrays["bombs"])
        job.spring = <signed char*>cnp.PyArray_DATA(arrays["spring"])
        job.base = <int*>cnp.PyArray_DATA(arrays["base"])
        job.redeals = <int*>cnp.PyArray_DATA(arrays["redeals"])
        job.doubles = <int*>cnp.PyArray_DATA(arrays["doubles"])
        job.value = <int64_t*>cnp.PyArray_DATA(arrays["value"])
        job.seeds = <uint64_t*>cnp.PyArray_DATA(arrays["game_seeds"])
        job.cards_left = <short*>cnp.PyArray_DATA(arrays["cards_left"])
        job.cards_played = <short*>cnp.PyArray_DATA(arrays["cards_played"])
        jobs.append(job)
    t0 = time.perf_counter()
    run_parts([j.run_py for j in jobs])
    elapsed = time.perf_counter() - t0
    for job in jobs:
        if job.failed:
            raise MemoryError("out of memory in play_random_games")
    return PlayoutResults(r, int(seed), int(first_game), elapsed, **arrays)
