"""The web app: Starlette routes over the play sessions and the replays.

Every game request runs its session's work in a worker thread
(``run_in_threadpool``) holding that session's lock, so an agent that thinks
never blocks the event loop nor another session.  Errors are JSON
``{"error": message}``: 4xx for a request the game refuses (the game
unchanged), 5xx only for a failure of ours or of an agent.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, Mapping, Sequence, TypeVar, Union

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import AgentError
from ..rules import AUCTIONS, PRESETS
from .replays import ReplayStore, read_records, replay_json, verdict
from .sessions import GAME_PRESETS, LEVELS, AgentChoices, PlaySession, RequestError, SessionStore
from .views import rank_table

__all__ = ["create_app", "MAX_BODY", "MAX_UPLOAD"]

#: The largest body of a game request, and of an uploaded file of game records.
MAX_BODY = 16 * 1024
MAX_UPLOAD = 32 * 1024 * 1024

T = TypeVar("T")


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int = MAX_BODY) -> bytes:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise RequestError(f"the body is larger than {limit:,} bytes", 413)
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise RequestError(f"the body is larger than {limit:,} bytes", 413)
    return data


async def _json(request: Request) -> Any:
    data = await _body(request)
    if not data:
        return {}
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the body is not JSON: {e}") from None


def create_app(agents: Union[Sequence[str], Mapping[str, Any]] = (), *, replays: Sequence[str] = (),
               max_sessions: int = 1000) -> Starlette:
    """The app: ``agents`` are extra opponents (arena agent names, e.g.
    ``pimc(worlds=64)`` or ``module:attribute``, or a mapping of names to
    arena agents) offered besides the levels;
    ``replays`` are files of game records or trajectory datasets to watch."""
    choices = AgentChoices(agents)
    store = SessionStore(choices, limit=max_sessions)
    shelf = ReplayStore()
    for path in replays:
        shelf.add_path(path)

    def session_call(sid: str, fn: Callable[[PlaySession], T]) -> T:
        s = store.get(sid)
        with s.lock:
            return fn(s)

    async def in_session(sid: str, fn: Callable[[PlaySession], T]) -> T:
        return await run_in_threadpool(session_call, sid, fn)

    async def index(request: Request) -> Response:
        return FileResponse(_static_file("index.html"), media_type="text/html")

    async def config(request: Request) -> Response:
        return JSONResponse({"presets": [{"name": p, "players": PRESETS[p].players, "auction": PRESETS[p].auction,
                                          "wild": PRESETS[p].wild_ranks} for p in GAME_PRESETS],
                             "auctions": list(AUCTIONS), "levels": LEVELS, "opponents": choices.names,
                             "ranks": rank_table()})

    async def new_game(request: Request) -> Response:
        body = await _json(request)

        def start() -> Dict[str, Any]:
            s = store.create(body)
            with s.lock:
                s.run_agents()
                return s.view()
        return JSONResponse(await run_in_threadpool(start), status_code=201)

    async def get_game(request: Request) -> Response:
        return JSONResponse(await in_session(request.path_params["sid"], lambda s: s.view()))

    async def act(request: Request) -> Response:
        body = await _json(request)

        def run(s: PlaySession) -> Dict[str, Any]:
            s.act(body)
            s.run_agents()
            return s.view()
        return JSONResponse(await in_session(request.path_params["sid"], run))

    async def hint(request: Request) -> Response:
        return JSONResponse(await in_session(request.path_params["sid"], lambda s: s.hint()))

    async def next_deal(request: Request) -> Response:
        def run(s: PlaySession) -> Dict[str, Any]:
            s.next_deal()
            s.run_agents()
            return s.view()
        return JSONResponse(await in_session(request.path_params["sid"], run))

    def _ply(request: Request) -> int:
        text = request.path_params["ply"]
        if not text.isdigit() or len(text) > 6:
            raise RequestError(f"ply must be a number, not {text!r}", 404)
        return int(text)

    def _index(request: Request, key: str = "k") -> int:
        text = request.path_params[key]
        if not text.isdigit() or len(text) > 9:
            raise RequestError(f"{key} must be a number, not {text!r}", 404)
        return int(text)

    async def game_replay(request: Request) -> Response:
        k = _index(request)
        rec = await in_session(request.path_params["sid"], lambda s: s.replay_record(k))
        return JSONResponse(await run_in_threadpool(replay_json, rec))

    async def game_verdict(request: Request) -> Response:
        k, ply = _index(request), _ply(request)
        rec = await in_session(request.path_params["sid"], lambda s: s.replay_record(k))
        return JSONResponse(await run_in_threadpool(verdict, rec, ply))

    async def list_replays(request: Request) -> Response:
        return JSONResponse(shelf.listing())

    async def upload_replays(request: Request) -> Response:
        data = await _body(request, MAX_UPLOAD)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError("the file is not UTF-8 text (JSON lines of game records)") from None
        name = request.query_params.get("name", "upload")[:100]
        recs = await run_in_threadpool(read_records, text.splitlines(), name)
        return JSONResponse({"id": shelf.add(name, recs), "games": len(recs)}, status_code=201)

    async def replay(request: Request) -> Response:
        rec = shelf.record(request.path_params["src"], _index(request))
        return JSONResponse(await run_in_threadpool(replay_json, rec))

    async def replay_verdict(request: Request) -> Response:
        rec = shelf.record(request.path_params["src"], _index(request))
        return JSONResponse(await run_in_threadpool(verdict, rec, _ply(request)))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return _error(str(exc), exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(str(exc.detail), exc.status_code)

    async def agent_failed(request: Request, exc: Exception) -> Response:
        return _error(f"an opponent failed: {exc}", 500)

    routes = [
        Route("/", index),
        Route("/api/config", config),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{sid}", get_game),
        Route("/api/games/{sid}/action", act, methods=["POST"]),
        Route("/api/games/{sid}/hint", hint, methods=["POST"]),
        Route("/api/games/{sid}/next", next_deal, methods=["POST"]),
        Route("/api/games/{sid}/replays/{k}", game_replay),
        Route("/api/games/{sid}/replays/{k}/verdict/{ply}", game_verdict),
        Route("/api/replays", list_replays),
        Route("/api/replays", upload_replays, methods=["POST"]),
        Route("/api/replays/{src}/{k}", replay),
        Route("/api/replays/{src}/{k}/verdict/{ply}", replay_verdict),
        Mount("/static", StaticFiles(packages=[("ddz_fast.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        RequestError: refused, HTTPException: http_error, AgentError: agent_failed})
    app.state.sessions = store
    app.state.replays = shelf
    return app


def _static_file(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "static", name)

