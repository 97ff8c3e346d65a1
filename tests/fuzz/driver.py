"""Fuzz driver: runs Hypothesis over every public entry point of ddz_fast.

Run it in its own process (tests/test_fuzz.py does), so that a segfault or
an abort fails the caller instead of killing it::

    python tests/fuzz/driver.py --examples 200 --seed 0          # CI budget
    python tests/fuzz/driver.py --examples 20000 --seed 7        # a long run
    python tests/fuzz/driver.py --only legal_moves,batch         # some targets

The contract checked for every call: it either returns a correct result
(checked against the reference engine, a round trip or an invariant) or
raises one of the documented exceptions (TypeError or ValueError; IndexError
or KeyError where documented).  Anything else -- SystemError, OverflowError,
MemoryError, RecursionError, AttributeError, a wrong result -- is reported
as a failure with the shrunk input, and the driver exits with status 1.
The last line printed is ``inputs tried: N`` (every call of a target body
counts once, shrinking included).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import pickle
import re
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ddz_fast as ddz  # noqa: E402
from ddz_fast import Game, Kind, Move, Rules, reference  # noqa: E402
from ddz_fast.cli import main as cli_main  # noqa: E402

import concurrency  # noqa: E402
import strategies as S  # noqa: E402

DOCUMENTED: Tuple[type, ...] = (TypeError, ValueError)
INPUTS = 0
TARGETS: Dict[str, Callable[..., None]] = {}


def target(fn: Callable[..., None]) -> Callable[..., None]:
    TARGETS[fn.__name__] = fn
    return fn


def tried() -> None:
    global INPUTS
    INPUTS += 1


class Raised:
    """The outcome of a call that raised a documented exception."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
        self.type = type(exc)

    def __repr__(self) -> str:
        return f"Raised({self.type.__name__}: {self.exc})"


def call(fn: Callable[..., Any], *args: Any, allowed: Tuple[type, ...] = DOCUMENTED,
         **kwargs: Any) -> Any:
    """fn(*args, **kwargs), or a Raised for a documented exception (with a
    message).  Any other exception propagates and fails the target."""
    try:
        return fn(*args, **kwargs)
    except allowed as e:
        if type(e) not in allowed and not any(type(e) is a for a in allowed):
            # A subclass of an allowed type (e.g. numpy's AxisError): still a
            # documented type, but say which.
            pass
        assert str(e), f"{type(e).__name__} without a message from {getattr(fn, '__name__', fn)}"
        return Raised(e)


def same_outcome(fast: Any, ref: Any, what: str, rules: Any = None) -> None:
    """Fast and reference both raised the same documented type, or gave equal
    results (not compared for tampered rules, which only the fast path refuses)."""
    if S.tampered(rules):
        return
    if isinstance(fast, Raised) or isinstance(ref, Raised):
        assert isinstance(fast, Raised) and isinstance(ref, Raised), \
            f"{what}: fast {fast!r} vs reference {ref!r}"
        assert fast.type is ref.type, f"{what}: fast {fast!r} vs reference {ref!r}"
        return
    assert fast == ref, f"{what}: fast {fast!r} vs reference {ref!r}"


def as_list(moves: Any) -> Any:
    return moves if isinstance(moves, Raised) else list(moves)


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

_TOKEN = re.compile(r"10|[3-9TJQKA2BRXD]", re.IGNORECASE)
_SEPS = set(" \t\n\r,-+/|")


@target
@given(text=st.one_of(st.text(), st.text(alphabet="3456789tTjJqQkKaA2bBrRxXdD10 ,-+/|\t\n\x00é"),
                      st.binary(), S.scalars_junk()),
       rules=S.rules_any())
def parse_cards(text: Any, rules: Any) -> None:
    tried()
    out = call(ddz.parse_cards, text, rules=rules)
    if isinstance(out, Raised):
        return
    # An independent tokenizer: every non-separator character is part of a token.
    assert isinstance(text, str)
    tokens = _TOKEN.findall(text)
    assert sum(len(t) for t in tokens) == sum(1 for ch in text if ch not in _SEPS), text
    want = [0] * 15
    for t in tokens:
        t = t.upper()
        want[{"10": 7, "X": 13, "D": 14}.get(t, S.RANKS.find(t))] += 1
    assert out.dtype == np.uint8 and out.shape == (15,) and out.tolist() == want
    assert ddz.parse_cards(ddz.format_cards(out, rules=rules), rules=rules).tolist() == want


@target
@given(cards=S.junk_values(), rules=S.rules_any())
def to_counts_junk(cards: Any, rules: Any) -> None:
    tried()
    out = call(ddz.to_counts, cards, rules=rules)
    if isinstance(out, Raised) or S.tampered(rules):   # (the Python layer trusts a plain Rules)
        return
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == (15,), repr(out)
    r = S.resolved(rules)
    assert all(0 <= c <= (r.max_jokers if i >= 13 else r.max_count) for i, c in enumerate(out))
    if isinstance(cards, np.ndarray):
        assert cards.dtype.kind in "iu" and np.array_equal(cards.astype(np.int64), out.astype(np.int64))
    elif isinstance(cards, (list, tuple)):
        assert [int(x) for x in cards] == out.tolist()
    text = ddz.format_cards(out, rules=rules)
    assert ddz.to_counts(text, rules=rules).tolist() == out.tolist()


@target
@given(data=st.data(), rules=S.rules_valid())
def to_counts_forms(data: st.DataObject, rules: Any) -> None:
    tried()
    r = S.resolved(rules)
    counts = data.draw(S.counts_in_deck(r, 40))
    form = data.draw(S.hand_form(counts))
    out = ddz.to_counts(form, rules=rules)
    assert out.tolist() == list(counts), (form, out)
    assert ddz.format_cards(counts, rules=rules) == "".join(
        S.RANKS[i] * c for i, c in enumerate(counts))
    bad = data.draw(S.counts_out_of_deck(r))
    got = call(ddz.to_counts, data.draw(S.hand_form(bad)) if min(bad) >= 0 and max(bad) < 128
               else list(bad), rules=rules)
    assert isinstance(got, Raised) and got.type is ValueError, (bad, got)


# ---------------------------------------------------------------------------
# Moves: single-hand entry points against the reference engine
# ---------------------------------------------------------------------------

@target
@given(data=st.data(), rules=S.rules_valid())
def legal_moves(data: st.DataObject, rules: Any) -> None:
    tried()
    r = S.resolved(rules)
    counts = data.draw(S.counts_in_deck(r, 20))
    form = data.draw(S.hand_form(counts))
    last = data.draw(S.any_move(rules))
    fast = as_list(call(ddz.legal_moves, form, last, rules=rules))
    ref = as_list(call(reference.legal_moves, counts, last, rules=r))
    same_outcome(fast, ref, f"legal_moves({counts}, {last!r}, {rules!r})")


@target
@given(hand=S.junk_values(), last=S.junk_values() | st.none(), rules=S.rules_any())
def legal_moves_junk(hand: Any, last: Any, rules: Any) -> None:
    tried()
    fast = call(ddz.legal_moves, hand, last, rules=rules)
    if isinstance(fast, Raised):
        return
    ref = reference.legal_moves(ddz.to_counts(hand, rules=S.resolved(rules)), last, rules=S.resolved(rules))
    assert list(fast) == ref


@target
@given(data=st.data(), preset=st.sampled_from(["laizi", "tiandi", "standard"]),
       wild=S.junk_values() | st.integers(-2, 15) | st.tuples(st.integers(-1, 14), st.integers(-1, 14))
       | st.sampled_from(["7", "79", "B", "77", "", "10"]) | st.none())
def wild_moves(data: st.DataObject, preset: str, wild: Any) -> None:
    """Every wild-card entry point with good and junk wild ranks, hands and
    last moves: the documented errors or the oracle's answer."""
    tried()
    counts = data.draw(S.counts_in_deck(ddz.PRESETS[preset], 12))
    hand: Any = data.draw(S.hand_form(counts) | S.junk_values())
    fast = call(ddz.legal_moves, hand, rules=preset, wild=wild)
    ranks = call(ddz.cards.parse_wild, wild, preset)
    if isinstance(fast, Raised) or isinstance(ranks, Raised) or not ranks:
        return
    ref = reference.wild_moves(ddz.to_counts(hand), rules=preset, wild=ranks)
    assert [(m.kind, m.represents, m.counts) for m in fast] == [(k, tuple(r), tuple(c)) for k, r, c in ref]
    if len(fast):
        m = fast[data.draw(st.integers(0, len(fast) - 1))]
        other = data.draw(S.junk_values() | st.just(m))
        for f in (lambda: ddz.legal_moves(counts, other, rules=preset, wild=wild),
                  lambda: ddz.beats(m, other, rules=preset, wild=wild),
                  lambda: ddz.parse_move(str(m), rules=preset, wild=wild),
                  lambda: ddz.classify(m.counts, rules=preset, wild=wild),
                  lambda: pickle.loads(pickle.dumps(m))):
            call(f)


@target
@given(data=st.data(), rules=S.rules_any())
def classify(data: st.DataObject, rules: Any) -> None:
    tried()
    valid = not isinstance(call(S.resolved, rules), Raised)
    cards: Any = data.draw(S.junk_values())
    if valid and data.draw(st.booleans()):
        r = S.resolved(rules)
        cards = data.draw(st.one_of(S.counts_in_deck(r, 14).flatmap(S.hand_form),
                                    S.moves_from(r).map(lambda m: m.counts)))
    fast = call(ddz.classify, cards, rules=rules)
    if isinstance(cards, (str, list, tuple, np.ndarray)) or isinstance(fast, Raised):
        ref = call(reference.classify, cards, rules=rules)
        same_outcome(fast, ref, f"classify({cards!r})", rules)
    for m in [] if isinstance(fast, Raised) else fast:
        assert isinstance(m, Move) and ddz.parse_move(m.cards, m.kind, rules=rules) == m


@target
@given(data=st.data(), rules=S.rules_valid())
def beats(data: st.DataObject, rules: Any) -> None:
    tried()
    a = data.draw(S.any_move(rules))
    b = data.draw(S.any_move(rules))
    fast = call(ddz.beats, a, b, rules=rules)
    ref = call(reference.beats, a, b, rules=S.resolved(rules))
    same_outcome(fast, ref, f"beats({a!r}, {b!r})")


@target
@given(data=st.data(), rules=S.rules_any(),
       kind=st.one_of(st.none(), st.sampled_from(list(Kind)), st.integers(-2, 16),
                      st.sampled_from(["bomb", " Rocket ", "PASS", "nope", 1.0, b"SOLO"])))
def parse_move(data: st.DataObject, rules: Any, kind: Any) -> None:
    tried()
    text = data.draw(st.one_of(
        st.text(max_size=30), S.scalars_junk(),
        S.moves_from(rules if isinstance(rules, (str, Rules)) and not isinstance(rules, S.FakeRules)
                     and rules in S.PRESET_NAMES else "standard").map(str),
        st.sampled_from(["pass", " PASS ", "555666777888", "3333BR", "BR", "10JQKA", "RRBB"])))
    fast = call(ddz.parse_move, text, kind, rules=rules)
    ref = call(reference.parse_move, text, kind, rules=rules)
    same_outcome(fast, ref, f"parse_move({text!r}, {kind!r}, {rules!r})", rules)


# ---------------------------------------------------------------------------
# MoveList / Move objects
# ---------------------------------------------------------------------------

@target
@given(data=st.data(), rules=S.rules_valid(),
       index=st.one_of(st.integers(), st.sampled_from([2**63, -(2**63) - 1, 2**64, np.int64(-1),
                                                        np.uint64(2**64 - 1), np.int8(3)]),
                       st.floats(), st.none(), st.text(max_size=3),
                       st.builds(slice, st.none() | st.integers(-20, 20), st.none() | st.integers(-20, 20),
                                 st.none() | st.integers(-3, 3).filter(bool))),
       other=S.junk_values())
def movelist_methods(data: st.DataObject, rules: Any, index: Any, other: Any) -> None:
    tried()
    r = S.resolved(rules)
    counts = data.draw(S.counts_in_deck(r, 14))
    ml = ddz.legal_moves(counts, rules=rules)
    moves = list(ml)
    got = call(ml.__getitem__, index, allowed=(TypeError, IndexError))
    if not isinstance(got, Raised):
        if isinstance(index, slice):
            assert got == moves[index]
        else:
            assert got == moves[int(index)]
    assert (other in ml) == (isinstance(other, Move) and other in moves)
    got = call(ml.index, other)
    if not isinstance(got, Raised):
        assert moves[got] == other
    assert ml.count(other) == moves.count(other) if isinstance(other, Move) else ml.count(other) == 0
    if not isinstance(other, (np.ndarray, np.generic)):   # (NumPy compares elementwise itself)
        assert (ml == other) == (isinstance(other, (list, tuple)) and list(other) == moves)
    assert list(reversed(ml)) == moves[::-1]
    assert pickle.loads(pickle.dumps(ml)) == ml
    rows = ml.rows
    assert call(rows.__setitem__, (0, 0) if len(ml) else 0, 1, allowed=(ValueError, IndexError)) \
        .__class__ is Raised
    repr(ml)
    assert ml.ranks.tolist() == [m.rank for m in moves]


@target
@given(kind=st.one_of(st.sampled_from(list(Kind)), st.integers(-3, 20), st.text(max_size=12),
                      S.scalars_junk()),
       data=st.data(), rules=S.rules_any())
def move_construction(kind: Any, data: st.DataObject, rules: Any) -> None:
    tried()
    cards = data.draw(st.one_of(S.junk_values(), S.moves_from("standard").map(str),
                                S.moves_from("four").map(lambda m: m.counts)))
    m = call(Move, kind, cards, rules=rules)
    if isinstance(m, Raised):
        return
    k = Kind.coerce(kind)
    assert m.kind is k
    if k != Kind.PASS:
        assert m in reference.classify(cards, rules=S.resolved(rules))
    assert pickle.loads(pickle.dumps(m)) == m and hash(m) == hash(pickle.loads(pickle.dumps(m)))
    assert call(setattr, m, "kind", Kind.SOLO, allowed=(AttributeError,)).__class__ is Raised


@target
@given(move=S.forged_moves(), rules=S.rules_valid(), data=st.data())
def forged_moves(move: Any, rules: Any, data: st.DataObject) -> None:
    """Forged or uninitialised Move objects through every entry point that takes a move."""
    tried()
    r = S.resolved(rules)
    hand = data.draw(S.counts_in_deck(r, 17))
    for fn in (repr, str, hash, len, lambda m: m.kind, lambda m: m.counts, lambda m: m.cards,
               lambda m: m.is_pass, lambda m: m == ddz.PASS, lambda m: m.to_array()):
        call(fn, move, allowed=(TypeError, ValueError, AttributeError))
    same_outcome(as_list(call(ddz.legal_moves, hand, move, rules=rules)),
                 as_list(call(reference.legal_moves, hand, move, rules=r)), f"legal_moves(last={move!r})")
    same_outcome(call(ddz.beats, move, ddz.PASS, rules=rules),
                 call(reference.beats, move, ddz.PASS, rules=r), f"beats({move!r}, PASS)")
    call(ddz.to_counts, move, rules=rules)
    call(ddz.count_moves, [hand], [move], rules=rules)
    call(ddz.legal_moves_batch, [hand], [move], rules=rules)
    call(lambda: pickle.loads(pickle.dumps(move)), allowed=(TypeError, ValueError, pickle.PicklingError,
                                                             AttributeError))


# ---------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------

@target
@given(data=st.data(), rules=S.rules_valid(), threads=st.one_of(
    st.integers(1, 4), st.sampled_from([0, -1, 2**63, 10**30, True, 1.0, None, "2", np.int64(2)])))
def batch(data: st.DataObject, rules: Any, threads: Any) -> None:
    tried()
    r = S.resolved(rules)
    n = data.draw(st.integers(0, 5))
    hands = [data.draw(S.counts_in_deck(r, 20)) for _ in range(n)]
    dt = data.draw(st.sampled_from(S.INT_DTYPES + [np.dtype(">i4")]))
    arr = S.layout(np.array(hands, dtype=dt).reshape(n, 15), data.draw(st.sampled_from(S.LAYOUTS)))
    hands_in: Any = data.draw(st.sampled_from(["array", "array", "list"]))
    hands_in = arr if hands_in == "array" else [list(h) for h in hands]
    lasts_kind = data.draw(st.sampled_from(["none", "moves", "rows", "junk"]))
    lasts: Any = None
    if lasts_kind == "moves":
        lasts = [data.draw(S.any_move(rules)) for _ in range(n)]
    elif lasts_kind == "rows":
        ms = [data.draw(S.moves_from(rules)) for _ in range(n)]
        rows = np.array([list(m.counts) + [int(m.kind)] for m in ms], dtype=np.uint8).reshape(n, 16)
        if n and data.draw(st.booleans()):
            rows[data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, 15))] = data.draw(
                st.integers(0, 255))
        lasts = S.layout(rows, data.draw(st.sampled_from(S.LAYOUTS)))
    elif lasts_kind == "junk":
        lasts = data.draw(S.junk_values())
    got = call(ddz.legal_moves_batch, hands_in, lasts, rules=rules, threads=threads)
    counts = call(ddz.count_moves, hands_in, lasts, rules=rules, threads=threads)
    if n == 1 and not isinstance(hands_in, np.ndarray) and isinstance(counts, int):
        counts = np.array([counts])  # a flat single hand is counted as one hand
    if isinstance(got, Raised):
        assert isinstance(counts, Raised) and counts.type is got.type, (got, counts)
        return
    assert not isinstance(counts, Raised), counts
    assert len(got) == n and got.offsets.tolist()[0] == 0
    assert np.diff(got.offsets).tolist() == list(counts)
    for i in range(n):
        last_i = None
        if lasts_kind == "rows":
            row = np.asarray(lasts)[i]
            last_i = ddz.PASS if not row[:15].any() else Move(int(row[15]), row[:15].astype(np.int64), rules=rules)
        elif lasts_kind in ("moves", "junk"):
            last_i = list(lasts)[i]
        assert list(got[i]) == reference.legal_moves(hands[i], last_i, rules=r), i
    assert call(got.__getitem__, data.draw(st.sampled_from([n, -n - 1, 2**63, 10**30, -(2**70)])),
                allowed=(IndexError,)).__class__ is Raised
    assert pickle.loads(pickle.dumps(got)).rows.tolist() == got.rows.tolist()
    assert call(got.rows.__setitem__, 0, 1, allowed=(ValueError, IndexError)).__class__ is Raised


@target
@given(hands=S.junk_values(), lasts=st.none() | S.junk_values(), rules=S.rules_any(),
       threads=st.sampled_from([1, 2]))
def batch_junk(hands: Any, lasts: Any, rules: Any, threads: int) -> None:
    tried()
    got = call(ddz.legal_moves_batch, hands, lasts, rules=rules, threads=threads)
    cnt = call(ddz.count_moves, hands, lasts, rules=rules, threads=threads)
    if isinstance(got, Raised) or lasts is not None:
        return
    arr = np.asarray(hands)
    r = S.resolved(rules)
    assert not isinstance(cnt, Raised) and np.diff(got.offsets).tolist() == np.atleast_1d(cnt).tolist()
    for i in range(len(got)):
        assert list(got[i]) == reference.legal_moves(arr[i], None, rules=r), i


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

@target
@given(kwargs=st.dictionaries(
    st.sampled_from(["players", "decks", "solo_kickers", "four_with_kickers", "airplane_solo_distinct",
                     "four_two_solo_distinct", "both_jokers_as_kickers", "auction", "name", "bogus"]),
    S.scalars_junk() | st.sampled_from([3, 4, 1, 2, True, False, "bid", "rob"]), max_size=5),
    name=S.rules_junk() | st.sampled_from(S.PRESET_NAMES))
def rules(kwargs: Dict[str, Any], name: Any) -> None:
    tried()
    r = call(Rules, **kwargs)
    if not isinstance(r, Raised):
        assert (r.players, r.decks) in ((3, 1), (4, 2)) and r.auction in ("bid", "rob")
        assert pickle.loads(pickle.dumps(r)) == r and hash(r) == hash(pickle.loads(pickle.dumps(r)))
        ddz.legal_moves("3334BR", rules=r)
        call(r.replace, **kwargs)
    got = call(ddz.resolve_rules, name)
    # A name resolves to its preset; a plain Rules to itself (a subclass is checked).
    assert isinstance(got, Raised) or got is name or got is ddz.PRESETS.get(name), (name, got)
    call(ddz.PRESETS.__getitem__, name, allowed=(KeyError, TypeError))


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------

AUCTION_JUNK = [ddz.Bid(0), ddz.Bid(3), ddz.CALL, ddz.ROB, ddz.DECLINE, ddz.DOUBLE, ddz.NO_DOUBLE, 0, 1,
                "bid 1", None, ddz.PASS]


@target
@given(rules=S.rules_any(), seed=st.one_of(st.none(), st.integers(), S.scalars_junk()),
       ops=st.lists(st.tuples(st.sampled_from(["legal", "legal", "legal", "junk", "undo", "clone",
                                               "observe", "hand", "pickle", "setattr", "search"]),
                              st.integers(0, 10**6), S.junk_values() | st.sampled_from(AUCTION_JUNK)),
                    max_size=40))
def game(rules: Any, seed: Any, ops: List[Tuple[str, int, Any]]) -> None:
    tried()
    g = call(Game, rules, seed)
    if isinstance(g, Raised):
        return
    snapshots = [g.snapshot()]
    for op, k, junk in ops:
        before = g.snapshot()
        if op == "legal" and not g.is_over:
            acts = g.legal_actions()
            g.step(acts[k % len(acts)])
            snapshots.append(g.snapshot())
        elif op == "junk":
            out = call(g.step, junk)
            if isinstance(out, Raised):
                assert g.snapshot() == before, "a rejected action changed the state"
            else:
                snapshots.append(g.snapshot())
        elif op == "undo":
            if call(g.undo, allowed=(IndexError,)).__class__ is not Raised:
                snapshots.pop()
                assert g.snapshot()["hands"] == snapshots[-1]["hands"]
                assert g.snapshot()["history"] == snapshots[-1]["history"]
            else:
                assert g.snapshot() == before
        elif op == "clone":
            c = g.clone()
            assert c.snapshot() == before
            if not c.is_over:
                c.step(c.legal_actions()[0])
            assert g.snapshot() == before, "stepping a clone changed the original"
        elif op == "observe":
            out = call(g.observation, junk)
            if not isinstance(out, Raised):
                assert out.hand.tolist() == g.hand(out.player).tolist()
        elif op == "hand":
            out = call(g.hand, junk, allowed=(TypeError, ValueError, IndexError))
            if not isinstance(out, Raised):
                assert out.shape == (15,)
        elif op == "pickle":
            assert pickle.loads(pickle.dumps(g)).snapshot() == before
        elif op == "setattr":
            # No attribute of a Game can be set from Python, by any route.
            names = [n for n in dir(g) if not n.startswith("__")] + ["st", "rc", "_ready", "_rules", "x"]
            name = names[k % len(names)]
            for setter in (setattr, object.__setattr__):
                out = call(setter, g, name, junk, allowed=(AttributeError, TypeError))
                assert isinstance(out, Raised), f"setting Game.{name} was accepted"
            assert g.snapshot() == before, f"setting Game.{name} changed the state"
        elif op == "search":
            player = junk if k % 2 else k % 4
            for fn, args in ((g.unseen, (player,)), (g.sample_worlds, (player, k % 7)),
                             (g.rollout, (k % 5,))):
                out = call(fn, *args)
                if isinstance(out, Raised):
                    continue
                if fn == g.unseen:
                    assert int(out.sum()) == sum(g.hand_sizes) - g.hand_sizes[int(player)] + (
                        0 if g.kitty_revealed else g.rules.kitty_size)
                elif fn == g.sample_worlds:
                    assert (out.sum(axis=2) == np.array(g.hand_sizes)).all()
                else:
                    assert (out.scores.sum(axis=1) == 0).all()
            assert g.snapshot() == before, "a search call changed the state"
    if g.result is not None:
        assert sum(g.result.scores) == 0


@target
@given(data=st.data(), rules=S.rules_valid())
def game_from_position(data: st.DataObject, rules: Any) -> None:
    tried()
    r = S.resolved(rules)
    g = Game(rules, seed=data.draw(st.integers(0, 2**64 - 1)))
    hands: Any = [ddz.format_cards(h, rules=r) if data.draw(st.booleans()) else h for h in g.hands]
    if data.draw(st.booleans()):
        hands = data.draw(S.junk_values())
    kwargs = {}
    for key in ("base", "bombs", "doubles", "last_player", "to_move", "played", "kitty"):
        if data.draw(st.integers(0, 3)) == 0:
            kwargs[key] = data.draw(S.junk_values() | st.integers(-1, 5))
    landlord = data.draw(st.integers(-1, 4) | S.scalars_junk())
    last = data.draw(st.none() | S.any_move(rules))
    p = call(Game.from_position, hands, landlord, last=last, rules=rules, **kwargs)
    if isinstance(p, Raised):
        return
    acts = p.legal_actions()
    assert list(acts) == reference.legal_moves(p.hand(p.to_move), p.last_move, rules=r)
    p.step(acts[data.draw(st.integers(0, len(acts) - 1))])
    p.undo()
    assert list(p.legal_actions()) == list(acts)


@target
@given(n=st.one_of(st.integers(0, 6), S.scalars_junk()), seed=st.one_of(st.integers(), S.scalars_junk()),
       threads=st.one_of(st.integers(1, 3), S.scalars_junk()),
       first=st.one_of(st.integers(0, 2**64), S.scalars_junk()), rules=S.rules_any())
def playouts(n: Any, seed: Any, threads: Any, first: Any, rules: Any) -> None:
    tried()
    if isinstance(n, int) and not isinstance(n, bool) and n > 6:
        n = n % 7    # keep the run short; huge counts are checked in playouts_bounds
    res = call(ddz.play_random_games, n, rules=rules, seed=seed, threads=threads, first_game=first)
    if isinstance(res, Raised):
        return
    assert res.scores.shape == (n, S.resolved(rules).players)
    assert (res.scores.sum(axis=1) == 0).all()
    again = ddz.play_random_games(n, rules=rules, seed=seed, threads=1, first_game=first)
    assert again.scores.tolist() == res.scores.tolist()


@target
@given(n=st.sampled_from([2**62, 2**63, 2**64, 10**30, 10**12]), first=st.sampled_from([0, 2**63, 2**70]))
def playouts_bounds(n: int, first: int) -> None:
    """Counts beyond 64 bits are ValueError; a count that fits but whose
    result arrays cannot be allocated (10**12 games: ~60 TB) is NumPy's
    MemoryError, the one place a MemoryError is the documented outcome."""
    tried()
    call(ddz.play_random_games, n, first_game=first,
         allowed=DOCUMENTED + ((MemoryError,) if n < 2**62 else ()))
    out = call(ddz.play_random_games, 1, first_game=first)
    assert isinstance(out, Raised) == (first >= 2**64), out


@target
@given(a=S.scalars_junk() | st.integers(), b=S.scalars_junk() | st.integers(),
       rules=S.rules_any(), args=st.lists(S.scalars_junk() | st.integers(-2, 5), min_size=7, max_size=7))
def small_api(a: Any, b: Any, rules: Any, args: List[Any]) -> None:
    """SplitMix64, game_seed, policy_seed, settle, Session, the auction actions."""
    tried()
    rng = call(ddz.SplitMix64, a)
    if not isinstance(rng, Raised):
        c = rng.copy()
        x = call(rng.below, b)
        if not isinstance(x, Raised):
            assert 0 <= x < b
        assert rng.next() == (c.next() if isinstance(x, Raised) else (c.below(b), c.next())[1])
        call(setattr, rng, "state", b)
        assert pickle.loads(pickle.dumps(rng)) == rng
    out = call(ddz.game_seed, a, b)
    assert isinstance(out, Raised) or 0 <= out < 2**64
    out = call(ddz.policy_seed, a)
    assert isinstance(out, Raised) or 0 <= out < 2**64
    out = call(ddz.settle, *args)
    if not isinstance(out, Raised):
        assert sum(out[1]) == 0
    s = call(ddz.Session, rules, a)
    if not isinstance(s, Raised):
        call(lambda: s.record(s.new_game()))
    call(ddz.Bid, a)
    call(ddz.Double, a)


# ---------------------------------------------------------------------------
# Interop (branch interop): conversions, encoders, action ids, RLCard ids
# ---------------------------------------------------------------------------

try:
    from ddz_fast import actions as _actions
    from ddz_fast import convert as _convert
    from ddz_fast import encode as _encode
    from ddz_fast.compat import rlcard as _rlcard
except ImportError:      # (a build without the interop modules)
    _convert = None  # type: ignore[assignment]

ID_JUNK = st.one_of(st.integers(-3, 60000), st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**30,
                                                               np.int64(-1), np.uint64(2**64 - 1)]),
                    S.scalars_junk())

if _convert is not None:
    @target
    @given(data=st.data(), rules=S.rules_valid(), junk=S.junk_values(), i=ID_JUNK)
    def interop(data: st.DataObject, rules: Any, junk: Any, i: Any) -> None:
        tried()
        r = S.resolved(rules)
        counts = np.array(data.draw(S.counts_in_deck(r, 20)), dtype=np.uint8)
        batch = np.array([data.draw(S.counts_in_deck(r, 20)) for _ in range(data.draw(st.integers(0, 3)))],
                         dtype=np.uint8).reshape(-1, 15)
        # Round trips on valid cards.
        assert _convert.card_counts(counts, rules=rules).tolist() == counts.tolist()
        dz = call(_convert.counts_to_douzero, counts, rules=rules)
        if not isinstance(dz, Raised):
            assert _convert.douzero_to_counts(dz, rules=rules).tolist() == counts.tolist()
        text = call(_convert.counts_to_rlcard, counts, rules=rules)
        if not isinstance(text, Raised):
            assert _convert.rlcard_to_counts(text, rules=rules).tolist() == counts.tolist()
        assert _convert.to_counts_batch(batch, rules=rules).tolist() == batch.tolist()
        if r.decks == 1:      # (DouZero's encoding holds one deck)
            enc = _encode.encode_douzero(counts, rules=rules)
            assert enc.shape == (54,) and int(enc.sum()) == int(counts.sum())
        assert _encode.encode_counts(counts, rules=rules).tolist() == counts.tolist()
        # Junk into every function: a result or a documented exception.
        for fn in (_convert.card_counts, _convert.to_counts_batch, _convert.douzero_to_counts,
                   _convert.counts_to_douzero, _convert.douzero_to_counts_batch, _convert.counts_to_douzero_batch,
                   _convert.rlcard_to_counts, _convert.counts_to_rlcard, _convert.rlcard_to_counts_batch,
                   _convert.counts_to_rlcard_batch, _encode.encode_douzero, _encode.encode_counts):
            call(fn, junk, rules=rules)
        call(_encode.encode_counts, counts, dtype=junk, rules=rules)
        # Action ids: a valid id round-trips, junk or out-of-range ids are refused.
        space = _actions.action_space(rules)
        legal = ddz.legal_moves(counts, rules=rules)
        ids = space.ids(legal)
        assert space.moves(ids) == list(legal)
        mask = space.mask(counts)
        assert mask.sum() == len(set(ids.tolist())) and mask[ids].all()
        got = call(space.id_to_move, i, allowed=(TypeError, ValueError, IndexError))
        if not isinstance(got, Raised):
            assert space.move_to_id(got) == int(i)
        call(space.moves, junk, allowed=(TypeError, ValueError, IndexError))
        call(space.ids, junk)
        call(space.move_to_id, junk)
        call(space.mask, junk)
        call(space.mask, counts, out=junk)
        call(space.masks, junk)
        call(space.masks, batch, junk)
        if r.decks == 1:
            got = call(_rlcard.rlcard_move_cards, i, allowed=(TypeError, ValueError, IndexError))
            if not isinstance(got, Raised):
                assert _rlcard.rlcard_id(got if got != "pass" else ddz.PASS) == int(i) or got == "pass"
            call(_rlcard.rlcard_id, junk)
            call(_rlcard.rlcard_ids, junk)
            call(_rlcard.rlcard_mask, junk)
            call(_rlcard.rlcard_mask, counts, out=junk)


# ---------------------------------------------------------------------------
# Action ids beyond the interop target: out= buffers, every id, masks
# ---------------------------------------------------------------------------

def _no_big_count(x: Any) -> bool:
    """False for an integer count between 65 and 2**41: a valid request for a
    big output (millions of tables, worlds, games), allocated as asked: too
    slow or too big for a fuzz input; the bounds are checked with counts
    beyond them."""
    import operator
    try:
        v = operator.index(x)
    except TypeError:
        return True
    return not 64 < v <= 2**41


COUNT_JUNK = S.scalars_junk().filter(_no_big_count)

OUT_JUNK = st.one_of(
    S.junk_values(),
    st.tuples(st.sampled_from([np.bool_, np.uint8, np.int8, np.float32, np.int64]),
              st.sampled_from(["exact", "short", "long", "2d", "readonly", "strided", "fortran", "masked"])))


def _out_buffer(spec: Any, shape: Tuple[int, ...]) -> Any:
    """An out= candidate: junk as drawn, or an array near the wanted shape."""
    if not isinstance(spec, tuple) or len(spec) != 2 or not isinstance(spec[1], str):
        return spec
    dtype, how = spec
    n = int(np.prod(shape))
    if how == "short":
        return np.zeros(max(n - 1, 0), dtype=dtype).reshape(-1)
    if how == "long":
        return np.zeros(n + 1, dtype=dtype)
    if how == "2d":
        return np.zeros((1,) + shape, dtype=dtype)
    if how == "readonly":
        a = np.zeros(shape, dtype=dtype)
        a.flags.writeable = False
        return a
    if how == "strided":
        return np.zeros(shape[:-1] + (2 * shape[-1],), dtype=dtype)[..., ::2]
    if how == "fortran":
        return np.asfortranarray(np.zeros(shape, dtype=dtype))
    if how == "masked":
        return np.ma.masked_array(np.zeros(shape, dtype=dtype), mask=True)
    return np.zeros(shape, dtype=dtype)


if _convert is not None:
    @target
    @given(data=st.data(), rules=S.rules_valid(), out=OUT_JUNK, space_rules=S.rules_any(),
           i=ID_JUNK, threads=st.one_of(st.integers(1, 3), S.scalars_junk()))
    def action_space(data: st.DataObject, rules: Any, out: Any, space_rules: Any, i: Any,
                     threads: Any) -> None:
        """ActionSpace/action_space: mask and masks with out= buffers of any
        kind (a valid one is filled and returned, anything else refused
        without writing), id_to_move over the whole id range, masks of a
        batch equal to the single-hand masks."""
        tried()
        call(_actions.action_space, space_rules)
        call(_actions.ActionSpace, space_rules)
        space = _actions.action_space(rules)
        r = S.resolved(rules)
        counts = np.array(data.draw(S.counts_in_deck(r, 20)), dtype=np.uint8)
        last = data.draw(st.none() | S.moves_from(rules))
        want = call(space.mask, counts, last)
        if isinstance(want, Raised):      # (a last move that uses cards of the hand)
            last = None
            want = space.mask(counts)
        assert want.dtype == np.bool_ and want.shape == (space.size,)
        legal = ddz.legal_moves(counts, last, rules=rules)
        assert space.moves(np.flatnonzero(want)) == sorted(legal, key=space.move_to_id)
        buf = _out_buffer(out, want.shape)
        # (bytes, not ==: NaN in a junk buffer is unequal to itself)
        before = np.asarray(buf).tobytes() if isinstance(buf, np.ndarray) else None
        got = call(space.mask, counts, last, out=buf)
        if not isinstance(got, Raised):
            assert np.array_equal(got, want) and (buf is None or got is buf)
        elif before is not None:
            assert np.asarray(buf).tobytes() == before, "a refused out= buffer was written"
        n = data.draw(st.integers(0, 3))
        hands = np.array([data.draw(S.counts_in_deck(r, 20)) for _ in range(n)], dtype=np.uint8).reshape(n, 15)
        each = [space.mask(h) for h in hands]
        buf = _out_buffer(out, (n, space.size))
        got = call(space.masks, hands, threads=threads, out=buf)
        if not isinstance(got, Raised):
            assert got.shape == (n, space.size) and all(np.array_equal(got[k], each[k]) for k in range(n))
            if buf is not None:
                assert got is buf
        # Every id decodes to a move that encodes back to it; junk ids are refused.
        k = data.draw(st.integers(0, space.size - 1))
        assert space.move_to_id(space.id_to_move(k)) == k
        got = call(space.id_to_move, i)
        if not isinstance(got, Raised):
            assert space.move_to_id(got) == int(i)


# ---------------------------------------------------------------------------
# The batched game
# ---------------------------------------------------------------------------

@target
@given(data=st.data(), rules=S.rules_any(),
       n=st.one_of(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), COUNT_JUNK,
                   st.sampled_from([0, -1, 2**40, 2**64])),
       seed=st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), S.scalars_junk()),
       flags=st.one_of(st.lists(st.booleans(), min_size=5, max_size=5),
                       st.lists(st.one_of(st.booleans(), S.scalars_junk()), min_size=5, max_size=5)),
       threads=st.one_of(st.just(1), st.just(1), st.integers(0, 3), S.scalars_junk()))
def vecgame(data: st.DataObject, rules: Any, n: Any, seed: Any, flags: List[Any], threads: Any) -> None:
    """VecGame with junk construction, junk actions, set_games, games(i) and
    action(i); after every step the tables agree with their Game copies
    (the legal ids decode to the game's legal actions) and finished tables
    score zero-sum."""
    tried()
    auto_reset, observations, masks, bot, skip_auction = flags
    vg = call(ddz.VecGame, n, rules, seed, threads=threads, auto_reset=auto_reset,
              observations=observations, masks=masks, bot=bot, skip_auction=skip_auction)
    if isinstance(vg, Raised):
        return
    assert len(vg) == vg.num_tables == n
    for _ in range(data.draw(st.integers(0, 12))):
        op = data.draw(st.sampled_from(["legal", "legal", "legal", "junk", "set_games", "games", "action",
                                        "reset"]))
        offsets, ids = vg.legal_offsets, vg.legal_ids
        assert call(ids.__setitem__, 0, 0, allowed=(ValueError, IndexError)).__class__ is Raised or not len(ids)
        if op == "legal":
            acts = np.array([ids[offsets[t] + data.draw(st.integers(0, offsets[t + 1] - offsets[t] - 1))]
                             if offsets[t + 1] > offsets[t] else vg.NO_ACTION for t in range(n)], dtype=np.int64)
            call(vg.step, acts)
        elif op == "junk":
            junk = data.draw(st.one_of(S.junk_values(), st.lists(ID_JUNK, min_size=n, max_size=n)))
            done_before = vg.done.copy()
            out = call(vg.step, junk)
            if isinstance(out, Raised):
                assert np.array_equal(vg.done, done_before)
        elif op == "set_games":
            call(vg.set_games, data.draw(S.junk_values() | st.lists(st.integers(-1, n), max_size=3)),
                 data.draw(S.junk_values() | st.lists(st.integers(0, 2**64 - 1), max_size=3)))
        elif op == "games":
            t = data.draw(st.integers(-1, n) | S.scalars_junk())
            g = call(vg.games, t, allowed=(TypeError, ValueError, IndexError))
            if not isinstance(g, Raised) and not g.is_over:
                t = int(t) % n
                got = {vg.action(int(a)) for a in ids[offsets[t]:offsets[t + 1]]}
                assert got == set(g.legal_actions()), f"table {t}: ids {got} vs game {g.legal_actions()}"
        elif op == "action":
            call(vg.action, data.draw(ID_JUNK), allowed=(TypeError, ValueError, IndexError))
            call(vg.auction_id, data.draw(S.junk_values()))
        else:
            call(vg.reset, data.draw(st.none() | st.integers(0, 2**64 - 1) | S.scalars_junk()))
        done = vg.done
        assert (vg.scores[done].sum(axis=1) == 0).all()


# ---------------------------------------------------------------------------
# The solver and PIMC
# ---------------------------------------------------------------------------

@st.composite
def small_position(draw: st.DrawFn, rules: Rules) -> Tuple[List[Tuple[int, ...]], Optional[int]]:
    """Hands of a few cards each, disjoint (drawn from one deck); two hands
    (the puzzle) or one per seat with a landlord."""
    deck = [r for r in range(15) for _ in range(rules.max_jokers if r >= 13 else rules.max_count)]
    seats = draw(st.sampled_from([2, rules.players]))
    cards = draw(st.permutations(deck))
    hands, pos = [], 0
    for _ in range(seats):
        k = draw(st.integers(1, 5 if seats == 2 else 3))
        h = [0] * 15
        for c in cards[pos:pos + k]:
            h[c] += 1
        pos += k
        hands.append(tuple(h))
    landlord = None if seats == 2 else draw(st.integers(0, seats - 1))
    return hands, landlord


SOLVE_JUNK = st.one_of(st.none(), st.integers(-2, 4), S.scalars_junk())


@target
@given(data=st.data(), rules=S.rules_valid())
def solver(data: st.DataObject, rules: Any) -> None:
    """solve, Solver and winning_line on small open-hand positions (with
    wild ranks drawn under wild rules): the verdict equals the brute-force
    reference, the line is legal and ends with the predicted side going
    out; junk options are refused."""
    tried()
    from ddz_fast import solver_reference
    r = S.resolved(rules)
    hands, landlord = data.draw(small_position(r))
    to_move = data.draw(st.integers(0, len(hands) - 1))
    opts: Dict[str, Any] = dict(to_move=to_move, landlord=landlord, rules=rules)
    wild = None
    if r.wild_ranks:
        wild = tuple(sorted(data.draw(st.lists(st.integers(0, 12), min_size=r.wild_ranks,
                                               max_size=r.wild_ranks, unique=True))))
        opts["wild"] = wild
    ref = solver_reference.wins(hands, **opts)
    res = ddz.solve(hands, **opts)
    assert res.win == ref, (hands, opts, res)
    s = ddz.Solver(data.draw(st.sampled_from([0, 1, 0.5])))
    assert s.solve(hands, **opts).win == ref
    line = ddz.winning_line(hands, **opts)
    cur = [list(h) for h in hands]
    last, last_by = None, None
    for seat, move in line:
        assert move in ddz.legal_moves(cur[seat], None if last_by in (None, seat) else last, rules=rules,
                                       wild=wild), (hands, opts, line)
        if not move.is_pass:
            cur[seat] = [a - b for a, b in zip(cur[seat], move.counts)]
            last, last_by = move, seat
    winner = line[-1][0]
    assert sum(cur[winner]) == 0
    side = (lambda p: p == landlord) if landlord is not None else (lambda p: p)
    assert (side(winner) == side(to_move)) == ref
    # Junk in every option.
    junk = {k: data.draw(SOLVE_JUNK | S.junk_values()) for k in
            data.draw(st.sets(st.sampled_from(["to_move", "landlord", "last", "last_by", "ban", "all_moves",
                                               "max_nodes", "max_time", "threads", "rules", "wild"]),
                              min_size=1))}
    kw = {**opts, "max_nodes": 20000, **junk}
    call(ddz.solve, hands, **kw)
    call(s.solve, hands, **kw)
    call(ddz.solve, data.draw(S.junk_values() | st.lists(S.junk_values(), max_size=4)), max_nodes=2000)
    call(ddz.Solver, data.draw(S.junk_values() | st.floats()))
    call(ddz.Solver.__new__(ddz.Solver).solve, hands, **opts)
    call(ddz.winning_line, hands, **{**opts, **{k: v for k, v in junk.items()
                                                if k in ("to_move", "landlord", "last", "last_by", "ban",
                                                         "wild")}},
         max_time=2.0)


def _random_walk(data: st.DataObject, g: Any, most: int) -> None:
    """Up to `most` legal actions on g, each drawn by Hypothesis (so a
    failing walk shrinks), stopping at the end of the game."""
    for _ in range(data.draw(st.integers(0, most))):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.step(acts[data.draw(st.integers(0, len(acts) - 1))])


@target
@given(data=st.data(), rules=S.rules_valid(), seed=st.integers(0, 2**64 - 1), junk=S.junk_values())
def solver_game(data: st.DataObject, rules: Any, seed: int, junk: Any) -> None:
    """position_from_game / solve_game / Position on games played a random
    number of steps: the position is the game's, solving it leaves the game
    unchanged, and a game outside its play phase or junk is refused."""
    tried()
    g = Game(rules, seed=seed)
    _random_walk(data, g, 60)
    before = g.snapshot()
    pos = call(ddz.position_from_game, g)
    if isinstance(pos, Raised):
        assert g.is_over or g.phase.name != "PLAY"
    else:
        assert [h.tolist() for h in pos["hands"]] == [h.tolist() for h in g.hands]
        assert pos["to_move"] == g.to_move and pos["landlord"] == g.landlord and pos["rules"] == g.rules
        res = call(ddz.solve_game, g, max_nodes=3000)
        if not isinstance(res, Raised) and res.move is not None:
            assert res.move in g.legal_actions()
        assert g.snapshot() == before, "solving a game changed it"
    call(ddz.position_from_game, junk)
    call(ddz.solve_game, junk)
    call(ddz.solve_game, g, **{data.draw(st.sampled_from(["hands", "rules", "max_nodes", "bogus"])): junk})
    call(ddz.Position, hands=junk)   # (a TypedDict: a plain dict, no check)


@target
@given(data=st.data(), rules=S.rules_valid(), seed=st.integers(0, 2**64 - 1),
       # (a count that fits is allocated as asked: 2**31 worlds are 90 GiB; the
       # bound itself is checked with counts beyond it)
       n=st.one_of(st.integers(0, 5), st.integers(0, 5), COUNT_JUNK, st.sampled_from([2**63, 10**30, -1])),
       wseed=st.one_of(st.integers(), S.scalars_junk()),
       params=st.dictionaries(st.sampled_from(["worlds", "rollouts", "policy", "solver_cards", "solver_nodes",
                                               "solver_time", "solver_table_mb", "aggregate", "seed", "threads",
                                               "rules"]), S.scalars_junk() | st.integers(-2, 40),
                              max_size=2))
def pimc(data: st.DataObject, rules: Any, seed: int, n: Any, wseed: Any, params: Dict[str, Any]) -> None:
    """sample_observed_worlds and PIMCAgent: sampled worlds are consistent
    with the observation (the observer's hand, the hand sizes, no card seen
    twice); the agent picks a legal action; junk parameters are refused."""
    tried()
    from ddz_fast import sample_observed_worlds
    r = S.resolved(rules)
    g = Game(rules, seed=seed)
    _random_walk(data, g, 40)
    if g.is_over:
        return
    obs = g.observation(g.to_move)
    worlds = call(sample_observed_worlds, obs, n, seed=wseed)
    if not isinstance(worlds, Raised):
        assert worlds.shape == (int(n), r.players, 15)
        for w in worlds:
            assert w[obs.player].tolist() == obs.hand.tolist()
            assert w.sum(axis=1).tolist() == list(obs.hand_sizes)
    call(sample_observed_worlds, data.draw(S.junk_values()), 2)
    agent = call(ddz.PIMCAgent, **{"worlds": 2, "solver_nodes": 500, "rules": rules, **params})
    if isinstance(agent, Raised):
        return
    if agent._rules != r:       # (an agent for other rules: refused, or a legal choice)
        call(agent, obs)
        return
    a = call(agent, obs)
    if not isinstance(a, Raised):
        assert a in list(g.legal_actions())
    assert pickle.loads(pickle.dumps(agent))._worlds == agent._worlds
    call(agent, data.draw(S.junk_values()))
    call(ddz.PIMCAgent.__new__(ddz.PIMCAgent), obs)


# ---------------------------------------------------------------------------
# The arena, trajectories, environments
# ---------------------------------------------------------------------------

AGENT_SPECS = st.one_of(st.sampled_from(["random", "simple", "pimc", "nope", "", "x:y", "ddz_fast:nothing",
                                         "ddz_fast.game:simple_bot", ":", "random "]),
                        S.scalars_junk())


@target
@given(agents=st.lists(AGENT_SPECS, min_size=0, max_size=5), rules=S.rules_any(),
       deals=st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 2**63, 10**30]), COUNT_JUNK),
       seed=st.one_of(st.integers(), S.scalars_junk()),
       landlord=st.one_of(st.sampled_from(["fixed", "auction", "bogus"]), S.scalars_junk()),
       tables=st.one_of(st.integers(1, 8), st.sampled_from([0, -1, 2**63]), COUNT_JUNK),
       rot=st.tuples(S.scalars_junk() | st.integers(-1, 5), S.scalars_junk() | st.integers(-1, 5)))
def arena(agents: List[Any], rules: Any, deals: Any, seed: Any, landlord: Any, tables: Any,
          rot: Tuple[Any, Any]) -> None:
    """arena.play / load_agent / rotations with junk; a result has one game
    per (deal, rotation), zero-sum points, and is the same on a second run."""
    tried()
    from ddz_fast import arena as _arena
    for spec in agents:
        call(_arena.load_agent, spec)
    call(_arena.rotations, rot[0], rot[1], landlord)
    specs = [a.replace("pimc", "simple") if isinstance(a, str) else a for a in agents]   # (PIMC: slow)
    res = call(_arena.play, specs, deals, seed=seed, rules=rules, landlord=landlord, tables=tables)
    if isinstance(res, Raised):
        return
    again = _arena.play(specs, deals, seed=seed, rules=rules, landlord=landlord, tables=tables)
    assert res.to_json() == again.to_json()
    assert len(res) == int(deals) * len(_arena.rotations(len(specs), S.resolved(rules).players, landlord))
    for game in res.games():
        assert sum(game["points"]) == 0, game


try:
    import pyarrow as _pyarrow  # noqa: F401
    _HAVE_PYARROW = True
except ImportError:
    _HAVE_PYARROW = False


if _HAVE_PYARROW:
    @target
    @given(rules=S.rules_any(), games=st.one_of(st.integers(0, 4), COUNT_JUNK, st.just(2**63)),
           seed=st.one_of(st.integers(0, 2**64 - 1), S.scalars_junk()),
           opts=st.dictionaries(st.sampled_from(["policy", "tables", "threads", "games_per_shard",
                                                 "observation_type", "compression", "independent_shards"]),
                                st.one_of(COUNT_JUNK, st.integers(-1, 3),
                                          st.sampled_from(["bot", "random", "list", "binary", "zstd"])),
                                max_size=2),
           columns=st.one_of(st.none(), st.lists(st.sampled_from(["game", "player", "action", "bogus"]),
                                                 max_size=3), S.junk_values()))
    def trajectories(rules: Any, games: Any, seed: Any, opts: Dict[str, Any], columns: Any) -> None:
        """record + TrajectoryDataset with junk options: a recorded dataset
        reads back with every game and the steps the summary counted."""
        tried()
        import tempfile

        from ddz_fast.trajectories import TrajectoryDataset, record
        with tempfile.TemporaryDirectory() as d:
            out = call(record, d, games, rules=rules, seed=seed, **opts)
            if isinstance(out, Raised):
                call(TrajectoryDataset, d)
                return
            ds = TrajectoryDataset(d)
            assert len(ds) == out.steps
            if out.games:
                assert len(set(ds.read(["game"])["game"].tolist())) == out.games
            call(ds.read, columns)
            call(lambda: next(iter(ds.batches(2, columns)), None))
            call(ds.batches, columns)
        call(TrajectoryDataset, columns)


if _HAVE_PYARROW:
    _SHARDS: Dict[str, Tuple[bytes, Dict[str, Any], Dict[str, Any]]] = {}

    def _shard(kind: str) -> Tuple[bytes, Dict[str, Any], Dict[str, Any]]:
        """A small recorded shard (bytes, data, metadata), made once per process."""
        if kind not in _SHARDS:
            import tempfile

            from ddz_fast.trajectories import TrajectoryDataset, record
            opts = {"zstd": {"compression": "zstd"}, "lz4-list": {"compression": "lz4", "observation_type": "list"},
                    "none": {"compression": "none"}, "laizi": {"rules": "laizi"}}[kind]
            with tempfile.TemporaryDirectory() as d:
                s = record(d, 3, tables=2, seed=1, progress=False, **opts)
                ds = TrajectoryDataset(s.files[0])
                _SHARDS[kind] = (open(s.files[0], "rb").read(), ds.read(), ds.metadata)
        return _SHARDS[kind]

    @target
    @given(kind=st.sampled_from(["zstd", "lz4-list", "none", "laizi"]),
           edits=st.lists(st.tuples(st.sampled_from(["flip", "byte", "cut", "insert", "zero"]),
                                    st.floats(0, 1, exclude_max=True), st.integers(0, 255)),
                          min_size=1, max_size=3),
           batch=st.integers(1, 300))
    def damaged_parquet(kind: str, edits: List[Tuple[str, float, int]], batch: int) -> None:
        """A recorded shard with bits flipped, bytes replaced, cut, inserted
        or zeroed reads back as exactly the data written, or is refused with
        a ValueError naming the file; never another exception or other data."""
        tried()
        import tempfile

        from ddz_fast.trajectories import TrajectoryDataset
        good, want, meta = _shard(kind)
        b = bytearray(good)
        for how, where, v in edits:
            at = int(where * len(b)) if b else 0
            if how == "flip" and b:
                b[at] ^= 1 << (v % 8)
            elif how == "byte" and b:
                b[at] = v
            elif how == "cut":
                del b[at:]
            elif how == "insert":
                b[at:at] = bytes([v])
            elif how == "zero":
                b[at:at + v] = bytes(len(b[at:at + v]))
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/part-00000.parquet"
            with open(path, "wb") as f:
                f.write(b)
            for read in ("read", "batches"):
                try:
                    ds = TrajectoryDataset(path)
                    if read == "read":
                        got = ds.read()
                    else:
                        parts = list(ds.batches(batch))
                        got = {k: np.concatenate([p[k] for p in parts]) for k in want if k != "legal_offsets"}
                except ValueError as e:
                    assert path in str(e), e
                    continue
                assert ds.metadata == meta, "damaged metadata read back"
                for k in got:
                    assert np.array_equal(got[k], want[k]), f"column {k} read back other data"


try:
    from ddz_fast import envs as _envs
except ImportError:      # (no Gymnasium / PettingZoo)
    _envs = None  # type: ignore[assignment]

if _envs is not None:
    @target
    @given(data=st.data(), rules=S.rules_valid(), seed=st.one_of(st.integers(0, 2**32), S.scalars_junk()),
           kind=st.sampled_from(["aec", "parallel", "single", "vector"]))
    def envs(data: st.DataObject, rules: Any, seed: Any, kind: str) -> None:
        """The PettingZoo, Gymnasium and vector environments: legal actions
        (from the mask) are taken, junk actions are refused or end the
        episode as the illegal-action rule says, never a crash."""
        tried()
        junk = st.one_of(S.junk_values(), ID_JUNK)
        if kind == "aec":
            e = _envs.raw_env(rules)      # (env() adds PettingZoo's asserting wrappers)
            call(e.reset, seed=seed)
            if isinstance(call(e.reset, seed=data.draw(st.integers(0, 1000))), Raised):
                return
            for _ in range(data.draw(st.integers(0, 30))):
                agent = e.agent_selection
                if e.terminations[agent] or e.truncations[agent]:
                    e.step(None)
                    if not e.agents:
                        break
                    continue
                mask = e.observe(agent)["action_mask"]
                if data.draw(st.integers(0, 4)) == 0:
                    call(e.step, data.draw(junk))
                else:
                    e.step(int(data.draw(st.sampled_from(np.flatnonzero(mask).tolist()))))
        elif kind == "parallel":
            e = _envs.parallel_env(rules)
            if isinstance(call(e.reset, seed=seed), Raised):
                e.reset(seed=0)
            for _ in range(data.draw(st.integers(0, 30))):
                if not e.agents:
                    break
                acts = {}
                for a in e.agents:
                    m = e._table.action_mask(e.agents.index(a)) if hasattr(e, "_table") else None
                    acts[a] = int(np.flatnonzero(m)[0]) if m is not None and m.any() else 0
                if data.draw(st.integers(0, 3)) == 0:
                    acts = data.draw(junk)
                call(e.step, acts, allowed=DOCUMENTED + (KeyError,))
        elif kind == "single":
            e = call(_envs.DouDizhuSingleAgentEnv, rules, seat=data.draw(st.integers(-1, 3) | S.scalars_junk()),
                     opponent=data.draw(st.sampled_from(["random", "simple", "bogus"])),
                     illegal_action=data.draw(st.sampled_from(["terminate", "raise", "bogus"])))
            if isinstance(e, Raised):
                return
            call(e.reset, seed=seed)
            e.reset(seed=data.draw(st.integers(0, 1000)))
            for _ in range(data.draw(st.integers(0, 30))):
                mask = e.action_masks()
                a = data.draw(junk) if data.draw(st.integers(0, 4)) == 0 else \
                    int(data.draw(st.sampled_from(np.flatnonzero(mask).tolist())))
                out = call(e.step, a)
                if not isinstance(out, Raised) and (out[2] or out[3]):
                    e.reset(seed=1)
        else:
            e = call(_envs.DouDizhuVectorEnv, data.draw(st.integers(1, 3) | COUNT_JUNK), rules,
                     seed=data.draw(st.integers(0, 100) | S.scalars_junk()))
            if isinstance(e, Raised):
                return
            call(e.reset, seed=seed)
            e.reset(seed=3)
            for _ in range(data.draw(st.integers(0, 20))):
                masks = e.action_masks()
                acts = np.array([int(np.flatnonzero(m)[data.draw(st.integers(0, int(m.sum()) - 1))])
                                 for m in masks])
                call(e.step, data.draw(junk) if data.draw(st.integers(0, 4)) == 0 else acts)
        table = _envs.Table(rules) if hasattr(_envs, "Table") else None
        if table is not None:
            call(table.new_game, data.draw(st.integers(0, 2**64 - 1) | S.scalars_junk()))


# ---------------------------------------------------------------------------
# Threads sharing one Game, and signals during compiled calls
# ---------------------------------------------------------------------------

@target
@given(rules=st.sampled_from(["standard", "four"]), seed=st.integers(0, 2**16), plies=st.integers(0, 12),
       steppers=st.integers(1, 2), readers=st.integers(1, 3))
def shared_game(rules: str, seed: int, plies: int, steppers: int, readers: int) -> None:
    """Threads step and undo one Game while others sample worlds from it
    (each call's worlds from one state) and run its compiled calls."""
    tried()
    concurrency.shared_game(rules, seed, seconds=0.03, plies=plies, steppers=steppers, readers=readers)


@target
@given(rules=st.sampled_from(["standard", "four"]), seed=st.integers(0, 2**16),
       kind=st.sampled_from(["rollout", "bot_rollout", "random_games", "move_values", "solve_game",
                             "solve_values"]),
       threads=st.integers(1, 3), delay=st.floats(0.0, 0.02), size=st.integers(1, 4000))
def signals(rules: str, seed: int, kind: str, threads: int, delay: float, size: int) -> None:
    """SIGINT at a random moment of a compiled call: the call returns its
    result or raises KeyboardInterrupt, and the Game is unchanged and gives
    the same results as before."""
    tried()
    g = concurrency.play_phase_game(rules, seed, seed % 9)
    before = g.snapshot()
    worlds = g.sample_worlds(g.to_move, 1 + size % 8, seed=seed)
    moves = g.legal_actions()
    calls: Dict[str, Callable[[], Any]] = {
        "rollout": lambda: g.rollout(size * 8, seed=seed, threads=threads).scores,
        "bot_rollout": lambda: g.rollout(size // 8, policy="bot", threads=threads).scores,
        "random_games": lambda: ddz.play_random_games(size * 4, rules=rules, seed=seed, threads=threads).scores,
        "move_values": lambda: g.move_values(worlds, moves, rollouts=1 + size // 8, policy="random",
                                             seed=seed, threads=threads),
        "solve_game": lambda: ddz.solve_game(g, max_nodes=size * 50, threads=threads).status,
        "solve_values": lambda: g.solve_values(worlds, moves, max_nodes=size * 20),
    }
    out = concurrency.with_signal(calls[kind], delay)
    assert g.snapshot() == before, "the call changed the game"
    if not isinstance(out, concurrency.Interrupted):
        again = calls[kind]()
        a, b = np.asarray(out), np.asarray(again)
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), f"{kind}: a second call differs"


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

@target
@given(argv=st.one_of(
    st.lists(st.text(max_size=12), max_size=6),
    st.tuples(st.just("moves"), st.text(alphabet="3456789TJQKA2BRx10 ", max_size=20),
              st.sampled_from([[], ["--json"], ["--rules", "four"], ["--rules", "bogus"], ["--last"],
                               ["--last-kind", "bomb"]]),
              st.sampled_from([[], ["--last", "3"], ["--last", "555666777888"], ["--last", "x"],
                               ["--last", "555666777888", "--last-kind", "AIRPLANE"]]))
    .map(lambda t: [t[0], t[1]] + t[2] + t[3]),
    st.tuples(st.just("selfplay"), st.sampled_from([["--games", "3"], ["--games", "-1"], ["--games", "x"],
                                                    ["--games", "0"], ["--games", "2", "--json"]]),
              st.sampled_from([[], ["--threads", "0"], ["--threads", "2"], ["--seed", "-5"],
                               ["--auction", "rob", "-q"], ["--rules", "four", "-q"]]))
    .map(lambda t: [t[0]] + t[1] + t[2]),
    st.tuples(st.just("play"), st.sampled_from([[], ["--seat", "9"], ["--seat", "-1"], ["--deals", "0"],
                                                ["--rules", "four"], ["--seed", "3"]]))
    .map(lambda t: [t[0]] + t[1]),
), stdin=st.text(max_size=40))
def cli(argv: List[str], stdin: str) -> None:
    tried()
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = cli_main(list(argv))
            except SystemExit as e:      # argparse: --help, --version, usage errors
                rc = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdin = old_stdin
    assert rc in (0, 1, 2), (argv, rc, err.getvalue())
    if rc == 0 and argv and argv[0] == "moves" and "--json" not in argv and "--last" not in argv \
            and "--rules" not in argv and not {"-h", "--help"} & set(argv):
        n = len(ddz.legal_moves(argv[1]))
        assert out.getvalue().strip().endswith(f"{n} moves"), (argv, out.getvalue()[-200:])


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def run(names: List[str], examples: int, seed_value: int) -> int:
    failures = 0
    for name in names:
        fn = TARGETS[name]
        configured = settings(max_examples=examples, database=None, deadline=None, derandomize=False,
                              print_blob=True, suppress_health_check=list(HealthCheck))(fn)
        configured = hypothesis_seed(seed_value)(configured)
        start, t0 = INPUTS, time.perf_counter()
        try:
            configured()
            status = "ok"
        except Exception:
            failures += 1
            status = "FAILED"
            traceback.print_exc()
        print(f"{name:<22} {status:<6} {INPUTS - start:>7} inputs {time.perf_counter() - t0:6.1f} s",
              flush=True)
    print(f"targets: {len(names)}, failed: {failures}")
    print(f"inputs tried: {INPUTS}", flush=True)
    return 1 if failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--examples", type=int, default=200, help="Hypothesis examples per target")
    p.add_argument("--seed", type=int, default=0, help="Hypothesis seed (fixed: reproducible runs)")
    p.add_argument("--only", default="", help="comma-separated target names")
    p.add_argument("--list", action="store_true", help="list the targets")
    args = p.parse_args(argv)
    if args.list:
        print("\n".join(TARGETS))
        return 0
    names = [n for n in args.only.split(",") if n] or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        p.error(f"unknown targets: {unknown}")
    return run(names, args.examples, args.seed)


if __name__ == "__main__":
    sys.exit(main())
