"""``tilerummy arena``: bots against bots over many mirrored deals."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from ..arena import SprtHypotheses, run_arena
from ..arena.plot import draw_report
from ..arena.roundrobin import report_lines as round_robin_lines
from ..arena.roundrobin import run_round_robin
from ..arena.text import report_lines
from ..bots import LEAGUE, LEVELS, OPPONENTS
from ..errors import TilerummyError
from ..rules import PoolDraws, Rules, option_from_text
from ..tiles import shorten
from ._common import add_rules_arguments, check_seed, destination, rules_text, rules_with_options

if TYPE_CHECKING:
    from ._common import Commands

#: More games than a machine plays in days: a larger count is a typing mistake.
MAX_GAMES = 1_000_000
#: More processes than any machine this runs on has cores.
MAX_WORKERS = 256


def register(commands: Commands) -> None:
    arena = commands.add_parser(
        "arena",
        help="measure bots against each other over many games",
        description="Play many games between bots on mirrored deals (each deal once per seat rotation) "
        "and report win shares with 95% Wilson intervals, scores, ratings and speed, and the first bot's "
        "deals scored together (each deal's rotations as one score). With --sprt, stop as soon as a "
        "sequential test on those deal scores accepts one of two win shares for the first bot. "
        "The report also says how many games ended with someone going out rather than with the pool dry. "
        "With --round-robin, every pair of the bots named, and tables of four, play the same deals, "
        "and one rating table covers them all. "
        "Each seat draws its own share of the pool (pool_draws=per_seat) unless --option says otherwise.",
    )
    players = arena.add_mutually_exclusive_group(required=True)
    players.add_argument(
        "--bots",
        metavar="A,B[,...]",
        help=f"one bot per seat, 2 to 6 of the levels ({', '.join(LEVELS)}) "
        f"or the league's opponents ({', '.join(LEAGUE)})",
    )
    players.add_argument(
        "--round-robin",
        metavar="A,B[,...]",
        help="every pair of these bots heads-up, and tables of four, on the same deals: a rating table, "
        "each table's win shares, mean scores and share of games ending with someone going out",
    )
    arena.add_argument(
        "--heads-up",
        action="store_true",
        help="with --round-robin, the pairs only (no tables of four)",
    )
    arena.add_argument(
        "--games",
        type=int,
        required=True,
        metavar="N",
        help=f"games to play, 1 to {MAX_GAMES:,} (rounded up to whole deals); with --sprt, the most to play; "
        "with --round-robin, per pair (each table plays the same deals)",
    )
    arena.add_argument(
        "--sprt",
        metavar="p0=P,p1=P[,alpha=A,beta=B]",
        help="stop when the first bot's win share is judged to be p1 rather than p0 or the reverse, "
        "wrongly at most alpha and beta of the time (default 0.05 each), e.g. p0=0.5,p1=0.55",
    )
    arena.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    arena.add_argument(
        "--workers", type=int, metavar="W", help=f"processes to play in, 1 to {MAX_WORKERS} (default: one per core)"
    )
    arena.add_argument("--budget", type=float, metavar="SECONDS", help="seconds per move for expert bots (default 2)")
    arena.add_argument(
        "--weights",
        metavar="FILE",
        help="a network's .npz weights (from tools/train_policy.py) for the hard, network and expert bots",
    )
    add_rules_arguments(arena, default="standard")
    arena.add_argument("--save", metavar="DIR", help="write every game's record into this directory")
    arena.add_argument("--plot", metavar="FILE", help="draw the results into a .png or .svg file")
    arena.add_argument("--json", action="store_true", help="print JSON")
    arena.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_with_options(args)
    if "pool_draws" not in {option_from_text(text)[0] for text in args.option}:
        # Per-seat draws keep a deal's games alike longer, for the same game from each seat's view.
        rules = rules.replace(pool_draws=PoolDraws.PER_SEAT)
    if args.games > MAX_GAMES:
        raise TilerummyError(f"--games {shorten(str(args.games))}: choose 1 to {MAX_GAMES:,}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise TilerummyError(f"--workers {shorten(str(args.workers))}: choose 1 to {MAX_WORKERS}")
    check_seed(args.seed)
    if args.round_robin is not None:
        return _round_robin(args, rules)
    if args.heads_up:
        raise TilerummyError("--heads-up goes with --round-robin")
    levels = _bot_names(args.bots)
    sprt = SprtHypotheses.parse(args.sprt) if args.sprt is not None else None
    if args.plot is not None:
        if not args.plot.lower().endswith((".png", ".svg")):
            raise TilerummyError(f"--plot {args.plot}: name a .png or .svg file")
        destination(args.plot, "--plot")
    progress = ProgressBar() if sys.stderr.isatty() else None
    report = run_arena(
        levels,
        args.games,
        seed=args.seed,
        rules=rules,
        workers=args.workers,
        save_to=args.save,
        progress=progress,
        budget=args.budget,
        sprt=sprt,
        weights=args.weights,
    )
    if progress:
        print(file=sys.stderr)
    if args.plot:
        draw_report(report, args.plot, title=f"{' vs '.join(levels)}, {rules_text(args)}")
    if args.json:
        print(json.dumps(report.to_dict()))
        return 0
    for line in report_lines(report):
        print(line)
    print(f"{report.went_out} of {report.games} games ({report.went_out_share:.1%}) ended with someone going out")
    if args.save:
        print(f"Records saved in {args.save}/")
    if args.plot:
        print(f"Plot saved to {args.plot}")
    return 0


def _bot_names(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in OPPONENTS:
            raise TilerummyError(f"unknown bot level {name!r} (choose from {', '.join(OPPONENTS)})")
    return names


def _round_robin(args: argparse.Namespace, rules: Rules) -> int:
    if args.sprt is not None or args.save is not None or args.plot is not None or args.weights is not None:
        raise TilerummyError("--round-robin takes --games, --seed, --workers, --budget, --rules, --option and --json")
    names = _bot_names(args.round_robin)
    progress = ProgressBar() if sys.stderr.isatty() else None
    report = run_round_robin(
        names,
        args.games,
        seed=args.seed,
        rules=rules,
        workers=args.workers,
        budget=args.budget,
        four_player=not args.heads_up,
        progress=progress,
    )
    if progress:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict()))
        return 0
    for line in round_robin_lines(report):
        print(line)
    return 0


class ProgressBar:
    """A one-line bar on standard error, with the rate and the time left."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        spent = time.monotonic() - self.started
        rate = done / spent if spent > 0 else 0.0
        left = f", {(total - done) / rate:.0f} s left" if rate and done < total else ""
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.2f}/s{left}   ",
            end="",
            file=sys.stderr,
            flush=True,
        )
