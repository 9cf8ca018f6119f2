"""The application in-process through Starlette's test client: HTTP routes, and WebSocket
connections as a browser makes them (limits, malformed frames), on a clock the test moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tilerummy.bots import LEVELS
from tilerummy.cli import main
from tilerummy.server import Settings, create_app
from tilerummy.server.protocol import PROTOCOL_VERSION, json_schema

from .hubkit import ManualClock
from .serverchecks import PERSON, Message, bot


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    settings = Settings(database=str(tmp_path / "server.sqlite3"), bot_workers=0, bot_budget=0.3)
    with TestClient(create_app(settings, clock=clock, timers=clock)) as test_client:
        yield test_client


def hello(ws: WebSocketTestSession, name: str) -> Message:
    ws.send_json({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name})
    welcome: Message = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def reply_to(ws: WebSocketTestSession, message: Message, request_id: int) -> Message:
    """Send with an id and read until its reply."""
    ws.send_json({**message, "id": request_id})
    while True:
        reply: Message = ws.receive_json()
        if reply.get("reply_to") == request_id:
            return reply


def read_until_closed(ws: WebSocketTestSession) -> None:
    while True:
        ws.receive_json()


def test_the_routes_a_browser_and_a_replay_use(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/protocol.schema.json").json() == json_schema()
    for path in ("/", "/r/ABCDEF", "/static/index.html"):
        page = client.get(path)
        assert page.status_code == 200 and "tilerummy" in page.text
        assert page.headers["cache-control"] == "no-cache"
    missing = client.get("/api/nothing-here")
    assert (missing.status_code, missing.json()["error"]) == (404, "not_found")
    assert client.get("/api/rooms/NOPE").json()["error"] == "no_such_room"
    assert client.get("/api/games/NOPE-1/record").json()["error"] == "no_such_game"

    with client.websocket_connect("/ws") as host:
        hello(host, "Host")
        joined = reply_to(
            host,
            {
                "type": "create_room",
                "seats": [bot(LEVELS[0]), bot(LEVELS[1])],
                "rules": {"preset": "casual"},
                "options": {"bot_delay": 0},
            },
            1,
        )
        # The test client's Host (testserver) is not trusted: the invite is the path alone.
        assert joined["invite"] == f"/r/{joined['code']}"
        lobby = client.get("/api/lobby").json()
        assert lobby["protocol"] == PROTOCOL_VERSION and [room["code"] for room in lobby["rooms"]] == [joined["code"]]
        started = reply_to(host, {"type": "start_game"}, 2)
        game_id = started["game"]["game_id"]
        status = client.get(f"/api/games/{game_id}/record")
        assert (status.status_code, status.json()["error"]) == (409, "game_not_over")
        final = started
        while final["type"] != "game" or final["game"]["result"] is None:
            final = host.receive_json()

    assert client.get(f"/api/rooms/{joined['code'].lower()}").json()["status"] == "finished"
    games = client.get(f"/api/rooms/{joined['code']}/games").json()["games"]
    assert [(game["id"], game["record"]) for game in games] == [(game_id, f"/api/games/{game_id}/record")]
    record = client.get(f"/api/games/{game_id}/record")
    assert record.headers["content-disposition"] == f'attachment; filename="tilerummy-{game_id}.json"'
    record_file = tmp_path / "record.json"
    record_file.write_text(record.text)
    assert main(["replay", str(record_file), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["result_matches_record"]
    assert report["result"]["scores"] == final["game"]["result"]["scores"]


def test_the_server_survives_malformed_and_hostile_messages(client: TestClient, clock: ManualClock) -> None:
    with client.websocket_connect("/ws") as early:
        early.send_json({"type": "create_room", "id": 1, "seats": [PERSON, PERSON]})
        assert early.receive_json()["reason"] == "hello_first"
    with client.websocket_connect("/ws") as mallory:
        hello(mallory, "Mallory")
        mallory.send_bytes(b"\x00\xff binary")
        assert mallory.receive_json()["reason"] == "bad_message"
        for text in ["", "null", "{", '{"type": 5}', '{"type": "play", "sets": [[1]]}', "[" * 3000]:
            mallory.send_text(text)
            reply = mallory.receive_json()
            assert reply["type"] == "error" and reply["reason"] == "bad_message", (text, reply)
            assert "Traceback" not in reply["detail"] and "\n" not in reply["detail"]
        mallory.send_json({"type": "chat", "text": "x" * 20000})
        assert mallory.receive_json()["reason"] == "too_large"
        refusals: list[tuple[Message, str]] = [
            ({"type": "draw"}, "not_in_room"),
            ({"type": "join_room", "code": "NOPE"}, "no_such_room"),
            ({"type": "create_room", "seats": [PERSON]}, "bad_message"),
            ({"type": "create_room", "seats": [PERSON, bot("nobody")]}, "bad_request"),
            ({"type": "create_room", "seats": [PERSON] * 2, "rules": {"preset": "chess"}}, "bad_rules"),
            ({"type": "hello", "protocol": 99, "name": "Eve"}, "protocol_version"),
        ]
        for number, (request, reason) in enumerate(refusals, start=1):
            reply = reply_to(mallory, request, number)
            assert (reply["type"], reply["reason"]) == ("error", reason), reply
        # A flood at one instant: what is left of the burst of 40 passes (15 frames came before), the rest is refused.
        for _ in range(60):
            mallory.send_json({"type": "ping"})
        replies = [mallory.receive_json() for _ in range(60)]
        assert [reply["type"] for reply in replies] == ["pong"] * 25 + ["error"] * 35
        assert {reply["reason"] for reply in replies[25:]} == {"rate_limited"}
        clock.now += 1
        assert reply_to(mallory, {"type": "ping"}, 99)["type"] == "pong"
        # One who keeps flooding is cut off after 50 refusals in a row.
        for _ in range(80):
            mallory.send_json({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as closed:
            read_until_closed(mallory)
        assert closed.value.code == 1008

    with client.websocket_connect("/ws") as newcomer:
        hello(newcomer, "Newcomer")
        reply_to(newcomer, {"type": "create_room", "seats": [PERSON, bot(LEVELS[0])]}, 1)
        assert reply_to(newcomer, {"type": "chat", "text": "hello, room"}, 2)["type"] == "chat"
    assert client.get("/healthz").json() == {"status": "ok"}


def test_a_connection_that_never_says_hello_is_closed(client: TestClient, clock: ManualClock) -> None:
    assert client.portal is not None
    with client.websocket_connect("/ws") as silent, client.websocket_connect("/ws") as polite:
        hello(polite, "Polite")
        client.portal.call(clock.advance, 29.9)
        assert reply_to(silent, {"type": "ping"}, 1)["type"] == "pong"
        client.portal.call(clock.advance, 0.1)
        refused = silent.receive_json()
        assert (refused["reason"], refused["detail"]) == ("hello_first", "no hello within 30 s")
        with pytest.raises(WebSocketDisconnect) as closed:
            read_until_closed(silent)
        assert closed.value.code == 1008
        assert reply_to(polite, {"type": "ping"}, 1)["type"] == "pong"


def test_the_stats_say_how_many_rooms_connections_and_writes_and_refuse_a_bad_window(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        hello(ws, "Ana")
        joined = reply_to(ws, {"type": "create_room", "seats": [PERSON, bot("easy")]}, 1)
        assert joined["type"] == "joined"
        stats = client.get("/api/stats", params={"seconds": "30"}).json()
    assert stats["rooms"] == 1 and stats["connections"] == 1
    assert stats["writes"]["changes"] >= 1 and stats["writes"]["transactions"] >= 1 and stats["writes"]["pending"] == 0
    assert stats["loop"]["seconds"] == 30 and stats["loop"]["full_collections"] >= 0
    for bad in ("0", "601", "soon"):
        refused = client.get("/api/stats", params={"seconds": bad})
        assert refused.status_code == 400 and refused.json()["error"] == "bad_seconds"
