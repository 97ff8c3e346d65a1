# The fast path's C API for other compiled modules (the game engine, the
# batched games, the solver, the action ids), in one place: the rules registry (defined in
# _registry) and kernel output made into moves (_move, _movelist).
from ._registry cimport rules_c, rules_id, rules_by_id
from ._move cimport row_move
from ._movelist cimport movelist_from_out
from ._kernels cimport Out

# The moves of legal_moves(hand, last, rules=rules) (rules of registry id
# cid) into a new buffer `o` that the caller frees: the input checked (the
# documented errors), the kernel run.
cdef int _generate(object hand, object last, object rules, int cid, Out* o) except -1
