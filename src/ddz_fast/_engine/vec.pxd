# The batched game (vec.pyx): VecGame's C fields and methods, for the
# dataset recorder (recorder.pyx) that steps it, and C-level access to its
# tables for other compiled modules (the DouZero feature encoder reads them
# without the GIL).
cimport cython
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t

from .._core.kernels cimport MoveInfo, Out, RulesC
from .._core.ranks cimport MoveRanks, WildIds
from .engine cimport GState


cdef enum:
    NO_ACT = -1              # the action "id" of a table that sits a step out


cdef struct Part:
    # One contiguous range of tables, stepped by one thread.
    Py_ssize_t start, stop
    Out out                  # legal move rows of one table
    Out scratch              # the simple bot's (bot_index)
    int64_t* ids             # this step's legal ids of the part's tables, in table order
    Py_ssize_t nids, cap
    uint8_t* wrows           # wild rules: the 32-byte row of each of ids (wcap rows)
    Py_ssize_t wcap
    int64_t* ranks           # one table's move ranks (scratch of rank_generated)
    Py_ssize_t ranks_cap
    bint oom
    Py_ssize_t missing       # a table with a legal move outside the action space, or -1


@cython.final
cdef class VecGame:
    cdef GState** st
    cdef Py_ssize_t n
    cdef int nplayers, hand_size, nparts
    cdef bint rob, auto_reset_, want_obs, want_masks, want_bot, skip_auction_, _ready
    cdef const RulesC* rc
    cdef uint64_t seed_
    cdef int64_t n_moves_, n_actions_
    cdef int obs_size_
    cdef unsigned int nwild   # wild ranks a deal draws (0: no wild cards; ids from `wild`)
    cdef WildIds wild         # wild rules: the flat move ids (None otherwise)
    cdef uint8_t* wsel        # wild rules: per table, the 32-byte row of its validated move
    cdef object _rules, _space, _lock
    cdef MoveRanks table      # move row <-> move index k (id MOVE_ID0 + k)
    cdef const uint8_t* rows
    cdef MoveInfo* id_info    # per move id: its MoveInfo (what gs_play needs)
    cdef Part* parts
    cdef unsigned char* redo  # set_games: 1 at the tables to refill, the others kept (NULL: all)
    cdef int64_t* act
    cdef MoveInfo* mi
    cdef int64_t* counts      # per table: number of legal ids (previous step until refilled)
    # outputs (owned arrays, and their data)
    cdef object _to_move, _offsets, _ids, _masks, _obs, _scores, _wins, _done, _episodes, _seeds, _bot
    cdef object v_to_move, v_offsets, v_ids, v_masks, v_obs, v_scores, v_wins, v_done, v_episodes, v_seeds
    cdef object v_bot
    cdef int32_t* p_bot
    cdef int64_t* p_bot64     # (wild rules: int64 ids)
    cdef int32_t* p_to_move
    cdef int64_t* p_offsets
    cdef Py_ssize_t ids_cap
    cdef uint8_t* p_masks
    cdef float* p_obs
    cdef int64_t* p_scores
    cdef float* p_wins
    cdef uint8_t* p_done
    cdef int64_t* p_episodes
    cdef uint64_t* p_seeds

    cdef int _enter(self) except -1
    cdef void _leave(self)
    cdef int _check(self) except -1
    cdef void _new_game(self, Py_ssize_t i) noexcept nogil
    cdef int _restart(self) except -1
    cdef tuple _chosen(self, object tables, object game_seeds)
    cdef int _load(self, object actions) except -1
    cdef Py_ssize_t _validate(self) noexcept nogil
    cdef object _illegal(self, Py_ssize_t i)
    cdef int _run(self, bint apply) except -1
    cdef void _run_part(self, Part* p, bint apply) noexcept nogil
    cdef void _settle(self, Py_ssize_t i, GState* s) noexcept nogil
    cdef bint _refill(self, Part* p, Py_ssize_t i, const GState* s) noexcept nogil
    cdef bint _refill_wild(self, Part* p, Py_ssize_t i, const GState* s) noexcept nogil
    cdef object _id_dtype(self)
    cdef void _set_bot(self, Py_ssize_t i, int64_t v) noexcept nogil
    cdef object _move_of(self, int64_t a, Py_ssize_t i)
    cdef Py_ssize_t _table_index(self, object table, str what) except -1
    cdef object _table_wild(self, object table, str what)
    cdef object _wild_of(self, Py_ssize_t i)


# The n table states of a VecGame, read-only, locked against stepping and
# resetting until vec_release (TypeError for a non-VecGame or one never
# initialised, RuntimeError while another thread steps it).
cdef GState** vec_states(object vg, Py_ssize_t* n) except NULL
cdef void vec_release(object vg)
