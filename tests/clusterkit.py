"""Clusters for the tests: processes of one service sharing a real Redis and a real PostgreSQL.

Redis comes from ``TILERUMMY_TEST_REDIS_URL`` (``.ci/redis.sh`` starts one),
PostgreSQL from ``TILERUMMY_TEST_POSTGRES_URL`` (``.ci/postgres.sh``); a test
without them is skipped, saying which is missing. Each test has a PostgreSQL
schema and a Redis key prefix of its own, so tests never see each other's rooms.

In-process nodes (a hub and its :class:`ClusterNode` each) stand for processes
wherever a real process is not needed; their players send text as a WebSocket
connection does, through the node's router.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest

from tilerummy.server.botpool import BotPool
from tilerummy.server.cluster import ClusterNode
from tilerummy.server.hub import Hub
from tilerummy.server.store import open_store

from .hubkit import Message, Player
from .postgres import in_schema

#: A safety net, not a measurement: a condition not met after this many seconds never will be.
WAIT = 30.0
#: How often a condition is looked at again.
POLL_SECONDS = 0.02


def redis_url() -> str:
    """The tests' Redis, or a skip naming what is missing."""
    url = os.environ.get("TILERUMMY_TEST_REDIS_URL")
    if not url:
        pytest.skip("no Redis server (set TILERUMMY_TEST_REDIS_URL; .ci/redis.sh starts one)")
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except (redis.RedisError, OSError) as error:
        pytest.skip(f"Redis is not reachable: {error}")
    return url


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a fresh schema, dropped afterwards; or a skip."""
    url = os.environ.get("TILERUMMY_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("no PostgreSQL server (set TILERUMMY_TEST_POSTGRES_URL; .ci/postgres.sh starts one)")
    import psycopg

    schema = f"cluster_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"CREATE SCHEMA {schema}")
    except psycopg.Error as error:
        pytest.skip(f"PostgreSQL is not reachable: {error}")
    try:
        yield in_schema(url, schema)
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def new_prefix() -> str:
    return f"test-{secrets.token_hex(4)}"


async def until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Return once ``check()`` holds; fail after ``timeout`` seconds (a safety net)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(POLL_SECONDS)


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = WAIT) -> None:
    """As :func:`until`, for a condition that must be awaited (one that asks Redis, say)."""
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(POLL_SECONDS)


@contextlib.asynccontextmanager
async def running_node(
    database: str, redis: str, prefix: str, *, direct_url: str | None = None
) -> AsyncIterator[ClusterNode]:
    """One process of the cluster, in-process: a hub (bots in threads) and its node; stopped afterwards."""
    store = open_store(database)
    node = ClusterNode(redis, prefix=prefix, direct_url=direct_url)
    hub = Hub(store, BotPool(0), placement=node, bot_budget=0.2)
    await node.start(hub)
    try:
        yield node
    finally:
        if halted(node):
            await node.link.redis.aclose()
        else:
            await node.close()
        await hub.close()
        store.close()


def halted(node: ClusterNode) -> bool:
    return getattr(node, "halted", False)


async def halt(node: ClusterNode) -> None:
    """The process stops dead, as when killed: no lease given up, nothing more said or heard."""
    for task in node._loops:
        task.cancel()
    await node.relay.close()
    for runtime in node.hub.runtime.values():
        runtime.cancel_all()
    node.hub.rooms.clear()
    node.hub.runtime.clear()
    node.halted = True  # type: ignore[attr-defined]


class ClusterPlayer(Player):
    """A client connected to one process: what it sends goes through the node's router,
    as a WebSocket connection's messages do; it keeps every message it receives."""

    def __init__(self, node: ClusterNode, name: str) -> None:
        super().__init__(node.hub, name)
        self.node = node

    @classmethod
    async def connect(cls, node: ClusterNode, name: str) -> ClusterPlayer:
        player = cls(node, name)
        await player.greet()
        return player

    async def send(self, message: Message) -> None:
        await self.node.router.receive(self.member, json.dumps(message))

    async def close(self) -> None:
        await self.node.router.leave(self.member, explicit=False, reply_to=None)


def own_views_only(player: ClusterPlayer) -> None:
    """Every view of the game the player received is its own seat's: no other rack reached it."""
    views = [message["game"] for message in player.received if message.get("game") is not None]
    assert views, f"{player.name} saw no game"
    for view in views:
        assert view["seat"] == player.seat, view
        if view["result"] is None:
            assert view["rack"] is not None
            assert len(view["rack"]) == view["rack_sizes"][player.seat]
