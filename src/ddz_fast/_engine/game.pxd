# The Game facade (game.pyx), for the batched game, the DouZero features and
# the solver.
from .._core.kernels cimport RulesC
from .engine cimport GState

# A new Game holding a copy of the state (``rules``: the Rules object the
# state was set up for, by gs_init with rules_by_id(rules_id(rules))).
cdef object game_from_state(const GState* s, object rules)
# The state of a Game (read-only use; TypeError for a non-Game or one never
# initialised).
cdef const GState* game_state(object game) except NULL
# For search over worlds (Game.move_values, Game.solve_values): `worlds` as
# an owned C-contiguous (n, players, 15) uint8 array that fits the state
# (mover_fixed: the mover's hand unchanged), and `moves` as an owned (m, 16)
# uint8 array of rows (kind in byte 15), each a legal move now; else
# TypeError/ValueError naming the problem.
cdef object checked_worlds(const GState* s, object worlds, bint mover_fixed)
cdef object checked_move_rows(const GState* s, const RulesC* rc, object moves)
