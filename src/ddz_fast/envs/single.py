"""A Gymnasium environment for one seat of Dou Dizhu against built-in bots.

Needs Gymnasium (from a clone, ``pip install ".[pettingzoo]"`` installs it)::

    import numpy as np
    from ddz_fast.envs.single import DouDizhuSingleAgentEnv
    env = DouDizhuSingleAgentEnv(rules="standard", seat=0, opponent="random")
    obs, info = env.reset(seed=42)
    done = False
    while not done:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, done, truncated, info = env.step(action)
    print(reward)                                 # the seat's settled score

* The agent plays ``seat`` (an int, auction included), or with
  ``seat="landlord"`` the bots play the whole auction and the agent then
  plays whichever seat became landlord.  The other seats are played by
  ``opponent``: ``"random"`` (uniform over the legal actions, drawn from the
  environment's seeded generator), ``"simple"`` (:func:`ddz_fast.game.simple_bot`),
  another arena agent name (``"pimc(worlds=64)"``, ``"douzero:DIR"`` for
  DouZero's checkpoints under the ``douzero`` rules, ``"module:attribute"``:
  :func:`ddz_fast.arena.observation_agent`) or any callable taking a
  :class:`~ddz_fast.Observation` and returning one of its ``legal_actions``.
* Actions, observations and the action mask are those of the PettingZoo
  environment (:mod:`ddz_fast.envs.aec`): ``Discrete`` ids laid out by
  :class:`~ddz_fast.envs.action_layout.ActionLayout`, and
  ``{"observation": float32 vector, "action_mask": int8 mask}``;
  :meth:`DouDizhuSingleAgentEnv.action_masks` gives the mask as booleans (for
  maskable-policy libraries).
* Reward: 0 until the deal ends, then the agent's settled score.  A deal that
  everyone passes is redealt within the episode; a deal that would end before
  the agent's first turn (a landlord going out in one move) is replaced by the
  next deal, so ``reset`` always returns a position where the agent acts.
* Illegal actions (ids of actions that are not legal now; a value that is
  not an action id at all raises TypeError/ValueError): with
  ``illegal_action="terminate"`` (the default) the episode ends with reward
  ``illegal_reward`` and ``info["illegal_action"] = True``; with
  ``"raise"``, :class:`~ddz_fast.IllegalActionError` (a ValueError) is
  raised and the state is unchanged (:mod:`ddz_fast.envs.illegal`, shared
  by all the environments).
* An opponent that fails ends the episode: if the ``opponent`` callable
  raises, :class:`~ddz_fast.AgentError` (its exception chained) is raised;
  if it returns an action that is not legal (or no action at all),
  :class:`~ddz_fast.IllegalActionError`.  Either way, in ``step`` or in
  ``reset``, the deal is abandoned where the opponent failed: ``step`` then
  raises RuntimeError until the next ``reset`` (the learner's action is never
  applied to another seat).  ``step`` before the first ``reset`` raises
  RuntimeError too.
* ``reset(seed=s)`` makes the episode (and the later unseeded resets)
  reproducible; the constructor's ``seed`` is used by the first reset when it
  gets none.  Registered with Gymnasium as ``"ddz_fast/DouDizhuSingle-v1"``.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, SupportsFloat, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

try:
    import gymnasium as gym
except ImportError as e:  # pragma: no cover - exercised without gymnasium installed
    raise ImportError(
        "ddz_fast.envs.single needs Gymnasium: pip install gymnasium "
        "(from a clone of ddz-fast: pip install \".[pettingzoo]\") "
        f"({e})") from e

from .._util.checks import check_env_seed, check_seat
from ..errors import AgentError, IllegalActionError
from ..game import Game, Observation, simple_bot
from ..rules import RulesLike, resolve_rules
from .action_layout import check_action_id
from .illegal import IllegalActionPolicy
from .spaces import env_spaces
from .table import Table

__all__ = ["DouDizhuSingleAgentEnv", "ENV_ID"]

ENV_ID = "ddz_fast/DouDizhuSingle-v1"
_RENDER_MODES = ("ansi", "human")

Obs = Dict[str, Any]           # "observation": float32 vector, "action_mask": int8 mask
Opponent = Union[str, Callable[[Observation], object]]


class DouDizhuSingleAgentEnv(gym.Env[Obs, np.int64]):
    """One seat against bots (see the module docstring)."""

    metadata = {"render_modes": list(_RENDER_MODES), "render_fps": 4}
    _done = True        # (a class default: made without __init__, step() asks for reset())

    def __init__(self, rules: RulesLike = "standard", seat: Union[int, str] = 0,
                 opponent: Opponent = "random", seed: Optional[int] = None,
                 render_mode: Optional[str] = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0) -> None:
        self.rules = resolve_rules(rules)
        n = self.rules.players
        if not (isinstance(seat, str) and seat == "landlord"):
            check_seat(seat, n, "seat (a seat number or 'landlord')")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self._illegal = IllegalActionPolicy(illegal_action, illegal_reward)
        check_env_seed(seed)   # (refused here rather than at the first reset)
        self._bot = self._make_bot(opponent)
        self.opponent = opponent
        self.seat_option = seat
        self.render_mode = render_mode
        self.illegal_action = self._illegal.mode
        self.illegal_reward = self._illegal.reward
        self._init_seed = seed
        self.table = Table(self.rules)
        self.action_space, self.observation_space = env_spaces(self.rules)
        self.seat: int = -1 if seat == "landlord" else int(seat)
        self._done = True

    def _make_bot(self, opponent: Opponent) -> Callable[[Game, int], object]:
        if opponent == "random":
            def random_bot(game: Game, seat: int) -> object:
                legal = game.legal_actions()
                return legal[int(self.np_random.integers(len(legal)))]
            return random_bot
        if opponent == "simple":
            def simple(game: Game, seat: int) -> object:
                return simple_bot(game.observation(seat), game.rules)
            return simple
        if isinstance(opponent, str):
            from ..arena import observation_agent      # (agents by name: douzero:DIR loads PyTorch)

            try:
                agent = observation_agent(opponent, rules=self.rules)
            except ValueError as e:
                raise ValueError(f"opponent must be 'random', 'simple', an arena agent name or a callable: {e}"
                                 ) from None

            def named(game: Game, seat: int) -> object:
                return agent(game.observation(seat))
            return named
        if callable(opponent):
            def custom(game: Game, seat: int) -> object:
                return opponent(game.observation(seat))
            return custom
        raise TypeError(f"opponent must be 'random', 'simple', an arena agent name or a callable, "
                        f"not {type(opponent).__name__}")

    @property
    def game(self) -> Game:
        """The running :class:`~ddz_fast.Game` (read it; act through :meth:`step`)."""
        return self.table.game

    # -- the API -----------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Obs, Dict[str, Any]]:
        """Deal until the agent is to act; returns ``(observation, info)``."""
        seed = check_env_seed(seed)
        if seed is None and self._init_seed is not None and self._np_random is None:
            seed = self._init_seed
        super().reset(seed=seed)
        self._done = True           # (until the learner is to act: an opponent may fail first)
        while True:
            self.table.new_game(int(self.np_random.integers(0, 2**63)))
            if self.seat_option == "landlord":
                self.seat = -1
            if self._advance():
                break
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any) -> Tuple[Obs, SupportsFloat, bool, bool, Dict[str, Any]]:
        """Apply the agent's action id, then let the bots play until the
        agent's next turn or the end of the deal."""
        if self._done:
            raise RuntimeError("no episode is running (before the first reset, after the end of a "
                               "deal, or after an opponent failed): call reset()")
        action = check_action_id(action, self.table.actions.size)     # TypeError/ValueError: not an id
        why = self.table.illegal_reason(action)
        if why is not None:
            reward = self._illegal.reject(why)          # ("raise": IllegalActionError, nothing changed)
            self._done = True
            return self._obs(), reward, True, False, {"illegal_action": True}
        self.table.step(action)
        self._done = True           # (until the learner is to act again: an opponent may fail first)
        self._advance()
        self._done = False
        g = self.table.game
        if self.render_mode == "human":
            self.render()
        if g.result is None:
            return self._obs(), 0.0, False, False, {}
        self._done = True
        scores = g.result.scores
        return self._obs(), float(scores[self.seat]), True, False, {"scores": scores}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent as a boolean array (all False when
        the episode is over)."""
        out: npt.NDArray[np.bool_] = self.table.action_mask(self.seat).astype(bool)
        return out

    def render(self) -> Optional[str]:
        """The table as text (``"ansi"``: returned; ``"human"``: printed)."""
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode ('ansi' or 'human')")
            return None
        text = self.table.render() if self.table.has_game else "no game yet"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- helpers ---------------------------------------------------------------
    def _advance(self) -> bool:
        """Let the bots act until the agent's turn; True when the agent is to
        act, False when the deal ended first."""
        g = self.table.game
        while not g.is_over:
            if self.seat < 0 and g.landlord is not None:
                self.seat = g.landlord
            if g.to_move == self.seat:
                return True
            seat = cast(int, g.to_move)          # (set while the deal is not over)
            self.table.step(self._opponent_action(g, seat))
        return False

    def _opponent_action(self, g: Game, seat: int) -> int:
        """The id of the opponent's action at ``seat``: AgentError when the
        opponent raises, IllegalActionError when its answer is no legal
        action (the callers have already ended the episode)."""
        try:
            action = self._bot(g, seat)
        except Exception as e:
            raise AgentError(f"the opponent at seat {seat} raised {type(e).__name__}: {e}; "
                             "the episode is over: call reset()") from e
        layout = self.table.actions
        try:
            i = layout.action_id(action)    # type: ignore[arg-type]
        except (TypeError, ValueError) as e:
            raise IllegalActionError(f"the opponent at seat {seat} returned {action!r}, not an action "
                                     f"of this game ({e}); the episode is over: call reset()") from None
        why = self.table.illegal_reason(i)
        if why is not None:
            raise IllegalActionError(f"the opponent at seat {seat} returned an illegal action: {why}; "
                                     "the episode is over: call reset()")
        return i

    def _obs(self) -> Obs:
        return {"observation": self.table.observe(self.seat),
                "action_mask": self.table.action_mask(self.seat)}


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point=f"{__name__}:DouDizhuSingleAgentEnv")
