# C-level access to the fast path's rules registry, for other compiled
# modules (the playouts) so that Rules -> RulesC is done in one place.
from ._kernels cimport RulesC

cdef const RulesC* rules_c(object rules) except NULL
