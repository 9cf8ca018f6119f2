"""Rooms under hostile and careless use, with the hub in-process on a clock the test moves:
abandoned rooms, hosts who leave, seats taken twice, connections that hop between rooms,
and rules no game should have."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tilerummy.server.botpool import BotPool
from tilerummy.server.gate import CLOSE_REPLACED
from tilerummy.server.hub import Hub, Member
from tilerummy.server.limits import ServerLimits
from tilerummy.server.store import open_store

from .hubkit import Inbox, ManualClock, ask, say

TWO = [{"kind": "person"}] * 2
THREE = [{"kind": "person"}] * 3


def run_hub(tmp_path: Path, scenario: Callable[[Hub, ManualClock], Awaitable[None]], **limits: Any) -> None:
    async def main() -> None:
        clock = ManualClock(1_000_000.0)
        hub = Hub(
            open_store(str(tmp_path / "db.sqlite3")),
            BotPool(0),
            limits=ServerLimits(**limits),
            clock=clock,
            timers=clock,
        )
        clock.watch(hub)
        await hub.start()
        try:
            await scenario(hub, clock)
        finally:
            await hub.close()
            hub.store.close()

    asyncio.run(main())


async def person(hub: Hub, name: str, address: str = "") -> Member:
    member = Member(outbox=Inbox(), address=address)
    await say(hub, member, type="hello", protocol=1, name=name)
    return member


def inbox(member: Member) -> Inbox:
    assert isinstance(member.outbox, Inbox)
    return member.outbox


async def connection_closes(hub: Hub, member: Member) -> None:
    await hub.leave(member, explicit=False, reply_to=None)


def test_rooms_created_and_abandoned_are_closed_soon_and_capped_per_address(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        codes = []
        for number in range(3):
            member = await person(hub, f"Mallory {number}", "203.0.113.9")
            codes.append((await say(hub, member, type="create_room", seats=TWO))["code"])
            await connection_closes(hub, member)
        refused = await say(hub, await person(hub, "Mallory"), type="create_room", id=4, seats=TWO)
        assert refused["type"] == "joined", "another address is not limited by this one"
        again = await person(hub, "Mallory 4", "203.0.113.9")
        refused = await say(hub, again, type="create_room", id=5, seats=TWO)
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "too_many_rooms", 5)
        # A newcomer is not seated in a room nobody is in: it may never start.
        newcomer = await person(hub, "Nina")
        matched = await say(hub, newcomer, type="quick_match", id=6)
        assert matched["type"] == "joined" and matched["code"] not in codes
        clock.now += hub.limits.empty_room_seconds
        await hub.sweep()
        assert not set(codes) & set(hub.rooms)
        allowed = await say(hub, again, type="create_room", id=7, seats=TWO)
        assert allowed["type"] == "joined"

    run_hub(tmp_path, scenario, max_rooms_per_address=3)


def test_a_room_with_someone_in_it_is_not_closed_as_empty(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await person(hub, "Ana")
        code = (await say(hub, ana, type="create_room", seats=TWO))["code"]
        clock.now += 10 * hub.limits.empty_room_seconds
        await hub.sweep()
        assert code in hub.rooms

    run_hub(tmp_path, scenario)


def test_the_host_leaving_before_the_start_passes_the_host_to_the_longest_seated(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno, carla = await person(hub, "Ana"), await person(hub, "Bruno"), await person(hub, "Carla")
        code = (await say(hub, ana, type="create_room", seats=THREE))["code"]
        clock.now += 1
        await say(hub, bruno, type="join_room", code=code)
        clock.now += 1
        await say(hub, carla, type="join_room", code=code)
        await say(hub, ana, type="leave_room")
        update = inbox(carla).messages[-1]
        assert (update["type"], update["room"]["host"], update["room"]["host_seat"]) == ("room", "Bruno", 1)
        refused = await ask(hub, carla, type="start_game", id=1)
        assert (refused["reason"], refused["reply_to"]) == ("not_host", 1)
        dan = await person(hub, "Dan")
        assert (await say(hub, dan, type="join_room", code=code))["host"] is False
        started = await ask(hub, bruno, type="start_game", id=2)
        assert (started["type"], started["event"]["kind"], started["reply_to"]) == ("game", "start", 2)

    run_hub(tmp_path, scenario)


def test_a_newcomer_to_a_room_whose_host_is_gone_becomes_host(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await person(hub, "Ana"), await person(hub, "Bruno")
        created = await say(hub, ana, type="create_room", seats=TWO)
        await connection_closes(hub, ana)
        joined = await say(hub, bruno, type="join_room", code=created["code"])
        assert (joined["seat"], joined["host"]) == (1, True)
        # The old host comes back with her token: she keeps her seat, not the rights.
        back = await person(hub, "Ana")
        rejoined = await say(hub, back, type="join_room", code=created["code"], token=created["token"])
        assert (rejoined["seat"], rejoined["host"]) == (0, False)
        refused = await ask(hub, back, type="start_game", id=1)
        assert refused["reason"] == "not_host"
        started = await ask(hub, bruno, type="start_game", id=2)
        assert started["type"] == "game"

    run_hub(tmp_path, scenario)


def test_a_host_who_left_gets_the_rights_back_when_nobody_else_is_there(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await person(hub, "Ana")
        created = await say(hub, ana, type="create_room", seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
        await connection_closes(hub, ana)
        back = await person(hub, "Ana")
        rejoined = await say(hub, back, type="join_room", code=created["code"], token=created["token"])
        assert rejoined["host"] is True
        assert (await ask(hub, back, type="start_game"))["type"] == "game"

    run_hub(tmp_path, scenario)


def test_a_second_connection_with_a_seats_token_replaces_the_first_openly(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await person(hub, "Ana"), await person(hub, "Bruno")
        created = await say(hub, ana, type="create_room", seats=TWO)
        await say(hub, bruno, type="join_room", code=created["code"])
        other_tab = await person(hub, "Ana")
        joined = await say(hub, other_tab, type="join_room", id=3, code=created["code"], token=created["token"])
        assert (joined["seat"], joined["host"], joined["reply_to"]) == (0, True, 3)
        told = inbox(ana).messages[-1]
        assert (told["type"], told["reason"], told["reply_to"]) == ("error", "replaced", None)
        assert inbox(ana).closed == (CLOSE_REPLACED, "replaced")
        assert ana.room is None
        room = hub.rooms[created["code"]]
        assert room.seats[0].connections == 1
        # The replaced connection's close later changes nothing.
        await connection_closes(hub, ana)
        assert room.seats[0].connections == 1
        assert (await ask(hub, other_tab, type="start_game"))["type"] == "game"

    run_hub(tmp_path, scenario)


@pytest.mark.parametrize("move", ["create_room", "join_room", "quick_match"])
def test_a_connection_moving_to_another_room_is_told_it_left(tmp_path: Path, move: str) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await person(hub, "Ana"), await person(hub, "Bruno")
        first = (await say(hub, ana, type="create_room", seats=THREE))["code"]
        second = (await say(hub, bruno, type="create_room", seats=TWO))["code"]
        requests: dict[str, dict[str, Any]] = {
            "create_room": {"type": "create_room", "seats": TWO},
            "join_room": {"type": "join_room", "code": second},
            "quick_match": {"type": "quick_match"},
        }
        left = await say(hub, ana, id=9, **requests[move])
        assert (left["type"], left["code"], left["reply_to"]) == ("left", first, None)
        answer = inbox(ana).messages[inbox(ana).messages.index(left) + 1]
        assert (answer["type"], answer["reply_to"]) == ("joined", 9)
        assert answer["code"] != first

    run_hub(tmp_path, scenario)


@pytest.mark.parametrize(
    "options",
    [{"turn_seconds": 1e308}, {"initial_meld_points": 10**12}, {"timeout_penalty": 10**9}, {"joker_penalty": -5}],
)
def test_rules_no_game_should_have_are_refused(tmp_path: Path, options: dict[str, Any]) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await person(hub, "Ana")
        refused = await say(hub, ana, type="create_room", id=1, seats=TWO, rules={"options": options})
        assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "bad_rules", 1)
        assert next(iter(options)) in refused["detail"]
        assert not hub.rooms

    run_hub(tmp_path, scenario)


def test_a_live_table_with_an_id_gets_its_answer(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await person(hub, "Ana"), await person(hub, "Bruno")
        code = (await say(hub, ana, type="create_room", seats=TWO))["code"]
        await say(hub, bruno, type="join_room", code=code)
        started = await ask(hub, ana, type="start_game")
        player, other = (ana, bruno) if started["game"]["turn"] == 0 else (bruno, ana)
        shown = await say(hub, player, type="live_table", id=4, sets=[])
        assert (shown["type"], shown["reply_to"], shown["sets"]) == ("live_table", 4, [])
        relayed = inbox(other).messages[-1]
        assert (relayed["type"], relayed["reply_to"]) == ("live_table", None)
        refused = await say(hub, other, type="live_table", id=5, sets=[])
        assert (refused["reason"], refused["reply_to"]) == ("not_your_turn", 5)

    run_hub(tmp_path, scenario)


def test_rooms_from_the_machine_itself_are_limited_only_in_all(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        for number in range(3):
            member = await person(hub, f"Proxy {number}", "127.0.0.1")
            assert (await say(hub, member, type="create_room", seats=TWO))["type"] == "joined"
        refused = await say(hub, await person(hub, "Proxy", "127.0.0.1"), type="create_room", id=1, seats=TWO)
        assert (refused["reason"], refused["reply_to"]) == ("too_many_rooms", 1)

    run_hub(tmp_path, scenario, max_rooms_per_address=2, max_rooms=3)


@pytest.mark.parametrize("asked", [{"token": "forged"}, {"role": "player"}])
def test_a_join_that_is_refused_leaves_the_member_in_their_room(tmp_path: Path, asked: dict[str, Any]) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno, carla = await person(hub, "Ana"), await person(hub, "Bruno"), await person(hub, "Carla")
        full = (await say(hub, ana, type="create_room", seats=TWO))["code"]
        await say(hub, bruno, type="join_room", code=full)
        mine = (await say(hub, carla, type="create_room", seats=TWO))["code"]
        refused = await say(hub, carla, type="join_room", id=2, code=full, **asked)
        assert (refused["type"], refused["reply_to"]) == ("error", 2)
        assert refused["reason"] in ("bad_token", "room_full")
        assert carla.room is hub.rooms[mine]

    run_hub(tmp_path, scenario)


def test_a_join_sent_again_with_its_new_token_takes_one_seat_wherever_it_arrives(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await person(hub, "Ana")
        created = await say(hub, ana, type="create_room", seats=THREE)
        chosen = "a-secret-of-bruno-s-own"
        # The same join over two connections (sent again after a reconnection, or relayed twice).
        first, second = await person(hub, "Bruno"), await person(hub, "Bruno")
        joined = await say(hub, first, type="join_room", id=1, code=created["code"], new_token=chosen)
        again = await say(hub, second, type="join_room", id=1, code=created["code"], new_token=chosen)
        assert (joined["type"], joined["seat"], joined["token"]) == ("joined", 1, chosen)
        assert (again["type"], again["seat"], again["token"], again["reply_to"]) == ("joined", 1, chosen, 1)
        room = hub.rooms[created["code"]]
        assert [seat.name for seat in room.seats] == ["Ana", "Bruno", None]
        assert inbox(first).closed == (CLOSE_REPLACED, "replaced") and room.seats[1].connections == 1
        # The token is the seat's: it takes the seat back as any token does.
        third = await person(hub, "Bruno")
        back = await say(hub, third, type="join_room", code=created["code"], token=chosen)
        assert (back["seat"], back["token"]) == (1, None)
        # A token too short to be a secret is refused.
        carla = await person(hub, "Carla")
        await hub.receive(carla, json.dumps({"type": "join_room", "id": 4, "code": created["code"], "new_token": "x"}))
        short = inbox(carla).messages[-1]
        assert (short["type"], short["reason"], short["reply_to"]) == ("error", "bad_message", 4)
        assert "new_token" in short["detail"] and carla.room is None

    run_hub(tmp_path, scenario)


def test_a_quick_match_sent_again_with_its_new_token_finds_the_seat_it_took(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        chosen = "a-quick-secret-of-ana-s"
        first, second = await person(hub, "Ana"), await person(hub, "Ana")
        made = await say(hub, first, type="quick_match", id=1, new_token=chosen)
        again = await say(hub, second, type="quick_match", id=1, new_token=chosen)
        assert (made["type"], made["token"], made["host"]) == ("joined", chosen, True)
        assert (again["type"], again["code"], again["seat"], again["token"]) == ("joined", made["code"], 0, chosen)
        assert len(hub.rooms) == 1 and [seat.name for seat in hub.rooms[made["code"]].seats] == ["Ana", None]
        # Someone else's quick match takes the other seat; Ana's sent once more still finds hers.
        bruno = await person(hub, "Bruno")
        assert (await say(hub, bruno, type="quick_match", new_token="bruno-s-own-secret-1"))["seat"] == 1
        third = await person(hub, "Ana")
        once_more = await say(hub, third, type="quick_match", id=1, new_token=chosen)
        assert (once_more["code"], once_more["seat"]) == (made["code"], 0) and len(hub.rooms) == 1

    run_hub(tmp_path, scenario)
