"""The hub: every room of the server, the people in them, the clocks and the bots.

Everything that changes a room happens under that room's lock and in this
order: the engine checks and applies it, the store writes it, then everyone
in the room is told. Each ``room`` and ``game`` message takes the room's
next sequence number, so a client that sees one skipped knows it missed
something. A refused action
changes nothing and only its sender hears of it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from .. import __version__
from ..errors import IllegalAction, Reason
from ..game import Action, Draw, Pass, Play, Timeout
from ..melds import Token
from ..records import GameRecord, action_to_dict
from ..tiles import Tile
from .botpool import BotPool
from .clock import Clock, wall_clock
from .limits import ServerLimits, TokenBucket
from .protocol import (
    PROTOCOL_VERSION,
    ChatLine,
    ClientMessage,
    CreateRoom,
    DrawTile,
    Error,
    GameEvent,
    GameEventInfo,
    Hello,
    Hint,
    HintRequest,
    Joined,
    JoinRoom,
    LeaveRoom,
    Left,
    LiveTable,
    LiveTableUpdate,
    Mute,
    PassTurn,
    Ping,
    PlayTable,
    Pong,
    QuickMatch,
    Rematch,
    RequestId,
    Resync,
    RoomOptions,
    RoomUpdate,
    SeatSpec,
    SendChat,
    Snapshot,
    StartGame,
    Welcome,
)
from .rooms import Room, RoomError, Seat, new_room_code, new_token
from .store import Change, FinishedGame, NewAction, NewGame, Store, StoreError

log = logging.getLogger("tilerummy.server")
_T = TypeVar("_T")

#: Thinking time a bot gets, at most; never more than its turn has left.
BOT_BUDGET_SECONDS = 3.0
#: A bot's answer must arrive this long before the deadline to count.
BOT_MARGIN_SECONDS = 0.25
#: Open rooms nobody is in, and finished rooms, leave memory after this long idle.
IDLE_ROOM_SECONDS = 3600.0


class Outbox(Protocol):
    """Where a participant's messages go (a WebSocket connection's queue)."""

    def send(self, text: str) -> None: ...


@dataclass(eq=False)
class Member:
    """One connection's part in the server: its name, and its room and seat if any."""

    outbox: Outbox
    #: The server's address as the client reached it ("http://host:port"), for invite links.
    base_url: str = ""
    name: str | None = None
    room: Room | None = None
    seat: int | None = None
    host: bool = False
    chat_bucket: TokenBucket | None = None

    def send(self, message: BaseModel) -> None:
        self.outbox.send(message.model_dump_json())


@dataclass(eq=False)
class _RoomRuntime:
    members: set[Member] = field(default_factory=set)
    timers: list[asyncio.TimerHandle] = field(default_factory=list)
    #: When an away player's grace period ends, the room hears that a bot stands in.
    grace_timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    idle_since: float | None = None


def _error(reason: str | Reason, detail: str, reply_to: RequestId | None = None) -> Error:
    return Error(reason=reason.value if isinstance(reason, Reason) else reason, detail=detail, reply_to=reply_to)


class Hub:
    def __init__(
        self,
        store: Store,
        bots: BotPool,
        *,
        limits: ServerLimits | None = None,
        clock: Clock = wall_clock,
        bot_budget: float = BOT_BUDGET_SECONDS,
    ) -> None:
        self.store = store
        self.bots = bots
        self.limits = limits or ServerLimits()
        self.clock = clock
        self.bot_budget = bot_budget
        self.rooms: dict[str, Room] = {}
        self._runtime: dict[str, _RoomRuntime] = {}
        # One thread keeps writes in order and off the event loop; actions are applied there too.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._tasks: set[asyncio.Task[None]] = set()
        self._hinting: set[Member] = set()

    # --- Life cycle ----------------------------------------------------------

    async def start(self) -> None:
        """Load every room that was open or playing and catch its clock up."""
        now = self.clock()
        for data in await self._read(lambda: self.store.rooms(active_only=True)):
            room = Room.from_data(data, now)
            self.rooms[room.code] = room
            self._runtime[room.code] = _RoomRuntime(idle_since=now)
            if room.game_id is not None:
                await self._restore_game(room)
        for room in self.rooms.values():
            if room.status == "playing":
                async with room.lock:
                    await self._apply_due_timeouts(room)
                    self._schedule(room)
                    for seat in room.seats:
                        if seat.away_since is not None:
                            self._announce_stand_in_later(room, seat)

    async def _restore_game(self, room: Room) -> None:
        assert room.game_id is not None
        game_id = room.game_id
        stored = await self._read(lambda: self.store.game(game_id))
        if stored is None:
            log.error("room %s: game %s is missing from the database", room.code, room.game_id)
            room.status, room.game_id = "open", None
            return
        replay = GameRecord.from_dict(stored.record()).replay()
        if not replay.ok:
            log.error("room %s: game %s does not replay: %s", room.code, room.game_id, replay.error)
        room.game = replay.game
        room.seq = max(room.seq, stored.last_seq)
        if room.game.is_over and room.status == "playing":
            room.status = "finished"

    async def close(self) -> None:
        for runtime in self._runtime.values():
            self._cancel_timers(runtime)
            for timer in runtime.grace_timers.values():
                timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._writer.shutdown(wait=True)
        self.bots.close()

    async def _run(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run store work (and the engine work that goes with it) in order.

        A store whose writes are quick (SQLite, no network) is called right here:
        a thread would cost more, as it waits for the interpreter's lock behind the
        loop. Others (PostgreSQL) run in the store's thread, off the loop.
        """
        if self.store.quick:
            return work(*args)
        return await asyncio.get_running_loop().run_in_executor(self._writer, work, *args)

    async def _read(self, reader: Callable[[], _T]) -> _T:
        return await self._run(reader)

    async def _write(self, change: Change) -> None:
        await self._run(self.store.commit, change)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- Messages ------------------------------------------------------------

    def hello(self, member: Member, message: Hello) -> None:
        if message.protocol != PROTOCOL_VERSION:
            member.send(
                _error(
                    "protocol_version",
                    f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
                    message.id,
                )
            )
            return
        member.name = message.name
        member.send(
            Welcome(
                server=f"tilerummy {__version__}", name=message.name, limits=self.limits.message(), reply_to=message.id
            )
        )

    async def handle(self, member: Member, message: ClientMessage) -> None:
        """Answer one message; every refusal is an error message, never an exception."""
        if isinstance(message, Hello):
            self.hello(member, message)
            return
        if isinstance(message, Ping):
            member.send(Pong(now=self.clock(), reply_to=message.id))
            return
        if member.name is None:
            member.send(_error("hello_first", "say hello first (with the protocol version and your name)", message.id))
            return
        try:
            if isinstance(message, CreateRoom):
                await self.create_room(member, message)
            elif isinstance(message, JoinRoom):
                await self.join_room(member, message.code, message.role, message.token, message.id)
            elif isinstance(message, QuickMatch):
                await self.quick_match(member, message.id)
            elif isinstance(message, LeaveRoom):
                await self.leave(member, explicit=True, reply_to=message.id)
            elif isinstance(message, Resync):
                room = self._room_of(member)
                async with room.lock:
                    self._send_snapshot(member, room, message.id)
            elif isinstance(message, HintRequest):
                await self._hint(member, message.id)
            else:
                room = self._room_of(member)
                async with room.lock:
                    await self._handle_in_room(member, room, message)
        except RoomError as error:
            member.send(_error(error.reason, error.detail, message.id))
        except StoreError:
            log.exception("a write to the database failed")
            member.send(_error("server_error", "the server could not save this: try again", message.id))

    async def _handle_in_room(self, member: Member, room: Room, message: ClientMessage) -> None:
        if isinstance(message, StartGame | Rematch):
            if not member.host:
                raise RoomError("not_host", "only the host can start a game")
            if isinstance(message, Rematch) and room.status != "finished":
                raise RoomError("game_not_over", "a rematch starts once the game is over")
            await self._start_game(room, message.id, member)
        elif isinstance(message, PlayTable | DrawTile | PassTurn):
            seat = self._seat_of(member, room)
            at = self.clock()
            action: Action
            if isinstance(message, PlayTable):
                action = Play(seat, _table_text(message.sets), at)
            elif isinstance(message, DrawTile):
                action = Draw(seat, at)
            else:
                action = Pass(seat, at)
            await self._act(room, action, member=member, reply_to=message.id)
        elif isinstance(message, LiveTable):
            self._live_table(member, room, message)
        elif isinstance(message, SendChat):
            self._chat(member, room, message)
        elif isinstance(message, Mute):
            if not member.host:
                raise RoomError("not_host", "only the host can mute")
            if message.muted:
                room.muted.add(message.name)
            else:
                room.muted.discard(message.name)
            await self._save_room(room)
            self._broadcast_room(room, replier=member, reply_to=message.id)

    def _room_of(self, member: Member) -> Room:
        if member.room is None:
            raise RoomError("not_in_room", "join or create a room first")
        return member.room

    def _seat_of(self, member: Member, room: Room) -> int:
        if member.seat is None:
            raise RoomError("not_a_player", "spectators cannot play")
        if room.game is None or room.status != "playing":
            raise RoomError("no_game", "no game is being played in this room")
        return member.seat

    # --- Rooms ---------------------------------------------------------------

    def active_rooms(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != "finished")

    async def create_room(self, member: Member, message: CreateRoom) -> None:
        assert member.name is not None
        if self.active_rooms() >= self.limits.max_rooms:
            raise RoomError("too_many_rooms", "the server has as many rooms as it can hold: try again later")
        await self.leave(member, explicit=True, reply_to=None, quiet=True)
        token = new_token()
        room = Room.create(new_room_code(self.rooms), message, token, member.name, self.clock())
        seat = room.take_seat(member.name, token) if room.free_seat() is not None else None
        self.rooms[room.code] = room
        self._runtime[room.code] = _RoomRuntime()
        try:
            await self._save_room(room)
        except StoreError:
            del self.rooms[room.code], self._runtime[room.code]
            raise
        async with room.lock:
            self._enter(member, room, seat, host=True)
            member.send(_joined(member, room, seat, token=token, host=True, reply_to=message.id))
            self._send_snapshot(member, room, None)
            await self._maybe_auto_start(room)

    async def join_room(
        self, member: Member, code: str, role: str, token: str | None, reply_to: RequestId | None
    ) -> None:
        assert member.name is not None
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise RoomError("no_such_room", f"no room has the code {code!r}")
        if member.room is not None and member.room is not room:
            await self.leave(member, explicit=True, reply_to=None, quiet=True)
        elif member.room is room:
            raise RoomError("already_in_room", "you are already in this room")
        async with room.lock:
            seat: Seat | None = None
            host = False
            given_token = token
            if token is not None:
                seat = room.seat_for_token(token)
                host = room.is_host_token(token)
                if seat is None and not host:
                    raise RoomError("bad_token", "this token holds no seat in this room")
                given_token = None
            elif role == "player":
                given_token = new_token()
                seat = room.take_seat(member.name, given_token)
                try:
                    await self._save_room(room)
                except StoreError:
                    room.free(seat)
                    raise
            self._enter(member, room, seat, host=host)
            member.send(_joined(member, room, seat, token=given_token, host=host, reply_to=reply_to))
            # The others hear of the newcomer first, so the snapshot holds the newest number.
            self._broadcast_room(room, but=member)
            self._send_snapshot(member, room, None)
            await self._maybe_auto_start(room)

    async def quick_match(self, member: Member, reply_to: RequestId | None) -> None:
        for room in sorted(self.rooms.values(), key=lambda room: room.created_at):
            if (
                room.options.public
                and room.status == "open"
                and room.free_seat() is not None
                and member.room is not room
            ):
                await self.join_room(member, room.code, "player", None, reply_to)
                return
        request = CreateRoom(
            type="create_room",
            id=reply_to,
            seats=[SeatSpec(kind="person"), SeatSpec(kind="person")],
            options=RoomOptions(auto_start=True),
        )
        await self.create_room(member, request)

    def _enter(self, member: Member, room: Room, seat: Seat | None, *, host: bool) -> None:
        member.room, member.seat, member.host = room, seat.index if seat is not None else None, host
        member.chat_bucket = TokenBucket(rate=self.limits.chats_per_minute / 60, burst=3, now=self.clock())
        runtime = self._runtime[room.code]
        runtime.members.add(member)
        runtime.idle_since = None
        if seat is None:
            room.spectators += 1
            return
        seat.connections += 1
        returned = seat.away_since is not None
        seat.away_since = None
        grace_timer = runtime.grace_timers.pop(seat.index, None)
        if grace_timer is not None:
            grace_timer.cancel()
        if returned and room.status == "playing" and room.game is not None and room.game.turn == seat.index:
            # Back in time to play their own turn: the stand-in stops.
            self._schedule(room)

    async def leave(self, member: Member, *, explicit: bool, reply_to: RequestId | None, quiet: bool = False) -> None:
        """A member leaves its room (``explicit``) or its connection closed."""
        room = member.room
        if room is None:
            if explicit and not quiet:
                member.send(_error("not_in_room", "you are in no room", reply_to))
            return
        async with room.lock:
            runtime = self._runtime[room.code]
            runtime.members.discard(member)
            if not runtime.members:
                runtime.idle_since = self.clock()
            seat = room.seats[member.seat] if member.seat is not None else None
            member.room, member.seat, member.host = None, None, False
            if seat is None:
                room.spectators = max(0, room.spectators - 1)
            else:
                seat.connections = max(0, seat.connections - 1)
                if seat.connections == 0:
                    # A matchmaking room gives a seat back at once: someone else may take it.
                    if room.status == "open" and (explicit or room.options.auto_start):
                        room.free(seat)
                        await self._save_room(room)
                    else:
                        seat.away_since = self.clock()
                        if room.status == "playing":
                            self._schedule(room)
                            self._announce_stand_in_later(room, seat)
            if explicit and not quiet:
                member.send(Left(code=room.code, reply_to=reply_to))
            if not runtime.members and room.abandoned:
                # Nobody is left to start it: close it now rather than in an hour.
                await self._close_room(room)
                return
            self._broadcast_room(room)

    async def _maybe_auto_start(self, room: Room) -> None:
        if room.options.auto_start and room.status == "open" and room.free_seat() is None:
            await self._start_game(room, None, None)

    async def _start_game(self, room: Room, reply_to: RequestId | None, starter: Member | None) -> None:
        room.check_can_start()
        previous = (room.game, room.game_id, room.games_played, room.status)
        now = self.clock()
        header = await self._run(room.start_game, secrets.randbelow(2**63), now)
        assert room.game_id is not None
        try:
            await self._write(
                Change(
                    room=(room.code, room.status, room.to_data(), now),
                    new_game=NewGame(room.game_id, room.code, header, now),
                )
            )
        except StoreError:
            room.game, room.game_id, room.games_played, room.status = previous
            raise
        self._broadcast_room(room)
        room.seq += 1
        self._broadcast_game(room, GameEventInfo(kind="start", seat=None), reply_to=reply_to, replier=starter)
        self._schedule(room)

    async def _save_room(self, room: Room) -> None:
        await self._write(Change(room=(room.code, room.status, room.to_data(), self.clock())))

    # --- Play ----------------------------------------------------------------

    async def _act(
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
            # Applied and written together: with a slow store, in one trip to its thread.
            await self._run(self._apply_and_store, room, action)
        except IllegalAction as error:
            if member is not None:
                member.send(_error(error.reason, error.detail, reply_to))
            if error.reason is Reason.TIME_UP:
                await self._apply_due_timeouts(room)
            return False
        except StoreError:
            log.exception("room %s: an action could not be stored; it is undone", room.code)
            if member is not None:
                member.send(_error("server_error", "the server could not save this: try again", reply_to))
            self._schedule(room)
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
        self._broadcast_game(room, info, reply_to=reply_to, replier=member)
        if game.is_over:
            self._broadcast_room(room)
        self._schedule(room)
        return True

    def _apply_and_store(self, room: Room, action: Action) -> None:
        """Under the room's lock: apply, then write in one transaction.

        :raises IllegalAction: the action is refused; nothing changed.
        :raises StoreError: the write failed; the action is undone.
        """
        game = room.game
        assert game is not None
        game.apply(action)
        room.seq += 1
        finished = None
        if game.is_over:
            assert game.result is not None
            room.status = "finished"
            finished = FinishedGame(room.game_id or "", game.result.to_dict(), self.clock())
        try:
            self.store.commit(
                Change(
                    room=(room.code, room.status, room.to_data(), self.clock()) if finished else None,
                    actions=[
                        NewAction(room.game_id or "", len(game.actions) - 1, room.seq, action_to_dict(game.actions[-1]))
                    ],
                    finished=finished,
                )
            )
        except StoreError:
            game.pop()
            room.status = "playing"
            room.seq -= 1
            raise

    async def _apply_due_timeouts(self, room: Room) -> None:
        """Every turn whose deadline passed ends in a timeout, at its deadline."""
        game = room.game
        while game is not None and not game.is_over and game.deadline is not None and game.deadline <= self.clock():
            if not await self._act(room, Timeout(game.turn, game.deadline)):
                break

    def _schedule(self, room: Room) -> None:
        """Set the turn's timers: its deadline, and a bot if one is to play it."""
        runtime = self._runtime[room.code]
        self._cancel_timers(runtime)
        game = room.game
        if game is None or game.is_over or room.status != "playing":
            return
        loop = asyncio.get_running_loop()
        now = self.clock()
        moves = len(game.actions)
        deadline = game.deadline
        if deadline is not None:
            runtime.timers.append(
                loop.call_later(max(0.0, deadline - now), lambda: self._spawn(self._on_deadline(room, moves)))
            )
        seat = room.seats[game.turn]
        if seat.kind == "bot":
            assert seat.level is not None
            runtime.bot_task = asyncio.ensure_future(self._bot_turn(room, moves, seat.level, stand_in=False))
        elif seat.connections == 0 and seat.away_since is not None:
            waited = now - seat.away_since
            if waited >= room.options.grace_seconds:
                level = room.options.stand_in_level
                runtime.bot_task = asyncio.ensure_future(self._bot_turn(room, moves, level, stand_in=True))
            else:
                runtime.timers.append(
                    loop.call_later(
                        room.options.grace_seconds - waited, lambda: self._spawn(self._grace_over(room, moves))
                    )
                )

    def _announce_stand_in_later(self, room: Room, seat: Seat) -> None:
        runtime = self._runtime[room.code]
        previous = runtime.grace_timers.pop(seat.index, None)
        if previous is not None:
            previous.cancel()

        async def announce() -> None:
            runtime.grace_timers.pop(seat.index, None)
            async with room.lock:
                if room.status == "playing" and seat.stand_in(self.clock(), room.options.grace_seconds):
                    self._broadcast_room(room)

        # A little after the grace period, so the seat reads as stood in.
        delay = room.options.grace_seconds + 0.05
        runtime.grace_timers[seat.index] = asyncio.get_running_loop().call_later(delay, lambda: self._spawn(announce()))

    async def _grace_over(self, room: Room, moves: int) -> None:
        async with room.lock:
            if room.game is not None and len(room.game.actions) == moves:
                self._schedule(room)

    @staticmethod
    def _cancel_timers(runtime: _RoomRuntime) -> None:
        """The turn's timers (not the grace periods, which outlast turns)."""
        for timer in runtime.timers:
            timer.cancel()
        runtime.timers.clear()
        # A bot's own move reschedules the room: its task must not cancel itself.
        if runtime.bot_task is not None and runtime.bot_task is not asyncio.current_task():
            runtime.bot_task.cancel()
        runtime.bot_task = None

    async def _on_deadline(self, room: Room, moves: int) -> None:
        async with room.lock:
            if room.game is not None and len(room.game.actions) == moves:
                await self._apply_due_timeouts(room)

    async def _bot_turn(self, room: Room, moves: int, level: str, *, stand_in: bool) -> None:
        game = room.game
        assert game is not None
        await asyncio.sleep(room.options.bot_delay)
        async with room.lock:
            # Read under the lock: an action may be under way in the store's thread.
            if room.game is not game or len(game.actions) != moves:
                return
            seat = game.turn
            view = game.view(seat)
            deadline = game.deadline
        budget = self.bot_budget
        if deadline is not None:
            budget = min(budget, deadline - self.clock() - BOT_MARGIN_SECONDS)
        seed = ((game.deal.seed or 0) + moves) % 2**63
        chosen = await self.bots.choose(level, seed, view, budget)
        async with room.lock:
            if room.game is not game or len(game.actions) != moves:
                return
            at = self.clock()
            if stand_in and not room.seats[seat].stand_in(at, room.options.grace_seconds):
                return
            action: Action
            if isinstance(chosen, Play) and chosen.seat == seat:
                action = Play(seat, chosen.table, at)
            else:
                action = Draw(seat, at) if game.pool_size else Pass(seat, at)
            if not await self._act(room, action, stand_in=stand_in) and len(game.actions) == moves:
                fallback = Draw(seat, at) if game.pool_size else Pass(seat, at)
                await self._act(room, fallback, stand_in=stand_in)

    async def _hint(self, member: Member, reply_to: RequestId | None) -> None:
        # One hint at a time per connection: hints share the bots' workers.
        if member in self._hinting:
            raise RoomError("rate_limited", "a hint is already being worked out")
        room = self._room_of(member)
        async with room.lock:
            if not room.options.hints:
                raise RoomError("hints_off", "this room does not give hints")
            seat = self._seat_of(member, room)
            game = room.game
            assert game is not None
            if game.turn != seat:
                raise RoomError(Reason.NOT_YOUR_TURN.value, "hints are given on your own turn")
            view = game.view(seat)
        # The solver thinks outside the room's lock, so the room's clock and others' messages go on.
        self._hinting.add(member)
        try:
            solution = await self.bots.suggest(view, self.bot_budget)
        finally:
            self._hinting.discard(member)
        if solution is None:
            member.send(Hint(sets=None, placed=[], reply_to=reply_to))
        else:
            member.send(
                Hint(
                    sets=[str(meld).split() for meld in solution.table],
                    placed=[str(tile) for tile in solution.placed],
                    reply_to=reply_to,
                )
            )

    def _live_table(self, member: Member, room: Room, message: LiveTable) -> None:
        seat = self._seat_of(member, room)
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
        text = room.live.model_dump_json()
        for other in self._runtime[room.code].members:
            if other is not member:
                other.outbox.send(text)

    def _chat(self, member: Member, room: Room, message: SendChat) -> None:
        assert member.name is not None and member.chat_bucket is not None
        name = room.seats[member.seat].name or member.name if member.seat is not None else member.name
        if name in room.muted:
            raise RoomError("muted", "the host has muted you in this room")
        if not member.chat_bucket.allow(self.clock()):
            raise RoomError("rate_limited", f"at most {self.limits.chats_per_minute} chat lines a minute")
        text = " ".join(message.text.split())
        if not text:
            raise RoomError("bad_request", "an empty chat line")
        line = ChatLine(name=name, seat=member.seat, text=text, at=self.clock())
        room.chat.append(line)
        encoded = line.model_dump_json()
        for other in self._runtime[room.code].members:
            if other is member:
                other.send(line.model_copy(update={"reply_to": message.id}))
            else:
                other.outbox.send(encoded)

    # --- Telling people --------------------------------------------------------

    def _send_snapshot(self, member: Member, room: Room, reply_to: RequestId | None) -> None:
        member.send(
            Snapshot(
                seq=room.seq,
                now=self.clock(),
                room=room.state(self.clock()),
                game=room.game_state(member.seat),
                chat=list(room.chat),
                reply_to=reply_to,
            )
        )
        if room.live is not None and room.game is not None and room.live.moves == len(room.game.actions):
            member.send(room.live)

    def _broadcast_room(
        self,
        room: Room,
        *,
        but: Member | None = None,
        replier: Member | None = None,
        reply_to: RequestId | None = None,
    ) -> None:
        room.seq += 1
        update = RoomUpdate(seq=room.seq, room=room.state(self.clock()))
        text = update.model_dump_json()
        for member in self._runtime[room.code].members:
            if member is replier:
                member.send(update.model_copy(update={"reply_to": reply_to}))
            elif member is not but:
                member.outbox.send(text)

    def _broadcast_game(
        self, room: Room, info: GameEventInfo, *, reply_to: RequestId | None, replier: Member | None
    ) -> None:
        """Each member gets the event with their own seat's view (encoded once per seat)."""
        now = self.clock()
        by_seat: dict[int | None, tuple[GameEvent, str]] = {}
        for member in self._runtime[room.code].members:
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

    # --- Lobby -----------------------------------------------------------------

    def lobby(self) -> list[dict[str, object]]:
        """The public rooms: open ones first (oldest first), then games being played."""
        rooms = [room for room in self.rooms.values() if room.options.public and room.status != "finished"]
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
            }
            for room in rooms
        ]

    async def sweep(self) -> None:
        """Close rooms nobody has been in for a long time, unless a game runs in them
        (their finished games stay in the store)."""
        now = self.clock()
        for code, runtime in list(self._runtime.items()):
            room = self.rooms[code]
            idle = runtime.idle_since is not None and now - runtime.idle_since > IDLE_ROOM_SECONDS
            if idle and room.status != "playing":
                await self._close_room(room)

    async def _close_room(self, room: Room) -> None:
        runtime = self._runtime.pop(room.code)
        self._cancel_timers(runtime)
        for timer in runtime.grace_timers.values():
            timer.cancel()
        del self.rooms[room.code]
        await self._write(Change(room=(room.code, "closed", room.to_data(), self.clock())))


def _table_text(sets: list[list[str]]) -> str:
    return " | ".join(" ".join(tiles) for tiles in sets)


def _joined(
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
