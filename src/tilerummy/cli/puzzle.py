"""``tilerummy puzzle``: today's certified puzzle in the terminal, and ``puzzle generate`` for many."""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..console import Painter, count
from ..errors import TilerummyError
from ..melds import Token
from ..puzzles import DAILY_LEVELS, LEVELS, Puzzle, daily, generate, judge_answer, stream
from ..terminal import Draft, draft_tokens, set_line
from ..tiles import Tile, format_tiles, shorten
from ._common import MAX_SEED, add_rules_arguments, check_seed, rules_with_options

if TYPE_CHECKING:
    from ._common import Commands

#: More puzzles than anyone reads at once: a larger count is a typing mistake.
MAX_COUNT = 10_000

HELP = """\
Commands (tiles like R5 B10 Y1 K13 J; sets are numbered as shown):
  R5 R6 R7            lay a new set from your rack (several: R5 R6 R7 | K1 B1 Y1)
  add N R8 J          add rack tiles to set N
  move N R5 R6 to M   move tiles from set N to set M ("to new" starts a set)
  table SETS          type the whole table as it should be (shows it when empty)
  done                check the table as drafted
  undo / reset        take back the last change / every change
  hint                how many tiles the best play places, and how many sets it changes
  answer              give up and see the answer
  help / quit"""

#: Exit codes: solved, not solved (given up, left, or a wrong --answer).
SOLVED, NOT_SOLVED = 0, 1


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "puzzle",
        help="today's certified puzzle, or many with 'puzzle generate'",
        description="Play a puzzle in the terminal: place the most tiles from your rack, rearranging the table. "
        "Exactly one set of rack tiles does it (the solver proves it), and any legal table that places that "
        "set solves the puzzle. Without options, today's puzzle (the same for everyone, from the date in UTC); "
        f"the daily level follows the weekday, Monday to Sunday: {', '.join(map(str, DAILY_LEVELS))}. "
        "Exit code 0 when solved, 1 when not.",
    )
    parser.add_argument("--date", metavar="YYYY-MM-DD", help="play another day's puzzle")
    parser.add_argument("--seed", type=int, help="play the puzzle of this seed (see 'puzzle generate')")
    parser.add_argument(
        "--level", type=int, metavar="L", help=f"with --seed, or for a random puzzle: the level, one of {_levels()}"
    )
    add_rules_arguments(parser, default="standard")
    parser.add_argument(
        "--answer", metavar="TABLE", help="check this table (the whole table after the play) instead of playing"
    )
    parser.add_argument("--json", action="store_true", help="with --answer, print the verdict as JSON")
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto", help="colour the tiles")
    parser.set_defaults(handler=run)
    actions = parser.add_subparsers(title="actions", dest="action", parser_class=type(parser))
    make = actions.add_parser(
        "generate",
        help="print certified puzzles",
        description="Print certified puzzles, each from its own seed derived from --seed, one a line with --json: "
        '{"rack", "table", "initial_meld_done", "best", "answer_placed", "answer_table", "changed_sets", '
        '"level", "seed", "without"} ("without": for each answer tile, the most the rack places without it).',
    )
    make.add_argument("--count", type=int, default=1, metavar="N", help=f"how many, 1 to {MAX_COUNT:,} (default 1)")
    make.add_argument("--seed", type=int, default=0, help="the stream's seed (default 0)")
    make.add_argument("--level", type=int, metavar="L", help=f"only puzzles of this level, one of {_levels()}")
    add_rules_arguments(make, default="standard")
    make.add_argument("--json", action="store_true", help="print one JSON object a line")
    make.set_defaults(handler=run_generate)


def _levels() -> str:
    return ", ".join(map(str, LEVELS)) + " (how many sets of the table the answer changes; 4: four or more)"


def _check_level(level: int | None) -> int | None:
    if level is not None and level not in LEVELS:
        raise TilerummyError(f"--level {shorten(str(level))}: choose from {', '.join(map(str, LEVELS))}")
    return level


def run_generate(args: argparse.Namespace) -> int:
    if not 1 <= args.count <= MAX_COUNT:
        raise TilerummyError(f"--count {shorten(str(args.count))}: choose 1 to {MAX_COUNT:,}")
    seed = check_seed(args.seed)
    level = _check_level(args.level)
    rules = rules_with_options(args)
    for number, puzzle in enumerate(itertools.islice(stream(seed, level=level, rules=rules), args.count), start=1):
        if args.json:
            print(json.dumps(puzzle.to_dict()), flush=True)
            continue
        if number > 1:
            print()
        for line in describe(puzzle, f"Puzzle {number}"):
            print(line)
        print(f"  Answer: {format_tiles(puzzle.answer)}, changing {count(puzzle.changed_sets, 'set')}")
        print(f"  Table after: {puzzle.answer_table}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.json and args.answer is None:
        raise TilerummyError("--json goes with --answer (or use 'puzzle generate --json')")
    puzzle, title = _chosen(args)
    if args.answer is not None:
        verdict = judge_answer(puzzle, args.answer)
        if args.json:
            print(
                json.dumps(
                    {
                        "solved": verdict.solved,
                        "legal": verdict.legal,
                        "placed": format_tiles(verdict.placed),
                        "message": verdict.message,
                    }
                )
            )
        else:
            print(verdict.message[0].upper() + verdict.message[1:] + ".")
        return SOLVED if verdict.solved else NOT_SOLVED
    paint = Painter.for_stream(sys.stdout, args.color)
    solved = PuzzleSession(puzzle, paint, title=title).run()
    return SOLVED if solved else NOT_SOLVED


def _chosen(args: argparse.Namespace) -> tuple[Puzzle, str]:
    """The puzzle the options name, and its title."""
    level = _check_level(args.level)
    if args.date is not None:
        if args.seed is not None or level is not None:
            raise TilerummyError("--date names the daily puzzle: leave out --seed and --level")
        try:
            day = datetime.date.fromisoformat(args.date)
        except ValueError:
            raise TilerummyError(f"--date {args.date!r}: write a date as YYYY-MM-DD") from None
        return daily(day), f"The puzzle of {day.isoformat()}"
    if args.seed is None and level is None:
        day = datetime.datetime.now(datetime.UTC).date()
        return daily(day), f"Today's puzzle ({day.isoformat()})"
    rules = rules_with_options(args)
    seed = check_seed(args.seed) if args.seed is not None else random.SystemRandom().randrange(MAX_SEED + 1)
    return generate(seed, level=level, rules=rules), f"Puzzle of seed {seed}"


def describe(puzzle: Puzzle, title: str, paint: Painter | None = None) -> list[str]:
    """The puzzle for a person: title, the task, the table and the rack."""
    paint = paint or Painter(colour=False)
    task = (
        "place the most tiles from your rack"
        if puzzle.initial_meld_done
        else f"make your initial meld (new sets worth {puzzle.rules.meld_threshold} or more) with the most tiles"
    )
    lines = [
        paint.bold(f"{title}, level {puzzle.level}: {task}."),
        "  Table: " + (paint.table(puzzle.table) if puzzle.table.melds else "(empty)"),
        f"  Rack:  {paint.tiles(puzzle.rack)}",
    ]
    if puzzle.seed is not None:
        lines.append(f"  (seed {puzzle.seed})")
    return lines


class PuzzleSession:
    """One puzzle at the terminal: the person drafts the table with the game's
    commands and checks it; input and output are injectable for tests."""

    def __init__(
        self,
        puzzle: Puzzle,
        paint: Painter,
        *,
        title: str = "Puzzle",
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.paint = paint
        self.title = title
        self.read = read or input
        self.write = write or print
        self.start = [str(meld).split() for meld in puzzle.table]
        self.draft = Draft([list(tokens) for tokens in self.start])

    def run(self) -> bool:
        """Take commands until the puzzle is solved (True), given up or left (False)."""
        for line in describe(self.puzzle, self.title, self.paint)[:1]:
            self.write(line)
        self.write(f"Exactly one set of your rack's tiles places the most. {_SHORT_HELP}")
        self._show()
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                self.write("")
                return False
            command, _, rest = line.partition(" ")
            command = command.lower()
            try:
                if command in ("quit", "exit"):
                    return False
                if command in ("done", "check"):
                    if self._check():
                        return True
                elif command in ("answer", "give"):
                    self._give_up()
                    return False
                elif command == "help":
                    self.write(HELP)
                elif not line:
                    self.write(_SHORT_HELP)
                elif command == "hint":
                    changed = count(self.puzzle.changed_sets, "set")
                    self.write(f"  The best play places {count(self.puzzle.best, 'tile')} and changes {changed}.")
                elif command == "undo":
                    if self.draft.history:
                        self.draft.sets = self.draft.history.pop()
                    self._show()
                elif command == "reset":
                    self.draft.change([list(tokens) for tokens in self.start])
                    self._show()
                elif command == "add":
                    self._add(rest)
                elif command == "move":
                    self._move(rest)
                elif command == "table":
                    self._whole_table(rest)
                else:
                    self._new_sets(line)
            except TilerummyError as error:
                self.write(f"  {error}")

    def _check(self) -> bool:
        if self.draft.tiles() == self.puzzle.table.tiles():
            raise TilerummyError("you have placed no tile yet: lay one, add one to a set, or type the whole table")
        verdict = judge_answer(self.puzzle, self.draft.text())
        if verdict.solved:
            best, changed = count(self.puzzle.best, "tile"), count(self.puzzle.changed_sets, "set")
            self.write(self.paint.bold(f"Solved! {format_tiles(verdict.placed)}: the only way to place {best}."))
            self.write(f"  (The fewest sets of the table a play placing them changes: {changed}.)")
            return True
        if verdict.legal:
            self.write(f"  Not solved: {verdict.message}. Keep trying, or 'answer' to see it.")
        else:
            self.write(f"  Not accepted: {verdict.message.removeprefix('not a legal play: ')}")
        return False

    def _give_up(self) -> None:
        puzzle = self.puzzle
        self.write(f"The answer: place {format_tiles(puzzle.answer)} ({count(puzzle.best, 'tile')}).")
        self.write(f"  Table after: {self.paint.table(puzzle.answer_table)}")

    # --- the draft, as in the terminal game ---------------------------------------

    def _rack_left(self) -> Counter[Tile]:
        left = Counter(self.puzzle.rack)
        left.subtract(self.draft.tiles() - self.puzzle.table.tiles())
        return left

    def _take_from_rack(self, tokens: Sequence[str]) -> None:
        left = self._rack_left()
        for token in tokens:
            tile = Token.parse(token).tile
            if left[tile] <= 0:
                raise TilerummyError(f"{tile}: not on your rack")
            left[tile] -= 1

    def _new_sets(self, text: str) -> None:
        new = [draft_tokens(part) for part in text.split("|")]
        self._take_from_rack([token for tokens in new for token in tokens])
        self.draft.change([*self.draft.sets, *new])
        self._show()

    def _add(self, rest: str) -> None:
        number, _, text = rest.strip().partition(" ")
        index = self.draft.index(number)
        tokens = draft_tokens(text)
        self._take_from_rack(tokens)
        self.draft.change(self.draft.with_added(index, tokens))
        self._show()

    def _move(self, rest: str) -> None:
        self.draft.change(self.draft.with_moved(rest))
        self._show()

    def _whole_table(self, text: str) -> None:
        if not text.strip():
            self.write(f"  table {self.draft.text()}")
            return
        sets = [draft_tokens(part) for part in text.split("|")]
        proposed = Counter(Token.parse(token).tile for tokens in sets for token in tokens)
        missing = self.puzzle.table.tiles() - proposed
        if missing:
            raise TilerummyError(f"every table tile must stay on the table: {format_tiles(missing.elements())}")
        extra = proposed - self.puzzle.table.tiles() - Counter(self.puzzle.rack)
        if extra:
            raise TilerummyError(f"{format_tiles(extra.elements())}: not on your rack")
        self.draft.change(sets)
        self._show()

    def _show(self) -> None:
        wrap = self.puzzle.rules.wrap
        self.write("Table:" if self.draft.sets else "Table: (empty)")
        for number, tokens in enumerate(self.draft.sets, start=1):
            self.write(f"  {number:>2}. {set_line(tokens, self.paint, wrap=wrap)}")
        rack = sorted(self._rack_left().elements(), key=lambda tile: tile.sort_key)
        self.write(f"Rack ({len(rack)}): {self.paint.tiles(rack) or '(empty)'}")


_SHORT_HELP = "Type a set (R5 R6 R7), 'add', 'move', 'done' to check, or 'help' for every command."
