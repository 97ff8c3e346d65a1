# The rules registry: each distinct set of move options gets a small id
# (0..255), the index of its C struct.  Every compiled module turns Rules into
# RulesC here, so that it is done in one place.
from ._kernels cimport RulesC

cdef enum:
    VALID_BITS = 64              # ids below this get a Move._valid_for bit


cdef inline unsigned long long valid_bit(int cid) noexcept nogil:
    # Move._valid_for has 64 bits; moves of later option sets are re-checked.
    if 0 <= cid < VALID_BITS:
        return (<unsigned long long>1) << cid
    return 0


# Registry id of a preset name or a Rules (validated, registered on first use).
cdef int rules_id(object rules) except -1
# The C rules of a preset name or a Rules (validated, registered).
cdef const RulesC* rules_c(object rules) except NULL
cdef const RulesC* rules_by_id(int cid) noexcept nogil
# A Rules with the options of id `cid`, or None for an unknown id (-1).
cdef object rules_of(int cid)


cdef inline bint within(const unsigned char* h, const RulesC* rc) noexcept nogil:
    # The kernels' invariant: no more cards of a rank than the deck holds.
    cdef int i
    for i in range(13):
        if h[i] > rc.max_count:
            return False
    return h[13] <= rc.max_joker and h[14] <= rc.max_joker


# ValueError naming the first slot over the deck of the registered C rules
# (whatever a Python-level check said: a Rules object changed after it was
# registered must not get more cards than the deck into a kernel).
cdef int check_within(const unsigned char* h, const RulesC* rc) except -1
