"""The endgame solver under wild cards (the ``laizi`` and ``tiandi`` presets)
against its brute-force twin (``solver_reference.wild_wins``, over the
oracle ``reference.wild_moves``), hand-made wild-card endgame puzzles whose
answers are worked out in their docstrings, and the ``wild=`` argument's
checks.

Moves are compared by their identity (kind, represents, counts).
``DDZ_WILD_EXAMPLES`` sets the Hypothesis examples of the differential test
(as in test_wild_differential.py); the default keeps the file short.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast
import numpy as np

from ddz_fast import Game, Kind, Move, Phase, parse_move
from ddz_fast import reference as ref
from ddz_fast import solver_reference as oracle
from ddz_fast._search.solver import _Position
from ddz_fast.cards import parse_wild
from ddz_fast.game import simple_bot
from ddz_fast.solver import Solver, position_from_game, solve, solve_game, winning_line
from wild_strategies import DECK, bomb_last, minus, other_last, wild_hand, wild_ranks

PRESETS = ["laizi", "tiandi"]
EXAMPLES = int(os.environ.get("DDZ_WILD_EXAMPLES", "0"))
_BANNABLE = [k for k in Kind if k not in (Kind.PASS, Kind.SOLO)]


def examples(default: int) -> Any:
    return settings(settings(), max_examples=EXAMPLES or default, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def api_wild(wild: Tuple[int, ...]) -> Any:
    """``wild=`` of the compiled API: one rank as an int, two as a tuple."""
    return wild[0] if len(wild) == 1 else wild


def identity(move: Move) -> Tuple[int, Tuple[int, ...], Tuple[int, ...]]:
    return (int(move.kind), tuple(move.represents), tuple(move.counts))


def as_move(m: ref.WildMove, preset: str, wild: Tuple[int, ...]) -> Move:
    """The compiled Move of an oracle tuple."""
    return Move(m[0], m[2], rules=preset, wild=api_wild(wild), represents=m[1])


@st.composite
def wild_endgame(draw: Any, preset: str) -> Dict[str, Any]:
    """A small position with wild cards: 2 seats (the two-player puzzle, 1-4
    cards each) or 3 (landlord and farmers, 1-3 cards each), 0-4 wild cards
    over all hands, and a lead, a move another hand could make, or a bomb of
    each class (rocket, wild, hard, soft) on the table; sometimes a banned
    kind."""
    wild = draw(wild_ranks(preset), label="wild")
    seats = draw(st.sampled_from([2, 3]), label="seats")
    how = draw(st.sampled_from(["lead", "other", "bomb"]), label="last")
    last: Optional[ref.WildMove] = None
    if how == "other":
        last = draw(other_last(wild, preset))
        if last[0] == Kind.PASS:
            last = None
    elif how == "bomb":
        last = draw(bomb_last(wild))
    avail = DECK if last is None else minus(DECK, last[2])
    budget = draw(st.integers(0, 4), label="wild cards")
    hands = []
    for _ in range(seats):
        hand = draw(wild_hand(wild, avail, max_size=4 if seats == 2 else 3, max_wild=budget))
        # (a hand drawn empty gets one card, sometimes a wild one: past the budget)
        budget = max(0, budget - sum(hand[x] for x in wild))
        avail = minus(avail, hand)
        hands.append(hand)
    to_move = draw(st.integers(0, seats - 1), label="to_move")
    last_by = None
    if last is not None:
        last_by = draw(st.sampled_from([s for s in range(seats) if s != to_move]), label="last_by")
    ban = draw(st.sampled_from([(), (), (), ("PAIR",), ("BOMB",), ("CHAIN", "TRIO_SOLO")]), label="ban")
    return dict(wild=wild, hands=hands, to_move=to_move, last=last, last_by=last_by, ban=ban,
                landlord=None if seats == 2 else draw(st.integers(0, 2), label="landlord"))


@pytest.mark.parametrize("preset", PRESETS)
@examples(60)
@given(data=st.data())
def test_wild_solver_matches_brute_force(preset: str, data: Any) -> None:
    """On small random wild positions the compiled solver gives the brute
    force's answer, and its winning moves (all_moves) are exactly the moves
    the brute force finds winning."""
    p = data.draw(wild_endgame(preset))
    wild = p["wild"]
    common = dict(to_move=p["to_move"], landlord=p["landlord"], last_by=p["last_by"], rules=preset,
                  ban=p["ban"])
    want = oracle.wild_winning_moves(p["hands"], last=p["last"], wild=wild, **common)
    last = None if p["last"] is None else as_move(p["last"], preset, wild)
    got = solve(p["hands"], last=last, wild=api_wild(wild), all_moves=True, **common)
    assert got.win is bool(want)
    assert got.win is oracle.wild_wins(p["hands"], last=p["last"], wild=wild, **common)
    assert sorted(identity(m) for m in got.winning_moves or ()) == sorted(
        (int(k), r, c) for k, r, c in want)
    # without all_moves: the first winning move found, or the first move tried
    first = solve(p["hands"], last=last, wild=api_wild(wild), **common)
    assert first.win is got.win and first.move is not None
    if first.win:
        assert identity(first.move) in {identity(m) for m in got.winning_moves or ()}


@pytest.mark.parametrize("preset", PRESETS)
def test_one_solver_across_wild_ranks_gives_each_position_its_own_answer(preset: str) -> None:
    """A Solver keeps its table between calls only while what its values
    depend on stays: solving the same hands under every wild rank (and the
    standard rules) in turn with one Solver gives the answers of fresh
    solves."""
    hands = ["3468", "579"]
    solver = Solver(table_mb=1)
    wilds: List[Any] = list(range(13)) if preset == "laizi" else [(a, a + 1) for a in range(12)]
    for w in wilds + wilds[::-1]:
        for to_move in (0, 1):
            assert (solver.solve(hands, to_move=to_move, rules=preset, wild=w).win
                    is solve(hands, to_move=to_move, rules=preset, wild=w).win)
    assert solver.solve(hands).win is solve(hands).win


def test_threads_give_the_one_thread_answers_under_wild_cards() -> None:
    """Root splitting over wild moves (32-byte rows) finds the same answer
    and the same winning moves as one thread."""
    hands = ["34578K", "2B"]
    one = solve(hands, rules="laizi", wild="K", all_moves=True)
    two = solve(hands, rules="laizi", wild="K", all_moves=True, threads=2)
    assert one.win is two.win is True
    assert sorted(map(identity, one.winning_moves or ())) == sorted(map(identity, two.winning_moves or ()))


def test_a_soft_bomb_cannot_beat_a_hard_bomb() -> None:
    """laizi, 7 wild.  I hold K K K 7; my opponent, who holds a 3, has just
    played the hard bomb 6 6 6 6.  My 7 can make K K K K, but that is a soft
    bomb, and a soft bomb never beats a hard one (whatever the ranks); no
    other reading of my cards is a bomb.  So I must pass, my opponent leads
    the 3 and wins: a loss.  Had the opponent's bomb been the soft 6 6 6 7
    (read as 6 6 6 6), my soft K K K K would beat it (same class, higher
    rank) and empty my hand: a win, with that one move."""
    hands = ["KKK7", "3"]
    hard = parse_move("6666", rules="laizi", wild="7")
    soft = parse_move("6667=6666", rules="laizi", wild="7")
    assert (hard.bomb_class, soft.bomb_class) == ("hard", "soft")
    lost = solve(hands, last=hard, last_by=1, rules="laizi", wild="7")
    assert lost.win is False and lost.move is not None and lost.move.kind == Kind.PASS
    won = solve(hands, last=soft, last_by=1, rules="laizi", wild="7", all_moves=True)
    assert won.win is True
    assert [(str(m), m.bomb_class) for m in won.winning_moves or ()] == [("7KKK=KKKK", "soft")]
    for last, answer in ((hard, False), (soft, True)):
        assert oracle.wild_wins(hands, last=last, last_by=1, wild=(4,)) is answer


def test_a_wild_card_completes_the_chain() -> None:
    """laizi, K wild.  I lead with 3 4 5 7 8 K against 2 and the black joker.
    Any single or pair I lead is taken by the 2 or the joker, after which
    my opponent leads the other and I cannot beat it (a wild card standing
    for a 2 only ties a 2).  My K standing for the missing 6 makes chains:
    3-8 plays my whole hand; 3-7 and 4-8 leave one card, and my opponent,
    with no chain and no bomb, must pass, so I play it.  The winning moves
    are exactly those three chains.  Without a wild rank the same hands
    lose (no chain is possible)."""
    r = solve(["34578K", "2B"], rules="laizi", wild="K", all_moves=True)
    assert r.win is True
    assert sorted(str(m) for m in r.winning_moves or ()) == ["34578K=345678", "3457K=34567", "4578K=45678"]
    assert solve(["34578K", "2B"]).win is False
    assert oracle.wild_wins(["34578K", "2B"], wild=(10,)) is True


def test_four_wild_cards_are_a_wild_bomb_beating_a_hard_bomb() -> None:
    """laizi, 9 wild.  My opponent (an A left) has just played 2 2 2 2, the
    highest hard bomb; I hold 9 9 9 9 and a 3.  My four 9s standing for
    themselves are the wild bomb, a class above every hard bomb: it beats
    the 2s, my opponent cannot answer it, and I lead the 3: a win, and the
    only winning move (read as any other rank the 9s are a soft bomb, which
    no hard bomb fears).  With 5 wild instead, the 9s are a hard bomb of 9s,
    lower than the 2s: I can only pass, and the A wins for my opponent."""
    bomb = parse_move("2222", rules="laizi", wild="9")
    r = solve(["99993", "A"], last=bomb, last_by=1, rules="laizi", wild="9", all_moves=True)
    assert r.win is True
    assert [(str(m), m.bomb_class) for m in r.winning_moves or ()] == [("9999", "wild")]
    assert solve(["99993", "A"], last=parse_move("2222", rules="laizi", wild="5"), last_by=1,
                 rules="laizi", wild="5").win is False
    assert oracle.wild_wins(["99993", "A"], last=bomb, last_by=1, wild=(6,)) is True


def test_a_soft_bomb_beats_any_non_bomb_for_the_landlord() -> None:
    """laizi, 7 wild, three players; the landlord (seat 0) holds 3 3 3 7,
    the farmers a black joker and a red joker, one each.  Farmer 2 has just
    played a pair of 2s.  The landlord's 7 standing for a 3 makes the soft
    bomb 3 3 3 3, which beats the 2s (a bomb beats every non-bomb) and
    empties the hand: a win.  With 8 wild the landlord holds no bomb: he
    passes, farmer 1 (the joker) cannot beat the 2s either, and farmer 2
    leads again and wins for the farmers."""
    hands = ["3337", "B", "R"]
    pair = parse_move("22", rules="laizi", wild="7")
    r = solve(hands, landlord=0, last=pair, last_by=2, rules="laizi", wild="7")
    assert r.win is True and r.move is not None and str(r.move) == "3337=3333"
    assert r.move.bomb_class == "soft"
    other = solve(hands, landlord=0, last=parse_move("22", rules="laizi", wild="8"), last_by=2,
                  rules="laizi", wild="8")
    assert other.win is False


@pytest.mark.parametrize("preset,wild", [("laizi", "7"), ("tiandi", "79")])
def test_winning_line_with_wild_cards_is_legal_and_ends_in_the_winners_hand(preset: str, wild: str) -> None:
    """winning_line under wild cards: every move is a legal wild move of
    its seat's hand in its position (the oracle's list), the physical cards
    leave the hands, and the line ends when the side that wins empties a
    hand."""
    hands = ["3457QK", "2AA9"]
    w = parse_wild(wild, preset)
    first = solve(hands, rules=preset, wild=wild)
    line = winning_line(hands, rules=preset, wild=wild)
    cur = [tuple(ddz_fast.to_counts(h).tolist()) for h in hands]
    last: Optional[ref.WildMove] = None
    last_by = -1
    for seat, move in line:
        legal = ref.wild_moves(cur[seat], last, rules=preset, wild=w)
        assert identity(move) in {(int(k), r, c) for k, r, c in legal}
        if move.kind == Kind.PASS:
            if (seat + 1) % 2 == last_by:
                last, last_by = None, -1
            continue
        cur[seat] = tuple(a - b for a, b in zip(cur[seat], move.counts))
        last, last_by = (move.kind, tuple(move.represents), tuple(move.counts)), seat
    final_seat = line[-1][0]
    assert sum(cur[final_seat]) == 0
    assert (final_seat == 0) is first.win


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(rules="laizi"), ValueError, "wild"),
    (dict(rules="tiandi"), ValueError, "wild"),
    (dict(rules="standard", wild=7), ValueError, "no wild cards"),
    (dict(rules="laizi", wild=13), ValueError, "jokers"),
    (dict(rules="laizi", wild="B"), ValueError, "jokers"),
    (dict(rules="laizi", wild=True), TypeError, "bool"),
    (dict(rules="laizi", wild=(3, 4)), ValueError, "draw 1"),
    (dict(rules="tiandi", wild=7), ValueError, "draw 2"),
    (dict(rules="tiandi", wild=(7, 7)), ValueError, "differ"),
    (dict(rules="laizi", wild=7.0), TypeError, "wild"),
])
def test_bad_wild_arguments_are_named(kwargs: Dict[str, Any], exc: type, match: str) -> None:
    """A missing, superfluous or invalid wild= is refused by solve, a
    Solver and winning_line alike."""
    for f in (solve, Solver().solve, winning_line):
        with pytest.raises(exc, match=match):
            f(["3457", "68"], **kwargs)


def test_a_move_to_beat_that_is_no_reading_under_these_wild_ranks_is_refused() -> None:
    """The move on the table must be a reading of its cards under the
    position's rules and wild ranks: a 7 standing for a 3 is refused under
    the standard rules and under another wild rank; a soft bomb made with 7
    wild is no bomb with 9 wild."""
    stand_in = parse_move("7=3", rules="laizi", wild="7")
    with pytest.raises(ValueError, match="not a legal move"):
        solve(["44", "55"], last=stand_in)
    with pytest.raises(ValueError, match="not a legal move"):
        solve(["44", "55"], last=stand_in, rules="laizi", wild="9")
    soft = parse_move("5557=5555", rules="laizi", wild="7")
    with pytest.raises(ValueError, match="not a legal move"):
        solve(["44", "66"], last=soft, rules="laizi", wild="9")
    # the same cards reread under other wild ranks: their class is the position's
    four = parse_move("7777", rules="laizi", wild="7")
    assert four.bomb_class == "wild"
    r = solve(["8888", "3"], last=four, last_by=1, rules="laizi", wild="5")
    assert r.win is True       # 7777 is a hard bomb here, and 8888 a higher one
    assert solve(["8888", "3"], last=four, last_by=1, rules="laizi", wild="7").win is False


def test_the_engine_refuses_unchecked_wild_positions_from_direct_callers() -> None:
    """_Position.from_counts keeps the search's invariants whatever a direct
    caller passes: the wild ranks must fit the rules, and the move to beat
    must be 32 bytes that read as a move of its cards."""
    hands = bytes(ddz_fast.to_counts("3457").tolist() + ddz_fast.to_counts("68").tolist())
    with pytest.raises(ValueError, match="wild ranks"):
        _Position.from_counts(hands, (0, 1), "laizi", 0, None, -1)
    with pytest.raises(ValueError, match="wild ranks"):
        _Position.from_counts(hands, (0, 1), "laizi", 0, None, -1, 0b11)
    with pytest.raises(ValueError, match="wild ranks"):
        _Position.from_counts(hands, (0, 1), "standard", 0, None, -1, 1 << 4)
    with pytest.raises(ValueError, match="wild ranks"):
        _Position.from_counts(hands, (0, 1), "laizi", 0, None, -1, 1 << 13)
    pair = ddz_fast.to_counts("99").tolist()
    with pytest.raises(ValueError, match="32 bytes"):
        _Position.from_counts(hands, (0, 1), "laizi", 0, bytes(pair + [2]), 1, 1 << 4)
    row = bytes(pair + [2] + pair + [0])
    assert _Position.from_counts(hands, (0, 1), "laizi", 0, row, 1, 1 << 4).to_move == 0
    wrong_kind = bytes(pair + [1] + pair + [0])
    wrong_cards = bytes(pair + [2] + ddz_fast.to_counts("9T").tolist() + [0])
    too_many = bytes(pair + [2] + [9] * 15 + [0])
    for bad in (wrong_kind, wrong_cards, too_many):
        with pytest.raises(ValueError, match="not a reading"):
            _Position.from_counts(hands, (0, 1), "laizi", 0, bad, 1, 1 << 4)


def _late_wild_games(n: int, cards: int, rules: str) -> List[Game]:
    """Wild deals played by the simple bot until the hands hold at most
    `cards` cards in all (those that have not ended by then)."""
    games: List[Game] = []
    seed = 0
    while len(games) < n:
        g = Game(rules, seed=seed)
        seed += 1
        while not g.is_over and (g.phase != Phase.PLAY or sum(g.hand_sizes) > cards):
            assert g.to_move is not None
            g.step(simple_bot(g.observation(g.to_move), g.rules))
        if not g.is_over:
            games.append(g)
    return games


@pytest.mark.parametrize("preset", PRESETS)
def test_solve_game_of_a_wild_game_is_solve_of_its_position(preset: str) -> None:
    """A wild game's position carries its wild ranks; solve_game reads the
    same position from the engine's state (the move to beat as its wild
    row): the same answer, moves and node count as solve() of
    position_from_game, which the brute force confirms."""
    games = _late_wild_games(6, 7, preset)
    assert any(g.last_move is not None for g in games)
    for g in games:
        pos = position_from_game(g)
        assert pos["wild"] == g.wild and pos["wild"]
        for options in ({}, {"all_moves": True}, {"max_nodes": 20}):
            got = solve_game(g, **options)  # type: ignore[arg-type]
            want = solve(**pos, **options)  # type: ignore[arg-type]
            assert (got.win, got.move, got.winning_moves, got.nodes, got.limit) == (
                want.win, want.move, want.winning_moves, want.nodes, want.limit), (g, options)
        assert solve_game(g).win is oracle.wins(**pos)


@pytest.mark.parametrize("preset", PRESETS)
def test_solve_values_of_a_wild_game_are_the_solver_s_values_in_each_world(preset: str) -> None:
    """Game.solve_values under wild cards: each world's value of each legal
    move (a wild reading) is solve()'s of that world with all_moves; the
    game is not changed."""
    for i, g in enumerate(_late_wild_games(4, 10, preset)):
        p = g.to_move
        assert p is not None
        worlds = g.sample_worlds(p, 4, seed=i)
        moves = list(g.legal_actions())
        before = g.snapshot()
        values = g.solve_values(worlds, moves)
        assert g.snapshot() == before
        assert values.shape == (4, len(moves)) and not np.isnan(values).any()
        for w in range(4):
            r = solve(list(worlds[w]), to_move=p, landlord=g.landlord, last=g.last_move,
                      last_by=g.last_player, rules=g.rules, wild=g.wild, all_moves=True)
            winners = set(r.winning_moves or ())
            assert [float(m in winners) for m in moves] == list(values[w]), (g, w)


def test_limits_stop_a_wild_search() -> None:
    """A node or time limit stops the wild search with an unknown result
    (the position needs over 200,000 nodes), and the same Solver then
    solves it in full."""
    hands = ["RKKQJT9876633", "AAKQJT987"]
    solver = Solver()
    r = solver.solve(hands, rules="laizi", wild="T", max_nodes=1000)
    assert (r.win, r.status, r.limit) == (None, "unknown", "nodes")
    r = solver.solve(hands, rules="laizi", wild="T", max_time=1e-4)
    assert (r.win, r.limit) == (None, "time")
    assert solver.solve(hands, rules="laizi", wild="T").win is False


@pytest.mark.parametrize("preset", PRESETS)
def test_the_pimc_agent_solves_the_worlds_of_a_wild_endgame(preset: str) -> None:
    """In a wild endgame of few cards the PIMC agent values its moves with
    the solver: every world solved, each value the solver's for that world
    (0 or 1), the move played among the legal ones."""
    from ddz_fast.pimc import PIMCAgent

    agent = PIMCAgent(6, seed=2, rules=preset)
    for g in _late_wild_games(3, 9, preset):
        assert g.to_move is not None
        ev = agent.evaluate(g.observation(g.to_move))
        assert ev.solved.all()
        for w in range(len(ev.worlds)):
            r = solve(list(ev.worlds[w]), to_move=g.to_move, landlord=g.landlord, last=g.last_move,
                      last_by=g.last_player, rules=preset, wild=g.wild, all_moves=True)
            winners = set(r.winning_moves or ())
            assert [float(m in winners) for m in ev.moves] == list(ev.values[w])
        assert agent(g.observation(g.to_move)) in g.legal_actions()
