"""What the processes of a cluster tell each other about themselves: that they are alive,
their public rooms for the lobby, and their rooms open to quick match.

Each process writes its heartbeat ``PREFIX:alive:NODE`` every :data:`BEAT_SECONDS`,
expiring after a lease, and keeps its id in the set ``PREFIX:nodes``. Readers take
every heartbeat at once and keep them for :data:`FRESH_SECONDS`: the lobby is a
moment old at worst, which a list of rooms can be. A process whose heartbeat is
gone (for long enough: see :meth:`.link.Link.steady`) is dead: its sessions here end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .link import LEASE_SECONDS, Link, RedisDown

#: Seconds between two heartbeats.
BEAT_SECONDS = 1.0
#: Seconds the others' heartbeats are kept before they are read again.
FRESH_SECONDS = 0.5


class Directory:
    def __init__(
        self,
        link: Link,
        prefix: str,
        node: str,
        lobby: Callable[[], list[dict[str, object]]],
        quick: Callable[[], list[str]],
        *,
        direct_url: str | None = None,
    ) -> None:
        self.link = link
        self.prefix = prefix
        self.node = node
        self._own_lobby = lobby
        self._own_quick = quick
        self._direct_url = direct_url
        self._others: dict[str, dict[str, Any]] = {}
        self._read_at: float | None = None
        #: When a process was last seen to have stopped (its heartbeat gone), if ever.
        self.stop_seen_at: float | None = None

    def _alive_key(self, node: str) -> str:
        return f"{self.prefix}:alive:{node}"

    async def beat(self) -> None:
        """Say this process is alive, with its lobby and quick-match rooms.

        :raises RedisDown: Redis could not be told.
        """
        beat = {"lobby": self._own_lobby(), "quick": self._own_quick(), "direct": self._direct_url}
        payload = json.dumps(beat, separators=(",", ":"))
        key, nodes, node, ttl = self._alive_key(self.node), f"{self.prefix}:nodes", self.node, int(LEASE_SECONDS * 1000)

        async def run(redis: Any) -> None:
            pipeline = redis.pipeline(transaction=False)
            pipeline.set(key, payload, px=ttl)
            pipeline.sadd(nodes, node)
            await pipeline.execute()

        await self.link.call(run)

    async def leave(self) -> None:
        """This process stops: the others stop counting on it at once (it stays in the set of
        processes, so that they see it gone and look for its rooms)."""
        key = self._alive_key(self.node)
        await self.link.call(lambda redis: redis.delete(key))

    async def others(self) -> dict[str, dict[str, Any]]:
        """The other live processes' heartbeats, by id (none while Redis is down).

        :raises RedisDown: Redis could not be asked.
        """
        now = self.link.clock()
        if self._read_at is not None and now - self._read_at < FRESH_SECONDS:
            return self._others
        nodes_key = f"{self.prefix}:nodes"
        members = await self.link.call(lambda redis: redis.smembers(nodes_key))
        nodes = sorted(_text(node) for node in members if _text(node) != self.node)
        values = (
            await self.link.call(lambda redis: redis.mget([self._alive_key(node) for node in nodes])) if nodes else []
        )
        others: dict[str, dict[str, Any]] = {}
        gone: list[str] = []
        for node, value in zip(nodes, values, strict=True):
            if value is None:
                gone.append(node)
            else:
                others[node] = json.loads(value)
        if gone and self.link.steady():
            self.stop_seen_at = now
            await self.link.call(lambda redis: redis.srem(nodes_key, *gone))
        self._others, self._read_at = others, now
        return others

    async def lobby(self) -> list[dict[str, object]]:
        """Every process's public rooms: open ones first. Only this one's while Redis is down."""
        rooms = list(self._own_lobby())
        try:
            others = await self.others()
        except RedisDown:
            others = {}
        for heartbeat in others.values():
            rooms.extend(heartbeat["lobby"])
        rooms.sort(key=lambda room: room["status"] != "open")
        return rooms

    async def quick_room(self) -> tuple[str, str] | None:
        """Another process's room open to quick match, as (process, code); None when none is."""
        try:
            others = await self.others()
        except RedisDown:
            return None
        for node, heartbeat in others.items():
            for code in heartbeat["quick"]:
                return node, str(code)
        return None

    def direct_urls(self) -> list[str]:
        """The addresses of their own every live process tells (as last read), this one's first."""
        urls = [self._direct_url] if self._direct_url else []
        urls += [heartbeat["direct"] for heartbeat in self._others.values() if isinstance(heartbeat.get("direct"), str)]
        return urls

    async def direct_url(self, node: str) -> str | None:
        """The address at which clients reach that process by itself, if it has one (and Redis answers)."""
        try:
            others = await self.others()
        except RedisDown:
            return None
        url = others.get(node, {}).get("direct")
        return url if isinstance(url, str) else None

    async def dead(self, nodes: set[str]) -> set[str]:
        """Which of these processes have stopped (none can be named while Redis is not steady)."""
        if not nodes or not self.link.steady():
            return set()
        self._read_at = None
        try:
            others = await self.others()
        except RedisDown:
            return set()
        return {node for node in nodes if node != self.node and node not in others}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
