# The move containers: MoveList (one hand's moves) and MoveBatch (many hands'
# moves), both a MoveRows: one block of 16-byte kernel rows with the array
# views written once.
from libc.stdint cimport int64_t

from .kernels cimport Out
from .move cimport Move


cdef class MoveRows:
    cdef unsigned char* data     # n rows of `stride` bytes
    cdef Py_ssize_t n
    cdef int stride              # ROW, or WROW for wild-card moves (_core/wild.pxd)
    cdef unsigned int wmask      # the wild ranks of wild-card rows (0: standard rows)
    cdef int cid                 # registry id the rows are legal under; -1: not trusted
    cdef object _owner           # the object whose memory data points into (None: this one)
    # Only _info is cached: it holds no reference back, so a container is
    # never part of a reference cycle and needs no GC tracking (the rows
    # view has the container as its base and is made on each access).
    cdef object _info
    cdef object _infos(self)


cdef enum:
    INLINE_ROWS = 4              # moves a MoveList holds in itself


cdef class MoveList(MoveRows):
    # A list of at most INLINE_ROWS moves (most answers late in a game) keeps
    # its rows here: no malloc and free per call.
    cdef unsigned char inline_rows[INLINE_ROWS * 16]
    cdef Py_ssize_t _find(self, Move m)


cdef class MoveBatch(MoveRows):
    cdef Py_ssize_t nh           # hands
    cdef const int64_t* off      # nh + 1 offsets into the rows (owned by _offsets)
    cdef object _offsets


# A MoveList of the rows of `o` (its moves legal under `cid`): it takes over
# o's malloc'd buffer, or copies rows still in a borrowed one; `o` is left
# empty (on an error, as it was: the caller frees it).
cdef MoveList movelist_from_out(Out* o, int cid)
# The same for wild-card rows (two of o's rows a move) read under wmask.
cdef MoveList wild_movelist_from_out(Out* o, int cid, unsigned int wmask)
# A MoveBatch over an (T, 16) uint8 rows array (wild-card moves under the
# ranks in wmask: (T, 32)) and (N + 1,) int64 offsets
# (trusted: the caller checked them), made read-only for good.
cdef MoveBatch make_batch(object rows, object offsets, int cid, unsigned int wmask=*)
