# cython: language_level=3
"""The batched game: ``n`` independent tables stepped in one compiled call.

:class:`VecGame` holds ``n`` engine states (:mod:`ddz_fast._engine.engine`'s
``GState``, allocated once) and steps all of them with one array of action
ids, entirely in C without the GIL (optionally on several threads).  The
rules are the engine's: every action is checked and applied by the engine's
own functions, and every legal action comes from its move generator.

Action ids: the game's (``docs/actions.md``, the same as
:meth:`Game.legal_ids <ddz_fast.Game.legal_ids>`; ``n_actions = 9 + n_moves``)
  * ``0 .. 8``: the auction and doubling actions, the id indexing
    ``ddz_fast.game_values.AUCTION_ACTIONS``: ``Bid(0)`` (the bid pass),
    ``Bid(1)``, ``Bid(2)``, ``Bid(3)``, ``DECLINE``, ``CALL``, ``ROB``,
    ``NO_DOUBLE``, ``DOUBLE`` (an auction uses only its own);
  * ``FIRST_MOVE_ID + k`` (``FIRST_MOVE_ID == 9``): move ``k`` of
    :func:`ddz_fast.action_space` for the rules (``n_moves`` is its
    ``size``; ``k = 0`` is the play-phase PASS);
  * under wild-card rules (``laizi``, ``tiandi``), ``FIRST_MOVE_ID + f``
    for the flat id ``f = reading * cards_size + cards`` of the move's pair
    of the :class:`~ddz_fast.actions.WildActionSpace` under the table's wild
    ranks (``n_moves`` is its ``flat_size``); ``legal_ids`` and
    ``bot_actions`` are then ``int64``, ``masks`` is refused, and
    :meth:`VecGame.action` / :meth:`VecGame.action_id` take the ``table``.

Seeds
  Table ``i``'s ``k``-th game (``k = 0`` at construction and after
  :meth:`VecGame.reset`, then one more at each automatic reset) is
  ``Game(rules, seed=game_seed(seed, i * 2**32 + k))``, so the same seed
  gives the same games whatever ``threads`` is.

Buffers
  Every result lives in a NumPy array owned by the object, refilled in place
  by each :meth:`~VecGame.step` (read-only views; copy what you keep).  The
  one exception is ``legal_ids``, replaced by a larger array on the rare
  step whose legal actions do not fit it: read the attribute after each step.

The dataset recorder that steps a VecGame is :mod:`ddz_fast._engine.recorder`
(VecGame's C fields and methods are declared in vec.pxd for it).
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, int32_t, uint32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memcpy, memset

import threading

import numpy as np

from .._core.kernels cimport MoveInfo, ROW, out_init, out_free, row_info
from .._core.wild cimport WROW
from .._core.move cimport wild_ranks_of
from .engine cimport (
    GState, gs_alloc, gs_free, gs_init, gs_new_game, gs_choices,
    gs_auction_step, gs_gen, gs_play, obs_size, gs_encode_obs, PH_AUCTION, PH_DOUBLING, PH_PLAY, PH_OVER,
    LAST_NONE, N_AUCTION_CODES, MOVE_ID0, Entry, hist_capacity,
)
from .bots cimport bot_index, bot_auction, wild_bot_index
from .game cimport game_from_state
from .._core.entry cimport rules_id, rules_by_id
from .._core.ranks cimport ranks_for
from .._util.rng cimport ddz_game_seed
from .._util.checks cimport as_int, as_seed, as_threads
from .._util.checks import read_only_view

from .._util.parallel import run_parts
from ..errors import IllegalActionError
from ..game_values import AUCTION_ACTIONS
from .._core.move import Move
from ..rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["VecGame", "N_AUCTION_IDS", "NO_ACTION", "FIRST_MOVE_ID", "MAX_TABLES"]

#: Auction and doubling ids, before the move ids (the engine's action codes).
N_AUCTION_IDS = N_AUCTION_CODES
#: The id of move 0 (the play-phase PASS).
FIRST_MOVE_ID = MOVE_ID0

#: The action "id" of a table that sits a step out (nothing changes there).
NO_ACTION = NO_ACT

#: Most tables of one VecGame: 2**20 (about 4.5 GiB without masks; seeds
#: game_seed(seed, i * 2**32 + k) would allow 2**32).  Larger batches are
#: several VecGames.
MAX_TABLES = 1 << 20


cdef Py_ssize_t _table_bytes(int players, Py_ssize_t n_actions, Py_ssize_t obs_floats, bint masks,
                             bint observations, bint bot) noexcept nogil:
    """The memory one table takes: its engine state and history, its share
    of every buffer (step scratch, legal ids, the result arrays)."""
    return (sizeof(GState) + hist_capacity(players) * sizeof(Entry) + sizeof(GState*)
            + sizeof(int64_t) * 2 + sizeof(MoveInfo)          # act, counts, mi
            + sizeof(int32_t) + sizeof(int64_t) + 64 * sizeof(int64_t)   # to_move, offsets, legal ids
            + players * (sizeof(int64_t) + sizeof(float))     # scores, wins
            + 1 + sizeof(int64_t) + sizeof(uint64_t)          # done, episodes, seeds
            + (n_actions if masks else 0)
            + (obs_floats * sizeof(float) if observations else 0)
            + (sizeof(int32_t) if bot else 0))


cdef Py_ssize_t _check_size(object n, Py_ssize_t per_table) except -1:
    """``n`` as a table count 1..MAX_TABLES, checked before anything is
    allocated; the error says how much memory ``n`` tables would take."""
    try:
        return as_int(n, "n", 1, MAX_TABLES)     # (TypeError for a non-int)
    except ValueError:
        if not 1 <= n < 1 << 62:                 # (no machine holds more: the plain range error)
            raise
    raise ValueError(f"VecGame(n={n}) would need about {int(n) * per_table / 2**30:,.1f} GiB "
                     f"({per_table:,} bytes a table with these options); the most is "
                     f"VecGame.MAX_TABLES = {MAX_TABLES:,} tables (use several VecGames for more)")


cdef inline bint _push(Part* p, int64_t v) noexcept nogil:
    """Append one legal id to the part's list; False when out of memory."""
    cdef int64_t* grown
    cdef Py_ssize_t cap
    if p.nids == p.cap:
        cap = 2 * p.cap if p.cap else 1024
        grown = <int64_t*>realloc(p.ids, cap * sizeof(int64_t))
        if grown == NULL:
            p.oom = True
            return False
        p.ids = grown
        p.cap = cap
    p.ids[p.nids] = v
    p.nids += 1
    return True


cdef bint _push_wild(Part* p, int64_t v, const uint8_t* row) noexcept nogil:
    """_push under wild rules: the id and its 32-byte row (none for an
    auction id), the rows kept beside the ids."""
    cdef uint8_t* grown
    if not _push(p, v):
        return False
    if p.nids > p.wcap:
        grown = <uint8_t*>realloc(p.wrows, p.cap * WROW)
        if grown == NULL:
            p.oom = True
            return False
        p.wrows = grown
        p.wcap = p.cap
    if row != NULL:
        memcpy(p.wrows + (p.nids - 1) * WROW, row, WROW)
    return True


cdef object _read_only(object a):
    # (a view whose base is a read-only memoryview: setflags(write=True)
    # cannot make the engine's own buffers writeable again)
    return read_only_view(a)


@cython.final
cdef class VecGame:
    """``n`` tables of Dou Dizhu stepped together (see the module docstring
    for the action ids, seeds and buffers).  ``n`` is 1 ..
    ``VecGame.MAX_TABLES`` (2**20); a table takes about 4.5 KB, plus
    ``n_actions`` bytes with ``masks=True`` (28 KB for the standard rules).

    ``VecGame(n, rules="standard", seed=0, *, threads=1, auto_reset=True,
    observations=True, masks=False, bot=False, skip_auction=False)``

    With ``skip_auction=True`` every deal starts at card play, the way
    DouZero trains: the first bidder (drawn by the deal, so a random seat)
    makes the top bid (``Bid(3)``, or ``CALL`` in a rob auction that nobody
    then robs), nobody doubles, and the landlord leads.

    After construction, :meth:`reset` and every :meth:`step`:

    * ``to_move`` (n,) int32: the seat to act at each table (-1: over);
    * ``legal_offsets`` (n+1,) int64 and ``legal_ids`` (capacity,) int32
      (int64 under wild cards): the
      legal action ids of table ``i`` are
      ``legal_ids[legal_offsets[i]:legal_offsets[i+1]]``, in
      ``Game.legal_actions()`` order;
    * ``masks`` (n, n_actions) bool, with ``masks=True`` (else None);
    * ``bot_actions`` (n,) int32, with ``bot=True`` (else None): the id the
      simple bot (:func:`ddz_fast.game.simple_bot`) would play at each table (-1:
      over), for batched play against the bot or bot-only self-play;
    * ``observations`` (n, obs_size) float32, with ``observations=True``
      (else None): row ``i`` is ``game.observation_tensor(seat)`` of table
      ``i`` for the seat to act (the winner when over; the fields of
      :class:`ddz_fast.observation.ObservationLayout`);
    * ``scores`` (n, players) int64 and ``wins`` (n, players) float32: the
      settled scores and +1/-1 (winning side / losing side) of the deals that
      ended with this step, zeros elsewhere;
    * ``done`` (n,) bool: the deal ended with this step (with
      ``auto_reset=False``: the table is over);
    * ``episodes`` (n,) int64 and ``game_seeds`` (n,) uint64: ``k`` and the
      seed of each table's current game.

    ``step(actions)``: one action id per table (an integer array of shape
    (n,)); ``VecGame.NO_ACTION`` (-1) leaves a table as it is for this step
    (its ``scores`` and ``wins`` read zero; its ``done`` is False unless the
    table is over with ``auto_reset=False``).  The whole batch is checked first: an id out of range
    raises ValueError, one not legal at its table
    :class:`~ddz_fast.IllegalActionError` (a ValueError), naming the table,
    and no table changes.  Then every table applies its action; with ``auto_reset`` a
    deal that ends starts the table's next game at once (``done``, ``scores``
    and ``wins`` report the end, the other buffers show the new deal).
    With ``auto_reset=False`` a finished table ignores its entry until
    :meth:`reset`.
    """
    #: The action id of a table that sits a step out.
    NO_ACTION = NO_ACT
    #: The most tables of one VecGame (2**20).
    MAX_TABLES = MAX_TABLES

    def __cinit__(self):
        self.st = NULL
        self.parts = NULL
        self.act = NULL
        self.mi = NULL
        self.counts = NULL
        self.id_info = NULL
        self.wsel = NULL
        self.n = 0
        self.nparts = 0
        self._ready = False

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.st != NULL:
            for i in range(self.n):
                gs_free(self.st[i])
            free(self.st)
        if self.parts != NULL:
            for i in range(self.nparts):
                out_free(&self.parts[i].out)
                out_free(&self.parts[i].scratch)
                free(self.parts[i].ids)
                free(self.parts[i].wrows)
                free(self.parts[i].ranks)
            free(self.parts)
        free(self.act)
        free(self.mi)
        free(self.counts)
        free(self.id_info)
        free(self.wsel)

    def __init__(self, n, rules="standard", seed=0, *, threads=1, auto_reset=True,
                 observations=True, masks=False, bot=False, skip_auction=False):
        if self.st != NULL:
            raise TypeError("VecGame.__init__ cannot be called twice")
        cdef Py_ssize_t count
        cdef int k = as_threads(threads), j
        cdef Py_ssize_t i
        for name, flag in (("auto_reset", auto_reset), ("observations", observations), ("masks", masks),
                           ("bot", bot), ("skip_auction", skip_auction)):
            if type(flag) is not bool:
                raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
        r = check_rules(resolve_rules(rules))
        # (the public ActionSpace is a face above the engine: imported here, not at load)
        from ..actions import action_space, wild_ids
        if r.wild_ranks and masks:
            raise ValueError(f"masks=True: the wild-card rules {r.name!r} have "
                             f"{MOVE_ID0 + action_space(r).flat_size:,} action ids, too many for a mask "
                             "a table; use legal_ids (docs/actions.md, \"Wild cards\")")
        self.seed_ = as_seed(seed, "seed")
        self._rules = r
        self.rc = rules_by_id(rules_id(r))
        self.nplayers = r.players
        self.hand_size = r.hand_size
        self.rob = r.auction == "rob"
        self.auto_reset_ = auto_reset
        self.want_obs = observations
        self.want_masks = masks
        self.want_bot = bot
        self.skip_auction_ = skip_auction
        self._lock = threading.Lock()
        self._space = action_space(r)
        self.nwild = r.wild_ranks
        if self.nwild:
            # (wild moves: flat ids over the pairs of the WildActionSpace;
            # a table's validated move is played from its row, kept in wsel)
            self.wild = wild_ids(r)
            self.table = self.wild.readings
            self.n_moves_ = self.table.n_rows * self.wild.cards_size
        else:
            self.table = ranks_for(r)
            self.n_moves_ = self.table.n_rows
            self.id_info = <MoveInfo*>malloc(self.n_moves_ * sizeof(MoveInfo))
            if self.id_info == NULL:
                raise MemoryError("out of memory")
            for i in range(self.n_moves_):
                row_info(self.table.rows + i * ROW, &self.id_info[i])
        self.rows = self.table.rows
        self.n_actions_ = MOVE_ID0 + self.n_moves_
        self.obs_size_ = obs_size(self.nplayers, self.rc.wild_ranks)
        count = _check_size(n, _table_bytes(self.nplayers, self.n_actions_, self.obs_size_, masks,
                                            observations, bot))

        self.st = <GState**>calloc(count, sizeof(GState*))
        if self.st == NULL:
            raise MemoryError("out of memory")
        self.n = count
        for i in range(count):
            self.st[i] = gs_alloc(self.nplayers)
            if self.st[i] == NULL:
                raise MemoryError("out of memory")
            gs_init(self.st[i], self.rc, self.nplayers, self.hand_size, self.rob)
        self.act = <int64_t*>malloc(count * sizeof(int64_t))
        self.mi = <MoveInfo*>malloc(count * sizeof(MoveInfo))
        self.counts = <int64_t*>calloc(count, sizeof(int64_t))
        if self.nwild:
            self.wsel = <uint8_t*>calloc(count, WROW)
        if self.act == NULL or self.mi == NULL or self.counts == NULL or (self.nwild and self.wsel == NULL):
            raise MemoryError("out of memory")
        k = <int>min(k, count)
        self.parts = <Part*>calloc(k, sizeof(Part))
        if self.parts == NULL:
            raise MemoryError("out of memory")
        self.nparts = k
        for j in range(k):
            self.parts[j].start = count * j // k
            self.parts[j].stop = count * (j + 1) // k
            if (not out_init(&self.parts[j].out, 512, False)
                    or not out_init(&self.parts[j].scratch, 64, False)):
                raise MemoryError("out of memory")

        self._to_move = np.zeros(count, dtype=np.int32)
        self._offsets = np.zeros(count + 1, dtype=np.int64)
        self._ids = np.zeros(max(64 * count, 1024), dtype=self._id_dtype())
        self._masks = np.zeros((count, self.n_actions_), dtype=np.bool_) if masks else None
        self._obs = np.zeros((count, self.obs_size_), dtype=np.float32) if observations else None
        self._scores = np.zeros((count, self.nplayers), dtype=np.int64)
        self._wins = np.zeros((count, self.nplayers), dtype=np.float32)
        self._done = np.zeros(count, dtype=np.bool_)
        self._episodes = np.zeros(count, dtype=np.int64)
        self._seeds = np.zeros(count, dtype=np.uint64)
        self._bot = np.full(count, -1, dtype=self._id_dtype()) if bot else None
        self.p_bot = <int32_t*>cnp.PyArray_DATA(self._bot) if bot and not self.nwild else NULL
        self.p_bot64 = <int64_t*>cnp.PyArray_DATA(self._bot) if bot and self.nwild else NULL
        self.v_bot = _read_only(self._bot) if bot else None
        self.p_to_move = <int32_t*>cnp.PyArray_DATA(self._to_move)
        self.p_offsets = <int64_t*>cnp.PyArray_DATA(self._offsets)
        self.ids_cap = self._ids.shape[0]
        self.p_masks = <uint8_t*>cnp.PyArray_DATA(self._masks) if masks else NULL
        self.p_obs = <float*>cnp.PyArray_DATA(self._obs) if observations else NULL
        self.p_scores = <int64_t*>cnp.PyArray_DATA(self._scores)
        self.p_wins = <float*>cnp.PyArray_DATA(self._wins)
        self.p_done = <uint8_t*>cnp.PyArray_DATA(self._done)
        self.p_episodes = <int64_t*>cnp.PyArray_DATA(self._episodes)
        self.p_seeds = <uint64_t*>cnp.PyArray_DATA(self._seeds)
        self.v_to_move = _read_only(self._to_move)
        self.v_offsets = _read_only(self._offsets)
        self.v_ids = _read_only(self._ids)
        self.v_masks = _read_only(self._masks) if masks else None
        self.v_obs = _read_only(self._obs) if observations else None
        self.v_scores = _read_only(self._scores)
        self.v_wins = _read_only(self._wins)
        self.v_done = _read_only(self._done)
        self.v_episodes = _read_only(self._episodes)
        self.v_seeds = _read_only(self._seeds)
        self._ready = True
        self._restart()

    cdef object _id_dtype(self):
        # (the standard ids fit int32; the wild rules' flat ids need int64)
        return np.int64 if self.nwild else np.int32

    cdef void _set_bot(self, Py_ssize_t i, int64_t v) noexcept nogil:
        if self.nwild:
            self.p_bot64[i] = v
        else:
            self.p_bot[i] = <int32_t>v

    # -- checks and locking --------------------------------------------------------
    cdef int _enter(self) except -1:
        if not self._ready:
            raise TypeError("this VecGame was never initialised: make one with VecGame(n, rules, seed)")
        if not self._lock.acquire(False):
            raise RuntimeError("this VecGame is being stepped or reset by another thread")
        return 0

    cdef void _leave(self):
        self._lock.release()

    cdef int _check(self) except -1:
        if not self._ready:
            raise TypeError("this VecGame was never initialised: make one with VecGame(n, rules, seed)")
        return 0

    # -- the games ---------------------------------------------------------------------
    cdef void _new_game(self, Py_ssize_t i) noexcept nogil:
        cdef uint64_t g = ddz_game_seed(self.seed_, ((<uint64_t>i) << 32) + <uint64_t>self.p_episodes[i])
        self.p_seeds[i] = g
        gs_new_game(self.st[i], g)
        if self.skip_auction_:
            _to_card_play(self.st[i])

    cdef int _restart(self) except -1:
        """Every table at game 0; every buffer refilled."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                self.p_episodes[i] = 0
                self._new_game(i)
            if self.want_masks:
                memset(self.p_masks, 0, <size_t>(self.n * self.n_actions_))
            for i in range(self.nparts):
                self.parts[i].nids = 0
            memset(self.counts, 0, self.n * sizeof(int64_t))
        self._run(False)
        return 0

    def reset(self, seed=None):
        """Every table back to its game 0 (with a new ``seed`` if given):
        the same games as a new ``VecGame`` with that seed."""
        self._enter()
        try:
            if seed is not None:
                self.seed_ = as_seed(seed, "seed")
            self._restart()
        finally:
            self._leave()

    def set_games(self, tables, game_seeds):
        """Start chosen deals at some tables: table ``tables[j]`` begins
        ``Game(rules, seed=game_seeds[j])`` (at card play with
        ``skip_auction``), the way :mod:`ddz_fast.arena` replays one deal at
        several tables.  ``tables``: distinct table numbers (a sequence or a
        1-D integer array); ``game_seeds``: one int per table (taken modulo
        2**64, as every seed).  Those tables' ``episodes`` go up by one and
        ``game_seeds`` shows the seeds given; a later automatic reset
        continues the table's own sequence (``game_seed(seed, i * 2**32 +
        k)``).  Every buffer is refilled as by :meth:`reset`: ``scores`` and
        ``wins`` read zero, ``done`` is True only at finished tables (with
        ``auto_reset=False``).  Everything is checked before any table
        changes."""
        self._enter()
        try:
            picked, seeds = self._chosen(tables, game_seeds)
            # (only the chosen tables are refilled: the others keep their
            # ids, masks and observations, a state that did not change)
            self.redo = <unsigned char*>calloc(self.n, 1)
            if self.redo == NULL:
                raise MemoryError("out of memory")
            for j in range(len(picked)):
                i = picked[j]
                self.redo[i] = 1
                self.p_episodes[i] += 1
                self.p_seeds[i] = seeds[j]
                gs_new_game(self.st[i], seeds[j])
                if self.skip_auction_:
                    _to_card_play(self.st[i])
            self._run(False)
        finally:
            free(self.redo)
            self.redo = NULL
            self._leave()

    cdef tuple _chosen(self, object tables, object game_seeds):
        """(table numbers, seeds) of set_games, checked and copied."""
        for what, x in (("tables", tables), ("game_seeds", game_seeds)):
            if isinstance(x, np.ma.MaskedArray):
                raise TypeError(f"{what} must be a plain integer array, not a masked array")
            if isinstance(x, (str, bytes)) or not (isinstance(x, (list, tuple)) or cnp.PyArray_Check(x)):
                raise TypeError(f"{what} must be a sequence or 1-D array of ints, not {type(x).__name__}")
            if cnp.PyArray_Check(x) and (<object>x).ndim != 1:
                raise ValueError(f"{what} must be 1-D, not of shape {(<object>x).shape}")
        if len(tables) != len(game_seeds):
            raise ValueError(f"tables and game_seeds differ in length ({len(tables)} and {len(game_seeds)})")
        picked = [as_int(t, "table", 0, self.n - 1) for t in tables]
        seeds = [as_seed(g, "game seed") for g in game_seeds]
        if len(set(picked)) != len(picked):
            raise ValueError("tables must be distinct (a table starts one game at a time)")
        return picked, seeds

    def step(self, actions):
        """Apply one action id per table (see the class docstring)."""
        cdef Py_ssize_t bad
        self._enter()
        try:
            self._load(actions)
            with nogil:
                bad = self._validate()
            if bad >= 0:
                raise self._illegal(bad)
            self._run(True)
        finally:
            self._leave()

    cdef int _load(self, object actions) except -1:
        """Copy the ids into owned memory (checked: nothing the caller does
        later can change what is validated and applied)."""
        cdef cnp.ndarray arr
        cdef Py_ssize_t i, stride
        cdef char* base
        cdef int size
        cdef bint signed
        cdef int64_t v
        cdef uint64_t u
        if isinstance(actions, np.ma.MaskedArray):
            raise TypeError("actions must be a plain integer array, not a masked array")
        if not cnp.PyArray_Check(actions):
            if not isinstance(actions, (list, tuple)):
                raise TypeError(f"actions must be an integer array of shape ({self.n},), "
                                f"not {type(actions).__name__}")
            actions = np.asarray(actions)
        arr = <cnp.ndarray>actions
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must have an integer dtype, not {arr.dtype}")
        if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) != self.n:
            raise ValueError(f"actions must have shape ({self.n},), not {(<object>arr).shape}")
        if not arr.dtype.isnative or not cnp.PyArray_ISALIGNED(arr):
            arr = np.array(arr, dtype=arr.dtype.newbyteorder("="), order="C")
        kind = arr.dtype.kind
        size = arr.itemsize
        base = <char*>cnp.PyArray_DATA(arr)
        stride = cnp.PyArray_STRIDE(arr, 0)
        signed = kind == "i"
        for i in range(self.n):
            # (One branch per type: a conditional expression over a signed and
            # an unsigned type would read both as unsigned.)
            if size == 1 and signed:
                v = (<signed char*>(base + i * stride))[0]
            elif size == 1:
                v = (<unsigned char*>(base + i * stride))[0]
            elif size == 2 and signed:
                v = (<short*>(base + i * stride))[0]
            elif size == 2:
                v = (<unsigned short*>(base + i * stride))[0]
            elif size == 4 and signed:
                v = (<int32_t*>(base + i * stride))[0]
            elif size == 4:
                v = (<uint32_t*>(base + i * stride))[0]
            elif signed:
                v = (<int64_t*>(base + i * stride))[0]
            else:
                u = (<uint64_t*>(base + i * stride))[0]
                if u > <uint64_t>0x7FFFFFFFFFFFFFFF:
                    raise ValueError(f"table {i}: action id {u} is out of range 0..{self.n_actions_ - 1}")
                v = <int64_t>u
            self.act[i] = v
        for i in range(self.n):
            if self.act[i] == NO_ACT:
                continue                # this table sits the step out
            if self.act[i] < 0 or self.act[i] >= self.n_actions_:
                if self.st[i].phase == PH_OVER:
                    continue            # a finished table (auto_reset=False) ignores its entry
                raise ValueError(f"table {i}: action id {self.act[i]} is out of range "
                                 f"0..{self.n_actions_ - 1}")
        return 0

    cdef Py_ssize_t _validate(self) noexcept nogil:
        """The first table whose action is not legal, or -1 (fills mi).

        Legal means: among the table's legal ids, which the engine's own
        generator listed for its current state at the last refill (kept in
        the parts' private memory, out of the caller's reach)."""
        cdef Py_ssize_t i, k, at
        cdef int64_t a
        cdef int j
        cdef bint found
        cdef Part* p
        for j in range(self.nparts):
            p = &self.parts[j]
            at = 0
            for i in range(p.start, p.stop):
                if self.st[i].phase != PH_OVER and self.act[i] != NO_ACT:
                    a = self.act[i]
                    found = False
                    for k in range(at, at + self.counts[i]):
                        if p.ids[k] == a:
                            found = True
                            break
                    if not found:
                        return i
                    if a >= MOVE_ID0 and self.nwild:
                        memcpy(self.wsel + i * WROW, p.wrows + k * WROW, WROW)
                        row_info(self.wsel + i * WROW, &self.mi[i])
                    elif a >= MOVE_ID0:
                        self.mi[i] = self.id_info[a - MOVE_ID0]
                at += self.counts[i]
        return -1

    cdef object _illegal(self, Py_ssize_t i):
        cdef int64_t a = self.act[i]
        cdef GState* s = self.st[i]
        if a >= MOVE_ID0:
            try:
                m = self._move_of(a, i) if self.nwild else self._space.id_to_move(int(a - MOVE_ID0))
                what = "pass" if m.is_pass else f"{m} ({m.kind.name})"
            except ValueError as e:
                what = f"no move under the table's wild ranks: {e}"
        else:
            what = str(AUCTION_ACTIONS[a])
        lo = self.p_offsets[i]
        hi = self.p_offsets[i + 1]
        legal = ", ".join([str(x) for x in self._ids[lo:hi][:20]]) + (", ..." if hi - lo > 20 else "")
        return IllegalActionError(f"table {i}: action id {a} ({what}) is not legal for seat {s.to_move} "
                                  f"now (legal ids: {legal}); no table was changed")

    # -- stepping ------------------------------------------------------------------------
    cdef int _run(self, bint apply) except -1:
        """Step (apply) or just refill every part, then gather the legal ids."""
        cdef int j
        cdef Py_ssize_t i, total = 0, missing = -1
        cdef Part* p
        if self.nparts == 1:
            with nogil:
                self._run_part(&self.parts[0], apply)
        else:
            run_parts([_Runner(self, j, apply).run for j in range(self.nparts)])
        for j in range(self.nparts):
            p = &self.parts[j]
            if p.oom:
                p.oom = False
                raise MemoryError("out of memory stepping the tables")
            if p.missing >= 0 and missing < 0:
                missing = p.missing
            total += p.nids
        if total > self.ids_cap:
            self._ids = np.zeros(max(total, 2 * self.ids_cap), dtype=self._id_dtype())
            self.ids_cap = self._ids.shape[0]
            self.v_ids = _read_only(self._ids)
        cdef int32_t* out = <int32_t*>cnp.PyArray_DATA(self._ids)
        cdef int64_t* out64 = <int64_t*>cnp.PyArray_DATA(self._ids)
        cdef Py_ssize_t k
        with nogil:
            total = 0
            self.p_offsets[0] = 0
            for i in range(self.n):
                self.p_offsets[i + 1] = self.p_offsets[i] + self.counts[i]
            for j in range(self.nparts):
                p = &self.parts[j]
                if self.nwild:
                    memcpy(out64 + total, p.ids, p.nids * sizeof(int64_t))
                else:
                    for k in range(p.nids):
                        out[total + k] = <int32_t>p.ids[k]
                total += p.nids
        if missing >= 0:
            raise RuntimeError(f"table {missing}: a legal move has no id in {self._space!r} "
                               "(the action space does not cover the engine's moves)")
        return 0

    cdef void _run_part(self, Part* p, bint apply) noexcept nogil:
        cdef Py_ssize_t i, j, at = 0
        cdef int64_t a
        cdef GState* s
        cdef int64_t* kept = NULL        # a partial refill: the ids as they were
        cdef uint8_t* kept_rows = NULL   # (and with wild rules their rows)
        p.missing = -1
        if not apply and self.redo != NULL:
            kept = <int64_t*>malloc((p.nids + 1) * sizeof(int64_t))
            if self.nwild:
                kept_rows = <uint8_t*>malloc((p.nids + 1) * WROW)
            if kept == NULL or (self.nwild and kept_rows == NULL):
                free(kept)
                free(kept_rows)
                p.oom = True
                return
            memcpy(kept, p.ids, p.nids * sizeof(int64_t))
            if self.nwild:
                memcpy(kept_rows, p.wrows, p.nids * WROW)
        if self.want_masks:
            for i in range(p.start, p.stop):
                if kept == NULL or self.redo[i]:
                    for j in range(self.counts[i]):
                        self.p_masks[i * self.n_actions_ + p.ids[at + j]] = 0
                at += self.counts[i]
        p.nids = 0
        at = 0
        for i in range(p.start, p.stop):
            s = self.st[i]
            # done only at a finished table (auto_reset=False), scores zero;
            # a deal that ends in this step reports its end (_settle)
            self.p_done[i] = s.phase == PH_OVER
            memset(self.p_scores + i * self.nplayers, 0, self.nplayers * sizeof(int64_t))
            memset(self.p_wins + i * self.nplayers, 0, self.nplayers * sizeof(float))
            if kept != NULL:
                at += self.counts[i]
                if not self.redo[i]:
                    for j in range(at - self.counts[i], at):
                        if not (_push_wild(p, kept[j], kept_rows + j * WROW) if self.nwild else _push(p, kept[j])):
                            free(kept)
                            free(kept_rows)
                            return
                    continue
            if apply and s.phase != PH_OVER and self.act[i] != NO_ACT:
                a = self.act[i]
                if a >= MOVE_ID0 and self.nwild:
                    gs_play(s, self.wsel + i * WROW, &self.mi[i])
                elif a >= MOVE_ID0:
                    gs_play(s, self.rows + (a - MOVE_ID0) * ROW, &self.mi[i])
                else:
                    gs_auction_step(s, <int>a)
                if s.phase == PH_OVER:
                    self._settle(i, s)
            if not self._refill(p, i, s):
                free(kept)
                free(kept_rows)
                return
        free(kept)
        free(kept_rows)

    cdef void _settle(self, Py_ssize_t i, GState* s) noexcept nogil:
        """Report the end of table i's deal; start its next game (auto_reset)."""
        cdef int t
        cdef bint landlord_won = s.winner == s.landlord
        self.p_done[i] = True
        for t in range(self.nplayers):
            self.p_scores[i * self.nplayers + t] = s.scores[t]
            self.p_wins[i * self.nplayers + t] = 1.0 if (t == s.landlord) == landlord_won else -1.0
        if self.auto_reset_:
            self.p_episodes[i] += 1
            self._new_game(i)

    cdef bint _refill(self, Part* p, Py_ssize_t i, const GState* s) noexcept nogil:
        """to_move, legal ids, bot action, mask and observation of table i."""
        cdef unsigned char codes[4]
        cdef Py_ssize_t before = p.nids, k, pick = -1
        cdef int64_t* grown
        cdef int c, nc
        self.p_to_move[i] = -1 if s.phase == PH_OVER else s.to_move
        if s.phase == PH_PLAY and self.nwild:
            if not self._refill_wild(p, i, s):
                return False
        elif s.phase == PH_PLAY:
            gs_gen(s, self.rc, &p.out)
            if p.out.oom:
                p.out.oom = False
                p.oom = True
                return False
            if self.want_bot:
                pick = bot_index(s.hands[s.to_move], self.rc, NULL if s.last_src == LAST_NONE else &s.last,
                                 s.to_move, s.landlord, -1 if s.last_src == LAST_NONE else s.last_player,
                                 s.ncards, s.players, &p.scratch, p.out.data, p.out.n)
                if p.scratch.oom:
                    p.scratch.oom = False
                    p.oom = True
                    return False
                self._set_bot(i, -1)
            if p.out.n > p.ranks_cap:
                grown = <int64_t*>realloc(p.ranks, (p.out.n + 256) * sizeof(int64_t))
                if grown == NULL:
                    p.oom = True
                    return False
                p.ranks = grown
                p.ranks_cap = p.out.n + 256
            if self.table.rank_generated(p.out.data, p.out.n, p.ranks) < 0 and p.missing < 0:
                p.missing = i
            for k in range(p.out.n):
                if p.ranks[k] < 0:
                    continue
                if k == pick:
                    self._set_bot(i, MOVE_ID0 + p.ranks[k])
                if not _push(p, MOVE_ID0 + p.ranks[k]):
                    return False
        elif s.phase != PH_OVER:
            nc = gs_choices(s, codes)
            for c in range(nc):
                # (an auction action's id is its code)
                if not (_push_wild(p, codes[c], NULL) if self.nwild else _push(p, codes[c])):
                    return False
            if self.want_bot:
                self._set_bot(i, codes[bot_auction(s.hands[s.to_move], codes, nc)])
        elif self.want_bot:
            self._set_bot(i, -1)
        self.counts[i] = p.nids - before
        if self.want_masks:
            for k in range(before, p.nids):
                self.p_masks[i * self.n_actions_ + p.ids[k]] = 1
        if self.want_obs:
            gs_encode_obs(s, s.winner if s.phase == PH_OVER else s.to_move,
                          self.p_obs + i * self.obs_size_)
        return True

    cdef bint _refill_wild(self, Part* p, Py_ssize_t i, const GState* s) noexcept nogil:
        """The legal flat ids and rows of table i under wild cards (play
        phase), and the bot's id."""
        cdef Py_ssize_t m, k, pick = -1
        cdef int64_t* grown
        gs_gen(s, self.rc, &p.out)
        if p.out.oom:
            p.out.oom = False
            p.oom = True
            return False
        m = p.out.n // 2
        if self.want_bot:
            pick = wild_bot_index(p.out.data, m, s.last_src == LAST_NONE, s.to_move, s.landlord,
                                  s.last_player, s.ncards, s.players)
            self._set_bot(i, -1)
        if m > p.ranks_cap:
            grown = <int64_t*>realloc(p.ranks, (m + 256) * sizeof(int64_t))
            if grown == NULL:
                p.oom = True
                return False
            p.ranks = grown
            p.ranks_cap = m + 256
        if self.wild.rank_wild(p.out.data, m, s.wmask, p.ranks) < 0 and p.missing < 0:
            p.missing = i
        for k in range(m):
            if p.ranks[k] < 0:
                continue
            if k == pick:
                self._set_bot(i, MOVE_ID0 + p.ranks[k])
            if not _push_wild(p, MOVE_ID0 + p.ranks[k], p.out.data + k * WROW):
                return False
        return True

    # -- reading --------------------------------------------------------------------------
    def games(self, i):
        """A :class:`~ddz_fast.Game` copy of table ``i`` (independent of the tables)."""
        self._enter()
        try:
            return game_from_state(self.st[as_int(i, "table", 0, self.n - 1)], self._rules)
        finally:
            self._leave()

    def __len__(self):
        return self.n

    @property
    def num_tables(self):
        return self.n

    @property
    def rules(self):
        return self._rules

    @property
    def players(self):
        self._check()
        return self.nplayers

    @property
    def seed(self):
        """The seed of the run (table i's k-th game: game_seed(seed, i * 2**32 + k))."""
        self._check()
        return self.seed_

    @property
    def threads(self):
        self._check()
        return self.nparts

    @property
    def skip_auction(self):
        self._check()
        return bool(self.skip_auction_)

    @property
    def auto_reset(self):
        self._check()
        return bool(self.auto_reset_)

    @property
    def n_moves(self):
        """Number of move ids (``action_space(rules).size``): FIRST_MOVE_ID .. FIRST_MOVE_ID + n_moves - 1."""
        self._check()
        return self.n_moves_

    @property
    def n_actions(self):
        """All action ids: ``FIRST_MOVE_ID + n_moves`` (the auction ids come first)."""
        self._check()
        return self.n_actions_

    @property
    def obs_size(self):
        self._check()
        return self.obs_size_

    @property
    def action_space(self):
        """The :class:`~ddz_fast.ActionSpace` of the move ids."""
        return self._space

    def auction_id(self, action):
        """The id of an auction or doubling action (its code: its index in ``AUCTION_ACTIONS``)."""
        self._check()
        for c in range(N_AUCTION_CODES):
            if AUCTION_ACTIONS[c] == action and type(AUCTION_ACTIONS[c]) is type(action):
                return c
        raise ValueError(f"{action!r} is not an auction or doubling action")

    def action_id(self, action, *, table=None):
        """The id of a Move (``FIRST_MOVE_ID`` + its ``action_space`` id) or of
        an auction or doubling action; ValueError when it has none.  Under
        wild cards a move's id depends on the deal's wild ranks: give the
        ``table`` it is played at (its flat id ``FIRST_MOVE_ID + r *
        cards_size + c``, docs/actions.md)."""
        self._check()
        if isinstance(action, Move):
            if not self.nwild:
                return MOVE_ID0 + self._space.move_to_id(action)
            return MOVE_ID0 + self._space.flat_id(action, wild=self._table_wild(table, "a move's id"))
        return self.auction_id(action)

    def action(self, action_id, *, table=None):
        """The action (a Move or an auction or doubling action) of an id;
        under wild cards a move id needs the ``table`` whose wild ranks read
        it (ValueError when it names no move under them)."""
        self._check()
        cdef int64_t a = as_int(action_id, "action id", 0, self.n_actions_ - 1)
        if a < MOVE_ID0:
            return AUCTION_ACTIONS[a]
        if not self.nwild:
            return self._space.id_to_move(int(a - MOVE_ID0))
        return self._move_of(a, self._table_index(table, "a move id's move"))

    cdef object _move_of(self, int64_t a, Py_ssize_t i):
        """The wild move of flat id a (a move id) at table i."""
        wild = self._wild_of(i)
        if wild is None:
            raise ValueError(f"table {i} has no wild rank yet (its auction is on): move id {a} "
                             "cannot be read")
        return self._space.flat_move(int(a - MOVE_ID0), wild=wild)

    cdef Py_ssize_t _table_index(self, object table, str what) except -1:
        if table is None:
            raise ValueError(f"rules {self._rules.name!r} have wild cards: {what} depends on the "
                             "table's wild ranks; pass table=")
        return as_int(table, "table", 0, self.n - 1)

    cdef object _table_wild(self, object table, str what):
        cdef Py_ssize_t i = self._table_index(table, what)
        wild = self._wild_of(i)
        if wild is None:
            raise ValueError(f"table {i} has no wild rank yet (its auction is on)")
        return wild

    cdef object _wild_of(self, Py_ssize_t i):
        cdef unsigned int w = self.st[i].wmask
        return wild_ranks_of(w) if w else None

    @property
    def wild(self):
        """Under wild-card rules, ``(n, k)`` int8: the wild ranks of each
        table's deal (``k`` = 1 for ``laizi``, 2 for ``tiandi``; rank
        indices, 0 the 3 .. 12 the 2; -1 before the kitty is taken); None
        under other rules.  A new array each time."""
        self._check()
        if not self.nwild:
            return None
        out = np.full((self.n, self.nwild), -1, dtype=np.int8)
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.st[i].wmask:
                out[i] = wild_ranks_of(self.st[i].wmask)
        return out

    @property
    def to_move(self):
        self._check()
        return self.v_to_move

    @property
    def legal_offsets(self):
        self._check()
        return self.v_offsets

    @property
    def legal_ids(self):
        self._check()
        return self.v_ids

    @property
    def masks(self):
        self._check()
        return self.v_masks

    @property
    def bot_actions(self):
        """(n,) int32 with ``bot=True`` (else None): the id :func:`ddz_fast.game.simple_bot`
        would play at each table now (-1: over)."""
        self._check()
        return self.v_bot

    @property
    def observations(self):
        self._check()
        return self.v_obs

    @property
    def scores(self):
        self._check()
        return self.v_scores

    @property
    def wins(self):
        self._check()
        return self.v_wins

    @property
    def done(self):
        self._check()
        return self.v_done

    @property
    def episodes(self):
        self._check()
        return self.v_episodes

    @property
    def game_seeds(self):
        self._check()
        return self.v_seeds

    def __repr__(self):
        if not self._ready:
            return "VecGame(<uninitialised>)"
        return (f"VecGame({self.n}, rules={self._rules.name!r}, seed={self.seed_}, threads={self.nparts}, "
                f"auto_reset={bool(self.auto_reset_)})")

    def __reduce__(self):
        raise TypeError("a VecGame cannot be pickled (copy tables out with games(i))")


cdef void _to_card_play(GState* s) noexcept nogil:
    """skip_auction: the first bidder takes the top bid (or calls, and
    nobody robs); nobody doubles."""
    cdef unsigned char codes[4]
    cdef int nc
    while s.phase == PH_AUCTION or s.phase == PH_DOUBLING:
        nc = gs_choices(s, codes)
        if s.phase == PH_AUCTION and s.bidder < 0:
            gs_auction_step(s, codes[nc - 1])     # Bid(3) / CALL
        else:
            gs_auction_step(s, codes[0])          # pass / DECLINE / NO_DOUBLE


cdef GState** vec_states(object vg, Py_ssize_t* n) except NULL:
    """The table states of a VecGame (read-only use), locked against
    stepping until vec_release; TypeError for anything else."""
    if not isinstance(vg, VecGame):
        raise TypeError(f"expected a ddz_fast.VecGame, not {type(vg).__name__}")
    (<VecGame>vg)._enter()
    n[0] = (<VecGame>vg).n
    return (<VecGame>vg).st


cdef void vec_release(object vg):
    (<VecGame>vg)._leave()


cdef class _Runner:
    """One part of a step, run on a thread of its own (without the GIL)."""
    cdef VecGame vg
    cdef int j
    cdef bint apply

    def __cinit__(self, VecGame vg, int j, bint apply):
        self.vg = vg
        self.j = j
        self.apply = apply

    def run(self):
        with nogil:
            self.vg._run_part(&self.vg.parts[self.j], self.apply)
