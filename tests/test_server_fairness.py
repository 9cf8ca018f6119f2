"""The server commits to each deal when a game starts and reveals it when the game ends."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tilerummy import GameRecord
from tilerummy.fairness import commitment_of, verify
from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.store import open_store

from .hubkit import Inbox, two_players_draw_to_the_end


def _messages(member: Member) -> list[dict[str, object]]:
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    return inbox.messages


def test_the_deal_is_committed_at_the_start_and_revealed_at_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(open_store(str(tmp_path / "db.sqlite3")), BotPool(0), clock=lambda: 1000.0)
        await hub.start()
        code, ana, bruno = await two_players_draw_to_the_end(hub)
        room = hub.rooms[code]
        assert room.game is not None and room.fairness is not None
        seed, salt = room.game.deal.seed, room.fairness.salt
        assert seed is not None and salt is not None
        started = next(message for message in _messages(ana) if message["type"] == "game")
        game = started["game"]
        assert isinstance(game, dict)
        commitment = game["fairness"]["commitment"]
        assert game["fairness"] == {"commitment": commitment, "seed": None, "salt": None}

        # While the game ran, neither the seed nor the salt reached anyone; the frame that ends it reveals both.
        for member in (ana, bruno):
            messages = _messages(member)
            end = next(
                index
                for index, message in enumerate(messages)
                if isinstance(message.get("game"), dict) and message["game"]["result"] is not None  # type: ignore[index]
            )
            leaks = [json.dumps(message) for message in messages[:end]]
            assert not [frame[:200] for frame in leaks if salt in frame or str(seed) in frame]
            revealed = messages[end]["game"]
            assert isinstance(revealed, dict)
            assert revealed["fairness"] == {"commitment": commitment, "seed": seed, "salt": salt}
        assert commitment_of(seed, salt) == commitment

        stored = hub.store.game(str(game["game_id"]))
        assert stored is not None
        data = stored.record()
        record = GameRecord.from_dict(data)
        assert verify(record, data.get("result")).ok
        await hub.close()
        hub.store.close()

    asyncio.run(scenario())
