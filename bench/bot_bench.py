"""Per-move latency of every bot level, and arena speed with four greedy bots.

Run: .venv/bin/python bench/bot_bench.py [--games N] [--expert-moves M] [--arena-games G]

Each level plays seeded 4-player games against three greedy bots; only its own
moves are timed, each game's from a clean start (the positions bots remember
from earlier games forgotten). The expert searches until its budget (2 s by default) is
spent, so its figures show the budget being kept, and it is timed on fewer moves.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tilerummy import Game
from tilerummy.arena import run_arena
from tilerummy.bots import LEVELS, make_bot
from tilerummy.bots._positions import forget_positions


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered) * 1e3:8.1f} ms  p95 {p95 * 1e3:8.1f} ms  "
        f"max {ordered[-1] * 1e3:8.1f} ms  ({len(ordered)} moves)"
    )


def move_times(level: str, games: int, most_moves: int) -> list[float]:
    samples: list[float] = []
    for seed in range(games):
        forget_positions()
        game = Game.new(4, seed=seed)
        bots = [make_bot(level, seed=seed), make_bot("greedy"), make_bot("greedy"), make_bot("greedy")]
        while not game.is_over and len(samples) < most_moves:
            seat = game.turn
            started = time.perf_counter()
            action = bots[seat].choose(game.view(seat))
            if seat == 0:
                samples.append(time.perf_counter() - started)
            game.apply(action)
        if len(samples) >= most_moves:
            break
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per level (default 10)")
    parser.add_argument("--expert-moves", type=int, default=20, help="expert moves timed (default 20)")
    parser.add_argument("--arena-games", type=int, default=40, help="games for the arena figure (default 40)")
    args = parser.parse_args()
    print("Per-move latency against three greedy bots (4 players, standard rules)")
    for level in LEVELS:
        most = args.expert_moves if level == "expert" else 10**9
        print(f"  {level:<7} {figures(move_times(level, args.games, most))}")
    report = run_arena(["greedy"] * 4, args.arena_games, seed=0)
    print(
        f"Arena, four greedy bots: {report.games} games in {report.seconds:.1f} s, "
        f"{report.games_per_second:.2f} games per second ({report.bots[0].name} move median "
        f"{report.bots[0].move_seconds_median * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
