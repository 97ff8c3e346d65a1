# The fast path's C API for other compiled modules (the game engine, the
# batched games, the solver), in one place: the rules registry (defined in
# _registry) and kernel output made into moves (_move, _movelist).
from ._registry cimport rules_c, rules_id, rules_by_id
from ._move cimport row_move
from ._movelist cimport movelist_from_out
