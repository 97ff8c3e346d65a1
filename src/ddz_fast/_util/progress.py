"""The progress bar of long runs (the arena, self-play, dataset recording),
on stderr, drawn by tqdm: count, rate, elapsed time and ETA.

``enabled=None`` (the default) draws it only on a terminal (a TTY), so logs
and pipes stay clean; ``True`` draws it on a terminal and, anywhere else,
writes the final line once at :meth:`Progress.close`; ``False`` is silent.
"""
from __future__ import annotations

import sys
import time
from typing import Any, Optional, TextIO

from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

__all__ = ["Progress", "progress_enabled"]


class _Bar(tqdm):  # type: ignore[misc, type-arg, unused-ignore]
    # No monitor thread (tqdm's default starts one per process): a bar
    # refreshes from update(), which every caller makes often.
    monitor_interval = 0


def _is_tty(stream: Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return callable(isatty) and bool(isatty())
    except (ValueError, OSError):        # (a closed or odd stream is no terminal)
        return False


def progress_enabled(progress: object, stream: Optional[TextIO] = None) -> bool:
    """Whether a ``progress`` option draws a bar: None means "on a terminal"
    (``stream``, default stderr), a bool is taken as it is; anything else is
    a TypeError."""
    if progress is None:
        return _is_tty(sys.stderr if stream is None else stream)
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be None (on a terminal), True or False, not {type(progress).__name__}")
    return progress


class Progress:
    """``label:  42%|####      | 420/1000 [00:03<00:04, 125.0 games/s]``.

    ``update(done)`` takes the running total (not an increment); call it as
    often as work finishes (tqdm redraws at most ten times a second).
    ``close()`` ends the line; a ``Progress`` is also a context manager.
    """

    def __init__(self, label: str, total: int, unit: str = "games", stream: Optional[TextIO] = None,
                 enabled: Optional[bool] = None) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = progress_enabled(enabled, self.stream)
        self.live = self.enabled and _is_tty(self.stream)
        self.started = time.perf_counter()
        self.done = 0
        self._bar: Optional[_Bar] = None
        if self.live:
            self._bar = _Bar(total=total, desc=label, unit=f" {unit}", unit_scale=True, file=self.stream,
                             dynamic_ncols=True, leave=True, smoothing=0.1)

    def update(self, done: int) -> None:
        """The number of units done so far."""
        if self._bar is not None and done != self.done:
            self._bar.update(done - self.done)
        self.done = done

    def postfix(self, **values: str) -> None:
        """Show ``key=value`` pairs after the rate (kept until replaced)."""
        if self._bar is not None:
            self._post = {**getattr(self, "_post", {}), **values}
            self._bar.set_postfix(self._post, refresh=False)

    def close(self) -> None:
        """End the bar (a terminal), or write its final line (``enabled=True``
        elsewhere)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.enabled:
            elapsed = time.perf_counter() - self.started
            rate = self.done / max(elapsed, 1e-9)
            self.stream.write(f"{self.label}: {self.done:,}/{self.total:,} {self.unit} in "
                              f"{tqdm.format_interval(elapsed)}, {rate:,.0f} {self.unit}/s\n")
            self.stream.flush()
        self.enabled = False                  # (closed: a second close writes nothing)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
