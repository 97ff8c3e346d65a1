"""Neural agents and their training (the ``[train]`` extra: PyTorch).

:mod:`ddz_fast.train.models` holds DouZero's Q-network (whose checkpoints
load unchanged) and :mod:`ddz_fast.train.agent` the :class:`DouZeroAgent`
that plays them, batched over a :class:`~ddz_fast.VecGame` (docs/douzero.md).
Importing :mod:`ddz_fast` never imports this package (nor PyTorch).
"""
from __future__ import annotations

try:
    import torch as _torch  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised without torch
    raise ImportError("ddz_fast.train needs PyTorch: pip install 'ddz-fast[train]' "
                      f"(or pip install torch) ({e})") from e

from .agent import DouZeroAgent as DouZeroAgent
from .models import POSITIONS as POSITIONS
from .models import QNetwork as QNetwork
from .models import load_checkpoint as load_checkpoint
from .models import make_model as make_model
from .models import save_checkpoint as save_checkpoint

__all__ = ["DouZeroAgent", "POSITIONS", "QNetwork", "make_model", "load_checkpoint", "save_checkpoint"]
