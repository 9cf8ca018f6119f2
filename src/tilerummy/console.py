"""Printing tiles, sets and tables for a terminal, in colour when it can."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TextIO

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
