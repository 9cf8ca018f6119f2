"""Sets on the table (groups and runs), what their jokers stand for, and tables.

How a written set is read (the project's decision where the rules are silent):

* A **run** written in order is read as written, and a joker's place fixes its
  number: ``R5 R6 J`` is R5-R6-R7, ``J R5 R6`` is R4-R5-R6. A joker written
  where no number can be (``J R1 R2``; ``R12 R13 J`` without ``wrap``) makes
  the set invalid rather than being moved.
* A run whose numbered tiles are **not written in order** (``R7 J R5``) is
  sorted: jokers first fill the gaps between the numbers, then extend the run
  upwards, then downwards once 13 (or the wrapped 1) is reached.
* A set with a single numbered tile and two or three jokers (``R10 J J``) can
  be a run or a group; it is read as a **run** when the run is valid as
  written, otherwise as a group. A joker may name its meaning to settle this:
  ``R10 J(B10) J(Y10)`` is a group, ``J(R9) R10 J`` a run.
* In a **group**, a joker stands for the group's number in one of the missing
  colours; with several missing colours it may stand for any of them (a group
  of three with one joker: "B5|Y5").
"""

from __future__ import annotations

import enum
import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .errors import InvalidMeld, NotationError
from .tiles import COLOURS, JOKER, MAX_NUMBER, Colour, Tile, split_tokens

#: With ``wrap``, a 1 may stand after 13, as the run's 14th number.
WRAPPED_ONE = MAX_NUMBER + 1

_HINTED_JOKER_RE = re.compile(r"^[Jj]\((.*)\)$")


class MeldKind(enum.Enum):
    GROUP = "group"
    RUN = "run"

    # One object per kind: hashed by identity, in C (see Colour).
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Token:
    """A tile as written in a set, with the meaning a joker was given, if any."""

    tile: Tile
    hint: Tile | None = None

    @classmethod
    def parse(cls, text: str) -> Token:
        match = _HINTED_JOKER_RE.match(text)
        if match is None:
            return cls(Tile.parse(text))
        hint = Tile.parse(match.group(1))
        if hint.is_joker:
            raise NotationError(f"{text}: a joker stands for a numbered tile")
        return cls(JOKER, hint)

    def __str__(self) -> str:
        return f"J({self.hint})" if self.hint is not None else str(self.tile)


def _number_tile(colour: Colour, number: int) -> Tile:
    """The tile at a run position; the wrapped 14th number is a 1."""
    return Tile(colour, 1 if number == WRAPPED_ONE else number)


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set: a group or a run, its tiles in order.

    ``number`` is a group's number or the number at a run's first place;
    ``colour`` is a run's colour (``None`` for a group). Build one with
    :meth:`parse` or :meth:`from_tiles`, which check it.

    >>> Meld.parse("R5 R6 J").jokers
    (frozenset({Tile.parse('R7')}),)
    >>> Meld.parse("K10 B10 Y10").value
    30
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    number: int
    colour: Colour | None = field(default=None)

    @classmethod
    def parse(cls, text: str, *, wrap: bool = False) -> Meld:
        """Read a set from its notation.

        :raises NotationError: when a token is not a tile.
        :raises InvalidMeld: when the tiles do not form a set, naming why.
        """
        tokens = [Token.parse(token) for token in split_tokens(text)]
        return read_meld(tokens, wrap=wrap)

    @classmethod
    def from_tiles(cls, tiles: Iterable[Tile], *, wrap: bool = False) -> Meld:
        """Read a set from tiles, as :meth:`parse` reads their notation."""
        return _meld_of(tuple(tiles), wrap)

    @property
    def is_run(self) -> bool:
        return self.kind is MeldKind.RUN

    @property
    def is_group(self) -> bool:
        return self.kind is MeldKind.GROUP

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    @property
    def jokers(self) -> tuple[frozenset[Tile], ...]:
        """For each joker, in order, the tiles it may stand for (one in a run)."""
        if self.colour is not None:
            return tuple(
                frozenset({_number_tile(self.colour, self.number + place)})
                for place, tile in enumerate(self.tiles)
                if tile.is_joker
            )
        present = {tile.colour for tile in self.tiles}
        missing = frozenset(Tile(colour, self.number) for colour in COLOURS if colour not in present)
        return tuple(missing for tile in self.tiles if tile.is_joker)

    @property
    def value(self) -> int:
        """The sum of the numbers, a joker counting as the number it stands for."""
        if self.colour is not None:
            return sum(_number_tile(self.colour, self.number + place).number for place in range(len(self.tiles)))
        return self.number * len(self.tiles)

    def __str__(self) -> str:
        tokens = [str(tile) for tile in self.tiles]
        if self.is_group and self._plain_reading_is_run():
            missing = sorted(next(iter(self.jokers)), key=lambda tile: tile.sort_key)
            hints = iter(missing)
            tokens = [f"J({next(hints)})" if tile.is_joker else str(tile) for tile in self.tiles]
        return " ".join(tokens)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def _plain_reading_is_run(self) -> bool:
        try:
            return read_meld([Token(tile) for tile in self.tiles], wrap=True).is_run
        except InvalidMeld:
            return False


@dataclass(frozen=True, slots=True)
class WrittenMeld:
    """A set as written: its meld, and the meanings its jokers were given.

    A :class:`Meld` keeps the tiles only, so in a group it cannot tell which
    joker was named what; this keeps the names, for reports about the text.

    >>> [joker_meanings_text(meaning) for meaning in WrittenMeld.parse("J(B10) R10 J").jokers]
    ['B10', 'Y10|K10']
    >>> str(WrittenMeld.parse("J(K10) R10 J"))
    'R10 J(K10) J'
    """

    meld: Meld
    tokens: tuple[Token, ...]

    @classmethod
    def parse(cls, text: str, *, wrap: bool = False) -> WrittenMeld:
        """Read a set, as :meth:`Meld.parse` does.

        :raises NotationError: when a token is not a tile.
        :raises InvalidMeld: when the tiles do not form a set, naming why.
        """
        tokens = tuple(Token.parse(token) for token in split_tokens(text))
        return cls(read_meld(tokens, wrap=wrap), tokens)

    @property
    def named(self) -> tuple[Tile, ...]:
        return tuple(token.hint for token in self.tokens if token.hint is not None)

    @property
    def jokers(self) -> tuple[frozenset[Tile], ...]:
        """For each joker, in written order, the tiles it may stand for."""
        if self.meld.is_run or not self.named:
            return self.meld.jokers
        # In a run a joker's place fixes it; in a group a name does, and the others share what is left.
        free = (self.meld.jokers[0] if self.meld.jokers else frozenset()) - frozenset(self.named)
        return tuple(
            free if token.hint is None else frozenset({token.hint}) for token in self.tokens if token.tile.is_joker
        )

    def __str__(self) -> str:
        """The set in order, keeping the names its group jokers were given."""
        if self.meld.is_run or not self.named:
            return str(self.meld)
        numbered = [str(tile) for tile in self.meld.tiles if not tile.is_joker]
        return " ".join(numbered + [str(token) for token in self.tokens if token.tile.is_joker])


def joker_meanings_text(meaning: frozenset[Tile]) -> str:
    """``"R7"`` for a definite joker, ``"B5|Y5"`` when it may stand for either."""
    return "|".join(str(tile) for tile in sorted(meaning, key=lambda tile: tile.sort_key))


@functools.lru_cache(maxsize=4096)
def _meld_of(tiles: tuple[Tile, ...], wrap: bool) -> Meld:
    # Every play checked reads its table's sets afresh, and most of them lay
    # on the table before: reading a set is a pure function of its tiles.
    return read_meld([Token(tile) for tile in tiles], wrap=wrap)


class _Written:
    """A set's tiles as written, spelled out only when an error names them
    (most sets read are valid, and spelling them out would cost more than
    reading them)."""

    __slots__ = ("tokens",)

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens

    def __str__(self) -> str:
        return " ".join(str(token) for token in self.tokens)

    def __bool__(self) -> bool:
        return bool(self.tokens)


def read_meld(tokens: Sequence[Token], *, wrap: bool = False) -> Meld:
    """Read written tiles as a set (see the module's notes on how).

    :raises InvalidMeld: naming why the tiles are not a set.
    """
    written = _Written(tokens)
    if len(tokens) < 3:
        raise InvalidMeld(f"{written or '(empty)'}: a set needs at least 3 tiles")
    numbered = [token.tile for token in tokens if not token.tile.is_joker]
    if not numbered:
        raise InvalidMeld(f"{written}: a set needs at least one numbered tile")
    if len(set(numbered)) < len(numbered):
        twice = [tile for tile, count in Counter(numbered).items() if count > 1]
        raise InvalidMeld(f"{written}: {twice[0]} appears twice; a set holds each tile once")
    hints = [token.hint for token in tokens if token.hint is not None]
    numbers = {tile.number for tile in numbered}
    colours = {tile.colour for tile in numbered}
    can_be_group = len(numbers) == 1
    can_be_run = len(colours) == 1
    if hints:
        can_be_group = can_be_group and all(hint.number in numbers for hint in hints)
        can_be_run = can_be_run and all(hint.colour in colours for hint in hints)
    if can_be_run:
        try:
            return _read_run(tokens, written, wrap=wrap)
        except InvalidMeld:
            if not can_be_group:
                raise
    if can_be_group:
        return _read_group(tokens, written)
    if hints and (len(numbers) == 1 or len(colours) == 1):
        raise InvalidMeld(f"{written}: a joker's meaning does not fit the set")
    raise InvalidMeld(
        f"{written}: neither a group (one number, different colours) nor a run (one colour, consecutive numbers)"
    )


def _read_group(tokens: Sequence[Token], written: _Written) -> Meld:
    if len(tokens) > len(COLOURS):
        raise InvalidMeld(f"{written}: a group has at most 4 tiles, one of each colour")
    numbered = sorted((token.tile for token in tokens if not token.tile.is_joker), key=lambda t: t.sort_key)
    number = numbered[0].number
    present = {tile.colour for tile in numbered}
    hints = [token.hint for token in tokens if token.hint is not None]
    for hint in hints:
        if hint.colour in present:
            raise InvalidMeld(f"{written}: a joker cannot stand for {hint}, already in the group")
    if len(set(hints)) < len(hints):
        raise InvalidMeld(f"{written}: two jokers cannot stand for the same tile")
    jokers = len(tokens) - len(numbered)
    return Meld(MeldKind.GROUP, tuple(numbered) + (JOKER,) * jokers, number)


def _read_run(tokens: Sequence[Token], written: _Written, *, wrap: bool) -> Meld:
    colour = next(token.tile.colour for token in tokens if token.tile.colour is not None)
    assert colour is not None  # a run has a numbered tile
    start = _start_as_written(tokens, wrap=wrap)
    if start is None:
        try:
            return _read_unordered_run(tokens, colour, written, wrap=wrap)
        except InvalidMeld:
            _raise_on_misplaced_wrap(tokens, written, wrap=wrap)
            raise
    end = start + len(tokens) - 1
    if start < 1:
        first = next(token.tile for token in tokens if not token.tile.is_joker)
        raise InvalidMeld(f"{written}: a joker before {first} would stand for a number below 1")
    if end > MAX_NUMBER and not (wrap and end == WRAPPED_ONE):
        if wrap:
            raise InvalidMeld(f"{written}: nothing may follow the 1 that comes after 13")
        hint = " (only a 1 may, with the wrap option)" if end == WRAPPED_ONE else ""
        raise InvalidMeld(f"{written}: a joker after 13 would stand for a number above 13{hint}")
    return _checked_run(tokens, colour, start, written)


def _start_as_written(tokens: Sequence[Token], *, wrap: bool) -> int | None:
    """The number at the first place if the written order is consistent, else None.

    With ``wrap``, a 1 written after other tiles may be the 1 that follows 13.
    """
    consistent = []
    for wrapped in (False, True) if wrap else (False,):
        starts = set()
        for place, token in enumerate(tokens):
            tile = token.hint if token.hint is not None else token.tile
            if tile.is_joker:
                continue
            number = WRAPPED_ONE if wrapped and tile.number == 1 and place > 0 else tile.number
            starts.add(number - place)
        if len(starts) == 1:
            consistent.append(starts.pop())
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    for start in consistent:
        if start >= 1 and start + len(tokens) - 1 <= top:
            return start
    return consistent[0] if consistent else None


def _raise_on_misplaced_wrap(tokens: Sequence[Token], written: _Written, *, wrap: bool) -> None:
    """Name the problem when a 1 is written straight after a 13."""
    numbers = [token.tile.number for token in tokens]
    for place in range(len(numbers) - 1):
        if numbers[place] == MAX_NUMBER and numbers[place + 1] == 1:
            if not wrap:
                raise InvalidMeld(f"{written}: 1 follows 13 only with the wrap option")
            raise InvalidMeld(f"{written}: nothing may follow the 1 that comes after 13")


def _read_unordered_run(tokens: Sequence[Token], colour: Colour, written: _Written, *, wrap: bool) -> Meld:
    # Numbers known from the tiles and from jokers that name their meaning.
    known: dict[int, Token] = {}
    for token in tokens:
        tile = token.hint if token.hint is not None else token.tile
        if not tile.is_joker:
            if tile.number in known:
                raise InvalidMeld(f"{written}: two tiles stand for {_number_tile(colour, tile.number)}")
            known[tile.number] = token
    free_jokers = len(tokens) - len(known)
    readings = [known]
    if wrap and 1 in known and 2 not in known:
        # Read the 1 as the one that follows 13.
        readings.append({(WRAPPED_ONE if number == 1 else number): token for number, token in known.items()})
    fewest_missing: list[int] | None = None
    for reading in readings:
        numbers = sorted(reading)
        low, high = numbers[0], numbers[-1]
        missing = [n for n in range(low, high + 1) if n not in reading]
        if len(missing) > free_jokers:
            if fewest_missing is None or len(missing) < len(fewest_missing):
                fewest_missing = missing
            continue
        spare = free_jokers - len(missing)
        top = WRAPPED_ONE if wrap and low >= 2 else MAX_NUMBER
        above = min(spare, max(0, top - high))
        start = low - (spare - above)
        if start < 1:
            raise InvalidMeld(f"{written}: too many jokers for a run of {colour.letter}")
        ordered = [reading.get(number, Token(JOKER)) for number in range(start, start + len(tokens))]
        return _checked_run(ordered, colour, start, written)
    assert fewest_missing is not None
    names = " ".join(str(_number_tile(colour, n)) for n in fewest_missing)
    raise InvalidMeld(
        f"{written}: a run needs consecutive numbers ({names} missing, "
        f"{free_jokers} joker{'s' if free_jokers != 1 else ''})"
    )


def _checked_run(tokens: Sequence[Token], colour: Colour, start: int, written: _Written) -> Meld:
    for place, token in enumerate(tokens):
        if token.hint is not None and token.hint != _number_tile(colour, start + place):
            raise InvalidMeld(
                f"{written}: a joker at place {place + 1} stands for "
                f"{_number_tile(colour, start + place)}, not {token.hint}"
            )
    if start + len(tokens) - 1 == WRAPPED_ONE and start == 1:
        raise InvalidMeld(f"{written}: a run holds each number once")
    return Meld(MeldKind.RUN, tuple(token.tile for token in tokens), start, colour)


@dataclass(frozen=True, slots=True)
class Table:
    """The sets on the table, in the order they lie.

    >>> table = Table.parse("R5 R6 R7 | k10, b10, y10")
    >>> str(table)
    'R5 R6 R7 | B10 Y10 K10'
    >>> Table.parse(str(table)) == table
    True
    """

    melds: tuple[Meld, ...] = ()

    @classmethod
    def parse(cls, text: str, *, wrap: bool = False) -> Table:
        """Read sets separated by ``|``; empty text is the empty table.

        :raises NotationError: when a token is not a tile.
        :raises InvalidMeld: naming the first set that is not valid, by its place.
        """
        parts = list(text.split("|"))
        if not text.strip():
            return cls()
        melds = []
        for index, part in enumerate(parts, start=1):
            try:
                melds.append(Meld.parse(part, wrap=wrap))
            except InvalidMeld as error:
                raise InvalidMeld(f"set {index}: {error}") from None
        return cls(tuple(melds))

    def __str__(self) -> str:
        return " | ".join(str(meld) for meld in self.melds)

    def __repr__(self) -> str:
        return f"Table.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.melds)

    def __iter__(self) -> Iterator[Meld]:
        return iter(self.melds)

    def tiles(self) -> Counter[Tile]:
        """Every face on the table, jokers counted as ``J``."""
        return Counter(itertools.chain.from_iterable(meld.tiles for meld in self.melds))

    @property
    def tile_count(self) -> int:
        return sum(len(meld) for meld in self.melds)

    @property
    def value(self) -> int:
        return sum(meld.value for meld in self.melds)
