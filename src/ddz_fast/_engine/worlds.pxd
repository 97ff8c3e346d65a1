# Hidden information (worlds.pyx), for Game and search.
from libc.stdint cimport uint64_t

from .engine cimport GState

# The cards `player` cannot see (15 counts into out).
cdef void gs_unseen(const GState* s, int player, unsigned char* out) noexcept nogil
# The cards the landlord is known to hold, as seen by `player` (HB bytes
# into out; zeros before the kitty is shown or for the landlord itself).
cdef void gs_reserved(const GState* s, int player, unsigned char* out) noexcept nogil
# One world consistent with what `player` has seen (players rows of 15
# counts into out), drawn from the stream rs.
cdef void gs_sample_world(const GState* s, int player, uint64_t* rs, unsigned char* out) noexcept nogil
# n such worlds from `seed`, as a new (n, players, 15) uint8 array.
cdef object sample_worlds_array(const GState* s, int player, Py_ssize_t n, uint64_t seed)
