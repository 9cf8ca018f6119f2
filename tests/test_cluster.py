"""The cluster in-process: two nodes (a hub each) sharing a real Redis and a real PostgreSQL,
players connected to either; a room moving when its owner stops; Redis restarting mid-game."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from starlette.requests import Request

from tilerummy.server.app import room_info
from tilerummy.server.cluster import ClusterNode
from tilerummy.server.cluster import node as node_module

from .clusterkit import (
    ClusterPlayer,
    eventually,
    halt,
    new_prefix,
    own_views_only,
    postgres_schema,
    redis_url,
    running_node,
    until,
)
from .hubkit import Message
from .serverkit import free_port


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


async def play(players: dict[int, ClusterPlayer], game: Message, moves: int) -> tuple[Message, int]:
    """The players draw (then pass) in turn, each through its own process, for ``moves`` moves
    or to the end; the last view and how many actions were acknowledged."""
    acknowledged = 0
    for _ in range(moves):
        if game["result"] is not None:
            break
        player = players[game["turn"]]
        answer = await player.request({"type": "draw" if game["pool_size"] else "pass"})
        assert answer["type"] == "game", answer
        acknowledged += 1
        game = answer["game"]
    return game, acknowledged


async def started_game(
    host_on: ClusterNode, guest_on: ClusterNode, host: str, guest: str
) -> tuple[ClusterPlayer, ClusterPlayer, Message]:
    """A private room made on one process and joined from another, its game started:
    the two players (seated) and the game's first view."""
    first = await ClusterPlayer.connect(host_on, host)
    second = await ClusterPlayer.connect(guest_on, guest)
    joined = await first.create([{"kind": "person"}] * 2, rules={"preset": "casual"}, public=False)
    await second.join(joined["code"])
    started = await first.request({"type": "start_game"})
    assert first.seat is not None and second.seat is not None
    return first, second, started["game"]


def seats(*players: ClusterPlayer) -> dict[int, ClusterPlayer]:
    return {player.seat: player for player in players if player.seat is not None}


async def stored_moves(node: ClusterNode, game_id: str) -> int:
    stored = await node.hub.read(lambda: node.hub.store.game(game_id))
    assert stored is not None
    return len(stored.actions)


def test_players_of_one_room_on_two_processes_play_it_to_the_end(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            # The room is the first process's alone; the second only relays Bruno's messages.
            assert ana.code in one.hub.rooms
            assert ana.code not in two.hub.rooms
            game, acknowledged = await play(seats(ana, bruno), first, 400)
            assert game["result"] is not None
            assert await stored_moves(one, first["game_id"]) == acknowledged
            own_views_only(ana)
            own_views_only(bruno)

    asyncio.run(main())


def test_a_player_relayed_to_its_room_is_told_the_owners_address_and_plays_on_there(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()
    one_url, two_url = "ws://127.0.0.1:9101/ws", "ws://127.0.0.1:9102/ws"

    async def main() -> None:
        async with (
            running_node(database, redis, prefix, direct_url=one_url) as one,
            running_node(database, redis, prefix, direct_url=two_url) as two,
        ):
            await eventually(lambda: _sees_direct_url(two, one), "the owner's heartbeat")
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            told = [message for message in bruno.received if message["type"] == "room_server"]
            assert told == [{"type": "room_server", "code": ana.code, "url": one_url}]
            # After the snapshot, once: the seat's token is known by then.
            kinds = [message["type"] for message in bruno.received]
            assert kinds.index("room_server") > kinds.index("snapshot")
            assert not [message for message in ana.received if message["type"] == "room_server"]
            # Bruno goes where he was told, and takes his seat back with its token.
            assert ana.code is not None and bruno.token is not None
            seat = bruno.seat
            await bruno.close()
            direct = await ClusterPlayer.connect(one, "Bruno")
            await direct.join(ana.code, token=bruno.token)
            assert direct.seat == seat
            assert not two.router.visits
            _, acknowledged = await play(seats(ana, direct), first, 6)
            assert acknowledged == 6
            assert await stored_moves(one, first["game_id"]) == acknowledged
            own_views_only(direct)
            # A spectator has no token to take its place back with elsewhere: it is not told.
            watcher = await ClusterPlayer.connect(two, "Caio")
            await watcher.join(ana.code, role="spectator")
            await watcher.wait_for(lambda message: message["type"] == "snapshot")
            await watcher.request({"type": "ping"})
            assert not [message for message in watcher.received if message["type"] == "room_server"]

    asyncio.run(main())


async def _sees_direct_url(asker: ClusterNode, owner: ClusterNode) -> bool:
    asker.directory._read_at = None
    return await asker.directory.direct_url(owner.node) == owner.direct_url


def test_a_relayed_join_sent_again_takes_one_seat_and_is_answered_once(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana = await ClusterPlayer.connect(one, "Ana")
            code = (await ana.create([{"kind": "person"}] * 3, public=False))["code"]
            bruno = await ClusterPlayer.connect(two, "Bruno")
            await bruno.send({"type": "join_room", "id": 1, "code": code})
            # The owner's answer to the visit's opening is late (under load, say): the visit
            # attaches again at once, and its join goes to the owner a second time.
            visit = two.router.visits[bruno.member]
            two.relay.post(visit.node, "close", visit.session)
            two.router._by_session.pop(visit.session)
            two.router._open(visit, visit.node)
            room = one.hub.rooms[code]
            # Both joins are in: the client has the second one's snapshot (the first session's
            # messages are no longer passed on), and the room told each newcomer's arrival.
            await until(lambda: any(sent["type"] == "snapshot" for sent in bruno.received), "the snapshot")
            await until(lambda: room.seq >= 2 and len(one.hub.runtime[code].members) == 2, "both joins")
            assert [seat.name for seat in room.seats] == ["Ana", "Bruno", None]
            answers = [sent for sent in bruno.received if sent.get("reply_to") == 1]
            assert [answer["type"] for answer in answers] == ["joined"] and answers[0]["seat"] == 1
            # The token the seat was given holds it.
            assert room.seat_for_token(answers[0]["token"]) is room.seats[1]

    asyncio.run(main())


def test_every_process_describes_every_room_as_its_owner_does(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def described(node: ClusterNode, code: str) -> tuple[int, Message]:
        scope = {"type": "http", "app": SimpleNamespace(state=SimpleNamespace(hub=node.hub, cluster=node))}
        response = await room_info(Request({**scope, "path_params": {"code": code.lower()}}))
        return response.status_code, json.loads(bytes(response.body))

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, _, _ = await started_game(one, two, "Ana", "Bruno")
            assert ana.code is not None and ana.code not in two.hub.rooms
            owner_says = await described(one, ana.code)
            assert owner_says[0] == 200
            assert owner_says[1]["status"] == "playing"
            assert [seat["name"] for seat in owner_says[1]["seats"]] == ["Ana", "Bruno"]
            assert await described(two, ana.code) == owner_says
            assert (await described(two, "NOSUCH"))[1]["error"] == "no_such_room"
            # An owner that stopped answering: a clear refusal, not a wait without end.
            await halt(one)
            status, body = await described(two, ana.code)
            assert (status, body["error"]) == (503, "room_unavailable")

    asyncio.run(main())


def test_the_lobby_and_quick_match_see_the_rooms_of_every_process(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana = await ClusterPlayer.connect(one, "Ana")
            await ana.create([{"kind": "person"}] * 2, rules={"preset": "casual"}, public=True, auto_start=True)
            code = ana.code

            async def listed() -> bool:
                return any(room["code"] == code for room in await two.directory.lobby())

            await eventually(listed, "the second process's lobby to list the room")
            bruno = await ClusterPlayer.connect(two, "Bruno")
            matched = await bruno.request({"type": "quick_match"})
            assert matched["type"] == "joined", matched
            assert matched["code"] == code
            # Full with both, the room starts by itself (quick match rooms do), for both of them.
            await ana.wait_for(lambda message: message["type"] == "game")

    asyncio.run(main())


def test_a_room_moves_when_its_process_stops_and_its_players_keep_playing(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
            code, game_id = ana.code, first["game_id"]
            assert code is not None
            game, before = await play(seats(ana, bruno), first, 10)

            await halt(one)
            # The second process takes the room over once the lease runs out; Bruno's
            # connection follows the room there and gets the new owner's snapshot.
            await until(lambda: code in two.hub.rooms, "the room to be taken over")
            snapshot = await bruno.wait_for(
                lambda message: message["type"] == "snapshot" and message["game"] is not None
            )
            assert snapshot["game"]["moves"] == game["moves"]
            # Ana's process died with her connection: she reconnects to the other one with her token.
            ana_again = await ClusterPlayer.connect(two, "Ana")
            await ana_again.join(code, token=ana.token)
            game, after = await play(seats(ana_again, bruno), snapshot["game"], 400)
            assert game["result"] is not None
            assert await stored_moves(two, game_id) == before + after
            own_views_only(bruno)
            own_views_only(ana_again)

    asyncio.run(main())


def test_a_process_that_stops_is_noticed_and_its_rooms_looked_for_at_once(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quiet look at every room never comes in this test: only seeing the process gone can
    # start the takeover.
    monkeypatch.setattr(node_module, "QUIET_SCAN_SECONDS", 1e9)
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as two:
            async with running_node(database, redis, prefix) as one:
                ana, bruno, first = await started_game(one, two, "Ana", "Bruno")
                code = ana.code
                assert code is not None
                await until(lambda: one.link.steady() and two.link.steady(), "Redis to be trusted")
            # One stopped cleanly: its leases given up, its heartbeat gone.
            await until(lambda: code in two.hub.rooms, "the room to be taken over")
            snapshot = await bruno.wait_for(
                lambda message: message["type"] == "snapshot" and message["game"] is not None
            )
            assert snapshot["game"]["moves"] == first["moves"]

    asyncio.run(main())


def test_a_process_cut_off_from_redis_cannot_write_a_room_another_took_over(database: str) -> None:
    redis, prefix = redis_url(), new_prefix()

    async def main() -> None:
        async with running_node(database, redis, prefix) as one, running_node(database, redis, prefix) as two:
            ana, bruno = await ClusterPlayer.connect(one, "Ana"), await ClusterPlayer.connect(one, "Bruno")
            joined = await ana.create([{"kind": "person"}] * 2, rules={"preset": "casual"}, public=False)
            await bruno.join(joined["code"])
            first = (await ana.request({"type": "start_game"}))["game"]
            code, game_id = joined["code"], first["game_id"]
            game, before = await play(seats(ana, bruno), first, 6)

            # Cut off: the first process no longer renews its lease or hears the others, while
            # its players still reach it; its lease runs out and the second takes the room over.
            for task in one._loops:
                task.cancel()
            await one.leases.release([code])
            await until(lambda: code in two.hub.rooms, "the room to be taken over")
            assert code in one.hub.rooms

            # The next move on the cut-off process is refused, not written, and its players are sent on.
            mover = seats(ana, bruno)[game["turn"]]
            answer = await mover.request({"type": "draw" if game["pool_size"] else "pass"})
            assert (answer["type"], answer["reason"]) == ("error", "server_error"), answer
            await mover.wait_for(lambda message: message.get("reason") == "room_moved")
            assert code not in one.hub.rooms
            assert await stored_moves(two, game_id) == before

            # Back with their tokens at the new owner, they play on from what was stored.
            ana_again, bruno_again = await ClusterPlayer.connect(two, "Ana"), await ClusterPlayer.connect(two, "Bruno")
            await ana_again.join(code, token=ana.token)
            await bruno_again.join(code, token=bruno.token)
            snapshot = await bruno_again.wait_for(
                lambda message: message["type"] == "snapshot" and message["game"] is not None
            )
            assert snapshot["game"]["moves"] == game["moves"]
            game, after = await play(seats(ana_again, bruno_again), snapshot["game"], 400)
            assert game["result"] is not None
            assert await stored_moves(two, game_id) == before + after

    asyncio.run(main())


class RedisServer:
    """A Redis of the test's own, so that it can be stopped and started again on its port."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def answers(self) -> bool:
        import redis

        try:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
            answered = bool(client.ping())
            client.close()
            return answered
        except (redis.RedisError, OSError):
            return False


def test_when_redis_restarts_each_process_keeps_its_rooms_and_play_goes_on(database: str, tmp_path: Path) -> None:
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
            # A room with both players on the first process goes on without Redis at all.
            carla, dora, local_first = await started_game(one, one, "Carla", "Dora")
            code, local = ana.code, carla.code
            assert code is not None and local is not None
            game, before = await play(seats(ana, bruno), first, 6)

            server.stop()
            local_game, local_moves = await play(seats(carla, dora), local_first, 6)
            assert local_moves == 6
            server.start()
            await until(server.answers, "Redis to start again")
            # Each process puts its leases back: nobody took the other's rooms meanwhile.
            await until(lambda: one.link.steady() and two.link.steady(), "both processes to trust Redis again")
            assert code in one.hub.rooms and local in one.hub.rooms
            assert code not in two.hub.rooms
            owners = await one.leases.owners([code, local])
            assert owners == {code: one.node, local: one.node}
            # Bruno's relayed connection plays on: attached again to the owner (with a snapshot)
            # if its process saw Redis go, as it was if that process did not need Redis meanwhile.
            game, after = await play(seats(ana, bruno), game, 400)
            assert game["result"] is not None
            assert await stored_moves(one, first["game_id"]) == before + after
            local_game, more = await play(seats(carla, dora), local_game, 400)
            assert local_game["result"] is not None
            assert await stored_moves(one, local_first["game_id"]) == local_moves + more

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_serve_refuses_a_cluster_without_postgresql_or_redis_in_one_line(
    database: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tilerummy.cli import main

    def refusal(*args: str) -> str:
        assert main(["serve", *args]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1, error
        return error

    sqlite = str(tmp_path / "server.sqlite3")
    assert "--redis needs a PostgreSQL --db" in refusal("--redis", "redis://127.0.0.1:6379/0", "--db", sqlite)
    # Port 1 on this machine refuses connections at once.
    assert "cannot reach Redis" in refusal("--redis", "redis://127.0.0.1:1/0", "--db", database)
    assert "redis://" in refusal("--redis", "not a url", "--db", database)


def test_processes_starting_together_on_a_new_database_set_its_schema_up_once(database: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from tilerummy.server.store import SCHEMA_VERSION, PostgresStore

    def open_and_close() -> int:
        store = PostgresStore(database)
        try:
            return store.stored_version()
        finally:
            store.close()

    with ThreadPoolExecutor(4) as pool:
        versions = list(pool.map(lambda _: open_and_close(), range(4)))
    assert versions == [SCHEMA_VERSION] * 4
