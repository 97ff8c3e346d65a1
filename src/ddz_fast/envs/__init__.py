"""Reinforcement-learning environments on the :class:`~ddz_fast.Game` engine.

* :mod:`ddz_fast.envs.aec`: a PettingZoo AEC environment (``env()``,
  ``raw_env``), all seats as agents;
* :mod:`ddz_fast.envs.single`: a Gymnasium environment for one seat against
  built-in bots (``DouDizhuSingleAgentEnv``).

Both need the optional extra: ``pip install ddz-fast[pettingzoo]`` (PettingZoo
and Gymnasium).  Importing this package does not import them; the names below
load their module on first use.  The action ids and the observation vector,
shared by both, live in :mod:`ddz_fast.envs.action_layout` and
:mod:`ddz_fast.envs.observation` and need only NumPy.
"""
from __future__ import annotations

import importlib
from typing import Any, List

__all__ = ["env", "raw_env", "DouDizhuSingleAgentEnv"]

_LAZY = {"env": "aec", "raw_env": "aec", "DouDizhuSingleAgentEnv": "single"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ddz_fast.envs' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> List[str]:
    return sorted(list(globals()) + list(_LAZY))
