"""The hub in-process, with a clock the test moves: limits, and the clock catching up after a restart."""

from __future__ import annotations

import asyncio
import typing
from collections.abc import Sequence
from pathlib import Path

from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.limits import ServerLimits
from tilerummy.server.protocol import ClientMessage
from tilerummy.server.store import Change, Store, StoreError, open_store

from .hubkit import Inbox, ManualClock, StoreWrapper, say


def _member() -> Member:
    return Member(outbox=Inbox())


def test_the_room_limit_is_kept(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        hub = Hub(
            open_store(str(tmp_path / "db.sqlite3")),
            BotPool(0),
            limits=ServerLimits(max_rooms=1),
            clock=clock,
            timers=clock,
        )
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2)
        refused = await say(hub, bruno, type="create_room", id=3, seats=[{"kind": "person"}] * 2)
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "too_many_rooms", 3)
        await hub.close()
        hub.store.close()

    asyncio.run(scenario())


def test_after_a_restart_the_turns_that_ran_out_end_at_their_deadlines(tmp_path: Path) -> None:
    database = str(tmp_path / "db.sqlite3")
    clock = ManualClock(1_000_000.0)

    async def first_run() -> tuple[str, str, str]:
        hub = Hub(open_store(database), BotPool(0), clock=clock, timers=clock)
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        joined = await say(
            hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, rules={"options": {"turn_seconds": 10}}
        )
        await say(hub, bruno, type="join_room", code=joined["code"])
        await say(hub, ana, type="start_game")
        started = ana.outbox.messages[-1]  # type: ignore[attr-defined]
        assert started["game"]["deadline"] == 1_000_010.0
        # The server goes away without a word: no close, no leave.
        hub.writer.close()
        return joined["code"], joined["token"], started["game"]["game_id"]

    code, token, game_id = asyncio.run(first_run())
    clock.now += 25

    async def second_run() -> None:
        hub = Hub(open_store(database), BotPool(0), clock=clock, timers=clock)
        await hub.start()
        room = hub.rooms[code]
        assert room.game is not None
        assert [(action.kind, action.at) for action in room.game.actions] == [
            ("timeout", 1_000_010.0),
            ("timeout", 1_000_020.0),
        ]
        assert room.game.deadline == 1_000_030.0
        ana = _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, ana, type="join_room", code=code.lower(), token=token)
        snapshot = ana.outbox.messages[-1]  # type: ignore[attr-defined]
        assert snapshot["type"] == "snapshot" and snapshot["game"]["moves"] == 2
        stored = hub.store.game(game_id)
        assert stored is not None and [action["type"] for action in stored.actions] == ["timeout", "timeout"]
        await hub.close()
        hub.store.close()

    asyncio.run(second_run())


class FlakyStore(StoreWrapper):
    """A store whose next write fails when told to, as a full disk or a dropped connection would."""

    def __init__(self, inner: Store) -> None:
        super().__init__(inner)
        self.fail_next = False

    def commit_many(self, changes: Sequence[Change]) -> None:
        if self.fail_next:
            self.fail_next = False
            raise StoreError("could not write to the database: disk full")
        self.inner.commit_many(changes)


def test_an_action_whose_write_fails_is_not_applied(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FlakyStore(open_store(str(tmp_path / "db.sqlite3")))
        clock = ManualClock()
        hub = Hub(store, BotPool(0), clock=clock, timers=clock)
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2)
        await say(hub, bruno, type="join_room", code=joined["code"])
        await say(hub, ana, type="start_game")
        room = hub.rooms[joined["code"]]
        assert room.game is not None
        game, seq = room.game, room.seq
        mover = ana if game.turn == 0 else bruno
        rack = game.rack(game.turn)
        store.fail_next = True
        refused = await say(hub, mover, type="draw", id=5)
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "server_error", 5)
        assert room.game is game and game.actions == () and game.rack(game.turn) == rack
        # The room only hears that the server is catching up.
        assert (room.seq, room.status, room.catching_up) == (seq + 1, "playing", True)
        told = typing.cast(Inbox, mover.outbox).messages[-1]
        assert (told["type"], told["seq"], told["room"]["catching_up"]) == ("room", seq + 1, True)
        drawn = await say(hub, mover, type="draw", id=6)
        assert (drawn["type"], drawn["seq"], drawn["game"]["moves"], drawn["reply_to"]) == ("game", seq + 2, 1, 6)
        told = typing.cast(Inbox, mover.outbox).messages[-1]
        assert (told["type"], told["seq"], told["room"]["catching_up"]) == ("room", seq + 3, False)
        stored = store.game(drawn["game"]["game_id"])
        assert stored is not None and [action["type"] for action in stored.actions] == ["draw"]
        await hub.close()
        store.close()

    asyncio.run(scenario())


class FailingStore(StoreWrapper):
    """A store whose next ``failures`` writes of actions fail; it notes when each was tried."""

    def __init__(self, inner: Store, clock: ManualClock) -> None:
        super().__init__(inner)
        self.clock = clock
        self.failures = 0
        self.tried: list[float] = []

    def commit_many(self, changes: Sequence[Change]) -> None:
        if any(change.actions for change in changes):
            self.tried.append(self.clock.now)
            if self.failures:
                self.failures -= 1
                raise StoreError("could not write to the database: connection refused")
        self.inner.commit_many(changes)


def test_a_timeout_whose_write_fails_is_tried_again_later_each_time_and_the_room_is_told(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        store = FailingStore(open_store(str(tmp_path / "db.sqlite3")), clock)
        hub = Hub(store, BotPool(0), clock=clock, timers=clock)
        clock.watch(hub)
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        rules = {"options": {"turn_seconds": 10}}
        joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, rules=rules)
        await say(hub, bruno, type="join_room", code=joined["code"])
        await say(hub, ana, type="start_game")
        room = hub.rooms[joined["code"]]
        assert room.game is not None and room.game.deadline is not None
        deadline, start = room.game.deadline, clock.now
        inbox = typing.cast(Inbox, bruno.outbox)
        store.failures = 4
        await clock.advance(40)
        # Tried at the deadline, then after 0.5, 1, 2 and 4 seconds more; the next turn's at its own deadline.
        assert [round(at - deadline, 3) for at in store.tried][:6] == [0, 0.5, 1.5, 3.5, 7.5, 10]
        told = [sent["room"]["catching_up"] for sent in inbox.messages if sent["type"] == "room"]
        assert told[-2:] == [True, False] and told.count(True) == 1
        # The turn ended at its deadline all the same: the clock runs on as if nothing failed.
        assert [(action.kind, action.at) for action in room.game.actions][:2] == [
            ("timeout", deadline),
            ("timeout", deadline + 10),
        ]
        assert room.catching_up is False and start + 40 == clock.now
        await hub.close()
        store.close()

    asyncio.run(scenario())


def test_a_join_whose_write_fails_takes_no_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FlakyStore(open_store(str(tmp_path / "db.sqlite3")))
        hub = Hub(store, BotPool(0), clock=ManualClock(), timers=ManualClock())
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2)
        room = hub.rooms[joined["code"]]
        store.fail_next = True
        refused = await say(hub, bruno, type="join_room", id=2, code=joined["code"])
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "server_error", 2)
        assert [seat.name for seat in room.seats] == ["Ana", None] and bruno.room is None
        again = await say(hub, bruno, type="join_room", id=3, code=joined["code"])
        assert (again["type"], again["seat"]) == ("joined", 1)
        stored = store.room(joined["code"])
        assert stored is not None and [seat["name"] for seat in stored["seats"]] == ["Ana", "Bruno"]
        await hub.close()
        store.close()

    asyncio.run(scenario())


def test_a_stale_action_is_refused_and_one_sent_again_is_answered_without_acting_twice(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        hub = Hub(open_store(str(tmp_path / "db.sqlite3")), BotPool(0), clock=clock, timers=clock)
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2)
        bruno_joined = await say(hub, bruno, type="join_room", code=joined["code"])
        await say(hub, ana, type="start_game")
        room = hub.rooms[joined["code"]]
        assert room.game is not None
        first, second = (ana, bruno) if room.game.turn == 0 else (bruno, ana)
        first_token = (joined if first is ana else bruno_joined)["token"]
        seen = room.seq
        drawn = await say(hub, first, type="draw", id=7, seq=seen)
        assert (drawn["type"], drawn["reply_to"], drawn["seq"]) == ("game", 7, seen + 1)
        # Sent again (the answer was lost, say): answered with a snapshot, not drawn twice.
        again = await say(hub, first, type="draw", id=7, seq=seen)
        assert (again["type"], again["reply_to"], again["seq"]) == ("snapshot", 7, seen + 1)
        assert len(room.game.actions) == 1 and again["game"]["moves"] == 1
        # The other player acts on the state before the draw: stale, nothing changes.
        stale = await say(hub, second, type="draw", id=8, seq=seen)
        assert (stale["type"], stale["reason"], stale["reply_to"]) == ("error", "stale", 8)
        assert len(room.game.actions) == 1
        # A player coming back is news of the room, not of the game: an action made since is not stale.
        await say(hub, first, type="leave_room")
        back = await say(hub, first, type="join_room", code=joined["code"], token=first_token)
        assert back["type"] == "joined" and room.seq > seen + 1
        played = await say(hub, second, type="draw", id=9, seq=seen + 1)
        assert (played["type"], played["reply_to"]) == ("game", 9)
        # Without seq (an older client) the action is taken as it comes.
        assert (await say(hub, first, type="draw", id=10))["type"] == "game"
        assert len(room.game.actions) == 3
        await hub.close()
        hub.store.close()

    asyncio.run(scenario())


def test_every_client_message_type_has_a_handler(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "db.sqlite3"))
    hub = Hub(store, BotPool(0))
    union = typing.get_args(ClientMessage)[0]
    assert hub.handled_types() == set(typing.get_args(union))
    asyncio.run(hub.close())
    store.close()
