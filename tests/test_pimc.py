"""The PIMC agent: reproducible, legal, blind to the hidden cards beyond
what its observation says, exact where the solver values a world (checked
against the brute-force oracle), usable everywhere an agent is, and strict
about its parameters."""
from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import Game, Move, PIMCAgent, Phase, Session
from ddz_fast import solver_reference as oracle
from ddz_fast.game import simple_bot
from optional import require

RANKS = "3456789TJQKA2BR"


def _to_play(seed: int, rules: Any = "standard") -> Game:
    g = Game(rules, seed=seed)
    while g.phase is not Phase.PLAY:
        g.step(simple_bot(g.observation(g.to_move), rules))
    return g


def _text(counts: Any) -> str:
    return "".join(RANKS[r] * int(c) for r, c in enumerate(counts))


# ---------------------------------------------------------------------------
# Reproducible and legal
# ---------------------------------------------------------------------------

def _session_actions(agent_seed: int, deals: int = 3) -> List[Tuple[int, object]]:
    agents = [PIMCAgent(24, seed=agent_seed), simple_bot, PIMCAgent(24, seed=agent_seed + 1)]
    log: List[Tuple[int, object]] = []
    Session(seed=11).play(agents, deals, on_step=lambda g, s, a: log.append((s, a)))
    return log


def test_the_same_seed_plays_the_same_deals_the_same_way() -> None:
    a = _session_actions(5)
    assert a == _session_actions(5)
    agent = PIMCAgent(32, seed=1)
    g = _to_play(3)
    o = g.observation(g.to_move)
    e1, e2 = agent.evaluate(o), PIMCAgent(32, seed=1).evaluate(o)
    assert np.array_equal(e1.worlds, e2.worlds) and np.array_equal(e1.values, e2.values)
    other = PIMCAgent(32, seed=2).evaluate(o)
    assert not np.array_equal(e1.worlds, other.worlds)           # the seed draws the worlds


@pytest.mark.parametrize("rules", ["standard", "four", ddz.PRESETS["standard"].replace(auction="rob")],
                         ids=["standard", "four", "rob"])
def test_every_action_is_legal(rules: Any) -> None:
    r = ddz.resolve_rules(rules)
    agent = PIMCAgent(12, seed=3, rules=r, solver_cards=10, threads=2)
    for seed in range(3):
        g = Game(r, seed=seed)
        while not g.is_over:
            o = g.observation(g.to_move)
            a = agent(o)
            assert a in list(o.legal_actions)
            g.step(a)
        assert g.result is not None


def test_given_legal_actions_are_chosen_from_and_checked() -> None:
    g = _to_play(8)
    o = g.observation(g.to_move)
    some = list(o.legal_actions)[1:4]
    agent = PIMCAgent(16, seed=0)
    assert agent(o, some) in some
    assert agent.evaluate(o, some).moves == tuple(some)
    assert agent.act(g) == agent(o)
    not_held = ddz.parse_move(next(RANKS[r] for r in range(15) if o.hand[r] == 0))
    with pytest.raises(ValueError, match="not a legal move"):
        agent(o, [not_held, some[0]])
    with pytest.raises(TypeError):
        agent(o, "33")
    with pytest.raises(ValueError):
        agent(o, [])


# ---------------------------------------------------------------------------
# Information sets
# ---------------------------------------------------------------------------

def _permuted_twin(seed: int, plies: int, rng: random.Random) -> Tuple[Game, Game, int]:
    """Two games with the same public history, and the same observation for
    the seat to move after ``plies`` plays, but the opponents' hidden cards
    dealt differently: every card an opponent plays in those plies, and the
    shown kitty cards the landlord still holds, stay where they were; the
    rest of the opponents' cards are shuffled among them."""
    g = _to_play(seed)
    start = g.hands.copy()
    ll = g.landlord
    actions = []
    for _ in range(plies):
        if g.is_over:
            break
        a = simple_bot(g.observation(g.to_move))
        actions.append(a)
        g.step(a)
    assert g.to_move is not None
    p = g.to_move
    played = g.played_cards.astype(int)
    hidden = [t for t in range(3) if t != p]
    fixed = {t: played[t].copy() for t in hidden}
    if ll != p:
        fixed[ll] += g.observation(p).landlord_holds
    free: List[int] = []
    for t in hidden:
        free += [r for r in range(15) for _ in range(int(start[t][r]) - int(fixed[t][r]))]
    rng.shuffle(free)
    twin = start.astype(int).copy()
    i = 0
    for t in hidden:
        k = int(start[t].sum() - fixed[t].sum())
        twin[t] = fixed[t] + np.bincount(free[i:i + k], minlength=15)
        i += k
    kitty = g.kitty
    games = []
    for hands in (start, twin.astype(np.uint8)):
        h = Game.from_position(hands, ll, kitty=kitty)
        for a in actions:
            h.step(a)
        games.append(h)
    return games[0], games[1], p


def _public(o: Any) -> Tuple[Any, ...]:
    return (o.player, o.hand.tobytes(), o.hand_sizes, o.landlord, o.history, o.last_move, o.last_player,
            o.unseen.tobytes(), o.landlord_holds.tobytes(), o.played_cards.tobytes(), o.base, o.bombs)


def test_choices_do_not_change_when_hidden_cards_are_permuted_consistently() -> None:
    rng = random.Random(2024)
    agent = PIMCAgent(32, seed=9, solver_cards=14)
    peeking_differs = differ = 0
    for case in range(24):
        a, b, p = _permuted_twin(100 + case, rng.randrange(0, 30), rng)
        oa, ob = a.observation(p), b.observation(p)
        assert _public(oa) == _public(ob)                    # the same information set
        if np.array_equal(a.hands, b.hands):
            continue
        differ += 1
        assert agent(oa) == agent(ob)
        assert np.array_equal(agent.evaluate(oa).values, agent.evaluate(ob).values)
        # A control with the power to fail: an agent that peeks at the true
        # hands (one world: the real one) does change its mind on some twins.
        legal = a.legal_actions()
        peek_a = int(np.argmax(a.move_values(a.hands[None], legal)[0]))
        peek_b = int(np.argmax(b.move_values(b.hands[None], legal)[0]))
        peeking_differs += peek_a != peek_b
    assert differ >= 20 and peeking_differs >= 1


# ---------------------------------------------------------------------------
# The solver path
# ---------------------------------------------------------------------------

def _small_position(rng: random.Random) -> Tuple[Game, int]:
    """A random endgame of the three-player game with at most 9 cards in
    the hands, the seat to move possibly answering a move."""
    while True:
        deck = [r for r in range(13) for _ in range(4)] + [13, 14]
        rng.shuffle(deck)
        sizes = [rng.randint(1, 3) for _ in range(3)]
        hands = []
        i = 0
        for s in sizes:
            hands.append(np.bincount(deck[i:i + s], minlength=15).astype(np.uint8))
            i += s
        ll = rng.randrange(3)
        to_move = rng.randrange(3)
        g = Game.from_position(hands, ll, to_move=to_move)
        if rng.random() < 0.5:
            # a move to answer, made of cards out of every hand
            opts = [m for m in ddz.legal_moves(_text(np.bincount(deck[i:i + 3], minlength=15)))
                    if not m.is_pass]
            try:
                g = Game.from_position(hands, ll, to_move=to_move, last=rng.choice(opts),
                                       last_player=(to_move - 1) % 3)
            except ValueError:
                continue                 # the mover's neighbour would hold more than dealt
        return g, to_move


def test_solved_worlds_are_valued_as_the_oracle_values_them() -> None:
    rng = random.Random(7)
    agent = PIMCAgent(6, seed=1, solver_cards=20, solver_nodes=None)
    checked = 0
    for _ in range(40):
        g, p = _small_position(rng)
        o = g.observation(p)
        if len(o.legal_actions) < 2:
            continue
        ev = agent.evaluate(o)
        assert ev.solved.all()
        last = g.last_move
        for w, world in enumerate(ev.worlds):
            wins = oracle.winning_moves([_text(h) for h in world], to_move=p, landlord=g.landlord, last=last,
                                        last_by=g.last_player if last is not None else None)
            want = [1.0 if m in wins else 0.0 for m in ev.moves]
            assert ev.values[w].tolist() == want
            checked += 1
        # a move that wins in every sampled world is played when there is one
        everywhere = ev.values.min(axis=0) == 1
        if everywhere.any():
            assert everywhere[ev.choice]
    assert checked >= 100


def test_with_one_possible_world_the_agent_plays_a_winning_move_when_there_is_one() -> None:
    # The opponents' unseen cards are all of one rank, so every world is the
    # real deal: the agent must find a win whenever the oracle says one exists.
    rng = random.Random(3)
    found = 0
    for _ in range(60):
        r = rng.randrange(13)
        a, b = rng.randint(1, 2), rng.randint(1, 2)
        mine = [x for x in range(13) if x != r for _ in range(4)]
        rng.shuffle(mine)
        hand = np.bincount(mine[:rng.randint(2, 6)], minlength=15).astype(np.uint8)
        ll = rng.randrange(3)
        hands = [hand, np.bincount([r] * a, minlength=15).astype(np.uint8),
                 np.bincount([r] * b, minlength=15).astype(np.uint8)]
        g = Game.from_position(hands, ll, to_move=0)
        o = g.observation(0)
        agent = PIMCAgent(4, seed=rng.randrange(1000), solver_cards=20, solver_nodes=None)
        wins = oracle.winning_moves([_text(h) for h in hands], to_move=0, landlord=ll)
        if wins:
            found += 1
            assert agent(o) in wins
    assert found >= 20


def test_a_search_stopped_by_its_limit_leaves_the_world_to_the_playouts() -> None:
    g = _to_play(4)
    while sum(g.hand_sizes) > 24 and not g.is_over:
        g.step(simple_bot(g.observation(g.to_move)))
    o = g.observation(g.to_move)
    limited = PIMCAgent(8, seed=2, solver_cards=54, solver_nodes=1).evaluate(o)
    # One node decides only the worlds the solver's exact cuts settle at the
    # root; every other world is valued by the same playouts as without the solver.
    left = ~limited.solved
    assert left.sum() >= 4
    playouts = PIMCAgent(8, seed=2, solver_cards=0).evaluate(o)
    assert np.array_equal(limited.values[left], playouts.values[left])
    timed = PIMCAgent(8, seed=2, solver_cards=54, solver_nodes=None, solver_time=1e-9).evaluate(o)
    assert timed.values.shape == limited.values.shape


# ---------------------------------------------------------------------------
# Everywhere an agent is used
# ---------------------------------------------------------------------------

def test_auction_decisions_are_the_simple_bots() -> None:
    g = Game(seed=12)
    agent = PIMCAgent(8)
    while g.phase is not Phase.PLAY:
        o = g.observation(g.to_move)
        assert agent(o) == simple_bot(o)
        g.step(agent(o))


def test_usable_as_an_environment_opponent_and_through_action_ids() -> None:
    require("gymnasium")
    require("pettingzoo")
    from ddz_fast.envs import aec, single

    env = single.DouDizhuSingleAgentEnv(seat=0, opponent=PIMCAgent(8, seed=1), seed=3)
    obs, _ = env.reset(seed=3)
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(env.action_space.sample(obs["action_mask"]))
    e = aec.raw_env()
    e.reset(seed=4)
    agent = PIMCAgent(8, seed=2)
    table = e.table
    for _name in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = table.game.to_move
        e.step(table.actions.action_id(agent(table.game.observation(seat))))
    assert table.game.is_over


# ---------------------------------------------------------------------------
# Bad parameters
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(worlds=0), ValueError, "worlds"),
    (dict(worlds=2.0), TypeError, "worlds"),
    (dict(worlds=True), TypeError, "worlds"),
    (dict(rollouts=0), ValueError, "rollouts"),
    (dict(policy="greedy"), ValueError, "policy"),
    (dict(policy=None), TypeError, "policy"),
    (dict(solver_cards=-1), ValueError, "solver_cards"),
    (dict(solver_cards="12"), TypeError, "solver_cards"),
    (dict(solver_nodes=0), ValueError, "solver_nodes"),
    (dict(solver_nodes=1.5), TypeError, "solver_nodes"),
    (dict(solver_time=-1.0), ValueError, "solver_time"),
    (dict(solver_time=float("nan")), ValueError, "solver_time"),
    (dict(solver_time="1"), TypeError, "solver_time"),
    (dict(solver_table_mb=-1), ValueError, "table_mb"),
    (dict(aggregate="max"), ValueError, "aggregate"),
    (dict(seed=1.0), TypeError, "seed"),
    (dict(threads=0), ValueError, "threads"),
    (dict(rules="nope"), ValueError, "preset"),
    (dict(candidates=1), ValueError, "candidates"),
    (dict(candidates=0), ValueError, "candidates"),
    (dict(candidates=2**40), ValueError, "candidates"),
    (dict(candidates=1.5), TypeError, "candidates"),
    (dict(candidates=True), TypeError, "candidates"),
    (dict(candidates="all"), ValueError, "candidates"),
    (dict(time_budget=0), ValueError, "time_budget"),
    (dict(time_budget=-1.0), ValueError, "time_budget"),
    (dict(time_budget=float("nan")), ValueError, "time_budget"),
    (dict(time_budget="1"), TypeError, "time_budget"),
])
def test_bad_parameters_are_named(kwargs: Dict[str, Any], exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        PIMCAgent(**kwargs)


def test_bad_calls_are_refused_by_name() -> None:
    g = _to_play(2)
    o = g.observation(g.to_move)
    bare = PIMCAgent.__new__(PIMCAgent)
    with pytest.raises(TypeError, match="never initialised"):
        bare(o)
    with pytest.raises(TypeError, match="never initialised"):
        bare.evaluate(o)
    agent = PIMCAgent(4)
    with pytest.raises(TypeError, match="Observation"):
        agent(g)
    with pytest.raises(ValueError, match="not this player's turn"):
        agent(g.observation((g.to_move + 1) % 3))
    with pytest.raises(ValueError, match="4 players"):
        PIMCAgent(4, rules="four")(o)
    with pytest.raises(TypeError):
        agent.act(o)
    with pytest.raises(ValueError, match="play-phase"):
        agent.evaluate(Game(seed=1).observation(Game(seed=1).to_move))
    with pytest.raises(AttributeError):
        agent.worlds = 5                                      # parameters are read-only
    assert agent.worlds == 4 and "worlds=4" in repr(agent)


def test_the_aggregates_differ_only_in_how_worlds_are_combined() -> None:
    g = _to_play(6)
    o = g.observation(g.to_move)
    mean = PIMCAgent(40, seed=4).evaluate(o)
    vote = PIMCAgent(40, seed=4, aggregate="vote").evaluate(o)
    assert np.array_equal(mean.values, vote.values)
    assert mean.choice == int(np.argmax(mean.values.mean(axis=0)))
    votes = np.bincount(np.argmax(vote.values, axis=1), minlength=len(vote.moves))
    assert votes[vote.choice] == votes.max()
    assert isinstance(vote.move, Move)


def test_a_decision_does_not_depend_on_the_decisions_before_it() -> None:
    """The solver's table starts empty at every decision: a table warmed by
    earlier decisions would let a node-limited search finish that a cold
    one does not."""
    g = _to_play(6)
    positions = []
    while not g.is_over:
        if sum(g.hand_sizes) <= 30 and len(g.legal_actions()) > 1:
            positions.append(g.observation(g.to_move))
        g.step(simple_bot(g.observation(g.to_move)))
    assert len(positions) >= 3
    target = positions[-1]

    def agent() -> PIMCAgent:
        return PIMCAgent(16, seed=4, solver_cards=54, solver_nodes=3000)

    cold = agent().evaluate(target)
    warm_agent = agent()
    for o in positions[:-1]:
        warm_agent.evaluate(o)
    warm = warm_agent.evaluate(target)
    assert np.array_equal(cold.solved, warm.solved)
    assert np.array_equal(cold.values, warm.values)
    assert cold.choice == warm.choice


# ---------------------------------------------------------------------------
# The candidate limit and the time budget
# ---------------------------------------------------------------------------

def _decisions(rules: str, seeds: range, min_moves: int, response: bool = False) -> List[Any]:
    """Play-phase observations with at least ``min_moves`` legal moves (with
    ``response``, answers to a move: PASS legal) in deals the simple bot plays."""
    found = []
    for seed in seeds:
        g = Game(rules, seed=seed)
        while not g.is_over:
            o = g.observation(g.to_move)
            if (g.phase is Phase.PLAY and len(o.legal_actions) >= min_moves
                    and (not response or any(m.is_pass for m in o.legal_actions))):
                found.append(o)
            g.step(simple_bot(o, rules))
    return found


def test_by_default_standard_decisions_value_every_move() -> None:
    """``candidates="auto"`` limits only wild-card games: on the standard
    game, decisions with more legal moves than the wild limit are valued
    move for move exactly as with no limit."""
    assert PIMCAgent().candidate_limit is None
    assert PIMCAgent(rules="laizi").candidate_limit == ddz.pimc.WILD_CANDIDATES
    big = _decisions("standard", range(6), 40)
    assert len(big) >= 3
    for o in big[:3]:
        auto, every = PIMCAgent(8, seed=3).evaluate(o), PIMCAgent(8, seed=3, candidates=None).evaluate(o)
        assert auto.moves == every.moves == tuple(o.legal_actions)
        assert np.array_equal(auto.values, every.values) and auto.choice == every.choice
        assert len(PIMCAgent(8, seed=3, candidates=20).evaluate(o).moves) == 20   # (a limit would cut)
    # and whole deals are played the same way
    log_auto: List[Any] = []
    log_every: List[Any] = []
    Session(seed=4).play([PIMCAgent(8, seed=2), simple_bot, simple_bot], 2,
                         on_step=lambda g, s, a: log_auto.append((s, a)))
    Session(seed=4).play([PIMCAgent(8, seed=2, candidates=None), simple_bot, simple_bot], 2,
                         on_step=lambda g, s, a: log_every.append((s, a)))
    assert log_auto == log_every


@pytest.mark.parametrize("rules", ["laizi", "tiandi", "standard"])
def test_the_candidate_limit_is_honoured_and_keeps_the_bots_move_and_pass(rules: str) -> None:
    from ddz_fast.actions import action_space
    from ddz_fast.pimc import candidate_moves

    limit = 6
    decisions = _decisions(rules, range(6), 40) + _decisions(rules, range(6), limit + 2, response=True)
    assert any(m.is_pass for o in decisions for m in o.legal_actions)
    for o in decisions:
        legal = list(o.legal_actions)
        keep = candidate_moves(o, o.legal_actions, limit, rules)
        assert list(keep) == sorted(set(keep.tolist()))
        # (fewer when the moves hold fewer readings than the limit)
        readings = len({(m.kind, m.represents) for m in legal})
        assert len(keep) == limit if readings >= limit else readings <= len(keep) <= limit
        assert np.array_equal(keep, candidate_moves(o, legal, limit, rules))   # MoveList or list
        kept = [legal[i] for i in keep]
        assert simple_bot(o, rules) in kept
        assert any(m.is_pass for m in kept) == any(m.is_pass for m in legal)
        if rules != "standard":
            # one choice of cards per reading (the bot's own aside): the fewest wild cards
            pairs = action_space(rules).ids(o.legal_actions, wild=o.wild)
            bot = legal.index(simple_bot(o, rules))
            for i in keep:
                if i != bot:
                    same = pairs[:, 0] == pairs[i, 0]
                    assert pairs[i, 1] == pairs[same, 1].min()
        ev = PIMCAgent(3, seed=1, rules=rules, candidates=limit).evaluate(o)
        assert ev.moves == tuple(kept) and ev.values.shape == (3, len(kept))
        assert ev.move in legal


def test_the_pre_ranking_prefers_moves_that_leave_fewer_plays() -> None:
    """Beyond the bot's move, the kept moves leave the hand needing the
    fewest plays (ranks still held): a long airplane before a single card."""
    from ddz_fast.pimc import candidate_moves

    g = Game.from_position(["3334445557", "66", "88"], landlord=0)
    o = g.observation(0)
    legal = list(o.legal_actions)
    kept = [legal[i].cards for i in candidate_moves(o, legal, 3)]
    assert kept == ["33344", "333444555", "33344457"]         # the bot's, then two leaving one rank
    assert simple_bot(o).cards == "33344"
    assert len(legal) == 33 and candidate_moves(o, legal, None).tolist() == list(range(33))


def test_wild_leads_of_many_thousand_moves_value_only_the_candidates() -> None:
    """A tiandi lead of thousands of moves is valued as ``WILD_CANDIDATES``
    moves in every world (the number of evaluations, not a time)."""
    o = _decisions("tiandi", range(4, 5), 5000)[0]
    assert len(o.legal_actions) > 20000
    agent = PIMCAgent(4, seed=1, rules="tiandi")
    ev = agent.evaluate(o)
    assert ev.values.shape == (4, ddz.pimc.WILD_CANDIDATES) and len(ev.moves) == ddz.pimc.WILD_CANDIDATES
    assert simple_bot(o, "tiandi") in ev.moves and agent(o) == ev.move
    again = PIMCAgent(4, seed=1, rules="tiandi").evaluate(o)
    assert again.moves == ev.moves and np.array_equal(again.values, ev.values)


def test_a_time_budget_values_at_least_one_world_and_otherwise_changes_nothing() -> None:
    g = _to_play(5)
    o = g.observation(g.to_move)
    full = PIMCAgent(8, seed=2).evaluate(o)
    spent = PIMCAgent(8, seed=2, time_budget=1e-9).evaluate(o)     # spent by the first world
    assert spent.values.shape == (1, len(full.moves)) and np.array_equal(spent.worlds, full.worlds[:1])
    assert np.array_equal(spent.values, full.values[:1])           # (bot playouts: deterministic)
    ample = PIMCAgent(8, seed=2, time_budget=1e9).evaluate(o)
    assert np.array_equal(ample.values, full.values) and ample.choice == full.choice


def test_the_new_options_survive_pickling_and_show_in_the_repr() -> None:
    import pickle

    agent = PIMCAgent(8, seed=3, rules="laizi", candidates=100, time_budget=0.5)
    back = pickle.loads(pickle.dumps(agent))
    assert (back.candidates, back.candidate_limit, back.time_budget) == (100, 100, 0.5)
    assert repr(back) == repr(agent) and "candidates=100" in repr(agent) and "time_budget=0.5" in repr(agent)
    auto = pickle.loads(pickle.dumps(PIMCAgent(rules="tiandi")))
    assert auto.candidates == "auto" and auto.candidate_limit == ddz.pimc.WILD_CANDIDATES


def test_the_examples_in_the_module_run() -> None:
    import doctest

    from ddz_fast import pimc

    result = doctest.testmod(pimc)
    assert result.attempted >= 3 and result.failed == 0
