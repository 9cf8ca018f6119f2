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

from .hubkit import Inbox, say


def _member() -> Member:
    return Member(outbox=Inbox())


def _messages(member: Member) -> list[dict[str, object]]:
    inbox = member.outbox
    assert isinstance(inbox, Inbox)
    return inbox.messages


def test_the_deal_is_committed_at_the_start_and_revealed_at_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(open_store(str(tmp_path / "db.sqlite3")), BotPool(0), clock=lambda: 1000.0)
        await hub.start()
        ana, bruno = _member(), _member()
        await say(hub, ana, type="hello", protocol=1, name="Ana")
        await say(hub, bruno, type="hello", protocol=1, name="Bruno")
        joined = await say(hub, ana, type="create_room", seats=[{"kind": "person"}] * 2, rules={"preset": "casual"})
        await say(hub, bruno, type="join_room", code=joined["code"])
        await say(hub, ana, type="start_game")
        started = _messages(ana)[-1]
        game = started["game"]
        assert isinstance(game, dict)
        commitment = game["fairness"]["commitment"]
        assert game["fairness"] == {"commitment": commitment, "seed": None, "salt": None}

        room = hub.rooms[joined["code"]]
        assert room.game is not None and room.fairness is not None
        seed, salt = room.game.deal.seed, room.fairness.salt
        assert seed is not None and salt is not None
        # Everyone draws until the pool runs out and the round ends.
        members = {0: ana, 1: bruno}
        for _ in range(200):
            if room.game.is_over:
                break
            answer = await say(hub, members[room.game.turn], type="draw" if room.game.pool_size else "pass")
            assert answer["type"] == "game", answer

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
