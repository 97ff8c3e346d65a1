"""Validation at the boundary of the fast path.

For every bad input the fast path must raise the same exception type as the
reference engine (TypeError for a wrong type or dtype, ValueError for a wrong
shape, length or value), never crash and never return garbage; inputs that
are merely unusual (non-contiguous or read-only arrays, other integer dtypes,
text spellings) must give exactly the reference's results.  The batch calls
have no reference counterpart: they must raise what the reference raises for
the offending hand or move.
"""
import functools
import pickle
import subprocess
import sys

import numpy as np
import pytest

from ddz_fast._util.checks import MAX_THREADS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast as fast
from ddz_fast import PASS, PRESETS, Kind, Move, MoveList, Rules
from ddz_fast import reference as ref

K = Kind
HSETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(fn, *args, **kwargs):
    """('raises', exception type) or ('ok', result as plain data)."""
    try:
        result = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return ("raises", type(e))
    if isinstance(result, (MoveList, list)):
        return ("ok", [(m.kind, m.counts, m.rank, m.length) for m in result])
    if isinstance(result, Move):
        return ("ok", (result.kind, result.counts, result.rank, result.length))
    return ("ok", result)


def _short(x, limit=300):
    text = repr(x)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def same_outcome(name, *args, **kwargs):
    """Run `name` on both engines; assert the same result or the same
    exception type (and that errors are TypeError/ValueError, or the
    library's own subclasses of them)."""
    f = outcome(getattr(fast, name), *args, **kwargs)
    r = outcome(getattr(ref, name), *args, **kwargs)
    assert f == r, (f"{name}{args!r} {kwargs!r}: fast {f[0]} {_short(f[1])} vs "
                    f"reference {r[0]} {_short(r[1])}")
    if f[0] == "raises":
        assert issubclass(f[1], (TypeError, ValueError)), f
    return f


def strided(values, dtype=np.uint8, step=3):
    """A non-contiguous view holding `values`."""
    base = np.zeros(len(values) * step, dtype=dtype)
    base[::step] = values
    view = base[::step]
    assert len(values) < 2 or not view.flags.c_contiguous
    return view


HAND = [1, 2, 3, 3, 0, 1, 1, 1, 2, 0, 0, 1, 2, 1, 1]      # 19 cards, valid in every preset
FOUR_HAND = [8, 0, 5, 3, 3, 2, 0, 1, 1, 0, 0, 0, 4, 2, 1]  # valid for two decks only

# ---------------------------------------------------------------------------
# Hands: bad and unusual forms
# ---------------------------------------------------------------------------

HAND_INPUTS = {
    # unusual but valid
    "list": lambda: list(HAND),
    "tuple": lambda: tuple(HAND),
    "uint8": lambda: np.array(HAND, dtype=np.uint8),
    "int64": lambda: np.array(HAND, dtype=np.int64),
    "uint16": lambda: np.array(HAND, dtype=np.uint16),
    "int8": lambda: np.array(HAND, dtype=np.int8),
    "big-endian int32": lambda: np.array(HAND, dtype=">i4"),
    "strided uint8": lambda: strided(HAND),
    "reversed uint8": lambda: np.array(HAND[::-1], dtype=np.uint8)[::-1],
    "column of 2-D uint8": lambda: np.ascontiguousarray(np.array([HAND, HAND[::-1]], dtype=np.uint8).T)[:, 0],
    "read-only uint8": lambda: np.frombuffer(bytes(HAND), dtype=np.uint8),
    "broadcast uint8": lambda: np.broadcast_to(np.uint8(1), (15,)),
    "strided int64": lambda: strided(HAND, np.int64),
    "numpy ints in a list": lambda: [np.int64(x) for x in HAND],
    "text": lambda: "3445556667899TJJA22BR",
    "text with separators": lambda: "3 4,4-5+5/5|10 10 x d",
    "str subclass text": lambda: np.str_("3445556667899TJJA22BR"),
    "empty list of counts": lambda: [0] * 15,
    "empty text": lambda: "",
    # bad types
    "float64 array": lambda: np.array(HAND, dtype=np.float64),
    "float32 strided": lambda: strided(HAND, np.float32),
    "bool array": lambda: np.array([bool(x) for x in HAND]),
    "object array": lambda: np.array(HAND, dtype=object),
    "complex array": lambda: np.array(HAND, dtype=complex),
    "str array": lambda: np.array([str(x) for x in HAND]),
    "float in list": lambda: HAND[:14] + [1.0],
    "bool in list": lambda: HAND[:14] + [True],
    "None in list": lambda: HAND[:14] + [None],
    "str in list": lambda: HAND[:14] + ["1"],
    "bytes": lambda: bytes(HAND),
    "bytearray": lambda: bytearray(HAND),
    "None": lambda: None,
    "int": lambda: 5,
    "float": lambda: 5.0,
    # bad shapes and lengths
    "2-D (1, 15)": lambda: np.array([HAND], dtype=np.uint8),
    "2-D (15, 1)": lambda: np.array(HAND, dtype=np.uint8)[:, None],
    "2-D (3, 5)": lambda: np.array(HAND, dtype=np.uint8).reshape(3, 5),
    "0-D": lambda: np.uint8(3),
    "uint8 (14,)": lambda: np.array(HAND[:14], dtype=np.uint8),
    "uint8 (16,)": lambda: np.array(HAND + [0], dtype=np.uint8),
    "empty array": lambda: np.zeros(0, dtype=np.uint8),
    "list of 14": lambda: HAND[:14],
    "list of 16": lambda: HAND + [0],
    "empty list": lambda: [],
    "dict": lambda: {i: c for i, c in enumerate(HAND)},
    # bad values
    "negative in list": lambda: [-1] + HAND[1:],
    "negative int8": lambda: np.array([-1] + HAND[1:], dtype=np.int8),
    "negative int64 strided": lambda: strided([-1] + HAND[1:], np.int64),
    "5 threes": lambda: [5] + HAND[1:],
    "5 threes uint8": lambda: np.array([5] + HAND[1:], dtype=np.uint8),
    "5 threes strided uint8": lambda: strided([5] + HAND[1:]),
    "2 low jokers uint8": lambda: np.array(HAND[:13] + [2, 1], dtype=np.uint8),
    "2 high jokers": lambda: HAND[:14] + [2],
    "255 uint8": lambda: np.array([255] + HAND[1:], dtype=np.uint8),
    "int64 out of uint8 range": lambda: np.array([256] + HAND[1:], dtype=np.int64),
    "int64 huge": lambda: np.array([2 ** 40] + HAND[1:], dtype=np.int64),
    "int64 huge negative": lambda: np.array([-(2 ** 40)] + HAND[1:], dtype=np.int64),
    "uint64 huge": lambda: np.array([2 ** 63] + HAND[1:], dtype=np.uint64),
    "python int huge": lambda: [2 ** 70] + HAND[1:],
    "text 5 threes": lambda: "33333",
    "text two low jokers": lambda: "BB",
    "text bad token": lambda: "334Z",
    "text 1 without 0": lambda: "31",
    "text eleven": lambda: "11",
}

FOUR_HAND_INPUTS = {
    "four uint8": lambda: np.array(FOUR_HAND, dtype=np.uint8),
    "four strided": lambda: strided(FOUR_HAND),
    "four list": lambda: list(FOUR_HAND),
    "four 9 threes": lambda: np.array([9] + FOUR_HAND[1:], dtype=np.uint8),
    "four 3 low jokers": lambda: FOUR_HAND[:13] + [3, 1],
    "four text": lambda: "33333333BBRR",
    "four text 9 threes": lambda: "333333333",
}


@pytest.mark.parametrize("make", list(HAND_INPUTS.values()), ids=list(HAND_INPUTS))
@pytest.mark.parametrize("rules", ["standard", "strict", "four"])
def test_hand_inputs(make, rules):
    same_outcome("legal_moves", make(), rules=rules)
    same_outcome("classify", make(), rules=rules)


@pytest.mark.parametrize("make", list(FOUR_HAND_INPUTS.values()), ids=list(FOUR_HAND_INPUTS))
@pytest.mark.parametrize("rules", ["standard", "four", Rules(players=4, decks=2, both_jokers_as_kickers=True)])
def test_two_deck_hand_inputs(make, rules):
    same_outcome("legal_moves", make(), rules=rules)
    same_outcome("classify", make(), rules=rules)


@pytest.mark.parametrize("make", list(HAND_INPUTS.values()), ids=list(HAND_INPUTS))
def test_hand_inputs_as_response(make):
    last = ref.parse_move("7")
    same_outcome("legal_moves", make(), last)
    same_outcome("legal_moves", make(), PASS)


def _single_hand_form(hand):
    """Does count_moves document this input as one hand (text, a 1-D array,
    or a list/tuple of 15 ints)?"""
    if isinstance(hand, str):
        return True
    if isinstance(hand, np.ndarray):
        return hand.ndim == 1
    return isinstance(hand, (list, tuple)) and len(hand) == 15 and all(type(x) is int for x in hand)


@pytest.mark.parametrize("make", list(HAND_INPUTS.values()), ids=list(HAND_INPUTS))
def test_count_moves_single_hand_inputs(make):
    """count_moves(one hand) counts what legal_moves lists, and raises what
    it raises.  Inputs that are not a documented single-hand form go to the
    batch path: they must still be rejected when the reference rejects them
    (the batch path may see e.g. a bytearray as a (15,) array: ValueError
    rather than TypeError)."""
    hand = make()
    r = outcome(ref.legal_moves, hand)
    f = outcome(fast.count_moves, hand)
    if _single_hand_form(hand):
        assert f == (r if r[0] == "raises" else ("ok", len(r[1])))
    elif isinstance(hand, np.ndarray) and hand.ndim == 2 and hand.shape[1] == 15:
        pass  # a batch of hands, see test_batch.py
    elif r[0] == "raises":
        assert f[0] == "raises" and f[1] in (TypeError, ValueError), f


# ---------------------------------------------------------------------------
# Hypothesis fuzz of the array boundary
# ---------------------------------------------------------------------------

DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64,
          np.float64, np.bool_]


@st.composite
def odd_arrays(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from([(15,), (15,), (15,), (14,), (16,), (1, 15), (15, 1), (0,)]))
    size = int(np.prod(shape))
    values = draw(st.lists(st.integers(-2, 9), min_size=size, max_size=size))
    arr = np.array(values).astype(dtype).reshape(shape)
    if draw(st.booleans()) and arr.ndim == 1:
        arr = strided(arr, dtype=dtype, step=draw(st.integers(2, 4)))
    if draw(st.booleans()):
        arr.flags.writeable = False
    return arr


@pytest.mark.parametrize("rules", ["standard", "four"])
@settings(max_examples=500, **HSETTINGS)
@given(arr=odd_arrays())
def test_fuzz_hand_arrays(rules, arr):
    same_outcome("legal_moves", arr, rules=rules)
    same_outcome("classify", arr, rules=rules)
    same_outcome("legal_moves", arr, ref.parse_move("3", rules=rules), rules=rules)


@functools.lru_cache(maxsize=None)
def _real_moves():
    return tuple(ref.legal_moves("33344455566677BR2")) + tuple(ref.legal_moves("33334444BR"))


@st.composite
def forged_moves(draw):
    kind = draw(st.integers(1, 14))
    counts = draw(st.lists(st.integers(0, 3), min_size=15, max_size=15))
    if draw(st.booleans()):
        # start from a real move and maybe spoil one field
        m = draw(st.sampled_from(_real_moves()))
        kind, counts = int(m.kind), list(m.counts)
        rank, length = m.rank, m.length
        spoil = draw(st.sampled_from(["none", "kind", "rank", "length", "card"]))
        if spoil == "kind":
            kind = draw(st.integers(1, 14))
        elif spoil == "rank":
            rank = draw(st.integers(-1, 14))
        elif spoil == "length":
            length = draw(st.integers(0, 12))
        elif spoil == "card":
            counts[draw(st.integers(0, 14))] = draw(st.integers(0, 4))
        return Move._make(kind, counts, rank, length)
    return Move._make(kind, counts, draw(st.integers(-1, 14)), draw(st.integers(0, 12)))


@pytest.mark.parametrize("rules", ["standard", "strict", "four"])
@settings(max_examples=400, **HSETTINGS)
@given(last=forged_moves(), other=forged_moves())
def test_fuzz_forged_last_moves(rules, last, other):
    """Moves forged with Move._make (any kind, cards, rank, length): the
    fast path accepts exactly the ones the reference accepts."""
    same_outcome("legal_moves", "", last, rules=rules)
    same_outcome("legal_moves", "3", last, rules=rules)
    same_outcome("beats", last, other, rules=rules)
    same_outcome("beats", other, last, rules=rules)
    same_outcome("beats", last, PASS, rules=rules)


# ---------------------------------------------------------------------------
# Last moves
# ---------------------------------------------------------------------------

def _std(text, kind=None):
    return ref.parse_move(text, kind, rules="standard")


LAST_CASES = {
    # (hand, last factory, rules)
    "not a Move: str": ("345", lambda: "33", "standard"),
    "not a Move: tuple": ("345", lambda: (0,) * 15, "standard"),
    "not a Move: int": ("345", lambda: 3, "standard"),
    "not a Move: Kind": ("345", lambda: K.PAIR, "standard"),
    "four-two-solo under four": ("5555", lambda: _std("333345", K.FOUR_TWO_SOLO), "four"),
    "four-two-pair under four": ("5555", lambda: _std("33334466", K.FOUR_TWO_PAIR), "four"),
    "trio-solo under four": ("5555", lambda: _std("3334", K.TRIO_SOLO), "four"),
    "airplane-solo under four": ("5555", lambda: _std("33344456", K.AIRPLANE_SOLO), "four"),
    "5-card bomb under standard": ("5555", lambda: ref.parse_move("33333", rules="four"), "standard"),
    "joker pair under standard": ("5555", lambda: ref.parse_move("BB", rules="four"), "standard"),
    "4-joker rocket under standard": ("5555", lambda: ref.parse_move("BBRR", rules="four"), "standard"),
    "2-joker rocket under four": ("5555", lambda: _std("BR"), "four"),
    "equal airplane singles under strict": ("5555", lambda: _std("33344455", K.AIRPLANE_SOLO), "strict"),
    "equal four singles under standard": (
        "5555", lambda: ref.parse_move("333355", K.FOUR_TWO_SOLO, rules=Rules(four_two_solo_distinct=False)),
        "standard"),
    "both jokers as kickers under standard": (
        "5555", lambda: ref.parse_move("333444BR", K.AIRPLANE_SOLO, rules=Rules(both_jokers_as_kickers=True)),
        "standard"),
    "both joker pairs under four": (
        "5555", lambda: ref.parse_move("333444BBRR", K.AIRPLANE_PAIR,
                                       rules=PRESETS["four"].replace(both_jokers_as_kickers=True)),
        "four"),
    "forged wrong rank": ("5555", lambda: Move._make(K.SOLO, _std("3").counts, 5, 1), "standard"),
    "forged wrong length": ("5555", lambda: Move._make(K.CHAIN, _std("34567").counts, 4, 4), "standard"),
    "forged airplane-solo low reading": (
        "5555", lambda: Move._make(K.AIRPLANE_SOLO, _std("333444555666", K.AIRPLANE_SOLO).counts, 2, 3),
        "standard"),
    "forged wrong kind": ("5555", lambda: Move._make(K.PAIR, [1, 1] + [0] * 13, 1, 1), "standard"),
    "forged over the deck": ("5555", lambda: Move._make(K.BOMB, [5] + [0] * 14, 0, 1), "standard"),
    "forged 9-card bomb, four": ("5555", lambda: Move._make(K.BOMB, [9] + [0] * 14, 0, 1), "four"),
    "forged empty SOLO": ("5555", lambda: Move._make(K.SOLO, [0] * 15, 0, 1), "standard"),
    "hand + last over the deck": ("3333", lambda: _std("3"), "standard"),
    "hand + last over the deck, jokers": ("B", lambda: _std("BR"), "standard"),
    "hand + last over the deck, four": ("33333333", lambda: ref.parse_move("3", rules="four"), "four"),
    "hand + last over the deck, four jokers": ("BBR", lambda: ref.parse_move("BBRR", rules="four"), "four"),
    "hand + last fits exactly": ("333", lambda: _std("3"), "standard"),
    "fits exactly, four": ("3333333", lambda: ref.parse_move("3", rules="four"), "four"),
}


@pytest.mark.parametrize("case", list(LAST_CASES))
def test_last_inputs(case):
    hand, make_last, rules = LAST_CASES[case]
    last = make_last()
    same_outcome("legal_moves", hand, last, rules=rules)
    same_outcome("legal_moves", np.array(fast.to_counts(hand, rules=rules)), last, rules=rules)
    same_outcome("beats", last, PASS, rules=rules)
    same_outcome("beats", _std("2") if rules != "four" else ref.parse_move("2", rules="four"),
                 last, rules=rules)


def test_moves_validated_under_one_rules_are_checked_under_others():
    """Moves from the fast path carry an 'already validated' mark for the
    rules that made them; under other rules they are validated again."""
    for make in (lambda: fast.legal_moves("333345"), lambda: fast.classify("333345"),
                 lambda: [fast.parse_move("333345")]):
        m = [x for x in make() if x.kind == K.FOUR_TWO_SOLO][0]
        with pytest.raises(ValueError):
            fast.legal_moves("5555", m, rules="four")
        with pytest.raises(ValueError):
            fast.beats(m, PASS, rules="four")
        assert fast.beats(m, PASS, rules="standard") is True
    m = [x for x in fast.legal_moves("333444BR", rules=Rules(both_jokers_as_kickers=True))
         if x.kind == K.AIRPLANE_SOLO and x.cards == "333444BR"][0]
    for rules in ("standard", "strict", Rules(four_two_solo_distinct=False)):
        same_outcome("legal_moves", "5", m, rules=rules)
    assert fast.legal_moves("5", m, rules=Rules(both_jokers_as_kickers=True)) == [PASS]


def test_forged_pass_with_cards():
    """A PASS-kind move that holds cards is no legal move.

    BUG (in the reference, as of HEAD 492a274; an uncommitted change to
    reference.check_move addresses it): check_move accepts any move of kind
    PASS without looking at its cards, so
    ``reference.legal_moves("3", Move._make(Kind.PASS, <one 3>, -1, 0))``
    returns the lead list [3] (and a PASS with rank 5 is accepted too); the
    fast path raises ValueError ('3' is not a PASS).  Expected: both raise
    ValueError."""
    forged = Move._make(K.PASS, [1] + [0] * 14, -1, 0)
    with pytest.raises(ValueError):
        fast.legal_moves("3", forged)
    with pytest.raises(ValueError):
        ref.legal_moves("3", forged)


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

BAD_RULES = {
    "unknown preset": "nope",
    "wrong case": "Standard",
    "empty name": "",
    "None": None,
    "int": 3,
    "dict": {"decks": 1},
    "Rules class": Rules,
}


@pytest.mark.parametrize("rules", list(BAD_RULES.values()), ids=list(BAD_RULES))
def test_bad_rules(rules):
    same_outcome("legal_moves", "345", rules=rules)
    same_outcome("legal_moves", "345", _std("3"), rules=rules)
    same_outcome("classify", "345", rules=rules)
    same_outcome("beats", _std("4"), _std("3"), rules=rules)
    same_outcome("parse_move", "33", rules=rules)
    r = outcome(ref.legal_moves, "345", rules=rules)
    assert r[0] == "raises"
    hands = np.array([fast.to_counts("345")], dtype=np.uint8)
    assert outcome(fast.legal_moves_batch, hands, rules=rules) == r
    assert outcome(fast.count_moves, hands, rules=rules) == r
    assert outcome(fast.count_moves, "345", rules=rules) == r


def test_parse_pass_with_bad_rules():
    """BUG (HEAD 492a274; an uncommitted change to _core/entry.pyx/moves.py fixes
    it): fast.parse_move returns PASS for "pass" without resolving the
    rules: ``parse_move("pass", rules="nope")`` gives Move(PASS) where the
    reference raises ValueError (unknown rules preset 'nope')."""
    same_outcome("parse_move", "pass", rules="nope")


@pytest.mark.parametrize("make_name", [np.str_, type("Name", (str,), {})], ids=["np.str_", "str subclass"])
def test_rules_name_as_str_subclass(make_name):
    """A preset name given as a str subclass (e.g. numpy.str_ from an array of
    names) is a valid preset name for resolve_rules and the reference.

    BUG: the fast path's registry lookup tests ``type(rules) is str``, falls
    through to a path that returns -1 without an exception, and every entry
    point raises ``SystemError: <cyfunction legal_moves> returned NULL
    without setting an exception``.  Repro:
    ``ddz_fast.legal_moves("3345", rules=numpy.str_("standard"))``."""
    for name in ("standard", "strict", "four"):
        rules = make_name(name)
        same_outcome("legal_moves", "33344455BR", rules=rules)
        same_outcome("legal_moves", "33344455BR", _std("3"), rules=rules)
        same_outcome("classify", "333444", rules=rules)
        same_outcome("beats", _std("4"), _std("3"), rules=rules)
        same_outcome("parse_move", "3334", rules=rules)


def test_rules_objects_equal_to_presets():
    """Rules objects (preset instances, copies, equal custom values) give the
    preset's results."""
    hand = "33344455566677BR2"
    for name, preset in PRESETS.items():
        if preset.wild_ranks:
            continue          # (moves under wild cards: tests/test_wild_differential.py)
        h = hand if name != "four" else "33333444555666BBRR"
        want = ref.legal_moves(h, rules=name)
        for rules in (preset, preset.replace(name="copy"), pickle.loads(pickle.dumps(preset))):
            assert fast.legal_moves(h, rules=rules) == want
    assert fast.legal_moves(hand, rules=Rules(airplane_solo_distinct=True)) == ref.legal_moves(hand, rules="strict")


REMOTE_RULES = """
import pickle, sys
import ddz_fast as fast
from ddz_fast import reference as ref
fast.legal_moves("3", rules="four")          # a registry unlike the parent's
rules = pickle.loads(sys.stdin.buffer.read())
hand = "333444BR9"
f, r = fast.legal_moves(hand, rules=rules), ref.legal_moves(hand, rules=rules)
print("same" if f == r and [m.rank for m in f] == [m.rank for m in r] else f"differ: {list(f)} vs {r}")
"""


def test_pickled_rules_work_in_another_process():
    """A Rules value is plain data: pickled and loaded in another process
    (e.g. multiprocessing with the spawn start method) it must mean the same
    rules.

    BUG: the fast path caches its registry id on the Rules object
    (``_ddz_cid`` in ``__dict__``), pickle carries it, and another process
    uses whatever that id means there (an unregistered, zeroed slot, or
    other rules).  Repro: in process 1 use "standard", "four" and
    ``rules = Rules(both_jokers_as_kickers=True)`` with legal_moves, pickle
    ``rules``; in process 2 unpickle it and call
    ``legal_moves("333444BR9", rules=rules)``: the fast path works with a
    zeroed C rules slot (no decks): no joker singles, no kickers, and a
    ROCKET with no cards and rank -1; the reference lists the real moves."""
    fast.legal_moves("3", rules="standard")
    fast.legal_moves("3", rules="four")
    rules = Rules(both_jokers_as_kickers=True)
    fast.legal_moves("3", rules=rules)
    fast.legal_moves("3", rules=Rules(solo_kickers=False))
    out = subprocess.run([sys.executable, "-c", REMOTE_RULES], input=pickle.dumps(rules),
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().strip() == "same"


# ---------------------------------------------------------------------------
# parse_move and classify arguments
# ---------------------------------------------------------------------------

PARSE_CASES = [
    ("33", None), ("33", "PAIR"), ("33", "pair"), ("33", 2), ("33", K.SOLO), ("33", "BOGUS"),
    ("33", 99), ("33", -1), ("33", 2.0), ("33", True), ("33", object()), ("33", K.PASS),
    ("pass", None), ("PASS", K.PASS), (" Pass ", None), ("pass", K.PAIR), ("pass", "SOLO"),
    ("555666777888", None), ("555666777888", K.AIRPLANE), ("555666777888", K.AIRPLANE_SOLO),
    ("", None), ("   ", None), ("34", None), ("33Z", None), ("33333", None), ("BR", None),
    ("BBRR", None), (33, None), (None, None), (b"33", None), (["3", "3"], None),
]


@pytest.mark.parametrize("rules", ["standard", "strict", "four"])
@pytest.mark.parametrize("text, kind", PARSE_CASES)
def test_parse_move_arguments(rules, text, kind):
    same_outcome("parse_move", text, kind, rules=rules)


def test_parse_move_bad_text_with_bad_rules():
    """Both raise; the reference checks the rules first (ValueError), the fast
    path the text type first (TypeError).  Only the order of the checks
    differs, so this only requires that both raise."""
    assert outcome(fast.parse_move, 33, rules="nope")[0] == "raises"
    assert outcome(ref.parse_move, 33, rules="nope")[0] == "raises"


@pytest.mark.parametrize("other", [None, "3", "33", 3, (0,) * 15, K.SOLO, np.zeros(16, np.uint8)],
                         ids=repr)
def test_beats_non_moves(other):
    for move in (_std("3"), PASS):
        same_outcome("beats", move, other)
        same_outcome("beats", other, move)
    same_outcome("beats", other, other)


# ---------------------------------------------------------------------------
# Batch calls
# ---------------------------------------------------------------------------

GOOD = np.array([HAND, [0] * 15, [1] * 13 + [0, 0]], dtype=np.uint8)

BATCH_HANDS = {
    # name: (hands, exception type or None for accepted)
    "float": (GOOD.astype(np.float64), TypeError),
    "bool": (GOOD.astype(bool), TypeError),
    "object": (GOOD.astype(object), TypeError),
    "str array": (GOOD.astype(str), TypeError),
    "text": ("345", TypeError),
    "bytes": (b"345", TypeError),
    "None": (None, TypeError),
    "1-D (15,)": (GOOD[0], ValueError),
    "(N, 14)": (GOOD[:, :14], ValueError),
    "(N, 16)": (np.zeros((3, 16), dtype=np.uint8), ValueError),
    "3-D": (GOOD[None], ValueError),
    "negative": (np.array([[-1] + HAND[1:]]), ValueError),
    "over the deck": (np.array([[5] + HAND[1:]], dtype=np.uint8), ValueError),
    "2 jokers": (np.array([HAND[:13] + [2, 1]], dtype=np.uint8), ValueError),
    "int64 huge": (np.array([[2 ** 40] + HAND[1:]]), ValueError),
    "uint64 huge": (np.array([[2 ** 63] + HAND[1:]], dtype=np.uint64), ValueError),
    "ragged list": ([HAND, HAND[:14]], ValueError),
    "list of lists": (GOOD.tolist(), None),
    "strided": (np.repeat(GOOD, 2, axis=0)[::2], None),
    "int16": (GOOD.astype(np.int16), None),
}


@pytest.mark.parametrize("name", list(BATCH_HANDS))
def test_batch_hands_validation(name):
    hands, error = BATCH_HANDS[name]
    for call in (fast.legal_moves_batch, fast.count_moves):
        if call is fast.count_moves and name in ("1-D (15,)", "text"):
            assert outcome(call, hands) == ("ok", len(ref.legal_moves(hands)))  # one hand
            continue
        got = outcome(call, hands)
        if error is None:
            assert got[0] == "ok", got
        else:
            assert got == ("raises", error), (call.__name__, got)
    if name in ("negative", "over the deck", "2 jokers", "int64 huge", "uint64 huge", "float", "bool"):
        # the same error as the reference for the offending hand
        assert outcome(ref.legal_moves, np.asarray(hands)[0]) == ("raises", error)


def test_batch_hand_errors_name_the_hand():
    hands = np.array([HAND, HAND, [5] + HAND[1:]], dtype=np.uint8)
    with pytest.raises(ValueError, match="hand 2"):
        fast.legal_moves_batch(hands)


def _rows(*moves):
    return np.array([list(m.counts) + [int(m.kind)] for m in moves], dtype=np.uint8)


BATCH_LASTS = {
    # name: (lasts for the 3 hands of GOOD, exception type)
    "too few": (lambda: [None, None], ValueError),
    "too many": (lambda: [None] * 4, ValueError),
    "empty list": (lambda: [], ValueError),
    "rows too few": (lambda: np.zeros((2, 16), dtype=np.uint8), ValueError),
    "rows (N, 15)": (lambda: np.zeros((3, 15), dtype=np.uint8), ValueError),
    "rows (N, 17)": (lambda: np.zeros((3, 17), dtype=np.uint8), ValueError),
    "rows int64": (lambda: np.zeros((3, 16), dtype=np.int64), ValueError),
    "rows float": (lambda: np.zeros((3, 16)), ValueError),
    "rows 1-D": (lambda: np.zeros(16, dtype=np.uint8), ValueError),
    "row PAIR 34": (lambda: np.vstack([np.zeros((2, 16), np.uint8),
                                       [[1, 1] + [0] * 13 + [int(K.PAIR)]]]).astype(np.uint8), ValueError),
    "row kind 15": (lambda: np.array([list(_std("9").counts) + [15]] * 3, dtype=np.uint8), ValueError),
    "row kind 255": (lambda: np.array([[0] * 15 + [255]] * 3, dtype=np.uint8), ValueError),
    "row PASS with cards": (lambda: np.array([[1] + [0] * 15] * 3, dtype=np.uint8), ValueError),
    "row empty SOLO": (lambda: np.array([[0] * 15 + [1]] * 3, dtype=np.uint8), ValueError),
    "row over the deck": (lambda: np.array([[5] + [0] * 14 + [int(K.BOMB)]] * 3, dtype=np.uint8), ValueError),
    "row 5-bomb under standard": (lambda: _rows(*[ref.parse_move("99999", rules="four")] * 3), ValueError),
    "row TRIO_SOLO legal": (lambda: _rows(*[_std("999T", K.TRIO_SOLO)] * 3), None),
    "row hand + last over the deck": (lambda: _rows(_std("9"), _std("9"), _std("3333")), ValueError),
    "move hand + last over the deck": (lambda: [_std("9"), _std("9"), _std("3333")], ValueError),
    "move 5-bomb under standard": (lambda: [None, ref.parse_move("99999", rules="four"), None], ValueError),
    "move forged rank": (lambda: [None, Move._make(K.SOLO, [1] + [0] * 14, 3, 1), None], ValueError),
    "str in lasts": (lambda: [None, "9", None], TypeError),
    "int in lasts": (lambda: [None, 9, None], TypeError),
    "lasts not iterable": (lambda: 5, TypeError),
    "PASS and None": (lambda: [PASS, None, PASS], None),
}


@pytest.mark.parametrize("name", list(BATCH_LASTS))
def test_batch_lasts_validation(name):
    """Bad lasts raise TypeError (not a move) or ValueError (wrong length or
    shape, not a legal move, over the deck with the hand).

    BUG: every lasts *row* that is not a legal move ('row ...' cases) raises
    ``TypeError: card counts must be text, a sequence of 15 ints or a numpy
    array, not bytes`` instead of the intended ValueError: the error message
    is built with ``format_cards(row[:15])`` on a C array, which is bytes.
    Repro: ``legal_moves_batch(np.zeros((1, 15), np.uint8),
    np.array([[1, 1] + [0] * 13 + [2]], np.uint8))`` (a PAIR '34')."""
    make, error = BATCH_LASTS[name]
    for call in (fast.legal_moves_batch, fast.count_moves):
        got = outcome(call, GOOD, make())
        if error is None:
            assert got[0] == "ok", got
        else:
            assert got == ("raises", error), (call.__name__, got)


def test_batch_lasts_errors_match_the_reference():
    """Where a per-hand reference call exists, the batch raises its type."""
    for last, hand in [(ref.parse_move("99999", rules="four"), HAND), (_std("3333"), HAND),
                       ("9", HAND), (Move._make(K.SOLO, [1] + [0] * 14, 3, 1), HAND)]:
        r = outcome(ref.legal_moves, hand, last)
        assert r[0] == "raises"
        hands = np.array([hand], dtype=np.uint8)
        assert outcome(fast.legal_moves_batch, hands, [last]) == r
        assert outcome(fast.count_moves, hands, [last]) == r
        assert outcome(fast.count_moves, hand, last) == r


@pytest.mark.parametrize("threads", [0, -1, -100])
def test_bad_thread_counts(threads):
    for call in (fast.legal_moves_batch, fast.count_moves):
        with pytest.raises(ValueError):
            call(GOOD, threads=threads)
        with pytest.raises(ValueError):
            call(np.zeros((0, 15), dtype=np.uint8), threads=threads)
    with pytest.raises(ValueError):
        fast.count_moves("345", threads=threads)


@pytest.mark.parametrize("threads", ["2", None, [2]])
def test_thread_count_types(threads):
    for call in (fast.legal_moves_batch, fast.count_moves):
        with pytest.raises(TypeError):
            call(GOOD, threads=threads)


@pytest.mark.parametrize("threads", [2.5, 2.0, True])
def test_thread_count_not_an_int(threads):
    """threads must be an int: floats and bools are refused, never
    truncated or read as 1."""
    for call in (fast.legal_moves_batch, fast.count_moves):
        with pytest.raises((TypeError, ValueError)):
            call(GOOD, threads=threads)


def test_thread_counts_beyond_the_bound_are_refused_and_large_ones_capped():
    """threads is 1..MAX_THREADS everywhere (ddz_fast._util.checks); more threads
    than hands run as one per hand, with the same result."""
    want = fast.legal_moves_batch(GOOD)
    got = fast.legal_moves_batch(GOOD, threads=MAX_THREADS)
    assert got.rows.tobytes() == want.rows.tobytes()
    assert got.offsets.tolist() == want.offsets.tolist()
    for call in (fast.legal_moves_batch, fast.count_moves):
        with pytest.raises(ValueError, match="threads 1000000 is out of range"):
            call(GOOD, threads=10 ** 6)


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_every_count_in_every_slot_is_accepted_exactly_up_to_the_deck(rules):
    """The compiled deck check (one word test over the 15 counts) accepts a
    count of 0..255 in any slot exactly when the deck holds that many, on
    an empty hand and between neighbours at their limit, in the single and
    the batch entry points."""
    r = fast.resolve_rules(rules)
    limits = [r.max_count] * 13 + [r.max_jokers] * 2
    for beside in (False, True):
        for slot in range(15):
            others = [limits[i] if beside and abs(i - slot) == 1 else 0 for i in range(15)]
            hands = np.array([others] * 256, dtype=np.uint8)
            hands[:, slot] = np.arange(256)
            ok = np.arange(256) <= limits[slot]
            for v in range(256):
                if ok[v]:
                    fast.legal_moves(hands[v], rules=rules)
                else:
                    with pytest.raises(ValueError, match="holds at most"):
                        fast.legal_moves(hands[v], rules=rules)
            assert len(fast.count_moves(hands[ok], rules=rules)) == ok.sum()
            for v in np.flatnonzero(~ok)[[0, -1]]:
                with pytest.raises(ValueError):
                    fast.count_moves(hands[v:v + 1], rules=rules)
