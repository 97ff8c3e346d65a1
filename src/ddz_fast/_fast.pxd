# C-level access to the fast path's rules registry, for other compiled
# modules (the playouts) so that Rules -> RulesC is done in one place.
from ._kernels cimport RulesC, Out
from ._move cimport Move

cdef const RulesC* rules_c(object rules) except NULL
cdef int rules_id(object rules) except -1
cdef const RulesC* rules_by_id(int cid) noexcept nogil
# A MoveList that takes over the buffer of `o` (its moves legal under `cid`).
cdef object movelist_from_out(Out* o, int cid)
# A Move made from a kernel row (trusted legal under `cid`).
cdef Move row_move(const unsigned char* row, int cid)
