"""Messages between the processes of a cluster: Redis pub/sub, one channel a process.

A frame is ``[kind, session, payload]``: a connection's messages going to the
process that owns its room, and that process's answers coming back (see
:mod:`.guests` and :mod:`.router`). Frames posted while the event loop runs
leave together: one publish to each process per batch, in the order posted, so
a session's frames arrive in order. A frame that does not arrive (Redis down,
or nobody listening on the process's channel, as while its connection to Redis
is being made again) is handed to ``on_undelivered``: the sessions it concerned
attach again once Redis answers, and their requests not answered yet are sent
again (:mod:`.router`, :mod:`.guests`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from .link import Link, RedisDown, redis_client

log = logging.getLogger("tilerummy.server.cluster")

Frame = list[Any]
#: Seconds the receiver waits on Redis before it looks at its connection again.
LISTEN_SECONDS = 1.0
#: Seconds between two attempts to subscribe while Redis is down.
RETRY_SECONDS = 0.25


async def stop_loops(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the loops and wait for their end. A loop must also end by itself once told to
    stop (a flag it reads each turn): the Redis client may swallow a cancellation that meets
    a call in flight, after which the loop would go on, and this wait with it, for ever."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task


class Relay:
    def __init__(
        self,
        link: Link,
        url: str,
        prefix: str,
        node: str,
        on_frame: Callable[[Frame], None],
        on_undelivered: Callable[[str, list[Frame]], None] = lambda node, frames: None,
    ) -> None:
        self.link = link
        self.url = url
        self.prefix = prefix
        self.node = node
        self.on_frame = on_frame
        #: Told of the frames to a process that did not reach it: Redis was down, or the process
        #: was not listening (a published message nobody is subscribed to is lost).
        self.on_undelivered = on_undelivered
        self._outgoing: asyncio.Queue[tuple[str, Frame]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        #: Frames sent and received, and batches published (for the stats).
        self.sent = 0
        self.received = 0
        self.batches = 0

    def channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def post(self, node: str, kind: str, session: str, payload: Any = None) -> None:
        """Send a frame to a process (this one included), after the frames posted before it."""
        self._outgoing.put_nowait((node, [kind, session, payload]))

    def start(self) -> None:
        self._tasks = [asyncio.ensure_future(self._send_forever()), asyncio.ensure_future(self._listen_forever())]

    async def close(self) -> None:
        self._closing = True
        await stop_loops(self._tasks)

    async def _send_forever(self) -> None:
        while not self._closing:
            node, frame = await self._outgoing.get()
            batches: dict[str, list[Frame]] = {node: [frame]}
            while not self._outgoing.empty():
                node, frame = self._outgoing.get_nowait()
                batches.setdefault(node, []).append(frame)

            async def publish(redis: Any, batches: dict[str, list[Frame]] = batches) -> list[Any]:
                pipeline = redis.pipeline(transaction=False)
                for target, frames in batches.items():
                    pipeline.publish(self.channel(target), json.dumps(frames, separators=(",", ":")))
                return list(await pipeline.execute())

            try:
                heard_by = await self.link.call(publish)
            except RedisDown:
                heard_by = [0] * len(batches)
            for (target, frames), listeners in zip(batches.items(), heard_by, strict=True):
                if listeners:
                    self.batches += 1
                    self.sent += len(frames)
                else:
                    self._undelivered(target, frames)

    def _undelivered(self, target: str, frames: list[Frame]) -> None:
        try:
            self.on_undelivered(target, frames)
        except Exception:
            log.exception("frames to %s that did not arrive could not be accounted for", target)

    async def _listen_forever(self) -> None:
        # Its own connection, without the calls' timeout: it waits for messages.
        client = redis_client(self.url, timeout=None)
        try:
            while not self._closing:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.subscribe(self.channel(self.node))
                    self.link.succeeded()
                    while not self._closing:
                        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=LISTEN_SECONDS)
                        if message is not None and message["type"] == "message":
                            self._deliver(message["data"])
                except self.link.errors as error:
                    self.link.failed(error)
                    await asyncio.sleep(RETRY_SECONDS)
                finally:
                    with contextlib.suppress(*self.link.errors):
                        await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8.2 on
        finally:
            with contextlib.suppress(*self.link.errors):
                await client.aclose()

    def _deliver(self, data: bytes) -> None:
        try:
            frames = json.loads(data)
        except ValueError:
            log.error("a frame from another process is not JSON")
            return
        for frame in frames:
            self.received += 1
            try:
                self.on_frame(frame)
            except Exception:
                log.exception("a %r frame failed", frame[0] if frame else None)
