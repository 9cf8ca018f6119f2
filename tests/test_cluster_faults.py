"""Each request answered once through the cluster's faults, with a real Redis and PostgreSQL:
Redis going away mid-turn, a process missing its messages for a while (split from Redis
while the others are not), and what a relayed player sees once it is over."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .clusterkit import ClusterPlayer, new_prefix, postgres_schema, redis_url, running_node, until
from .hubkit import Message
from .test_cluster import RedisServer, started_game


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


async def to_the_turn_of(player: ClusterPlayer, other: ClusterPlayer, game: Message) -> Message:
    """The other player draws until it is ``player``'s turn; the view after it."""
    while game["turn"] != player.seat:
        answer = await other.request({"type": "draw"})
        assert answer["type"] == "game", answer
        game = answer["game"]
    return game


def answers_to(player: ClusterPlayer, request: object) -> list[Message]:
    return [message for message in player.received if message.get("reply_to") == request]


def test_a_relayed_request_sent_while_redis_is_away_is_answered_once_and_the_player_resynced(
    database: str, tmp_path: Path
) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server to start and stop (.ci/redis.sh installs it)")
    server = RedisServer(tmp_path / "redis.log")
    server.start()
    prefix = new_prefix()

    async def main() -> None:
        await until(server.answers, "Redis to start")
        async with (
            running_node(database, server.url, prefix) as one,
            running_node(database, server.url, prefix) as two,
        ):
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            assert ana.code is not None
            await to_the_turn_of(ana, bruno, first)
            seen = max(message.get("seq", 0) for message in bruno.received)
            server.stop()
            # Ana, on the room's own process, plays on: Bruno's process cannot hear of it.
            drawn = await ana.request({"type": "draw"})
            assert drawn["type"] == "game" and drawn["game"]["turn"] == bruno.seat
            heard = len(bruno.received)
            # Bruno draws on his turn, which he never heard of, made against what he last saw.
            lost = two.relay.undelivered
            await bruno.send({"type": "draw", "id": "late", "seq": seen})
            await until(lambda: two.relay.undelivered > lost, "Bruno's draw to reach nobody")
            assert answers_to(bruno, "late") == []
            server.start()
            await until(server.answers, "Redis to start again")
            await until(lambda: answers_to(bruno, "late") != [], "Bruno's answer", timeout=30)
            # Exactly one answer, and a snapshot showing him the room as it is.
            await until(lambda: any(message["type"] == "snapshot" for message in bruno.received[heard:]), "a snapshot")
            # Made against a state the game has left: refused by name, and nothing drawn for him.
            [answer] = answers_to(bruno, "late")
            assert (answer["type"], answer["reason"]) == ("error", "stale"), answer
            snapshot = next(message for message in reversed(bruno.received) if message["type"] == "snapshot")
            assert (snapshot["game"]["moves"], snapshot["game"]["turn"]) == (drawn["game"]["moves"], bruno.seat)
            # He plays on from what he sees now.
            again = await bruno.request({"type": "draw", "seq": snapshot["seq"]})
            assert again["type"] == "game", again
            # A second answer would have come first: a session's messages arrive in order.
            assert len(answers_to(bruno, "late")) == 1

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_process_that_missed_its_messages_attaches_its_players_again(database: str) -> None:
    """The origin's subscription is gone a while (split from Redis, or reconnecting) while
    the owner publishes: what it sent nobody heard, and the owner has the sessions attach again."""
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            await to_the_turn_of(ana, bruno, first)
            listening = two.relay._tasks[1]
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
            heard, lost = len(bruno.received), one.relay.undelivered
            drawn = await ana.request({"type": "draw"})
            assert drawn["type"] == "game"
            await until(lambda: one.relay.undelivered > lost, "the draw's news to reach nobody")
            assert len(bruno.received) == heard, "nothing reaches a process not listening"
            two.relay._tasks[1] = asyncio.ensure_future(two.relay._listen_forever())
            snapshot = await bruno.wait_for(
                lambda message: (
                    message["type"] == "snapshot"
                    and message["game"] is not None
                    and message["game"]["moves"] == drawn["game"]["moves"]
                )
            )
            assert snapshot["game"]["turn"] == bruno.seat
            answer = await bruno.request({"type": "draw", "seq": snapshot["seq"]})
            assert answer["type"] == "game", answer

    asyncio.run(main())


def test_a_write_postgresql_drops_is_refused_and_the_room_catches_up(database: str) -> None:
    """PostgreSQL drops the connection a process writes on (a restart, a network cut): the
    action is refused with server_error and never applied, the room hears the server is
    catching up, and the next action is written on a new connection."""
    import psycopg

    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            game = await to_the_turn_of(ana, bruno, first)
            assert ana.code is not None
            room = one.hub.rooms[ana.code]
            backend = one.hub.store._db.info.backend_pid  # type: ignore[attr-defined]
            with psycopg.connect(database, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
            refused = await ana.request({"type": "draw", "seq": room.seq})
            assert (refused["type"], refused["reason"]) == ("error", "server_error"), refused
            assert room.game is not None and len(room.game.actions) == game["moves"]
            behind = await bruno.wait_for(lambda message: message["type"] == "room" and message["room"]["catching_up"])
            drawn = await ana.request({"type": "draw", "seq": room.seq})
            assert drawn["type"] == "game" and drawn["game"]["moves"] == game["moves"] + 1
            told = await bruno.wait_for(
                lambda message: (
                    message["type"] == "room" and message["seq"] > behind["seq"] and not message["room"]["catching_up"]
                )
            )
            assert told["seq"] > drawn["seq"]
            stored = await one.hub.read(lambda: one.hub.store.game(first["game_id"]))
            assert stored is not None and len(stored.actions) == game["moves"] + 1

    asyncio.run(main())
