"""Where a connection's messages go in a cluster: this process's hub, or the process
that owns the connection's room.

A message that picks a room (``create_room``, ``join_room``, ``quick_match``)
decides: a new room is made here; a room this process owns is joined here; a
room another process owns (its lease, :mod:`.leases`) makes the connection a
*visit* there, and every later message goes to that process until another room
is picked. A room whose owner has stopped and not yet been replaced keeps the
visit waiting for the next owner.

A visit knows its room's code and its seat's token from the ``joined`` answer
it passes on, so when the room moves (its owner stopped and another process
took it over) the visit attaches again to the new owner by itself: a hello and
a join with the token, whose answers are not passed on, then the new owner's
snapshot is. The client keeps playing on the same connection. Its requests
not yet answered are sent again after the join: the owner they went to may have
stopped before answering (a request that was applied is refused the second
time, as an action out of turn is).

When the owner has an address of its own (``--direct-port``, ``--direct-url``),
a seated player's visit tells the client, after the snapshot (``room_server``):
a client that reconnects there and takes its seat back is no longer relayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...ratings import Rating
from ..gate import CLOSE_TRY_AGAIN_LATER
from ..members import Member, refusal
from ..protocol import PROTOCOL_VERSION, RequestId, RoomServer
from ..rooms import RoomError
from ..seating import QUICK_BOTS_SECONDS, QUICK_RANGE, QUICK_WIDENING
from .leases import Leases
from .link import RedisDown
from .quick import QuickList
from .relay import Relay

if TYPE_CHECKING:
    from ..hub import Hub
    from .directory import Directory

log = logging.getLogger("tilerummy.server.cluster")

#: The ids of the messages a visit sends on its client's behalf: their answers are not passed on.
OWN_ID = "relay:"
_OWN_ANSWER = f'"reply_to":"{OWN_ID}'
#: How every answer begins: the id of the request it answers comes first.
_REPLY = '{"reply_to":'
#: Seconds the owner has to answer a visit's opening before the owner is looked up again.
ATTACH_SECONDS = 2.0
#: Seconds a visit waits for its room to have a live owner before the connection is closed.
GIVE_UP_SECONDS = 30.0
_CHOOSING = {"create_room", "join_room", "quick_match"}
#: The most unanswered requests a visit keeps (a client waits for its answers; more is abuse).
MOST_UNANSWERED = 64
#: How often a close that did not arrive is sent again (its owner may have stopped for good).
MOST_CLOSE_TRIES = 20


@dataclass(eq=False)
class Visit:
    member: Member
    #: The owner attached to ("" while the room has no owner).
    node: str
    code: str | None
    #: The message that puts the client in its room at an owner: first the client's own,
    #: then (once ``joined`` came back) a join with the seat's token.
    join_text: str | None
    session: str = ""
    opened: bool = False
    #: When the last opening was sent, and since when the visit has had no owner answering.
    sent_at: float = 0.0
    waiting_since: float = 0.0
    #: The client's requests not answered yet, by id: sent again to the next owner, after the join,
    #: since the owner they went to may have stopped before answering.
    unanswered: dict[str, str] = field(default_factory=dict)
    #: Where the client may reach the owner by itself, and the owner the client was last told of.
    direct_url: str | None = None
    told: str = ""
    #: The ids of the last requests answered (as JSON): a request sent to two owners, or twice to
    #: one, is answered once; a second answer is not passed on.
    answered: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_UNANSWERED))


class ClusterRouter:
    def __init__(
        self, node: str, hub: Hub, relay: Relay, leases: Leases, directory: Directory, quick: QuickList
    ) -> None:
        self.node = node
        self.quick = quick
        self.hub = hub
        self.relay = relay
        self.leases = leases
        self.directory = directory
        self.visits: dict[Member, Visit] = {}
        self._by_session: dict[str, Visit] = {}
        self._sessions = 0
        self._recoveries = relay.link.recoveries
        #: Closes that did not reach the owner, to send again: the owner and how often tried.
        self._lost_closes: dict[str, tuple[str, int]] = {}
        self._closes_sent: dict[str, tuple[str, int]] = {}

    # --- What connections call --------------------------------------------------

    async def receive(self, member: Member, text: str) -> None:
        kind, body = _peek(text)
        visit = self.visits.get(member)
        if kind in _CHOOSING and member.name is not None:
            if kind == "quick_match":
                try:
                    body, target = await self._quick_match(member, body, visit)
                except RedisDown:
                    detail = "no room can be found while the servers cannot agree: try again"
                    member.send(refusal("cluster_unavailable", detail, _id(body)))
                    return
                except RoomError as error:
                    member.send(refusal(error.reason, error.detail, _id(body)))
                    return
                kind, text = str(body["type"]), json.dumps(body)
                if target is None:
                    if visit is not None:
                        self._detach(visit)
                    await self._here(member, text, body)
                    return
            else:
                target = await self._target(member, kind, body)
            if target is None:
                if visit is not None:
                    self._detach(visit)
                await self.hub.receive(member, text)
                return
            node, code = target
            if kind == "quick_match" or (
                kind == "join_room" and body.get("role", "player") == "player" and not body.get("token")
            ):
                # A join this visit may send again (to the next owner, or after a lost answer) must
                # not take a second seat: the seat it takes gets a token chosen here.
                body = {**body, "new_token": body.get("new_token") or secrets.token_urlsafe(24)}
                text = json.dumps(body)
            if visit is not None and visit.node == node and node:
                self._forward(visit, text, body)
                return
            if visit is not None:
                self._detach(visit)
            if member.room is not None:
                # Told, not silent: a connection is in one room at a time.
                await self.hub.leave(member, explicit=True, reply_to=None)
            visit = Visit(member, node, code, text, waiting_since=self.hub.clock())
            self.visits[member] = visit
            if node:
                visit.direct_url = await self.directory.direct_url(node)
                self._open(visit, node)
            return
        if visit is not None and kind not in ("hello", "ping"):
            self._forward(visit, text, body)
            return
        await self.hub.receive(member, text)

    async def leave(self, member: Member, *, explicit: bool, reply_to: RequestId | None, quiet: bool = False) -> None:
        visit = self.visits.get(member)
        if visit is not None:
            self._detach(visit)
            if explicit and not quiet:
                member.send(refusal("not_in_room", "you are in no room", reply_to))
            return
        await self.hub.leave(member, explicit=explicit, reply_to=reply_to, quiet=quiet)

    # --- Choosing where a room is -------------------------------------------------

    async def _quick_match(
        self, member: Member, body: dict[str, Any], visit: Visit | None
    ) -> tuple[dict[str, Any], tuple[str, str | None] | None]:
        """Where a quick match goes, and as what: to a public room of people as before (here,
        then another process's); else by the cluster's waiting list (:mod:`.quick`), as a join
        of the room it gives, or as the quick match that makes the new room here.

        :raises RedisDown: Redis could not be asked.
        """
        token = body.get("new_token")
        if not isinstance(token, str):
            # A quick match this visit may send again must not take a second seat (as a join).
            token = secrets.token_urlsafe(24)
        body = {**body, "new_token": token}
        seating = self.hub.seating
        code = await self.quick.placed(token)
        if code is not None:
            if code not in self.hub.rooms and code in self.quick.making:
                # Sent again while its room is being made here: made by the first.
                await self.quick.making[code].wait()
            join = self._join(body, code, token)
            target = await self._target(member, "join_room", join)
            if target is not None or code in self.hub.rooms:
                return join, target
            # The room it was given is over: this one is a new quick match.
            await self.quick.forget(token, code)
        if any(room is not member.room for room in seating.open_to_quick_match(quick_rooms=False)):
            return body, None
        found = await self.directory.quick_room()
        if found is not None:
            return body, (found[0], None)
        rating = await self.hub.rating_of(member)
        new = await seating.new_code()
        # Before the list has it: a join from another process waits until the room is made.
        self.quick.making[new] = asyncio.Event()
        try:
            how, code = await self.quick.match(
                token,
                Rating().mu if rating is None else rating,
                new,
                within=QUICK_RANGE,
                widening=QUICK_WIDENING,
                most_wait=QUICK_BOTS_SECONDS,
                # The room the player is in (here, or visited) is not given to it again.
                own=member.room.code if member.room is not None else visit.code if visit is not None else None,
            )
        except RedisDown:
            self._made(new)
            self.hub.placement.released(new)
            raise
        if how == "make":
            self.quick.to_make[token] = (new, rating)
            return body, None
        self._made(new)
        self.hub.placement.released(new)
        join = self._join(body, code, token)
        return join, await self._target(member, "join_room", join)

    @staticmethod
    def _join(body: dict[str, Any], code: str, token: str) -> dict[str, Any]:
        """The join a quick match given a room becomes (its id, so the join answers it)."""
        join: dict[str, Any] = {"type": "join_room", "code": code, "new_token": token}
        if "id" in body:
            join["id"] = body["id"]
        return join

    async def _here(self, member: Member, text: str, body: dict[str, Any]) -> None:
        """A choosing message answered by this process's hub; a quick match that was to make its
        room here and did not (refused, or a write failed) takes it off the cluster's list."""
        token = body.get("new_token")
        planned = self.quick.to_make.get(token) if body["type"] == "quick_match" and isinstance(token, str) else None
        try:
            await self.hub.receive(member, text)
        finally:
            if planned is not None and isinstance(token, str):
                self.quick.to_make.pop(token, None)
                code = planned[0]
                self._made(code)
                if code not in self.hub.rooms:
                    self.hub.placement.released(code)
                    with contextlib.suppress(RedisDown):
                        await self.quick.forget(token, code)

    def _made(self, code: str) -> None:
        made = self.quick.making.pop(code, None)
        if made is not None:
            made.set()

    async def _target(self, member: Member, kind: str, body: dict[str, Any]) -> tuple[str, str | None] | None:
        """Where the message goes: None for this hub, else (owner, code), owner "" while nobody owns the room."""
        if kind == "create_room":
            return None
        code = body.get("code")
        if not isinstance(code, str):
            return None
        code = code.strip().upper()
        if code in self.hub.rooms:
            return None
        try:
            owner = (await self.leases.owners([code]))[code]
        except RedisDown:
            owner = None
        if owner is not None:
            return None if owner == self.node else (owner, code)
        stored = await self.hub.read(lambda: self.hub.store.room(code))
        if stored is None or stored.get("status") == "closed":
            return None
        # A room of a process that stopped, not yet taken over: wait for its next owner.
        return "", code

    # --- Visits -------------------------------------------------------------------

    def _open(self, visit: Visit, node: str) -> None:
        self._sessions += 1
        visit.session = f"{self.node}|{self._sessions}"
        visit.node = node
        visit.opened = False
        visit.sent_at = self.hub.clock()
        self._by_session[visit.session] = visit
        member = visit.member
        self.relay.post(node, "open", visit.session, {"address": member.address, "base_url": member.base_url})
        hello = {"type": "hello", "id": f"{OWN_ID}hello", "protocol": PROTOCOL_VERSION, "name": member.name}
        if member.key is not None:
            hello["key"] = member.key
        self.relay.post(node, "text", visit.session, json.dumps(hello))
        if visit.join_text is not None:
            self.relay.post(node, "text", visit.session, visit.join_text)
        for waiting in visit.unanswered.values():
            self.relay.post(node, "text", visit.session, waiting)

    def _forward(self, visit: Visit, text: str, body: dict[str, Any]) -> None:
        request_id = _id(body)
        if request_id is not None:
            key = json.dumps(request_id)
            # The client sent it again itself (not knowing whether the first arrived): it is
            # owed an answer again, which is the owner's to give (its first, once more).
            if key in visit.answered:
                visit.answered.remove(key)
            visit.unanswered[key] = text
            if len(visit.unanswered) > MOST_UNANSWERED:
                del visit.unanswered[next(iter(visit.unanswered))]
        # While the room has no owner, the request waits with the unanswered ones for the next.
        if visit.node:
            self.relay.post(visit.node, "text", visit.session, text)

    def _detach(self, visit: Visit) -> None:
        self.visits.pop(visit.member, None)
        self._by_session.pop(visit.session, None)
        if visit.node:
            self.relay.post(visit.node, "close", visit.session)

    def undelivered(self, node: str, kind: str, session: str) -> None:
        """A frame of a visit did not reach its owner (Redis was down, or the owner was not
        listening): its requests stay unanswered and the visit attaches again at the next look
        (a new opening, the join with the seat's token, then every request not yet answered),
        so each request is answered once and the client gets a snapshot of the room as it is."""
        if kind == "close":
            # The owner would keep a member whose connection is gone: told again at the next look.
            tries = self._closes_sent.pop(session, (node, 0))[1]
            if tries < MOST_CLOSE_TRIES:
                self._lost_closes[session] = (node, tries + 1)
            return
        visit = self._by_session.get(session)
        if visit is not None:
            visit.opened, visit.sent_at = False, float("-inf")

    def on_frame(self, kind: str, session: str, payload: Any) -> None:
        visit = self._by_session.get(session)
        if visit is None:
            return
        if kind == "opened":
            visit.opened = True
        elif kind == "out":
            self._pass_on(visit, str(payload))
        elif kind == "shut":
            code, reason = payload
            self._detach(visit)
            visit.member.outbox.close(int(code), str(reason))
        elif kind == "unknown":
            # The owner lost the session: attach again at the next look.
            visit.opened, visit.sent_at = False, float("-inf")

    def _pass_on(self, visit: Visit, text: str) -> None:
        if _OWN_ANSWER in text:
            return
        if text.startswith(_REPLY):
            answers = text[len(_REPLY) : text.find(",", len(_REPLY))]
            if answers != "null":
                if answers in visit.answered:
                    return
                visit.answered.append(answers)
                visit.unanswered.pop(answers, None)
        # A reply names its request first: the type follows within the first few dozen characters.
        head = text[:48]
        if '"type":"joined"' in head:
            joined = json.loads(text)
            visit.code = joined["code"]
            join: dict[str, Any] = {"type": "join_room", "id": f"{OWN_ID}join", "code": joined["code"]}
            if joined.get("token"):
                join["token"] = joined["token"]
            elif joined["role"] == "spectator":
                join["role"] = "spectator"
            else:
                # A seat taken in an earlier join of this visit: keep its token.
                previous = json.loads(visit.join_text) if visit.join_text is not None else {}
                if previous.get("code") == joined["code"] and previous.get("token"):
                    join["token"] = previous["token"]
            visit.join_text = json.dumps(join)
        elif '"type":"left"' in head:
            visit.code, visit.join_text = None, None
        visit.member.outbox.send(text)
        if '"type":"snapshot"' in head and visit.direct_url and visit.code and visit.told != visit.node:
            visit.told = visit.node
            if visit.join_text is None or '"token"' not in visit.join_text:
                # A spectator has no token to take its place back with: it stays relayed.
                return
            # In the room now, with the seat's token: the player may go to the owner itself.
            visit.member.outbox.send(RoomServer(code=visit.code, url=visit.direct_url).model_dump_json())

    async def follow_rooms(self) -> None:
        """Attach each visit to its room's present owner: after a takeover, after a lost
        opening, after Redis came back (frames may have been lost meanwhile)."""
        recoveries = self.relay.link.recoveries
        codes = sorted({visit.code for visit in self.visits.values() if visit.code is not None})
        owners = await self.leases.owners(codes)
        # Sent again: forgotten unless it does not arrive again (then undelivered() counts a try).
        self._closes_sent, self._lost_closes = self._lost_closes, {}
        for session, (node, _) in self._closes_sent.items():
            self.relay.post(node, "close", session)
        # Counted as seen only once Redis answered: a look that fails sees the recovery next time.
        recovered, self._recoveries = recoveries != self._recoveries, recoveries
        now = self.hub.clock()
        for visit in list(self.visits.values()):
            owner = owners.get(visit.code) if visit.code is not None else visit.node
            stale = not visit.opened and now - visit.sent_at >= ATTACH_SECONDS
            if owner and (owner != visit.node or stale or recovered):
                if visit.node:
                    self.relay.post(visit.node, "close", visit.session)
                self._by_session.pop(visit.session, None)
                if owner != visit.node:
                    visit.direct_url = await self.directory.direct_url(owner)
                self._open(visit, owner)
            if visit.opened or (owner and not stale):
                visit.waiting_since = now
            elif now - visit.waiting_since >= GIVE_UP_SECONDS:
                self._detach(visit)
                detail = "the server that has the room cannot be reached: reconnect later"
                visit.member.send(refusal("room_unavailable", detail))
                visit.member.outbox.close(CLOSE_TRY_AGAIN_LATER, "room_unavailable")

    def closing(self) -> None:
        """This process stops: the owners hear that its connections are gone."""
        for visit in list(self.visits.values()):
            self._detach(visit)


def _peek(text: str) -> tuple[str | None, dict[str, Any]]:
    """A message's type and body, as far as routing needs them (the hub reads it in full)."""
    try:
        body = json.loads(text)
    except ValueError:
        return None, {}
    if not isinstance(body, dict):
        return None, {}
    kind = body.get("type")
    return (kind if isinstance(kind, str) else None), body


def _id(body: dict[str, Any]) -> RequestId | None:
    value = body.get("id")
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None
