"""The arena's speed, against earlier code measured back to back in the same run.

Run: .venv/bin/python bench/arena_bench.py --baseline OTHER/src [--bots B,B,...] [--games N]
     [--seed S] [--workers W] [--rounds R]

``OTHER`` is a checkout of the earlier code (``git worktree add /tmp/arena-baseline
COMMIT``). Each round plays the same arena (``run_arena`` with these bots,
games, seed and workers) once with each code, the earlier code first in
even rounds and last in odd ones, each in a fresh process whose
``PYTHONPATH`` is that code's ``src``. It prints, for each code, the games
per second on the clock (median, p95 and worst over the rounds: p95 is the
rate all but the slowest 5% of rounds reach) and per second of processor
time spent by the arena's processes, and the ratio of this checkout's rate
to the earlier one's, round by round (median and worst). Both codes must
report the same games: the bench says so, or stops.

``--profile`` instead plays the arena once in this process (one worker)
under cProfile, with the code on ``PYTHONPATH``, and prints where the time
went: the share inside the solver's ``solve`` and ``candidates``, and the
functions that took the most.

``--write-fixture PATH`` instead writes, with the code on ``PYTHONPATH``,
every game of the test fixture's arenas (:data:`FIXTURE_ARENAS`) as a
digest of its moves and its result, for ``tests/test_arena.py`` to compare.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CURRENT_SRC = HERE.parent / "src"

#: The arenas whose games the test fixture holds: (bots, games, first seed).
FIXTURE_ARENAS: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("greedy", "greedy", "greedy", "greedy"), 8, 4100),
    (("hard", "greedy"), 4, 4200),
    (("hard", "greedy", "easy", "random"), 4, 4300),
    (("network", "greedy", "greedy"), 3, 4400),
)

#: Fields of the report that are times, which differ from run to run.
TIMED = {"seconds", "games_per_second", "move_seconds_median", "move_seconds_p95"}


def game_digest(record_text: str) -> dict[str, Any]:
    """A saved game's moves as one digest, with its result."""
    data = json.loads(record_text)
    moves = json.dumps(data["actions"], sort_keys=True, separators=(",", ":"))
    return {
        "players": data["players"],
        "moves": len(data["actions"]),
        "moves_sha256": hashlib.sha256(moves.encode()).hexdigest(),
        "result": data["result"],
    }


def write_fixture(path: Path) -> None:
    from tilerummy.arena import run_arena

    arenas = []
    for bots, games, seed in FIXTURE_ARENAS:
        with tempfile.TemporaryDirectory() as directory:
            run_arena(list(bots), games, seed=seed, workers=1, save_to=directory)
            played = [
                game_digest(record.read_text(encoding="utf-8")) for record in sorted(Path(directory).glob("*.json"))
            ]
        arenas.append({"bots": list(bots), "games": games, "seed": seed, "played": played})
        print(f"{','.join(bots)}: {len(played)} games", file=sys.stderr)
    path.write_text(json.dumps({"arenas": arenas}, indent=1) + "\n", encoding="utf-8")


def without_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_times(item) for key, item in value.items() if key not in TIMED}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value


def run_once(bots: list[str], games: int, seed: int, workers: int) -> None:
    """Play the arena in this process and print its report, wall time and processor time as JSON."""
    from tilerummy.arena import run_arena

    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    report = run_arena(bots, games, seed=seed, workers=workers)
    wall = time.perf_counter() - started
    after_self = resource.getrusage(resource.RUSAGE_SELF)
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(
        (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        for before, after in ((before_self, after_self), (before_children, after_children))
    )
    print(json.dumps({"report": report.to_dict(), "wall": wall, "cpu": cpu}))


def profile(bots: list[str], games: int, seed: int) -> None:
    """Play the arena in this process under cProfile and print where the time went."""
    from tilerummy.arena import run_arena

    profiler = cProfile.Profile()
    profiler.enable()
    report = run_arena(bots, games, seed=seed, workers=1)
    profiler.disable()
    stats = pstats.Stats(profiler)
    timings: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]
    total = max(cumulative for (_, _, _, cumulative, _) in timings.values())
    print(f"{report.games} games, {total:.2f} s under the profiler (its shares are what to read)")
    for name in ("solve", "candidates"):
        spent = sum(
            cumulative
            for (path, _, function), (_, _, _, cumulative, _) in timings.items()
            if function == name and path.endswith(os.path.join("solver", "_solve.py"))
        )
        print(f"  inside the solver's {name}(): {spent:.2f} s, {spent / total:.0%}")
    stats.sort_stats("cumulative").print_stats(25)


def measure(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--run-once",
        "--bots",
        args.bots,
        "--games",
        str(args.games),
        "--seed",
        str(args.seed),
        "--workers",
        str(args.workers),
    ]
    environment = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the arena with {src} failed: {done.stderr.strip().splitlines()[-1:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def low_percentile(rates: list[float], share: float) -> float:
    """The rate all but the slowest ``share`` of the runs reach."""
    ordered = sorted(rates)
    return ordered[int(share * (len(ordered) - 1))]


def summary(rates: list[float]) -> str:
    return f"median {statistics.median(rates):7.2f}  p95 {low_percentile(rates, 0.05):7.2f}  worst {min(rates):7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the earlier code's src directory")
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy", help="one level per seat")
    parser.add_argument("--games", type=int, default=80, help="games per arena (default 80)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes per arena (default 2)")
    parser.add_argument("--rounds", type=int, default=5, help="arenas per code (default 5)")
    parser.add_argument("--run-once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help="profile one arena in this process")
    parser.add_argument("--write-fixture", type=Path, metavar="PATH", help="write the test fixture's games")
    args = parser.parse_args()
    bots = [bot.strip() for bot in args.bots.split(",")]
    if args.run_once:
        run_once(bots, args.games, args.seed, args.workers)
        return
    if args.write_fixture is not None:
        write_fixture(args.write_fixture)
        return
    if args.profile:
        profile(bots, args.games, args.seed)
        return
    if args.baseline is None:
        parser.error("--baseline is needed (the earlier code's src directory)")
    sides = {"earlier": args.baseline.resolve(), "this": CURRENT_SRC}
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    print(f"{args.bots}, {args.games} games from seed {args.seed}, {args.workers} workers, {args.rounds} rounds")
    for round_number in range(args.rounds):
        order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side], args))
        earlier, this = (runs[side][-1] for side in sides)
        if without_times(earlier["report"]) != without_times(this["report"]):
            sys.exit(f"round {round_number + 1}: the two codes reported different games")
        print(
            f"  round {round_number + 1}: earlier {earlier['report']['games'] / earlier['wall']:6.2f} games/s, "
            f"this {this['report']['games'] / this['wall']:6.2f} games/s (same games)",
            flush=True,
        )
    games = runs["this"][0]["report"]["games"]
    print(f"Games per second on the clock ({games} games an arena, from the start of run_arena to its report):")
    wall = {side: [games / run["wall"] for run in runs[side]] for side in sides}
    cpu = {side: [games / run["cpu"] for run in runs[side]] for side in sides}
    for side in sides:
        print(f"  {side:<8} {summary(wall[side])}")
    print("Games per second of processor time (every process of the arena):")
    for side in sides:
        print(f"  {side:<8} {summary(cpu[side])}")
    for name, rates in (("clock", wall), ("processor time", cpu)):
        ratios = [new / old for old, new in zip(rates["earlier"], rates["this"], strict=True)]
        print(f"Ratio, this over earlier, {name}: median {statistics.median(ratios):.2f}, worst {min(ratios):.2f}")


if __name__ == "__main__":
    main()
