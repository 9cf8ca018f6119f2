"""Quick match across the processes of a cluster: one waiting list of rooms, in Redis, by rating.

A quick-match room waiting for its second player is a member of the sorted set
``PREFIX:quick:wait``, scored by its player's rating, with the time it began
waiting (Redis's own clock, so the processes' clocks do not matter) in the hash
``PREFIX:quick:since``. A newcomer's quick match is decided by one script call
(:data:`_MATCH`), atomic in Redis: the oldest waiting room whose rating is within
:data:`..seating.QUICK_RANGE` of the newcomer's, widened by
:data:`..seating.QUICK_WIDENING` a second that room has waited, is taken off the
list and given to the newcomer; when there is none, the room the newcomer will make
(its code claimed first, :meth:`.node.ClusterNode.claim`) goes on the list. Either
way the answer is kept under the request's token (``PREFIX:quick:token:HASH``, the
token's SHA-256), so the same quick match sent again, to this process or another
(its first one stopped before answering), goes to the same room and finds the seat
it took: each match makes one room, and each player sits in it once.

A room leaves the list when it is given to a newcomer, when it starts, when
computers take its free seat and when it closes; a room left on the list by a
process that stopped is dropped once it is older than anyone may wait for a player.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from .link import Link

#: The script: a token already answered goes where it went; else the oldest room in reach is
#: taken off the list; else the new room (ARGV[2]) goes on it. KEYS: the list, the times, the token.
#: ARGV: rating, new code, range, widening a second, seconds a room may wait, token seconds, own room.
_MATCH = """
local again = redis.call('GET', KEYS[3])
if again then return {'again', again} end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local rating, range, widening, most = tonumber(ARGV[1]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local widest = range + widening * most
local near = redis.call('ZRANGEBYSCORE', KEYS[1], rating - widest, rating + widest, 'WITHSCORES')
local best, best_since = nil, nil
for i = 1, #near, 2 do
  local code, theirs = near[i], tonumber(near[i + 1])
  local since = tonumber(redis.call('HGET', KEYS[2], code) or now)
  if now - since > most then
    redis.call('ZREM', KEYS[1], code)
    redis.call('HDEL', KEYS[2], code)
  elseif code ~= ARGV[7] and math.abs(theirs - rating) <= range + widening * math.max(0, now - since)
      and (best == nil or since < best_since) then
    best, best_since = code, since
  end
end
if best then
  redis.call('ZREM', KEYS[1], best)
  redis.call('HDEL', KEYS[2], best)
  redis.call('SET', KEYS[3], best, 'EX', ARGV[6])
  return {'join', best}
end
redis.call('ZADD', KEYS[1], rating, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], tostring(now))
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[6])
return {'make', ARGV[2]}
"""

#: Seconds a quick match's answer is kept under its token (it is sent again within seconds).
TOKEN_SECONDS = 600
#: Seconds past the computers' arrival after which a room still on the list is dropped
#: (its process stopped before taking it off).
STALE_MARGIN_SECONDS = 30.0


class QuickList:
    """The cluster's waiting list of quick-match rooms, and the rooms this process is making."""

    def __init__(self, link: Link, prefix: str) -> None:
        self.link = link
        self.wait_key = f"{prefix}:quick:wait"
        self.since_key = f"{prefix}:quick:since"
        self._token_prefix = f"{prefix}:quick:token:"
        #: Rooms on the list that this process is making: joins of them wait until made.
        self.making: dict[str, asyncio.Event] = {}
        #: The room each quick match is to make here, by token, with the rating it waits at.
        self.to_make: dict[str, tuple[str, float | None]] = {}

    def token_key(self, token: str) -> str:
        return self._token_prefix + hashlib.sha256(token.encode()).hexdigest()

    async def placed(self, token: str) -> str | None:
        """The room a quick match with this token was given before, if any.

        :raises RedisDown: Redis could not be asked.
        """
        key = self.token_key(token)
        value = await self.link.call(lambda redis: redis.get(key))
        return None if value is None else _text(value)

    async def match(
        self,
        token: str,
        rating: float,
        code: str,
        *,
        within: float,
        widening: float,
        most_wait: float,
        own: str | None = None,
    ) -> tuple[str, str]:
        """(how, room): ``("join", code)`` a waiting room in reach, taken off the list;
        ``("make", code)`` the new room ``code``, put on the list; ``("again", code)`` the
        room this token was given before. ``own``: the room the player is in (not joined again).

        :raises RedisDown: Redis could not be asked (nothing is known to have changed).
        """
        keys = (self.wait_key, self.since_key, self.token_key(token))
        most = most_wait + STALE_MARGIN_SECONDS
        arguments = (repr(float(rating)), code, repr(within), repr(widening), repr(most), TOKEN_SECONDS, own or "")

        async def run(redis: Any) -> list[bytes]:
            answer: list[bytes] = await redis.eval(_MATCH, len(keys), *keys, *arguments)
            return answer

        how, room = await self.link.call(run)
        return _text(how), _text(room)

    async def rating(self, code: str) -> float | None:
        """The rating a room waits at on the list; None when it is not on it.

        :raises RedisDown: Redis could not be asked.
        """
        score = await self.link.call(lambda redis: redis.zscore(self.wait_key, code))
        return None if score is None else float(score)

    async def done(self, code: str) -> None:
        """The room waits no more: off the list.

        :raises RedisDown: Redis could not be told.
        """

        async def run(redis: Any) -> None:
            pipeline = redis.pipeline(transaction=True)
            pipeline.zrem(self.wait_key, code)
            pipeline.hdel(self.since_key, code)
            await pipeline.execute()

        await self.link.call(run)

    async def forget(self, token: str, code: str) -> None:
        """A room that could not be made: off the list, and its token free for another try.

        :raises RedisDown: Redis could not be told.
        """
        key = self.token_key(token)
        await self.done(code)
        await self.link.call(lambda redis: redis.delete(key))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
