"""The store's schema version: a database made before versions were recorded is brought up to
date, a newer one is refused untouched; on SQLite and, when one is at hand, PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tilerummy.cli import main
from tilerummy.server import store as store_module
from tilerummy.server.store import (
    SCHEMA_VERSION,
    Change,
    NewAction,
    NewGame,
    RoomHeldElsewhere,
    StoreError,
    default_database_path,
    open_store,
)

from .postgres import STORE_TABLES, empty_test_database

#: The schema tilerummy wrote before it recorded a version (version 1), exactly as it wrote it.
VERSION_1 = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        data TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        room TEXT NOT NULL,
        header TEXT NOT NULL,
        result TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS actions (
        game TEXT NOT NULL,
        idx INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (game, idx))""",
    "CREATE INDEX IF NOT EXISTS games_by_room ON games (room)",
)
ROOM = {"code": "ROOM1", "status": "playing"}

#: Runs SQL on the raw database, with ``?`` placeholders; returns the rows fetched.
Sql = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


class Database:
    """A database for these tests, reached without the store: where it is, and raw SQL on it."""

    def __init__(self, where: str, sql: Sql) -> None:
        self.where = where
        self.sql = sql

    def make_version_1(self) -> None:
        """What the code of version 1 left: its tables and a room with a game and an action."""
        for statement in VERSION_1:
            self.sql(statement, ())
        self.sql("INSERT INTO rooms VALUES (?, ?, ?, ?)", ("ROOM1", "playing", json.dumps(ROOM), 1.0))
        self.sql(
            "INSERT INTO games (id, room, header, created_at) VALUES (?, ?, ?, ?)", ("ROOM1-1", "ROOM1", "{}", 1.0)
        )
        self.sql("INSERT INTO actions VALUES (?, ?, ?, ?)", ("ROOM1-1", 0, 3, json.dumps({"seat": 0, "type": "draw"})))


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        path = tmp_path / "server.sqlite3"

        def run_sqlite(text: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            with contextlib.closing(sqlite3.connect(path)) as connection:
                rows: list[tuple[Any, ...]] = connection.execute(text, parameters).fetchall()
                connection.commit()
            return rows

        yield Database(str(path), run_sqlite)
        return
    url = empty_test_database()
    psycopg = pytest.importorskip("psycopg")

    def run_postgres(text: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with psycopg.connect(url, autocommit=True) as connection:
            cursor = connection.execute(text.replace("?", "%s"), parameters)
            return list(cursor.fetchall()) if cursor.description else []

    yield Database(url, run_postgres)
    run_postgres(f"DROP TABLE IF EXISTS {STORE_TABLES}", ())


def test_a_new_database_records_the_current_version(database: Database) -> None:
    store = open_store(database.where)
    assert store.stored_version() == SCHEMA_VERSION == 4
    store.close()
    assert database.sql("SELECT version FROM schema_version", ()) == [(SCHEMA_VERSION,)]


def test_a_version_1_database_is_opened_with_its_rooms_and_games(database: Database) -> None:
    database.make_version_1()
    store = open_store(database.where)
    assert store.rooms(active_only=True) == [ROOM]
    stored = store.game("ROOM1-1")
    assert stored is not None and stored.actions == [{"seat": 0, "type": "draw"}] and stored.last_seq == 3
    store.close()
    # Brought to the current version on the way.
    assert database.sql("SELECT version FROM schema_version", ()) == [(SCHEMA_VERSION,)]


def test_an_older_database_runs_the_steps_it_lacks_in_order(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    database.make_version_1()
    later_steps = (
        ("CREATE TABLE IF NOT EXISTS notes (text TEXT NOT NULL)",),
        ("INSERT INTO notes (text) VALUES ('the last step ran after the one before')",),
    )
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS + later_steps)
    store = open_store(database.where)
    assert store.rooms(active_only=False) == [ROOM]
    store.close()
    assert database.sql("SELECT version FROM schema_version", ()) == [(SCHEMA_VERSION + 2,)]
    assert database.sql("SELECT text FROM notes", ()) == [("the last step ran after the one before",)]
    # Opened again, nothing runs twice.
    open_store(database.where).close()
    assert database.sql("SELECT count(*) FROM notes", ()) == [(1,)]
    database.sql("DROP TABLE notes", ())


def test_a_database_from_a_newer_tilerummy_is_refused_untouched(
    database: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    open_store(database.where).close()
    database.sql("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}, newer than this tilerummy's"):
        open_store(database.where)
    assert database.sql("SELECT version FROM schema_version", ()) == [(SCHEMA_VERSION + 1,)]
    # The server says so in one line, before it starts.
    assert main(["serve", "--db", database.where, "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("tilerummy serve: ") and "run a newer tilerummy" in error and error.count("\n") == 1


def test_the_default_database_lives_in_the_users_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_database_path() == tmp_path / "data" / "tilerummy" / "server.sqlite3"


def test_a_room_is_written_only_by_its_holder_and_a_takeover_makes_a_new_one(database: Database) -> None:
    store = open_store(database.where)
    try:

        def room(holder: str, status: str) -> Change:
            return Change(room=("ROOMH", status, {"code": "ROOMH"}, 1.0), holder=("ROOMH", holder))

        store.commit(room("one", "open"))
        store.commit(room("one", "playing"))
        with pytest.raises(RoomHeldElsewhere):
            store.commit(room("two", "closed"))
        store.hold("ROOMH", "two")
        with pytest.raises(RoomHeldElsewhere):
            store.commit(room("one", "closed"))
        # A refused change is refused whole, even beside a good one in the same transaction.
        with pytest.raises(RoomHeldElsewhere):
            store.commit_many([Change(room=("OTHER", "open", {}, 1.0)), room("one", "closed")])
        assert store.room("OTHER") is None
        assert database.sql("SELECT status FROM rooms WHERE code = ?", ("ROOMH",)) == [("playing",)]
        store.commit(room("two", "closed"))
        assert database.sql("SELECT status FROM rooms WHERE code = ?", ("ROOMH",)) == [("closed",)]
        assert database.sql("SELECT holder FROM room_holders WHERE code = ?", ("ROOMH",)) == [("two",)]
    finally:
        store.close()


def test_a_stored_action_keeps_the_request_it_answered_outside_the_games_record(database: Database) -> None:
    store = open_store(database.where)
    try:
        draw, timeout = {"seat": 0, "type": "draw", "at": 2.0}, {"seat": 1, "type": "timeout", "at": 9.0}
        store.commit(Change(new_game=NewGame("ROOMA-1", "ROOMA", {"players": ["Ana", "Bruno"]}, 1.0)))
        store.commit(Change(actions=[NewAction("ROOMA-1", 0, 5, draw, answered=("d-1", 4))]))
        store.commit(Change(actions=[NewAction("ROOMA-1", 1, 6, timeout)]))
        stored = store.game("ROOMA-1")
        assert stored is not None
        assert stored.answers == ((0, "d-1", 4, 5),)
        assert stored.record()["actions"] == [draw, timeout]
    finally:
        store.close()


def test_a_database_at_version_3_gains_the_rated_games_and_puzzles_tables(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    raw.execute("INSERT INTO schema_version (version) VALUES (3)")
    for step in store_module.MIGRATIONS[:3]:
        for statement in step:
            raw.execute(statement)
    raw.commit()
    raw.close()
    store = open_store(str(path))
    assert store.stored_version() == SCHEMA_VERSION
    tables = store.transact(lambda sql: sql("SELECT name FROM sqlite_master WHERE type = 'table'", ()))
    assert {"rated_games", "puzzle_tries", "game_figures"} <= {row[0] for row in tables}
    store.close()
