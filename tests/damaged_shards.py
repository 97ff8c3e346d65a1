"""One check for every trajectory format: a shard with one bit flipped is
refused with a ``ValueError`` naming the file, or it reads back as exactly
the data and metadata written, never as other data."""
from __future__ import annotations

import numpy as np

from ddz_fast.trajectories import TrajectoryDataset


def flip_each_and_check(shard, scratch, stride, bit):
    """Flip ``bit(pos)`` of every ``stride``-th byte of ``shard`` in turn
    (written to ``scratch``) and check each damaged copy; returns how many
    were refused and how many were tried."""
    good = open(shard, "rb").read()
    ok = TrajectoryDataset(shard)
    want, want_meta = ok.read(), ok.metadata
    refused = tried = 0
    for pos in range(0, len(good), stride):
        damaged = bytearray(good)
        damaged[pos] ^= 1 << bit(pos)
        scratch.write_bytes(damaged)
        tried += 1
        try:
            ds = TrajectoryDataset(scratch)
            got = ds.read()
        except ValueError as e:
            assert str(scratch) in str(e)
            refused += 1
            continue
        assert ds.metadata == want_meta, pos
        assert got.keys() == want.keys(), pos
        for k in want:
            np.testing.assert_array_equal(got[k], want[k], err_msg=f"byte {pos}: column {k}")
    return refused, tried
