"""Trajectory datasets: every step of many self-play games as sharded Parquet files.

:func:`record` plays seeded games on a :class:`~ddz_fast.VecGame` (a batch of
tables stepped in one compiled call) and writes one row per step;
:class:`TrajectoryDataset` reads the files back as NumPy training batches.
The files are plain Parquet: pandas (``pd.read_parquet(directory)``), polars
(``pl.read_parquet(directory + "/*.parquet")``) and Hugging Face ``datasets``
(``load_dataset("parquet", data_files=...)``) open them with no custom code.
Needs the optional extra ``pyarrow`` (``pip install ".[datasets]"`` from a
clone).

Columns (one row per step, the rows of a game together and in order)
  =============== =========================  ==========================================
  ``game``        int64                      the game's number in the dataset
                                             (0, 1, ... in the order the games ended)
  ``step``        int16                      the step's index in its game (auction
                                             steps included)
  ``seat``        int8                       the seat that acted
  ``observation`` fixed_size_binary or       the acting seat's observation before the
                  fixed_size_list<uint8>     step (:class:`~ddz_fast.observation.ObservationLayout`),
                                             one byte an entry (every entry is a small
                                             integer); see ``observation_type``
  ``legal_ids``   list<int32>                the legal action ids (the game's,
                                             ``docs/actions.md``: the auction codes
                                             0..8, then move ``k`` of
                                             ``action_space(rules)`` at ``9 + k``)
  ``action``      int32                      the id played
  ``reward``      int64                      the acting seat's settled score when this
                                             step ended the deal, else 0
  ``done``        bool                       this step ended the deal
  ``final_score`` int64                      the acting seat's settled score of the game
  ``win``         int8                       +1 if the acting seat's side won, else -1
  ``landlord``    int8                       the game's landlord
  ``game_seed``   uint64                     ``Game(rules, seed=game_seed)`` deals it again
  =============== =========================  ==========================================

Under wild-card rules (``laizi``, ``tiandi``) the ids are the flat ids of
``docs/actions.md`` ("Flat ids": ``FIRST_MOVE_ID + reading * cards_size +
cards``, up to 2.8e10), so ``legal_ids`` is ``list<int64>`` and ``action``
``int64``, and a last column ``wild`` (``fixed_size_list<int8>[k]``, ``k``
= 1 for ``laizi``, 2 for ``tiandi``) holds the game's wild ranks, ascending
(0 the 3 .. 12 the 2; drawn when the landlord takes the kitty, and every
game gets there: a deal nobody bids for is redealt), the same on every row
of the game, its auction's included: a flat id names a move only under them
(:meth:`TrajectoryDataset.action`).  The other rules' columns are as above,
unchanged.  Legal ids are recorded as lists under every rules (masks would
need a bit per flat id).

``observation_type="binary"`` (the default) stores each observation as one
``obs_size``-byte value (``np.frombuffer(value, np.uint8)``), ``"list"`` as a
fixed-size list of ``uint8``, which pandas, polars and ``datasets`` show as
arrays but which Parquet encodes about 4x slower (nested values carry
repetition levels).  :class:`TrajectoryDataset` reads both.

Each file's schema metadata (key ``ddz_fast``) records the format version,
the rules, the run's seed, policy and number of tables, and the layout of the
observation, so a dataset describes itself.  Version 2 records the game's
action ids; version 1 (moves first, then the auction codes at ``n_moves +
code``) is converted to them as it is read.  Files are written under a
temporary name and renamed when complete, so a crash leaves no partial
``part-*.parquet``.

Integrity: every data page carries a CRC-32 (Parquet's page checksum), the
footer a CRC-32 of the metadata and the file's row count, and every column
is "required" (no nulls).  :class:`TrajectoryDataset` verifies all of it and
refuses a damaged file with a ``ValueError`` naming it, so a damaged file
never reads back as other data.  Files of format 2 written before the
checksums read unverified (nulls are still refused).
"""
from __future__ import annotations

import json
import os
import sys
import time
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, fields
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._util.checks import check_int, check_seed, check_threads
from ._util.progress import Progress
from ._util.rng import game_seed
from ._engine.recorder import StepRecorder
from ._engine.vec import FIRST_MOVE_ID, VecGame
from ._version import __version__
from .actions import WildActionSpace, action_space
from .game_values import AUCTION_ACTIONS, AuctionAction
from .moves import Move
from .observation import ObservationLayout
from .rules import Rules, RulesLike, check_rules, resolve_rules

__all__ = ["record", "RecordSummary", "TrajectoryDataset", "COLUMNS", "WILD_COLUMN", "columns", "COMPRESSIONS",
           "OBSERVATION_TYPES", "POLICIES", "FORMAT_VERSION"]

FORMAT = "ddz-fast-trajectories"
FORMAT_VERSION = 2
#: Older versions read (and converted): version 1 numbered the moves first
#: (0 .. n_moves-1), then the auction codes (n_moves + code).
_CONVERTED_VERSIONS = (1,)
_META_KEY = b"ddz_fast"
#: The file's number of rows, added when it is closed: a reader that reads
#: fewer (a damaged page header or footer can make Parquet stop early) refuses it.
_ROWS_KEY = b"ddz_fast_rows"
#: The CRC-32 of the two values above (``ddz_fast``, a zero byte, then
#: ``ddz_fast_rows``), in decimal: the page checksums cover the data only.
#: Files written before it existed have neither key and are read unchecked.
_META_CRC_KEY = b"ddz_fast_crc32"
_PREFIX = "part-"
_SUFFIX = ".parquet"
#: The compressions :func:`record` offers, the default first (chosen by
#: measurement: benchmarks/README.md, "Recording: the codec").
COMPRESSIONS: Tuple[str, ...] = ("zstd", "lz4", "snappy", "gzip", "brotli", "none")
_ROWS_PER_GROUP = 1 << 17
#: Under wild-card rules a row group also ends at about this many legal ids
#: (32 MiB of int64; a tiandi step lists about 185), so that the buffers stay
#: small; the standard presets' row groups are as before (by rows only).
_WILD_IDS_PER_GROUP = 1 << 22
#: Most ids in one file (a Parquet list column holds 32-bit offsets).
_MAX_IDS_PER_FILE = (1 << 31) - 1

Policy = Union[str, Callable[[VecGame], Any]]
PathLike = Union[str, "os.PathLike[str]"]


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError("ddz_fast.trajectories needs pyarrow: pip install \".[datasets]\" "
                          "(from a clone of ddz-fast) or pip install pyarrow") from None
    return pyarrow


#: ``record``'s ``observation_type``: the observation tensor, or its list form.
OBSERVATION_TYPES = ("binary", "list")
#: ``record``'s named policies (besides a callable): random legal moves, or the simple bot.
POLICIES = ("random", "bot")


def _schema(pa: Any, obs_size: int, observation_type: str, wild_ranks: int = 0) -> Any:
    """The columns of a file; with ``wild_ranks`` (wild-card rules) the ids
    are int64 and the ``wild`` column follows the others."""
    obs = pa.binary(obs_size) if observation_type == "binary" else pa.list_(pa.uint8(), obs_size)
    ids = pa.int64() if wild_ranks else pa.int32()
    wild = (("wild", pa.list_(pa.int8(), wild_ranks)),) if wild_ranks else ()
    # Every cell has a value: the columns are written as Parquet "required"
    # (no definition levels to write, and no room for a null).
    return pa.schema([pa.field(name, t, nullable=False) for name, t in (
        ("game", pa.int64()), ("step", pa.int16()), ("seat", pa.int8()),
        ("observation", obs), ("legal_ids", pa.list_(ids)),
        ("action", ids), ("reward", pa.int64()), ("done", pa.bool_()),
        ("final_score", pa.int64()), ("win", pa.int8()), ("landlord", pa.int8()),
        ("game_seed", pa.uint64()), *wild,
    )])


#: The column names, in file order (under wild-card rules :data:`WILD_COLUMN` follows them).
COLUMNS: Tuple[str, ...] = ("game", "step", "seat", "observation", "legal_ids", "action", "reward",
                            "done", "final_score", "win", "landlord", "game_seed")
#: The column of the game's wild ranks, in the datasets of wild-card rules only.
WILD_COLUMN = "wild"


def columns(rules: RulesLike = "standard") -> Tuple[str, ...]:
    """The column names of a dataset of ``rules``, in file order:
    :data:`COLUMNS`, then :data:`WILD_COLUMN` under wild-card rules."""
    r = check_rules(resolve_rules(rules))
    return COLUMNS + ((WILD_COLUMN,) if r.wild_ranks else ())


def _rules_dict(r: Rules) -> Dict[str, Any]:
    return {f.name: getattr(r, f.name) for f in fields(r)}


@dataclass(frozen=True)
class RecordSummary:
    """What :func:`record` wrote."""

    directory: str
    files: Tuple[str, ...]
    games: int
    steps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def _policy_actions(policy: Policy, vg: VecGame, rng: np.random.Generator) -> Any:
    if policy == "random":
        off = vg.legal_offsets
        pick = off[:-1] + (rng.random(len(vg)) * np.diff(off)).astype(np.int64)
        return vg.legal_ids[pick]
    if policy == "bot":
        return vg.bot_actions
    return policy(vg)  # type: ignore[operator]


def record(directory: PathLike, games: int, *, rules: RulesLike = "standard", seed: int = 0,
           policy: Policy = "random", tables: int = 1024, threads: int = 1,
           games_per_shard: int = 100_000, observation_type: str = "binary",
           compression: str = COMPRESSIONS[0], overwrite: bool = False, progress: Optional[bool] = None,
           independent_shards: bool = False, ray: Optional[str] = None) -> RecordSummary:
    """Play ``games`` games and write every step to ``directory/part-NNNNN.parquet``.

    ``policy``: ``"random"`` (a uniformly random legal action, drawn from a
    NumPy generator seeded with ``seed``), ``"bot"`` (every seat the simple
    bot), or a callable that takes the :class:`~ddz_fast.VecGame` and returns
    one action id per table.  The games are those of ``VecGame(tables, rules,
    seed)`` (table ``i``'s ``k``-th game is seeded ``game_seed(seed, i *
    2**32 + k)``), kept in the order they end; the same arguments give the
    same files whatever ``threads`` is.  A shard holds about
    ``games_per_shard`` whole games.  ``directory`` is created if needed; one
    that already holds ``part-*.parquet`` files is refused unless
    ``overwrite`` (which deletes them first).  ``progress`` draws a progress
    bar on stderr; by default (``None``) when stderr is a terminal.
    ``threads`` above 1: one thread writes the files while the others step
    the tables.

    ``independent_shards``: shard ``k`` (file ``part-k``) is a run of its
    own, of ``games_per_shard`` games (the last one fewer) seeded
    ``game_seed(seed, k)`` (its games numbered from ``k *
    games_per_shard``), so shards can be recorded apart.  ``ray`` records
    them as Ray tasks (``"auto"``, ``"local"`` or a cluster address; the
    ``ray`` extra; ``directory`` must be one every worker can write, e.g. a
    shared file system), with files identical to the local
    ``independent_shards=True`` run.
    """
    _pyarrow()

    total = check_int(games, "games", 1, 1 << 40)
    n = check_int(tables, "tables", 1, 1 << 20)
    per_shard = check_int(games_per_shard, "games_per_shard", 1, 1 << 40)
    run_seed = check_seed(seed)
    check_threads(threads)
    r = check_rules(resolve_rules(rules))
    if not isinstance(policy, str) and not callable(policy):
        raise TypeError(f"policy must be 'random', 'bot' or a callable, not {type(policy).__name__}")
    if isinstance(policy, str) and policy not in POLICIES:
        raise ValueError(f"policy must be 'random', 'bot' or a callable, not {policy!r}")
    if not isinstance(observation_type, str) or observation_type not in OBSERVATION_TYPES:
        raise ValueError(f"observation_type must be 'binary' or 'list', not {observation_type!r}")
    if not isinstance(compression, str) or compression not in COMPRESSIONS:
        raise ValueError(f"compression must be one of {', '.join(COMPRESSIONS)}, not {compression!r}")
    for name, flag in (("overwrite", overwrite), ("independent_shards", independent_shards)):
        if type(flag) is not bool:
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    if progress is not None and type(progress) is not bool:
        raise TypeError(f"progress must be a bool or None, not {type(progress).__name__}")
    if not isinstance(directory, (str, os.PathLike)):
        raise TypeError(f"directory must be a path, not {type(directory).__name__}")
    out_dir = os.fspath(directory)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ValueError(f"{out_dir} exists and is not a directory")
    os.makedirs(out_dir, exist_ok=True)
    old = _part_files(out_dir)
    if old and not overwrite:
        raise ValueError(f"{out_dir} already holds a dataset ({len(old)} part files); "
                         "pass overwrite=True (--overwrite) to replace it")
    for f in old:
        os.remove(f)
    started = time.perf_counter()
    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        progress = callable(isatty) and bool(isatty())
    bar = Progress("record", total, enabled=progress)
    try:
        if not independent_shards and ray is None:
            files, done, steps = _record_run(out_dir, 0, total, 0, run_seed, r, policy, n, threads, per_shard,
                                             observation_type, compression, bar.update)
        else:
            calls = [(out_dir, k, min(per_shard, total - first), first, run_seed, r, policy, n, threads,
                      per_shard, observation_type, compression, None, k)
                     for k, first in enumerate(range(0, total, per_shard))]
            if ray is None:
                parts = []
                for c in calls:
                    parts.append(_record_run(*c))
                    bar.update(sum(p[1] for p in parts))
            else:
                from ._util.ray import map_on_ray
                parts = map_on_ray(ray, _record_run, calls, bar.update, lambda i: calls[i][2])
            files = tuple(f for p in parts for f in p[0])
            done, steps = sum(p[1] for p in parts), sum(p[2] for p in parts)
    finally:
        bar.close()
    return RecordSummary(out_dir, files, done, steps, time.perf_counter() - started)


def _record_run(out_dir: str, first_file: int, total: int, first_game: int, run_seed: int, r: Rules,
                policy: Policy, n: int, threads: int, per_shard: int, observation_type: str,
                compression: str, progress: Optional[Callable[[int], None]],
                shard: Optional[int] = None) -> Tuple[Tuple[str, ...], int, int]:
    """One seeded run of ``total`` games into files ``part-{first_file}...``
    (with ``shard``: shard ``shard`` of an independent-shards recording,
    seeded ``game_seed(run_seed, shard)``).  Returns (files, games, steps)."""
    pa = _pyarrow()
    import pyarrow.parquet as pq

    meta: Dict[str, Any] = {}
    if shard is not None:
        meta = {"shard": shard, "shard_seed": game_seed(run_seed, shard), "first_game": first_game}
        run_seed = game_seed(run_seed, shard)
    # threads > 1: one thread writes the files, the others step the tables.
    vg = VecGame(n, r, run_seed, threads=max(threads - 1, 1), observations=True, bot=policy == "bot")
    rec = StepRecorder(vg, total)
    layout = ObservationLayout(r)
    meta_json = json.dumps({
        "format": FORMAT, "version": FORMAT_VERSION, "ddz_fast": __version__,
        "observation_type": observation_type,
        "rules": _rules_dict(r), "seed": run_seed,
        "policy": policy if isinstance(policy, str) else getattr(policy, "__name__", "callable"),
        "tables": n, "n_moves": vg.n_moves, "n_actions": vg.n_actions, "first_move_id": FIRST_MOVE_ID,
        "observation_fields": {k: [s.start, s.stop] for k, s in layout.fields.items()}, **meta,
    }).encode()
    schema = _schema(pa, layout.size, observation_type, r.wild_ranks).with_metadata({_META_KEY: meta_json})
    rng = np.random.default_rng(run_seed)
    files: List[str] = []
    steps = 0
    writer: Any = None
    shard_games = shard_rows = 0

    def write(c: Dict[str, np.ndarray], close: bool) -> None:
        """One row group of whole games into the current shard, then close
        it if ``close``.  The only code that touches the writer, the files
        and ``shard_rows`` (on the writer thread, if there is one)."""
        nonlocal writer, shard_rows
        m = len(c["game"])
        if m:
            offsets = np.zeros(m + 1, dtype=np.int64)
            np.cumsum(c["legal_counts"], out=offsets[1:])
            if offsets[-1] > _MAX_IDS_PER_FILE:
                raise ValueError("a row group would hold more than 2**31 legal ids")
            obs = c["observation"]
            if observation_type == "binary":
                obs_col = pa.FixedSizeBinaryArray.from_buffers(pa.binary(layout.size), m,
                                                               [None, pa.py_buffer(obs)])
            else:
                obs_col = pa.FixedSizeListArray.from_arrays(pa.array(obs.reshape(-1)), layout.size)
            table = pa.Table.from_arrays([
                pa.array(c["game"] + first_game), pa.array(c["step"]), pa.array(c["seat"]), obs_col,
                pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), pa.array(c["legal_ids"])),
                pa.array(c["action"]), pa.array(c["reward"]), pa.array(c["done"]),
                pa.array(c["final_score"]), pa.array(c["win"]), pa.array(c["landlord"]),
                pa.array(c["game_seed"]),
                *([pa.FixedSizeListArray.from_arrays(pa.array(c["wild"].reshape(-1)), r.wild_ranks)]
                  if r.wild_ranks else []),
            ], schema=schema)
            if writer is None:
                # No dictionaries and no statistics: they cost more than they save here.
                writer = pq.ParquetWriter(_shard_name(out_dir, first_file + len(files)) + ".tmp", schema,
                                          compression=None if compression == "none" else compression,
                                          use_dictionary=False, write_statistics=False,
                                          write_page_checksum=True)
            writer.write_table(table, row_group_size=m)
            shard_rows += m
        if close and writer is not None:
            rows = str(shard_rows).encode()
            writer.add_key_value_metadata({_ROWS_KEY: rows, _META_CRC_KEY: _crc(meta_json, rows)})
            writer.close()
            writer = None
            name = _shard_name(out_dir, first_file + len(files))
            os.replace(name + ".tmp", name)
            files.append(name)
            shard_rows = 0

    # With threads > 1 the files are written on a thread of their own while
    # the tables play on (Parquet encoding and compression release the GIL);
    # one row group at most waits, so memory stays bounded.
    pool = ThreadPoolExecutor(1, thread_name_prefix="ddz-record") if threads > 1 else None
    pending: Optional["Future[None]"] = None
    stepped = 0
    try:
        while rec.games < total:
            rec.step(_policy_actions(policy, vg, rng))
            stepped += 1
            if progress is not None and not stepped % 16:      # about 250 games at 1,024 tables
                progress(rec.games)
            # Row groups of about 2**17 steps, shards of about games_per_shard games:
            # the output buffers stay small and warm.
            if (rec.pending_rows >= _ROWS_PER_GROUP or rec.games == total
                    or shard_games + rec.pending_games >= per_shard
                    or (r.wild_ranks and rec.pending_ids >= _WILD_IDS_PER_GROUP)):
                c = rec.take()
                if len(c["game"]):
                    steps += len(c["game"])
                    shard_games += int(c["game"][-1] - c["game"][0]) + 1
                close = shard_games >= per_shard or rec.games == total
                if close:
                    shard_games = 0
                if pool is None:
                    write(c, close)
                else:
                    c = {k: v.copy() for k, v in c.items()}     # take()'s views live until the next step
                    if pending is not None:
                        pending.result()
                    pending = pool.submit(write, c, close)
                if progress is not None:
                    progress(rec.games)
        if pending is not None:
            pending.result()
    finally:
        if pool is not None:
            pool.shutdown(wait=True)    # (an error: the write under way ends first)
        if writer is not None:          # an error: no partial shard is left behind
            writer.close()
            os.remove(_shard_name(out_dir, first_file + len(files)) + ".tmp")
    return tuple(files), rec.games, steps


def _crc(meta: bytes, rows: bytes) -> bytes:
    return str(zlib.crc32(meta + b"\0" + rows)).encode()


def _shard_name(directory: str, k: int) -> str:
    return os.path.join(directory, f"{_PREFIX}{k:05d}{_SUFFIX}")


def _part_files(directory: str) -> List[str]:
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.startswith(_PREFIX) and f.endswith(_SUFFIX))


class TrajectoryDataset:
    """The files :func:`record` wrote (a directory, or one file), read back.

    Every file is checked when the dataset is opened: a file that is not
    Parquet, is truncated, lacks the columns, or was recorded under other
    rules than the first raises ``ValueError`` naming it.  So does, when it
    is read, a page whose checksum fails, a file that yields fewer rows than
    its writer sealed, and a null cell (module docstring: Integrity).
    """

    def __init__(self, path: PathLike) -> None:
        self._pa = _pyarrow()
        import pyarrow.parquet as pq

        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a path, not {type(path).__name__}")
        p = os.fspath(path)
        if os.path.isdir(p):
            files = _part_files(p)
            if not files:
                raise ValueError(f"{p} holds no {_PREFIX}*{_SUFFIX} files")
        elif os.path.isfile(p):
            files = [p]
        else:
            raise ValueError(f"{p} does not exist")
        self.files: Tuple[str, ...] = tuple(files)
        self._pf = []
        self._versions: List[Tuple[int, int]] = []      # per file: version, n_moves
        self._rows: List[int] = []                       # per file: its rows
        meta: Optional[Dict[str, Any]] = None
        rows = 0
        for f in files:
            try:
                pf = pq.ParquetFile(f, page_checksum_verification=True)
                pf.schema_arrow     # noqa: B018 (decoded now: a damaged footer fails here)
            except (self._pa.ArrowException, OSError, UnicodeDecodeError) as e:
                raise ValueError(f"{f}: not a readable Parquet file ({e})") from None
            m = _file_meta(f, pf)
            if meta is None:
                meta = m
            elif (m["rules"], m["observation_fields"], m["n_actions"], m["observation_type"]) != (
                    meta["rules"], meta["observation_fields"], meta["n_actions"], meta["observation_type"]):
                raise ValueError(f"{f}: recorded under other rules than {files[0]}")
            self._pf.append(pf)
            self._versions.append((m["version"], m.get("n_moves", 0)))
            self._rows.append(_file_rows(f, pf))
            rows += self._rows[-1]
        assert meta is not None
        self.metadata: Dict[str, Any] = meta
        self.rules: Rules = check_rules(Rules(**meta["rules"]))
        self.layout = ObservationLayout(self.rules)
        #: The column names, in file order (:func:`columns` of the rules).
        self.columns: Tuple[str, ...] = columns(self.rules)
        self.observation_type: str = meta["observation_type"]
        self.num_rows: int = rows

    def __len__(self) -> int:
        return self.num_rows

    def __repr__(self) -> str:
        return (f"TrajectoryDataset({len(self.files)} files, {self.num_rows:,} steps, "
                f"rules={self.rules.name!r})")

    def action(self, action_id: int, wild: Any = None) -> Union[Move, AuctionAction]:
        """The action of a recorded id (``action`` or an item of
        ``legal_ids``): an auction or doubling action, or a :class:`Move`
        (under wild-card rules read under the row's ``wild`` ranks, with its
        ``counts`` and ``represents``).  ValueError for an id out of range,
        or one that names no move under ``wild`` (or with no ``wild`` under
        wild-card rules); ``wild`` is refused under the other rules."""
        space = action_space(self.rules)
        n_actions = FIRST_MOVE_ID + (space.flat_size if isinstance(space, WildActionSpace) else space.size)
        a = check_int(action_id, "action id", 0, n_actions - 1)
        if not isinstance(space, WildActionSpace):
            if wild is not None:
                raise ValueError(f"wild= is for the datasets of wild-card rules, not of {self.rules.name!r}")
            return AUCTION_ACTIONS[a] if a < FIRST_MOVE_ID else space.id_to_move(a - FIRST_MOVE_ID)
        if a < FIRST_MOVE_ID:
            return AUCTION_ACTIONS[a]
        if wild is None:
            raise ValueError(f"rules {self.rules.name!r} have wild cards: a move id is read under its "
                             f"game's wild ranks; pass the row's {WILD_COLUMN!r} as wild=")
        if isinstance(wild, np.ndarray):        # (a row of the wild column)
            wild = wild.tolist()
        if isinstance(wild, (list, tuple)) and -1 in wild:
            raise ValueError(f"wild ranks {wild}: -1, the game ended before its wild ranks were "
                             "drawn, so it played no move")
        return space.flat_move(a - FIRST_MOVE_ID, wild=wild)

    def batches(self, batch_size: int = 4096, columns: Optional[Sequence[str]] = None
                ) -> Iterator[Dict[str, npt.NDArray[Any]]]:
        """NumPy batches of ``batch_size`` steps (the last may be shorter), in
        file order.  ``observation`` comes as ``(rows, obs_size)`` float32
        (the layout of :class:`~ddz_fast.observation.ObservationLayout`), the legal
        ids as CSR: ``legal_ids`` int32 (int64 under wild-card rules) and
        ``legal_offsets`` int64 of ``rows + 1`` (row ``i``:
        ``legal_ids[legal_offsets[i]:legal_offsets[i+1]]``); under wild-card
        rules ``wild`` as ``(rows, k)`` int8; every other column as a 1-D
        array."""
        size = check_int(batch_size, "batch_size", 1, 1 << 30)
        cols = self._columns(columns)
        pa = self._pa
        # One schema for the batches of every file (files written before the
        # columns were "required" declare them nullable).
        schema = _schema(pa, self.layout.size, self.observation_type, self.rules.wild_ranks)
        schema = pa.schema([schema.field(c) for c in cols])
        held: List[Any] = []
        n_held = 0
        for f, pf, (version, n_moves), want in zip(self.files, self._pf, self._versions, self._rows):
            got = 0
            try:
                for rb in pf.iter_batches(batch_size=size, columns=list(cols)):
                    _check_no_nulls(pa, f, rb)
                    got += rb.num_rows
                    if version == 1:
                        rb = _ids_of_v1(pa, rb, n_moves)
                    rb = pa.RecordBatch.from_arrays(rb.columns, schema=schema)
                    held.append(rb)
                    n_held += rb.num_rows
                    while n_held >= size:
                        t = pa.Table.from_batches(held).combine_chunks()
                        yield self._numpy(t.slice(0, size), cols)
                        rest = t.slice(size)
                        held = rest.to_batches() if rest.num_rows else []
                        n_held = rest.num_rows
            except (pa.ArrowException, OSError, UnicodeDecodeError) as e:
                raise ValueError(f"{f}: damaged, cannot be read ({e})") from None
            if got != want:
                raise ValueError(f"{f}: damaged, {got:,} rows read of its {want:,}")
        if n_held:
            yield self._numpy(pa.Table.from_batches(held).combine_chunks(), cols)

    def read(self, columns: Optional[Sequence[str]] = None) -> Dict[str, npt.NDArray[Any]]:
        """The whole dataset as one batch (see :meth:`batches`)."""
        out = list(self.batches(max(self.num_rows, 1), columns))
        if out:
            return out[0]
        cols = self._columns(columns)
        empty = _schema(self._pa, self.layout.size, self.observation_type, self.rules.wild_ranks).empty_table()
        return self._numpy(empty.select(list(cols)), cols)

    def _columns(self, columns: Optional[Sequence[str]]) -> Tuple[str, ...]:
        if columns is None:
            return self.columns
        if isinstance(columns, str) or not all(isinstance(c, str) for c in columns):
            raise TypeError("columns must be a sequence of column names")
        bad = [c for c in columns if c not in self.columns]
        if bad:
            why = (f" ({WILD_COLUMN!r}: only under wild-card rules, and these are {self.rules.name!r})"
                   if WILD_COLUMN in bad else "")
            raise ValueError(f"unknown columns {bad}{why}; the columns are {', '.join(self.columns)}")
        return tuple(columns)

    def _numpy(self, t: Any, cols: Tuple[str, ...]) -> Dict[str, npt.NDArray[Any]]:
        out: Dict[str, npt.NDArray[Any]] = {}
        for c in cols:
            col = t.column(c).combine_chunks() if t.num_rows else t.column(c)
            if hasattr(col, "chunks"):      # an empty table: one empty chunk or none
                col = col.chunks[0] if col.num_chunks else self._pa.array([], type=col.type)
            if c == "observation":
                if self.observation_type == "binary":
                    buf = col.buffers()[1]
                    start = col.offset * self.layout.size
                    vals = np.frombuffer(buf, dtype=np.uint8, count=t.num_rows * self.layout.size,
                                         offset=start) if t.num_rows else np.zeros(0, np.uint8)
                else:
                    vals = col.flatten().to_numpy(zero_copy_only=False)
                out[c] = vals.reshape(t.num_rows, self.layout.size).astype(np.float32)
            elif c == "legal_ids":
                off = col.offsets.to_numpy().astype(np.int64)
                out["legal_offsets"] = off - off[0]
                out["legal_ids"] = col.flatten().to_numpy(zero_copy_only=False).astype(
                    np.int64 if self.rules.wild_ranks else np.int32)
            elif c == WILD_COLUMN:
                k = self.rules.wild_ranks
                out[c] = col.flatten().to_numpy(zero_copy_only=False).astype(np.int8).reshape(t.num_rows, k)
            else:
                out[c] = col.to_numpy(zero_copy_only=False)
        return out


def _check_no_nulls(pa: Any, f: str, rb: Any) -> None:
    """ValueError naming the file and column if a record batch holds a null
    (a cell with no value; a list column's items included)."""
    for name, col in zip(rb.schema.names, rb.columns):
        items = col.values if isinstance(col, (pa.ListArray, pa.FixedSizeListArray)) else None
        if col.null_count or (items is not None and items.null_count):
            raise ValueError(f"{f}: column {name!r} holds nulls (every step has a value in every column)")


def _id_of_v1(ids: npt.NDArray[Any], n_moves: int) -> npt.NDArray[np.int32]:
    """Version-1 ids (moves, then the auction codes) as the game's (codes, then moves)."""
    out: npt.NDArray[np.int32] = np.where(ids < n_moves, ids + FIRST_MOVE_ID, ids - n_moves).astype(np.int32)
    return out


def _ids_of_v1(pa: Any, rb: Any, n_moves: int) -> Any:
    """A record batch of a version-1 file with its ids converted."""
    arrays = []
    for name, col in zip(rb.schema.names, rb.columns):
        if name == "action":
            col = pa.array(_id_of_v1(col.to_numpy(zero_copy_only=False), n_moves), type=pa.int32())
        elif name == "legal_ids":
            off = col.offsets.to_numpy()
            col = pa.ListArray.from_arrays(
                pa.array(off - off[0], type=pa.int32()),
                pa.array(_id_of_v1(col.flatten().to_numpy(zero_copy_only=False), n_moves), type=pa.int32()))
        arrays.append(col)
    return pa.RecordBatch.from_arrays(arrays, schema=rb.schema)


def _file_rows(f: str, pf: Any) -> int:
    """The rows of a file: the count its writer sealed (checked against the
    footer's), or the footer's in a file without one."""
    rows = pf.metadata.num_rows
    sealed = (pf.metadata.metadata or {}).get(_ROWS_KEY)
    if sealed is not None and sealed != str(rows).encode():
        raise ValueError(f"{f}: damaged, its footer counts {rows:,} rows, its writer {sealed.decode()!r}")
    return int(rows)


def _file_meta(f: str, pf: Any) -> Dict[str, Any]:
    """The ddz_fast metadata of a file, checked (ValueError naming the file)."""
    # The footer's key-value pairs (where the checksum and the row count are;
    # the Arrow schema's copy of ddz_fast is not covered by them).
    kv = pf.metadata.metadata or {}
    raw = kv.get(_META_KEY)
    if raw is None:
        raise ValueError(f"{f}: not a ddz-fast trajectory file (no {_META_KEY.decode()} metadata)")
    crc = kv.get(_META_CRC_KEY)
    if crc is not None and crc != _crc(raw, kv.get(_ROWS_KEY, b"")):
        raise ValueError(f"{f}: damaged (its ddz_fast metadata does not match its checksum)")
    try:
        m = json.loads(raw)
    except ValueError:
        raise ValueError(f"{f}: its ddz_fast metadata is not JSON") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise ValueError(f"{f}: not a ddz-fast trajectory file")
    if m.get("observation_type") not in OBSERVATION_TYPES:
        raise ValueError(f"{f}: bad ddz_fast metadata (observation_type {m.get('observation_type')!r})")
    if type(m.get("version")) is not int or (m["version"] != FORMAT_VERSION
                                             and m["version"] not in _CONVERTED_VERSIONS):
        raise ValueError(f"{f}: format version {m.get('version')!r}; this ddz-fast reads "
                         f"version {FORMAT_VERSION} (and converts the action ids of version 1)")
    if m["version"] == 1 and not (isinstance(m.get("n_moves"), int) and m["n_moves"] > 0):
        raise ValueError(f"{f}: a version-1 file without n_moves in its metadata: its action ids "
                         "cannot be converted to the game's (docs/actions.md)")
    try:
        r = check_rules(Rules(**m["rules"]))
        want = _schema(_pyarrow(), ObservationLayout(r).size, m["observation_type"], r.wild_ranks)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{f}: bad ddz_fast metadata ({e})") from None
    names = pf.schema_arrow.names
    missing = [c for c in want.names if c not in names]
    if missing:
        raise ValueError(f"{f}: missing columns {missing}")
    for c in want.names:
        if pf.schema_arrow.field(c).type != want.field(c).type:
            raise ValueError(f"{f}: column {c!r} has type {pf.schema_arrow.field(c).type}, "
                             f"not {want.field(c).type}")
    return m
