"""Replays: deals watched move by move with every hand face up.

A replay is a game record (:func:`ddz_fast.arena.game_record`, the lines
``ddz-fast arena --save-games`` writes; docs/web.md "Game records").
They come from a finished deal of a play session, from a JSON-lines file of
records, or from a trajectory dataset (:class:`~ddz_fast.TrajectoryDataset`:
each game's seed and action ids, replayed).  :func:`replay_json` gives the
frames (the open table before the first action and after each one);
:func:`verdict` the endgame solver's answer at one frame.
"""
from __future__ import annotations

import json
import os
import threading
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..arena import game_from_record, game_record
from ..game import Game, Phase
from ..rules import Rules
from .sessions import RequestError
from .views import LogEntry, table_view

__all__ = ["SOLVER_CARDS", "replay_game", "replay_json", "verdict", "read_records", "dataset_records",
           "ReplayStore"]

#: The solver's verdict is shown at positions with at most this many cards in all hands.
SOLVER_CARDS = 20
#: Seconds the solver may take for one verdict (an "unknown" after it).
SOLVER_SECONDS = 2.0
#: Most games read from one file or dataset.
MAX_GAMES = 2000


def replay_game(record: Dict[str, Any], ply: Optional[int] = None) -> Tuple[Game, List[LogEntry], int]:
    """The record's deal (after any redeal) replayed up to ``ply`` actions
    (all by default): the game, its log, and the number of actions."""
    try:
        whole = game_from_record(record)       # checks the whole record first
    except ValueError as e:
        raise RequestError(str(e), 422) from None
    actions = record["actions"]
    if ply is None:
        ply = len(actions)
    if not 0 <= ply <= len(actions):
        raise RequestError(f"ply must be 0..{len(actions)}, not {ply}", 404)
    g = whole
    for _ in range(len(actions) - ply):
        g.undo()
    log = _log_of(g)
    return g, log, len(actions)


def _log_of(g: Game) -> List[LogEntry]:
    """The public log of a game's current deal, each action marked as a lead
    or not by replaying the deal's history on a copy."""
    history = g.history
    c = g.clone()
    for _ in history:
        c.undo()
    log = []
    for seat, action in history:
        log.append(LogEntry(seat, action, c.phase == Phase.PLAY and c.last_move is None))
        c.step(action)
    return log


def replay_json(record: Dict[str, Any]) -> Dict[str, Any]:
    """The record's frames (open tables: the deal before the first action,
    then after each one) and what describes it."""
    g, _, n = replay_game(record, 0)
    frames = []
    log: List[LogEntry] = []
    actions = record["actions"]
    for k in range(n + 1):
        frames.append(table_view(g, log))
        if k < n:
            seat = g.to_move
            assert seat is not None
            lead = g.phase == Phase.PLAY and g.last_move is None
            g.step_id(int(actions[k][1]))
            log.append(LogEntry(int(seat), g.history[-1][1], lead))
    r = record["rules"]
    return {"rules": r.get("name", "custom"), "players": r.get("players", 3), "seed": str(record["seed"]),
            "seats": _seat_names(record, int(r.get("players", 3))), "arena": record.get("arena"),
            "frames": frames, "solver_cards": SOLVER_CARDS}


def _seat_names(record: Dict[str, Any], n: int) -> List[str]:
    names = record.get("seats") or (record.get("arena") or {}).get("seats")
    if isinstance(names, list) and len(names) == n:
        return [str(x) for x in names]
    return [f"seat {s}" for s in range(n)]


def verdict(record: Dict[str, Any], ply: int) -> Dict[str, Any]:
    """The endgame solver at ``ply``: who wins with best play, when the
    deal is in play with at most :data:`SOLVER_CARDS` cards in the hands."""
    from ..solver import solve_game

    g, _, _ = replay_game(record, ply)
    cards = sum(g.hand_sizes)
    if g.phase != Phase.PLAY or g.to_move is None or cards > SOLVER_CARDS:
        return {"status": "n/a", "cards": cards, "limit": SOLVER_CARDS}
    res = solve_game(g, max_time=SOLVER_SECONDS)
    to_move = int(g.to_move)
    side = "landlord" if to_move == g.landlord else "farmers"
    out: Dict[str, Any] = {"status": res.status, "cards": cards, "limit": SOLVER_CARDS, "to_move": to_move,
                           "side": side, "nodes": res.nodes, "seconds": round(res.seconds, 3)}
    if res.win is not None:
        winner = side if res.win else ("farmers" if side == "landlord" else "landlord")
        out["text"] = f"with best play the {winner} win{'s' if winner == 'landlord' else ''}"
        if res.win and res.move is not None:
            out["move"] = "pass" if res.move.is_pass else res.move.cards
    else:
        out["text"] = f"unknown (the solver stopped at its {res.limit} limit)"
    return out


def read_records(lines: Iterable[str], source: str) -> List[Dict[str, Any]]:
    """Game records from JSON lines (blank lines skipped); each is checked by
    replaying it; a bad line raises RequestError naming it."""
    out: List[Dict[str, Any]] = []
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(out) >= MAX_GAMES:
            break
        try:
            rec = json.loads(line)
            game_from_record(rec)
        except ValueError as e:         # (json.JSONDecodeError is a ValueError)
            raise RequestError(f"{source}, line {k}: {e}", 422) from None
        out.append(rec)
    if not out:
        raise RequestError(f"{source} holds no game records", 422)
    return out


def dataset_records(path: str, limit: int = MAX_GAMES) -> List[Dict[str, Any]]:
    """The first ``limit`` games of a trajectory dataset as game records
    (each game replayed from its seed and action ids)."""
    from ..trajectories import TrajectoryDataset

    ds = TrajectoryDataset(path)
    rules: Rules = ds.rules
    games: Dict[int, Tuple[int, List[int]]] = {}
    for batch in ds.batches(columns=["game", "action", "game_seed"]):
        for gid, aid, seed in zip(batch["game"].tolist(), batch["action"].tolist(), batch["game_seed"].tolist()):
            if gid not in games:
                if len(games) >= limit:
                    break
                games[gid] = (int(seed), [])
            games[gid][1].append(int(aid))
        if len(games) >= limit:
            break
    out = []
    for gid, (seed, ids) in sorted(games.items()):
        g = Game(rules, seed=seed)
        for aid in ids:
            g.step_id(aid)
        out.append(game_record(g, dataset={"path": os.path.basename(os.path.normpath(path)), "game": gid}))
    return out


class ReplayStore:
    """Named lists of game records (files given at start, uploads)."""

    def __init__(self, limit: int = 100) -> None:
        self.limit = limit
        self._sources: Dict[str, Tuple[str, List[Dict[str, Any]]]] = {}
        self._lock = threading.Lock()
        self._next = 0

    def add(self, name: str, records: List[Dict[str, Any]]) -> str:
        with self._lock:
            while len(self._sources) >= self.limit:
                del self._sources[next(iter(self._sources))]
            sid = f"r{self._next}"
            self._next += 1
            self._sources[sid] = (name, records)
            return sid

    def add_path(self, path: str) -> str:
        """A JSON-lines file of game records, or a trajectory dataset (a
        directory or a ``.parquet`` file)."""
        if os.path.isdir(path) or path.endswith(".parquet"):
            try:
                recs = dataset_records(path)
            except (ValueError, ImportError) as e:
                raise ValueError(f"{path}: {e}") from None
        else:
            with open(path, encoding="utf-8") as f:
                try:
                    recs = read_records(f, path)
                except RequestError as e:
                    raise ValueError(str(e)) from None
        return self.add(os.path.basename(os.path.normpath(path)), recs)

    def listing(self) -> List[Dict[str, Any]]:
        with self._lock:
            return [{"id": sid, "name": name, "games": len(recs), "labels": [_label(r) for r in recs]}
                    for sid, (name, recs) in self._sources.items()]

    def record(self, sid: str, k: int) -> Dict[str, Any]:
        with self._lock:
            found = self._sources.get(sid)
        if found is None:
            raise RequestError(f"no replay source {sid!r}", 404)
        recs = found[1]
        if not 0 <= k < len(recs):
            raise RequestError(f"no game {k} in {found[0]!r} ({len(recs)} games)", 404)
        return recs[k]


def _label(rec: Dict[str, Any]) -> str:
    a = rec.get("arena")
    if isinstance(a, dict):
        return f"deal {a.get('deal')} rotation {a.get('rotation')}: {', '.join(map(str, a.get('seats', [])))}"
    d = rec.get("dataset")
    if isinstance(d, dict):
        return f"game {d.get('game')}"
    return f"seed {rec.get('seed')}"
