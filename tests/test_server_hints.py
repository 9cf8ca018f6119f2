"""Hints: the solver's suggestion, on the player's own turn, in rooms that allow them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tilerummy.server.hub import Hub, Member
from tilerummy.server.protocol import parse_client_message

from .hubkit import Inbox, running_hub, say


async def _two_player_game(hub: Hub, *, hints: bool) -> tuple[Member, Member, dict[str, Any]]:
    ana, bruno = Member(outbox=Inbox()), Member(outbox=Inbox())
    await say(hub, ana, type="hello", protocol=1, name="Ana")
    await say(hub, bruno, type="hello", protocol=1, name="Bruno")
    joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, options={"hints": hints})
    await say(hub, bruno, type="join_room", code=joined["code"])
    await say(hub, ana, type="start_game")
    started: dict[str, Any] = ana.outbox.messages[-1]  # type: ignore[attr-defined]
    return ana, bruno, started["game"]


def test_a_hint_is_the_solvers_play_and_the_server_accepts_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_hub(tmp_path / "db.sqlite3", bot_budget=3.0) as hub:
            played = drew = 0
            # Deals are random: play until both answers, a play and "draw instead", have been seen.
            for _game in range(30):
                ana, bruno, game = await _two_player_game(hub, hints=True)
                player, other = (ana, bruno) if game["turn"] == 0 else (bruno, ana)
                refused = await say(hub, other, type="hint", id=1)
                assert (refused["type"], refused["reason"], refused["reply_to"]) == ("error", "not_your_turn", 1)
                hint = await say(hub, player, type="hint", id=2)
                assert (hint["type"], hint["reply_to"]) == ("hint", 2)
                if hint["sets"] is None:
                    assert hint["placed"] == []
                    drew += 1
                else:
                    # A first play: every tile on the table came from the rack.
                    placed = sorted(tile for tiles in hint["sets"] for tile in tiles)
                    assert placed == sorted(hint["placed"])
                    accepted = await say(hub, player, type="play", id=3, sets=hint["sets"])
                    assert (accepted["type"], accepted["event"]["kind"]) == ("game", "play")
                    played += 1
                await say(hub, ana, type="leave_room")
                await say(hub, bruno, type="leave_room")
                if played and drew:
                    break
            assert played and drew

    asyncio.run(scenario())


def test_a_room_without_hints_refuses_them(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_hub(tmp_path / "db.sqlite3", bot_budget=3.0) as hub:
            ana, bruno, game = await _two_player_game(hub, hints=False)
            player = ana if game["turn"] == 0 else bruno
            refused = await say(hub, player, type="hint", id=1)
            assert (refused["type"], refused["reason"]) == ("error", "hints_off")

    asyncio.run(scenario())


def test_one_hint_at_a_time(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_hub(tmp_path / "db.sqlite3", bot_budget=3.0) as hub:
            ana, bruno, game = await _two_player_game(hub, hints=True)
            player = ana if game["turn"] == 0 else bruno
            inbox = player.outbox
            assert isinstance(inbox, Inbox)
            before = len(inbox.messages)
            await asyncio.gather(
                *(hub.handle(player, parse_client_message(json.dumps({"type": "hint", "id": n}))) for n in (1, 2))
            )
            answers = {message["reply_to"]: message for message in inbox.messages[before:]}
            assert answers[1]["type"] == "hint"
            assert (answers[2]["type"], answers[2]["reason"]) == ("error", "rate_limited")

    asyncio.run(scenario())
