"""Dense action ids per rule set, and legal-action masks.

The game's action ids (``docs/actions.md``) are one layout for every rules:
ids ``0 .. FIRST_MOVE_ID-1`` are the auction and doubling actions (id ==
index in ``ddz_fast.game_values.AUCTION_ACTIONS``), then the moves:
game id ``FIRST_MOVE_ID + k`` is move ``k`` of the rules' ``ActionSpace``.

An :class:`ActionSpace` numbers the move block, from 0: id 0 is ``PASS``, ids ``1..size-1`` are the moves of at most
:attr:`ActionSpace.max_cards` cards (the largest hand of the game: 20 cards
with one deck, 33 with two) that ``legal_moves(full_deck, rules=rules)``
returns, in that order (the documented move-list order: kind, length, number
of cards, rank, attachments).  Moves of more cards are no action of any
player.  Moves are typed: the same cards read as two kinds are two ids.

Ids are computed from the cards, not looked up (:mod:`ddz_fast._core.ranks`): the
first id of the move's body (kind, length, rank) plus the rank of its
attachments among those the body takes.  :meth:`ActionSpace.mask` is one
compiled call without a ``MoveList``: the generators write the ids of most
moves themselves (singles, pairs, trios and their kickers, chains, fours with
two, two-trio airplanes, read off the masks they build anyway), and the other
moves are generated as rows and ranked.

Under wild-card rules (``laizi``, ``tiandi``) :func:`action_space` gives a
:class:`WildActionSpace`: a wild move's id is a pair (reading id, cards id),
the id of the represented combination among the standard moves, then the
index of the substitution that puts the wild cards in (``docs/actions.md``,
"Wild cards").
"""
from __future__ import annotations

import functools
from typing import Any, Literal, NoReturn, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from ._util.checks import check_index
from ._core.entry import MoveBatch, MoveList, legal_moves, legal_moves_batch
from ._core.lookup import pack_rows
from ._core.ranks import ActionMasks, WildIds, max_hand, space_ranks, wild_cards_ids
from ._engine.vec import FIRST_MOVE_ID
from ._core.move import PASS, Move
from ._core.movelist import _movelist_from_rows
from .cards import N_RANKS, RANKS, CardsLike, WildLike, format_cards, parse_wild
from .kinds import Kind
from .convert import CountsBatchLike, to_counts_batch
from . import pickling as _pickling
from .rules import PRESETS, Rules, RulesLike, resolve_rules

__all__ = ["ActionSpace", "WildActionSpace", "action_space", "max_hand", "MovesLike", "pack_rows", "move_rows",
           "FIRST_MOVE_ID"]

#: Many moves: a ``MoveList``, a ``MoveBatch`` or a sequence of ``Move``.
MovesLike = Union[MoveList, MoveBatch, Sequence[Move]]

_ROW = N_RANKS + 1


def move_rows(moves: MovesLike) -> npt.NDArray[np.uint8]:
    """The ``(M, 16)`` ``uint8`` rows (15 counts, then the kind) of a ``MoveList``,
    a ``MoveBatch`` or a sequence of ``Move`` (``TypeError`` for anything else)."""
    if isinstance(moves, (MoveList, MoveBatch)):
        return moves.rows
    given: object = moves
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise TypeError(
            f"moves must be a MoveList, a MoveBatch or a sequence of Move, not {type(given).__name__}"
        )
    rows = np.zeros((len(moves), _ROW), dtype=np.uint8)
    for i, m in enumerate(moves):
        if not isinstance(m, Move):
            raise TypeError(f"item {i} is a {type(m).__name__}, not a Move")
        rows[i, :N_RANKS] = m.counts
        rows[i, N_RANKS] = int(m.kind)
    return rows


def _describe_row(row: npt.NDArray[np.uint8]) -> str:
    """Kind name and cards of one move row, for error messages."""
    code = int(row[N_RANKS])
    kind = Kind(code).name if code < len(Kind) else f"kind {code}"
    cards = "".join(RANKS[r] * int(c) for r, c in enumerate(row[:N_RANKS]))
    return f"{kind} {cards}".rstrip()


def _check_index(i: object, size: int) -> int:
    return check_index(i, size, "action id")


class ActionSpace(ActionMasks):
    """Dense ids of every move a hand of the game can hold, under one set of rules.

    Build it with :func:`action_space` (cached per rules).  ``len(space)`` and
    ``space.size`` are the number of ids; ``space.rows`` is the read-only
    ``(size, 16)`` ``uint8`` table (row 0 is PASS, all zeros).  Its ids
    number the move block of the game's action ids: move ``k`` is game id
    ``first_id + k`` (:attr:`first_id` is ``FIRST_MOVE_ID``), and a game
    of these rules has :attr:`n_actions` ids in all.  An
    ``ActionSpace`` pickles by its rules: unpickling gives the cached space.

    >>> space = action_space("strict")
    >>> space.size, space.max_cards, space.id_to_move(0), space.id_to_move(1)
    (12655, 20, Move(PASS), Move(SOLO, '3', rank=0, length=1))
    >>> space.move_to_id(space.id_to_move(123))
    123
    """

    def __init__(self, rules: RulesLike = "standard") -> None:
        r = resolve_rules(rules)
        if r.wild_ranks:
            raise ValueError(f"rules {r.name!r} have wild cards: their moves are numbered by "
                             f"a WildActionSpace (action_space({r.name!r}))")
        lookup = space_ranks(r)
        # (each row checked a legal move under r once more)
        moves = _movelist_from_rows(lookup.table.tobytes(), r)
        # (held by the compiled base, which Python cannot set)
        self._set_ranks(lookup, rules=r, max_cards=max_hand(r), moves=moves)

    # Basic facts ----------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules whose moves this space numbers."""
        return self._rules

    @property
    def max_cards(self) -> int:
        """The most cards of a move in this space: the largest hand of the game."""
        return self._max_cards

    @property
    def size(self) -> int:
        """Number of action ids (PASS included)."""
        return int(self._rows.shape[0])

    @property
    def rows(self) -> npt.NDArray[np.uint8]:
        """The ``(size, 16)`` read-only ``uint8`` table: row ``i`` is action ``i``."""
        return self._rows

    @property
    def first_id(self) -> int:
        """The game action id of move 0 (PASS): ``FIRST_MOVE_ID``, the same for every rules."""
        return FIRST_MOVE_ID

    @property
    def n_actions(self) -> int:
        """Number of game action ids of these rules: ``first_id + size``."""
        return FIRST_MOVE_ID + self.size

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"ActionSpace(rules={self._rules.name!r}, size={self.size})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_pickling.load_action_space, ((_pickling.FORMAT, self._rules),))

    # Single moves -----------------------------------------------------------
    def move_to_id(self, move: Move) -> int:
        """The id of one move; ``ValueError`` if the move is not in this space."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, not {type(move).__name__}")
        row = np.empty((1, _ROW), dtype=np.uint8)
        row[0, :N_RANKS] = move.counts
        row[0, N_RANKS] = int(move.kind)
        found = int(self._lookup.find(row)[0])
        if found < 0:
            self._reject(row, 0)
        return found

    def id_to_move(self, i: int) -> Move:
        """The move of one id (``TypeError`` for a non-integer, ``ValueError`` out of range)."""
        v = _check_index(i, self.size)
        return PASS if v == 0 else self._moves[v]

    # Many moves -------------------------------------------------------------
    def _ids_of_rows(self, rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """Ids of (M, 16) move rows; ValueError naming the first row not in this space."""
        ids = self._lookup.find(np.ascontiguousarray(rows, dtype=np.uint8))
        if ids.size and ids.min() < 0:
            self._reject(rows, int(np.argmin(ids)))
        return ids

    def _reject(self, rows: npt.NDArray[np.uint8], bad: int) -> NoReturn:
        n = int(np.asarray(rows[bad][:N_RANKS], dtype=np.int64).sum())
        if n > self._max_cards:
            raise ValueError(
                f"move {bad} ({_describe_row(rows[bad])}) has {n} cards: no hand of this game "
                f"holds more than {self._max_cards}, so it has no action id"
            )
        raise ValueError(
            f"move {bad} ({_describe_row(rows[bad])}) is not a legal move under "
            f"rules {self._rules.name!r}"
        )

    def ids(self, moves: MovesLike) -> npt.NDArray[np.int64]:
        """The ids of many moves as an ``int64`` array (vectorised over the rows).

        >>> space = action_space()
        >>> space.ids(legal_moves("3345", rules="standard")).tolist()
        [1, 2, 3, 16]
        """
        return self._ids_of_rows(move_rows(moves))

    def moves(self, ids: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[Move]:
        """The moves of many ids."""
        if isinstance(ids, np.ndarray):
            if ids.dtype == np.bool_ or ids.dtype.kind not in "iu":
                raise TypeError(f"action ids must have an integer dtype, not {ids.dtype}")
            if ids.ndim != 1:
                raise ValueError(f"action ids must be 1-D, not shape {ids.shape}")
            ids = ids.tolist()
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
            raise TypeError(f"action ids must be a sequence of ints, not {type(ids).__name__}")
        return [self.id_to_move(i) for i in ids]

    # Masks ------------------------------------------------------------------
    # mask(hand, last=None, *, out=None): compiled, see ActionMasks.mask

    def _reject_move(self, hand: CardsLike, last: Move | None, bad: int) -> NoReturn:
        """The error of move ``bad`` of ``legal_moves(hand, last)``, which has no id."""
        self._reject(legal_moves(hand, last, rules=self._rules).rows, bad)

    def masks(
        self,
        hands: CountsBatchLike,
        lasts: Sequence[Move | None] | npt.NDArray[np.uint8] | None = None,
        *,
        threads: int = 1,
        out: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Boolean ``(N, size)`` masks of many hands (one ``legal_moves_batch`` call).

        ``hands``: an ``(N, 15)`` integer array or anything
        :func:`~ddz_fast.convert.to_counts_batch` accepts (e.g. card texts).

        ``threads`` is passed to ``legal_moves_batch``; ``out`` is an optional
        C-contiguous ``bool`` array of shape ``(N, size)`` to fill.
        """
        counts = hands if isinstance(hands, np.ndarray) else to_counts_batch(hands, rules=self._rules)
        batch = legal_moves_batch(counts, lasts, rules=self._rules, threads=threads)
        try:
            return self._lookup.masks(batch.rows, batch.offsets, out)
        except KeyError as e:  # a hand of more cards than any player holds
            self._reject(batch.rows, e.args[0])


# Wild cards ------------------------------------------------------------------
_STANDS_FOR = 13   # ranks 3..2: what a wild card can stand for (never a joker)
_MOST = 4          # cards of one rank in one deck
#: A pair of action ids under wild-card rules: (reading id, cards id).
WildId = tuple[int, int]
#: Many pairs: an ``(M, 2)`` integer array or a sequence of pairs.
WildIdsLike = Union[Sequence[Sequence[int]], npt.NDArray[np.integer[Any]]]


@functools.lru_cache(maxsize=None)
def _substitution_ranks(most: int) -> tuple[npt.NDArray[np.int64], int]:
    """The lexicographic ranking of the substitutions of at most `most` wild
    cards: vectors s of 13 counts 0..4 with sum(s) <= most.  Returns
    ``(first, n)``: n vectors, and ``first[i, p, x]`` the vectors that agree
    with s before rank i (where they sum to p) and put fewer than x at rank
    i; a count x that would pass `most` gets n (above every index, so
    unranking never picks it)."""
    # fits[k, m]: vectors of k counts 0..4 with sum <= m
    fits = np.zeros((_STANDS_FOR + 1, most + 1), dtype=np.int64)
    fits[0, :] = 1
    for k in range(1, _STANDS_FOR + 1):
        for m in range(most + 1):
            fits[k, m] = sum(int(fits[k - 1, m - v]) for v in range(min(_MOST, m) + 1))
    n = int(fits[_STANDS_FOR, most])
    first = np.full((_STANDS_FOR, most + 1, _MOST + 1), n, dtype=np.int64)
    for i in range(_STANDS_FOR):
        for p in range(most + 1):
            below = 0
            for x in range(min(_MOST, most - p) + 1):
                first[i, p, x] = below
                below += int(fits[_STANDS_FOR - 1 - i, most - p - x])
    first.setflags(write=False)
    return first, n


def _unrank_substitutions(index: npt.NDArray[np.int64], most: int) -> npt.NDArray[np.int64]:
    """The substitutions (M, 13) of indices 0..n-1 (the inverse of the ranking
    by ``first``, ``_core.ranks.wild_cards_ids``)."""
    first, _ = _substitution_ranks(most)
    left = np.array(index, dtype=np.int64)
    s = np.zeros((left.shape[0], _STANDS_FOR), dtype=np.int64)
    before = np.zeros(left.shape[0], dtype=np.int64)
    at = np.arange(left.shape[0])
    for i in range(_STANDS_FOR):
        row = first[i, before]                          # (M, 5), increasing
        x = (row <= left[:, None]).sum(axis=1) - 1      # the largest count that fits
        left -= row[at, x]
        s[:, i] = x
        before += x
    return s


def _describe_wild(rep_row: npt.NDArray[np.uint8], counts: npt.NDArray[np.uint8]) -> str:
    """Kind, cards and reading of one wild move, for error messages."""
    text = _describe_row(rep_row)
    if not np.array_equal(rep_row[:N_RANKS], counts):
        kind = text.split(" ")[0]
        text = f"{kind} {format_cards(counts.astype(np.int64).tolist())}={text[len(kind) + 1:]}"
    return text


def _wild_text(wild: tuple[int, ...]) -> str:
    return f"wild rank{'s' if len(wild) > 1 else ''} {''.join(RANKS[x] for x in wild)}"


class WildActionSpace(ActionSpace):
    """The ids of the moves of wild-card rules (``laizi``, ``tiandi``): pairs.

    A wild move is (kind, represented combination, cards played).  Its id is
    the pair ``(reading id, cards id)``: the reading id is the id of the
    represented combination (a standard move) in :attr:`readings`, the
    :class:`ActionSpace` of the same rules without wild cards; the cards id
    says which physical cards play it, as the substitution (for each rank
    3..2 that is not wild, how many wild cards stand in for it; with two
    wild ranks also how many cards of the lower wild rank are played).  The
    cards id does not name ranks of wild cards, so one pair names different
    cards under different wild ranks: every call takes the deal's ``wild=``.
    ``docs/actions.md`` ("Wild cards") gives the layout and the sizes.

    ``size``, ``rows``, ``mask`` and ``masks`` are about the reading ids
    (``size == reading_size``); :attr:`cards_size` bounds the cards ids.

    >>> space = action_space("laizi")
    >>> space.reading_size, space.cards_size
    (28356, 2380)
    >>> m = Move("BOMB", "5577", rules="laizi", wild="7", represents="5555")
    >>> space.move_to_id(m, wild="7")
    (28344, 1287)
    >>> space.id_to_move((28344, 1287), wild="7") == m
    True
    """

    def __init__(self, rules: RulesLike = "laizi") -> None:
        r = resolve_rules(rules)
        if not r.wild_ranks:
            raise ValueError(f"rules {r.name!r} have no wild cards: their moves are numbered "
                             f"by an ActionSpace (action_space({r.name!r}))")
        plain = r.replace(wild="none", bomb_doubling="all")
        # (the preset it equals, so that it is cached under the preset's name)
        readings = action_space(next((p for p in PRESETS.values() if p == plain), plain))
        # (everything else is derived from the sealed rules and ranking of
        # the compiled base: no Python attribute decides an id)
        self._set_ranks(readings._lookup, rules=r, max_cards=readings.max_cards,
                        moves=readings._moves)

    @property
    def _n_wild(self) -> int:
        return int(self._rules.wild_ranks)

    @property
    def _most(self) -> int:
        """The wild cards of the deck: the most that can stand in at once."""
        return _MOST * self._n_wild

    @property
    def _splits(self) -> int:
        """Ways to take the wild cards played from the lower wild rank: 1, or 0..4."""
        return 1 if self._n_wild == 1 else _MOST + 1

    # Basic facts ----------------------------------------------------------
    @property
    def readings(self) -> ActionSpace:
        """The :class:`ActionSpace` of the represented combinations (the same
        rules without wild cards): reading id ``i`` reads as its move ``i``."""
        return action_space(self._lookup.rules)

    @property
    def reading_size(self) -> int:
        """Number of reading ids (PASS included): ``readings.size``."""
        return self.size

    @property
    def cards_size(self) -> int:
        """Number of cards ids: the substitutions of at most 4 wild cards
        (``laizi``, 2380), or of at most 8 times the 5 splits (``tiandi``)."""
        return _substitution_ranks(self._most)[1] * self._splits

    @property
    def flat_size(self) -> int:
        """Number of flat move ids, ``reading_size * cards_size``: the game
        action id of the pair ``(r, c)`` is ``first_id + r * cards_size +
        c`` (:meth:`Game.legal_ids <ddz_fast.Game.legal_ids>`,
        :class:`~ddz_fast.VecGame`)."""
        return self.reading_size * self.cards_size

    def flat_id(self, move: Move, *, wild: WildLike = None) -> int:
        """The flat id ``r * cards_size + c`` of one move's pair ``(r, c)``
        under the wild ranks (a game action id less ``first_id``)."""
        r, c = self.move_to_id(move, wild=wild)
        return r * self.cards_size + c

    def flat_move(self, flat_id: int, *, wild: WildLike = None) -> Move:
        """The move of a flat id under the wild ranks (:meth:`flat_id`'s
        inverse); ``ValueError`` when it names no move under them."""
        flat = check_index(flat_id, self.flat_size, "flat id")
        return self.id_to_move(self.split_flat(flat), wild=wild)

    def split_flat(self, flat: Any) -> Any:
        """The pair ``(reading id, cards id)`` of flat ids (ints or NumPy
        integer arrays, unchecked: the one place a flat id is taken apart).

        >>> from ddz_fast.actions import action_space
        >>> space = action_space("laizi")
        >>> space.split_flat(5 * space.cards_size + 7)
        (5, 7)
        """
        return divmod(flat, self.cards_size)

    def __repr__(self) -> str:
        return (f"WildActionSpace(rules={self._rules.name!r}, reading_size={self.reading_size}, "
                f"cards_size={self.cards_size})")

    def cards_counts(self, *, wild: WildLike = None) -> npt.NDArray[np.int64]:
        """How many cards ids name a move with each reading id under the wild
        ranks: an ``int64`` array of :attr:`reading_size` (1 for PASS)."""
        w = parse_wild(wild, self._rules)
        reps = self._rows[:, :_STANDS_FOR].astype(np.int64)
        # ways[:, k]: substitutions of k wild cards over the ranks that are not wild
        ways = np.zeros((reps.shape[0], self._most + 1), dtype=np.int64)
        ways[:, 0] = 1
        for x in range(_STANDS_FOR):
            if x in w:
                continue
            grown = np.zeros_like(ways)
            for v in range(_MOST + 1):
                grown[:, v:] += ways[:, :self._most + 1 - v] * (reps[:, x] >= v)[:, None]
            ways = grown
        # every wild card played: the stand-ins and the wild ranks' own cards
        played = np.arange(self._most + 1)[None, :] + reps[:, list(w)].sum(axis=1)[:, None]
        if self._n_wild == 1:
            splits = played <= _MOST
        else:
            splits = np.minimum(played, _MOST) - np.maximum(played - _MOST, 0) + 1
            splits[played > self._most] = 0
        return np.asarray((ways * splits).sum(axis=1), dtype=np.int64)

    def n_moves(self, *, wild: WildLike = None) -> int:
        """Number of wild moves (id pairs that name a move) under the wild ranks, PASS included."""
        return int(self.cards_counts(wild=wild).sum())

    # Moves to ids -----------------------------------------------------------
    def _pairs(self, rep_rows: npt.NDArray[np.uint8], counts: npt.NDArray[np.uint8],
               wild: tuple[int, ...]) -> npt.NDArray[np.int64]:
        """(M, 2) id pairs of moves given as represented rows (M, 16) and
        cards (M, 15); ValueError naming the first that is no move."""
        rep_rows = np.ascontiguousarray(rep_rows, dtype=np.uint8)
        reading = self._lookup.find(rep_rows)
        if reading.size and reading.min() < 0:
            self._reject(rep_rows, int(np.argmin(reading)))
        cards = np.empty(reading.shape[0], dtype=np.int64)
        first, _ = _substitution_ranks(self._most)
        bad = wild_cards_ids(rep_rows, counts, sum(1 << x for x in wild), self._splits, first, cards)
        if bad >= 0:
            raise ValueError(f"move {bad} ({_describe_wild(rep_rows[bad], counts[bad])}) is no move "
                             f"under {_wild_text(wild)}: its cards do not read as that combination")
        return np.stack([reading, cards], axis=1)

    def ids(self, moves: MovesLike, *, wild: WildLike = None) -> npt.NDArray[np.int64]:
        """The ``(M, 2)`` ``int64`` id pairs (reading id, cards id) of many
        moves under the wild ranks (vectorised over the rows).

        >>> space = action_space("laizi")
        >>> space.ids(legal_moves("57", rules="laizi", wild="7"), wild="7").tolist()[:3]
        [[1, 1820], [2, 1365], [3, 0]]
        """
        w = parse_wild(wild, self._rules)
        if isinstance(moves, (MoveList, MoveBatch)):
            rows = moves.rows
            # (a wild list's 32-byte rows start with the represented row)
            return self._pairs(rows[:, :_ROW], moves.counts, w)
        rep_rows = move_rows(moves)
        counts = np.zeros((len(moves), N_RANKS), dtype=np.uint8)
        for i, m in enumerate(moves):
            counts[i] = m.counts
            rep_rows[i, :N_RANKS] = m.represents
        return self._pairs(rep_rows, counts, w)

    def move_to_id(self, move: Move, *, wild: WildLike = None) -> WildId:  # type: ignore[override]
        """The id pair of one move under the wild ranks; ``ValueError`` if it is no move."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, not {type(move).__name__}")
        reading, cards = self.ids([move], wild=wild)[0].tolist()
        return reading, cards

    # Ids to moves -----------------------------------------------------------
    def _check_pairs(self, pairs: object) -> npt.NDArray[np.int64]:
        """``pairs`` as an (M, 2) int64 array of ids in range."""
        if isinstance(pairs, np.ndarray):
            if pairs.dtype == np.bool_ or pairs.dtype.kind not in "iu":
                raise TypeError(f"id pairs must have an integer dtype, not {pairs.dtype}")
            if pairs.ndim != 2 or pairs.shape[1] != 2:
                raise ValueError(f"id pairs must have shape (M, 2), not {pairs.shape}")
            out = pairs.astype(np.int64)
            for col, size, what in ((0, self.reading_size, "reading id"),
                                    (1, self.cards_size, "cards id")):
                off = (out[:, col] < 0) | (pairs[:, col] >= size)
                if off.any():
                    i = int(np.argmax(off))
                    raise ValueError(f"{what} {pairs[i, col]} (pair {i}) is out of range 0..{size - 1}")
            return out
        if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Sequence):
            raise TypeError(f"id pairs must be a sequence of (reading id, cards id), "
                            f"not {type(pairs).__name__}")
        out = np.zeros((len(pairs), 2), dtype=np.int64)
        for i, p in enumerate(pairs):
            if isinstance(p, (str, bytes)) or not isinstance(p, (Sequence, np.ndarray)) or len(p) != 2:
                raise TypeError(f"id pair {i} must be a pair (reading id, cards id), not {p!r}")
            out[i, 0] = check_index(p[0], self.reading_size, "reading id")
            out[i, 1] = check_index(p[1], self.cards_size, "cards id")
        return out

    def moves(self, ids: WildIdsLike, *, wild: WildLike = None) -> list[Move]:  # type: ignore[override]
        """The moves of many id pairs under the wild ranks; ``ValueError``
        for a pair that names no move under them."""
        w = parse_wild(wild, self._rules)
        pairs = self._check_pairs(ids)
        rep_rows = self._rows[pairs[:, 0]]
        rep = rep_rows[:, :N_RANKS].astype(np.int64)
        stand_ins = _unrank_substitutions(pairs[:, 1] // self._splits, self._most)
        played = stand_ins.sum(axis=1) + rep[:, w].sum(axis=1)
        phys = rep.copy()
        phys[:, :_STANDS_FOR] -= stand_ins
        if self._n_wild == 1:
            phys[:, w[0]] = played
            fits = played <= _MOST
        else:
            low = pairs[:, 1] % self._splits
            phys[:, w[0]] = low
            phys[:, w[1]] = played - low
            fits = (low <= played) & (played - low <= _MOST)
        on_wild = np.asarray(stand_ins[:, w].any(axis=1), dtype=np.bool_)
        too_many = np.asarray((stand_ins > rep[:, :_STANDS_FOR]).any(axis=1), dtype=np.bool_)
        bad = on_wild | too_many | ~fits
        if bad.any():
            i = int(np.argmax(bad))
            why = ("it puts wild cards in for a wild rank" if on_wild[i] else
                   "it puts in more wild cards than the reading has cards of a rank" if too_many[i]
                   else "its wild cards do not fit the wild ranks' cards in the deck")
            raise ValueError(f"id pair {i} ({pairs[i, 0]}, {pairs[i, 1]}) names no move under "
                             f"{_wild_text(w)}: {why} (reading {_describe_row(rep_rows[i])})")
        kinds = rep_rows[:, N_RANKS].tolist()
        rep_bytes = rep_rows[:, :N_RANKS].tobytes()
        phys_bytes = phys.astype(np.uint8).tobytes()
        return [Move._make_wild(k, phys_bytes[N_RANKS * i:N_RANKS * (i + 1)],
                                rep_bytes[N_RANKS * i:N_RANKS * (i + 1)], w)
                for i, k in enumerate(kinds)]

    def id_to_move(self, pair: WildId | Sequence[int], *, wild: WildLike = None) -> Move:  # type: ignore[override]
        """The move of one id pair (reading id, cards id) under the wild ranks."""
        given: object = pair
        if isinstance(given, (int, np.integer)):
            raise TypeError("a wild action id is a pair (reading id, cards id), not one int")
        return self.moves([pair], wild=wild)[0]

    # Masks ------------------------------------------------------------------
    def mask(self, hand: CardsLike, last: Move | None = None, *, wild: WildLike = None,
             out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """Boolean ``(reading_size,)`` mask, True at the reading ids of
        ``legal_moves(hand, last, wild=wild)``.  ``out``: an optional
        C-contiguous ``bool`` array of that shape to fill (cleared first)."""
        ms = legal_moves(hand, last, rules=self._rules, wild=wild)
        rep_rows = np.ascontiguousarray(ms.rows[:, :_ROW])
        try:
            return self._lookup.mask(rep_rows, out)
        except KeyError as e:  # a hand of more cards than any player holds
            self._reject(rep_rows, e.args[0])

    def masks(
        self,
        hands: CountsBatchLike,
        lasts: Sequence[Move | None] | npt.NDArray[np.uint8] | None = None,
        *,
        wild: WildLike = None,
        threads: int = 1,
        out: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Boolean ``(N, reading_size)`` reading masks of many hands of one
        deal's wild ranks (one ``legal_moves_batch`` call)."""
        counts = hands if isinstance(hands, np.ndarray) else to_counts_batch(hands, rules=self._rules)
        batch = legal_moves_batch(counts, lasts, rules=self._rules, wild=wild, threads=threads)
        rep_rows = np.ascontiguousarray(batch.rows[:, :_ROW])
        try:
            return self._lookup.masks(rep_rows, batch.offsets, out)
        except KeyError as e:
            self._reject(rep_rows, e.args[0])


@functools.lru_cache(maxsize=None)
def wild_ids(rules: Rules) -> WildIds:
    """The compiled ranking of the flat ids of the wild moves of ``rules``
    (:attr:`WildActionSpace.flat_size`), for the engine (cached)."""
    space = action_space(rules)
    if not isinstance(space, WildActionSpace):
        raise ValueError(f"rules {rules.name!r} have no wild cards")
    first, n = _substitution_ranks(space._most)
    return WildIds(space._lookup, first, n, space._splits)


@functools.lru_cache(maxsize=None)
def _space(rules: Rules) -> ActionSpace:
    return WildActionSpace(rules) if rules.wild_ranks else ActionSpace(rules)


@overload
def action_space(rules: Literal["laizi", "tiandi"]) -> WildActionSpace: ...
@overload
def action_space(rules: RulesLike = "standard") -> ActionSpace: ...
def action_space(rules: RulesLike = "standard") -> ActionSpace:
    """The (cached) :class:`ActionSpace` of a preset name or a ``Rules``; a
    :class:`WildActionSpace` for rules with wild cards.

    >>> action_space("standard") is action_space("standard")
    True
    """
    return _space(resolve_rules(rules))
