"""Connections held by other processes, to rooms this process owns.

Another process (the origin) accepted the WebSocket and forwards the client's
messages here as frames (:mod:`.relay`): ``open`` makes the session a
:class:`~tilerummy.server.members.Member` of this hub whose outbox posts back to
the origin, ``text`` is a message the hub answers as if the client were here,
``close`` means the connection ended. Each session's messages are answered one
at a time, in order, as a connection's are. Views are computed here, by the
owner, per member: only a player's own view travels to the origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..members import Member
from .relay import Relay

if TYPE_CHECKING:
    from ..hub import Hub

log = logging.getLogger("tilerummy.server.cluster")


def origin_of(session: str) -> str:
    """The process that holds a session's connection (a session is ``NODE|NUMBER``)."""
    return session.rsplit("|", 1)[0]


class RelayedOutbox:
    """A member's outbox whose messages go back to the process holding the connection."""

    def __init__(self, relay: Relay, origin: str, session: str) -> None:
        self.relay = relay
        self.origin = origin
        self.session = session

    def send(self, text: str) -> None:
        self.relay.post(self.origin, "out", self.session, text)

    def close(self, code: int, reason: str) -> None:
        self.relay.post(self.origin, "shut", self.session, [code, reason])


@dataclass(eq=False)
class Guest:
    member: Member
    origin: str
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class Guests:
    def __init__(self, hub: Hub, relay: Relay) -> None:
        self.hub = hub
        self.relay = relay
        self.guests: dict[str, Guest] = {}
        #: Sessions whose messages did not all reach their origin (Redis was down, or the
        #: origin was not listening): told to attach again, which brings a new snapshot.
        self.lost: set[str] = set()

    def on_frame(self, kind: str, session: str, payload: Any) -> None:
        if kind == "open":
            self._open(session, payload)
        elif kind == "text":
            guest = self.guests.get(session)
            if guest is None:
                # This process never had the session (it restarted, or the open was lost): attach again.
                self.relay.post(origin_of(session), "unknown", session)
            else:
                guest.inbox.put_nowait(str(payload))
        elif kind == "close":
            self.end(session)

    def _open(self, session: str, details: dict[str, Any]) -> None:
        origin = origin_of(session)
        if session in self.guests:
            self.end(session)
        member = Member(
            outbox=RelayedOutbox(self.relay, origin, session),
            base_url=str(details.get("base_url", "")),
            address=str(details.get("address", "")),
        )
        guest = Guest(member, origin)
        guest.task = asyncio.ensure_future(self._serve(session, guest))
        self.guests[session] = guest
        self.relay.post(origin, "opened", session)

    def end(self, session: str) -> None:
        """The connection ended: its member leaves once its queued messages are answered."""
        guest = self.guests.pop(session, None)
        if guest is not None:
            guest.inbox.put_nowait(None)

    def end_from(self, origins: set[str]) -> None:
        """Those processes stopped: their connections are gone."""
        for session, guest in list(self.guests.items()):
            if guest.origin in origins:
                self.end(session)

    def undelivered(self, session: str) -> None:
        if session in self.guests:
            self.lost.add(session)

    def tell_lost(self) -> None:
        """Each session that missed messages attaches again (its origin hears ``unknown``, as for
        a session this process never had): the player gets the room's snapshot, and the
        requests not answered yet are sent again. A ``unknown`` that is lost too is sent again."""
        lost, self.lost = self.lost, set()
        for session in lost:
            if session in self.guests:
                self.relay.post(origin_of(session), "unknown", session)

    def origins(self) -> set[str]:
        return {guest.origin for guest in self.guests.values()}

    async def _serve(self, session: str, guest: Guest) -> None:
        member = guest.member
        while True:
            text = await guest.inbox.get()
            if text is None:
                break
            await self.hub.receive(member, text)
        try:
            await self.hub.leave(member, explicit=False, reply_to=None)
        except Exception:
            log.exception("session %s: leaving its room failed", session)

    async def close(self) -> None:
        tasks = [guest.task for guest in self.guests.values() if guest.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.guests.clear()
