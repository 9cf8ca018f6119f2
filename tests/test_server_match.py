"""Online matches in-process: rounds in a row with the room's running totals, kept across a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.store import open_store

from .hubkit import Inbox, draw_to_the_end, say, two_players_draw_to_the_end

MATCH_OF_TWO = {"preset": "casual", "options": {"rounds": 2}}


async def _started_hub(database: str) -> Hub:
    hub = Hub(open_store(database), BotPool(0))
    await hub.start()
    return hub


async def _closed(hub: Hub) -> None:
    await hub.close()
    hub.store.close()


def _last_room(member: Member) -> dict[str, Any]:
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    rooms: list[dict[str, Any]] = [
        message["room"] for message in inbox.messages if message["type"] in ("room", "snapshot")
    ]
    return rooms[-1]


def test_a_match_plays_its_rounds_and_adds_them_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _started_hub(str(tmp_path / "db.sqlite3"))
        code, ana, bruno = await two_players_draw_to_the_end(hub, rules=MATCH_OF_TWO)
        first = list(hub.rooms[code].game.result.scores)  # type: ignore[union-attr]
        match = _last_room(ana)["match"]
        assert match == {"round": 1, "rounds": 2, "target_score": None, "totals": first, "over": False}

        # The host asks for the next round: the same match goes on.
        started = await say(hub, ana, type="rematch")
        assert started["type"] == "room" and started["room"]["match"]["round"] == 2
        assert started["room"]["match"]["totals"] == first
        # The lobby shows the match being played, its round and totals.
        [entry] = hub.lobby()
        assert entry["match"] == {"round": 2, "rounds": 2, "target_score": None, "totals": first, "over": False}
        second = await draw_to_the_end(hub, code, {0: ana, 1: bruno})
        match = _last_room(bruno)["match"]
        totals = [a + b for a, b in zip(first, second, strict=True)]
        assert match == {"round": 2, "rounds": 2, "target_score": None, "totals": totals, "over": True}

        # Once the match is over, the next game starts a new match.
        started = await say(hub, ana, type="rematch")
        assert started["room"]["match"] == {
            "round": 1,
            "rounds": 2,
            "target_score": None,
            "totals": [0, 0],
            "over": False,
        }
        await _closed(hub)

    asyncio.run(scenario())


def test_a_match_ends_when_a_total_reaches_the_target(tmp_path: Path) -> None:
    # Without the -200/-100 rule a round's winner never loses points, so some total soon reaches 1;
    # a round whose racks tie leaves the totals at 0, and the match goes on.
    rules = {"preset": "casual", "options": {"target_score": 1, "unmelded_penalty": False}}

    async def scenario() -> None:
        hub = await _started_hub(str(tmp_path / "db.sqlite3"))
        code, ana, bruno = await two_players_draw_to_the_end(hub, rules=rules)
        for round_number in range(1, 11):
            match = _last_room(ana)["match"]
            assert (match["round"], match["rounds"], match["target_score"]) == (round_number, None, 1)
            assert match["over"] == (max(match["totals"]) >= 1), match
            if match["over"]:
                break
            await say(hub, ana, type="rematch")
            await draw_to_the_end(hub, code, {0: ana, 1: bruno})
        assert match["over"], match
        await _closed(hub)

    asyncio.run(scenario())


def test_a_single_round_room_has_no_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _started_hub(str(tmp_path / "db.sqlite3"))
        _, ana, _ = await two_players_draw_to_the_end(hub)
        assert _last_room(ana)["match"] is None
        started = await say(hub, ana, type="rematch")
        assert started["room"]["match"] is None
        [entry] = hub.lobby()
        assert "match" not in entry
        await _closed(hub)

    asyncio.run(scenario())


def test_the_matchs_totals_survive_a_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "db.sqlite3")
    rules = {"preset": "casual", "options": {"rounds": 3}}

    async def first_run() -> tuple[str, list[str], list[int]]:
        hub = await _started_hub(database)
        code, ana, bruno = await two_players_draw_to_the_end(hub, rules=rules)
        first = list(hub.rooms[code].game.result.scores)  # type: ignore[union-attr]
        await say(hub, ana, type="rematch")
        second = await draw_to_the_end(hub, code, {0: ana, 1: bruno})
        tokens = [_token(member) for member in (ana, bruno)]
        # The server goes away without a word: the rounds before the last one live only in the room's stored data.
        hub.writer.close()
        return code, tokens, [a + b for a, b in zip(first, second, strict=True)]

    code, tokens, totals = asyncio.run(first_run())

    async def second_run() -> None:
        hub = await _started_hub(database)
        ana, bruno = Member(outbox=Inbox()), Member(outbox=Inbox())
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        await say(hub, ana, type="join_room", code=code, token=tokens[0])
        await say(hub, bruno, type="join_room", code=code, token=tokens[1])
        assert _last_room(ana)["match"] == {
            "round": 2,
            "rounds": 3,
            "target_score": None,
            "totals": totals,
            "over": False,
        }
        started = await say(hub, ana, type="rematch")
        assert started["room"]["match"]["round"] == 3
        third = await draw_to_the_end(hub, code, {0: ana, 1: bruno})
        match = _last_room(ana)["match"]
        assert match["totals"] == [a + b for a, b in zip(totals, third, strict=True)] and match["over"]
        await _closed(hub)

    asyncio.run(second_run())


def _token(member: Member) -> str:
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    token: str = next(message["token"] for message in inbox.messages if message["type"] == "joined")
    return token
