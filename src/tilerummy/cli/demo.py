"""``tilerummy demo``: watch a seeded game between built-in players."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from ..bots import SimpleBot
from ..console import Painter, describe_turn, final_scores
from ..errors import TilerummyError
from ..game import Game
from ..records import GameRecord
from ._common import check_seed, destination, rules_from, rules_summary

if TYPE_CHECKING:
    from ._common import Commands

#: The longest pause between turns: enough to follow a game, short of looking frozen.
MAX_DELAY = 60


def register(commands: Commands) -> None:
    demo = commands.add_parser("demo", help="watch a seeded game between built-in players")
    demo.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    demo.add_argument("--players", type=int, default=4, metavar="N", help="2 to 6 (default 4)")
    demo.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    demo.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help=f"pause between turns, 0 to {MAX_DELAY}"
    )
    demo.add_argument("--save", metavar="FILE", help="write the game record here")
    demo.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour the tiles")
    demo.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from(args.rules)
    if not 0 <= args.delay <= MAX_DELAY:
        raise TilerummyError(f"--delay {args.delay}: give a pause of 0 to {MAX_DELAY} seconds")
    check_seed(args.seed)
    names = ["Ana", "Bruno", "Carla", "Diego", "Elena", "Fabio"]
    if not 2 <= args.players <= len(names):
        raise TilerummyError(f"--players {args.players}: choose 2 to {len(names)}")
    save = destination(args.save, "--save") if args.save is not None else None
    game = Game.new(names[: args.players], rules=rules, seed=args.seed)
    paint = Painter.for_stream(sys.stdout, args.color, cards=rules.display.value == "cards")
    bots = [SimpleBot() for _ in game.players]
    print(paint.bold(f"tilerummy demo: seed {args.seed}, {rules_summary(args.rules)}"))
    if game.deal.first_draws:
        draws = ", ".join(f"{game.players[seat]} {paint.tile(tile)}" for seat, tile in game.deal.first_draws)
        print(f"Drawing for first player: {draws}")
    print(f"{game.players[game.turn]} starts. Each player has 14 tiles; the pool holds {game.pool_size}.\n")
    turn = 0
    while not game.is_over:
        seat = game.turn
        before, table_before = len(game.rack(seat)), game.table
        action = bots[seat].choose(game.view(seat))
        game.apply(action)
        turn += 1
        print(f"{turn:3}. {describe_turn(game, seat, action, before, table_before, paint)}")
        if args.delay:
            time.sleep(args.delay)
    assert game.result is not None
    print()
    for line in final_scores(game, paint):
        print(line)
    if save is not None:
        save.write_text(GameRecord.from_game(game).to_json(result=game.result.to_dict()) + "\n", encoding="utf-8")
        print(f"\nRecord saved to {save} (replay it with: tilerummy replay {save})")
    return 0
