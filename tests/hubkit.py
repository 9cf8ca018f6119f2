"""The hub in-process, for the server's tests: a clock the test moves, and players whose
messages land in a list.

Nothing here waits on the wall clock: time passes when a test calls
:meth:`ManualClock.advance`, which fires the timers that fell due in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tilerummy.server.botpool import BotPool
from tilerummy.server.clock import Timer
from tilerummy.server.hub import Hub, Member
from tilerummy.server.protocol import PROTOCOL_VERSION, parse_client_message
from tilerummy.server.store import Change, Statement, Store, StoredGame, open_store

Message = dict[str, Any]

#: A safety net, not a measurement: a message that has not come after this many seconds never will.
WAIT = 20.0
#: The clock's start: a plausible wall-clock time, so deadlines read like real ones.
EPOCH = 1_000_000.0


@dataclass(order=True)
class _ManualTimer:
    when: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """The hub's clock and timers: the time is ``now`` until the test moves it."""

    def __init__(self, now: float = EPOCH) -> None:
        self.now = now
        self._timers: list[_ManualTimer] = []
        self._order = itertools.count()
        self._hubs: list[Hub] = []

    def watch(self, hub: Hub) -> None:
        """Have :meth:`advance` wait for the hub's writes too: a timeout's action is
        stored by the writer's thread, and only then announced."""
        self._hubs.append(hub)

    async def _settle(self) -> None:
        await settle()
        while any(hub.writer.pending for hub in self._hubs):
            for hub in self._hubs:
                await hub.writer.drained()
            await settle()

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer(self.now + max(0.0, delay), next(self._order), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def pending(self) -> list[float]:
        """When the timers still set will fire."""
        return sorted(timer.when for timer in self._timers if not timer.cancelled)

    async def advance(self, seconds: float) -> None:
        """Move the time on, firing each timer at its own time, in order, letting the hub act on each."""
        # First the tasks already started set their timers (a bot's delay, say), at the time it is now.
        await self._settle()
        end = self.now + seconds
        while self._timers and self._timers[0].when <= end:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.now = max(self.now, timer.when)
            timer.callback()
            await self._settle()
        self.now = end
        await self._settle()


async def settle() -> None:
    """Let the tasks the hub started run until they wait for something."""
    for _ in range(20):
        await asyncio.sleep(0)


class Inbox:
    """Stands in for a WebSocket: keeps what the hub sends, decoded, and wakes whoever waits for it."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._arrived = asyncio.Event()
        #: The close code and reason once the hub closed the connection; nothing arrives after it.
        self.closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        if self.closed is None:
            self.messages.append(json.loads(text))
            self._arrived.set()

    def close(self, code: int, reason: str) -> None:
        self.closed = self.closed or (code, reason)

    async def arrival(self) -> None:
        self._arrived.clear()
        await asyncio.wait_for(self._arrived.wait(), timeout=WAIT)


async def say(hub: Hub, member: Member, **message: Any) -> Message:
    """The first message the member gets in answer."""
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    before = len(inbox.messages)
    await hub.handle(member, parse_client_message(json.dumps(message)))
    return inbox.messages[before]


async def ask(hub: Hub, member: Member, **message: Any) -> dict[str, Any]:
    """The answer to a request (the message carrying its id as reply_to); the id is "ask" when none is given."""
    message.setdefault("id", "ask")
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    before = len(inbox.messages)
    await hub.handle(member, parse_client_message(json.dumps(message)))
    answers = [sent for sent in inbox.messages[before:] if sent.get("reply_to") == message["id"]]
    assert len(answers) == 1, f"{message['type']}: {len(answers)} answers"
    return answers[0]


async def draw_to_the_end(hub: Hub, code: str, members: dict[int, Member]) -> list[int]:
    """Everyone draws (then passes) until the room's round is over; its scores."""
    room = hub.rooms[code]
    assert room.game is not None
    for _ in range(300):
        if room.game.is_over:
            break
        answer = await say(hub, members[room.game.turn], type="draw" if room.game.pool_size else "pass")
        assert answer["type"] == "game", answer
    assert room.game.result is not None
    return list(room.game.result.scores)


async def two_players_draw_to_the_end(hub: Hub, *, rules: dict[str, Any] | None = None) -> tuple[str, Member, Member]:
    """Ana and Bruno start a game and draw (then pass) until it is over; the room's code and the two members."""
    ana, bruno = Member(outbox=Inbox()), Member(outbox=Inbox())
    await say(hub, ana, type="hello", protocol=1, name="Ana")
    await say(hub, bruno, type="hello", protocol=1, name="Bruno")
    joined = await say(
        hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, rules=rules or {"preset": "casual"}
    )
    await say(hub, bruno, type="join_room", code=joined["code"])
    await say(hub, ana, type="start_game")
    await draw_to_the_end(hub, joined["code"], {0: ana, 1: bruno})
    return joined["code"], ana, bruno


class Player:
    """A client of the hub, as a WebSocket client would be: it keeps every message it receives.

    ``wait_for`` takes the first message not yet taken that a test wants; the
    ones it passes over stay for later waits.
    """

    def __init__(self, hub: Hub, name: str) -> None:
        self.hub = hub
        self.name = name
        self.inbox = Inbox()
        self.member = Member(outbox=self.inbox, base_url="http://testserver")
        self._pending: list[Message] = []
        self._read = 0
        self._next_id = 0
        self.token: str | None = None
        self.seat: int | None = None
        self.code: str | None = None

    @property
    def received(self) -> list[Message]:
        return self.inbox.messages

    @classmethod
    async def hello(cls, hub: Hub, name: str) -> Player:
        player = cls(hub, name)
        await player.greet()
        return player

    async def greet(self) -> None:
        """Say hello with the player's name, as a client's first message, and wait for the welcome."""
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name})
        await self.wait_for(lambda message: message["type"] == "welcome")

    async def send(self, message: Message) -> None:
        await self.hub.handle(self.member, parse_client_message(json.dumps(message)))

    async def request(self, message: Message) -> Message:
        """Send with an id and return the first reply to it."""
        self._next_id += 1
        request_id = self._next_id
        await self.send({**message, "id": request_id})
        return await self.wait_for(lambda reply: reply.get("reply_to") == request_id)

    async def wait_for(self, wanted: Callable[[Message], bool]) -> Message:
        """The first message not yet taken that is wanted; fails after ``WAIT`` seconds in all,
        even while unwanted messages keep coming."""
        for index, message in enumerate(self._pending):
            if wanted(message):
                del self._pending[index]
                return message
        give_up = time.monotonic() + WAIT
        while True:
            if time.monotonic() > give_up:
                raise AssertionError(f"{self.name}: no such message in {WAIT} s; last: {self.received[-3:]}")
            while self._read < len(self.inbox.messages):
                message = self.inbox.messages[self._read]
                self._read += 1
                if wanted(message):
                    return message
                self._pending.append(message)
            try:
                await self.inbox.arrival()
            except TimeoutError:
                raise AssertionError(f"{self.name}: no such message; last: {self.received[-3:]}") from None

    async def create(self, seats: list[Message], *, rules: Message | None = None, **options: Any) -> Message:
        request: Message = {"type": "create_room", "seats": seats, "options": {"bot_delay": 0, **options}}
        if rules is not None:
            request["rules"] = rules
        joined = await self.request(request)
        assert joined["type"] == "joined", joined
        self.code, self.seat, self.token = joined["code"], joined["seat"], joined["token"]
        return joined

    async def join(self, code: str, *, role: str = "player", token: str | None = None) -> Message:
        request: Message = {"type": "join_room", "code": code, "role": role}
        if token is not None:
            request["token"] = token
        joined = await self.request(request)
        assert joined["type"] == "joined", joined
        self.code, self.seat = joined["code"], joined["seat"]
        self.token = joined["token"] or token
        return joined

    async def close(self) -> None:
        """The connection closes: the member leaves its room as a closed WebSocket does."""
        await self.hub.leave(self.member, explicit=False, reply_to=None)


@contextlib.asynccontextmanager
async def running_hub(
    database: Path | str, clock: ManualClock | None = None, *, bot_budget: float = 0.5, store: Store | None = None
) -> AsyncIterator[Hub]:
    """A started hub on a manual clock, with bots thinking in threads; closed afterwards."""
    clock = clock or ManualClock()
    opened = store or open_store(str(database))
    hub = Hub(opened, BotPool(0), clock=clock, timers=clock, bot_budget=bot_budget)
    clock.watch(hub)
    await hub.start()
    try:
        yield hub
    finally:
        await hub.close()
        opened.close()


def on_hub(tmp_path: Path, scenario: Callable[[Hub, ManualClock], Awaitable[None]], *, bot_budget: float = 0.5) -> None:
    """Run a test's scenario against a fresh hub on a manual clock."""

    async def main() -> None:
        clock = ManualClock()
        async with running_hub(tmp_path / "server.sqlite3", clock, bot_budget=bot_budget) as hub:
            await scenario(hub, clock)

    asyncio.run(main())


T = TypeVar("T")


class StoreWrapper:
    """A store that passes everything on to another: a test's store changes what it needs."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner

    def commit(self, change: Change) -> None:
        self.commit_many([change])

    def commit_many(self, changes: Sequence[Change]) -> None:
        self.inner.commit_many(changes)

    def stored_version(self) -> int:
        return self.inner.stored_version()

    def hold(self, code: str, holder: str) -> None:
        self.inner.hold(code, holder)

    def rooms(self, *, active_only: bool) -> list[dict[str, Any]]:
        return self.inner.rooms(active_only=active_only)

    def room(self, code: str) -> dict[str, Any] | None:
        return self.inner.room(code)

    def active_codes(self) -> list[str]:
        return self.inner.active_codes()

    def game(self, game_id: str) -> StoredGame | None:
        return self.inner.game(game_id)

    def games(self, room: str) -> list[StoredGame]:
        return self.inner.games(room)

    def transact(self, work: Callable[[Statement], T]) -> T:
        return self.inner.transact(work)

    def close(self) -> None:
        self.inner.close()
