"""A one-line progress bar on stderr, shared by the command line and the
dataset recorder (no dependency: a terminal gets a live bar, anything else
only the final line)."""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

__all__ = ["Progress"]


class Progress:
    """``label [#####.....]  42.0% 420/1,000 games  12,345 games/s``."""

    WIDTH = 30

    def __init__(self, label: str, total: int, unit: str = "games", stream: Optional[TextIO] = None,
                 enabled: bool = True) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        isatty = getattr(self.stream, "isatty", None)
        self.live = enabled and callable(isatty) and bool(isatty())
        self.started = time.perf_counter()
        self.done = 0
        if self.live:
            self._draw()

    def update(self, done: int) -> None:
        self.done = done
        if self.live:
            self._draw()

    def close(self) -> None:
        """Draw the final state (also when not a terminal) and end the line."""
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def _draw(self) -> None:
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(self.WIDTH * frac))
        rate = self.done / max(time.perf_counter() - self.started, 1e-9)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {100 * frac:5.1f}% "
                          f"{self.done:,}/{self.total:,} {self.unit}  {rate:,.0f} {self.unit}/s ")
        self.stream.flush()
