"""Time the exact initial-meld check (-200 / -100 rule) and a whole seeded game.

Run: .venv/bin/python bench/opening_bench.py
"""

from __future__ import annotations

import random
import statistics
import time

from tilerummy import Game, Rules, TileSet, has_opening
from tilerummy.bots import SimpleBot


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered) * 1e3:7.2f} ms  p95 {p95 * 1e3:7.2f} ms  max {ordered[-1] * 1e3:7.2f} ms"
    )


def main() -> None:
    rules = Rules()
    pieces = [piece.tile for piece in TileSet.STANDARD.pieces()]
    rng = random.Random(2026)
    print("has_opening on random racks (standard set, 200 racks each)")
    for size in (14, 20, 30, 40, 60):
        samples = []
        found = 0
        for _ in range(200):
            rack = rng.sample(pieces, size)
            start = time.perf_counter()
            found += has_opening(rack, rules)
            samples.append(time.perf_counter() - start)
        print(f"  {size:2} tiles: {figures(samples)}  ({found} of 200 hold an opening)")
    print("whole games, 4 simple bots (20 seeds)")
    samples = []
    for seed in range(20):
        start = time.perf_counter()
        game = Game.new(4, rules=rules, seed=seed)
        bot = SimpleBot()
        while not game.is_over:
            game.apply(bot.choose(game.view(game.turn)))
        samples.append(time.perf_counter() - start)
    print(f"  per game: {figures(samples)}")


if __name__ == "__main__":
    main()
