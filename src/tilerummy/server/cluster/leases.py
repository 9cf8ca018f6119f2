"""Rooms' leases: which process owns each room, as a Redis key that expires unless renewed.

A room's lease is the key ``PREFIX:lease:CODE`` holding the owner's id. The owner
renews all its leases in one script call every :data:`RENEW_SECONDS`; a process
that stops renewing (killed, hung, cut off) loses them after :data:`LEASE_SECONDS`,
and another process claims each room with ``SET NX`` and loads it from the store.
Renewal also puts back a lease Redis lost (Redis restarted empty), unless another
process claimed the room meanwhile: then the room is that process's, and this
one stops serving it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .link import LEASE_SECONDS, Link

#: Seconds between two renewals: a few within a lease, so one slow renewal loses nothing.
RENEW_SECONDS = 0.75

#: Keep each lease that is ours (or put it back when missing); return the keys another process holds.
_RENEW = """
local lost = {}
for _, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not owner then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
#: Delete the lease only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
#: At most this many keys in one renewal call, so Redis never blocks long on one process.
_RENEW_BATCH = 2000


class Leases:
    def __init__(self, link: Link, prefix: str, node: str) -> None:
        self.link = link
        self.prefix = prefix
        self.node = node
        self._milliseconds = int(LEASE_SECONDS * 1000)

    def key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    async def claim(self, code: str) -> bool:
        """Take the room if nobody holds it.

        :raises RedisDown: Redis could not be asked.
        """
        key, node, ttl = self.key(code), self.node, self._milliseconds
        return bool(await self.link.call(lambda redis: redis.set(key, node, nx=True, px=ttl)))

    async def renew(self, codes: Sequence[str]) -> list[str]:
        """Renew the leases of these rooms; returns the codes another process holds now.

        :raises RedisDown: Redis could not be asked.
        """
        lost: list[str] = []
        start = len(self.prefix) + len(":lease:")
        node, ttl = self.node, self._milliseconds
        for first in range(0, len(codes), _RENEW_BATCH):
            keys = [self.key(code) for code in codes[first : first + _RENEW_BATCH]]

            async def run(redis: Any, keys: list[str] = keys) -> list[bytes]:
                taken: list[bytes] = await redis.eval(_RENEW, len(keys), *keys, node, ttl)
                return taken

            lost.extend(_text(key)[start:] for key in await self.link.call(run))
        return lost

    async def release(self, codes: Collection[str]) -> None:
        """Give the rooms up, so another process may claim them at once.

        :raises RedisDown: Redis could not be asked.
        """
        if not codes:
            return
        node = self.node

        async def run(redis: object) -> None:
            pipeline = self.link.redis.pipeline(transaction=False)
            for code in codes:
                pipeline.eval(_RELEASE, 1, self.key(code), node)
            await pipeline.execute()

        await self.link.call(run)

    async def owners(self, codes: Sequence[str]) -> dict[str, str | None]:
        """Each room's owner, None for a room without a lease.

        :raises RedisDown: Redis could not be asked.
        """
        if not codes:
            return {}
        keys = [self.key(code) for code in codes]
        values = await self.link.call(lambda redis: redis.mget(keys))
        return {code: _text(value) if value is not None else None for code, value in zip(codes, values, strict=True)}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
