# The one place where Python arguments become C integers (see _util/checks.pyx).
from libc.stdint cimport uint64_t

cdef long long as_int(object x, str what, long long lo, long long hi) except? -1
cdef uint64_t as_seed(object x, str what) except? 0
cdef int as_seat(object x, int players, str what) except? -1
cdef int as_threads(object x) except? -1
