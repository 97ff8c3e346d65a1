"""DouZero's Q-network, in our own code, so that DouZero's checkpoints load
unchanged.

A position's network scores (state, action) pairs: an LSTM reads ``z``, the
last moves of the game (5 x 162 per row), and its last output joins ``x``
(the state and the action, :data:`X_SIZES` wide) in an MLP of six dense
layers, ``dense1`` .. ``dense6``, the last giving one value per row.  The
parameter names and shapes are those of ``douzero.dmc.models`` (``lstm.*``,
``dense1.*`` .. ``dense6.*``), so a state dict of DouZero's
(``torch.save(model.state_dict(), "landlord.ckpt")``) loads as it is, and
ours load into DouZero.  DouZero's sizes (an LSTM of 128, dense layers of
512) are the defaults; smaller ones make a smaller model, and a checkpoint
records its sizes in its tensors' shapes, so :func:`load_checkpoint` reads
them back.
"""
from __future__ import annotations

import functools
import os
from typing import Any, Dict, Mapping, Optional, Tuple, Union

import torch
import torch.nn.functional as F
from torch import nn

from .._engine.douzero import POSITIONS, X_SIZES as _X_SIZES
from .._util.checks import check_choice, check_int

__all__ = ["POSITIONS", "X_SIZES", "Z_SHAPE", "ACTION_SIZE", "LSTM_SIZE", "HIDDEN_SIZE", "QNetwork", "make_model",
           "load_checkpoint", "save_checkpoint", "check_device"]

#: The width of ``x`` for each position (DouZero's: 373 for the landlord, 484 for the farmers).
X_SIZES: Dict[str, int] = dict(zip(POSITIONS, _X_SIZES))
#: The shape of one row of ``z``: DouZero's last 20 moves, 4 to a row of 162.
Z_SHAPE = (5, 162)
#: The width of the action's columns, the last of ``x`` (DouZero's ``my_action``: 54 cards);
#: the columns before them describe the state, the same for every legal action of a player.
ACTION_SIZE = 54
#: DouZero's sizes: the LSTM's hidden state and the dense layers.
LSTM_SIZE = 128
HIDDEN_SIZE = 512
DENSE_LAYERS = 6
#: The largest size accepted for either (a guard against typos, far above any real model).
MAX_SIZE = 1 << 14

DeviceLike = Union[str, torch.device]
PathLike = Union[str, "os.PathLike[str]"]


def check_device(device: object) -> torch.device:
    """``device`` (a string such as ``"cpu"`` or ``"cuda:0"``, or a
    ``torch.device``) as a ``torch.device``; TypeError or ValueError otherwise."""
    if isinstance(device, torch.device):
        dev = device
    elif not isinstance(device, str):
        raise TypeError(f"device must be a str or a torch.device, not {type(device).__name__}")
    else:
        try:
            dev = torch.device(device)
        except RuntimeError:
            raise ValueError(f"device {device!r} is not a torch device (e.g. 'cpu', 'cuda', 'cuda:0')") from None
    if dev.type == "meta":
        raise ValueError("device 'meta' holds no values: use 'cpu' or an accelerator")
    try:
        torch.empty(0, device=dev)          # (a device this machine lacks: refused here, by name)
    except (RuntimeError, AssertionError) as e:
        why = str(e).split(". ")[0].splitlines()[0][:160] if str(e) else type(e).__name__
        raise ValueError(f"device {str(dev)!r} is not available here ({why})") from None
    return dev


@functools.lru_cache(maxsize=None)
def _packs(dtype: torch.dtype) -> bool:
    """Whether oneDNN's fused linear-and-ReLU kernel over packed weights
    (the kernel PyTorch's own compiler emits for CPUs) runs here in
    ``dtype`` and agrees with ``relu(addmm)`` on a probe: not in every
    PyTorch build, and bfloat16 needs the CPU's support."""
    try:
        if not torch.backends.mkldnn.is_available():  # type: ignore[no-untyped-call]
            return False
        gen = torch.Generator().manual_seed(0)
        x, w, b = (torch.randn(s, generator=gen).to(dtype) for s in ((9, 24), (16, 24), (16,)))
        with torch.inference_mode():
            got = torch.ops.mkldnn._linear_pointwise(x, torch.ops.mkldnn._reorder_linear_weight(w), b, "relu", [], "")
            want = torch.relu(torch.addmm(b.float(), x.float(), w.float().t()))
        return bool(torch.allclose(got.float(), want, rtol=0.02, atol=0.05))
    except (AttributeError, RuntimeError, NotImplementedError):
        return False


class QNetwork(nn.Module):
    """One position's Q-network: ``forward(z, x)`` gives one value per row.

    ``z`` is ``(N, 5, 162)`` and ``x`` is ``(N, x_size)``, float32; the
    value is ``(N, 1)``.  ``x_size`` is 373 for the landlord and 484 for
    the farmers (:data:`X_SIZES`); ``lstm_size`` and ``hidden_size`` default
    to DouZero's 128 and 512.  :meth:`state` and :meth:`values` split the
    forward pass so that rows sharing one state (the legal actions of one
    player) run the LSTM once: ``forward(z, x) == values(state(z), x)``.
    """

    def __init__(self, x_size: int, lstm_size: int = LSTM_SIZE, hidden_size: int = HIDDEN_SIZE) -> None:
        super().__init__()
        self.x_size = check_int(x_size, "x_size", 1, MAX_SIZE)
        self.lstm_size = check_int(lstm_size, "lstm_size", 1, MAX_SIZE)
        self.hidden_size = check_int(hidden_size, "hidden_size", 1, MAX_SIZE)
        self.lstm = nn.LSTM(Z_SHAPE[1], self.lstm_size, batch_first=True)
        # (attributes named as DouZero names them: its state dicts load as they are)
        self.dense1 = nn.Linear(self.x_size + self.lstm_size, self.hidden_size)
        self.dense2 = nn.Linear(self.hidden_size, self.hidden_size)
        self.dense3 = nn.Linear(self.hidden_size, self.hidden_size)
        self.dense4 = nn.Linear(self.hidden_size, self.hidden_size)
        self.dense5 = nn.Linear(self.hidden_size, self.hidden_size)
        self.dense6 = nn.Linear(self.hidden_size, 1)
        self._hidden = (self.dense1, self.dense2, self.dense3, self.dense4, self.dense5)

    def state(self, z: torch.Tensor) -> torch.Tensor:
        """The LSTM's last output for each row of ``z``: ``(N, lstm_size)``."""
        out, _ = self.lstm(z)
        last: torch.Tensor = out[:, -1, :]
        return last

    def values(self, state: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """The MLP over ``[state, x]``: ``(N, 1)``."""
        return self._above_dense1(self.dense1(torch.cat([state, x], dim=-1)))

    def _above_dense1(self, dense1_out: torch.Tensor, packed: Optional[Tuple[torch.Tensor, ...]] = None
                      ) -> torch.Tensor:
        """The layers after ``dense1`` (its ReLU included), given its
        output, however it was summed; that output is overwritten.
        ``packed``: :meth:`pack_hidden`'s weights for ``dense2`` ..
        ``dense5``, each layer and its ReLU then one oneDNN kernel."""
        # (in place: each layer's output is fresh, and its ReLU saves a buffer a layer)
        h = torch.relu_(dense1_out)
        if packed is None:
            for layer in self._hidden[1:]:
                h = torch.relu_(layer(h))
        else:
            for layer, weight in zip(self._hidden[1:], packed):
                h = torch.ops.mkldnn._linear_pointwise(h, weight, layer.bias, "relu", [], "")
        out: torch.Tensor = self.dense6(h)
        return out

    def pack_hidden(self) -> Optional[Tuple[torch.Tensor, ...]]:
        """``dense2`` .. ``dense5``'s weights reordered for oneDNN's fused
        linear-and-ReLU kernel, for :meth:`shared_values` without gradients
        (the kernel has no backward).  A snapshot of the weights (the biases
        are read at each call): pack again after the weights change.  None
        where that kernel does not run (this PyTorch build, a device other
        than the CPU, a dtype the CPU lacks).  On one core at DouZero's sizes
        the packed layers run about 8% faster than MKL's ``addmm`` and a
        ReLU: the weights are not reordered at every call, and the bias and
        the ReLU ride on the product."""
        weight = self.dense2.weight
        if weight.device.type != "cpu" or not _packs(weight.dtype):
            return None
        with torch.no_grad():
            return tuple(torch.ops.mkldnn._reorder_linear_weight(layer.weight.detach())
                         for layer in self._hidden[1:])

    def shared_values(self, state: torch.Tensor, x_state: torch.Tensor, action: torch.Tensor,
                      row_state: torch.Tensor, packed: Optional[Tuple[torch.Tensor, ...]] = None) -> torch.Tensor:
        """``values(state[row_state], cat([x_state[row_state], action]))``
        computed as the sum it is: ``dense1``'s part over the state and
        ``x_state`` (``x`` but its last :data:`ACTION_SIZE` columns, the same
        for every legal action of a player) runs once per state, only its
        part over ``action`` once per row.  ``state``: ``(M, lstm_size)``;
        ``x_state``: ``(M, x_size - ACTION_SIZE)``; ``action``: ``(N,
        ACTION_SIZE)``; ``row_state``: ``(N,)`` int64, each row's state.
        Equal to :meth:`values` up to float rounding (the sum's order).
        ``packed``: :meth:`pack_hidden`'s snapshot of this network's hidden
        layers, used in their place (no gradients: under
        ``torch.no_grad()`` or ``torch.inference_mode()``)."""
        if packed is not None:
            layers = self._hidden[1:]
            if not isinstance(packed, tuple) or len(packed) != len(layers) or \
                    not all(isinstance(t, torch.Tensor) for t in packed):
                raise TypeError("packed must be the tuple pack_hidden() returns")
            for layer, t in zip(layers, packed):
                # (oneDNN's own refusal of a mismatch names no argument)
                w = layer.weight
                if t.shape != w.shape or t.dtype != w.dtype or t.device != w.device:
                    raise ValueError(f"packed holds a {tuple(t.shape)} {t.dtype} weight on {t.device} where this "
                                     f"network has {tuple(w.shape)} {w.dtype} on {w.device}: pass this network's "
                                     "own pack_hidden()")
            if torch.is_grad_enabled():
                raise ValueError("packed layers have no gradients: score under torch.no_grad() or "
                                 "torch.inference_mode(), or leave packed out")
        split = self.lstm_size + self.x_size - ACTION_SIZE
        w = self.dense1.weight
        per_state = torch.addmm(self.dense1.bias, torch.cat([state, x_state], dim=-1), w[:, :split].t())
        return self._above_dense1(torch.addmm(per_state.index_select(0, row_state), action, w[:, split:].t()),
                                  packed)

    def sparse_state(self, z: torch.Tensor) -> torch.Tensor:
        """:meth:`state` with fewer operations for a ``z`` that is mostly
        zeros, as DouZero's card planes are (about 2 nonzero entries in 162):
        the LSTM's input product runs over ``z``'s nonzero entries only (each
        scales the weight column it picks), and the first step skips the
        product with the zero initial state.  ``z``: ``(N, 5, 162)``, any
        real or integer dtype.  Equal to ``state(z)`` up to float rounding,
        gradients included; the faster of the two on a learner's batches of
        thousands of rows and on an actor's hundreds of tables."""
        if z.dim() != 3 or z.shape[2] != Z_SHAPE[1] or z.shape[1] < 1:
            raise ValueError(f"z must have shape (N, steps, {Z_SHAPE[1]}), not {tuple(z.shape)}")
        n, steps, width = z.shape
        w_ih, w_hh, b_ih, b_hh = self.lstm.all_weights[0]
        if n == 0:
            return w_hh.new_zeros((0, self.lstm_size))
        rows_by_step = z.transpose(0, 1).reshape(steps * n, width)     # (step 0's rows first)
        row, col = rows_by_step.nonzero(as_tuple=True)
        starts = torch.searchsorted(row, torch.arange(steps * n, device=z.device))
        inputs = F.embedding_bag(col, w_ih.t().contiguous(), starts, mode="sum",
                                 per_sample_weights=rows_by_step[row, col].to(w_ih.dtype))
        gates_in = (inputs + (b_ih + b_hh)).view(steps, n, -1).unbind(0)
        i, _, g, o = gates_in[0].chunk(4, 1)        # (PyTorch's gate order: input, forget, cell, output)
        c = torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        for step in gates_in[1:]:
            i, f, g, o = torch.addmm(step, h, w_hh.t()).chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h

    def learning_forward(self, z: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """``forward(z, x)`` as a learning step on a big batch wants it:
        :meth:`sparse_state`, and ``dense1`` as the sum it is, so that no
        gradient is computed for ``x`` (an input), only for the LSTM's
        output.  Equal to ``forward(z, x)`` up to float rounding, gradients
        included."""
        if x.dim() != 2 or x.shape[1] != self.x_size or x.shape[0] != z.shape[0]:
            raise ValueError(f"x must have shape (N, {self.x_size}) with N the rows of z ({z.shape[0]}), "
                             f"not {tuple(x.shape)}")
        state = self.sparse_state(z)
        w = self.dense1.weight
        return self._above_dense1(torch.addmm(torch.addmm(self.dense1.bias, x, w[:, self.lstm_size:].t()), state,
                                              w[:, :self.lstm_size].t()))

    def forward(self, z: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return self.values(self.state(z), x)

    def extra_repr(self) -> str:
        return f"x_size={self.x_size}, lstm_size={self.lstm_size}, hidden_size={self.hidden_size}"


def make_model(position: str, device: DeviceLike = "cpu", *, lstm_size: int = LSTM_SIZE,
               hidden_size: int = HIDDEN_SIZE) -> QNetwork:
    """A freshly initialised :class:`QNetwork` for ``position`` (one of
    :data:`POSITIONS`) on ``device``."""
    pos = check_choice(position, "position", POSITIONS)
    dev = check_device(device)
    return QNetwork(X_SIZES[pos], lstm_size, hidden_size).to(dev)


def _expected_shapes(x_size: int, lstm_size: int, hidden_size: int) -> Dict[str, Tuple[int, ...]]:
    """Every parameter of a QNetwork with these sizes, by name (DouZero's names)."""
    shapes: Dict[str, Tuple[int, ...]] = {
        "lstm.weight_ih_l0": (4 * lstm_size, Z_SHAPE[1]),
        "lstm.weight_hh_l0": (4 * lstm_size, lstm_size),
        "lstm.bias_ih_l0": (4 * lstm_size,),
        "lstm.bias_hh_l0": (4 * lstm_size,),
    }
    fan_in = x_size + lstm_size
    for k in range(1, DENSE_LAYERS + 1):
        fan_out = 1 if k == DENSE_LAYERS else hidden_size
        shapes[f"dense{k}.weight"] = (fan_out, fan_in)
        shapes[f"dense{k}.bias"] = (fan_out,)
        fan_in = fan_out
    return shapes


def _sizes_of(state: Mapping[str, torch.Tensor], where: str) -> Tuple[int, int]:
    """(lstm_size, hidden_size) read from a state dict's shapes."""
    try:
        lstm_size = int(state["lstm.weight_hh_l0"].shape[1])
        hidden_size = int(state["dense1.weight"].shape[0])
    except KeyError as e:
        raise ValueError(f"{where}: not a DouZero Q-network's state dict (no {e.args[0]!r})") from None
    except IndexError:
        raise ValueError(f"{where}: not a DouZero Q-network's state dict (lstm.weight_hh_l0 and "
                         "dense1.weight must be matrices)") from None
    if not (1 <= lstm_size <= MAX_SIZE and 1 <= hidden_size <= MAX_SIZE):
        raise ValueError(f"{where}: sizes lstm={lstm_size}, hidden={hidden_size} are out of range")
    return lstm_size, hidden_size


def _check_state_dict(state: object, position: str, where: str) -> Tuple[int, int]:
    """Check a loaded state dict against the network of ``position``;
    returns its (lstm_size, hidden_size)."""
    if not isinstance(state, Mapping):
        raise TypeError(f"{where}: a checkpoint must hold a state dict (torch.save(model.state_dict(), "
                        f"path)), not a {type(state).__name__}")
    for key, value in state.items():
        if not isinstance(key, str) or not isinstance(value, torch.Tensor):
            raise TypeError(f"{where}: a checkpoint must hold a state dict of named tensors, not "
                            f"{type(key).__name__} -> {type(value).__name__} (a training checkpoint? save "
                            "each position's model.state_dict())")
    lstm_size, hidden_size = _sizes_of(state, where)
    want = _expected_shapes(X_SIZES[position], lstm_size, hidden_size)
    missing = [k for k in want if k not in state]
    extra = [k for k in state if k not in want]
    if missing or extra:
        raise ValueError(f"{where}: not a {position} Q-network: missing keys {missing}, unexpected keys {extra}")
    for key, shape in want.items():
        got = tuple(state[key].shape)
        if got != shape:
            hint = ""
            if key == "dense1.weight" and got[0] == hidden_size:
                found = [p for p in POSITIONS if X_SIZES[p] + lstm_size == got[1]]
                if found:
                    hint = f" (a {found[0]} network's: x is {X_SIZES[found[0]]} wide)"
            raise ValueError(f"{where}: {key} has shape {list(got)}, a {position} network's is "
                             f"{list(shape)}{hint}")
        if not state[key].is_floating_point():
            raise ValueError(f"{where}: {key} has dtype {state[key].dtype}, not a float dtype")
    return lstm_size, hidden_size


def _path(path: object, what: str) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} must be a str or os.PathLike, not {type(path).__name__}")
    p = os.fspath(path)
    if not isinstance(p, str):
        raise TypeError(f"{what} must be a text path, not {type(p).__name__}")
    return p


def load_checkpoint(path: PathLike, position: str, device: DeviceLike = "cpu") -> QNetwork:
    """The :class:`QNetwork` of ``position`` stored at ``path`` (a
    ``torch.save(model.state_dict(), path)`` of DouZero's or of
    :func:`save_checkpoint`), on ``device``, in eval mode.  Its sizes come
    from the tensors' shapes.  Loading is ``weights_only`` (no code runs
    from the file).  A missing file, an unreadable one or a state dict of
    another network (a wrong or missing key, a wrong shape) raises
    ValueError naming the file; a file holding something other than a state
    dict raises TypeError."""
    p = _path(path, "path")
    pos = check_choice(position, "position", POSITIONS)
    dev = check_device(device)
    where = f"checkpoint {p!r}"
    if not os.path.isfile(p):
        raise ValueError(f"{where}: no such file" if not os.path.exists(p) else f"{where}: not a file")
    try:
        state: Any = torch.load(p, map_location=dev, weights_only=True)
    except Exception as e:  # (torch raises pickle, zip and runtime errors for a bad file)
        raise ValueError(f"{where}: cannot be read as a PyTorch state dict ({type(e).__name__}: "
                         f"{str(e).splitlines()[0] if str(e) else ''})") from None
    lstm_size, hidden_size = _check_state_dict(state, pos, where)
    model = QNetwork(X_SIZES[pos], lstm_size, hidden_size)
    model.load_state_dict(state)
    model.to(dev)
    model.eval()
    return model


def save_checkpoint(model: QNetwork, path: PathLike) -> None:
    """Write ``model``'s state dict to ``path`` as DouZero writes its
    checkpoints (``torch.save(model.state_dict(), path)``, tensors moved to
    the CPU so that the file loads on any machine)."""
    if not isinstance(model, QNetwork):
        raise TypeError(f"save_checkpoint takes a QNetwork, not {type(model).__name__}")
    p = _path(path, "path")
    state = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    torch.save(state, p)
