"""Type stub for the compiled :mod:`ddz_fast._core.wild` (source: _core/wild.pyx).

A C-level API only (wild-card move generation, _core/wild.pxd)."""

__all__: list[str]
