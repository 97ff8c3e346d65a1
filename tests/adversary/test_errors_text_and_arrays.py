"""Text and array arguments: a bad one is a TypeError/ValueError that names
the argument (not NumPy's or CPython's wording about internals); a str
subclass is read as the plain text it holds, whatever its methods say; a
NumPy subclass is read as its plain data (docs/hardening.md, "Sealed
internals, text and array subclasses")."""
import numpy as np
import pytest

import ddz_fast
from ddz_fast import Kind, Move, Rules, cards, convert, encode, reference
from ddz_fast.compat import rlcard as compat_rlcard
from ddz_fast.rules import resolve_rules


class Lying(str):
    """A str whose methods lie about its characters."""

    def __len__(self):
        return 10**6

    def __getitem__(self, i):
        raise IndexError("lying")

    def __iter__(self):
        return iter("RRRRRRRR")

    def strip(self, *a):
        return None

    def lower(self):
        return None

    def upper(self):
        return None

    def encode(self, *a, **k):
        return b"R" * 9

    def __eq__(self, other):
        return False

    def __hash__(self):
        return 0

    def __str__(self):
        return "four"


@pytest.mark.parametrize("call, match", [
    (lambda: Kind.coerce(np.array([1, 2])), "move kind must be a Kind, int or str, not ndarray"),
    (lambda: Kind.coerce(int), "move kind must be a Kind, int or str, not the class int"),
    (lambda: Move(int, "3"), "move kind must be a Kind, int or str, not the class int"),
    (lambda: Move(np.array([1, 2]), "3"), "move kind"),
    (lambda: convert.douzero_to_counts_batch(np.array(3)), "batch of DouZero card lists .* not a 0-d array"),
    (lambda: convert.rlcard_to_counts_batch(np.array(3)), "batch of RLCard strings .* not a 0-d array"),
    (lambda: convert.douzero_to_counts_batch(3), "batch of DouZero card lists must be a list, not int"),
    (lambda: convert.rlcard_to_counts_batch("33"), "batch of RLCard strings must be a list, not str"),
    (lambda: Rules(auction=np.zeros(3, dtype=[("a", "i4")])), "Rules.auction must be a str, not numpy.ndarray"),
    (lambda: Rules(auction=np.zeros((), dtype=[("a", "i4")])), "Rules.auction must be a str"),
    (lambda: Rules(auction=5), "Rules.auction must be a str, not int"),
    (lambda: Rules(name=None), "Rules.name must be a str, not NoneType"),
    (lambda: encode.encode_counts("33", dtype="3" * 5000), "encode_counts needs a NumPy integer or float dtype"),
    (lambda: encode.encode_counts("33", dtype=object()), "encode_counts needs a NumPy integer or float dtype"),
])
def test_a_bad_argument_is_a_type_error_naming_it(call, match):
    with pytest.raises(TypeError, match=match):
        call()


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_the_batch_converters_read_a_matrix_as_its_plain_data():
    ints = [[3, 4], [5, 30]]
    assert (convert.douzero_to_counts_batch(np.matrix(ints))
            == convert.douzero_to_counts_batch(np.array(ints))).all()
    assert (convert.douzero_to_counts_batch(np.matrix(ints))
            == convert.douzero_to_counts_batch(ints)).all()
    texts = ["33", "pass"]
    assert (convert.rlcard_to_counts_batch(np.array(texts))
            == convert.rlcard_to_counts_batch(texts)).all()
    # a matrix is 2-D: its rows are arrays, not strings (as with a 2-D ndarray)
    for arr in (np.matrix([texts]), np.array([texts])):
        with pytest.raises(TypeError, match="item 0: RLCard cards must be a str, not numpy.ndarray"):
            convert.rlcard_to_counts_batch(arr)
    rows = [[1] + [0] * 14, [0] * 13 + [1, 1]]
    assert (convert.to_counts_batch(np.matrix(rows)) == np.array(rows)).all()
    with pytest.raises(TypeError, match="masked array"):
        convert.douzero_to_counts_batch(np.ma.masked_array(ints))


@pytest.mark.parametrize("call, plain", [
    (lambda t: cards.parse_cards(t).tolist(), "33R"),
    (lambda t: ddz_fast.to_counts(t).tolist(), "33R"),
    (lambda t: cards.rank_index(t), "R"),
    (lambda t: ddz_fast.parse_move(t), "33"),
    (lambda t: ddz_fast.parse_move(t), "pass"),
    (lambda t: reference.parse_move(t), "33"),
    (lambda t: list(ddz_fast.legal_moves(t)), "334"),
    (lambda t: ddz_fast.classify(t), "333"),
    (lambda t: Kind.coerce(t), "pair"),
    (lambda t: Move(t, "33"), "PAIR"),
    (lambda t: Rules(auction=t).auction, "rob"),
    (lambda t: resolve_rules(t).name, "standard"),
    (lambda t: list(ddz_fast.legal_moves("33", rules=t)), "standard"),
    (lambda t: convert.rlcard_to_counts(t).tolist(), "33R"),
    (lambda t: convert.rlcard_to_counts(t).tolist(), "pass"),
    (lambda t: convert.rlcard_to_counts_batch([t]).tolist(), "33R"),
    (lambda t: convert.counts_to_rlcard([0] * 15, empty=t), ""),
    (lambda t: compat_rlcard.rlcard_id(t), "33"),
])
def test_a_str_subclass_reads_as_the_text_it_holds(call, plain):
    assert call(Lying(plain)) == call(plain)


def test_text_made_plain_has_the_type_str():
    assert type(Rules(auction=Lying("rob")).auction) is str
    assert type(Rules(name=Lying("mine")).name) is str
    assert type(convert.counts_to_rlcard([0] * 15, empty=Lying("x"))) is str
