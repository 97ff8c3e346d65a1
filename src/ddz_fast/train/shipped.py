"""The model that ships with the package (agent ``dmc``) and the agent of
any directory written by ``ddz-fast train`` (docs/train.md).

The shipped model is package data in ``ddz_fast/train/model/``: DouZero's
three ``.ckpt`` files (small networks) and ``bidder.ckpt``, made with
``ddz-fast train`` on a 2-core machine; ``train.json`` records its settings
and ``README.md`` beside it the command, the frames and the hours.
"""
from __future__ import annotations

import os
from typing import Any, Union

__all__ = ["MODEL_DIR", "trained_agent", "dmc_agent"]

#: The directory of the shipped model.
MODEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model")

PathLike = Union[str, "os.PathLike[str]"]


def trained_agent(directory: PathLike, *, name: str = "dmc", bidder: bool = True, device: str = "cpu") -> Any:
    """The :class:`~ddz_fast.train.agent.DouZeroAgent` of a checkpoint
    directory of ``ddz-fast train`` (its three ``.ckpt`` files), bidding
    with the directory's ``bidder.ckpt`` when ``bidder`` is true, else as
    the simple bot."""
    from .agent import DouZeroAgent
    from .bidder import DMCBidder, load_bidder
    from .dmc import BIDDER_FILE

    d = os.fspath(directory)
    hook = None
    if bidder:
        path = os.path.join(d, BIDDER_FILE)
        if not os.path.isfile(path):
            raise ValueError(f"{d!r} has no {BIDDER_FILE} (pass bidder=False to bid as the simple bot)")
        hook = DMCBidder(load_bidder(path, device), device)
    return DouZeroAgent(d, bidder=hook, name=name, device=device)


def dmc_agent(*, bidder: bool = True, device: str = "cpu") -> Any:
    """The shipped model as an agent (arena name ``dmc``): its card play and,
    with ``bidder``, its bidding."""
    if not os.path.isfile(os.path.join(MODEL_DIR, "landlord.ckpt")):
        raise ValueError(f"the shipped model is missing from {MODEL_DIR!r} (a broken install?)")
    return trained_agent(MODEL_DIR, name="dmc", bidder=bidder, device=device)
