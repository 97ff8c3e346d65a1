"""A VecGame larger than ``VecGame.MAX_TABLES`` is refused before anything is
allocated, with the memory it would need in the message; one at the bound
is accepted.  The refusals run in a child process with an address-space
limit, so that a regression fails with a MemoryError instead of swapping."""
import re

import pytest

from ddz_fast.vec import VecGame

from _inputs_child import assert_child_ok


def test_the_most_tables_is_documented_and_two_to_the_twenty():
    assert VecGame.MAX_TABLES == 2**20
    assert "MAX_TABLES" in VecGame.__doc__


@pytest.mark.parametrize("kw", [{}, {"masks": True}, {"observations": False}])
def test_too_many_tables_say_how_much_memory_they_need(kw):
    with pytest.raises(ValueError, match=r"VecGame\(n=1048577\) would need about") as e:
        VecGame(2**20 + 1, **kw)
    gib, per_table = re.search(r"about ([\d.,]+) GiB \(([\d,]+) bytes a table", str(e.value)).groups()
    per_table = int(per_table.replace(",", ""))
    assert 4000 < per_table < 40_000
    assert float(gib.replace(",", "")) == pytest.approx((2**20 + 1) * per_table / 2**30, abs=0.06)
    assert "MAX_TABLES" in str(e.value)


def test_a_table_with_masks_takes_its_mask_row_more():
    sizes = []
    for masks in (False, True):
        with pytest.raises(ValueError) as e:
            VecGame(2**21, masks=masks)
        sizes.append(int(re.search(r"\(([\d,]+) bytes a table", str(e.value)).group(1).replace(",", "")))
    assert sizes[1] - sizes[0] == VecGame(1).n_actions


def test_huge_table_counts_are_refused_under_a_memory_limit():
    assert_child_ok("""
        import resource
        from ddz_fast.vec import VecGame
        VecGame(1, masks=True)      # (the rules' tables, built once)
        with open("/proc/self/statm") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (in_use + (512 << 20),) * 2)
        for n in (10**7, 2**32, 2**33, 2**20 + 1):
            for masks in (False, True):
                try:
                    VecGame(n, masks=masks)
                except ValueError as e:
                    assert "GiB" in str(e), e
                else:
                    raise AssertionError(f"VecGame({n}) accepted")
        for n in (2**62, 2**64, 0, -1):
            try:
                VecGame(n)
            except ValueError as e:
                assert "1..1048576" in str(e), e
            else:
                raise AssertionError(f"VecGame({n}) accepted")
    """, timeout=120)
