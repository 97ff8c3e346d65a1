# cython: language_level=3
"""Hooks for the benchmarks and the tests only: not part of the API.

Nothing in the package imports this module.  It reaches C-level pieces that
have no Python face: the move kernels timed alone from a C loop
(benchmarks/compare.py) and the field names of the C rules struct
(tests/test_rules.py), and the registry ids a Move is known legal under
(which Python cannot see or set).
"""
import time

import numpy as np

cimport numpy as cnp
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from .kernels cimport RulesC, MoveInfo, Out, ROW, out_init, out_free, gen_moves, count_moves_c
from .registry cimport rules_id, rules_by_id, rules_c
from .entry cimport _check_batch_hands, _check_batch_lasts
from .move cimport Move, wild_mask
from .wild cimport gen_wild

cnp.import_array()

__all__ = ["time_kernel", "time_wild_kernel", "rules_c_fields", "rules_c_of", "move_valid_bits"]


def time_kernel(hands, lasts=None, *, rules="standard", int repeat=5, bint count=False):
    """Best wall time (seconds) of running the move kernel over every hand
    (one reused output buffer, nothing kept), the rows written, and the best
    time of a memcpy of those bytes (the floor for writing them).  With
    count=True the closed-form counter is timed instead.  The input is
    checked as :func:`ddz_fast.legal_moves_batch` checks it."""
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    hands = _check_batch_hands(hands, rules, rc)
    infos = _check_batch_lasts(lasts, hands, rules, rc)
    cdef const unsigned char* hp = <const unsigned char*>cnp.PyArray_DATA(hands)
    cdef const MoveInfo* lp = NULL if infos is None else <const MoveInfo*>cnp.PyArray_DATA(infos)
    cdef Py_ssize_t n = hands.shape[0], i, total = 0, acc = 0
    cdef Out o
    cdef int _rep
    cdef double best = 1e300, best_copy = 1e300, t
    cdef unsigned char* src
    cdef unsigned char* dst
    if not out_init(&o, 4096, False):
        raise MemoryError()
    try:
        for _rep in range(repeat):
            t = time.perf_counter()
            with nogil:
                total = 0
                for i in range(n):
                    if count:
                        total += count_moves_c(hp + i * 15, rc, NULL if lp == NULL else &lp[i])
                    else:
                        o.n = 0
                        gen_moves(hp + i * 15, rc, NULL if lp == NULL else &lp[i], &o)
                        total += o.n
            t = time.perf_counter() - t
            if t < best:
                best = t
        if o.oom:
            raise MemoryError()
        # the same bytes copied: n rows of ROW bytes, in chunks of the hands' sizes
        src = <unsigned char*>malloc(total * ROW + 1)
        dst = <unsigned char*>malloc(total * ROW + 1)
        if src == NULL or dst == NULL:
            free(src)
            free(dst)
            raise MemoryError()
        memset(src, 1, total * ROW)
        for _rep in range(repeat):
            t = time.perf_counter()
            with nogil:
                memcpy(dst, src, total * ROW)
            t = time.perf_counter() - t
            if t < best_copy:
                best_copy = t
        acc = dst[total * ROW // 2] if total else 0
        free(src)
        free(dst)
    finally:
        out_free(&o)
    return best, total, best_copy + 0 * acc


def time_wild_kernel(hands, wild_ranks, *, rules="laizi", int repeat=5):
    """Best wall time (seconds) of the wild-card move kernel (gen_wild) over
    every hand, leading, each hand with its own wild rank(s) (`wild_ranks`:
    one tuple per hand), one reused output buffer; and the moves written."""
    cdef int cid = rules_id(rules)
    cdef const RulesC* rc = rules_by_id(cid)
    hands = _check_batch_hands(hands, rules, rc)
    cdef Py_ssize_t n = hands.shape[0], i, total = 0
    if len(wild_ranks) != n:
        raise ValueError(f"expected {n} wild ranks, got {len(wild_ranks)}")
    masks = np.array([wild_mask(w, rules) for w in wild_ranks], dtype=np.uint32)
    cdef const unsigned int* mp = <const unsigned int*>cnp.PyArray_DATA(masks)
    cdef const unsigned char* hp = <const unsigned char*>cnp.PyArray_DATA(hands)
    cdef Out o
    cdef int _rep
    cdef double best = 1e300, t
    if not out_init(&o, 4096, False):
        raise MemoryError()
    try:
        for _rep in range(repeat):
            t = time.perf_counter()
            with nogil:
                total = 0
                for i in range(n):
                    o.n = 0
                    gen_wild(hp + i * 15, rc, mp[i], NULL, False, &o)
                    total += o.n // 2
            t = time.perf_counter() - t
            if t < best:
                best = t
        if o.oom:
            raise MemoryError()
    finally:
        out_free(&o)
    return best, total


def rules_c_fields():
    """The field names of the C rules struct (for the test that they hold
    exactly the Rules move options)."""
    cdef RulesC rc
    memset(&rc, 0, sizeof(rc))
    return list(<dict>rc)


def rules_c_of(rules):
    """The C rules struct the registry holds for `rules`, as a dict."""
    return <dict>rules_c(rules)[0]


def move_valid_bits(Move move not None):
    """The bits of the registry ids `move` is known legal under (bit i: id i)."""
    return move.valid_for
