"""Hypothesis strategies for hostile and valid inputs to ddz_fast (used by
tests/fuzz/driver.py).

Valid inputs come with their canonical meaning (a tuple of 15 counts) so the
fuzz targets can check results against the reference engine; hostile inputs
cover every dtype, shape and memory layout of NumPy arrays, junk Python
values, forged moves and wrong rules.
"""
from __future__ import annotations

import random
from typing import Any, List, Tuple

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ddz_fast as ddz
from ddz_fast import Kind, Move, Rules

# standard, strict, four (+ douzero, rlcard with interop); the wild-card
# presets need wild= everywhere: their own targets draw them
PRESET_NAMES = tuple(n for n, r in ddz.PRESETS.items() if not r.wild_ranks)
RANKS = "3456789TJQKA2BR"

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
ALL_DTYPES: List[Any] = INT_DTYPES + [
    np.bool_, np.float16, np.float32, np.float64, np.complex64, np.complex128,
    np.dtype(">i2"), np.dtype(">u4"), np.dtype(">i8"), np.dtype(">f8"),
    np.dtype("<U3"), np.dtype("S2"), np.dtype("m8[s]"), np.dtype("M8[D]"),
]


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

class RulesSubclass(Rules):
    """A user subclass of Rules (allowed: it is a Rules)."""


class FakeRules:
    """A duck type with the attributes of Rules (not allowed: TypeError)."""

    players, decks, solo_kickers, four_with_kickers = 3, 1, True, True
    airplane_solo_distinct, four_two_solo_distinct = False, True
    both_jokers_as_kickers, auction, name = False, "bid", "fake"
    max_count, max_jokers = 4, 1


class BigDeckRules(Rules):
    """Overrides a deck fact the kernels depend on (must be refused)."""

    @property
    def max_count(self) -> int:  # type: ignore[override]
        return 100


class BigHandRules(Rules):
    """Overrides the hand size the deal depends on (must be refused)."""

    @property
    def hand_size(self) -> int:  # type: ignore[override]
        return 40


class UncheckedRules(Rules):
    """Skips Rules.__post_init__, so any field value gets in (must be refused)."""

    def __post_init__(self) -> None:
        pass


def tampered_rules(**fields: Any) -> Rules:
    r = Rules()
    for k, v in fields.items():
        object.__setattr__(r, k, v)
    return r


def rules_valid() -> st.SearchStrategy[Any]:
    """A preset name, a preset Rules, a custom Rules, a Rules subclass or a str subclass."""
    extra = {name: st.booleans() for name in ("airplane_bomb_kickers", "airplane_adjacent_trio_kickers")
             if hasattr(ddz.PRESETS["standard"], name)}
    custom = st.builds(
        Rules,
        players=st.just(3), decks=st.just(1), solo_kickers=st.booleans(),
        four_with_kickers=st.booleans(), airplane_solo_distinct=st.booleans(),
        four_two_solo_distinct=st.booleans(), both_jokers_as_kickers=st.booleans(),
        auction=st.sampled_from(["bid", "rob"]), **extra,
    ) | st.builds(
        Rules,
        players=st.just(4), decks=st.just(2), solo_kickers=st.booleans(),
        four_with_kickers=st.booleans(), both_jokers_as_kickers=st.booleans(),
    )
    return st.one_of(
        st.sampled_from(PRESET_NAMES),
        st.sampled_from([ddz.PRESETS[n] for n in PRESET_NAMES]),
        custom,
        st.just(RulesSubclass()),
        st.sampled_from([np.str_("standard"), np.str_("four")]),
    )


def rules_junk() -> st.SearchStrategy[Any]:
    """Things that are not rules: must raise TypeError or ValueError."""
    return st.one_of(
        st.text(max_size=12), st.none(), st.integers(), st.just(FakeRules()),
        st.just(b"standard"), st.just(["standard"]), st.just(Rules),
        st.sampled_from(["Standard", " standard", "standard\x00", "four "]),
        st.builds(BigDeckRules), st.builds(BigHandRules),
        st.builds(UncheckedRules, players=st.integers(-1, 10) | st.just(3), decks=st.integers(-1, 9) | st.just(1),
                  solo_kickers=st.sampled_from([True, 1, None, "yes"]),
                  auction=st.sampled_from(["bid", "rob", "x", None, 3])),
        st.builds(tampered_rules, decks=st.sampled_from([0, 2, 3, 255, -1, 2**70, 1.0])),
        st.builds(tampered_rules, players=st.sampled_from([0, 4, 9, 2**31, None])),
    )


def rules_any() -> st.SearchStrategy[Any]:
    return st.one_of(rules_valid(), rules_valid(), rules_junk())


def resolved(rules: Any) -> Rules:
    """The Rules of a valid rules argument (TypeError/ValueError for others,
    including a plain Rules whose fields were changed with object.__setattr__)."""
    from ddz_fast.rules import check_rules
    return check_rules(ddz.resolve_rules(str(rules) if isinstance(rules, np.str_) else rules))


def tampered(rules: Any) -> bool:
    """A plain Rules changed behind the frozen dataclass's back: the fast path
    refuses it, the pure-Python reference trusts it (no comparison)."""
    from ddz_fast.rules import check_rules
    if type(rules) is not Rules:
        return False
    try:
        check_rules(rules)
    except (TypeError, ValueError):
        return True
    return False


# ---------------------------------------------------------------------------
# Hands: canonical counts and their many input forms
# ---------------------------------------------------------------------------

def deck_of(rules: Rules) -> List[int]:
    out = []
    for r in range(15):
        out += [r] * (rules.max_jokers if r >= 13 else rules.max_count)
    return out


@st.composite
def counts_in_deck(draw: st.DrawFn, rules: Rules, max_cards: int = 20) -> Tuple[int, ...]:
    """15 counts that a deck of `rules` can hold (a random subset of it)."""
    deck = deck_of(rules)
    k = draw(st.integers(0, min(max_cards, len(deck))))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    picked = rnd.sample(deck, k)
    c = [0] * 15
    for r in picked:
        c[r] += 1
    return tuple(c)


@st.composite
def counts_out_of_deck(draw: st.DrawFn, rules: Rules) -> Tuple[int, ...]:
    """15 counts with at least one slot above the deck or negative."""
    c = list(draw(counts_in_deck(rules)))
    slot = draw(st.integers(0, 14))
    limit = rules.max_jokers if slot >= 13 else rules.max_count
    c[slot] = draw(st.one_of(st.integers(limit + 1, 300), st.integers(-300, -1),
                             st.just(256), st.just(2**63), st.just(-(2**64))))
    return tuple(c)


def layout(arr: np.ndarray, how: str) -> np.ndarray:
    """The same values in another memory layout."""
    if how == "noncontiguous" and arr.ndim >= 1:
        big = np.zeros((arr.shape[0] * 2,) + arr.shape[1:], dtype=arr.dtype)
        big[::2] = arr
        return big[::2]
    if how == "reversed" and arr.ndim >= 1:
        return arr[::-1].copy()[::-1]
    if how == "fortran":
        return np.asfortranarray(arr)
    if how == "readonly":
        arr = arr.copy()
        arr.flags.writeable = False
        return arr
    if how == "byteswapped" and arr.dtype.itemsize > 1:
        return arr.astype(arr.dtype.newbyteorder())
    if how == "column" and arr.ndim == 2:
        big = np.zeros(arr.shape[::-1], dtype=arr.dtype).T.copy(order="F")
        big[...] = arr
        return big
    return arr


LAYOUTS = ["plain", "noncontiguous", "reversed", "fortran", "readonly", "byteswapped", "column"]


def text_form(counts: Tuple[int, ...], rnd: random.Random) -> str:
    """Card text for counts, shuffled, with aliases, case and separators."""
    tokens = []
    for r, c in enumerate(counts):
        for _ in range(c):
            t = RANKS[r]
            if t == "T" and rnd.random() < 0.5:
                t = "10"
            elif t == "B" and rnd.random() < 0.3:
                t = "X"
            elif t == "R" and rnd.random() < 0.3:
                t = "D"
            if rnd.random() < 0.3:
                t = t.lower()
            tokens.append(t)
    rnd.shuffle(tokens)
    seps = ["", "", " ", ",", "-", "+", "/", "|", "\t"]
    return "".join(tok + rnd.choice(seps) for tok in tokens)


@st.composite
def hand_form(draw: st.DrawFn, counts: Tuple[int, ...]) -> Any:
    """One of the accepted input forms of the counts."""
    form = draw(st.sampled_from(["text", "list", "tuple", "npints", "array", "array", "generator"]))
    if form == "text":
        return text_form(counts, random.Random(draw(st.integers(0, 2**32))))
    if form == "list":
        return list(counts)
    if form == "tuple":
        return tuple(counts)
    if form == "npints":
        dt = draw(st.sampled_from(INT_DTYPES))
        return [dt(c) for c in counts]
    if form == "generator":
        return (c for c in counts)
    dt = draw(st.sampled_from(INT_DTYPES + [np.dtype(">i2"), np.dtype(">u8")]))
    return layout(np.array(counts, dtype=dt), draw(st.sampled_from(LAYOUTS)))


# ---------------------------------------------------------------------------
# Junk
# ---------------------------------------------------------------------------

def dtype_elements(dt: np.dtype) -> st.SearchStrategy[Any]:
    dt = np.dtype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        small = st.integers(max(int(info.min), -2), min(int(info.max), 9))
        return st.one_of(small, small, st.integers(int(info.min), int(info.max)))
    if dt.kind in "fc":
        return hnp.from_dtype(dt, allow_nan=True, allow_infinity=True)
    return hnp.from_dtype(dt)


@st.composite
def arrays_any(draw: st.DrawFn, shape: Any = None) -> np.ndarray:
    """An array of any dtype, shape (biased to (15,) and (N, 15)) and layout."""
    dt = np.dtype(draw(st.sampled_from(ALL_DTYPES)))
    if shape is None:
        shape = draw(st.one_of(
            st.just((15,)), st.tuples(st.integers(0, 4), st.just(15)),
            hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=17),
        ))
    if dt.kind in "mM":
        arr = np.zeros(shape, dtype=dt)
    else:
        arr = draw(hnp.arrays(dt, shape, elements=dtype_elements(dt)))
    return layout(arr, draw(st.sampled_from(LAYOUTS)))


def object_array(values: List[Any]) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr


class DuckMove:
    """A forged Move-like object: .kind and .counts of any value."""

    def __init__(self, kind: Any, counts: Any) -> None:
        self.kind = kind
        self.counts = counts

    def __repr__(self) -> str:
        return f"DuckMove({self.kind!r}, {self.counts!r})"


class MoveSubclass(Move):
    """A Python subclass of the compiled Move that skips Move.__init__."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: D107
        pass


def scalars_junk() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(-3, 20),
        st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**30, -1]),
        st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(),
        st.text(max_size=20), st.binary(max_size=20),
        st.sampled_from([np.int64(-1), np.uint64(2**64 - 1), np.int8(-128), np.float64("nan"),
                         np.bool_(True), np.uint8(255), np.str_("3"), np.bytes_(b"3")]),
        st.sampled_from([object(), Ellipsis, slice(None), range(15), {}, set(), frozenset()]),
    )


def junk_values() -> st.SearchStrategy[Any]:
    """Any junk: scalars, containers (nested), arrays, forged moves, rules."""
    base = scalars_junk()
    nested = st.recursive(base, lambda inner: st.lists(inner, max_size=16)
                          | st.tuples(inner, inner)
                          | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=20)
    return st.one_of(
        nested,
        st.lists(st.integers(-2, 10), min_size=0, max_size=17),
        st.lists(st.integers(), min_size=15, max_size=15),
        st.lists(st.floats(allow_nan=True), min_size=15, max_size=15),
        st.lists(st.lists(st.integers(0, 4), min_size=15, max_size=15), max_size=3),
        arrays_any(),
        st.lists(scalars_junk(), min_size=15, max_size=15).map(object_array),
        forged_moves(),
        st.sampled_from([ddz.PRESETS["standard"], Kind.BOMB, ddz.PASS]),
        st.lists(st.integers(0, 4), min_size=15, max_size=15).map(
            lambda c: np.ma.masked_array(c, mask=[i % 4 == 0 for i in range(15)])),
        st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda c: np.asmatrix(c)),
        st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda c: memoryview(bytes(c))),
        st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda c: np.array(c, np.uint8)[:, None]),
        st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda c: np.uint8(c[0])),
    )


@st.composite
def forged_moves(draw: st.DrawFn) -> Any:
    """Move-like objects that did not come from the engines' validation."""
    how = draw(st.sampled_from(["new", "subclass", "make", "duck", "duck_counts"]))
    if how == "new":
        return Move.__new__(Move)
    if how == "subclass":
        return MoveSubclass()
    if how == "make":
        kind = draw(st.one_of(st.integers(-3, 20), st.sampled_from([255, 2**31, -(2**31)])))
        counts = draw(st.one_of(
            st.lists(st.integers(0, 8), min_size=15, max_size=15),
            st.lists(st.integers(-2, 300), min_size=0, max_size=17),
        ))
        rank = draw(st.integers(-2, 20))
        length = draw(st.integers(-1, 20))
        try:
            return Move._make(kind, counts, rank, length)
        except (TypeError, ValueError):
            return Move.__new__(Move)
    if how == "duck":
        return DuckMove(draw(st.one_of(st.integers(-1, 16), st.sampled_from(list(Kind)))),
                        tuple(draw(st.lists(st.integers(0, 4), min_size=15, max_size=15))))
    return DuckMove(draw(st.sampled_from(list(Kind))), draw(st.one_of(
        st.lists(st.integers(0, 2), min_size=0, max_size=20),
        st.lists(st.floats(0, 3), min_size=15, max_size=15),
        st.lists(st.booleans(), min_size=15, max_size=15),
        st.just("33"), st.none(),
    )))


@st.composite
def moves_from(draw: st.DrawFn, rules: Any, max_cards: int = 20) -> Move:
    """A legal move (or PASS) of some hand under `rules` (any preset)."""
    r = resolved(rules)
    hand = draw(counts_in_deck(r, max_cards))
    moves = list(ddz.legal_moves(hand, rules=r))
    if not moves:
        return ddz.PASS
    return moves[draw(st.integers(0, len(moves) - 1))]


def any_move(rules: Any) -> st.SearchStrategy[Any]:
    """A move legal under `rules`, a move of another preset, PASS, None, a forged move or junk."""
    return st.one_of(
        moves_from(rules), moves_from(rules), moves_from(rules),
        st.sampled_from(PRESET_NAMES).flatmap(moves_from),
        st.sampled_from([ddz.PASS, None]),
        st.sampled_from(["66666", "BBRR", "BB", "RR", "88888888", "33344455BB"]).map(
            lambda t: ddz.parse_move(t, rules="four")),
        forged_moves(),
        scalars_junk(),
    )
