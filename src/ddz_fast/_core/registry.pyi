"""Type stub for the compiled :mod:`ddz_fast._core.registry` (source: _core/registry.pyx).

Its API is C-level (``_core/registry.pxd``): Python sees nothing of it."""

__all__: list[str] = []
