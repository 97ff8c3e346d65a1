"""Type stub for the compiled :mod:`ddz_fast._registry` (source: _registry.pyx).

Its API is C-level (``_registry.pxd``): Python sees nothing of it."""

__all__: list[str] = []
