"""Cards as 15-slot rank-count vectors, and their text form (docs/rules.md, "Cards and ranks").

Rank index 0..14 stands for ``3 4 5 6 7 8 9 T J Q K A 2 B R``: ``B`` is the low
(black-and-white) joker, ``R`` the high (coloured) joker.  A hand or a move is
a vector of 15 counts.

Input text accepts ``10`` for ``T``, lower case, ``X`` for the low and ``D``
for the high joker, and the separators space, comma, ``-``, ``+``, ``/`` and
``|``.  Output is canonical: ranks from low to high, ``T``, ``B``, ``R``.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Sequence, Tuple, Union

import numpy as np

from ._util.checks import bounded_list, plain_str, private_array
from .rules import Rules, RulesLike, resolve_rules

__all__ = [
    "RANKS",
    "N_RANKS",
    "LOW_JOKER",
    "HIGH_JOKER",
    "TWO",
    "ACE",
    "CardsLike",
    "parse_cards",
    "format_cards",
    "to_counts",
    "check_counts",
    "rank_index",
    "parse_wild",
    "WildLike",
]

#: The rank labels, one per rank index 0..14 (canonical card text uses them).
RANKS = "3456789TJQKA2BR"
#: Number of ranks: the length of a count vector.
N_RANKS = 15
#: Rank index of the ace (the highest rank a chain may reach).
ACE = 11
#: Rank index of the 2.
TWO = 12
#: Rank index of the low (black-and-white) joker, ``B``.
LOW_JOKER = 13
#: Rank index of the high (coloured) joker, ``R``.
HIGH_JOKER = 14

_TOKENS = {ch: i for i, ch in enumerate(RANKS)}
_TOKENS.update({"X": LOW_JOKER, "D": HIGH_JOKER})
_SEPARATORS = frozenset(" \t\n\r,-+/|")

#: What functions accept as cards: text, 15 counts, or a ``(15,)`` array.
CardsLike = Union[str, Sequence[int], np.ndarray]


def rank_index(token: str) -> int:
    """Rank index of one card token (``"3"``..``"2"``, ``"10"``, ``"T"``, jokers)."""
    t = plain_str(token, "a card token").strip().upper()
    if t == "10":
        return _TOKENS["T"]
    if len(t) == 1 and t in _TOKENS:
        return _TOKENS[t]
    raise ValueError(f"unknown card token {token!r}")


#: What ``wild=`` accepts: a rank (0..12 or one card token), or with two wild
#: ranks a pair of them or a text of two tokens.
WildLike = Union[int, str, Sequence[Union[int, str]], None]


def parse_wild(wild: object, rules: RulesLike) -> Tuple[int, ...]:
    """The wild ranks of ``wild=`` under `rules`, ascending (docs/rules.md,
    "Wild cards"): ``()`` for rules without wild cards (where `wild` must be
    None), else as many distinct ranks 0..12 (3..2; never a joker) as the
    rules draw.  TypeError/ValueError name what is wrong."""
    r = resolve_rules(rules)
    want = r.wild_ranks
    if wild is None:
        if want:
            raise ValueError(f"rules {r.name!r} have wild cards: pass the deal's wild "
                             f"rank{'s' if want > 1 else ''} as wild=")
        return ()
    if not want:
        raise ValueError(f"rules {r.name!r} have no wild cards; wild= must be None, not {wild!r}")
    items: List[object]
    if isinstance(wild, str):
        text = plain_str(wild, "wild")
        items = [t for t in re.findall(r"10|\S", text.upper()) if t not in _SEPARATORS]
    elif isinstance(wild, (bool, np.bool_)):
        raise TypeError("wild must be a rank (int or card text), not a bool")
    elif isinstance(wild, (int, np.integer)):
        items = [wild]
    elif isinstance(wild, (tuple, list)):
        items = list(wild)
    else:
        raise TypeError(f"wild must be a rank (int 0..12 or card text) or a pair of them, "
                        f"not {type(wild).__name__}")
    if len(items) != want:
        raise ValueError(f"rules {r.name!r} draw {want} wild rank{'s' if want > 1 else ''}, "
                         f"got {len(items)} in {wild!r}")
    ranks = []
    for x in items:
        if isinstance(x, (bool, np.bool_)):
            raise TypeError("a wild rank must be an int or card text, not a bool")
        if isinstance(x, (int, np.integer)):
            k = int(x)
        elif isinstance(x, str):
            k = rank_index(x)
        else:
            raise TypeError(f"a wild rank must be an int or card text, not {type(x).__name__}")
        if not 0 <= k <= TWO:
            raise ValueError(f"a wild rank must be 0..12 (3..2; jokers are never wild), not {x!r}")
        ranks.append(k)
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"the two wild ranks must differ, not {wild!r}")
    return tuple(sorted(ranks))


def parse_cards(text: str, *, rules: RulesLike = "standard") -> np.ndarray:
    """Parse card text into a 15-slot ``uint8`` count vector.

    >>> parse_cards("3 3 10 x d").tolist()
    [2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1]
    """
    text = plain_str(text, "card text")
    counts = [0] * N_RANKS
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        up = ch.upper()
        if ch == "1" and i + 1 < n and text[i + 1] == "0":
            counts[_TOKENS["T"]] += 1
            i += 2
            continue
        if up in _TOKENS:
            counts[_TOKENS[up]] += 1
            i += 1
            continue
        raise ValueError(f"unknown card token {ch!r} at position {i} in {text!r}")
    return _checked_array(counts, resolve_rules(rules), source=text)


def format_cards(cards: CardsLike, *, rules: RulesLike = "standard") -> str:
    """Canonical text of a count vector (or of any card input).

    >>> format_cards([1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 1])
    '3TTBR'
    """
    counts = to_counts(cards, rules=rules)
    return "".join(RANKS[r] * int(c) for r, c in enumerate(counts))


def to_counts(cards: CardsLike, *, rules: RulesLike = "standard") -> np.ndarray:
    """Turn text, a sequence of 15 ints or an integer numpy array into a fresh,
    validated ``uint8`` count vector of shape ``(15,)``.

    Raises ``TypeError`` for a wrong type or dtype (floats, bools, objects) and
    ``ValueError`` for a wrong length or shape, a negative count, or more cards
    of a rank than the rules' deck holds; each message names the bad slot.
    """
    r = resolve_rules(rules)
    if isinstance(cards, str):
        return parse_cards(cards, rules=r)
    if isinstance(cards, np.ndarray):
        cards = private_array(cards, "card counts")
        if cards.dtype == np.bool_ or cards.dtype.kind not in "iu":
            raise TypeError(f"card counts must have an integer dtype, not {cards.dtype}")
        if cards.shape != (N_RANKS,):
            raise ValueError(f"card counts must have shape (15,), not {cards.shape}")
        return _checked_array(cards.tolist(), r)
    if isinstance(cards, (bytes, bytearray, memoryview)):
        raise TypeError("card counts must be text, a sequence of 15 ints or a numpy array, not bytes")
    if hasattr(cards, "counts") and hasattr(cards, "kind"):
        # A Move (or a Move-like object): its cards, checked like any other
        # sequence of counts (a forged .counts of the wrong length or of
        # floats must not pass).
        counts = cards.counts
        if isinstance(counts, str) or (hasattr(counts, "counts") and hasattr(counts, "kind")):
            raise TypeError(f"a move's counts must be a sequence of 15 ints, not {type(counts).__name__}")
        return to_counts(counts, rules=r)
    if not isinstance(cards, (Sequence, Iterable)):
        raise TypeError(
            f"cards must be text, a sequence of 15 ints or a numpy array, not {type(cards).__name__}"
        )
    values = bounded_list(cards, N_RANKS, "card counts")
    if len(values) != N_RANKS:
        raise ValueError(f"expected 15 counts, got {len(values)}")
    for slot, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(
                f"count in slot {slot} ({RANKS[slot]}) must be an int, not {type(v).__name__}"
            )
    return _checked_array([int(v) for v in values], r)


def check_counts(counts: Sequence[int], rules: Rules, *, source: object = None) -> None:
    """Raise ``ValueError`` if a count is negative or exceeds the deck."""
    for slot, c in enumerate(counts):
        if c < 0:
            raise ValueError(f"negative count {c} in slot {slot} ({RANKS[slot]})")
        limit = rules.max_jokers if slot >= LOW_JOKER else rules.max_count
        if c > limit:
            what = {LOW_JOKER: "low jokers", HIGH_JOKER: "high jokers"}.get(slot, f"{RANKS[slot]}s")
            deck = "one deck" if rules.decks == 1 else f"{rules.decks} decks"
            where = f" in {source!r}" if source is not None else ""
            raise ValueError(
                f"{c} {what} (slot {slot}){where}: {deck} holds at most {limit}"
            )


def _checked_array(counts: Sequence[int], rules: Rules, source: object = None) -> np.ndarray:
    check_counts(counts, rules, source=source)
    return np.array(counts, dtype=np.uint8)
