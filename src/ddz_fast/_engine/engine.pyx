# cython: language_level=3
"""The compiled game engine: one C struct holds the whole state of a deal,
and the C functions below are the only implementation of the game's rules.

Everything that plays the game runs on them, each in its own module built
on this one's ``.pxd`` (the only rules API): the simple bot
(:mod:`~ddz_fast._engine.bots`), world sampling for search
(:mod:`~ddz_fast._engine.worlds`), the compiled playouts and rollouts
(:mod:`~ddz_fast._engine.playout`), :class:`Game` (a thin, final Python
class over one state: :mod:`~ddz_fast._engine.game`) and the batched tables
(:mod:`~ddz_fast._engine.vec`).  The observation encoder is here too: it
reads every field of the state.  The rules they
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
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset

import numpy as np

from .._core.kernels cimport (
    RulesC, MoveInfo, KIND_BYTE, N_KINDS, u64, row_info, _row_words,
    valid_move_c, beats_c,
)
from .._core.move cimport K_PASS, K_BOMB, K_ROCKET
from .._core.kernels cimport Out, ROW, out_init, out_free
from .._core.wild cimport WROW, W_PHYS, CLS_HARD
from .._util.rng cimport ddz_below
from .._util.checks cimport as_seed

from ..game_values import Bid, Call, Decline, Double, Rob
from ..rules import check_rules, resolve_rules

cnp.import_array()

__all__ = ["deal", "settle_scores", "MAX_BASE", "max_bombs", "observation_fields"]

# Bounds that keep every stake within int64: value = base << (bombs +
# doubles + 1) with base <= 2**20, at most 27 bombs and 4 doubles.
MAX_BASE = 1 << 20


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
    s.nwild = rc.wild_ranks
    s.hard_x4 = rc.hard_x4
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
    s.xbombs = 0
    s.wmask = 0
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


cdef void gs_reset_position(GState* s) noexcept nogil:
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
    s.xbombs = 0
    s.wmask = s.o_wmask
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
        for r in range(15):     # on the table: played, and seen
            s.played[s.o_last_player][r] = s.o_last[W_PHYS + r] if s.wmask else s.o_last[r]
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
    if s.nwild:
        s.wmask = draw_wild(s.rng, s.nwild)
    if s.rob:
        s.phase = PH_DOUBLING
        for i in range(s.players):
            s.queue[i] = (landlord + i) % s.players
        s.qlen = s.players
        s.qpos = 0
    else:
        s.phase = PH_PLAY


cdef unsigned int draw_wild(uint64_t rng, int n) noexcept nogil:
    """The deal's wild ranks (a mask): n different ranks 3..2, uniform, from
    the deal stream after its shuffle and first-bidder draw.  The stream is
    read from a copy: the same deal draws the same ranks however often its
    auction is replayed (undo), and redeals are dealt as without wilds."""
    cdef unsigned int mask = 0
    cdef int k, x, skip
    for k in range(n):
        x = <int>ddz_below(&rng, <uint64_t>(13 - k))
        # the x-th rank not drawn yet
        skip = 0
        while True:
            if not (mask >> skip) & 1:
                if x == 0:
                    break
                x -= 1
            skip += 1
        mask |= 1u << skip
    return mask


cdef void gs_redeal(GState* s) noexcept nogil:
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
                gs_redeal(s)
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
                gs_redeal(s)
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
    if s.wmask:
        return _wild_move_legal(s, rc, row, mi)
    if row[KIND_BYTE] == K_PASS:                # (valid_move_c checks it holds no cards)
        return s.last_src != LAST_NONE and valid_move_c(row, rc, mi)
    for r in range(15):
        if row[r] > h[r]:
            return False
    if not valid_move_c(row, rc, mi):
        return False
    return s.last_src == LAST_NONE or beats_c(mi, &s.last)


cdef bint _wild_move_legal(const GState* s, const RulesC* rc, const unsigned char* row,
                           MoveInfo* mi) noexcept nogil:
    # With wild cards: is the 32-byte row one of gs_gen's (the kernel is the
    # one definition of which readings exist and which beat the table)?
    cdef Out o
    cdef Py_ssize_t i
    cdef bint found = False
    if not out_init(&o, 256, False):
        return False
    gs_gen(s, rc, &o)
    for i in range(0, o.n, 2):
        if memcmp(o.data + i * ROW, row, WROW) == 0:
            found = True
            break
    out_free(&o)
    if found:
        row_info(row, mi)
    return found


cdef void gs_play(GState* s, const unsigned char* row, const MoveInfo* mi) noexcept nogil:
    """Apply a legal move (gs_move_legal) of the player to move; whose turn
    it is next, and when a round of passes clears the table, is turn_after's
    rule.  The first empty hand ends the deal.  With wild cards `row` is a
    32-byte wild row: the hand gives up its physical cards."""
    cdef int p = s.to_move, nxt, last_by
    cdef u64 lo, hi, w
    cdef Entry* e = &s.hist[s.nh]
    cdef const unsigned char* cards = row
    memcpy(e.row, row, HB)
    e.row[KIND_BYTE] = <unsigned char>mi.kind
    if s.wmask:
        memcpy(e.phys, row + W_PHYS, HB)
        cards = &e.phys[0]
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
        # (the 15 counts as two words: no count borrows or carries into the
        # next; byte 15, the row's kind or class, is masked off)
        _row_words(cards, &lo, &hi)
        memcpy(&w, s.hands[p], 8)
        w -= lo
        memcpy(s.hands[p], &w, 8)
        memcpy(&w, s.hands[p] + 8, 8)
        w -= hi
        memcpy(s.hands[p] + 8, &w, 8)
        memcpy(&w, s.played[p], 8)
        w += lo
        memcpy(s.played[p], &w, 8)
        memcpy(&w, s.played[p] + 8, 8)
        w += hi
        memcpy(s.played[p] + 8, &w, 8)
        s.ncards[p] -= mi.ncards
        s.nmoves[p] += 1
        if mi.kind == K_BOMB or mi.kind == K_ROCKET:
            s.bombs += 1
            if s.hard_x4 and (not s.wmask or e.phys[15] >= CLS_HARD):
                s.xbombs += 1
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
    """value = base x 2**(bombs + rockets) x 2 (spring or anti-spring) x
    2**doubles (under bomb_doubling "hard_x4", `bombs` counts the bombs
    that multiply by 4 twice)."""
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
    s.value = stake(s.base, s.bombs + s.xbombs, s.doubles, s.spring)
    score_deal(s.players, s.landlord, won, s.value, s.scores)


# ---------------------------------------------------------------------------
# Undo
# ---------------------------------------------------------------------------

cdef int gs_undo(GState* s) noexcept nogil:
    """Take back the last action; -1 when there is none."""
    cdef Entry e
    cdef unsigned char codes[MAX_AUCTION]
    cdef unsigned char* cards
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
            cards = &e.phys[0] if s.wmask else &e.row[0]
            n = 0
            for r in range(15):
                s.hands[e.seat][r] += cards[r]
                s.played[e.seat][r] -= cards[r]
                n += cards[r]
            s.ncards[e.seat] += n
            s.nmoves[e.seat] -= 1
            if e.row[KIND_BYTE] == K_BOMB or e.row[KIND_BYTE] == K_ROCKET:
                s.bombs -= 1
                if s.hard_x4 and (not s.wmask or e.phys[15] >= CLS_HARD):
                    s.xbombs -= 1
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
        gs_redeal(s)
    for i in range(s.players - 1):  # no-cython-lint (count-only loop)
        gs_auction_step(s, code)


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


cdef int auction_code(object action) except -2:
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
    OBS_BOMBS, OBS_DOUBLES, OBS_WILD, N_OBS_FIELDS

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
# Offsets of the fields by wild cards (0: none, 1: some; the wild field is
# empty without them) and player count; [N_OBS_FIELDS]: the tensor's size.
cdef int _OBS_OFF[2][MAXP + 1][N_OBS_FIELDS + 1]


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
_obs_field(OBS_WILD, b"wild", 13, 0, B_ONE)                    # the wild ranks (wild rules only)


cdef int _obs_offsets() except -1:
    cdef int p, f, w
    for f in range(N_OBS_FIELDS):
        if _OBS[f].name == NULL:
            raise ImportError(f"observation field {f} is not described")
    for w in range(2):
        for p in range(MAXP + 1):
            _OBS_OFF[w][p][0] = 0
            for f in range(N_OBS_FIELDS):
                _OBS_OFF[w][p][f + 1] = _OBS_OFF[w][p][f] + (
                    0 if f == OBS_WILD and not w else _OBS[f].entries + p * _OBS[f].per_seat)
    return 0


_obs_offsets()


cdef int obs_size(int players, bint wild) noexcept nogil:
    return _OBS_OFF[1 if wild else 0][players][N_OBS_FIELDS]


def observation_fields(rules):
    """The fields of the observation tensor of ``rules``, in order: a tuple of
    ``(name, start, stop, high)`` (its entries lie in ``[0, high]``)."""
    r = check_rules(resolve_rules(rules))
    cdef int n = r.players, f
    cdef int w = 1 if r.wild_ranks else 0
    bounds = {B_ONE: 1, B_COUNT: r.max_count, B_CARDS: r.hand_size + r.kitty_size,
              B_LEVEL: 3 if r.auction == "bid" else n, B_BASE: 3 if r.auction == "bid" else 1 << (n - 1),
              B_BOMBS: max_bombs(r), B_SEATS: n}
    return tuple([(_OBS[f].name.decode("ascii"), _OBS_OFF[w][n][f], _OBS_OFF[w][n][f + 1],
                   bounds[_OBS[f].bound])
                  for f in range(N_OBS_FIELDS) if _OBS_OFF[w][n][f + 1] > _OBS_OFF[w][n][f] or f != OBS_WILD])


cdef void gs_encode_obs(const GState* s, int player, float* out) noexcept nogil:
    """The observation tensor of seat ``player``: every one of its
    obs_size(s.players, s.nwild) entries, from what that seat may see (its
    own hand and the public state; with wild cards the last move shows the
    combination it is read as, `played` the cards played, and `wild` the
    deal's wild ranks once drawn)."""
    cdef const int* off = _OBS_OFF[1 if s.nwild else 0][s.players]
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
    if s.nwild:
        for r in range(13):
            out[off[OBS_WILD] + r] = (s.wmask >> r) & 1
