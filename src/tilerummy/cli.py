"""The ``tilerummy`` command."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .arena import run_arena
from .arena.plot import draw_report
from .arena.text import report_lines
from .bots import LEVELS, SimpleBot, make_bot
from .console import Painter, describe_turn, final_scores
from .errors import InvalidMeld, RecordError, TilerummyError
from .game import Game
from .match import Match
from .melds import Meld, Table, joker_meanings_text
from .records import GameRecord
from .rules import OPTION_HELP, PRESETS, Rules, option_from_text
from .scoring import score_round
from .solver import solve
from .terminal import TerminalGame
from .tiles import parse_tiles, split_tokens


class _Parser(argparse.ArgumentParser):
    """Bad arguments give one line naming the problem, and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 2
    try:
        result: int = args.handler(args)
    except TilerummyError as error:
        print(f"tilerummy {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``tilerummy demo | head``): stop quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except OSError as error:
        print(f"tilerummy {args.command}: {error.strerror or error}: {error.filename}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return result


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tilerummy",
        description="Rummikub-style tile rummy: rules engine, score calculator and game records.",
        epilog="Tiles: R5 (red 5), B blue, Y yellow, K black, J joker. Sets separate tiles with spaces "
        "or commas; a table separates sets with '|'.",
    )
    parser.add_argument("--version", action="version", version=f"tilerummy {__version__}")
    commands = parser.add_subparsers(title="commands", dest="command", parser_class=_Parser)

    check = commands.add_parser("check", help="check sets: valid or not, kind, value, jokers")
    check.add_argument(
        "sets", nargs="+", metavar="SET", help='a set, e.g. "R5 R6 J" (several sets may be joined with |)'
    )
    check.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (for wrap)")
    check.add_argument("--wrap", action="store_true", help="allow 1 after 13 at the end of a run")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(handler=_check)

    score = commands.add_parser(
        "score",
        help="score a finished round from the racks left",
        description='Score a finished round. Give each rack in seat order; an empty rack (--rack "") '
        "is the player who went out; with no empty rack the pool ran out.",
    )
    score.add_argument("--rack", action="append", required=True, metavar="TILES", help="a rack, in seat order")
    score.add_argument(
        "--unmelded",
        action="append",
        default=[],
        metavar="SEAT:could|SEAT:never",
        help="a seat (from 0) that never made the initial meld, and whether its rack could have",
    )
    score.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    score.add_argument("--joker-penalty", type=int, metavar="N", help="what a joker on a rack counts")
    score.add_argument(
        "--first", type=int, metavar="SEAT", help="who played first in the round (breaks ties; default 0)"
    )
    score.add_argument("--json", action="store_true", help="print JSON")
    score.set_defaults(handler=_score)

    replay = commands.add_parser("replay", help="validate and replay a game record")
    replay.add_argument("record", metavar="RECORD.json")
    replay.add_argument("--json", action="store_true", help="print JSON")
    replay.set_defaults(handler=_replay)

    rules = commands.add_parser("rules", help="list the presets and every option")
    rules.add_argument("preset", nargs="?", metavar="PRESET", help=f"one of: {', '.join(PRESETS)}")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.set_defaults(handler=_rules)

    solve = commands.add_parser(
        "solve",
        help="the best play for a rack and a table",
        description="The best play: the most rack tiles (or the most value) placed, rearranging the table.",
    )
    solve.add_argument("--rack", required=True, metavar="TILES", help='the rack, e.g. "R4 K5 J"')
    solve.add_argument("--table", default="", metavar="TABLE", help='the table, e.g. "R5 R6 R7 | B5 Y5 K5"')
    solve.add_argument("--initial", action="store_true", help="the initial meld is still to be made")
    solve.add_argument("--objective", choices=["tiles", "value"], default="tiles")
    solve.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.set_defaults(handler=_solve)

    demo = commands.add_parser("demo", help="watch a seeded game between built-in players")
    demo.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    demo.add_argument("--players", type=int, default=4, metavar="N", help="2 to 6 (default 4)")
    demo.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    demo.add_argument("--delay", type=float, default=0.0, metavar="SECONDS", help="pause between turns")
    demo.add_argument("--save", metavar="FILE", help="write the game record here")
    demo.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour the tiles")
    demo.set_defaults(handler=_demo)

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
    _add_rules_arguments(play, default="casual")
    play.add_argument("--seed", type=int, help="the deal's seed (default: a random deal)")
    play.add_argument("--save", metavar="FILE", help="write the game record here at the end")
    play.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour the tiles")
    play.set_defaults(handler=_play)

    arena = commands.add_parser(
        "arena",
        help="measure bots against each other over many games",
        description="Play many games between bots on mirrored deals (each deal once per seat rotation) "
        "and report win shares with 95% Wilson intervals, scores, ratings and speed.",
    )
    arena.add_argument(
        "--bots", required=True, metavar="A,B[,...]", help=f"one level per seat, 2 to 6 of: {', '.join(LEVELS)}"
    )
    arena.add_argument(
        "--games", type=int, required=True, metavar="N", help="games to play (rounded up to whole deals)"
    )
    arena.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    arena.add_argument("--workers", type=int, metavar="W", help="processes to play in (default: one per core)")
    arena.add_argument("--budget", type=float, metavar="SECONDS", help="seconds per move for expert bots (default 2)")
    _add_rules_arguments(arena, default="standard")
    arena.add_argument("--save", metavar="DIR", help="write every game's record into this directory")
    arena.add_argument("--plot", metavar="FILE", help="draw the results into a .png or .svg file")
    arena.add_argument("--json", action="store_true", help="print JSON")
    arena.set_defaults(handler=_arena)
    _add_serve(commands)
    return parser


def _add_rules_arguments(parser: argparse.ArgumentParser, *, default: str) -> None:
    parser.add_argument("--rules", default=default, metavar="PRESET", help=f"rules preset (default {default})")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule option, e.g. wrap=true or turn_seconds=60 (see: tilerummy rules)",
    )


def _rules_with_options(args: argparse.Namespace) -> Rules:
    return Rules.preset(args.rules, **dict(option_from_text(text) for text in args.option))


def _rules_from(name: str, **options: Any) -> Rules:
    return Rules.preset(name, **{key: value for key, value in options.items() if value is not None})


# --- check -------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    rules = _rules_from(args.rules)
    wrap = args.wrap or rules.wrap
    reports: list[dict[str, Any]] = []
    for argument in args.sets:
        for text in argument.split("|"):
            written = " ".join(split_tokens(text))
            try:
                meld = Meld.parse(text, wrap=wrap)
                if sum(tile.is_joker for tile in meld.tiles) > rules.tile_set.jokers:
                    raise InvalidMeld(
                        f"{written}: the {rules.tile_set.value} set has only {rules.tile_set.jokers} jokers"
                    )
            except InvalidMeld as error:
                reason = str(error)
                prefix = f"{written}: "
                reports.append(
                    {
                        "set": written,
                        "valid": False,
                        "kind": None,
                        "value": None,
                        "jokers": [],
                        "reason": reason[len(prefix) :] if reason.startswith(prefix) else reason,
                    }
                )
                continue
            reports.append(
                {
                    "set": written,
                    "valid": True,
                    "kind": meld.kind.value,
                    "value": meld.value,
                    "jokers": [joker_meanings_text(meaning) for meaning in meld.jokers],
                    "reason": None,
                    "read_as": str(meld),
                }
            )
    if args.json:
        print(json.dumps(reports, ensure_ascii=False))
    else:
        width = max(len(report["set"]) for report in reports)
        for report in reports:
            if report["valid"]:
                jokers = ", ".join(f"J = {meaning}" for meaning in report["jokers"])
                read = f" (read as {report['read_as']})" if report["read_as"] != report["set"] else ""
                print(
                    f"{report['set']:<{width}}  valid {report['kind']}, value {report['value']}"
                    + (f", {jokers}" if jokers else "")
                    + read
                )
            else:
                print(f"{report['set']:<{width}}  invalid: {report['reason']}")
    return 0 if all(report["valid"] for report in reports) else 1


# --- score -------------------------------------------------------------------


def _score(args: argparse.Namespace) -> int:
    rules = _rules_from(args.rules, joker_penalty=args.joker_penalty)
    racks = [parse_tiles(text) for text in args.rack]
    rules.check_players(len(racks))
    rules.tile_set.check([tile for rack in racks for tile in rack], "the racks")
    if args.first is not None and not 0 <= args.first < len(racks):
        raise TilerummyError(f"--first {args.first}: seats run from 0 to {len(racks) - 1}")
    unmelded: dict[int, bool] = {}
    for entry in args.unmelded:
        seat_text, _, could = entry.partition(":")
        if not seat_text.isdigit() or could not in ("could", "never"):
            raise TilerummyError(f"--unmelded {entry!r}: write SEAT:could or SEAT:never (seats from 0)")
        unmelded[int(seat_text)] = could == "could"
    first = args.first or 0
    order = [(first + offset) % len(racks) for offset in range(len(racks))]
    result = score_round(racks, rules, unmelded=unmelded, turn_order=order)
    if args.json:
        print(json.dumps({"scores": list(result.scores), "winner": result.winner, "values": list(result.values)}))
        return 0
    if result.went_out:
        how = "went out"
    elif rules.unmelded_penalty and unmelded and len(unmelded) < len(racks):
        how = "has the lowest rack of those who made the initial meld (the pool ran out)"
    else:
        how = "has the lowest rack (the pool ran out)"
    print(f"Seat {result.winner} wins: {how}.")
    for seat, rack in enumerate(racks):
        note = ""
        if (
            seat in unmelded
            and rules.unmelded_penalty
            and result.adjusted[seat] in (100, 200)
            and seat != result.winner
        ):
            note = "  (no initial meld)"
        print(
            f"  seat {seat}: {' '.join(map(str, rack)) or '(empty)':<40} value {result.values[seat]:>4}  "
            f"score {result.scores[seat]:>+5}{note}"
        )
    return 0


# --- replay ------------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.record).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{args.record}: not UTF-8 text") from None
    record = GameRecord.from_json(text)
    stored = json.loads(text).get("result")
    replay = record.replay()
    game = replay.game
    result = game.result.to_dict() if game.result is not None else None
    # A stored result must be the replay's: same scores, and the round over.
    mismatch = stored is not None and (result is None or stored.get("scores") != result["scores"])
    if args.json:
        print(
            json.dumps(
                {
                    "ok": replay.ok and not mismatch,
                    "actions": len(record.actions),
                    "applied": len(game.actions),
                    "error": None
                    if replay.error is None
                    else {
                        "index": replay.error_index,
                        "reason": replay.error.reason.value,
                        "detail": replay.error.detail,
                    },
                    "result": result,
                    "result_matches_record": None if stored is None else not mismatch,
                    "table": str(game.table),
                    "racks": [" ".join(map(str, game.rack_tiles(seat))) for seat in range(len(game.players))],
                    "pool_size": game.pool_size,
                    "turn": game.turn,
                    "over": game.is_over,
                },
                ensure_ascii=False,
            )
        )
    else:
        print(f"{', '.join(game.players)}; {len(game.actions)} of {len(record.actions)} actions applied.")
        if replay.error is not None and replay.error_index is not None:
            action = record.actions[replay.error_index]
            print(
                f"Action {replay.error_index} ({action.kind} by seat {action.seat}) is illegal: "
                f"{replay.error.reason.value}: {replay.error.detail}"
            )
        print(f"Table: {game.table or '(empty)'}")
        for seat, name in enumerate(game.players):
            print(f"  {name}: {len(game.rack(seat))} tiles")
        if game.result is not None:
            print(f"Round over: {_scores_line(game)}")
            if mismatch:
                print(f"The record's stored scores {stored.get('scores')} differ from the replay's.")
        elif replay.ok:
            print(f"The round is not over: {game.players[game.turn]} is to play; the pool holds {game.pool_size}.")
            if mismatch:
                print("The record stores a result, but its actions do not finish the round.")
    return 0 if replay.ok and not mismatch else 1


def _scores_line(game: Game) -> str:
    assert game.result is not None
    return ", ".join(f"{name} {score:+d}" for name, score in zip(game.players, game.result.scores, strict=True))


# --- rules -------------------------------------------------------------------


def _rules(args: argparse.Namespace) -> int:
    names = [args.preset] if args.preset else list(PRESETS)
    chosen = {name: Rules.preset(name) for name in names}
    if args.json:
        print(json.dumps({name: rules.to_dict() for name, rules in chosen.items()}))
        return 0
    if not args.preset:
        print("Presets: " + ", ".join(PRESETS))
        print()
    width = max(len(option) for option in OPTION_HELP)
    for name, rules in chosen.items():
        print(f"{name}:")
        values = rules.to_dict()
        for option, help_text in OPTION_HELP.items():
            value = values[option]
            shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            print(f"  {option:<{width}}  {shown:<15} {help_text}")
        print()
    return 0


# --- solve -------------------------------------------------------------------


def _solve(args: argparse.Namespace) -> int:
    rules = _rules_from(args.rules)
    solution = solve(
        args.rack,
        args.table,
        rules=rules,
        initial_meld_done=not args.initial,
        objective=args.objective,
    )
    if args.json:
        table = Table.parse(args.table, wrap=rules.wrap)
        unchanged = [[str(tile) for tile in meld] for meld in table]
        empty = {"placed": [], "table": unchanged, "value": 0, "steps": [], "meld_value": None, "changed": 0}
        print(json.dumps(solution.to_dict() if solution is not None else empty))
        return 0
    if solution is None:
        print("Nothing can be played: draw." if not args.initial else "No initial meld: draw.")
        return 0
    count = len(solution.placed)
    worth = f", an initial meld worth {solution.meld_value}" if solution.meld_value is not None else ""
    print(
        f"Place {count} tile{'s' if count != 1 else ''} ({' '.join(map(str, solution.placed))}), "
        f"rack value {solution.value}{worth}."
    )
    for number, step in enumerate(solution.steps, start=1):
        print(f"  {number}. {step}")
    print(f"Table: {solution.table}")
    return 0


# --- demo --------------------------------------------------------------------


def _demo(args: argparse.Namespace) -> int:
    rules = _rules_from(args.rules)
    if args.delay < 0:
        raise TilerummyError(f"--delay {args.delay}: a pause cannot be negative")
    if args.seed < 0:
        raise TilerummyError(f"--seed {args.seed}: seeds are 0 or more")
    names = ["Ana", "Bruno", "Carla", "Diego", "Elena", "Fabio"]
    if not 2 <= args.players <= len(names):
        raise TilerummyError(f"--players {args.players}: choose 2 to {len(names)}")
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
    if args.save:
        Path(args.save).write_text(
            GameRecord.from_game(game).to_json(result=game.result.to_dict()) + "\n", encoding="utf-8"
        )
        print(f"\nRecord saved to {args.save} (replay it with: tilerummy replay {args.save})")
    return 0


def rules_summary(name: str) -> str:
    differences = Rules.preset(name).differences() if name in PRESETS else {}
    extra = ", ".join(f"{key}={value}" for key, value in differences.items())
    return f"rules {name}" + (f" ({extra})" if extra else "")


# --- serve -------------------------------------------------------------------


def _add_serve(commands: Any) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the server for online play",
        description="Run the server where people and bots play over WebSockets (protocol: docs/protocol.md).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="SQLite file, or a postgresql:// URL (default: in the user's data directory)",
    )
    serve.add_argument("--bot-workers", type=int, default=2, metavar="N", help="processes for bots (0: threads)")
    serve.add_argument("--max-rooms", type=int, default=2000, metavar="N", help="rooms open or playing at once")
    serve.add_argument("--max-connections", type=int, default=5000, metavar="N", help="connections at once")
    serve.add_argument("--schema", action="store_true", help="print the protocol's JSON Schema and exit")
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the server.
    from .server import Settings, json_schema, serve
    from .server.limits import ServerLimits

    if args.schema:
        print(json.dumps(json_schema(), indent=1))
        return 0
    if not 0 <= args.port <= 65535:
        raise TilerummyError(f"--port {args.port}: choose 0 to 65535")
    if args.bot_workers < 0 or args.max_rooms < 1 or args.max_connections < 1:
        raise TilerummyError("--bot-workers is 0 or more, --max-rooms and --max-connections 1 or more")
    settings = Settings(
        database=args.db,
        bot_workers=args.bot_workers,
        limits=ServerLimits(max_rooms=args.max_rooms),
        max_connections=args.max_connections,
    )
    serve(args.host, args.port, settings)
    return 0


# --- play --------------------------------------------------------------------


def _play(args: argparse.Namespace) -> int:
    rules = _rules_with_options(args)
    levels = _levels(args.bots)
    if not 1 <= len(levels) <= 5:
        raise TilerummyError(f"--bots {args.bots}: choose 1 to 5 bots")
    rules.check_players(len(levels) + 1)
    if args.seed is not None and args.seed < 0:
        raise TilerummyError(f"--seed {args.seed}: seeds are 0 or more")
    bot_names = ["Ana", "Bruno", "Carla", "Diego", "Elena"]
    names = [args.name] + [f"{bot_names[index]} ({level})" for index, level in enumerate(levels)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    match = Match(names, rules, seed, started_at=time.monotonic())
    paint = Painter.for_stream(sys.stdout, args.color, cards=rules.display.value == "cards")
    count = f"{len(levels)} bot{'s' if len(levels) != 1 else ''}"
    print(paint.bold(f"tilerummy: you against {count}, {_rules_text(args)}"))
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
        if args.save:
            _save_game(game, Path(args.save), len(match.rounds) if rules.is_match else None)
        if not finished or not rules.is_match:
            return 0
        standing = match.standing()
        totals = ", ".join(f"{name} {total:+}" for name, total in zip(names, standing.totals, strict=True))
        print(f"Totals after {standing.rounds_played} round{'s' if standing.rounds_played != 1 else ''}: {totals}")
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


def _levels(text: str) -> list[str]:
    levels = [level.strip().lower() for level in text.split(",") if level.strip()]
    for level in levels:
        if level not in LEVELS:
            raise TilerummyError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    return levels


def _rules_text(args: argparse.Namespace) -> str:
    return rules_summary(args.rules) + "".join(f", {text}" for text in args.option)


# --- arena -------------------------------------------------------------------


def _arena(args: argparse.Namespace) -> int:
    rules = _rules_with_options(args)
    levels = _levels(args.bots)
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise TilerummyError(f"--plot {args.plot}: name a .png or .svg file")
    progress = _ProgressBar() if sys.stderr.isatty() else None
    report = run_arena(
        levels,
        args.games,
        seed=args.seed,
        rules=rules,
        workers=args.workers,
        save_to=args.save,
        progress=progress,
        budget=args.budget,
    )
    if progress:
        print(file=sys.stderr)
    if args.plot:
        draw_report(report, args.plot, title=f"{' vs '.join(levels)}, {_rules_text(args)}")
    if args.json:
        print(json.dumps(report.to_dict()))
        return 0
    for line in report_lines(report):
        print(line)
    if args.save:
        print(f"Records saved in {args.save}/")
    if args.plot:
        print(f"Plot saved to {args.plot}")
    return 0


class _ProgressBar:
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


if __name__ == "__main__":
    raise SystemExit(main())
