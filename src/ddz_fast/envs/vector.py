"""A Gymnasium ``VectorEnv``: ``num_envs`` tables of one learning seat against
built-in bots, on the batched game (:class:`~ddz_fast.VecGame`).

It is :class:`~ddz_fast.envs.single.DouDizhuSingleAgentEnv` for many tables
at once: the same action ids (the game's, :class:`~ddz_fast.envs.ActionLayout`:
auction first; those of the ``VecGame`` too), the same observation dict (``"observation"`` float32 and
``"action_mask"`` int8, each with a leading ``num_envs`` axis) and the same
reward (0 until a deal ends, then the seat's settled score, or +1/-1 with
``reward="win"``).  Every table is stepped by the engine in one compiled call
per batch; the opponents' moves (``opponent="random"`` or ``"simple"``, the
simple bot) are chosen in NumPy / C as well, so no Python runs per table.

* ``seat``: the learner's seat at every table (an int), or ``None`` for
  table ``i`` playing seat ``i % players`` (every seat in the batch).
* Auto-reset in the same step (``metadata["autoreset_mode"]`` is
  ``SAME_STEP``): a table whose deal ended returns ``terminated=True`` with
  its reward, and its observation is already the next deal's, at the
  learner's first turn.  A deal that ends before the learner acts (a
  landlord going out in one move) is skipped.  Episodes never truncate.
* Illegal actions (:mod:`ddz_fast.envs.illegal`, shared by all the
  environments): with ``illegal_action="terminate"`` (the default) a table
  whose action is not legal returns ``terminated=True`` with reward
  ``illegal_reward`` and ``info["illegal_action"]`` True (a boolean array,
  with Gymnasium's ``info["_illegal_action"]`` mask), and its next deal
  starts at once, as after any ending; the other tables step as usual.  With
  ``"raise"``, :class:`~ddz_fast.IllegalActionError` (a ValueError) names
  the first such table, and no table changes.  A value that is no action id
  (out of range, not an integer) raises TypeError/ValueError in both modes.
* ``seed`` and ``reset(seed=s)``: None or an int >= 0, as Gymnasium's seeding
  takes it (``seed=None``: a fresh random seed).  Table ``i``'s ``k``-th
  deal is ``Game(rules, seed=game_seed(s, i * 2**32 + k))``; the random
  opponents draw from a generator seeded with ``s`` too.
"""
from __future__ import annotations

import secrets
from typing import Any, Dict, Optional, Tuple

import numpy as np
import numpy.typing as npt

try:
    import gymnasium as gym
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised without gymnasium installed
    raise ImportError(
        "ddz_fast.envs.vector needs Gymnasium: pip install gymnasium "
        "(from a clone of ddz-fast: pip install \".[pettingzoo]\") "
        f"({e})") from e

from .._checks import check_env_seed, check_int, check_seat, check_threads
from .._rng import game_seed
from .._vec import VecGame
from ..rules import RulesLike, resolve_rules
from .action_layout import ActionLayout
from .illegal import IllegalActionPolicy
from .spaces import env_spaces

__all__ = ["DouDizhuVectorEnv"]

_OPPONENTS = ("random", "simple")
_REWARDS = ("score", "win")


class DouDizhuVectorEnv(VectorEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` tables, one learning seat each (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, rules: RulesLike = "standard", seat: Optional[int] = 0,
                 opponent: str = "simple", *, reward: str = "score", seed: Optional[int] = 0,
                 threads: int = 1, illegal_action: str = "terminate", illegal_reward: float = -1.0) -> None:
        r = resolve_rules(rules)
        n = check_int(num_envs, "num_envs", 1, 1 << 24)
        if not isinstance(opponent, str) or opponent not in _OPPONENTS:
            raise ValueError(f"opponent must be 'random' or 'simple', not {opponent!r}")
        if not isinstance(reward, str) or reward not in _REWARDS:
            raise ValueError(f"reward must be 'score' or 'win', not {reward!r}")
        self._illegal = IllegalActionPolicy(illegal_action, illegal_reward)
        self.illegal_action = self._illegal.mode
        self.illegal_reward = self._illegal.reward
        self.rules = r
        self.num_envs = n
        self.opponent = opponent
        self.reward_kind = reward
        if seat is None:
            self.seats = np.arange(n, dtype=np.int32) % r.players
        else:
            self.seats = np.full(n, check_seat(seat, r.players), dtype=np.int32)
        seed = check_env_seed(seed)
        self._seed: int = secrets.randbits(64) if seed is None else seed
        self.vg = VecGame(n, r, self._seed, threads=check_threads(threads), bot=opponent == "simple")
        self.layout = ActionLayout(r)          # (the same ids as the VecGame's: the game's)
        size = self.layout.size
        self.single_action_space, self.single_observation_space = env_spaces(r)
        self.action_space = batch_space(self.single_action_space, n)
        self.observation_space = batch_space(self.single_observation_space, n)
        self._mask = np.zeros((n, size), dtype=np.int8)
        self._set_rows = np.zeros(0, dtype=np.int64)       # flat indices set in _mask
        self._acted = np.zeros(n, dtype=bool)
        self._rng = np.random.default_rng(self._seed)
        self._ready = False

    # -- gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, npt.NDArray[Any]], Dict[str, Any]]:
        seed = check_env_seed(seed)
        if seed is not None:
            self._seed = seed
            self._rng = np.random.default_rng(self._seed)
        self.vg.reset(self._seed)
        self._acted[:] = False
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._advance(rewards, np.zeros(self.num_envs, dtype=bool))
        self._ready = True
        return self._obs(), {}

    def step(self, actions: Any) -> Tuple[Dict[str, npt.NDArray[Any]], npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_], Dict[str, Any]]:
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.dtype.kind not in "iu" or isinstance(actions, np.ma.MaskedArray):
            raise TypeError(f"actions must be an integer array of shape ({self.num_envs},), not {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {a.shape}")
        bad = np.flatnonzero((a < 0) | (a >= self.layout.size))
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"table {i}: action id {a[i]} is out of range 0..{self.layout.size - 1}")
        a = a.astype(np.int64)
        illegal = self._mask[np.arange(self.num_envs), a] == 0
        bad = np.flatnonzero(illegal)
        reward = 0.0
        if len(bad):
            i = int(bad[0])
            reward = self._illegal.reject(   # ("raise": IllegalActionError, nothing changed)
                f"table {i}: action id {a[i]} ({self.layout.action(int(a[i]))}) is not legal for seat "
                f"{int(self.vg.to_move[i])} now; no table was changed")
        acts = a.copy()
        acts[bad] = VecGame.NO_ACTION           # (those tables sit the step out, then deal again)
        self.vg.step(acts)                      # (the engine checks the ids again)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        self._acted[:] = True
        self._settle(rewards, terminated)
        info: Dict[str, Any] = {}
        if len(bad):
            self._redeal(bad)
            rewards[bad] = reward
            terminated[bad] = True
            info = {"illegal_action": illegal, "_illegal_action": illegal.copy()}
        self._advance(rewards, terminated)
        return self._obs(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every table as booleans (for maskable policies)."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        pass

    def __repr__(self) -> str:
        return (f"DouDizhuVectorEnv({self.num_envs}, rules={self.rules.name!r}, "
                f"opponent={self.opponent!r}, reward={self.reward_kind!r})")

    # -- internals -----------------------------------------------------------------------------
    def _settle(self, rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_]) -> None:
        """Rewards of the deals that ended in the last VecGame step and that
        the learner took part in."""
        vg = self.vg
        ended = np.flatnonzero(vg.done & self._acted)
        if len(ended):
            table = vg.scores if self.reward_kind == "score" else vg.wins
            rewards[ended] = table[ended, self.seats[ended]]
            terminated[ended] = True
        self._acted[vg.done] = False

    def _redeal(self, tables: npt.NDArray[np.intp]) -> None:
        """Start the next deal of the table's own sequence at these tables
        (what an automatic reset would deal)."""
        vg = self.vg
        nxt = vg.episodes[tables] + 1
        vg.set_games(tables, [game_seed(vg.seed, (int(i) << 32) + int(k)) for i, k in zip(tables, nxt)])
        self._acted[tables] = False

    def _advance(self, rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_]) -> None:
        """Let the bots play until the learner acts at every table."""
        vg = self.vg
        while True:
            waiting = vg.to_move != self.seats
            if not waiting.any():
                return
            if self.opponent == "simple":
                bot = vg.bot_actions
                assert bot is not None          # made with bot=True
                acts = bot.astype(np.int64)
            else:
                off = vg.legal_offsets
                pick = off[:-1] + (self._rng.random(self.num_envs) * np.diff(off)).astype(np.int64)
                acts = vg.legal_ids[pick].astype(np.int64)
            acts[~waiting] = VecGame.NO_ACTION
            vg.step(acts)
            self._settle(rewards, terminated)

    def _obs(self) -> Dict[str, npt.NDArray[Any]]:
        vg = self.vg
        flat = self._mask.reshape(-1)
        flat[self._set_rows] = 0                      # clear only what was set
        off = vg.legal_offsets
        counts = np.diff(off)
        rows = np.repeat(np.arange(self.num_envs, dtype=np.int64), counts)
        cols = vg.legal_ids[:off[-1]]
        self._set_rows = rows * self.layout.size + cols
        flat[self._set_rows] = 1
        obs = vg.observations
        assert obs is not None
        return {"observation": obs.copy(), "action_mask": self._mask.copy()}


gym.register(id="ddz_fast/DouDizhuVector-v1", vector_entry_point=f"{__name__}:DouDizhuVectorEnv")
