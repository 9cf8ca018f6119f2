"""``tilerummy play``: a round, or a match, against bots in the terminal."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import LEVELS, make_bot
from ..console import Painter, count
from ..errors import TilerummyError
from ..game import Game
from ..match import Match
from ..record_model import MAX_NAME_CHARS
from ..records import GameRecord
from ..terminal import TerminalGame
from ..tiles import shorten
from ._common import MAX_SEED, add_rules_arguments, bot_levels, check_seed, destination, rules_text, rules_with_options

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    play = commands.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description="Play a round against 1 to 5 bots (a match with --option rounds=N or target_score=N). "
        "Type 'help' during the game for the commands.",
    )
    play.add_argument(
        "--bots",
        default="easy,greedy,hard",
        metavar="LEVEL,...",
        help=f"one level per bot, 1 to 5 of: {', '.join(LEVELS)} (default easy,greedy,hard)",
    )
    play.add_argument("--name", default="You", help="your name at the table")
    play.add_argument("--budget", type=float, metavar="SECONDS", help="seconds per move for expert bots (default 2)")
    add_rules_arguments(play, default="casual")
    play.add_argument("--seed", type=int, help="the deal's seed (default: a random deal)")
    play.add_argument("--save", metavar="FILE", help="write the game record here at the end")
    play.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour the tiles")
    play.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_with_options(args)
    levels = bot_levels(args.bots)
    if not 1 <= len(levels) <= 5:
        raise TilerummyError(f"--bots {args.bots}: choose 1 to 5 bots")
    rules.check_players(len(levels) + 1)
    seed = check_seed(args.seed) if args.seed is not None else random.SystemRandom().randrange(MAX_SEED + 1)
    save = destination(args.save, "--save") if args.save is not None else None
    bot_names = ["Ana", "Bruno", "Carla", "Diego", "Elena"]
    names = [args.name.strip()] + [f"{bot_names[index]} ({level})" for index, level in enumerate(levels)]
    if not names[0] or not names[0].isprintable() or len(names[0]) > MAX_NAME_CHARS:
        raise TilerummyError(
            f"--name {shorten(args.name)!r}: give a name of 1 to {MAX_NAME_CHARS} printable characters"
        )
    if names[0] in names[1:]:
        raise TilerummyError(f"--name {names[0]}: a bot has that name")
    match = Match(names, rules, seed, started_at=time.monotonic())
    paint = Painter.for_stream(sys.stdout, args.color, cards=rules.display.value == "cards")
    print(paint.bold(f"tilerummy: you against {count(len(levels), 'bot')}, {rules_text(args)}"))
    print(f"(Seed {seed}: --seed {seed} deals the same {'match' if rules.is_match else 'round'} again.)")
    while True:
        game = match.current
        if rules.is_match:
            print(paint.bold(f"\nRound {len(match.rounds)}"))
        print("You start." if game.turn == 0 else f"{game.players[game.turn]} starts.")
        round_seed = game.deal.seed or 0
        bots = {
            seat: make_bot(level, seed=round_seed + seat, budget=args.budget)
            for seat, level in enumerate(levels, start=1)
        }
        finished = TerminalGame(game, 0, bots, paint).run()
        if save is not None:
            _save_game(game, save, len(match.rounds) if rules.is_match else None)
        if not finished or not rules.is_match:
            return 0
        standing = match.standing()
        totals = ", ".join(f"{name} {total:+}" for name, total in zip(names, standing.totals, strict=True))
        print(f"Totals after {count(standing.rounds_played, 'round')}: {totals}")
        if standing.over:
            print(paint.bold(f"The match is over: {' and '.join(names[seat] for seat in standing.winners)} won."))
            return 0
        try:
            answer = input("Press Enter for the next round, or type quit: ")
        except EOFError:
            return 0
        if answer.strip().lower() in ("quit", "exit"):
            return 0
        match.next_round(started_at=time.monotonic())


def _save_game(game: Game, path: Path, round_number: int | None) -> None:
    if round_number is not None and round_number > 1:
        path = path.with_name(f"{path.stem}-round{round_number}{path.suffix}")
    result = game.result.to_dict() if game.result is not None else None
    path.write_text(GameRecord.from_game(game).to_json(result=result) + "\n", encoding="utf-8")
    print(f"Record saved to {path} (replay it with: tilerummy replay {path})")
