"""Table talk: chat lines, the host's mutes, and the live table a player shows while thinking."""

from __future__ import annotations

from typing import Protocol

from .clock import Clock
from .limits import ServerLimits
from .members import Member
from .protocol import LiveTable, Mute, SendChat
from .room_core import Command, Event, LiveShown, Said, Say, ShowLive
from .room_core import Mute as MuteName
from .rooms import Room
from .turns import Broadcast


class HostRights(Protocol):
    async def pass_host_if_gone(self, room: Room) -> bool: ...


class RoomShell(Protocol):
    async def run(self, room: Room, command: Command) -> list[Event]: ...


class ChatDesk(Protocol):
    """What table talk needs: the time, the chat limits, what a room is told, the host's
    rights, and the room core's shell."""

    clock: Clock
    limits: ServerLimits
    tell: Broadcast

    @property
    def seating(self) -> HostRights: ...

    @property
    def turns(self) -> RoomShell: ...


class Chat:
    def __init__(self, hub: ChatDesk) -> None:
        self.hub = hub

    async def on_chat(self, member: Member, room: Room, message: SendChat) -> None:
        assert member.name is not None and member.chat_bucket is not None
        name = room.seats[member.seat].name or member.name if member.seat is not None else member.name
        now = self.hub.clock()
        over_rate = None
        if name not in room.muted and not member.chat_bucket.allow(now):
            over_rate = f"at most {self.hub.limits.chats_per_minute} chat lines a minute"
        [said] = await self.hub.turns.run(room, Say(name, member.seat, message.text, now, over_rate))
        assert isinstance(said, Said)
        member.send(said.line.model_copy(update={"reply_to": message.id}))
        self.hub.tell.to_others(room, member, said.line.model_dump_json())

    async def on_mute(self, member: Member, room: Room, message: Mute) -> None:
        if not member.host:
            await self.hub.seating.pass_host_if_gone(room)
        await self.hub.turns.run(room, MuteName(message.name, message.muted, host=member.host))
        self.hub.tell.room(room, replier=member, reply_to=message.id)

    async def on_live_table(self, member: Member, room: Room, message: LiveTable) -> None:
        """The table as the player arranges it, shown to the others before the turn ends."""
        sets = tuple(tuple(tiles) for tiles in message.sets)
        [shown] = await self.hub.turns.run(room, ShowLive(member.seat, sets))
        assert isinstance(shown, LiveShown)
        self.hub.tell.to_others(room, member, shown.update.model_dump_json())
        if message.id is not None:
            # Shown to the others; a request with an id still gets its one answer.
            member.send(shown.update.model_copy(update={"reply_to": message.id}))
