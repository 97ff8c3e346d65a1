"""The bidding network: one Q-network for the auction and the doubling
(docs/train.md, "Bidding").

Its input is the engine's observation of the seat to act
(``VecGame.observations``, :class:`~ddz_fast.observation.ObservationLayout`:
the hand, the seat, the auction's level and leader, the base, the doubles,
the kitty once it is shown) and one more column, 1 under the ``rob``
auction; its output is one value for each of the 9 auction and doubling
action ids (``Bid(0)`` .. ``Bid(3)``, ``DECLINE``, ``CALL``, ``ROB``,
``NO_DOUBLE``, ``DOUBLE``): the expected score of the deal for the seat that
takes the action.  :class:`DMCBidder` plays it on every table of a
:class:`~ddz_fast.VecGame` in the auction at once.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional, Union

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from .._engine.vec import N_AUCTION_IDS
from .._util.checks import check_int

__all__ = ["BidNetwork", "DMCBidder", "bid_inputs", "auction_mask", "auction_vector", "OBS_SIZE", "IN_SIZE",
           "BID_HIDDEN", "load_bidder", "save_bidder"]

#: The width of the engine's observation under 3-player rules, and the bidding network's input (+ the rob flag).
OBS_SIZE = 131
IN_SIZE = OBS_SIZE + 1
#: The default width of the bidding network's two hidden layers.
BID_HIDDEN = 256
_MAX_SIZE = 1 << 14

PathLike = Union[str, "os.PathLike[str]"]


class BidNetwork(nn.Module):
    """``forward(inputs)``: ``(N, IN_SIZE)`` float32 -> ``(N, 9)`` values,
    one per auction action id (an MLP of two hidden layers)."""

    def __init__(self, hidden_size: int = BID_HIDDEN) -> None:
        super().__init__()
        self.hidden_size = check_int(hidden_size, "bid hidden size", 1, _MAX_SIZE)
        self.dense1 = nn.Linear(IN_SIZE, self.hidden_size)
        self.dense2 = nn.Linear(self.hidden_size, self.hidden_size)
        self.out = nn.Linear(self.hidden_size, N_AUCTION_IDS)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.dense1(inputs))
        h = torch.relu(self.dense2(h))
        out: torch.Tensor = self.out(h)
        return out


def bid_inputs(obs: npt.NDArray[np.float32], rob: bool) -> npt.NDArray[np.float32]:
    """The network's input rows for observation rows ``obs`` (N, 131)."""
    out = np.empty((len(obs), IN_SIZE), dtype=np.float32)
    out[:, :OBS_SIZE] = obs
    out[:, OBS_SIZE] = 1.0 if rob else 0.0
    return out


def auction_mask(legal_offsets: npt.NDArray[np.int64], legal_ids: npt.NDArray[np.int32],
                 tables: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """(len(tables), 9) bool: the legal auction ids of each of ``tables``
    (read from a VecGame's CSR legal ids; the tables must be in the auction)."""
    lo = legal_offsets[tables]
    counts = (legal_offsets[tables + 1] - lo).astype(np.intp)
    row = np.repeat(np.arange(len(tables)), counts)
    idx = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    ids = legal_ids[idx]
    if len(ids) and int(ids.max()) >= N_AUCTION_IDS:
        raise ValueError("auction_mask: a table given is not in the auction")
    mask = np.zeros((len(tables), N_AUCTION_IDS), dtype=bool)
    mask[row, ids] = True
    return mask


class DMCBidder:
    """Bids with a :class:`BidNetwork` at every table of a VecGame that is in
    the auction or the doubling: ``act_batch(vec, tables)`` returns the
    legal auction id of highest value at each table."""

    name = "dmc-bidder"

    def __init__(self, net: BidNetwork, device: Union[str, torch.device] = "cpu") -> None:
        if not isinstance(net, BidNetwork):
            raise TypeError(f"DMCBidder takes a BidNetwork, not {type(net).__name__}")
        self.net = net
        self.device = torch.device(device)
        self._layout: Any = None

    def values(self, vec: Any, tables: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        """(len(tables), 9) values, -inf where an id is not legal."""
        obs = vec.observations
        if obs is None:
            raise ValueError("DMCBidder needs a VecGame made with observations=True")
        t = np.asarray(tables, dtype=np.intp)
        x = bid_inputs(obs[t], vec.rules.auction == "rob")
        with torch.no_grad():
            q = self.net(torch.from_numpy(x).to(self.device)).float().cpu().numpy()
        q[~auction_mask(vec.legal_offsets, vec.legal_ids, t)] = -np.inf
        out: npt.NDArray[np.float32] = q
        return out

    def __call__(self, observation: Any) -> Any:
        """The auction or doubling action for one seat of a Game (its
        :class:`~ddz_fast.Observation`), as :meth:`act_batch` picks it."""
        from ..game_values import AUCTION_ACTIONS
        from ..observation import ObservationLayout

        legal = list(observation.legal_actions)
        if not legal:
            raise ValueError("no legal actions: it is not this player's turn")
        ids = [AUCTION_ACTIONS.index(a) for a in legal]
        if self._layout is None:
            self._layout = ObservationLayout("douzero")
        # the rob auction's ids (DECLINE, CALL, ROB) and its doubling (NO_DOUBLE, DOUBLE) are 4..8
        x = bid_inputs(auction_vector(observation, self._layout)[None], min(ids) >= 4)
        with torch.no_grad():
            q = self.net(torch.from_numpy(x).to(self.device)).float().cpu().numpy()[0]
        return legal[int(np.argmax(q[ids]))]

    def act_batch(self, vec: Any, tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
        if len(tables) == 0:
            return np.zeros(0, dtype=np.int32)
        ids: npt.NDArray[np.int32] = self.values(vec, tables).argmax(axis=1).astype(np.int32)
        return ids


def auction_vector(observation: Any, layout: Any) -> npt.NDArray[np.float32]:
    """The engine's observation vector of ``observation`` (a
    :class:`~ddz_fast.Observation` in the auction or the doubling) laid out
    by ``layout`` (an :class:`~ddz_fast.observation.ObservationLayout`):
    what ``VecGame.observations`` holds for that seat.  Before play no card
    has been played and no move is on the table, so the vector is the
    observation's named values in their fields (tests check it against
    ``Game.observation_tensor`` at every auction and doubling step)."""
    phase = int(observation.phase)
    if phase > 1:
        raise ValueError("auction_vector: the observation is not in the auction or the doubling")
    out = np.zeros(layout.size, dtype=np.float32)
    f = layout.fields
    out[f["hand"]] = observation.hand
    out[f["hand_sizes"]] = observation.hand_sizes
    if observation.kitty is not None:
        out[f["kitty"]] = observation.kitty
    me = observation.player
    out[f["me"].start + me] = 1.0
    if observation.to_move is not None:
        out[f["to_move"].start + observation.to_move] = 1.0
    if observation.landlord is not None:
        out[f["landlord"].start + observation.landlord] = 1.0
    out[f["phase"].start + phase] = 1.0
    out[f["auction_level"].start] = observation.auction_level
    if observation.auction_leader is not None:
        out[f["auction_leader"].start + observation.auction_leader] = 1.0
    out[f["base"].start] = observation.base
    out[f["bombs"].start] = observation.bombs
    out[f["doubles"].start] = observation.doubles
    return out


def save_bidder(net: BidNetwork, path: PathLike) -> None:
    """Write the network's state dict (CPU tensors) to ``path`` with torch.save."""
    if not isinstance(net, BidNetwork):
        raise TypeError(f"save_bidder takes a BidNetwork, not {type(net).__name__}")
    torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, os.fspath(path))


def load_bidder(path: PathLike, device: Union[str, torch.device] = "cpu") -> BidNetwork:
    """The :class:`BidNetwork` saved at ``path`` (its size read from the
    tensors), in eval mode; ValueError naming the file when it is missing or
    holds another network."""
    p = os.fspath(path)
    if not os.path.isfile(p):
        raise ValueError(f"bidder checkpoint {p!r}: no such file")
    try:
        state: Dict[str, Any] = torch.load(p, map_location=device, weights_only=True)
    except Exception as e:  # (torch raises pickle, zip and runtime errors for a bad file)
        raise ValueError(f"bidder checkpoint {p!r}: cannot be read ({type(e).__name__})") from None
    w: Optional[Any] = state.get("dense1.weight") if isinstance(state, dict) else None
    if not isinstance(w, torch.Tensor) or w.dim() != 2 or w.shape[1] != IN_SIZE:
        raise ValueError(f"bidder checkpoint {p!r}: not a bidding network's state dict")
    net = BidNetwork(int(w.shape[0]))
    try:
        net.load_state_dict(state)
    except RuntimeError as e:
        raise ValueError(f"bidder checkpoint {p!r}: {str(e).splitlines()[0]}") from None
    net.to(device)
    net.eval()
    return net
