"""Compatibility with other Dou Dizhu engines (DouZero, RLCard).

:mod:`ddz_fast.compat.rlcard` numbers moves by RLCard's 27,472 action ids;
:mod:`ddz_fast.compat.douzero` lists DouZero's legal actions and can make
DouZero's own ``GameEnv`` use them (:func:`ddz_fast.compat.douzero.accelerate`).
Submodules are imported on demand; none needs the other engine installed,
except for ``accelerate`` (and DouZero's own rare cases, see its docs).
"""
