# The simple bot (bots.pyx), for the playouts and the batched tables.
# bot_play: its move (the one definition of its play policy): its row (in
# o, which is scratch, or a static PASS row) and its MoveInfo in mi; last:
# the move to beat (NULL when leading); last_player -1 when leading; sizes:
# each seat's card count.  NULL when out of memory.
# bot_index: the index of that move among the position's n legal rows.
# bot_auction: its auction or doubling choice, an index into codes[0..n-1].
from .._core.kernels cimport RulesC, MoveInfo, Out

cdef const unsigned char* bot_play(const unsigned char* hand, const RulesC* rc, const MoveInfo* last,
                                   int me, int landlord, int last_player, const int* sizes, int players,
                                   Out* o, MoveInfo* mi) noexcept nogil
cdef Py_ssize_t bot_index(const unsigned char* hand, const RulesC* rc, const MoveInfo* last, int me,
                          int landlord, int last_player, const int* sizes, int players, Out* o,
                          const unsigned char* rows, Py_ssize_t n) noexcept nogil
cdef int bot_auction(const unsigned char* hand, const unsigned char* codes, int n) noexcept nogil

# The simple bot's move among the n legal 32-byte wild rows (gs_gen's list
# under wild cards); `leading`: no move to beat (else row 0 is PASS).
cdef Py_ssize_t wild_bot_index(const unsigned char* rows, Py_ssize_t n, bint leading, int me,
                               int landlord, int last_player, const int* sizes,
                               int players) noexcept nogil
