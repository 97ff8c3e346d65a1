"""VecGame: n tables stepped in one compiled call, checked table by table
against the one-deal Game stepped with the same actions (its twin)."""
import threading

import numpy as np
import pytest

import ddz_fast as ddz
from ddz_fast import VecGame, action_space, game_seed
from ddz_fast.actions import WildActionSpace
from ddz_fast.envs import ObservationLayout
from ddz_fast.game_values import AUCTION_ACTIONS

RULES = list(ddz.PRESETS.values())
RULES += [ddz.PRESETS["standard"].replace(auction="rob"), ddz.PRESETS["four"].replace(auction="rob")]
IDS = [f"{r.name}-{r.auction}" for r in RULES]


def _seed_of(seed, table, k):
    return game_seed(seed, table * 2**32 + k)


def _expected_ids(game, space):
    """The documented ids of a Game's legal actions, in its order."""
    legal = game.legal_actions()
    if game.is_over:
        return np.zeros(0, dtype=np.int64)
    if isinstance(legal, tuple):
        return np.array([AUCTION_ACTIONS.index(a) for a in legal], dtype=np.int64)
    if isinstance(space, WildActionSpace):
        pairs = space.ids(legal, wild=game.wild)
        return 9 + pairs[:, 0] * space.cards_size + pairs[:, 1]
    return 9 + space.ids(legal)


def _table_ids(vg, i):
    off = vg.legal_offsets
    return vg.legal_ids[off[i]:off[i + 1]]


def _random_actions(vg, rng):
    off = vg.legal_offsets
    counts = np.diff(off)
    pick = off[:-1] + (rng.random(len(vg)) * counts).astype(np.int64)
    return vg.legal_ids[pick].copy()


def _check_table(vg, i, game, layout, space):
    """Every observable of table i equals the twin's."""
    assert vg.games(i).snapshot() == game.snapshot()
    assert vg.to_move[i] == (-1 if game.is_over else game.to_move)
    expected = _expected_ids(game, space)
    np.testing.assert_array_equal(_table_ids(vg, i), expected)
    np.testing.assert_array_equal(game.legal_ids(), expected)
    if game.wild is not None and not game.is_over:
        # (the flat ids read back, through the pair's unranking, as the moves)
        legal = list(game.legal_actions())
        shown = [vg.action(int(a), table=i) for a in _table_ids(vg, i)[:100]]
        assert shown == legal[:100]
    if vg.masks is not None:
        assert np.array_equal(np.flatnonzero(vg.masks[i]), np.sort(expected))
    seat = game.result.winner if game.is_over else game.to_move
    np.testing.assert_array_equal(vg.observations[i], layout.encode(game, seat))
    assert vg.game_seeds[i] == game.seed


def _run_against_twins(rules, n, steps, seed, *, auto_reset=True, masks=True, threads=1):
    space = action_space(rules)
    layout = ObservationLayout(rules)
    masks = masks and not rules.wild_ranks     # (wild rules: too many ids for a mask)
    vg = VecGame(n, rules, seed, threads=threads, auto_reset=auto_reset, masks=masks)
    twins = [ddz.Game(rules, seed=_seed_of(seed, i, 0)) for i in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(seed)
    finished = 0
    for i in range(n):
        _check_table(vg, i, twins[i], layout, space)
    for _ in range(steps):
        actions = _random_actions(vg, rng)
        for i in range(n):
            if twins[i].is_over:
                actions[i] = -1             # ignored by a finished table
        # (read before the step: a wild move's id is read under its table's deal)
        chosen = [None if twins[i].is_over else vg.action(int(actions[i]), table=i) for i in range(n)]
        vg.step(actions)
        for i in range(n):
            g = twins[i]
            if g.is_over:                   # auto_reset=False: stays over, nothing reported
                assert vg.done[i] and not vg.scores[i].any() and not vg.wins[i].any()
                continue
            g.step(chosen[i])
            if g.is_over:
                finished += 1
                res = g.result
                assert vg.done[i]
                assert tuple(vg.scores[i]) == res.scores
                side = [(t == res.landlord) == res.landlord_won for t in range(g.players)]
                np.testing.assert_array_equal(vg.wins[i], np.where(side, 1.0, -1.0))
                if auto_reset:
                    episodes[i] += 1
                    twins[i] = g = ddz.Game(rules, seed=_seed_of(seed, i, episodes[i]))
            else:
                assert not vg.done[i] and not vg.scores[i].any() and not vg.wins[i].any()
            assert vg.episodes[i] == episodes[i]
            _check_table(vg, i, g, layout, space)
    return finished


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_every_table_equals_a_game_stepped_with_the_same_actions(rules):
    finished = _run_against_twins(rules, n=5, steps=260, seed=7)
    assert finished >= 3                   # deals ended, and the tables went on to their next games


@pytest.mark.parametrize("rules", [RULES[0], RULES[-1]], ids=[IDS[0], IDS[-1]])
def test_without_auto_reset_finished_tables_stay_over(rules):
    vg = VecGame(3, rules, 2, auto_reset=False)
    _run_against_twins(rules, n=3, steps=150, seed=2, auto_reset=False, masks=False)
    rng = np.random.default_rng(0)
    while not vg.done.all():
        vg.step(_random_actions(vg, rng))
    assert (vg.to_move == -1).all() and (np.diff(vg.legal_offsets) == 0).all()
    vg.reset()
    assert not vg.done.any() and (vg.episodes == 0).all()
    assert [vg.games(i).seed for i in range(3)] == [_seed_of(2, i, 0) for i in range(3)]


def _trajectory(rules, n, seed, steps, threads):
    vg = VecGame(n, rules, seed, threads=threads, masks=True)
    rng = np.random.default_rng(1)
    out = []
    for _ in range(steps):
        vg.step(_random_actions(vg, rng))
        out.append((vg.to_move.copy(), vg.legal_offsets.copy(),
                    vg.legal_ids[:vg.legal_offsets[-1]].copy(), vg.observations.copy(),
                    vg.scores.copy(), vg.wins.copy(), vg.done.copy(), vg.episodes.copy(),
                    vg.game_seeds.copy(), vg.masks.copy()))
    return out


@pytest.mark.parametrize("rules", [RULES[0], RULES[2]], ids=[IDS[0], IDS[2]])
def test_results_do_not_depend_on_threads(rules):
    one = _trajectory(rules, 37, 5, 150, threads=1)
    for threads in (2, 3):
        other = _trajectory(rules, 37, 5, 150, threads=threads)
        for a, b in zip(one, other):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)


def test_same_seed_same_games_and_reset_restarts_them():
    a = _trajectory("standard", 8, 11, 200, threads=1)
    b = _trajectory("standard", 8, 11, 200, threads=1)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    assert a[-1][7].sum() > 0                # auto-resets happened
    vg = VecGame(8, "standard", 11)
    first = [vg.games(i).snapshot() for i in range(8)]
    rng = np.random.default_rng(3)
    for _ in range(100):
        vg.step(_random_actions(vg, rng))
    vg.reset()
    assert [vg.games(i).snapshot() for i in range(8)] == first
    vg.reset(seed=12)
    assert [vg.games(i).seed for i in range(8)] == [_seed_of(12, i, 0) for i in range(8)]
    c = _trajectory("standard", 8, 12, 5, threads=1)
    assert not all(np.array_equal(x[3], y[3]) for x, y in zip(a[:5], c))


def test_auction_ids_come_before_the_move_ids():
    vg = VecGame(2, "standard", 0)
    space = action_space("standard")
    assert vg.n_moves == space.size
    assert vg.n_actions == vg.n_moves + 9 == vg.n_moves + ddz.vec.N_AUCTION_IDS
    assert ddz.vec.FIRST_MOVE_ID == space.first_id == 9
    for code, a in enumerate(AUCTION_ACTIONS):
        assert vg.auction_id(a) == vg.action_id(a) == code
        assert vg.action(code) == a
    assert vg.action(9) == ddz.PASS
    assert vg.action_id(ddz.PASS) == 9
    assert vg.action(9 + 123) == space.id_to_move(123)
    assert vg.action_id(space.id_to_move(123)) == 9 + 123
    with pytest.raises(ValueError):
        vg.auction_id(ddz.PASS)


# -- bad input: a clear error, and no table changes ------------------------------

def _state(vg):
    return ([vg.games(i).snapshot() for i in range(len(vg))], vg.to_move.copy(),
            vg.legal_offsets.copy(), vg.legal_ids.copy(), vg.observations.copy(), vg.done.copy())


def _same(a, b):
    assert a[0] == b[0]
    for x, y in zip(a[1:], b[1:]):
        np.testing.assert_array_equal(x, y)


@pytest.fixture
def played():
    """Four tables some way into their games (auction and play phases)."""
    vg = VecGame(4, "standard", 3)
    rng = np.random.default_rng(5)
    for _ in range(6):
        vg.step(_random_actions(vg, rng))
    return vg


@pytest.mark.parametrize("actions, error, words", [
    ("1234", TypeError, "integer array"),
    (None, TypeError, "integer array"),
    (np.zeros(4, dtype=np.float64), TypeError, "integer dtype"),
    (np.zeros(4, dtype=np.bool_), TypeError, "integer dtype"),
    (np.ma.masked_array(np.zeros(4, dtype=np.int64)), TypeError, "masked"),
    (np.zeros(3, dtype=np.int64), ValueError, "shape"),
    (np.zeros((4, 1), dtype=np.int64), ValueError, "shape"),
    (np.zeros(5, dtype=np.int64), ValueError, "shape"),
    ([0.5, 1, 2, 3], TypeError, "integer dtype"),
])
def test_wrong_actions_argument_is_refused(played, actions, error, words):
    before = _state(played)
    with pytest.raises(error, match=words):
        played.step(actions)
    _same(before, _state(played))


def test_out_of_range_and_illegal_ids_name_the_table_and_change_nothing(played):
    good = _random_actions(played, np.random.default_rng(9)).astype(np.int64)
    before = _state(played)
    for bad in (-2, played.n_actions, 2**40):
        a = good.copy()
        a[2] = bad
        with pytest.raises(ValueError, match="table 2: action id .* out of range") as e:
            played.step(a)
        assert not isinstance(e.value, ddz.IllegalActionError)      # no action id at all
        _same(before, _state(played))
    a = np.array(good, dtype=np.uint64)
    a[1] = 2**64 - 1
    with pytest.raises(ValueError, match="table 1"):
        played.step(a)
    for i in range(4):
        legal = set(_table_ids(played, i).tolist())
        wrong = next(x for x in range(played.n_actions) if x not in legal)
        a = good.copy()
        a[i] = wrong
        with pytest.raises(ddz.IllegalActionError, match=f"table {i}: action id {wrong} .* not legal"):
            played.step(a)
        _same(before, _state(played))
    played.step(good)                     # the earlier tables were not stepped by the refused batches


def test_any_integer_dtype_and_layout_is_read(played):
    good = _random_actions(played, np.random.default_rng(4))
    twin = VecGame(4, "standard", 3)
    rng = np.random.default_rng(5)
    for _ in range(6):
        twin.step(_random_actions(twin, rng))
    strided = np.zeros(8, dtype=">i4")
    strided[::2] = good
    played.step(strided[::2])
    twin.step(good.tolist())
    _same(_state(played), _state(twin))


def test_ids_are_copied_before_they_are_checked():
    # Another thread rewriting the actions array while steps run: every
    # step applies the batch it read, or refuses it whole.
    vg = VecGame(64, "standard", 1)
    stop = threading.Event()
    buf = np.zeros(64, dtype=np.int64)

    def scribble():
        r = np.random.default_rng(0)
        while not stop.is_set():
            buf[:] = r.integers(-5, vg.n_actions + 5, 64)

    t = threading.Thread(target=scribble)
    t.start()
    rng = np.random.default_rng(2)
    try:
        for _ in range(300):
            buf[:] = _random_actions(vg, rng)
            try:
                vg.step(buf)
            except ValueError:
                pass
    finally:
        stop.set()
        t.join()
    for i in range(64):
        g = vg.games(i)                      # every table still a consistent game: replaying it gives it back
        if g.deal_number:
            continue
        replay = ddz.Game("standard", seed=g.seed)
        for _, action in g.history:
            replay.step(action)
        assert replay.snapshot() == g.snapshot()


def test_buffers_are_read_only_and_stable(played):
    arrays = [played.to_move, played.legal_offsets, played.observations, played.done, played.scores]
    for a in arrays:
        with pytest.raises(ValueError):
            a[...] = 0
    played.step(_random_actions(played, np.random.default_rng(0)))
    assert played.to_move is arrays[0] and played.observations is arrays[2]


def test_uninitialised_and_bad_constructor_arguments():
    vg = VecGame.__new__(VecGame)
    with pytest.raises(TypeError, match="never initialised"):
        vg.step(np.zeros(1, dtype=np.int64))
    with pytest.raises(TypeError, match="never initialised"):
        _ = vg.to_move
    assert repr(vg) == "VecGame(<uninitialised>)"
    with pytest.raises(ValueError):
        VecGame(0)
    with pytest.raises(TypeError):
        VecGame(2.0)
    with pytest.raises(TypeError):
        VecGame(2, auto_reset=1)
    with pytest.raises(ValueError):
        VecGame(2, rules="nope")
    with pytest.raises(TypeError, match="twice"):
        VecGame(2).__init__(2)
    with pytest.raises(TypeError):
        VecGame(2).games(True)
    with pytest.raises(ValueError):
        VecGame(2).games(2)


def test_games_are_independent_copies(played):
    g = played.games(0)
    before = played.games(0).snapshot()
    g.step(g.legal_actions()[0])
    assert played.games(0).snapshot() == before


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_bot_actions_are_the_simple_bots_choices_at_every_table(rules):
    from ddz_fast.game import simple_bot
    vg = VecGame(12, rules, seed=4, bot=True)
    checked = 0
    for _ in range(120):
        for i in range(len(vg)):
            g = vg.games(i)
            want = simple_bot(g.observation(g.to_move), rules)
            assert vg.action(int(vg.bot_actions[i]), table=i) == want
            checked += 1
        vg.step(vg.bot_actions)
    assert checked == 120 * 12 and vg.episodes.sum() > 0


def test_bot_actions_are_off_unless_asked_and_the_flag_must_be_a_bool():
    assert VecGame(2).bot_actions is None
    with pytest.raises(TypeError, match="bot must be a bool"):
        VecGame(2, bot=1)
    vg = VecGame(2, bot=True, auto_reset=False)
    while not vg.done.all():
        vg.step(vg.bot_actions)
    assert list(vg.bot_actions) == [-1, -1]


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_no_action_leaves_a_table_unchanged_and_other_negatives_are_refused(dtype):
    vg = VecGame(4, seed=3)
    twin = VecGame(4, seed=3)
    before = [vg.games(i).snapshot() for i in range(4)]
    acts = vg.legal_ids[vg.legal_offsets[:-1]].astype(dtype)
    acts[2] = VecGame.NO_ACTION
    vg.step(acts)
    assert vg.games(2).snapshot() == before[2]
    assert all(vg.games(i).snapshot() != before[i] for i in (0, 1, 3))
    full = acts.astype(np.int64)
    full[2] = twin.legal_ids[twin.legal_offsets[2]]
    twin.step(full)
    for i in (0, 1, 3):
        assert vg.games(i).snapshot() == twin.games(i).snapshot()
    assert not vg.done[2] and not vg.scores[2].any()
    acts[2] = -2
    with pytest.raises(ValueError, match="table 2: action id -2 is out of range"):
        vg.step(acts)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_negative_ids_of_every_signed_dtype_are_read_as_negative(dtype):
    vg = VecGame(2, seed=3)
    with pytest.raises(ValueError, match="table 0: action id -2 is out of range"):
        vg.step(np.array([-2, -2], dtype=dtype))
    before = [vg.games(i).snapshot() for i in range(2)]
    vg.step(np.array([-1, -1], dtype=dtype))          # both sit out
    assert [vg.games(i).snapshot() for i in range(2)] == before


@pytest.mark.parametrize("threads, rules", [(1, "standard"), (2, "standard"), (2, "laizi"), (1, "tiandi")])
def test_set_games_refills_the_chosen_tables_and_keeps_the_others(threads, rules):
    """After set_games every table reads as its game: the restarted ones
    their new deal, the others (refilled or kept) what they were; done only
    at finished tables, scores zero; bot actions the simple bot's."""
    from ddz_fast.game import simple_bot
    space, layout = action_space(rules), ObservationLayout(rules)
    vg = VecGame(10, rules, seed=5, auto_reset=False, masks=rules == "standard", bot=True, threads=threads)
    rng = np.random.default_rng(3)
    for k in range(60):
        vg.step(_random_actions(vg, rng) if k % 2 else vg.bot_actions)
        if k % 7 == 6:
            over = [i for i in range(len(vg)) if vg.to_move[i] < 0]
            chosen = sorted(set(over) | {int(rng.integers(len(vg)))})
            vg.set_games(chosen, [game_seed(77, k * 100 + i) for i in chosen])
            assert not vg.scores.any() and vg.done.tolist() == [bool(vg.to_move[i] < 0) for i in range(len(vg))]
            for i in range(len(vg)):
                g = vg.games(i)
                _check_table(vg, i, g, layout, space)
                if not g.is_over:
                    assert vg.action(int(vg.bot_actions[i]), table=i) == simple_bot(g.observation(g.to_move),
                                                                                    rules)


@pytest.mark.parametrize("rules", ["laizi", "tiandi"])
def test_wild_tables_show_their_wild_ranks_and_read_move_ids_under_them(rules):
    """``wild`` is -1 during the auction and the deal's ranks after it; a
    move's id needs its table (the same pair names other cards under other
    wild ranks); masks are refused (too many ids); ids are int64."""
    space = action_space(rules)
    vg = VecGame(6, rules, seed=2, bot=True)
    assert vg.legal_ids.dtype == np.int64 and vg.bot_actions.dtype == np.int64
    assert vg.n_actions == 9 + space.flat_size and (vg.wild == -1).all()
    vg.step(vg.bot_actions)
    while (vg.wild < 0).any():
        vg.step(vg.bot_actions)
    for i in range(len(vg)):
        g = vg.games(i)
        assert tuple(vg.wild[i]) == g.wild
        if g.phase.name == "PLAY":
            m = g.legal_actions()[-1]
            assert vg.action(vg.action_id(m, table=i), table=i) == m
    m = vg.games(0).legal_actions()[-1]
    with pytest.raises(ValueError, match="table="):
        vg.action_id(m)
    with pytest.raises(ValueError, match="table="):
        vg.action(vg.action_id(m, table=0))
    with pytest.raises(ValueError, match="mask"):
        VecGame(2, rules, masks=True)
    assert VecGame(2, "standard").wild is None


def test_an_illegal_wild_id_names_its_table_and_changes_nothing():
    vg = VecGame(3, "laizi", seed=4, skip_auction=True)
    before = [vg.games(i).snapshot() for i in range(3)]
    actions = _random_actions(vg, np.random.default_rng(0))
    actions[1] = 9 + action_space("laizi").flat_size - 1     # (a pair of no move of this hand)
    with pytest.raises(ValueError, match="table 1"):
        vg.step(actions)
    assert [vg.games(i).snapshot() for i in range(3)] == before


