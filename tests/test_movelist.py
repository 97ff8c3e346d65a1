"""MoveList behaviour: a read-only sequence of Move backed by 16-byte rows.

Every behaviour is checked against the reference engine's plain list of
Moves for the same hand: a MoveList must behave like that list (len,
indexing, slices, iteration, reversed, membership, index, equality) and its
array views must describe the same moves.
"""
import copy
import gc
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ddz_fast as fast
from ddz_fast import PASS, Kind, Move, MoveList, Rules
from ddz_fast import reference as ref

K = Kind

CASES = {
    # id: (hand, last text or None, last kind, rules)
    "lead_standard": ("33344455566677BR2", None, None, "standard"),
    "lead_strict": ("3334445556667778", None, None, "strict"),
    "response_trio_solo": ("33344455566677BR2", "888+9", K.TRIO_SOLO, "standard"),
    "response_chain": ("3456789TJQKA22", "34567", None, "standard"),
    "lead_four": ("33333333444455BBRR", None, None, "four"),
    "response_bomb_four": ("33333333444445555BBRR", "66666", None, "four"),
    "response_pass_only": ("3", "BR", None, "standard"),
    "empty_lead": ("", None, None, "standard"),
    # four moves (a list that holds its rows itself), then five (malloc'd)
    "lead_four_moves": ("3345", None, None, "standard"),
    "lead_five_moves": ("33456", None, None, "standard"),
    "custom": ("333444BR99", None, None, Rules(both_jokers_as_kickers=True)),
}


def build(case):
    hand, last_text, kind, rules = CASES[case]
    last = None if last_text is None else ref.parse_move(last_text, kind, rules=rules)
    return fast.legal_moves(hand, last, rules=rules), ref.legal_moves(hand, last, rules=rules)


@pytest.fixture(params=list(CASES))
def case(request):
    return request.param


@pytest.fixture
def lists(case):
    return build(case)


def test_matches_reference(lists, same_moves):
    ml, expected = lists
    same_moves(ml, expected)
    assert ml.tolist() == expected


def test_len_and_indexing(lists):
    ml, expected = lists
    n = len(expected)
    assert len(ml) == n
    for i in range(-n, n):
        m = ml[i]
        assert isinstance(m, Move)
        assert m == expected[i]
        assert (m.kind, m.counts, m.rank, m.length, m.n_cards) == \
            (expected[i].kind, expected[i].counts, expected[i].rank, expected[i].length,
             expected[i].n_cards)
    for bad in (n, n + 1, -n - 1, -n - 100, 10 ** 6):
        with pytest.raises(IndexError):
            ml[bad]
    if n:
        assert ml[np.int64(0)] == expected[0]
        assert ml[np.uint8(n - 1)] == expected[n - 1]
    for bad in (1.0, "0", None, (0,)):
        with pytest.raises(TypeError):
            ml[bad]


def test_index_beyond_ssize_t_is_index_error():
    """A list raises IndexError for any out-of-range int index, however big.
    (Regression test: MoveList.__getitem__ used to convert the index to
    Py_ssize_t first, so ``ml[2**70]`` raised OverflowError.)"""
    ml = fast.legal_moves("334")
    with pytest.raises(IndexError):
        [1, 2][2 ** 70]
    with pytest.raises(IndexError):
        ml[2 ** 70]


def test_slices(lists):
    ml, expected = lists
    n = len(expected)
    for s in [slice(None), slice(1, None), slice(None, -1), slice(2, 5), slice(None, None, 2),
              slice(None, None, -1), slice(-3, None), slice(5, 2), slice(n, n + 5),
              slice(-n - 5, 3), slice(1, -1, 3), slice(None, None, -3), slice(n - 1, 0, -2)]:
        got = ml[s]
        assert list(got) == expected[s], s
        assert all(isinstance(m, Move) for m in got)
    with pytest.raises(ValueError):
        ml[::0]


def test_iteration_and_reversed(lists):
    ml, expected = lists
    assert list(ml) == expected
    assert list(ml) == expected  # iterating twice gives the same moves
    assert list(reversed(ml)) == expected[::-1]
    it = iter(ml)
    assert list(zip(it, expected)) == list(zip(expected, expected))
    assert [m.rank for m in ml] == [m.rank for m in expected]
    assert [m.length for m in ml] == [m.length for m in expected]
    assert [m.n_cards for m in ml] == [m.n_cards for m in expected]
    assert [m.kind for m in reversed(ml)] == [m.kind for m in reversed(expected)]


def test_contains_index_count(lists):
    ml, expected = lists
    for i, m in enumerate(expected):
        assert m in ml
        assert ml.index(m) == i
        assert ml.count(m) == 1
    outsiders = [ref.parse_move("2222"), ref.parse_move("KKKK+9B", K.FOUR_TWO_SOLO),
                 ref.parse_move("TJQKA")]
    if expected and expected[0] != PASS:
        outsiders.append(PASS)
    for m in outsiders:
        if m not in expected:
            assert m not in ml
            assert ml.count(m) == 0
            with pytest.raises(ValueError):
                ml.index(m)
    # same cards, other kind: a different move
    for m in expected:
        if m.kind == K.AIRPLANE_SOLO:
            twin = Move._make(K.AIRPLANE, m.counts, m.rank, m.length)
            assert (twin in ml) == (twin in expected)
    for other in (None, 3, "33", (0,) * 15, list(expected[:1])):
        assert other not in ml
        with pytest.raises(ValueError):
            ml.index(other)


def test_equality(lists):
    ml, expected = lists
    assert ml == expected and expected == ml
    assert not (ml != expected) and not (expected != ml)
    assert ml == list(ml)
    if expected:
        assert ml != expected[:-1] and expected[:-1] != ml
        assert ml != expected + [expected[0]]
        if len(expected) > 1:
            assert ml != expected[::-1]
        changed = list(expected)
        bomb = ref.parse_move("2222")
        changed[-1] = bomb if changed[-1] != bomb else PASS
        assert ml != changed and changed != ml
        assert ml != [str(m) for m in expected]
        assert ml != [None] * len(expected)
    else:
        assert ml == [] and [] == ml and ml != [PASS]
    for other in (None, 0, "abc", 3.5, object(), {1: 2}):
        assert (ml == other) is False
        assert (ml != other) is True
    with pytest.raises(TypeError):
        hash(ml)


def test_equality_between_movelists():
    a1, _ = build("lead_standard")
    a2, _ = build("lead_standard")
    b, _ = build("response_trio_solo")
    e1, _ = build("empty_lead")
    assert a1 is not a2 and a1 == a2 and not (a1 != a2)
    assert a1 != b and b != a1
    assert e1 == fast.legal_moves("", rules="four") == []
    assert fast.legal_moves("3", ref.parse_move("BR")) == fast.legal_moves("", ref.parse_move("3"))


def test_repr():
    ml, expected = build("lead_standard")
    r = repr(ml)
    assert r.startswith("MoveList([") and r.endswith("])")
    assert ", ".join(str(m) for m in expected[:8]) in r
    assert f"({len(expected)} moves)" in r
    short = fast.legal_moves("34")
    assert repr(short) == "MoveList([3, 4])"
    assert repr(fast.legal_moves("")) == "MoveList([])"
    resp = fast.legal_moves("4", ref.parse_move("3"))
    assert repr(resp) == "MoveList([PASS, 4])"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(lists, protocol, same_moves):
    ml, expected = lists
    back = pickle.loads(pickle.dumps(ml, protocol=protocol))
    assert type(back) is MoveList
    assert back == ml
    same_moves(back, expected)
    assert back.rows.tobytes() == ml.rows.tobytes()
    same_moves(copy.copy(ml), expected)
    same_moves(copy.deepcopy(ml), expected)


def test_array_views(lists):
    ml, expected = lists
    n = len(expected)
    rows = ml.rows
    assert rows.shape == (n, 16) and rows.dtype == np.uint8
    assert ml.counts.shape == (n, 15) and ml.counts.dtype == np.uint8
    assert ml.kinds.shape == (n,) and ml.kinds.dtype == np.uint8
    assert np.array_equal(ml.counts, rows[:, :15]) and np.array_equal(ml.kinds, rows[:, 15])
    if n:
        assert np.shares_memory(ml.counts, rows) and np.shares_memory(ml.kinds, rows)
    assert rows.tolist() == [list(m.counts) + [int(m.kind)] for m in expected]
    for name in ("ranks", "lengths", "n_cards"):
        arr = getattr(ml, name)
        assert arr.shape == (n,) and arr.dtype == np.int8, name
    assert ml.ranks.tolist() == [m.rank for m in expected]
    assert ml.lengths.tolist() == [m.length for m in expected]
    assert ml.n_cards.tolist() == [m.n_cards for m in expected]
    assert ml.n_cards.tolist() == ml.counts.sum(axis=1).tolist()
    # read-only, and cannot be made writeable
    for name in ("rows", "counts", "kinds", "ranks", "lengths", "n_cards"):
        arr = getattr(ml, name)
        assert not arr.flags.writeable, name
        if n:
            with pytest.raises(ValueError):
                arr[0] = 1
            with pytest.raises(ValueError):
                arr.flags.writeable = True
    # the moves are unchanged after all that
    assert list(ml) == expected


def test_pass_fields():
    ml = fast.legal_moves("4", ref.parse_move("3"))
    assert ml[0] is not None and ml[0] == PASS and ml[0].is_pass
    assert ml.ranks[0] == -1 and ml.lengths[0] == 0 and ml.n_cards[0] == 0
    assert ml.kinds[0] == 0 and not ml.counts[0].any()


@pytest.mark.parametrize("hand", ["33344455566677BR2", "3345", "3"])
def test_views_outlive_the_movelist(hand):
    expected = ref.legal_moves(hand)
    ml = fast.legal_moves(hand)
    rows, counts, ranks = ml.rows, ml.counts, ml.ranks
    del ml
    gc.collect()
    for other in ("3456789TJQKA2BR", "4", "KKA"):  # reuse freed memory if any
        fast.legal_moves(other)
    assert rows.tolist() == [list(m.counts) + [int(m.kind)] for m in expected]
    assert counts.tolist() == [list(m.counts) for m in expected]
    assert ranks.tolist() == [m.rank for m in expected]
    it = iter(fast.legal_moves(hand))
    gc.collect()
    assert list(it) == expected


def test_moves_hash_and_equal_reference_moves(case, lists):
    ml, expected = lists
    rules = CASES[case][3]
    got = list(ml)
    assert set(got) == set(expected)
    assert len(set(got)) == len(got)
    table = {m: i for i, m in enumerate(expected)}
    for i, m in enumerate(got):
        assert hash(m) == hash(expected[i])
        assert table[m] == i
        assert repr(m) == repr(expected[i]) and str(m) == str(expected[i])
        assert m.cards == expected[i].cards and m.is_pass == expected[i].is_pass
        assert m.to_array().tolist() == list(expected[i].counts)
        back = pickle.loads(pickle.dumps(m))
        assert back == m and (back.rank, back.length) == (m.rank, m.length)
    # the validating constructor builds equal moves
    for m in expected[:30]:
        if not m.is_pass:
            built = Move(m.kind, m.counts, rules=rules)
            assert built == m and hash(built) == hash(m)
            assert (built.rank, built.length) == (m.rank, m.length)


# ---------------------------------------------------------------------------
# Pickles across processes
# ---------------------------------------------------------------------------

MAKER = """
import pickle, sys
import numpy as np
import ddz_fast as fast
# A fresh process: 'standard' gets registry id 0.
hand = fast.to_counts("333345")
obj = {"movelist": fast.legal_moves(hand, rules="standard"),
       "movebatch": fast.legal_moves_batch(hand[None, :], rules="standard")}[sys.argv[1]]
sys.stdout.buffer.write(pickle.dumps(obj))
"""

CHECKER = """
import pickle, sys
import ddz_fast as fast
# Another fresh process: 'four' gets registry id 0.
fast.legal_moves("3", rules="four")
obj = pickle.loads(sys.stdin.buffer.read())
moves = obj if sys.argv[1] == "movelist" else obj[0]
m = [x for x in moves if x.kind.name == "FOUR_TWO_SOLO"][0]
try:
    fast.legal_moves("5555", m, rules="four")
except Exception as e:
    print(type(e).__name__)
else:
    print("no error")
"""


def pickle_across_processes(what):
    made = subprocess.run([sys.executable, "-c", MAKER, what], capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr.decode()
    checked = subprocess.run([sys.executable, "-c", CHECKER, what], input=made.stdout,
                             capture_output=True, timeout=120)
    assert checked.returncode == 0, checked.stderr.decode()
    return checked.stdout.decode().strip()


def test_unpickled_movelist_in_another_process_is_not_trusted_under_other_rules():
    """Moves read from an unpickled MoveList carry an "already validated"
    mark for its rules; that mark must mean the same rules in the process
    that loads the pickle.

    Regression test: a MoveList used to pickle its process-local registry
    id, so in a process whose registry gave that id to other rules, the
    moves were trusted under the wrong rules.  Repro: process 1 (fresh):
    ``pickle.dumps(legal_moves("333345"))``; process 2 (fresh): calls
    ``legal_moves("3", rules="four")`` (so 'four' gets the same id),
    unpickles, and ``legal_moves("5555", <FOUR_TWO_SOLO 333345 from the
    list>, rules="four")`` returned [PASS, 5555] instead of raising
    ValueError ('333345' is not a FOUR_TWO_SOLO under rules 'four'), which
    the reference and the fast path within one process do."""
    m = [x for x in fast.legal_moves("333345") if x.kind == K.FOUR_TWO_SOLO][0]
    with pytest.raises(ValueError):
        ref.legal_moves("5555", m, rules="four")
    with pytest.raises(ValueError):
        fast.legal_moves("5555", m, rules="four")
    assert pickle_across_processes("movelist") == "ValueError"


def test_unpickled_movebatch_in_another_process_is_not_trusted_under_other_rules():
    """The same for a pickled MoveBatch (regression test: Cython's automatic
    pickling used to keep its registry id)."""
    assert pickle_across_processes("movebatch") == "ValueError"


# ---------------------------------------------------------------------------
# card_lists
# ---------------------------------------------------------------------------

def test_card_lists_default_labels_are_rank_indices():
    moves = fast.legal_moves("3345")
    lists = moves.card_lists()
    assert lists == [[r for r in range(15) for _ in range(int(m.counts[r]))] for m in moves]
    assert lists[0] == [0]


def test_card_lists_with_labels_and_pass():
    last = fast.parse_move("4")
    moves = fast.legal_moves("3BR", last)
    labels = tuple("3456789TJQKA2BR")
    assert moves.card_lists(labels) == [[], ["B"], ["R"], ["B", "R"]]


def test_card_lists_unique_drops_the_same_cards_read_twice():
    moves = fast.legal_moves("333444555666")
    plain = moves.card_lists()
    unique = moves.card_lists(unique=True)
    as_tuples = [tuple(x) for x in plain]
    # 333444555666 is an AIRPLANE and an AIRPLANE_SOLO: one list for both
    assert len(plain) - len(unique) == len(as_tuples) - len(set(as_tuples)) == 1
    assert [tuple(x) for x in unique] == list(dict.fromkeys(as_tuples))


def test_card_lists_are_fresh_lists():
    moves = fast.legal_moves("34")
    a = moves.card_lists()
    a[0].append(99)
    assert moves.card_lists()[0] == [0]


@pytest.mark.parametrize("values", [(), tuple(range(14)), tuple(range(16))])
def test_card_lists_need_15_labels(values):
    with pytest.raises(ValueError, match="15 labels"):
        fast.legal_moves("34").card_lists(values)


def test_lists_made_after_others_are_dropped_hold_only_their_own_moves():
    """MoveList objects are recycled once dropped: a new list never shows a
    dropped one's moves or keeps its owner alive (a batch a view was made
    of, the memory of a long list)."""
    batch = fast.legal_moves_batch(fast.to_counts_batch(["33445566778899TTJJQQ", "3", "BR"]))
    before = sys.getrefcount(batch)
    long_hand = "33445566778899TTJJQQKKA"
    long_moves = ref.legal_moves(fast.to_counts(long_hand))
    for _ in range(300):
        views = [batch[i] for i in range(len(batch))]
        assert views[0] == fast.legal_moves("33445566778899TTJJQQ")
        long_list = fast.legal_moves(long_hand)
        del views
        small = [fast.legal_moves(h) for h in ("3", "34", "B", "")]
        assert [m.cards for lst in small for m in lst] == ["3", "3", "4", "B"]
        assert long_list == long_moves
        del long_list, small
    gc.collect()
    assert sys.getrefcount(batch) == before
