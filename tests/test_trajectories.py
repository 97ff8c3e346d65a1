"""Trajectory datasets: every recorded step checked against the same game
replayed on the one-deal Game, and the files read back by our reader and by
pandas, polars and Hugging Face datasets."""
import os

import numpy as np
import pytest

import ddz_fast as ddz
from dataset_checks import check_outcome_rows, flip_each_and_check
from optional import require
from ddz_fast import Game, VecGame, action_space, game_seed
from ddz_fast.envs import ObservationLayout
from ddz_fast.game import simple_bot
from ddz_fast.trajectories import COLUMNS, TrajectoryDataset, record

require("pyarrow")

ROB = ddz.PRESETS["standard"].replace(auction="rob")


def _games(data):
    """Row ranges of each game (rows of a game are contiguous)."""
    g = data["game"]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    return list(zip(starts, np.r_[starts[1:], len(g)]))


def _replay_check(data, rules, policy=None):
    """Replay every game on a Game from its seed with the recorded actions;
    every column must match what the Game shows."""
    vg = VecGame(1, rules)       # for id -> action
    layout = ObservationLayout(rules)
    space = action_space(rules)
    games = _games(data)
    assert [int(data["game"][a]) for a, _ in games] == list(range(len(games)))
    for a, b in games:
        g = Game(rules, seed=int(data["game_seed"][a]))
        assert list(data["step"][a:b]) == list(range(b - a))
        assert list(data["done"][a:b]) == [False] * (b - a - 1) + [True]
        for k in range(a, b):
            seat = int(data["seat"][k])
            assert seat == g.to_move
            np.testing.assert_array_equal(data["observation"][k], layout.encode(g, seat))
            ids = data["legal_ids"][data["legal_offsets"][k]:data["legal_offsets"][k + 1]]
            assert [vg.action(int(i)) for i in ids] == list(g.legal_actions())
            act = vg.action(int(data["action"][k]))
            if policy == "bot":
                assert act == simple_bot(g.observation(seat), rules)
            g.step(act)
        res = g.result
        assert res is not None
        check_outcome_rows(data, a, b, res)
    del space


@pytest.mark.parametrize("rules", ["standard", "four", ROB], ids=["standard", "four", "rob"])
def test_every_recorded_step_matches_the_replayed_game(tmp_path, rules):
    r = ddz.resolve_rules(rules)
    s = record(tmp_path, 30, rules=r, seed=5, tables=8)
    assert s.games == 30 and len(s.files) == 1
    data = TrajectoryDataset(tmp_path).read()
    assert len(data["game"]) == s.steps
    _replay_check(data, r)


def test_the_bot_policy_records_the_simple_bots_games(tmp_path):
    record(tmp_path, 12, seed=3, tables=4, policy="bot")
    _replay_check(TrajectoryDataset(tmp_path).read(), ddz.PRESETS["standard"], policy="bot")


def test_a_callable_policy_chooses_the_actions(tmp_path):
    def last_legal(vg):           # bid 3 at once, then always the last listed move
        return vg.legal_ids[vg.legal_offsets[1:] - 1]
    record(tmp_path, 6, seed=1, tables=3, policy=last_legal)
    data = TrajectoryDataset(tmp_path).read()
    assert np.array_equal(data["action"], data["legal_ids"][data["legal_offsets"][1:] - 1])
    _replay_check(data, ddz.PRESETS["standard"])


def test_a_table_that_sits_a_step_out_records_no_row(tmp_path):
    """A callable policy may answer NO_ACTION for some tables: those tables
    keep their position, write no row, and the summary counts only the
    steps taken (every recorded row is a real step of its game)."""
    taken = []

    def every_other_table(vg):          # table i acts on the calls where (call + i) is even
        k = len(taken)
        last = vg.legal_ids[vg.legal_offsets[1:] - 1].astype(np.int64)     # bid 3, then the last move
        acts = np.where((np.arange(len(vg)) + k) % 2 == 0, last, VecGame.NO_ACTION)
        taken.append(int((acts != VecGame.NO_ACTION).sum()))
        return acts
    s = record(tmp_path, 8, seed=2, tables=4, policy=every_other_table)
    data = TrajectoryDataset(tmp_path).read()
    assert len(data["game"]) == s.steps
    assert (data["action"] != VecGame.NO_ACTION).all()
    assert s.steps <= sum(taken)        # every row is a step some table took (games past 8 are dropped)
    _replay_check(data, ddz.PRESETS["standard"])


def test_the_games_are_the_vecgames_seeded_games(tmp_path):
    record(tmp_path, 20, seed=9, tables=4)
    data = TrajectoryDataset(tmp_path).read()
    seeds = {int(s) for s in data["game_seed"]}
    possible = {game_seed(9, i * 2**32 + k) for i in range(4) for k in range(20)}
    assert seeds <= possible and len(seeds) == 20


def test_same_arguments_give_the_same_dataset_whatever_the_threads(tmp_path):
    a = record(tmp_path / "a", 40, seed=2, tables=32, threads=1)
    b = record(tmp_path / "b", 40, seed=2, tables=32, threads=2)
    da, db = TrajectoryDataset(tmp_path / "a").read(), TrajectoryDataset(tmp_path / "b").read()
    assert a.steps == b.steps
    for k in da:
        np.testing.assert_array_equal(da[k], db[k])


def test_shards_hold_whole_games_and_together_equal_one_file(tmp_path):
    one = record(tmp_path / "one", 60, seed=4, tables=16)
    many = record(tmp_path / "many", 60, seed=4, tables=16, games_per_shard=10)
    assert len(many.files) > 3 and one.steps == many.steps
    seen = set()
    for f in many.files:
        games = set(TrajectoryDataset(f).read(["game"])["game"].tolist())
        assert not games & seen            # no game split over two files
        seen |= games
    d1, d2 = TrajectoryDataset(tmp_path / "one").read(), TrajectoryDataset(tmp_path / "many").read()
    for k in d1:
        np.testing.assert_array_equal(d1[k], d2[k])


def test_list_observations_read_back_like_binary_ones(tmp_path):
    record(tmp_path / "b", 10, seed=6, tables=4)
    record(tmp_path / "l", 10, seed=6, tables=4, observation_type="list", compression="zstd")
    d1, d2 = TrajectoryDataset(tmp_path / "b").read(), TrajectoryDataset(tmp_path / "l").read()
    for k in d1:
        np.testing.assert_array_equal(d1[k], d2[k])


def test_batches_have_the_requested_size_and_add_up_to_the_dataset(tmp_path):
    record(tmp_path, 30, seed=7, tables=8, games_per_shard=7)
    ds = TrajectoryDataset(tmp_path)
    whole = ds.read()
    parts = list(ds.batches(333))
    assert [len(p["game"]) for p in parts[:-1]] == [333] * (len(parts) - 1)
    assert sum(len(p["game"]) for p in parts) == len(ds) == len(whole["game"])
    np.testing.assert_array_equal(np.concatenate([p["observation"] for p in parts]), whole["observation"])
    ids = np.concatenate([p["legal_ids"] for p in parts])
    np.testing.assert_array_equal(ids, whole["legal_ids"])
    for p in parts:
        assert p["legal_offsets"][0] == 0 and p["legal_offsets"][-1] == len(p["legal_ids"])
    only = next(ds.batches(50, columns=["action", "seat"]))
    assert set(only) == {"action", "seat"}
    assert ds.rules == ddz.PRESETS["standard"] and ds.metadata["seed"] == 7


def test_pandas_polars_and_hf_datasets_open_the_files(tmp_path, monkeypatch):
    pd = require("pandas")
    pl = require("polars")
    hf = require("datasets")
    s = record(tmp_path / "d", 10, seed=8, tables=4, observation_type="list")
    ours = TrajectoryDataset(tmp_path / "d").read()
    df = pd.read_parquet(tmp_path / "d")
    assert list(df.columns) == list(COLUMNS) and len(df) == s.steps
    np.testing.assert_array_equal(np.stack(df["observation"].to_numpy()), ours["observation"])
    pf = pl.read_parquet(os.path.join(tmp_path, "d", "*.parquet"))
    assert pf.height == s.steps and pf["final_score"].to_list() == ours["final_score"].tolist()
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    ds = hf.load_dataset("parquet", data_files=list(s.files), split="train",
                         cache_dir=str(tmp_path / "hf"))
    assert ds.num_rows == s.steps
    np.testing.assert_array_equal(np.array(ds.with_format("numpy")["observation"]), ours["observation"])
    # binary observations: one bytes value a step
    b = record(tmp_path / "b", 3, seed=8, tables=4)
    db = pd.read_parquet(tmp_path / "b")
    first = np.frombuffer(db["observation"].iloc[0], np.uint8)
    np.testing.assert_array_equal(first, TrajectoryDataset(tmp_path / "b").read()["observation"][0])
    assert b.steps == len(db)


# -- bad input ------------------------------------------------------------------------------

def test_a_directory_holding_a_dataset_is_refused_unless_overwrite(tmp_path):
    record(tmp_path, 3, tables=2)
    with pytest.raises(ValueError, match="already holds a dataset.*overwrite"):
        record(tmp_path, 3, tables=2)
    s = record(tmp_path, 4, tables=2, overwrite=True, games_per_shard=1)
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(f) for f in s.files)


@pytest.mark.parametrize("kwargs, err, match", [
    ({"games": 0}, ValueError, "games 0 is out of range"),
    ({"games": 1.5}, TypeError, "games"),
    ({"tables": 0}, ValueError, "tables"),
    ({"policy": "greedy"}, ValueError, "policy"),
    ({"policy": 3}, TypeError, "policy"),
    ({"compression": "xz"}, ValueError, "compression"),
    ({"observation_type": "float"}, ValueError, "observation_type"),
    ({"overwrite": 1}, TypeError, "overwrite"),
    ({"progress": "yes"}, TypeError, "progress"),
    ({"rules": "nope"}, ValueError, "unknown rules preset"),
    ({"seed": "1"}, TypeError, "seed"),
    ({"threads": 0}, ValueError, "threads"),
])
def test_bad_record_arguments_raise_clear_errors(tmp_path, kwargs, err, match):
    args = {"games": 2, **kwargs}
    games = args.pop("games")
    with pytest.raises(err, match=match):
        record(tmp_path, games, **args)
    assert not any(f.endswith(".parquet") for f in os.listdir(tmp_path))


def test_a_policy_returning_illegal_ids_fails_naming_the_table(tmp_path):
    with pytest.raises(ValueError, match="table 0: action id"):
        record(tmp_path, 2, tables=2, policy=lambda vg: np.full(2, 9, np.int64))   # PASS: no auction action


def test_bad_files_raise_errors_naming_the_file(tmp_path):
    s = record(tmp_path / "ok", 5, tables=2)
    good = open(s.files[0], "rb").read()
    bad = tmp_path / "bad"
    bad.mkdir()
    trunc = bad / "part-00000.parquet"
    trunc.write_bytes(good[: len(good) // 2])
    with pytest.raises(ValueError, match="part-00000.parquet.*not a readable Parquet file"):
        TrajectoryDataset(bad)
    trunc.write_bytes(b"not parquet at all")
    with pytest.raises(ValueError, match="part-00000.parquet"):
        TrajectoryDataset(trunc)
    import pyarrow as pa
    import pyarrow.parquet as pq
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(ValueError, match="other.parquet: not a ddz-fast trajectory file"):
        TrajectoryDataset(other)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no part"):
        TrajectoryDataset(tmp_path / "empty")
    with pytest.raises(ValueError, match="does not exist"):
        TrajectoryDataset(tmp_path / "missing")
    with pytest.raises(TypeError, match="path"):
        TrajectoryDataset(3)
    mixed = tmp_path / "mixed"
    record(mixed, 2, tables=2, games_per_shard=1)
    four = record(tmp_path / "four", 1, tables=1, rules="four")
    os.replace(four.files[0], mixed / "part-99999.parquet")
    with pytest.raises(ValueError, match="part-99999.parquet: recorded under other rules"):
        TrajectoryDataset(mixed)
    ds = TrajectoryDataset(tmp_path / "ok")
    with pytest.raises(ValueError, match="unknown columns"):
        ds.read(["obs"])
    with pytest.raises(ValueError, match="batch_size"):
        next(ds.batches(0))


def test_step_recorder_refuses_what_it_cannot_record_and_rolls_back_bad_steps():
    from ddz_fast._engine.recorder import StepRecorder
    with pytest.raises(ValueError, match="auto_reset=True and observations=True"):
        StepRecorder(VecGame(2, auto_reset=False), 5)
    with pytest.raises(ValueError, match="auto_reset=True and observations=True"):
        StepRecorder(VecGame(2, observations=False), 5)
    with pytest.raises(TypeError):
        StepRecorder(None, 5)
    with pytest.raises(ValueError, match="limit"):
        StepRecorder(VecGame(2), -1)
    blank = StepRecorder.__new__(StepRecorder)
    for call in (lambda: blank.step([0, 0]), blank.take):
        with pytest.raises(TypeError, match="never initialised"):
            call()
    vg = VecGame(3, seed=2, bot=True)
    rec = StepRecorder(vg, 2)
    twin = VecGame(3, seed=2, bot=True)
    for _ in range(5):
        bad = vg.bot_actions.astype(np.int64)
        bad[1] = 5                                       # CALL: no action of the bid auction
        with pytest.raises(ValueError, match="table 1"):
            rec.step(bad)
        rec.step(vg.bot_actions)
        twin.step(twin.bot_actions)
    while rec.games < 2:
        rec.step(vg.bot_actions)
        twin.step(twin.bot_actions)
    out = rec.take()
    assert set(out["game"].tolist()) == {0, 1} and out["done"].sum() == 2
    assert not out["observation"].flags.writeable
    assert np.array_equal(vg.observations, twin.observations)   # the failed steps changed nothing
    assert rec.pending_rows == 0 and len(rec.take()["game"]) == 0
    with pytest.raises(TypeError, match="pickled"):
        import pickle
        pickle.dumps(rec)


def test_version_1_files_are_read_with_their_ids_converted(tmp_path):
    """A version-1 file (moves first, then the auction codes at n_moves +
    code) reads as the same steps in the game's ids, alone or beside a
    version-2 file; an unknown version is refused naming the file."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    s = record(tmp_path / "new", 6, tables=3, seed=4)
    want = TrajectoryDataset(s.directory).read()
    t = pq.read_table(s.files[0])
    meta = json.loads(t.schema.metadata[b"ddz_fast"])
    assert meta["version"] == 2 and meta["first_move_id"] == 9
    n_moves = meta["n_moves"]

    def old(ids):       # the version-1 numbering, computed from the documented layout
        ids = np.asarray(ids)
        return np.where(ids >= 9, ids - 9, ids + n_moves).astype(np.int32)

    legal = t.column("legal_ids").combine_chunks()
    v1 = t.set_column(t.schema.get_field_index("action"), "action",
                      pa.array(old(t.column("action").to_numpy()), pa.int32()))
    v1 = v1.set_column(v1.schema.get_field_index("legal_ids"), "legal_ids",
                       pa.ListArray.from_arrays(legal.offsets, pa.array(old(legal.flatten().to_numpy()),
                                                                        pa.int32())))
    old_dir = tmp_path / "old"
    old_dir.mkdir()
    pq.write_table(v1.replace_schema_metadata({b"ddz_fast": json.dumps({**meta, "version": 1})}),
                   old_dir / "part-00000.parquet")
    got = TrajectoryDataset(old_dir).read()
    assert got.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])
    # batches that cut through the lists convert as well
    parts = list(TrajectoryDataset(old_dir).batches(7, columns=["legal_ids", "action"]))
    np.testing.assert_array_equal(np.concatenate([b["action"] for b in parts]), want["action"])
    np.testing.assert_array_equal(np.concatenate([b["legal_ids"] for b in parts]), want["legal_ids"])
    # beside a version-2 file
    (old_dir / "part-00001.parquet").write_bytes(open(s.files[0], "rb").read())
    both = TrajectoryDataset(old_dir).read(["action"])["action"]
    np.testing.assert_array_equal(both, np.concatenate([want["action"], want["action"]]))
    pq.write_table(v1.replace_schema_metadata({b"ddz_fast": json.dumps({**meta, "version": 3})}),
                   old_dir / "part-00002.parquet")
    with pytest.raises(ValueError, match="part-00002.parquet: format version 3"):
        TrajectoryDataset(old_dir)


def test_every_flipped_bit_is_refused_naming_the_file_or_reads_back_identical(tmp_path):
    """One bit flipped anywhere in a shard (every 5th byte, each bit in
    turn): opening or reading it raises ValueError naming the file, or it
    reads back as exactly the data and metadata written; never other data."""
    s = record(tmp_path / "ok", 3, tables=2, seed=1)
    refused, tried = flip_each_and_check(s.files[0], tmp_path / "part-00000.parquet", 5, lambda pos: pos // 5 % 8)
    assert refused > tried // 2        # most flips land in compressed data or the footer


@pytest.mark.parametrize("column", ["action", "done", "legal_ids", "observation"])
def test_a_file_with_null_cells_is_refused_naming_the_column(tmp_path, column):
    import pyarrow as pa
    import pyarrow.parquet as pq

    s = record(tmp_path / "ok", 2, tables=2, seed=3)
    t = pq.read_table(s.files[0])
    col = t.column(column).combine_chunks()
    if column == "legal_ids":             # a null item inside one row's list
        items = col.values.to_pylist()
        items[1] = None
        col = pa.ListArray.from_arrays(col.offsets, pa.array(items, pa.int32()))
    else:
        cells = col.to_pylist()
        cells[1] = None
        col = pa.array(cells, col.type)
    i = t.schema.get_field_index(column)
    t = t.set_column(i, pa.field(column, col.type), col)
    bad = tmp_path / "bad"
    bad.mkdir()
    pq.write_table(t, bad / "part-00000.parquet")
    with pytest.raises(ValueError, match=f"part-00000.parquet: column '{column}' holds nulls"):
        TrajectoryDataset(bad).read()


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "not-a-terminal"])
def test_record_shows_progress_by_default_on_a_terminal_only(tmp_path, monkeypatch, terminal):
    import io

    class Stderr(io.StringIO):
        def isatty(self):
            return terminal
    err = Stderr()
    monkeypatch.setattr("sys.stderr", err)
    record(tmp_path / "d", 20, tables=4)
    assert ("record" in err.getvalue() and "20" in err.getvalue()) == terminal
    quiet = Stderr()
    monkeypatch.setattr("sys.stderr", quiet)
    record(tmp_path / "q", 20, tables=4, progress=False)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("threads", [1, 2])
def test_an_error_mid_run_leaves_no_partial_shard(tmp_path, threads):
    """A policy that fails after some shards were written: the error reaches
    the caller, the finished shards are whole files, and no temporary file
    is left (with threads=2 the writer runs on its own thread)."""
    calls = []

    def failing(vg):
        calls.append(1)
        if len(calls) == 200:
            raise RuntimeError("policy failed")
        return vg.legal_ids[vg.legal_offsets[1:] - 1]
    with pytest.raises(RuntimeError, match="policy failed"):
        record(tmp_path, 10_000, tables=8, games_per_shard=5, threads=threads, policy=failing)
    names = os.listdir(tmp_path)
    assert names and all(n.startswith("part-") and n.endswith(".parquet") for n in names)
    TrajectoryDataset(tmp_path).read()
