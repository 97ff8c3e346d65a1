"""Inputs of the move kernels that reach C memory: rules ids that come from
Python objects, masked arrays and other ndarray subclasses of hands, a
caller's array changed by another thread during a batch, and worker threads
that cannot be started.  Everything that could crash runs in a child
process (tests/adversary/_inputs_child.py)."""
import numpy as np
import pytest

import ddz_fast
from ddz_fast import Rules

from _inputs_child import assert_child_ok


def _tampered_plain(cid):
    r = Rules(name="tampered")
    object.__setattr__(r, "_ddz_cid", cid)
    return r


class _SubclassRules(Rules):
    pass


def _tampered_subclass(cid):
    r = _SubclassRules(name="sub")
    object.__setattr__(r, "_ddz_cid", cid)
    return r


def _class_attribute_subclass(cid):
    cls = type("ClassCidRules", (Rules,), {"_ddz_cid": cid})
    return cls(name="classattr")


_BOGUS_IDS = [99999, -1, 2**70, -2**63, 255, 1.5, "0", None, True]


@pytest.mark.parametrize("make", [_tampered_plain, _tampered_subclass, _class_attribute_subclass])
@pytest.mark.parametrize("cid", _BOGUS_IDS)
def test_a_forged_rules_id_never_indexes_the_rules_table(make, cid):
    """Whatever `_ddz_cid` a Rules carries, the answer is that of its own
    options (the standard deck here)."""
    r = make(cid)
    assert ddz_fast.count_moves("33", rules=r) == 2
    assert [m.cards for m in ddz_fast.legal_moves("3", rules=r)] == ["3"]
    with pytest.raises(ValueError, match="at most 4"):
        ddz_fast.legal_moves([5] + [0] * 14, rules=r)


def test_a_rules_id_of_other_options_is_not_trusted():
    """A valid id of another preset (the two-deck one) does not change the
    deck of a one-deck Rules, nor the other way round."""
    four = ddz_fast.resolve_rules("four")
    ddz_fast.count_moves("3", rules=four)            # (gets its id cached)
    one_deck = _tampered_plain(four._ddz_cid)
    with pytest.raises(ValueError, match="at most 4"):
        ddz_fast.count_moves([8] + [0] * 14, rules=one_deck)
    two_decks = Rules(players=4, decks=2, solo_kickers=False, four_with_kickers=False, name="f")
    object.__setattr__(two_decks, "_ddz_cid", 0)           # the standard preset's slot
    assert ddz_fast.count_moves([8] + [0] * 14, rules=two_decks) == \
        ddz_fast.count_moves([8] + [0] * 14, rules="four")


def test_forged_rules_ids_are_safe_in_a_child_process():
    """The same forgery in a fresh process (where a read past the table
    would crash rather than only give garbage)."""
    assert_child_ok("""
        import ddz_fast
        from ddz_fast import Rules
        for cid in (10**6, -10**6, 2**31 - 1, 256):
            r = Rules(name="t")
            object.__setattr__(r, "_ddz_cid", cid)
            assert ddz_fast.count_moves("3", rules=r) == 1
            assert len(ddz_fast.legal_moves_batch([[1] + [0] * 14], rules=r)) == 1
    """)


_MASKED = [
    np.ma.masked_array(np.full((2, 15), 200, np.uint8), mask=True),
    np.ma.masked_array(np.ones((2, 15), np.uint8), mask=False),
    np.ma.masked_array(np.full((2, 15), 200, np.int64), mask=np.ones((2, 15), bool)),
]


@pytest.mark.parametrize("hands", _MASKED, ids=["masked200", "unmasked", "masked-int64"])
@pytest.mark.parametrize("call", ["legal_moves_batch", "count_moves"])
def test_masked_arrays_of_hands_are_refused(hands, call):
    with pytest.raises(TypeError, match="masked array"):
        getattr(ddz_fast, call)(hands)


@pytest.mark.parametrize("call", [ddz_fast.legal_moves, ddz_fast.count_moves, ddz_fast.classify, ddz_fast.to_counts])
def test_a_masked_single_hand_is_refused(call):
    hand = np.ma.masked_array(np.full(15, 200, np.uint8), mask=True)
    with pytest.raises(TypeError, match="masked array"):
        call(hand)


def test_masked_lasts_rows_are_refused():
    lasts = np.ma.masked_array(np.full((1, 16), 200, np.uint8), mask=True)
    with pytest.raises(TypeError, match="masked array"):
        ddz_fast.legal_moves_batch(np.ones((1, 15), np.uint8), lasts)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")   # (np.matrix)
def test_other_ndarray_subclasses_are_read_as_their_plain_data():
    hands = np.ones((2, 15), np.uint8)
    want = ddz_fast.count_moves(hands)
    assert ddz_fast.count_moves(np.matrix(hands)).tolist() == want.tolist()
    assert ddz_fast.legal_moves_batch(np.matrix(hands)).offsets.tolist() == \
        ddz_fast.legal_moves_batch(hands).offsets.tolist()
    with pytest.raises(ValueError, match="at most 4"):
        ddz_fast.count_moves(np.matrix(np.full((2, 15), 200, np.uint8)))


def test_a_batch_reads_the_hands_that_were_checked_while_another_thread_writes_them():
    """A thread rewrites the caller's array in a tight loop (counts of 1, of
    2 and of 200) while batches run.  Each batch either raises ValueError
    or answers for hands of counts 1 or 2 only: each hand's moves are
    exactly legal_moves of the hand they spell (the most cards of each rank
    among its leads), which must be such a hand, and count_moves lies
    between the counts of the two extremes.  A kernel that read a 200 would
    answer for no such hand (or crash the child)."""
    assert_child_ok("""
        import threading
        import numpy as np
        import ddz_fast
        a = np.array([[1] * 8 + [0] * 7] * 32, np.uint8)
        b = np.array([[2] * 8 + [0] * 7] * 32, np.uint8)
        lo, hi = ddz_fast.count_moves(a[0]), ddz_fast.count_moves(b[0])
        hands = a.copy()
        stop = False
        def rewrite():
            while not stop:
                hands[:] = 200
                hands[:] = a
                hands[:] = b
        t = threading.Thread(target=rewrite)
        t.start()
        answered = 0
        try:
            for i in range(150):
                for threads in (1, 2):
                    try:
                        batch = ddz_fast.legal_moves_batch(hands, threads=threads)
                        counts = ddz_fast.count_moves(hands, threads=threads)
                    except ValueError:
                        continue
                    assert ((counts >= lo) & (counts <= hi)).all(), counts
                    for j in (0, len(batch) - 1):
                        moves = batch[j]
                        spelled = moves.counts.max(axis=0)
                        assert set(spelled[:8].tolist()) <= {1, 2} and not spelled[8:].any(), spelled
                        assert moves.rows.tobytes() == ddz_fast.legal_moves(spelled).rows.tobytes()
                    answered += 1
        finally:
            stop = True
            t.join()
        assert answered, "no batch answered"
    """, timeout=300)


def test_the_batch_copies_a_valid_callers_array():
    """Changing the caller's array after a batch does not change the result
    (the rows were generated from a private copy)."""
    hands = np.ones((3, 15), np.uint8)
    batch = ddz_fast.legal_moves_batch(hands)
    before = batch.rows.tobytes()
    hands[:] = 0
    assert batch.rows.tobytes() == before


def test_a_worker_thread_that_cannot_start_leaves_the_batch_complete():
    """When the OS refuses new threads, the batch runs the parts on the
    threads it has and returns the same answer as threads=1."""
    assert_child_ok("""
        import threading
        import numpy as np
        import ddz_fast
        from ddz_fast._util import parallel as _parallel
        rng = np.random.default_rng(0)
        hands = rng.integers(0, 3, size=(200, 15)).astype(np.uint8)
        hands[:, 13:] = rng.integers(0, 2, size=(200, 2))
        want = ddz_fast.legal_moves_batch(hands, threads=1)
        want_counts = ddz_fast.count_moves(hands)
        real_start = threading.Thread.start
        started = [0]
        def failing_start(self):
            if self.name == "ddz_fast-worker":
                started[0] += 1
                if started[0] > 1:
                    raise RuntimeError("can't start new thread")
            return real_start(self)
        threading.Thread.start = failing_start
        _parallel._idle.clear()
        for _ in range(5):
            got = ddz_fast.legal_moves_batch(hands, threads=4)
            assert got.rows.tobytes() == want.rows.tobytes()
            assert got.offsets.tolist() == want.offsets.tolist()
            assert ddz_fast.count_moves(hands, threads=4).tolist() == want_counts.tolist()
        threading.Thread.start = lambda self: (_ for _ in ()).throw(RuntimeError("can't start new thread"))
        _parallel._idle.clear()
        got = ddz_fast.legal_moves_batch(hands, threads=8)
        assert got.rows.tobytes() == want.rows.tobytes()
    """)


def test_batches_with_threads_complete_under_a_process_limit():
    """The same with a real limit: RLIMIT_NPROC of 1 in a child, where no
    new thread can start (skipped when the limit cannot be set or does not
    bind, as for root)."""
    assert_child_ok("""
        import resource, sys, threading
        import numpy as np
        import ddz_fast
        hands = np.ones((100, 15), np.uint8)
        want = ddz_fast.legal_moves_batch(hands)
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
        except (ValueError, OSError):
            sys.exit(0)
        got = ddz_fast.legal_moves_batch(hands, threads=4)
        assert got.rows.tobytes() == want.rows.tobytes()
        assert ddz_fast.count_moves(hands, threads=4).tolist() == [len(want[0])] * 100
    """)


def test_a_part_that_raises_is_reported_after_every_part_has_finished():
    """run_parts never returns or raises while a dispatched part still runs
    (the parts write into buffers the caller frees when it returns)."""
    import threading
    import time

    from ddz_fast._util.parallel import run_parts

    finished = []

    def slow():
        time.sleep(0.2)
        finished.append("slow")

    def failing():
        raise ValueError("part failed")

    with pytest.raises(ValueError, match="part failed"):
        run_parts([failing, slow, slow])
    assert finished == ["slow", "slow"]
    assert threading.active_count() >= 1
