"""Optional third-party packages used by some tests (DouZero, RLCard, PettingZoo...).

``require("rlcard")`` imports a module or skips the test when it is missing.
``.ci/run`` installs every optional test dependency and sets
``DDZ_REQUIRE_OPTIONAL=1``, which turns a missing package into a failure, so a
broken install cannot silently skip the compatibility tests in CI.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(name: str) -> ModuleType:
    """Import `name`, or skip (fail under DDZ_REQUIRE_OPTIONAL=1) if it is missing."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        if os.environ.get("DDZ_REQUIRE_OPTIONAL") == "1":
            pytest.fail(f"optional test dependency {name!r} is required here but missing: {e}")
        pytest.skip(f"optional test dependency {name!r} is not installed", allow_module_level=True)
        raise  # unreachable; pytest.skip raises
