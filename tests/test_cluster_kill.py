"""A process of a cluster killed outright (SIGKILL) mid-game: real processes, a real Redis and PostgreSQL.

Six games, their players connected to either of two processes; the first process
is killed. Its rooms are taken over by the second from the stored events; the
players connected to the second keep their connections and play on; those of the
first reconnect to the second with their tokens. A request sent again to the second
gets its first answer, not a second action. Every game finishes, every acknowledged
action is in the stored record, and no player ever saw another's rack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .clusterkit import new_prefix, postgres_schema, redis_url
from .hubkit import Message
from .serverkit import Client, ServerProcess

#: Moves made in every game before the kill.
MOVES_BEFORE = 8


@dataclass
class Game:
    code: str
    players: dict[int, Client]
    state: Message
    #: The process each seat's player is connected to, and the process that owns the room.
    processes: dict[int, ServerProcess]
    owner: ServerProcess
    #: The sequence number of the game's last change (each action is made against it).
    seq: int
    acknowledged: list[int] = field(default_factory=list)
    #: The last action sent (its seat and message, with its id and seq).
    last: tuple[int, Message] | None = None

    def move(self) -> None:
        seat = self.state["turn"]
        request = {
            "type": "draw" if self.state["pool_size"] else "pass",
            "id": f"{self.code}-{len(self.acknowledged)}",
            "seq": self.seq,
        }
        reply = self.send(seat, request)
        assert reply["type"] == "game", reply
        self.acknowledged.append(reply["game"]["moves"])
        self.state, self.seq, self.last = reply["game"], reply["seq"], (seat, request)

    def send(self, seat: int, request: Message) -> Message:
        """Send a request from a seat's player; its first answer."""
        player = self.players[seat]
        player.send(request)
        return player.wait_for(lambda message: message.get("reply_to") == request["id"])


def own_views_only(client: Client) -> None:
    views = [message["game"] for message in client.received if message.get("game") is not None]
    assert views, f"{client.name} saw no game"
    for view in views:
        assert view["seat"] == client.seat, f"{client.name} saw seat {view['seat']}'s view"
        if view["result"] is None:
            assert len(view["rack"]) == view["rack_sizes"][client.seat]


def test_a_killed_process_loses_no_acknowledged_action_and_every_game_finishes(tmp_path: Path) -> None:
    redis = redis_url()
    cluster = ["--redis", redis, "--cluster-name", new_prefix()]
    with postgres_schema() as database:
        one = ServerProcess(database, tmp_path / "one.log", bot_workers=0, more=cluster)
        two = ServerProcess(database, tmp_path / "two.log", bot_workers=0, more=cluster)
        one.start()
        two.start()
        clients: list[Client] = []
        try:
            games: list[Game] = []
            # The host's process owns the room; the guest is on either process.
            for index, (host_on, guest_on) in enumerate(
                [(one, one), (one, two), (two, one), (two, two), (one, two), (two, one)]
            ):
                host = Client(host_on, f"Host {index}")
                guest = Client(guest_on, f"Guest {index}")
                clients += [host, guest]
                joined = host.create([{"kind": "person"}, {"kind": "person"}], rules={"preset": "casual"}, public=False)
                guest.join(joined["code"])
                started = host.request({"type": "start_game"})
                assert host.seat is not None and guest.seat is not None
                players = {host.seat: host, guest.seat: guest}
                processes = {host.seat: host_on, guest.seat: guest_on}
                games.append(Game(joined["code"], players, started["game"], processes, host_on, started["seq"]))
            for _ in range(MOVES_BEFORE):
                for game in games:
                    game.move()

            one.kill()
            for game in games:
                for seat, player in list(game.players.items()):
                    if game.processes[seat] is one:
                        # Its connection died with the process: it reconnects, to the other one.
                        again = Client(two, player.name)
                        clients.append(again)
                        assert player.token is not None
                        again.join(game.code, token=player.token)
                        again.wait_for(lambda message: message["type"] == "snapshot")
                        game.players[seat] = again
                    elif game.owner is one:
                        # Still connected: the connection follows the room to its new owner.
                        player.wait_for(lambda message: message["type"] == "snapshot")
                views = [view for view in (player.latest_game() for player in game.players.values()) if view]
                game.state = max(views, key=lambda view: int(view["moves"]))
                assert game.state["moves"] == MOVES_BEFORE

            for game in games:
                # The last action sent again, as after an answer lost with the connection: answered
                # as it was the first time (with the room as it is), and not acted on again.
                assert game.last is not None
                seat, request = game.last
                answer = game.send(seat, request)
                assert answer["type"] == "snapshot", answer
                assert answer["game"]["moves"] == MOVES_BEFORE

            for game in games:
                while game.state["result"] is None:
                    game.move()
            for game in games:
                record = two.get(f"/api/games/{game.state['game_id']}/record")
                # Every acknowledged action is stored, in place, and nothing else was played.
                assert len(record["actions"]) == game.state["moves"] == len(game.acknowledged)
                assert game.acknowledged == list(range(1, len(game.acknowledged) + 1))
            for client in clients:
                own_views_only(client)
            stats = two.get("/api/stats")
            assert stats["cluster"]["adopted"] == 3
        finally:
            for client in clients:
                client.close()
            two.stop()
            one.stop()
