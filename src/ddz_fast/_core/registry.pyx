# cython: language_level=3
"""The rules registry: each distinct set of move options gets a small id
(0..1023), the index of its C struct in one table; ids below 64 are also a bit
in ``Move.valid_for`` (the presets register first, so they always get one).

Every compiled module turns a preset name or a :class:`~ddz_fast.Rules` into
the kernels' C rules through :func:`rules_id` here.
"""
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF

import threading

from .._util.checks import plain_str
from ..rules import MOVE_OPTIONS, PRESETS, WILD_RANKS, Rules, check_rules, resolve_rules

__all__ = []     # a C-level API (_core/registry.pxd)

cdef enum:
    MAX_RULES = 1024

cdef RulesC _RULES[MAX_RULES]     # (one slot per possible option set: see _register_locked)
rules_table = _RULES
cdef int _NRULES = 0
cdef dict _RULE_IDS = {}        # move-option tuple -> id
cdef list _RULE_KEYS = []       # id -> its move-option tuple
cdef dict _BY_NAME = {}         # preset name -> id
cdef list _RULE_OBJS = []       # id -> a Rules with those options


cdef tuple _move_options(rules):
    # The registry key: the deck, the number of wild ranks and every move
    # option, in Rules field order.  (The wild count comes from the stored
    # option, never from an overridable property; an unknown value is left
    # for _register_locked to refuse.)
    return (rules.decks, WILD_RANKS.get(rules.wild, -1) if type(rules.wild) is str else -1,
            rules.bomb_doubling == "hard_x4" if type(rules.bomb_doubling) is str else None) + tuple(
        [getattr(rules, name) for name in MOVE_OPTIONS])


_REGISTER_LOCK = threading.Lock()


cdef int _register(rules, tuple key) except -1:
    # Slow path (once per distinct option set), under a lock so that two
    # threads never fill the same slot (the GIL-free build runs them at once).
    with _REGISTER_LOCK:
        return _register_locked(rules, key)


cdef int _register_locked(rules, tuple key) except -1:
    global _NRULES
    check_rules(rules)   # the C struct below sizes the kernels' work: only sound rules
    # The struct is built from `key`, the one snapshot of the options that
    # rules_id looks up, so it is checked itself: a subclass's properties
    # may answer check_rules one thing and the next getattr another.
    if type(key[0]) is not int or key[0] not in (1, 2):
        raise ValueError(f"unsupported Rules.decks {key[0]!r}")
    if type(key[1]) is not int or key[1] not in (0, 1, 2) or (key[1] and key[0] != 1):
        raise ValueError(f"unsupported wild cards {rules.wild!r} with {key[0]} decks")
    for value in key[2:]:
        if type(value) is not bool:
            raise TypeError(f"Rules move options must be bools, not {type(value).__name__}")
    cid = _RULE_IDS.get(key)
    if cid is not None:
        return cid
    if _NRULES >= MAX_RULES:  # cannot happen in practice: 4 decks-and-wild forms x 2 scorings x 128 bool sets
        raise RuntimeError("too many distinct Rules")
    # The options go through a dict keyed by the Rules field names, which
    # Cython coerces to the struct: a field missing on either side fails.
    fields = dict(zip(MOVE_OPTIONS, key[3:]))
    fields.update(id=_NRULES, decks=key[0], wild_ranks=key[1], hard_x4=key[2],
                  max_count=4 * key[0],   # (from decks itself, never from an overridable property)
                  max_joker=key[0])
    _RULES[_NRULES] = fields
    _RULE_IDS[key] = _NRULES
    _RULE_KEYS.append(key)
    _RULE_OBJS.append(rules)
    _NRULES += 1
    return _NRULES - 1


last_rules = NULL
last_rules_id = -1


cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define DDZ_GIL_DISABLED 1
    #else
    #define DDZ_GIL_DISABLED 0
    #endif
    """
    bint DDZ_GIL_DISABLED


cdef int _remember(object rules, int cid) except -1:
    # The new pair is in place before the old object is let go (its release
    # may run Python code, and so other threads).  Only with the GIL: without
    # it two threads could release the same object, or pair one object with
    # another's id, so a free-threaded build keeps no last pair.
    global last_rules, last_rules_id
    if DDZ_GIL_DISABLED:
        return cid
    cdef PyObject* old = last_rules
    Py_INCREF(rules)
    last_rules_id = cid
    last_rules = <PyObject*>rules
    Py_XDECREF(old)
    return cid


cdef int rules_id_slow(object rules) except -1:
    cdef object hit
    if type(rules) is str:
        hit = _BY_NAME.get(rules)
        if hit is None:
            preset = resolve_rules(rules)   # (raises for unknown names)
            hit = _register(preset, _move_options(preset))
            _BY_NAME[rules] = hit
        return _remember(rules, <int>hit)
    if isinstance(rules, Rules):
        # The id is cached on the object; Rules.__getstate__ leaves it out of
        # pickles, since ids are local to a process.  The last object looked
        # up is also remembered here (no attribute lookup for a Rules used
        # call after call).  The cached id is a C table index that anyone
        # can set (object.__setattr__, a subclass attribute), so it is used
        # only when it names the slot of exactly these options.
        hit = getattr(rules, "_ddz_cid", None)
        key = _move_options(rules)
        if not (type(hit) is int and 0 <= hit < _NRULES and _RULE_KEYS[hit] == key):
            hit = _register(rules, key)
            try:
                object.__setattr__(rules, "_ddz_cid", hit)
            except (AttributeError, TypeError):   # (a subclass with __slots__ or a read-only attribute)
                pass
        return _remember(rules, <int>hit)
    if isinstance(rules, str):           # a str subclass such as numpy.str_
        return rules_id(plain_str(rules, "rules"))
    resolve_rules(rules)  # raises TypeError
    raise TypeError(f"rules must be a preset name or a Rules, not {type(rules).__name__}")


# The presets take the first ids, so their moves always carry a valid bit.
for _preset in PRESETS:
    rules_id(_preset)


cdef const RulesC* rules_c(object rules) except NULL:
    return &_RULES[rules_id(rules)]


cdef object rules_of(int cid):
    return _RULE_OBJS[cid] if 0 <= cid < _NRULES else None


cdef int check_within(const unsigned char* h, const RulesC* rc) except -1:
    cdef int i
    if not within(h, rc):
        for i in range(15):
            if h[i] > (rc.max_joker if i >= 13 else rc.max_count):
                raise ValueError(f"{h[i]} cards in slot {i} ({'3456789TJQKA2BR'[i]}): "
                                 f"the deck holds at most {rc.max_joker if i >= 13 else rc.max_count}")
    return 0
