"""The call forms of the single-hand entry points.

``legal_moves``, ``count_moves``, ``classify`` and ``beats`` answer their
positional forms (with or without ``rules=``) on a short path and every other
form through the full argument parser: every form must give the same answer,
wrong forms the interpreter's usual ``TypeError`` naming the function, and
the functions must look like ordinary functions to ``inspect``, ``help`` and
``pickle``.
"""
import inspect
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ddz_fast
from ddz_fast import PASS, Rules, parse_move
from ddz_fast import reference as ref

HAND = np.array([1, 2, 3, 4, 0, 1, 1, 1, 1, 1, 0, 0, 2, 1, 1], dtype=np.uint8)
TRIO = parse_move("333")
FOUR_RULES = Rules(players=4, decks=2, name="two decks")

# name -> (reference function, the positional arguments of a call)
ENTRIES = {
    "legal_moves": (ref.legal_moves, (HAND,)),
    "count_moves": (None, (HAND,)),
    "classify": (ref.classify, ("3334",)),
    "beats": (ref.beats, (parse_move("66"), parse_move("55"))),
}

SIGNATURES = {
    "legal_moves": "(hand, last=None, *, rules='standard', wild=None)",
    "count_moves": "(hands, lasts=None, *, rules='standard', threads=1, wild=None)",
    "classify": "(cards, *, rules='standard', wild=None)",
    "beats": "(a, b, *, rules='standard', wild=None)",
}


def plain(result):
    """A result as comparable plain data."""
    if isinstance(result, (bool, int)):
        return result
    return [(m.kind, tuple(m.counts), m.rank, m.length) for m in result]


@pytest.mark.parametrize("rules", ["standard", "strict", "four", Rules(), FOUR_RULES])
def test_every_call_form_of_legal_moves_gives_the_same_moves(rules):
    f = ddz_fast.legal_moves
    expected = plain(ref.legal_moves(HAND, TRIO, rules=rules))
    forms = [
        lambda: f(HAND, TRIO, rules=rules),
        lambda: f(HAND, last=TRIO, rules=rules),
        lambda: f(hand=HAND, last=TRIO, rules=rules),
        lambda: f(rules=rules, last=TRIO, hand=HAND),
        lambda: f(*(HAND, TRIO), **{"rules": rules}),
    ]
    for form in forms:
        assert plain(form()) == expected
    leads = plain(ref.legal_moves(HAND, rules=rules))
    for form in (lambda: f(HAND, rules=rules), lambda: f(HAND, None, rules=rules),
                 lambda: f(HAND, PASS, rules=rules), lambda: f(hand=HAND, rules=rules)):
        assert plain(form()) == leads


def test_default_rules_are_the_standard_preset():
    f = ddz_fast.legal_moves
    assert plain(f(HAND)) == plain(f(HAND, rules="standard")) == plain(ref.legal_moves(HAND))
    assert plain(f(HAND, TRIO)) == plain(ref.legal_moves(HAND, TRIO))
    assert ddz_fast.count_moves(HAND) == ddz_fast.count_moves(HAND, None, rules="standard", threads=1)
    assert ddz_fast.count_moves(HAND) == len(ref.legal_moves(HAND))
    assert ddz_fast.count_moves(HAND, TRIO) == len(ref.legal_moves(HAND, TRIO))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_keyword_and_positional_forms_agree(name):
    f = getattr(ddz_fast, name)
    reference, args = ENTRIES[name]
    params = list(inspect.signature(f).parameters)
    kwargs = dict(zip(params, args))
    answers = {repr(plain(f(*args))), repr(plain(f(**kwargs))), repr(plain(f(*args, rules="standard")))}
    assert len(answers) == 1
    if reference is not None:
        assert answers == {repr(plain(reference(*args)))}


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_wrong_call_forms_raise_type_errors_naming_the_function(name):
    f = getattr(ddz_fast, name)
    _, args = ENTRIES[name]
    bad_forms = [
        lambda: f(),
        lambda: f(*args, *args, *args),
        lambda: f(*args, rule="standard"),
        lambda: f(*args, rules="standard", colour=1),
        lambda: f(*args, **{"rules": "standard", "x": 1}),
    ]
    for form in bad_forms:
        with pytest.raises(TypeError, match=name):
            form()
    with pytest.raises(ValueError, match="rules"):
        f(*args, rules="no such preset")


def test_an_argument_given_twice_is_refused():
    with pytest.raises(TypeError, match="legal_moves"):
        ddz_fast.legal_moves(HAND, hand=HAND)
    with pytest.raises(TypeError, match="beats"):
        ddz_fast.beats(TRIO, TRIO, a=TRIO)


def test_a_keyword_named_by_a_non_interned_string_is_still_read():
    """Keyword names built at run time are not interned: the call still works."""
    key = "".join(["ru", "les"])
    assert plain(ddz_fast.legal_moves(HAND, **{key: "strict"})) == plain(ref.legal_moves(HAND, rules="strict"))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry_points_have_their_signature_doc_and_name(name):
    f = getattr(ddz_fast, name)
    assert str(inspect.signature(f)) == SIGNATURES[name]
    assert f.__name__ == name
    assert f.__module__ == "ddz_fast"          # (pickles name the public home)
    doc = f.__doc__
    assert doc and not doc.startswith(name + "(") and "--" not in doc.splitlines()[0]
    assert pickle.loads(pickle.dumps(f)) is f


def test_entry_points_pickle_by_name_into_another_process():
    code = ("import pickle, sys; f = pickle.loads(sys.stdin.buffer.read()); "
            "print(f('3345'), f('3345', rules='strict'))")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(ddz_fast.legal_moves),
                         capture_output=True, check=True)
    assert out.stdout.decode().split() == ["MoveList([3,", "4,", "5,", "33])"] * 2
