"""The library's exceptions (ddz_fast.errors) and where they come from, and
the one policy for numbers, limits, options and environment seeds
(ddz_fast._checks)."""
import ast
import importlib
import doctest
import math
from pathlib import Path

import numpy as np
import pytest

import ddz_fast as d
import ddz_fast.arena
import ddz_fast.errors
from ddz_fast.actions import FIRST_MOVE_ID
from ddz_fast import (AgentError, AmbiguousMoveError, DdzError, Game, IllegalActionError, InvalidMoveError, Kind,
                      Move, PIMCAgent, Solver, VecGame, reference, solve)
from ddz_fast._checks import check_choice, check_env_seed, check_limit, check_number

ENGINES = [pytest.param(d, id="fast"), pytest.param(reference, id="reference")]


# ---------------------------------------------------------------------------
# The hierarchy
# ---------------------------------------------------------------------------

def test_the_errors_subclass_what_was_raised_before():
    for e in (IllegalActionError, InvalidMoveError, AmbiguousMoveError):
        assert issubclass(e, ValueError) and issubclass(e, DdzError)
    assert issubclass(AgentError, RuntimeError) and issubclass(AgentError, DdzError)
    assert not issubclass(AmbiguousMoveError, InvalidMoveError)
    assert not issubclass(InvalidMoveError, IllegalActionError)


def test_each_error_is_one_object_under_every_name():
    importlib.import_module("ddz_fast.envs")     # (not loaded by import ddz_fast)

    assert d.arena.AgentError is AgentError is d.errors.AgentError
    assert d.IllegalActionError is d.errors.IllegalActionError
    assert d.envs.IllegalActionError is IllegalActionError
    assert set(d.errors.__all__) <= set(d.__all__)


def test_the_errors_module_imports_nothing():
    # (compiled modules import it at load time: it must not import ddz_fast back)
    tree = ast.parse(Path(d.errors.__file__).read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_the_errors_module_example_runs():
    assert doctest.testmod(d.errors, optionflags=doctest.ELLIPSIS).failed == 0


# ---------------------------------------------------------------------------
# Where they are raised
# ---------------------------------------------------------------------------

def test_game_step_raises_illegal_action_error_naming_the_action():
    g = Game(seed=3)
    snap = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"illegal action Move\(SOLO, '3'.* in the auction phase"):
        g.step(d.parse_move("3"))
    assert g.snapshot() == snap


def test_vecgame_step_raises_illegal_action_error_naming_the_table():
    vg = VecGame(2, seed=1)
    ids = vg.legal_ids[vg.legal_offsets[:-1]].astype(np.int64)
    ids[1] = FIRST_MOVE_ID      # the play-phase PASS: no auction action
    with pytest.raises(IllegalActionError, match=f"table 1: action id {FIRST_MOVE_ID} .*not legal"):
        vg.step(ids)


@pytest.mark.parametrize("engine", ENGINES)
def test_parse_move_raises_invalid_and_ambiguous_move_errors(engine):
    with pytest.raises(AmbiguousMoveError, match="ambiguous: it reads as AIRPLANE or AIRPLANE_SOLO"):
        engine.parse_move("555666777888")
    for text, kind, words in [("34", None, "no legal move"), ("3Z", None, "unknown card token"),
                              ("33", "SOLO", "not a SOLO"), ("pass", "PAIR", "not a PAIR"),
                              ("3", "PASS", "not PASS"), ("33333", None, "at most 4")]:
        with pytest.raises(InvalidMoveError, match=words):
            engine.parse_move(text, kind)


def test_a_move_of_the_wrong_kind_is_an_invalid_move_error():
    with pytest.raises(InvalidMoveError, match="not a PAIR"):
        Move(Kind.PAIR, "333")
    with pytest.raises(InvalidMoveError, match="no legal move"):
        Move(Kind.PAIR, "34")


def test_the_arena_raises_illegal_action_and_agent_errors():
    def cheat(observation, legal_actions):
        return legal_actions[0] if observation.phase.name != "PLAY" else d.parse_move("BR")

    def broken(observation, legal_actions):
        raise KeyError("oops")
    with pytest.raises(IllegalActionError, match="agent 'cheat'"):
        d.arena.play([cheat, "simple"], deals=1)
    with pytest.raises(AgentError, match="agent 'broken' raised KeyError") as info:
        d.arena.play([broken, "simple"], deals=1)
    assert isinstance(info.value.__cause__, KeyError)


# ---------------------------------------------------------------------------
# Numbers beyond a double: ValueError, never OverflowError
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda x: solve(["3", "4"], max_time=x),
    lambda x: solve(["3", "4"], table_mb=x),
    lambda x: Solver(x),
    lambda x: PIMCAgent(solver_time=x),
    lambda x: PIMCAgent(solver_table_mb=x),
], ids=["solve(max_time)", "solve(table_mb)", "Solver(table_mb)", "PIMCAgent(solver_time)",
        "PIMCAgent(solver_table_mb)"])
@pytest.mark.parametrize("x", [10**400, -10**400])
def test_an_int_beyond_a_double_is_a_value_error(call, x):
    with pytest.raises(ValueError, match=r"\(401 digits\)"):
        call(x)


def test_limits_follow_one_policy():
    # The solver's and the PIMC agent's limits: None or > 0, nodes exact ints.
    assert solve(["KK5543", "225543"], max_time=math.inf).status == "win"
    assert PIMCAgent(solver_time=math.inf).solver_time == math.inf
    assert PIMCAgent(solver_nodes=2**70).solver_nodes == d.solver.MAX_NODES
    for bad, exc in [(0, ValueError), (-1.5, ValueError), (math.nan, ValueError), (True, TypeError),
                     ("1", TypeError)]:
        with pytest.raises(exc, match="max_time"):
            solve(["3", "4"], max_time=bad)
        with pytest.raises(exc, match="solver_time"):
            PIMCAgent(solver_time=bad)
    for bad, exc in [(0, ValueError), (1.5, TypeError), (np.float64(2), TypeError)]:
        with pytest.raises(exc, match="max_nodes"):
            solve(["3", "4"], max_nodes=bad)
        with pytest.raises(exc, match="solver_nodes"):
            PIMCAgent(solver_nodes=bad)


def test_check_number():
    assert check_number(np.float32(2.5), "x") == 2.5
    assert check_number(np.int64(3), "x", 0, 3) == 3.0
    assert check_number(-math.inf, "x", finite=False) == -math.inf
    for x, exc, words in [(True, TypeError, "x must be a number, not bool"),
                          (np.bool_(True), TypeError, "not numpy.bool"),
                          ("3", TypeError, "not str"), (None, TypeError, "not NoneType"),
                          (math.nan, ValueError, "not NaN"), (math.inf, ValueError, "x inf is out of range 0..3"),
                          (10**400, ValueError, "1000000000000... (401 digits) is out of range"),
                          (4, ValueError, "x 4 is out of range 0..3"), (-0.5, ValueError, "out of range 0..3")]:
        with pytest.raises(exc, match=words.replace("(", r"\(").replace(")", r"\)")):
            check_number(x, "x", 0, 3)
    with pytest.raises(ValueError, match="x must be finite, not -inf"):
        check_number(-math.inf, "x")
    with pytest.raises(ValueError, match="x must be > 0, not 0"):
        check_number(0, "x", 0, above=True)
    assert check_number(0, "x", 0) == 0.0


def test_check_limit():
    assert check_limit(None, "t") is None
    assert check_limit(2, "t") == 2.0 and check_limit(math.inf, "t") == math.inf
    assert check_limit(np.uint64(2**63), "n", integer=True, cap=2**62) == 2**62
    assert check_limit(5, "n", integer=True) == 5
    with pytest.raises(TypeError, match="n must be an int or None"):
        check_limit(5.0, "n", integer=True)
    with pytest.raises(ValueError, match=r"t must be > 0 \(or None for no limit\), not 0"):
        check_limit(0, "t")


def test_check_choice():
    assert check_choice("raise", "mode", ("terminate", "raise")) == "raise"
    with pytest.raises(ValueError, match=r"mode must be one of \('a', 'b'\), not 'c'"):
        check_choice("c", "mode", ("a", "b"))
    with pytest.raises(TypeError, match=r"mode must be one of \('a', 'b'\), not int"):
        check_choice(1, "mode", ("a", "b"))


def test_check_env_seed_is_gymnasiums_policy():
    assert check_env_seed(None) is None
    assert type(check_env_seed(np.uint64(2**64 - 1))) is int
    assert check_env_seed(10**100) == 10**100
    with pytest.raises(ValueError, match=r"seed must be None or an int >= 0 .*, not -1"):
        check_env_seed(-1)
    with pytest.raises(TypeError, match="seed must be an int, not bool"):
        check_env_seed(True)
