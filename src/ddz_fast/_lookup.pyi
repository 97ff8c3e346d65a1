"""Type stub for the compiled :mod:`ddz_fast._lookup` (source: _lookup.pyx)."""

from typing import final

import numpy as np
import numpy.typing as npt

__all__ = ["IdFinder", "ReusedMask", "pack_rows"]

def pack_rows(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """One ``uint64`` key per ``(M, 16)`` move row: count ``i`` in bits ``4i..4i+3``,
    the kind in bits 60..63 (every byte below 16)."""

class IdFinder:
    """Row number of each move row of a fixed ``(n_rows, 16)`` table; -1 for a row not in it."""

    @property
    def n_rows(self) -> int: ...
    def find(self, rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """Row numbers of ``rows`` (``(m, 16)`` ``uint8``) as ``int64``; -1 where absent."""
    def mask(self, rows: npt.NDArray[np.uint8], out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """Boolean ``(n_rows,)`` mask, True at the rows found (``KeyError(i)`` for an absent row)."""
    def masks(
        self,
        rows: npt.NDArray[np.uint8],
        offsets: npt.NDArray[np.int64],
        out: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Boolean ``(len(offsets) - 1, n_rows)`` masks of consecutive row groups."""

@final
class ReusedMask:
    """Fills one caller's ``out=`` mask array call after call, clearing only
    the entries the previous call set."""

    def __new__(cls, table: IdFinder) -> ReusedMask: ...
    def fill(self, rows: npt.NDArray[np.uint8], out: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """Write the mask of ``rows`` into ``out`` and return it (``KeyError(i)`` for an absent row)."""
