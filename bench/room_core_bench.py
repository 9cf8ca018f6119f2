"""What deciding an action in the room core costs: decide then apply, against applying alone.

Run: .venv/bin/python bench/room_core_bench.py [--games N] [--seed S]

Plays N seeded four-player games between simple bots in two rooms dealt alike, each action
timed back to back in both: in one room applied to the game directly (as the server did
before the room core, taking it back only when its write failed), in the other decided by
``room_core.decide`` (checked by applying it and taking it back, the room left as it was)
and then applied with ``room_core.apply`` once "stored". Prints, for plays and for draws,
the median, p95 and worst time of each path and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tilerummy.bots import SimpleBot
from tilerummy.game import Draw, Pass, Play
from tilerummy.server.protocol import CreateRoom, SeatSpec
from tilerummy.server.room_core import Act, Applied, Begin, apply, decide
from tilerummy.server.rooms import Room


def dealt_room(seed: int) -> Room:
    request = CreateRoom(type="create_room", seats=[SeatSpec(kind="person") for _ in range(4)])
    room = Room.create("BENCH1", request, "host", "P0", now=0.0)
    for index in range(4):
        room.take_seat(f"P{index}", f"token-{index}")
    [began] = decide(room, Begin(seed, "5a17", 0.0))
    apply(room, began)
    return room


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    timings: dict[str, dict[str, list[float]]] = {"play": {"apply": [], "core": []}, "draw": {"apply": [], "core": []}}
    bot = SimpleBot()
    for offset in range(args.games):
        direct, cored = dealt_room(args.seed + offset), dealt_room(args.seed + offset)
        assert direct.game is not None and cored.game is not None
        direct.game.limit_undo(1)
        while not direct.game.is_over:
            action = bot.choose(direct.game.view(direct.game.turn))
            kind = "play" if isinstance(action, Play) else "draw"
            if isinstance(action, Play):
                command = Act(action.seat, "play", None, action.table, request=1, seq=cored.seq)
            else:
                command = Act(
                    action.seat, "draw" if isinstance(action, Draw) else "pass", None, request=1, seq=cored.seq
                )
            started = time.perf_counter()
            direct.game.apply(action)
            timings[kind]["apply"].append(time.perf_counter() - started)
            started = time.perf_counter()
            [event] = decide(cored, command)
            assert isinstance(event, Applied), event
            apply(cored, event)
            timings[kind]["core"].append(time.perf_counter() - started)
            assert isinstance(action, Play | Draw | Pass)
        assert cored.game.actions == direct.game.actions
    print(f"games {args.games} (seeds {args.seed}..{args.seed + args.games - 1}), four simple bots each")
    print(f"{'kind':5} {'path':22} {'actions':>7} {'median µs':>10} {'p95 µs':>8} {'worst µs':>9}")
    for kind, paths in timings.items():
        for path, label in (("apply", "Game.apply alone"), ("core", "decide, then apply")):
            values = paths[path]
            print(
                f"{kind:5} {label:22} {len(values):7} {statistics.median(values) * 1e6:10.1f}"
                f" {quantile(values, 0.95) * 1e6:8.1f} {max(values) * 1e6:9.1f}"
            )
        ratio = statistics.median(paths["core"]) / statistics.median(paths["apply"])
        print(f"{kind:5} {'ratio of the medians':22} {'':7} {ratio:10.2f}x")


if __name__ == "__main__":
    main()
