# cython: language_level=3
"""The compiled game engine: one C struct holds the whole state of a deal,
and the C functions below are the only implementation of the game's rules.

Everything that plays the game runs on them: :class:`Game` (a thin, final
Python class over one state), the compiled random playouts
(:func:`play_random_games`), rollouts from any position
(:meth:`Game.rollout`), world sampling for search
(:meth:`Game.sample_worlds`) and the batched tables.  The rules they
implement, and the choices made where the rules text is silent, are stated
in the project's ``docs/rules.md``; the parts decided here:

* the deal (:c:func:`deal_c`: Fisher-Yates over the rank-sorted deck with
  SplitMix64, then the first-bidder draw; see :mod:`ddz_fast._util.rng`);
* the auctions and doubling (:c:func:`gs_auction_step`);
* the table: beating, passing and clearing (:c:func:`gs_move_legal`,
  :c:func:`gs_play`);
* the end of the deal, spring and scoring (:c:func:`gs_finish`,
  :c:func:`stake`, :c:func:`score_deal`);
* undo (:c:func:`gs_undo`): a play-phase action is taken back in O(1), an
  auction action by replaying the deal's auction from its start, a redeal
  by re-dealing from the seed.

The state is plain data (no pointers), so a copy is a ``memcpy`` of the
used part.
"""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

import itertools
from collections.abc import Mapping, Set as AbstractSet
import secrets
import time

import numpy as np

from .._core.kernels cimport (
    RulesC, MoveInfo, Out, ROW, KIND_BYTE, N_KINDS, out_init, out_free, gen_moves, row_info,
    valid_move_c, beats_c,
)
from .._core.move cimport Move, K_PASS, K_BOMB, K_ROCKET
from .._core.entry cimport rules_id, rules_by_id, movelist_from_out, row_move
from .._util.rng cimport ddz_below, ddz_game_seed, ddz_policy_seed
from .._util.checks cimport as_int, as_seed, as_seat, as_threads
from .._core.ranks cimport MoveRanks, ranks_for
from .._util.checks import check_int

from .._util.parallel import run_parts
from ..errors import IllegalActionError
from ..cards import format_cards, to_counts
from ..game_values import AUCTION_ACTIONS, GameResult, Observation, Phase, Rollouts
from .. import pickling as _pickling
from ..game_values import Bid, Call, Decline, Double, Rob
from ..rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["Game", "play_random_games", "PlayoutResults", "deal", "settle_scores",
           "bot_move_index", "bot_auction_index", "MAX_BASE", "MAX_WORLDS", "MAX_GAMES", "max_bombs",
           "sample_observed_worlds", "observation_fields"]

# Bounds that keep every stake within int64: value = base << (bombs +
# doubles + 1) with base <= 2**20, at most 27 bombs and 4 doubles.
MAX_BASE = 1 << 20

# Most worlds one sampling call returns: the result is allocated up front
# (16.7 million worlds are 0.7 GiB with three players, 1 GiB with four), so
# a typo such as n=10**12 is refused instead of asking for terabytes.
MAX_WORLDS = 1 << 24

# Most games one call plays (play_random_games, rollout: n times the
# worlds, move_values: worlds times moves times rollouts): the products are
# taken on Python ints and bounded here, before any C size holds them.
MAX_GAMES = 1 << 32
cdef Py_ssize_t _MAX_GAMES = MAX_GAMES


cdef Py_ssize_t _games(object total, str what) except -1:
    # the number of games of a call, checked against MAX_GAMES
    if total > _MAX_GAMES:
        raise ValueError(f"{what}: {total} games, more than MAX_GAMES ({_MAX_GAMES}) in one call")
    return <Py_ssize_t>total


# Most moves one move_values call values (far more than any legal list
# holds, far fewer than would exhaust memory).
cdef Py_ssize_t MAX_MOVES = 1 << 20

cdef tuple _PHASES = tuple(Phase)

cdef enum:
    MIN_PART = 16


def max_bombs(rules):
    """Most bombs and rockets one deal can hold: every rank split into 4-card
    bombs (one per deck), plus the rocket."""
    return 13 * rules.decks + 1


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------

cdef void deal_c(uint64_t* s, int players, int decks, int hand_size,
                 unsigned char* hands, unsigned char* kitty) noexcept nogil:
    """Shuffle and deal: ``hands`` gets ``players`` rows of HB bytes."""
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


# ---------------------------------------------------------------------------
# State set-up
# ---------------------------------------------------------------------------

cdef int hist_capacity(int players) noexcept nogil:
    return HIST_3 if players == 3 else HIST_4


cdef GState* gs_alloc(int players) noexcept nogil:
    """A state with a history buffer for ``players`` (NULL: out of memory)."""
    cdef GState* s = <GState*>malloc(sizeof(GState))
    if s == NULL:
        return NULL
    s.cap = hist_capacity(players)
    s.hist = <Entry*>malloc(s.cap * sizeof(Entry))
    if s.hist == NULL:
        free(s)
        return NULL
    s.nh = 0
    return s


cdef void gs_free(GState* s) noexcept nogil:
    if s != NULL:
        free(s.hist)
        free(s)


cdef void gs_copy(GState* dst, const GState* src) noexcept nogil:
    """Copy the state into ``dst``, whose history buffer (as large as
    ``src``'s) it keeps: only the used entries are copied."""
    cdef Entry* h = dst.hist
    cdef int cap = dst.cap
    memcpy(dst, src, sizeof(GState))
    dst.hist = h
    dst.cap = cap
    memcpy(h, src.hist, src.nh * sizeof(Entry))


cdef void gs_init(GState* s, const RulesC* rc, int players, int hand_size, bint rob) noexcept nogil:
    """An empty state for the rules (callers checked players and hand_size);
    the history buffer stays."""
    cdef Entry* h = s.hist
    cdef int cap = s.cap
    memset(s, 0, sizeof(GState))
    s.hist = h
    s.cap = cap
    s.cid = rc.id
    s.players = players
    s.decks = rc.decks
    s.hand_size = hand_size
    s.kitty_size = 54 * rc.decks - players * hand_size
    s.rob = rob
    s.first_bidder = -1
    s.landlord = -1
    s.last_src = LAST_NONE
    s.last_player = -1
    s.winner = -1


cdef void _clear_result(GState* s) noexcept nogil:
    cdef int t
    s.winner = -1
    s.spring = 0
    s.value = 0
    for t in range(MAXP):
        s.scores[t] = 0


cdef void _reset_deal(GState* s) noexcept nogil:
    """The current deal at the start of its auction (ORIGIN_DEAL)."""
    cdef int t
    s.phase = PH_AUCTION
    s.to_move = s.first_bidder
    s.landlord = -1
    s.bid = 0
    s.bidder = -1
    s.apasses = 0
    s.caller = -1
    s.robs = 0
    s.qpos = 0
    s.qlen = 0
    s.base = 0
    s.bombs = 0
    s.doubles = 0
    s.plies = 0
    s.kitty_revealed = False
    memcpy(s.hands, s.start, sizeof(s.start))
    memset(s.played, 0, sizeof(s.played))
    for t in range(MAXP):
        s.ncards[t] = s.hand_size if t < s.players else 0
        s.nmoves[t] = 0
    s.last_src = LAST_NONE
    s.last_player = -1
    s.passes = 0
    _clear_result(s)
    s.nh = 0


cdef void _start_deal(GState* s) noexcept nogil:
    """Shuffle and deal from the deal stream, draw the first bidder."""
    deal_c(&s.rng, s.players, s.decks, s.hand_size, &s.start[0][0], s.kitty)
    s.first_bidder = <int>ddz_below(&s.rng, <uint64_t>s.players)
    s.kitty_known = True
    _reset_deal(s)


cdef void gs_new_game(GState* s, uint64_t seed) noexcept nogil:
    """Deal 0 of the game with this seed (the state was set up by gs_init)."""
    s.origin = ORIGIN_DEAL
    s.seed = seed
    s.rng = seed
    s.deal_number = 0
    _start_deal(s)


cdef void _set_last(GState* s, int src) noexcept nogil:
    """Put the move of history entry ``src`` (or LAST_*) on the table."""
    s.last_src = src
    if src >= 0:
        row_info(s.hist[src].row, &s.last)
        s.last_player = s.hist[src].seat
    elif src == LAST_ORIGIN:
        row_info(s.o_last, &s.last)
        s.last_player = s.o_last_player
    else:
        s.last_player = -1


cdef void _reset_position(GState* s) noexcept nogil:
    """A position (ORIGIN_POSITION) at its start, from its o_* fields."""
    cdef int t, r, n
    s.phase = PH_PLAY
    s.to_move = s.o_to_move
    s.landlord = s.o_landlord
    s.bid = s.o_base if not s.rob and s.o_base <= 3 else 0
    s.bidder = s.o_landlord
    s.apasses = 0
    s.caller = -1
    s.robs = 0
    s.qpos = 0
    s.qlen = 0
    s.base = s.o_base
    s.bombs = s.o_bombs
    s.doubles = s.o_doubles
    s.plies = 0
    s.kitty_revealed = s.kitty_known
    memcpy(s.hands, s.start, sizeof(s.start))
    memset(s.played, 0, sizeof(s.played))
    for t in range(MAXP):
        n = 0
        for r in range(15):
            n += s.start[t][r]
        s.ncards[t] = n
        s.nmoves[t] = s.o_moves[t]
    s.nh = 0
    _clear_result(s)
    if s.o_has_last:
        _set_last(s, LAST_ORIGIN)
        s.passes = (s.o_to_move - s.o_last_player - 1 + s.players) % s.players
        for r in range(15):
            s.played[s.o_last_player][r] = s.o_last[r]     # on the table: played, and seen
    else:
        _set_last(s, LAST_NONE)
        s.passes = 0


# ---------------------------------------------------------------------------
# The auction and doubling
# ---------------------------------------------------------------------------

cdef int gs_choices(const GState* s, unsigned char* codes) noexcept nogil:
    """The legal auction/doubling action codes, in their documented order
    (at most 4); 0 outside those phases."""
    cdef int n = 0, v
    if s.phase == PH_AUCTION:
        if not s.rob:
            codes[0] = A_BID0
            n = 1
            for v in range(s.bid + 1, 4):
                codes[n] = A_BID0 + v
                n += 1
        else:
            codes[0] = A_DECLINE
            codes[1] = A_CALL if s.caller < 0 else A_ROB
            n = 2
    elif s.phase == PH_DOUBLING:
        codes[0] = A_NO_DOUBLE
        codes[1] = A_DOUBLE
        n = 2
    return n


cdef bint gs_auction_legal(const GState* s, int code) noexcept nogil:
    cdef unsigned char codes[4]
    cdef int n = gs_choices(s, codes), i
    for i in range(n):
        if codes[i] == code:
            return True
    return False


cdef void _end_auction(GState* s, int landlord, int base) noexcept nogil:
    """The landlord takes the kitty (shown to all) and leads, after the
    doubling round of the rob auction (landlord first, then seat order)."""
    cdef int i
    s.landlord = landlord
    s.base = base
    s.kitty_revealed = True
    for i in range(15):
        s.hands[landlord][i] += s.kitty[i]
    s.ncards[landlord] += s.kitty_size
    s.to_move = landlord
    if s.rob:
        s.phase = PH_DOUBLING
        for i in range(s.players):
            s.queue[i] = (landlord + i) % s.players
        s.qlen = s.players
        s.qpos = 0
    else:
        s.phase = PH_PLAY


cdef void _redeal(GState* s) noexcept nogil:
    """Everyone passed: a new shuffle from the same deal stream."""
    s.deal_number += 1
    _start_deal(s)


cdef void _next_in_queue(GState* s) noexcept nogil:
    s.qpos += 1
    if s.qpos < s.qlen:
        s.to_move = s.queue[s.qpos]


cdef void gs_auction_step(GState* s, int code) noexcept nogil:
    """Apply a legal auction or doubling action (gs_auction_legal).

    Bid auction: a pass, or a bid above the current one; a bid of 3 ends
    the auction, so do players - 1 passes in a row after a bid; players
    passes before any bid redeal.  Rob auction: from the first bidder each
    player calls or declines; once one calls, each later player up to the
    first bidder may rob once (each rob doubles the base); the last to call
    or rob is landlord; if all decline, redeal."""
    cdef int n = s.players, p = s.to_move, q
    cdef Entry* e = &s.hist[s.nh]
    memset(e.row, 0, HB)
    e.seat = <unsigned char>p
    e.action = <unsigned char>code
    e.prev_last = <short>s.last_src
    e.prev_passes = <unsigned char>s.passes
    s.nh += 1
    if s.phase == PH_DOUBLING:
        if code == A_DOUBLE:
            s.doubles += 1
        _next_in_queue(s)
        if s.qpos >= s.qlen:
            s.phase = PH_PLAY
            s.to_move = s.landlord
    elif not s.rob:
        if code == A_BID0:
            s.apasses += 1
            if s.bidder < 0 and s.apasses == n:
                _redeal(s)
            elif s.bidder >= 0 and s.apasses == n - 1:
                _end_auction(s, s.bidder, s.bid)
            else:
                s.to_move = (p + 1) % n
        else:
            s.bid = code - A_BID0
            s.bidder = p
            s.apasses = 0
            if s.bid == 3:
                _end_auction(s, p, 3)
            else:
                s.to_move = (p + 1) % n
    elif s.caller < 0:
        if code == A_CALL:
            s.caller = p
            s.bidder = p
            s.qlen = 0
            s.qpos = 0
            q = (p + 1) % n
            while q != s.first_bidder:
                s.queue[s.qlen] = q
                s.qlen += 1
                q = (q + 1) % n
            if s.qlen:
                s.to_move = s.queue[0]
            else:
                _end_auction(s, p, 1)
        else:
            s.apasses += 1
            if s.apasses == n:
                _redeal(s)
            else:
                s.to_move = (p + 1) % n
    else:
        if code == A_ROB:
            s.robs += 1
            s.bidder = p
        _next_in_queue(s)
        if s.qpos >= s.qlen:
            _end_auction(s, s.bidder, 1 << s.robs)


# ---------------------------------------------------------------------------
# Play
# ---------------------------------------------------------------------------

cdef void gs_gen(const GState* s, const RulesC* rc, Out* o) noexcept nogil:
    """The legal moves of the player to move (play phase), in list order."""
    o.n = 0
    gen_moves(s.hands[s.to_move], rc, NULL if s.last_src == LAST_NONE else &s.last, o)


cdef bint gs_move_legal(const GState* s, const RulesC* rc, const unsigned char* row,
                        MoveInfo* mi) noexcept nogil:
    """Is ``row`` (counts + kind) a legal move of the player to move now?
    Fills ``mi``.  The same test as membership in gs_gen's list: PASS only
    when responding; otherwise cards from the hand that are a move of that
    kind under the rules and beat the move on the table, if any."""
    cdef int r
    cdef const unsigned char* h = s.hands[s.to_move]
    if s.phase != PH_PLAY:
        return False
    if row[KIND_BYTE] == K_PASS:                # (valid_move_c checks it holds no cards)
        return s.last_src != LAST_NONE and valid_move_c(row, rc, mi)
    for r in range(15):
        if row[r] > h[r]:
            return False
    if not valid_move_c(row, rc, mi):
        return False
    return s.last_src == LAST_NONE or beats_c(mi, &s.last)


cdef void gs_play(GState* s, const unsigned char* row, const MoveInfo* mi) noexcept nogil:
    """Apply a legal move (gs_move_legal) of the player to move; whose turn
    it is next, and when a round of passes clears the table, is turn_after's
    rule.  The first empty hand ends the deal."""
    cdef int p = s.to_move, r, nxt, last_by
    cdef Entry* e = &s.hist[s.nh]
    memcpy(e.row, row, HB)
    e.row[KIND_BYTE] = <unsigned char>mi.kind
    e.seat = <unsigned char>p
    e.action = A_MOVE
    e.prev_last = <short>s.last_src
    e.prev_passes = <unsigned char>s.passes
    s.nh += 1
    s.plies += 1
    # (turn_after with `passed` a constant in each branch: it folds to the
    # branch's part of the rule)
    if mi.kind == K_PASS:
        last_by = s.last_player         # (a pass answers a move: one is on the table)
        nxt = turn_after(s.players, p, True, &last_by, &s.passes)
        if last_by < 0:
            _set_last(s, LAST_NONE)
    else:
        nxt = turn_after(s.players, p, False, &last_by, &s.passes)
        for r in range(15):
            s.hands[p][r] -= row[r]
            s.played[p][r] += row[r]
        s.ncards[p] -= mi.ncards
        s.nmoves[p] += 1
        if mi.kind == K_BOMB or mi.kind == K_ROCKET:
            s.bombs += 1
        s.last_src = s.nh - 1
        s.last = mi[0]
        s.last_player = p
        if s.ncards[p] == 0:
            gs_finish(s, p)
            return
    s.to_move = nxt


# ---------------------------------------------------------------------------
# The end of the deal
# ---------------------------------------------------------------------------

cdef int64_t stake(int base, int bombs, int doubles, int spring) noexcept nogil:
    """value = base x 2**(bombs + rockets) x 2 (spring or anti-spring) x 2**doubles."""
    return (<int64_t>base) << (bombs + doubles + (1 if spring else 0))


cdef void score_deal(int players, int landlord, bint landlord_won, int64_t value,
                     int64_t* scores) noexcept nogil:
    """A winning landlord receives the value from each farmer; a losing one
    pays each farmer the value.  The scores sum to zero."""
    cdef int t
    cdef int64_t sign = 1 if landlord_won else -1
    for t in range(players):
        scores[t] = sign * (players - 1) * value if t == landlord else -sign * value


cdef void gs_finish(GState* s, int winner) noexcept nogil:
    """Spring: the landlord wins and no farmer made a move; anti-spring: the
    farmers win and the landlord made only one move (the opening lead)."""
    cdef int t
    cdef bint won = winner == s.landlord
    s.phase = PH_OVER
    s.winner = winner
    s.spring = 0
    if won:
        s.spring = 1
        for t in range(s.players):
            if t != s.landlord and s.nmoves[t] != 0:
                s.spring = 0
    elif s.nmoves[s.landlord] == 1:
        s.spring = 2
    s.value = stake(s.base, s.bombs, s.doubles, s.spring)
    score_deal(s.players, s.landlord, won, s.value, s.scores)


# ---------------------------------------------------------------------------
# Undo
# ---------------------------------------------------------------------------

cdef int gs_undo(GState* s) noexcept nogil:
    """Take back the last action; -1 when there is none."""
    cdef Entry e
    cdef unsigned char codes[MAX_AUCTION]
    cdef int k, i, r, n
    if s.nh == 0:
        if s.origin == ORIGIN_DEAL and s.deal_number > 0:
            _undo_redeal(s)
            return 0
        return -1
    e = s.hist[s.nh - 1]
    if e.action == A_MOVE:
        s.nh -= 1
        s.plies -= 1
        if s.phase == PH_OVER:
            s.phase = PH_PLAY
            _clear_result(s)
        if e.row[KIND_BYTE] != K_PASS:
            n = 0
            for r in range(15):
                s.hands[e.seat][r] += e.row[r]
                s.played[e.seat][r] -= e.row[r]
                n += e.row[r]
            s.ncards[e.seat] += n
            s.nmoves[e.seat] -= 1
            if e.row[KIND_BYTE] == K_BOMB or e.row[KIND_BYTE] == K_ROCKET:
                s.bombs -= 1
        s.passes = e.prev_passes
        _set_last(s, e.prev_last)
        s.to_move = e.seat
        return 0
    # An auction action: replay the deal's auction without it.
    k = s.nh - 1
    for i in range(k):
        codes[i] = s.hist[i].action
    _reset_deal(s)
    for i in range(k):
        gs_auction_step(s, codes[i])
    return 0


cdef void _undo_redeal(GState* s) noexcept nogil:
    """Back to the end of the previous deal's auction, one pass short of
    its redeal: deal it again from the seed (deals are fixed by it)."""
    cdef int target = s.deal_number - 1, i
    cdef int code = A_DECLINE if s.rob else A_BID0
    s.rng = s.seed
    s.deal_number = 0
    _start_deal(s)
    while s.deal_number < target:
        _redeal(s)
    for i in range(s.players - 1):  # no-cython-lint (count-only loop)
        gs_auction_step(s, code)


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
            gs_gen(s, rc, o)
            if o.oom:
                return -1
            if policy == POLICY_RANDOM:
                k = <Py_ssize_t>ddz_below(ps, <uint64_t>o.n)
            else:
                k = bot_move(o.data, o.n, s.to_move, s.landlord,
                             -1 if s.last_src == LAST_NONE else s.last_player, s.ncards, s.players)
            row = o.data + k * ROW
            row_info(row, &mi)
            gs_play(s, row, &mi)
        else:
            n = gs_choices(s, codes)
            if policy == POLICY_RANDOM:
                k = <Py_ssize_t>ddz_below(ps, <uint64_t>n)
            else:
                k = bot_auction(s.hands[s.to_move], codes, n)
            gs_auction_step(s, codes[k])
    return 0


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


cdef void _reserved(const GState* s, int player, unsigned char* out) noexcept nogil:
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
    _reserved(s, player, res)
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


cdef unsigned char[::1] _obs_counts(object x, str what):
    # A (15,) uint8 field of an Observation, as a contiguous copy.
    a = np.ascontiguousarray(x, dtype=np.uint8) if isinstance(x, np.ndarray) else None
    if a is None or a.shape != (15,):
        raise ValueError(f"observation.{what} must be a (15,) array of counts")
    return a.copy()


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
    cdef int players = len(sizes_t), t, r, pool = 0, need = 0
    cdef int p = as_seat(o.player, players, "observation.player")
    cdef int ll = -1 if o.landlord is None else as_seat(o.landlord, players, "observation.landlord")
    cdef int sizes[MAXP]
    cdef unsigned char[::1] hand = _obs_counts(o.hand, "hand")
    cdef unsigned char[::1] unseen = _obs_counts(o.unseen, "unseen")
    cdef unsigned char[::1] res = _obs_counts(o.landlord_holds, "landlord_holds")
    for t in range(players):
        sizes[t] = <int>as_int(sizes_t[t], "observation.hand_sizes", 0, 108)
        if t != p:
            need += sizes[t]
    for r in range(15):
        if res[r] > unseen[r]:
            raise ValueError("observation.landlord_holds is not part of observation.unseen")
        pool += unseen[r] - res[r]
        need -= res[r] if ll >= 0 and ll != p else 0
        if ll < 0 or ll == p:
            if res[r]:
                raise ValueError("observation.landlord_holds must be empty here")
    if sum(hand) != sizes[p]:
        raise ValueError("observation.hand does not hold observation.hand_sizes[player] cards")
    if pool > 108 or need < 0 or pool < need or (ll >= 0 and ll != p and sum(res) > sizes[ll]):
        raise ValueError("observation.unseen does not fit the hidden hands' sizes")
    out = np.empty((count, players, 15), dtype=np.uint8)
    cdef unsigned char* op = <unsigned char*>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(count):
            sample_world_c(players, p, ll, &hand[0], sizes, &unseen[0], &res[0], &rs,
                           op + i * players * 15)
    return out


# ---------------------------------------------------------------------------
# Python-facing helpers that keep one implementation of a rule
# ---------------------------------------------------------------------------

def settle_scores(int players, int landlord, bint landlord_won, int base, int bombs,
                  int spring, int doubles):
    """``(value, scores)`` with the engine's own scoring (arguments checked
    by :func:`ddz_fast.game.settle`)."""
    cdef int64_t sc[MAXP]
    cdef int64_t value = stake(base, bombs, doubles, spring)
    score_deal(players, landlord, landlord_won, value, sc)
    return value, tuple([sc[t] for t in range(players)])


def bot_auction_index(hand, choices):
    """Index of the simple bot's choice among the auction actions ``choices``."""
    cdef unsigned char codes[4]
    cdef unsigned char h[16]
    cdef int n = len(choices), i
    if not 1 <= n <= 4:
        raise ValueError("the auction offers 1 to 4 choices")
    for i in range(n):
        codes[i] = _auction_code(choices[i])
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


cdef int _auction_code(object action) except -2:
    """The action code of an auction or doubling action; -1 for anything
    else (exact classes only, and fields checked: a frozen dataclass can
    still be changed with object.__setattr__)."""
    cdef type t = type(action)
    if t is Bid:
        v = (<object>action).value
        if type(v) is int and 0 <= v <= 3:
            return A_BID0 + <int>v
        return -1
    if t is Decline:
        return A_DECLINE
    if t is Call:
        return A_CALL
    if t is Rob:
        return A_ROB
    if t is Double:
        v = (<object>action).yes
        if v is True:
            return A_DOUBLE
        if v is False:
            return A_NO_DOUBLE
    return -1


def deal(rng, rules="standard"):
    """Shuffle and deal with ``rng`` (a SplitMix64, advanced): returns
    ``(hands, kitty)``, a ``(players, 15)`` and a ``(15,)`` uint8 array."""
    r = check_rules(resolve_rules(rules))
    cdef uint64_t st = as_seed(rng.state, "rng.state")
    cdef unsigned char hb[MAXP * HB]
    cdef unsigned char kb[HB]
    cdef int players = r.players, p
    deal_c(&st, players, r.decks, r.hand_size, hb, kb)
    rng.state = st
    hands = np.empty((players, 15), dtype=np.uint8)
    cdef unsigned char* hp = <unsigned char*>cnp.PyArray_DATA(hands)
    for p in range(players):
        memcpy(hp + p * 15, hb + p * HB, 15)
    kitty = np.empty(15, dtype=np.uint8)
    memcpy(<unsigned char*>cnp.PyArray_DATA(kitty), kb, 15)
    return hands, kitty


cdef object _counts_array(const unsigned char* row):
    a = np.empty(15, dtype=np.uint8)
    memcpy(<unsigned char*>cnp.PyArray_DATA(a), row, 15)
    return a


cdef object _rows_array(const unsigned char* rows, int players):
    cdef int t
    a = np.empty((players, 15), dtype=np.uint8)
    cdef unsigned char* p = <unsigned char*>cnp.PyArray_DATA(a)
    for t in range(players):
        memcpy(p + t * 15, rows + t * HB, 15)
    return a


# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------

@cython.final
cdef class Game:
    """One deal of Dou Dizhu, from the shuffle (or a given position) to the
    result; the rules and choices are documented in :mod:`ddz_fast.game`.

    ``Game(rules="standard", seed=None)``: shuffle and deal with ``seed`` (a
    random seed when None), draw the first bidder and start the auction.
    :meth:`from_position` starts from a play-phase position instead.

    The whole state is one compiled value: every attribute is read-only,
    arrays are returned as copies, :meth:`clone` is a copy of that value.
    """
    cdef GState st
    cdef const RulesC* rc
    cdef object _rules
    cdef object _legal            # legal actions of the current state, or None
    cdef MoveRanks _ranks         # the action ids of the rules (on first use)
    cdef bint _ready

    def __cinit__(self):
        self.st.hist = NULL
        self.st.cap = 0

    def __dealloc__(self):
        free(self.st.hist)

    def __init__(self, rules="standard", seed=None):
        self._setup(rules)
        gs_new_game(&self.st, secrets.randbits(64) if seed is None else as_seed(seed, "seed"))
        self._ready = True

    cdef int _setup(self, rules) except -1:
        """Empty state for the rules.  The sizes come from the C registry
        (a Rules object changed after it was registered cannot make them
        larger); the game stays unusable until the caller sets _ready."""
        cdef int players, cap
        self._ready = False
        r = resolve_rules(rules)
        self.rc = rules_by_id(rules_id(r))
        auction = r.auction
        if type(auction) is not str or auction not in ("bid", "rob"):
            check_rules(r)                    # raises, naming the problem
        players = 3 if self.rc.decks == 1 else 4
        cap = hist_capacity(players)
        if self.st.cap != cap:
            free(self.st.hist)
            self.st.hist = NULL
            self.st.cap = 0
            self.st.hist = <Entry*>malloc(cap * sizeof(Entry))
            if self.st.hist == NULL:
                raise MemoryError("out of memory")
            self.st.cap = cap
        self._rules = r
        gs_init(&self.st, self.rc, players, 17 if players == 3 else 25, auction == "rob")
        self._legal = None
        return 0

    cdef inline int _check(self) except -1:
        if not self._ready:
            raise TypeError("this Game was never initialised: make one with Game(rules, seed) "
                            "or Game.from_position(...)")
        return 0

    # -- a given position ------------------------------------------------------
    @classmethod
    def from_position(cls, hands, landlord, base=1, to_move=None, last=None, *,
                      last_player=None, rules="standard", bombs=0, doubles=0, played=None,
                      kitty=None):
        """A play-phase game from a given position (for search code).

        ``hands``: one card input per seat (text, 15 counts or a uint8
        array), or a ``(players, 15)`` array.  ``base``: the stake before
        bombs (1..2**20).  ``to_move``: whose turn (default the landlord).
        ``last``: the move to beat (None or PASS: ``to_move`` leads), made by
        ``last_player`` (default the seat before ``to_move``; the seats in
        between passed; given without a move to beat, a ValueError).
        ``bombs`` and ``doubles`` (0..players): multipliers so far.
        ``played``: non-pass moves made so far per seat (a sequence), for
        spring scoring; by default a
        seat holding fewer cards than it was dealt (17, or 20 for the
        landlord; 25/33 with four) counts as having played one move, others
        none.  ``kitty``: the shown kitty, if known.  The whole position is
        checked together: no seat holds more than it was dealt, the hands,
        the last move and the kitty cards the landlord no longer holds fit
        in the deck, and ``bombs`` plus the bombs the hands can still make
        (see :func:`max_bombs`) fit in the deck's, so every stake of the
        deal stays what a real deal can reach.  No seed: nothing is random,
        and there is nothing to undo at the start.
        """
        cdef Game g = Game.__new__(Game)
        g._setup(rules)                       # unusable until the position is installed
        r = g._rules
        cdef GState* s = &g.st
        cdef int n = s.players, t, i, ll, tm, lp = -1, total, dealt
        cdef unsigned char row[16]
        cdef int deck[15]
        cdef int sizes[MAXP]
        cdef MoveInfo mi
        cdef Move m
        mi.ncards = 0
        for i in range(15):
            deck[i] = s.decks if i >= 13 else 4 * s.decks
        _load_hands(hands, r, n, s.start, s.decks)
        for t in range(n):
            total = 0
            for i in range(15):
                total += s.start[t][i]
            sizes[t] = total
            if total == 0:
                raise ValueError(f"seat {t} holds no cards: the deal would be over")
        ll = as_seat(landlord, n, "landlord")
        tm = ll if to_move is None else as_seat(to_move, n, "to_move")
        s.o_base = <int>as_int(base, "base", 1, MAX_BASE)
        s.o_bombs = <int>as_int(bombs, "bombs", 0, max_bombs(r))
        s.o_doubles = <int>as_int(doubles, "doubles", 0, n)
        s.o_landlord = ll
        s.o_to_move = tm
        memset(row, 0, HB)
        s.o_has_last = False
        if last is not None:
            if not isinstance(last, Move):
                raise TypeError(f"last must be a Move or None, not {type(last).__name__}")
            m = <Move>last
            if not 0 <= m.kind_ <= K_ROCKET:
                raise ValueError("last is an uninitialised Move")
            if m.kind_ != K_PASS:
                memcpy(row, m.c, 15)
                row[KIND_BYTE] = <unsigned char>m.kind_
                if not valid_move_c(row, g.rc, &mi):
                    raise ValueError(f"last {m.cards!r} is not a {m.kind.name} under rules {r.name!r}")
                lp = (tm - 1 + n) % n if last_player is None else as_seat(last_player, n, "last_player")
                if lp == tm:
                    raise ValueError("last_player cannot be to_move: the others would all have passed "
                                     "and the table would be clear (use last=None)")
                s.o_has_last = True
                memcpy(s.o_last, row, HB)
        if lp < 0 and last_player is not None:
            raise ValueError("last_player is given but there is no move to beat (last is None or PASS)")
        s.o_last_player = lp
        for t in range(n):
            dealt = s.hand_size + (s.kitty_size if t == ll else 0)
            if sizes[t] + (mi.ncards if t == lp else 0) > dealt:
                raise ValueError(f"seat {t} holds {sizes[t]} cards"
                                 + (f" and made the last move of {mi.ncards}" if t == lp else "")
                                 + f": more than the {dealt} it was dealt")
        for i in range(15):
            total = row[i]
            for t in range(n):
                total += s.start[t][i]
            if total > deck[i]:
                raise ValueError(f"the hands and last move together hold {total} cards of "
                                 f"{'3456789TJQKA2BR'[i]}; the deck holds at most {deck[i]}")
            s.gone[i] = <unsigned char>(deck[i] - total)
        # Every stake of the position stays within what a deal can reach
        # (and so within int64, see MAX_BASE): the bombs so far and those
        # the hands can still make together fit in the deck's bombs.
        total = _bombs_left(s, n)
        if s.o_bombs + total > max_bombs(r):
            raise ValueError(f"bombs {s.o_bombs} and the {total} bombs the hands can still make exceed "
                             f"the {max_bombs(r)} a deal of rules {r.name!r} holds")
        s.kitty_known = False
        if kitty is not None:
            _load_kitty(kitty, r, s, ll)
        if played is None:
            for t in range(n):
                dealt = s.hand_size + (s.kitty_size if t == ll else 0)
                s.o_moves[t] = 0 if sizes[t] >= dealt else 1
            if lp >= 0:
                s.o_moves[lp] = 1 if s.o_moves[lp] < 1 else s.o_moves[lp]
        else:
            if isinstance(played, (str, bytes)) or not isinstance(played, (list, tuple, np.ndarray)):
                raise TypeError(f"played must be a sequence of {n} ints, not {type(played).__name__}")
            if len(played) != n:
                raise ValueError(f"played needs {n} entries, got {len(played)}")
            for t in range(n):
                s.o_moves[t] = <int>as_int(played[t], f"played[{t}]", 0, 54 * s.decks)
            if lp >= 0 and s.o_moves[lp] == 0:
                raise ValueError(f"played[{lp}] is 0, but seat {lp} made the last move")
        s.origin = ORIGIN_POSITION
        _reset_position(s)
        g._ready = True
        return g

    # -- reading the state -------------------------------------------------------
    @property
    def rules(self):
        """The :class:`~ddz_fast.Rules` of the game."""
        return self._rules

    @property
    def seed(self):
        """The deal stream's seed (None for a position)."""
        self._check()
        return self.st.seed if self.st.origin == ORIGIN_DEAL else None

    @property
    def first_bidder(self):
        """Who opened the auction (None for a position)."""
        self._check()
        return self.st.first_bidder if self.st.origin == ORIGIN_DEAL else None

    @property
    def deal_number(self):
        """Redeals so far (0 for the first deal)."""
        self._check()
        return self.st.deal_number

    @property
    def phase(self):
        self._check()
        return _PHASES[self.st.phase]

    @property
    def players(self):
        self._check()
        return self.st.players

    @property
    def to_move(self):
        """The seat to act (None when the game is over)."""
        self._check()
        return None if self.st.phase == PH_OVER else self.st.to_move

    @property
    def current_player(self):
        """The same as :attr:`to_move`."""
        return self.to_move

    @property
    def landlord(self):
        """The landlord's seat (None during the auction)."""
        self._check()
        return None if self.st.landlord < 0 else self.st.landlord

    @property
    def is_over(self):
        self._check()
        return self.st.phase == PH_OVER

    @property
    def result(self):
        """The :class:`GameResult` once the game is over, else None."""
        self._check()
        cdef GState* s = &self.st
        if s.phase != PH_OVER:
            return None
        return GameResult(
            landlord=s.landlord, landlord_won=s.winner == s.landlord, winner=s.winner,
            base=s.base, bombs=s.bombs, spring=s.spring, doubles=s.doubles, value=s.value,
            scores=tuple([s.scores[t] for t in range(s.players)]), plies=s.plies,
            redeals=s.deal_number,
        )

    def returns(self):
        """Score deltas per seat (all zero until the game is over)."""
        self._check()
        return tuple([self.st.scores[t] for t in range(self.st.players)])

    @property
    def last_move(self):
        """The move to beat (None when the player to move leads)."""
        self._check()
        cdef GState* s = &self.st
        if s.last_src == LAST_NONE:
            return None
        if s.last_src == LAST_ORIGIN:
            return row_move(s.o_last, s.cid)
        return row_move(s.hist[s.last_src].row, s.cid)

    @property
    def last_player(self):
        """Who made :attr:`last_move` (None when the player to move leads)."""
        self._check()
        return None if self.st.last_src == LAST_NONE else self.st.last_player

    @property
    def passes(self):
        """Passes in a row since the last move (0 when the player to move leads)."""
        self._check()
        return self.st.passes

    @property
    def base(self):
        """The bid, or 2**robs (0 during the auction)."""
        self._check()
        return self.st.base

    @property
    def bombs(self):
        """Bombs and rockets played (with the position's, for a position)."""
        self._check()
        return self.st.bombs

    @property
    def doubles(self):
        self._check()
        return self.st.doubles

    @property
    def value(self):
        """The stake so far: base x 2**(bombs + doubles) (spring not yet known)."""
        self._check()
        return stake(self.st.base, self.st.bombs, self.st.doubles, 0)

    @property
    def plies(self):
        """Play-phase turns so far, passes included."""
        self._check()
        return self.st.plies

    @property
    def auction_level(self):
        """Bid auction: the highest bid so far (0 before any); rob auction: 0
        before a call, then 1 + the robs so far.  It keeps its value after
        the auction; a position of the bid auction has its base (when at
        most 3), a position of the rob auction 0."""
        self._check()
        return gs_auction_level(&self.st)

    @property
    def auction_leader(self):
        """Who would be landlord if the auction ended now (None before any
        bid or call; the landlord afterwards)."""
        self._check()
        cdef int leader = gs_auction_leader(&self.st)
        return None if leader < 0 else leader

    @property
    def hand_sizes(self):
        """Cards held per seat."""
        self._check()
        return tuple([self.st.ncards[t] for t in range(self.st.players)])

    @property
    def played(self):
        """Non-pass moves made so far per seat."""
        self._check()
        return tuple([self.st.nmoves[t] for t in range(self.st.players)])

    @property
    def played_cards(self):
        """A copy of the cards each seat has played this deal, shape
        (players, 15) (for a position: since the position, the move on the
        table included)."""
        self._check()
        return _rows_array(&self.st.played[0][0], self.st.players)

    def hand(self, seat):
        """A copy of one seat's hand (uint8, shape (15,))."""
        self._check()
        return _counts_array(self.st.hands[as_seat(seat, self.st.players, "seat")])

    @property
    def hands(self):
        """A copy of all hands, shape (players, 15)."""
        self._check()
        return _rows_array(&self.st.hands[0][0], self.st.players)

    @property
    def kitty(self):
        """A copy of the face-down cards (None when not known: a position
        given without its kitty)."""
        self._check()
        return _counts_array(self.st.kitty) if self.st.kitty_known else None

    @property
    def kitty_revealed(self):
        """Has the kitty been shown (the landlord is known)?"""
        self._check()
        return bool(self.st.kitty_revealed)

    @property
    def history(self):
        """The ``(seat, action)`` pairs of the current deal, in order (a new
        list on every call)."""
        self._check()
        cdef GState* s = &self.st
        cdef int i
        out = []
        for i in range(s.nh):
            if s.hist[i].action == A_MOVE:
                out.append((s.hist[i].seat, row_move(s.hist[i].row, s.cid)))
            else:
                out.append((s.hist[i].seat, AUCTION_ACTIONS[s.hist[i].action]))
        return out

    # -- actions -----------------------------------------------------------------
    def legal_actions(self):
        """The legal actions of the player to move: the auction choices (a
        tuple in their documented order), the :class:`MoveList` of the play
        phase, or ``()`` when the game is over.  Cached per state."""
        self._check()
        cdef Out o
        cdef unsigned char codes[4]
        cdef int n, i
        legal = self._legal
        if legal is None:
            if self.st.phase == PH_PLAY:
                if not out_init(&o, 64, False):
                    raise MemoryError("out of memory generating moves")
                gs_gen(&self.st, self.rc, &o)
                if o.oom:
                    out_free(&o)
                    raise MemoryError("out of memory generating moves")
                legal = movelist_from_out(&o, self.st.cid)
            elif self.st.phase == PH_OVER:
                legal = ()
            else:
                n = gs_choices(&self.st, codes)
                legal = tuple([AUCTION_ACTIONS[codes[i]] for i in range(n)])
            self._legal = legal
        return legal

    def step(self, action):
        """Apply the action of the player to move;
        :class:`~ddz_fast.IllegalActionError` (a ValueError; the state
        unchanged) when it is not legal now."""
        self._check()
        cdef Move m
        cdef unsigned char row[16]
        cdef MoveInfo mi
        cdef int code
        cdef GState* s = &self.st
        if s.phase == PH_PLAY:
            if type(action) is not Move:
                raise self._illegal(action)
            m = <Move>action
            if not 0 <= m.kind_ <= K_ROCKET:
                raise self._illegal(action)
            memcpy(row, m.c, 15)
            row[KIND_BYTE] = <unsigned char>m.kind_
            if not gs_move_legal(s, self.rc, row, &mi):
                raise self._illegal(action)
            gs_play(s, row, &mi)
        elif s.phase == PH_OVER:
            raise self._illegal(action)
        else:
            code = _auction_code(action)
            if code < 0 or not gs_auction_legal(s, code):
                raise self._illegal(action)
            gs_auction_step(s, code)
        self._legal = None

    cdef MoveRanks _space(self):
        if self._ranks is None:
            self._ranks = ranks_for(self._rules)
        return self._ranks

    def legal_ids(self):
        """The game action ids (docs/actions.md) of the legal actions of the
        player to move, in :meth:`legal_actions` order, as an ``int64``
        array (empty when the game is over): the auction codes themselves in
        the auction and doubling phases, ``FIRST_MOVE_ID + k`` for move
        ``k`` of ``action_space(rules)`` in the play phase."""
        self._check()
        cdef Out o
        cdef unsigned char codes[4]
        cdef cnp.npy_intp n
        cdef Py_ssize_t i
        cdef int64_t* p
        cdef int64_t missing
        cdef MoveRanks ranks
        if self.st.phase == PH_PLAY:
            ranks = self._space()
            if not out_init(&o, 64, False):
                raise MemoryError("out of memory generating moves")
            try:
                gs_gen(&self.st, self.rc, &o)
                if o.oom:
                    raise MemoryError("out of memory generating moves")
                n = o.n
                ids = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT64, 0)
                p = <int64_t*>cnp.PyArray_DATA(ids)
                with nogil:
                    missing = ranks.rank_generated(o.data, o.n, p)
                    if missing == 0:
                        for i in range(o.n):
                            p[i] += MOVE_ID0
                if missing < 0:
                    i = int(np.argmin(ids))
                    raise ValueError(f"legal move {i} ({row_move(o.data + i * ROW, self.st.cid)}) has "
                                     f"no action id: no hand of {self._rules.name!r} holds that many cards")
            finally:
                out_free(&o)
            return ids
        n = 0 if self.st.phase == PH_OVER else gs_choices(&self.st, codes)
        ids = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT64, 0)
        p = <int64_t*>cnp.PyArray_DATA(ids)
        for i in range(n):
            p[i] = codes[i]          # (an auction action's id is its code)
        return ids

    def step_id(self, action_id):
        """:meth:`step` with the action of a game action id (see
        :meth:`legal_ids`): TypeError for a non-integer, ValueError for an
        id out of range, or (the state unchanged) not legal now."""
        self._check()
        cdef MoveRanks ranks = self._space()
        cdef int64_t a = as_int(action_id, "action id", 0, MOVE_ID0 + ranks.n_rows - 1)
        cdef const unsigned char* row
        cdef MoveInfo mi
        cdef GState* s = &self.st
        if a < MOVE_ID0:
            if (s.phase != PH_AUCTION and s.phase != PH_DOUBLING) or not gs_auction_legal(s, <int>a):
                raise self._illegal(AUCTION_ACTIONS[a])
            gs_auction_step(s, <int>a)
        else:
            row = ranks.rows + (a - MOVE_ID0) * ROW
            if s.phase != PH_PLAY or not gs_move_legal(s, self.rc, row, &mi):
                raise self._illegal(row_move(row, s.cid))
            gs_play(s, row, &mi)
        self._legal = None

    def undo(self):
        """Take back the last action (across a redeal too), restoring the
        state exactly; IndexError when there is nothing to undo."""
        self._check()
        if gs_undo(&self.st) < 0:
            raise IndexError("nothing to undo")
        self._legal = None

    cdef object _illegal(self, action):
        cdef GState* s = &self.st
        if s.phase == PH_OVER:
            return IllegalActionError(f"illegal action {action!r}: the game is over")
        who = f"seat {s.to_move}"
        if s.phase == PH_PLAY:
            if isinstance(action, Move):
                hand = format_cards(_counts_array(s.hands[s.to_move]), rules=self._rules)
                if s.last_src == LAST_NONE and (<Move>action).kind_ == K_PASS:
                    why = "a lead cannot be PASS"
                elif s.last_src == LAST_NONE:
                    why = f"it is not a move of the hand {hand}"
                else:
                    why = f"it does not beat {self.last_move} or is not in the hand {hand}"
                return IllegalActionError(f"illegal action {action!r} for {who}: {why}")
            return IllegalActionError(f"illegal action {action!r} for {who}: the play phase takes a Move")
        options = ", ".join([str(a) for a in self.legal_actions()])
        return IllegalActionError(f"illegal action {action!r} for {who} in the {self.phase.name.lower()} "
                                  f"phase; legal: {options}")

    # -- copies and pickling -------------------------------------------------------
    def clone(self):
        """An independent copy (one copy of the compiled state)."""
        self._check()
        cdef Game g = game_from_state(&self.st, self._rules)
        g._legal = self._legal          # immutable: shared
        return g

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        # The origin of the deal and its actions: unpickling replays them
        # through the checked entry points, so a forged pickle can only fail.
        self._check()
        cdef GState* s = &self.st
        cdef int i
        actions = bytearray()
        for i in range(s.nh):
            actions.append(s.hist[i].action)
            actions += (<char*>s.hist[i].row)[:HB]
        if s.origin == ORIGIN_DEAL:
            origin = ("deal", s.seed, s.deal_number)
        else:
            origin = ("position", self._position_args())
        return (_pickling.load_game, ((_pickling.FORMAT, self._rules, origin, bytes(actions)),))

    cdef dict _position_args(self):
        cdef GState* s = &self.st
        return dict(
            hands=_rows_array(&s.start[0][0], s.players), landlord=s.o_landlord, base=s.o_base,
            to_move=s.o_to_move, last=row_move(s.o_last, s.cid) if s.o_has_last else None,
            last_player=s.o_last_player if s.o_has_last else None, bombs=s.o_bombs,
            doubles=s.o_doubles, played=[s.o_moves[t] for t in range(s.players)],
            kitty=_counts_array(s.kitty) if s.kitty_known else None,
        )

    # -- views ---------------------------------------------------------------------
    def observation(self, player):
        """What ``player`` may see (other hands hidden: only their sizes)."""
        self._check()
        cdef int p = as_seat(player, self.st.players, "player")
        cdef bint over = self.st.phase == PH_OVER
        return Observation(
            player=p,
            phase=self.phase,
            hand=_counts_array(self.st.hands[p]),
            hand_sizes=self.hand_sizes,
            landlord=self.landlord,
            kitty=self.kitty if self.st.kitty_revealed else None,
            history=tuple(self.history),
            last_move=self.last_move,
            last_player=self.last_player,
            to_move=None if over else self.st.to_move,
            base=self.st.base,
            bombs=self.st.bombs,
            doubles=self.st.doubles,
            deal_number=self.st.deal_number,
            legal_actions=self.legal_actions() if not over and p == self.st.to_move else (),
            played_cards=self.played_cards,
            passes=self.st.passes,
            auction_level=self.auction_level,
            auction_leader=self.auction_leader,
            unseen=self.unseen(p),
            landlord_holds=self._landlord_holds(p),
        )

    def observation_tensor(self, player, out=None):
        """What ``player`` may see as one ``float32`` vector: the fields of
        :class:`ddz_fast.observation.ObservationLayout` (its own hand and the
        public state; ``ObservationLayout(rules).size`` entries).

        ``out``: a plain (not a subclass), writeable, C-contiguous
        ``float32`` array of that shape to write into instead of allocating
        one; it is returned.

        >>> g = Game(seed=0)
        >>> g.observation_tensor(0)[:15].tolist() == g.hand(0).tolist()
        True
        """
        self._check()
        cdef int p = as_seat(player, self.st.players, "player")
        cdef cnp.npy_intp size = obs_size(self.st.players)
        cdef cnp.ndarray arr
        if out is None:
            arr = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        else:
            arr = _obs_out(out, size)
        gs_encode_obs(&self.st, p, <float*>cnp.PyArray_DATA(arr))
        return arr

    cdef object _landlord_holds(self, int p):
        cdef unsigned char out[HB]
        _reserved(&self.st, p, out)
        return _counts_array(out)

    def snapshot(self):
        """The complete state as plain, comparable data (for tests and
        debugging; two games with equal snapshots behave identically)."""
        self._check()
        cdef GState* s = &self.st
        return {
            "rules": self._rules,
            "origin": "deal" if s.origin == ORIGIN_DEAL else "position",
            "seed": self.seed,
            "deal_number": s.deal_number,
            "first_bidder": self.first_bidder,
            "phase": self.phase,
            "to_move": s.to_move,
            "hands": self.hands.tobytes(),
            "hand_sizes": self.hand_sizes,
            "kitty": None if not s.kitty_known else self.kitty.tobytes(),
            "kitty_revealed": self.kitty_revealed,
            "landlord": self.landlord,
            "history": tuple(self.history),
            "base": s.base,
            "bombs": s.bombs,
            "doubles": s.doubles,
            "played": self.played,
            "played_cards": self.played_cards.tobytes(),
            "plies": s.plies,
            "auction": (s.bid, s.bidder, s.apasses, s.caller, s.robs,
                        tuple([s.queue[i] for i in range(s.qpos, s.qlen)])),
            "last": self.last_move,
            "last_player": self.last_player,
            "passes": s.passes,
            "legal": tuple(self.legal_actions()),
            "result": self.result,
        }

    def __repr__(self):
        if not self._ready:
            return "Game(<uninitialised>)"
        cdef GState* s = &self.st
        r = self._rules
        parts = [f"rules={r.name!r}", f"phase={self.phase.name}"]
        if s.phase != PH_OVER:
            parts.append(f"to_move={s.to_move}")
        if s.landlord >= 0:
            parts.append(f"landlord={s.landlord}")
        parts.append("hands=[" + ", ".join(format_cards(h, rules=r) for h in self.hands) + "]")
        if self.last_move is not None:
            parts.append(f"last={self.last_move} by {s.last_player}")
        if s.phase == PH_OVER:
            parts.append(f"scores={self.returns()}")
        return "Game(" + ", ".join(parts) + ")"

    # -- search ------------------------------------------------------------------------
    def unseen(self, player):
        """The cards ``player`` cannot see (uint8, shape (15,)): the deck
        minus its own hand and every card played.  The kitty cards the
        landlord still holds are in it (they are in a hidden hand)."""
        self._check()
        cdef unsigned char out[HB]
        gs_unseen(&self.st, as_seat(player, self.st.players, "player"), out)
        return _counts_array(out)

    def sample_worlds(self, player, n, *, seed=0):
        """``n`` deals of the hidden cards consistent with what ``player``
        has seen: a uint8 array ``(n, players, 15)`` with ``player``'s own
        hand in every world, every seat holding its current number of cards,
        and the landlord holding the shown kitty cards it cannot have played.
        Every other unseen card goes uniformly at random to the hidden hands
        (and, before the kitty is shown, to the kitty), as physical cards.
        The same seed gives the same worlds.  ``n``: 0..``MAX_WORLDS`` (the
        array is allocated up front)."""
        self._check()
        cdef int p = as_seat(player, self.st.players, "player")
        cdef Py_ssize_t count = as_int(n, "n", 0, MAX_WORLDS), i
        cdef uint64_t rs = as_seed(seed, "seed")
        cdef int players = self.st.players
        out = np.empty((count, players, 15), dtype=np.uint8)
        cdef unsigned char* op = <unsigned char*>cnp.PyArray_DATA(out)
        cdef GState* s = &self.st
        with nogil:
            for i in range(count):
                gs_sample_world(s, p, &rs, op + i * players * 15)
        return out

    def rollout(self, n, *, policy="random", seed=0, threads=1, worlds=None):
        """Play ``n`` games to the end from this state, entirely in compiled
        code without the GIL, and return their outcomes as
        :class:`~ddz_fast.game_values.Rollouts` arrays.

        ``policy``: ``"random"`` (every seat picks uniformly among its legal
        actions; rollout i draws from ``policy_seed(game_seed(seed, i))``)
        or ``"bot"`` (every seat plays the simple bot; deterministic).  The
        results depend only on the state, ``policy``, ``seed`` and ``i``:
        never on ``threads``.  The game itself is not changed.

        ``worlds`` (play phase only): a ``(w, players, 15)`` uint8 array of
        hands, each giving every seat its current number of cards and
        fitting in the deck with the cards played; then ``n`` games are
        played in each world, every hand replaced by the world's (rows ``j *
        n .. j * n + n - 1`` for world ``j``; rollout ``i`` of all draws as
        above).  For estimates over the cards a player cannot see, e.g. of
        a hand's value as landlord (:mod:`ddz_fast.bidding`).  All the
        games of a call (``n`` times the worlds) are at most ``MAX_GAMES``."""
        self._check()
        cdef Py_ssize_t count = as_int(n, "n", 0, MAX_GAMES)
        cdef int k = as_threads(threads)
        cdef int pol = _policy_code(policy)
        cdef uint64_t sd = as_seed(seed, "seed")
        if worlds is None:
            return _run_rollouts(&self.st, self.rc, pol, sd, count, k, NULL, 0)
        if self.st.phase != PH_PLAY:
            raise ValueError(f"rollout with worlds needs the play phase, not {self.phase.name}")
        w = checked_worlds(&self.st, worlds, False)
        cdef const unsigned char[:, :, ::1] wv = w
        cdef Py_ssize_t total = _games(<object>count * w.shape[0], "rollout")   # (Python ints)
        if total == 0:
            return _run_rollouts(&self.st, self.rc, pol, sd, 0, k, NULL, 0)
        return _run_rollouts(&self.st, self.rc, pol, sd, total, k, &wv[0, 0, 0], count)

    def move_values(self, worlds, moves, *, rollouts=1, policy="bot", seed=0, threads=1):
        """For search code (a PIMC agent): the value of each move of the
        player to move in each world, by compiled playouts without the GIL.

        ``worlds``: a ``(n, players, 15)`` uint8 array of hands (e.g. from
        :meth:`sample_worlds`), each giving every seat its current number of
        cards, the player to move its own hand, and together with the cards
        played fitting in the deck.  ``moves``: legal moves of the player to
        move (e.g. a :meth:`legal_actions` MoveList).  Returns a float64
        array ``(n, len(moves))``: the fraction of ``rollouts`` playouts
        after the move, in that world, won by the mover's side.  ``policy``
        as in :meth:`rollout`; with ``"bot"`` a playout is deterministic, so
        one is played whatever ``rollouts`` says.  Playout k of (world w,
        move m) draws from ``policy_seed(game_seed(seed, (w * len(moves) +
        m) * rollouts + k))``: the values never depend on ``threads``.  The
        game itself is not changed.  Limits: ``rollouts`` 1..2**20, at most
        2**20 moves, and at most ``MAX_GAMES`` playouts in all."""
        self._check()
        cdef GState* s = &self.st
        if s.phase != PH_PLAY:
            raise ValueError(f"move_values needs the play phase, not {self.phase.name}")
        cdef int reps = <int>as_int(rollouts, "rollouts", 1, 1 << 20)
        cdef int k = as_threads(threads)
        cdef uint64_t sd = as_seed(seed, "seed")
        cdef int pol = _policy_code(policy)
        if pol == POLICY_BOT:
            reps = 1
        w = checked_worlds(s, worlds, True)
        cdef const unsigned char[:, :, ::1] wv = w
        rows = checked_move_rows(s, self.rc, moves)
        cdef const unsigned char[:, ::1] rv = rows
        cdef Py_ssize_t nw = w.shape[0], nm = rows.shape[0]
        out = np.zeros((nw, nm), dtype=np.float64)
        if nw == 0 or nm == 0:
            return out
        _games(<object>nw * nm * reps, "move_values")    # (on Python ints: no C overflow)
        cdef GState* base = gs_alloc(s.players)
        if base == NULL:
            raise MemoryError("out of memory")
        gs_copy(base, s)              # private: nothing from Python can change it meanwhile
        cdef _ValuesJob job
        jobs = []
        try:
            for start, stop in _split(nw * nm * reps, k):
                job = _ValuesJob()
                job.base = base
                job.rc = self.rc
                job.worlds = &wv[0, 0, 0]
                job.rows = &rv[0, 0]
                job.nm = nm
                job.reps = reps
                job.policy = pol
                job.seed = sd
                # whole worlds per job: split the world range in proportion
                job.start = start // (nm * reps)
                job.stop = stop // (nm * reps) if stop < nw * nm * reps else nw
                job.out = <double*>cnp.PyArray_DATA(out)
                jobs.append(job)
            run_parts([j.run_py for j in jobs])
        finally:
            gs_free(base)
        _check_jobs(jobs, "move_values")
        return out

    def solve_values(self, worlds, moves, *, max_nodes=None, max_time=None, table_mb=None):
        """For search code (a PIMC agent): the value of each move of the
        player to move in each world, by the perfect-information solver
        (:mod:`ddz_fast.solver`), every world in one compiled call without
        the GIL.

        ``worlds`` and ``moves`` as in :meth:`move_values`.  Returns a
        float64 array ``(n, len(moves))``: 1.0 when the mover's side wins
        with best play after the move in that world, 0.0 when it loses, NaN
        when a limit stopped the world's search before the move's value was
        known.  ``max_nodes``, ``max_time`` (seconds): limits of each
        world's search (None: no limit), as in :func:`~ddz_fast.solve`.
        ``table_mb``: the transposition table's size in MiB (None: the
        solver's ``DEFAULT_TABLE_MB``); one fresh table serves the call, the
        worlds solved in order, so the values and where a limit stops depend
        only on the arguments.  The game itself is not changed."""
        from ..solver import solve_values    # (the solver is built on the engine: imported late)
        return solve_values(self, worlds, moves, max_nodes=max_nodes, max_time=max_time,
                            table_mb=table_mb)


cdef object checked_worlds(const GState* s, object worlds, bint mover_fixed):
    """``worlds`` as a C-contiguous (n, players, 15) uint8 array of hands that
    fit the state: every seat its current number of cards, the cards in the
    deck with those played (and, with ``mover_fixed``, the hand of the
    player to move unchanged); else TypeError/ValueError naming the world."""
    if not isinstance(worlds, np.ndarray) or type(worlds) is not np.ndarray:
        raise TypeError(f"worlds must be a numpy array, not {type(worlds).__name__}")
    if worlds.dtype != np.uint8 or worlds.ndim != 3 or worlds.shape[1:] != (s.players, 15):
        raise ValueError(f"worlds must be a uint8 array of shape (n, {s.players}, 15), "
                         f"not {worlds.dtype} {worlds.shape}")
    w = np.array(worlds, order="C", copy=True)   # owned: nothing can change it during the run
    cdef const unsigned char[:, :, ::1] wv = w
    cdef Py_ssize_t i
    cdef int t, r, tot
    cdef int room[15]
    for r in range(15):
        room[r] = (s.decks if r >= 13 else 4 * s.decks) - s.gone[r]
        for t in range(s.players):
            room[r] -= s.played[t][r]
    for i in range(wv.shape[0]):
        for t in range(s.players):
            tot = 0
            for r in range(15):
                tot += wv[i, t, r]
                if mover_fixed and t == s.to_move and wv[i, t, r] != s.hands[t][r]:
                    raise ValueError(f"world {i} changes the hand of seat {t}, the player to move")
            if tot != s.ncards[t]:
                raise ValueError(f"world {i} gives seat {t} {tot} cards; it holds {s.ncards[t]}")
        for r in range(15):
            tot = 0
            for t in range(s.players):
                tot += wv[i, t, r]
            if tot > room[r]:
                raise ValueError(f"world {i} holds more cards of {'3456789TJQKA2BR'[r]} "
                                 f"than the deck has left")
    return w


cdef object checked_move_rows(const GState* s, const RulesC* rc, object moves):
    """``moves`` (Moves) as an owned (m, 16) uint8 array of rows, kind in
    byte 15, each a legal move of the player to move; else TypeError or
    ValueError naming the move."""
    if isinstance(moves, (str, bytes, Move)):
        raise TypeError("moves must be a sequence of Moves (e.g. a MoveList)")
    # bounded before it is read: an endless iterable is refused, not materialised
    move_list = list(itertools.islice(moves, MAX_MOVES + 1))
    cdef Py_ssize_t nm = len(move_list), m
    if nm > MAX_MOVES:
        raise ValueError(f"moves: more than {MAX_MOVES} moves")
    rows = np.zeros((nm, HB), dtype=np.uint8)
    cdef unsigned char[:, ::1] rv = rows
    cdef Move mv
    cdef MoveInfo mi
    for m in range(nm):
        if not isinstance(move_list[m], Move):
            raise TypeError(f"moves[{m}] is a {type(move_list[m]).__name__}, not a Move")
        mv = <Move>move_list[m]
        if not 0 <= mv.kind_ <= K_ROCKET:
            raise ValueError(f"moves[{m}] is an uninitialised Move")
        memcpy(&rv[m, 0], mv.c, 15)
        rv[m, KIND_BYTE] = <unsigned char>mv.kind_
        if not gs_move_legal(s, rc, &rv[m, 0], &mi):
            raise ValueError(f"moves[{m}] ({mv}) is not a legal move now")
    return rows


cdef int _policy_code(object policy) except -1:
    # The playout policy named by a rollout argument.
    if policy == "random" and type(policy) is str:
        return POLICY_RANDOM
    if policy == "bot" and type(policy) is str:
        return POLICY_BOT
    if isinstance(policy, str):
        raise ValueError(f"policy must be 'random' or 'bot', not {policy!r}")
    raise TypeError(f"policy must be 'random' or 'bot', not {type(policy).__name__}")


cdef object game_from_state(const GState* s, object rules):
    """A new, ready Game holding a copy of ``s`` (for clone and the batched
    game's tables)."""
    cdef Game g = Game.__new__(Game)
    g.st.hist = <Entry*>malloc(s.cap * sizeof(Entry))
    if g.st.hist == NULL:
        raise MemoryError("out of memory")
    g.st.cap = s.cap
    gs_copy(&g.st, s)
    g._rules = rules
    g.rc = rules_by_id(s.cid)
    g._legal = None
    g._ready = True
    return g


cdef int gs_auction_level(const GState* s) noexcept nogil:
    """Bid auction: the highest bid so far (0 before any); rob auction: 0
    before a call, then 1 + the robs so far.  It keeps its value after the
    auction; a position of the bid auction has its base (when at most 3), a
    position of the rob auction 0."""
    if s.rob:
        return 0 if s.caller < 0 else 1 + s.robs
    return s.bid


cdef int gs_auction_leader(const GState* s) noexcept nogil:
    """Who would be landlord if the auction ended now (-1 before any bid or
    call; the landlord afterwards)."""
    if s.landlord >= 0:
        return s.landlord
    return -1 if s.bidder < 0 else s.bidder


# ---------------------------------------------------------------------------
# The observation tensor
# ---------------------------------------------------------------------------

# The observation's fields, in order (their names, lengths and bounds: _OBS).
cdef enum:
    OBS_HAND, OBS_PLAYED, OBS_HAND_SIZES, OBS_KITTY, OBS_LAST_MOVE, OBS_LAST_KIND, OBS_LAST_PLAYER,
    OBS_ME, OBS_TO_MOVE, OBS_LANDLORD, OBS_PHASE, OBS_AUCTION_LEVEL, OBS_AUCTION_LEADER, OBS_BASE,
    OBS_BOMBS, OBS_DOUBLES, N_OBS_FIELDS

# What bounds a field's entries (ObservationLayout.high, from the rules).
cdef enum:
    B_ONE        # one-hot
    B_COUNT      # card counts: rules.max_count
    B_CARDS      # hand sizes: hand_size + kitty_size
    B_LEVEL      # auction level: 3 (bid auction) or players (calls + robs)
    B_BASE       # stake before bombs: 3 (bid auction) or 2**(players - 1)
    B_BOMBS      # bombs and rockets: max_bombs(rules)
    B_SEATS      # doublings: players

cdef struct ObsField:
    const char* name
    int entries              # entries: this many ...
    int per_seat             # ... plus this many per seat
    int bound                # B_*

cdef ObsField _OBS[N_OBS_FIELDS]
# Offsets of the fields by player count; [N_OBS_FIELDS]: the tensor's size.
cdef int _OBS_OFF[MAXP + 1][N_OBS_FIELDS + 1]


cdef void _obs_field(int f, const char* name, int entries, int per_seat, int bound) noexcept:
    _OBS[f].name = name
    _OBS[f].entries = entries
    _OBS[f].per_seat = per_seat
    _OBS[f].bound = bound


# The one description of the observation tensor: gs_encode_obs fills these
# fields, and ddz_fast.observation.ObservationLayout is derived from them.
_obs_field(OBS_HAND, b"hand", 15, 0, B_COUNT)                  # the observer's own hand
_obs_field(OBS_PLAYED, b"played", 0, 15, B_COUNT)              # cards each seat has played
_obs_field(OBS_HAND_SIZES, b"hand_sizes", 0, 1, B_CARDS)       # cards each seat holds
_obs_field(OBS_KITTY, b"kitty", 15, 0, B_COUNT)                # once revealed
_obs_field(OBS_LAST_MOVE, b"last_move", 15, 0, B_COUNT)        # the move to beat
_obs_field(OBS_LAST_KIND, b"last_kind", N_KINDS, 0, B_ONE)     # its kind
_obs_field(OBS_LAST_PLAYER, b"last_player", 0, 1, B_ONE)       # who made it
_obs_field(OBS_ME, b"me", 0, 1, B_ONE)                         # the observer
_obs_field(OBS_TO_MOVE, b"to_move", 0, 1, B_ONE)
_obs_field(OBS_LANDLORD, b"landlord", 0, 1, B_ONE)
_obs_field(OBS_PHASE, b"phase", PH_OVER + 1, 0, B_ONE)
_obs_field(OBS_AUCTION_LEVEL, b"auction_level", 1, 0, B_LEVEL)
_obs_field(OBS_AUCTION_LEADER, b"auction_leader", 0, 1, B_ONE)
_obs_field(OBS_BASE, b"base", 1, 0, B_BASE)
_obs_field(OBS_BOMBS, b"bombs", 1, 0, B_BOMBS)
_obs_field(OBS_DOUBLES, b"doubles", 1, 0, B_SEATS)


cdef int _obs_offsets() except -1:
    cdef int p, f
    for f in range(N_OBS_FIELDS):
        if _OBS[f].name == NULL:
            raise ImportError(f"observation field {f} is not described")
    for p in range(MAXP + 1):
        _OBS_OFF[p][0] = 0
        for f in range(N_OBS_FIELDS):
            _OBS_OFF[p][f + 1] = _OBS_OFF[p][f] + _OBS[f].entries + p * _OBS[f].per_seat
    return 0


_obs_offsets()


cdef int obs_size(int players) noexcept nogil:
    return _OBS_OFF[players][N_OBS_FIELDS]


def observation_fields(rules):
    """The fields of the observation tensor of ``rules``, in order: a tuple of
    ``(name, start, stop, high)`` (its entries lie in ``[0, high]``)."""
    r = check_rules(resolve_rules(rules))
    cdef int n = r.players, f
    bounds = {B_ONE: 1, B_COUNT: r.max_count, B_CARDS: r.hand_size + r.kitty_size,
              B_LEVEL: 3 if r.auction == "bid" else n, B_BASE: 3 if r.auction == "bid" else 1 << (n - 1),
              B_BOMBS: max_bombs(r), B_SEATS: n}
    return tuple([(_OBS[f].name.decode("ascii"), _OBS_OFF[n][f], _OBS_OFF[n][f + 1], bounds[_OBS[f].bound])
                  for f in range(N_OBS_FIELDS)])


cdef void gs_encode_obs(const GState* s, int player, float* out) noexcept nogil:
    """The observation tensor of seat ``player``: every one of its
    obs_size(s.players) entries, from what that seat may see (its own hand
    and the public state)."""
    cdef const int* off = _OBS_OFF[s.players]
    cdef const unsigned char* row
    cdef int r, t, lead
    memset(out, 0, off[N_OBS_FIELDS] * sizeof(float))
    for r in range(15):
        out[off[OBS_HAND] + r] = s.hands[player][r]
    for t in range(s.players):
        for r in range(15):
            out[off[OBS_PLAYED] + t * 15 + r] = s.played[t][r]
        out[off[OBS_HAND_SIZES] + t] = s.ncards[t]
    if s.kitty_revealed and s.kitty_known:
        for r in range(15):
            out[off[OBS_KITTY] + r] = s.kitty[r]
    if s.last_src != LAST_NONE:
        if s.last_src == LAST_ORIGIN:
            row = &s.o_last[0]
        else:
            row = &s.hist[s.last_src].row[0]
        for r in range(15):
            out[off[OBS_LAST_MOVE] + r] = row[r]
        out[off[OBS_LAST_KIND] + row[KIND_BYTE]] = 1.0
        out[off[OBS_LAST_PLAYER] + s.last_player] = 1.0
    out[off[OBS_ME] + player] = 1.0
    if s.phase != PH_OVER:
        out[off[OBS_TO_MOVE] + s.to_move] = 1.0
    if s.landlord >= 0:
        out[off[OBS_LANDLORD] + s.landlord] = 1.0
    out[off[OBS_PHASE] + s.phase] = 1.0
    out[off[OBS_AUCTION_LEVEL]] = gs_auction_level(s)
    lead = gs_auction_leader(s)
    if lead >= 0:
        out[off[OBS_AUCTION_LEADER] + lead] = 1.0
    out[off[OBS_BASE]] = s.base
    out[off[OBS_BOMBS]] = s.bombs
    out[off[OBS_DOUBLES]] = s.doubles


cdef cnp.ndarray _obs_out(object out, cnp.npy_intp size):
    """``out`` checked to be a plain, writeable, C-contiguous, native float32
    array of shape ``(size,)``.  A subclass is refused: a masked array (or
    any subclass with its own idea of its contents) would not show what was
    written."""
    if not cnp.PyArray_Check(out):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    if type(out) is not cnp.ndarray:
        raise TypeError(f"out must be a plain numpy.ndarray, not a {type(out).__name__}")
    cdef cnp.ndarray arr = <cnp.ndarray>out
    if cnp.PyArray_TYPE(arr) != cnp.NPY_FLOAT32 or not cnp.PyArray_ISNOTSWAPPED(arr):
        raise TypeError(f"out must have dtype float32 (native byte order), not {arr.dtype}")
    if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) != size:
        raise ValueError(f"out must have shape ({size},), not {(<object>arr).shape}")
    if not cnp.PyArray_ISCARRAY(arr):
        raise ValueError("out must be C-contiguous and writeable")
    return arr


# ---------------------------------------------------------------------------
# Loading a position
# ---------------------------------------------------------------------------

cdef int _load_hands(object hands, object r, int n, unsigned char (*out)[HB], int decks) except -1:
    """Fill out[0..n-1] with the seats' hands, validated (one deck bound per
    card slot; the position check follows)."""
    cdef cnp.ndarray arr
    cdef int t, i
    cdef unsigned char* p
    cdef Py_ssize_t s0, s1
    cdef unsigned char lim
    memset(out, 0, MAXP * HB)
    if type(hands) is cnp.ndarray:
        arr = <cnp.ndarray>hands
        if (cnp.PyArray_NDIM(arr) == 2 and cnp.PyArray_DIM(arr, 0) == n and cnp.PyArray_DIM(arr, 1) == 15
                and cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8):
            # Copied once into the state, then checked there: the caller's
            # array is never read again.
            p = <unsigned char*>cnp.PyArray_DATA(arr)
            s0 = cnp.PyArray_STRIDE(arr, 0)
            s1 = cnp.PyArray_STRIDE(arr, 1)
            for t in range(n):
                for i in range(15):
                    out[t][i] = p[t * s0 + i * s1]
            for t in range(n):
                for i in range(15):
                    lim = decks if i >= 13 else 4 * decks
                    if out[t][i] > lim:
                        raise ValueError(f"seat {t}: {out[t][i]} cards in slot {i} "
                                         f"({'3456789TJQKA2BR'[i]}): the deck holds at most {lim}")
            return 0
    # (a mapping or a set has a length but no seat order: hands[t] of a dict
    # would be a KeyError, a set's order arbitrary)
    if isinstance(hands, (str, bytes, Mapping, AbstractSet)) or not hasattr(hands, "__len__"):
        raise TypeError(f"hands must be a sequence of {n} hands, not {type(hands).__name__}")
    if len(hands) != n:
        raise ValueError(f"need {n} hands, got {len(hands)}")
    for t in range(n):
        b = bytes(to_counts(hands[t], rules=r))
        memcpy(out[t], <const char*>b, 15)
    return 0


cdef int _bombs_left(const GState* s, int n) noexcept:
    """The most bombs and rockets the hands of a position's start can still
    make: every four cards of a rank (the two-deck bombs of 5..8 cards count
    as the one or two of four they contain), and a rocket per seat holding
    every joker."""
    cdef int t, r, total = 0
    for t in range(n):
        for r in range(13):
            total += s.start[t][r] // 4
        if s.start[t][13] == s.decks and s.start[t][14] == s.decks:
            total += 1
    return total


cdef int _load_kitty(object kitty, object r, GState* s, int ll) except -1:
    """The shown kitty: exactly kitty_size cards, and the ones the landlord
    no longer holds must be among the cards gone from play."""
    cdef int i, total = 0, missing
    b = bytes(to_counts(kitty, rules=r))
    for i in range(15):
        s.kitty[i] = b[i]
        total += b[i]
    if total != s.kitty_size:
        raise ValueError(f"the kitty holds {s.kitty_size} cards, not {total}")
    for i in range(15):
        missing = s.kitty[i] - s.start[ll][i]
        if s.o_has_last and s.o_last_player == ll:
            missing -= s.o_last[i]
        if missing > s.gone[i]:
            raise ValueError(f"the kitty's {'3456789TJQKA2BR'[i]} cards are neither in the landlord's "
                             "hand nor gone from play")
    s.kitty_known = True
    return 0


def _restore_game(rules, origin, actions):
    """Unpickle a Game: rebuild its origin and replay its actions, each
    checked like a step from Python."""
    cdef Game g
    cdef Py_ssize_t i
    cdef const unsigned char* a
    cdef MoveInfo mi
    if not isinstance(origin, tuple) or not origin or not isinstance(actions, bytes) or len(actions) % 17:
        raise ValueError("not a pickled Game")
    if origin[0] == "deal" and len(origin) == 3:
        g = Game(rules, seed=origin[1])
        for i in range(as_int(origin[2], "deal number", 0, 1 << 20)):  # no-cython-lint
            _redeal(&g.st)
    elif origin[0] == "position" and len(origin) == 2 and isinstance(origin[1], dict):
        g = Game.from_position(rules=rules, **origin[1])
    else:
        raise ValueError("not a pickled Game")
    a = <const unsigned char*>actions
    for i in range(len(actions) // 17):
        if a[i * 17] == A_MOVE:
            if not gs_move_legal(&g.st, g.rc, a + i * 17 + 1, &mi):
                raise ValueError(f"not a pickled Game: action {i} is illegal")
            gs_play(&g.st, a + i * 17 + 1, &mi)
        else:
            if a[i * 17] >= N_AUCTION_CODES or not gs_auction_legal(&g.st, a[i * 17]):
                raise ValueError(f"not a pickled Game: action {i} is illegal")
            gs_auction_step(&g.st, a[i * 17])
    return g


# ---------------------------------------------------------------------------
# Rollouts and random playouts, optionally on several threads
# ---------------------------------------------------------------------------

cdef const GState* game_state(object game) except NULL:
    """The state of a Game, for other compiled modules (read it, never write
    it); TypeError for anything else or a Game never initialised."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a ddz_fast.Game, not {type(game).__name__}")
    (<Game>game)._check()
    return &(<Game>game).st


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
    cdef readonly bint failed     # (read by _check_jobs)
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
    cdef Py_ssize_t nm, start, stop
    cdef int reps, policy
    cdef uint64_t seed
    cdef double* out
    cdef readonly bint failed     # (read by _check_jobs)

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
        if ws == NULL or after == NULL or s == NULL or not out_init(&o, 512, False):
            self.failed = True
        else:
            for w in range(self.start, self.stop):
                gs_copy(ws, self.base)
                for t in range(n):
                    for r in range(15):
                        ws.hands[t][r] = self.worlds[(w * n + t) * 15 + r]
                for m in range(self.nm):
                    gs_copy(after, ws)
                    row_info(self.rows + m * HB, &mi)
                    gs_play(after, self.rows + m * HB, &mi)
                    won = 0
                    for k in range(self.reps):
                        if after.phase == PH_OVER:
                            gs_copy(s, after)
                        else:
                            gs_copy(s, after)
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


cdef int _check_jobs(list jobs, str what) except -1:
    for job in jobs:
        if job.failed:
            raise MemoryError(f"out of memory in {what}")
    return 0


cdef object _run_rollouts(const GState* st, const RulesC* rc, int policy, uint64_t seed,
                          Py_ssize_t n, int threads, const unsigned char* worlds, Py_ssize_t per_world):
    cdef int players = st.players
    cdef _Job job
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
            jobs.append(job)
        run_parts([j.run_py for j in jobs])
    finally:
        gs_free(base)
    _check_jobs(jobs, "rollout")
    return Rollouts(winner=winner, landlord_won=won, scores=scores, plies=plies)


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
    that many contiguous parts run in parallel.  ``n_games``:
    0..``MAX_GAMES``.  Returns :class:`PlayoutResults`.
    """
    r = check_rules(resolve_rules(rules))
    cdef Py_ssize_t n = as_int(n_games, "n_games", 0, MAX_GAMES)
    cdef int k = as_threads(threads)
    cdef uint64_t first = <uint64_t>check_int(first_game, "first_game", 0, (1 << 64) - 1)
    cdef uint64_t sd = as_seed(seed, "seed")
    cdef int players = r.players
    cdef const RulesC* rc = rules_by_id(rules_id(r))
    cdef _Job job
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
        jobs.append(job)
    t0 = time.perf_counter()
    run_parts([j.run_py for j in jobs])
    elapsed = time.perf_counter() - t0
    for job in jobs:
        if job.failed:
            raise MemoryError("out of memory in play_random_games")
    return PlayoutResults(r, int(seed), int(first_game), elapsed, **arrays)
