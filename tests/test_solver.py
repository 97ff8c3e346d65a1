"""The endgame solver against its brute-force twin (ddz_fast.solver_reference),
published puzzle answers, and its argument checks."""
from __future__ import annotations

import os
import random
import threading
from typing import Any, Dict, List, Optional

import numpy as np
import pytest

import ddz_fast
from ddz_fast import Game, Kind, legal_moves, parse_move
from ddz_fast._search import solver as _solver
from ddz_fast import solver_reference as oracle
from ddz_fast.solver import Solver, position_from_game, solve, solve_game, winning_line

# The published puzzles (their source is cited in solver_reference).
WZ_PUZZLES = oracle.PUBLISHED_PUZZLES


def wz_hand(text: str) -> str:
    """Our card text (the table is stored in it; also accepts its tens as 0)."""
    return text.replace("0", "T")


@pytest.mark.parametrize("first,second,offence_wins", WZ_PUZZLES)
@pytest.mark.parametrize("rules", ["standard", "strict"])
def test_published_puzzles(first: str, second: str, offence_wins: bool, rules: str) -> None:
    """The first hand to move wins exactly the published puzzles marked so, and
    the winning move it gives keeps the win (checked by a second solve)."""
    r = solve([wz_hand(first), wz_hand(second)], rules=rules)
    assert r.win is offence_wins
    assert r.move is not None
    if offence_wins:
        hands = [ddz_fast.to_counts(wz_hand(first)), ddz_fast.to_counts(wz_hand(second))]
        hands[0] = hands[0] - np.array(r.move.counts, dtype=np.uint8)
        if hands[0].sum() > 0:
            after = solve(hands, to_move=1, last=r.move, last_by=0, rules=rules)
            assert after.win is False


# ---------------------------------------------------------------------------
# Differential test: random small endgames, solver vs brute force.
# ---------------------------------------------------------------------------

_BANNABLE = [k for k in Kind if k not in (Kind.PASS, Kind.SOLO)]


def random_position(rng: random.Random, rules: str, seats: int, max_cards: int,
                    spread: bool = False) -> Dict[str, Any]:
    """A random position dealt from a few neighbouring ranks (so that pairs,
    trios, bombs, chains and kickers are common) -- or, with `spread`, from
    ranks with gaps between them -- with a random move on the table half of
    the time and sometimes banned kinds."""
    r = ddz_fast.resolve_rules(rules)
    lo = rng.randrange(0, 13)
    ranks = list(range(lo, min(15, lo + rng.randint(3, 7))))
    if spread:
        ranks = sorted(rng.sample(range(15), rng.randint(4, 9)))
    if rng.random() < 0.3:
        ranks += [13, 14]
    pool: List[int] = []
    for x in sorted(set(ranks)):
        pool += [x] * (r.max_jokers if x >= 13 else r.max_count)
    rng.shuffle(pool)
    if len(pool) < seats * max_cards:
        return random_position(rng, rules, seats, max_cards, spread)
    hands = []
    for _ in range(seats):
        k = rng.randint(1, max_cards)
        h = [0] * 15
        for x in pool[:k]:
            h[x] += 1
        pool = pool[k:]
        hands.append(h)
    to_move = rng.randrange(seats)
    landlord = None if seats == 2 and rng.random() < 0.7 else rng.randrange(seats)
    if landlord is not None and seats != r.players:
        landlord = None
    last = None
    last_by = None
    if pool and rng.random() < 0.5:
        rest = [0] * 15
        for x in pool[:6]:
            rest[x] += 1
        leads = legal_moves(rest, rules=r)
        if len(leads):
            last = leads[rng.randrange(len(leads))]
            last_by = rng.choice([s for s in range(seats) if s != to_move])
    ban = rng.sample(_BANNABLE, rng.randint(1, 3)) if rng.random() < 0.2 else []
    return dict(hands=hands, to_move=to_move, landlord=landlord, last=last, last_by=last_by,
                rules=rules, ban=ban)


_FORMS = [
    # (preset, seats, most cards a hand)
    ("standard", 2, 5),
    ("standard", 3, 4),
    ("strict", 2, 5),
    ("douzero", 2, 5),
    ("rlcard", 2, 5),
    ("four", 2, 5),
    ("four", 4, 3),
]


def _check_against_oracle(pos: Dict[str, Any]) -> None:
    want = oracle.winning_moves(**pos)
    got = solve(**pos, all_moves=True)
    assert got.win is bool(want), pos
    assert set(got.winning_moves or ()) == set(want), pos
    if want:
        assert got.move in want
    # the same answer with no table at all and on two threads; on three, the
    # same winning moves
    assert solve(**pos, table_mb=0).win is bool(want), pos
    assert solve(**pos, threads=2).win is bool(want), pos
    assert set(solve(**pos, threads=3, all_moves=True).winning_moves or ()) == set(want), pos


N_DEFAULT = int(os.environ.get("DDZ_SOLVER_CASES", "25"))


@pytest.mark.parametrize("rules,seats,max_cards", _FORMS)
def test_solver_matches_brute_force(rules: str, seats: int, max_cards: int) -> None:
    """Win/loss and the set of winning moves agree with the pure-Python
    minimax on random small endgames (two-player puzzles, the landlord
    against the farmers, moves on the table, banned kinds)."""
    rng = random.Random(f"{rules}-{seats}")
    for _ in range(N_DEFAULT):
        _check_against_oracle(random_position(rng, rules, seats, max_cards))


@pytest.mark.parametrize("rules,seats,max_cards", [("standard", 2, 5), ("standard", 3, 4), ("four", 4, 3)])
def test_solver_matches_brute_force_with_the_portable_renumbering(rules: str, seats: int, max_cards: int) -> None:
    """The table keys' renumbering of the ranks held, done by the portable
    nibble loop (CPUs without fast PEXT/PDEP) instead of PEXT/PDEP, gives
    the brute-force answers too (on ranks with gaps between them)."""
    was = _solver._use_pext(False)
    try:
        rng = random.Random(f"portable-{rules}-{seats}")
        for _ in range(N_DEFAULT):
            _check_against_oracle(random_position(rng, rules, seats, max_cards, spread=rng.random() < 0.5))
    finally:
        _solver._use_pext(was)


@pytest.mark.nightly
@pytest.mark.parametrize("rules,seats,max_cards", _FORMS)
def test_solver_matches_brute_force_many(rules: str, seats: int, max_cards: int) -> None:
    """As above, a thousand positions per form."""
    rng = random.Random(f"many-{rules}-{seats}")
    for _ in range(1000):
        _check_against_oracle(random_position(rng, rules, seats, max_cards))


def cards_left_for_mover(pos: Dict[str, Any], r: Any) -> List[int]:
    """Per rank, the cards of the deck that neither the other seats' hands
    nor the move on the table hold: what the seat to move may be given."""
    used = list(pos["last"].counts) if pos["last"] is not None else [0] * 15
    for seat, h in enumerate(pos["hands"]):
        if seat != pos["to_move"]:
            used = [a + b for a, b in zip(used, h)]
    return [(r.max_jokers if x >= 13 else r.max_count) - used[x] for x in range(15)]


def control_position(rng: random.Random, rules: str, seats: int) -> Dict[str, Any]:
    """A random position whose seat to move holds two moves, one of them of
    high ranks (a 2, a joker, a high pair or trio, a bomb, the rocket...):
    the shape where one move nobody can beat, then the other, wins -- or
    does not, when an opponent holds a higher card, a bomb or the rocket, or
    only a banned kind could answer."""
    r = ddz_fast.resolve_rules(rules)
    pos = random_position(rng, rules, seats, 4)
    room = cards_left_for_mover(pos, r)
    mover = [0] * 15
    for ranks in (range(8, 15), range(0, 15)):
        pool = [0] * 15
        for x in ranks:
            pool[x] = rng.randint(0, room[x])
        most = 4 if seats == 2 else 3       # (keeps the brute force quick)
        moves = [m for m in legal_moves(pool, rules=r) if m.kind != Kind.PASS and sum(m.counts) <= most]
        if moves:
            m = moves[rng.randrange(len(moves))]
            room = [a - b for a, b in zip(room, m.counts)]
            mover = [a + b for a, b in zip(mover, m.counts)]
    if sum(mover) == 0:
        return control_position(rng, rules, seats)
    pos["hands"][pos["to_move"]] = mover
    return pos


@pytest.mark.parametrize("rules,seats,max_cards", _FORMS)
def test_solver_matches_brute_force_when_a_control_move_decides(rules: str, seats: int, max_cards: int) -> None:
    """Positions where one move nobody on the other side can beat, then one
    more, may win at once (the solver proves that without searching the
    answers): the same values and winning moves as the minimax."""
    rng = random.Random(f"control-{rules}-{seats}")
    for _ in range(N_DEFAULT):
        _check_against_oracle(control_position(rng, rules, seats))


def controls_position(rng: random.Random, rules: str, seats: int) -> Dict[str, Any]:
    """A random position whose seat to move holds two or three moves of high
    ranks (2s, jokers, high pairs and trios, bombs...) and one more move: the
    shape where playing the moves nobody on the other side can beat, one
    after the other, then the last one wins -- or does not, when someone
    over there holds a higher card, a bomb or the rocket."""
    r = ddz_fast.resolve_rules(rules)
    pos = random_position(rng, rules, seats, 3 if seats > 2 else 4)
    room = cards_left_for_mover(pos, r)
    mover = [0] * 15
    parts = [range(9, 15)] * rng.randint(2, 3) + [range(0, 15)]
    for ranks in parts:
        pool = [0] * 15
        for x in ranks:
            pool[x] = rng.randint(0, room[x])
        moves = [m for m in legal_moves(pool, rules=r) if m.kind != Kind.PASS and sum(m.counts) <= 3]
        if moves:
            m = moves[rng.randrange(len(moves))]
            room = [a - b for a, b in zip(room, m.counts)]
            mover = [a + b for a, b in zip(mover, m.counts)]
    if sum(mover) == 0 or sum(mover) > (6 if seats == 2 else 5):
        return controls_position(rng, rules, seats)
    pos["hands"][pos["to_move"]] = mover
    return pos


@pytest.mark.parametrize("rules,seats,max_cards", _FORMS)
def test_solver_matches_brute_force_when_several_control_moves_decide(rules: str, seats: int,
                                                                      max_cards: int) -> None:
    """A hand of moves nobody on the other side can beat but one wins by
    playing those first and that one last; the solver proves it without
    searching the answers (or, answering a move, after a move nobody can
    beat that leaves such a hand): the same values and winning moves as the
    minimax, also when a higher card, a bomb or a banned kind spoils it."""
    rng = random.Random(f"controls-{rules}-{seats}")
    for _ in range(max(1, N_DEFAULT // 2)):        # (each case is a larger brute force)
        _check_against_oracle(controls_position(rng, rules, seats))


@pytest.mark.parametrize("seats", [2, 4])
def test_moves_to_beat_differing_in_rank_share_entries_only_when_the_answers_agree(seats: int) -> None:
    """The table keys a move to beat by how many ranks of the seats that may
    answer it (before it comes back to its maker) are not above it.  The
    seat to move holds a lone 3, so it passes and the next seat faces the
    move (a position the table keeps): the same hands facing a single of
    every rank in turn, with one table, each get the minimax's answer --
    also when two ranks differ only in the hand of a seat that answers
    after that one passes (four seats)."""
    rng = random.Random(f"last-ranks-{seats}")
    s = Solver()
    for _ in range(N_DEFAULT):
        pos = random_position(rng, "four", seats, 3, spread=True)
        to_move = pos["to_move"]
        pos["hands"][to_move] = [1] + [0] * 14
        for x in range(1, 13):
            p = dict(pos, last=parse_move("3456789TJQKA2"[x], rules="four"),
                     last_by=(to_move - 1) % seats, landlord=None if seats == 2 else to_move, ban=[])
            assert s.solve(**p).win is oracle.wins(**p), p


@pytest.mark.parametrize("rules,seats,max_cards", _FORMS)
def test_one_table_shared_by_many_positions_gives_their_own_answers(rules: str, seats: int, max_cards: int) -> None:
    """The table is keyed on positions with the ranks renumbered (only their
    order, and which are next to each other, matter): positions dealt from
    ranks with gaps, with chains across them or not, solved one after the
    other with one table, each get the minimax's answer."""
    rng = random.Random(f"spread-{rules}-{seats}")
    s = Solver()
    for _ in range(2 * N_DEFAULT):
        pos = random_position(rng, rules, seats, max_cards, spread=True)
        assert s.solve(**pos).win is oracle.wins(**pos), pos


def test_fresh_tables_in_kept_blocks_hold_nothing_of_earlier_solves() -> None:
    """Each solve() takes a kept block still holding earlier tables' entries
    (of other seat counts too, so of other entry sizes) and a new tag, and
    reads those entries as empty; also across the tags running out and
    starting again (blocks zeroed from then on).  Answers agree with brute
    force."""
    rng = random.Random("kept-blocks")
    positions = [random_position(rng, rules, seats, max_cards)
                 for rules, seats, max_cards in _FORMS for _ in range(3)]
    rng.shuffle(positions)
    # and positions whose answer a banned kind changes, solved by one
    # Solver without and then with it: the table keys do not hold the
    # banned kinds, so an entry of the first solve read by the second would
    # give its answer (the other Solvers hold the kept blocks meanwhile, so
    # the second solve's table takes the first one's block)
    flips = []
    while len(flips) < 4:
        pos = dict(random_position(rng, "standard", 2, 6), ban=[])
        for kind in (Kind.PAIR, Kind.TRIO, Kind.TRIO_SOLO, Kind.TRIO_PAIR, Kind.CHAIN):
            if oracle.wins(**pos) != oracle.wins(**dict(pos, ban=[kind])):
                flips.append((pos, dict(pos, ban=[kind])))
                break
    holders = [Solver() for _ in range(4)]
    for h in holders:
        h.solve(["3", "4"])
    for free, banned in flips:
        one = Solver()
        assert one.solve(**free).win is oracle.wins(**free), free
        assert one.solve(**banned).win is oracle.wins(**banned), banned
    del holders
    was = _solver._set_tags((1 << 31) - 5, False)
    try:
        for pos in positions:
            _check_against_oracle(pos)
        assert _solver._set_tags(0, False)[1] is True      # the tags ran out on the way
    finally:
        # (tags go on from 2**30: above every tag given before this test
        # and after the restart, below the few given just before it, which
        # a test session never reaches again)
        _solver._set_tags(max(was[0], 1 << 30), was[1])


def test_a_small_table_that_fills_up_gives_the_same_answers() -> None:
    """A table limited to a few thousand entries grows to its limit, then
    replaces entries: the answers do not change."""
    s = Solver(table_mb=0.2)
    for first, second, offence_wins in WZ_PUZZLES:
        assert s.solve([wz_hand(first), wz_hand(second)], rules="strict").win is offence_wins
    rng = random.Random("small-table")
    for _ in range(N_DEFAULT):
        pos = random_position(rng, "standard", 3, 4)
        assert Solver(table_mb=0.01).solve(**pos).win is oracle.wins(**pos), pos


# ---------------------------------------------------------------------------
# The three-player game and games
# ---------------------------------------------------------------------------

def test_a_farmer_wins_for_both_farmers() -> None:
    """Farmer 1 holds one card the others cannot beat after farmer 2 leads a
    low single and passes the lead; the landlord's side loses."""
    hands = ["3", "R", "456789TJ"]       # landlord is seat 2
    r = solve(hands, to_move=0, landlord=2)
    assert r.win is True                # seat 0 plays 3, seat 1 beats with R and is out
    # the landlord to move leads his chain and wins at once
    assert solve(hands, to_move=2, landlord=2).win is True
    assert oracle.wins(hands, to_move=0, landlord=2) is True


def test_game_position_converts_and_solves() -> None:
    g = Game.from_position(["33", "44", "5"], landlord=2, to_move=0,
                           last=parse_move("2"), last_player=2)
    pos = position_from_game(g)
    assert pos["to_move"] == 0 and pos["landlord"] == 2 and pos["last_by"] == 2
    assert solve_game(g).win is oracle.wins(**pos)
    with pytest.raises(TypeError, match="hands="):
        solve_game(g, hands=["3", "4", "5"])
    with pytest.raises(TypeError, match="Game"):
        position_from_game("not a game")  # type: ignore[arg-type]


def _late_game(seed: int, cards: int, rules: str = "standard") -> Game:
    """A deal played by the simple bot until the hands hold at most `cards`
    cards in all (or the deal ends)."""
    from ddz_fast.game import simple_bot

    g = Game(rules, seed=seed)
    while not g.is_over and (g.phase != ddz_fast.Phase.PLAY or sum(g.hand_sizes) > cards):
        assert g.to_move is not None
        g.step(simple_bot(g.observation(g.to_move), g.rules))
    return g


def _late_games(n: int, cards: int, rules: str = "standard") -> List[Game]:
    """Three seats: deals played down to `cards` cards; four (whose deals
    end with many cards left): random positions of a few cards a hand."""
    if ddz_fast.resolve_rules(rules).players == 3:
        games = [_late_game(seed, cards, rules) for seed in range(3 * n)]
        return [g for g in games if not g.is_over][:n]
    rng = random.Random(f"late-{rules}")
    out: List[Game] = []
    while len(out) < n:
        pos = random_position(rng, rules, 4, cards // 4)
        if pos["landlord"] is not None:
            out.append(Game.from_position(pos["hands"], pos["landlord"], 1, pos["to_move"], pos["last"],
                                          last_player=pos["last_by"], rules=rules))
    return out


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_solve_game_is_solve_of_the_games_position(rules: str) -> None:
    """solve_game reads the position from the engine's state: the same
    answer, moves and search (node count) as solve() of position_from_game,
    with the options passed through."""
    games = _late_games(12, 14, rules)
    assert len(games) == 12 and any(g.last_move is not None for g in games)
    for g in games:
        pos = position_from_game(g)
        for options in ({}, {"all_moves": True}, {"max_nodes": 50}, {"ban": ["TRIO_PAIR"], "table_mb": 0}):
            got = solve_game(g, **options)  # type: ignore[arg-type]
            want = solve(**pos, **options)  # type: ignore[arg-type]
            assert (got.win, got.move, got.winning_moves, got.nodes, got.to_move, got.limit) == (
                want.win, want.move, want.winning_moves, want.nodes, want.to_move, want.limit), (g, options)
        assert solve_game(g, threads=2).win is solve(**pos).win


def test_solve_game_rejects_bad_options_and_games() -> None:
    g = _late_games(1, 14)[0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'depth'"):
        solve_game(g, depth=3)
    with pytest.raises(TypeError, match="max_nodes"):
        solve_game(g, max_nodes=1.5)
    with pytest.raises(ValueError, match="threads"):
        solve_game(g, threads=0)
    with pytest.raises(TypeError, match="Game"):
        solve_game("not a game")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="play phase"):
        solve_game(Game(seed=1))


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_solve_values_are_the_solver_s_values_in_each_world(rules: str) -> None:
    """Each world's value of each move is solve()'s of that world (all_moves:
    1 for a winning move, 0 for a losing one), whatever the limits leave
    known; the game is not changed."""
    checked = stopped = 0
    for i, g in enumerate(_late_games(8, 13, rules)):
        p = g.to_move
        assert p is not None
        worlds = g.sample_worlds(p, 6, seed=i)
        moves = list(g.legal_actions())
        before = g.snapshot()
        values = g.solve_values(worlds, moves)
        limited = g.solve_values(worlds, moves, max_nodes=3)
        assert g.snapshot() == before
        assert values.shape == (6, len(moves)) and values.dtype == np.float64
        assert not np.isnan(values).any()
        for w in range(6):
            r = solve(list(worlds[w]), to_move=p, landlord=g.landlord, last=g.last_move,
                      last_by=g.last_player, rules=g.rules, all_moves=True)
            winners = set(r.winning_moves or ())
            assert [float(m in winners) for m in moves] == list(values[w]), (g, w)
            known = ~np.isnan(limited[w])
            assert (limited[w][known] == values[w][known]).all()
            checked += 1
            stopped += int(not known.all())
    assert checked >= 40 and stopped > 0


def test_solve_values_take_moves_in_any_order_and_none() -> None:
    g = _late_games(1, 12)[0]
    p = g.to_move
    assert p is not None
    worlds = g.sample_worlds(p, 4, seed=3)
    moves = list(g.legal_actions())
    values = g.solve_values(worlds, moves)
    again = g.solve_values(worlds, moves[::-1] + moves[:1])
    assert np.array_equal(again, np.concatenate([values[:, ::-1], values[:, :1]], axis=1))
    assert g.solve_values(worlds, []).shape == (4, 0)
    assert g.solve_values(worlds[:0], moves).shape == (0, len(moves))
    assert np.array_equal(ddz_fast.solver.solve_values(g, worlds, moves, table_mb=0), values)


def test_solve_values_reject_bad_arguments() -> None:
    g = _late_games(1, 12)[0]
    p = g.to_move
    assert p is not None
    w = g.sample_worlds(p, 2, seed=1)
    legal = g.legal_actions()
    other_hand = w.copy()
    other_hand[0, p] = w[0, (p + 1) % 3]
    absent = "3456789TJQKA2BR"[int(np.flatnonzero(g.hand(p) == 0)[0])]
    cases: List[Any] = [
        ((w.astype(np.int64), legal), {}, ValueError, "uint8"), ((w[0], legal), {}, ValueError, "shape"),
        ((w.tolist(), legal), {}, TypeError, "numpy array"), ((other_hand, legal), {}, ValueError, "changes"),
        ((w, "33"), {}, TypeError, "sequence of Moves"), ((w, [1]), {}, TypeError, "not a Move"),
        ((w, [parse_move(absent)]), {}, ValueError, "not a legal move"),
        ((w, legal), {"max_nodes": 0}, ValueError, "max_nodes"),
        ((w, legal), {"max_nodes": 1.5}, TypeError, "max_nodes"),
        ((w, legal), {"max_time": -1.0}, ValueError, "max_time"),
        ((w, legal), {"max_time": "1"}, TypeError, "max_time"),
        ((w, legal), {"table_mb": -1}, ValueError, "table_mb"),
        ((w, legal), {"table_mb": "4"}, TypeError, "table_mb"),
    ]
    for args, kwargs, exc, match in cases:
        with pytest.raises(exc, match=match):
            g.solve_values(*args, **kwargs)
    with pytest.raises(ValueError, match="play phase"):
        Game(seed=1).solve_values(Game(seed=1).sample_worlds(0, 1), [])
    with pytest.raises(TypeError, match="Game"):
        ddz_fast.solver.solve_values("not a game", w, legal)  # type: ignore[arg-type]


def test_winning_line_takes_turns_as_the_game_does() -> None:
    """A three-seat line: every (seat, move) is the seat to move of a game
    that plays the line's moves, and the line ends with the deal."""
    for g in _late_games(10, 12):
        pos = position_from_game(g)
        line = winning_line(**pos)
        replay = g.clone()
        for seat, move in line:
            assert replay.to_move == seat
            replay.step(move)
        assert replay.is_over


def test_winning_line_plays_to_a_win() -> None:
    hands = [wz_hand("KK5543"), wz_hand("225543")]
    line = winning_line(hands)
    left = [ddz_fast.to_counts(h).astype(int) for h in hands]
    for seat, move in line:
        left[seat] -= np.array(move.counts)
    assert line[-1][0] == 0 and left[0].sum() == 0 and left[1].sum() > 0


# ---------------------------------------------------------------------------
# Options, limits, threads
# ---------------------------------------------------------------------------

def test_banned_kinds_change_the_answer() -> None:
    """333+44 wins at once as a trio with a pair; banned, the pair and trio
    must go separately and the opponent's single 2 ... is still beaten by
    nothing, so compare with the oracle on both."""
    hands = ["33344", "2"]
    assert solve(hands).win is True
    banned = solve(hands, ban=["TRIO_PAIR"])
    assert banned.move is not None and banned.move.kind != Kind.TRIO_PAIR
    assert banned.win is oracle.wins(hands, ban=[Kind.TRIO_PAIR])


def test_node_limit_gives_unknown() -> None:
    r = solve([wz_hand("B2AK998553"), wz_hand("RQQJJT953")], max_nodes=1000)
    assert r.win is None and r.status == "unknown" and r.limit == "nodes" and r.move is None


def test_time_limit_gives_unknown() -> None:
    deal = Game(seed=1).hands                # three full hands: far beyond max_time
    r = solve(list(deal), landlord=0, max_time=0.05)
    assert r.status == "unknown" and r.limit == "time"


def test_solver_reuses_its_table_and_refuses_concurrent_use() -> None:
    s = Solver(table_mb=64)
    hands = [wz_hand("2AKT96554"), wz_hand("BKJT8854")]
    first = s.solve(hands)
    again = s.solve(hands)
    assert first.win is again.win is True
    assert again.nodes < first.nodes        # the root's children are in the table

    errors: List[BaseException] = []
    started = threading.Event()

    deal = Game(seed=1).hands                # three full hands: far beyond max_time

    def long_solve() -> None:
        started.set()
        s.solve(list(deal), landlord=0, max_time=1.5)

    t = threading.Thread(target=long_solve)
    t.start()
    started.wait()
    while t.is_alive() and not errors:       # until the other call is seen in progress
        try:
            s.solve(hands)
        except RuntimeError as e:
            errors.append(e)
    t.join()
    assert errors and "another thread" in str(errors[0])


def test_threads_solve_in_parallel_with_the_same_answers() -> None:
    hands = [wz_hand("2AKT96554"), wz_hand("BKJT8854")]
    results: List[Optional[bool]] = []

    def run() -> None:
        results.append(solve(hands).win)

    ts = [threading.Thread(target=run) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == [True] * 4


def test_threads_of_a_reused_solver_find_the_winning_moves_of_one_thread() -> None:
    """A Solver kept between calls (its move-ordering statistics differ from
    the fresh helper threads') gives every thread the same root order: the
    winning moves found on 2 and 3 threads are those found on one."""
    rng = random.Random("threads-reused")
    s = Solver()
    for _ in range(30):
        pos = random_position(rng, "standard", 2, 7)
        want = solve(**pos, all_moves=True)
        for threads in (2, 3):
            got = s.solve(**pos, all_moves=True, threads=threads)
            assert got.win is want.win, pos
            assert set(got.winning_moves or ()) == set(want.winning_moves or ()), pos
            one = s.solve(**pos, threads=threads)
            assert one.win is want.win and (not one.win or one.move in (want.winning_moves or ())), pos


def test_a_shared_root_order_of_another_position_is_refused() -> None:
    """The threads of one solve share the root's move order; an engine given
    the order of another position refuses it instead of searching wrong moves."""
    from ddz_fast._search.solver import _Engine, _RootShare

    hands = bytes(ddz_fast.to_counts("345")) + bytes(ddz_fast.to_counts("6"))
    other = bytes(ddz_fast.to_counts("3456789")) + bytes(ddz_fast.to_counts("6"))
    share = _RootShare()
    e = _Engine(1 << 16)
    first = e.run(hands, (0, 1), "standard", 0, 0, None, -1, False, 0, 0.0, share)
    assert first[1] == [-1] * len(first[2])          # (the first run only sets the order)
    with pytest.raises(ValueError, match="shared root order"):
        _Engine(1 << 16).run(other, (0, 1), "standard", 0, 0, None, -1, False, 0, 0.0, share)
    aborted, results, moves, _ = _Engine(1 << 16).run(hands, (0, 1), "standard", 0, 0, None, -1,
                                                     False, 0, 0.0, share, True)
    assert moves == first[2] and 1 not in results        # 6 beats every single: no winning lead


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(hands=["3", "4", "5"]), ValueError, "needs 2 hands"),
    (dict(hands=["3", "4"], landlord=0), ValueError, "needs 3 hands"),
    (dict(hands="34"), TypeError, "sequence of hands"),
    (dict(hands=["3", ""]), ValueError, "no cards"),
    (dict(hands=["3", "33333"]), ValueError, "at most 4"),
    (dict(hands=["3333", "3"]), ValueError, "together"),
    (dict(hands=["3", "4"], to_move=2), ValueError, "to_move"),
    (dict(hands=["3", "4"], to_move="0"), TypeError, "to_move"),
    (dict(hands=["3", "4"], landlord=5), ValueError, "needs 3 hands"),
    (dict(hands=["3", "4", "5"], landlord=3), ValueError, "landlord"),
    (dict(hands=["3", "4"], last="5"), TypeError, "last"),
    (dict(hands=["3", "4"], last_by=1), ValueError, "last_by"),
    (dict(hands=["3", "4"], last=parse_move("5"), last_by=0), ValueError, "last_by"),
    (dict(hands=["3", "4"], ban=["PASS"]), ValueError, "PASS"),
    (dict(hands=["3", "4"], ban=["SOLO"]), ValueError, "SOLO"),
    (dict(hands=["3", "4"], ban=["NOPE"]), ValueError, "unknown move kind"),
    (dict(hands=["3", "4"], ban=[1.5]), TypeError, "kind"),
    (dict(hands=["3", "4"], max_nodes=0), ValueError, "max_nodes"),
    (dict(hands=["3", "4"], max_nodes=1.5), TypeError, "max_nodes"),
    (dict(hands=["3", "4"], max_time=-1), ValueError, "max_time"),
    (dict(hands=["3", "4"], table_mb=-1), ValueError, "table_mb"),
    (dict(hands=["3", "4"], table_mb="big"), TypeError, "table_mb"),
    (dict(hands=["3", "4"], threads=0), ValueError, "threads"),
    (dict(hands=["3", "4"], all_moves=1), TypeError, "all_moves"),
    (dict(hands=["3", "4"], rules="nope"), ValueError, "preset"),
])
def test_bad_arguments_are_named(kwargs: Dict[str, Any], exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        solve(**kwargs)


def test_a_solver_made_without_init_is_refused_by_name() -> None:
    bare = Solver.__new__(Solver)
    with pytest.raises(TypeError, match="never initialised"):
        bare.solve(["3", "4"])
    broken = Solver(0)
    object.__setattr__(broken, "_engine", "not an engine")
    with pytest.raises(TypeError, match="never initialised"):
        broken.solve(["3", "4"])


def test_a_move_to_beat_of_the_wrong_rules_is_refused() -> None:
    # a trio with a single is no move in the four-player rules
    with pytest.raises(ValueError, match="not a legal move"):
        solve(["3", "4"], last=parse_move("3334"), rules="four")


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def test_cli_solve_prints_the_result_and_a_winning_line(capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_fast.cli import main

    assert main(["solve", "KK5543", "225543"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hand 1 to move: hand 1 wins with best play")
    assert "a winning line:" in out and " 1. hand 1: " in out
    assert main(["solve", "2KKTT77554", "AA8"]) == 0
    assert "hand 1 loses" in capsys.readouterr().out
    assert main(["solve", "33", "44", "5", "--landlord", "3", "--first", "1"]) == 0
    assert "hand 1 to move: the farmers" in capsys.readouterr().out
    assert main(["solve", "33344", "2", "--ban", "TRIO_PAIR", "--first", "2"]) == 0
    assert "hand 2 to move" in capsys.readouterr().out


@pytest.mark.parametrize("argv,match", [
    (["solve", "3Q", "4"], ""),                       # (a valid hand: checked below it runs)
    (["solve", "3W", "4"], "unknown card token"),
    (["solve", "3", "4", "--first", "3"], "--first"),
    (["solve", "3", "4", "--ban", "PASS"], "PASS"),
    (["solve", "3", "4", "5", "--landlord", "4"], "--landlord"),
    (["solve", "3", "4", "--last-by", "1"], "--last-by needs --last"),
])
def test_cli_solve_bad_input(argv: List[str], match: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_fast.cli import main

    rc = main(argv)
    err = capsys.readouterr().err
    if not match:
        assert rc == 0
    else:
        assert rc == 2 and match in err and err.startswith("ddz-fast: error:")


def test_the_engine_refuses_unchecked_input_from_direct_callers() -> None:
    """The internal engine keeps the kernels' invariants on its own."""
    from ddz_fast._search.solver import _Engine

    e = _Engine(1 << 16)
    ok = bytes(ddz_fast.to_counts("3")) + bytes(ddz_fast.to_counts("4"))
    assert e.run(ok, (0, 1), "standard", 0, 0, None, -1, False, 0, 0.0)[1] == [1]
    bad = bytes([9] + [0] * 14) + bytes(ddz_fast.to_counts("4"))
    with pytest.raises(ValueError, match="more cards"):
        e.run(bad, (0, 1), "standard", 0, 0, None, -1, False, 0, 0.0)
    with pytest.raises(ValueError, match="out of range"):
        e.run(ok, (0, 1), "standard", 0, 5, None, -1, False, 0, 0.0)
    with pytest.raises(ValueError, match="sides"):
        e.run(ok, (0, 7), "standard", 0, 0, None, -1, False, 0, 0.0)
    with pytest.raises(ValueError, match="not a legal move"):
        e.run(ok, (0, 1), "standard", 0, 0, bytes([1, 1] + [0] * 13 + [1]), 1, False, 0, 0.0)
    with pytest.raises(ValueError, match="16 bytes"):
        e.run(ok, (0, 1), "standard", 0, 0, b"\x01", 1, False, 0, 0.0)
    with pytest.raises(ValueError, match="last_by"):
        e.run(ok, (0, 1), "standard", 0, 0, bytes([1] + [0] * 14 + [1]), -1, False, 0, 0.0)
    with pytest.raises(ValueError, match="empty _Position"):
        e.run_position(_solver._Position(), 0, False, 0, 0.0)
