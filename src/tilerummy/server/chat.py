"""Table talk: chat lines, the host's mutes, and the live table a player shows while thinking."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from ..errors import Reason
from ..melds import Token
from ..tiles import Tile
from .broadcast import Broadcast
from .clock import Clock
from .limits import ServerLimits
from .members import Member, seat_of
from .protocol import ChatLine, LiveTable, LiveTableUpdate, Mute, SendChat
from .rooms import Room, RoomError


class HostRights(Protocol):
    def pass_host_if_gone(self, room: Room) -> bool: ...

    async def save_room(self, room: Room) -> None: ...


class ChatDesk(Protocol):
    """What table talk needs: the time, the chat limits, what a room is told, the host's rights."""

    clock: Clock
    limits: ServerLimits
    tell: Broadcast

    @property
    def seating(self) -> HostRights: ...


class Chat:
    def __init__(self, hub: ChatDesk) -> None:
        self.hub = hub

    async def on_chat(self, member: Member, room: Room, message: SendChat) -> None:
        assert member.name is not None and member.chat_bucket is not None
        name = room.seats[member.seat].name or member.name if member.seat is not None else member.name
        if name in room.muted:
            raise RoomError("muted", "the host has muted you in this room")
        if not member.chat_bucket.allow(self.hub.clock()):
            raise RoomError("rate_limited", f"at most {self.hub.limits.chats_per_minute} chat lines a minute")
        text = " ".join(message.text.split())
        if not text:
            raise RoomError("bad_request", "an empty chat line")
        line = ChatLine(name=name, seat=member.seat, text=text, at=self.hub.clock())
        room.chat.append(line)
        member.send(line.model_copy(update={"reply_to": message.id}))
        self.hub.tell.to_others(room, member, line.model_dump_json())

    async def on_mute(self, member: Member, room: Room, message: Mute) -> None:
        if not member.host and self.hub.seating.pass_host_if_gone(room):
            await self.hub.seating.save_room(room)
        if not member.host:
            raise RoomError("not_host", "only the host can mute")
        if message.muted:
            room.muted.add(message.name)
        else:
            room.muted.discard(message.name)
        await self.hub.seating.save_room(room)
        self.hub.tell.room(room, replier=member, reply_to=message.id)

    async def on_live_table(self, member: Member, room: Room, message: LiveTable) -> None:
        """The table as the player arranges it, shown to the others before the turn ends."""
        seat = seat_of(member, room)
        game = room.game
        assert game is not None
        if game.turn != seat:
            raise RoomError(Reason.NOT_YOUR_TURN.value, "only the player whose turn it is shows a live table")
        shown: Counter[Tile] = Counter()
        for tiles in message.sets:
            for text in tiles:
                try:
                    shown[Token.parse(text).tile] += 1
                except ValueError:
                    raise RoomError("bad_tile", f"{text!r} is not a tile") from None
        # Only tiles the player could really lay out: what is on the table and in their rack.
        unheld = shown - game.table.tiles() - Counter(game.rack_tiles(seat))
        if unheld:
            tile = min(unheld)
            raise RoomError(Reason.NOT_IN_RACK.value, f"{tile} is neither on the table nor in your rack")
        room.live = LiveTableUpdate(seat=seat, moves=len(game.actions), sets=message.sets)
        self.hub.tell.to_others(room, member, room.live.model_dump_json())
        if message.id is not None:
            # Shown to the others; a request with an id still gets its one answer.
            member.send(room.live.model_copy(update={"reply_to": message.id}))
