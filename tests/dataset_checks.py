"""Checks of recorded datasets shared by the standard and the wild-card
trajectory tests: a game's outcome columns against its result, and a shard
with one bit flipped refused with a ``ValueError`` naming the file or read
back as exactly the data and metadata written, never as other data."""
from __future__ import annotations

import numpy as np

from ddz_fast.trajectories import TrajectoryDataset


def check_outcome_rows(data, a, b, res):
    """Rows ``a..b`` (one game) carry its result: each seat's final score,
    win (+1/-1), the landlord, and the reward on the game's last row only."""
    for k in range(a, b):
        seat = int(data["seat"][k])
        assert data["final_score"][k] == res.scores[seat]
        won = (seat == res.landlord) == (res.winner == res.landlord)
        assert data["win"][k] == (1 if won else -1)
        assert data["landlord"][k] == res.landlord
        assert data["reward"][k] == (res.scores[seat] if k == b - 1 else 0)


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
