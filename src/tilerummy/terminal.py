"""A game against bots in a plain terminal: ``tilerummy play``.

The person edits a draft of the table with short commands (lay a new set,
add tiles to a set, move tiles between sets, or type the whole table) and
ends the turn; the engine judges the draft only then, as at a real table.
Every set of the draft is shown as valid or not, with the reason, as it is built.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots import Bot
from .console import Painter, describe_turn, final_scores
from .errors import IllegalAction, InvalidMeld, NotationError, TilerummyError
from .game import Action, Game
from .melds import Meld, Token
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
  hint                show the best play
  undo / reset        take back the last change / every change this turn
  sort                sort the rack by colour or by number
  help / quit"""


#: The alarm rings this much after the deadline, so that the clock has surely passed it.
_ALARM_MARGIN = 0.05


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

    def run(self) -> bool:
        """Play to the end of the round; False if the person left before."""
        game = self.game
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
            self.write(line)
        return True

    # --- bots -----------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        game = self.game
        before_rack, before_table = len(game.rack(seat)), game.table
        action = self.bots[seat].choose(game.view(seat))
        game.apply(_at(action, self.clock()))
        self.write(describe_turn(game, seat, action, before_rack, before_table, self.paint))

    # --- the person -----------------------------------------------------------

    def _person_turn(self) -> bool:
        """Take commands until the turn ends; False when the person quits."""
        game = self.game
        draft = Draft([str(meld).split() for meld in game.table])
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
                    self._hint()
                elif command == "help" or not line:
                    self.write(HELP)
                elif command == "sort":
                    self.by_number = not self.by_number
                    self._show(draft)
                elif command == "undo":
                    if draft.history:
                        draft.sets = draft.history.pop()
                    self._show(draft)
                elif command == "reset":
                    draft.change([str(meld).split() for meld in game.table])
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
        return f"[{max(0, round(deadline - self.clock()))}s] > "

    def _read_in_time(self, prompt: str) -> str:
        deadline = self.game.deadline
        if deadline is None or not self.interrupt_at_deadline:
            return self.read(prompt)
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
        placed = sum((draft.tiles() - game.table.tiles()).values())
        try:
            game.play(self.person, draft.text(), at=self.clock())
        except (IllegalAction, InvalidMeld) as error:
            self.write(f"  Not accepted: {error}")
            return False
        self.write(f"You placed {placed} tile{'s' if placed != 1 else ''}.")
        return True

    def _draw(self) -> None:
        game = self.game
        if game.pool_size:
            before = set(game.rack(self.person))
            game.draw(self.person, at=self.clock())
            drawn = [piece.tile for piece in game.rack(self.person) if piece not in before]
            self.write(f"You draw {self.paint.tiles(drawn)}.")
        else:
            game.pass_turn(self.person, at=self.clock())
            self.write("The pool is empty: you pass.")

    def _hint(self) -> None:
        game = self.game
        rack = game.rack_tiles(self.person)
        found = solve(rack, game.table, rules=game.rules, initial_meld_done=game.melded[self.person])
        if found is None:
            self.write("  No play: draw a tile.")
            return
        self.write(f"  Best play: {len(found.placed)} tile{'s' if len(found.placed) != 1 else ''}.")
        for step in found.steps:
            self.write(f"   - {step}")

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
        new = [_tokens(part) for part in text.split("|")]
        self._take_from_rack(draft, [token for tokens in new for token in tokens])
        draft.change([*draft.sets, *new])
        self._show(draft)

    def _add(self, draft: Draft, rest: str) -> None:
        number, _, text = rest.strip().partition(" ")
        index = _set_index(number, draft)
        tokens = _tokens(text)
        self._take_from_rack(draft, tokens)
        sets = [list(tokens_) for tokens_ in draft.sets]
        sets[index] = _arranged([*sets[index], *tokens])
        draft.change(sets)
        self._show(draft)

    def _move(self, draft: Draft, rest: str) -> None:
        words = rest.split()
        if "to" not in words or len(words) < 4:
            raise TilerummyError("write: move N TILES to M (or 'to new')")
        split = words.index("to")
        source = _set_index(words[0], draft)
        target_text = " ".join(words[split + 1 :])
        tokens = _tokens(" ".join(words[1:split]))
        sets = [list(tokens_) for tokens_ in draft.sets]
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
            target = _set_index(target_text, draft)
            sets[target] = _arranged([*sets[target], *tokens])
        draft.change(sets)
        self._show(draft)

    def _whole_table(self, draft: Draft, text: str) -> None:
        if not text.strip():
            self.write(f"  table {draft.text()}")
            return
        sets = [_tokens(part) for part in text.split("|")]
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
        self.write("Table:" if draft.sets else "Table: (empty)")
        wrap = game.rules.wrap
        for number, tokens in enumerate(draft.sets, start=1):
            self.write(f"  {number:>2}. {_set_line(tokens, paint, wrap=wrap)}")
        rack = sorted(self._rack_left(draft).elements(), key=_by_number if self.by_number else _by_colour)
        self.write(f"Rack ({len(rack)}): {paint.tiles(rack) or '(empty)'}")
        if not game.melded[self.person]:
            worth = sum(
                Meld.parse(" ".join(tokens), wrap=wrap).value
                for tokens in draft.sets[len(game.table) :]
                if _is_valid(tokens, wrap=wrap)
            )
            self.write(f"Initial meld: {worth} / {game.rules.meld_threshold} (new sets from your rack only)")


def _at(action: Action, now: float) -> Action:
    """The bot's action, stamped with the time it was made (the game keeps the clock)."""
    return dataclasses.replace(action, at=now)


def _tokens(text: str) -> list[str]:
    tokens = split_tokens(text)
    if not tokens:
        raise NotationError("name at least one tile")
    for token in tokens:
        Token.parse(token)  # names a malformed tile
    return [token.upper() for token in tokens]


def _set_index(text: str, draft: Draft) -> int:
    if not text.isdigit() or not 1 <= int(text) <= len(draft.sets):
        raise TilerummyError(f"{text or '?'}: no such set (sets are numbered 1 to {len(draft.sets)})")
    return int(text) - 1


def _arranged(tokens: list[str]) -> list[str]:
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


def _set_line(tokens: Sequence[str], paint: Painter, *, wrap: bool) -> str:
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
