"""One process of a cluster: its leases, its messages to and from the others, its takeovers.

:class:`ClusterNode` is the hub's placement (a new room's code is claimed in
Redis) and runs the cluster's loops:

- renewing this process's leases, and dropping a room another process holds now;
- beating its heartbeat (:mod:`.directory`), and ending the sessions of processes that stopped;
- looking for rooms nobody owns (active in the store, without a lease for a while)
  and taking them over: claimed, loaded from the store, clocks caught up;
- moving each visit to its room's present owner (:mod:`.router`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..gate import CLOSE_TRY_AGAIN_LATER
from ..members import refusal
from ..rooms import RoomError
from .directory import BEAT_SECONDS, Directory
from .guests import Guests
from .leases import RENEW_SECONDS, Leases
from .link import LEASE_SECONDS, Link, RedisDown, redis_client
from .quick import QuickList
from .relay import Frame, Relay, stop_loops
from .router import ClusterRouter

if TYPE_CHECKING:
    from ..hub import Hub

log = logging.getLogger("tilerummy.server.cluster")

#: Seconds between two looks for rooms nobody owns, and how long a room must have had
#: no lease before it is taken (a lease being put back after a Redis restart is not missing).
SCAN_SECONDS = 0.5
ORPHAN_SECONDS = 1.0
#: While every process is alive, the rooms are compared with the leases only this often
#: (each look reads every active room from the database); for a while after a process
#: stopped or Redis came back, at every scan.
QUIET_SCAN_SECONDS = 3.0
ALERT_SECONDS = LEASE_SECONDS + ORPHAN_SECONDS + 2 * SCAN_SECONDS
#: Seconds a process waits for another to describe one of its rooms.
ASK_SECONDS = 2.0
#: Seconds between two looks at where the visits' rooms are.
FOLLOW_SECONDS = 0.5
#: The prefix of every Redis key and channel of the cluster.
DEFAULT_PREFIX = "tilerummy"
_FOR_GUESTS = {"open", "text", "close"}
#: What a visit sends its owner, and what the owner's guests send back.
_FROM_VISITS = _FOR_GUESTS
_FROM_GUESTS = {"opened", "out", "shut", "unknown"}


class RoomUnanswered(Exception):
    """The process that owns a room did not describe it in time."""


def new_node_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class ClusterNode:
    def __init__(
        self, url: str, *, prefix: str = DEFAULT_PREFIX, node: str | None = None, direct_url: str | None = None
    ) -> None:
        self.url = url
        self.direct_url = direct_url
        self.prefix = prefix
        self.node = node or new_node_id()
        self.holder: str | None = self.node
        self.link = Link(redis_client(url))
        self.leases = Leases(self.link, prefix, self.node)
        self.relay = Relay(self.link, url, prefix, self.node, self._on_frame, self._on_undelivered)
        self.quick = QuickList(self.link, prefix)
        self._hub: Hub | None = None
        self._guests: Guests | None = None
        self._router: ClusterRouter | None = None
        self._directory: Directory | None = None
        self._loops: list[asyncio.Task[None]] = []
        self._missing_since: dict[str, float] = {}
        #: When the rooms were last compared with the leases, until when they are at every scan,
        #: and how many times Redis had come back by then.
        self._scanned_at = float("-inf")
        self._alert_until = float("-inf")
        self._recoveries = 0
        #: Rooms claimed and being loaded: set once each is served.
        self._adopting: dict[str, asyncio.Event] = {}
        #: Rooms taken over from stopped processes, and rooms given up to another process.
        self.adopted = 0
        self.lost = 0
        #: Descriptions of other processes' rooms asked for and not answered yet, by question.
        self._asked: dict[str, asyncio.Future[dict[str, Any] | None]] = {}
        self._closing = False

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the node has not started"
        return self._hub

    @property
    def router(self) -> ClusterRouter:
        assert self._router is not None, "the node has not started"
        return self._router

    @property
    def directory(self) -> Directory:
        assert self._directory is not None, "the node has not started"
        return self._directory

    @property
    def guests(self) -> Guests:
        assert self._guests is not None, "the node has not started"
        return self._guests

    # --- Placement: what the hub asks ------------------------------------------------

    async def claim(self, code: str) -> bool:
        try:
            return await self.leases.claim(code)
        except RedisDown:
            raise RoomError(
                "cluster_unavailable", "no room can be made while the servers cannot agree: try again"
            ) from None

    def released(self, code: str) -> None:
        self.hub.spawn(self._release(code))

    def moved(self, code: str) -> None:
        if code not in self.hub.rooms:
            return
        self.lost += 1
        log.warning("room %s: another server owns it now; its connections here reconnect there", code)
        for member in self.hub.drop(code):
            member.send(refusal("room_moved", "the room moved to another server: reconnect to take your seat back"))
            member.outbox.close(CLOSE_TRY_AGAIN_LATER, "room_moved")

    #: Quick-match rooms are given out by the cluster's waiting list (:mod:`.quick`).
    lists_quick_rooms = True

    def quick_room_to_make(self, token: str) -> tuple[str, float | None] | None:
        return self.quick.to_make.get(token)

    def quick_done(self, code: str) -> None:
        self.hub.spawn(self._quick_done(code))

    async def _quick_done(self, code: str) -> None:
        with contextlib.suppress(RedisDown):
            await self.quick.done(code)

    async def _release(self, code: str) -> None:
        with contextlib.suppress(RedisDown):
            await self.leases.release([code])

    # --- Rooms owned elsewhere ------------------------------------------------------------

    async def room_state(self, code: str) -> dict[str, Any] | None:
        """A room's state as its owner sees it now, wherever it is served; None when no
        process serves it (no such room, or it is over).

        :raises RoomUnanswered: the owner did not answer in time.
        :raises RedisDown: Redis could not be asked who owns it.
        """
        await self.settled(code)
        hub = self.hub
        if (room := hub.rooms.get(code)) is not None:
            return room.state(hub.clock()).model_dump()
        owner = (await self.leases.owners([code]))[code]
        if owner is None or owner == self.node:
            return None
        question = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._asked[question] = answer
        self.relay.post(owner, "describe", question, [self.node, code])
        try:
            return await asyncio.wait_for(answer, ASK_SECONDS)
        except TimeoutError:
            raise RoomUnanswered(code) from None
        finally:
            self._asked.pop(question, None)

    def _describe(self, question: str, asker: str, code: str) -> None:
        hub = self.hub
        room = hub.rooms.get(code)
        self.relay.post(asker, "described", question, None if room is None else room.state(hub.clock()).model_dump())

    # --- Life cycle ---------------------------------------------------------------------

    async def start(self, hub: Hub) -> None:
        """Join the cluster with this hub (made with this node as its placement)."""
        self._hub = hub
        seating = hub.seating
        self._directory = Directory(
            self.link,
            self.prefix,
            self.node,
            hub.lobby,
            # Rooms of people only: quick-match rooms are given out by the waiting list (.quick).
            lambda: [room.code for room in seating.open_to_quick_match(quick_rooms=False)],
            direct_url=self.direct_url,
        )
        self._guests = Guests(hub, self.relay)
        self._router = ClusterRouter(self.node, hub, self.relay, self.leases, self._directory, self.quick)
        await hub.start(load_rooms=False)
        self.relay.start()
        with contextlib.suppress(RedisDown):
            await self.directory.beat()
        self._loops = [
            asyncio.ensure_future(self._every(RENEW_SECONDS, self._renew)),
            asyncio.ensure_future(self._every(BEAT_SECONDS, self._beat)),
            asyncio.ensure_future(self._every(SCAN_SECONDS, self._take_over)),
            asyncio.ensure_future(self._every(FOLLOW_SECONDS, self.router.follow_rooms)),
        ]

    async def close(self) -> None:
        """Leave the cluster: the rooms' leases are given up, so the others take them at once."""
        self._closing = True
        await stop_loops(self._loops)
        if self._router is not None:
            self.router.closing()
        await asyncio.sleep(0)
        await self.guests.close()
        # What the closing posted leaves before the relay stops.
        with contextlib.suppress(RedisDown):
            await self.link.call(lambda redis: redis.ping())
        await self.relay.close()
        with contextlib.suppress(RedisDown):
            await self.leases.release(list(self.hub.rooms))
            await self.directory.leave()
        await self.link.redis.aclose()

    async def _every(self, seconds: float, work: Callable[[], Awaitable[None]]) -> None:
        # Not `while True`: a cancellation that meets a call to Redis in flight may be swallowed
        # by the Redis client (the call returns as if nothing happened), and the loop would go on.
        while not self._closing:
            await asyncio.sleep(seconds)
            if self._closing:
                return
            try:
                await work()
            except RedisDown:
                pass
            except Exception:
                log.exception("the cluster's %s failed", getattr(work, "__name__", "work"))

    # --- The loops ----------------------------------------------------------------------

    async def _renew(self) -> None:
        for code in await self.leases.renew(sorted(self.hub.rooms)):
            self.moved(code)

    def direct_urls(self) -> list[str]:
        """Where clients may reach each process by itself (the page's policy lets it connect there)."""
        return self.directory.direct_urls() if self._directory is not None else []

    async def _beat(self) -> None:
        await self.directory.beat()
        # Redis answers: the sessions that missed messages meanwhile attach again.
        self.guests.tell_lost()
        dead = await self.directory.dead(self.guests.origins())
        if dead:
            log.warning("servers stopped: %s; their connections leave their rooms", ", ".join(sorted(dead)))
            self.guests.end_from(dead)

    async def _take_over(self) -> None:
        if not self.link.steady():
            self._missing_since.clear()
            return
        now = self.link.clock()
        # Also keeps the others' addresses fresh for the pages' policy (:meth:`direct_urls`).
        await self.directory.others()
        stopped = self.directory.stop_seen_at
        if self.link.recoveries != self._recoveries or (stopped is not None and stopped > self._scanned_at):
            self._recoveries = self.link.recoveries
            self._alert_until = now + ALERT_SECONDS
        alert = now < self._alert_until or bool(self._missing_since)
        if not alert and now - self._scanned_at < QUIET_SCAN_SECONDS:
            return
        self._scanned_at = now
        hub = self.hub
        codes = [code for code in await hub.read(hub.store.active_codes) if code not in hub.rooms]
        owners = await self.leases.owners(codes)
        now = self.link.clock()
        missing = {code for code, owner in owners.items() if owner is None}
        self._missing_since = {code: self._missing_since.get(code, now) for code in missing}
        for code, since in list(self._missing_since.items()):
            if now - since < ORPHAN_SECONDS:
                continue
            # Joins of the room wait from the claim until the game is replayed (:meth:`settled`).
            self._adopting[code] = asyncio.Event()
            try:
                if await self.leases.claim(code):
                    del self._missing_since[code]
                    await self._adopt(code)
            finally:
                self._adopting.pop(code).set()

    async def settled(self, code: str) -> None:
        adopting = self._adopting.get(code) or self.quick.making.get(code)
        if adopting is not None:
            await adopting.wait()

    async def _adopt(self, code: str) -> None:
        hub = self.hub
        # Before reading: the stopped (or cut off) owner's writes end here, so none can follow what is read.
        await hub.read(lambda: hub.store.hold(code, self.node))
        data = await hub.read(lambda: hub.store.room(code))
        if data is None or data.get("status") == "closed" or code in hub.rooms:
            await self.leases.release([code])
            return
        # A quick-match room still waiting: its rating, for the computers that may fill it, read
        # before the room is served, so that no match or sweep meets the room without it.
        rating = await self.quick.rating(code)
        await hub.adopt(data)
        hub.runtime[code].quick_rating = rating
        self.adopted += 1
        log.warning("room %s: taken over from a server that stopped", code)

    def _on_undelivered(self, target: str, frames: list[Frame]) -> None:
        """Frames that did not reach ``target``: the visits' and the guests' sides each make
        their sessions attach again once Redis answers."""
        for kind, session, _ in frames:
            if kind in _FROM_GUESTS:
                self.guests.undelivered(session)
            elif kind in _FROM_VISITS and self._router is not None:
                self.router.undelivered(target, kind, session)

    def _on_frame(self, frame: Frame) -> None:
        kind, session, payload = frame
        if kind == "describe":
            asker, code = payload
            self._describe(session, str(asker), str(code))
        elif kind == "described":
            answer = self._asked.get(session)
            if answer is not None and not answer.done():
                answer.set_result(payload)
        elif kind in _FOR_GUESTS:
            self.guests.on_frame(kind, session, payload)
        else:
            self.router.on_frame(kind, session, payload)

    def stats(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "visits": len(self.router.visits),
            "guests": len(self.guests.guests),
            "frames_sent": self.relay.sent,
            "frames_received": self.relay.received,
            "frames_undelivered": self.relay.undelivered,
            "adopted": self.adopted,
            "lost": self.lost,
            "redis_up": self.link.up_since is not None,
        }
