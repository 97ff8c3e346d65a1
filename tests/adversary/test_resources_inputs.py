"""Endless or huge iterables given where cards or last moves are expected
are read only up to the largest legal length (plus one), then refused with
a ValueError naming the limit (or a TypeError where an array is expected):
they never eat the memory.  The endless ones
run in a child process with an address-space limit, so that a regression
fails instead of swapping."""
import itertools

import numpy as np
import pytest

import ddz_fast

from _inputs_child import assert_child_ok

_ENDLESS_CALLS = [
    "ddz_fast.to_counts(itertools.count())",
    "ddz_fast.to_counts(itertools.repeat(1))",
    "ddz_fast.format_cards(itertools.repeat(0))",
    "ddz_fast.legal_moves(itertools.repeat(0))",
    "ddz_fast.count_moves(itertools.repeat(0))",
    "ddz_fast.classify(itertools.repeat(0))",
    "ddz_fast.legal_moves_batch(np.zeros((2, 15), np.uint8), lasts=itertools.repeat(None))",
    "ddz_fast.count_moves(np.zeros((2, 15), np.uint8), lasts=itertools.repeat(None))",
    "ddz_fast.convert.card_counts(itertools.count())",
]


def test_endless_iterables_are_refused_under_a_memory_limit():
    assert_child_ok(f"""
        import itertools, resource
        import numpy as np
        import ddz_fast
        import ddz_fast.convert
        # (what is in use now plus 1 GiB: an endless list() hits it in seconds)
        with open("/proc/self/statm") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (in_use + (1 << 30),) * 2)
        for call in {_ENDLESS_CALLS!r}:
            try:
                eval(call)
            except ValueError as e:
                assert "more than" in str(e), (call, e)
            except TypeError:    # (count_moves reads an iterator as a batch: not an array)
                pass
            else:
                raise AssertionError(call + " accepted an endless iterable")
    """, timeout=120)


@pytest.mark.parametrize("n", [0, 14, 16, 1000])
def test_a_finite_iterable_of_the_wrong_length_is_a_value_error(n):
    with pytest.raises(ValueError, match="15"):
        ddz_fast.to_counts(iter([0] * n))


def test_an_iterable_of_15_counts_is_read_like_a_list():
    assert ddz_fast.to_counts(iter([1] * 15)).tolist() == [1] * 15
    assert ddz_fast.to_counts(x for x in [0] * 14 + [1]).tolist() == [0] * 14 + [1]


def test_an_iterable_of_lasts_of_the_batch_length_is_read_like_a_list():
    hands = np.ones((3, 15), np.uint8)
    lasts = [None, ddz_fast.parse_move("3"), None]
    want = ddz_fast.legal_moves_batch(hands, lasts)
    got = ddz_fast.legal_moves_batch(hands, iter(lasts))
    assert got.rows.tobytes() == want.rows.tobytes()
    with pytest.raises(ValueError, match="expected 3 last moves"):
        ddz_fast.legal_moves_batch(hands, iter(lasts[:2]))
    with pytest.raises(ValueError, match="more than 3"):
        ddz_fast.legal_moves_batch(hands, itertools.chain(lasts, [None]))
