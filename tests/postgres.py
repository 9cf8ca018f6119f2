"""The PostgreSQL database the server's tests may empty (``TILERUMMY_TEST_POSTGRES_URL``).

Under pytest-xdist each worker has a schema of its own in it, so that no worker
empties the tables another is using."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest

#: The store's tables, dropped before a test so that it starts from an empty database.
STORE_TABLES = "rooms, games, actions, room_holders, profiles, profile_keys, ratings, rated_games, puzzle_tries, game_figures, schema_version"


def worker_schema() -> str | None:
    """This pytest-xdist worker's schema (``tests_gw0``, ...); None outside a worker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"tests_{worker}" if worker else None


def in_schema(url: str, schema: str) -> str:
    """``url`` with ``schema`` first on the search path, after any options it already gives."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query["options"] = f"{query.get('options', '')} -csearch_path={schema}".strip()
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


def empty_test_database() -> str:
    """The test database's URL (in this worker's schema), its store tables dropped;
    skips the test when no database is named or it cannot be reached."""
    url = os.environ.get("TILERUMMY_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("no PostgreSQL server (set TILERUMMY_TEST_POSTGRES_URL)")
    psycopg = pytest.importorskip("psycopg")
    schema = worker_schema()
    if schema is not None:
        url = in_schema(url, schema)
    try:
        with psycopg.connect(url, connect_timeout=5, autocommit=True) as connection:
            if schema is not None:
                connection.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
            connection.execute(f"DROP TABLE IF EXISTS {STORE_TABLES}")
    except psycopg.Error as error:
        pytest.skip(f"PostgreSQL is not reachable: {error}")
    return url
