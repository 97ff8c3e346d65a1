"""Compatibility with other Dou Dizhu engines (DouZero, RLCard).

Submodules import nothing of those engines at import time, except
:func:`ddz_fast.compat.douzero.accelerate`, which patches an installed DouZero.
"""
