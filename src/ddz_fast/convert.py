"""Card formats of other engines, both ways, for single hands and in bulk.

Three formats meet here:

* **ours**: 15-slot ``uint8`` count vectors (see :mod:`ddz_fast.cards`);
* **DouZero**: lists of ints, one per card: ``3``..``14`` for 3..A, ``17`` for
  a 2, ``20`` for the low (black) joker and ``30`` for the high (red) joker,
  sorted ascending as DouZero keeps them;
* **RLCard**: strings over ``"3456789TJQKA2BR"`` sorted by rank (``"33444BR"``),
  with ``"pass"`` for the empty move.

Every function takes ``rules=`` (a preset name or a :class:`~ddz_fast.Rules`,
default ``"standard"``): it sets the deck the cards are checked against (one
deck, or two with ``"four"``).  Single-hand functions that take "counts" also
accept anything :func:`ddz_fast.to_counts` accepts (a sequence of 15 ints, a
``(15,)`` integer array, our card text) and a :class:`~ddz_fast.Move`.  Bulk
functions take an ``(N, 15)`` integer array, a sequence of such rows or of
moves, a :class:`~ddz_fast.MoveList` or a :class:`~ddz_fast.MoveBatch`, and are
vectorised with NumPy (lookup tables and ``bincount``, no per-card Python loop).
"""
from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._util.checks import plain_str, private_array
from ._core.entry import MoveBatch, MoveList
from ._core.move import Move
from .cards import LOW_JOKER, N_RANKS, RANKS, CardsLike, check_counts, to_counts
from .rules import Rules, RulesLike, resolve_rules

__all__ = [
    "DOUZERO_CARDS",
    "CountsBatchLike",
    "card_counts",
    "to_counts_batch",
    "douzero_to_counts",
    "counts_to_douzero",
    "douzero_to_counts_batch",
    "counts_to_douzero_batch",
    "rlcard_to_counts",
    "counts_to_rlcard",
    "rlcard_to_counts_batch",
    "counts_to_rlcard_batch",
]

#: DouZero's int for each of our rank indices 0..14.
DOUZERO_CARDS: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)

_DOUZERO_INTS = np.array(DOUZERO_CARDS, dtype=np.int64)
_DOUZERO_SLOT = {v: i for i, v in enumerate(DOUZERO_CARDS)}
# DouZero int -> our rank index, -1 where the int is no card.
_DOUZERO_INDEX = np.full(DOUZERO_CARDS[-1] + 1, -1, dtype=np.int64)
_DOUZERO_INDEX[_DOUZERO_INTS] = np.arange(N_RANKS)
_DOUZERO_VALID = "3..14, 17, 20, 30"

_RLCARD_PASS = "pass"
_RLCARD_BYTES = np.frombuffer(RANKS.encode("ascii"), dtype=np.uint8)
# RLCard character (as a byte) -> our rank index, -1 for any other byte.
_RLCARD_INDEX = np.full(256, -1, dtype=np.int64)
_RLCARD_INDEX[_RLCARD_BYTES] = np.arange(N_RANKS)

#: What the bulk functions accept as many count vectors.
CountsBatchLike = Union[npt.NDArray[np.integer[Any]], Sequence[Any], MoveList, MoveBatch]


# ---------------------------------------------------------------------------
# Count batches (shared by the bulk conversions, the encoders and action ids)
# ---------------------------------------------------------------------------

def _deck_limits(rules: Rules) -> npt.NDArray[np.int64]:
    limits = np.full(N_RANKS, rules.max_count, dtype=np.int64)
    limits[LOW_JOKER:] = rules.max_jokers
    return limits


def _check_counts_batch(counts: npt.NDArray[Any], rules: Rules) -> None:
    """Raise ValueError naming the first row and slot that is negative or over the deck."""
    if counts.size == 0:
        return
    bad = (counts < 0) | (counts > _deck_limits(rules))
    if bad.any():
        row = int(np.argwhere(bad)[0, 0])
        try:
            check_counts([int(c) for c in counts[row]], rules)
        except ValueError as e:
            raise ValueError(f"row {row}: {e}") from None


def card_counts(cards: CardsLike | Move, *, rules: RulesLike = "standard") -> npt.NDArray[np.uint8]:
    """:func:`ddz_fast.to_counts` that also takes a :class:`~ddz_fast.Move` (its cards)."""
    return to_counts(list(cards.counts) if isinstance(cards, Move) else cards, rules=rules)


def to_counts_batch(cards: CountsBatchLike, *, rules: RulesLike = "standard") -> npt.NDArray[np.uint8]:
    """Many count vectors as a fresh, validated ``(N, 15)`` ``uint8`` array.

    Accepts an ``(N, 15)`` integer array, a :class:`~ddz_fast.MoveList` or
    :class:`~ddz_fast.MoveBatch` (their moves' cards), or a sequence whose items
    are anything :func:`ddz_fast.to_counts` accepts (15 ints, card text, a
    ``Move``).  Raises ``TypeError`` for a wrong type or dtype and ``ValueError``
    for a wrong shape or a count outside the rules' deck, naming the row.

    >>> to_counts_batch([[1] + [0] * 14, "BR"]).tolist()[1]
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]
    """
    r = resolve_rules(rules)
    if isinstance(cards, (MoveList, MoveBatch)):
        moves = np.array(cards.counts, dtype=np.uint8)
        _check_counts_batch(moves, r)
        return moves
    if isinstance(cards, np.ndarray):
        cards = private_array(cards, "card counts")
        if cards.dtype == np.bool_ or cards.dtype.kind not in "iu":
            raise TypeError(f"card counts must have an integer dtype, not {cards.dtype}")
        if cards.ndim != 2 or cards.shape[1] != N_RANKS:
            raise ValueError(f"a batch of card counts must have shape (N, 15), not {cards.shape}")
        _check_counts_batch(cards, r)
        return cards.astype(np.uint8)
    if isinstance(cards, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"a batch of card counts must be an (N, 15) array or a sequence of hands, "
            f"not {type(cards).__name__}"
        )
    if not isinstance(cards, Sequence):
        raise TypeError(
            f"a batch of card counts must be an (N, 15) array or a sequence of hands, "
            f"not {type(cards).__name__}"
        )
    out = np.zeros((len(cards), N_RANKS), dtype=np.uint8)
    for i, item in enumerate(cards):
        try:
            out[i] = to_counts(item, rules=r)
        except (TypeError, ValueError) as e:
            raise type(e)(f"row {i}: {e}") from None
    return out


# ---------------------------------------------------------------------------
# DouZero
# ---------------------------------------------------------------------------

def _douzero_ints(cards: object, where: str) -> npt.NDArray[np.int64]:
    """Validate one DouZero card list: a 1-D sequence/array of ints."""
    if isinstance(cards, (str, bytes, bytearray, memoryview)) or not isinstance(
        cards, (Sequence, np.ndarray)
    ):
        raise TypeError(f"{where}DouZero cards must be a list of ints, not {type(cards).__name__}")
    if isinstance(cards, np.ndarray):
        cards = private_array(cards, f"{where}DouZero cards")
        if cards.ndim != 1:
            raise ValueError(f"{where}DouZero cards must be a 1-D list, not shape {cards.shape}")
        if cards.dtype == np.bool_ or cards.dtype.kind not in "iu":
            raise TypeError(f"{where}DouZero cards must be ints, not {cards.dtype}")
        if cards.dtype.kind == "u" and cards.size and int(cards.max()) > _DOUZERO_INDEX.size:
            raise ValueError(f"{where}DouZero card {int(cards.max())} is not a card; valid: {_DOUZERO_VALID}")
        return cards.astype(np.int64)
    for v in cards:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{where}DouZero card {v!r} is a {type(v).__name__}, not an int")
        if not 0 <= v < _DOUZERO_INDEX.size:       # (also keeps huge ints out of the int64 array)
            raise ValueError(f"{where}DouZero card {v!r} is not a card; valid: {_DOUZERO_VALID}")
    return np.array(cards, dtype=np.int64).reshape(-1)


def _douzero_indices(ints: npt.NDArray[np.int64], where: str) -> npt.NDArray[np.int64]:
    inside = (ints >= 0) & (ints < _DOUZERO_INDEX.size)
    idx = np.full(ints.shape, -1, dtype=np.int64)
    idx[inside] = _DOUZERO_INDEX[ints[inside]]
    if (idx < 0).any():
        bad = int(ints[np.argmax(idx < 0)])
        raise ValueError(f"{where}DouZero card {bad} is not a card; valid: {_DOUZERO_VALID}")
    return idx


def douzero_to_counts(cards: Sequence[int], *, rules: RulesLike = "standard") -> npt.NDArray[np.uint8]:
    """DouZero's card list (any order) to a ``(15,)`` ``uint8`` count vector.

    >>> douzero_to_counts([3, 3, 14, 17, 20, 30]).tolist()
    [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    """
    r = resolve_rules(rules)
    if type(cards) is list or type(cards) is tuple:
        plain = _douzero_plain_counts(cards)
        if plain is not None:
            check_counts(plain, r)
            return np.array(plain, dtype=np.uint8)
    idx = _douzero_indices(_douzero_ints(cards, ""), "")
    counts = np.bincount(idx, minlength=N_RANKS)
    return to_counts(counts, rules=r)


def _douzero_plain_counts(cards: Sequence[object]) -> list[int] | None:
    """Counts of a list of plain DouZero ints (DouZero's own hands and moves,
    the common case: no NumPy per card), or None for anything else, which
    then takes the checked path and its error messages."""
    out = [0] * N_RANKS
    for v in cards:
        if type(v) is not int:
            return None
        slot = _DOUZERO_SLOT.get(v)
        if slot is None:
            return None
        out[slot] += 1
    return out


def counts_to_douzero(counts: CardsLike | Move, *, rules: RulesLike = "standard") -> list[int]:
    """Cards (counts, card text or a ``Move``) to DouZero's ascending int list.

    >>> counts_to_douzero("33AB")
    [3, 3, 14, 20]
    """
    c = card_counts(counts, rules=rules)
    result: list[int] = np.repeat(_DOUZERO_INTS, c).tolist()
    return result


def _batch_items(given: object, what: str) -> Sequence[Any] | npt.NDArray[Any]:
    """The items of a batch argument: a sequence, or an array of at least one
    dimension (a NumPy subclass such as ``np.matrix`` read as its plain data,
    as every card array is); TypeError for anything else."""
    if isinstance(given, np.ndarray):
        plain = private_array(given, what)
        if plain.ndim == 0:
            raise TypeError(f"{what} must be a list or an array of at least one dimension, not a 0-d array")
        return plain
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise TypeError(f"{what} must be a list, not {type(given).__name__}")
    return given


def douzero_to_counts_batch(
    hands: Sequence[Sequence[int]], *, rules: RulesLike = "standard"
) -> npt.NDArray[np.uint8]:
    """Many DouZero card lists to an ``(N, 15)`` ``uint8`` array (one ``bincount``).

    ``hands`` is a list of card lists, or an array whose rows are the card
    lists (all of one length).

    >>> douzero_to_counts_batch([[3, 30], []]).tolist()[0][:2]
    [1, 0]
    """
    r = resolve_rules(rules)
    items = _batch_items(hands, "a batch of DouZero card lists")
    n = len(items)
    parts = [_douzero_ints(h, f"hand {i}: ") for i, h in enumerate(items)]
    lengths = np.array([p.size for p in parts], dtype=np.int64)
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    try:
        idx = _douzero_indices(flat, "")
    except ValueError:
        for i, p in enumerate(parts):  # name the hand of the first bad card
            _douzero_indices(p, f"hand {i}: ")
        raise
    rows = np.repeat(np.arange(n, dtype=np.int64), lengths)
    counts = np.bincount(rows * N_RANKS + idx, minlength=n * N_RANKS).reshape(n, N_RANKS)
    _check_counts_batch(counts, r)
    return counts.astype(np.uint8)


def _flat_cards(
    counts: npt.NDArray[np.uint8], symbols: npt.NDArray[Any]
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
    """Every card of every row as one flat array of symbols, plus row offsets."""
    n = counts.shape[0]
    flat = np.repeat(np.tile(symbols, n), counts.reshape(-1))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts.sum(axis=1, dtype=np.int64), out=offsets[1:])
    return flat, offsets


def counts_to_douzero_batch(
    counts: CountsBatchLike, *, rules: RulesLike = "standard"
) -> list[list[int]]:
    """Many count vectors (or a ``MoveList`` / ``MoveBatch``) to DouZero lists.

    >>> counts_to_douzero_batch([[0] * 13 + [1, 1], "3"])
    [[20, 30], [3]]
    """
    c = to_counts_batch(counts, rules=rules)
    flat, offsets = _flat_cards(c, _DOUZERO_INTS)
    cards: list[int] = flat.tolist()
    bounds = offsets.tolist()
    return [cards[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


# ---------------------------------------------------------------------------
# RLCard
# ---------------------------------------------------------------------------

def _rlcard_bytes(text: object, where: str) -> bytes:
    text = plain_str(text, f"{where}RLCard cards")
    if text == _RLCARD_PASS:
        return b""
    try:
        return text.encode("ascii")
    except UnicodeEncodeError:
        pos = next(i for i, ch in enumerate(text) if ord(ch) > 127)
        raise ValueError(
            f"{where}RLCard card {text[pos]!r} at position {pos} in {text!r} is not a card; "
            f"valid: {RANKS} (or 'pass')"
        ) from None


def _rlcard_indices(data: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    idx: npt.NDArray[np.int64] = _RLCARD_INDEX[data]
    return idx


def _raise_bad_rlcard(text: str, where: str) -> None:
    for pos, ch in enumerate(text):
        if ch not in RANKS:
            raise ValueError(
                f"{where}RLCard card {ch!r} at position {pos} in {text!r} is not a card; "
                f"valid: {RANKS} (or 'pass')"
            )


def rlcard_to_counts(text: str, *, rules: RulesLike = "standard") -> npt.NDArray[np.uint8]:
    """An RLCard card string to a ``(15,)`` ``uint8`` count vector.

    ``"pass"`` and ``""`` are the empty vector.  Only the 15 characters
    ``3456789TJQKA2BR`` are cards (upper case, no separators: RLCard's own
    alphabet; use :func:`ddz_fast.parse_cards` for free-form text).

    >>> rlcard_to_counts("33444BR").tolist()
    [2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]
    """
    r = resolve_rules(rules)
    text = plain_str(text, "RLCard cards")
    raw = _rlcard_bytes(text, "")
    idx = _rlcard_indices(np.frombuffer(raw, dtype=np.uint8))
    if (idx < 0).any():
        _raise_bad_rlcard(text, "")
    return to_counts(np.bincount(idx, minlength=N_RANKS), rules=r)


def counts_to_rlcard(
    counts: CardsLike | Move, *, empty: str = "pass", rules: RulesLike = "standard"
) -> str:
    """Cards (counts, card text or a ``Move``) to RLCard's sorted string.

    No cards give ``empty``: ``"pass"`` by default (RLCard's pass action); use
    ``empty=""`` for an empty hand.

    >>> counts_to_rlcard([0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1])
    '4TTR'
    >>> counts_to_rlcard([0] * 15)
    'pass'
    """
    empty = plain_str(empty, "empty")
    c = card_counts(counts, rules=rules)
    text = np.repeat(_RLCARD_BYTES, c).tobytes().decode("ascii")
    return text if text else empty


def rlcard_to_counts_batch(
    texts: Sequence[str], *, rules: RulesLike = "standard"
) -> npt.NDArray[np.uint8]:
    """Many RLCard strings to an ``(N, 15)`` ``uint8`` array (one ``bincount``).

    >>> rlcard_to_counts_batch(["pass", "3R"]).tolist()[1][0]
    1
    """
    r = resolve_rules(rules)
    items = _batch_items(texts, "a batch of RLCard strings")
    raws = [_rlcard_bytes(t, f"item {i}: ") for i, t in enumerate(items)]
    n = len(raws)
    lengths = np.array([len(b) for b in raws], dtype=np.int64)
    idx = _rlcard_indices(np.frombuffer(b"".join(raws), dtype=np.uint8))
    if (idx < 0).any():
        for i, raw in enumerate(raws):
            _raise_bad_rlcard(raw.decode("ascii"), f"item {i}: ")
    rows = np.repeat(np.arange(n, dtype=np.int64), lengths)
    counts = np.bincount(rows * N_RANKS + idx, minlength=n * N_RANKS).reshape(n, N_RANKS)
    _check_counts_batch(counts, r)
    return counts.astype(np.uint8)


def counts_to_rlcard_batch(
    counts: CountsBatchLike, *, empty: str = "pass", rules: RulesLike = "standard"
) -> list[str]:
    """Many count vectors (or a ``MoveList`` / ``MoveBatch``) to RLCard strings.

    Rows without cards give ``empty`` (``"pass"`` by default).

    >>> counts_to_rlcard_batch(["33", [0] * 15])
    ['33', 'pass']
    """
    empty = plain_str(empty, "empty")
    c = to_counts_batch(counts, rules=rules)
    flat, offsets = _flat_cards(c, _RLCARD_BYTES)
    text = flat.tobytes().decode("ascii")
    bounds = offsets.tolist()
    return [text[a:b] or empty for a, b in zip(bounds[:-1], bounds[1:])]

