"""Coming and going: rooms created, joined (by code, token or quick match) and left; games
started; the lobby's list of public rooms; rooms closed once nobody has been in them for long.

The host's rights pass, when the host is not in the room, to the person present who has sat
in it longest; a connection is in one room at a time, and a seat has one connection.
"""

from __future__ import annotations

from typing import Protocol

from ..bots import LEVELS
from ..fairness import new_salt, new_seed
from ..ratings import BOT_RATINGS
from .clock import Clock
from .gate import CLOSE_REPLACED, limited_per_address
from .limits import ServerLimits, TokenBucket
from .members import Member, RoomRuntime, joined, refusal
from .placement import Placement
from .protocol import (
    CreateRoom,
    GameEventInfo,
    JoinRoom,
    LeaveRoom,
    Left,
    QuickMatch,
    Rematch,
    RequestId,
    RoomOptions,
    SeatSpec,
    StartGame,
)
from .rated_games import start_work
from .room_core import (
    Began,
    Begin,
    Close,
    Enter,
    Entered,
    HostPassed,
    Leave,
    PassHost,
    Refused,
    SeatBots,
    Seated,
    SeatLeft,
    TakeSeat,
    apply,
    at_once,
    decide,
    next_seq,
    only,
)
from .rooms import Room, RoomError, Seat, new_room_code, new_token
from .store import Change, NewGame, StoreError
from .turns import Broadcast, Turns

#: Quick match seats players whose ratings are this close, then this much further for every
#: second the room has waited, and after ``QUICK_BOTS_SECONDS`` computers take the free seats.
QUICK_RANGE = 150.0
QUICK_WIDENING = 15.0
QUICK_BOTS_SECONDS = 20.0
#: The computer levels quick match seats: the one whose published rating is nearest the room's.
QUICK_BOT_LEVELS = LEVELS
#: Open rooms nobody is in, and finished rooms, leave memory after this long idle.
IDLE_ROOM_SECONDS = 3600.0


class Hall(Protocol):
    """What seating needs: the rooms and their runtimes, the time and limits, where rooms
    are placed, the store's writes, what a room is told, the turns of a game begun, and a
    member's rating (quick match seats players near each other's)."""

    rooms: dict[str, Room]
    runtime: dict[str, RoomRuntime]
    clock: Clock
    limits: ServerLimits
    placement: Placement
    tell: Broadcast
    turns: Turns

    async def write(self, change: Change, *, room: str) -> None: ...

    def members(self, room: Room) -> set[Member]: ...

    async def rating_of(self, member: Member) -> float | None:
        """The member's rating (its profile's, or a new player's for a guest), or None if unknown."""
        ...


class Seating:
    def __init__(self, hub: Hall) -> None:
        self.hub = hub

    def active_rooms(self) -> int:
        return sum(1 for room in self.hub.rooms.values() if room.status != "finished")

    def rooms_from(self, address: str) -> int:
        """Rooms open or playing that connections from this address created."""
        hub = self.hub
        return sum(
            1
            for code, runtime in hub.runtime.items()
            if runtime.creator_address == address and hub.rooms[code].status != "finished"
        )

    async def on_create(
        self, member: Member, message: CreateRoom, *, chosen: str | None = None, code: str | None = None
    ) -> None:
        """A new room, its creator the host (``chosen``: the host's token, and ``code``, claimed
        already, the room's code, from a quick match)."""
        assert member.name is not None
        hub = self.hub
        if self.active_rooms() >= hub.limits.max_rooms:
            raise RoomError("too_many_rooms", "the server has as many rooms as it can hold: try again later")
        if limited_per_address(member.address) and self.rooms_from(member.address) >= hub.limits.max_rooms_per_address:
            detail = f"at most {hub.limits.max_rooms_per_address} rooms open or playing from one address"
            raise RoomError("too_many_rooms", detail)
        now = hub.clock()
        token = chosen or new_token()
        room = Room.create(code or await self.new_code(), message, token, member.name, now)
        # Told, not silent: a connection is in one room at a time.
        await self.leave(member, explicit=True, reply_to=None, quiet=member.room is None)
        seat = None
        if room.free_seat() is not None:
            # The new room is stored whole below, its first seat taken.
            seated = only(decide(room, TakeSeat(member.name, token, now, member.profile_id)))
            assert isinstance(seated, Seated)
            apply(room, seated)
            seat = room.seats[seated.taking.index]
        hub.rooms[room.code] = room
        hub.runtime[room.code] = RoomRuntime(creator_address=member.address)
        try:
            await self.save_room(room)
        except StoreError:
            del hub.rooms[room.code], hub.runtime[room.code]
            hub.placement.released(room.code)
            raise
        async with room.lock:
            self._enter(member, room, seat, host=True)
            member.send(joined(member, room, seat, token=token, host=True, reply_to=message.id))
            hub.tell.snapshot(member, room, None)
            await self._maybe_auto_start(room)

    async def new_code(self) -> str:
        """A code no room of this process has, claimed for this process (in a cluster,
        another process may hold a code this one has never seen)."""
        while True:
            code = new_room_code(self.hub.rooms)
            if await self.hub.placement.claim(code):
                return code

    async def on_join(self, member: Member, message: JoinRoom) -> None:
        await self.join(member, message.code, message.role, message.token, message.id, chosen=message.new_token)

    async def join(
        self,
        member: Member,
        code: str,
        role: str,
        token: str | None,
        reply_to: RequestId | None,
        *,
        chosen: str | None = None,
    ) -> None:
        """Seat or show the member in a room; ``chosen``: the token the seat taken is to have
        (a join sent again with it finds the seat it took)."""
        assert member.name is not None
        code = code.strip().upper()
        # A room this process is taking over from a stopped one is there once its game is replayed.
        await self.hub.placement.settled(code)
        room = self.hub.rooms.get(code)
        if room is None:
            raise RoomError("no_such_room", f"no room has the code {code!r}")
        given = token
        if self._again(room, token, role, chosen):
            token = chosen
        if member.room is room:
            raise RoomError("already_in_room", "you are already in this room")
        if member.room is not None:
            # A join that will be refused leaves the member where they are.
            if token is not None:
                if room.seat_for_token(token) is None and not room.is_host_token(token):
                    raise RoomError("bad_token", "this token holds no seat in this room")
            elif role == "player":
                room.check_seat_free()
            # Told, not silent: a connection is in one room at a time.
            await self.leave(member, explicit=True, reply_to=None)
        async with room.lock:
            # Looked at again under the lock: the join sent again may have been waiting for it.
            again = self._again(room, given, role, chosen)
            token = chosen if again else given
            seat: Seat | None = None
            host = False
            given_token = token
            if token is not None:
                seat = room.seat_for_token(token)
                host = room.is_host_token(token)
                if seat is None and not host:
                    raise RoomError("bad_token", "this token holds no seat in this room")
                given_token = chosen if again else None
                if seat is not None:
                    self._replace(room, seat)
            elif role == "player":
                given_token = chosen or new_token()
                # Stored first, then seated: a write that fails leaves the seat free.
                [seated] = await self.hub.turns.run(
                    room, TakeSeat(member.name, given_token, self.hub.clock(), member.profile_id)
                )
                assert isinstance(seated, Seated)
                seat = room.seats[seated.taking.index]
            self._enter(member, room, seat, host=host)
            if room.status != "playing":
                await self.pass_host_if_gone(room)
            member.send(joined(member, room, seat, token=given_token, host=member.host, reply_to=reply_to))
            # The others hear of the newcomer first, so the snapshot holds the newest number.
            self.hub.tell.room(room, but=member)
            self.hub.tell.snapshot(member, room, None)
            await self._maybe_auto_start(room)

    @staticmethod
    def _again(room: Room, token: str | None, role: str, chosen: str | None) -> bool:
        """Whether a join is one sent again (to two processes, or after its answer was lost):
        the token it chose holds a seat already, which is the one it takes."""
        return token is None and role == "player" and chosen is not None and room.seat_for_token(chosen) is not None

    def open_to_quick_match(self, rating: float | None = None, *, quick_rooms: bool = True) -> list[Room]:
        """The rooms quick match sends newcomers to, oldest first: public, open, with a free seat,
        and someone in them (a room nobody is in may never start); with a ``rating``, only rooms
        whose own is within :data:`QUICK_RANGE`, widened by :data:`QUICK_WIDENING` a second waited;
        without ``quick_rooms``, only rooms of people (not those quick match made)."""
        now = self.hub.clock()
        rooms = [
            room
            for room in self.hub.rooms.values()
            if room.options.public
            and room.status == "open"
            and room.free_seat() is not None
            and self.hub.members(room)
            and (quick_rooms or not self.made_by_quick_match(room))
            and self._near(room, rating, now)
        ]
        return sorted(rooms, key=lambda room: room.created_at)

    def made_by_quick_match(self, room: Room) -> bool:
        """A room quick match made (by its rating, or, in a room taken over from a process that
        stopped, by its options), not one of people."""
        options = room.options
        quick = options.auto_start and options.rated and options.bots_after == QUICK_BOTS_SECONDS
        return quick or self.hub.runtime[room.code].quick_rating is not None

    def _near(self, room: Room, rating: float | None, now: float) -> bool:
        theirs = self.hub.runtime[room.code].quick_rating
        if rating is None or theirs is None:
            return True
        return abs(theirs - rating) <= QUICK_RANGE + QUICK_WIDENING * max(0.0, now - room.created_at)

    async def on_quick_match(self, member: Member, message: QuickMatch) -> None:
        """A seat in the oldest public room that has one, or a new room for two that starts once full.

        In a cluster, quick-match rooms are given out by the processes' shared waiting list
        (:mod:`.cluster.quick`), which sends a quick match here only to make its new room, with
        the code and rating it chose, or to a room of people."""
        chosen = message.new_token
        placement = self.hub.placement
        planned = placement.quick_room_to_make(chosen) if chosen is not None else None
        if planned is not None:
            code, rating = planned
            await self._make_quick_room(member, message, chosen, rating, code)
            return
        if chosen is not None:
            # Sent again: the seat the first one found, wherever it is.
            for room in list(self.hub.rooms.values()):
                if room.seat_for_token(chosen) is not None:
                    await self.join(member, room.code, "player", None, message.id, chosen=chosen)
                    return
        rating = await self.hub.rating_of(member)
        for room in self.open_to_quick_match(rating, quick_rooms=not placement.lists_quick_rooms):
            if member.room is not room:
                await self.join(member, room.code, "player", None, message.id, chosen=chosen)
                return
        await self._make_quick_room(member, message, chosen, rating, None)

    async def _make_quick_room(
        self, member: Member, message: QuickMatch, chosen: str | None, rating: float | None, code: str | None
    ) -> None:
        """A new room for two people, rated, that starts once full (computers fill it after a wait)."""
        request = CreateRoom(
            type="create_room",
            id=message.id,
            seats=[SeatSpec(kind="person"), SeatSpec(kind="person")],
            options=RoomOptions(auto_start=True, rated=True, bots_after=QUICK_BOTS_SECONDS),
        )
        await self.on_create(member, request, chosen=chosen, code=code)
        if member.room is not None and member.room.options.bots_after is not None:
            self.hub.runtime[member.room.code].quick_rating = rating

    async def on_leave(self, member: Member, message: LeaveRoom) -> None:
        await self.leave(member, explicit=True, reply_to=message.id)

    def _replace(self, room: Room, seat: Seat) -> None:
        """A seat has one connection: one that held it before is told, and closed."""
        runtime = self.hub.runtime[room.code]
        for other in [other for other in runtime.members if other.seat == seat.index]:
            runtime.members.discard(other)
            # Gone at once: the newcomer is in the seat.
            at_once(room, Leave(seat.index, explicit=False, at=self.hub.clock(), keep=True))
            other.room, other.seat, other.host = None, None, False
            other.send(refusal("replaced", "your seat was taken by another connection with its token"))
            other.outbox.close(CLOSE_REPLACED, "replaced")

    async def pass_host_if_gone(self, room: Room) -> bool:
        """When the host is not in the room, the person present who has sat in it longest becomes
        the host (their seat's token gives the rights back after a reconnection), as stored;
        whether it passed."""
        members = self.hub.members(room)
        if any(member.host for member in members):
            return False
        present = tuple(member.seat for member in members if member.seat is not None)
        for event in await self.hub.turns.run(room, PassHost(present)):
            if isinstance(event, HostPassed):
                for member in members:
                    member.host = member.seat == event.seat
                return True
        return False

    def _enter(self, member: Member, room: Room, seat: Seat | None, *, host: bool) -> None:
        hub = self.hub
        member.room, member.seat, member.host = room, seat.index if seat is not None else None, host
        member.chat_bucket = TokenBucket(
            rate=hub.limits.chats_per_minute / 60, burst=hub.limits.chat_burst, now=hub.clock()
        )
        runtime = hub.runtime[room.code]
        runtime.members.add(member)
        runtime.idle_since = None
        [entered] = at_once(room, Enter(None if seat is None else seat.index))
        if seat is None:
            return
        assert isinstance(entered, Entered)
        returned = entered.returned
        grace_timer = runtime.grace_timers.pop(seat.index, None)
        if grace_timer is not None:
            grace_timer.cancel()
        if returned and room.status == "playing" and room.game is not None and room.game.turn == seat.index:
            # Back in time to play their own turn: the stand-in stops.
            hub.turns.schedule(room)

    async def leave(self, member: Member, *, explicit: bool, reply_to: RequestId | None, quiet: bool = False) -> None:
        """A member leaves its room (``explicit``) or its connection closed."""
        hub = self.hub
        room = member.room
        if room is None:
            if explicit and not quiet:
                member.send(refusal("not_in_room", "you are in no room", reply_to))
            return
        async with room.lock:
            runtime = hub.runtime[room.code]
            runtime.members.discard(member)
            if not runtime.members:
                runtime.idle_since = hub.clock()
            index, was_host = member.seat, member.host
            member.room, member.seat, member.host = None, None, False
            try:
                events = await hub.turns.run(room, Leave(index, explicit, hub.clock()))
            except StoreError:
                # The seat could not be given back: its player is away, as after a closed connection.
                events = await hub.turns.run(room, Leave(index, explicit, hub.clock(), keep=True))
            for event in events:
                if isinstance(event, SeatLeft) and event.away and event.seat is not None and room.status == "playing":
                    hub.turns.schedule(room)
                    hub.turns.announce_stand_in_later(room, room.seats[event.seat])
            if explicit and not quiet:
                member.send(Left(code=room.code, reply_to=reply_to))
            if not runtime.members and room.abandoned:
                # Nobody is left to start it: close it now rather than in an hour.
                await self._close_room(room)
                return
            if was_host and room.status != "playing":
                await self.pass_host_if_gone(room)
            hub.tell.room(room)

    async def on_start(self, member: Member, room: Room, message: StartGame | Rematch) -> None:
        """The host's start, or rematch (the next round of a match) once the game is over."""
        if not member.host:
            await self.pass_host_if_gone(room)
        await self._start_game(room, message.id, member, host=member.host, rematch=isinstance(message, Rematch))

    async def _maybe_auto_start(self, room: Room) -> None:
        if room.options.auto_start and room.status == "open" and room.free_seat() is None:
            await self._start_game(room, None, None)

    async def _start_game(
        self,
        room: Room,
        reply_to: RequestId | None,
        starter: Member | None,
        *,
        host: bool = True,
        rematch: bool = False,
    ) -> None:
        """Decided by the room core, stored, then begun and announced (nothing to undo if the write fails)."""
        hub = self.hub
        now = hub.clock()
        # Rated or not is settled as the game starts, by who sits where (docs/ratings.md).
        rated = room.rated_seats(BOT_RATINGS)
        command = Begin(new_seed(), new_salt(), now, reply_to, host=host, rematch=rematch, rated=_tupled(rated))
        [event] = decide(room, command)
        if isinstance(event, Refused):
            raise RoomError(event.reason, event.detail)
        assert isinstance(event, Began)
        start = event.start
        new_game = NewGame(start.game_id, room.code, start.header, now)
        data = {**room.data_after(start), "rated_game": event.rated is not None}
        also = () if rated is None else (start_work(start.game_id, rated),)
        change = Change(room=(room.code, "playing", data, now), new_game=new_game, also=also)
        await hub.write(change, room=room.code)
        apply(room, event)
        if room.options.bots_after is not None:
            hub.placement.quick_done(room.code)
        hub.tell.room(room)
        next_seq(room, game=True)
        hub.tell.game(room, GameEventInfo(kind="start", seat=None), reply_to=reply_to, replier=starter)
        hub.turns.schedule(room)

    async def save_room(self, room: Room) -> None:
        await self.hub.write(Change(room=(room.code, room.status, room.to_data(), self.hub.clock())), room=room.code)

    def lobby(self) -> list[dict[str, object]]:
        """The public rooms: open ones first (oldest first), then games being played."""
        rooms = [room for room in self.hub.rooms.values() if room.options.public and room.status != "finished"]
        rooms.sort(key=lambda room: (room.status != "open", room.created_at))
        return [
            {
                "code": room.code,
                "invite": f"/r/{room.code}",
                "status": room.status,
                "host": room.host_name,
                "seats": len(room.seats),
                "free_seats": sum(1 for seat in room.seats if seat.kind == "person" and seat.name is None),
                "bots": [seat.level for seat in room.seats if seat.kind == "bot"],
                "rules": room.rules.differences(),
                "spectators": room.spectators,
                **({"match": match.model_dump()} if (match := room.match_state()) is not None else {}),
            }
            for room in rooms
        ]

    async def sweep(self) -> None:
        """Close rooms nobody has been in for a long time, unless a game runs in them
        (their finished games stay in the store), and rooms not yet started soon after
        everyone left them: nobody may be waiting for them, and they count against the limits."""
        now = self.hub.clock()
        for code, runtime in list(self.hub.runtime.items()):
            room = self.hub.rooms[code]
            due = room.bots_at()
            if due is not None and due <= now and runtime.members and room.free_seat() is not None:
                await self._seat_bots(room, runtime.quick_rating)
                continue
            if runtime.idle_since is None or room.status == "playing":
                continue
            idle = now - runtime.idle_since
            if idle >= IDLE_ROOM_SECONDS or (room.status == "open" and idle >= self.hub.limits.empty_room_seconds):
                await self._close_room(room)

    async def _seat_bots(self, room: Room, rating: float | None) -> None:
        """Computers take an open room's free seats, of the level nearest its rating, and it starts."""
        level = min(QUICK_BOT_LEVELS, key=lambda name: abs(BOT_RATINGS[name].mu - (rating or BOT_RATINGS["greedy"].mu)))
        async with room.lock:
            if room.status != "open" or room.free_seat() is None:
                return
            # Stored first, then seated: a write that fails leaves the seats free for the next sweep.
            if not await self.hub.turns.run(room, SeatBots(level)):
                return
            self.hub.placement.quick_done(room.code)
            self.hub.tell.room(room)
            await self._maybe_auto_start(room)

    async def _close_room(self, room: Room) -> None:
        runtime = self.hub.runtime.pop(room.code)
        runtime.cancel_all()
        del self.hub.rooms[room.code]
        await self.hub.turns.run(room, Close())
        if room.options.bots_after is not None:
            self.hub.placement.quick_done(room.code)
        self.hub.placement.released(room.code)


def _tupled(rated: list[dict[str, str]] | None) -> tuple[dict[str, str], ...] | None:
    return None if rated is None else tuple(rated)
