"""The server's pure parts: protocol, limits, clock, rooms and store."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from tilerummy import Draw, Game, GameRecord, Play, Rules, Timeout
from tilerummy.bots import LEVELS
from tilerummy.cli import main
from tilerummy.records import action_to_dict
from tilerummy.server.clock import due_timeouts
from tilerummy.server.limits import TokenBucket
from tilerummy.server.protocol import (
    BadMessage,
    CreateRoom,
    DrawTile,
    Hello,
    PlayTable,
    RoomOptions,
    SeatSpec,
    ServerMessage,
    json_schema,
    parse_client_message,
)
from tilerummy.server.room_core import Began, Begin, apply, decide
from tilerummy.server.rooms import Room, RoomError, hash_token, new_room_code
from tilerummy.server.store import Change, FinishedGame, NewAction, NewGame, SqliteStore, Store, open_store

from .postgres import empty_test_database

# --- Protocol -------------------------------------------------------------------------


def test_client_messages_are_read_into_their_models() -> None:
    hello = parse_client_message('{"type": "hello", "protocol": 1, "name": "  Ana   Maria "}')
    assert isinstance(hello, Hello) and hello.name == "Ana Maria"
    play = parse_client_message('{"type": "play", "id": 7, "sets": [["R5", "R6", "J"]]}')
    assert isinstance(play, PlayTable) and play.id == 7 and play.sets == [["R5", "R6", "J"]]
    assert isinstance(parse_client_message(b'{"type": "draw"}'), DrawTile)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("not json", "not a JSON text"),
        ("[1, 2]", "a message is a JSON object with a type"),
        ('{"id": 1}', "a message needs a type"),
        ('{"type": "fly"}', "unknown message type 'fly'"),
        ('{"type": "draw", "extra": 1}', "extra: Extra inputs are not permitted"),
        ('{"type": "play", "sets": "R5 R6 R7"}', "sets: Input should be a valid list"),
        ('{"type": "hello", "protocol": 1, "name": "a\\u0007b"}', "name: a name cannot hold control"),
        ('{"type": "hello", "protocol": 1, "name": "   "}', "name: a name cannot be empty"),
        ('{"type": "chat", "text": "' + "x" * 301 + '"}', "text: String should have at most 300 characters"),
        ("[" * 5000 + "]" * 5000, "not a JSON text"),
        ("{" * 100000, "not a JSON text"),
    ],
)
def test_a_bad_client_message_is_refused_in_one_line(text: str, detail: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_client_message(text)
    assert str(refused.value).startswith(detail)
    assert "\n" not in str(refused.value)


def test_the_schema_names_every_message_in_both_directions(capsys: pytest.CaptureFixture[str]) -> None:
    schema = json_schema()
    client = {option["$ref"].rsplit("/", 1)[1] for option in schema["$defs"]["ClientMessage"]["oneOf"]}
    server = {option["$ref"].rsplit("/", 1)[1] for option in schema["$defs"]["ServerMessage"]["oneOf"]}
    assert {"Hello", "CreateRoom", "JoinRoom", "PlayTable", "DrawTile", "LiveTable", "SendChat", "Mute"} <= client
    assert {"Welcome", "Joined", "Snapshot", "GameEvent", "RoomUpdate", "LiveTableUpdate", "Error"} <= server
    assert main(["serve", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out) == schema


def test_serve_refuses_bad_options_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == "tilerummy serve: --port 70000: choose 0 to 65535\n"


# --- Limits and clock -----------------------------------------------------------------


def test_a_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket(rate=2, burst=3, now=0)
    assert [bucket.allow(0) for _ in range(4)] == [True, True, True, False]
    assert bucket.allow(0.5) and not bucket.allow(0.5)
    assert [bucket.allow(100) for _ in range(4)] == [True, True, True, False]
    with pytest.raises(ValueError, match="positive rate"):
        TokenBucket(rate=0, burst=1, now=0)


def test_due_timeouts_follow_each_other_from_deadline_to_deadline() -> None:
    game = Game.new(2, rules=Rules(turn_seconds=10, timeout_penalty=2), seed=3, started_at=100)
    first = game.turn
    assert due_timeouts(game, 109.9) == []
    applied = due_timeouts(game, 131)
    assert [(timeout.seat, timeout.at) for timeout in applied] == [(first, 110), (1 - first, 120), (first, 130)]
    assert game.deadline == 140 and len(game.rack(first)) == 14 + 4
    assert due_timeouts(Game.new(2, rules="casual", seed=3, started_at=0), 10**9) == []


# --- Rooms ----------------------------------------------------------------------------


def _room(*seats: SeatSpec, **rules: object) -> Room:
    request = CreateRoom(type="create_room", seats=list(seats), rules={"options": rules}, options=RoomOptions())  # type: ignore[arg-type]
    return Room.create("ABCDEF", request, "host-token", "Ana", now=1000)


def test_a_room_seats_people_then_refuses_more() -> None:
    room = _room(SeatSpec(kind="person"), SeatSpec(kind="person"), SeatSpec(kind="bot", level=LEVELS[0]))
    assert room.seats[2].name is not None and room.seats[2].name.startswith(LEVELS[0].capitalize())
    first = room.take_seat("Ana", "token-1")
    second = room.take_seat("Ana", "token-2")
    assert (first.index, first.name, second.index, second.name) == (0, "Ana", 1, "Ana (2)")
    assert room.seat_for_token("token-2") is second and room.seat_for_token("nope") is None
    assert second.token_hash == hash_token("token-2") != "token-2"
    with pytest.raises(RoomError) as full:
        room.take_seat("Bruno", "token-3")
    assert full.value.reason == "room_full"
    assert room.is_host_token("host-token") and not room.is_host_token("token-1")


@pytest.mark.parametrize(
    ("seats", "rules", "reason", "detail"),
    [
        ([SeatSpec(kind="person")] * 5, {}, "bad_rules", "5 players need the six-player set"),
        ([SeatSpec(kind="person")] * 2, {"wrap": "yes"}, "bad_rules", "wrap='yes': expected true or false"),
        ([SeatSpec(kind="person")] * 2, {"colour": 1}, "bad_rules", "unknown option 'colour'"),
        ([SeatSpec(kind="person"), SeatSpec(kind="bot", level="genius")], {}, "bad_request", "seats[1]: bot level"),
        ([SeatSpec(kind="person")] * 2, {"turn_seconds": 0.5}, "bad_rules", "turn_seconds=0.5: at least 1"),
        ([SeatSpec(kind="person")] * 2, {"rounds": 0}, "bad_rules", "rounds=0"),
        ([SeatSpec(kind="person")] * 2, {"rounds": 101}, "bad_rules", "rounds=101: at least 1 and at most 100"),
    ],
)
def test_a_room_the_game_cannot_have_is_refused(
    seats: list[SeatSpec], rules: dict[str, object], reason: str, detail: str
) -> None:
    with pytest.raises(RoomError) as refused:
        _room(*seats, **rules)
    assert refused.value.reason == reason and refused.value.detail.startswith(detail)


def test_a_game_starts_once_every_seat_is_taken_and_views_hide_racks() -> None:
    room = _room(SeatSpec(kind="person"), SeatSpec(kind="person"))
    room.take_seat("Ana", "a")
    with pytest.raises(RoomError, match="1 seat is still free"):
        room.plan_start(seed=5, now=1000, salt="ab" * 16)
    room.take_seat("Bruno", "b")
    [began] = decide(room, Begin(5, "ab" * 16, 1000))
    assert isinstance(began, Began)
    apply(room, began)
    header = began.start.header
    assert header["seed"] == 5 and header["players"] == ["Ana", "Bruno"] and room.game_id == "ABCDEF-1"
    watcher = room.game_state(None)
    assert watcher is not None and watcher.rack is None and watcher.rack_sizes == [14, 14]
    own = room.game_state(1)
    assert own is not None and own.rack is not None and len(own.rack) == 14
    restored = Room.from_data(json.loads(json.dumps(room.to_data())), now=2000)
    assert restored.to_data() == room.to_data()
    assert restored.seats[0].away_since == 2000


def test_room_codes_avoid_lookalike_characters() -> None:
    codes = {new_room_code(()) for _ in range(200)}
    assert all(len(code) == 6 and not set(code) & set("01OI") for code in codes)


def test_actions_are_written_in_the_record_format() -> None:
    assert action_to_dict(Draw(1, 12.5)) == {"seat": 1, "type": "draw", "at": 12.5}
    assert action_to_dict(Timeout(0)) == {"seat": 0, "type": "timeout"}
    assert action_to_dict(Play(0, "R1 R2 R3")) == {"seat": 0, "type": "play", "table": "R1 R2 R3"}


# --- Store ----------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return open_store(str(tmp_path / "nested" / "server.sqlite3"))
    return open_store(empty_test_database())


def test_the_store_keeps_rooms_and_replayable_games(store: Store) -> None:
    game = Game.new(["Ana", "Bruno"], seed=11, started_at=0)
    header = {k: v for k, v in GameRecord.from_game(game).to_dict().items() if k != "actions"}
    store.commit(
        Change(room=("ROOM1", "playing", {"code": "ROOM1"}, 1.0), new_game=NewGame("ROOM1-1", "ROOM1", header, 1.0))
    )
    for index in range(3):
        game.draw(game.turn, at=float(index + 1))
        store.commit(Change(actions=[NewAction("ROOM1-1", index, index + 2, action_to_dict(game.actions[-1]))]))
    stored = store.game("ROOM1-1")
    assert stored is not None and stored.result is None and stored.last_seq == 4
    replayed = GameRecord.from_dict(stored.record()).replay()
    assert replayed.ok and replayed.game.actions == game.actions
    store.commit(
        Change(
            finished=FinishedGame("ROOM1-1", {"scores": [1, -1]}, 9.0), room=("ROOM1", "closed", {"code": "ROOM1"}, 9.0)
        )
    )
    assert store.rooms(active_only=True) == [] and store.rooms(active_only=False) == [{"code": "ROOM1"}]
    assert [found.id for found in store.games("ROOM1")] == ["ROOM1-1"]
    assert store.game("NOPE") is None
    with pytest.raises(ValueError, match="could not write"):
        store.commit(Change(actions=[NewAction("ROOM1-1", 0, 9, {"seat": 0, "type": "draw"})]))
    store.close()


def test_an_unopenable_database_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="cannot open the database"):
        SqliteStore(tmp_path / "file" / "db.sqlite3")


def test_every_example_in_the_protocol_doc_is_a_valid_message() -> None:
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json (client|server)\n(.*?)```", text, flags=re.DOTALL)
    server_adapter: TypeAdapter[object] = TypeAdapter(ServerMessage)
    kinds: dict[str, set[str]] = {"client": set(), "server": set()}
    for direction, body in blocks:
        data = json.loads(body)
        if direction == "client":
            parse_client_message(body)
        else:
            server_adapter.validate_python(data)
        kinds[direction].add(data["type"])
    schema = json_schema()["$defs"]
    for direction, union in (("client", "ClientMessage"), ("server", "ServerMessage")):
        mapping = schema[union]["discriminator"]["mapping"]
        assert kinds[direction] == set(mapping), f"{direction} messages without an example"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--public-url", "example.com"], "--public-url 'example.com': expected http(s)://host[:port]"),
        (["--public-url", "https://example.com/play"], "the server is served at the root, without a path"),
        (["--max-connections-per-address", "0"], "each --max-... option 1 or more"),
        (["--max-rooms-per-address", "0"], "each --max-... option 1 or more"),
    ],
)
def test_serve_refuses_a_bad_address_or_limit_in_one_line(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    assert main(["serve", *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("tilerummy serve: ") and message in error and error.count("\n") == 1


def test_no_server_module_imports_another_in_a_circle() -> None:
    """The hub's parts depend on the narrow things they use (protocols), not on the hub: no
    module of the server imports, even for types only, one that imports it back."""
    import ast

    root = Path(__file__).parent.parent / "src" / "tilerummy"
    modules = {
        ".".join(path.relative_to(root.parent).with_suffix("").parts): path
        for path in (root / "server").rglob("*.py")
        if path.name != "__init__.py"
    }
    imports: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name.rsplit(".", 1)[0].split(".")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                target = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
                for found in [target, *(f"{target}.{alias.name}" for alias in node.names)]:
                    if found in imports and found != name:
                        imports[name].add(found)
    state: dict[str, str] = {}

    def circle_from(name: str, path: list[str]) -> list[str] | None:
        state[name] = "open"
        for other in sorted(imports[name]):
            if state.get(other) == "open":
                return [*path[path.index(other) :], other] if other in path else [name, other]
            if other not in state and (found := circle_from(other, [*path, other])) is not None:
                return found
        state[name] = "done"
        return None

    for name in sorted(modules):
        if name not in state:
            circle = circle_from(name, [name])
            assert circle is None, " -> ".join(circle)
