"""The server as people meet it: ``tilerummy serve`` in a subprocess, real WebSocket clients."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tilerummy import GameRecord, Rules, best_opening, parse_tiles
from tilerummy.bots import LEVELS
from tilerummy.server.protocol import json_schema

from .serverkit import Client, Message, ServerProcess, running_server

PERSON = {"kind": "person"}


def bot(level: str) -> Message:
    return {"kind": "bot", "level": level}


def person_move(state: Message, rules: Rules) -> Message:
    """A scripted person: opens with the best initial meld it finds, otherwise draws (or passes)."""
    seat = state["seat"]
    rack = parse_tiles(" ".join(state["rack"]))
    if not state["melded"][seat] and len(rack) <= 20:
        opening = best_opening(rack, rules)
        if opening is not None:
            return {"type": "play", "sets": state["table"] + [str(meld).split() for meld in opening]}
    return {"type": "draw"} if state["pool_size"] else {"type": "pass"}


def my_turn(message: Message, client: Client) -> bool:
    return (
        message["type"] in ("game", "snapshot")
        and message["game"] is not None
        and message["game"]["result"] is None
        and message["game"]["turn"] == client.seat
    )


def check_sequence_numbers(messages: list[Message]) -> None:
    """After each snapshot, every room and game message takes the next number."""
    last: int | None = None
    for message in messages:
        if message["type"] == "snapshot":
            last = message["seq"]
        elif message["type"] in ("room", "game"):
            assert last is not None and message["seq"] == last + 1, (last, message)
            last = message["seq"]


def check_nothing_hidden_seen(messages: list[Message], seat: int | None, record: GameRecord) -> int:
    """Every message a client received shows no tile it may not see: no rack but its
    own (exactly its own, move by move), no pool, no deal, no seed. Returns the racks checked."""
    forbidden = {"pool", "racks", "deal", "seed", "token_hash"}
    checked = 0

    def walk(value: Any, inside_game: Message | None) -> None:
        nonlocal checked
        if isinstance(value, dict):
            assert not forbidden & set(value), f"hidden field in {value}"
            game = value if "rack" in value and "rack_sizes" in value else inside_game
            if value.get("rack") is not None:
                assert seat is not None, "a spectator was sent a rack"
                assert game is not None and game["seat"] == seat, f"another seat's rack was sent to seat {seat}"
                replayed = record.new_game()
                for action in record.actions[: game["moves"]]:
                    replayed.apply(action)
                assert value["rack"] == [str(tile) for tile in replayed.rack_tiles(seat)]
                checked += 1
            for item in value.values():
                walk(item, game)
        elif isinstance(value, list):
            for item in value:
                walk(item, inside_game)

    for message in messages:
        walk(message, None)
    if record.deal.seed is not None:
        assert str(record.deal.seed) not in json.dumps(messages)
    return checked


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(str(tmp_path / "server.sqlite3"), tmp_path / "server.log") as running:
        yield running


def test_a_full_game_between_a_person_and_bots(server: ServerProcess, tmp_path: Path) -> None:
    ana = Client(server, "Ana")
    created = ana.create([PERSON, *[bot(level) for level in LEVELS[:3]]], rules={"preset": "standard"})
    assert ana.seat == 0 and created["invite"] == f"{server.url}/r/{ana.code}"
    watcher = Client(server, "Watcher")
    watcher.join(ana.code or "", role="spectator")
    assert watcher.request({"type": "start_game"})["reason"] == "not_host"
    started = ana.request({"type": "start_game"})
    assert started["type"] == "game" and started["event"]["kind"] == "start"
    rules = Rules.from_dict(started["game"] and ana.wait_for(lambda m: m["type"] == "snapshot")["room"]["rules"])
    game_id = started["game"]["game_id"]
    status, body = server.get_status(f"/api/games/{game_id}/record")
    assert (status, body["error"]) == (409, "game_not_over")

    refused = False
    state: Message = started["game"]
    while state["result"] is None:
        if state["turn"] != ana.seat:
            message = ana.wait_for(lambda m: m["type"] == "game")
            state = message["game"]
            continue
        if not refused:
            error = ana.request({"type": "play", "sets": [["R1", "B2", "Y3"]]})
            assert (error["type"], error["reason"]) == ("error", "invalid_set")
            refused = True
        reply = ana.request(person_move(state, rules))
        if reply["type"] == "error":
            reply = ana.request({"type": "draw"} if state["pool_size"] else {"type": "pass"})
        assert reply["type"] == "game", reply
        state = reply["game"]

    final = watcher.wait_for(lambda m: m["type"] == "game" and m["game"]["result"] is not None)
    assert final["game"]["result"] == state["result"]
    assert final["game"]["rack"] is None

    record_json = server.get(f"/api/games/{game_id}/record")
    record_file = tmp_path / "record.json"
    record_file.write_text(json.dumps(record_json))
    replayed = subprocess.run(
        [sys.executable, "-m", "tilerummy.cli", "replay", str(record_file), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(replayed.stdout)
    assert replayed.returncode == 0 and report["ok"] and report["result_matches_record"], replayed.stdout
    assert report["result"]["scores"] == state["result"]["scores"]

    check_sequence_numbers(ana.received)
    check_sequence_numbers(watcher.received)
    record = GameRecord.from_dict(record_json)
    assert check_nothing_hidden_seen(ana.received, ana.seat, record) > 10
    assert check_nothing_hidden_seen(watcher.received, None, record) == 0
    games = server.get(f"/api/rooms/{ana.code}/games")["games"]
    assert [game["id"] for game in games] == [game_id]

    rematch = ana.request({"type": "rematch"})
    assert rematch["type"] == "game" and rematch["game"]["game_id"] != game_id


def test_bots_play_a_whole_game_while_the_host_watches(server: ServerProcess) -> None:
    host = Client(server, "Host")
    joined = host.create([bot(LEVELS[-1]), bot(LEVELS[0])], rules={"preset": "casual"})
    assert (joined["role"], joined["seat"], joined["host"]) == ("spectator", None, True)
    host.request({"type": "start_game"})
    final = host.wait_for(lambda m: m["type"] == "game" and m["game"]["result"] is not None, timeout=60)
    assert final["game"]["rack"] is None and sum(final["game"]["result"]["scores"]) == 0
    for path in (f"/r/{host.code}", "/static/index.html"):
        with urllib.request.urlopen(f"{server.url}{path}", timeout=5) as page:
            assert page.status == 200 and b"tilerummy" in page.read()


def test_quick_match_pairs_two_people_and_starts(server: ServerProcess) -> None:
    assert f"serving on http://127.0.0.1:{server.port}/" in server.log.read_text()
    ana, bruno = Client(server, "Ana"), Client(server, "Bruno")
    opened = ana.request({"type": "quick_match"})
    assert opened["type"] == "joined" and opened["host"]
    lobby = server.get("/api/lobby")["rooms"]
    assert [(room["code"], room["free_seats"]) for room in lobby] == [(opened["code"], 1)]
    joined = bruno.request({"type": "quick_match"})
    assert joined["code"] == opened["code"] and joined["seat"] != opened["seat"]
    for client in (ana, bruno):
        start = client.wait_for(lambda m: m["type"] == "game")
        assert start["event"]["kind"] == "start" and len(start["game"]["rack"]) == 14
    assert server.get("/api/lobby")["rooms"][0]["status"] == "playing"
    assert server.get(f"/api/rooms/{opened['code'].lower()}")["status"] == "playing"
    check_sequence_numbers(ana.received)
    check_sequence_numbers(bruno.received)


def test_every_bot_level_plays_on_the_server(server: ServerProcess) -> None:
    levels = list(LEVELS)
    for start in range(0, len(levels), 5):
        chunk = levels[start : start + 5]
        host = Client(server, "Host")
        preset = "six-player" if len(chunk) + 1 > 4 else "standard"
        host.create([PERSON, *[bot(level) for level in chunk]], rules={"preset": preset})
        message = host.request({"type": "start_game"})
        played: set[int] = set()
        while True:
            event = message["event"]
            if event["seat"] is not None and event["seat"] != host.seat:
                played.add(event["seat"])
            if len(played) == len(chunk):
                break
            if my_turn(message, host):
                host.send({"type": "draw"})
            message = host.wait_for(lambda m: m["type"] == "game")
        host.close()


def test_a_player_reconnects_mid_turn_and_carries_on(server: ServerProcess) -> None:
    ana = Client(server, "Ana")
    ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "standard", "options": {"turn_seconds": 60}})
    watcher = Client(server, "Watcher")
    watcher.join(ana.code or "", role="spectator")
    started = ana.request({"type": "start_game"})
    turn = started if my_turn(started, ana) else ana.wait_for(lambda m: my_turn(m, ana))
    rack = turn["game"]["rack"]
    shown = [[rack[0]]]
    seen = set(rack) | {tile for tiles in turn["game"]["table"] for tile in tiles}
    unheld = next(f"{c}{n}" for c in "RBYK" for n in range(1, 14) if f"{c}{n}" not in seen)
    refused = ana.request({"type": "live_table", "sets": [[unheld]]})
    assert (refused["reason"], refused["detail"]) == (
        "not_in_rack",
        f"{unheld} is neither on the table nor in your rack",
    )
    ana.send({"type": "live_table", "sets": shown})
    live = watcher.wait_for(lambda m: m["type"] == "live_table")
    assert (live["seat"], live["sets"]) == (ana.seat, shown)
    seq_before = turn["seq"]
    ana.close()
    watcher.wait_for(lambda m: m["type"] == "room" and not m["room"]["seats"][0]["connected"])

    back = Client(server, "Ana")
    joined = back.join(ana.code or "", token=ana.token)
    assert (joined["seat"], joined["token"], joined["host"]) == (ana.seat, None, True)
    snapshot = back.wait_for(lambda m: m["type"] == "snapshot")
    assert snapshot["seq"] >= seq_before
    assert snapshot["game"]["rack"] == rack and snapshot["game"]["turn"] == ana.seat
    assert back.wait_for(lambda m: m["type"] == "live_table")["sets"] == shown
    drawn = back.request({"type": "draw"})
    assert drawn["type"] == "game" and drawn["seq"] == snapshot["seq"] + 1
    assert drawn["game"]["rack_sizes"][ana.seat] == len(rack) + 1

    stranger = Client(server, "Mallory")
    assert stranger.request({"type": "join_room", "code": ana.code, "token": "guess"})["reason"] == "bad_token"
    assert stranger.request({"type": "join_room", "code": ana.code})["reason"] == "game_started"


def test_a_bot_stands_in_for_a_player_away_past_the_grace_period(server: ServerProcess) -> None:
    ana = Client(server, "Ana")
    # Bots that take their time, so the game is still on when the stand-in is announced.
    ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "casual"}, grace_seconds=0.3, bot_delay=0.2)
    watcher = Client(server, "Watcher")
    watcher.join(ana.code or "", role="spectator")
    started = ana.request({"type": "start_game"})
    if not my_turn(started, ana):
        ana.wait_for(lambda m: my_turn(m, ana))
    ana.close()
    stand_in = watcher.wait_for(lambda m: m["type"] == "game" and m["event"]["seat"] == ana.seat)
    assert stand_in["event"]["stand_in"] is True
    announced = watcher.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][0]["stand_in"])
    assert not announced["room"]["seats"][0]["connected"]
    back = Client(server, "Ana")
    back.join(ana.code or "", token=ana.token)
    returned = watcher.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][0]["connected"])
    assert not returned["room"]["seats"][0]["stand_in"]
    check_sequence_numbers(watcher.received)


def test_the_server_applies_the_timeout_penalty(server: ServerProcess) -> None:
    ana = Client(server, "Ana")
    ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "standard", "options": {"turn_seconds": 1.5}})
    started = ana.request({"type": "start_game"})
    turn = started if my_turn(started, ana) else ana.wait_for(lambda m: my_turn(m, ana))
    assert turn["game"]["deadline"] == pytest.approx(turn["now"] + 1.5, abs=1.0)
    before = len(turn["game"]["rack"])
    timeout = ana.wait_for(lambda m: m["type"] == "game" and m["event"]["kind"] == "timeout", timeout=10)
    assert timeout["event"]["seat"] == ana.seat and timeout["event"]["drawn"] == 3
    assert len(timeout["game"]["rack"]) == before + 3


# --- Killed and restarted -------------------------------------------------------------


def _postgres_url() -> str | None:
    return os.environ.get("TILERUMMY_TEST_POSTGRES_URL") or None


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "server.sqlite3")
    url = _postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL server (set TILERUMMY_TEST_POSTGRES_URL)")
    psycopg = pytest.importorskip("psycopg")
    try:
        with psycopg.connect(url, connect_timeout=5, autocommit=True) as connection:
            connection.execute("DROP TABLE IF EXISTS rooms, games, actions")
    except psycopg.Error as error:
        pytest.skip(f"PostgreSQL is not reachable: {error}")
    return url


def test_a_killed_server_loses_nothing_it_acknowledged(database: str, tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    try:
        ana, bruno = Client(server, "Ana"), Client(server, "Bruno")
        ana.create([PERSON, PERSON], rules={"preset": "standard", "options": {"turn_seconds": 120}})
        bruno.join(ana.code or "")
        # A second room whose clock must keep running while the server is down.
        carla, dan = Client(server, "Carla"), Client(server, "Dan")
        carla.create([PERSON, PERSON], rules={"preset": "standard", "options": {"turn_seconds": 1}})
        dan.join(carla.code or "")
        state = ana.request({"type": "start_game"})["game"]
        carla.request({"type": "start_game"})
        players = {ana.seat: ana, bruno.seat: bruno}
        acknowledged: dict[str, Any] = {}
        for _ in range(6):
            mover = players[state["turn"]]
            reply = mover.request({"type": "draw"})
            assert reply["type"] == "game"
            state = reply["game"]
            acknowledged = {"moves": state["moves"], "seq": reply["seq"], "seat": mover.seat, "rack": state["rack"]}
        carla_moves = (carla.latest_game() or {}).get("moves", 0)
        server.kill()
        time.sleep(1.2)
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

        carla_back = Client(server, "Carla")
        carla_back.join(carla.code or "", token=carla.token)
        after = carla_back.wait_for(lambda m: m["type"] == "snapshot")
        # The turns that ran out while the server was down ended in timeouts.
        assert after["game"]["moves"] > carla_moves
        assert after["game"]["deadline"] > after["now"] - 1
    finally:
        server.stop()


def test_the_server_survives_malformed_and_hostile_messages(server: ServerProcess) -> None:
    with connect(server.ws_url).__enter__() as early:
        early.send(json.dumps({"type": "create_room", "id": 1, "seats": [PERSON, PERSON]}))
        assert json.loads(early.recv(timeout=10))["reason"] == "hello_first"
    mallory = Client(server, "Mallory")
    mallory.connection.send(b"\x00\xff binary")
    assert mallory.next_message()["reason"] == "bad_message"
    for text in ["", "null", "{", '{"type": 5}', '{"type": "play", "sets": [[1]]}', "[" * 3000]:
        mallory.connection.send(text)
        reply = mallory.next_message()
        assert reply["type"] == "error" and reply["reason"] == "bad_message", (text, reply)
        assert "Traceback" not in reply["detail"] and "\n" not in reply["detail"]
    mallory.connection.send(json.dumps({"type": "chat", "text": "x" * 20000}))
    assert mallory.next_message()["reason"] == "too_large"
    refusals: list[tuple[Message, str]] = [
        ({"type": "draw"}, "not_in_room"),
        ({"type": "join_room", "code": "NOPE"}, "no_such_room"),
        ({"type": "create_room", "seats": [PERSON]}, "bad_message"),
        ({"type": "create_room", "seats": [PERSON, bot("nobody")]}, "bad_request"),
        ({"type": "create_room", "seats": [PERSON] * 2, "rules": {"preset": "chess"}}, "bad_rules"),
        ({"type": "hello", "protocol": 99, "name": "Eve"}, "protocol_version"),
    ]
    for request, reason in refusals:
        reply = mallory.request(request)
        assert (reply["type"], reply["reason"]) == ("error", reason), reply
    # A flood: the burst passes, the rest is refused, the connection stays usable.
    for _ in range(60):
        mallory.send({"type": "ping"})
    replies = [mallory.next_message() for _ in range(60)]
    assert {reply["type"] for reply in replies} == {"pong", "error"}
    assert {reply["reason"] for reply in replies if reply["type"] == "error"} == {"rate_limited"}
    time.sleep(1)
    assert mallory.request({"type": "ping"})["type"] == "pong"

    # Far over the size limit, the connection is closed; the server carries on.
    brute = Client(server, "Brute")
    brute.connection.send("x" * 200_000)
    with pytest.raises(ConnectionClosed) as closed:
        brute.next_message(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    newcomer = Client(server, "Newcomer")
    newcomer.create([PERSON, bot(LEVELS[0])])
    assert newcomer.request({"type": "chat", "text": "hello, room"})["type"] == "chat"
    assert server.get("/healthz") == {"status": "ok"}
    assert server.get("/protocol.schema.json") == json_schema()
    status, body = server.get_status("/api/nothing-here")
    assert status == 404 and body["error"] == "not_found"


def test_chat_is_limited_and_the_host_can_mute(server: ServerProcess) -> None:
    ana, bruno = Client(server, "Ana"), Client(server, "Bruno")
    ana.create([PERSON, PERSON])
    bruno.join(ana.code or "")
    line = bruno.request({"type": "chat", "text": "  good   luck  "})
    assert (line["name"], line["seat"], line["text"]) == ("Bruno", 1, "good luck")
    assert ana.wait_for(lambda m: m["type"] == "chat")["text"] == "good luck"
    assert bruno.request({"type": "mute", "name": "Ana"})["reason"] == "not_host"
    muted = ana.request({"type": "mute", "name": "Bruno"})
    assert muted["type"] == "room" and muted["room"]["muted"] == ["Bruno"]
    assert bruno.request({"type": "chat", "text": "hey"})["reason"] == "muted"
    ana.request({"type": "mute", "name": "Bruno", "muted": False})
    replies = [bruno.request({"type": "chat", "text": f"line {n}"}) for n in range(4)]
    assert [reply["type"] for reply in replies].count("error") >= 1
    assert server.get("/api/lobby")["rooms"][0]["code"] == ana.code


def test_a_room_left_by_everyone_before_it_starts_is_closed(server: ServerProcess) -> None:
    ana = Client(server, "Ana")
    codes = [ana.create([PERSON, PERSON])["code"] for _ in range(3)]
    assert [room["code"] for room in server.get("/api/lobby")["rooms"]] == codes[-1:]
    ana.request({"type": "leave_room"})
    assert server.get("/api/lobby")["rooms"] == []
    assert ana.request({"type": "join_room", "code": codes[0]})["reason"] == "no_such_room"
