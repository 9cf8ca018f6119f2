"""The expert's search settings against greedy bots, on mirrored deals.

Run: .venv/bin/python bench/expert_bench.py --games 200 --seed 10000 --budget 0.1 [--horizon 3]
     [--worlds N] [--overrule-at 1.5] [--overrule-margin 0.01] [--evidence 1.0] [--endgame-rack 5]
     [--endgame-horizon 8] [--exact-rack 4] [--threat-worlds 8] [--greedy-above N] [--players 2] [--level expert] [--workers 1] [--out FILE]

Deal ``seed + d`` is played once per rotation of the seats, the expert in one
seat and greedy bots in the others (as the arena does), so settings measured
on the same seeds meet the same deals. Prints the expert's win share with its
95% Wilson interval, the share of deals whose games split (each side won
one: what mirroring cancels), the expert's median and 95th-percentile seconds
per move and the worlds it played out per contested move. Each game's end is printed as it
comes; ``--out`` writes one JSON line per game (deal, expert's seat,
winner, moves the exact end-game count decided), for pairing two runs deal
by deal. ``--greedy-above N`` has the measured bot play greedy's move while
its own rack holds more than N tiles, to measure the end game alone in the
positions greedy play reaches.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tilerummy import Game
from tilerummy.arena.stats import wilson
from tilerummy.bots import make_bot
from tilerummy.bots.expert import ExpertBot, Search


@dataclass(frozen=True, slots=True)
class Task:
    deal: int
    seat: int  # the expert's seat
    players: int
    budget: float
    search: Search
    level: str  # "expert", or another level to measure the same way
    greedy_above: int | None  # the bot plays greedy while its own rack holds more tiles


@dataclass(frozen=True, slots=True)
class Outcome:
    deal: int
    seat: int
    winner: int
    seconds: tuple[float, ...]
    worlds: tuple[int, ...]
    exact: int  # moves the exact end-game count decided


def play(task: Task) -> Outcome:
    game = Game.new(task.players, seed=task.deal)
    bot = (
        ExpertBot(task.deal * 8 + task.seat, task.budget, task.search)
        if task.level == "expert"
        else make_bot(task.level, seed=task.deal * 8 + task.seat)
    )
    greedy = make_bot("greedy")
    seconds: list[float] = []
    while not game.is_over:
        seat = game.turn
        view = game.view(seat)
        if seat == task.seat and (task.greedy_above is None or len(game.rack(seat)) <= task.greedy_above):
            started = time.perf_counter()
            action = bot.choose(view)
            seconds.append(time.perf_counter() - started)
        else:
            action = greedy.choose(view)
        game.apply(action)
    assert game.result is not None
    worlds = tuple(bot.worlds_played) if isinstance(bot, ExpertBot) else ()
    exact = bot.exact_moves if isinstance(bot, ExpertBot) else 0
    return Outcome(task.deal, task.seat, game.result.winner, tuple(seconds), worlds, exact)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (rounded up to whole deals; default 200)")
    parser.add_argument("--seed", type=int, default=10000, help="the first deal's seed (default 10000)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per move (default 0.1)")
    parser.add_argument("--players", type=int, default=2, help="players, the others greedy (default 2)")
    parser.add_argument("--level", default="expert", help="the level to measure (default expert)")
    defaults = Search()
    parser.add_argument("--horizon", type=int, default=defaults.horizon)
    parser.add_argument("--worlds", type=int, default=defaults.worlds)
    parser.add_argument("--overrule-at", type=float, default=defaults.overrule_at)
    parser.add_argument("--overrule-margin", type=float, default=defaults.overrule_margin)
    parser.add_argument("--evidence", type=float, default=defaults.evidence)
    parser.add_argument("--endgame-rack", type=int, default=defaults.endgame_rack)
    parser.add_argument("--endgame-horizon", type=int, default=defaults.endgame_horizon)
    parser.add_argument(
        "--contest-rack",
        type=int,
        default=defaults.contest_rack,
        help="search once some rack holds this many tiles or fewer; -1: every move",
    )
    parser.add_argument(
        "--exact-rack",
        type=int,
        default=defaults.exact_rack,
        help="count the next draws exactly once the own rack holds this many tiles or fewer; -1: never",
    )
    parser.add_argument("--threat-worlds", type=int, default=defaults.threat_worlds)
    parser.add_argument(
        "--greedy-above", type=int, help="play greedy while the bot's own rack holds more than this many tiles"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="write one JSON line per game here")
    args = parser.parse_args()
    search = Search(
        horizon=args.horizon,
        worlds=args.worlds,
        overrule_at=args.overrule_at,
        overrule_margin=args.overrule_margin,
        evidence=args.evidence,
        endgame_rack=args.endgame_rack,
        endgame_horizon=args.endgame_horizon,
        contest_rack=None if args.contest_rack is not None and args.contest_rack < 0 else args.contest_rack,
        exact_rack=None if args.exact_rack is not None and args.exact_rack < 0 else args.exact_rack,
        threat_worlds=args.threat_worlds,
    )
    deals = -(-args.games // args.players)
    tasks = [
        Task(args.seed + deal, seat, args.players, args.budget, search, args.level, args.greedy_above)
        for deal in range(deals)
        for seat in range(args.players)
    ]
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Each game is reported as it ends, so a run cut short still tells what it played.
        for outcome in pool.map(play, tasks, chunksize=1) if args.workers > 1 else map(play, tasks):
            outcomes.append(outcome)
            won = sum(each.winner == each.seat for each in outcomes)
            print(f"  {len(outcomes)} games, {won} won", flush=True)
            if out:
                line = {"deal": outcome.deal, "seat": outcome.seat, "winner": outcome.winner, "exact": outcome.exact}
                out.write(json.dumps(line) + "\n")
                out.flush()
    if out:
        out.close()
    elapsed = time.perf_counter() - started
    wins = sum(outcome.winner == outcome.seat for outcome in outcomes)
    low, high = wilson(wins, len(outcomes))
    by_deal: dict[int, list[bool]] = defaultdict(list)
    for outcome in outcomes:
        by_deal[outcome.deal].append(outcome.winner == outcome.seat)
    split = sum(any(won) and not all(won) for won in by_deal.values()) / len(by_deal)
    seconds = [second for outcome in outcomes for second in outcome.seconds]
    worlds = [count for outcome in outcomes for count in outcome.worlds]
    exact = sum(outcome.exact for outcome in outcomes)
    exact_games = sum(outcome.exact > 0 for outcome in outcomes)
    above = "" if args.greedy_above is None else f" (greedy above {args.greedy_above} tiles)"
    print(f"{args.level}{above} {search} budget {args.budget} s, {args.players} players, seeds from {args.seed}")
    print(
        f"  win share {wins / len(outcomes):.3f} [{low:.3f}, {high:.3f}] over {len(outcomes)} games; "
        f"split deals {split:.2f}; median {statistics.median(seconds or [0.0]) * 1e3:.1f} ms a move "
        f"(p95 {_p95(seconds) * 1e3:.1f} ms); "
        + (f"worlds per contested move: median {statistics.median(worlds)}, " if worlds else "")
        + f"moves decided by the exact count: {exact} in {exact_games} games; {elapsed:.0f} s"
    )


def _p95(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=20)[-1] if len(seconds) > 1 else sum(seconds)


if __name__ == "__main__":
    main()
