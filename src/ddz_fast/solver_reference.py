"""The solver's oracle: a brute-force minimax in pure Python over
:func:`ddz_fast.reference.legal_moves`, written for obviousness, not speed.

Use it on small positions only (a few cards a hand).  It takes the same
position as :func:`ddz_fast.solve` (already checked counts) and answers the
same question: does the side of the seat to move win with best play?
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from ._move import Move
from .cards import CardsLike, to_counts
from .kinds import Kind
from .reference import legal_moves
from .rules import RulesLike, resolve_rules

__all__ = ["wins", "winning_moves", "PUBLISHED_PUZZLES", "published_text"]

Hands = Tuple[Tuple[int, ...], ...]


class _Game:
    """The fixed facts of one search: seats' sides, rules and banned kinds."""

    def __init__(self, sides: Tuple[int, ...], rules: RulesLike, ban: FrozenSet[Kind]) -> None:
        self.sides = sides
        self.rules = resolve_rules(rules)
        self.ban = ban
        self.memo: Dict[Tuple[Hands, int, Optional[Move], int], bool] = {}
        self.move_lists: Dict[Tuple[Tuple[int, ...], Optional[Move]], List[Move]] = {}

    def moves(self, hands: Hands, seat: int, last: Optional[Move]) -> List[Move]:
        """The allowed moves of `seat` (remembered: the reference generator is slow)."""
        key = (hands[seat], last)
        if key not in self.move_lists:
            self.move_lists[key] = [m for m in legal_moves(hands[seat], last, rules=self.rules)
                                    if m.kind not in self.ban]
        return self.move_lists[key]

    def after(self, hands: Hands, seat: int, last: Optional[Move], last_by: int,
              move: Move) -> Tuple[Hands, int, Optional[Move], int]:
        """The position after `seat` plays `move`."""
        n = len(hands)
        nxt = (seat + 1) % n
        if move.kind == Kind.PASS:
            if nxt == last_by:          # everyone else passed: the table clears
                return hands, nxt, None, -1
            return hands, nxt, last, last_by
        played = tuple(h - c for h, c in zip(hands[seat], move.counts))
        hands = hands[:seat] + (played,) + hands[seat + 1:]
        return hands, nxt, move, seat

    def move_wins(self, hands: Hands, seat: int, last: Optional[Move], last_by: int, move: Move) -> bool:
        """Does the side of `seat` win by playing `move`?"""
        hands2, nxt, last2, by2 = self.after(hands, seat, last, last_by, move)
        if sum(hands2[seat]) == 0:
            return True
        child = self.wins(hands2, nxt, last2, by2)
        return child if self.sides[nxt] == self.sides[seat] else not child

    def wins(self, hands: Hands, seat: int, last: Optional[Move], last_by: int) -> bool:
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
         ban: Iterable[object] = ()) -> bool:
    """True when the side of `to_move` wins with best play (arguments as
    for :func:`ddz_fast.solve`)."""
    g, hs, by = _setup(hands, to_move, landlord, last, last_by, rules, ban)
    return g.wins(hs, to_move, None if by < 0 else last, by)


def winning_moves(hands: Sequence[CardsLike], *, to_move: int = 0, landlord: Optional[int] = None,
                  last: Optional[Move] = None, last_by: Optional[int] = None, rules: RulesLike = "standard",
                  ban: Iterable[object] = ()) -> List[Move]:
    """Every move of `to_move` that wins for its side, in move-list order."""
    g, hs, by = _setup(hands, to_move, landlord, last, last_by, rules, ban)
    lst = None if by < 0 else last
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
