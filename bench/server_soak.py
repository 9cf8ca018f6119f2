"""Soak the server's hub in-process: thousands of whole games of bots, several at a time, on a
clock the script moves (the turn clock never waits), and whether memory grows with the number
of games finished.

Each game: a host says hello, opens a room of two bots (it watches), starts the game and
leaves once the game is over; the hub then closes the room as it would after an hour. After a
warm-up, the hub's own structures, the objects Python holds and (with --tracemalloc) the
memory traced are read after N and after 2N finished games; bounded caches are emptied before
each reading, so that only what is kept per game counts. A leak shows as growth per game.

    python bench/server_soak.py --games 1000 --at-once 8
    python bench/server_soak.py --games 200 --tracemalloc

Prints the games, moves and time, each reading, and the growth per finished game.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

from tilerummy.legality import forget_judged
from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.seating import IDLE_ROOM_SECONDS

#: Games played before measuring, so that what is built once is not counted as growth.
WARM_UP = 8


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Sink:
    """A connection that reads everything and keeps nothing but counts."""

    def __init__(self) -> None:
        self.messages = 0
        self.errors: list[str] = []

    def send(self, text: str) -> None:
        self.messages += 1
        if text.startswith('{"reply_to"') and '"type":"error"' in text:
            self.errors.append(text)

    def close(self, code: int, reason: str) -> None:
        self.errors.append(f"closed {code} {reason}")


@dataclass(frozen=True, slots=True)
class Reading:
    games: int
    moves: int
    objects: int
    traced_bytes: int
    structures: dict[str, int]


def read(hub: Hub, games: int, moves: int) -> Reading:
    """Memory and the hub's structures now, with bounded caches emptied and garbage collected."""
    for thing in gc.get_objects():
        # type(), not isinstance(): a weak proxy whose object has gone raises ReferenceError on isinstance.
        if type(thing) is functools._lru_cache_wrapper:
            thing.cache_clear()
    forget_judged()
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else 0
    return Reading(games, moves, len(gc.get_objects()), traced, structures(hub))


def structures(hub: Hub) -> dict[str, int]:
    """The sizes of everything the hub keeps per room, member or task."""
    return {
        "rooms": len(hub.rooms),
        "runtimes": len(hub.runtime),
        "members": sum(len(runtime.members) for runtime in hub.runtime.values()),
        "tasks": len(hub._tasks),
        "hinting": len(hub.bot_turns._hinting),
    }


async def one_game(hub: Hub, clock: Clock, level: str, number: int) -> int:
    """Play one game of two bots to its end; the number of moves."""
    sink = Sink()
    host = Member(outbox=sink)

    async def say(message: dict[str, object]) -> None:
        await hub.receive(host, json.dumps(message))

    await say({"type": "hello", "protocol": 1, "name": f"Host {number}"})
    seats = [{"kind": "bot", "level": level}, {"kind": "bot", "level": level}]
    # No turn clock, and no search for an initial meld before each turn: the server's own work.
    rules = {"preset": "classic", "options": {"turn_seconds": None}}
    await say({"type": "create_room", "id": 1, "seats": seats, "rules": rules, "options": {"bot_delay": 0}})
    room = host.room
    assert room is not None, sink.errors
    await say({"type": "start_game", "id": 2})
    while room.status != "finished":
        # The bots think in threads: give them the time they need, on the real clock only here.
        await asyncio.sleep(0.001)
    assert room.game is not None and room.game.result is not None
    moves = len(room.game.actions)
    await say({"type": "leave_room", "id": 3})
    assert not sink.errors, sink.errors
    return moves


async def play(hub: Hub, clock: Clock, games: int, at_once: int, level: str, first: int) -> int:
    """Play ``games`` games, ``at_once`` at a time; then, an hour later, the hub closes their rooms."""
    moves = 0
    for start in range(0, games, at_once):
        batch = range(first + start, first + min(games, start + at_once))
        moves += sum(await asyncio.gather(*(one_game(hub, clock, level, number) for number in batch)))
    clock.now += IDLE_ROOM_SECONDS + 1
    await hub.sweep()
    return moves


async def soak(games: int, at_once: int, level: str, database: str, warm_up: int = WARM_UP) -> tuple[Reading, Reading]:
    """Play ``warm_up`` games, then ``games``, then ``games`` more; readings after each half."""
    from tilerummy.server.store import open_store

    clock = Clock()
    hub = Hub(open_store(database), BotPool(0), clock=clock)
    await hub.start()
    readings = []
    moves = played = 0
    try:
        for count in (warm_up, games, games):
            moves += await play(hub, clock, count, at_once, level, played)
            played += count
            readings.append(read(hub, played, moves))
    finally:
        await hub.close()
        hub.store.close()
    return readings[1], readings[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="N: games between the two readings (default 1000)")
    parser.add_argument("--at-once", type=int, default=8, help="games played at the same time (default 8)")
    parser.add_argument("--level", default="random", help="the bots' level (default random)")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace memory (several times slower)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.at_once < 1:
        parser.error("--games and --at-once are 1 or more")
    if args.tracemalloc:
        tracemalloc.start()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        database = str(Path(directory) / "soak.sqlite3")
        first, second = asyncio.run(soak(args.games, args.at_once, args.level, database))
    elapsed = time.perf_counter() - started
    print(
        f"server_soak: {second.games} games of two {args.level} bots, {args.at_once} at a time"
        f" ({second.moves} moves) in {elapsed:.1f} s ({second.games / elapsed:.1f} games/s)"
    )
    for reading in (first, second):
        traced = f", {reading.traced_bytes / 1024:.0f} KiB traced" if args.tracemalloc else ""
        print(f"after {reading.games} games: {reading.objects} objects{traced}; hub {reading.structures}")
    growth = f"{(second.objects - first.objects) / args.games:+.2f} objects"
    if args.tracemalloc:
        growth += f", {(second.traced_bytes - first.traced_bytes) / args.games:+.0f} bytes"
    print(f"growth per finished game: {growth}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
