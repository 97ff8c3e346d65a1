"""The compiled game engine beyond the step-by-step API (tests/test_game.py):
rollouts, world sampling, the hidden cards, the simple bot's compiled
policy, whole-position checks, and a Game that cannot be misused from
Python (final class, read-only state, uninitialised objects, pickles)."""
import copy
import math
import pickle
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import PASS, Game, Kind, Move, Phase, parse_move
from ddz_fast.game import (BID_PASS, DECLINE, DOUBLE, NO_DOUBLE, Bid, Double, SplitMix64, game_seed,
                           policy_seed, simple_bot)

RULES = [ddz.PRESETS[n] for n in ("standard", "strict", "four", "douzero", "rlcard")]
RULES += [ddz.PRESETS["standard"].replace(auction="rob"), ddz.PRESETS["four"].replace(auction="rob")]
IDS = [f"{r.name}-{r.auction}" for r in RULES]


def _deck(r):
    return np.array([4 * r.decks] * 13 + [r.decks] * 2)


def _advance(g, plies, seed):
    """Step ``g`` with random legal actions for ``plies`` actions (or to its end)."""
    rng = SplitMix64(seed)
    for _ in range(plies):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.step(acts[rng.below(len(acts))])
    return g


def _mid_game(r, seed, plies=12):
    g = Game(r, seed=seed)
    while g.phase is not Phase.PLAY:
        acts = g.legal_actions()
        g.step(acts[-1])              # bid 3 / call and rob / double: the auction ends quickly
    return _advance(g, plies, seed)


# ---------------------------------------------------------------------------
# Rollouts
# ---------------------------------------------------------------------------

def _python_rollout(g, seed, i):
    """Rollout i of Game.rollout(policy="random"), written as a loop over
    the public API with the documented random stream."""
    c = g.clone()
    rng = SplitMix64(policy_seed(game_seed(seed, i)))
    while not c.is_over:
        acts = c.legal_actions()
        c.step(acts[rng.below(len(acts))])
    return c.result


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_random_rollouts_equal_the_python_loop(rules):
    for k, plies in enumerate((0, 5, 25)):
        g = _mid_game(rules, 100 + k, plies)
        before = g.snapshot()
        out = g.rollout(12, seed=7 + k)
        assert g.snapshot() == before                     # the game is not changed
        for i in range(12):
            res = _python_rollout(g, 7 + k, i)
            assert out.scores[i].tolist() == list(res.scores)
            assert out.winner[i] == res.winner and out.landlord_won[i] == res.landlord_won
            assert out.plies[i] == res.plies


@pytest.mark.parametrize("rules", RULES[:1] + RULES[5:6], ids=IDS[:1] + IDS[5:6])
def test_rollouts_from_the_auction_continue_the_deal_stream(rules):
    g = Game(rules, seed=11)                                # nobody has acted yet
    out = g.rollout(30, seed=3)
    for i in range(30):
        assert out.scores[i].tolist() == list(_python_rollout(g, 3, i).scores)


def test_rollouts_are_thread_independent_and_zero_sum():
    g = _mid_game(ddz.PRESETS["standard"], 5, 10)
    one = g.rollout(301, seed=9)
    for threads in (2, 3, 7):
        more = g.rollout(301, seed=9, threads=threads)
        for name in ("winner", "landlord_won", "scores", "plies"):
            assert np.array_equal(getattr(one, name), getattr(more, name)), name
    assert (one.scores.sum(axis=1) == 0).all()
    assert np.array_equal(one.landlord_won, one.winner == g.landlord)
    assert len(g.rollout(0)) == 0 and g.rollout(0).scores.shape == (0, 3)


def test_rollouts_of_a_finished_game_repeat_its_result():
    g = _advance(Game(seed=4), 10_000, 4)
    out = g.rollout(5, policy="bot")
    assert (out.scores == np.array(g.result.scores)).all() and (out.winner == g.result.winner).all()


# The simple bot written out again in Python, from its documentation, to
# check the compiled policy that simple_bot and rollout(policy="bot") share.
def _bot_twin(obs):
    acts = obs.legal_actions
    hand = obs.hand
    strength = int(hand[12]) + int(hand[13]) + 2 * int(hand[14]) + 2 * int(np.count_nonzero(hand[:13] >= 4))
    if obs.phase in (Phase.AUCTION, Phase.DOUBLING):
        if isinstance(acts[0], Bid):
            bids = [a for a in acts if a.value and a.value <= min(3, strength // 2)]
            return bids[0] if bids else BID_PASS
        if obs.phase is Phase.DOUBLING:
            return DOUBLE if strength >= 5 else NO_DOUBLE
        return acts[1] if strength >= 3 else DECLINE
    return _bot_play_twin(acts, obs.player, obs.landlord, obs.last_player if obs.last_move else None,
                          obs.hand_sizes)


def _bot_play_twin(acts, me, ll, last_player, sizes):
    # the play policy; last_player None: leading
    responding = last_player is not None
    if responding and me != ll and last_player != ll:
        return PASS
    moves = [m for m in acts if not m.is_pass]
    ordinary = [m for m in moves if m.kind not in (Kind.BOMB, Kind.ROCKET)]
    if ordinary:
        return min(ordinary, key=lambda m: (m.rank, -m.n_cards))
    opponents = [s for s in range(len(sizes)) if s != me and (me == ll or s == ll)]
    if moves and (not responding or min(sizes[s] for s in opponents) <= 6):
        return min(moves, key=lambda m: (m.kind is Kind.ROCKET, m.n_cards, m.rank))
    return PASS


def _random_bot_position(r, rng, deck_moves):
    # (deck_moves: the whole deck's moves by kind, length and size)
    """A hand of 1-20 cards (1-33 with two decks), a move to beat (none a
    quarter of the time; else a move of a uniformly drawn kind: half the
    time a lead of another hand from the rest of the deck, half the time a
    move of the whole deck's list that some move of the hand beats), and the
    seats and hand sizes."""
    deck = np.repeat(np.arange(15), _deck(r))
    rng.shuffle(deck)
    k = int(rng.integers(1, 21 if r.decks == 1 else 34))
    hand = np.bincount(deck[:k], minlength=15).astype(np.uint8)

    def pick(moves):
        kinds = sorted({m.kind for m in moves})
        kind = kinds[int(rng.integers(len(kinds)))]
        of_kind = [m for m in moves if m.kind == kind]
        return of_kind[int(rng.integers(len(of_kind)))]

    last = None
    if rng.random() >= 0.5:
        other = np.bincount(deck[k:k + int(rng.integers(1, 21))], minlength=15).astype(np.uint8)
        last = pick(ddz.legal_moves(other, rules=r))
    elif rng.random() >= 0.5:
        mine = pick(ddz.legal_moves(hand, rules=r))
        lower = [m for m in deck_moves.get((mine.kind, mine.length, mine.n_cards), ())
                 if m.rank < mine.rank and (hand + m.counts <= _deck(r)).all()]
        if lower and mine.kind not in (Kind.BOMB, Kind.ROCKET):
            last = lower[int(rng.integers(len(lower)))]
    n = r.players
    me, ll = int(rng.integers(n)), int(rng.integers(n))
    last_player = None if last is None else int(rng.choice([t for t in range(n) if t != me]))
    sizes = [int(x) for x in rng.integers(1, 21, size=n)]
    sizes[me] = k
    return hand, last, me, ll, last_player, sizes


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_simple_bot_move_equals_its_twin_on_random_positions(rules):
    """The compiled play policy (which generates only the moves it may
    choose) picks the twin's move among the whole legal list, on thousands
    of positions of every preset: leads, responses to every kind, partners,
    and opponents low on cards."""
    from ddz_fast._engine.bots import bot_move_index
    rng = np.random.default_rng(7)
    kinds = Counter()
    deck_moves = {}
    for m in ddz.legal_moves(_deck(rules), rules=rules):
        deck_moves.setdefault((m.kind, m.length, m.n_cards), []).append(m)
    for _ in range(3000):
        hand, last, me, ll, last_player, sizes = _random_bot_position(rules, rng, deck_moves)
        acts = ddz.legal_moves(hand, last, rules=rules)
        want = _bot_play_twin(list(acts), me, ll, last_player, sizes)
        got = acts[bot_move_index(hand, last, rules, acts.rows, me, ll, last_player, sizes)]
        assert got == want, (hand.tolist(), last, me, ll, last_player, sizes)
        kinds[want.kind] += 1
    # a hand and rows that do not go together are an error, never a read past the hand
    with pytest.raises(ValueError, match="not among the rows"):
        bot_move_index(np.zeros(15, np.uint8), None, rules, np.zeros((0, 16), np.uint8), 0, 0, None,
                       [0] * rules.players)
    # the positions reach the bot's every branch
    assert kinds[Kind.PASS] and kinds[Kind.BOMB] and kinds[Kind.TRIO_PAIR] and kinds[Kind.CHAIN]
    assert kinds[Kind.AIRPLANE_PAIR] + kinds[Kind.AIRPLANE_SOLO] + kinds[Kind.AIRPLANE]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_bot_policy_equals_its_python_twin_and_bot_rollouts(rules):
    for seed in range(4):
        g = Game(rules, seed=seed)
        start = g.clone()
        while not g.is_over:
            obs = g.observation(g.to_move)
            a = simple_bot(obs, rules)
            assert a == _bot_twin(obs) and type(a) is type(_bot_twin(obs))
            g.step(a)
        out = start.rollout(2, policy="bot", seed=seed)
        assert out.scores.tolist() == [list(g.result.scores)] * 2 and out.plies[0] == g.result.plies


def test_rollout_rejects_bad_arguments():
    g = Game(seed=1)
    for kwargs, exc in [({"policy": "greedy"}, ValueError), ({"policy": 1}, TypeError),
                        ({"threads": 0}, ValueError), ({"threads": 2.0}, TypeError),
                        ({"seed": "1"}, TypeError), ({"seed": None}, TypeError)]:
        with pytest.raises(exc):
            g.rollout(3, **kwargs)
    for n, exc in [(-1, ValueError), (1.0, TypeError), (True, TypeError)]:
        with pytest.raises(exc):
            g.rollout(n)


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_unseen_is_the_deck_minus_own_hand_and_played_cards(rules):
    for plies in (0, 8, 30):
        g = _mid_game(rules, 21 + plies, plies)
        for p in range(g.players):
            want = _deck(rules) - g.hand(p) - g.played_cards.sum(axis=0)
            assert g.unseen(p).tolist() == want.tolist()
            assert int(g.unseen(p).sum()) == sum(g.hand_sizes) - g.hand_sizes[p]
    g = Game(rules, seed=3)                                   # auction: the kitty is unseen too
    assert int(g.unseen(0).sum()) == rules.deck_size - rules.hand_size


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_sampled_worlds_are_consistent_with_the_observer(rules):
    for plies in (0, 6, 20):
        g = _mid_game(rules, 31 + plies, plies)
        ll = g.landlord
        for p in range(g.players):
            w = g.sample_worlds(p, 200, seed=plies + p)
            assert w.dtype == np.uint8 and w.shape == (200, g.players, 15)
            assert (w[:, p] == g.hand(p)).all()
            assert (w.sum(axis=2) == np.array(g.hand_sizes)).all()
            total = w.sum(axis=1) + g.played_cards.sum(axis=0)
            assert (total == _deck(rules)).all()                # every card exactly once
            if p != ll:
                reserved = np.maximum(g.kitty.astype(int) - g.played_cards[ll], 0)
                assert (w[:, ll] >= reserved).all()
            assert np.array_equal(w, g.sample_worlds(p, 200, seed=plies + p))   # seeded
    assert g.sample_worlds(0, 0).shape == (0, g.players, 15)


def _exact_world_distribution(pool, sizes):
    """Every split of the physical cards of ``pool`` into hands of ``sizes``
    is equally likely: the probability of each tuple of count vectors."""
    cards = [r for r in range(15) for _ in range(pool[r])]
    out = Counter()

    def split(rest, sizes, prefix):
        if not sizes:
            out[tuple(prefix)] += 1
            return
        for pick in combinations(range(len(rest)), sizes[0]):
            hand = [0] * 15
            for i in pick:
                hand[rest[i]] += 1
            left = [rest[i] for i in range(len(rest)) if i not in pick]
            split(left, sizes[1:], prefix + [tuple(hand)])

    split(cards, list(sizes), [])
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


def _chi_square_p(expected_prob, observed, n):
    """Upper tail of the chi-square statistic (Wilson-Hilferty normal
    approximation, good for the dozens of cells used here)."""
    stat = sum((observed.get(k, 0) - n * p) ** 2 / (n * p) for k, p in expected_prob.items())
    assert set(observed) <= set(expected_prob)                # no impossible world
    df = len(expected_prob) - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_world_distribution_is_uniform_over_physical_deals():
    # A late position seen by seat 1: its 9 unseen cards go to seat 0 (5
    # cards) and seat 2 (4); every split of the physical cards is equally
    # likely, so each pair of count vectors has a known probability.
    g = Game.from_position(["A2KQQ", "9", "TTJ3"], landlord=0, played=[3, 2, 2])
    pool = g.unseen(1)
    assert int(pool.sum()) == 9
    n = 60_000
    worlds = g.sample_worlds(1, n, seed=12345)
    exact = _exact_world_distribution(pool.tolist(), (5, 4))
    observed = Counter((tuple(int(x) for x in w[0]), tuple(int(x) for x in w[2])) for w in worlds)
    assert _chi_square_p(exact, observed, n) > 1e-4


def _hypergeometric(k, total, draw):
    return {(c,): math.comb(k, c) * math.comb(total - k, draw - c) / math.comb(total, draw)
            for c in range(k + 1)}


def _visible_cells(exact, observed, n):
    """The cells expected at least 5 times (the chi-square approximation
    needs them), renormalised."""
    keep = {key: p for key, p in exact.items() if p * n >= 5}
    seen = Counter({key: v for key, v in observed.items() if key in keep})
    total = sum(keep.values())
    return {key: p / total for key, p in keep.items()}, seen, sum(seen.values())


def test_shown_kitty_cards_stay_with_the_landlord_the_rest_is_uniform():
    g = Game(seed=21)
    while g.phase is not Phase.PLAY:
        g.step(g.legal_actions()[-1])
    ll = g.landlord
    farmer = (ll + 1) % 3
    reserved = g.kitty.astype(int)                          # nothing played yet: all three
    pool = g.unseen(farmer) - reserved
    n = 40_000
    worlds = g.sample_worlds(farmer, n, seed=3)
    assert (worlds[:, ll] >= reserved).all()
    r = int(np.argmax(pool))
    exact = _hypergeometric(int(pool[r]), int(pool.sum()), 17)
    observed = Counter((int(w[ll][r]) - int(reserved[r]),) for w in worlds)
    assert _chi_square_p(*_visible_cells(exact, observed, n)) > 1e-4


def test_world_distribution_before_the_kitty_is_shown():
    # During the auction the kitty is one more hidden holder: a rank's count
    # in one hand is hypergeometric over the 37 unseen cards.
    g = Game(seed=77)
    n = 40_000
    worlds = g.sample_worlds(0, n, seed=5)
    unseen = g.unseen(0)
    r = int(np.argmax(unseen))
    exact = _hypergeometric(int(unseen[r]), int(unseen.sum()), 17)
    observed = Counter((int(w[1][r]),) for w in worlds)
    assert _chi_square_p(*_visible_cells(exact, observed, n)) > 1e-4


def test_sample_worlds_rejects_bad_arguments():
    g = Game(seed=1)
    for args, kwargs, exc in [((3, 1), {}, ValueError), ((-1, 1), {}, ValueError), ((True, 1), {}, TypeError),
                              ((0, -1), {}, ValueError), ((0, 1.5), {}, TypeError), ((0, 1), {"seed": 1.0}, TypeError)]:
        with pytest.raises(exc):
            g.sample_worlds(*args, **kwargs)
    with pytest.raises(ValueError):
        g.unseen(3)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_worlds_sampled_from_an_observation_are_the_games_worlds(rules):
    # One sampler: an observation carries what sampling needs, and gives the
    # same worlds from the same seed as the game it came from.
    for plies in (None, 0, 7, 25):
        g = Game(rules, seed=41) if plies is None else _mid_game(rules, 41 + plies, plies)
        for p in range(g.players):
            o = g.observation(p)
            assert np.array_equal(o.unseen, g.unseen(p))
            for seed in (0, 99):
                assert np.array_equal(ddz.sample_observed_worlds(o, 50, seed=seed),
                                      g.sample_worlds(p, 50, seed=seed))


def test_landlord_holds_is_the_shown_kitty_the_landlord_cannot_have_played():
    g = _mid_game(ddz.PRESETS["standard"], 5, 0)
    ll = g.landlord
    for _ in range(40):
        if g.is_over:
            break
        for p in range(3):
            o = g.observation(p)
            want = np.zeros(15, int) if p == ll else np.maximum(g.kitty.astype(int) - g.played_cards[ll], 0)
            assert o.landlord_holds.tolist() == want.tolist()
        g.step(simple_bot(g.observation(g.to_move)))


def test_sample_observed_worlds_rejects_bad_observations():
    import dataclasses
    g = _mid_game(ddz.PRESETS["standard"], 8, 4)
    o = g.observation(1)
    with pytest.raises(TypeError):
        ddz.sample_observed_worlds("obs", 1)
    with pytest.raises(TypeError):
        ddz.sample_observed_worlds(o, 1.0)
    too_many = o.unseen.copy()
    too_many[0] += 5
    short = o.unseen.copy()
    short[np.argmax(short)] -= 1
    wrong_hold = np.zeros(15, np.uint8)
    wrong_hold[14] = 1 if not o.unseen[14] else 0
    wrong_hold[13] = 1 if not o.unseen[13] else 0
    for bad in (dict(unseen=None), dict(unseen=short), dict(unseen=too_many[:14]),
                dict(hand=o.hand[:3]), dict(hand_sizes=(1, 2)), dict(player=5), dict(landlord=7),
                dict(landlord_holds=wrong_hold), dict(hand_sizes=(o.hand_sizes[0] + 30,) + o.hand_sizes[1:])):
        with pytest.raises(ValueError):
            ddz.sample_observed_worlds(dataclasses.replace(o, **bad), 3)


def _python_move_value(g, world, move, policy, seed, index):
    """move_values for one world and move, written with the public API: the
    world as a position with the game's table, the move, then the playout."""
    c = Game.from_position(world, g.landlord, g.base, g.to_move, g.last_move,
                           last_player=g.last_player, rules=g.rules, bombs=g.bombs, doubles=g.doubles)
    mover = g.to_move
    c.step(move)
    rng = SplitMix64(policy_seed(game_seed(seed, index)))
    while not c.is_over:
        if policy == "bot":
            c.step(simple_bot(c.observation(c.to_move), g.rules))
        else:
            acts = c.legal_actions()
            c.step(acts[rng.below(len(acts))])
    return (c.result.winner == c.landlord) == (mover == c.landlord)


@pytest.mark.parametrize("rules", RULES[:4], ids=IDS[:4])
@pytest.mark.parametrize("policy", ["bot", "random"])
def test_move_values_are_playouts_after_each_move_in_each_world(rules, policy):
    for plies in (0, 9, 24):
        g = _mid_game(rules, 60 + plies, plies)
        if g.is_over:
            continue
        p = g.to_move
        worlds = g.sample_worlds(p, 4, seed=plies)
        moves = list(g.legal_actions())[:6]
        reps = 3 if policy == "random" else 1
        v = g.move_values(worlds, moves, rollouts=reps, policy=policy, seed=17)
        assert v.shape == (4, len(moves)) and v.dtype == np.float64
        for w in range(4):
            for m, move in enumerate(moves):
                wins = sum(_python_move_value(g, worlds[w], move, policy, 17, (w * len(moves) + m) * reps + k)
                           for k in range(reps))
                assert v[w, m] == wins / reps
        assert np.array_equal(v, g.move_values(worlds, moves, rollouts=reps, policy=policy, seed=17,
                                               threads=2))


def test_move_values_never_depend_on_threads_and_leave_the_game_alone():
    g = _mid_game(ddz.PRESETS["standard"], 3, 5)
    before = g.snapshot()
    worlds = g.sample_worlds(g.to_move, 300, seed=1)
    a = g.move_values(worlds, g.legal_actions(), policy="random", rollouts=2, seed=5, threads=1)
    b = g.move_values(worlds, g.legal_actions(), policy="random", rollouts=2, seed=5, threads=4)
    assert np.array_equal(a, b) and ((a == 0) | (a == 0.5) | (a == 1)).all()
    assert g.snapshot() == before
    assert g.move_values(worlds[:0], g.legal_actions()).shape == (0, len(g.legal_actions()))


def test_move_values_rejects_bad_arguments():
    g = _mid_game(ddz.PRESETS["standard"], 3, 5)
    p = g.to_move
    w = g.sample_worlds(p, 2, seed=1)
    legal = g.legal_actions()
    other_hand = w.copy()
    other_hand[0, p] = w[0, (p + 1) % 3]           # the mover's hand changed
    sizes = w.copy()
    q = (p + 1) % 3
    r = int(np.flatnonzero(sizes[0, q])[0])
    sizes[0, q, r] -= 1                             # a hidden hand one card short
    extra = w.copy()                                # same sizes, one rank more than the deck has left
    r_b = (r + 1) % 15
    extra[0, q, r] -= 1
    extra[0, q, r_b] += 1
    absent = "3456789TJQKA2BR"[int(np.flatnonzero(g.hand(p) == 0)[0])]
    cases = [((w.astype(np.int64), legal), {}, ValueError), ((w[0], legal), {}, ValueError),
             ((w.tolist(), legal), {}, TypeError), ((np.ma.masked_array(w), legal), {}, TypeError),
             ((other_hand, legal), {}, ValueError), ((sizes, legal), {}, ValueError),
             ((extra, legal), {}, ValueError),
             ((w, legal), {"rollouts": 0}, ValueError), ((w, legal), {"policy": "best"}, ValueError),
             ((w, legal), {"policy": 1}, TypeError), ((w, legal), {"threads": 0}, ValueError),
             ((w, legal), {"seed": 1.5}, TypeError), ((w, "33"), {}, TypeError), ((w, [1]), {}, TypeError),
             ((w, [parse_move(absent)]), {}, ValueError)]
    for args, kwargs, exc in cases:
        with pytest.raises(exc):
            g.move_values(*args, **kwargs)
    with pytest.raises(ValueError):
        Game(seed=1).move_values(Game(seed=1).sample_worlds(0, 1), [])   # the auction phase


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(hands=["33", "44", "55"], landlord=0, base=2**20 + 1), ValueError, "base"),
    (dict(hands=["33", "44", "55"], landlord=0, bombs=15), ValueError, "bombs"),
    (dict(hands=["33", "44", "55"], landlord=0, doubles=4), ValueError, "doubles"),
    (dict(hands=["33", "44", "55"], landlord=0, bombs=2**31 - 1), ValueError, "bombs"),
    (dict(hands=["33", "44", "55"], landlord=0, base=True), TypeError, "base"),
    (dict(hands=["33", "4444", "55"], landlord=0, kitty="445"), ValueError, "kitty"),
    (dict(hands=["33", "44", "55"], landlord=0, kitty="3"), ValueError, "kitty holds 3"),
    (dict(hands=["3456789TJQKA2BR4567", "3", "4"], landlord=1), ValueError, "dealt"),
    (dict(hands=["33", "44", "55"], landlord=0, played=[0, 0]), ValueError, "played"),
    (dict(hands=["33", "44", "55"], landlord=0, to_move=1, last=parse_move("66"), played=[0, 1, 0],
          last_player=0), ValueError, "played"),
    (dict(hands="334455", landlord=0), TypeError, "hands"),
    (dict(hands=["33", "44", "55"], landlord=0, last="66"), TypeError, "last"),
])
def test_from_position_checks_the_whole_position(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        Game.from_position(**kwargs)


def test_from_position_kitty_and_arrays_are_copied():
    hands = np.array([ddz.parse_cards(h) for h in ("3344A2K", "55", "66")])
    g = Game.from_position(hands, landlord=0, kitty="A2K")
    hands[:] = 0                                    # the caller's array is not the state
    assert g.hand_sizes == (7, 2, 2) and g.kitty.tolist() == ddz.parse_cards("A2K").tolist()
    k = g.kitty
    k[:] = 0
    assert int(g.kitty.sum()) == 3


def test_positions_pickle_with_their_history():
    g = Game.from_position(["3344A2K", "5566", "77"], landlord=0, kitty="A2K", base=2, bombs=1,
                           to_move=1, last=parse_move("3"), last_player=0, played=[1, 0, 0])
    g.step(g.legal_actions()[1])
    for c in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g), g.clone()):
        assert c.snapshot() == g.snapshot()
        assert c.legal_actions() == g.legal_actions()
        c.step(c.legal_actions()[0])
        assert c.snapshot() != g.snapshot()          # independent


def test_forged_pickles_fail_cleanly():
    g = _mid_game(ddz.PRESETS["standard"], 3, 6)
    load, ((version, rules, origin, actions),) = g.__reduce__()

    def fn(*args):
        return load((version, *args))

    bad = bytearray(actions)
    bad[-17] = 99                                     # no such action code
    for args in [(rules, origin, bytes(bad)), (rules, origin, actions[:-1]), (rules, ("deal",), actions),
                 (rules, ("position", {"hands": ["33"]}), b""), (rules, ("nope", 1, 2), b"")]:
        with pytest.raises((ValueError, TypeError)):
            fn(*args)
    flip = bytearray(actions)
    flip[-16] = 4                                     # four threes: cards the player does not hold
    with pytest.raises(ValueError):
        fn(rules, origin, bytes(flip))


# ---------------------------------------------------------------------------
# A Game cannot be misused from Python
# ---------------------------------------------------------------------------

def test_game_is_final_and_read_only():
    with pytest.raises(TypeError):
        type("Sub", (Game,), {})
    g = _mid_game(ddz.PRESETS["standard"], 2, 4)
    before = g.snapshot()
    for name in ("rules", "seed", "kitty", "base", "bombs", "history", "to_move", "hands", "x", "_legal"):
        with pytest.raises(AttributeError):
            setattr(g, name, 1)
        with pytest.raises(AttributeError):
            object.__setattr__(g, name, 1)
    g.history.clear()
    g.hands[:] = 0
    g.played_cards[:] = 9
    assert g.snapshot() == before


def test_uninitialised_game_refuses_every_call():
    g = Game.__new__(Game)
    for call in (g.legal_actions, lambda: g.step(Bid(3)), g.undo, g.clone, lambda: g.hand(0),
                 lambda: g.hands, lambda: g.to_move, lambda: g.observation(0), g.snapshot,
                 lambda: g.rollout(1), lambda: g.sample_worlds(0, 1), lambda: pickle.dumps(g)):
        with pytest.raises(TypeError, match="never initialised"):
            call()
    assert repr(g) == "Game(<uninitialised>)"


def test_hand_takes_only_real_seats():
    g = Game(seed=1)
    for bad, exc in [(-1, ValueError), (3, ValueError), (True, TypeError), (1.0, TypeError), ("0", TypeError)]:
        with pytest.raises(exc):
            g.hand(bad)
    assert g.hand(np.int64(2)).tolist() == g.hands[2].tolist()


def test_forged_auction_actions_are_refused():
    g = Game(seed=1)
    b = Bid(1)
    object.__setattr__(b, "value", 7)
    d = Double(True)
    object.__setattr__(d, "yes", 1)
    before = g.snapshot()
    for bad in (b, d, Move(Kind.SOLO, "3"), PASS, "bid 1", 1):
        with pytest.raises(ValueError):
            g.step(bad)
    assert g.snapshot() == before


def test_undo_takes_back_a_redeal_in_the_rob_auction():
    r = ddz.PRESETS["standard"].replace(auction="rob")
    for seed in range(40):
        g = Game(r, seed=seed)
        first = g.snapshot()
        for _ in range(3):
            g.step(DECLINE)
        if g.deal_number == 1:
            break
    assert g.deal_number == 1 and g.history == []
    g.undo()
    assert g.deal_number == 0 and len(g.history) == 2
    g.undo()
    g.undo()
    assert g.snapshot() == first
    with pytest.raises(IndexError):
        g.undo()


def test_settle_refuses_what_no_deal_has():
    for args, exc in [((3, 0, True, 1, 15, 0), ValueError), ((3, 0, True, 0, 0, 0), ValueError),
                      ((3, 0, 1, 1, 0, 0), TypeError), ((5, 0, True, 1, 0, 0), ValueError),
                      ((3, 0, True, 2**20 + 1, 0, 0), ValueError)]:
        with pytest.raises(exc):
            ddz.settle(*args)
    assert ddz.settle(4, 0, False, 2**20, 27, 2, doubles=4) == (2**52, (-3 * 2**52, 2**52, 2**52, 2**52))
