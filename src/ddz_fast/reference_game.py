"""The reference game: the oracle the compiled :class:`ddz_fast.Game` is checked
against, as :mod:`ddz_fast.reference` is for the move generator.

Written for obviousness, not speed.  The state is plain Python: a list of
per-seat hands (lists of 15 counts), the kitty, the auction's fields, the
table, the stake and the history.  Each rule of the game is one short block
of :meth:`ReferenceGame.step`, in the words of :mod:`ddz_fast.game`'s module
docstring (bid and rob auctions, redeal, doubling, kitty, table clearing,
spring, scoring).  Play-phase moves come from :func:`ddz_fast.reference.legal_moves`,
never from the compiled kernels; the deal is a pure-Python SplitMix64 and
Fisher-Yates shuffle as documented in :mod:`ddz_fast._util.rng`.  Undo keeps
a stack of full copies of the state.

The public API is :class:`~ddz_fast.Game`'s (without ``sample_worlds``,
``rollout`` and ``snapshot``), and it reuses the game's action classes,
:class:`~ddz_fast.game.Phase`, :class:`~ddz_fast.game.GameResult` and
:class:`~ddz_fast.game.Observation`.
"""
from __future__ import annotations

import copy
import secrets
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._core.move import PASS, Move
from .cards import CardsLike, parse_wild, to_counts
from .game import (
    BID_PASS, CALL, DECLINE, DOUBLE, NO_DOUBLE, ROB, Bid, GameResult,
    Observation, Phase,
)
from .kinds import Kind
from .reference import legal_moves, wild_moves
from .rules import Rules, RulesLike, resolve_rules

__all__ = ["ReferenceGame", "SplitMix64", "deal"]

_MASK = (1 << 64) - 1


# ---------------------------------------------------------------------------
# Random numbers and the deal (the algorithm of ddz_fast._util.rng's docstring)
# ---------------------------------------------------------------------------

class SplitMix64:
    """SplitMix64 in plain Python: ``next()`` and Lemire's unbiased ``below(n)``."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        threshold = (1 << 64) % n
        while True:
            product = self.next() * n
            if product & _MASK >= threshold:
                return product >> 64


def deal(rng: SplitMix64, rules: Rules) -> Tuple[List[List[int]], List[int]]:
    """Shuffle the rank-sorted deck with Fisher-Yates and deal it: seat s gets
    the s-th block of ``hand_size`` cards, the rest is the kitty."""
    deck = []
    for rank in range(13):
        deck += [rank] * (4 * rules.decks)
    deck += [13] * rules.decks + [14] * rules.decks
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = [[0] * 15 for _ in range(rules.players)]
    for i in range(rules.players * rules.hand_size):
        hands[i // rules.hand_size][deck[i]] += 1
    kitty = [0] * 15
    for card in deck[rules.players * rules.hand_size:]:
        kitty[card] += 1
    return hands, kitty


# reference.legal_moves is slow (a tenth of a second for a 25-card hand of the
# four-player game) and a pure function of its arguments: remember its answers.
_MOVES: Dict[Any, Tuple[Move, ...]] = {}


def _play_moves(hand: Sequence[int], last: Optional[Move], rules: Rules) -> Tuple[Move, ...]:
    key = (tuple(hand), None if last is None else (last.kind, last.counts, last.rank, last.length),
           rules)
    moves = _MOVES.get(key)
    if moves is None:
        moves = tuple(legal_moves(list(hand), last, rules=rules))
        if len(_MOVES) >= 50_000:
            _MOVES.clear()
        _MOVES[key] = moves
    return moves


def _wild_play_moves(hand: Sequence[int], last: Optional[Move], rules: Rules,
                     wild: Tuple[int, ...]) -> Tuple[Move, ...]:
    """The legal moves under wild cards: the oracle's (kind, represents,
    counts) triples as Moves (range-checked only: the oracle decided them)."""
    key = (tuple(hand), None if last is None else (last.kind, last.counts, last.represents), rules, wild)
    moves = _MOVES.get(key)
    if moves is None:
        before = None if last is None else (last.kind, last.represents, last.counts)
        moves = tuple(Move._make_wild(int(k), bytes(c), bytes(rep), wild) if k != Kind.PASS else PASS
                      for k, rep, c in wild_moves(list(hand), before, rules=rules, wild=wild))
        if len(_MOVES) >= 50_000:
            _MOVES.clear()
        _MOVES[key] = moves
    return moves


def draw_wild(rng: SplitMix64, n: int) -> Tuple[int, ...]:
    """The deal's ``n`` wild ranks: each uniform among the ranks 3..2 not
    drawn yet (the x-th of them for x = below(13 - k)), from the deal stream
    after its shuffle and first-bidder draw."""
    drawn: List[int] = []
    for k in range(n):
        x = rng.below(13 - k)
        drawn.append([r for r in range(13) if r not in drawn][x])
    return tuple(sorted(drawn))


def _add(a: Sequence[int], b: Sequence[int]) -> List[int]:
    return [x + y for x, y in zip(a, b)]


def _sub(a: Sequence[int], b: Sequence[int]) -> List[int]:
    return [x - y for x, y in zip(a, b)]


def _int(x: object, what: str, low: int, high: int) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(x).__name__}")
    if not low <= x <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {x!r}")
    return int(x)


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

class ReferenceGame:
    """One deal of Dou Dizhu in plain Python, with :class:`ddz_fast.Game`'s API."""

    # The play phase's move generator: the pure-Python oracle.  (The game
    # invariant checker, tests/invariants.py, plays many games with a
    # subclass that takes the compiled kernels' moves instead; the
    # differential suite checks those against this oracle.)
    play_moves = staticmethod(_play_moves)

    # -- starting -----------------------------------------------------------
    def __init__(self, rules: RulesLike = "standard", seed: Optional[int] = None) -> None:
        self.rules = resolve_rules(rules)
        if seed is None:
            seed = secrets.randbits(64)
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        self.seed: Optional[int] = int(seed) & _MASK
        self._rng: Optional[int] = self.seed      # the deal stream's state
        self.deal_number = 0
        self._undo: List[Dict[str, Any]] = []
        self._new_deal()

    def _new_deal(self) -> None:
        """Shuffle and deal from the deal stream, draw the first bidder, and
        start the auction with every per-deal field reset."""
        n = self.rules.players
        assert self._rng is not None
        rng = SplitMix64(self._rng)
        self._hands, kitty = deal(rng, self.rules)
        self._kitty: Optional[List[int]] = kitty
        first = rng.below(n)
        self.first_bidder: Optional[int] = first
        self._rng = rng.state
        self.kitty_revealed = False
        self._phase = Phase.AUCTION
        self._to_move = first
        self._landlord: Optional[int] = None
        # The auction.
        self._level = 0                    # bid: highest bid; rob: 1 + robs once called
        self._leader: Optional[int] = None  # who would be landlord if it ended now
        self._auction_passes = 0           # bids passed in a row, or calls declined
        self._robbers: List[int] = []      # rob: who may still rob, in order
        self._doublers: List[int] = []     # doubling: who still answers, in order
        # The stake.
        self.base = 0
        self.bombs = 0
        self._x4 = 0                       # bomb_doubling "hard_x4": bombs that multiply by 4
        self.doubles = 0
        self.wild: Optional[Tuple[int, ...]] = None   # drawn when the landlord takes the kitty
        # The table.
        self._last: Optional[Move] = None
        self._last_player: Optional[int] = None
        self.passes = 0
        # What has happened.
        self._played = [0] * n
        self._played_cards = [[0] * 15 for _ in range(n)]
        self.plies = 0
        self._history: List[Tuple[int, object]] = []
        self._result: Optional[GameResult] = None

    @classmethod
    def from_position(
        cls,
        hands: Sequence[CardsLike],
        landlord: int,
        base: int = 1,
        to_move: Optional[int] = None,
        last: Optional[Move] = None,
        *,
        last_player: Optional[int] = None,
        rules: RulesLike = "standard",
        bombs: int = 0,
        doubles: int = 0,
        played: Optional[Sequence[int]] = None,
        kitty: Optional[CardsLike] = None,
        wild: Optional[Sequence[int]] = None,
    ) -> "ReferenceGame":
        """A play-phase position, with :meth:`ddz_fast.Game.from_position`'s
        arguments and defaults."""
        r = resolve_rules(rules)
        n = r.players
        wild_ranks = parse_wild(wild, r) or None
        if isinstance(hands, (str, np.ndarray)) or len(hands) != n:
            raise ValueError(f"from_position needs {n} hands (one per seat)")
        rows = [[int(c) for c in to_counts(h, rules=r)] for h in hands]
        for s in range(n):
            if sum(rows[s]) == 0:
                raise ValueError(f"seat {s} holds no cards: the deal would be over")
        landlord = _int(landlord, "landlord", 0, n - 1)
        to_move = landlord if to_move is None else _int(to_move, "to_move", 0, n - 1)
        base = _int(base, "base", 1, 2**20)
        bombs = _int(bombs, "bombs", 0, 13 * r.decks + 1)   # every rank's bombs and the rocket
        doubles = _int(doubles, "doubles", 0, n)
        if last is not None and not isinstance(last, Move):
            raise TypeError(f"last must be a Move or None, not {type(last).__name__}")
        if last is not None and last.is_pass:
            last = None
        if last is None:
            last_player = None
        elif last_player is None:
            last_player = (to_move - 1) % n
        else:
            last_player = _int(last_player, "last_player", 0, n - 1)
            if last_player == to_move:
                raise ValueError("last_player cannot be to_move")
        kitty_row = None
        if kitty is not None:
            kitty_row = [int(c) for c in to_counts(kitty, rules=r)]
            if sum(kitty_row) != r.kitty_size:
                raise ValueError(f"the kitty has {r.kitty_size} cards, not {sum(kitty_row)}")
        # Every card accounted for must fit in the deck: the hands, the move on
        # the table, and the kitty cards the landlord no longer holds (beyond
        # those on the table, if the landlord made the last move).
        total = [0] * 15
        for row in rows:
            total = _add(total, row)
        if last is not None:
            total = _add(total, last.counts)
        if kitty_row is not None:
            gone = _sub(kitty_row, rows[landlord])
            if last is not None and last_player == landlord:
                gone = _sub(gone, last.counts)
            total = _add(total, [max(0, c) for c in gone])
        to_counts(total, rules=r)            # ValueError beyond the deck
        if played is None:
            dealt = [r.hand_size + (r.kitty_size if s == landlord else 0) for s in range(n)]
            played = [0 if sum(rows[s]) >= dealt[s] else 1 for s in range(n)]
            if last_player is not None:
                played[last_player] = max(played[last_player], 1)
        else:
            if isinstance(played, (str, bytes)) or len(played) != n:
                raise ValueError(f"played needs {n} entries")
            played = [_int(x, "played[i]", 0, 10**6) for x in played]
        if wild_ranks is None:
            cls.play_moves(rows[to_move], last, r)   # checks `last` against the rules and the hand
        else:
            _wild_play_moves(rows[to_move], last, r, wild_ranks)

        g = cls.__new__(cls)
        g.rules = r
        g.seed = None
        g._rng = None
        g.deal_number = 0
        g._undo = []
        g._hands = rows
        g._kitty = kitty_row
        g.first_bidder = None
        g.kitty_revealed = kitty_row is not None
        g._phase = Phase.PLAY
        g._to_move = to_move
        g._landlord = landlord
        # No auction was seen: the landlord leads it; a bid auction's level is
        # the base when that is a bid.
        g._level = base if r.auction == "bid" and base <= 3 else 0
        g._leader = landlord
        g._auction_passes = 0
        g._robbers = []
        g._doublers = []
        g.base = base
        g.bombs = bombs
        g._x4 = 0
        g.doubles = doubles
        g.wild = wild_ranks
        g._last = last
        g._last_player = last_player
        g.passes = 0 if last_player is None else (to_move - last_player - 1) % n
        g._played = list(played)
        # The move on the table is the only card play this position shows.
        g._played_cards = [[0] * 15 for _ in range(n)]
        if last is not None and last_player is not None:
            g._played_cards[last_player] = list(last.counts)
        g.plies = 0
        g._history = []
        g._result = None
        return g

    # -- reading the state --------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def to_move(self) -> Optional[int]:
        return None if self.is_over else self._to_move

    @property
    def current_player(self) -> Optional[int]:
        return self.to_move

    @property
    def landlord(self) -> Optional[int]:
        return self._landlord

    @property
    def result(self) -> Optional[GameResult]:
        return self._result

    def returns(self) -> Tuple[int, ...]:
        if self._result is None:
            return (0,) * self.players
        return self._result.scores

    @property
    def last_move(self) -> Optional[Move]:
        return self._last

    @property
    def last_player(self) -> Optional[int]:
        return self._last_player

    @property
    def value(self) -> int:
        return int(self.base * 2 ** (self.bombs + self.doubles))

    @property
    def auction_level(self) -> int:
        return self._level

    @property
    def auction_leader(self) -> Optional[int]:
        return self._leader

    def _seat(self, seat: object) -> int:
        return _int(seat, "seat", 0, self.players - 1)

    def hand(self, seat: int) -> np.ndarray:
        return np.array(self._hands[self._seat(seat)], dtype=np.uint8)

    @property
    def hands(self) -> np.ndarray:
        return np.array(self._hands, dtype=np.uint8)

    @property
    def hand_sizes(self) -> Tuple[int, ...]:
        return tuple(sum(h) for h in self._hands)

    @property
    def played(self) -> Tuple[int, ...]:
        return tuple(self._played)

    @property
    def played_cards(self) -> np.ndarray:
        return np.array(self._played_cards, dtype=np.uint8)

    @property
    def kitty(self) -> Optional[np.ndarray]:
        return None if self._kitty is None else np.array(self._kitty, dtype=np.uint8)

    @property
    def history(self) -> List[Tuple[int, object]]:
        return list(self._history)

    def unseen(self, player: int) -> np.ndarray:
        """The cards ``player`` cannot see: the other hands, and the kitty
        while it lies face down."""
        player = self._seat(player)
        cards = [0] * 15
        for s in range(self.players):
            if s != player:
                cards = _add(cards, self._hands[s])
        if self._phase is Phase.AUCTION:
            assert self._kitty is not None
            cards = _add(cards, self._kitty)
        return np.array(cards, dtype=np.uint8)

    # -- actions ------------------------------------------------------------
    def legal_actions(self) -> Tuple[Any, ...]:
        if self._phase is Phase.OVER:
            return ()
        if self._phase is Phase.PLAY:
            if self.wild is not None:
                return _wild_play_moves(self._hands[self._to_move], self._last, self.rules, self.wild)
            return self.play_moves(self._hands[self._to_move], self._last, self.rules)
        if self._phase is Phase.DOUBLING:
            return (NO_DOUBLE, DOUBLE)
        if self.rules.auction == "bid":
            return (BID_PASS,) + tuple(Bid(v) for v in range(self._level + 1, 4))
        if self._leader is None:
            return (DECLINE, CALL)
        return (DECLINE, ROB)

    def _find_legal(self, action: Any) -> Any:
        """The legal action equal to ``action`` (of exactly its class), else
        ValueError."""
        for legal in self.legal_actions():
            if type(legal) is type(action) and legal == action:
                return legal
        if self._phase is Phase.OVER:
            raise ValueError(f"illegal action {action!r}: the game is over")
        raise ValueError(f"illegal action {action!r} for seat {self._to_move} "
                         f"in the {self._phase.name.lower()} phase")

    def step(self, action: Any) -> None:
        """Apply the action of the player to move (ValueError, state
        unchanged, when it is not legal now)."""
        action = self._find_legal(action)     # the legal list's own action
        saved = self._state()
        p = self._to_move
        n = self.players
        nxt = (p + 1) % n
        redealt = False
        if self._phase is Phase.PLAY:
            self._play(p, action)
        elif self._phase is Phase.DOUBLING:
            if action == DOUBLE:
                self.doubles += 1
            self._doublers.pop(0)
            if self._doublers:
                self._to_move = self._doublers[0]
            else:
                assert self._landlord is not None
                self._phase = Phase.PLAY
                self._to_move = self._landlord
        elif self.rules.auction == "bid":
            if action == BID_PASS:
                self._auction_passes += 1
                if self._leader is None and self._auction_passes == n:
                    redealt = True
                elif self._leader is not None and self._auction_passes == n - 1:
                    self._end_auction(self._leader, self._level)
                else:
                    self._to_move = nxt
            else:
                self._level = action.value
                self._leader = p
                self._auction_passes = 0
                if action.value == 3:
                    self._end_auction(p, 3)
                else:
                    self._to_move = nxt
        elif action == CALL:
            self._level = 1
            self._leader = p
            # Each player after the caller, up to the first bidder, may rob once.
            self._robbers = []
            q = nxt
            while q != self.first_bidder:
                self._robbers.append(q)
                q = (q + 1) % n
            if self._robbers:
                self._to_move = self._robbers[0]
            else:
                self._end_auction(p, 1)
        elif self._leader is None:            # declined to call
            self._auction_passes += 1
            if self._auction_passes == n:
                redealt = True
            else:
                self._to_move = nxt
        else:                                 # rob or decline to rob
            if action == ROB:
                self._level += 1
                self._leader = p
            self._robbers.pop(0)
            if self._robbers:
                self._to_move = self._robbers[0]
            else:
                self._end_auction(self._leader, 2 ** (self._level - 1))
        if redealt:
            # Everyone passed: a new shuffle from the same stream, a new
            # history; the pass that ended the deal is not recorded.
            self.deal_number += 1
            self._new_deal()
        else:
            self._history.append((p, action))
        self._undo.append(saved)

    def _end_auction(self, landlord: int, base: int) -> None:
        """The landlord takes the kitty (shown to all) and leads, after the
        doubling round of the rob auction."""
        assert self._kitty is not None
        self._landlord = landlord
        self.base = base
        self.kitty_revealed = True
        self._hands[landlord] = _add(self._hands[landlord], self._kitty)
        self._to_move = landlord
        if self.rules.wild_ranks:
            assert self._rng is not None
            self.wild = draw_wild(SplitMix64(self._rng), self.rules.wild_ranks)
        if self.rules.auction == "rob":
            self._phase = Phase.DOUBLING
            self._doublers = [(landlord + i) % self.players for i in range(self.players)]
        else:
            self._phase = Phase.PLAY

    def _play(self, p: int, move: Move) -> None:
        n = self.players
        self.plies += 1
        if move.is_pass:
            self.passes += 1
            if self.passes == n - 1:          # all the others passed: p's turn is next
                self._last = None             # and the table is cleared
                self._last_player = None
                self.passes = 0
        else:
            self._hands[p] = _sub(self._hands[p], move.counts)
            self._played[p] += 1
            self._played_cards[p] = _add(self._played_cards[p], move.counts)
            if move.kind in (Kind.BOMB, Kind.ROCKET):
                self.bombs += 1
                if self.rules.bomb_doubling == "hard_x4" and move.bomb_class != "soft":
                    self._x4 += 1
            self._last = move
            self._last_player = p
            self.passes = 0
            if sum(self._hands[p]) == 0:
                self._finish(p)
                return
        self._to_move = (p + 1) % n

    def _finish(self, winner: int) -> None:
        landlord = self._landlord
        assert landlord is not None
        n = self.players
        landlord_won = winner == landlord
        farmers = [s for s in range(n) if s != landlord]
        if landlord_won and all(self._played[s] == 0 for s in farmers):
            spring = 1
        elif not landlord_won and self._played[landlord] == 1:
            spring = 2
        else:
            spring = 0
        value = self.base * 2 ** (self.bombs + self._x4) * (2 if spring else 1) * 2 ** self.doubles
        if landlord_won:
            scores = tuple((n - 1) * value if s == landlord else -value for s in range(n))
        else:
            scores = tuple(-(n - 1) * value if s == landlord else value for s in range(n))
        self._phase = Phase.OVER
        self._result = GameResult(
            landlord=landlord, landlord_won=landlord_won, winner=winner, base=self.base,
            bombs=self.bombs, spring=spring, doubles=self.doubles, value=value, scores=scores,
            plies=self.plies, redeals=self.deal_number,
        )

    # -- undo, copies --------------------------------------------------------
    def _state(self) -> Dict[str, Any]:
        return copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_undo"})

    def undo(self) -> None:
        """Take back the last action (IndexError when there is none)."""
        if not self._undo:
            raise IndexError("nothing to undo")
        undo = self._undo
        self.__dict__ = undo.pop()
        self._undo = undo

    def clone(self) -> "ReferenceGame":
        other = ReferenceGame.__new__(ReferenceGame)
        other.__dict__ = copy.deepcopy(self.__dict__)
        return other

    def __copy__(self) -> "ReferenceGame":
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "ReferenceGame":
        return self.clone()

    # -- views ----------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        player = self._seat(player)
        return Observation(
            player=player,
            phase=self._phase,
            hand=self.hand(player),
            hand_sizes=self.hand_sizes,
            landlord=self._landlord,
            kitty=self.kitty if self.kitty_revealed else None,
            history=tuple(self.history),
            last_move=self._last,
            last_player=self._last_player,
            to_move=self.to_move,
            base=self.base,
            bombs=self.bombs,
            doubles=self.doubles,
            deal_number=self.deal_number,
            legal_actions=self.legal_actions() if player == self.to_move else (),
            wild=self.wild,
        )

    def __repr__(self) -> str:
        return (f"ReferenceGame(rules={self.rules.name!r}, phase={self._phase.name}, "
                f"to_move={self.to_move}, hands={self._hands})")

