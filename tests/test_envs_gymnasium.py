"""The Gymnasium single-seat environment (ddz_fast.envs.single): Gymnasium's
env checker, seeding, rewards against the Game's own result, the seat and
opponent options, illegal actions and the import guard."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

from optional import require

from ddz_fast import AgentError, Game, Rules
from ddz_fast.game import simple_bot


@pytest.fixture(scope="module")
def single():
    require("gymnasium")
    from ddz_fast.envs import single
    return single


def _episode(env, rng, seed=None, check=None):
    """One episode with uniformly random legal actions; returns (total reward,
    steps, last info)."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    done = False
    while not done:
        if check is not None:
            check(env, obs)
        legal = np.flatnonzero(obs["action_mask"].view(bool))   # (a bool view: ~10x faster)
        assert legal.size, "the agent is asked to act with no legal action"
        obs, reward, done, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        assert not truncated
        total += reward
        steps += 1
    return total, steps, info


@pytest.mark.parametrize("kwargs", [{}, {"seat": 2, "opponent": "simple"}, {"seat": "landlord"},
                                    {"rules": "four", "seat": 3},
                                    {"rules": Rules(auction="rob"), "seat": 1}])
def test_gymnasium_check_env(single, kwargs):
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # any checker warning fails the test...
        warnings.filterwarnings(                 # ...except this note about calling it on a bare class
            "ignore", message=".*Not able to test alternative render modes")
        check_env(single.DouDizhuSingleAgentEnv(**kwargs))


def test_gymnasium_make_and_render_modes(single, capsys):
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env
    env = gym.make(single.ENV_ID, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*different from the unwrapped")
        check_env(env)                           # also renders every declared mode via the spec
    capsys.readouterr()
    env.reset(seed=1)
    text = env.render()
    assert "> seat 0" in text                    # the agent's seat is to act after reset
    with pytest.raises(ValueError, match="render_mode"):
        single.DouDizhuSingleAgentEnv(render_mode="rgb_array")


def test_the_agent_acts_only_on_its_turn_and_gets_its_score(single):
    rng = np.random.default_rng(0)
    for seat in range(3):
        env = single.DouDizhuSingleAgentEnv(seat=seat, seed=100 + seat)

        def check(env, obs):
            g = env.game
            assert g.to_move == seat
            f = env.table.observations.split(obs["observation"])
            assert np.flatnonzero(f["me"]).tolist() == [seat]
            assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())

        for _ in range(100):
            total, steps, info = _episode(env, rng, check=check)
            res = env.game.result
            assert res is not None and steps > 0
            assert total == res.scores[seat] and info["scores"] == res.scores
            assert sum(res.scores) == 0
            assert not env.action_masks().any()


def test_seat_landlord_always_plays_the_landlord(single):
    env = single.DouDizhuSingleAgentEnv(seat="landlord", opponent="simple")
    rng = np.random.default_rng(1)
    seats = set()
    for k in range(60):
        obs, info = env.reset(seed=k)
        g = env.game
        assert g.landlord is not None and g.to_move == g.landlord == env.seat == info["seat"]
        seats.add(env.seat)
        total, _, _ = _episode(env, rng, seed=k)
        assert total == env.game.result.scores[env.game.landlord]
    assert seats == {0, 1, 2}


def _replay_bots(env, choose):
    """Replay the finished deal of `env` on a fresh Game with the same seed and
    check that every bot action equals choose(observation)."""
    g = env.game
    assert g.deal_number == 0          # the history then covers the whole episode
    replay = Game(env.rules, seed=g.seed)
    bot_actions = 0
    for s, a in g.history:
        if s != env.seat:
            assert a == choose(replay.observation(s))
            bot_actions += 1
        replay.step(a)
    assert replay.result == g.result
    return bot_actions


def test_custom_opponent_chooses_the_bots_actions(single):
    seen = set()

    def first_legal(obs):
        seen.add(obs.player)
        return obs.legal_actions[0]

    env = single.DouDizhuSingleAgentEnv(seat=0, opponent=first_legal, seed=5)
    _episode(env, np.random.default_rng(2))
    assert seen == {1, 2}
    assert _replay_bots(env, lambda obs: obs.legal_actions[0]) > 0


def test_simple_opponent_is_simple_bot(single):
    env = single.DouDizhuSingleAgentEnv(seat=1, opponent="simple", seed=6)
    _episode(env, np.random.default_rng(3))
    assert _replay_bots(env, simple_bot) > 0
    with pytest.raises(ValueError, match="opponent"):
        single.DouDizhuSingleAgentEnv(opponent="strong")


def test_opponents_named_as_arena_agents(single):
    from ddz_fast.pimc import PIMCAgent

    env = single.DouDizhuSingleAgentEnv(seat=2, opponent="pimc(worlds=4)", seed=4)
    _episode(env, np.random.default_rng(1))
    pimc = PIMCAgent(worlds=4, seed=0)
    assert _replay_bots(env, pimc) > 0
    with pytest.raises(ValueError, match="arena agent name.*douzero"):
        single.DouDizhuSingleAgentEnv(opponent="douzero:")
    with pytest.raises(TypeError, match="opponent"):
        single.DouDizhuSingleAgentEnv(opponent=3)


def test_seeding_is_reproducible(single):
    def run(**kw):
        env = single.DouDizhuSingleAgentEnv(**kw)
        rng = np.random.default_rng(7)
        out = []
        for _ in range(3):
            total, steps, _ = _episode(env, rng)
            out.append((env.game.seed, tuple(env.game.history), total, steps))
        return out

    assert run(seed=3) == run(seed=3)
    assert run(seed=3) != run(seed=4)
    env = single.DouDizhuSingleAgentEnv(seed=3)
    a = env.reset()[0]["observation"]
    b = single.DouDizhuSingleAgentEnv().reset(seed=3)[0]["observation"]
    assert np.array_equal(a, b)


def test_illegal_action_terminates_or_raises(single):
    from ddz_fast.envs.table import IllegalActionError
    env = single.DouDizhuSingleAgentEnv(illegal_reward=-7)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    obs, reward, done, truncated, info = env.step(bad)
    assert (reward, done, truncated, info) == (-7, True, False, {"illegal_action": True})
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    before = env.game.snapshot()
    with pytest.raises(TypeError, match="must be an int"):    # not an id at all: an error, not a move
        env.step("3")
    with pytest.raises(ValueError, match="out of range"):
        env.step(env.action_space.n)
    assert env.game.snapshot() == before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))      # the episode goes on
    strict = single.DouDizhuSingleAgentEnv(illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    before = strict.game.snapshot()
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    assert strict.game.snapshot() == before
    strict.step(int(np.flatnonzero(obs["action_mask"])[0]))      # still playable


@pytest.mark.parametrize("bad, error", [({"seat": 3}, ValueError), ({"seat": "farmer"}, TypeError),
                                        ({"seat": True}, TypeError), ({"rules": "nope"}, ValueError),
                                        ({"illegal_action": "ignore"}, ValueError),
                                        ({"seed": "1"}, TypeError)])
def test_bad_arguments(single, bad, error):
    with pytest.raises(error):
        single.DouDizhuSingleAgentEnv(**bad)


def test_import_guard_without_gymnasium():
    code = (
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"
        "import ddz_fast, ddz_fast.envs\n"
        "try:\n"
        "    from ddz_fast.envs import DouDizhuSingleAgentEnv\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install ".[pettingzoo]"' in out.stdout


class _FailingOpponent:
    """An opponent that plays its first legal action until its ``fail_at``-th
    call, which raises or answers with an action that is not legal."""

    def __init__(self, fail_at, how):
        self.calls, self.fail_at, self.how = 0, fail_at, how

    def __call__(self, obs):
        self.calls += 1
        if self.calls < self.fail_at:
            return obs.legal_actions[0]
        if self.how == "raise":
            raise ZeroDivisionError("the opponent's own bug")
        if self.how == "not an action":
            return "not an action"
        from ddz_fast import Bid, Move          # (the auction is over by then: a bid is not legal)
        return Bid(3) if obs.phase.name == "PLAY" else Move.pass_()


@pytest.mark.parametrize("how, error", [("raise", "AgentError"), ("illegal", "IllegalActionError"),
                                        ("not an action", "IllegalActionError")])
def test_an_opponent_that_fails_in_step_ends_the_episode(single, how, error):
    """The learner's next action is never applied at another seat: after an
    opponent fails, step refuses until reset, and reset deals afresh."""
    import ddz_fast
    env = single.DouDizhuSingleAgentEnv(seat=0, opponent=_FailingOpponent(8, how), seed=1)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    with pytest.raises(getattr(ddz_fast, error), match="the opponent at seat [12]") as caught:
        for _ in range(200):
            legal = np.flatnonzero(obs["action_mask"].view(bool))
            obs, reward, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            assert not done, "the deal ended before the opponent failed"
    if how == "raise":
        assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert env.game.to_move != 0                      # an opponent was to move when it failed
    history = list(env.game.history)
    for action in range(env.action_space.n):          # any action: refused, nothing applied
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(action)
    assert list(env.game.history) == history
    env._bot = lambda game, seat: game.legal_actions()[0]     # (a working opponent again)
    obs, _ = env.reset()
    assert env.game.to_move == 0 and obs["action_mask"].any()


def test_an_opponent_that_fails_during_reset_leaves_no_episode_open(single):
    """Also when the previous episode was still running: step refuses until
    a reset succeeds."""
    opponent = _FailingOpponent(10**9, "raise")
    env = single.DouDizhuSingleAgentEnv(seat=2, opponent=opponent, seed=4)
    env.reset()                                       # seat 2: the opponents bid first
    opponent.fail_at = opponent.calls + 1
    with pytest.raises(AgentError, match="the opponent at seat"):
        env.reset()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_step_before_reset_is_a_clear_error(single):
    env = single.DouDizhuSingleAgentEnv()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
