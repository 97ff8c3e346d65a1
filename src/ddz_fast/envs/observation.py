"""The environments' observation vector: :class:`ObservationLayout`, defined
in :mod:`ddz_fast.observation` (this name stays for existing imports)."""
from __future__ import annotations

from ..observation import ObservationLayout

__all__ = ["ObservationLayout"]
