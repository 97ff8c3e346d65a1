"""Trajectory datasets of wild-card games (``laizi``, ``tiandi``): every
recorded game replayed on the one-deal Game from its seed reproduces the
recorded ids, moves, wild ranks, observations and scores; the columns and
their types; the reader's refusals; and the standard presets' schema left as
it was."""
import numpy as np
import pytest

import ddz_fast as ddz
from dataset_checks import check_outcome_rows, flip_each_and_check
from optional import require
from ddz_fast import Game, VecGame, action_space
from ddz_fast.actions import FIRST_MOVE_ID
from ddz_fast.envs import ObservationLayout
from ddz_fast.game import simple_bot
from ddz_fast.trajectories import COLUMNS, WILD_COLUMN, TrajectoryDataset, columns, record

require("pyarrow")

WILD = ["laizi", "tiandi"]


def _games(data):
    """Row ranges of each game (rows of a game are contiguous)."""
    g = data["game"]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    return list(zip(starts, np.r_[starts[1:], len(g)]))


def _replay(ds, data, policy=None):
    """Replay every recorded game twice from its seed: on one Game by the
    recorded ids (``step_id``), on another by the moves the dataset reads
    them as (``step``); both must show every recorded column, and end in
    the same state."""
    rules = ds.rules
    layout = ObservationLayout(rules)
    k_wild = rules.wild_ranks
    assert data["wild"].shape == (len(data["game"]), k_wild) and data["wild"].dtype == np.int8
    games = _games(data)
    assert [int(data["game"][a]) for a, _ in games] == list(range(len(games)))
    moves_seen = 0
    for a, b in games:
        seed = int(data["game_seed"][a])
        by_id, by_move = Game(rules, seed=seed), Game(rules, seed=seed)
        wild = data["wild"][a]
        assert (data["wild"][a:b] == wild).all()            # the game's ranks, on every row
        assert list(data["step"][a:b]) == list(range(b - a))
        for k in range(a, b):
            seat = int(data["seat"][k])
            assert seat == by_id.to_move
            np.testing.assert_array_equal(data["observation"][k], layout.encode(by_id, seat))
            ids = data["legal_ids"][data["legal_offsets"][k]:data["legal_offsets"][k + 1]]
            assert ids.dtype == np.int64
            np.testing.assert_array_equal(ids, by_id.legal_ids())
            legal = list(by_id.legal_actions())
            act_id = int(data["action"][k])
            act = ds.action(act_id, wild)
            listed = legal[list(ids).index(act_id)]
            assert act == listed
            if act_id >= FIRST_MOVE_ID:
                moves_seen += 1
                # a Move of the reading and the cards played, as the game lists it
                assert isinstance(act, ddz.Move) and by_id.wild == tuple(wild.tolist())
                assert (act.counts, act.represents, act.kind) == (listed.counts, listed.represents, listed.kind)
            if policy == "bot":
                assert act == simple_bot(by_id.observation(seat), rules)
            by_id.step_id(act_id)
            by_move.step(act)
        assert by_id.is_over and by_move.is_over
        assert by_id.result == by_move.result and by_id.history == by_move.history
        assert tuple(wild.tolist()) == by_id.wild            # drawn in every game that ends
        check_outcome_rows(data, a, b, by_id.result)
        assert list(data["done"][a:b]) == [False] * (b - a - 1) + [True]
    assert moves_seen > len(games) * 10


@pytest.mark.parametrize("rules", WILD)
@pytest.mark.parametrize("policy", ["random", "bot"])
def test_every_recorded_wild_game_replays_from_the_dataset(tmp_path, rules, policy):
    s = record(tmp_path, 12, rules=rules, seed=4, tables=5, policy=policy, games_per_shard=5)
    assert s.games == 12 and len(s.files) == 3
    ds = TrajectoryDataset(tmp_path)
    assert ds.rules == ddz.PRESETS[rules] and ds.columns == COLUMNS + (WILD_COLUMN,) == columns(rules)
    data = ds.read()
    assert len(data["game"]) == s.steps == len(ds)
    _replay(ds, data, policy)


@pytest.mark.parametrize("rules", WILD)
def test_wild_datasets_are_the_vecgames_games_whatever_the_threads_and_batches(tmp_path, rules):
    """The files are the same with a writer thread; batches add up to the
    whole read, the wild column included; the games are VecGame's seeded
    deals, with the ranks VecGame showed."""
    one = record(tmp_path / "a", 10, rules=rules, seed=9, tables=4)
    two = record(tmp_path / "b", 10, rules=rules, seed=9, tables=4, threads=2)
    for f, g in zip(one.files, two.files):
        assert open(f, "rb").read() == open(g, "rb").read()
    ds = TrajectoryDataset(tmp_path / "a")
    whole = ds.read()
    parts = list(ds.batches(97))
    for k in ("wild", "action", "legal_ids", "observation"):
        np.testing.assert_array_equal(np.concatenate([p[k] for p in parts]), whole[k])
    only = ds.read(["game", "wild"])
    assert set(only) == {"game", "wild"}
    np.testing.assert_array_equal(only["wild"], whole["wild"])
    # the first game to end is one of the first deals; its ranks are the ones VecGame drew
    vg = VecGame(4, rules, 9)
    seeds = {int(s) for s in vg.game_seeds}
    first = int(whole["game_seed"][0])
    assert first in seeds
    g = Game(rules, seed=first)
    for a in whole["action"][whole["game"] == 0]:
        g.step_id(int(a))
    assert tuple(whole["wild"][0].tolist()) == g.wild
    # shards recorded apart (the path of record(ray=...)) replay the same way
    apart = record(tmp_path / "c", 7, rules=rules, seed=9, tables=3, independent_shards=True, games_per_shard=3)
    assert apart.games == 7 and len(apart.files) == 3
    ds_apart = TrajectoryDataset(tmp_path / "c")
    data = ds_apart.read()
    data["game"] = data["game"] - data["game"][0]      # (each shard numbers its games from k * 3)
    _, idx = np.unique(data["game"], return_inverse=True)
    data["game"] = idx.astype(np.int64)
    _replay(ds_apart, data)


@pytest.mark.parametrize("rules", WILD)
def test_the_step_recorder_records_flat_int64_ids_and_each_games_wild_ranks(rules):
    from ddz_fast._engine.recorder import StepRecorder
    vg = VecGame(3, rules, seed=2, bot=True)
    twin = VecGame(3, rules, seed=2, bot=True)
    rec = StepRecorder(vg, 4)
    steps = 0
    while rec.games < 4:
        if steps == 30:         # an id no table can play now: refused, nothing recorded or changed
            bad = vg.bot_actions.copy()
            bad[2] = FIRST_MOVE_ID + action_space(rules).flat_size - 1
            rows = rec.pending_rows
            with pytest.raises(ValueError, match="table 2"):
                rec.step(bad)
            assert rec.pending_rows == rows
        seen = vg.wild
        done_before = rec.games
        rec.step(vg.bot_actions)
        twin.step(twin.bot_actions)
        steps += 1
        if rec.games > done_before:
            assert (seen >= 0).any()
    assert np.array_equal(vg.observations, twin.observations)
    out = rec.take()
    k = ddz.PRESETS[rules].wild_ranks
    assert out["action"].dtype == out["legal_ids"].dtype == np.int64
    assert out["wild"].shape == (len(out["game"]), k) and not out["wild"].flags.writeable
    assert set(out["game"].tolist()) == {0, 1, 2, 3} and out["done"].sum() == 4
    for gid in range(4):
        rows = out["game"] == gid
        g = Game(rules, seed=int(out["game_seed"][rows][0]))
        for a in out["action"][rows]:
            g.step_id(int(a))
        assert g.is_over and (out["wild"][rows] == np.array(g.wild, np.int8)).all()
    assert out["legal_counts"].sum() == len(out["legal_ids"])


def test_the_standard_columns_and_types_are_unchanged(tmp_path):
    """The standard presets' files keep their twelve columns, types and
    metadata keys; wild files add int64 ids and the wild column only."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from ddz_fast._engine.recorder import StepRecorder

    std = [("game", pa.int64()), ("step", pa.int16()), ("seat", pa.int8()), ("observation", pa.binary(131)),
           ("legal_ids", pa.list_(pa.int32())), ("action", pa.int32()), ("reward", pa.int64()),
           ("done", pa.bool_()), ("final_score", pa.int64()), ("win", pa.int8()), ("landlord", pa.int8()),
           ("game_seed", pa.uint64())]
    s = record(tmp_path / "std", 2, tables=2, seed=1)
    schema = pq.read_schema(s.files[0])
    assert [(f.name, f.type) for f in schema] == std and not any(f.nullable for f in schema)
    assert set(TrajectoryDataset(s.files[0]).metadata) == {
        "format", "version", "ddz_fast", "observation_type", "rules", "seed", "policy", "tables", "n_moves",
        "n_actions", "first_move_id", "observation_fields"}
    rec = StepRecorder(VecGame(2, seed=1), 1)
    assert rec.take()["action"].dtype == np.int32 and "wild" not in rec.take()
    for rules, k in (("laizi", 1), ("tiandi", 2)):
        w = record(tmp_path / rules, 2, tables=2, seed=1, rules=rules)
        ws = pq.read_schema(w.files[0])
        want = [(n, pa.list_(pa.int64()) if n == "legal_ids" else pa.int64() if n == "action"
                 else pa.binary(ObservationLayout(rules).size) if n == "observation" else t) for n, t in std]
        assert [(f.name, f.type) for f in ws] == want + [("wild", pa.list_(pa.int8(), k))]
        assert not any(f.nullable for f in ws)
        meta = TrajectoryDataset(w.files[0]).metadata
        assert meta["n_moves"] == action_space(rules).flat_size and meta["rules"]["wild"] == rules


def test_pandas_reads_the_wild_column_as_arrays(tmp_path):
    pd = require("pandas")
    s = record(tmp_path, 3, rules="tiandi", seed=2, tables=2)
    df = pd.read_parquet(tmp_path)
    assert list(df.columns) == list(columns("tiandi")) and len(df) == s.steps
    ours = TrajectoryDataset(tmp_path).read(["wild", "action"])
    np.testing.assert_array_equal(np.stack(df["wild"].to_numpy()), ours["wild"])
    assert df["action"].dtype == np.int64


def test_reading_ids_back_refuses_what_names_no_move(tmp_path):
    record(tmp_path / "w", 2, rules="laizi", seed=1, tables=2)
    record(tmp_path / "s", 2, seed=1, tables=2)
    w, s = TrajectoryDataset(tmp_path / "w"), TrajectoryDataset(tmp_path / "s")
    d = w.read(["action", "wild"])
    move_id = int(d["action"][d["action"] >= FIRST_MOVE_ID][0])
    row_wild = d["wild"][np.flatnonzero(d["action"] == move_id)[0]]
    assert isinstance(w.action(move_id, row_wild), ddz.Move)
    assert w.action(0) == s.action(0)                    # auction ids need no wild ranks
    with pytest.raises(ValueError, match="wild cards.*wild="):
        w.action(move_id)
    with pytest.raises(ValueError, match="-1"):
        w.action(move_id, np.array([-1], np.int8))
    with pytest.raises(ValueError, match="action id"):
        w.action(FIRST_MOVE_ID + action_space("laizi").flat_size)
    with pytest.raises(TypeError, match="action id"):
        w.action(1.5, row_wild)
    with pytest.raises(ValueError, match="wild= is for"):
        s.action(FIRST_MOVE_ID, 3)
    assert s.action(FIRST_MOVE_ID) == action_space("standard").id_to_move(0)
    with pytest.raises(ValueError, match="'wild': only under wild-card rules"):
        s.read(["wild"])
    # a flat id in range whose cards id names no cards for its reading
    space = action_space("laizi")
    unplayable = None
    for flat in range(space.cards_size, 2 * space.cards_size):
        try:
            space.flat_move(flat, wild=row_wild.tolist())
        except ValueError:
            unplayable = flat
            break
    assert unplayable is not None
    with pytest.raises(ValueError):
        w.action(FIRST_MOVE_ID + unplayable, row_wild)


def test_wild_files_with_the_wrong_types_or_mixed_with_standard_ones_are_refused(tmp_path):
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    s = record(tmp_path / "w", 2, rules="laizi", seed=1, tables=2)
    t = pq.read_table(s.files[0])
    for column, change in (("action", lambda t: t.set_column(5, "action", t.column("action").cast(pa.int32()))),
                           ("wild", lambda t: t.drop_columns(["wild"]))):
        bad = tmp_path / f"bad-{column}"
        bad.mkdir()
        pq.write_table(change(t), bad / "part-00000.parquet")
        with pytest.raises(ValueError, match="part-00000.parquet: (column 'action' has type int32, not int64|"
                                             "missing columns \\['wild'\\])"):
            TrajectoryDataset(bad)
    # a null rank in the wild column
    col = t.column("wild").combine_chunks()
    items = col.values.to_pylist()
    items[0] = None
    nulls = pa.FixedSizeListArray.from_arrays(pa.array(items, pa.int8()), 1)
    bad = tmp_path / "nulls"
    bad.mkdir()
    pq.write_table(t.set_column(12, pa.field("wild", nulls.type), nulls), bad / "part-00000.parquet")
    with pytest.raises(ValueError, match="part-00000.parquet: column 'wild' holds nulls"):
        TrajectoryDataset(bad).read()
    mixed = tmp_path / "mixed"
    record(mixed, 1, tables=1, seed=1)
    os.replace(record(tmp_path / "t", 1, tables=1, rules="tiandi").files[0], mixed / "part-99999.parquet")
    with pytest.raises(ValueError, match="part-99999.parquet: recorded under other rules"):
        TrajectoryDataset(mixed)


def test_a_flipped_bit_in_a_wild_shard_is_refused_or_reads_back_identical(tmp_path):
    """One bit flipped in every 31st byte of a laizi shard: refused with
    a ValueError naming the file, or read back as exactly the data written
    (the nightly fuzz, ``damaged_parquet``, damages wild shards more)."""
    s = record(tmp_path / "ok", 2, rules="laizi", tables=2, seed=1)
    refused, tried = flip_each_and_check(s.files[0], tmp_path / "part-00000.parquet", 31, lambda pos: pos % 8)
    assert refused > tried // 10


def test_the_web_app_replays_a_wild_dataset_to_its_recorded_moves_and_scores(tmp_path):
    require("starlette")
    from ddz_fast.web.replays import dataset_records

    record(tmp_path, 3, rules="tiandi", seed=6, tables=2)
    data = TrajectoryDataset(tmp_path).read(["game", "seat", "action", "final_score", "wild"])
    recs = dataset_records(str(tmp_path))
    assert len(recs) == 3
    for gid, rec in enumerate(recs):
        rows = data["game"] == gid
        assert [a[1] for a in rec["actions"]] == data["action"][rows].tolist()
        seats = data["seat"][rows]
        assert [rec["result"]["scores"][s] for s in seats] == data["final_score"][rows].tolist()


def test_selfplay_records_a_wild_dataset_from_the_command_line(tmp_path, capsys):
    import json

    from ddz_fast import cli

    d = tmp_path / "ds"
    assert cli.main(["selfplay", "--rules", "laizi", "--games", "6", "--record", str(d), "--tables", "3",
                     "--json", "-q"]) == 0
    s = json.loads(capsys.readouterr().out)
    ds = TrajectoryDataset(d)
    assert (s["games"], s["steps"], s["rules"]) == (6, len(ds), "laizi") and ds.rules.name == "laizi"
    assert ds.read(["wild"])["wild"].shape == (len(ds), 1)


def test_wild_row_groups_end_at_a_bound_on_legal_ids_and_hold_the_same_data(tmp_path, monkeypatch):
    """Under wild rules a row group also ends once the pending legal ids
    reach a bound (the buffers stay small at hundreds of ids a step); the
    data read back is the same wherever the groups end."""
    import pyarrow.parquet as pq

    from ddz_fast import trajectories
    from ddz_fast._engine.recorder import StepRecorder

    whole = record(tmp_path / "a", 6, rules="tiandi", seed=3, tables=3)
    monkeypatch.setattr(trajectories, "_WILD_IDS_PER_GROUP", 3000)
    split = record(tmp_path / "b", 6, rules="tiandi", seed=3, tables=3)
    assert pq.ParquetFile(whole.files[0]).num_row_groups == 1
    assert pq.ParquetFile(split.files[0]).num_row_groups > 1
    a, b = TrajectoryDataset(tmp_path / "a").read(), TrajectoryDataset(tmp_path / "b").read()
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    vg = VecGame(2, "laizi", seed=1, bot=True)
    rec = StepRecorder(vg, 3)
    while rec.games < 2:
        rec.step(vg.bot_actions)
    pending = rec.pending_ids
    out = rec.take()
    assert pending == len(out["legal_ids"]) == int(out["legal_counts"].sum()) > 0
    assert rec.pending_ids == 0
