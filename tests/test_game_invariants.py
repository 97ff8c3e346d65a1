"""Game invariants (issue 8, item 4): a budgeted run of the checker in
tests/invariants.py, tests that the checker catches broken engines, and
regression tests for the bugs it found.

The default suite checks ``DDZ_INVARIANT_GAMES`` games per player count
(split over both auctions; default 1000, about 15 s on one core per
rule set); the full run is
``python tests/invariants.py --games 100000`` (docs/game-invariants.md).
"""
import os
import sys
from pathlib import Path

import pytest

from ddz_fast import BID_PASS, CALL, DOUBLE, PRESETS, Game, Phase, Rules, play_random_games

# The checker lives next to this file (importable under any pytest import mode).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from invariants import RULES_BY_PLAYERS, Rates, Report, check_games, check_playouts  # noqa: E402

GAMES_PER_PLAYER_COUNT = int(os.environ.get("DDZ_INVARIANT_GAMES", "1000"))
ALL = [pytest.param(r, id=r.name) for pair in RULES_BY_PLAYERS.values() for r in pair]

# Checks that must run on every step / every game (a checker that silently
# skipped them would pass anything).
EVERY_STEP = ("cards_conserved", "hand_sizes", "matches_reference_game", "undo_exact", "redo_exact")
EVERY_GAME = ("zero_sum", "returns", "settle_from_result", "result_matches_reference_game",
              "matches_compiled_playout", "one_empty_hand", "rejected_after_end")


def _assert_clean(rep: Report, games: int) -> None:
    assert rep.violations == [], "\n".join(rep.violations[:20])
    assert rep.games == games and rep.steps > games
    for name in EVERY_STEP:
        assert rep.checks[name] >= rep.steps, name
    for name in EVERY_GAME:
        assert rep.checks[name] >= games, name


# ---------------------------------------------------------------------------
# The budgeted run
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ALL)
def test_invariants_hold_over_random_games(rules):
    bid = rules.auction == "bid"
    games = (GAMES_PER_PLAYER_COUNT + bid) // 2          # the script's split
    rep = check_games(rules, games, seed=0)
    _assert_clean(rep, games)
    # The sampled checks ran too (expected counts are in the thousands).
    for name in ("rejected_junk", "rejected_snapshot_unchanged", "rejected_full_state_unchanged",
                 "clone_equal", "clone_step_leaves_original", "original_step_leaves_clone",
                 "rewind_undo_exact", "observation", "chosen_move_vs_oracle"):
        assert rep.checks[name] > 0, name


@pytest.mark.parametrize("rules", ALL)
def test_every_check_on_every_step(rules):
    games = 6
    rep = check_games(rules, games, seed=99, rates=Rates(probe=1.0, clone=1.0, rewind=1.0, unwind=1.0))
    _assert_clean(rep, games)
    assert rep.sampled["probe"] == rep.sampled["clone"] == rep.steps
    assert rep.sampled["unwind"] == games
    for label in ("not_in_hand", "does_not_beat", "pass_when_leading", "auction_in_play",
                  "other_preset", "legal_move_as_data", "auction_out_of_turn", "move_in_auction"):
        assert rep.checks["rejected_" + label] > 0, label
    assert rep.checks["rejected_pickle_unchanged"] > 0


@pytest.mark.parametrize("players", [3, 4])
def test_compiled_playouts_100k_per_player_count(players):
    for rules in RULES_BY_PLAYERS[players]:
        res = play_random_games(50_000, rules=rules, seed=7)
        rep = Report(rules.name)
        check_playouts(res, rep)
        assert rep.violations == []
        assert rep.checks["playout_zero_sum"] == 50_000


# ---------------------------------------------------------------------------
# The checker catches broken engines
# ---------------------------------------------------------------------------

class _Broken:
    """A Game with one planted fault: the engine is final, so the faults
    are planted in a wrapper that forwards everything else."""

    def __init__(self, rules, seed=None, *, game=None):
        self._g = Game(rules, seed=seed) if game is None else game

    def __getattr__(self, name):
        if name == "_g":
            raise AttributeError(name)
        return getattr(self._g, name)

    def clone(self):
        return type(self)(None, game=self._g.clone())

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()


class _AcceptsAnything(_Broken):
    def step(self, action):
        try:
            self._g.step(action)
        except ValueError:
            pass                                 # silently ignores illegal actions


class _UndoLosesBase(_Broken):
    lost = 0

    def undo(self):
        self._g.undo()
        if self._g.phase is Phase.PLAY:
            self.lost += 1

    @property
    def base(self):
        return self._g.base + self.lost

    def snapshot(self):
        return {**self._g.snapshot(), "base": self.base}


class _CloneIsSelf(_Broken):
    def clone(self):
        return self


class _HandsMissACard(_Broken):
    @property
    def hands(self):
        h = self._g.hands
        if self._g.phase is Phase.PLAY:
            h[self._g.to_move, h[self._g.to_move].argmax()] -= 1
        return h


class _ScoresNotZeroSum(_Broken):
    @property
    def result(self):
        r = self._g.result
        if r is None:
            return None
        return type(r)(**{**r.__dict__, "scores": (r.scores[0] + 1,) + r.scores[1:]})

    def returns(self):
        r = self.result
        return (0,) * self._g.players if r is None else r.scores


@pytest.mark.parametrize("broken, rates, expected", [
    (_AcceptsAnything, Rates(probe=1.0), "accepted_illegal"),
    (_UndoLosesBase, Rates(), "undo_exact"),
    (_CloneIsSelf, Rates(clone=1.0), "clone"),
    (_HandsMissACard, Rates(), "cards_conserved"),
    (_ScoresNotZeroSum, Rates(), "matches_reference_game"),
])
def test_checker_catches_a_broken_engine(broken, rates, expected):
    rep = check_games(PRESETS["standard"], 5, seed=3, rates=rates, game_cls=broken)
    assert len(rep.violations) == 5, rep.violations      # every game caught, and abandoned
    assert all(expected in v for v in rep.violations), rep.violations


def test_checker_game_seeds_are_the_playout_games():
    rep = check_games(PRESETS["four"], 3, seed=5, first_game=10)
    assert rep.violations == [] and rep.checks["matches_compiled_playout"] == 3


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
