"""The solver's oracle: a brute-force minimax in pure Python over
:func:`ddz_fast.reference.legal_moves`, written for obviousness, not speed.

Use it on small positions only (a few cards a hand).  It takes the same
position as :func:`ddz_fast.solve` (already checked counts) and answers the
same question: does the side of the seat to move win with best play?
:func:`wild_wins` and :func:`wild_winning_moves` do the same with wild cards,
over :func:`ddz_fast.reference.wild_moves` (moves as (kind, represents,
counts) tuples; the physical counts leave the hand).
"""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

from ._core.move import Move
from .cards import CardsLike, to_counts
from .kinds import Kind
from .reference import WildMove, legal_moves, wild_moves
from .rules import RulesLike, resolve_rules

__all__ = ["wins", "winning_moves", "wild_wins", "wild_winning_moves", "PUBLISHED_PUZZLES", "published_text"]

Hands = Tuple[Tuple[int, ...], ...]


class _Game:
    """The fixed facts of one search: seats' sides, rules and banned kinds."""

    def __init__(self, sides: Tuple[int, ...], rules: RulesLike, ban: FrozenSet[Kind]) -> None:
        self.sides = sides
        self.rules = resolve_rules(rules)
        self.ban = ban
        # (a move: a Move, or with wild cards a (kind, represents, counts) tuple)
        self.memo: Dict[Tuple[Hands, int, Any, int], bool] = {}
        self.move_lists: Dict[Tuple[Tuple[int, ...], Any], List[Any]] = {}

    def generate(self, hand: Tuple[int, ...], last: Any) -> List[Any]:
        """Every legal move of `hand` (leads when last is None)."""
        return legal_moves(hand, last, rules=self.rules)

    @staticmethod
    def kind_cards(move: Any) -> Tuple[Kind, Tuple[int, ...]]:
        """A move's kind and the cards that leave the hand."""
        return move.kind, move.counts

    def moves(self, hands: Hands, seat: int, last: Any) -> List[Any]:
        """The allowed moves of `seat` (remembered: the reference generator is slow)."""
        key = (hands[seat], last)
        if key not in self.move_lists:
            self.move_lists[key] = [m for m in self.generate(hands[seat], last)
                                    if self.kind_cards(m)[0] not in self.ban]
        return self.move_lists[key]

    def after(self, hands: Hands, seat: int, last: Any, last_by: int,
              move: Any) -> Tuple[Hands, int, Any, int]:
        """The position after `seat` plays `move`."""
        n = len(hands)
        nxt = (seat + 1) % n
        kind, cards = self.kind_cards(move)
        if kind == Kind.PASS:
            if nxt == last_by:          # everyone else passed: the table clears
                return hands, nxt, None, -1
            return hands, nxt, last, last_by
        played = tuple(h - c for h, c in zip(hands[seat], cards))
        hands = hands[:seat] + (played,) + hands[seat + 1:]
        return hands, nxt, move, seat

    def move_wins(self, hands: Hands, seat: int, last: Any, last_by: int, move: Any) -> bool:
        """Does the side of `seat` win by playing `move`?"""
        hands2, nxt, last2, by2 = self.after(hands, seat, last, last_by, move)
        if sum(hands2[seat]) == 0:
            return True
        child = self.wins(hands2, nxt, last2, by2)
        return child if self.sides[nxt] == self.sides[seat] else not child

    def wins(self, hands: Hands, seat: int, last: Any, last_by: int) -> bool:
        """Does the side of `seat` (to move) win with best play?"""
        key = (hands, seat, last, last_by)
        if key not in self.memo:
            self.memo[key] = any(self.move_wins(hands, seat, last, last_by, m)
                                 for m in self.moves(hands, seat, last))
        return self.memo[key]


def _setup(hands: Sequence[CardsLike], to_move: int, landlord: Optional[int], last: Optional[Move],
           last_by: Optional[int], rules: RulesLike, ban: Iterable[object]) -> Tuple[_Game, Hands, int]:
    r = resolve_rules(rules)
    hs = tuple(tuple(int(c) for c in to_counts(h, rules=r)) for h in hands)
    n = len(hs)
    sides = (0, 1) if landlord is None else tuple(0 if s == landlord else 1 for s in range(n))
    if last is not None and last.kind == Kind.PASS:
        last = None
    by = -1 if last is None else ((to_move - 1) % n if last_by is None else last_by)
    g = _Game(sides, r, frozenset(Kind.coerce(k) for k in ban))  # type: ignore[arg-type]
    return g, hs, by


def wins(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
         last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
         ban: Iterable[object] = (), wild: Optional[Sequence[int]] = None) -> bool:
    """True when the side of `to_move` wins with best play (arguments as
    for :func:`ddz_fast.solve`; with ``wild`` a tuple of wild rank indices,
    :func:`wild_wins`)."""
    if wild is not None:
        return wild_wins(hands, to_move=to_move, landlord=landlord, last=last, last_by=last_by, rules=rules,
                         wild=wild, ban=ban)
    g, hs, by = _setup(hands, to_move, landlord, last, last_by, rules, ban)
    return g.wins(hs, to_move, None if by < 0 else last, by)


def winning_moves(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
                  last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
                  ban: Iterable[object] = ()) -> List[Move]:
    """Every move of `to_move` that wins for its side, in move-list order."""
    g, hs, by = _setup(hands, to_move, landlord, last, last_by, rules, ban)
    lst = None if by < 0 else last
    return [m for m in g.moves(hs, to_move, lst) if g.move_wins(hs, to_move, lst, by, m)]


class _WildGame(_Game):
    """A search with wild cards: moves are reference.wild_moves' tuples."""

    def __init__(self, sides: Tuple[int, ...], rules: RulesLike, ban: FrozenSet[Kind],
                 wild: Tuple[int, ...]) -> None:
        super().__init__(sides, rules, ban)
        self.wild = wild

    def generate(self, hand: Tuple[int, ...], last: Any) -> List[Any]:
        return wild_moves(hand, last, rules=self.rules, wild=self.wild)

    @staticmethod
    def kind_cards(move: Any) -> Tuple[Kind, Tuple[int, ...]]:
        return Kind(move[0]), tuple(move[2])


def _wild_setup(hands: Sequence[CardsLike], to_move: int, landlord: Optional[int],
                last: Union[Move, WildMove, None], last_by: Optional[int], rules: RulesLike,
                wild: Sequence[int], ban: Iterable[object]) -> Tuple[_WildGame, Hands, Optional[WildMove], int]:
    r = resolve_rules(rules)
    hs = tuple(tuple(int(c) for c in to_counts(h, rules=r)) for h in hands)
    n = len(hs)
    sides = (0, 1) if landlord is None else tuple(0 if s == landlord else 1 for s in range(n))
    lst: Optional[WildMove] = None
    if isinstance(last, Move):
        lst = (last.kind, tuple(last.represents), tuple(last.counts))
    elif last is not None:
        lst = (Kind(last[0]), tuple(last[1]), tuple(last[2]))
    if lst is not None and lst[0] == Kind.PASS:
        lst = None
    by = -1 if lst is None else ((to_move - 1) % n if last_by is None else last_by)
    g = _WildGame(sides, r, frozenset(Kind.coerce(k) for k in ban),  # type: ignore[arg-type]
                  tuple(sorted(int(x) for x in wild)))
    return g, hs, lst, by


def wild_wins(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
              last: Union[Move, WildMove, None] = None, last_by: Optional[int] = None,
              rules: RulesLike = "laizi", wild: Sequence[int], ban: Iterable[object] = ()) -> bool:
    """:func:`wins` with wild cards: ``wild`` the tuple of wild rank indices;
    ``last`` a wild Move or a (kind, represents, counts) tuple."""
    g, hs, lst, by = _wild_setup(hands, to_move, landlord, last, last_by, rules, wild, ban)
    return g.wins(hs, to_move, lst, by)


def wild_winning_moves(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
                       last: Union[Move, WildMove, None] = None, last_by: Optional[int] = None,
                       rules: RulesLike = "laizi", wild: Sequence[int],
                       ban: Iterable[object] = ()) -> List[WildMove]:
    """Every move of `to_move` that wins for its side, as (kind, represents,
    counts) tuples in move-list order (arguments as for :func:`wild_wins`)."""
    g, hs, lst, by = _wild_setup(hands, to_move, landlord, last, last_by, rules, wild, ban)
    return [m for m in g.moves(hs, to_move, lst) if g.move_wins(hs, to_move, lst, by, m)]


#: Known answers: the comparison table of the README of
#: github.com/WZ403809264/doudizhu_solver (README.md, "Compared to other
#: doudizhu_solver"): (first hand, which moves first; second hand; does the
#: first hand win).  Written there with "0" for a ten and "Y"/"Z" for the
#: low/high joker; here in our card text.
PUBLISHED_PUZZLES: Tuple[Tuple[str, str, bool], ...] = (
    ("KK5543", "225543", True),
    ("RA54333", "B222KQ", True),
    ("2KKTT77554", "AA8", False),
    ("RKKQJT9876633", "AAKQJT987", True),
    ("2AKT96554", "BKJT8854", True),
    ("RBAAKKQTT99", "2222JJTT", True),
    ("B2AK998553", "RQQJJT953", True),
    ("RAQQJJT999844", "B22AAT886633", True),
)


def published_text(ours: str) -> str:
    """A hand of PUBLISHED_PUZZLES in the source's notation."""
    return ours.translate(str.maketrans("TBR", "0YZ"))
