# The fast path's C API for other compiled modules (the game engine, the
# batched games, the solver, the action ids), in one place: the rules registry (defined in
# _registry) and kernel output made into moves (_move, _movelist).
from .registry cimport rules_c, rules_id, rules_by_id
from .move cimport row_move
from .movelist cimport movelist_from_out
from .kernels cimport RulesC, MoveInfo, Out, IdSink, ROW

cdef enum:
    # Rows of the first buffer of a single call, on the caller's stack: most
    # hands fit (a 20-card lead has 78 moves on average), so most calls
    # allocate nothing while generating.
    FIRST_ROWS = 192
    FIRST_BYTES = FIRST_ROWS * ROW

# The moves of legal_moves(hand, last, rules=rules) (rules of registry id
# cid) into `o`, which starts on `first` (FIRST_BYTES of the caller's) and
# grows into malloc'd memory past it; the caller calls out_free(o).  The
# input is checked (the documented errors), the kernel run; the number of
# cards in the hand goes into cards[0] (unless NULL).  With ids not NULL, in
# id mode (see _kernels.Out): the caller frees ids' memory unless borrowed.
cdef int _generate(object hand, object last, object rules, int cid, Out* o,
                   unsigned char* first, int* cards, IdSink* ids) except -1

# The checked input of one hand's call (legal_moves' own checks): the hand
# into h (16 bytes), the last move's MoveInfo into li; 1 when there is a
# last move to answer, 0 for a lead.
cdef int _load_position(object hand, object last, object rules, const RulesC* rc,
                        unsigned char* h, MoveInfo* li) except -1

# The batch entry points' input checks (also the kernel timer's, _testing):
# an (N, 15) uint8 C-contiguous copy of the hands, checked within the deck;
# the (N, 4) int32 MoveInfo array of one legal last move per hand, or None.
cdef object _check_batch_hands(object hands, object rules, const RulesC* rc)
cdef object _check_batch_lasts(object lasts, object hands, object rules, const RulesC* rc)
