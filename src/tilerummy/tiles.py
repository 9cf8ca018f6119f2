"""Tiles, their notation, and the physical tile sets.

A :class:`Tile` is what is printed on a tile: a colour and a number, or the
joker. The notation is the colour letter then the number (``R5``, ``K13``) or
``J`` for a joker, case-insensitive on input.

A :class:`Piece` is one physical tile: a standard set holds two pieces of
each tile (three in the six-player set), told apart by their copy number
(``R5#1``, ``R5#2``). The game tracks pieces, so an event log or a
drag-and-drop client can say which R5 moved.
"""

from __future__ import annotations

import enum
import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import NotationError

MIN_NUMBER = 1
MAX_NUMBER = 13
#: The most pieces of one face in any set (jokers in the six-player set).
MAX_COPIES = 4


class Colour(enum.Enum):
    """The four tile colours; the value is the notation letter."""

    RED = "R"
    BLUE = "B"
    YELLOW = "Y"
    BLACK = "K"

    # Each colour is one object, equal only to itself: hashing it by identity
    # (in C) instead of by name (in Python) makes every tile's hash, and so
    # every count of tiles, several times cheaper.
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        return self.value

    @property
    def rank(self) -> int:
        """Position in the order R, B, Y, K used when sorting."""
        return _COLOUR_RANK[self]

    @property
    def suit(self) -> str:
        """The playing-card suit that stands for this colour."""
        return _SUITS[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_RANK = {colour: index for index, colour in enumerate(COLOURS)}
_SUITS = {Colour.RED: "♥", Colour.BLUE: "♣", Colour.YELLOW: "♦", Colour.BLACK: "♠"}
_CARD_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}

_TILE_RE = re.compile(r"^([A-Za-z])([0-9]+)$")

#: Every tile made so far, by colour and number (53 at most).
_FACES: dict[tuple[Colour | None, int], Tile] = {}


@functools.total_ordering
class Tile:
    """A tile face: a colour and a number from 1 to 13, or the joker.

    There is one object per face: ``Tile(colour, number)`` returns it, so
    tiles compare and hash by identity, in C. Counting and matching tiles is
    what the engine and the solver do most.

    >>> Tile.parse("r5")
    Tile.parse('R5')
    >>> str(Tile(Colour.BLACK, 13))
    'K13'
    >>> Tile(Colour.BLACK, 13) is Tile.parse("K13")
    True
    """

    # Read-only attributes rather than properties: reading a slot costs no
    # Python call, and ``is_joker`` and ``sort_key`` are read all the time.
    __slots__ = ("_notation", "colour", "is_joker", "number", "sort_key")
    colour: Colour | None
    number: int
    is_joker: bool
    #: Colour (R, B, Y, K) then number; jokers last.
    sort_key: tuple[int, int]
    _notation: str

    def __new__(cls, colour: Colour | None, number: int) -> Tile:
        tile = _FACES.get((colour, number))
        if tile is not None:
            return tile
        if colour is None:
            if number != 0:
                raise NotationError(f"a joker has no number (got {number})")
        elif not isinstance(colour, Colour):
            raise NotationError(f"{colour!r} is not a colour")
        elif not MIN_NUMBER <= number <= MAX_NUMBER:
            raise NotationError(f"{colour.letter}{number}: numbers run from 1 to 13")
        tile = object.__new__(cls)
        object.__setattr__(tile, "colour", colour)
        object.__setattr__(tile, "number", int(number))
        object.__setattr__(tile, "is_joker", colour is None)
        object.__setattr__(tile, "sort_key", (len(COLOURS), 0) if colour is None else (colour.rank, int(number)))
        object.__setattr__(tile, "_notation", "J" if colour is None else f"{colour.letter}{int(number)}")
        _FACES[(colour, int(number))] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a tile cannot change (tried to set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a tile cannot change (tried to delete {name})")

    def __reduce__(self) -> tuple[type[Tile], tuple[Colour | None, int]]:
        return (Tile, (self.colour, self.number))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile in the notation.

        :raises NotationError: naming the token and what is wrong with it.
        """
        token = text.strip()
        if token.upper() == "J":
            return JOKER
        match = _TILE_RE.match(token)
        if match is None:
            if not token:
                raise NotationError("empty tile: expected a colour and a number, or J")
            raise NotationError(
                f"{shorten(token)!r} is not a tile: write a colour (R, B, Y, K) and a number (R5, K13), "
                "or J for a joker"
            )
        letter, digits = match.groups()
        try:
            colour = Colour(letter.upper())
        except ValueError:
            raise NotationError(f"{shorten(token)}: unknown colour {letter!r} (use R, B, Y or K)") from None
        # Past two digits the number is out of range, and converting it could fail or take long.
        number = int(digits) if len(digits.lstrip("0")) <= 2 else MAX_NUMBER + 1
        if not MIN_NUMBER <= number <= MAX_NUMBER:
            raise NotationError(f"{shorten(token)}: numbers run from 1 to 13")
        return cls(colour, number)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        return self._notation

    def __repr__(self) -> str:
        return f"Tile.parse({self._notation!r})"

    def card(self) -> str:
        """The tile shown as a playing card (``A♥``, ``10♠``, ``Q♦``; ``★`` for a joker)."""
        if self.colour is None:
            return "★"
        return f"{_CARD_NAMES.get(self.number, str(self.number))}{self.colour.suit}"


JOKER = Tile(None, 0)
NUMBERED_TILES: tuple[Tile, ...] = tuple(
    Tile(colour, number) for colour in COLOURS for number in range(MIN_NUMBER, MAX_NUMBER + 1)
)


def shorten(text: str, limit: int = 24) -> str:
    """Text quoted in an error, cut short when it is long (a message stays one readable line)."""
    return text if len(text) <= limit else f"{text[: limit - 1]}… ({len(text)} characters)"


def split_tokens(text: str) -> list[str]:
    """Split a set's text on spaces and commas, dropping empty pieces."""
    return [token for token in re.split(r"[\s,]+", text.strip()) if token]


def parse_tiles(text: str) -> list[Tile]:
    """Read tiles separated by spaces or commas (``"R5 K13, J"``).

    :raises NotationError: naming the first token that is not a tile.
    """
    return [Tile.parse(token) for token in split_tokens(text)]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Print tiles separated by spaces; ``parse_tiles`` reads it back."""
    return " ".join(str(tile) for tile in tiles)


_PIECE_RE = re.compile(r"^(.+)#([0-9]+)$")


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Piece:
    """One physical tile: a face and its copy number (1 to 3, jokers 1 to 4).

    >>> Piece.parse("R5#2").tile
    Tile.parse('R5')
    """

    tile: Tile
    copy: int

    @classmethod
    def parse(cls, text: str) -> Piece:
        """Read ``R5#2`` (or ``J#1``).

        :raises NotationError: when the text is not a tile and a copy number.
        """
        match = _PIECE_RE.match(text.strip())
        if match is None:
            raise NotationError(f"{shorten(text)!r} is not a piece: write a tile, '#' and a copy number (R5#2)")
        tile, copy = Tile.parse(match.group(1)), match.group(2)
        if len(copy.lstrip("0")) > 1 or not 1 <= int(copy) <= MAX_COPIES:
            raise NotationError(f"{shorten(text.strip())}: copy numbers run from 1 to {MAX_COPIES}")
        return cls(tile, int(copy))

    def __str__(self) -> str:
        return f"{self.tile}#{self.copy}"

    def __repr__(self) -> str:
        return f"Piece.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Piece):
            return NotImplemented
        return (self.tile.sort_key, self.copy) < (other.tile.sort_key, other.copy)


class TileSet(enum.Enum):
    """The physical sets the game is played with."""

    STANDARD = "standard"
    SIX_PLAYER = "six-player"

    @property
    def copies(self) -> int:
        """How many pieces of each numbered tile the set holds."""
        return 2 if self is TileSet.STANDARD else 3

    @property
    def jokers(self) -> int:
        return 2 if self is TileSet.STANDARD else 4

    @property
    def max_players(self) -> int:
        return 4 if self is TileSet.STANDARD else 6

    @property
    def size(self) -> int:
        return len(NUMBERED_TILES) * self.copies + self.jokers

    def pieces(self) -> tuple[Piece, ...]:
        """Every piece of the set, in a fixed order (the unshuffled pool)."""
        numbered = tuple(Piece(tile, copy) for tile in NUMBERED_TILES for copy in range(1, self.copies + 1))
        jokers = tuple(Piece(JOKER, copy) for copy in range(1, self.jokers + 1))
        return numbered + jokers

    def count(self, tile: Tile) -> int:
        """How many pieces of this face the set holds."""
        return self.jokers if tile.is_joker else self.copies

    def check(self, tiles: Iterable[Tile], what: str) -> None:
        """Refuse more copies of a tile than this set holds.

        :raises NotationError: naming the tile, e.g. "the racks hold 3 J; the standard set has 2".
        """
        counts = Counter(tiles)
        if max(counts.values(), default=0) <= min(self.copies, self.jokers):
            return  # the common case, seen without going tile by tile
        for tile, count in sorted(counts.items(), key=lambda item: item[0].sort_key):
            if count > self.count(tile):
                raise NotationError(f"{what} hold {count} {tile}; the {self.value} set has {self.count(tile)}")
