"""Reinforcement-learning environments on the :class:`~ddz_fast.Game` engine.

* :mod:`ddz_fast.envs.aec`: a PettingZoo AEC environment (``env()``,
  ``raw_env``), all seats as agents;
* :mod:`ddz_fast.envs.parallel`: a PettingZoo parallel environment
  (``parallel_env``), all seats as agents, one action dict a step;
* :mod:`ddz_fast.envs.single`: a Gymnasium environment for one seat against
  built-in bots (``DouDizhuSingleAgentEnv``);
* :mod:`ddz_fast.envs.vector`: a Gymnasium ``VectorEnv`` of many such tables
  on the batched game (``DouDizhuVectorEnv``).

All need the optional extra: ``pip install ".[pettingzoo]"`` from a clone (PettingZoo
and Gymnasium).  Importing this package does not import them; the names below
load their module on first use.  The parts shared by both need only NumPy
and are imported here: :class:`ActionLayout` (the action ids),
:class:`ObservationLayout` (the observation vector), :class:`Table` (a game
driven by action ids) and :class:`IllegalActionError` (the same class as
:class:`ddz_fast.IllegalActionError`).  What every environment does with an
illegal action (the ``illegal_action`` and ``illegal_reward`` options) is
decided in :mod:`ddz_fast.envs.illegal`.
"""
from __future__ import annotations

import importlib
from typing import Any, List

from .action_layout import ActionLayout
from .observation import ObservationLayout
from ..errors import IllegalActionError
from .table import Table

__all__ = ["env", "raw_env", "parallel_env", "DouDizhuSingleAgentEnv", "DouDizhuVectorEnv",
           "ActionLayout", "ObservationLayout", "Table",
           "IllegalActionError"]

_LAZY = {"env": "aec", "raw_env": "aec", "parallel_env": "parallel", "DouDizhuSingleAgentEnv": "single",
         "DouDizhuVectorEnv": "vector"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ddz_fast.envs' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> List[str]:
    return sorted(list(globals()) + list(_LAZY))
