"""Quick match across a cluster: players of near ratings who reach different processes sit
together, the reach widening with the wait; a match makes one room, also when the process that
made the match stops before answering and the player sends the same quick match again elsewhere.

In-process nodes share a real Redis and PostgreSQL (:mod:`.clusterkit`); the test that kills a
process outright runs real ones.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilerummy.ratings import BOT_RATINGS
from tilerummy.server.cluster import ClusterNode
from tilerummy.server.cluster.quick import QuickList
from tilerummy.server.protocol import PROTOCOL_VERSION
from tilerummy.server.seating import QUICK_BOT_LEVELS, QUICK_BOTS_SECONDS

from .clusterkit import ClusterPlayer, eventually, halt, new_prefix, postgres_schema, redis_url, running_node, until
from .hubkit import Message
from .serverkit import Client, ServerProcess


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


class RatedPlayer(ClusterPlayer):
    """A player signed in with a profile whose rating is ``mu`` (after one game)."""

    key = ""

    @classmethod
    async def rated(cls, node: ClusterNode, name: str, mu: float) -> RatedPlayer:
        hub = node.hub
        made = await hub.read(lambda: hub.profiles.profiles.create(name))
        profile = made.profile.id
        await hub.read(
            lambda: hub.store.transact(
                lambda sql: sql(
                    "INSERT INTO ratings (profile, game, mu, sigma, place, players, score, at) "
                    "VALUES (?, ?, ?, ?, 0, 2, 0, 0)",
                    (profile, f"seed-{name}", mu, 100.0),
                )
            )
        )
        player = cls(node, name)
        player.key = made.key
        await player.greet()
        return player

    async def greet(self) -> None:
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name, "key": self.key})
        await self.wait_for(lambda message: message["type"] == "welcome")


async def matched(player: ClusterPlayer, **more: object) -> Message:
    answer = await player.request({"type": "quick_match", **more})
    assert answer["type"] == "joined", answer
    return answer


async def waited(quick: QuickList, code: str, seconds: float) -> None:
    """The room has been on the waiting list for ``seconds`` (by Redis's clock)."""
    now = await quick.link.call(lambda redis: redis.time())
    since = now[0] + now[1] / 1e6 - seconds
    await quick.link.call(lambda redis: redis.hset(quick.since_key, code, repr(since)))


async def waiting(quick: QuickList) -> set[str]:
    members = await quick.link.call(lambda redis: redis.zrange(quick.wait_key, 0, -1))
    return {member.decode() if isinstance(member, bytes) else str(member) for member in members}


def test_players_of_near_ratings_on_different_processes_sit_together(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            carla = await RatedPlayer.rated(one, "Carla", 2200)
            first = await matched(carla)
            assert first["code"] in one.hub.rooms
            # 700 apart: a room of its own, on the other process.
            ana = await RatedPlayer.rated(two, "Ana", 1500)
            apart = await matched(ana)
            assert apart["code"] != first["code"] and apart["code"] in two.hub.rooms
            assert await waiting(one.quick) == {first["code"], apart["code"]}
            # 100 from Carla, on the other process: Carla's room, and the game starts for both.
            dora = await RatedPlayer.rated(two, "Dora", 2100)
            assert (await matched(dora))["code"] == first["code"]
            await carla.wait_for(lambda message: message["type"] == "game")
            await dora.wait_for(lambda message: message["type"] == "game")
            assert await waiting(one.quick) == {apart["code"]}

            # Ana's room has waited 11 s: 150 + 15 × 11 = 315 around her 1500 reaches 1815, not 2000.
            await waited(one.quick, apart["code"], 11)
            eva = await RatedPlayer.rated(one, "Eva", 2000)
            assert (await matched(eva))["code"] != apart["code"]
            # At 14 s (360) it reaches 1860, where Fabio is, from the first process.
            await waited(one.quick, apart["code"], 14)
            fabio = await RatedPlayer.rated(one, "Fabio", 1860)
            assert (await matched(fabio))["code"] == apart["code"]
            await ana.wait_for(lambda message: message["type"] == "game")

    asyncio.run(main())


def test_two_quick_matches_at_once_on_two_processes_make_one_room(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana = await ClusterPlayer.connect(one, "Ana")
            bruno = await ClusterPlayer.connect(two, "Bruno")
            answers = await asyncio.gather(matched(ana), matched(bruno))
            assert answers[0]["code"] == answers[1]["code"]
            await ana.wait_for(lambda message: message["type"] == "game")
            await bruno.wait_for(lambda message: message["type"] == "game")
            rooms = set(one.hub.rooms) | set(two.hub.rooms)
            assert rooms == {answers[0]["code"]}

    asyncio.run(main())


def test_a_match_whose_process_stops_before_answering_is_found_again_elsewhere(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana = await ClusterPlayer.connect(two, "Ana")
            waiting_room = (await matched(ana))["code"]
            # The first process takes Ana's room off the list for Bruno, then stops dead.
            taken = one.quick.match

            async def take_then_stop(*args: object, **kwargs: object) -> tuple[str, str]:
                how, _ = await taken(*args, **kwargs)  # type: ignore[arg-type]
                assert how == "join"
                await halt(one)
                raise asyncio.CancelledError

            one.quick.match = take_then_stop  # type: ignore[method-assign]
            bruno = await ClusterPlayer.connect(one, "Bruno")
            token = "bruno-s-quick-match-token"
            with pytest.raises(asyncio.CancelledError):
                await bruno.send({"type": "quick_match", "id": 1, "new_token": token})
            assert waiting_room not in await waiting(two.quick)

            # Bruno reconnects to the other process and sends the same quick match: Ana's room.
            again = await ClusterPlayer.connect(two, "Bruno")
            answer = await matched(again, new_token=token)
            assert answer["code"] == waiting_room
            await ana.wait_for(lambda message: message["type"] == "game")
            # Sent once more (from a new connection: this one's answer was lost), the seat it took.
            once_more = await ClusterPlayer.connect(two, "Bruno")
            assert (await matched(once_more, new_token=token))["seat"] == answer["seat"]
            room = two.hub.rooms[waiting_room]
            assert sorted(seat.name or "" for seat in room.seats) == ["Ana", "Bruno"]
            assert set(two.hub.rooms) == {waiting_room}

    asyncio.run(main())


def test_a_room_of_a_stopped_process_still_gets_the_computers_nearest_its_rating(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            carla = await RatedPlayer.rated(one, "Carla", 1950)
            token = "carla-s-quick-match-token"
            made = await matched(carla, new_token=token)
            code = made["code"]
            await halt(one)
            # Taken over by the other process, the room keeps its rating from the shared list.
            await until(lambda: code in two.hub.rooms, "the room to be taken over")
            assert two.hub.runtime[code].quick_rating == 1950
            again = RatedPlayer(two, "Carla")
            again.key = carla.key
            await again.greet()
            assert (await matched(again, new_token=token))["seat"] == made["seat"]
            # Nobody came for 20 s (the room opened that long ago): the computers come, of the
            # level whose published rating is nearest 1950, and the room leaves the list.
            room = two.hub.rooms[code]
            room.created_at -= QUICK_BOTS_SECONDS
            await two.hub.sweep()
            nearest = min(QUICK_BOT_LEVELS, key=lambda level: abs(BOT_RATINGS[level].mu - 1950))
            assert [(seat.kind, seat.level) for seat in room.seats if seat.kind == "bot"] == [("bot", nearest)]
            await again.wait_for(lambda message: message["type"] == "game")
            await eventually(lambda: _absent(two.quick, code), "the room to leave the waiting list")

    asyncio.run(main())


async def _absent(quick: QuickList, code: str) -> bool:
    return code not in await waiting(quick)


def test_a_killed_process_s_waiting_player_keeps_the_match_and_its_room(tmp_path: Path) -> None:
    """SIGKILL of the process that made a quick-match room: the player sends the same quick
    match to the other process and is back in that room, which the next player's match finds;
    the player of the process that made the next match, killed too, is found again in it."""
    redis = redis_url()
    cluster = ["--redis", redis, "--cluster-name", new_prefix()]
    with postgres_schema() as database:
        one = ServerProcess(database, tmp_path / "one.log", bot_workers=0, more=cluster)
        two = ServerProcess(database, tmp_path / "two.log", bot_workers=0, more=cluster)
        three = ServerProcess(database, tmp_path / "three.log", bot_workers=0, more=cluster)
        one.start()
        two.start()
        clients: list[Client] = []
        try:
            ana = Client(one, "Ana")
            clients.append(ana)
            ana_token = "ana-s-quick-match-token"
            made = ana.request({"type": "quick_match", "new_token": ana_token})
            assert made["type"] == "joined", made
            one.kill()

            ana_again = Client(two, "Ana")
            clients.append(ana_again)
            back = ana_again.request({"type": "quick_match", "new_token": ana_token})
            assert (back["type"], back["code"], back["seat"]) == ("joined", made["code"], made["seat"])
            three.start()
            bruno = Client(three, "Bruno")
            clients.append(bruno)
            bruno_token = "bruno-s-quick-match-token"
            found = bruno.request({"type": "quick_match", "new_token": bruno_token})
            assert (found["type"], found["code"]) == ("joined", made["code"])
            ana_again.wait_for(lambda message: message["type"] == "game")
            bruno.wait_for(lambda message: message["type"] == "game")

            # The process that made Bruno's match dies: his quick match sent again finds his seat.
            three.kill()
            bruno_again = Client(two, "Bruno")
            clients.append(bruno_again)
            seated = bruno_again.request({"type": "quick_match", "new_token": bruno_token})
            assert (seated["type"], seated["code"], seated["seat"]) == ("joined", made["code"], found["seat"])
            rooms = [room for room in two.get("/api/lobby")["rooms"] if room["code"] == made["code"]]
            assert [room["status"] for room in rooms] == ["playing"]
            assert len(two.get("/api/lobby")["rooms"]) == 1
        finally:
            for client in clients:
                client.close()
            three.stop()
            two.stop()
            one.stop()
