"""Telling people: snapshots, and the room and game messages everyone in a room receives.

Each ``room`` and ``game`` message takes the room's next sequence number, so
a client that sees one skipped knows it missed something. Each member gets
a game event with its own seat's view, and nobody else's.
"""

from __future__ import annotations

from typing import Protocol

from ..game import Game, Play, Timeout
from .clock import Clock
from .members import Member
from .protocol import GameEvent, GameEventInfo, PastMove, RequestId, RoomUpdate, Snapshot
from .room_core import next_seq
from .rooms import Room


class Audience(Protocol):
    """What telling needs: the time, and who is in a room."""

    clock: Clock

    def members(self, room: Room) -> set[Member]: ...


def history(game: Game | None) -> list[PastMove]:
    """The game's actions so far as everyone saw them, for the move log of someone who arrives (or
    reloads) during the game: a play's table after it, each draw's count (a timeout draws the penalty,
    or what the pool had left)."""
    if game is None:
        return []
    moves: list[PastMove] = []
    pool = len(game.deal.pool)
    for action in game.actions:
        if isinstance(action, Play):
            table = [str(meld).split() for meld in action.table] if not isinstance(action.table, str) else None
            moves.append(PastMove(kind="play", seat=action.seat, table=table))
            continue
        drawn = 0
        if action.kind == "draw":
            drawn = min(1, pool)
        elif isinstance(action, Timeout):
            drawn = min(game.rules.timeout_penalty, pool)
        pool -= drawn
        moves.append(PastMove(kind=action.kind, seat=action.seat, drawn=drawn))
    return moves


class Broadcast:
    def __init__(self, hub: Audience) -> None:
        self.hub = hub

    def snapshot(self, member: Member, room: Room, reply_to: RequestId | None) -> None:
        """Everything the member may see of the room now, and the live table if one is shown."""
        now = self.hub.clock()
        member.send(
            Snapshot(
                seq=room.seq,
                now=now,
                room=room.state(now),
                game=room.game_state(member.seat),
                chat=list(room.chat),
                history=history(room.game),
                reply_to=reply_to,
            )
        )
        if room.live is not None and room.game is not None and room.live.moves == len(room.game.actions):
            member.send(room.live)

    def room(
        self,
        room: Room,
        *,
        but: Member | None = None,
        replier: Member | None = None,
        reply_to: RequestId | None = None,
    ) -> None:
        """The room's new state, to everyone in it (but ``but``); ``replier`` gets it as its answer."""
        update = RoomUpdate(seq=next_seq(room), room=room.state(self.hub.clock()))
        text = update.model_dump_json()
        for member in self.hub.members(room):
            if member is replier:
                member.send(update.model_copy(update={"reply_to": reply_to}))
            elif member is not but:
                member.outbox.send(text)

    def game(self, room: Room, info: GameEventInfo, *, reply_to: RequestId | None, replier: Member | None) -> None:
        """Each member gets the event with their own seat's view (encoded once per seat)."""
        now = self.hub.clock()
        by_seat: dict[int | None, tuple[GameEvent, str]] = {}
        for member in self.hub.members(room):
            encoded = by_seat.get(member.seat)
            if encoded is None:
                state = room.game_state(member.seat)
                assert state is not None
                event = GameEvent(seq=room.seq, now=now, event=info, game=state)
                encoded = by_seat[member.seat] = (event, event.model_dump_json())
            if member is replier:
                member.send(encoded[0].model_copy(update={"reply_to": reply_to}))
            else:
                member.outbox.send(encoded[1])

    def to_others(self, room: Room, member: Member, text: str) -> None:
        """A message already encoded, to everyone in the room but its sender."""
        for other in self.hub.members(room):
            if other is not member:
                other.outbox.send(text)
