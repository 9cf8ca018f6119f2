"""Each request answered once through the cluster's faults, with a real Redis and PostgreSQL:
Redis going away mid-turn, a process missing its messages for a while, the network between
one process and Redis cut while the others still reach it, and what a relayed player sees
once it is over."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .clusterkit import ClusterPlayer, new_prefix, postgres_schema, redis_url, running_node, until
from .hubkit import Message
from .test_cluster import RedisServer, play, seats, started_game, stored_moves


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


class RedisProxy:
    """The network between one process and Redis: a TCP proxy the test cuts (nothing gets
    through either way and nothing is closed, as when a link goes dark) and heals (the
    connections it held are reset, as TCP gives up on them, and new ones get through)."""

    def __init__(self, redis: str) -> None:
        target = urlsplit(redis)
        self._host, self._port = target.hostname or "127.0.0.1", target.port or 6379
        self._path = target.path
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._carrying: set[asyncio.Task[None]] = set()
        self.is_cut = False

    async def start(self) -> str:
        """The URL through the proxy."""
        self._server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}{self._path}"

    def cut(self) -> None:
        self.is_cut = True

    def heal(self) -> None:
        self.is_cut = False
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        self.heal()
        # Each connection's task ends once its sockets are reset.
        await asyncio.gather(*self._carrying, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _carry(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._carrying.add(task)
        task.add_done_callback(self._carrying.discard)
        self._writers.add(client_writer)
        if self.is_cut:
            # Taken, and never answered.
            await self._pump(client_reader, None)
            return
        try:
            redis_reader, redis_writer = await asyncio.open_connection(self._host, self._port)
        except OSError:
            client_writer.transport.abort()
            return
        self._writers.add(redis_writer)
        await asyncio.gather(
            self._pump(client_reader, redis_writer), self._pump(redis_reader, client_writer), return_exceptions=True
        )
        for writer in (client_writer, redis_writer):
            writer.transport.abort()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter | None) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                if writer is not None and not self.is_cut:
                    writer.write(data)
                    await writer.drain()


def test_a_process_split_from_redis_loses_its_rooms_to_another_and_each_request_is_answered_once(
    database: str,
) -> None:
    """Redis stays up; the network between the room's process and Redis goes dark. The second
    process takes the room over; its player there, relayed until then, gets a snapshot, and a
    request he sent into the dark is answered once. The first process's next write is refused
    once (``server_error``, then ``room_moved``), nothing of it stored, and its player plays on
    at the second. Once the network is back the first process claims nothing of the second's."""
    redis, prefix = redis_url(), new_prefix()
    proxy = RedisProxy(redis)

    async def main() -> None:
        through_proxy = await proxy.start()
        try:
            await split(through_proxy)
        finally:
            await proxy.close()

    async def split(through_proxy: str) -> None:
        async with (
            running_node(database, through_proxy, prefix) as one,
            running_node(database, redis, prefix) as two,
        ):
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            code, game_id = ana.code, first["game_id"]
            assert code is not None and code in one.hub.rooms
            game = await to_the_turn_of(ana, bruno, first)
            before = game["moves"]

            proxy.cut()
            heard = len(bruno.received)
            # Relayed to the room's process, which cannot hear it.
            await bruno.send({"type": "resync", "id": "dark"})
            await until(lambda: code in two.hub.rooms, "the room to be taken over")
            await until(
                lambda: any(message["type"] == "snapshot" for message in bruno.received[heard:]),
                "a snapshot from the new owner",
            )
            snapshot = next(message for message in bruno.received[heard:] if message["type"] == "snapshot")
            assert (snapshot["game"]["moves"], snapshot["game"]["turn"]) == (before, ana.seat)
            await until(lambda: answers_to(bruno, "dark") != [], "the request sent into the dark to be answered")

            # The first process still thinks it holds the room: its write is refused, and its player sent on.
            answer = await ana.request({"type": "draw"})
            assert (answer["type"], answer["reason"]) == ("error", "server_error"), answer
            await ana.wait_for(lambda message: message.get("reason") == "room_moved")
            assert code not in one.hub.rooms
            assert await stored_moves(two, game_id) == before
            await until(lambda: one.link.up_since is None, "the first process to see Redis is out of reach")

            # Back with her token at the new owner, Ana plays on from what was stored.
            ana_again = await ClusterPlayer.connect(two, "Ana")
            await ana_again.join(code, token=ana.token)
            game, after = await play(seats(ana_again, bruno), snapshot["game"], 3)

            # The network is back: the first process reaches Redis again and claims nothing of the second's.
            recoveries = one.link.recoveries
            proxy.heal()
            await until(lambda: one.link.recoveries > recoveries, "the first process to reach Redis again")
            assert (await one.leases.owners([code]))[code] == two.node
            game, later = await play(seats(ana_again, bruno), game, 400)
            assert game["result"] is not None
            assert code not in one.hub.rooms
            assert await stored_moves(two, game_id) == before + after + later
            # One answer to each request, whatever the split did.
            for player in (ana, ana_again, bruno):
                replies = [message["reply_to"] for message in player.received if message.get("reply_to") is not None]
                assert len(replies) == len(set(replies)), player.name
            assert len(bruno.received) > heard

    asyncio.run(main())
