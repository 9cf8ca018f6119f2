"""``tilerummy analyse``: every turn of a game record against the best play then."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..analysis import GameAnalysis, TurnAnalysis, analyse
from ._common import read_record

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="compare every turn of a game record with the most tiles that could have been placed",
        description="Replays a game record and, for every turn, finds with the solver the most rack tiles "
        "the player could have placed then (the best initial meld while they had not made one). "
        "Prints the turns where a better play existed and a summary per player.",
    )
    parser.add_argument("record", metavar="RECORD.json")
    parser.add_argument("--all", action="store_true", help="list every turn, not only those with a better play")
    parser.add_argument(
        "--show-best", action="store_true", help="print the best play of each listed turn, step by step"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run, command="analyse")


def run(args: argparse.Namespace) -> int:
    record = read_record(args.record)
    report = analyse(record)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
        return 0
    names = record.players
    width = max(len(name) for name in names)
    listed = [turn for turn in report.turns if args.all or turn.missed > 0]
    if listed:
        print(f"{'turn':>4}  {'player':<{width}}  what was played, and the best play when it placed more")
    for turn in listed:
        print(f"{turn.index + 1:>4}  {names[turn.seat]:<{width}}  {_what(turn)}")
        if args.show_best and turn.best_play is not None and turn.missed > 0:
            for step in turn.best_play.steps:
                print(f"{'':>4}  {'':<{width}}    - {step}")
    if not listed:
        print("No turn had a better play.")
    print()
    _print_summary(report, width)
    return 0


def _what(turn: TurnAnalysis) -> str:
    done = {
        "play": f"placed {_tiles(turn.placed)}",
        "draw": "drew",
        "pass": "passed",
        "timeout": "ran out of time",
    }[turn.action]
    if turn.missed <= 0:
        return f"{done}: the best{' opening' if turn.initial_meld else ''}"
    assert turn.best_play is not None
    placed = " ".join(str(tile) for tile in turn.best_play.placed)
    return f"{done}; could have placed {_tiles(turn.best)}{' to open' if turn.initial_meld else ''}: {placed}"


def _print_summary(report: GameAnalysis, width: int) -> None:
    for player in report.players:
        print(
            f"{player.name:<{width}}  {_tiles(player.missed_tiles)} missed over {_count(player.turns, 'turn')}; "
            f"a better play on {player.turns_with_better_play}"
        )


def _tiles(count: int) -> str:
    return _count(count, "tile")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
