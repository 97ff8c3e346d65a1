# The rules registry: each distinct set of move options gets a small id
# (0..1023), the index of its C struct.  Every compiled module turns Rules into
# RulesC here, so that it is done in one place.
from cpython.ref cimport PyObject

from .kernels cimport RulesC, u64, _hand_words

cdef enum:
    VALID_BITS = 64              # ids below this get a Move.valid_for bit


cdef inline unsigned long long valid_bit(int cid) noexcept nogil:
    # Move.valid_for has 64 bits; moves of later option sets are re-checked.
    if 0 <= cid < VALID_BITS:
        return (<unsigned long long>1) << cid
    return 0


# The last preset name or Rules object looked up (a strong reference, or
# NULL) and its id: a program passes the same object call after call, so
# most lookups compare one pointer, inline.  A str is immutable and a Rules
# keeps its id (cached on it), so the pair stays true; both are written with
# the GIL held and no Python code in between, and never without a GIL (see
# _remember in _core/registry.pyx).
cdef PyObject* last_rules
cdef int last_rules_id


# Registry id of a preset name or a Rules (validated, registered on first use).
cdef inline int rules_id(object rules) except -1:
    if <PyObject*>rules is last_rules:
        return last_rules_id
    return rules_id_slow(rules)


cdef int rules_id_slow(object rules) except -1
# The C rules of a preset name or a Rules (validated, registered).
cdef const RulesC* rules_c(object rules) except NULL
# The C rules of registry id `cid` (one the registry gave out).
cdef const RulesC* rules_table
cdef inline const RulesC* rules_by_id(int cid) noexcept nogil:
    return &rules_table[cid]
# A Rules with the options of id `cid`, or None for an unknown id (-1).
cdef object rules_of(int cid)


cdef inline bint within_words(u64 lo, u64 hi, const RulesC* rc) noexcept nogil:
    # The kernels' invariant: no more cards of a rank than the deck holds,
    # on the two words of the 15 counts (_hand_words).  A byte b is over its
    # limit L when b + (127 - L) reaches 128, or b itself does (then any
    # carry into the next byte only adds to a verdict already reached);
    # limits are <= 8.
    cdef u64 c = <u64>(127 - rc.max_count), j = <u64>(127 - rc.max_joker)
    return (((lo + c * 0x0101010101010101ULL) | lo) & 0x8080808080808080ULL) == 0 and (
        ((hi + c * 0x0000000101010101ULL + j * 0x0001010000000000ULL) | hi) & 0x0080808080808080ULL) == 0


cdef inline bint within(const unsigned char* h, const RulesC* rc) noexcept nogil:
    # within_words of the 15 counts at h
    cdef u64 lo, hi
    _hand_words(h, &lo, &hi)
    return within_words(lo, hi, rc)


# ValueError naming the first slot over the deck of the registered C rules
# (whatever a Python-level check said: a Rules object changed after it was
# registered must not get more cards than the deck into a kernel).
cdef int check_within(const unsigned char* h, const RulesC* rc) except -1
