"""The room's shell around its core (:mod:`.room_core`): a command decided, its events
stored, then applied and told to everyone in the room; the turn's clock, timeouts and stand-ins.

What a room is told (:class:`Broadcast`): each ``room`` and ``game`` message takes the
room's next sequence number, so a client that sees one skipped knows it missed something.
Each member gets a game event with its own seat's view, and nobody else's.

Everything that changes a game happens under its room's lock and in this
order: the core decides what the command leads to (the room unchanged), the
store writes it (off the event loop, so other rooms play on meanwhile), then
the event is applied and everyone in the room is told. A refused action
changes nothing and only its sender hears of it; an action the store could
not write was never applied, and its sender hears that it was not.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from ..errors import Reason
from ..game import Game, Play, Timeout
from .clock import Clock, Timers
from .members import Member, RoomRuntime, refusal
from .protocol import (
    DrawTile,
    GameEvent,
    GameEventInfo,
    PassTurn,
    PastMove,
    PlayTable,
    RequestId,
    RoomUpdate,
    Snapshot,
)
from .rated_games import finish_work
from .room_core import (
    Act,
    Applied,
    Began,
    ClockReached,
    Closed,
    Command,
    Event,
    Refused,
    Repeated,
    Written,
    apply,
    at_once,
    data_after,
    decide,
    next_seq,
)
from .rooms import Room, RoomError, Seat
from .store import Change, FinishedGame, NewAction, RoomHeldElsewhere, StoreError

log = logging.getLogger("tilerummy.server")

#: An away player's seat reads as stood in this long after the grace period ends.
STAND_IN_ANNOUNCE_DELAY = 0.05
#: After a failed write the room's clock and bots wait this long, twice as long after each
#: further failure in a row, at most the longest: the database is not hammered while it is away.
RETRY_FIRST_SECONDS = 0.5
RETRY_LONGEST_SECONDS = 16.0


def retry_delay(failures: int) -> float:
    """How long the room waits after ``failures`` failed writes in a row (1 or more)."""
    return min(RETRY_LONGEST_SECONDS, RETRY_FIRST_SECONDS * 2.0 ** min(failures - 1, 16))


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


class BotPlayer(Protocol):
    async def play(self, room: Room, moves: int, level: str, *, stand_in: bool) -> None: ...

    async def figure(self, game_id: str) -> None:
        """Work out a finished rated game's figures for its players' profiles (its analysis)."""
        ...


class Table(Protocol):
    """What turns need: the time and timers, each room's runtime, the store's writes,
    what a room is told, and the bots."""

    clock: Clock
    timers: Timers
    runtime: dict[str, RoomRuntime]
    tell: Broadcast

    async def write(self, change: Change, *, room: str) -> None: ...

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None: ...

    @property
    def bot_turns(self) -> BotPlayer: ...


class Turns:
    def __init__(self, hub: Table) -> None:
        self.hub = hub

    async def on_action(self, member: Member, room: Room, message: PlayTable | DrawTile | PassTurn) -> None:
        """A player's play, draw or pass, at the time it arrives."""
        at = self.hub.clock()
        table = _table_text(message.sets) if isinstance(message, PlayTable) else ""
        command = Act(member.seat, message.type, at, table, request=message.id, seq=message.seq)
        await self.act(room, command, member=member)

    async def run(self, room: Room, command: Command) -> list[Event]:
        """Decide a room's command (not a game's action: :meth:`act`), store what its events
        change, then apply them; the caller holds the room's lock and announces them.

        :raises RoomError: the core refused it (nothing changed).
        :raises StoreError: the change could not be written (nothing applied).
        """
        events = decide(room, command)
        for event in events:
            if isinstance(event, Refused):
                raise RoomError(event.reason, event.detail)
            assert not isinstance(event, Applied | Began), "a game's actions and starts have changes of their own"
        if any(event.stored for event in events):
            status = "closed" if any(isinstance(event, Closed) for event in events) else room.status
            now = self.hub.clock()
            await self.hub.write(Change(room=(room.code, status, data_after(room, events), now)), room=room.code)
        for event in events:
            apply(room, event)
        return events

    async def act(self, room: Room, command: Act | ClockReached, *, member: Member | None = None) -> bool:
        """Decide, store, apply and announce one command; the caller holds the room's lock.
        Whether an action was applied."""
        applied = False
        for event in decide(room, command):
            if isinstance(event, Repeated):
                if member is not None:
                    self._answer_again(member, room, event)
                return False
            if isinstance(event, Refused):
                apply(room, event)
                if member is not None:
                    member.send(refusal(event.reason, event.detail, event.request))
                if event.reason == Reason.TIME_UP.value:
                    await self.apply_due_timeouts(room)
                return False
            assert isinstance(event, Applied), "an action or the clock begins no game"
            try:
                await self.hub.write(self._change(room, event), room=room.code)
            except StoreError as error:
                log.exception("room %s: an action could not be stored; it was not applied", room.code)
                if member is not None:
                    member.send(refusal("server_error", "the server could not save this: try again", event.request))
                if not isinstance(error, RoomHeldElsewhere):
                    self._fell_behind(room)
                return False
            apply(room, event)
            self._writes_again(room)
            caught_up = at_once(room, Written(ok=True))
            self._announce(room, event, member)
            if caught_up:
                self.hub.tell.room(room)
            applied = True
        return applied

    def _fell_behind(self, room: Room) -> None:
        """A write failed: the room's clock and bots try again after a back-off that doubles with
        each failure in a row, and the room hears that the server is catching up."""
        runtime = self.hub.runtime.get(room.code)
        if runtime is None:
            return
        runtime.failed_writes += 1
        runtime.retry_at = self.hub.clock() + retry_delay(runtime.failed_writes)
        if at_once(room, Written(ok=False)):
            self.hub.tell.room(room)
        self.schedule(room)

    def _writes_again(self, room: Room) -> None:
        """A write succeeded: the back-off is over (the room hears it has caught up once the
        change is announced)."""
        runtime = self.hub.runtime.get(room.code)
        if runtime is not None:
            runtime.failed_writes, runtime.retry_at = 0, None

    def _change(self, room: Room, event: Applied) -> Change:
        """What storing the event writes: the action, and the room and its result when the action ends the game."""
        game_id = room.game_id or ""
        answered = None if event.request is None or event.made_at is None else (event.request, event.made_at)
        action = NewAction(game_id, event.index, event.seq, event.record(), answered)
        if event.result is None:
            return Change(actions=[action])
        now = self.hub.clock()
        data = {**room.to_data(), "status": "finished", "seq": event.seq}
        finished = FinishedGame(game_id, event.result, now)
        rating = (
            (finish_work(game_id, event.result["scores"], room.abandoned_seats(now), now),) if room.rated_game else ()
        )
        return Change(room=(room.code, "finished", data, now), actions=[action], finished=finished, also=rating)

    def _announce(self, room: Room, event: Applied, member: Member | None) -> None:
        info = GameEventInfo(
            kind=event.action.kind,
            seat=event.seat,
            placed=event.placed,
            drawn=event.drawn,
            stand_in=event.stand_in,
        )
        self.hub.tell.game(room, info, reply_to=event.request, replier=member)
        if room.game is not None and room.game.is_over:
            self.hub.tell.room(room)
            if room.rated_game and room.game_id is not None:
                self.hub.spawn(self.hub.bot_turns.figure(room.game_id))
        self.schedule(room)

    def _answer_again(self, member: Member, room: Room, event: Repeated) -> None:
        """A request sent again: its refusal again, or, when it was applied, a snapshot (at or after its seq)."""
        first = event.first
        if first.reason is not None:
            member.send(refusal(first.reason, first.detail, event.request))
        else:
            self.hub.tell.snapshot(member, room, event.request)

    async def apply_due_timeouts(self, room: Room) -> None:
        """Every turn whose deadline passed ends in a timeout, at its deadline."""
        while await self.act(room, ClockReached(self.hub.clock())):
            pass

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
        if runtime.retry_at is not None and runtime.retry_at > now:
            # A write failed: nothing is tried again before the back-off is over.
            runtime.timers.append(
                timers.call_later(runtime.retry_at - now, lambda: self.hub.spawn(self._grace_over(room, moves)))
            )
            return
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
