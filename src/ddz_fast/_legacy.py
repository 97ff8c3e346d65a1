"""The module names that pickles written by ddz-fast 0.1.0 hold.

That release's pickles name private modules that have since moved into the
subpackages (``ddz_fast._move.Move._make``, ``ddz_fast._movelist``,
``ddz_fast._fast``, ``ddz_fast._rng``; ``ddz_fast._engine._restore_game`` is
kept by the ``_engine`` package itself).  Each old name is registered in
``sys.modules`` as an alias of the module that now holds the same callable,
so ``pickle.loads`` finds it; nothing else uses these names.  Today's
pickles name only :mod:`ddz_fast.pickling`.
"""
import sys

from ._core import entry, move, movelist
from ._util import rng

for _name, _module in (("ddz_fast._move", move), ("ddz_fast._movelist", movelist),
                       ("ddz_fast._fast", entry), ("ddz_fast._rng", rng)):
    sys.modules.setdefault(_name, _module)
