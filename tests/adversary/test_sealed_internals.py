"""No internal field of a compiled object can be written from Python, and no
constructor reachable from Python makes a move that the fast path trusts
without checking it (docs/hardening.md, "Sealed internals, text and array
subclasses")."""
import importlib
import inspect
import pathlib
import re

import numpy as np
import pytest

import ddz_fast
from ddz_fast import Kind, pickling, Move, legal_moves, parse_move
from ddz_fast._core.testing import move_valid_bits

SRC = pathlib.Path(ddz_fast.__file__).parent
COMPILED = sorted(
    ".".join(("ddz_fast",) + p.relative_to(SRC).with_suffix("").parts)
    for p in SRC.rglob("*.pyx")
)


def _one_card_bomb():
    # Move._make is the unpickler's constructor: in range, not checked against the rules
    return Move._make(int(Kind.BOMB), [0, 1] + [0] * 13, 1, 1)


def test_no_cython_class_declares_a_public_attribute():
    """`cdef public` makes a C field writable from Python: none may exist."""
    found = []
    for path in sorted(SRC.rglob("*.p[xy]d")) + sorted(SRC.rglob("*.pyx")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.match(r"\s*cdef\s+public\b", line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert not found, "writable C fields:\n" + "\n".join(found)


# Documented setters that check their value (public API, not internals).
PUBLIC_SETTERS = {("SplitMix64", "state")}


def _instances(cls):
    try:
        yield cls.__new__(cls)
    except TypeError:
        return


@pytest.mark.parametrize("module", COMPILED)
def test_no_attribute_of_a_compiled_class_can_be_set(module):
    """Every data descriptor of every extension type of a compiled module
    refuses a write, on an instance made with ``__new__``, and no other
    attribute can be added."""
    mod = importlib.import_module(module)
    for _, cls in inspect.getmembers(mod, inspect.isclass):
        if cls.__module__ != module or cls.__dictoffset__ != 0:
            continue           # (imported, or a plain Python class: its attributes are its users')
        for inst in _instances(cls):
            for name, attr in vars(cls).items():
                if (not inspect.isdatadescriptor(attr) or isinstance(attr, property)
                        or (cls.__name__, name) in PUBLIC_SETTERS):
                    continue
                try:
                    current = attr.__get__(inst, cls)
                except Exception:
                    current = None
                with pytest.raises((AttributeError, TypeError)):
                    attr.__set__(inst, current)
            with pytest.raises((AttributeError, TypeError)):
                object.__setattr__(inst, "_sealed_probe", 1)


def test_the_validity_bits_of_a_move_are_not_an_attribute():
    m = _one_card_bomb()
    with pytest.raises(AttributeError):
        m._valid_for = -1
    with pytest.raises(AttributeError):
        object.__setattr__(m, "_valid_for", -1)
    assert not hasattr(m, "_valid_for")


def test_a_forged_one_card_bomb_is_refused_as_the_last_move():
    """Whatever a caller tries to mark it with, a forged move is checked."""
    m = _one_card_bomb()
    for how in (setattr, object.__setattr__):
        try:
            how(m, "_valid_for", 2**64 - 1)
        except AttributeError:
            pass
    with pytest.raises(ValueError, match="not a BOMB"):
        legal_moves("4444", m)
    with pytest.raises(ValueError, match="not a legal move|not a BOMB"):
        ddz_fast.legal_moves_batch(np.array([[0, 4] + [0] * 13], np.uint8), [m])
    with pytest.raises(ValueError, match="not a BOMB"):
        ddz_fast.beats(m, parse_move("3"))


def test_a_move_from_a_private_constructor_is_trusted_under_no_rules():
    """Moves from the unpickler (``Move._make``), from ``Move.__new__`` and
    from a MoveList unpickled without rules carry no validity bit; the
    validated paths set one."""
    assert move_valid_bits(_one_card_bomb()) == 0
    assert move_valid_bits(Move._make(int(Kind.SOLO), [1] + [0] * 14, 0, 1)) == 0
    assert move_valid_bits(Move.__new__(Move)) == 0
    unpickled = pickling.load_move_list((pickling.FORMAT, bytes([0, 1] + [0] * 13 + [13]), None))
    assert move_valid_bits(unpickled[0]) == 0
    assert move_valid_bits(parse_move("3")) != 0
    assert move_valid_bits(Move(Kind.SOLO, "3")) != 0


def test_a_move_subclass_cannot_carry_validity_bits():
    class Forged(Move):
        def __init__(self):        # skips Move.__init__
            pass

    f = Forged()
    f._valid_for = -1              # (a plain attribute of the subclass: nothing reads it)
    assert move_valid_bits(f) == 0
    with pytest.raises((TypeError, ValueError)):
        legal_moves("4444", f)


@pytest.mark.parametrize("name", ["_moves", "_rows", "_lookup", "_rules", "_max_cards"])
def test_the_state_of_an_action_space_cannot_be_replaced(name):
    """An ActionSpace's ranking, table, moves, rules and hand size live in
    its compiled base: setting one (plainly or with object.__setattr__) is
    refused, and the space answers as before."""
    space = ddz_fast.ActionSpace("standard")
    other = ddz_fast.ActionSpace("four")
    for how in (setattr, object.__setattr__):
        with pytest.raises(AttributeError, match="not writable"):
            how(space, name, getattr(other, name))
    assert space.id_to_move(space.size - 1) == ddz_fast.action_space("standard").id_to_move(space.size - 1)
    assert space.max_cards == 20 and space.rules == ddz_fast.PRESETS["standard"]
