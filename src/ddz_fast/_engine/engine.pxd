# The compiled game engine: the whole state of one deal as one C struct, and
# the C functions that are the only implementation of the game's rules
# (auction, table, scoring): the only rules API.  The bot (bots), world
# sampling (worlds), playouts and rollouts (playout), Game (game), the
# batched game (vec) and the solver all run on these.  See
# _engine/engine.pyx for the rules.
from libc.stdint cimport uint64_t, int64_t

from .._core.kernels cimport RulesC, MoveInfo, Out, gen_moves
from .._core.wild cimport gen_wild

cdef enum:
    MAXP = 4                 # most players
    HB = 16                  # bytes per hand row (15 counts and a zero)
    # History capacity.  A deal has at most 16 auction actions, and at most
    # one non-pass move per card (54 or 108) each followed by at most
    # players - 1 passes: 162 plies with three players, 432 with four.
    HIST_3 = 192
    HIST_4 = 448
    MAX_AUCTION = 32         # more auction actions than a deal can have

    PH_AUCTION = 0
    PH_DOUBLING = 1
    PH_PLAY = 2
    PH_OVER = 3

    # Action codes of the auction and doubling phases (also the index into
    # ddz_fast.game_values.AUCTION_ACTIONS); A_MOVE marks a play-phase move.
    A_BID0 = 0               # bid auction: pass; A_BID0 + v bids v
    A_DECLINE = 4
    A_CALL = 5
    A_ROB = 6
    A_NO_DOUBLE = 7
    A_DOUBLE = 8
    N_AUCTION_CODES = 9
    A_MOVE = 15

    # The game's action ids (docs/actions.md), one layout for every rules:
    # ids 0 .. N_AUCTION_CODES-1 are the codes above (id == code; an auction
    # uses only its own), then the moves: id MOVE_ID0 + k is move k of the
    # rules' action space (_ranks.MoveRanks; k = 0 is the play-phase PASS).
    MOVE_ID0 = N_AUCTION_CODES

    ORIGIN_DEAL = 0          # dealt from a seed (auction first)
    ORIGIN_POSITION = 1      # a given play-phase position

    LAST_NONE = -1           # last_src: the player to move leads
    LAST_ORIGIN = -2         # last_src: the move given with the position

    POLICY_RANDOM = 0
    POLICY_BOT = 1


cdef struct Entry:
    unsigned char row[16]    # the move (counts + kind byte); zeros for auction actions
    # Wild rules: the cards played (15 counts) and the bomb class (byte 15);
    # row holds the represented counts, so row and phys together are the
    # move's 32-byte wild row (_core/wild.pxd).
    unsigned char phys[16]
    short prev_last          # last_src before this action
    unsigned char seat
    unsigned char action     # A_* code
    unsigned char prev_passes


cdef struct GState:
    # -- the game (fixed) --
    int cid                  # rules registry id
    int players, decks, hand_size, kitty_size
    bint rob                 # auction "rob" (else "bid")
    int nwild                # wild ranks drawn per deal (0: no wild cards)
    bint hard_x4             # bomb_doubling "hard_x4": hard and wild bombs and rockets x4
    int origin               # ORIGIN_*
    uint64_t seed            # ORIGIN_DEAL: the deal stream's seed
    # -- the deal (fixed until a redeal) --
    int deal_number
    uint64_t rng             # deal stream after this deal's shuffle and first-bidder draw
    int first_bidder         # -1 for a position
    unsigned char start[MAXP][HB]   # hands at the origin (before the kitty)
    unsigned char kitty[HB]
    bint kitty_known
    unsigned char gone[HB]   # ORIGIN_POSITION: cards played before the origin (whose unknown)
    int o_to_move, o_landlord, o_base, o_bombs, o_doubles, o_last_player
    int o_moves[MAXP]
    unsigned char o_last[2 * HB]  # the position's move to beat (kind in byte 15; wild: a 32-byte row)
    unsigned int o_wmask     # ORIGIN_POSITION: the position's wild ranks
    bint o_has_last
    # -- now --
    int phase, to_move, landlord
    int bid, bidder, apasses, caller, robs, qpos, qlen
    int queue[MAXP]
    int base, bombs, doubles, plies
    int xbombs               # hard_x4: the bombs that multiply by 4 (one more doubling each)
    unsigned int wmask       # the deal's wild ranks (bit r: rank r; 0 until drawn)
    bint kitty_revealed
    unsigned char hands[MAXP][HB]
    unsigned char played[MAXP][HB]  # cards each seat played since the origin
    int ncards[MAXP]
    int nmoves[MAXP]         # non-pass moves per seat (the origin's included)
    int last_src             # entry index of the move to beat, or LAST_*
    int last_player
    int passes
    MoveInfo last
    # -- the result (phase PH_OVER) --
    int winner, spring
    int64_t value
    int64_t scores[MAXP]
    # -- the current deal's history (a buffer of `cap` entries owned by
    #    whoever owns the state; gs_copy keeps the destination's buffer) --
    int nh
    int cap
    Entry* hist


# The one rule of turn order, for the engine (gs_play) and the solver.
# After seat `mover` moved (`passed`: it passed), with the move to beat made
# by seat last_by[0] (-1: none, the mover led), returns the seat to move.
# Play goes round the table; a move becomes the one to beat (last_by[0] =
# mover); a pass that hands the turn back to the maker of the move to beat
# ends the round: the table clears (last_by[0] = -1) and that seat leads.
# passes[0] counts the passes in a row since the move to beat (0 once the
# table clears).  (Inline: the engine's play and the solver's every node
# call it; a caller that keeps no pass count gives a local, which the
# compiler drops.)
cdef inline int turn_after(int players, int mover, bint passed, int* last_by, int* passes) noexcept nogil:
    cdef int nxt = mover + 1
    if nxt == players:
        nxt = 0
    if not passed:
        last_by[0] = mover
        passes[0] = 0
    elif nxt == last_by[0]:
        last_by[0] = -1
        passes[0] = 0
    else:
        passes[0] += 1
    return nxt


# The 32-byte wild row of the move to beat (wild rules, last_src not LAST_NONE).
cdef inline const unsigned char* gs_last_row(const GState* s) noexcept nogil:
    if s.last_src >= 0:
        return &s.hist[s.last_src].row[0]
    return &s.o_last[0]


# The legal moves of the player to move (play phase), in list order, into o:
# 16-byte rows, or with wild cards (s.wmask) 32-byte rows, two of o's rows
# each (o.n counts 16-byte rows).  (Inline: every playout ply and every
# batched step calls it.)
cdef inline void gs_gen(const GState* s, const RulesC* rc, Out* o) noexcept nogil:
    o.n = 0
    if s.wmask:
        if s.last_src == LAST_NONE:
            gen_wild(s.hands[s.to_move], rc, s.wmask, NULL, False, o)
        else:
            gen_wild(s.hands[s.to_move], rc, s.wmask, gs_last_row(s), False, o)
        return
    gen_moves(s.hands[s.to_move], rc, NULL if s.last_src == LAST_NONE else &s.last, o)


cdef int hist_capacity(int players) noexcept nogil
cdef GState* gs_alloc(int players) noexcept nogil
cdef void gs_free(GState* s) noexcept nogil
cdef void gs_copy(GState* dst, const GState* src) noexcept nogil
cdef void gs_init(GState* s, const RulesC* rc, int players, int hand_size, bint rob) noexcept nogil
cdef void gs_new_game(GState* s, uint64_t seed) noexcept nogil
cdef int gs_choices(const GState* s, unsigned char* codes) noexcept nogil
cdef bint gs_auction_legal(const GState* s, int code) noexcept nogil
cdef void gs_auction_step(GState* s, int code) noexcept nogil
cdef bint gs_move_legal(const GState* s, const RulesC* rc, const unsigned char* row, MoveInfo* mi) noexcept nogil
cdef void gs_play(GState* s, const unsigned char* row, const MoveInfo* mi) noexcept nogil
cdef int gs_undo(GState* s) noexcept nogil
cdef int64_t stake(int base, int bombs, int doubles, int spring) noexcept nogil
# Re-deal (everyone passed in the bid auction): the next deal of the seed's
# stream, the auction from its start.
cdef void gs_redeal(GState* s) noexcept nogil
# Set the state to its position origin (ORIGIN_POSITION: the o_* fields and
# start filled and checked).
cdef void gs_reset_position(GState* s) noexcept nogil
# The action code (A_*) of an auction or doubling action object; -1 for
# anything else.
cdef int auction_code(object action) except -2
# Game.auction_level and Game.auction_leader (-1: None).
cdef int gs_auction_level(const GState* s) noexcept nogil
cdef int gs_auction_leader(const GState* s) noexcept nogil
# The observation tensor (its fields: _OBS in _engine/engine.pyx, the one
# description of it): obs_size(players, wild) floats, and the encoder that writes
# every one of them for seat `player` (Game.observation_tensor).
cdef int obs_size(int players, bint wild) noexcept nogil
cdef void gs_encode_obs(const GState* s, int player, float* out) noexcept nogil
