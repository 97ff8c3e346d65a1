"""Every integer argument of the public game-side functions either works or
raises TypeError/ValueError with a message: whatever int, NumPy int, bool,
float or None comes in (never OverflowError, IndexError or a crash)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz_fast as d
import ddz_fast.arena  # noqa: F401  (d.arena)
import ddz_fast.solver  # noqa: F401  (d.solver)
from ddz_fast import Game, PIMCAgent, Session, VecGame, solve
from ddz_fast.game import settle

INTS = st.one_of(
    st.integers(-2**70, 2**70),
    st.sampled_from([0, 1, 2, 3, -1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 2**20, 2**20 + 1]),
    st.builds(lambda t, v: t(v % (int(np.iinfo(t).max) + 1)) if t().dtype.kind == "u"
              else t(max(min(v, int(np.iinfo(t).max)), int(np.iinfo(t).min))),
              st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                               np.uint64]), st.integers(-2**64, 2**64)),
)
ARGS = st.one_of(INTS, st.booleans(), st.sampled_from([np.True_, np.False_, 1.5, float("nan"), None]))

GAME = Game(seed=4)
PLAY = Game.from_position(["3345", "66", "77"], 0)


def _big(x, lo, hi=2**40):
    """An int in lo+1..hi: valid, but too costly to run here (the range
    check is what the property is about)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and lo < int(x) <= hi


def _calls():
    return {
        "Game(seed)": lambda x: Game(seed=x),
        "Game.hand": lambda x: GAME.hand(x),
        "Game.observation": lambda x: GAME.observation(x),
        "Game.unseen": lambda x: GAME.unseen(x),
        "Game.sample_worlds(player)": lambda x: GAME.sample_worlds(x, 1),
        "Game.sample_worlds(n)": lambda x: GAME.sample_worlds(0, x),
        "Game.sample_worlds(seed)": lambda x: GAME.sample_worlds(0, 1, seed=x),
        "Game.rollout(n)": lambda x: None if _big(x, 3) else PLAY.rollout(x),
        "Game.rollout(threads)": lambda x: PLAY.rollout(1, threads=x),
        "Game.rollout(seed)": lambda x: PLAY.rollout(1, seed=x),
        "Game.move_values(rollouts)": lambda x: None if _big(x, 3) else PLAY.move_values(
            PLAY.sample_worlds(0, 1), PLAY.legal_actions(), rollouts=x),
        "from_position(landlord)": lambda x: Game.from_position(["3", "4", "5"], x),
        "from_position(to_move)": lambda x: Game.from_position(["3", "4", "5"], 0, to_move=x),
        "from_position(base)": lambda x: Game.from_position(["3", "4", "5"], 0, base=x),
        "from_position(bombs)": lambda x: Game.from_position(["3", "4", "5"], 0, bombs=x),
        "from_position(doubles)": lambda x: Game.from_position(["3", "4", "5"], 0, doubles=x),
        "from_position(played)": lambda x: Game.from_position(["3", "4", "5"], 0, played=[x, 0, 0]),
        "from_position(last_player)": lambda x: Game.from_position(["3", "4", "5"], 0, to_move=1,
                                                                   last=d.parse_move("6"), last_player=x),
        "settle(base)": lambda x: settle(3, 0, True, x, 0, 0),
        "settle(bombs)": lambda x: settle(3, 0, True, 1, x, 0),
        "settle(players)": lambda x: settle(x, 0, True, 1, 0, 0),
        "Session(seed)": lambda x: Session(seed=x),
        "Session.play(deals)": lambda x: None if _big(x, 0, 2**40) else Session(seed=1).play(["x"] * 3, deals=x),
        "VecGame(n)": lambda x: None if _big(x, 64, 2**32) else VecGame(x),
        "VecGame(seed)": lambda x: VecGame(1, seed=x),
        "VecGame(threads)": lambda x: VecGame(2, threads=x),
        "VecGame.step": lambda x: VecGame(1).step(np.array([x])),
        "solve(to_move)": lambda x: solve(["3", "4"], to_move=x),
        "solve(landlord)": lambda x: solve(["3", "4", "5"], landlord=x),
        "solve(max_nodes)": lambda x: solve(["KK5543", "225543"], max_nodes=x),
        "solve(threads)": lambda x: solve(["3", "4"], threads=x),
        "solve(table_mb)": lambda x: None if _big(x, 64, 2**20) else solve(["3", "4"], table_mb=x),
        "sample_observed_worlds(n)": lambda x: d.sample_observed_worlds(GAME.observation(0), x),
        "sample_observed_worlds(seed)": lambda x: d.sample_observed_worlds(GAME.observation(0), 1, seed=x),
        "PIMCAgent(worlds)": lambda x: PIMCAgent(worlds=x),
        "PIMCAgent(seed)": lambda x: PIMCAgent(seed=x),
        "PIMCAgent(solver_nodes)": lambda x: PIMCAgent(solver_nodes=x),
        "PIMCAgent(solver_cards)": lambda x: PIMCAgent(solver_cards=x),
    }


CALLS = _calls()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize("name", sorted(CALLS))
@given(x=ARGS)
def test_int_arguments_work_or_raise_type_or_value_errors(name, x):
    try:
        CALLS[name](x)
    except (TypeError, ValueError) as e:
        assert str(e), f"{name}({x!r}) raised {type(e).__name__} without a message"


def test_arena_names_an_agent_that_raises():
    def broken(observation, legal_actions):
        raise KeyError("oops")
    with pytest.raises(d.arena.AgentError, match="agent 'broken' raised KeyError") as info:
        d.arena.play([broken, "simple"], deals=1)
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize("junk", [None, 3, "pass", d.parse_move("BR")])
def test_arena_names_an_agent_returning_junk(junk):
    def bad(observation, legal_actions):
        return legal_actions[0] if observation.phase.name != "PLAY" else junk
    with pytest.raises((TypeError, ValueError), match="agent 'bad'"):
        d.arena.play([bad, "simple"], deals=1)


class _MaskedBatch:
    name = "masked"

    def act_batch(self, vg, tables):
        ids = vg.legal_ids[vg.legal_offsets[tables]].astype(np.int64)
        return np.ma.masked_array(ids, mask=np.ones(len(ids), bool))


def test_arena_refuses_masked_action_ids():
    with pytest.raises(ValueError, match="agent 'masked'"):
        d.arena.play([_MaskedBatch(), "simple"], deals=1)


def test_session_play_rejects_huge_deal_counts():
    with pytest.raises(ValueError, match="deals"):
        Session(seed=1).play([d.game.simple_bot] * 3, deals=2**41)


def test_table_checks_seats_and_ids():
    from ddz_fast.envs.table import Table
    t = Table()
    t.new_game(np.uint64(2**64 - 1))
    for bad, exc in ((True, TypeError), (-1, ValueError), (3, ValueError), (1.0, TypeError)):
        with pytest.raises(exc, match="player"):
            t.action_mask(bad)
    for bad, exc in ((True, TypeError), (-1, ValueError), (2**64, ValueError), (1.0, TypeError)):
        with pytest.raises(exc, match="action id"):
            t.step(bad)
    ids = t.legal_ids()
    assert t.step(np.int16(ids[0])) is not None
    with pytest.raises(RuntimeError, match="no game"):
        Table.__new__(Table).step(0)


def test_environment_seeds_take_numpy_ints_and_refuse_the_rest():
    gym = pytest.importorskip("gymnasium")  # noqa: F841
    from ddz_fast.envs.single import DouDizhuSingleAgentEnv
    env = DouDizhuSingleAgentEnv()
    a, _ = env.reset(seed=np.int64(3))
    b, _ = env.reset(seed=3)
    assert np.array_equal(a["observation"], b["observation"])
    for bad, exc in ((True, TypeError), (1.5, TypeError), (-1, ValueError)):
        with pytest.raises(exc, match="seed"):
            env.reset(seed=bad)
    with pytest.raises(RuntimeError, match="reset"):
        DouDizhuSingleAgentEnv.__new__(DouDizhuSingleAgentEnv).step(0)


@pytest.mark.parametrize("hands", [{"": None, "1": None, "0": None}, {0: "3", 1: "4", 2: "5"}, {"3", "4", "5"}])
def test_from_position_refuses_hands_without_a_seat_order(hands):
    """A mapping or a set has a length but no seat order: a TypeError
    naming the type, never a KeyError or an arbitrary seat order."""
    with pytest.raises(TypeError, match="hands must be a sequence of 3 hands"):
        Game.from_position(hands, 0)
