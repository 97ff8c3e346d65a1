"""DouZero's Q-network in ddz_fast.train.models against DouZero's own classes.

The answer is the installed ``douzero`` package (1.1.0): its
``douzero.dmc.models`` networks, with seeded random weights, saved as DouZero
saves its checkpoints (``torch.save(model.state_dict())``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

# (the packaging check runs the tests with --import-mode=importlib: tests/ is not on sys.path)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from optional import require  # noqa: E402

torch = require("torch")
require("git")                      # (douzero.dmc imports GitPython)
douzero_models = require("douzero.dmc.models")
from douzero.evaluation.deep_agent import _load_model as douzero_load_model  # noqa: E402

from ddz_fast.train import models  # noqa: E402
from ddz_fast.train.models import (POSITIONS, QNetwork, load_checkpoint, make_model,  # noqa: E402
                                   save_checkpoint)


def _douzero_net(position, seed):
    torch.manual_seed(seed)
    return douzero_models.model_dict[position]()


def _inputs(x_size, n, seed):
    g = torch.Generator().manual_seed(seed)
    z = (torch.rand(n, 5, 162, generator=g) < 0.1).float()
    x = (torch.rand(n, x_size, generator=g) < 0.2).float()
    return z, x


def test_positions_are_douzero_feature_positions():
    from ddz_fast.compat import douzero as dz

    assert POSITIONS == dz.POSITIONS == ("landlord", "landlord_up", "landlord_down")
    assert [models.X_SIZES[p] for p in POSITIONS] == [373, 484, 484]


@pytest.mark.parametrize("position", POSITIONS)
def test_douzero_checkpoint_loads_unchanged_and_gives_its_values(tmp_path, position):
    theirs = _douzero_net(position, seed=POSITIONS.index(position)).eval()
    path = tmp_path / f"{position}.ckpt"
    torch.save(theirs.state_dict(), path)
    ours = load_checkpoint(path, position)
    assert not ours.training
    assert (ours.lstm_size, ours.hidden_size) == (128, 512)
    want = {k: tuple(v.shape) for k, v in theirs.state_dict().items()}
    assert {k: tuple(v.shape) for k, v in ours.state_dict().items()} == want
    assert list(make_model(position).state_dict()) == list(want)
    z, x = _inputs(ours.x_size, 40, seed=5)
    with torch.no_grad():
        expected = theirs.forward(z, x, return_value=True)["values"]
        got = ours(z, x)
        split = ours.values(ours.state(z), x)
    assert got.shape == (40, 1)
    assert torch.equal(got, expected)
    assert torch.equal(split, expected)


@pytest.mark.parametrize("position", POSITIONS)
def test_shared_values_give_douzeros_values_of_rows_sharing_their_state(position):
    """Rows that differ only in the action (the last 54 columns of x) share
    the LSTM and dense1's part over the state: the values are DouZero's own
    forward of the full rows, float rounding aside."""
    theirs = _douzero_net(position, seed=7).eval()
    ours = QNetwork(theirs.dense1.in_features - 128)
    ours.load_state_dict(theirs.state_dict())
    z, x = _inputs(ours.x_size, 12, seed=8)
    g = torch.Generator().manual_seed(9)
    row_state = torch.randint(0, 12, (90,), generator=g)
    action = (torch.rand(90, models.ACTION_SIZE, generator=g) < 0.2).float()
    x_state = x[:, :ours.x_size - models.ACTION_SIZE]
    with torch.no_grad():
        expected = theirs.forward(z[row_state], torch.cat([x_state[row_state], action], 1),
                                  return_value=True)["values"]
        got = ours.shared_values(ours.state(z), x_state, action, row_state)
    assert got.shape == (90, 1)
    assert torch.allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert not torch.equal(expected, expected[torch.randperm(90, generator=g)])   # (the rows differ)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_packed_hidden_layers_give_the_plain_layers_values_and_are_a_snapshot(dtype):
    """shared_values with pack_hidden()'s weights (oneDNN's fused linear
    and ReLU) gives the values of the plain layers, float rounding aside,
    for any number of rows (none and one included); the packed weights
    keep the values of the weights they were packed from until packed
    again."""
    dt = getattr(torch, dtype)
    with torch.random.fork_rng():
        torch.manual_seed(23)
        net = QNetwork(373, lstm_size=16, hidden_size=64).to(dt)
    packed = net.pack_hidden()
    if not models._packs(dt):
        assert packed is None            # (no oneDNN here, or no bfloat16 products: the plain layers)
        return
    assert isinstance(packed, tuple) and len(packed) == 4
    z, x = _inputs(373, 40, seed=21)
    x_state = x[:, :373 - models.ACTION_SIZE].to(dt)
    g = torch.Generator().manual_seed(22)
    tol = dict(rtol=1e-5, atol=1e-6) if dt == torch.float32 else dict(rtol=0.02, atol=0.02)
    with torch.no_grad():
        state = net.state(z.to(dt))
        for rows in (0, 1, 7, 300):
            row_state = torch.randint(0, 40, (rows,), generator=g)
            action = (torch.rand(rows, models.ACTION_SIZE, generator=g) < 0.2).to(dt)
            got = net.shared_values(state, x_state, action, row_state, packed)
            want = net.shared_values(state, x_state, action, row_state)
            assert got.shape == want.shape == (rows, 1) and got.dtype == dt
            assert torch.allclose(got.float(), want.float(), **tol)
        before = net.shared_values(state, x_state, action, row_state)
        net.dense5.weight.mul_(10.0)      # (every live unit of dense5 ten times larger: the values move)
        after = net.shared_values(state, x_state, action, row_state)
        assert not torch.allclose(after.float(), before.float(), **tol)
        assert torch.allclose(net.shared_values(state, x_state, action, row_state, packed).float(),
                              before.float(), **tol)
        assert torch.allclose(net.shared_values(state, x_state, action, row_state, net.pack_hidden()).float(),
                              after.float(), **tol)


def test_packed_layers_refuse_gradients_and_other_values():
    """Packed layers have no backward: shared_values with them while
    gradients are on is a ValueError saying so; anything but a tuple of
    pack_hidden()'s length of tensors is a TypeError, and packed weights of
    another width or dtype a ValueError naming both."""
    net = QNetwork(373, lstm_size=8, hidden_size=16)
    packed = net.pack_hidden()
    if packed is None:
        assert not models._packs(torch.float32)         # (no oneDNN here: nothing to refuse)
        return
    z, x = _inputs(373, 3, seed=2)
    args = (net.state(z).detach(), x[:, :373 - models.ACTION_SIZE], torch.zeros(4, models.ACTION_SIZE),
            torch.tensor([0, 1, 2, 2]))
    with pytest.raises(ValueError, match="no gradients"):
        net.shared_values(*args, packed)
    with torch.no_grad():
        assert net.shared_values(*args, packed).shape == (4, 1)
        for bad in (list(packed), packed[:3], "packed"):
            with pytest.raises(TypeError, match="pack_hidden"):
                net.shared_values(*args, bad)
        wider = QNetwork(373, lstm_size=8, hidden_size=32).pack_hidden()
        with pytest.raises(ValueError, match=r"\(32, 32\) torch.float32 weight .* has \(16, 16\)"):
            net.shared_values(*args, wider)
        if models._packs(torch.bfloat16):
            low = QNetwork(373, lstm_size=8, hidden_size=16).to(torch.bfloat16).pack_hidden()
            with pytest.raises(ValueError, match="torch.bfloat16 weight .* torch.float32"):
                net.shared_values(*args, low)


@pytest.mark.parametrize("dtype", ["int8", "float32", "counts"])
def test_the_learning_forward_gives_douzeros_values_and_gradients(dtype):
    """learning_forward (the LSTM's input product over z's nonzero entries,
    no product with the zero initial state, dense1 split so that x gets no
    gradient) gives DouZero's own forward and the same gradients for every
    parameter, float rounding aside; for 0/1 planes of any dtype, for
    entries other than 1 and for rows of z with no nonzero entry."""
    theirs = _douzero_net("landlord_up", seed=11)
    ours = QNetwork(theirs.dense1.in_features - 128)
    ours.load_state_dict(theirs.state_dict())
    z, x = _inputs(ours.x_size, 64, seed=12)
    z[:5] = 0                                     # (an empty history, as at the start of play)
    z[5:9, :3] = 0
    if dtype == "counts":
        z = z * torch.randint(1, 4, z.shape, generator=torch.Generator().manual_seed(13))
    zin = z.to(torch.int8) if dtype == "int8" else z
    target = torch.randn(64, generator=torch.Generator().manual_seed(14))
    want = theirs.forward(z, x, return_value=True)["values"]
    got = ours.learning_forward(zin, x)
    assert got.shape == (64, 1)
    assert torch.allclose(got, want, rtol=1e-5, atol=1e-6)
    assert torch.allclose(ours.sparse_state(zin).detach(), ours.state(z).detach(), rtol=1e-5, atol=1e-6)
    ((want[:, 0] - target) ** 2).mean().backward()
    ((got[:, 0] - target) ** 2).mean().backward()
    theirs_params = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        assert p.grad is not None and torch.count_nonzero(p.grad) > 0, name
        assert torch.allclose(p.grad, theirs_params[name].grad, rtol=1e-4, atol=1e-7), name


def test_the_learning_forward_refuses_inputs_of_the_wrong_shape_and_takes_an_empty_batch():
    """A z or x of the wrong shape is a ValueError naming it (the sums over
    z's nonzero entries would otherwise read a narrower z without
    complaint); an empty batch gives no rows."""
    net = QNetwork(373, lstm_size=8, hidden_size=16)
    z, x = _inputs(373, 3, seed=1)
    bad = [(z[:, :, :100], x, "z must have shape"), (z[:, 0], x, "z must have shape"),
           (z, x[:, :300], "x must have shape"), (z, x[:2], "x must have shape")]
    for zz, xx, message in bad:
        with pytest.raises(ValueError, match=message):
            net.learning_forward(zz, xx)
    empty = net.learning_forward(torch.zeros(0, 5, 162, dtype=torch.int8), torch.zeros(0, 373))
    assert empty.shape == (0, 1)


@pytest.mark.parametrize("position", POSITIONS)
def test_our_checkpoints_load_into_douzero_and_keep_small_sizes(tmp_path, position):
    torch.manual_seed(3)
    small = make_model(position, lstm_size=16, hidden_size=32)
    path = tmp_path / "small.ckpt"
    save_checkpoint(small, path)
    again = load_checkpoint(str(path), position)
    assert (again.x_size, again.lstm_size, again.hidden_size) == (small.x_size, 16, 32)
    z, x = _inputs(small.x_size, 9, seed=1)
    with torch.no_grad():
        assert torch.equal(small(z, x), again(z, x))
    full = make_model(position)
    save_checkpoint(full, path)
    loaded = douzero_load_model(position, str(path))        # DeepAgent's own loader
    with torch.no_grad():
        assert torch.equal(loaded.forward(z, x, return_value=True)["values"], full(z, x))


def test_load_checkpoint_refuses_other_networks_and_files_naming_them(tmp_path):
    landlord = _douzero_net("landlord", seed=0)
    path = tmp_path / "landlord.ckpt"
    torch.save(landlord.state_dict(), path)
    with pytest.raises(ValueError, match=r"landlord\.ckpt.*dense1\.weight.*a landlord network's"):
        load_checkpoint(path, "landlord_up")
    state = landlord.state_dict()
    for change, match in ((lambda s: s.pop("dense6.bias"), r"missing keys \['dense6\.bias'\]"),
                          (lambda s: s.update(extra=torch.zeros(1)), r"unexpected keys \['extra'\]"),
                          (lambda s: s.update({"dense3.weight": torch.zeros(512, 511)}), "dense3.weight"),
                          (lambda s: s.pop("lstm.weight_hh_l0"), "lstm.weight_hh_l0"),
                          (lambda s: s.update({"dense2.bias": torch.zeros(512, dtype=torch.int64)}), "dtype")):
        bad = dict(state)
        change(bad)
        torch.save(bad, tmp_path / "bad.ckpt")
        with pytest.raises(ValueError, match=match) as info:
            load_checkpoint(tmp_path / "bad.ckpt", "landlord")
        assert "bad.ckpt" in str(info.value)
    for content, error in (([1, 2], TypeError), ({"model_state_dict": {}}, TypeError),
                           ({1: torch.zeros(1)}, TypeError)):
        torch.save(content, tmp_path / "odd.ckpt")
        with pytest.raises(error, match="odd.ckpt.*state dict"):
            load_checkpoint(tmp_path / "odd.ckpt", "landlord")
    (tmp_path / "junk.ckpt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="junk.ckpt.*cannot be read"):
        load_checkpoint(tmp_path / "junk.ckpt", "landlord")
    with pytest.raises(ValueError, match="nothing.ckpt.*no such file"):
        load_checkpoint(tmp_path / "nothing.ckpt", "landlord")
    with pytest.raises(ValueError, match="not a file"):
        load_checkpoint(tmp_path, "landlord")


def test_bad_arguments_raise_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="position"):
        make_model("farmer")
    with pytest.raises(TypeError, match="position"):
        make_model(0)
    with pytest.raises(ValueError, match="device"):
        make_model("landlord", device="gpu9")
    with pytest.raises(TypeError, match="device"):
        make_model("landlord", device=0)
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="'cuda:0' is not available"):
            load_checkpoint(tmp_path / "x.ckpt", "landlord", device="cuda:0")
    with pytest.raises(ValueError, match="meta"):
        make_model("landlord", device="meta")
    assert models.check_device(torch.device("cpu")) == torch.device("cpu")
    for bad, error in ((0, ValueError), (2.5, TypeError), (True, TypeError), (1 << 20, ValueError)):
        with pytest.raises(error, match="hidden_size"):
            make_model("landlord", hidden_size=bad)
        with pytest.raises(error, match="lstm_size"):
            QNetwork(373, lstm_size=bad)
    with pytest.raises(TypeError, match="QNetwork"):
        save_checkpoint(torch.nn.Linear(2, 2), tmp_path / "x.ckpt")
    with pytest.raises(TypeError, match="path"):
        save_checkpoint(make_model("landlord", hidden_size=4, lstm_size=4), 3)
    with pytest.raises(TypeError, match="path"):
        load_checkpoint(b"landlord.ckpt", "landlord")
