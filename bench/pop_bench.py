"""What taking back an action costs: ``Game.pop`` against rebuilding the game without it.

Run: .venv/bin/python bench/pop_bench.py [--games N] [--seed S]

Plays N seeded games between simple bots to the end, then walks each back
to its deal, taking the last action back at every position two ways: by
replaying the record without it (as the server did when a write failed,
before ``pop``), and with ``Game.pop``. Prints the positions, the mean time
of each per position, and the ratio.
"""

from __future__ import annotations

import argparse
import time

from tilerummy import Game, GameRecord
from tilerummy.bots import SimpleBot


def played_game(seed: int) -> Game:
    game = Game.new(4, seed=seed)
    bot = SimpleBot()
    while not game.is_over:
        game.apply(bot.choose(game.view(game.turn)))
    return game


def rebuilt_without_last(game: Game) -> Game:
    record = GameRecord.from_game(game)
    rebuilt = record.new_game()
    for action in record.actions[:-1]:
        rebuilt.apply(action)
    return rebuilt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pop_seconds = rebuild_seconds = 0.0
    positions = 0
    for offset in range(args.games):
        game = played_game(args.seed + offset)
        # Back from the end, so every position of the game is measured once.
        for _ in range(len(game.actions)):
            started = time.perf_counter()
            rebuilt_without_last(game)
            rebuild_seconds += time.perf_counter() - started
            started = time.perf_counter()
            game.pop()
            pop_seconds += time.perf_counter() - started
            positions += 1
    print(f"games {args.games} (seeds {args.seed}..{args.seed + args.games - 1}), positions {positions}")
    print(f"Game.pop             {pop_seconds / positions * 1e6:10.1f} µs a position")
    print(f"replay without last  {rebuild_seconds / positions * 1e6:10.1f} µs a position")
    print(f"ratio                {rebuild_seconds / pop_seconds:10.0f}x")


if __name__ == "__main__":
    main()
