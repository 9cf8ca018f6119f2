"""The process's connection to Redis, and whether Redis has been reachable long enough to trust.

Every call to Redis goes through :meth:`Link.call`: a failure marks Redis as
down (once in the log) and raises :class:`RedisDown`; the next success marks it
up again. Decisions that read the absence of a key as someone's death (a room
without a lease, a process without a heartbeat) wait until Redis has been up
for a whole lease (:meth:`Link.steady`): after Redis restarts empty, every
live process puts its keys back within that time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from ...errors import TilerummyError

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("tilerummy.server.cluster")
_T = TypeVar("_T")

#: Seconds a lease lasts unless its owner renews it; also how long Redis must be up to be trusted.
LEASE_SECONDS = 3.0
#: Seconds a call to Redis may take before it counts as a failure.
CALL_SECONDS = 2.0
#: Connections to Redis a process opens at most; more calls at once wait for one.
MOST_CONNECTIONS = 32


class ClusterError(TilerummyError):
    """The cluster cannot be joined: Redis is missing or unreachable, or the database is not shared."""


class RedisDown(Exception):
    """A call to Redis failed: Redis is restarting, or the network is down."""


def redis_client(url: str, *, timeout: float | None = CALL_SECONDS) -> Redis:
    """An asyncio Redis client for the URL (``redis://host:port/db``).

    :raises ClusterError: the ``redis`` package is missing, or the URL is not a Redis URL.
    """
    try:
        from redis.asyncio import BlockingConnectionPool, Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
    except ImportError:
        raise ClusterError("a cluster needs the redis package: pip install 'tilerummy[cluster]'") from None
    try:
        # A burst of calls (every player of a stopped process rejoining at once) waits for a
        # connection rather than failing as if Redis were down.
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=MOST_CONNECTIONS,
            timeout=CALL_SECONDS,
            socket_connect_timeout=CALL_SECONDS,
            socket_timeout=timeout,
            socket_keepalive=True,
            # After Redis restarts, each pooled connection fails once on its first use: try
            # again on a new one, so that one stale connection does not count as Redis down.
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
        )
    except ValueError as error:
        raise ClusterError(f"--redis {url}: {error}") from None
    client: Redis = Redis.from_pool(pool)
    return client


def check_redis(url: str) -> None:
    """Reach Redis once, so that a wrong URL is one line before the server starts.

    :raises ClusterError: naming what is wrong.
    """
    try:
        import redis
    except ImportError:
        raise ClusterError("a cluster needs the redis package: pip install 'tilerummy[cluster]'") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=CALL_SECONDS, socket_timeout=CALL_SECONDS)
    except ValueError as error:
        raise ClusterError(f"--redis {url}: {error}") from None
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        detail = " ".join(str(error).split())
        raise ClusterError(f"--redis {url}: cannot reach Redis: {detail}") from None
    finally:
        client.close()


class Link:
    """The Redis client every part of the process shares, and its health."""

    def __init__(self, client: Redis, clock: Callable[[], float] = time.monotonic) -> None:
        from redis import RedisError

        self.redis = client
        self.clock = clock
        self._errors: tuple[type[BaseException], ...] = (RedisError, OSError, TimeoutError)
        self.up_since: float | None = clock()
        #: How many times Redis came back after being down (a changed number: messages may have been lost).
        self.recoveries = 0

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        """What a failed call to Redis raises."""
        return self._errors

    async def call(self, work: Callable[[Redis], Awaitable[_T]]) -> _T:
        """Run a call to Redis.

        :raises RedisDown: it failed (Redis is marked down until a call succeeds).
        """
        try:
            result = await work(self.redis)
        except self._errors as error:
            self.failed(error)
            raise RedisDown(str(error)) from error
        self.succeeded()
        return result

    def succeeded(self) -> None:
        if self.up_since is None:
            self.up_since = self.clock()
            self.recoveries += 1
            log.warning("Redis is reachable again")

    def failed(self, error: BaseException) -> None:
        if self.up_since is not None:
            log.warning("Redis is unreachable (%s): serving the rooms of this process only", _one_line(error))
        self.up_since = None

    def steady(self) -> bool:
        """Up for a whole lease: a key missing now is missing, not yet put back."""
        return self.up_since is not None and self.clock() - self.up_since >= LEASE_SECONDS


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
