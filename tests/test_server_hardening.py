"""The server's HTTP side under hostile use: security headers, invite links and WebSocket
origins that do not trust the request's own word, and (against uvicorn itself, in a thread)
requests sent by halves and frames that are not UTF-8."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tilerummy.server.app import Settings, create_app, uvicorn_config
from tilerummy.server.gate import CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN_LATER
from tilerummy.server.limits import ServerLimits
from tilerummy.server.public_address import AddressError, PublicAddress, check_public_url
from tilerummy.server.security_headers import HEADERS, SecurityHeaders
from tilerummy.server.store import open_store

from .serverkit import WAIT, free_port
from .waiting import wait_until

#: RFC 6455: a text frame that is not UTF-8.
CLOSE_INVALID_DATA = 1007

TWO = [{"kind": "person"}] * 2


def app_client(tmp_path: Path, public: PublicAddress | None = None) -> TestClient:
    settings = Settings(bot_workers=0, public=public or PublicAddress())
    return TestClient(create_app(settings, open_store(str(tmp_path / "db.sqlite3"))))


@pytest.mark.parametrize("path", ["/", "/r/ABCDEF", "/healthz", "/static/js/main.js", "/api/rooms/NOPE"])
def test_every_answer_carries_the_security_headers(tmp_path: Path, path: str) -> None:
    with app_client(tmp_path) as client:
        response = client.get(path)
    assert {name: response.headers.get(name) for name in HEADERS} == HEADERS
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_in_a_cluster_the_page_may_connect_to_the_processes_own_addresses_and_no_other() -> None:
    class Node:
        def direct_urls(self) -> list[str]:
            told = ["ws://127.0.0.1:8001/ws", "wss://play.example.org/s/2/ws", "ws://127.0.0.1:8001/ws"]
            return [*told, "http://elsewhere.example/ws", "ws://bad host;script-src *"]

    async def page(request: Request) -> PlainTextResponse:
        return PlainTextResponse("page")

    app = Starlette(routes=[Route("/", page)], middleware=[Middleware(SecurityHeaders)])
    app.state.cluster = Node()
    with TestClient(app) as client:
        policy = client.get("/").headers["content-security-policy"]
    assert "connect-src 'self' ws://127.0.0.1:8001 wss://play.example.org; " in policy
    assert "elsewhere" not in policy and "bad" not in policy
    app.state.cluster = None
    with TestClient(app) as client:
        assert client.get("/").headers["content-security-policy"] == HEADERS["Content-Security-Policy"]


def invite_for(client: TestClient, headers: dict[str, str]) -> str:
    with client.websocket_connect("/ws", headers=headers) as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "Ana"})
        ws.receive_json()
        ws.send_json({"type": "create_room", "id": 1, "seats": TWO})
        joined = ws.receive_json()
        assert joined["type"] == "joined", joined
        return str(joined["invite"]).removesuffix(joined["code"])


@pytest.mark.parametrize(
    ("public", "host", "invite"),
    [
        (PublicAddress(), "evil.example", "/r/"),
        (PublicAddress(), "127.0.0.1:8000", "http://127.0.0.1:8000/r/"),
        (PublicAddress(), "localhost:8000", "http://localhost:8000/r/"),
        (PublicAddress(allowed_hosts=frozenset({"games.lan"})), "games.lan:8000", "http://games.lan:8000/r/"),
        (PublicAddress("https://play.example.com"), "evil.example", "https://play.example.com/r/"),
    ],
)
def test_invite_links_trust_the_host_header_only_when_it_is_allowed(
    tmp_path: Path, public: PublicAddress, host: str, invite: str
) -> None:
    with app_client(tmp_path, public) as client:
        assert invite_for(client, {"host": host}) == invite


@pytest.mark.parametrize(
    ("public", "origin", "allowed"),
    [
        (PublicAddress(), "https://evil.example", False),
        (PublicAddress(), "null", False),
        (PublicAddress(), "http://localhost:8000", True),
        (PublicAddress(), "http://127.0.0.1:8000", True),
        (PublicAddress("https://play.example.com"), "https://play.example.com", True),
        (PublicAddress("https://play.example.com"), "https://play.example.com.evil.example", False),
        (PublicAddress(allowed_hosts=frozenset({"games.lan"})), "http://games.lan:8000", True),
    ],
)
def test_websockets_from_pages_of_other_sites_are_refused(
    tmp_path: Path, public: PublicAddress, origin: str, allowed: bool
) -> None:
    with app_client(tmp_path, public) as client, client.websocket_connect("/ws", headers={"origin": origin}) as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "Ana"})
        if allowed:
            assert ws.receive_json()["type"] == "welcome"
            return
        refused = ws.receive_json()
        assert (refused["type"], refused["reason"]) == ("error", "origin_refused")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == CLOSE_POLICY_VIOLATION


@pytest.mark.parametrize("url", ["ftp://example.com", "https://", "https://example.com/path", "example.com"])
def test_a_public_url_must_be_an_address_at_the_root(url: str) -> None:
    with pytest.raises(AddressError, match="--public-url"):
        check_public_url(url)


def test_a_public_url_loses_its_trailing_slash() -> None:
    assert check_public_url("https://play.example.com/") == "https://play.example.com"


#: WebSockets the server in a thread holds at most.
REAL_MAX_CONNECTIONS = 3


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[str]:
    """uvicorn serving the application on a loopback port, in a thread; its address."""
    port = free_port()
    settings = Settings(
        database=str(tmp_path / "db.sqlite3"),
        bot_workers=0,
        header_seconds=0.5,
        limits=ServerLimits(max_connections=REAL_MAX_CONNECTIONS),
    )
    server = uvicorn.Server(uvicorn_config(create_app(settings), "127.0.0.1", port, settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), WAIT, "the server to start")
    assert server.started, "the server stopped before it started"
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(WAIT)


def test_a_request_whose_headers_never_end_is_closed(real_server: str) -> None:
    host, port = real_server.split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT) as half_sent:
        half_sent.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # The server closes it (an empty read) rather than waiting for the rest.
        assert half_sent.recv(1024) == b""
    with socket.create_connection((host, int(port)), timeout=WAIT) as whole:
        whole.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert whole.recv(1024).startswith(b"HTTP/1.1 200")


def test_a_frame_that_is_not_utf8_ends_the_connection_without_a_traceback(
    real_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with connect(f"ws://{real_server}/ws", open_timeout=WAIT) as ws:
        ws.send('{"type": "hello", "protocol": 1, "name": "Ana"}')
        assert '"welcome"' in str(ws.recv(timeout=WAIT))
        # A text frame holding bytes that are not UTF-8.
        ws.send(b'{"type": "ping", "x": "\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_INVALID_DATA
    assert not [record for record in caplog.records if record.exc_info]


def test_websockets_at_their_cap_leave_the_page_and_the_health_check_answering(real_server: str) -> None:
    with contextlib.ExitStack() as stack:
        for _ in range(REAL_MAX_CONNECTIONS):
            ws = stack.enter_context(connect(f"ws://{real_server}/ws", open_timeout=WAIT))
            ws.send('{"type": "hello", "protocol": 1, "name": "Ana"}')
            assert '"welcome"' in str(ws.recv(timeout=WAIT))
        with connect(f"ws://{real_server}/ws", open_timeout=WAIT) as refused:
            assert '"too_many_connections"' in str(refused.recv(timeout=WAIT))
            with pytest.raises(ConnectionClosed) as closed:
                refused.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TRY_AGAIN_LATER
        for path in ("/healthz", "/"):
            with urllib.request.urlopen(f"http://{real_server}{path}", timeout=WAIT) as answer:
                assert answer.status == 200
