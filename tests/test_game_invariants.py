"""Game invariants (issue 8, item 4): a budgeted run of the checker in
tests/invariants.py, plus regression tests for the bugs it found.

The default suite checks ``DDZ_INVARIANT_GAMES`` games per player count
(split over both auctions; default below); a CI job sets it to 100000.
"""
import pytest

from ddz_fast import BID_PASS, CALL, DOUBLE, Game, Phase, Rules


# ---------------------------------------------------------------------------
# Regressions found by the checker
# ---------------------------------------------------------------------------

class _EqualToEverything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("rules", ["standard", "four", Rules(auction="rob")])
def test_auction_rejects_an_object_equal_to_everything(rules):
    # It used to be accepted as the first legal choice (tuple.index falls
    # back on the object's own __eq__).
    g = Game(rules, seed=1)
    snap = g.snapshot()
    with pytest.raises(ValueError, match="illegal action"):
        g.step(_EqualToEverything())
    assert g.snapshot() == snap and g.history == []


def test_doubling_rejects_an_object_equal_to_everything():
    g = Game(Rules(auction="rob"), seed=1)
    g.step(CALL)
    while g.phase is Phase.AUCTION:
        g.step(g.legal_actions()[0])
    assert g.phase is Phase.DOUBLING
    snap = g.snapshot()
    with pytest.raises(ValueError, match="illegal action"):
        g.step(_EqualToEverything())
    assert g.snapshot() == snap
    g.step(DOUBLE)                        # the real choices still work
    assert g.doubles == 1
    assert BID_PASS not in g.legal_actions()
