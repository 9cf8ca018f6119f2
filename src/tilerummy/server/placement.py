"""Where rooms live: this process alone, or one of many (:mod:`.cluster`).

The hub asks its :class:`Placement` before a new room's code is used and tells
it when a room closes; connections hand their messages to a :class:`Router`.
A single process places every room here and routes every message to its own
hub (:class:`LocalPlacement`, and the hub itself as the router); a process of
a cluster claims each room's code in Redis and forwards the messages for
rooms another process owns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .members import Member
    from .protocol import RequestId


class Placement(Protocol):
    #: Who writes this process's rooms, as the store knows it (None: the only process).
    holder: str | None

    async def claim(self, code: str) -> bool:
        """Make a new room's code this process's; False when another process has it."""
        ...

    def released(self, code: str) -> None:
        """The room closed: its code is nobody's any more."""
        ...

    async def settled(self, code: str) -> None:
        """Return once a room this process is taking over is served (at once when it is not)."""
        ...

    def moved(self, code: str) -> None:
        """Another process serves the room now: stop serving it here, and send its people there."""
        ...

    #: Whether quick-match rooms are given out by a waiting list the processes share (a
    #: cluster's), rather than by this process's seating from its own rooms.
    lists_quick_rooms: bool

    def quick_room_to_make(self, token: str) -> tuple[str, float | None] | None:
        """The room (its code, claimed already) the shared waiting list gave the quick match
        with this token to make here, and the rating it waits at; None when there is none."""
        ...

    def quick_done(self, code: str) -> None:
        """The room waits for a quick-match player no more (started, filled, or closed)."""
        ...


class Router(Protocol):
    """Where a connection's messages go."""

    async def receive(self, member: Member, text: str) -> None: ...

    async def leave(
        self, member: Member, *, explicit: bool, reply_to: RequestId | None, quiet: bool = False
    ) -> None: ...


class LocalPlacement:
    """One process: every code the process does not use itself is free."""

    holder: str | None = None

    async def claim(self, code: str) -> bool:
        return True

    def released(self, code: str) -> None:
        return None

    async def settled(self, code: str) -> None:
        return None

    def moved(self, code: str) -> None:
        raise AssertionError("a single process's rooms never move")

    lists_quick_rooms = False

    def quick_room_to_make(self, token: str) -> tuple[str, float | None] | None:
        return None

    def quick_done(self, code: str) -> None:
        return None
