# cython: language_level=3
"""Playouts, built on the engine's state (:mod:`ddz_fast._engine.engine`) and
the simple bot (:mod:`ddz_fast._engine.bots`): one deal played to its end
(:c:func:`gs_play_out`), the rollouts of :meth:`Game.rollout` and
:meth:`Game.move_values`, and the whole random games of
:func:`play_random_games`; every run split into parts played without the
GIL, optionally on several threads (the results never depend on the split).
Every part checks between games whether the call must stop (Ctrl-C on the
main thread: :mod:`ddz_fast._util.interrupt`).
"""
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t

import time

import numpy as np

from .._core.kernels cimport RulesC, MoveInfo, Out, ROW, out_init, out_free, row_info
from .._core.entry cimport rules_id, rules_by_id
from .._util.rng cimport ddz_below, ddz_game_seed, ddz_policy_seed
from .._util.checks cimport as_int, as_seed, as_threads
from .._util.interrupt cimport Interrupt, Stop, stop_requested
from .engine cimport (
    GState, HB, PH_PLAY, PH_OVER, LAST_NONE, POLICY_RANDOM, POLICY_BOT,
    gs_alloc, gs_free, gs_copy, gs_init, gs_new_game, gs_choices, gs_auction_step, gs_gen, gs_play,
)
from .bots cimport bot_play, bot_auction, wild_bot_index
from .._core.wild cimport WROW
from .._util.checks import check_int
from .. import pickling as _pickling

from .._util.parallel import run_parts
from ..game_values import Rollouts
from ..rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["play_random_games", "PlayoutResults", "MAX_GAMES"]

# Most games one call plays (play_random_games, rollout: n times the
# worlds, move_values: worlds times moves times rollouts): the products are
# taken on Python ints and bounded here, before any C size holds them.
MAX_GAMES = 1 << 32
cdef Py_ssize_t _MAX_GAMES = MAX_GAMES


cdef Py_ssize_t checked_games(object total, str what) except -1:
    # the number of games of a call, checked against MAX_GAMES
    if total > _MAX_GAMES:
        raise ValueError(f"{what}: {total} games, more than MAX_GAMES ({_MAX_GAMES}) in one call")
    return <Py_ssize_t>total


cdef enum:
    MIN_PART = 16


cdef int gs_play_out(GState* s, const RulesC* rc, int policy, uint64_t* ps, Out* o) noexcept nogil:
    """Play the deal to its end with the policy (random: every decision
    draws below(number of legal actions) from ``ps`` and takes that entry of
    the legal-action list).  Returns 0, or -1 when out of memory."""
    cdef unsigned char codes[4]
    cdef Py_ssize_t k
    cdef int n
    cdef MoveInfo mi
    cdef const unsigned char* row
    while s.phase != PH_OVER:
        if s.phase == PH_PLAY:
            if s.wmask:
                # wild cards: 32-byte rows, the bot scanning the whole list
                gs_gen(s, rc, o)
                if o.oom:
                    return -1
                if policy == POLICY_RANDOM:
                    k = <Py_ssize_t>ddz_below(ps, <uint64_t>(o.n // 2))
                else:
                    k = wild_bot_index(o.data, o.n // 2, s.last_src == LAST_NONE, s.to_move, s.landlord,
                                       s.last_player, s.ncards, s.players)
                row = o.data + k * WROW
                row_info(row, &mi)
            elif policy == POLICY_RANDOM:
                gs_gen(s, rc, o)
                if o.oom:
                    return -1
                k = <Py_ssize_t>ddz_below(ps, <uint64_t>o.n)
                row = o.data + k * ROW
                row_info(row, &mi)
            else:
                # (the bot generates only the moves it may choose: no list)
                row = bot_play(s.hands[s.to_move], rc, NULL if s.last_src == LAST_NONE else &s.last,
                               s.to_move, s.landlord, -1 if s.last_src == LAST_NONE else s.last_player,
                               s.ncards, s.players, o, &mi)
                if row == NULL:
                    return -1
            gs_play(s, row, &mi)
        else:
            n = gs_choices(s, codes)
            if policy == POLICY_RANDOM:
                k = <Py_ssize_t>ddz_below(ps, <uint64_t>n)
            else:
                k = bot_auction(s.hands[s.to_move], codes, n)
            gs_auction_step(s, codes[k])
    return 0


cdef int policy_code(object policy) except -1:
    # The playout policy named by a rollout argument.
    if policy == "random" and type(policy) is str:
        return POLICY_RANDOM
    if policy == "bot" and type(policy) is str:
        return POLICY_BOT
    if isinstance(policy, str):
        raise ValueError(f"policy must be 'random' or 'bot', not {policy!r}")
    raise TypeError(f"policy must be 'random' or 'bot', not {type(policy).__name__}")


cdef class _Job:
    """One contiguous part of a run of games, played without the GIL."""
    cdef const GState* base       # ROLLOUT: the start state (owned by the caller)
    cdef const unsigned char* worlds   # ROLLOUT: NULL, or the hands of game i // per_world
    cdef Py_ssize_t per_world
    cdef const RulesC* rc
    cdef int players, hand_size, policy
    cdef bint rob, rollout
    cdef uint64_t seed, first
    cdef Py_ssize_t start, stop
    cdef readonly bint failed     # (read by _run_jobs)
    cdef Interrupt* intr          # the call's Stop (kept alive by the caller)
    cdef signed char* landlord
    cdef signed char* winner
    cdef cnp.npy_bool* won
    cdef int64_t* scores
    cdef int* plies
    cdef int* bombs
    cdef signed char* spring
    cdef int* basev
    cdef int* redeals
    cdef int* doubles
    cdef int64_t* value
    cdef uint64_t* seeds
    cdef short* cards_left
    cdef short* cards_played

    cdef void run(self) noexcept nogil:
        cdef Out o
        cdef GState* s = gs_alloc(self.players)
        cdef Py_ssize_t i
        cdef int t, r, left, total
        cdef uint64_t g, ps
        if s == NULL or not out_init(&o, 512, False):
            gs_free(s)
            self.failed = True
            return
        if not self.rollout:
            gs_init(s, self.rc, self.players, self.hand_size, self.rob)
        for i in range(self.start, self.stop):
            if stop_requested(self.intr):
                break
            g = ddz_game_seed(self.seed, self.first + <uint64_t>i)
            if self.rollout:
                gs_copy(s, self.base)
                if self.worlds != NULL:
                    for t in range(self.players):
                        for r in range(15):
                            s.hands[t][r] = self.worlds[((i // self.per_world) * self.players + t) * 15 + r]
            else:
                gs_new_game(s, g)
            ps = ddz_policy_seed(g)
            if gs_play_out(s, self.rc, self.policy, &ps, &o) < 0:
                self.failed = True
                break
            for t in range(self.players):
                self.scores[i * self.players + t] = s.scores[t]
            self.plies[i] = s.plies
            self.won[i] = s.winner == s.landlord
            if self.rollout:
                self.winner[i] = <signed char>s.winner
                continue
            self.seeds[i] = g
            self.landlord[i] = <signed char>s.landlord
            total = 0
            for t in range(self.players):
                left = 0
                for r in range(15):
                    left += s.hands[t][r]
                self.cards_left[i * self.players + t] = <short>left
                total += left
            self.cards_played[i] = <short>(54 * self.rc.decks - total)
            self.bombs[i] = s.bombs
            self.spring[i] = <signed char>s.spring
            self.basev[i] = s.base
            self.redeals[i] = s.deal_number
            self.doubles[i] = s.doubles
            self.value[i] = s.value
        out_free(&o)
        gs_free(s)

    def run_py(self):
        with nogil:
            self.run()


cdef class _ValuesJob:
    """Worlds start..stop of Game.move_values, played without the GIL."""
    cdef const GState* base
    cdef const RulesC* rc
    cdef const unsigned char* worlds
    cdef const unsigned char* rows
    cdef int stride               # bytes a move row (32 with wild cards)
    cdef Py_ssize_t nm, start, stop
    cdef int reps, policy
    cdef uint64_t seed
    cdef double* out
    cdef readonly bint failed     # (read by _run_jobs)
    cdef Interrupt* intr          # the call's Stop (kept alive by the caller)

    cdef void run(self) noexcept nogil:
        cdef Out o
        cdef GState* ws = gs_alloc(self.base.players)
        cdef GState* after = gs_alloc(self.base.players)
        cdef GState* s = gs_alloc(self.base.players)
        cdef Py_ssize_t w, m
        cdef int t, r, k, won, n = self.base.players, mover = self.base.to_move
        cdef uint64_t ps
        cdef MoveInfo mi
        cdef bint mover_ll = mover == self.base.landlord
        # (one playout: played on the copy the move was made on)
        cdef GState* moved = after if self.reps > 1 else s
        if ws == NULL or after == NULL or s == NULL or not out_init(&o, 512, False):
            self.failed = True
        else:
            for w in range(self.start, self.stop):
                gs_copy(ws, self.base)
                for t in range(n):
                    for r in range(15):
                        ws.hands[t][r] = self.worlds[(w * n + t) * 15 + r]
                for m in range(self.nm):
                    gs_copy(moved, ws)
                    row_info(self.rows + m * self.stride, &mi)
                    gs_play(moved, self.rows + m * self.stride, &mi)
                    won = 0
                    for k in range(self.reps):
                        if stop_requested(self.intr):
                            self.failed = True     # (the caller raises what stopped it)
                            break
                        if self.reps > 1:
                            gs_copy(s, after)
                        if s.phase != PH_OVER:
                            ps = ddz_policy_seed(ddz_game_seed(
                                self.seed, <uint64_t>((w * self.nm + m) * self.reps + k)))
                            if gs_play_out(s, self.rc, self.policy, &ps, &o) < 0:
                                self.failed = True
                                break
                        if (s.winner == s.landlord) == mover_ll:
                            won += 1
                    self.out[w * self.nm + m] = won / <double>self.reps
                    if self.failed:
                        break
                if self.failed:
                    break
            out_free(&o)
        gs_free(ws)
        gs_free(after)
        gs_free(s)

    def run_py(self):
        with nogil:
            self.run()


cdef list _split(Py_ssize_t n, int threads):
    # At least MIN_PART games a thread: starting a thread costs more than a
    # few games (the results never depend on the split).
    cdef int k = max(1, min(threads, n // MIN_PART)) if n else 1, t
    return [(n * t // k, n * (t + 1) // k) for t in range(k)]


cdef int _run_jobs(list jobs, Stop call_stop, str what) except -1:
    """Run the parts of a call, then raise what stopped it (a signal
    handler's exception) or MemoryError when a part ran out of memory."""
    run_parts([j.run_py for j in jobs], call_stop.cancel)
    call_stop.check()
    for job in jobs:
        if job.failed:
            raise MemoryError(f"out of memory in {what}")
    return 0


cdef object run_rollouts(const GState* st, const RulesC* rc, int policy, uint64_t seed,
                         Py_ssize_t n, int threads, const unsigned char* worlds, Py_ssize_t per_world):
    cdef int players = st.players
    cdef _Job job
    cdef Stop call_stop = Stop()
    cdef GState* base = gs_alloc(players)
    if base == NULL:
        raise MemoryError("out of memory")
    gs_copy(base, st)           # private: nothing from Python can change it meanwhile
    winner = np.zeros(n, dtype=np.int8)
    won = np.zeros(n, dtype=np.bool_)
    scores = np.zeros((n, players), dtype=np.int64)
    plies = np.zeros(n, dtype=np.int32)
    jobs = []
    try:
        for start, stop in _split(n, threads):
            job = _Job()
            job.base = base
            job.rc = rc
            job.players = players
            job.policy = policy
            job.rollout = True
            job.worlds = worlds
            job.per_world = per_world
            job.seed = seed
            job.first = 0
            job.start = start
            job.stop = stop
            job.winner = <signed char*>cnp.PyArray_DATA(winner)
            job.won = <cnp.npy_bool*>cnp.PyArray_DATA(won)
            job.scores = <int64_t*>cnp.PyArray_DATA(scores)
            job.plies = <int*>cnp.PyArray_DATA(plies)
            job.intr = &call_stop.c
            jobs.append(job)
        _run_jobs(jobs, call_stop, "rollout")
    finally:
        gs_free(base)
    return Rollouts(winner=winner, landlord_won=won, scores=scores, plies=plies)


cdef object run_move_values(const GState* st, const RulesC* rc, const unsigned char* worlds,
                            Py_ssize_t nw, const unsigned char* rows, Py_ssize_t nm, int reps,
                            int policy, uint64_t seed, int threads):
    """Game.move_values' playouts: ``reps`` after each of the ``nm`` move rows
    (HB bytes each) in each of the ``nw`` worlds (players rows of 15 counts
    each), all checked by the caller; returns the (nw, nm) float64 array of
    the fractions won by the mover's side."""
    out = np.zeros((nw, nm), dtype=np.float64)
    cdef GState* base = gs_alloc(st.players)
    if base == NULL:
        raise MemoryError("out of memory")
    gs_copy(base, st)             # private: nothing from Python can change it meanwhile
    cdef _ValuesJob job
    cdef Stop call_stop = Stop()
    jobs = []
    try:
        for start, stop in _split(nw * nm * reps, threads):
            job = _ValuesJob()
            job.base = base
            job.rc = rc
            job.worlds = worlds
            job.rows = rows
            job.stride = 2 * HB if base.wmask else HB
            job.nm = nm
            job.reps = reps
            job.policy = policy
            job.seed = seed
            # whole worlds per job: split the world range in proportion
            job.start = start // (nm * reps)
            job.stop = stop // (nm * reps) if stop < nw * nm * reps else nw
            job.out = <double*>cnp.PyArray_DATA(out)
            job.intr = &call_stop.c
            jobs.append(job)
        _run_jobs(jobs, call_stop, "move_values")
    finally:
        gs_free(base)
    return out


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

    def __reduce__(self):
        return (_pickling.load_playout_results,
                ((_pickling.FORMAT, self.rules, self.seed, self.first_game, self.elapsed, self.as_dict()),))

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
    that many contiguous parts run in parallel.  ``n_games``:
    0..``MAX_GAMES``.  Returns :class:`PlayoutResults`.  Called on the main
    thread, it stops on Ctrl-C within a fraction of a second and raises
    KeyboardInterrupt.
    """
    r = check_rules(resolve_rules(rules))
    cdef Py_ssize_t n = as_int(n_games, "n_games", 0, MAX_GAMES)
    cdef int k = as_threads(threads)
    cdef uint64_t first = <uint64_t>check_int(first_game, "first_game", 0, (1 << 64) - 1)
    cdef uint64_t sd = as_seed(seed, "seed")
    cdef int players = r.players
    cdef const RulesC* rc = rules_by_id(rules_id(r))
    cdef _Job job
    cdef Stop call_stop = Stop()
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
    jobs = []
    for start, stop in _split(n, k):
        job = _Job()
        job.rc = rc
        job.players = players
        job.hand_size = r.hand_size
        job.rob = r.auction == "rob"
        job.policy = POLICY_RANDOM
        job.rollout = False
        job.seed = sd
        job.first = first
        job.start = start
        job.stop = stop
        job.landlord = <signed char*>cnp.PyArray_DATA(arrays["landlord"])
        job.won = <cnp.npy_bool*>cnp.PyArray_DATA(arrays["landlord_won"])
        job.scores = <int64_t*>cnp.PyArray_DATA(arrays["scores"])
        job.plies = <int*>cnp.PyArray_DATA(arrays["plies"])
        job.bombs = <int*>cnp.PyArray_DATA(arrays["bombs"])
        job.spring = <signed char*>cnp.PyArray_DATA(arrays["spring"])
        job.basev = <int*>cnp.PyArray_DATA(arrays["base"])
        job.redeals = <int*>cnp.PyArray_DATA(arrays["redeals"])
        job.doubles = <int*>cnp.PyArray_DATA(arrays["doubles"])
        job.value = <int64_t*>cnp.PyArray_DATA(arrays["value"])
        job.seeds = <uint64_t*>cnp.PyArray_DATA(arrays["game_seeds"])
        job.cards_left = <short*>cnp.PyArray_DATA(arrays["cards_left"])
        job.cards_played = <short*>cnp.PyArray_DATA(arrays["cards_played"])
        job.intr = &call_stop.c
        jobs.append(job)
    t0 = time.perf_counter()
    _run_jobs(jobs, call_stop, "play_random_games")
    elapsed = time.perf_counter() - t0
    return PlayoutResults(r, int(seed), int(first_game), elapsed, **arrays)
