"""Game-side sizes are bounded before anything is allocated or read: an
endless iterable of hands, a huge number of worlds, tables or nodes gets a
ValueError (or is clamped where a larger bound can never matter), never a
memory blow-up."""
import itertools

import numpy as np
import pytest

import ddz_fast as d
import ddz_fast.arena  # noqa: F401  (d.arena)
import ddz_fast.solver  # noqa: F401  (d.solver)
from ddz_fast import Game, PIMCAgent, VecGame, solve
from ddz_fast._engine.playout import MAX_GAMES
from ddz_fast._engine.worlds import MAX_WORLDS
from ddz_fast.solver import MAX_NODES


@pytest.mark.parametrize("landlord", [None, 0])
def test_solve_reads_at_most_one_hand_more_than_the_seats(landlord):
    with pytest.raises(ValueError, match="hands"):
        solve(itertools.repeat("3"), landlord=landlord)
    with pytest.raises(ValueError, match="hands"):
        d.solver.winning_line(itertools.repeat("3"), landlord=landlord)


def test_world_sampling_is_bounded():
    g = Game(seed=2)
    for f in (lambda n: g.sample_worlds(0, n), lambda n: d.sample_observed_worlds(g.observation(0), n)):
        with pytest.raises(ValueError, match="n"):
            f(MAX_WORLDS + 1)
        with pytest.raises(ValueError, match="n"):
            f(2**40)
        assert f(np.uint64(3)).shape == (3, 3, 15)


def test_pimc_worlds_are_bounded():
    with pytest.raises(ValueError, match="worlds"):
        PIMCAgent(worlds=2**40)


@pytest.mark.parametrize("nodes", [2**62, 2**63, 10**30, np.uint64(2**64 - 1)])
def test_huge_node_limits_mean_no_limit(nodes):
    r = solve(["KK5543", "225543"], max_nodes=nodes)
    assert r.win is True
    agent = PIMCAgent(worlds=2, solver_nodes=nodes)
    assert agent.solver_nodes == min(int(nodes), MAX_NODES)


def test_vecgame_tables_are_bounded():
    with pytest.raises(ValueError, match="n"):
        VecGame(2**40)


def test_move_values_reads_a_bounded_number_of_moves():
    g = Game.from_position(["3345", "66", "77"], 0)
    worlds = g.sample_worlds(0, 1)
    with pytest.raises(ValueError, match="moves"):
        g.move_values(worlds, itertools.repeat(g.legal_actions()[0]))
    assert g.move_values(worlds, iter(g.legal_actions())).shape == (1, len(g.legal_actions()))


def test_games_per_call_are_bounded_before_any_allocation():
    """play_random_games, rollout and move_values refuse more than MAX_GAMES
    games in one call; the totals are products (n times the worlds, worlds
    times moves times rollouts) that must not wrap in a C size."""
    with pytest.raises(ValueError, match="n_games"):
        d.play_random_games(MAX_GAMES + 1)
    g = Game.from_position(["3345", "66", "77"], 0)
    with pytest.raises(ValueError, match="n"):
        g.rollout(MAX_GAMES + 1)
    worlds = g.sample_worlds(0, 2)
    with pytest.raises(ValueError, match="MAX_GAMES"):
        g.rollout(MAX_GAMES // 2 + 1, worlds=worlds)
    assert len(g.rollout(3, worlds=worlds).winner) == 6
    many = g.sample_worlds(0, 4096)
    moves = g.legal_actions()
    assert 4096 * len(moves) * 2**20 > MAX_GAMES
    with pytest.raises(ValueError, match="MAX_GAMES"):
        g.move_values(many, moves, rollouts=2**20, policy="random")
