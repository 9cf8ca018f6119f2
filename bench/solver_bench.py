"""Time the move solver against the peer solver (rummikub-solver 1.0.0) on the same positions.

Positions are dealt from a shuffled standard set (fixed seeds): a table of 0 to
100 tiles laid down as valid runs and groups, a joker standing in for a missing
tile now and then, as games build them, then a rack of 5 to 30 tiles from the
rest (fewer when fewer are left). Both solvers are asked for the most tiles to place, once melded. Printed:
per table-size bucket the median, p95 and max time of each solver (the
processor time the process spent, which another load on the machine changes
far less than the time on the clock), the
per-position speed ratio (peer time / our time), a cold start (import plus
first solve in a fresh process), and every position where the two disagree
on the tile count, or where our play is not legal.

The peer's tile count is trusted only where the adapter certifies it
(tests/peer.py); elsewhere its model differs from the rules (a joker at the end
of a run of four, jokers moving freely, ...), and it is timed only on
positions whose table it can write with its sets.

The big-rack bucket (``--big N`` positions per preset, ours alone: the peer
takes far too long there) deals, under every preset, a table of any size up
to the whole set and a rack of 30 tiles up to every tile left; each position
is solved waiting to open and opened, with and without the tie-break, and
the median, p95 and max are printed with how many plays came back not
proven best.

Run: .venv/bin/python bench/solver_bench.py [--positions N] [--seed S] [--no-fewest-changes] [--rounds N]
[--big N] [--peer-results FILE] (the peer takes seconds a position: with a file, its results
are kept from the first run on the same positions, for the next ones)
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from tilerummy import IllegalPlay, Rules, format_tiles
from tilerummy.legality import judge_play

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the peer's adapter lives in tests/

from positions import (
    BIG_RACK_LEAST,
    BUCKETS,
    RACK_SIZES,
    BigPosition,
    Position,
    bench_positions,
    big_positions,
    bucket_name,
    make_position,
)
from tests.peer import PEER_VERSION, model_for, peer_answer, peer_solve, peer_state, unsupported

ROOT = Path(__file__).resolve().parent.parent

Solve = Callable[..., Any]


# --- timing ------------------------------------------------------------------------------------


class TimedOut(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """Silence the process's stdout, C libraries included (HiGHS prints a banner once)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


@dataclass
class Result:
    position: Position
    peer_time: float | None = None  # None: the peer cannot write this table with its sets
    peer_tiles: int | None = None  # the peer's own count
    peer_certified: int | None = None  # its count, when certified optimal
    peer_bound: int | None = None
    peer_note: str | None = None
    our_time: float | None = None
    plain_time: float | None = None  # ours without the tie-break, when timed with it
    our_tiles: int | None = None
    our_problem: str | None = None
    notes: list[str] = field(default_factory=list)


def run_peer(result: Result, rules: Rules) -> None:
    position = result.position
    rack, table = list(position.rack), position.table
    result.peer_note = unsupported(rack, table, rules, initial_meld_done=True)
    if result.peer_note is not None:
        return
    model = model_for(rules, initial_meld_done=True)
    start = time.process_time()
    play = peer_solve(model, peer_state(model, rack, table, initial_meld_done=True))
    result.peer_time = time.process_time() - start
    result.peer_tiles = len(play.placed)
    answer = peer_answer(rack, table, rules, initial_meld_done=True)
    assert answer is not None
    result.peer_bound = answer.bound
    if answer.exact:
        result.peer_certified = len(answer.placed)


def run_ours(result: Result, solve: Solve, rules: Rules, timeout: float, *, fewest_changes: bool = True) -> None:
    position = result.position
    rack, table = list(position.rack), position.table
    start = time.process_time()
    try:
        with time_limit(timeout):
            solution = solve(
                rack, table, rules=rules, initial_meld_done=True, objective="tiles", fewest_changes=fewest_changes
            )
    except TimedOut:
        result.our_problem = f"timed out after {timeout:g} s"
        return
    except Exception as error:  # report and go on
        result.our_problem = f"raised {type(error).__name__}: {error}"
        return
    result.our_time = time.process_time() - start
    if solution is None:
        result.our_tiles = 0
        return
    result.our_tiles = len(solution.placed)
    try:
        judged = judge_play(table, solution.table, rack, rules, melded=True)
    except IllegalPlay as error:
        result.our_problem = f"illegal play: {error}"
        return
    if sorted(judged.from_rack.elements()) != sorted(solution.placed):
        result.our_problem = "placed tiles differ from what the table took from the rack"


def cold_start(code: str, args: Sequence[str], repeats: int, limit: float) -> list[tuple[float, dict[str, float]]]:
    """Run ``code`` in fresh interpreters: (wall time of the process, what it printed as JSON)."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=False, timeout=limit
        )
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed")
        runs.append((wall, json.loads(done.stdout.strip().splitlines()[-1])))
    return runs


OUR_COLD = """
import json, sys, time
t0 = time.perf_counter()
from tilerummy.solver import solve
t1 = time.perf_counter()
solve(sys.argv[1], sys.argv[2], rules=sys.argv[3], initial_meld_done=True, objective="tiles")
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first solve": t2 - t1}))
"""

PEER_COLD = """
import json, sys, time
t0 = time.perf_counter()
from tests.peer import model_for, peer_solve, peer_state
from tilerummy import Rules, Table, parse_tiles
t1 = time.perf_counter()
rules = Rules.preset(sys.argv[3])
model = model_for(rules, initial_meld_done=True)
peer_solve(model, peer_state(model, parse_tiles(sys.argv[1]), Table.parse(sys.argv[2]), initial_meld_done=True))
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first solve": t2 - t1}))
"""


def run_big(positions: Sequence[BigPosition], solve: Solve, timeout: float) -> None:
    """Time our solver on the big-rack positions, each waiting to open and opened,
    with and without the tie-break, and print the figures per preset."""
    print()
    print(f"big racks ({BIG_RACK_LEAST} tiles up to every tile left; tables of 0 up to the whole set),")
    print(f"{len(positions)} positions, each solved four ways: processor time, ms")
    print("preset       meld    tie-break   n    median      p95      max  unproven  t/o")
    worst: tuple[float, str] = (0.0, "")
    everything: list[float] = []
    for preset in dict.fromkeys(position.preset for position in positions):
        mine = [position for position in positions if position.preset == preset]
        rules = Rules.preset(preset)
        for opened in (False, True):
            for fewest in (False, True):
                times: list[float] = []
                unproven = late = 0
                for position in mine:
                    start = time.process_time()
                    try:
                        with time_limit(timeout):
                            play = solve(
                                list(position.rack),
                                position.table,
                                rules=rules,
                                initial_meld_done=opened,
                                fewest_changes=fewest,
                            )
                    except TimedOut:
                        late += 1
                        continue
                    spent = time.process_time() - start
                    times.append(spent)
                    unproven += play is not None and not getattr(play, "proven", True)
                    if spent > worst[0]:
                        how = (
                            f"{'opened' if opened else 'waiting to open'}, {'with' if fewest else 'without'} tie-break"
                        )
                        worst = (spent, f"{how}: {position.notation()}")
                everything += times
                print(
                    f"{preset:12} {'done' if opened else 'wait':6} {'on' if fewest else 'off':>9} {len(mine):3}"
                    f"  {ms(times)}  {unproven:8} {late:4}"
                )
    print(f"{'all':12} {'':6} {'':9} {len(everything):3}  {ms(everything)}")
    if worst[1]:
        print(f"slowest ({worst[0] * 1e3:.0f} ms), {worst[1]}")


# --- report ------------------------------------------------------------------------------------


def p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def ms(samples: Sequence[float]) -> str:
    if not samples:
        return f"{'-':>26}"
    return f"{statistics.median(samples) * 1e3:8.1f} {p95(samples) * 1e3:8.1f} {max(samples) * 1e3:8.1f}"


def ratios(samples: Sequence[float]) -> str:
    if not samples:
        return f"{'-':>15}"
    return f"{statistics.median(samples):7.2f} {p95(samples):7.2f}"


def load_ours() -> tuple[Solve | None, str]:
    try:
        solver = importlib.import_module("tilerummy.solver")
        solve: Solve = solver.solve
    except (ImportError, AttributeError) as error:
        return None, f"not importable ({type(error).__name__}: {error})"
    # An earlier checkout (on PYTHONPATH, to compare) may say whether it ran compiled.
    return solve, f"tilerummy.solver, {getattr(solver, 'IMPLEMENTATION', 'plain Python')}"


_PEER_FIELDS = ("peer_time", "peer_tiles", "peer_certified", "peer_bound", "peer_note")


def _kept_peer_results(path: Path | None, seed: int, positions: int, rules: str) -> list[dict[str, Any]] | None:
    """The peer's results kept by an earlier run on the same positions, if any."""
    if path is None or not path.exists():
        return None
    kept = json.loads(path.read_text())
    if (kept["seed"], kept["positions"], kept["rules"]) != (seed, positions, rules):
        raise SystemExit(f"{path} holds the peer's results on other positions")
    results: list[dict[str, Any]] = kept["results"]
    return results


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=6, help="positions per table-size bucket (default 6)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions (default 2026)")
    parser.add_argument("--rules", default="standard", help="rules preset (default standard)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds our solver may take per position (default 10)"
    )
    parser.add_argument("--peer-only", action="store_true", help="time the peer only")
    parser.add_argument(
        "--fewest-changes",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="our last tie-break, fewest changes to the table's sets, which the peer does not have (default on)",
    )
    parser.add_argument("--cold-runs", type=int, default=3, help="fresh processes for the cold start (0: skip)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds of our solver over all positions, each position keeping its least time (default 1: the"
        " first round, which meets the caches cold; more rounds give figures a loaded machine moves less; with"
        " the tie-break, each round times the position both ways, the plain solve first after the first round)",
    )
    parser.add_argument(
        "--peer-results",
        type=Path,
        help="a file keeping the peer's results on these positions: read when it exists, else written",
    )
    parser.add_argument(
        "--big", type=int, default=4, help="big-rack positions per preset, ours alone (default 4; 0: skip)"
    )
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules)
    solve, ours_name = (None, "left out (--peer-only)") if args.peer_only else load_ours()

    positions = bench_positions(args.seed, args.positions)

    print(f"solver benchmark: seed {args.seed}, {args.positions} positions per bucket, rules {args.rules!r},")
    print(f"racks of {RACK_SIZES[0]} to {RACK_SIZES[1]} tiles, objective: most tiles, initial meld done")
    print(f"peer: rummikub-solver {PEER_VERSION} (its MILP through cvxpy and HiGHS)")
    print(f"ours: {ours_name}, {'with' if args.fewest_changes else 'without'} the fewest-changes tie-break", end="")
    print(f", least time of {args.rounds} rounds" if args.rounds > 1 else "")

    kept = _kept_peer_results(args.peer_results, args.seed, args.positions, args.rules)
    if kept is not None:
        print(f"peer results read from {args.peer_results} (timed in an earlier run)")
    # Warm both up (the peer compiles its model on its first solve) on a small position.
    warm = positions[args.positions] if args.positions else make_position(random.Random(args.seed), 1)
    with silenced():
        if kept is None:
            run_peer(Result(warm), rules)
        if solve is not None:
            run_ours(Result(warm), solve, rules, args.timeout, fewest_changes=args.fewest_changes)

    results = []
    for index, position in enumerate(positions):
        result = Result(position)
        if kept is None:
            run_peer(result, rules)
        else:
            for name in _PEER_FIELDS:
                setattr(result, name, kept[index][name])
        if solve is not None:
            run_ours(result, solve, rules, args.timeout, fewest_changes=args.fewest_changes)
            if args.fewest_changes:
                plain = Result(position)
                run_ours(plain, solve, rules, args.timeout, fewest_changes=False)
                result.plain_time = plain.our_time
        results.append(result)

    for _ in range(args.rounds - 1):
        for result in results:
            if solve is not None and result.our_time is not None and result.our_problem is None:
                if result.plain_time is not None:
                    # The tie-break's cost: both ways again, the plain solve
                    # first this time (the first round ran it second, after
                    # the solve with the tie-break had warmed the caches).
                    plain = Result(result.position)
                    run_ours(plain, solve, rules, args.timeout, fewest_changes=False)
                    result.plain_time = min(result.plain_time, plain.our_time or result.plain_time)
                least = result.our_time
                run_ours(result, solve, rules, args.timeout, fewest_changes=args.fewest_changes)
                result.our_time = min(least, result.our_time or least)

    if kept is None and args.peer_results is not None:
        peer_results = [{name: getattr(result, name) for name in _PEER_FIELDS} for result in results]
        identity = {"seed": args.seed, "positions": args.positions, "rules": args.rules}
        args.peer_results.write_text(json.dumps({**identity, "results": peer_results}))

    print()
    print("processor time per position, ms peer                              ours                    peer/ours")
    print("table tiles  n   expr    median      p95      max    median      p95      max   t/o   median     p95")
    for bucket in range(len(BUCKETS)):
        mine = [result for result in results if result.position.bucket == bucket]
        peer_times = [r.peer_time for r in mine if r.peer_time is not None]
        our_times = [r.our_time for r in mine if r.our_time is not None]
        ratio = [r.peer_time / r.our_time for r in mine if r.peer_time is not None and r.our_time]
        late = sum(1 for r in mine if r.our_problem is not None and r.our_problem.startswith("timed out"))
        print(
            f"{bucket_name(bucket):>11} {len(mine):2} {len(peer_times):6}  {ms(peer_times)}  {ms(our_times)}"
            f" {late:5}  {ratios(ratio)}"
        )
    peer_all = [r.peer_time for r in results if r.peer_time is not None]
    ours_all = [r.our_time for r in results if r.our_time is not None]
    ratio_all = [r.peer_time / r.our_time for r in results if r.peer_time is not None and r.our_time]
    late_all = sum(1 for r in results if r.our_problem is not None and r.our_problem.startswith("timed out"))
    print(
        f"{'all':>11} {len(results):2} {len(peer_all):6}  {ms(peer_all)}  {ms(ours_all)} {late_all:5}  {ratios(ratio_all)}"
    )
    costs = [r.our_time / r.plain_time for r in results if r.our_time and r.plain_time]
    if costs:
        print(
            f"the tie-break's cost (ours with it / without it, each position timed both ways back to back"
            f"{f', least of {args.rounds} rounds each way' if args.rounds > 1 else ''}):"
            f" median {statistics.median(costs):.2f}x, p95 {p95(costs):.2f}x, max {max(costs):.2f}x;"
            f" with it, p95 {p95(ours_all) * 1e3:.1f} ms"
        )
    print("(expr: positions whose table the peer can write with its sets, the only ones it is timed on;")
    print(f" t/o: our solver stopped after {args.timeout:g} s, left out of its times and of the ratios)")

    excluded: dict[str, int] = {}
    for result in results:
        if result.peer_note is not None:
            excluded[result.peer_note] = excluded.get(result.peer_note, 0) + 1
    for note, count in sorted(excluded.items()):
        print(f"  peer cannot express {count} position(s): {note}")
    certified = sum(1 for r in results if r.peer_certified is not None)
    print(f"peer's tile count certified optimal on {certified} of {len(peer_all)} positions it can express")

    if args.cold_runs and solve is not None:
        print()
        # A position of 26-50 table tiles on which our solver took its median time.
        timed = sorted(
            (r for r in results if r.position.bucket == 2 and r.our_time is not None), key=lambda r: r.our_time or 0
        )
        sample = timed[len(timed) // 2].position if timed else warm
        cold_args = [format_tiles(sample.rack), str(sample.table), args.rules]
        for name, code in (("ours", OUR_COLD), ("peer", PEER_COLD)):
            try:
                runs = cold_start(code, cold_args, args.cold_runs, 60 + 3 * args.timeout)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                print(f"cold start, {name}: failed ({error})")
                continue
            wall = statistics.median(run[0] for run in runs)
            imported = statistics.median(run[1]["import"] for run in runs)
            first = statistics.median(run[1]["first solve"] for run in runs)
            print(
                f"cold start, {name}: import {imported * 1e3:.0f} ms + first solve {first * 1e3:.0f} ms"
                f" = {(imported + first) * 1e3:.0f} ms; whole process {wall * 1e3:.0f} ms"
                f" (median of {len(runs)}, {len(sample.table.melds)} sets on the table, rack of {len(sample.rack)})"
            )

    if args.big and solve is not None:
        run_big(big_positions(args.seed, args.big), solve, args.timeout)

    print()
    if solve is None:
        print("no comparison: our solver is not importable")
        return
    compared = disagree = illegal = late = above = 0
    for index, result in enumerate(results):
        lines = []
        if result.our_problem is not None:
            lines.append(f"ours: {result.our_problem}")
            late += result.our_problem.startswith("timed out")
            illegal += not result.our_problem.startswith("timed out")
        elif result.peer_certified is not None:
            compared += 1
            if result.our_tiles != result.peer_certified:
                disagree += 1
                lines.append(f"tile count: ours {result.our_tiles}, peer {result.peer_certified} (certified optimal)")
        if result.our_tiles is not None and result.peer_bound is not None and result.our_tiles > result.peer_bound:
            above += 1
            lines.append(f"ours places {result.our_tiles}, above the proven bound {result.peer_bound}")
        if lines:
            position = result.position
            print(f"position {index} (bucket {bucket_name(position.bucket)}): {position.notation()}")
            for line in lines:
                print(f"  {line}")
    uncertified = [
        r for r in results if r.peer_tiles is not None and r.our_tiles is not None and r.peer_certified is None
    ]
    differ = sum(1 for r in uncertified if r.peer_tiles != r.our_tiles)
    print(f"tile counts compared with the certified peer: {compared}, disagreements: {disagree}")
    print(
        f"our plays refused by the rules engine or failing: {illegal}; above the peer's bound: {above}; timeouts: {late}"
    )
    if uncertified:
        print(
            f"where the peer is not certified ({len(uncertified)} positions) its own count differs from ours on {differ}"
            " (expected: there its model differs from the rules)"
        )


if __name__ == "__main__":
    main()
