# cython: language_level=3
"""The dataset recorder, built on the batched game (:mod:`ddz_fast._engine.vec`):
:class:`StepRecorder` records every step of every table of a
:class:`VecGame` and hands the steps out grouped into whole games (the
compiled core of :func:`ddz_fast.trajectories.record`).

Under wild-card rules (``laizi``, ``tiandi``) the ids are the flat ``int64``
ids (docs/actions.md, "Flat ids") and each row also records its game's wild
ranks; under the other rules the ids stay ``int32`` (the same columns,
bytes and speed as before wild cards were recorded)."""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memcpy, memset

import numpy as np

from .._util.rng cimport ddz_game_seed
from .._util.checks cimport as_int
from .._core.bits cimport ctz
from .vec cimport VecGame, Part, NO_ACT
from .._util.checks import read_only_view

cnp.import_array()

__all__ = ["StepRecorder"]


cdef struct TBuf:
    # The rows of one table's current game (grown as needed).
    uint8_t* obs                 # obs_size bytes a row
    char* ids                    # the legal ids, row after row (idw bytes each)
    int32_t* cnt                 # legal ids a row
    int8_t* seat
    char* act                    # the action of each row (idw bytes each)
    Py_ssize_t rows, cap, nids, cap_ids


cdef struct Col:
    # The output columns of finished games: the data of NumPy arrays the
    # recorder owns (StepRecorder._arrays), grown with the GIL before a step.
    int64_t* game
    int16_t* step
    int8_t* seat
    uint8_t* obs
    int32_t* cnt
    char* ids                    # int32, or int64 under wild rules (idw bytes)
    char* act                    # (as ids)
    int64_t* reward
    uint8_t* done
    int64_t* final
    int8_t* win
    int8_t* landlord
    uint64_t* seed
    int8_t* wild                 # wild rules: nwild ranks a row (the game's; -1 if never drawn)
    Py_ssize_t rows, cap, nids, cap_ids


cdef bint _grow(void** p, Py_ssize_t n, size_t size) noexcept nogil:
    cdef void* q = realloc(p[0], n * size if n else 1)
    if q == NULL:
        return False
    p[0] = q
    return True


@cython.final
cdef class StepRecorder:
    """Every step of a :class:`VecGame`, kept per table and handed out as
    whole games, in the order they end (the compiled core of
    :func:`ddz_fast.trajectories.record`).

    ``StepRecorder(vg, limit)``; ``step(actions)`` records the row of each
    table that acts (the acting seat's observation as bytes, its legal ids,
    the action; a table given ``NO_ACTION`` sits the step out and records
    nothing) and steps ``vg``; when a table's deal ends its rows move to the output with
    the game's number, final scores and landlord.  After ``limit`` games the
    rest are dropped.  ``take()`` returns the output as NumPy arrays (copies)
    and empties it.  The VecGame must auto-reset and have observations.

    Under wild-card rules the ids (``legal_ids``, ``action``) are the flat
    ``int64`` ids and ``take()`` adds ``wild``: ``(rows, k)`` int8, the wild
    ranks of each row's game (``VecGame.wild``'s values once drawn, the same
    on every row of a game, its auction's included; -1 for a game that ended
    before the draw).  Otherwise the ids are ``int32``.
    """
    cdef VecGame vg
    cdef TBuf* tb
    cdef Col out
    cdef int8_t* landlord       # per table: the landlord of its current game, or -1
    cdef unsigned int* wmask    # wild rules, per table: the wild ranks of its current game (0: none yet)
    cdef Py_ssize_t n, obs_size
    cdef Py_ssize_t idw         # bytes an id: 4 (int32), or 8 (int64) under wild rules
    cdef int nwild              # wild ranks a deal draws (0: no wild cards)
    cdef int64_t limit, ended
    cdef dict _arrays           # the output columns (Col points into them)

    def __cinit__(self):
        self.tb = NULL
        self.landlord = NULL
        self.wmask = NULL
        self.n = 0
        memset(&self.out, 0, sizeof(Col))

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.tb != NULL:
            for i in range(self.n):
                free(self.tb[i].obs); free(self.tb[i].ids); free(self.tb[i].cnt)
                free(self.tb[i].seat); free(self.tb[i].act)
            free(self.tb)
        free(self.landlord)
        free(self.wmask)

    cdef int _ensure(self) except -1:
        """Room in the output for every row and id the next step can finish."""
        cdef Py_ssize_t i, rows = self.out.rows, ids = self.out.nids
        for i in range(self.n):
            rows += self.tb[i].rows + 1
            ids += self.tb[i].nids + self.vg.counts[i]
        if rows > self.out.cap:
            self._grow_columns(max(rows, 2 * self.out.cap, 4096), False)
        if ids > self.out.cap_ids:
            self._grow_columns(max(ids, 2 * self.out.cap_ids, 65536), True)
        return 0

    cdef _grow_columns(self, Py_ssize_t cap, bint ids):
        """New, larger arrays holding the output so far (a caller's views
        of the old ones stay valid memory)."""
        cdef Col* o = &self.out
        id_type = np.int64 if self.nwild else np.int32
        specs = ((("ids", id_type),) if ids else
                 (("game", np.int64), ("step", np.int16), ("seat", np.int8), ("obs", np.uint8),
                  ("cnt", np.int32), ("act", id_type), ("reward", np.int64), ("done", np.bool_),
                  ("final", np.int64), ("win", np.int8), ("landlord", np.int8), ("seed", np.uint64))
                 + ((("wild", np.int8),) if self.nwild else ()))
        used = o.nids if ids else o.rows
        for name, dtype in specs:
            width = self.obs_size if name == "obs" else self.nwild if name == "wild" else 1
            new = np.empty(cap * width, dtype=dtype)
            old = self._arrays.get(name)
            if old is not None and used:
                new[:used * width] = old[:used * width]
            self._arrays[name] = new
        a = self._arrays
        if ids:
            o.ids = <char*>cnp.PyArray_DATA(a["ids"])
            o.cap_ids = cap
            return
        o.game = <int64_t*>cnp.PyArray_DATA(a["game"])
        o.step = <int16_t*>cnp.PyArray_DATA(a["step"])
        o.seat = <int8_t*>cnp.PyArray_DATA(a["seat"])
        o.obs = <uint8_t*>cnp.PyArray_DATA(a["obs"])
        o.cnt = <int32_t*>cnp.PyArray_DATA(a["cnt"])
        o.act = <char*>cnp.PyArray_DATA(a["act"])
        o.reward = <int64_t*>cnp.PyArray_DATA(a["reward"])
        o.done = <uint8_t*>cnp.PyArray_DATA(a["done"])
        o.final = <int64_t*>cnp.PyArray_DATA(a["final"])
        o.win = <int8_t*>cnp.PyArray_DATA(a["win"])
        o.landlord = <int8_t*>cnp.PyArray_DATA(a["landlord"])
        o.seed = <uint64_t*>cnp.PyArray_DATA(a["seed"])
        o.wild = <int8_t*>cnp.PyArray_DATA(a["wild"]) if self.nwild else NULL
        o.cap = cap

    def __init__(self, VecGame vg not None, limit):
        if self.tb != NULL:
            raise TypeError("StepRecorder.__init__ cannot be called twice")
        vg._check()
        if not vg.auto_reset_ or not vg.want_obs:
            raise ValueError("a StepRecorder needs a VecGame with auto_reset=True and observations=True")
        self.limit = as_int(limit, "limit", 0, 1 << 62)
        self.vg = vg
        self.n = vg.n
        self.obs_size = vg.obs_size_
        self.nwild = vg.nwild
        # (the standard ids fit int32; the wild rules' flat ids need int64)
        self.idw = sizeof(int64_t) if self.nwild else sizeof(int32_t)
        self.tb = <TBuf*>calloc(self.n, sizeof(TBuf))
        self.landlord = <int8_t*>malloc(self.n * sizeof(int8_t))
        self.wmask = <unsigned int*>calloc(self.n, sizeof(unsigned int))
        if self.tb == NULL or self.landlord == NULL or self.wmask == NULL:
            raise MemoryError("out of memory")
        memset(self.landlord, -1, self.n)
        self.ended = 0
        self._arrays = {}
        self._grow_columns(4096, False)
        self._grow_columns(65536, True)

    @property
    def games(self):
        """Games recorded so far (at most ``limit``)."""
        return self.ended

    @property
    def pending_games(self):
        """Games in the output, not yet taken."""
        return 0 if self.out.rows == 0 else int(self.out.game[self.out.rows - 1] - self.out.game[0] + 1)

    def step(self, actions):
        """Record the tables' current rows, then ``vg.step(actions)``."""
        if self.tb == NULL:
            raise TypeError("this StepRecorder was never initialised")
        cdef VecGame vg = self.vg
        cdef bint ok
        vg._enter()
        try:
            vg._load(actions)
            self._ensure()
            with nogil:
                ok = self._snapshot()
            if not ok:
                raise MemoryError("out of memory recording the steps")
            with nogil:
                bad = vg._validate()
            if bad >= 0:
                self._unsnapshot()
                raise vg._illegal(bad)
            vg._run(True)
            with nogil:
                self._collect()
        finally:
            vg._leave()

    cdef bint _snapshot(self) noexcept nogil:
        """Append each table's row before the step (legal ids from the parts'
        private copy, in table order)."""
        cdef Py_ssize_t i, at, k
        cdef int j
        cdef TBuf* t
        cdef Part* p
        cdef int64_t c
        for i in range(self.n):         # room first, so a failure changes no table
            t = &self.tb[i]
            c = self.vg.counts[i]
            if t.rows == t.cap:
                k = 2 * t.cap if t.cap else 64
                if not (_grow(<void**>&t.obs, k, self.obs_size) and _grow(<void**>&t.cnt, k, 4)
                        and _grow(<void**>&t.seat, k, 1) and _grow(<void**>&t.act, k, self.idw)):
                    return False
                t.cap = k
            if t.nids + c > t.cap_ids:
                k = max(2 * t.cap_ids, t.nids + c, 1024)
                if not _grow(<void**>&t.ids, k, self.idw):
                    return False
                t.cap_ids = k
        for j in range(self.vg.nparts):
            p = &self.vg.parts[j]
            at = 0
            for i in range(p.start, p.stop):
                c = self.vg.counts[i]
                if self.vg.act[i] != NO_ACT:    # a table that sits the step out has no row
                    self._append(&self.tb[i], self.vg.p_obs + i * self.obs_size, p.ids + at, c, i)
                at += c
        return True

    cdef inline void _append(self, TBuf* t, const float* o, const int64_t* ids, int64_t c,
                             Py_ssize_t i) noexcept nogil:
        """One row of table i (room made by _snapshot)."""
        # Locals, not the struct's fields: a uint8_t store may alias them, which
        # would make the compiler reload them on every byte.
        cdef Py_ssize_t r, size = self.obs_size
        cdef uint8_t* dst = t.obs + t.rows * size
        for r in range(size):
            dst[r] = <uint8_t>o[r]
        cdef int32_t* ids32
        if self.nwild:
            memcpy(t.ids + t.nids * sizeof(int64_t), ids, c * sizeof(int64_t))
            (<int64_t*>t.act)[t.rows] = self.vg.act[i]
            self.wmask[i] = self.vg.st[i].wmask
        else:
            ids32 = <int32_t*>t.ids + t.nids
            for r in range(c):
                ids32[r] = <int32_t>ids[r]     # (the standard ids fit int32)
            (<int32_t*>t.act)[t.rows] = <int32_t>self.vg.act[i]
        t.nids += c
        t.cnt[t.rows] = <int32_t>c
        t.seat[t.rows] = <int8_t>self.vg.p_to_move[i]
        t.rows += 1
        self.landlord[i] = <int8_t>self.vg.st[i].landlord

    cdef void _unsnapshot(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.vg.act[i] != NO_ACT:
                self.tb[i].rows -= 1
                self.tb[i].nids -= self.tb[i].cnt[self.tb[i].rows]

    cdef void _collect(self) noexcept nogil:
        """Move the rows of every game that ended to the output (room made by _ensure)."""
        cdef Py_ssize_t i, r, base, w
        cdef int8_t wild[4]             # the game's wild ranks (nwild <= 2: rules.WILD_RANKS)
        cdef unsigned int wm
        cdef TBuf* t
        cdef Col* out = &self.out
        cdef int seat, players = self.vg.nplayers
        cdef uint64_t seed
        for i in range(self.n):
            if not self.vg.p_done[i]:
                continue
            t = &self.tb[i]
            if self.ended < self.limit:      # (room made by _ensure)
                # the game's seed: the episode before the auto-reset
                seed = ddz_game_seed(self.vg.seed_, ((<uint64_t>i) << 32) + <uint64_t>(self.vg.p_episodes[i] - 1))
                base = out.rows
                memcpy(out.obs + base * self.obs_size, t.obs, t.rows * self.obs_size)
                memcpy(out.ids + out.nids * self.idw, t.ids, t.nids * self.idw)
                memcpy(out.cnt + base, t.cnt, t.rows * sizeof(int32_t))
                memcpy(out.seat + base, t.seat, t.rows)
                memcpy(out.act + base * self.idw, t.act, t.rows * self.idw)
                if self.nwild:
                    # the ranks of the mask of the game's last row (drawn by then:
                    # a deal nobody bids for is redealt), ascending; -1 if not
                    wm = self.wmask[i]
                    for w in range(self.nwild):
                        wild[w] = <int8_t>ctz(wm) if wm else -1
                        wm &= wm - 1
                    for r in range(t.rows):
                        memcpy(out.wild + (base + r) * self.nwild, wild, self.nwild)
                for r in range(t.rows):
                    seat = t.seat[r]
                    out.game[base + r] = self.ended
                    out.step[base + r] = <int16_t>(r if r < 32767 else 32767)
                    out.reward[base + r] = 0
                    out.done[base + r] = 0
                    out.final[base + r] = self.vg.p_scores[i * players + seat]
                    out.win[base + r] = 1 if self.vg.p_wins[i * players + seat] > 0 else -1
                    out.landlord[base + r] = self.landlord[i]
                    out.seed[base + r] = seed
                out.reward[base + t.rows - 1] = out.final[base + t.rows - 1]
                out.done[base + t.rows - 1] = 1
                out.rows += t.rows
                out.nids += t.nids
                self.ended += 1
            t.rows = 0
            t.nids = 0

    @property
    def pending_rows(self):
        """Rows in the output, not yet taken."""
        return self.out.rows

    @property
    def pending_ids(self):
        """Legal ids in the output, not yet taken (the rows' ``legal_counts``
        summed)."""
        return self.out.nids

    def take(self):
        """The finished games not taken yet, as a dict of read-only NumPy
        views (``legal_ids`` flat, with ``legal_counts`` a row; under wild
        rules also ``wild``, ``(rows, k)``); empties the output.  Like
        VecGame's buffers, the views hold valid data only until the next
        :meth:`step`: copy what you keep."""
        if self.tb == NULL:
            raise TypeError("this StepRecorder was never initialised")
        cdef Py_ssize_t m = self.out.rows, k = self.out.nids
        a = self._arrays
        names = (("game", "game"), ("step", "step"), ("seat", "seat"), ("legal_counts", "cnt"),
                 ("action", "act"), ("reward", "reward"), ("done", "done"), ("final_score", "final"),
                 ("win", "win"), ("landlord", "landlord"), ("game_seed", "seed"))
        res = {out: read_only_view(a[name][:m]) for out, name in names}
        res["observation"] = read_only_view(a["obs"][:m * self.obs_size].reshape(m, self.obs_size))
        res["legal_ids"] = read_only_view(a["ids"][:k])
        if self.nwild:
            res["wild"] = read_only_view(a["wild"][:m * self.nwild].reshape(m, self.nwild))
        self.out.rows = 0
        self.out.nids = 0
        return res

    def __reduce__(self):
        raise TypeError("a StepRecorder cannot be pickled")
