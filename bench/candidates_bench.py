"""Time candidates(): the k best plays placing different rack tiles.

The positions are those of bench/solver_bench.py (the same generator and
seed): tables of 0 to 100 tiles, racks of 5 to 30, most tiles first, the
initial meld done. Printed for each k: the median, p95 and max time per
position, and how many plays came back on average; then the same per
table-size bucket for the middle k.

Run: .venv/bin/python bench/candidates_bench.py [--positions N] [--seed S] [--k 1 5 10]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from positions import BUCKETS, bench_positions, bucket_name

from tilerummy import Rules, candidates


def p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def figures(samples: Sequence[float]) -> str:
    return (
        f"{statistics.median(samples) * 1e3:8.1f} {p95(samples) * 1e3:8.1f} {max(samples) * 1e3:8.1f}"
        if samples
        else f"{'-':>26}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=10, help="positions per table-size bucket (default 10)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions (default 2026)")
    parser.add_argument("--rules", default="standard", help="rules preset (default standard)")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10], help="how many plays to ask for")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules)
    positions = bench_positions(args.seed, args.positions)
    print(f"candidates benchmark: seed {args.seed}, {args.positions} positions per bucket, rules {args.rules!r},")
    print("most tiles first, initial meld done")
    if positions:  # the first search of a process sets up what later ones share
        candidates(list(positions[0].rack), positions[0].table, rules=rules, k=1)

    times: dict[int, list[float]] = {}
    found: dict[int, list[int]] = {}
    for k in args.k:
        times[k], found[k] = [], []
        for position in positions:
            start = time.perf_counter()
            plays = candidates(list(position.rack), position.table, rules=rules, k=k)
            times[k].append(time.perf_counter() - start)
            found[k].append(len(plays))

    print()
    print("time per position, ms")
    print("   k   n    median      p95      max   plays (mean)")
    for k in args.k:
        print(f"{k:4} {len(times[k]):3}  {figures(times[k])}   {statistics.mean(found[k]) if found[k] else 0:6.2f}")
    if args.k and positions:
        middle = args.k[len(args.k) // 2]
        print()
        print(f"k={middle} by table size, ms")
        print("table tiles   n    median      p95      max")
        for bucket in range(len(BUCKETS)):
            mine = [t for t, position in zip(times[middle], positions, strict=True) if position.bucket == bucket]
            print(f"{bucket_name(bucket):>11} {len(mine):3}  {figures(mine)}")


if __name__ == "__main__":
    main()
