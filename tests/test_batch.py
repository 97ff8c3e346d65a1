"""The batch API: ``legal_moves_batch``, ``count_moves`` and ``MoveBatch``.

Hand i of a batch must give exactly ``legal_moves(hands[i], lasts[i])``
(byte-identical rows), whatever the form of ``hands`` and ``lasts`` and the
number of threads; a sample of hands is also checked against the reference
engine.
"""
import gc
import pickle
import random

import numpy as np
import pytest

import ddz_fast as fast
from ddz_fast import PASS, Kind, MoveBatch, MoveList, Rules, resolve_rules
from ddz_fast import reference as ref
from ddz_fast._core.movelist import MoveRows

K = Kind

RULES_CASES = {
    "standard": "standard",
    "strict": "strict",
    "four": "four",
    "both_jokers": Rules(both_jokers_as_kickers=True),
    "two_decks_all_kinds": Rules(players=4, decks=2, four_two_solo_distinct=False),
}


def deck_counts(rules):
    r = resolve_rules(rules)
    return [r.max_count] * 13 + [r.max_jokers] * 2


def deal(rules, rng, max_hand, max_other=12):
    """A random hand and a random last move (None, PASS or a move of another
    hand of the same deck, drawn from the reference lead list)."""
    cards = [x for x, n in enumerate(deck_counts(rules)) for _ in range(n)]
    rng.shuffle(cards)
    n = rng.randint(0, max_hand)
    hand = [0] * 15
    for c in cards[:n]:
        hand[c] += 1
    other = [0] * 15
    for c in cards[n:n + rng.randint(1, max_other)]:
        other[c] += 1
    pick = rng.random()
    if pick < 0.15:
        last = None
    elif pick < 0.25:
        last = PASS
    else:
        pool = ref.legal_moves(other, rules=rules)
        last = rng.choice(pool) if pool else None
    return hand, last


def make_cases(rules, n, seed, max_hand=None):
    rng = random.Random(f"{seed}-{rules!r}")
    if max_hand is None:
        max_hand = 20 if resolve_rules(rules).decks == 1 else 30
    cases = [deal(rules, rng, max_hand) for _ in range(n)]
    # always include the empty hand, leading and responding
    cases[0] = ([0] * 15, None)
    if n > 2:
        cases[1] = ([0] * 15, cases[2][1] if cases[2][1] is not None else PASS)
    return cases


def row_of(move):
    if move is None:
        return [0] * 16
    return list(move.counts) + [int(move.kind)]


def lasts_forms(lasts):
    """The same lasts as a list (None / PASS / Move), a tuple, an object array
    and (N, 16) uint8 rows."""
    rows = np.array([row_of(m) for m in lasts], dtype=np.uint8).reshape(len(lasts), 16)
    obj = np.empty(len(lasts), dtype=object)
    obj[:] = lasts
    return {"list": list(lasts), "tuple": tuple(lasts), "object_array": obj, "rows": rows}


def check_batch(batch, hands, lasts, rules):
    """batch agrees with per-hand legal_moves; returns the per-hand lists."""
    n = len(hands)
    assert isinstance(batch, MoveBatch)
    assert len(batch) == n
    offsets, rows = batch.offsets, batch.rows
    assert offsets.dtype == np.int64 and offsets.shape == (n + 1,) and offsets[0] == 0
    assert rows.dtype == np.uint8 and rows.ndim == 2 and rows.shape[1] == 16
    assert offsets[-1] == rows.shape[0]
    assert np.all(np.diff(offsets) >= 0)
    singles = []
    for i in range(n):
        ml = fast.legal_moves(hands[i], lasts[i] if lasts is not None else None, rules=rules)
        part = rows[offsets[i]:offsets[i + 1]]
        assert part.tobytes() == ml.rows.tobytes(), f"hand {i}: {hands[i]} last {lasts and lasts[i]!r}"
        singles.append(ml)
    return singles


# ---------------------------------------------------------------------------
# Batch equals single-hand calls
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("form", ["none", "list", "tuple", "object_array", "rows"])
@pytest.mark.parametrize("rid", list(RULES_CASES))
def test_batch_equals_single(rid, form, same_moves):
    rules = RULES_CASES[rid]
    cases = make_cases(rules, 60, seed=1)
    hands = np.array([h for h, _ in cases], dtype=np.uint8)
    if form == "none":
        lasts, arg = None, None
    else:
        lasts = [m for _, m in cases]
        arg = lasts_forms(lasts)[form]
    batch = fast.legal_moves_batch(hands, arg, rules=rules)
    singles = check_batch(batch, [list(h) for h in hands], lasts, rules)
    counts = fast.count_moves(hands, arg, rules=rules)
    assert counts.dtype == np.int64 and counts.shape == (len(hands),)
    assert counts.tolist() == [len(s) for s in singles] == np.diff(batch.offsets).tolist()
    # MoveBatch indexing gives the same MoveLists, and the reference agrees
    for i in range(len(hands)):
        assert batch[i] == singles[i]
        assert batch[i - len(hands)] == singles[i]
    for i in range(0, len(hands), 4):
        last = None if lasts is None else lasts[i]
        same_moves(batch[i], ref.legal_moves(list(hands[i]), last, rules=rules), f"batch[{i}]")


@pytest.mark.parametrize("rid", list(RULES_CASES))
def test_count_moves_single_hand_forms(rid):
    rules = RULES_CASES[rid]
    for hand, last in make_cases(rules, 25, seed=2):
        want = len(ref.legal_moves(hand, last, rules=rules))
        text = "".join("3456789TJQKA2BR"[i] * c for i, c in enumerate(hand))
        for form in (hand, tuple(hand), np.array(hand, dtype=np.uint8),
                     np.array(hand, dtype=np.int64), text):
            got = fast.count_moves(form, last, rules=rules)
            assert type(got) is int and got == want, (form, last)
        assert len(fast.legal_moves(hand, last, rules=rules)) == want


def test_count_moves_single_hand_list_of_numpy_ints():
    """A list of 15 numpy integers is one hand for legal_moves (to_counts
    accepts numpy integers), so count_moves counts it as one hand too.
    (Regression test: count_moves used to test ``isinstance(x, int)`` and
    took ``list(np.array(hand))`` for a batch: ValueError.)"""
    hand = list(np.array(fast.to_counts("334455BR"), dtype=np.int64))
    assert len(fast.legal_moves(hand)) == len(ref.legal_moves(hand))
    assert fast.count_moves(hand) == len(ref.legal_moves(hand))


@pytest.mark.parametrize("rid", ["standard", "four", "both_jokers"])
def test_threads_identical(rid):
    rules = RULES_CASES[rid]
    cases = make_cases(rules, 101, seed=3)
    hands = np.array([h for h, _ in cases], dtype=np.uint8)
    lasts = [m for _, m in cases]
    rows_form = lasts_forms(lasts)["rows"]
    for arg in (None, lasts, rows_form):
        one = fast.legal_moves_batch(hands, arg, rules=rules, threads=1)
        c1 = fast.count_moves(hands, arg, rules=rules, threads=1)
        for t in (2, 3, 4, 7):
            other = fast.legal_moves_batch(hands, arg, rules=rules, threads=t)
            assert other.offsets.tobytes() == one.offsets.tobytes(), t
            assert other.rows.tobytes() == one.rows.tobytes(), t
            assert fast.count_moves(hands, arg, rules=rules, threads=t).tolist() == c1.tolist()
    # fewer hands than threads
    for n in (1, 2, 3):
        a = fast.legal_moves_batch(hands[:n], lasts[:n], rules=rules, threads=1)
        b = fast.legal_moves_batch(hands[:n], lasts[:n], rules=rules, threads=4)
        assert a.rows.tobytes() == b.rows.tobytes() and a.offsets.tolist() == b.offsets.tolist()


def test_threads_large_batch():
    """Many hands, many moves per hand (the per-thread buffers must grow)."""
    rng = np.random.default_rng(4)
    hands = rng.integers(0, 5, size=(3000, 15)).astype(np.uint8)
    hands[:, 13:] = rng.integers(0, 2, size=(3000, 2))
    one = fast.legal_moves_batch(hands, threads=1)
    four = fast.legal_moves_batch(hands, threads=4)
    assert one.rows.tobytes() == four.rows.tobytes()
    assert one.offsets.tolist() == four.offsets.tolist()
    assert fast.count_moves(hands, threads=3).tolist() == np.diff(one.offsets).tolist()
    for i in range(0, 3000, 97):
        assert one[i] == fast.legal_moves(hands[i])


@pytest.mark.parametrize("threads", [1, 2])
def test_batches_on_the_memory_of_freed_batches_are_exact(threads):
    """A large batch's freed buffer is kept for the next batches: a batch
    written into it holds exactly its own rows, whatever the earlier batch
    left there (fewer, other or more moves; a batch alive meanwhile keeps
    its own rows)."""
    rng = np.random.default_rng(11)
    big = rng.integers(0, 5, size=(6000, 15)).astype(np.uint8)
    big[:, 13:] = 1                               # many moves: buffers of several MiB
    small = rng.integers(0, 3, size=(2500, 15)).astype(np.uint8)
    small[:, 13:] = 0
    kept = fast.legal_moves_batch(big, threads=threads)
    kept_rows = kept.rows.tobytes()
    for hands in (big, small, big[::-1].copy(), small, big):
        batch = fast.legal_moves_batch(hands, threads=threads)
        want = [fast.legal_moves(h) for h in hands[::500]]
        assert [batch[i] for i in range(0, len(hands), 500)] == want
        assert batch.offsets[-1] == fast.count_moves(hands).sum()
        del batch
        gc.collect()
    assert kept.rows.tobytes() == kept_rows
    counts = np.diff(kept.offsets)
    assert counts.sum() * 16 > 2 << 20            # the case is large enough to be kept

def test_empty_batch():
    for rules in ("standard", "four"):
        for dtype in (np.uint8, np.int64):
            hands = np.zeros((0, 15), dtype=dtype)
            for lasts in (None, [], (), np.zeros((0, 16), dtype=np.uint8)):
                for threads in (1, 4):
                    b = fast.legal_moves_batch(hands, lasts, rules=rules, threads=threads)
                    assert len(b) == 0
                    assert b.rows.shape == (0, 16) and b.rows.dtype == np.uint8
                    assert b.offsets.tolist() == [0]
                    assert b.counts.shape == (0, 15) and b.kinds.shape == (0,)
                    assert b.hand_index.shape == (0,)
                    with pytest.raises(IndexError):
                        b[0]
                    c = fast.count_moves(hands, lasts, rules=rules, threads=threads)
                    assert c.shape == (0,) and c.dtype == np.int64


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_kernel_timer_runs_the_kernels_of_legal_moves_batch(rules):
    """The benchmarks' kernel timer (ddz_fast._core.testing) writes as many rows
    as legal_moves_batch returns for the same hands and lasts, and its
    counting mode counts as many; its input is checked the same way."""
    from ddz_fast._core.testing import time_kernel
    rng = random.Random(7)
    r = resolve_rules(rules)
    deck = [x for x in range(13) for _ in range(r.max_count)] + [13, 14] * r.max_jokers
    hands = np.zeros((40, 15), np.uint8)
    others = np.zeros((40, 15), np.uint8)     # dealt from the same deck: a last move fits
    for h, o in zip(hands, others):
        cards = rng.sample(deck, 34)
        for x in cards[:17]:
            h[x] += 1
        for x in cards[17:]:
            o[x] += 1
    lead = fast.legal_moves_batch(hands, rules=rules)
    lasts = [rng.choice(fast.legal_moves(o, rules=rules)) for o in others]
    answer = fast.legal_moves_batch(hands, lasts, rules=rules)
    for given, batch in ((None, lead), (lasts, answer)):
        t, rows, t_copy = time_kernel(hands, given, rules=rules, repeat=1)
        assert rows == len(batch.rows) and t >= 0 and t_copy >= 0
        assert time_kernel(hands, given, rules=rules, repeat=1, count=True)[1] == rows
    with pytest.raises(ValueError, match="shape"):
        time_kernel(hands[:, :14], rules=rules)


@pytest.mark.parametrize("rules", ["standard", "strict", "four"])
def test_batch_with_empty_hands(rules):
    empty = np.zeros((3, 15), dtype=np.uint8)
    b = fast.legal_moves_batch(empty, rules=rules)
    assert b.offsets.tolist() == [0, 0, 0, 0] and len(b.rows) == 0
    assert all(b[i] == [] for i in range(3))
    last = ref.parse_move("3", rules=rules)
    b = fast.legal_moves_batch(empty, [last, PASS, None], rules=rules)
    assert b.offsets.tolist() == [0, 1, 1, 1]
    assert b[0] == [PASS] and b[1] == [] and b[2] == []
    assert fast.count_moves(empty, [last, PASS, None], rules=rules).tolist() == [1, 0, 0]
    assert fast.count_moves([0] * 15, last, rules=rules) == 1
    assert fast.count_moves("", rules=rules) == 0
    # an empty hand in the middle of others
    hands = np.array([fast.to_counts("3345", rules=rules), [0] * 15,
                      fast.to_counts("66", rules=rules)], dtype=np.uint8)
    b = fast.legal_moves_batch(hands, [None, last, last], rules=rules, threads=3)
    check_batch(b, [list(h) for h in hands], [None, last, last], rules)
    assert b[1] == [PASS]


def test_movebatch_indexing_and_views():
    rules = "standard"
    cases = make_cases(rules, 30, seed=5)
    hands = np.array([h for h, _ in cases], dtype=np.uint8)
    lasts = [m for _, m in cases]
    b = fast.legal_moves_batch(hands, lasts, rules=rules)
    n = len(b)
    assert n == 30
    for i in range(n):
        ml = b[i]
        assert isinstance(ml, MoveList)
        assert ml == fast.legal_moves(hands[i], lasts[i], rules=rules)
        assert ml.rows.tobytes() == b.rows[b.offsets[i]:b.offsets[i + 1]].tobytes()
        assert b[i - n] == ml
    for bad in (n, n + 1, -n - 1, 10 ** 6):
        with pytest.raises(IndexError):
            b[bad]
    with pytest.raises(TypeError):
        b["0"]
    assert np.array_equal(b.counts, b.rows[:, :15])
    assert np.array_equal(b.kinds, b.rows[:, 15])
    assert b.hand_index.tolist() == [i for i in range(n) for _ in range(b.offsets[i], b.offsets[i + 1])]
    assert repr(b) == f"MoveBatch({n} hands, {len(b.rows)} moves)"
    # read-only results
    for arr in (b.rows, b.offsets, b.counts, b.kinds):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[..., 0] = 1
    # moves from a batch are ordinary moves: usable as the last move
    i = next(i for i in range(n) if len(b[i]) > 1)
    m = b[i][-1]
    assert fast.legal_moves("", m, rules=rules) == [PASS]
    assert fast.legal_moves("", m, rules=rules) == ref.legal_moves("", m, rules=rules)


@pytest.mark.parametrize("threads", [1, 3])
def test_movebatch_items_view_the_batch_rows(threads):
    """batch[i] is a MoveList over the batch's own rows (no copy), with the
    same views as any MoveList; the batch's views cover every move."""
    rules = "standard"
    cases = make_cases(rules, 40, seed=11)
    hands = np.array([h for h, _ in cases], dtype=np.uint8)
    lasts = [m for _, m in cases]
    b = fast.legal_moves_batch(hands, lasts, rules=rules, threads=threads)
    assert isinstance(b, MoveRows) and isinstance(b[0], MoveRows)
    parts = [b[i] for i in range(len(b))]
    for i, ml in enumerate(parts):
        single = fast.legal_moves(hands[i], lasts[i], rules=rules)
        assert ml == single
        if len(ml):
            assert np.shares_memory(ml.rows, b.rows)
        for name in ("rows", "counts", "kinds", "ranks", "lengths", "n_cards"):
            assert np.array_equal(getattr(ml, name), getattr(single, name)), (i, name)
            assert getattr(ml, name).dtype == getattr(single, name).dtype
    for name in ("ranks", "lengths", "n_cards"):
        whole = getattr(b, name)
        assert whole.shape == (len(b.rows),) and not whole.flags.writeable
        assert whole.tolist() == [x for ml in parts for x in getattr(ml, name).tolist()], name
    assert b.n_cards.tolist() == b.counts.sum(axis=1).tolist()


def test_movebatch_items_outlive_the_batch():
    hands = np.array([fast.to_counts("33344455566677BR2"), fast.to_counts("3456")], dtype=np.uint8)
    expected = [ref.legal_moves("33344455566677BR2"), ref.legal_moves("3456")]
    b = fast.legal_moves_batch(hands, threads=2)
    first, second = b[0], b[1]
    del b
    gc.collect()
    fast.legal_moves_batch(hands[::-1].copy())  # reuse freed memory if any
    assert list(first) == expected[0] and list(second) == expected[1]
    # a MoveBatch made without its constructor is an empty batch, not a crash
    empty = MoveBatch.__new__(MoveBatch)
    assert len(empty) == 0 and empty.rows.shape == (0, 16) and empty.offsets.tolist() == [0]
    assert empty.ranks.shape == (0,) and repr(empty) == "MoveBatch(0 hands, 0 moves)"
    with pytest.raises(IndexError):
        empty[0]


def _batches_of_3344():
    hands = np.array([fast.to_counts("3344")] * 2, dtype=np.uint8)
    one = fast.legal_moves_batch(hands, threads=1)
    two = fast.legal_moves_batch(hands, threads=2)
    return {"threads=1": one, "threads=2": two,
            "unpickled": pickle.loads(pickle.dumps(two))}


@pytest.mark.parametrize("which", ["threads=1", "threads=2", "unpickled"])
def test_mutated_batch_rows_do_not_yield_trusted_moves(which):
    """MoveBatch.rows is flagged read-only, but when the array owns its
    memory the flag can be turned back on; batch[i] then turns the mutated
    bytes into Moves marked as already validated, which the fast path trusts.

    BUG (threads >= 2, and unpickled batches): ``b.rows.flags.writeable =
    True`` succeeds (MoveList.rows refuses it); a PAIR '34' forged that way
    is accepted: ``fast.beats(b[0][0], PASS)`` returns True where the
    reference raises ValueError ('34' is not a PAIR)."""
    b = _batches_of_3344()[which]
    assert b[0] == ref.legal_moves("3344")
    try:
        b.rows.flags.writeable = True
        b.rows[0] = list(fast.to_counts("34")) + [int(K.PAIR)]
    except ValueError:
        return  # the rows really are read-only: nothing can be forged
    forged = b[0][0]
    with pytest.raises(ValueError):
        ref.beats(forged, PASS)
    with pytest.raises(ValueError):
        fast.beats(forged, PASS)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_movebatch_pickle_round_trip(protocol):
    rules = "four"
    cases = make_cases(rules, 20, seed=7)
    hands = np.array([h for h, _ in cases], dtype=np.uint8)
    lasts = [m for _, m in cases]
    for threads in (1, 3):
        b = fast.legal_moves_batch(hands, lasts, rules=rules, threads=threads)
        back = pickle.loads(pickle.dumps(b, protocol=protocol))
        assert isinstance(back, MoveBatch) and len(back) == len(b)
        assert back.rows.tobytes() == b.rows.tobytes()
        assert back.offsets.tolist() == b.offsets.tolist()
        for i in range(len(b)):
            assert back[i] == b[i]
        # moves from the copy are still checked under other rules
        bombs = [m for i in range(len(back)) for m in back[i] if m.kind == K.BOMB and m.n_cards > 4]
        for m in bombs[:3]:
            with pytest.raises(ValueError):
                fast.beats(m, PASS, rules="standard")


# ---------------------------------------------------------------------------
# Input forms: every acceptable form gives the same batch
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rid", ["standard", "four"])
def test_hands_input_forms(rid):
    rules = RULES_CASES[rid]
    cases = make_cases(rules, 40, seed=6)
    base = np.array([h for h, _ in cases], dtype=np.uint8)
    lasts = [m for _, m in cases]
    want = fast.legal_moves_batch(base, lasts, rules=rules)
    wide = np.zeros((40, 20), dtype=np.uint8)
    wide[:, 3:18] = base
    spaced = np.zeros((80, 15), dtype=np.uint8)
    spaced[::2] = base
    ro = base.copy()
    ro.flags.writeable = False
    forms = {
        "list of lists": base.tolist(),
        "tuple of tuples": tuple(tuple(r) for r in base.tolist()),
        "int64": base.astype(np.int64),
        "uint16": base.astype(np.uint16),
        "int8": base.astype(np.int8),
        "fortran": np.asfortranarray(base),
        "column slice": wide[:, 3:18],
        "row stride": spaced[::2],
        "read-only": ro,
    }
    for name, hands in forms.items():
        got = fast.legal_moves_batch(hands, lasts, rules=rules, threads=2)
        assert got.rows.tobytes() == want.rows.tobytes(), name
        assert got.offsets.tolist() == want.offsets.tolist(), name
        assert fast.count_moves(hands, lasts, rules=rules).tolist() == np.diff(want.offsets).tolist()
    # lasts rows that are not contiguous
    rows = lasts_forms(lasts)["rows"]
    wide_rows = np.zeros((40, 32), dtype=np.uint8)
    wide_rows[:, ::2] = rows
    got = fast.legal_moves_batch(base, wide_rows[:, ::2], rules=rules)
    assert got.rows.tobytes() == want.rows.tobytes()
    got = fast.legal_moves_batch(base, np.asfortranarray(rows), rules=rules)
    assert got.rows.tobytes() == want.rows.tobytes()


def test_repeated_last_rows_are_each_checked_and_answered():
    """A batch whose lasts rows repeat gives every hand its own answer, and a
    row that is not a legal move is refused wherever it stands, even between
    copies of a legal row with the same cards (only the kind byte differs)."""
    rng = random.Random(15)
    pair = fast.parse_move("33")
    good = row_of(pair)
    hands = []
    for _ in range(300):
        h = [0] * 15
        for _ in range(rng.randrange(0, 18)):
            k = rng.randrange(1, 15)
            if h[k] < (1 if k >= 13 else 4):
                h[k] += 1
        hands.append(h)
    hands = np.array(hands, dtype=np.uint8)
    rows = np.array([good] * len(hands), dtype=np.uint8)
    b = fast.legal_moves_batch(hands, rows)
    for i in range(len(hands)):
        part = b.rows[b.offsets[i]:b.offsets[i + 1]]
        assert part.tobytes() == fast.legal_moves(hands[i], pair).rows.tobytes()
    assert fast.count_moves(hands, rows).tolist() == [len(fast.legal_moves(h, pair)) for h in hands]
    for bad_at in (0, 1, 137, len(hands) - 1):
        bad = rows.copy()
        bad[bad_at, 15] = int(Kind.SOLO)        # two cards are no single
        for call in (fast.legal_moves_batch, fast.count_moves):
            with pytest.raises(ValueError, match=rf"lasts\[{bad_at}\] .* not a legal move"):
                call(hands, bad)
