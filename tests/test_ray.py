"""Scale-out on Ray: an arena run and an independent-shards recording on a
local Ray instance give exactly the local results."""
import filecmp

import numpy as np
import pytest

from optional import require

from ddz_fast import arena
from ddz_fast.cli import main

ray = require("ray")


@pytest.fixture(scope="module")
def local_ray():
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_an_arena_on_ray_equals_the_local_run(local_ray):
    agents = ["simple", "random"]
    local = arena.play(agents, deals=90, seed=4, tables=32)
    remote = arena.play(agents, deals=90, seed=4, tables=32, ray="auto", chunk_deals=25)
    assert np.array_equal(local.scores, remote.scores)
    assert np.array_equal(local.seats, remote.seats)
    assert local.to_json() == remote.to_json()


def test_a_pimc_arena_on_ray_equals_the_local_run(local_ray):
    local = arena.play(["pimc", "simple"], deals=3, seed=2, landlord="auction")
    remote = arena.play(["pimc", "simple"], deals=3, seed=2, landlord="auction", ray="auto", chunk_deals=1)
    assert np.array_equal(local.scores, remote.scores)


def test_cli_arena_with_ray_prints_the_local_numbers(local_ray, capsys):
    args = ["arena", "simple", "random", "--deals", "30", "--seed", "1", "-q"]
    assert main(args) == 0
    here = capsys.readouterr().out
    assert main(args + ["--ray", "auto"]) == 0
    assert capsys.readouterr().out == here


def test_recording_shards_on_ray_gives_the_local_files(local_ray, tmp_path):
    require("pyarrow")
    from ddz_fast.trajectories import TrajectoryDataset, record
    a = record(tmp_path / "local", 700, games_per_shard=300, independent_shards=True, tables=64)
    b = record(tmp_path / "ray", 700, games_per_shard=300, ray="auto", tables=64)
    assert len(a.files) == len(b.files) == 3 and a.steps == b.steps and b.games == 700
    assert all(filecmp.cmp(x, y, shallow=False) for x, y in zip(a.files, b.files))
    games = TrajectoryDataset(tmp_path / "ray").read(["game"])["game"]
    assert games[0] == 0 and games[-1] == 699 and len(np.unique(games)) == 700


def test_a_failing_task_raises_its_error(local_ray):
    def bad(obs, legal):
        return "nonsense"
    with pytest.raises(TypeError, match="returned a str"):
        arena.play([bad, "simple"], deals=2, ray="auto")


def _closed_port():
    """A local TCP port where nothing listens (bound, then released)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_unreachable_cluster_address_is_a_clear_error_with_status_2(scheme):
    """The command line names the address and exits 2 instead of letting Ray
    retry for minutes (the subprocess's timeout only stops a hang)."""
    import subprocess
    import sys
    address = f"{scheme}127.0.0.1:{_closed_port()}"
    p = subprocess.run([sys.executable, "-m", "ddz_fast", "arena", "simple", "random", "--deals", "2",
                        "-q", "--ray", address], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr
    assert f"cannot reach a Ray cluster at '{address}'" in p.stderr and "Traceback" not in p.stderr


def test_an_unreachable_address_raises_connection_error_in_python():
    from ddz_fast._util.ray import probe
    with pytest.raises(ConnectionError, match="cannot reach a Ray cluster"):
        probe(f"127.0.0.1:{_closed_port()}")          # (what connect does before ray.init)
    for bad in ("no port here", "host:0", "ray://:6379", "host:http"):
        with pytest.raises(ValueError, match="host:port"):
            arena.play(["simple", "random"], deals=1, ray=bad)
