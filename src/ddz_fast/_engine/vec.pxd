# C-level access to the batched game's tables for other compiled modules
# (the DouZero feature encoder reads them without the GIL).
from .engine cimport GState

# The n table states of a VecGame, read-only, locked against stepping and
# resetting until vec_release (TypeError for a non-VecGame or one never
# initialised, RuntimeError while another thread steps it).
cdef GState** vec_states(object vg, Py_ssize_t* n) except NULL
cdef void vec_release(object vg)
