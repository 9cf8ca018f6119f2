"""A real server and real WebSocket clients: in a subprocess for the tests that need a process
(a server killed outright, the WebSocket frame limit), in a thread of the test's own process
for the browser tests (one deal chosen by the test when it asks, and no process to start)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tilerummy.fairness import new_seed
from tilerummy.server.app import Settings, create_app, uvicorn_config
from tilerummy.server.protocol import PROTOCOL_VERSION

from .waiting import wait_until

Message = dict[str, Any]

#: Seconds any single wait in a test may take before it fails.
WAIT = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LoopbackServer:
    """A server on a loopback port (0 until it starts): its addresses, and its JSON answers."""

    port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            return json.loads(response.read())


class ServerProcess(LoopbackServer):
    """``tilerummy serve`` on a free loopback port, with its database at ``db``
    (and the options ``more``: ``--redis URL`` for a process of a cluster)."""

    def __init__(self, db: str, log: Path, *, bot_workers: int = 1, more: Sequence[str] = ()) -> None:
        self.db = db
        self.log = log
        self.bot_workers = bot_workers
        self.more = list(more)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "tilerummy.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-workers",
            str(self.bot_workers),
            *self.more,
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy())
        try:
            wait_until(self._ready, WAIT, "the server to answer")
        except TimeoutError:
            raise RuntimeError(f"the server did not answer:\n{self.log.read_text()}") from None

    def _ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"the server stopped at once:\n{self.log.read_text()}")
        with contextlib.suppress(OSError):
            return bool(self.get("/healthz") == {"status": "ok"})
        return False

    def get_status(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> None:
        """A clean stop (SIGTERM), as an operator would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to tidy up."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()


class ThreadedServer(LoopbackServer):
    """The application as ``tilerummy serve`` runs it (uvicorn, bots in a worker process), on a free
    loopback port, in a thread of this process. Its games are dealt from fresh seeds, except that
    the next games started are dealt from the seeds a test puts in ``deals``, in order."""

    def __init__(self, db: str, *, bot_workers: int = 1) -> None:
        self.settings = Settings(database=db, bot_workers=bot_workers)
        self.deals: list[int] = []
        self._patch = pytest.MonkeyPatch()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def _seed(self) -> int:
        return self.deals.pop(0) if self.deals else new_seed()

    def start(self) -> None:
        self._patch.setattr("tilerummy.server.seating.new_seed", self._seed)
        self.port = free_port()
        config = uvicorn_config(create_app(self.settings), "127.0.0.1", self.port, self.settings)
        server = self._server = uvicorn.Server(config)
        thread = self._thread = threading.Thread(target=server.run, name="server", daemon=True)
        thread.start()
        wait_until(lambda: server.started or not thread.is_alive(), WAIT, "the server to start")
        if not server.started:
            raise RuntimeError("the server stopped before it started (its error is in the captured log)")

    def stop(self) -> None:
        """As an operator's SIGTERM: uvicorn closes the connections and the application its store."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(WAIT)
        self._patch.undo()


class Client:
    """A WebSocket client that keeps every message it receives."""

    def __init__(self, server: LoopbackServer, name: str, *, key: str | None = None) -> None:
        """``key``: a profile's device key, said in hello (the client then plays as the profile)."""
        # Entered as a context manager, the way websockets wants a connection held.
        self.connection: ClientConnection = connect(server.ws_url, open_timeout=WAIT, max_size=2**22).__enter__()
        self.received: list[Message] = []
        self._pending: list[Message] = []
        self._next_id = 0
        self.name = name
        self.token: str | None = None
        self.seat: int | None = None
        self.code: str | None = None
        hello: Message = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
        self.send(hello if key is None else {**hello, "key": key})
        self.welcome = self.wait_for(lambda message: message["type"] == "welcome")

    def send(self, message: Message) -> None:
        self.connection.send(json.dumps(message))

    def request(self, message: Message) -> Message:
        """Send with an id and return the first reply to it."""
        self._next_id += 1
        request_id = self._next_id
        self.send({**message, "id": request_id})
        return self.wait_for(lambda reply: reply.get("reply_to") == request_id)

    def receive(self, timeout: float) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=timeout))
        self.received.append(message)
        return message

    def wait_for(self, wanted: Callable[[Message], bool], timeout: float = WAIT) -> Message:
        """The first message not yet taken that ``wanted`` accepts (messages skipped stay for later waits)."""
        for index, message in enumerate(self._pending):
            if wanted(message):
                del self._pending[index]
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: no such message in {timeout} s; last: {self.received[-3:]}")
            message = self.receive(remaining)
            if wanted(message):
                return message
            self._pending.append(message)

    def next_message(self, timeout: float = WAIT) -> Message:
        """The oldest message not yet taken."""
        return self.wait_for(lambda message: True, timeout)

    def join(self, code: str, *, role: str = "player", token: str | None = None) -> Message:
        request: Message = {"type": "join_room", "code": code, "role": role}
        if token is not None:
            request["token"] = token
        joined = self.request(request)
        assert joined["type"] == "joined", joined
        self.code, self.seat = joined["code"], joined["seat"]
        self.token = joined["token"] or token
        return joined

    def create(self, seats: list[Message], *, rules: Message | None = None, **options: Any) -> Message:
        request: Message = {"type": "create_room", "seats": seats, "options": {"bot_delay": 0, **options}}
        if rules is not None:
            request["rules"] = rules
        joined = self.request(request)
        assert joined["type"] == "joined", joined
        self.code, self.seat, self.token = joined["code"], joined["seat"], joined["token"]
        return joined

    def draw_to_the_end(self, game: Message) -> Message:
        """Draw (then pass) on each of this seat's turns from ``game`` on, reading every game
        message in turn (these answers, and what the others did between them); the last game."""
        while game["result"] is None:
            if game["turn"] == self.seat:
                reply = self.request({"type": "draw" if game["pool_size"] else "pass"})
                assert reply["type"] == "game", reply
                game = reply["game"]
            else:
                game = self.wait_for(lambda message: message["type"] == "game", 60)["game"]
        return game

    def latest_game(self) -> Message | None:
        """The newest game state received (from a game event or a snapshot)."""
        for message in reversed(self.received):
            if message["type"] == "game" or (message["type"] == "snapshot" and message["game"] is not None):
                game: Message = message["game"]
                return game
        return None

    def close(self) -> None:
        self.connection.close()


@contextlib.contextmanager
def running_server(db: str, log: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(db, log)
    server.start()
    try:
        yield server
    finally:
        server.stop()
