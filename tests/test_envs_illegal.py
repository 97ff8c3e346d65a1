"""The options every environment shares, checked on all four (AEC,
parallel, single-seat, vector): what an illegal action does
(``illegal_action="terminate"`` or ``"raise"``, ``illegal_reward``; one
policy in ddz_fast.envs.illegal) and which seeds ``reset`` takes (Gymnasium's:
None or an int >= 0)."""
import numpy as np
import pytest

from optional import require

import ddz_fast

require("pettingzoo")
require("gymnasium")
from ddz_fast.envs import aec, parallel, single, vector  # noqa: E402


class _Aec:
    default = "raise"          # the raw env raises; env() terminates (PettingZoo's wrapper convention)

    def make(self, **kw):
        return aec.raw_env(**kw)

    def reset(self, e, seed):
        e.reset(seed=seed)
        self.agent = e.agent_selection
        return e.observe(self.agent)["action_mask"][None]

    def step(self, e, ids):
        e.step(ids[0])
        return e.rewards[self.agent], e.terminations[self.agent], e.infos[self.agent].get("illegal_action", False)

    def states(self, e):
        return [e.game.snapshot()]


class _Parallel:
    default = "terminate"

    def make(self, **kw):
        return parallel.parallel_env(**kw)

    def reset(self, e, seed):
        obs, infos = e.reset(seed=seed)
        self.agent = next(a for a in e.agents if infos[a]["to_act"])
        return obs[self.agent]["action_mask"][None]

    def step(self, e, ids):
        _, rewards, terms, _, infos = e.step({self.agent: ids[0]})
        return rewards[self.agent], terms[self.agent], infos[self.agent].get("illegal_action", False)

    def states(self, e):
        return [e.table.game.snapshot()]


class _Single:
    default = "terminate"

    def make(self, **kw):
        return single.DouDizhuSingleAgentEnv(**kw)

    def reset(self, e, seed):
        obs, _ = e.reset(seed=seed)
        return obs["action_mask"][None]

    def step(self, e, ids):
        _, reward, term, _, info = e.step(ids[0])
        return reward, term, info.get("illegal_action", False)

    def states(self, e):
        return [e.game.snapshot()]


class _Vector:
    default = "terminate"

    def make(self, **kw):
        return vector.DouDizhuVectorEnv(2, **kw)

    def reset(self, e, seed):
        obs, _ = e.reset(seed=seed)
        return obs["action_mask"]

    def step(self, e, ids):
        _, rewards, terms, _, info = e.step(np.asarray(ids, dtype=np.int64))
        return rewards[0], terms[0], info.get("illegal_action", [False])[0]

    def states(self, e):
        return [e.vg.games(i).snapshot() for i in range(e.num_envs)]


ENVS = [pytest.param(_Aec(), id="aec"), pytest.param(_Parallel(), id="parallel"),
        pytest.param(_Single(), id="single"), pytest.param(_Vector(), id="vector")]


def _ids(masks):
    """An illegal id at the first table (the others: a legal one), and its legal id."""
    legal = [int(np.flatnonzero(m)[0]) for m in masks]
    bad = list(legal)
    bad[0] = int(np.flatnonzero(masks[0] == 0)[-1])
    return bad, legal


def test_the_environments_raise_the_librarys_illegal_action_error():
    from ddz_fast.envs import IllegalActionError
    from ddz_fast.envs.table import IllegalActionError as from_table
    assert IllegalActionError is from_table is ddz_fast.IllegalActionError
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("kind", ENVS)
def test_the_default_mode(kind):
    assert kind.make().illegal_action == kind.default
    assert kind.make().illegal_reward == -1.0


@pytest.mark.parametrize("kind", ENVS)
def test_terminate_ends_the_offenders_episode_with_the_illegal_reward(kind):
    e = kind.make(illegal_action="terminate", illegal_reward=-4)
    bad, _ = _ids(kind.reset(e, 5))
    reward, terminated, flagged = kind.step(e, bad)
    assert (reward, bool(terminated), bool(flagged)) == (-4.0, True, True)


@pytest.mark.parametrize("kind", ENVS)
def test_raise_names_the_action_and_changes_nothing(kind):
    e = kind.make(illegal_action="raise")
    bad, legal = _ids(kind.reset(e, 5))
    before = kind.states(e)
    with pytest.raises(ddz_fast.IllegalActionError, match=f"action id {bad[0]} .*not legal"):
        kind.step(e, bad)
    assert kind.states(e) == before
    reward, terminated, flagged = kind.step(e, legal)          # the episode goes on
    assert not flagged


@pytest.mark.parametrize("kind", ENVS)
@pytest.mark.parametrize("mode", ["terminate", "raise"])
def test_an_id_that_is_no_action_is_an_error_in_both_modes(kind, mode):
    e = kind.make(illegal_action=mode)
    masks = kind.reset(e, 5)
    before = kind.states(e)
    _, legal = _ids(masks)
    for bad, exc in [(masks.shape[1], ValueError), (-1, ValueError)]:
        ids = list(legal)
        ids[0] = bad
        with pytest.raises(exc, match="out of range"):
            kind.step(e, ids)
        assert kind.states(e) == before


def test_the_wrapped_aec_env_takes_both_modes():
    e = aec.env(illegal_action="raise")
    e.reset(seed=5)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[-1])
    with pytest.raises(ddz_fast.IllegalActionError):
        e.step(bad)
    e = aec.env(illegal_reward=-2)
    e.reset(seed=5)
    offender = e.agent_selection
    e.step(bad)
    assert all(e.terminations.values()) and e.rewards[offender] == -2
    assert e.infos[offender]["illegal_action"]


@pytest.mark.parametrize("kind", ENVS)
@pytest.mark.parametrize("options, exc, match", [
    ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
    ({"illegal_action": None}, TypeError, "illegal_action"),
    ({"illegal_reward": "-1"}, TypeError, "illegal_reward"),
    ({"illegal_reward": True}, TypeError, "illegal_reward"),
    ({"illegal_reward": float("nan")}, ValueError, "illegal_reward"),
    ({"illegal_reward": float("-inf")}, ValueError, "illegal_reward"),
    ({"illegal_reward": 10**400}, ValueError, "illegal_reward"),      # (was OverflowError)
])
def test_the_options_are_checked_alike(kind, options, exc, match):
    with pytest.raises(exc, match=match):
        kind.make(**options)


@pytest.mark.parametrize("kind", ENVS)
def test_reset_takes_gymnasiums_seeds_in_every_environment(kind):
    e = kind.make()
    for seed, exc in [(-1, ValueError), (True, TypeError), (1.0, TypeError), ("1", TypeError)]:
        with pytest.raises(exc, match="seed"):
            kind.reset(e, seed)
    np.testing.assert_array_equal(kind.reset(e, np.int64(3)), kind.reset(kind.make(), 3))


def test_the_constructors_seeds_follow_the_same_policy():
    for make in (lambda s: single.DouDizhuSingleAgentEnv(seed=s), lambda s: vector.DouDizhuVectorEnv(2, seed=s)):
        with pytest.raises(ValueError, match="seed"):
            make(-1)
        with pytest.raises(TypeError, match="seed"):
            make(2.0)
    a = vector.DouDizhuVectorEnv(2, seed=None).reset()[0]
    assert a["observation"].shape[0] == 2
