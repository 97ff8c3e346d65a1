"""The compiled Game against the pure-Python ReferenceGame, as a Hypothesis
state machine (in the style of pyroaring's test against ``set``).

Each run builds one :class:`ddz_fast.Game` and one
:class:`ddz_fast.reference_game.ReferenceGame` the same way (a seeded deal,
or ``from_position`` of an end-game position cut from a seeded deal), then
applies the same actions to both: legal steps, illegal steps (which must
raise ValueError in both and change nothing), undo, clone / copy /
deepcopy (continuing on the copy while the original must stay as it was),
pickle round trips and restarts through ``from_position``.  After every
rule every observable of the two games must be equal.

Every preset runs with its own auction and with the other one.  The default
run is short; ``DDZ_STATEFUL_EXAMPLES`` (examples per rule set) and
``DDZ_STATEFUL_STEPS`` (steps per example) make it as long as wanted.
"""
import copy
import os
import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

import ddz_fast as d
from ddz_fast import PASS, Game, Move
from ddz_fast.game import (
    BID_PASS, CALL, DECLINE, DOUBLE, NO_DOUBLE, ROB, Bid, Observation, Phase,
)
from ddz_fast.reference_game import ReferenceGame, SplitMix64, deal

EXAMPLES = int(os.environ.get("DDZ_STATEFUL_EXAMPLES", "0"))
STEPS = int(os.environ.get("DDZ_STATEFUL_STEPS", "40"))

# Observables compared beside observe()'s: the table and auction
# accessors, the cards played per seat and what each seat cannot see.
NEW_OBSERVABLES = ("passes", "played_cards", "auction_level", "auction_leader", "unseen")


def _rule_sets():
    out = []
    for name, rules in d.PRESETS.items():
        other = "rob" if rules.auction == "bid" else "bid"
        out.append(pytest.param(rules, id=f"{name}-{rules.auction}"))
        out.append(pytest.param(rules.replace(auction=other), id=f"{name}-{other}"))
    return out


def _examples(rules):
    if EXAMPLES:
        return EXAMPLES
    # The reference move generator takes a tenth of a second on a 25-card
    # hand of the four-player game, and its wild-card oracle tens of
    # milliseconds a response: fewer of those runs by default (the nightly
    # jobs set DDZ_STATEFUL_EXAMPLES).
    return 8 if rules.players == 4 else (6 if rules.wild_ranks else 25)


# ---------------------------------------------------------------------------
# Observables as plain comparable data
# ---------------------------------------------------------------------------

def action_key(a):
    """An action as data: a Move by kind, cards, rank and length; an auction
    action by its exact class and value."""
    if isinstance(a, Move):
        return ("Move", int(a.kind), a.counts, a.represents, a.bomb_class, a.rank, a.length)
    return (type(a).__name__, a)


def _array(x, shape):
    if x is None:
        return None
    assert isinstance(x, np.ndarray) and x.dtype == np.uint8 and x.shape == shape, repr(x)
    return x.tolist()


def _observation(o):
    assert type(o) is Observation
    return {
        "player": o.player, "phase": o.phase, "hand": _array(o.hand, (15,)),
        "hand_sizes": o.hand_sizes, "landlord": o.landlord, "kitty": _array(o.kitty, (15,)),
        "history": tuple((s, action_key(a)) for s, a in o.history),
        "last_move": None if o.last_move is None else action_key(o.last_move),
        "last_player": o.last_player, "to_move": o.to_move, "base": o.base, "bombs": o.bombs,
        "doubles": o.doubles, "deal_number": o.deal_number,
        "legal_actions": tuple(action_key(a) for a in o.legal_actions), "wild": o.wild,
    }


def observe(g):
    """Every observable of the current Game API, as data."""
    n = g.players
    legal = g.legal_actions()
    assert isinstance(g.phase, Phase)
    out = {
        "rules": g.rules, "seed": g.seed, "first_bidder": g.first_bidder,
        "deal_number": g.deal_number, "phase": g.phase, "players": n,
        "to_move": g.to_move, "current_player": g.current_player, "landlord": g.landlord,
        "is_over": g.is_over, "result": g.result, "returns": g.returns(),
        "last_move": None if g.last_move is None else action_key(g.last_move),
        "last_player": g.last_player,
        "base": g.base, "bombs": g.bombs, "doubles": g.doubles, "value": g.value,
        "hands": _array(g.hands, (n, 15)),
        "hand": [_array(g.hand(s), (15,)) for s in range(n)],
        "hand_sizes": g.hand_sizes, "played": g.played,
        "kitty": _array(g.kitty, (15,)), "kitty_revealed": g.kitty_revealed,
        "plies": g.plies,
        "history": tuple((s, action_key(a)) for s, a in g.history),
        "legal_actions": tuple(action_key(a) for a in legal),
        "observations": [_observation(g.observation(s)) for s in range(n)],
        "wild": g.wild,
    }
    return out


def observe_new(g):
    """The search and bookkeeping observables of ``g``, as data; also checks
    that what ``g`` hands out are copies (changing them changes nothing)."""
    n = g.players
    out = {}
    for name in NEW_OBSERVABLES:
        if name == "unseen":
            out[name] = [_array(g.unseen(s), (15,)) for s in range(n)]
        elif name == "played_cards":
            out[name] = _array(g.played_cards, (n, 15))
        else:
            out[name] = getattr(g, name)
    h = g.history
    assert isinstance(h, list)
    length = len(h)
    h.clear()
    assert len(g.history) == length                   # a new list, not the game's
    if g.kitty is not None:                           # a copy, as every array
        k = g.kitty
        k[:] = 0
        assert g.kitty.sum() == g.rules.kitty_size
    played = g.played_cards
    played[:] = 9
    assert not (g.played_cards == 9).all()
    return out


def assert_same(engine, ref, where=""):
    a, b = observe(engine), observe(ref)
    if a != b:
        diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        raise AssertionError(f"engine and reference differ{where}: {diff}")
    new_a, new_b = observe_new(engine), observe_new(ref)
    diff = {k: (new_a[k], new_b[k]) for k in new_a if new_a[k] != new_b[k]}
    assert not diff, f"engine and reference differ{where}: {diff}"
    return a


def full_record(g):
    rec = observe(g)
    rec.update(observe_new(g))
    return rec


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

def _cards(row):
    """A count row as a list of physical cards (rank indices)."""
    return [r for r in range(15) for _ in range(int(row[r]))]


def _counts(cards):
    row = [0] * 15
    for c in cards:
        row[c] += 1
    return row


def endgame_position(rules, seed, cap):
    """A play-phase position cut from the seeded deal: the landlord takes the
    kitty, every seat keeps 1..cap of its cards, the move on the table (if
    any) comes from the cards no longer held.  Returns from_position's
    arguments."""
    rnd = random.Random(seed)
    n = rules.players
    hands, kitty = deal(SplitMix64(seed), rules)
    landlord = rnd.randrange(n)
    hands[landlord] = [a + b for a, b in zip(hands[landlord], kitty)]
    kept, gone = [], []
    for s in range(n):
        cards = _cards(hands[s])
        rnd.shuffle(cards)
        k = rnd.randint(1, min(cap, len(cards)))
        kept.append(_counts(cards[:k]))
        gone += cards[k:]
    to_move = rnd.randrange(n)
    give_kitty = rnd.random() < 0.5
    kwargs = {"rules": rules, "base": rnd.choice([1, 2, 3, 4, 8, 2**20]),
              "bombs": rnd.randint(0, 3), "doubles": rnd.randint(0, n)}
    wild = None
    if rules.wild_ranks:
        wild = tuple(sorted(rnd.sample(range(13), rules.wild_ranks)))
        kwargs["wild"] = wild
    last, last_player = None, None
    if rnd.random() < 0.6:
        explicit = rnd.random() < 0.7
        if explicit:
            last_player = rnd.choice([s for s in range(n) if s != to_move])
        else:
            last_player = (to_move - 1) % n          # from_position's default
        pool = _counts(gone)
        if give_kitty and last_player != landlord:
            # The kitty cards the landlord no longer holds were played by the
            # landlord: nobody else can have them on the table.
            pool = [p - max(0, k - h) for p, k, h in zip(pool, kitty, kept[landlord])]
        cards = _cards(pool)
        rnd.shuffle(cards)
        moves = list(d.legal_moves(_counts(cards[:10]), rules=rules, wild=wild)) if cards else []
        if moves:
            last = rnd.choice(moves)
            kwargs["last"] = last
            if explicit:
                kwargs["last_player"] = last_player
        else:
            last_player = None
    if give_kitty:
        kwargs["kitty"] = kitty
    if rnd.random() < 0.5:
        # (Not always consistent with the hands: spring scoring reads it as given.)
        played = [rnd.randint(0, 3) for s in range(n)]
        if last_player is not None:
            played[last_player] = max(1, played[last_player])
        kwargs["played"] = played
    return kept, landlord, to_move, kwargs


def position_of(g):
    """from_position's arguments for the current play-phase state of ``g``."""
    kwargs = {"rules": g.rules, "base": g.base, "bombs": g.bombs, "doubles": g.doubles,
              "played": list(g.played), "last": g.last_move, "last_player": g.last_player,
              "wild": g.wild}
    if g.kitty_revealed and g.kitty is not None:
        kwargs["kitty"] = g.kitty
    return [g.hand(s) for s in range(g.players)], g.landlord, g.to_move, kwargs


def build_both(hands, landlord, to_move, kwargs):
    """from_position on both engines: both build, or both raise the same
    exception type."""
    errors = []
    games = []
    for cls in (Game, ReferenceGame):
        try:
            games.append(cls.from_position(hands, landlord, to_move=to_move, **kwargs))
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append(e)
    if errors[0] is None and errors[1] is None:
        return games
    types = [type(e) if e is not None else None for e in errors]
    assert types[0] == types[1], (
        f"from_position(hands={[list(h) for h in hands]}, landlord={landlord}, "
        f"to_move={to_move}, {kwargs}): engine {errors[0]!r}, reference {errors[1]!r}")
    return None


# ---------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------

class EqualToAll:
    """Junk that claims to equal anything."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


AUCTION_ACTIONS = (BID_PASS, Bid(1), Bid(2), Bid(3), CALL, ROB, DECLINE, DOUBLE, NO_DOUBLE)
JUNK = (None, 0, 1, True, "3", "pass", (1,) + (0,) * 14, [PASS], np.zeros(15, np.uint8),
        object(), EqualToAll(), Move, Bid, Phase.PLAY)


def illegal_candidates(g):
    """Actions that are not legal now in ``g`` (a ReferenceGame): foreign
    moves, moves not in the hand, PASS on a lead, auction actions in the
    wrong phase or of the wrong auction, junk."""
    rules = g.rules
    # (wild rules before the draw: moves of some wild ranks, illegal in the auction anyway)
    wild = g.wild if g.wild is not None else (tuple(range(rules.wild_ranks)) or None)
    out = list(AUCTION_ACTIONS) + list(JUNK) + [PASS]
    for s in range(g.players):
        hand = g.hand(s)
        if hand.sum():
            out += list(d.legal_moves(hand, rules=rules, wild=wild))[:40]   # own leads and foreign moves
            if wild is not None:
                # the same cards read under other wild ranks: other moves
                other = tuple((w + 1) % 13 for w in wild)
                out += list(d.legal_moves(hand, rules=rules, wild=other))[:20]
    hand = g.hand(g.to_move) if not g.is_over else np.zeros(15, np.uint8)
    for r in range(15):
        if hand[r] == 0:
            row = [0] * 15
            row[r] = 1
            out.append(Move(d.Kind.SOLO, row, rules=rules, wild=wild))   # a card not in the hand
    legal = g.legal_actions()
    return [a for a in out if not any(type(x) is type(a) and x == a for x in legal)]


# ---------------------------------------------------------------------------
# The machine
# ---------------------------------------------------------------------------

class GameComparison(RuleBasedStateMachine):
    """One compiled Game and one ReferenceGame, driven alike."""

    game_rules = None     # set by make_machine

    def __init__(self):
        super().__init__()
        self.engine = None
        self.ref = None
        self.originals = []   # (engine, reference, record) left behind by a copy

    # -- starting --------------------------------------------------------------
    @initialize(seed=st.integers(0, 2**64 - 1),
                start=st.sampled_from(["deal", "endgame", "redealt"]), cap=st.integers(1, 8))
    def start(self, seed, start, cap):
        """A seeded deal (``redealt``: after everyone passed on its first
        deal), or a position cut from one."""
        if start != "endgame":
            self.engine = Game(self.game_rules, seed=seed)
            self.ref = ReferenceGame(self.game_rules, seed=seed)
            if start == "redealt":
                for _ in range(self.game_rules.players):
                    action = self.ref.legal_actions()[0]        # pass, or decline to call
                    self.ref.step(action)
                    self.engine.step(action)
                assert_same(self.engine, self.ref, " after a redeal")
            return
        hands, landlord, to_move, kwargs = endgame_position(self.game_rules, seed, cap)
        games = build_both(hands, landlord, to_move, kwargs)
        assert games is not None, "a position cut from a deal must be accepted"
        self.engine, self.ref = games

    # -- actions -----------------------------------------------------------------
    # Hypothesis orders the rules by their number of arguments, then by name,
    # and shrinks towards the first: legal play comes first.  The actions are
    # picked uniformly from the reference's list (by a seeded generator: so
    # that a few examples reach every part of both auctions).
    @precondition(lambda self: not self.ref.is_over)
    @rule(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 8))
    def advance(self, seed, steps):
        """Legal actions, the engines compared after each."""
        rnd = random.Random(seed)
        for _ in range(steps):
            if self.ref.is_over:
                break
            legal = self.ref.legal_actions()
            action = legal[rnd.randrange(len(legal))]
            self.ref.step(action)
            self.engine.step(action)
            assert_same(self.engine, self.ref, f" after {action!r}")

    @precondition(lambda self: not self.ref.is_over)
    @rule(i=st.integers(0, 3))
    def step_undo_step(self, i):
        """One of the first legal actions (in the auction: pass, decline, a
        low bid; so redeals come often), taken back, then taken again."""
        legal = self.ref.legal_actions()
        action = legal[i % len(legal)]
        before = assert_same(self.engine, self.ref)
        self.ref.step(action)
        self.engine.step(action)
        after = assert_same(self.engine, self.ref, f" after {action!r}")
        self.ref.undo()
        self.engine.undo()
        assert assert_same(self.engine, self.ref, f" after {action!r} and undo") == before
        self.ref.step(action)
        self.engine.step(action)
        assert assert_same(self.engine, self.ref, f" after {action!r}, undo, {action!r}") == after

    @rule(data=st.data())
    def step_illegal(self, data):
        action = data.draw(st.sampled_from(illegal_candidates(self.ref)), label="illegal")
        before = full_record(self.ref)
        for g in (self.engine, self.ref):
            with pytest.raises(ValueError):
                g.step(action)
        assert full_record(self.ref) == before
        assert_same(self.engine, self.ref, f" after the illegal action {action!r}")

    @rule(times=st.integers(1, 3))
    def undo(self, times):
        for _ in range(times):
            outcomes = []
            for g in (self.engine, self.ref):
                try:
                    g.undo()
                    outcomes.append("undone")
                except IndexError:
                    outcomes.append("IndexError")
            assert outcomes[0] == outcomes[1], f"undo: engine {outcomes[0]}, reference {outcomes[1]}"
            assert_same(self.engine, self.ref, " after undo")

    @rule(how=st.sampled_from(["clone", "copy", "deepcopy"]))
    def copy_and_continue(self, how):
        make = {"clone": lambda g: g.clone(), "copy": copy.copy, "deepcopy": copy.deepcopy}[how]
        engine, ref = make(self.engine), make(self.ref)
        assert type(engine) is Game and type(ref) is ReferenceGame
        self.originals.append((self.engine, self.ref, full_record(self.ref)))
        del self.originals[:-2]
        self.engine, self.ref = engine, ref

    @rule(protocol=st.integers(0, pickle.HIGHEST_PROTOCOL))
    def pickle_round_trip(self, protocol):
        self.engine = pickle.loads(pickle.dumps(self.engine, protocol=protocol))
        self.ref = pickle.loads(pickle.dumps(self.ref, protocol=protocol))

    @precondition(lambda self: self.ref.phase in (Phase.PLAY, Phase.OVER))
    @rule(seed=st.integers(0, 2**64 - 1), cap=st.integers(1, 8), deal=st.booleans())
    def restart(self, seed, cap, deal):
        """In play: from_position of the current state (without its past).
        Once over: a new seeded deal, or a position cut from one."""
        if self.ref.phase is Phase.PLAY:
            games = build_both(*position_of(self.ref))
        elif deal:
            games = [Game(self.game_rules, seed=seed), ReferenceGame(self.game_rules, seed=seed)]
        else:
            games = build_both(*endgame_position(self.game_rules, seed, cap))
        assert games is not None, "a position of a game or cut from a deal must be accepted"
        self.engine, self.ref = games

    # -- the comparison ------------------------------------------------------------
    @invariant()
    def same_observables(self):
        if self.engine is None:
            return
        assert_same(self.engine, self.ref)

    @invariant()
    def copies_left_behind_are_unchanged(self):
        for engine, ref, record in self.originals:
            assert full_record(ref) == record
            assert assert_same(engine, ref, " (a game left behind by a copy)") is not None


def make_machine(rules):
    return type("GameComparison_" + rules.name, (GameComparison,), {"game_rules": rules})


@pytest.mark.parametrize("rules", _rule_sets())
def test_engine_matches_reference_game(rules):
    run_state_machine_as_test(
        make_machine(rules),
        settings=settings(
            settings(),                   # the loaded profile (CI: derandomized)
            max_examples=_examples(rules),
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        ),
    )
