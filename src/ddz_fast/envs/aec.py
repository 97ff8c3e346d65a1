"""A PettingZoo AEC environment for Dou Dizhu on the :class:`~ddz_fast.Game` engine.

Needs PettingZoo (from a clone: ``pip install ".[pettingzoo]"``)::

    from ddz_fast.envs.aec import env
    e = env(rules="standard")                     # wrapped, like PettingZoo's classic games
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* Agents ``"player_0" .. "player_{n-1}"`` are the seats (3, or 4 with the
  ``"four"`` rules); ``agent_selection`` is the seat to act (auction, doubling
  or play).
* Actions: one ``Discrete`` space per agent over every id of
  :class:`~ddz_fast.envs.action_layout.ActionLayout` (auction ids first, then
  the dense card-play ids of :func:`ddz_fast.actions.action_space`).
* Observations: ``{"observation": Box(float32), "action_mask": Box(0, 1, int8)}``;
  the vector is documented in :mod:`ddz_fast.envs.observation`; the mask is
  all zeros for an agent that is not to act.
* Rewards: 0 until the deal ends, then every agent gets its settled score
  (``Game.result.scores``; they sum to zero).  All agents terminate together.
  A deal that everyone passes is redealt inside the same episode.
* Illegal actions (:mod:`ddz_fast.envs.illegal`, shared by all the
  environments): with ``illegal_action="terminate"`` (the default of
  :func:`env`, the convention of PettingZoo's classic games) the episode
  ends with ``illegal_reward`` (default -1) for the offender, 0 for the
  others and ``infos[offender]["illegal_action"]`` True; with ``"raise"``
  (the default of :class:`raw_env`) :class:`~ddz_fast.IllegalActionError`
  (a ValueError) is raised and the state is unchanged.
* ``max_cycles``: None (the default: no truncation; every deal ends) or a
  number of cycles (one cycle = ``n`` actions): after ``max_cycles * n``
  actions of an unfinished deal all agents are truncated, with reward 0.
* ``reset(seed=s)`` makes the episode, and every later ``reset()`` without a
  seed, reproducible; the deal's own seed is ``env.unwrapped.game.seed``.
* ``render_mode``: None, ``"ansi"`` (``render()`` returns the table as text)
  or ``"human"`` (prints it); the text shows every hand.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, cast

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as e:  # pragma: no cover - exercised without pettingzoo installed
    raise ImportError(
        "ddz_fast.envs.aec needs PettingZoo and Gymnasium: pip install pettingzoo gymnasium "
        "(from a clone of ddz-fast: pip install \".[pettingzoo]\") "
        f"({e})") from e

from .._util.checks import check_env_seed, check_int
from ..game import Game
from ..rules import RulesLike, resolve_rules
from .action_layout import check_action_id
from .illegal import IllegalActionPolicy
from .spaces import env_spaces
from .table import Table

__all__ = ["raw_env", "env", "ENV_NAME"]

ENV_NAME = "ddz_fast_v1"
_RENDER_MODES = ("ansi", "human")

Obs = Dict[str, npt.NDArray[Any]]


def env(rules: RulesLike = "standard", render_mode: Optional[str] = None,
        illegal_reward: float = -1.0, max_cycles: Optional[int] = None,
        illegal_action: str = "terminate") -> Any:
    """The environment with PettingZoo's usual wrappers for a classic game,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``; an illegal
    action ends the episode (``illegal_action="terminate"``, what
    PettingZoo's ``TerminateIllegalWrapper`` does, here done by the
    environment itself) or raises (``"raise"``)."""
    e: Any = raw_env(rules=rules, render_mode=render_mode, max_cycles=max_cycles,
                     illegal_action=illegal_action, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment (see the module docstring)."""

    metadata = {"render_modes": list(_RENDER_MODES), "name": ENV_NAME, "is_parallelizable": False}

    def __init__(self, rules: RulesLike = "standard", render_mode: Optional[str] = None,
                 max_cycles: Optional[int] = None, illegal_action: str = "raise",
                 illegal_reward: float = -1.0) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self._illegal = IllegalActionPolicy(illegal_action, illegal_reward)
        self.illegal_action = self._illegal.mode
        self.illegal_reward = self._illegal.reward
        self.max_cycles = None if max_cycles is None else check_int(max_cycles, "max_cycles", 1, 1 << 62)
        self._steps = 0
        self.render_mode = render_mode
        self.rules = resolve_rules(rules)
        self.table = Table(self.rules)
        n = self.rules.players
        self.possible_agents: List[str] = [f"player_{s}" for s in range(n)]
        self.agents: List[str] = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        per_agent = {a: env_spaces(self.rules) for a in self.possible_agents}   # (own spaces, own RNGs)
        self.action_spaces = {a: sp[0] for a, sp in per_agent.items()}
        self.observation_spaces = {a: sp[1] for a, sp in per_agent.items()}
        self._np_random: Optional[np.random.Generator] = None
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # -- spaces ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The running :class:`~ddz_fast.Game` (read it; act through :meth:`step`)."""
        return self.table.game

    # -- the API -----------------------------------------------------------------
    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deal a new game.  ``seed`` reseeds the environment's generator;
        without it the next deal comes from the generator's current state."""
        seed = check_env_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**63))
        self.table.new_game(game_seed)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> Obs:
        """``{"observation": ..., "action_mask": ...}`` of ``agent`` (new arrays)."""
        self._require_reset("observe")
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.action_mask(seat)}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (None for an agent that is done)."""
        self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is not done: its action must be an action id, not None")
        action = check_action_id(action, self.table.actions.size)     # TypeError/ValueError: not an id
        why = self.table.illegal_reason(action)
        if why is not None:
            reward = self._illegal.reject(why)          # ("raise": IllegalActionError, nothing changed)
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {a: 0.0 for a in self.agents}
            self.rewards[agent] = reward
            self.terminations = {a: True for a in self.agents}
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.table.step(action)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        g = self.table.game
        result = g.result
        if result is not None:
            for a, score in zip(self.possible_agents, result.scores):
                self.rewards[a] = float(score)
                self.terminations[a] = True
        else:
            self._clear_rewards()
            self.agent_selection = self._agent_to_move()
            if self.max_cycles is not None and self._steps >= self.max_cycles * len(self.possible_agents):
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> Any:
        """``(observation, cumulative reward, termination, truncation, info)``
        of the selected agent (RuntimeError before :meth:`reset`)."""
        self._require_reset("last")
        return super().last(observe)

    def _require_reset(self, what: str) -> None:
        # (before the first reset there is no deal and no agent: a clear error, not a KeyError)
        if not self.table.has_game:
            raise RuntimeError(f"call reset() before {what}(): no deal has been dealt yet")

    def render(self) -> Optional[str]:
        """The table as text (``"ansi"``: returned; ``"human"``: printed)."""
        if self.render_mode is None:
            import warnings
            warnings.warn("render() was called without a render_mode ('ansi' or 'human')", stacklevel=2)
            return None
        text = self.table.render() if self.agents or self.table.has_game else "no game yet"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _agent_to_move(self) -> str:
        g = self.table.game
        return self.possible_agents[cast(int, g.to_move)]

    def __str__(self) -> str:
        return ENV_NAME
