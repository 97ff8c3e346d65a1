"""Compiled random playouts (play_random_games): exact invariants over many
games, determinism by seed, thread-count independence."""
import numpy as np
import pytest

import ddz_fast as d
from ddz_fast import Game, Rules, game_seed, play_random_games

ROB_STD = Rules(auction="rob")
ROB_FOUR = d.PRESETS["four"].replace(auction="rob")
VARIANTS = ["standard", "strict", "four", ROB_STD, ROB_FOUR]
N = 20_000


@pytest.fixture(scope="module", params=VARIANTS, ids=["standard", "strict", "four", "standard-rob", "four-rob"])
def run(request):
    rules = d.resolve_rules(request.param)
    return rules, play_random_games(N, rules=rules, seed=20240601)


def test_shapes_and_dtypes(run):
    rules, res = run
    n, p = N, rules.players
    assert len(res) == n
    expect = {
        "landlord": (np.int8, (n,)), "landlord_won": (np.bool_, (n,)),
        "scores": (np.int64, (n, p)), "plies": (np.int32, (n,)), "bombs": (np.int32, (n,)),
        "spring": (np.int8, (n,)), "base": (np.int32, (n,)), "redeals": (np.int32, (n,)),
        "doubles": (np.int32, (n,)), "value": (np.int64, (n,)), "game_seeds": (np.uint64, (n,)),
        "cards_left": (np.int16, (n, p)), "cards_played": (np.int16, (n,)),
    }
    got = res.as_dict()
    assert set(got) == set(expect)
    for name, (dtype, shape) in expect.items():
        assert got[name].dtype == dtype and got[name].shape == shape, name


def test_card_conservation(run):
    rules, res = run
    assert np.all(res.cards_left.sum(axis=1) + res.cards_played == rules.deck_size)
    zero = res.cards_left == 0
    assert np.all(zero.sum(axis=1) == 1)                # exactly one empty hand: the winner
    ll_empty = zero[np.arange(N), res.landlord]
    assert np.array_equal(ll_empty, res.landlord_won)
    assert np.all(res.cards_left >= 0)


def test_zero_sum_and_scoring_identity(run):
    rules, res = run
    p = rules.players
    assert np.all(res.scores.sum(axis=1) == 0)
    idx = np.arange(N)
    sign = np.where(res.landlord_won, 1, -1)
    assert np.array_equal(res.scores[idx, res.landlord], sign * (p - 1) * res.value)
    farmers = np.ones((N, p), dtype=bool)
    farmers[idx, res.landlord] = False
    assert np.all(res.scores[farmers].reshape(N, p - 1) == (-sign * res.value)[:, None])
    shift = res.bombs + res.doubles + (res.spring > 0)
    assert np.array_equal(res.value, res.base.astype(np.int64) << shift.astype(np.int64))


def test_auction_outcomes(run):
    rules, res = run
    p = rules.players
    assert np.all((res.landlord >= 0) & (res.landlord < p))
    assert np.all(res.redeals >= 0)
    if rules.auction == "bid":
        assert set(np.unique(res.base)) == {1, 2, 3}
        assert np.all(res.doubles == 0)
    else:
        # base = 2**robs, at most players - 1 robs; at most one double per player
        assert set(np.unique(res.base)) <= {2 ** k for k in range(p)}
        assert np.all((res.doubles >= 0) & (res.doubles <= p))
        assert res.doubles.max() == p
    assert res.redeals.max() >= 1                     # redeals happen (all-pass)


def test_spring_kinds(run):
    rules, res = run
    assert set(np.unique(res.spring)) <= {0, 1, 2}
    assert np.all(res.landlord_won[res.spring == 1])
    assert not np.any(res.landlord_won[res.spring == 2])
    assert np.all(res.plies >= 1) and np.all(res.bombs >= 0)
    # A spring needs the landlord to play every card without a farmer move.
    assert np.all(res.cards_played[res.spring == 1] == rules.hand_size + rules.kitty_size)


def test_game_seeds_are_documented(run):
    rules, res = run
    for i in (0, 1, 999, N - 1):
        assert int(res.game_seeds[i]) == game_seed(20240601, i)
    g = Game(rules, seed=int(res.game_seeds[5]))
    assert g.hand_sizes == (rules.hand_size,) * rules.players


@pytest.mark.parametrize("rules", ["standard", "four", ROB_STD])
def test_deterministic_and_thread_independent(rules):
    a = play_random_games(3000, rules=rules, seed=99, threads=1)
    b = play_random_games(3000, rules=rules, seed=99, threads=1)
    c = play_random_games(3000, rules=rules, seed=99, threads=2)
    e = play_random_games(3000, rules=rules, seed=99, threads=3)
    parts = [play_random_games(k, rules=rules, seed=99, first_game=s)
             for s, k in ((0, 1000), (1000, 1500), (2500, 500))]
    for name in a.FIELDS:
        ref = getattr(a, name)
        for other in (b, c, e):
            assert np.array_equal(ref, getattr(other, name)), name
        assert np.array_equal(ref, np.concatenate([getattr(p, name) for p in parts])), name
    other_seed = play_random_games(3000, rules=rules, seed=100)
    assert not np.array_equal(a.scores, other_seed.scores)


def test_more_threads_than_games_and_empty_run():
    r = play_random_games(3, threads=8, seed=1)
    assert len(r) == 3 and np.array_equal(r.scores, play_random_games(3, seed=1).scores)
    e = play_random_games(0)
    assert len(e) == 0 and e.summary()["games"] == 0


def test_summary():
    r = play_random_games(2000, seed=5)
    s = r.summary()
    assert s["games"] == 2000
    assert s["landlord_win_rate"] == pytest.approx(float(np.mean(r.landlord_won)))
    assert s["springs"] == int((r.spring == 1).sum()) and s["anti_springs"] == int((r.spring == 2).sum())
    assert s["bombs_per_game"] == pytest.approx(float(r.bombs.mean()))
    assert s["games_per_second"] > 0
    assert "2000 games" in repr(r)


@pytest.mark.parametrize("kwargs,exc", [
    (dict(n_games=-1), ValueError),
    (dict(n_games=1.5), TypeError),
    (dict(n_games=10, threads=0), ValueError),
    (dict(n_games=10, threads=True), TypeError),
    (dict(n_games=10, threads="2"), TypeError),
    (dict(n_games=10, threads=10**6), ValueError),
    (dict(n_games=10, seed="1"), TypeError),
    (dict(n_games=10, rules="nope"), ValueError),
    (dict(n_games=10, first_game=-1), ValueError),
])
def test_bad_arguments(kwargs, exc):
    n = kwargs.pop("n_games")
    with pytest.raises(exc):
        play_random_games(n, **kwargs)


def test_negative_and_huge_seeds_wrap_mod_2_64():
    a = play_random_games(50, seed=-1)
    b = play_random_games(50, seed=2**64 - 1)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.game_seeds, b.game_seeds)
