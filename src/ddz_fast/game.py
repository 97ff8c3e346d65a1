"""The game: deal, auction, play, result (docs/rules.md "One deal", "Scoring" and
the 4-player variant), plus multi-deal sessions.

Quick start::

    from ddz_fast import Game
    g = Game("standard", seed=7)          # shuffled and dealt, auction begins
    while not g.is_over:
        actions = g.legal_actions()       # auction actions, or a MoveList
        g.step(actions[0])                # any element of that list
    print(g.result.scores)

Seats and order
---------------
Seats are ``0 .. players-1``.  Play and the auction go "anticlockwise", which
here means seat order ``0 -> 1 -> 2 -> 0`` (``... -> 3 -> 0`` with four).

The deal
--------
``Game(rules, seed)`` shuffles with the project's SplitMix64 generator (see
:mod:`ddz_fast._util.rng`; the same seed gives the same deal on every
platform): Fisher-Yates over the rank-sorted deck, seat s gets the s-th block
of 17 (25 with four players) cards, the last 3 (8) are the face-down kitty;
then the first bidder is drawn uniformly.  Hands are ``uint8`` count vectors
of shape (15,).

Actions
-------
In the auction and doubling phases :meth:`Game.legal_actions` returns a
tuple of small frozen dataclasses (all subclasses of :class:`AuctionAction`),
always in this order:

* auction ``"bid"``: ``Bid(0)`` (pass, also called ``BID_PASS``), then
  ``Bid(v)`` for every ``v`` above the current bid up to 3;
* auction ``"rob"``: ``(DECLINE, CALL)`` while nobody has called, then
  ``(DECLINE, ROB)`` for each player allowed to rob;
* doubling (``"rob"`` auction only): ``(NO_DOUBLE, DOUBLE)``, i.e.
  ``Double(False), Double(True)``.

In the play phase it returns the :class:`~ddz_fast.MoveList` of
``ddz_fast.legal_moves(hand, last)`` (its documented order; PASS first when
responding, no PASS when leading) and :meth:`Game.step` takes a
:class:`~ddz_fast.Move`.  When the game is over it returns ``()``.

Design decisions where the rules leave room
--------------------------------------------
* **Bid auction.** A player who passed may still bid later (only "higher"
  is required).  The auction ends at a bid of 3, or after a bid when all the
  others pass in a row (2 passes with 3 players, 3 with 4); when all players
  pass before any bid, the cards are redealt.
* **Rob auction.** From the first bidder on, each player in turn calls or
  declines.  Once someone calls, each player after the caller in seat order
  who has not yet declined (i.e. up to, not including, the first bidder) has
  exactly one chance to rob or decline; every rob doubles the base (base =
  2**robs) and the last to call or rob is landlord.  The caller gets no
  chance to rob back.  Players who declined the call are skipped (no action
  is asked of them).  If everyone declines, the cards are redealt.
* **Redeal.** A new shuffle continues the same SplitMix64 stream (so it is
  fixed by the seed), followed by a new first-bidder draw; ``deal_number``
  counts redeals (0 for the first deal), ``history`` then starts afresh and
  :meth:`Game.undo` can step back across the redeal.  There is no limit on
  redeals (the rules have none): a policy that always passes (such as
  ``legal_actions()[0]``, which is the pass or decline) never ends the game,
  each of its steps a legal action.
* **Doubling** (``"rob"`` only): after the landlord has taken the kitty, the
  landlord and then each farmer in seat order answers ``Double(True/False)``
  once; each ``True`` doubles the stake of the whole deal (the stake is one
  number: every farmer's payment doubles).
* **The kitty** is shown to all (``Observation.kitty``) as soon as the
  landlord is known, and added to the landlord's hand, who leads.
* **Scoring.** value = base x 2**(bombs + rockets played) x 2 (spring or
  anti-spring) x 2**doubles.  Spring: the landlord wins and no farmer played
  a card (passes do not count); anti-spring: the farmers win and the landlord
  played only one move (the opening lead).  A winning landlord gets
  ``(players-1) * value`` and each farmer pays ``value``; a losing landlord
  pays each farmer ``value``.  Scores always sum to zero.
* **plies** counts play-phase turns, passes included (auction actions not).
* **History** entries are plain ``(seat, action)`` tuples of the current
  deal, auction and play, in order.
* **from_position** knows nothing of earlier play: pass ``played=`` (moves
  per seat so far) for exact spring scoring; by default a seat holding fewer
  cards than it was dealt counts as having played once.

For search code
---------------
The game is one compiled engine (:mod:`ddz_fast._engine.engine`): the state of a
deal is one C value and its rules are C functions, which :class:`Game`, the
compiled playouts (:func:`play_random_games`), :meth:`Game.rollout`,
:meth:`Game.sample_worlds` and the batched tables all run on.  ``Game`` is a
final class with read-only attributes.  Legal actions are computed once per
state and cached; ``step`` checks the action (a move: its cards are in the
hand, it is a move of its kind and beats the table) and raises
:class:`~ddz_fast.IllegalActionError` (a ValueError) naming it, leaving the
state untouched; ``undo`` takes back
any action, across a redeal too; ``clone`` copies the state value.  Games
pickle (as their origin and actions, replayed through the checks).

Game i of ``play_random_games(seed=s)`` is reproduced exactly by stepping
``Game(rules, seed=game_seeds[i])`` with the random policy described in
:mod:`ddz_fast._util.rng` (the tests check every field).
"""
from __future__ import annotations

import secrets
from typing import Callable, List, Optional, Sequence, Tuple, Union, cast

import numpy as np

from ._util.checks import check_int, check_seed
from ._engine.bots import bot_auction_index, bot_move_index
from ._engine.engine import MAX_BASE, max_bombs, settle_scores
from ._engine.game import Game
from ._engine.playout import PlayoutResults, play_random_games
from ._engine.worlds import sample_observed_worlds
from ._core.entry import MoveList
from ._core.move import Move
from ._util.rng import SplitMix64, game_seed, policy_seed
from .game_values import (
    BID_PASS,
    CALL,
    DECLINE,
    DOUBLE,
    NO_DOUBLE,
    ROB,
    AuctionAction,
    Bid,
    Call,
    Decline,
    Double,
    GameResult,
    Observation,
    Phase,
    Rob,
    Rollouts,
)
from .rules import PRESETS, RulesLike, check_rules, resolve_rules

__all__ = [
    "Game",
    "Session",
    "Phase",
    "GameResult",
    "Observation",
    "Rollouts",
    "AuctionAction",
    "Bid",
    "Call",
    "Rob",
    "Decline",
    "Double",
    "BID_PASS",
    "CALL",
    "ROB",
    "DECLINE",
    "DOUBLE",
    "NO_DOUBLE",
    "settle",
    "simple_bot",
    "SplitMix64",
    "game_seed",
    "policy_seed",
    "play_random_games",
    "PlayoutResults",
    "sample_observed_worlds",
]


def settle(players: int, landlord: int, landlord_won: bool, base: int, bombs: int,
           spring: int, doubles: int = 0) -> Tuple[int, Tuple[int, ...]]:
    """``(value, scores)`` of a finished deal (see "Scoring" above), computed
    by the engine's own scoring.  Every argument is checked against what a
    deal can have: ``players`` 3 or 4, ``base`` 1..2**20, ``bombs`` up to the
    most the deck holds, ``doubles`` up to ``players``, ``spring`` 0..2.

    >>> settle(3, 0, True, base=2, bombs=1, spring=0)   # the rules' known answer
    (4, (8, -4, -4))
    """
    # Every argument becomes a Python int (or bool) here, once: the engine
    # never computes with a caller's NumPy scalar.
    n = check_int(players, "settle: players", 3, 4)
    rules = PRESETS["standard" if n == 3 else "four"]
    if not isinstance(landlord_won, (bool, np.bool_)):
        raise TypeError(f"settle: landlord_won must be a bool, not {type(landlord_won).__name__}")
    value, scores = settle_scores(
        n,
        check_int(landlord, "settle: landlord", 0, n - 1),
        bool(landlord_won),
        check_int(base, "settle: base", 1, MAX_BASE),
        check_int(bombs, "settle: bombs", 0, max_bombs(rules)),
        check_int(spring, "settle: spring", 0, 2),
        check_int(doubles, "settle: doubles", 0, n),
    )
    return int(value), tuple(int(x) for x in scores)


# ---------------------------------------------------------------------------
# A simple bot
# ---------------------------------------------------------------------------

def simple_bot(obs: Observation, rules: RulesLike = "standard") -> Union[Move, AuctionAction]:
    """A weak, deterministic baseline player (used by ``ddz-fast play``, and
    by ``Game.rollout(policy="bot")``: the same compiled policy).

    Auction: bids up to ``min(3, strength // 2)`` (strength: one point per 2
    and low joker, two per high joker and per bomb), calls or robs from
    strength 3, doubles from strength 5.  Play: passes when the partner
    farmer holds the table; otherwise plays the legal non-bomb move of
    lowest rank (more cards first); bombs and the rocket only when leading
    with nothing else or when an opponent is down to 6 cards or fewer.
    """
    acts = obs.legal_actions
    if not acts:
        raise ValueError("it is not this player's turn")
    rules = resolve_rules(rules)
    if isinstance(acts, MoveList):
        i = bot_move_index(obs.hand, obs.last_move, rules, acts.rows, obs.player, obs.landlord,
                           obs.last_player, obs.hand_sizes)
        return acts[i]
    choices = cast(Tuple[AuctionAction, ...], acts)
    return choices[bot_auction_index(obs.hand, choices)]


# ---------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------

Agent = Callable[[Observation], object]


class Session:
    """Several deals with running totals.

    Deal k (0-based) of a session with ``seed`` is ``Game(rules,
    seed=game_seed(seed, k))`` -- the same deal as game k of
    ``play_random_games(..., seed=seed)``.
    """

    def __init__(self, rules: RulesLike = "standard", seed: Optional[int] = None) -> None:
        # check_rules: a Rules tampered with object.__setattr__ (players=2**31)
        # must not size the totals.
        self.rules = check_rules(resolve_rules(rules))
        self.seed = secrets.randbits(64) if seed is None else check_seed(seed)
        self.totals: List[int] = [0] * self.rules.players
        self.results: List[GameResult] = []

    def _ready(self) -> None:
        # Session.__new__(Session) without __init__ has no totals to add to.
        if not isinstance(self.__dict__.get("results"), list):
            raise TypeError("this Session was never initialised: make one with Session(rules, seed)")

    @property
    def deals(self) -> int:
        """Deals recorded so far."""
        self._ready()
        return len(self.results)

    def new_game(self) -> Game:
        """The next deal (not yet recorded)."""
        self._ready()
        return Game(self.rules, seed=game_seed(self.seed, len(self.results)))

    def record(self, game: Game) -> GameResult:
        """Add a finished game's scores to the totals.  The game must be the
        session's next deal (:meth:`new_game`'s, or a copy of it: ``Game(rules,
        seed=game_seed(seed, deals))``), under its rules, and over.  So a
        game is recorded once (after it the next deal is another), and a
        position or another session's deal is refused.  Everything is
        checked before anything changes: a refused game changes nothing."""
        self._ready()
        if not isinstance(game, Game):
            raise TypeError(f"record takes a Game, not {type(game).__name__}")
        if game.rules != self.rules or game.rules.players != len(self.totals):
            raise ValueError(f"the game's rules ({game.rules.name!r}) are not the session's "
                             f"({self.rules.name!r})")
        want = game_seed(self.seed, len(self.results))
        if game.seed != want:
            what = "a position" if game.seed is None else f"the deal of seed {game.seed}"
            raise ValueError(f"the game is {what}, not the session's next deal (deal {len(self.results)}, "
                             f"seed {want}): make it with new_game(); a deal is recorded once")
        res = game.result
        if res is None:
            raise ValueError("the game is not over")
        totals = [t + d for t, d in zip(self.totals, res.scores)]
        self.results.append(res)
        self.totals[:] = totals
        return res

    def play(self, agents: Sequence[Agent], deals: int = 1,
             on_step: Optional[Callable[[Game, int, object], None]] = None) -> List[GameResult]:
        """Play ``deals`` deals; ``agents[s](observation)`` returns seat s's
        action (one of ``observation.legal_actions``).  ``on_step(game, seat,
        action)`` is called after every action.  Returns the new results."""
        self._ready()
        if len(agents) != self.rules.players:
            raise ValueError(f"need {self.rules.players} agents, got {len(agents)}")
        out = []
        for _ in range(check_int(deals, "deals", 0, 1 << 40)):
            g = self.new_game()
            while not g.is_over:
                s = g.to_move
                assert s is not None          # the game is not over
                a = agents[s](g.observation(s))
                g.step(a)
                if on_step is not None:
                    on_step(g, s, a)
            out.append(self.record(g))
        return out

    def __repr__(self) -> str:
        if not isinstance(self.__dict__.get("results"), list):
            return "Session(<uninitialised>)"
        return f"Session(rules={self.rules.name!r}, deals={self.deals}, totals={self.totals})"
