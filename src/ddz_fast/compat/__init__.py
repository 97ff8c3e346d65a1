"""Compatibility with other Dou Dizhu engines (DouZero, RLCard).

:mod:`ddz_fast.compat.douzero` accelerates DouZero's legal-action generator;
:mod:`ddz_fast.compat.rlcard` numbers moves by RLCard's 27,472 action ids.
Submodules import nothing of those engines at import time, except
:func:`ddz_fast.compat.douzero.accelerate`, which patches an installed DouZero.
"""
