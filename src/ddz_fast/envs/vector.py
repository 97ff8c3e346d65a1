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
* Auto-reset in the same step, by Gymnasium's convention
  (``metadata["autoreset_mode"]`` is ``SAME_STEP``): a table whose deal
  ended returns ``terminated=True`` with its reward, and its observation is
  already the next deal's, at the learner's first turn; the finished
  episode's last observation is ``info["final_obs"][i]`` (an object array,
  None at the other tables: the learner's view of the finished deal, with an
  all-zero mask, or after an illegal action the position where it was
  taken) and its info is in ``info["final_info"]`` (``"scores"``: the
  settled scores, (n, players) int64; ``"illegal_action"``: see below), each
  with its boolean ``"_"`` mask (``info["_final_obs"]``,
  ``info["_final_info"]``, ...).  A deal that ends before the learner acts
  (a landlord going out in one move) is skipped.  Episodes never truncate.
* :meth:`DouDizhuVectorEnv.legal_ids` gives every table's legal ids as
  compressed rows (``offsets, ids``), straight from the engine's list: the
  fast way to pick actions without scanning the ``(n, size)`` masks.
* Illegal actions (:mod:`ddz_fast.envs.illegal`, shared by all the
  environments): with ``illegal_action="terminate"`` (the default) a table
  whose action is not legal returns ``terminated=True`` with reward
  ``illegal_reward`` and ``info["illegal_action"]`` True (a boolean array,
  with Gymnasium's ``info["_illegal_action"]`` mask; also in
  ``info["final_info"]``), and its next deal starts at once, as after any
  ending; the other tables step as usual.  With
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
from typing import Any, Dict, List, Optional, Tuple

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

from .._util.checks import check_env_seed, check_int, check_seat, check_threads
from .._util.rng import game_seed
from .._engine.vec import VecGame
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
        self.vg = VecGame(n, r, self._seed, threads=check_threads(threads), bot=opponent == "simple",
                          auto_reset=False)
        self._final_scores = np.zeros((n, r.players), dtype=np.int64)
        self.layout = ActionLayout(r)          # (the same ids as the VecGame's: the game's)
        size = self.layout.size
        self.single_action_space, self.single_observation_space = env_spaces(r)
        self.action_space = batch_space(self.single_action_space, n)
        self.observation_space = batch_space(self.single_observation_space, n)
        self._mask = np.zeros((n, size), dtype=np.int8)
        self._set_rows = np.zeros(0, dtype=np.int64)       # flat indices set in _mask
        # the legal ids (CSR) and the game id each plays (ActionLayout.play_choices)
        self._legal = (np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
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
        self._ready = False
        self.vg.reset(self._seed)
        self._acted[:] = False
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        self._play_bots(rewards, terminated)
        self._deal_ended_tables(np.zeros(0, dtype=np.intp), rewards, terminated)
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
        # (the illegal tables' last observations, before anything moves: their final_obs)
        illegal_obs = [self._table_obs(int(i)) for i in bad]
        acts = self._played_ids(a)
        acts[bad] = VecGame.NO_ACTION           # (those tables sit the step out, then deal again)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        self._acted[:] = True
        self._step_vg(acts, rewards, terminated)   # (the engine checks the ids again)
        rewards[bad] = reward
        terminated[bad] = True
        self._play_bots(rewards, terminated)
        info: Dict[str, Any] = {}
        if terminated.any():
            info = self._final_info(terminated, illegal, bad, illegal_obs)
        self._deal_ended_tables(bad, rewards, terminated)
        return self._obs(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), info

    def legal_ids(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal action ids of every table in compressed rows (CSR):
        ``(offsets, ids)``, table ``i``'s ids being
        ``ids[offsets[i]:offsets[i + 1]]`` (the marked entries of its
        ``action_mask``, in ``Game.legal_actions()`` order); new int64 arrays,
        read from the engine's own list without scanning the masks."""
        if not self._ready:
            raise RuntimeError("call reset() before legal_ids()")
        off, ids, _ = self._legal
        return off.copy(), ids.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every table as booleans (for maskable policies)."""
        if not self._ready:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        pass

    def __repr__(self) -> str:
        return (f"DouDizhuVectorEnv({self.num_envs}, rules={self.rules.name!r}, "
                f"opponent={self.opponent!r}, reward={self.reward_kind!r})")

    # -- internals -----------------------------------------------------------------------------
    # The VecGame runs with auto_reset=False: a finished deal stays on its
    # table until the step's end, so its final observation can be read, and
    # only then is the table's next deal started (one set_games call for
    # every finished table).

    def _step_vg(self, acts: npt.NDArray[np.int64], rewards: npt.NDArray[np.float64],
                 terminated: npt.NDArray[np.bool_]) -> None:
        """One VecGame step; the rewards of the deals it ended that the
        learner took part in."""
        vg = self.vg
        was_open = vg.to_move >= 0
        vg.step(acts)
        ended_now = vg.done & was_open
        ended = np.flatnonzero(ended_now & self._acted)
        if len(ended):
            table = vg.scores if self.reward_kind == "score" else vg.wins
            rewards[ended] = table[ended, self.seats[ended]]
            terminated[ended] = True
            self._final_scores[ended] = vg.scores[ended]
        self._acted[ended_now] = False

    def _play_bots(self, rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_]) -> None:
        """Let the bots play until every table's deal is over or the learner is to act."""
        vg = self.vg
        while True:
            to_move = vg.to_move
            waiting = (to_move != self.seats) & (to_move >= 0)
            if not waiting.any():
                return
            if self.opponent == "simple":
                bot = vg.bot_actions
                assert bot is not None          # made with bot=True
                acts = bot.astype(np.int64)
            else:
                off = vg.legal_offsets
                count = np.diff(off)
                pick = off[:-1] + (self._rng.random(self.num_envs) * count).astype(np.int64)
                acts = np.full(self.num_envs, VecGame.NO_ACTION, dtype=np.int64)
                acts[waiting] = vg.legal_ids[pick[waiting]]
            acts[~waiting] = VecGame.NO_ACTION
            self._step_vg(acts, rewards, terminated)

    def _deal_ended_tables(self, also: npt.NDArray[np.intp], rewards: npt.NDArray[np.float64],
                           terminated: npt.NDArray[np.bool_]) -> None:
        """Start the next deal of the table's own sequence (what an automatic
        reset deals) at every finished table and at ``also``, until the
        learner is to act at every table (a deal that ends before the
        learner acts is skipped)."""
        vg = self.vg
        tables = np.union1d(np.flatnonzero(vg.to_move < 0), also).astype(np.intp)
        while len(tables):
            nxt = vg.episodes[tables] + 1
            vg.set_games(tables, [game_seed(vg.seed, (int(i) << 32) + int(k)) for i, k in zip(tables, nxt)])
            self._acted[tables] = False
            self._play_bots(rewards, terminated)
            tables = np.flatnonzero(vg.to_move < 0)

    def _played_ids(self, a: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The game ids the environments' ids ``a`` play at each table (the
        same ids without wild cards); tables whose id is not legal get
        NO_ACTION."""
        if not self.layout.wild:
            same: npt.NDArray[np.int64] = a.copy()
            return same
        played = self._legal[2]
        # (_obs set these keys, row * size + id, from the same legal lists: each
        # row's ids are ascending and the rows in order, so one search for all)
        keys = self._set_rows
        want = np.arange(self.num_envs, dtype=np.int64) * self.layout.size + a
        at = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
        out = np.full(self.num_envs, VecGame.NO_ACTION, dtype=np.int64)
        found = (keys[at] == want) if len(keys) else np.zeros(self.num_envs, dtype=bool)
        out[found] = played[at[found]]
        return out

    def _table_obs(self, i: int) -> Dict[str, npt.NDArray[Any]]:
        """Table ``i``'s observation dict as it is now, the learner to act."""
        obs = self.vg.observations
        assert obs is not None
        return {"observation": obs[i].copy(), "action_mask": self._mask[i].copy()}

    def _final_info(self, terminated: npt.NDArray[np.bool_], illegal: npt.NDArray[np.bool_],
                    bad: npt.NDArray[np.intp], illegal_obs: List[Dict[str, npt.NDArray[Any]]]
                    ) -> Dict[str, Any]:
        """The info of a step that ended episodes, by Gymnasium's same-step
        convention (``final_obs``, ``final_info`` and their ``_`` masks),
        read before the finished tables are dealt again."""
        n = self.num_envs
        final_obs = np.full(n, None, dtype=object)
        ended_play = terminated & ~illegal
        for i in np.flatnonzero(ended_play):
            g = self.vg.games(int(i))           # (the finished deal; the mask of a finished deal is empty)
            final_obs[i] = {"observation": g.observation_tensor(int(self.seats[i])),
                            "action_mask": np.zeros(self.layout.size, dtype=np.int8)}
        for i, o in zip(bad, illegal_obs):
            final_obs[i] = o
        final_info: Dict[str, Any] = {}
        if ended_play.any():
            final_info["scores"] = np.where(ended_play[:, None], self._final_scores, 0)
            final_info["_scores"] = ended_play.copy()
        info: Dict[str, Any] = {"final_obs": final_obs, "_final_obs": terminated.copy(),
                                "final_info": final_info, "_final_info": terminated.copy()}
        if len(bad):
            final_info["illegal_action"] = illegal.copy()
            final_info["_illegal_action"] = illegal.copy()
            info["illegal_action"] = illegal.copy()
            info["_illegal_action"] = illegal.copy()
        return info

    def _obs(self) -> Dict[str, npt.NDArray[Any]]:
        vg = self.vg
        flat = self._mask.reshape(-1)
        flat[self._set_rows] = 0                      # clear only what was set
        off = vg.legal_offsets
        self._legal = self.layout.play_choices(off, vg.legal_ids[:off[-1]])
        off, cols, _ = self._legal
        rows = np.repeat(np.arange(self.num_envs, dtype=np.int64), np.diff(off))
        self._set_rows = rows * self.layout.size + cols
        flat[self._set_rows] = 1
        obs = vg.observations
        assert obs is not None
        return {"observation": obs.copy(), "action_mask": self._mask.copy()}


gym.register(id="ddz_fast/DouDizhuVector-v1", vector_entry_point=f"{__name__}:DouDizhuVectorEnv")
