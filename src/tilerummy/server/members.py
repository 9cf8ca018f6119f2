"""Who is in the server: a connection's member, the people in each room, and the answers they share.

A :class:`Member` is one connection's part: its name, its room and seat.
A room's :class:`RoomRuntime` holds what lives only while the server runs:
who is in it and its timers.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel

from ..errors import Reason
from .clock import Timer
from .limits import TokenBucket
from .protocol import Error, Joined, RequestId
from .rooms import Room, RoomError, Seat


class Outbox(Protocol):
    """Where a participant's messages go (a WebSocket connection's queue)."""

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection after what is queued (a WebSocket close code)."""


@dataclass(eq=False)
class Member:
    """One connection's part in the server: its name, and its room and seat if any."""

    outbox: Outbox
    #: The server's address as the client reached it ("http://host:port"), for invite links.
    base_url: str = ""
    #: The client's network address, for the limits per address (empty: not from the network,
    #: as when the hub is driven in-process).
    address: str = ""
    name: str | None = None
    #: The profile the member signed in as (its id), and the key it signed in with (sent on
    #: when a cluster relays the member to its room's process).
    profile_id: str | None = None
    key: str | None = None
    room: Room | None = None
    seat: int | None = None
    host: bool = False
    chat_bucket: TokenBucket | None = None

    def send(self, message: BaseModel) -> None:
        self.outbox.send(message.model_dump_json())


@dataclass(eq=False)
class RoomRuntime:
    """A room's part that is never stored: who is in it, its timers, its bot at work."""

    members: set[Member] = field(default_factory=set)
    timers: list[Timer] = field(default_factory=list)
    #: When an away player's grace period ends, the room hears that a bot stands in.
    grace_timers: dict[int, Timer] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    idle_since: float | None = None
    #: A quick match room's rating: its creator's (not stored: after a restart it takes anyone).
    quick_rating: float | None = None
    #: The address of the connection that created the room (not stored: after a restart, none).
    creator_address: str | None = None
    #: Writes of the room's changes that failed in a row, and when the room's clock and bots try again.
    failed_writes: int = 0
    retry_at: float | None = None

    def cancel_turn_timers(self) -> None:
        """The turn's timers (not the grace periods, which outlast turns)."""
        for timer in self.timers:
            timer.cancel()
        self.timers.clear()
        # A bot's own move reschedules the room: its task must not cancel itself.
        if self.bot_task is not None and self.bot_task is not asyncio.current_task():
            self.bot_task.cancel()
        self.bot_task = None

    def cancel_all(self) -> None:
        self.cancel_turn_timers()
        for timer in self.grace_timers.values():
            timer.cancel()
        self.grace_timers.clear()


def refusal(reason: str | Reason, detail: str, reply_to: RequestId | None = None) -> Error:
    """The error message that answers a refused request."""
    return Error(reason=reason.value if isinstance(reason, Reason) else reason, detail=detail, reply_to=reply_to)


def room_of(member: Member) -> Room:
    if member.room is None:
        raise RoomError("not_in_room", "join or create a room first")
    return member.room


def seat_of(member: Member, room: Room) -> int:
    """The member's seat in the game being played, for an action or a hint."""
    if member.seat is None:
        raise RoomError("not_a_player", "spectators cannot play")
    if room.game is None or room.status != "playing":
        raise RoomError("no_game", "no game is being played in this room")
    return member.seat


def joined(
    member: Member, room: Room, seat: Seat | None, *, token: str | None, host: bool, reply_to: RequestId | None
) -> Joined:
    """The answer to creating or joining a room: where the member sits, and the seat's token when it is new."""
    return Joined(
        code=room.code,
        invite=f"{member.base_url}/r/{room.code}",
        role="player" if seat is not None else "spectator",
        seat=seat.index if seat is not None else None,
        token=token,
        host=host,
        reply_to=reply_to,
    )
