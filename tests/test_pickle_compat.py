"""Pickles written by earlier releases load with today's code and describe
the same objects (saved games, Ray workers and datasets hold such pickles).

Each ``tests/data/pickles/ddz_fast-<version>.pickle`` was written by
``tests/data/pickles/make_pickles.py`` with that release installed; it holds
the cases of ``tests/pickle_cases.py`` with the descriptions that release
gave them, at pickle protocols 2 and 5."""
import glob
import os
import pickle

import pytest

from pickle_cases import describe

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(glob.glob(os.path.join(HERE, "data", "pickles", "ddz_fast-*.pickle")))


def test_there_are_pickles_of_earlier_releases():
    assert FILES, "tests/data/pickles holds no release's pickles"


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
@pytest.mark.parametrize("protocol", [2, 5])
def test_pickles_of_earlier_releases_load_as_the_same_objects(path, protocol):
    with open(path, "rb") as f:
        stored = pickle.load(f)
    rows = pickle.loads(stored["pickles"][protocol])
    assert len(rows) > 40
    for name, obj, description in rows:
        assert describe(obj) == description, f"{name} (written by ddz-fast {stored['version']})"


def _globals_named(data):
    """The (module, name) pairs a pickle's GLOBAL and STACK_GLOBAL opcodes name."""
    import pickletools

    names, strings = [], []
    for op, arg, _pos in pickletools.genops(data):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE", "BINUNICODE8"):
            strings.append(arg)
        elif op.name == "MEMOIZE":
            continue
        elif op.name == "STACK_GLOBAL":
            names.append((strings[-2], strings[-1]))
        elif op.name == "GLOBAL":
            names.append(tuple(arg.split(" ", 1)))
    return names


@pytest.mark.parametrize("protocol", [2, 5])
def test_pickles_name_only_public_stable_callables(protocol):
    """Every ddz_fast module and callable that a pickle names is public (no
    part starts with an underscore), so private modules can move."""
    from pickle_cases import cases

    for name, obj in cases():
        for module, qualname in _globals_named(pickle.dumps(obj, protocol=protocol)):
            if module.split(".")[0] != "ddz_fast":
                continue
            parts = module.split(".") + qualname.split(".")
            assert not any(p.startswith("_") for p in parts), f"{name} pickles as {module}:{qualname}"


@pytest.mark.parametrize("protocol", [2, 5])
def test_every_case_survives_a_round_trip(protocol):
    from pickle_cases import cases

    for name, obj in cases():
        assert describe(pickle.loads(pickle.dumps(obj, protocol=protocol))) == describe(obj), name


def test_states_carry_their_format_version():
    import ddz_fast
    from ddz_fast import pickling

    load, (state,) = ddz_fast.parse_move("55").__reduce__()
    assert load is pickling.load_move and state[0] == pickling.FORMAT
    assert load(state) == ddz_fast.parse_move("55")
    with pytest.raises(ValueError, match=f"format {pickling.FORMAT + 1}.*reads format {pickling.FORMAT}"):
        load((pickling.FORMAT + 1,) + state[1:])
    with pytest.raises(ValueError, match="format version"):
        load(("1",) + state[1:])
    with pytest.raises(ValueError, match="has 5 items, not 4"):
        load(state[:-1])
    with pytest.raises(TypeError, match="must be a tuple"):
        load(list(state))
    with pytest.raises(TypeError, match="must be bytes"):
        load(state[:2] + (list(state[2]),) + state[3:])


@pytest.mark.parametrize("loader, what", [
    ("load_move_list", "MoveList"), ("load_move_batch", "MoveBatch"), ("load_game", "Game"),
    ("load_split_mix", "SplitMix64"), ("load_action_space", "ActionSpace"), ("load_solver", "Solver"),
    ("load_pimc_agent", "PIMCAgent"), ("load_playout_results", "PlayoutResults"),
])
def test_every_loader_refuses_a_state_of_another_format(loader, what):
    from ddz_fast import pickling

    with pytest.raises(ValueError, match=f"this {what} was pickled in format 99"):
        getattr(pickling, loader)((99, None))
    with pytest.raises(TypeError, match=f"pickled {what} state must be a tuple"):
        getattr(pickling, loader)(None)


def test_a_forged_game_state_fails_cleanly():
    import ddz_fast
    from ddz_fast import pickling

    game = ddz_fast.Game(seed=3)
    load, (state,) = game.__reduce__()
    assert load is pickling.load_game
    with pytest.raises(ValueError, match="not a pickled Game"):
        load(state[:3] + (bytes([15]) + bytes(16),))       # a move in the auction
    with pytest.raises(TypeError, match="options must be a dict"):
        pickling.load_pimc_agent((pickling.FORMAT, 8, [("seed", 1)]))


def test_the_pickling_module_examples_run():
    import doctest

    from ddz_fast import pickling

    result = doctest.testmod(pickling)
    assert result.attempted >= 3 and result.failed == 0


def test_a_damaged_playout_results_state_fails_cleanly():
    import ddz_fast
    from ddz_fast import pickling

    load, (state,) = ddz_fast.play_random_games(3, seed=1).__reduce__()
    assert load is pickling.load_playout_results
    arrays = dict(state[5])
    with pytest.raises(ValueError, match="holds the arrays"):
        load(state[:5] + ({k: v for k, v in arrays.items() if k != "scores"},))
    arrays["plies"] = arrays["plies"][:2]
    with pytest.raises(ValueError, match="one length"):
        load(state[:5] + (arrays,))
    with pytest.raises(TypeError, match="must be a Rules"):
        load((state[0], "standard") + state[2:])
