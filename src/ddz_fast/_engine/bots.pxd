# The simple bot (bots.pyx), for the playouts and the batched tables.
# bot_move: its move, an index into the n legal rows (PASS is row 0 when
# responding; last_player -1 when leading; sizes: each seat's card count).
# bot_auction: its auction or doubling choice, an index into codes[0..n-1].
cdef int bot_move(const unsigned char* rows, Py_ssize_t n, int me, int landlord, int last_player,
                  const int* sizes, int players) noexcept nogil
cdef int bot_auction(const unsigned char* hand, const unsigned char* codes, int n) noexcept nogil
