"""DouZero's checkpoints as an agent: :class:`DouZeroAgent`.

DouZero plays a position by scoring every action in its list with that
position's Q-network and playing the highest (``douzero.evaluation.
deep_agent.DeepAgent``).  :class:`DouZeroAgent` does the same from DouZero's
own features (:mod:`ddz_fast.compat.douzero`), on every table of a
:class:`~ddz_fast.VecGame` at once: one batched forward pass per position
per step (the LSTM once per table, the MLP over every row of its tables),
then the first highest row per table, as ``argmax`` picks it.  Rows that the
``douzero`` rules refuse (DouZero's own airplane readings, docs/douzero.md)
are never chosen.

DouZero has no bidding: in the auction (and the doubling of a ``rob``
auction) the agent bids as the simple bot does, unless given a ``bidder``.
"""
from __future__ import annotations

import dataclasses

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt
import torch

from .._core.entry import classify
from .._core.move import Move
from ..compat.douzero import VecFeatures, observation_obs
from ..convert import douzero_to_counts
from ..game import simple_bot
from ..game_values import AuctionAction, Observation, Phase
from ..rules import PRESETS
from ..vec import VecGame
from .models import POSITIONS, X_SIZES, DeviceLike, PathLike, QNetwork, check_device, load_checkpoint

__all__ = ["DouZeroAgent", "CHECKPOINT_NAMES"]

#: The file of each position in DouZero's published layout (``baselines/douzero_WP/landlord.ckpt``, ...).
CHECKPOINT_NAMES: Dict[str, str] = {p: f"{p}.ckpt" for p in POSITIONS}
_RULES = PRESETS["douzero"]

#: A bidder: an object with ``act_batch(vec, tables) -> ids`` (the auction
#: tables only), or a callable ``bidder(observation) -> auction action``.
Bidder = Union[Callable[[Observation], AuctionAction], Any]


def _paths(path: Optional[PathLike], explicit: Dict[str, Optional[PathLike]]) -> Dict[str, str]:
    """Each position's checkpoint file: an explicit path, else DouZero's name in ``path``."""
    out: Dict[str, str] = {}
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a directory (str or os.PathLike), not {type(path).__name__}")
        folder = os.fspath(path)
        if not isinstance(folder, str):
            raise TypeError(f"path must be a text path, not {type(folder).__name__}")
        if not os.path.isdir(folder):
            raise ValueError(f"DouZero checkpoints: {folder!r} is not a directory (it should hold "
                             f"{', '.join(CHECKPOINT_NAMES.values())})")
    for pos in POSITIONS:
        given = explicit[pos]
        if given is not None:
            if not isinstance(given, (str, os.PathLike)):
                raise TypeError(f"{pos} must be a checkpoint path (str or os.PathLike), not {type(given).__name__}")
            out[pos] = os.fspath(given)                     # (load_checkpoint checks the rest)
        elif path is not None:
            out[pos] = os.path.join(os.fspath(path), CHECKPOINT_NAMES[pos])
            if not os.path.isfile(out[pos]):
                raise ValueError(f"DouZero checkpoints: {folder!r} has no {CHECKPOINT_NAMES[pos]}")
        else:
            raise ValueError(f"no checkpoint for {pos}: give a directory of DouZero's layout or {pos}=path")
    return out


class DouZeroAgent:
    """DouZero's three Q-networks as an agent of the arena, the environments
    and ``ddz-fast play`` (docs/douzero.md, "DouZero checkpoints as agents").

    ``DouZeroAgent(path)`` loads a directory of DouZero's published layout
    (``landlord.ckpt``, ``landlord_up.ckpt``, ``landlord_down.ckpt``: each
    ``torch.save(model.state_dict())`` of ``douzero.dmc.models``' network, or
    of :func:`~ddz_fast.train.models.save_checkpoint`); ``landlord=``,
    ``landlord_up=`` and ``landlord_down=`` name files instead (or override
    one of the directory's); ``models=`` takes networks already in memory
    (a mapping position -> :class:`~ddz_fast.train.models.QNetwork`).  The
    networks run on ``device`` (``"cpu"`` by default, or e.g. ``"cuda"``).

    It plays under the ``douzero`` rules preset.  :meth:`act_batch` plays
    many tables of a :class:`~ddz_fast.VecGame` at once (the arena's batch
    protocol); calling the agent, ``agent(observation, legal_actions)``,
    plays one seat of a :class:`~ddz_fast.Game`.  Its card play is
    DouZero's ``DeepAgent``'s: the action DouZero's list scores highest,
    the first of equal scores.  In the auction it bids with ``bidder``: an
    object with ``act_batch(vec, tables) -> action ids`` (given the tables
    in their auction, as the arena gives an agent its tables), or a callable
    ``bidder(observation) -> auction action``; by default the simple bot's
    bids (:func:`~ddz_fast.simple_bot`).

    One agent keeps the features of the last VecGame it played (one object
    per thread).
    """

    def __init__(self, path: Optional[PathLike] = None, *, landlord: Optional[PathLike] = None,
                 landlord_up: Optional[PathLike] = None, landlord_down: Optional[PathLike] = None,
                 models: Optional[Mapping[str, QNetwork]] = None, device: DeviceLike = "cpu",
                 bidder: Optional[Bidder] = None, name: str = "douzero") -> None:
        self.device = check_device(device)
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        if not name:
            raise ValueError("name must not be empty")
        self.name = name
        if bidder is not None and not callable(bidder) and not callable(getattr(bidder, "act_batch", None)):
            raise TypeError(f"bidder must be callable or have act_batch, not {type(bidder).__name__}")
        self.bidder = bidder
        explicit = {"landlord": landlord, "landlord_up": landlord_up, "landlord_down": landlord_down}
        nets: Dict[str, QNetwork] = {}
        if models is not None:
            if path is not None or any(v is not None for v in explicit.values()):
                raise ValueError("give checkpoints (a directory or paths) or models, not both")
            if not isinstance(models, Mapping):
                raise TypeError(f"models must be a mapping position -> QNetwork, not {type(models).__name__}")
            if set(models) != set(POSITIONS):
                raise ValueError(f"models must have exactly the positions {POSITIONS}, not {sorted(map(str, models))}")
            for pos in POSITIONS:
                net = models[pos]
                if not isinstance(net, QNetwork):
                    raise TypeError(f"models[{pos!r}] must be a QNetwork, not {type(net).__name__}")
                if net.x_size != X_SIZES[pos]:
                    raise ValueError(f"models[{pos!r}] takes x of {net.x_size} columns, a {pos} network "
                                     f"takes {X_SIZES[pos]}")
                nets[pos] = net
            self.paths: Dict[str, Optional[str]] = dict.fromkeys(POSITIONS)
        else:
            files = _paths(path, explicit)
            for pos in POSITIONS:
                nets[pos] = load_checkpoint(files[pos], pos, self.device)
            self.paths = dict(files)
        self.models: Dict[str, QNetwork] = nets
        self._feats: Optional[VecFeatures] = None

    @property
    def rules(self) -> Any:
        """The rules the agent plays under (the ``douzero`` preset)."""
        return _RULES

    def __getstate__(self) -> Dict[str, Any]:
        # (a pickle, e.g. for Ray workers, carries the networks, not the features of a VecGame)
        state = dict(self.__dict__)
        state["_feats"] = None
        return state

    def __repr__(self) -> str:
        where = self.paths["landlord"]
        src = os.path.dirname(where) if where is not None else "<models>"
        return f"DouZeroAgent({src!r}, device={str(self.device)!r})"

    # -- scoring -------------------------------------------------------------
    def _scores(self, p: int, z: npt.NDArray[np.float32], x: npt.NDArray[np.float32],
                owner: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        """Position ``p``'s value of each row ``x[k]``, whose state is ``z[owner[k]]``."""
        net = self.models[POSITIONS[p]]
        with torch.inference_mode():
            zt = torch.from_numpy(z).to(self.device)
            xt = torch.from_numpy(x).to(self.device)
            ot = torch.from_numpy(owner).to(self.device)
            state = net.state(zt)
            values = net.values(state.index_select(0, ot), xt)
        out: npt.NDArray[np.float32] = values.reshape(-1).float().cpu().numpy()
        return out

    # -- the batch protocol --------------------------------------------------
    def _features(self, vec: VecGame) -> VecFeatures:
        if self._feats is None or self._feats.vec is not vec:
            if dataclasses.replace(vec.rules, auction="bid") != _RULES:     # (either auction)
                raise ValueError(f"DouZeroAgent plays under the 'douzero' rules, not {vec.rules.name!r} "
                                 "(the arena: --rules douzero)")
            self._feats = VecFeatures(vec)
        else:
            self._feats.update()
        return self._feats

    def act_batch(self, vec: VecGame, tables: Union[npt.NDArray[np.integer[Any]], Sequence[int]]
                  ) -> npt.NDArray[np.int64]:
        """The action id of the player to act at each of ``tables`` (indices
        of tables of ``vec``, each with a player to act), ready for
        ``vec.step``."""
        if not isinstance(vec, VecGame):
            raise TypeError(f"act_batch takes a VecGame, not {type(vec).__name__}")
        t = _tables(tables, len(vec))
        feats = self._features(vec)
        out = np.empty(len(t), dtype=np.int64)
        if not len(t):
            return out
        if (vec.to_move[t] < 0).any():
            raise ValueError(f"table {int(t[vec.to_move[t] < 0][0])} has nobody to act (its game is over)")
        pos = np.asarray(feats.position)[t]
        bidding = pos < 0
        if bidding.any():
            out[bidding] = self._bids(vec, t[bidding])
        if bidding.all():
            return out
        off = np.asarray(feats.offsets)
        scores = np.full(feats.num_rows, -np.inf, dtype=np.float32)
        x_all, z_all = feats.x_batch, feats.z
        for p in range(3):
            tp = t[pos == p]
            if not len(tp):
                continue
            count = off[tp + 1] - off[tp]
            owner = np.repeat(np.arange(len(tp), dtype=np.intp), count)
            rows = np.arange(len(owner), dtype=np.intp) + np.repeat(off[tp] - (np.cumsum(count) - count), count)
            scores[rows] = self._scores(p, np.ascontiguousarray(z_all[tp]),
                                        np.ascontiguousarray(x_all[rows, :X_SIZES[POSITIONS[p]]]), owner)
        chosen = feats.choose(scores)
        out[~bidding] = chosen[t[~bidding]]
        return out

    def _bids(self, vec: VecGame, tables: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        """The bidder's action ids at ``tables`` (all in their auction)."""
        batch = getattr(self.bidder, "act_batch", None)
        if batch is not None and callable(batch):
            got = batch(vec, tables.copy())
            ids = np.asarray(got)
            if isinstance(got, np.ma.MaskedArray) or ids.shape != (len(tables),) or ids.dtype.kind not in "iu":
                raise ValueError(f"the bidder's act_batch must return {len(tables)} integer action ids, "
                                 f"got {type(got).__name__} {getattr(ids, 'dtype', '')} {getattr(ids, 'shape', '')}")
            return ids.astype(np.int64)
        if self.bidder is None and vec.bot_actions is not None:
            return np.asarray(vec.bot_actions)[tables].astype(np.int64)
        out = np.empty(len(tables), dtype=np.int64)
        for j, i in enumerate(tables.tolist()):
            game = vec.games(i)
            obs = game.observation(int(vec.to_move[i]))
            out[j] = vec.action_id(self._bid(obs, vec.rules))
        return out

    def _bid(self, obs: Observation, rules: Any = _RULES) -> Any:
        if self.bidder is None:
            return simple_bot(obs, rules)
        if not callable(self.bidder):
            raise TypeError("this agent's bidder plays batches (act_batch) only, not one observation")
        return self.bidder(obs)

    # -- one seat ------------------------------------------------------------
    def __call__(self, observation: Observation, legal_actions: Optional[Sequence[Any]] = None) -> Any:
        """The action of the player of ``observation`` (a seat of a Game
        under the ``douzero`` preset, to act), one of ``legal_actions``
        (by default the observation's)."""
        if not isinstance(observation, Observation):
            raise TypeError(f"a DouZeroAgent takes an Observation, not {type(observation).__name__}")
        legal = list(observation.legal_actions if legal_actions is None else legal_actions)  # type: ignore[call-overload]
        if not legal:
            raise ValueError("no legal actions: it is not this player's turn")
        if observation.phase != Phase.PLAY:
            return self._bid(observation)
        obs = observation_obs(observation)
        by_cards: Dict[bytes, List[Move]] = {}
        for a in legal:
            if not isinstance(a, Move):
                raise TypeError(f"the legal actions of card play are Moves, not {type(a).__name__}")
            by_cards.setdefault(np.asarray(a.counts, dtype=np.uint8).tobytes(), []).append(a)
        moves: List[Optional[Move]] = [_reading(by_cards, cards) for cards in obs["legal_actions"]]
        x = np.ascontiguousarray(obs["x_batch"], dtype=np.float32)
        z = obs["z"].astype(np.float32)[np.newaxis]
        scores = self._scores(POSITIONS.index(obs["position"]), z, x, np.zeros(len(x), dtype=np.intp))
        best = -1
        for k, m in enumerate(moves):
            if m is not None and (best < 0 or scores[k] > scores[best]):
                best = k
        if best < 0:
            raise ValueError("none of DouZero's actions is among the legal actions given")
        return moves[best]


def _reading(by_cards: Dict[bytes, List[Move]], cards: List[int]) -> Optional[Move]:
    """The legal move playing DouZero's ``cards`` (None if none): when the
    cards read as several legal kinds, the first reading in the rules'
    classification order, as the batched path takes it."""
    counts = douzero_to_counts(cards)
    found = by_cards.get(counts.astype(np.uint8).tobytes())
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    for reading in classify(counts, rules=_RULES):
        if reading in found:
            return reading
    return found[0]


def _tables(tables: object, n: int) -> npt.NDArray[np.intp]:
    """``tables`` as distinct table indices of a VecGame of ``n`` tables."""
    if isinstance(tables, np.ma.MaskedArray):
        raise TypeError("tables must be a plain integer array, not a masked array")
    if isinstance(tables, np.ndarray):
        arr = tables
    elif isinstance(tables, (list, tuple)):
        if not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in tables):
            raise TypeError("tables must be integer table indices")
        arr = np.asarray(tables, dtype=np.int64).reshape(len(tables))
    else:
        raise TypeError(f"tables must be an integer array or a list of ints, not {type(tables).__name__}")
    if arr.ndim != 1 or (arr.dtype.kind not in "iu" and len(arr)):
        raise TypeError(f"tables must be a 1-D integer array, not {arr.dtype} of shape {arr.shape}")
    t = arr.astype(np.intp)
    if len(t) and (t.min() < 0 or t.max() >= n):
        raise ValueError(f"tables must be indices 0..{n - 1}, got {int(t.min())}..{int(t.max())}")
    if len(np.unique(t)) != len(t):
        raise ValueError("tables must be distinct")
    return t
