# cython: language_level=3
"""The Game facade: :class:`Game`, a thin, final Python class over one state
of the engine (:mod:`ddz_fast._engine.engine`), with the bot, world
sampling and playouts built on it (:mod:`~ddz_fast._engine.bots`,
:mod:`~ddz_fast._engine.worlds`, :mod:`~ddz_fast._engine.playout`); the
checks of a position, of worlds and of moves given to search; and the
pickle loader (:func:`_restore_game`)."""
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset

import itertools
from collections.abc import Mapping, Set as AbstractSet
import secrets

import numpy as np

from .._core.kernels cimport RulesC, MoveInfo, Out, ROW, KIND_BYTE, out_init, out_free, valid_move_c, row_info
from .._core.move cimport Move, K_PASS, K_ROCKET, wild_row_move, wild_mask, wild_ranks_of
from .._core.movelist cimport wild_movelist_from_out
from .._core.wild cimport W_PHYS, W_CLASS, WROW, bomb_class
from .._core.entry cimport rules_id, rules_by_id, movelist_from_out, row_move
from .._util.checks cimport as_int, as_seed, as_seat, as_threads
from .._core.ranks cimport MoveRanks, WildIds, ranks_for
from .engine cimport (
    GState, Entry, MAXP, HB, PH_AUCTION, PH_DOUBLING, PH_PLAY, PH_OVER, N_AUCTION_CODES, A_MOVE,
    MOVE_ID0, ORIGIN_DEAL, ORIGIN_POSITION, LAST_NONE, LAST_ORIGIN, POLICY_BOT,
    hist_capacity, gs_copy, gs_init, gs_new_game, gs_choices, gs_auction_legal, gs_auction_step,
    gs_move_legal, gs_play, gs_undo, gs_gen, stake, gs_redeal, gs_reset_position, auction_code,
    gs_auction_level, gs_auction_leader, obs_size, gs_encode_obs,
)
from .worlds cimport gs_unseen, gs_reserved, sample_worlds_array
from .playout cimport policy_code, checked_games, run_rollouts, run_move_values

from ..errors import IllegalActionError
from ..cards import format_cards, to_counts
from ..game_values import AUCTION_ACTIONS, GameResult, Observation, Phase
from .. import pickling as _pickling
from ..rules import AUCTIONS, check_rules, resolve_rules
from .engine import MAX_BASE, max_bombs
from .worlds import MAX_WORLDS
from .playout import MAX_GAMES

cnp.import_array()

__all__ = ["Game"]

# Most moves one move_values call values (far more than any legal list
# holds, far fewer than would exhaust memory).
cdef Py_ssize_t MAX_MOVES = 1 << 20

cdef tuple _PHASES = tuple(Phase)


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

cdef Move _row_move_of(const GState* s, const unsigned char* row):
    # The Move of a history entry's row or the position's move to beat
    # (with wild cards, its 32-byte wild row).
    if s.wmask:
        return wild_row_move(row, s.cid, s.wmask)
    return row_move(row, s.cid)


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
        if type(auction) is not str or auction not in AUCTIONS:
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
                      kitty=None, wild=None):
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
        s.o_wmask = wild_mask(wild, r)
        memset(row, 0, HB)
        memset(s.o_last, 0, 2 * HB)
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
                if s.o_wmask:
                    # a reading of its cards under the wild ranks (raises if not)
                    m = Move(m.kind, m.counts, rules=r, wild=wild, represents=m.represents)
                    memcpy(s.o_last + W_PHYS, m.p, 15)
                    s.o_last[W_CLASS] = <unsigned char>bomb_class(m.kind_, m.c, m.p, s.o_wmask)
                    row_info(row, &mi)
                elif memcmp(m.c, m.p, 15) != 0:
                    raise ValueError(f"last {m} reads wild cards, and rules {r.name!r} have none")
                elif not valid_move_c(row, g.rc, &mi):
                    raise ValueError(f"last {m.cards!r} is not a {m.kind.name} under rules {r.name!r}")
                lp = (tm - 1 + n) % n if last_player is None else as_seat(last_player, n, "last_player")
                if lp == tm:
                    raise ValueError("last_player cannot be to_move: the others would all have passed "
                                     "and the table would be clear (use last=None)")
                s.o_has_last = True
                memcpy(s.o_last, row, HB)
                if s.o_wmask:
                    memcpy(row, s.o_last + W_PHYS, 15)   # (the cards it took from the deck)
                    row[KIND_BYTE] = 0
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
        gs_reset_position(s)
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
            return _row_move_of(s, s.o_last)
        return _row_move_of(s, s.hist[s.last_src].row)

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
                out.append((s.hist[i].seat, _row_move_of(s, s.hist[i].row)))
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
                if self.st.wmask:
                    legal = wild_movelist_from_out(&o, self.st.cid, self.st.wmask)
                else:
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
        cdef unsigned char row[32]
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
            if s.wmask:
                # (the reading's class under this deal's wild ranks; the
                # kernel's list decides whether the move is legal)
                memcpy(row + W_PHYS, m.p, 15)
                row[W_CLASS] = <unsigned char>bomb_class(m.kind_, m.c, m.p, s.wmask)
            elif memcmp(m.c, m.p, 15) != 0:
                raise self._illegal(action)
            if not gs_move_legal(s, self.rc, row, &mi):
                raise self._illegal(action)
            gs_play(s, row, &mi)
        elif s.phase == PH_OVER:
            raise self._illegal(action)
        else:
            code = auction_code(action)
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
        ``k`` of ``action_space(rules)`` in the play phase; under wild cards
        ``FIRST_MOVE_ID + r * cards_size + c`` for the id pair ``(r, c)`` of
        the :class:`~ddz_fast.actions.WildActionSpace` under the deal's wild
        ranks (its ``flat_size`` ids)."""
        self._check()
        cdef Out o
        cdef unsigned char codes[4]
        cdef cnp.npy_intp n
        cdef Py_ssize_t i
        cdef int64_t* p
        if self.st.phase == PH_PLAY:
            if not out_init(&o, 64, False):
                raise MemoryError("out of memory generating moves")
            try:
                ids = self._move_ids(&o)
                p = <int64_t*>cnp.PyArray_DATA(ids)
                n = ids.shape[0]
                for i in range(n):
                    p[i] += MOVE_ID0
            finally:
                out_free(&o)
            return ids
        n = 0 if self.st.phase == PH_OVER else gs_choices(&self.st, codes)
        ids = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT64, 0)
        p = <int64_t*>cnp.PyArray_DATA(ids)
        for i in range(n):
            p[i] = codes[i]          # (an auction action's id is its code)
        return ids

    cdef object _move_ids(self, Out* o):
        """The move ids (without FIRST_MOVE_ID) of the legal moves, in list
        order, generated into o (16-byte rows, or 32-byte wild rows)."""
        cdef cnp.npy_intp n
        cdef int64_t* p
        cdef int64_t missing
        cdef MoveRanks ranks
        cdef WildIds w
        cdef unsigned int wmask = self.st.wmask
        gs_gen(&self.st, self.rc, o)
        if o.oom:
            raise MemoryError("out of memory generating moves")
        n = o.n // 2 if wmask else o.n
        ids = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT64, 0)
        p = <int64_t*>cnp.PyArray_DATA(ids)
        if wmask:
            w = self._wild_ids()
            with nogil:
                missing = w.rank_wild(o.data, n, wmask, p)
        else:
            ranks = self._space()
            with nogil:
                missing = ranks.rank_generated(o.data, n, p)
        if missing < 0:
            i = int(np.argmin(ids))
            what = (wild_row_move(o.data + i * WROW, self.st.cid, wmask) if wmask
                    else row_move(o.data + i * ROW, self.st.cid))
            raise ValueError(f"legal move {i} ({what}) has no action id: no hand of "
                             f"{self._rules.name!r} holds that many cards")
        return ids

    cdef WildIds _wild_ids(self):
        # (the ranking is built from the public action space, a layer above)
        from ..actions import wild_ids
        return <WildIds>wild_ids(self._rules)

    def step_id(self, action_id):
        """:meth:`step` with the action of a game action id (see
        :meth:`legal_ids`): TypeError for a non-integer, ValueError for an
        id out of range, or (the state unchanged) not legal now."""
        self._check()
        cdef MoveRanks ranks = self._space()
        cdef int64_t n_moves = ranks.n_rows
        cdef WildIds w
        if self.st.nwild:
            w = self._wild_ids()
            n_moves = w.readings.n_rows * w.cards_size
        cdef int64_t a = as_int(action_id, "action id", 0, MOVE_ID0 + n_moves - 1)
        cdef const unsigned char* row
        cdef MoveInfo mi
        cdef GState* s = &self.st
        cdef Out o
        cdef Py_ssize_t k
        if a < MOVE_ID0:
            if (s.phase != PH_AUCTION and s.phase != PH_DOUBLING) or not gs_auction_legal(s, <int>a):
                raise self._illegal(AUCTION_ACTIONS[a])
            gs_auction_step(s, <int>a)
        elif self.st.nwild:
            if s.phase != PH_PLAY:
                raise self._illegal(self._wild_id_move(a))
            # (legal means listed: the id is found among the legal moves' ids)
            if not out_init(&o, 64, False):
                raise MemoryError("out of memory generating moves")
            try:
                found = np.flatnonzero(self._move_ids(&o) == a - MOVE_ID0)
                if found.size == 0:
                    raise self._illegal(self._wild_id_move(a))
                k = found[0]
                row = o.data + k * WROW
                row_info(row, &mi)
                gs_play(s, row, &mi)
            finally:
                out_free(&o)
        else:
            row = ranks.rows + (a - MOVE_ID0) * ROW
            if s.phase != PH_PLAY or not gs_move_legal(s, self.rc, row, &mi):
                raise self._illegal(row_move(row, s.cid))
            gs_play(s, row, &mi)
        self._legal = None

    cdef object _wild_id_move(self, int64_t a):
        """The move a wild flat id names under the deal's wild ranks, for an
        error message (its id text when it names none)."""
        from ..actions import action_space
        if not self.st.wmask:
            return f"move id {a} (no wild rank drawn yet)"
        try:
            return action_space(self._rules).flat_move(int(a - MOVE_ID0), wild=self.wild)
        except ValueError as e:
            raise ValueError(f"action id {a} names no move: {e}") from None

    @property
    def wild(self):
        """The deal's wild ranks, a tuple of rank indices (0 is the 3, 12
        the 2), drawn when the landlord takes the kitty; None before that
        and under rules without wild cards."""
        self._check()
        return wild_ranks_of(self.st.wmask) if self.st.wmask else None

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
            if s.nwild:
                actions += (<char*>s.hist[i].phys)[:HB]
        if s.origin == ORIGIN_DEAL:
            origin = ("deal", s.seed, s.deal_number)
        else:
            origin = ("position", self._position_args())
        return (_pickling.load_game, ((_pickling.FORMAT, self._rules, origin, bytes(actions)),))

    cdef dict _position_args(self):
        cdef GState* s = &self.st
        return dict(
            hands=_rows_array(&s.start[0][0], s.players), landlord=s.o_landlord, base=s.o_base,
            to_move=s.o_to_move, last=_row_move_of(s, s.o_last) if s.o_has_last else None,
            last_player=s.o_last_player if s.o_has_last else None, bombs=s.o_bombs,
            doubles=s.o_doubles, played=[s.o_moves[t] for t in range(s.players)],
            kitty=_counts_array(s.kitty) if s.kitty_known else None,
            **({"wild": wild_ranks_of(s.o_wmask)} if s.nwild else {}),
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
            wild=self.wild,
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
        cdef cnp.npy_intp size = obs_size(self.st.players, self.st.nwild)
        cdef cnp.ndarray arr
        if out is None:
            arr = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        else:
            arr = _obs_out(out, size)
        gs_encode_obs(&self.st, p, <float*>cnp.PyArray_DATA(arr))
        return arr

    cdef object _landlord_holds(self, int p):
        cdef unsigned char out[HB]
        gs_reserved(&self.st, p, out)
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
            "wild": self.wild,
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
        if s.wmask:
            parts.append("wild=" + "".join(["3456789TJQKA2"[x] for x in wild_ranks_of(s.wmask)]))
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
        cdef Py_ssize_t count = as_int(n, "n", 0, MAX_WORLDS)
        return sample_worlds_array(&self.st, p, count, as_seed(seed, "seed"))

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
        games of a call (``n`` times the worlds) are at most ``MAX_GAMES``.
        Called on the main thread, it stops on Ctrl-C within a fraction of
        a second and raises KeyboardInterrupt (docs/hardening.md)."""
        self._check()
        cdef Py_ssize_t count = as_int(n, "n", 0, MAX_GAMES)
        cdef int k = as_threads(threads)
        cdef int pol = policy_code(policy)
        cdef uint64_t sd = as_seed(seed, "seed")
        if worlds is None:
            return run_rollouts(&self.st, self.rc, pol, sd, count, k, NULL, 0)
        if self.st.phase != PH_PLAY:
            raise ValueError(f"rollout with worlds needs the play phase, not {self.phase.name}")
        w = checked_worlds(&self.st, worlds, False)
        cdef const unsigned char[:, :, ::1] wv = w
        cdef Py_ssize_t total = checked_games(<object>count * w.shape[0], "rollout")   # (Python ints)
        if total == 0:
            return run_rollouts(&self.st, self.rc, pol, sd, 0, k, NULL, 0)
        return run_rollouts(&self.st, self.rc, pol, sd, total, k, &wv[0, 0, 0], count)

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
        2**20 moves, and at most ``MAX_GAMES`` playouts in all.  Ctrl-C
        stops it as it stops :meth:`rollout`."""
        self._check()
        cdef GState* s = &self.st
        if s.phase != PH_PLAY:
            raise ValueError(f"move_values needs the play phase, not {self.phase.name}")
        cdef int reps = <int>as_int(rollouts, "rollouts", 1, 1 << 20)
        cdef int k = as_threads(threads)
        cdef uint64_t sd = as_seed(seed, "seed")
        cdef int pol = policy_code(policy)
        if pol == POLICY_BOT:
            reps = 1
        w = checked_worlds(s, worlds, True)
        cdef const unsigned char[:, :, ::1] wv = w
        rows = checked_move_rows(s, self.rc, moves)
        cdef const unsigned char[:, ::1] rv = rows
        cdef Py_ssize_t nw = w.shape[0], nm = rows.shape[0]
        if nw == 0 or nm == 0:
            return np.zeros((nw, nm), dtype=np.float64)
        checked_games(<object>nw * nm * reps, "move_values")    # (on Python ints: no C overflow)
        return run_move_values(s, self.rc, &wv[0, 0, 0], nw, &rv[0, 0], nm, reps, pol, sd, k)

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
    byte 15 (with wild cards (m, 32): 32-byte wild rows), each a legal move
    of the player to move; else TypeError or ValueError naming the move."""
    if isinstance(moves, (str, bytes, Move)):
        raise TypeError("moves must be a sequence of Moves (e.g. a MoveList)")
    # bounded before it is read: an endless iterable is refused, not materialised
    move_list = list(itertools.islice(moves, MAX_MOVES + 1))
    cdef Py_ssize_t nm = len(move_list), m
    if nm > MAX_MOVES:
        raise ValueError(f"moves: more than {MAX_MOVES} moves")
    rows = np.zeros((nm, 2 * HB if s.wmask else HB), dtype=np.uint8)
    cdef unsigned char[:, ::1] rv = rows
    cdef Move mv
    cdef MoveInfo mi
    cdef object legal = None
    if s.wmask and nm:
        # (with wild cards a move is legal when gs_gen lists it: list once,
        # not once a move as gs_move_legal would)
        legal = _wild_rows_listed(s, rc) if s.phase == PH_PLAY else frozenset()
    for m in range(nm):
        if not isinstance(move_list[m], Move):
            raise TypeError(f"moves[{m}] is a {type(move_list[m]).__name__}, not a Move")
        mv = <Move>move_list[m]
        if not 0 <= mv.kind_ <= K_ROCKET:
            raise ValueError(f"moves[{m}] is an uninitialised Move")
        memcpy(&rv[m, 0], mv.c, 15)
        rv[m, KIND_BYTE] = <unsigned char>mv.kind_
        if s.wmask:
            memcpy(&rv[m, W_PHYS], mv.p, 15)
            rv[m, W_CLASS] = <unsigned char>bomb_class(mv.kind_, mv.c, mv.p, s.wmask)
        elif memcmp(mv.c, mv.p, 15) != 0:
            raise ValueError(f"moves[{m}] ({mv}) reads wild cards, and this game has none")
        if legal is not None:
            if bytes(rows[m]) not in legal:
                raise ValueError(f"moves[{m}] ({mv}) is not a legal move now")
        elif not gs_move_legal(s, rc, &rv[m, 0], &mi):
            raise ValueError(f"moves[{m}] ({mv}) is not a legal move now")
    return rows


cdef frozenset _wild_rows_listed(const GState* s, const RulesC* rc):
    # The 32-byte wild rows gs_gen lists now (the legal moves of the mover).
    cdef Out o
    cdef Py_ssize_t i
    if not out_init(&o, 256, False):
        raise MemoryError("out of memory generating moves")
    try:
        gs_gen(s, rc, &o)
        if o.oom:
            raise MemoryError("out of memory generating moves")
        return frozenset([(<char*>o.data)[i * ROW:i * ROW + 2 * HB] for i in range(0, o.n, 2)])
    finally:
        out_free(&o)


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
            missing -= s.o_last[W_PHYS + i] if s.o_wmask else s.o_last[i]   # (the cards it played)
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
    cdef Py_ssize_t k = 17 + (HB if resolve_rules(rules).wild_ranks else 0)   # bytes an action
    if not isinstance(origin, tuple) or not origin or not isinstance(actions, bytes) or len(actions) % k:
        raise ValueError("not a pickled Game")
    if origin[0] == "deal" and len(origin) == 3:
        g = Game(rules, seed=origin[1])
        for i in range(as_int(origin[2], "deal number", 0, 1 << 20)):  # no-cython-lint
            gs_redeal(&g.st)
    elif origin[0] == "position" and len(origin) == 2 and isinstance(origin[1], dict):
        g = Game.from_position(rules=rules, **origin[1])
    else:
        raise ValueError("not a pickled Game")
    a = <const unsigned char*>actions
    for i in range(len(actions) // k):
        if a[i * k] == A_MOVE:
            if g.st.phase != PH_PLAY or not gs_move_legal(&g.st, g.rc, a + i * k + 1, &mi):
                raise ValueError(f"not a pickled Game: action {i} is illegal")
            gs_play(&g.st, a + i * k + 1, &mi)
        else:
            if a[i * k] >= N_AUCTION_CODES or not gs_auction_legal(&g.st, a[i * k]):
                raise ValueError(f"not a pickled Game: action {i} is illegal")
            gs_auction_step(&g.st, a[i * k])
    return g


cdef const GState* game_state(object game) except NULL:
    """The state of a Game, for other compiled modules (read it, never write
    it); TypeError for anything else or a Game never initialised."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a ddz_fast.Game, not {type(game).__name__}")
    (<Game>game)._check()
    return &(<Game>game).st
