"""The limits of one connection and of all of them, through the application in-process on a clock
the test moves: every refusal answers its request's id, and an over-limit client is closed with
a documented code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tilerummy.server.app import Settings, create_app
from tilerummy.server.gate import CLOSE_IDLE, CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN_LATER, Gate, Refusal
from tilerummy.server.limits import ServerLimits
from tilerummy.server.store import open_store

from .hubkit import ManualClock

Socket = Any


@contextmanager
def served(tmp_path: Path, clock: ManualClock, **limits: Any) -> Iterator[TestClient]:
    settings = Settings(bot_workers=0, limits=ServerLimits(**limits))
    app = create_app(settings, open_store(str(tmp_path / "db.sqlite3")), clock=clock, timers=clock)
    with TestClient(app) as client:
        yield client


def hello(socket: Socket, name: str = "Ana") -> None:
    socket.send_json({"type": "hello", "protocol": 1, "name": name})
    assert socket.receive_json()["type"] == "welcome"


def closed_with(socket: Socket) -> tuple[list[dict[str, Any]], int]:
    """The messages received until the server closed the connection, and its close code."""
    received = []
    try:
        while True:
            received.append(socket.receive_json())
    except WebSocketDisconnect as closed:
        return received, closed.code


def test_a_message_over_the_rate_is_refused_with_its_id(tmp_path: Path) -> None:
    clock = ManualClock(1000.0)
    with (
        served(tmp_path, clock, messages_per_second=1, message_burst=2) as client,
        client.websocket_connect("/ws") as socket,
    ):
        hello(socket)
        socket.send_json({"type": "ping", "id": "a"})
        assert socket.receive_json()["reply_to"] == "a"
        socket.send_json({"type": "ping", "id": "b"})
        refused = socket.receive_json()
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "rate_limited", "b")
        clock.now += 1
        socket.send_json({"type": "ping", "id": "c"})
        assert socket.receive_json()["type"] == "pong"


def test_a_paced_flood_is_closed_after_an_error_carrying_its_id(tmp_path: Path) -> None:
    clock = ManualClock(1000.0)
    with served(tmp_path, clock) as client, client.websocket_connect("/ws") as socket:
        hello(socket)
        answers: list[dict[str, Any]] = []
        code = None
        # A thousand messages a second, evenly paced: some always get through the rate.
        for number in range(3000):
            clock.now += 0.001
            socket.send_json({"type": "ping", "id": number})
            try:
                answers.append(socket.receive_json())
            except WebSocketDisconnect as closed:
                code = closed.code
                break
        assert code == CLOSE_POLICY_VIOLATION
        last = answers[-1]
        assert (last["type"], last["reason"], last["reply_to"]) == ("error", "rate_limited", len(answers) - 1)
        first_refusal = next(number for number, answer in enumerate(answers) if answer["type"] == "error")
        # Some got through after the first refusal, which no longer forgives the earlier ones.
        assert any(answer["type"] == "pong" for answer in answers[first_refusal:])
        assert all(answer["reply_to"] == number for number, answer in enumerate(answers))


def test_a_client_that_slips_over_the_rate_now_and_then_stays(tmp_path: Path) -> None:
    clock = ManualClock(1000.0)
    with (
        served(tmp_path, clock, messages_per_second=2, message_burst=2, max_strikes=3) as client,
        client.websocket_connect("/ws") as socket,
    ):
        hello(socket)
        for number in range(20):
            # Three at once every two seconds: one over the rate each time.
            clock.now += 2
            for repeat in range(3):
                socket.send_json({"type": "ping", "id": number * 3 + repeat})
                assert socket.receive_json()["reply_to"] == number * 3 + repeat
        socket.send_json({"type": "ping", "id": "still"})
        assert socket.receive_json()["reply_to"] == "still"


@pytest.mark.parametrize(
    ("text", "reason", "reply_to"),
    [
        (json.dumps({"type": "ping", "id": 7, "padding": "x" * 300}), "too_large", 7),
        (json.dumps({"id": 5}), "bad_message", 5),
        ('{"type": "ping", "id": 6, "x": NaN}', "bad_message", None),
        (json.dumps({"type": "teleport", "id": "t"}), "bad_message", "t"),
    ],
)
def test_a_refused_message_answers_its_id(tmp_path: Path, text: str, reason: str, reply_to: object) -> None:
    with (
        served(tmp_path, ManualClock(1000.0), max_message_bytes=200) as client,
        client.websocket_connect("/ws") as socket,
    ):
        hello(socket)
        socket.send_text(text)
        refused = socket.receive_json()
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", reason, reply_to)


@pytest.mark.parametrize("limit", ["max_connections", "max_connections_per_address"])
def test_websockets_over_the_cap_are_closed_and_the_health_check_still_answers(tmp_path: Path, limit: str) -> None:
    with served(tmp_path, ManualClock(1000.0), **{limit: 2}) as client:
        with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
            hello(first)
            hello(second, "Bruno")
            with client.websocket_connect("/ws") as third:
                received, code = closed_with(third)
            assert [message["reason"] for message in received] == ["too_many_connections"]
            assert code == CLOSE_TRY_AGAIN_LATER
            assert client.get("/healthz").json() == {"status": "ok"}
        # Those that closed make room again.
        with client.websocket_connect("/ws") as again:
            hello(again)


def test_silent_connections_are_closed_and_talkative_ones_kept(tmp_path: Path) -> None:
    clock = ManualClock(1000.0)
    with served(tmp_path, clock, idle_seconds=120) as client:
        assert client.portal is not None
        gate = client.app.state.gate  # type: ignore[attr-defined]
        with client.websocket_connect("/ws") as silent, client.websocket_connect("/ws") as talkative:
            hello(silent)
            hello(talkative, "Bruno")
            client.portal.call(clock.advance, 100)
            talkative.send_json({"type": "ping", "id": 1})
            assert talkative.receive_json()["type"] == "pong"
            # The server looks for silent connections every few seconds of its clock.
            client.portal.call(clock.advance, 30)
            received, code = closed_with(silent)
            assert ([message["reason"] for message in received], code) == (["idle"], CLOSE_IDLE)
            talkative.send_json({"type": "ping", "id": 2})
            assert talkative.receive_json()["reply_to"] == 2
            assert len(gate) == 1


def test_the_welcome_tells_every_limit(tmp_path: Path) -> None:
    with served(tmp_path, ManualClock(1000.0)) as client, client.websocket_connect("/ws") as socket:
        socket.send_json({"type": "hello", "protocol": 1, "name": "Ana"})
        limits = socket.receive_json()["limits"]
        assert limits["chat_burst"] == 3 and limits["chats_per_minute"] == 12
        assert (limits["idle_seconds"], limits["max_connections_per_address"], limits["max_rooms_per_address"]) == (
            120,
            50,
            10,
        )


class FakeConnection:
    def __init__(self, address: str) -> None:
        self.address = address
        self.last_heard = 0.0

    def refuse_and_close(self, refusal: Refusal) -> None:
        raise AssertionError(f"{self.address} closed: {refusal}")


def test_the_machine_itself_is_limited_only_in_all() -> None:
    gate = Gate(ServerLimits(max_connections=4, max_connections_per_address=1))
    assert gate.admit(FakeConnection("203.0.113.9")) is None
    refused = gate.admit(FakeConnection("203.0.113.9"))
    assert refused is not None and refused.reason == "too_many_connections"
    for address in ("127.0.0.1", "127.0.0.1", "::1"):
        assert gate.admit(FakeConnection(address)) is None
    refused = gate.admit(FakeConnection("127.0.0.1"))
    assert refused is not None and "the server has as many connections" in refused.detail
