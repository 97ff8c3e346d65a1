# Playouts (playout.pyx), for Game and the batched tables.
from libc.stdint cimport uint64_t

from .._core.kernels cimport RulesC, Out
from .engine cimport GState

# Play the deal to its end with the policy (POLICY_RANDOM: every decision
# drawn from ps; POLICY_BOT: the simple bot), o the move buffer; 0, or -1
# when out of memory.
cdef int gs_play_out(GState* s, const RulesC* rc, int policy, uint64_t* ps, Out* o) noexcept nogil
# The POLICY_* code named by a rollout's `policy` argument (else
# TypeError/ValueError).
cdef int policy_code(object policy) except -1
# `total` (a Python int), checked to be at most MAX_GAMES games of call `what`.
cdef Py_ssize_t checked_games(object total, str what) except -1
# Game.rollout's playouts: n games from st (worlds: NULL, or the hands of
# game i in world i // per_world), as Rollouts.
cdef object run_rollouts(const GState* st, const RulesC* rc, int policy, uint64_t seed,
                         Py_ssize_t n, int threads, const unsigned char* worlds, Py_ssize_t per_world)
# Game.move_values' playouts, as an (nw, nm) float64 array.
cdef object run_move_values(const GState* st, const RulesC* rc, const unsigned char* worlds,
                            Py_ssize_t nw, const unsigned char* rows, Py_ssize_t nm, int reps,
                            int policy, uint64_t seed, int threads)
