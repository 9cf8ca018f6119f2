"""The arena's speed, against earlier code measured back to back in the same run.

Run: .venv/bin/python bench/arena_bench.py --baseline OTHER/src [--bots B,B,...] [--games N]
     [--seed S] [--workers W] [--rounds R]

``OTHER`` is a checkout of the earlier code (``git worktree add /tmp/arena-baseline
COMMIT``). Each round runs the same command with each code,

    python -m tilerummy.cli arena --bots B,B,... --games N --seed S --workers W --json --save DIR

the earlier code first in odd rounds and last in even ones, each in a fresh
process whose ``PYTHONPATH`` is that code's ``src``. It prints, for each
code, the games per second the arena reports (from the start of its games to
its report; median, p95 and worst over the rounds: p95 is the rate all but
the slowest 5% of rounds reach), the games per second of the whole command
on the clock and per second of processor time (every process of the
command, from ``getrusage``), and the ratio of this checkout's rate to the
earlier one's, round by round (median and worst). It also says whether the
two codes played the same games (each game's moves and result, from the
records saved): when a bot's or the solver's choices changed between the
two, the rates are of the same pairing, deals and seeds, not of the same
games, and the bench says so, with the moves per game each code played.

``--profile`` instead plays the arena once in this process (one worker)
under cProfile, with the code on ``PYTHONPATH``, and prints where the time
went: the share inside the solver's ``solve`` and ``candidates``, and the
functions that took the most.

``--analyse`` instead plays the bots' games (levels or the league's
opponents, ``--workers`` processes) with their records saved, then times
the post-game analysis (:func:`tilerummy.analysis.analyse`, what
``tilerummy analyse`` and the server run) of each whole game in this
process: the seconds a game (median, p95 and worst, on the clock and of
processor time), its slowest turn, and the biggest rack it met. ``--save
DIR`` keeps the records there (analysed again from it with ``--records DIR``).

``--write-fixture PATH`` instead writes, with the code on ``PYTHONPATH``,
every game of the test fixture's arenas (:data:`FIXTURE_ARENAS`) as a
digest of its moves and its result, for ``tests/test_arena.py`` to compare.
"""

from __future__ import annotations

import argparse
import cProfile
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


def game_digest(record_text: str) -> dict[str, Any]:
    """A saved game's moves as one digest, with its result."""
    from tilerummy.arena.games import record_digest

    return record_digest(record_text)


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


class TurnClock:
    """The processor time of the slowest turn, from the analysis's progress calls."""

    def __init__(self) -> None:
        self.last = time.process_time()
        self.slowest = 0.0

    def tick(self, done: int, total: int) -> None:
        now = time.process_time()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now


def analyse_games(bots: list[str], args: argparse.Namespace) -> None:
    """Play the games (or read ``--records``), then time the analysis of each."""
    from tilerummy.analysis import analyse
    from tilerummy.arena.games import play_all, schedule
    from tilerummy.records import GameRecord
    from tilerummy.rules import PoolDraws, Rules

    with tempfile.TemporaryDirectory() as scratch:
        directory = args.records or args.save or Path(scratch)
        if args.records is None:
            directory.mkdir(parents=True, exist_ok=True)
            rules = Rules(pool_draws=PoolDraws.PER_SEAT)
            specs = schedule(bots, args.games, seed=args.seed, rules=rules, save_to=str(directory))
            play_all(specs, args.workers)
        paths = sorted(directory.glob("*.json"))
        print(f"Analysis of {len(paths)} games ({args.bots if args.records is None else directory})")
        print(f"  load average before: {load_average()}")
        clock: list[float] = []
        processor: list[float] = []
        for path in paths:
            record = GameRecord.from_json(path.read_text(encoding="utf-8"))
            turns = TurnClock()
            started, started_cpu = time.perf_counter(), time.process_time()
            analysis = analyse(record, progress=turns.tick)
            clock.append(time.perf_counter() - started)
            processor.append(time.process_time() - started_cpu)
            biggest = max((turn.rack for turn in analysis.turns), default=0)
            print(
                f"  {path.name}: {clock[-1]:6.2f} s ({processor[-1]:6.2f} s of processor time), "
                f"{len(analysis.turns)} turns, slowest turn {turns.slowest:5.2f} s of processor time, biggest rack {biggest}",
                flush=True,
            )
        print(f"  load average after: {load_average()}")
    for name, seconds in (("on the clock", clock), ("of processor time", processor)):
        ordered = sorted(seconds)
        p95 = ordered[round(0.95 * (len(ordered) - 1))]
        print(f"Seconds a game {name}: median {statistics.median(ordered):.2f}, p95 {p95:.2f}, worst {ordered[-1]:.2f}")


def measure(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Run the arena command once with the code in ``src``: its report, the
    whole command's wall and processor time, and a digest of every game."""
    with tempfile.TemporaryDirectory() as directory:
        command = [
            sys.executable,
            "-m",
            "tilerummy.cli",
            "arena",
            "--bots",
            args.bots,
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
            "--workers",
            str(args.workers),
            "--json",
            "--save",
            directory,
        ]
        environment = {**os.environ, "PYTHONPATH": str(src)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"the arena with {src} failed: {done.stderr.strip().splitlines()[-1:]}")
        played = [game_digest(record.read_text(encoding="utf-8")) for record in sorted(Path(directory).glob("*.json"))]
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    report: dict[str, Any] = json.loads(done.stdout)
    return {"report": report, "wall": wall, "cpu": cpu, "played": played}


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
    parser.add_argument("--profile", action="store_true", help="profile one arena in this process")
    parser.add_argument("--analyse", action="store_true", help="time the analysis of every game played")
    parser.add_argument("--save", type=Path, metavar="DIR", help="with --analyse, keep the records here")
    parser.add_argument("--records", type=Path, metavar="DIR", help="with --analyse, analyse these records instead")
    parser.add_argument("--write-fixture", type=Path, metavar="PATH", help="write the test fixture's games")
    args = parser.parse_args()
    bots = [bot.strip() for bot in args.bots.split(",")]
    if args.write_fixture is not None:
        write_fixture(args.write_fixture)
        return
    if args.profile:
        profile(bots, args.games, args.seed)
        return
    if args.analyse:
        analyse_games(bots, args)
        return
    if args.baseline is None:
        parser.error("--baseline is needed (the earlier code's src directory)")
    sides = {"earlier": args.baseline.resolve(), "this": CURRENT_SRC}
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    print(f"{args.bots}, {args.games} games from seed {args.seed}, {args.workers} workers, {args.rounds} rounds")
    print(f"  load average before: {load_average()}")
    for round_number in range(args.rounds):
        order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
        for side in order:
            runs[side].append(measure(sides[side], args))
        earlier, this = (runs[side][-1] for side in sides)
        for side in sides:
            if runs[side][-1]["played"] != runs[side][0]["played"]:
                sys.exit(f"round {round_number + 1}: the {side} code played other games than in round 1")
        print(
            f"  round {round_number + 1}: earlier {rate(earlier):6.2f} games/s, this {rate(this):6.2f} games/s",
            flush=True,
        )
    print(f"  load average after: {load_average()}")
    earlier_games, this_games = runs["earlier"][0]["played"], runs["this"][0]["played"]
    same = sum(one == other for one, other in zip(earlier_games, this_games, strict=True))
    if same == len(this_games):
        print(f"The two codes played the same {same} games (moves and results).")
    else:
        print(
            f"The two codes played different games: {same} of {len(this_games)} alike (moves and results); "
            "the rates below are of the same pairing, deals and seeds."
        )
    for side in sides:
        moves = [game["moves"] for game in runs[side][0]["played"]]
        print(f"  {side:<8} {statistics.mean(moves):6.1f} moves a game (median {statistics.median(moves):.0f})")
    games = runs["this"][0]["report"]["games"]
    print(f"Games per second the arena reports ({games} games, from the start of its games to its report):")
    arena = {side: [rate(run) for run in runs[side]] for side in sides}
    wall = {side: [games / run["wall"] for run in runs[side]] for side in sides}
    cpu = {side: [games / run["cpu"] for run in runs[side]] for side in sides}
    for side in sides:
        print(f"  {side:<8} {summary(arena[side])}")
    print("Games per second of the whole command on the clock (from its start to its exit):")
    for side in sides:
        print(f"  {side:<8} {summary(wall[side])}")
    print("Games per second of processor time (every process of the command):")
    for side in sides:
        print(f"  {side:<8} {summary(cpu[side])}")
    for name, rates in (("arena", arena), ("command", wall), ("processor time", cpu)):
        ratios = [new / old for old, new in zip(rates["earlier"], rates["this"], strict=True)]
        print(f"Ratio, this over earlier, {name}: median {statistics.median(ratios):.2f}, worst {min(ratios):.2f}")


def rate(run: dict[str, Any]) -> float:
    """The games per second an arena reported, from its own figures (its rounded rate would lose digits)."""
    report = run["report"]
    return float(report["games"] / report["seconds"])


def load_average() -> str:
    return ", ".join(f"{load:.2f}" for load in os.getloadavg())


if __name__ == "__main__":
    main()
