"""Turns and the clock: an action applied, stored and announced; deadlines, timeouts and stand-ins.

Everything that changes a game happens under its room's lock and in this
order: the engine checks and applies it, the store writes it (off the event
loop, so other rooms play on meanwhile), then everyone
in the room is told. A refused action changes nothing and only its sender
hears of it; an action the store could not write is taken back
(:meth:`~tilerummy.game.Game.pop`) and its sender hears that too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ..errors import IllegalAction, Reason
from ..game import Action, Draw, Pass, Play, Timeout
from ..records import action_to_dict
from .members import Member, refusal, seat_of
from .protocol import DrawTile, GameEventInfo, PassTurn, PlayTable, RequestId
from .rooms import Room, Seat
from .store import Change, FinishedGame, NewAction, StoreError

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("tilerummy.server")

#: An away player's seat reads as stood in this long after the grace period ends.
STAND_IN_ANNOUNCE_DELAY = 0.05


class Turns:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def on_action(self, member: Member, room: Room, message: PlayTable | DrawTile | PassTurn) -> None:
        """A player's play, draw or pass, at the time it arrives."""
        seat = seat_of(member, room)
        at = self.hub.clock()
        action: Action
        if isinstance(message, PlayTable):
            action = Play(seat, _table_text(message.sets), at)
        elif isinstance(message, DrawTile):
            action = Draw(seat, at)
        else:
            action = Pass(seat, at)
        await self.act(room, action, member=member, reply_to=message.id)

    async def act(
        self,
        room: Room,
        action: Action,
        *,
        member: Member | None = None,
        reply_to: RequestId | None = None,
        stand_in: bool = False,
    ) -> bool:
        """Apply, store and announce one action; the caller holds the room's lock."""
        game = room.game
        assert game is not None
        before_rack = len(game.rack(action.seat))
        try:
            change = self._apply(room, action)
        except IllegalAction as error:
            if member is not None:
                member.send(refusal(error.reason, error.detail, reply_to))
            if error.reason is Reason.TIME_UP:
                await self.apply_due_timeouts(room)
            return False
        try:
            await self.hub.write(change, room=room.code)
        except StoreError:
            log.exception("room %s: an action could not be stored; it is undone", room.code)
            game.pop()
            room.status = "playing"
            room.seq -= 1
            if member is not None:
                member.send(refusal("server_error", "the server could not save this: try again", reply_to))
            self.schedule(room)
            return False
        applied = game.actions[-1]
        after_rack = len(game.rack(action.seat))
        info = GameEventInfo(
            kind=applied.kind,
            seat=applied.seat,
            placed=max(0, before_rack - after_rack),
            drawn=max(0, after_rack - before_rack),
            stand_in=stand_in,
        )
        room.live = None
        self.hub.tell.game(room, info, reply_to=reply_to, replier=member)
        if game.is_over:
            self.hub.tell.room(room)
        self.schedule(room)
        return True

    def _apply(self, room: Room, action: Action) -> Change:
        """Under the room's lock: apply the action, and say what is to be written.

        :raises IllegalAction: the action is refused; nothing changed.
        """
        game = room.game
        assert game is not None
        # The server takes back only an action whose write failed: the last one.
        game.limit_undo(1)
        game.apply(action)
        room.seq += 1
        finished = None
        now = self.hub.clock()
        if game.is_over:
            assert game.result is not None
            room.status = "finished"
            finished = FinishedGame(room.game_id or "", game.result.to_dict(), now)
        return Change(
            room=(room.code, room.status, room.to_data(), now) if finished else None,
            actions=[NewAction(room.game_id or "", len(game.actions) - 1, room.seq, action_to_dict(game.actions[-1]))],
            finished=finished,
        )

    async def apply_due_timeouts(self, room: Room) -> None:
        """Every turn whose deadline passed ends in a timeout, at its deadline."""
        game = room.game
        while game is not None and not game.is_over and game.deadline is not None and game.deadline <= self.hub.clock():
            if not await self.act(room, Timeout(game.turn, game.deadline)):
                break

    def schedule(self, room: Room) -> None:
        """Set the turn's timers: its deadline, and a bot if one is to play it."""
        runtime = self.hub.runtime[room.code]
        runtime.cancel_turn_timers()
        game = room.game
        if game is None or game.is_over or room.status != "playing":
            return
        timers = self.hub.timers
        now = self.hub.clock()
        moves = len(game.actions)
        deadline = game.deadline
        if deadline is not None:
            runtime.timers.append(
                timers.call_later(max(0.0, deadline - now), lambda: self.hub.spawn(self._on_deadline(room, moves)))
            )
        seat = room.seats[game.turn]
        if seat.kind == "bot":
            assert seat.level is not None
            runtime.bot_task = asyncio.ensure_future(self.hub.bot_turns.play(room, moves, seat.level, stand_in=False))
        elif seat.connections == 0 and seat.away_since is not None:
            waited = now - seat.away_since
            if waited >= room.options.grace_seconds:
                level = room.options.stand_in_level
                runtime.bot_task = asyncio.ensure_future(self.hub.bot_turns.play(room, moves, level, stand_in=True))
            else:
                runtime.timers.append(
                    timers.call_later(
                        room.options.grace_seconds - waited, lambda: self.hub.spawn(self._grace_over(room, moves))
                    )
                )

    def announce_stand_in_later(self, room: Room, seat: Seat) -> None:
        """Once an away player's grace period is over, the room hears that a bot stands in."""
        runtime = self.hub.runtime[room.code]
        previous = runtime.grace_timers.pop(seat.index, None)
        if previous is not None:
            previous.cancel()

        async def announce() -> None:
            runtime.grace_timers.pop(seat.index, None)
            async with room.lock:
                if room.status == "playing" and seat.stand_in(self.hub.clock(), room.options.grace_seconds):
                    self.hub.tell.room(room)

        # A little after the grace period, so the seat reads as stood in.
        delay = room.options.grace_seconds + STAND_IN_ANNOUNCE_DELAY
        runtime.grace_timers[seat.index] = self.hub.timers.call_later(delay, lambda: self.hub.spawn(announce()))

    async def _grace_over(self, room: Room, moves: int) -> None:
        async with room.lock:
            if room.game is not None and len(room.game.actions) == moves:
                self.schedule(room)

    async def _on_deadline(self, room: Room, moves: int) -> None:
        async with room.lock:
            if room.game is not None and len(room.game.actions) == moves:
                await self.apply_due_timeouts(room)


def _table_text(sets: list[list[str]]) -> str:
    return " | ".join(" ".join(tiles) for tiles in sets)
