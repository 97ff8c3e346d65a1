# cython: language_level=3
"""The seeded random numbers of ddz-fast (SplitMix64), shared by the deal,
the auction draws and every policy of the compiled engine.

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

* **Game i of a run** with seed ``seed`` (``play_random_games``, ``Session``, the arena)
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

from libc.stdint cimport uint64_t

from ._checks cimport as_seed
from ._checks import check_int
from . import pickling as _pickling

__all__ = ["SplitMix64", "game_seed", "policy_seed"]

cdef object _MAX_INDEX = (1 << 64) - 1


cdef class SplitMix64:
    """The project's random generator (see the module docstring).

    ``SplitMix64(seed)`` starts at state ``seed mod 2**64``.  ``next()`` gives
    a 64-bit int, ``below(n)`` an unbiased int in ``[0, n)``.  ``state`` can
    be read and set; ``copy()`` gives an independent generator.
    """
    cdef uint64_t s

    def __init__(self, seed=0):
        self.s = as_seed(seed, "seed")

    @property
    def state(self):
        return self.s

    @state.setter
    def state(self, value):
        self.s = as_seed(value, "state")

    def next(self):
        return ddz_next(&self.s)

    def below(self, n):
        cdef uint64_t m
        if type(n) is int and 0 < <object>n < (1 << 63):
            m = n
        else:
            m = <uint64_t>check_int(n, "below(n): n", 1, (1 << 64) - 1)
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
        return (_pickling.load_split_mix, ((_pickling.FORMAT, self.s),))

    def __repr__(self):
        return f"SplitMix64(state={self.s:#018x})"


def game_seed(seed, i):
    """Game seed of game ``i`` (0-based) of a run with ``seed``.

    ``seed`` is any int taken modulo 2**64, as everywhere (``Game(seed=...)``,
    ``SplitMix64``); ``i`` is an index, ``0..2**64-1`` (ValueError outside:
    a negative or larger index would wrap to another game silently)."""
    return ddz_game_seed(as_seed(seed, "seed"), <uint64_t>check_int(i, "game index", 0, _MAX_INDEX))


def policy_seed(g):
    """Initial state of the random-policy stream of the game with seed ``g``."""
    return ddz_policy_seed(as_seed(g, "game seed"))
