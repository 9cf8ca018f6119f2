"""A game against bots in a plain terminal: ``tilerummy play``.

The person edits a draft of the table with short commands (lay a new set,
add tiles to a set, move tiles between sets, type the whole table, or take
the hint's) and ends the turn; the engine judges the draft only then, as at
a real table. Every set of the draft is shown as valid or not, with the
reason, as it is built. Each turn, the person's and the bots', is told in one
line of the move log; the sets keep their numbers from turn to turn.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import signal
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TextIO

from .bots import Bot
from .console import Painter, final_scores
from .errors import IllegalAction, InvalidMeld, NotationError, TilerummyError
from .game import Action, Draw, Game, Pass, Play
from .melds import Meld, Table, Token
from .movelog import keep_order, move_line
from .solver import solve
from .tiles import Tile, split_tokens

HELP = """\
Commands (tiles like R5 B10 Y1 K13 J; sets are numbered as shown):
  R5 R6 R7            lay a new set from your rack (several: R5 R6 R7 | K1 B1 Y1)
  add N R8 J          add rack tiles to set N
  move N R5 R6 to M   move tiles from set N to set M ("to new" starts a set)
  table SETS          type the whole table as it should be (shows it when empty)
  done                end the turn with the table as drafted
  draw                draw a tile and end the turn (pass when the pool is empty)
  hint                show the best play from your draft (or from the start of the turn)
  apply               make the last hint's table your draft
  undo / reset        take back the last change / every change this turn
  sort                sort the rack by colour or by number
  help / quit"""


SHORT_HELP = "Type a set (R5 R6 R7), 'done', 'draw', 'hint', or 'help' for every command."

#: The alarm rings this much after the deadline, so that the clock has surely passed it.
_ALARM_MARGIN = 0.05
#: A terminal's colour codes, which take no room on the screen.
_ANSI = re.compile(r"\033\[[0-9;]*m")
#: How often the prompt's clock is redrawn while the person types.
_CLOCK_TICK = 1.0


class _TimeUp(Exception):
    """The turn's time ran out while the person was typing."""


@dataclass
class Draft:
    """The table as the person is rearranging it: sets as text, valid or not."""

    sets: list[list[str]]
    history: list[list[list[str]]] = field(default_factory=list)

    def tiles(self) -> Counter[Tile]:
        return Counter(Token.parse(token).tile for tokens in self.sets for token in tokens)

    def change(self, sets: list[list[str]]) -> None:
        self.history.append([list(tokens) for tokens in self.sets])
        self.sets = [tokens for tokens in sets if tokens]

    def text(self) -> str:
        return " | ".join(" ".join(tokens) for tokens in self.sets)

    def index(self, text: str) -> int:
        """The set numbered ``text`` (from 1), as an index.

        :raises TilerummyError: no set has that number.
        """
        if not text.isdigit() or not 1 <= int(text) <= len(self.sets):
            raise TilerummyError(f"{text or '?'}: no such set (sets are numbered 1 to {len(self.sets)})")
        return int(text) - 1

    def with_added(self, index: int, tokens: Sequence[str]) -> list[list[str]]:
        """The sets once ``tokens`` join set ``index``, where they read best."""
        sets = [list(held) for held in self.sets]
        sets[index] = arranged_set([*sets[index], *tokens])
        return sets

    def with_moved(self, words: str) -> list[list[str]]:
        """The sets once ``N TILES to M`` (or ``to new``) is done.

        :raises TilerummyError: a set that does not exist, or tiles it does not hold.
        """
        parts = words.split()
        if "to" not in parts or len(parts) < 4:
            raise TilerummyError("write: move N TILES to M (or 'to new')")
        split = parts.index("to")
        source = self.index(parts[0])
        target_text = " ".join(parts[split + 1 :])
        tokens = draft_tokens(" ".join(parts[1:split]))
        sets = [list(held) for held in self.sets]
        remaining = list(sets[source])
        for token in tokens:
            match = next((held for held in remaining if Token.parse(held).tile == Token.parse(token).tile), None)
            if match is None:
                raise TilerummyError(f"{token}: not in set {source + 1}")
            remaining.remove(match)
        sets[source] = remaining
        if target_text.lower() == "new":
            sets.append(tokens)
        else:
            target = self.index(target_text)
            sets[target] = arranged_set([*sets[target], *tokens])
        return sets


class TerminalGame:
    """One person against bots; input and output are injectable for tests."""

    def __init__(
        self,
        game: Game,
        person: int,
        bots: dict[int, Bot],
        paint: Painter,
        *,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        interrupt_at_deadline: bool | None = None,
    ) -> None:
        self.game = game
        self.person = person
        self.bots = bots
        self.paint = paint
        self.read = read or input
        self.write = write or print
        # At a real terminal the clock cuts a turn short even while the person
        # is still typing (on systems with SIGALRM, from the main thread).
        if interrupt_at_deadline is None:
            interrupt_at_deadline = read is None
        self.interrupt_at_deadline = (
            interrupt_at_deadline
            and hasattr(signal, "SIGALRM")
            and threading.current_thread() is threading.main_thread()
        )
        self.clock = clock
        self.by_number = False
        #: The table's sets in the order they are shown, so that they keep their numbers.
        self.shown: list[Meld] = list(game.table)
        #: The table of the last hint, for 'apply'.
        self.hinted: Table | None = None
        self.width = shutil.get_terminal_size().columns if read is None else 100

    def run(self) -> bool:
        """Play to the end of the round; False if the person left before."""
        game = self.game
        if game.deal.first_draws and not game.actions:
            draws = ", ".join(f"{self._name(seat)} {self.paint.tile(tile)}" for seat, tile in game.deal.first_draws)
            self.write(f"Drawing for first player: {draws}. The highest starts.")
        self.write("Type 'help' for the commands, 'hint' for the best play.")
        while not game.is_over:
            seat = game.turn
            if seat == self.person:
                if not self._person_turn():
                    self.write("You left the game.")
                    return False
            else:
                self._bot_turn(seat)
        self.write("")
        for line in final_scores(game, self.paint):
            self._say(line)
        return True

    def _say(self, text: str) -> None:
        """Write a line; a long one breaks between tiles (words), never inside one."""
        if len(_ANSI.sub("", text)) <= self.width:
            self.write(text)
            return
        for line in textwrap.wrap(
            text, self.width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False
        ):
            self.write(line)

    # --- bots -----------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        game = self.game
        action = self.bots[seat].choose(game.view(seat))
        before = len(game.rack(seat))
        self._log(seat, _at(action, self.clock()), lambda: max(0, len(game.rack(seat)) - before))

    def _name(self, seat: int) -> str:
        return "You" if seat == self.person else self.game.players[seat]

    def _log(self, seat: int, action: Action, drawn: Callable[[], int | list[Tile]]) -> None:
        """Apply an action and tell it in the move log's words (with the tiles left, for the bots)."""
        game = self.game
        before = list(self.shown)
        game.apply(action)
        self.shown = keep_order(self.shown, list(game.table))
        line = move_line(self._name(seat), action, before, self.shown, drawn=drawn(), tiles=self.paint.tiles)
        left = len(game.rack(seat))
        self._say(line + ("." if seat == self.person else f" ({left} left)."))

    # --- the person -----------------------------------------------------------

    def _person_turn(self) -> bool:
        """Take commands until the turn ends; False when the person quits."""
        game = self.game
        self.shown = keep_order(self.shown, list(game.table))
        draft = Draft(_texts(self.shown))
        self.hinted = None
        self._show(draft, turn_start=True)
        while True:
            try:
                line = self._read_in_time(self._prompt()).strip()
            except EOFError:
                return False
            except _TimeUp:
                self.write("")
            if self._timed_out():
                return True
            command, _, rest = line.partition(" ")
            command = command.lower()
            try:
                if command in ("quit", "exit"):
                    return False
                if command in ("done", "end"):
                    if self._submit(draft):
                        return True
                elif command == "draw":
                    self._draw()
                    return True
                elif command == "hint":
                    self._hint(draft)
                elif command == "apply":
                    self._apply_hint(draft)
                elif command == "help":
                    self.write(HELP)
                elif not line:
                    self.write(SHORT_HELP)
                elif command == "sort":
                    self.by_number = not self.by_number
                    self._show(draft)
                elif command == "undo":
                    if draft.history:
                        draft.sets = draft.history.pop()
                    self._show(draft)
                elif command == "reset":
                    draft.change(_texts(self.shown))
                    self._show(draft)
                elif command == "add":
                    self._add(draft, rest)
                elif command == "move":
                    self._move(draft, rest)
                elif command == "table":
                    self._whole_table(draft, rest)
                else:
                    self._new_sets(draft, line)
            except TilerummyError as error:
                self.write(f"  {error}")

    def _prompt(self) -> str:
        deadline = self.game.deadline
        if deadline is None:
            return "> "
        # A fixed width, so that the live clock can redraw it in place.
        return f"[{max(0, round(deadline - self.clock())):>3}s] > "

    def _read_in_time(self, prompt: str) -> str:
        deadline = self.game.deadline
        if deadline is None or not self.interrupt_at_deadline:
            return self.read(prompt)
        with LiveClock(self._prompt, sys.stdout):
            return self._read_before(deadline, prompt)

    def _read_before(self, deadline: float, prompt: str) -> str:
        remaining = deadline - self.clock()
        if remaining <= 0:
            raise _TimeUp

        def ring(signum: int, frame: object) -> None:
            raise _TimeUp

        previous = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, remaining + _ALARM_MARGIN)
        try:
            return self.read(prompt)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _timed_out(self) -> bool:
        deadline = self.game.deadline
        now = self.clock()
        if deadline is None or now <= deadline:
            return False
        before = len(self.game.rack(self.person))
        self.game.timeout(self.person, at=now)
        drawn = len(self.game.rack(self.person)) - before
        self.write(f"Time is up: the table is put back and you draw {drawn} tile{'s' if drawn != 1 else ''}.")
        return True

    def _submit(self, draft: Draft) -> bool:
        game = self.game
        if draft.tiles() == game.table.tiles():
            raise TilerummyError("you have placed no tile: lay one, or 'draw'")
        try:
            table = Table.parse(draft.text(), wrap=game.rules.wrap)
            self._log(self.person, Play(self.person, table, at=self.clock()), lambda: 0)
        except (IllegalAction, InvalidMeld) as error:
            self.write(f"  Not accepted: {error}")
            return False
        return True

    def _draw(self) -> None:
        game = self.game
        if not game.pool_size:
            self.write("The pool is empty: you pass.")
            self._log(self.person, Pass(self.person, at=self.clock()), lambda: 0)
            return
        before = set(game.rack(self.person))
        self._log(
            self.person,
            Draw(self.person, at=self.clock()),
            lambda: [piece.tile for piece in game.rack(self.person) if piece not in before],
        )

    def _hint(self, draft: Draft) -> None:
        """The best play from the draft as it stands when it is valid and placing more helps, else from the turn's start."""
        game = self.game
        melded = game.melded[self.person]
        start = solve(
            game.rack_tiles(self.person), Table(tuple(self.shown)), rules=game.rules, initial_meld_done=melded
        )
        placed = sum((draft.tiles() - game.table.tiles()).values())
        drafted = _valid_table(draft, wrap=game.rules.wrap) if placed else None
        if drafted is not None and melded:
            rack = list(self._rack_left(draft).elements())
            onward = solve(rack, drafted, rules=game.rules, initial_meld_done=True)
            more = len(onward.placed) if onward else 0
            if start is None or placed + more >= len(start.placed):
                if onward is None:
                    self.hinted = None
                    self.write("  Your draft is the best play: 'done' plays it.")
                    return
                self.hinted = onward.table
                self.write(f"  From your draft, {_tiles(more)} more:")
                self._steps(onward.steps)
                return
        if start is None:
            self.hinted = None
            self.write("  No play: draw a tile.")
            return
        self.hinted = start.table
        since = " (from the table as the turn began)" if placed else ""
        self.write(f"  Best play{since}: {_tiles(len(start.placed))}.")
        self._steps(start.steps)

    def _steps(self, steps: Sequence[str]) -> None:
        for step in steps:
            self.write(f"   - {step}")
        self.write("  'apply' makes it your draft.")

    def _apply_hint(self, draft: Draft) -> None:
        if self.hinted is None:
            raise TilerummyError("no hint to apply: ask for one with 'hint'")
        self._whole_table(draft, _texts(keep_order(self.shown, list(self.hinted))))

    # --- editing the draft ----------------------------------------------------

    def _rack_left(self, draft: Draft) -> Counter[Tile]:
        """Rack tiles not yet in the draft (negative: the draft holds tiles nobody has)."""
        left = Counter(self.game.rack_tiles(self.person))
        left.subtract(draft.tiles() - self.game.table.tiles())
        return left

    def _take_from_rack(self, draft: Draft, tokens: Sequence[str]) -> None:
        left = self._rack_left(draft)
        for token in tokens:
            tile = Token.parse(token).tile
            if left[tile] <= 0:
                raise TilerummyError(f"{tile}: not on your rack")
            left[tile] -= 1

    def _new_sets(self, draft: Draft, text: str) -> None:
        new = [draft_tokens(part) for part in text.split("|")]
        self._take_from_rack(draft, [token for tokens in new for token in tokens])
        draft.change([*draft.sets, *new])
        self._show(draft)

    def _add(self, draft: Draft, rest: str) -> None:
        number, _, text = rest.strip().partition(" ")
        index = draft.index(number)
        tokens = draft_tokens(text)
        self._take_from_rack(draft, tokens)
        draft.change(draft.with_added(index, tokens))
        self._show(draft)

    def _move(self, draft: Draft, rest: str) -> None:
        draft.change(draft.with_moved(rest))
        self._show(draft)

    def _whole_table(self, draft: Draft, text: str | list[list[str]]) -> None:
        if isinstance(text, str) and not text.strip():
            self.write(f"  table {draft.text()}")
            return
        sets = [draft_tokens(part) for part in text.split("|")] if isinstance(text, str) else text
        proposed = Counter(Token.parse(token).tile for tokens in sets for token in tokens)
        missing = self.game.table.tiles() - proposed
        if missing:
            raise TilerummyError(f"every table tile must stay on the table: {' '.join(map(str, missing.elements()))}")
        extra = proposed - self.game.table.tiles() - Counter(self.game.rack_tiles(self.person))
        if extra:
            raise TilerummyError(f"{' '.join(map(str, extra.elements()))}: not on your rack")
        draft.change(sets)
        self._show(draft)

    # --- showing ----------------------------------------------------------------

    def _show(self, draft: Draft, *, turn_start: bool = False) -> None:
        game = self.game
        paint = self.paint
        if turn_start:
            others = ", ".join(
                f"{name} {len(game.rack(seat))}" for seat, name in enumerate(game.players) if seat != self.person
            )
            self.write(paint.bold(f"\nYour turn. Tiles left: {others}; pool {game.pool_size}."))
            self.hinted = None
        self.write("Table:" if draft.sets else "Table: (empty)")
        wrap = game.rules.wrap
        for number, tokens in enumerate(draft.sets, start=1):
            self.write(f"  {number:>2}. {set_line(tokens, paint, wrap=wrap)}")
        rack = sorted(self._rack_left(draft).elements(), key=_by_number if self.by_number else _by_colour)
        self._say(f"Rack ({len(rack)}): {paint.tiles(rack) or '(empty)'}")
        if not game.melded[self.person]:
            worth = sum(
                Meld.parse(" ".join(tokens), wrap=wrap).value
                for tokens in draft.sets[len(game.table) :]
                if _is_valid(tokens, wrap=wrap)
            )
            self.write(f"Initial meld: {worth} / {game.rules.meld_threshold} (new sets from your rack only)")


class LiveClock:
    """While the person types at a terminal, the prompt's clock counts down in place.

    A thread redraws the prompt (of a fixed width) every second, saving and
    restoring the cursor, so what is being typed is left as it is.
    """

    def __init__(self, prompt: Callable[[], str], out: TextIO, *, wait: Callable[[float], bool] | None = None) -> None:
        self.prompt = prompt
        self.out = out
        self.stop = threading.Event()
        self.wait = wait or self.stop.wait
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> LiveClock:
        if self.out.isatty():
            self.thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()

    def run(self) -> None:
        while not self.wait(_CLOCK_TICK):
            self.out.write(f"\0337\r{self.prompt()}\0338")
            self.out.flush()


def _texts(melds: Sequence[Meld]) -> list[list[str]]:
    return [str(meld).split() for meld in melds]


def _tiles(count: int) -> str:
    return f"{count} tile{'s' if count != 1 else ''}"


def _valid_table(draft: Draft, *, wrap: bool) -> Table | None:
    try:
        return Table.parse(draft.text(), wrap=wrap)
    except InvalidMeld:
        return None


def _at(action: Action, now: float) -> Action:
    """The bot's action, stamped with the time it was made (the game keeps the clock)."""
    return dataclasses.replace(action, at=now)


def draft_tokens(text: str) -> list[str]:
    tokens = split_tokens(text)
    if not tokens:
        raise NotationError("name at least one tile")
    for token in tokens:
        Token.parse(token)  # names a malformed tile
    return [token.upper() for token in tokens]


def arranged_set(tokens: list[str]) -> list[str]:
    """Tiles added to a set go where they read best: a run in order, jokers where they fit."""
    try:
        return str(Meld.parse(" ".join(tokens))).split()
    except (InvalidMeld, NotationError):
        return tokens


def _is_valid(tokens: Sequence[str], *, wrap: bool) -> bool:
    try:
        Meld.parse(" ".join(tokens), wrap=wrap)
    except InvalidMeld:
        return False
    return True


def set_line(tokens: Sequence[str], paint: Painter, *, wrap: bool) -> str:
    try:
        meld = Meld.parse(" ".join(tokens), wrap=wrap)
    except InvalidMeld as error:
        tiles = [Token.parse(token).tile for token in tokens]
        reason = str(error).removeprefix(f"{' '.join(tokens)}: ")
        return f"{paint.tiles(tiles)}   ✗ {reason}"
    return f"{paint.meld(meld)}   ✓ {meld.kind.value}, {meld.value}"


def _by_colour(tile: Tile) -> tuple[int, int]:
    return (4 if tile.colour is None else tile.colour.rank, tile.number)


def _by_number(tile: Tile) -> tuple[int, int]:
    return (tile.number if not tile.is_joker else 99, 4 if tile.colour is None else tile.colour.rank)
