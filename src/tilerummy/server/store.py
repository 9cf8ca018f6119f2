"""Where the server keeps rooms and games: SQLite (default) or PostgreSQL.

Every change is one transaction, committed before the server tells anyone
about it, so a server killed at any moment restarts with everything it
acknowledged. A game is kept as its record's header (rules, players, seed,
start) and its actions, one row each, in the record format
(``docs/record-format.md``): a game is rebuilt by replaying them.

The store's methods block; the server writes from one thread of its own, in
order, many changes to a transaction when they queue up (:mod:`.writer`).

The database records its schema version (``schema_version``). Opening an
older database brings it up to date (:data:`MIGRATIONS`, in order); a
database made by a newer tilerummy is refused, untouched.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import platformdirs

from ..errors import TilerummyError

#: The schema, as the steps that build it: step N takes a database from version
#: N - 1 to version N. A new database runs them all; an older one runs those it
#: lacks, in order. Each statement may run twice harmlessly (IF NOT EXISTS),
#: since SQLite commits a schema change at once: a step cut short runs again whole.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: rooms, games and their actions (the schema before it had a version).
    (
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
    ),
    # 2: which process of a cluster may write each room (see Change.holder).
    ("CREATE TABLE IF NOT EXISTS room_holders (code TEXT PRIMARY KEY, holder TEXT NOT NULL)",),
    # 3: players' profiles, the hashes of their keys, and their ratings game by game (profile_store.py).
    (
        """CREATE TABLE IF NOT EXISTS profiles (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            created_at DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS profile_keys (
            key_hash TEXT PRIMARY KEY,
            profile TEXT NOT NULL,
            kind TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS profile_keys_by_profile ON profile_keys (profile)",
        """CREATE TABLE IF NOT EXISTS ratings (
            profile TEXT NOT NULL,
            game TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            place INTEGER NOT NULL,
            players INTEGER NOT NULL,
            score INTEGER NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (profile, game))""",
        "CREATE INDEX IF NOT EXISTS ratings_by_time ON ratings (profile, at)",
    ),
    # 4: rated games' seats, each rated game's figures for its profiles, and tries at puzzles
    # (rated_games.py, puzzle_routes.py).
    (
        "CREATE TABLE IF NOT EXISTS rated_games (game TEXT PRIMARY KEY, seats TEXT NOT NULL)",
        """CREATE TABLE IF NOT EXISTS puzzle_tries (
            profile TEXT NOT NULL,
            puzzle TEXT NOT NULL,
            solved INTEGER NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            puzzle_mu DOUBLE PRECISION NOT NULL,
            puzzle_sigma DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (profile, puzzle))""",
        "CREATE INDEX IF NOT EXISTS puzzle_tries_by_puzzle ON puzzle_tries (puzzle, at)",
        """CREATE TABLE IF NOT EXISTS game_figures (
            profile TEXT NOT NULL,
            game TEXT NOT NULL,
            placed INTEGER NOT NULL,
            best INTEGER NOT NULL,
            missed_go_outs INTEGER NOT NULL,
            PRIMARY KEY (profile, game))""",
    ),
    # A change to the schema is a new step here, never an edit of an old one.
)
T = TypeVar("T")
#: Runs one statement (``?`` placeholders) in the transaction under way; returns the rows fetched.
Statement = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]

#: The version this code writes and reads.
SCHEMA_VERSION = len(MIGRATIONS)
#: The PostgreSQL advisory lock held while the schema is set up (any number no other code takes).
SCHEMA_LOCK = 0x7469_6C65


class StoreError(TilerummyError):
    """The database could not be opened or written."""


class RoomHeldElsewhere(StoreError):
    """Another process of the cluster holds the room now: this one may not write it."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code} is held by another server now")
        self.code = code


@dataclass(frozen=True, slots=True)
class NewGame:
    id: str
    room: str
    header: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class NewAction:
    game: str
    index: int
    seq: int
    action: dict[str, Any]
    #: The request the action answers: its id and the sequence number it was made against
    #: (kept with the action, so a process that takes the room over answers it again the same).
    answered: tuple[int | str, int] | None = None

    def data(self) -> dict[str, Any]:
        """The action as its row holds it: in the record format, and the request it answered."""
        if self.answered is None:
            return self.action
        request, made_at = self.answered
        return {**self.action, ANSWERED: {"request": request, "made_at": made_at}}


@dataclass(frozen=True, slots=True)
class FinishedGame:
    game: str
    result: dict[str, Any]
    finished_at: float


@dataclass(frozen=True, slots=True)
class Change:
    """What one event changes, written in one transaction."""

    room: tuple[str, str, dict[str, Any], float] | None = None  # code, status, data, updated_at
    new_game: NewGame | None = None
    actions: Sequence[NewAction] = field(default_factory=tuple)
    finished: FinishedGame | None = None
    #: (room code, process): written only while that process holds the room, as a cluster's
    #: processes write. The first such write of a room makes the process its holder; another
    #: process becomes the holder only by taking the room over (:meth:`Store.hold`), after
    #: which this one's writes are refused whole (:class:`RoomHeldElsewhere`).
    holder: tuple[str, str] | None = None
    #: Writes of other parts that belong with this change, done last in its transaction, so that
    #: both are stored or neither (a finished rated game and its players' new ratings). Each may
    #: run again after a failed transaction, and must do nothing twice.
    also: Sequence[Callable[[Statement], None]] = field(default_factory=tuple)


#: The key of an action's row that holds the request it answered (never part of the record).
ANSWERED = "answered"


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    room: str
    header: dict[str, Any]
    actions: list[dict[str, Any]]
    last_seq: int
    result: dict[str, Any] | None
    created_at: float
    finished_at: float | None
    #: The requests the stored actions answered: (seat, request id, made against, applied at seq).
    answers: tuple[tuple[int, int | str, int, int], ...] = ()

    def record(self) -> dict[str, Any]:
        """The game record (``docs/record-format.md``), with the result once finished."""
        data = dict(self.header)
        data["actions"] = list(self.actions)
        if self.result is not None:
            data["result"] = self.result
        return data


class Store(Protocol):
    def commit(self, change: Change) -> None: ...

    def commit_many(self, changes: Sequence[Change]) -> None:
        """Write the changes, in order, in one transaction: all of them or none."""
        ...

    def stored_version(self) -> int: ...

    def hold(self, code: str, holder: str) -> None:
        """Make ``holder`` the only process that may write the room from now on: a write
        of the previous holder being committed finishes first, any later one is refused."""
        ...

    def rooms(self, *, active_only: bool) -> list[dict[str, Any]]: ...

    def room(self, code: str) -> dict[str, Any] | None:
        """A room as saved, closed or not (None: no room ever had the code)."""
        ...

    def active_codes(self) -> list[str]:
        """The codes of every room open, playing or finished but not closed."""
        ...

    def game(self, game_id: str) -> StoredGame | None: ...

    def games(self, room: str) -> list[StoredGame]: ...

    def transact(self, work: Callable[[Statement], T]) -> T:
        """Run ``work`` in one transaction and commit it, or roll it back and raise
        :class:`StoreError`; ``work`` runs its statements through the function it is given."""
        ...

    def close(self) -> None: ...


class _SqlStore:
    """The SQL both databases share; subclasses give the connection and placeholder."""

    _placeholder = "?"
    #: How a read locks the rows it read until the commit (SQLite: a write locks the whole file).
    _lock_shared = ""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        return text.replace("?", self._placeholder)

    def _has_table(self, connection: Any, name: str) -> bool:
        raise NotImplementedError

    def _setup(self, where: str) -> None:
        """Bring the database to the newest schema version, or refuse one a newer tilerummy made.

        :raises StoreError: the database's schema is newer than this code's.
        """
        with self._lock:
            connection = self._connection()
            self._hold_schema(connection)
            connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = connection.execute("SELECT version FROM schema_version").fetchone()
            if row is None:
                # No version recorded: new, or made before versions were (the first schema).
                version = 1 if self._has_table(connection, "rooms") else 0
                connection.execute(self._sql("INSERT INTO schema_version (version) VALUES (?)"), (version,))
            else:
                version = int(row[0])
            latest = len(MIGRATIONS)
            if version > latest:
                connection.rollback()
                connection.close()
                raise StoreError(
                    f"{where}: the database has schema version {version}, newer than this tilerummy's "
                    f"({latest}): run a newer tilerummy, or use another database"
                )
            for step in range(version, latest):
                for statement in MIGRATIONS[step]:
                    connection.execute(statement)
                connection.execute(self._sql("UPDATE schema_version SET version = ?"), (step + 1,))
            connection.commit()

    def _hold_schema(self, connection: Any) -> None:
        """Keep other processes from setting the schema up at the same time, until the commit."""

    def stored_version(self) -> int:
        """The schema version the database records."""
        with self._lock:
            connection = self._connection()
            row = connection.execute("SELECT version FROM schema_version").fetchone()
            connection.commit()
        return int(row[0])

    def commit(self, change: Change) -> None:
        self.commit_many([change])

    def hold(self, code: str, holder: str) -> None:
        self._transaction(
            lambda connection: connection.execute(
                self._sql(
                    "INSERT INTO room_holders (code, holder) VALUES (?, ?) "
                    "ON CONFLICT (code) DO UPDATE SET holder = excluded.holder"
                ),
                (code, holder),
            )
        )

    def commit_many(self, changes: Sequence[Change]) -> None:
        def write_all(connection: Any) -> None:
            for change in changes:
                self._write(connection, change)

        self._transaction(write_all)

    def _transaction(self, work: Callable[[Any], object]) -> None:
        """Run ``work`` on the connection and commit, or roll back and raise :class:`StoreError`
        (or the work's own :class:`TilerummyError`)."""
        with self._lock:
            connection = self._connection()
            try:
                work(connection)
                connection.commit()
            except Exception as error:
                with contextlib.suppress(Exception):
                    connection.rollback()
                if isinstance(error, TilerummyError):
                    # A refusal of the work's own (a room held elsewhere, a name taken): as it is.
                    raise
                raise StoreError(f"could not write to the database: {error}") from error

    def transact(self, work: Callable[[Statement], T]) -> T:
        done: list[T] = []
        self._transaction(lambda connection: done.append(work(self._statement(connection))))
        return done[0]

    def _statement(self, connection: Any) -> Statement:
        def statement(text: str, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
            cursor = connection.execute(self._sql(text), tuple(parameters))
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []

        return statement

    def _write(self, connection: Any, change: Change) -> None:
        if change.holder is not None:
            # First, so that the row stays locked (PostgreSQL: read, not written, so that every
            # action does not rewrite it) until the commit: a takeover waits for this write,
            # or this write sees the takeover and is refused.
            code, holder = change.holder
            held = connection.execute(
                self._sql(f"SELECT holder FROM room_holders WHERE code = ?{self._lock_shared}"), (code,)
            ).fetchone()
            if held is None:
                # The room's first write: this process becomes its holder, unless a takeover came first.
                claimed = connection.execute(
                    self._sql("INSERT INTO room_holders (code, holder) VALUES (?, ?) ON CONFLICT (code) DO NOTHING"),
                    (code, holder),
                )
                if claimed.rowcount == 0:
                    raise RoomHeldElsewhere(code)
            elif held[0] != holder:
                raise RoomHeldElsewhere(code)
        if change.room is not None:
            code, status, data, updated_at = change.room
            connection.execute(
                self._sql(
                    "INSERT INTO rooms (code, status, data, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (code) DO UPDATE SET status = excluded.status, data = excluded.data, "
                    "updated_at = excluded.updated_at"
                ),
                (code, status, json.dumps(data), updated_at),
            )
        if change.new_game is not None:
            game = change.new_game
            connection.execute(
                self._sql("INSERT INTO games (id, room, header, created_at) VALUES (?, ?, ?, ?)"),
                (game.id, game.room, json.dumps(game.header), game.created_at),
            )
        for action in change.actions:
            connection.execute(
                self._sql("INSERT INTO actions (game, idx, seq, data) VALUES (?, ?, ?, ?)"),
                (action.game, action.index, action.seq, json.dumps(action.data())),
            )
        if change.finished is not None:
            connection.execute(
                self._sql("UPDATE games SET result = ?, finished_at = ? WHERE id = ?"),
                (json.dumps(change.finished.result), change.finished.finished_at, change.finished.game),
            )
        for work in change.also:
            work(self._statement(connection))

    def rooms(self, *, active_only: bool) -> list[dict[str, Any]]:
        query = "SELECT data FROM rooms" + (" WHERE status <> 'closed'" if active_only else "") + " ORDER BY code"
        with self._lock:
            connection = self._connection()
            rows = connection.execute(query).fetchall()
            connection.commit()
        return [json.loads(row[0]) for row in rows]

    def room(self, code: str) -> dict[str, Any] | None:
        with self._lock:
            connection = self._connection()
            row = connection.execute(self._sql("SELECT data FROM rooms WHERE code = ?"), (code,)).fetchone()
            connection.commit()
        return json.loads(row[0]) if row is not None else None

    def active_codes(self) -> list[str]:
        with self._lock:
            connection = self._connection()
            rows = connection.execute("SELECT code FROM rooms WHERE status <> 'closed'").fetchall()
            connection.commit()
        return [row[0] for row in rows]

    def game(self, game_id: str) -> StoredGame | None:
        with self._lock:
            connection = self._connection()
            row = connection.execute(
                self._sql("SELECT id, room, header, result, created_at, finished_at FROM games WHERE id = ?"),
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = connection.execute(
                self._sql("SELECT data, seq FROM actions WHERE game = ? ORDER BY idx"), (game_id,)
            ).fetchall()
            connection.commit()
        stored = [(json.loads(action[0]), action[1]) for action in actions]
        answers = tuple(
            (data["seat"], data[ANSWERED]["request"], data[ANSWERED]["made_at"], seq)
            for data, seq in stored
            if isinstance(data.get(ANSWERED), dict)
        )
        return StoredGame(
            id=row[0],
            room=row[1],
            header=json.loads(row[2]),
            actions=[_record_action(data) for data, _ in stored],
            last_seq=max((seq for _, seq in stored), default=0),
            result=json.loads(row[3]) if row[3] is not None else None,
            created_at=row[4],
            finished_at=row[5],
            answers=answers,
        )

    def games(self, room: str) -> list[StoredGame]:
        with self._lock:
            connection = self._connection()
            ids = connection.execute(
                self._sql("SELECT id FROM games WHERE room = ? ORDER BY created_at"), (room,)
            ).fetchall()
            connection.commit()
        found = [self.game(row[0]) for row in ids]
        return [game for game in found if game is not None]


class SqliteStore(_SqlStore):
    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level="DEFERRED")
            # WAL with NORMAL sync keeps every commit through a crash of the process.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._setup(str(path))
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"{path}: cannot open the database: {error}") from None

    def _connection(self) -> Any:
        return self._db

    def _has_table(self, connection: Any, name: str) -> bool:
        found = connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
        return found.fetchone() is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresStore(_SqlStore):
    _placeholder = "%s"
    _lock_shared = " FOR SHARE"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg
        except ImportError:
            raise StoreError("PostgreSQL needs psycopg: pip install 'tilerummy[postgres]'") from None
        self._url = url
        self._psycopg = psycopg
        try:
            self._db = psycopg.connect(url, connect_timeout=10)
            self._setup("the PostgreSQL database")
        except psycopg.Error as error:
            raise StoreError(f"cannot open the PostgreSQL database: {_one_line(error)}") from None

    def _connection(self) -> Any:
        if self._db.broken or self._db.closed:
            # The database restarted or the network dropped: the next write gets a new connection.
            try:
                self._db = self._psycopg.connect(self._url, connect_timeout=10)
            except self._psycopg.Error as error:
                raise StoreError(f"cannot reach the PostgreSQL database: {_one_line(error)}") from None
        return self._db

    def _has_table(self, connection: Any, name: str) -> bool:
        return connection.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0] is not None

    def _hold_schema(self, connection: Any) -> None:
        # The processes of a cluster start together on one database: one sets the schema up, the
        # others wait and find it done (two CREATE TABLE IF NOT EXISTS at once can both try to create).
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def default_database_path() -> Path:
    """A file in the user's data directory, where the platform keeps it
    (``$XDG_DATA_HOME`` or ``~/.local/share`` on Linux, ``~/Library/Application Support``
    on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    return Path(platformdirs.user_data_dir("tilerummy", appauthor=False)) / "server.sqlite3"


def open_store(where: str | None) -> Store:
    """A store for a ``postgresql://`` URL or a file path (the default file when None).

    :raises StoreError: when the database cannot be opened.
    """
    if where is not None and where.startswith(("postgresql://", "postgres://")):
        return PostgresStore(where)
    return SqliteStore(Path(where) if where else default_database_path())


def _record_action(data: dict[str, Any]) -> dict[str, Any]:
    """An action's row as the game's record holds it (without the request it answered)."""
    return {key: value for key, value in data.items() if key != ANSWERED}
