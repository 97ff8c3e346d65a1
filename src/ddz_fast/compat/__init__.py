"""Compatibility helpers for other Dou Dizhu engines.

:mod:`ddz_fast.compat.rlcard` numbers moves by RLCard's 27,472 action ids.
Submodules are imported on demand; none needs the other engine installed.
"""
