"""Printing tiles, sets and tables for a terminal, in colour when it can."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from .game import Action, Draw, Game, Pass, Play, Timeout
from .melds import Meld, Table
from .tiles import Colour, Tile

_CODES = {Colour.RED: "31", Colour.BLUE: "34", Colour.YELLOW: "33", Colour.BLACK: "90"}
_JOKER_CODE = "35"
_RESET = "\033[0m"


def wants_colour(stream: TextIO, choice: str = "auto") -> bool:
    """Colour for a terminal unless NO_COLOR is set; ``always`` / ``never`` force it."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty() and os.environ.get("TERM") != "dumb"


class Painter:
    """Turns tiles into text, coloured or plain, as tiles or as cards."""

    def __init__(self, *, colour: bool, cards: bool = False) -> None:
        self.colour = colour
        self.cards = cards

    @classmethod
    def for_stream(cls, stream: TextIO = sys.stdout, choice: str = "auto", *, cards: bool = False) -> Painter:
        return cls(colour=wants_colour(stream, choice), cards=cards)

    def tile(self, tile: Tile) -> str:
        text = tile.card() if self.cards else str(tile)
        if not self.colour:
            return text
        code = _JOKER_CODE if tile.colour is None else _CODES[tile.colour]
        return f"\033[1;{code}m{text}{_RESET}"

    def tiles(self, tiles: Iterable[Tile]) -> str:
        return " ".join(self.tile(tile) for tile in tiles)

    def meld(self, meld: Meld) -> str:
        return self.tiles(meld.tiles)

    def table(self, table: Table) -> str:
        if not len(table):
            return "(empty)"
        return "  |  ".join(self.meld(meld) for meld in table)

    def bold(self, text: str) -> str:
        return f"\033[1m{text}{_RESET}" if self.colour else text


def count(number: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``: a number and a regular noun that agrees with it."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def verb(name: str, third_person: str, second_person: str) -> str:
    """The verb that agrees with a player's name: the person at the keyboard may be called "You"."""
    return second_person if name.strip().casefold() == "you" else third_person


def describe_turn(game: Game, seat: int, action: Action, rack_before: int, table_before: Table, paint: Painter) -> str:
    """What a player just did, in a line or two (``rack_before``: their rack size before it)."""
    name = game.players[seat]
    left = len(game.rack(seat))
    if isinstance(action, Play):
        placed = rack_before - left
        changed = Counter(game.table.melds) - Counter(table_before.melds)
        shown = "  |  ".join(paint.meld(meld) for meld in changed.elements())
        return (
            f"{name} {verb(name, 'plays', 'play')} {count(placed, 'tile')} ({left} left): {shown}\n"
            f"     table: {paint.table(game.table)}"
        )
    if isinstance(action, Draw):
        return f"{name} {verb(name, 'draws', 'draw')} ({count(left, 'tile')}, pool {game.pool_size})"
    if isinstance(action, Pass):
        return f"{name} {verb(name, 'passes', 'pass')} (the pool is empty)"
    assert isinstance(action, Timeout)
    return f"{name} ran out of time and {verb(name, 'draws', 'draw')} ({count(left, 'tile')})"


def final_scores(game: Game, paint: Painter) -> list[str]:
    """How the round ended, and each player's score and rack."""
    result = game.result
    assert result is not None
    winner = game.players[result.winner]
    lines = [
        paint.bold(
            f"{winner} went out: Rummikub!"
            if result.went_out
            else f"The pool ran out; {winner} {verb(winner, 'has', 'have')} the lowest rack."
        )
    ]
    width = max(len(name) for name in game.players)
    for seat, name in enumerate(game.players):
        rack = paint.tiles(game.rack_tiles(seat)) or "(empty)"
        lines.append(f"  {name:<{width}} {result.scores[seat]:>+5}   rack ({result.values[seat]:>3}): {rack}")
    return lines
