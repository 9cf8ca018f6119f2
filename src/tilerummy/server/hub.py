"""The hub: every room of the server and the people in it; where each message is sent.

The hub holds the shared state (the rooms, who is in them, the store, the
bot pool, the clock) and answers a message by looking its type up in a
table of handlers. The work is done by its parts, one module each:

- :mod:`.seating`: rooms created, joined and left; games started; the lobby
- :mod:`.turns`: the room core's shell: commands decided, stored, applied and told to
  the room (snapshots, room and game messages); the turn clock
- :mod:`.bot_turns`: bots' and stand-ins' turns, and hints
- :mod:`.chat`: chat lines, mutes, the live table
- :mod:`.members`: a connection's member, a room's runtime, refusals

Each part is given the hub as the narrow protocol it declares (what it uses and
nothing more: ``Table`` for turns, ``Hall`` for seating, ...), so no part imports
the hub and no server module imports another in a circle. A game's actions and
its clock, and every other change of a room, are decided by the room core
(:mod:`.room_core`), with no I/O.

A refusal is an error message to its sender, never an exception.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

from .. import __version__
from ..ratings import Rating
from ..records import GameRecord
from .bot_turns import BOT_BUDGET_SECONDS, BotTurns
from .botpool import BotPool
from .chat import Chat
from .clock import Clock, LoopTimers, Timers, wall_clock
from .limits import ServerLimits
from .members import Member, Outbox, RoomRuntime, refusal, room_of
from .placement import LocalPlacement, Placement
from .profile_routes import ProfileService
from .profile_store import ProfileStore
from .protocol import (
    PROTOCOL_VERSION,
    BadMessage,
    ClientMessage,
    CreateRoom,
    DrawTile,
    Hello,
    HintRequest,
    JoinRoom,
    LeaveRoom,
    LiveTable,
    Mute,
    PassTurn,
    Ping,
    PlayTable,
    Pong,
    QuickMatch,
    Rematch,
    RequestId,
    Resync,
    SendChat,
    StartGame,
    Welcome,
    parse_client_message,
)
from .rated_games import profile_rating
from .room_core import Restore, apply, decide, only
from .rooms import Room, RoomError
from .seating import Seating
from .store import Change, RoomHeldElsewhere, Store, StoreError
from .turns import Broadcast, Turns
from .writer import Writer

__all__ = ["Hub", "Member", "Outbox"]

log = logging.getLogger("tilerummy.server")
_T = TypeVar("_T")

#: A message that needs no name: said before hello, or harmless (ping).
OpenHandler = Callable[[Member, Any], None]
#: A message from a member who said hello, handled outside any room's lock.
Handler = Callable[[Member, Any], Awaitable[None]]
#: A message about the member's room, handled under the room's lock.
RoomHandler = Callable[[Member, Room, Any], Awaitable[None]]


class Hub:
    def __init__(
        self,
        store: Store,
        bots: BotPool,
        *,
        limits: ServerLimits | None = None,
        clock: Clock = wall_clock,
        timers: Timers | None = None,
        bot_budget: float = BOT_BUDGET_SECONDS,
        placement: Placement | None = None,
    ) -> None:
        self.store = store
        #: Which rooms are this process's (all it creates, alone; those it claims, in a cluster).
        self.placement: Placement = placement or LocalPlacement()
        self.bots = bots
        self.limits = limits or ServerLimits()
        self.clock = clock
        self.timers: Timers = timers or LoopTimers()
        self.bot_budget = bot_budget
        self.rooms: dict[str, Room] = {}
        self.runtime: dict[str, RoomRuntime] = {}
        # Writes leave the event loop, in order, grouped when they queue up.
        self.writer = Writer(store)
        self._tasks: set[asyncio.Task[None]] = set()
        self.tell = Broadcast(self)
        self.seating = Seating(self)
        self.turns = Turns(self)
        self.bot_turns = BotTurns(self)
        self.chat = Chat(self)
        self.profiles = ProfileService(ProfileStore(store, clock), clock)
        self._open: dict[type[ClientMessage], OpenHandler] = {Hello: self._hello, Ping: self._ping}
        self._named: dict[type[ClientMessage], Handler] = {
            CreateRoom: self.seating.on_create,
            JoinRoom: self.seating.on_join,
            QuickMatch: self.seating.on_quick_match,
            LeaveRoom: self.seating.on_leave,
            HintRequest: self.bot_turns.on_hint,
        }
        self._in_room: dict[type[ClientMessage], RoomHandler] = {
            Resync: self._resync,
            StartGame: self.seating.on_start,
            Rematch: self.seating.on_start,
            PlayTable: self.turns.on_action,
            DrawTile: self.turns.on_action,
            PassTurn: self.turns.on_action,
            LiveTable: self.chat.on_live_table,
            SendChat: self.chat.on_chat,
            Mute: self.chat.on_mute,
        }

    def handled_types(self) -> set[type[ClientMessage]]:
        """Every message type the hub answers (each client message of the protocol)."""
        return set(self._open) | set(self._named) | set(self._in_room)

    # --- Life cycle ----------------------------------------------------------

    async def start(self, *, load_rooms: bool = True) -> None:
        """Load every room that was open or playing and catch its clock up
        (a process of a cluster loads none: it adopts rooms one by one)."""
        if not load_rooms:
            return
        now = self.clock()
        loaded = [self._load(data, now) for data in await self.read(lambda: self.store.rooms(active_only=True))]
        for room in loaded:
            if room.game_id is not None:
                await self._restore_game(room)
        for room in loaded:
            await self._resume(room)

    async def adopt(self, data: dict[str, Any]) -> Room:
        """Serve a room as stored (another process served it until it stopped): its game
        is replayed from its actions and its clock caught up, as after a restart."""
        room = self._load(data, self.clock())
        if room.game_id is not None:
            await self._restore_game(room)
        await self._resume(room)
        return room

    def drop(self, code: str) -> list[Member]:
        """Stop serving a room (another process serves it now); returns who was in it."""
        self.rooms.pop(code, None)
        runtime = self.runtime.pop(code, None)
        if runtime is None:
            return []
        runtime.cancel_all()
        members = list(runtime.members)
        for member in members:
            member.room, member.seat, member.host = None, None, False
        return members

    def _load(self, data: dict[str, Any], now: float) -> Room:
        room = Room.from_data(data, now)
        self.rooms[room.code] = room
        self.runtime[room.code] = RoomRuntime(idle_since=now)
        return room

    async def _resume(self, room: Room) -> None:
        if room.status != "playing":
            return
        async with room.lock:
            await self.turns.apply_due_timeouts(room)
            self.turns.schedule(room)
            for seat in room.seats:
                if seat.away_since is not None:
                    self.turns.announce_stand_in_later(room, seat)

    async def _restore_game(self, room: Room) -> None:
        """The room's game replayed from its stored actions, with the requests they answered."""
        assert room.game_id is not None
        game_id = room.game_id
        stored = await self.read(lambda: self.store.game(game_id))
        if stored is None:
            log.error("room %s: game %s is missing from the database", room.code, room.game_id)
            apply(room, only(decide(room, Restore(None))))
            return
        record = GameRecord.from_dict(stored.record())
        replay = record.replay()
        if not replay.ok:
            log.error("room %s: game %s does not replay: %s", room.code, room.game_id, replay.error)
        restore = Restore(replay.game, record.fairness, stored.last_seq, stored.answers)
        apply(room, only(decide(room, restore)))

    async def close(self) -> None:
        for runtime in self.runtime.values():
            runtime.cancel_all()
        for task in list(self._tasks):
            task.cancel()
        await self.writer.drained()
        self.writer.close()
        self.bots.close()

    # --- Plumbing the parts share ---------------------------------------------

    async def read(self, work: Callable[[], _T]) -> _T:
        """Run a read of the store in a thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, work)

    async def write(self, change: Change, *, room: str) -> None:
        """Store the change to ``room``; returns once it is committed, so it may be announced.

        :raises StoreError: the change could not be written; :class:`.store.RoomHeldElsewhere`
            when another process of the cluster took the room over (this one stops serving it).
        """
        holder = self.placement.holder
        try:
            await self.writer.write(change if holder is None else replace(change, holder=(room, holder)))
        except RoomHeldElsewhere:
            # Once the caller has undone its change and answered.
            asyncio.get_running_loop().call_soon(self.placement.moved, room)
            raise

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine as a task the hub cancels when it closes."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def members(self, room: Room) -> set[Member]:
        return self.runtime[room.code].members

    # --- Messages ------------------------------------------------------------

    async def receive(self, member: Member, text: str) -> None:
        """Read and answer one message as sent; whatever it holds, its sender gets an answer."""
        try:
            parsed = parse_client_message(text)
        except BadMessage as error:
            member.send(refusal("bad_message", str(error), error.request_id))
            return
        try:
            await self.handle(member, parsed)
        except Exception:
            log.exception("a %s message failed", parsed.type)
            member.send(refusal("server_error", "the server failed on this message", parsed.id))

    async def handle(self, member: Member, message: ClientMessage) -> None:
        """Answer one message; every refusal is an error message, never an exception."""
        kind = type(message)
        if isinstance(message, Hello) and message.key is not None:
            await self._hello_with_key(member, message)
            return
        answer_now = self._open.get(kind)
        if answer_now is not None:
            answer_now(member, message)
            return
        if member.name is None:
            member.send(refusal("hello_first", "say hello first (with the protocol version and your name)", message.id))
            return
        try:
            handler = self._named.get(kind)
            if handler is not None:
                await handler(member, message)
                return
            room = room_of(member)
            async with room.lock:
                await self._in_room[kind](member, room, message)
        except RoomError as error:
            member.send(refusal(error.reason, error.detail, message.id))
        except StoreError:
            log.exception("a write to the database failed")
            member.send(refusal("server_error", "the server could not save this: try again", message.id))

    def _hello(self, member: Member, message: Hello) -> None:
        if message.protocol != PROTOCOL_VERSION:
            detail = f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}"
            member.send(refusal("protocol_version", detail, message.id))
            return
        if message.key is None:
            # A guest (again): no profile.
            member.profile_id, member.key = None, None
        member.name = message.name
        profile = None if member.profile_id is None else {"id": member.profile_id, "name": message.name}
        member.send(
            Welcome(
                server=f"tilerummy {__version__}",
                name=message.name,
                limits=self.limits.message(),
                profile=profile,
                reply_to=message.id,
            )
        )

    async def rating_of(self, member: Member) -> float | None:
        """The member's rating: its profile's, or a new player's for a guest."""
        profile = member.profile_id
        if profile is None:
            return Rating().mu
        try:
            rating = await self.read(lambda: self.store.transact(lambda sql: profile_rating(sql, profile)))
        except StoreError:
            return None
        return rating.mu

    async def _hello_with_key(self, member: Member, message: Hello) -> None:
        """Hello as a profile: the player plays under the profile's name, and may play rated games."""
        assert message.key is not None
        key = message.key
        attempts = self.profiles.key_failures
        if not attempts.left(member.address):
            member.send(refusal("too_many_attempts", "too many attempts from here: wait a minute", message.id))
            return
        profile = await self.read(lambda: self.profiles.profiles.by_key(key))
        if profile is None:
            attempts.allow(member.address)
            member.send(refusal("bad_key", "this key belongs to no profile: sign in again", message.id))
            return
        member.profile_id, member.key = profile.id, key
        self._hello(member, message.model_copy(update={"name": profile.name}))

    def _ping(self, member: Member, message: Ping) -> None:
        member.send(Pong(now=self.clock(), reply_to=message.id))

    async def _resync(self, member: Member, room: Room, message: Resync) -> None:
        self.tell.snapshot(member, room, message.id)

    # --- What the routes and connections call -----------------------------------

    def active_rooms(self) -> int:
        return self.seating.active_rooms()

    async def leave(self, member: Member, *, explicit: bool, reply_to: RequestId | None, quiet: bool = False) -> None:
        """A member leaves its room (``explicit``) or its connection closed."""
        await self.seating.leave(member, explicit=explicit, reply_to=reply_to, quiet=quiet)

    def lobby(self) -> list[dict[str, object]]:
        return self.seating.lobby()

    async def sweep(self) -> None:
        await self.seating.sweep()
