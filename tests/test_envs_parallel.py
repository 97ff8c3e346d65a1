"""The PettingZoo parallel environment (ddz_fast.envs.parallel): PettingZoo's
parallel API test, deals against the AEC environment's Table and the Game's
result, the illegal-action options and bad input."""
import numpy as np
import pytest

from optional import require

require("pettingzoo")
from pettingzoo.test import parallel_api_test  # noqa: E402

from ddz_fast.envs import IllegalActionError  # noqa: E402
from ddz_fast.envs.parallel import parallel_env  # noqa: E402


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_pettingzoo_parallel_api_test_passes(rules):
    parallel_api_test(parallel_env(rules), num_cycles=400)


def _legal_actions(env, obs, rng):
    acts = {}
    for a in env.agents:
        legal = np.flatnonzero(obs[a]["action_mask"])
        acts[a] = int(legal[rng.integers(len(legal))]) if len(legal) else 0
    return acts


@pytest.mark.parametrize("rules", ["standard", "four"])
def test_whole_deals_end_with_the_games_scores_and_one_agent_acts_a_step(rules):
    env = parallel_env(rules)
    rng = np.random.default_rng(1)
    for seed in range(5):
        obs, infos = env.reset(seed=seed)
        game = env.table.game
        while env.agents:
            acting = [a for a in env.agents if infos[a]["to_act"]]
            assert len(acting) == 1 and acting == [f"player_{game.to_move}"]
            for a in env.agents:
                assert obs[a]["action_mask"].any() == (a in acting)
                np.testing.assert_array_equal(obs[a]["observation"],
                                              env.table.observe(int(a.split("_")[1])))
            obs, rewards, terms, truncs, infos = env.step(_legal_actions(env, obs, rng))
            assert not any(truncs.values())
        res = game.result
        assert res is not None and all(terms.values())
        assert [rewards[f"player_{s}"] for s in range(len(res.scores))] == [float(x) for x in res.scores]


def test_illegal_actions_terminate_or_raise():
    env = parallel_env(illegal_reward=-5)
    obs, infos = env.reset(seed=3)
    agent = next(a for a in env.agents if infos[a]["to_act"])
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[-1])
    obs, rewards, terms, _, infos = env.step({agent: bad})
    assert rewards[agent] == -5 and all(terms.values()) and infos[agent]["illegal_action"]
    assert sum(rewards.values()) == -5 and env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({agent: 0})
    env = parallel_env(illegal_action="raise")
    obs, infos = env.reset(seed=3)
    snap = env.table.game.snapshot()
    with pytest.raises(IllegalActionError):
        env.step({agent: bad})
    assert env.table.game.snapshot() == snap
    for acts, err in [({agent: 1.5}, TypeError), ({agent: -1}, ValueError), ({}, ValueError),
                      ([0], TypeError)]:
        with pytest.raises(err):
            env.step(acts)
        assert env.table.game.snapshot() == snap
    with pytest.raises(ValueError, match="illegal_action"):
        parallel_env(illegal_action="ignore")
    with pytest.raises(TypeError, match="illegal_reward"):
        parallel_env(illegal_reward="-1")
