"""The ASGI application: its routes, and ``serve`` to run it with uvicorn.

Starlette rather than FastAPI: the play goes over one WebSocket and the HTTP
routes are few, so FastAPI's request validation and OpenAPI pages would
only add weight; the messages are typed with pydantic directly.

Routes (the browser client will be served under ``/``):

- ``GET /healthz``: ``{"status": "ok"}``
- ``GET /protocol.schema.json``: the JSON Schema of every WebSocket message
- ``GET /api/lobby``: the public rooms
- ``GET /api/stats``: the server's load: rooms, connections, writes, the event loop's longest stall
- ``GET /api/rooms/{code}``: a room
- ``GET /api/rooms/{code}/games``: the games played in a room
- ``GET /api/games/{game_id}/record``: a finished game's record (``tilerummy replay`` reads it)
- ``GET /api/games/{game_id}/analysis``: a finished game's analysis (``tilerummy analyse --json``)
- ``POST /api/profiles``, ``POST /api/sign-in``, ``GET /api/me`` and the rest of
  :mod:`.profile_routes`: players' profiles
- ``WS /ws``: the game protocol (``docs/protocol.md``)
- ``GET /``, ``GET /r/{code}`` (an invite link), ``GET /replay/{game_id}``, ``GET /leaderboard`` and
  ``GET /players/{name}``: the page for browsers
- ``GET /static/...``: the browser client's files
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import socket
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket

from .. import __version__
from .botpool import BotPool
from .clock import Clock, Timers, sleep, wall_clock
from .cluster import ClusterNode, RedisDown, RoomUnanswered
from .connection import Connection
from .gate import Gate
from .hub import Hub
from .limits import ServerLimits
from .loop_monitor import KEPT_SECONDS, LoopMonitor
from .profile_routes import PROFILE_ROUTES
from .protocol import PROTOCOL_VERSION, json_schema
from .public_address import PublicAddress
from .puzzle_routes import PUZZLE_ROUTES
from .security_headers import SecurityHeaders
from .store import Store, StoredGame, default_database_path, open_store

log = logging.getLogger("tilerummy.server")

#: How often rooms nobody is in, and connections silent too long, are looked for.
SWEEP_SECONDS = 5
#: Connections kept for plain HTTP (the page, the health check) beyond the WebSockets' cap.
HTTP_RESERVE = 100
#: A request's headers must arrive within this many seconds.
HEADER_SECONDS = 10.0
#: The garbage collector's thresholds in a serving process (Python's own are 700, 10, 10).
#: A full collection walks every object of every game and connection while every
#: thread waits: with Python's thresholds it comes every few seconds under load
#: and holds the loop far longer than any message. A large young generation lets
#: a message's garbage die young instead of reaching the old generation. The
#: middle one is walked every fifth young collection: what it holds is what survived
#: them, which a rush of new connections makes large (every player waits while it
#: is walked), so it is kept small; the old generation is walked only after a
#: thousand middle ones.
GC_THRESHOLDS = (50_000, 5, 1000)


@dataclass(frozen=True, slots=True)
class Settings:
    database: str | None = None
    bot_workers: int = 2
    limits: ServerLimits = field(default_factory=ServerLimits)
    bot_budget: float = 3.0
    #: Where invite links point and which pages may open the WebSocket.
    public: PublicAddress = field(default_factory=PublicAddress)
    #: Seconds a client has to send a request's headers (see :mod:`.uvicorn_protocols`).
    header_seconds: float = HEADER_SECONDS
    #: Printed once the server is ready, with the address to open.
    announce: str | None = None
    #: A Redis URL: this process is one of a cluster sharing it (and a PostgreSQL database).
    redis: str | None = None
    #: The prefix of the cluster's Redis keys: clusters sharing a Redis use different ones.
    cluster_prefix: str = "tilerummy"
    #: Share the port with the other processes on the machine (SO_REUSEPORT): the kernel spreads connections.
    reuse_port: bool = False
    #: In a cluster: the WebSocket address at which clients reach this very process, told to the
    #: players of its rooms who came in through another one (``room_server``), so as not to be relayed.
    direct_url: str | None = None
    #: A port this process also listens on, by itself (the direct URL's, on one machine).
    direct_port: int | None = None


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _error(status: int, reason: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": reason, "detail": detail}, status_code=status)


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def protocol_schema(request: Request) -> Response:
    return JSONResponse(json_schema())


async def lobby(request: Request) -> Response:
    node: ClusterNode | None = request.app.state.cluster
    rooms = await node.directory.lobby() if node is not None else _hub(request).lobby()
    return JSONResponse({"protocol": PROTOCOL_VERSION, "rooms": rooms})


async def stats(request: Request) -> Response:
    """The load on this server; ``?seconds=N`` (default 60) is the window of the longest stall."""
    hub = _hub(request)
    monitor: LoopMonitor = request.app.state.loop_monitor
    try:
        seconds = float(request.query_params.get("seconds", "60"))
    except ValueError:
        return _error(400, "bad_seconds", "seconds is a number of seconds")
    if not 0 < seconds <= KEPT_SECONDS:
        return _error(400, "bad_seconds", f"seconds is more than 0 and at most {KEPT_SECONDS}")
    writer = hub.writer
    recent = monitor.within(seconds)
    return JSONResponse(
        {
            "rooms": len(hub.rooms),
            "playing": sum(1 for room in hub.rooms.values() if room.status == "playing"),
            "connections": len(request.app.state.gate),
            "loop": {
                "seconds": seconds,
                "longest_stall_ms": round(1000 * recent.stall, 3),
                "longest_work_ms": round(1000 * recent.work, 3),
                "longest_collection_ms": round(1000 * recent.collection, 3),
                "full_collections": recent.full_collections,
            },
            "writes": {"transactions": writer.transactions, "changes": writer.changes, "pending": writer.pending},
            **({"cluster": node.stats()} if (node := request.app.state.cluster) is not None else {}),
        }
    )


async def room_info(request: Request) -> Response:
    hub = _hub(request)
    code = str(request.path_params["code"]).upper()
    node: ClusterNode | None = request.app.state.cluster
    if node is None:
        room = hub.rooms.get(code)
        state = None if room is None else room.state(hub.clock()).model_dump()
    else:
        # Any process of a cluster answers for every room: the owner describes it.
        try:
            state = await node.room_state(code)
        except (RoomUnanswered, RedisDown):
            return _error(503, "room_unavailable", "the server that holds this room did not answer: try again")
    if state is None:
        return _error(404, "no_such_room", "no room has this code")
    return JSONResponse(state)


async def room_games(request: Request) -> Response:
    hub = _hub(request)
    code = str(request.path_params["code"]).upper()
    games = await asyncio.get_running_loop().run_in_executor(None, hub.store.games, code)
    return JSONResponse(
        {
            "room": code,
            "games": [
                {
                    "id": game.id,
                    "players": game.header.get("players"),
                    "started_at": game.created_at,
                    "finished_at": game.finished_at,
                    "result": game.result,
                    "record": f"/api/games/{game.id}/record" if game.result is not None else None,
                }
                for game in games
            ],
        }
    )


async def _finished_game(request: Request, what: str) -> StoredGame | Response:
    """The stored game the path names, or the error to answer: none has that id, or
    it is still being played (``what`` shows every rack, so it waits for the end)."""
    game_id = str(request.path_params["game_id"]).upper()
    stored = await asyncio.get_running_loop().run_in_executor(None, _hub(request).store.game, game_id)
    if stored is None:
        return _error(404, "no_such_game", "no game has this id")
    if stored.result is None:
        return _error(409, "game_not_over", f"the {what} is available once the game is over")
    return stored


async def game_record(request: Request) -> Response:
    stored = await _finished_game(request, "record")
    if isinstance(stored, Response):
        return stored
    return JSONResponse(
        stored.record(), headers={"Content-Disposition": f'attachment; filename="tilerummy-{stored.id}.json"'}
    )


#: Seconds an analysis may take in a worker before the request gives up.
ANALYSIS_BUDGET = 60.0
#: Finished games whose analysis is kept (a game's analysis never changes).
ANALYSES_KEPT = 64


class Analyses:
    """Finished games' analyses: one worked out at a time, so a burst of requests
    cannot keep the workers from the bots, and the latest ones kept."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._kept: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def get(self, hub: Hub, game_id: str, record: dict[str, Any]) -> dict[str, Any] | None:
        async with self._lock:
            if game_id not in self._kept:
                analysis = await hub.bots.analyse(record, ANALYSIS_BUDGET)
                if analysis is None:
                    return None
                self._kept[game_id] = analysis
                if len(self._kept) > ANALYSES_KEPT:
                    self._kept.popitem(last=False)
            self._kept.move_to_end(game_id)
            return self._kept[game_id]


async def game_analysis(request: Request) -> Response:
    stored = await _finished_game(request, "analysis")
    if isinstance(stored, Response):
        return stored
    analyses: Analyses = request.app.state.analyses
    analysis = await analyses.get(_hub(request), stored.id, stored.record())
    if analysis is None:
        return _error(503, "analysis_failed", "the analysis could not be worked out now; try again later")
    return JSONResponse(analysis)


async def page(request: Request) -> Response:
    html = resources.files("tilerummy.server").joinpath("static/index.html").read_text(encoding="utf-8")
    # Always the newest page, so a server upgrade never meets an old cached page.
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


class ClientFiles(StaticFiles):
    """The browser client's files, checked again on each load (an unchanged file costs a 304),
    so a browser never runs old scripts against an upgraded server."""

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        return response


async def websocket_endpoint(websocket: WebSocket) -> None:
    state = websocket.app.state
    await Connection(websocket, state.hub, state.gate, state.public, state.router).run()


async def _not_found(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    return _error(status, "not_found" if status == 404 else "http_error", str(getattr(error, "detail", "error")))


async def _server_error(request: Request, error: Exception) -> Response:
    log.exception("a request failed", exc_info=error)
    return _error(500, "server_error", "the server failed on this request")


ROUTES = [
    Route("/healthz", healthz),
    Route("/protocol.schema.json", protocol_schema),
    Route("/api/lobby", lobby),
    Route("/api/stats", stats),
    Route("/api/rooms/{code}", room_info),
    Route("/api/rooms/{code}/games", room_games),
    Route("/api/games/{game_id}/record", game_record),
    Route("/api/games/{game_id}/analysis", game_analysis),
    *PROFILE_ROUTES,
    *PUZZLE_ROUTES,
    WebSocketRoute("/ws", websocket_endpoint),
    Route("/", page),
    Route("/r/{code}", page),
    Route("/replay/{game_id}", page),
    Route("/leaderboard", page),
    Route("/players/{name}", page),
    Route("/puzzle", page),
    # The browser client's files, shipped in the package.
    Mount("/static", ClientFiles(packages=[("tilerummy.server", "static")]), name="static"),
]


def create_app(
    settings: Settings, store: Store | None = None, *, clock: Clock = wall_clock, timers: Timers | None = None
) -> Starlette:
    """The application; ``store`` (opened from the settings when None) is closed with it.
    ``clock`` and ``timers`` are the real ones unless a test gives its own."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        opened = store or open_store(settings.database)
        node = (
            ClusterNode(settings.redis, prefix=settings.cluster_prefix, direct_url=settings.direct_url)
            if settings.redis
            else None
        )
        hub = Hub(
            opened,
            BotPool(settings.bot_workers),
            limits=settings.limits,
            clock=clock,
            timers=timers,
            bot_budget=settings.bot_budget,
            placement=node,
        )
        if node is None:
            await hub.start()
        else:
            await node.start(hub)
        app.state.hub = hub
        app.state.cluster = node
        app.state.router = node.router if node is not None else hub
        app.state.analyses = Analyses()
        app.state.profiles = hub.profiles
        app.state.gate = gate = Gate(settings.limits)
        app.state.public = settings.public
        sweeper = asyncio.ensure_future(_sweep(hub, gate))
        app.state.loop_monitor = monitor = LoopMonitor()
        watcher = asyncio.ensure_future(monitor.watch())
        if settings.announce:
            print(settings.announce, flush=True)
        try:
            yield
        finally:
            sweeper.cancel()
            watcher.cancel()
            if node is not None:
                await node.close()
            await hub.close()
            opened.close()

    return Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={HTTPException: _not_found, Exception: _server_error},
    )


async def _sweep(hub: Hub, gate: Gate) -> None:
    while True:
        # On the hub's timers, so a test that moves its clock sweeps too.
        await sleep(hub.timers, SWEEP_SECONDS)
        try:
            gate.reap(hub.clock())
            await hub.sweep()
        except Exception:
            log.exception("closing idle rooms and connections failed")


def reachable_host(host: str) -> str:
    """The host part of an address that reaches a server listening on ``host``."""
    # Listening on every address: the machine itself is one of them.
    return {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host else host)


def serve(host: str, port: int, settings: Settings) -> None:
    """Run the server until it is stopped (Ctrl-C or SIGTERM).

    :raises StoreError: the database cannot be opened, or a newer tilerummy made it.
    """
    import uvicorn

    shown_host = reachable_host(host)
    where = settings.database or str(default_database_path())
    announced = replace(
        settings,
        announce=f"tilerummy {__version__} serving on http://{shown_host}:{port}/ (database: {_redact(where)}"
        + (f"; one of the cluster at {_redact(settings.redis)})" if settings.redis else ")"),
    )
    logging.basicConfig(
        level=os.environ.get("TILERUMMY_LOG", "WARNING").upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    # Opened before the server starts, so a database that cannot be used is one line, not a failed startup.
    store = open_store(settings.database)
    gc.set_threshold(*GC_THRESHOLDS)
    # What is loaded by now (modules, the rules, the schema) lives as long as the process: never walk it again.
    gc.collect()
    gc.freeze()
    server = uvicorn.Server(uvicorn_config(create_app(announced, store), host, port, announced))
    sockets = None
    if settings.reuse_port or settings.direct_port is not None:
        sockets = [_socket(host, port, shared=settings.reuse_port)]
        if settings.direct_port is not None:
            sockets.append(_socket(host, settings.direct_port, shared=False))
    server.run(sockets=sockets)


def _socket(host: str, port: int, *, shared: bool) -> socket.socket:
    """A listening address; a shared one other processes may bind too (the kernel hands each
    connection to one of them)."""
    family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    bound = socket.socket(family, kind, protocol)
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    bound.bind(address)
    return bound


def uvicorn_config(app: Starlette, host: str, port: int, settings: Settings) -> Any:
    """How uvicorn runs the application (a ``uvicorn.Config``)."""
    import uvicorn

    from .uvicorn_protocols import QuietWebSocketsProtocol, timely_http_protocol

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=timely_http_protocol(settings.header_seconds),
        ws=QuietWebSocketsProtocol,
        # Frames a little over the limit get a clear error from the server; far over, the connection closes.
        ws_max_size=settings.limits.max_message_bytes * 4,
        # Messages are small: compressing them costs more CPU than the bytes are worth.
        ws_per_message_deflate=False,
        # WebSockets are counted by the server's gate; this keeps room for the page and the
        # health check beyond them, and refuses more with HTTP 503 rather than slowing everyone.
        limit_concurrency=settings.limits.max_connections + HTTP_RESERVE,
        log_level="warning",
        lifespan="on",
    )


def _redact(where: str) -> str:
    """A database URL without its password."""
    if "://" in where and "@" in where:
        scheme, rest = where.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}@{host}"
    return where
