"""Type stub for the compiled :mod:`ddz_fast._registry` (source: _registry.pyx).

Its API is C-level (``_registry.pxd``); Python sees only the test helper."""

__all__: list[str] = []

def _rules_c_fields() -> list[str]: ...
