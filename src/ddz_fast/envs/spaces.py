"""The Gymnasium spaces every environment of ``ddz_fast.envs`` uses, built
once here: ``Discrete`` over the :class:`ActionLayout` ids, and the
``{"observation", "action_mask"}`` dict over the :class:`ObservationLayout`
vector.  Needs Gymnasium."""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from gymnasium import spaces

from ..rules import RulesLike
from .action_layout import ActionLayout
from .observation import ObservationLayout

__all__ = ["env_spaces"]


def env_spaces(rules: RulesLike) -> Tuple[spaces.Discrete, spaces.Dict]:
    """``(action_space, observation_space)`` of one seat under ``rules``."""
    size = ActionLayout(rules).size
    ol = ObservationLayout(rules)
    obs: Any = spaces.Dict({
        "observation": spaces.Box(low=ol.low, high=ol.high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
    })
    return spaces.Discrete(size), obs
