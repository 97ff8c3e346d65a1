"""A PettingZoo ``ParallelEnv`` for Dou Dizhu: every seat an agent, one action
dict a step.

Needs PettingZoo (from a clone: ``pip install ".[pettingzoo]"``)::

    from ddz_fast.envs.parallel import parallel_env
    env = parallel_env(rules="standard")
    observations, infos = env.reset(seed=42)
    while env.agents:
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"])
                   if observations[a]["action_mask"].any() else 0 for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

The game is turn-based, so one agent acts a step: ``infos[agent]["to_act"]``
is True for it, its ``action_mask`` marks its legal ids and the other agents'
masks are all zeros; the others' entries in the action dict are ignored (any
value, or missing).  Agents, action ids (:class:`~ddz_fast.envs.ActionLayout`),
observations and rewards are those of the AEC environment
(:mod:`ddz_fast.envs.aec`), built on the same :class:`~ddz_fast.envs.Table`.
An illegal action of the agent to act ends the episode with
``illegal_reward`` (default -1) for it and 0 for the others
(``illegal_action="terminate"``, PettingZoo's convention for classic games),
or raises :class:`~ddz_fast.IllegalActionError` with the state unchanged
(``"raise"``; :mod:`ddz_fast.envs.illegal`, shared by all the
environments).  For many tables at once use the Gymnasium vector environment
(:mod:`ddz_fast.envs.vector`) or :class:`ddz_fast.VecGame`.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import ParallelEnv  # type: ignore[import-untyped]
except ImportError as e:  # pragma: no cover - exercised without pettingzoo installed
    raise ImportError(
        "ddz_fast.envs.parallel needs PettingZoo and Gymnasium: pip install pettingzoo gymnasium "
        "(from a clone of ddz-fast: pip install \".[pettingzoo]\") "
        f"({e})") from e

from .._util.checks import check_env_seed
from ..rules import RulesLike, resolve_rules
from .action_layout import check_action_id
from .illegal import IllegalActionPolicy
from .spaces import env_spaces
from .table import Table

__all__ = ["parallel_env", "ENV_NAME"]

ENV_NAME = "ddz_fast_parallel_v1"

Obs = Dict[str, npt.NDArray[Any]]


class parallel_env(ParallelEnv):  # type: ignore[misc]
    """The parallel environment (see the module docstring)."""

    metadata = {"render_modes": [], "name": ENV_NAME}

    def __init__(self, rules: RulesLike = "standard", illegal_action: str = "terminate",
                 illegal_reward: float = -1.0) -> None:
        self._illegal = IllegalActionPolicy(illegal_action, illegal_reward)
        self.rules = resolve_rules(rules)
        self.illegal_action = self._illegal.mode
        self.illegal_reward = self._illegal.reward
        self.table = Table(self.rules)
        self.possible_agents: List[str] = [f"player_{s}" for s in range(self.rules.players)]
        self.agents: List[str] = []
        per_agent = {a: env_spaces(self.rules) for a in self.possible_agents}   # (own spaces, own RNGs)
        self.action_spaces = {a: sp[0] for a, sp in per_agent.items()}
        self.observation_spaces = {a: sp[1] for a, sp in per_agent.items()}
        self._np_random: Optional[np.random.Generator] = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[Dict[str, Obs], Dict[str, Dict[str, Any]]]:
        """Deal a new game (``seed`` reseeds the generator of deals)."""
        seed = check_env_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.table.new_game(int(self._np_random.integers(0, 2**63)))
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: Dict[str, Any]) -> Tuple[Dict[str, Obs], Dict[str, float], Dict[str, bool],
                                                     Dict[str, bool], Dict[str, Dict[str, Any]]]:
        """Apply the action of the agent to act (the other entries are ignored)."""
        if not self.agents:
            raise RuntimeError("no episode is running (before the first reset, or after the episode "
                               "ended): call reset()")
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action id, not {type(actions).__name__}")
        seat = self.table.game.to_move
        assert seat is not None             # agents is not empty: the game is not over
        agent = self.possible_agents[seat]
        if agent not in actions:
            raise ValueError(f"{agent} is to act: actions must hold its action id")
        rewards = {a: 0.0 for a in self.agents}
        ended = False
        # A value that is no action id at all raises TypeError/ValueError either way.
        action = check_action_id(actions[agent], self.table.actions.size)
        why = self.table.illegal_reason(action)
        if why is not None:
            rewards[agent] = self._illegal.reject(why)      # ("raise": IllegalActionError, nothing changed)
            ended = True
            infos = {a: {"to_act": False, "illegal_action": a == agent} for a in self.agents}
        else:
            self.table.step(action)
            result = self.table.game.result
            if result is not None:
                rewards = {a: float(s) for a, s in zip(self.possible_agents, result.scores)}
                ended = True
            infos = self._infos()
        observations = self._observations()
        terminations = {a: ended for a in self.agents}
        truncations = {a: False for a in self.agents}
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Nothing to release."""

    def _observations(self) -> Dict[str, Obs]:
        return {a: {"observation": self.table.observe(s), "action_mask": self.table.action_mask(s)}
                for s, a in enumerate(self.possible_agents)}

    def _infos(self) -> Dict[str, Dict[str, Any]]:
        to_move = self.table.game.to_move
        return {a: {"to_act": s == to_move} for s, a in enumerate(self.possible_agents)}

    def __str__(self) -> str:
        return ENV_NAME
