"""The server as a process: ``tilerummy serve`` in a subprocess, real WebSocket clients.

Only what needs a real process is here (a server killed outright, uvicorn's
frame limit, the address it announces); everything else about the server is
tested in-process (``test_server_play.py``, ``test_server_http.py``).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tilerummy.bots import LEVELS

from .postgres import empty_test_database
from .serverchecks import PERSON, bot
from .serverkit import Client, ServerProcess, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(str(tmp_path / "server.sqlite3"), tmp_path / "server.log") as running:
        yield running


def test_the_server_announces_itself_and_closes_a_connection_far_over_the_size_limit(server: ServerProcess) -> None:
    assert f"serving on http://127.0.0.1:{server.port}/" in server.log.read_text()
    brute = Client(server, "Brute")
    brute.connection.send("x" * 200_000)
    with pytest.raises(ConnectionClosed) as closed:
        brute.next_message(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    newcomer = Client(server, "Newcomer")
    joined = newcomer.create([PERSON, bot(LEVELS[0])])
    assert joined["invite"] == f"{server.url}/r/{newcomer.code}"
    assert newcomer.request({"type": "chat", "text": "hello, room"})["type"] == "chat"
    assert server.get("/healthz") == {"status": "ok"}


# --- Killed and restarted -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "server.sqlite3")
    return empty_test_database()


def test_a_killed_server_loses_nothing_it_acknowledged(database: str, tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    try:
        ana, bruno = Client(server, "Ana"), Client(server, "Bruno")
        ana.create([PERSON, PERSON], rules={"preset": "standard", "options": {"turn_seconds": 120}})
        bruno.join(ana.code or "")
        state = ana.request({"type": "start_game"})["game"]
        players = {ana.seat: ana, bruno.seat: bruno}
        acknowledged: dict[str, Any] = {}
        for _ in range(6):
            mover = players[state["turn"]]
            reply = mover.request({"type": "draw"})
            assert reply["type"] == "game"
            state = reply["game"]
            acknowledged = {"moves": state["moves"], "seq": reply["seq"], "seat": mover.seat, "rack": state["rack"]}
        server.kill()
        server.start()

        ana_back, bruno_back = Client(server, "Ana"), Client(server, "Bruno")
        ana_back.join(ana.code or "", token=ana.token)
        bruno_back.join(ana.code or "", token=bruno.token)
        by_seat = {ana.seat: ana_back, bruno.seat: bruno_back}
        snapshot = by_seat[acknowledged["seat"]].wait_for(lambda m: m["type"] == "snapshot")
        assert snapshot["game"]["moves"] == acknowledged["moves"]
        assert snapshot["game"]["rack"] == acknowledged["rack"]
        assert snapshot["seq"] >= acknowledged["seq"]
        assert snapshot["room"]["status"] == "playing"
        mover = by_seat[snapshot["game"]["turn"]]
        reply = mover.request({"type": "draw"})
        assert reply["type"] == "game" and reply["game"]["moves"] == acknowledged["moves"] + 1
    finally:
        server.stop()


def _post(server: ServerProcess, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        f"{server.url}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_rated_game_killed_at_each_of_its_last_actions_is_rated_exactly_once(database: str, tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    try:
        keys = {name: _post(server, "/api/profiles", {"name": name})["key"] for name in ("Kira", "Lino")}
        kira, lino = Client(server, "Kira", key=keys["Kira"]), Client(server, "Lino", key=keys["Lino"])
        kira.create([PERSON, PERSON], rules={"preset": "standard"}, rated=True)
        code = kira.code or ""
        lino.join(code)
        tokens = {"Kira": kira.token, "Lino": lino.token}
        state = kira.request({"type": "start_game"})["game"]
        game_id = state["game_id"]
        players = {kira.seat: kira, lino.seat: lino}
        while state["pool_size"] > 0:
            reply = players[state["turn"]].request({"type": "draw"})
            assert reply["type"] == "game", reply
            state = reply["game"]
        # The pool is dry: each pass to the end of the round is sent twice, the server killed once
        # as soon as it is sent (it is lost, unacknowledged) and once as soon as it is acknowledged
        # (stored: at the last, with the result and the ratings), then started again.
        kills = 0
        while state["result"] is None:
            for acknowledged in (False, True):
                mover = players[state["turn"]]
                if acknowledged:
                    reply = mover.request({"type": "pass"})
                    assert reply["type"] == "game", reply
                else:
                    mover.send({"type": "pass"})
                server.kill()
                kills += 1
                server.start()
                clients = {name: Client(server, name, key=keys[name]) for name in keys}
                for name, client in clients.items():
                    client.join(code, token=tokens[name])
                players = {client.seat: client for client in clients.values()}
                state = clients["Kira"].wait_for(lambda message: message["type"] == "snapshot")["game"]
                if state["result"] is not None:
                    break
        assert kills >= 2
        server.kill()
        server.start()
        for name in keys:
            page = server.get(f"/api/profiles/{name}")
            assert [game["game"] for game in page["games"]] == [game_id], (name, kills)
            assert page["standing"]["games"] == 1
    finally:
        server.stop()
