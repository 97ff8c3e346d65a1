"""The choices of ``ddz-fast train``'s options, without PyTorch: the CLI
offers them (it must run without the ``[train]`` extra) and
:class:`ddz_fast.train.dmc.TrainConfig` checks against them."""
from __future__ import annotations

from ..rules import AUCTIONS as RULE_AUCTIONS

__all__ = ["TRAIN_AUCTIONS", "ACTOR_PRECISIONS"]

#: The auctions the bidder trains on: ``"bid"``, ``"rob"`` or ``"both"`` (half the tables each);
#: ``"none"``: card play alone on DouZero's deals (the first bidder is the landlord, no bidder).
TRAIN_AUCTIONS = (*RULE_AUCTIONS, "both", "none")
#: The card-play network's precisions in the actors (``TrainConfig.actor_precision``).
ACTOR_PRECISIONS = ("float32", "bfloat16")
