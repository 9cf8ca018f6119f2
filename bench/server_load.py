"""Load on the game server: N concurrent games between scripted clients on loopback.

Starts ``tilerummy serve`` in a subprocess (a fresh SQLite database in a
temporary folder), opens N rooms of two people, and has both clients of every
room take turns (each turn a draw, or a pass once the pool is empty, after a
think time) until each game has made its number of moves. It reports the
round trip of every action (sent to its acknowledgement: applied, stored and
announced), errors, the CPU the server used, and the longest stall of the
server's event loop during the play (as the server measures it itself,
``GET /api/stats``). Every game is set up
first (connections, rooms, deals); the figures are those of the play that
follows, all games at once.

    python bench/server_load.py --games 100
    python bench/server_load.py --games 500 --moves 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_done: int = 0
    games_ready: int = 0
    #: Set once every game is set up (or failed): then the measured play begins.
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    setup_seconds: float = 0.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def server_stats(port: int, seconds: float) -> dict[str, Any] | None:
    """The server's own figures over the last ``seconds`` (None from a server without them)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stats?seconds={seconds:.0f}", timeout=10) as answer:
            stats: dict[str, Any] = json.loads(answer.read())
            return stats
    except (OSError, ValueError):
        return None


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Player:
    def __init__(self, connection: ClientConnection, name: str, results: Results) -> None:
        self.connection = connection
        self.name = name
        self.results = results
        self.next_id = 0

    async def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        await self.connection.send(json.dumps({**message, "id": self.next_id}))
        return self.next_id

    async def reply(self, request_id: int) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await self.connection.recv())
            if message.get("reply_to") == request_id:
                return message

    async def hello(self) -> None:
        await self.send({"type": "hello", "protocol": 1, "name": self.name})
        while json.loads(await self.connection.recv())["type"] != "welcome":
            pass


@dataclass(frozen=True)
class Workload:
    games: int
    moves: int
    think: float
    ramp: float
    preset: str


async def play_game(url: str, index: int, load: Workload, results: Results, ready: asyncio.Future[None]) -> None:
    async with connect(url, max_size=2**22) as host_socket, connect(url, max_size=2**22) as guest_socket:
        host = Player(host_socket, f"Host {index}", results)
        guest = Player(guest_socket, f"Guest {index}", results)
        await host.hello()
        await guest.hello()
        created = await host.reply(
            await host.send(
                {
                    "type": "create_room",
                    "seats": [{"kind": "person"}, {"kind": "person"}],
                    "rules": {"preset": load.preset},
                    "options": {"public": False},
                }
            )
        )
        if created["type"] != "joined":
            results.errors.append(f"create_room: {created}")
            return
        joined = await guest.reply(await guest.send({"type": "join_room", "code": created["code"]}))
        if joined["type"] != "joined":
            results.errors.append(f"join_room: {joined}")
            return
        players = {created["seat"]: host, joined["seat"]: guest}
        started = await host.reply(await host.send({"type": "start_game"}))
        if started["type"] != "game":
            results.errors.append(f"start_game: {started}")
            return
        state = started["game"]
        ready.set_result(None)
        await results.all_ready.wait()
        for _ in range(load.moves):
            if state["result"] is not None:
                break
            await asyncio.sleep(random.uniform(0.5 * load.think, 1.5 * load.think))
            player = players[state["turn"]]
            sent = time.perf_counter()
            reply = await player.reply(await player.send({"type": "draw" if state["pool_size"] else "pass"}))
            results.latencies.append(time.perf_counter() - sent)
            if reply["type"] != "game":
                results.errors.append(f"{reply}")
                return
            state = reply["game"]
        results.games_done += 1


async def run_load(url: str, load: Workload, on_ready: Callable[[], None]) -> tuple[Results, float]:
    """Set every game up, then play them all at once; the time returned is the play's."""
    results = Results()
    loop = asyncio.get_running_loop()
    readiness = [loop.create_future() for _ in range(load.games)]

    async def one(index: int) -> None:
        await asyncio.sleep(index / load.ramp)
        try:
            await play_game(url, index, load, results, readiness[index])
        except Exception as error:
            results.errors.append(f"game {index}: {type(error).__name__}: {error}")
        finally:
            if not readiness[index].done():
                readiness[index].set_result(None)

    setup_started = time.perf_counter()
    tasks = [asyncio.ensure_future(one(index)) for index in range(load.games)]
    await asyncio.gather(*readiness)
    results.setup_seconds = time.perf_counter() - setup_started
    on_ready()
    started = time.perf_counter()
    results.all_ready.set()
    await asyncio.gather(*tasks)
    return results, time.perf_counter() - started


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description="Concurrent games against the tilerummy server on loopback.")
    parser.add_argument("--games", type=int, default=100, help="concurrent games (two clients each)")
    parser.add_argument("--moves", type=int, default=30, help="moves played in each game")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a client waits before it moves")
    parser.add_argument("--ramp", type=float, default=50.0, help="games started a second")
    parser.add_argument("--seed", type=int, default=1, help="seed of the think times")
    parser.add_argument("--rules", default="standard", metavar="PRESET", help="the games' rules preset")
    args = parser.parse_args()
    if args.games < 1 or args.moves < 1 or args.think < 0 or args.ramp <= 0:
        parser.error("--games and --moves are 1 or more, --think 0 or more, --ramp more than 0")
    random.seed(args.seed)

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log = Path(folder) / "server.log"
        command = [
            sys.executable,
            "-m",
            "tilerummy.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(Path(folder) / "load.sqlite3"),
            "--bot-workers",
            "0",
            "--max-rooms",
            str(args.games + 10),
        ]
        with log.open("wb") as output:
            server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                        break
                except OSError:
                    time.sleep(0.05)
            before: dict[str, float] = {}

            def mark() -> None:
                before["server"] = cpu_seconds(server.pid)
                before["client"] = time.process_time()

            url = f"ws://127.0.0.1:{port}/ws"
            load = Workload(args.games, args.moves, args.think, args.ramp, args.rules)
            results, wall = asyncio.run(run_load(url, load, mark))
            server_cpu = cpu_seconds(server.pid) - before["server"]
            client_cpu = time.process_time() - before["client"]
            memory = resident_mib(server.pid)
            stats = server_stats(port, min(600, wall + 1))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        server_errors = [line for line in log.read_text().splitlines() if "ERROR" in line or "Traceback" in line]

    latencies_ms = [latency * 1000 for latency in results.latencies]
    actions = len(latencies_ms)
    print(
        f"server_load: {args.games} games ({2 * args.games} clients), {args.moves} moves each, "
        f"think {args.think:g} s, rules {args.rules}; set up in {results.setup_seconds:.1f} s; "
        f"then {actions} actions in {wall:.1f} s ({actions / wall:.0f} actions/s)"
    )
    if latencies_ms:
        print(
            f"round trip (ms): median {statistics.median(latencies_ms):.2f}  p95 {percentile(latencies_ms, 0.95):.2f}  "
            f"p99 {percentile(latencies_ms, 0.99):.2f}  max {max(latencies_ms):.2f}"
        )
    print(
        f"games completed: {results.games_done}/{args.games}; errors: {len(results.errors)}; server log errors: {len(server_errors)}"
    )
    for error in results.errors[:5]:
        print(f"  {error[:200]}")
    print(
        f"during play: server CPU {server_cpu:.1f} s over {wall:.1f} s ({100 * server_cpu / wall:.0f}% of one core), "
        f"resident memory {memory:.0f} MiB; load clients CPU: {client_cpu:.1f} s"
    )
    if stats is None:
        print("event loop: this server does not report its stalls")
    else:
        writes = stats["writes"]
        grouped = writes["changes"] / writes["transactions"] if writes["transactions"] else 0.0
        print(
            f"event loop during play: longest stall {stats['loop']['longest_stall_ms']:.1f} ms, "
            f"longest work between two 10 ms ticks {stats['loop']['longest_work_ms']:.1f} ms CPU; "
            f"longest garbage collection {stats['loop']['longest_collection_ms']:.1f} ms, "
            f"{stats['loop']['full_collections']} full; "
            f"writes: {writes['changes']} changes in {writes['transactions']} transactions ({grouped:.1f} a transaction)"
        )
    return 0 if not results.errors and not server_errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
