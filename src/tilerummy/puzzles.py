"""Certified puzzles: positions whose best play places exactly one set of rack tiles.

A puzzle is a position (a rack, a table, whether the initial meld is made)
and its answer: the one set of rack tiles that places the most tiles. Its
certificate says, for every tile of the answer, how many tiles the rack
places once one copy of that tile is taken away, and each of those is fewer
than the best. That proves the answer is the only set of its size that can
be placed: any other set ``P`` of that size holds fewer copies of some tile
``t`` of the answer than the answer does (two different sets of one size
cannot each hold at least as many copies of every tile as the other), so
``P`` fits in the rack without one copy of ``t``, which places fewer than
the best, so ``P`` cannot be placed either. And no larger set can be placed,
since the solver's best is exact.

A puzzle's level is how much of the table its answer must rearrange: the
fewest sets on the table that any play placing the answer changes
(:func:`tilerummy.solver.changed_sets`, found by the solver's exact
fewest-changes search). An initial meld changes no set: such puzzles are of
level 1, with the opened puzzles that change one set.

Everything here is deterministic: a puzzle comes from a seed and a level,
and the daily puzzle from the date alone.

>>> puzzle = generate(7, level=1)
>>> puzzle == generate(7, level=1)
True
>>> check(puzzle)
>>> judge_answer(puzzle, puzzle.answer_table).solved
True
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import IllegalPlay, InvalidMeld, NotationError, TilerummyError
from .legality import judge_play
from .melds import Meld, Table
from .rules import Rules
from .solver import Solution, solve
from .tiles import COLOURS, JOKER, MAX_NUMBER, Tile, format_tiles, parse_tiles

__all__ = [
    "DAILY_LEVELS",
    "LEVELS",
    "SHAPES",
    "Puzzle",
    "PuzzleError",
    "Shape",
    "Verdict",
    "certify",
    "check",
    "daily",
    "daily_seed",
    "generate",
    "judge_answer",
    "level_of",
    "stream",
]

#: The levels, easiest first: level ``n`` changes ``n`` sets of the table
#: (level 1 also holds the initial melds, which change none; level 4, four or more).
LEVELS = (1, 2, 3, 4)
#: The daily puzzle's level on each day of the week, Monday first.
DAILY_LEVELS = (1, 1, 2, 2, 3, 3, 4)
#: Seeds are 63-bit, as the game's deals are.
_MAX_SEED = 2**63 - 1
#: Positions tried for one puzzle before giving up (far more than any level needs).
_MAX_ATTEMPTS = 20_000


class PuzzleError(TilerummyError):
    """A puzzle that does not hold (a certificate that fails), or one that cannot be made."""


@dataclass(frozen=True, slots=True)
class Shape:
    """How large the positions tried for a level are: sets on the table and rack tiles, each a range."""

    sets: tuple[int, int]
    rack: tuple[int, int]
    opening_rack: tuple[int, int] = (6, 9)
    max_table_tiles: int | None = None  # a table of more tiles is drawn again


#: The positions tried for each level; ``None`` (any level) tries sizes between those of levels 1 and 2.
SHAPES: dict[int | None, Shape] = {
    1: Shape(sets=(2, 4), rack=(3, 6)),
    2: Shape(sets=(3, 5), rack=(4, 6)),
    3: Shape(sets=(4, 6), rack=(4, 7)),
    4: Shape(sets=(5, 7), rack=(5, 7)),
    None: Shape(sets=(2, 5), rack=(3, 6)),
}


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position whose best play places exactly one set of rack tiles, with its proof.

    ``answer`` is that set (sorted); ``answer_table`` one table that places
    it, changing ``changed_sets`` sets of the table, the fewest any play
    placing it changes. ``without`` is the certificate: each distinct tile
    of the answer with the most tiles the rack places once one copy of it is
    taken away, every one below ``best``. ``seed`` is the seed
    :func:`generate` made it from, if it did.
    """

    rack: tuple[Tile, ...]
    table: Table
    initial_meld_done: bool
    answer: tuple[Tile, ...]
    answer_table: Table
    changed_sets: int
    without: tuple[tuple[Tile, int], ...]
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None

    @property
    def best(self) -> int:
        """How many rack tiles the best play places."""
        return len(self.answer)

    @property
    def level(self) -> int:
        return level_of(self.changed_sets)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as ``tilerummy puzzle generate --json`` prints it (the rules aside)."""
        return {
            "rack": format_tiles(self.rack),
            "table": str(self.table),
            "initial_meld_done": self.initial_meld_done,
            "best": self.best,
            "answer_placed": format_tiles(self.answer),
            "answer_table": str(self.answer_table),
            "changed_sets": self.changed_sets,
            "level": self.level,
            "seed": self.seed,
            "without": {str(tile): placed for tile, placed in self.without},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, rules: Rules | None = None) -> Puzzle:
        """A puzzle from :meth:`to_dict`'s form; its certificate is not checked here (see :func:`check`).

        :raises PuzzleError: for a missing or malformed field.
        """
        rules = rules or Rules()
        try:
            without = data.get("without", {})
            return cls(
                rack=tuple(parse_tiles(data["rack"])),
                table=Table.parse(data["table"], wrap=rules.wrap),
                initial_meld_done=bool(data["initial_meld_done"]),
                answer=tuple(parse_tiles(data["answer_placed"])),
                answer_table=Table.parse(data["answer_table"], wrap=rules.wrap),
                changed_sets=int(data["changed_sets"]),
                without=tuple((Tile.parse(tile), int(placed)) for tile, placed in without.items()),
                rules=rules,
                seed=data.get("seed"),
            )
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            if isinstance(error, TilerummyError):
                raise PuzzleError(f"not a puzzle: {error}") from None
            raise PuzzleError(f"not a puzzle: {error!r} is missing or malformed") from None


def level_of(changed_sets: int) -> int:
    """The level of a puzzle whose answer changes this many sets of the table.

    >>> [level_of(changed) for changed in range(6)]
    [1, 1, 2, 3, 4, 4]
    """
    return min(max(changed_sets, 1), LEVELS[-1])


def certify(
    rack: str | Sequence[Tile],
    table: str | Table = "",
    *,
    rules: str | Rules = "standard",
    initial_meld_done: bool = True,
) -> Puzzle | None:
    """The position as a puzzle, if exactly one set of rack tiles places the
    most tiles (None if not, or if nothing can be placed).

    :raises TilerummyError: for bad notation or unknown rules.
    """
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    tiles = parse_tiles(rack) if isinstance(rack, str) else list(rack)
    before = Table.parse(table, wrap=rules.wrap) if isinstance(table, str) else table
    return _certified(tiles, before, rules, initial_meld_done, lambda _: True)


def _certified(
    rack: list[Tile], table: Table, rules: Rules, melded: bool, wanted: Callable[[Solution], bool]
) -> Puzzle | None:
    """The puzzle, if its best play is ``wanted`` and its certificate holds.
    ``wanted`` is asked before the certificate's solves, which cost more."""
    best = solve(rack, table, rules=rules, initial_meld_done=melded)
    if best is None or not wanted(best):
        return None
    without = []
    for tile in sorted(set(best.placed), key=lambda tile: tile.sort_key):
        fewer = list(rack)
        fewer.remove(tile)
        other = solve(fewer, table, rules=rules, initial_meld_done=melded, fewest_changes=False)
        placed = other.tiles_placed if other is not None else 0
        if placed >= best.tiles_placed:
            return None
        without.append((tile, placed))
    return Puzzle(
        rack=tuple(sorted(rack, key=lambda tile: tile.sort_key)),
        table=table,
        initial_meld_done=melded,
        answer=best.placed,
        answer_table=best.table,
        changed_sets=best.changed,
        without=tuple(without),
        rules=rules,
    )


def check(puzzle: Puzzle) -> None:
    """Check a puzzle's claims again with the solver and the rules engine:
    its answer table is a legal play placing the answer, the best play places
    as many tiles, its certificate holds, and its answer changes no more sets
    than it says (and no play placing the answer changes fewer).

    :raises PuzzleError: naming the first claim that fails.
    """
    rules = puzzle.rules
    melded = puzzle.initial_meld_done
    judged = judge_answer(puzzle, puzzle.answer_table)
    if not judged.solved:
        raise PuzzleError(f"the answer table {puzzle.answer_table} does not solve the puzzle: {judged.message}")
    best = solve(puzzle.rack, puzzle.table, rules=rules, initial_meld_done=melded)
    if best is None or best.tiles_placed != puzzle.best:
        found = best.tiles_placed if best is not None else 0
        raise PuzzleError(f"the best play places {found} tiles, not {puzzle.best}")
    if best.changed != puzzle.changed_sets:
        raise PuzzleError(f"the answer changes {best.changed} sets at the fewest, not {puzzle.changed_sets}")
    tiles = sorted(set(puzzle.answer), key=lambda tile: tile.sort_key)
    if [tile for tile, _ in puzzle.without] != tiles:
        raise PuzzleError("the certificate does not name each tile of the answer once")
    for tile, claimed in puzzle.without:
        fewer = list(puzzle.rack)
        fewer.remove(tile)
        other = solve(fewer, puzzle.table, rules=rules, initial_meld_done=melded, fewest_changes=False)
        placed = other.tiles_placed if other is not None else 0
        if placed != claimed or placed >= puzzle.best:
            raise PuzzleError(
                f"without {tile} the rack places {placed} tiles (the certificate says {claimed}, the best is {puzzle.best})"
            )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a proposed table does: ``solved`` when it is legal and places the answer."""

    solved: bool
    legal: bool
    placed: tuple[Tile, ...]
    message: str


def judge_answer(puzzle: Puzzle, table: str | Table) -> Verdict:
    """Judge a proposed table (the whole table after the play) with the rules
    engine: any legal table that places the puzzle's answer solves it."""
    try:
        judged = judge_play(puzzle.table, table, puzzle.rack, puzzle.rules, melded=puzzle.initial_meld_done)
    except (IllegalPlay, InvalidMeld, NotationError) as error:
        return Verdict(False, False, (), f"not a legal play: {error}")
    placed = tuple(sorted(judged.from_rack.elements(), key=lambda tile: tile.sort_key))
    if Counter(placed) == Counter(puzzle.answer):
        return Verdict(
            True, True, placed, f"solved: {format_tiles(placed)} placed, the only way to place {puzzle.best}"
        )
    count = len(placed)
    return Verdict(
        False,
        True,
        placed,
        f"a legal play of {count} tile{'s' if count != 1 else ''}, but the best places {puzzle.best}",
    )


def generate(
    seed: int, *, level: int | None = None, rules: str | Rules = "standard", shape: Shape | None = None
) -> Puzzle:
    """The puzzle of this seed and level (any level when ``None``; see :data:`LEVELS`).

    Positions are drawn from the seed until one is certified at the level:
    the same seed, level, rules and shape always give the same puzzle.
    ``shape``: the sizes of the positions tried (the level's :data:`SHAPES` by default).

    :raises PuzzleError: for an unknown level, or when no puzzle is found.
    :raises TilerummyError: for unknown rules.
    """
    if level is not None and level not in LEVELS:
        raise PuzzleError(f"level {level}: choose from {', '.join(map(str, LEVELS))}")
    if not 0 <= seed <= _MAX_SEED:
        raise PuzzleError(f"seed {seed}: seeds run from 0 to 2**63 - 1")
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    return _generate(seed, level, rules, shape or SHAPES[level])


def _generate(seed: int, level: int | None, rules: Rules, shape: Shape) -> Puzzle:
    rng = random.Random(seed)

    def wanted(rack: Sequence[Tile], melded: bool, play: Solution) -> bool:
        if play.tiles_placed == len(rack):
            return False  # every tile placed: no set to tell apart from another
        if melded and play.changed == 0:
            return False  # a fresh set laid on its own is no puzzle
        return level is None or level_of(play.changed) == level

    for _ in range(_MAX_ATTEMPTS):
        # Initial melds come a third of the time at level 1 (and at any level), never above.
        melded = level not in (None, 1) or rng.random() >= 1 / 3
        rack, table = _position(rng, rules, shape, melded=melded)
        if shape.max_table_tiles is not None and table.tile_count > shape.max_table_tiles:
            continue
        puzzle = _certified(rack, table, rules, melded, functools.partial(wanted, rack, melded))
        if puzzle is not None:
            return replace(puzzle, seed=seed)
    raise PuzzleError(f"no puzzle of level {level} found from seed {seed} in {_MAX_ATTEMPTS} positions")


def stream(seed: int, *, level: int | None = None, rules: str | Rules = "standard") -> Iterator[Puzzle]:
    """Puzzles without end, each from its own seed derived from ``seed`` and its place.

    >>> first, second = itertools.islice(stream(5, level=2), 2)
    >>> first == generate(first.seed or 0, level=2) and first != second
    True
    """
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    for index in itertools.count():
        yield generate(_derived_seed(f"stream {seed} {index}"), level=level, rules=rules)


def daily_seed(date: datetime.date) -> int:
    """The daily puzzle's seed: a hash of the ISO date."""
    return _derived_seed(f"daily {date.isoformat()}")


def daily(date: datetime.date) -> Puzzle:
    """The puzzle of the day, the same for everyone: from the date alone,
    under the standard rules, at the weekday's level (:data:`DAILY_LEVELS`)."""
    return generate(daily_seed(date), level=DAILY_LEVELS[date.weekday()], rules=Rules())


def _derived_seed(text: str) -> int:
    digest = hashlib.sha256(f"tilerummy puzzle {text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & _MAX_SEED


# --- drawing positions ------------------------------------------------------------


def _position(rng: random.Random, rules: Rules, shape: Shape, *, melded: bool) -> tuple[list[Tile], Table]:
    """A random table of valid sets and a rack drawn from the tiles left,
    most of them near the table's tiles (or, for an initial meld, near each other)."""
    left = Counter({tile: rules.tile_set.count(tile) for tile in _ALL_TILES})
    melds: list[Meld] = []
    wanted_sets = rng.randint(*shape.sets)
    jokers_on_table = rng.random() < 0.15
    for _ in range(wanted_sets * 10):
        if len(melds) == wanted_sets:
            break
        tiles = _random_set(rng)
        if jokers_on_table and left[JOKER] and rng.random() < 0.3:
            tiles[rng.randrange(1, len(tiles) - 1) if len(tiles) > 2 else 0] = JOKER
        need = Counter(tiles)
        if any(left[tile] < count for tile, count in need.items()):
            continue
        try:
            meld = Meld.from_tiles(tiles, wrap=rules.wrap)
        except InvalidMeld:
            continue
        left -= need
        melds.append(meld)
    size = rng.randint(*(shape.rack if melded else shape.opening_rack))
    rack: list[Tile] = []
    anchors = [tile for meld in melds for tile in meld.tiles if not tile.is_joker] if melded else []
    while len(rack) < size:
        if left[JOKER] and rng.random() < 0.03:
            tile = JOKER
        elif rng.random() < 0.25 or not (anchors or rack):
            tile = rng.choice([tile for tile in _NUMBERED if left[tile]])
        else:
            near = _near(rng.choice(anchors or [tile for tile in rack if not tile.is_joker] or [Tile.parse("R7")]))
            tile = rng.choice(near)
        if left[tile]:
            left[tile] -= 1
            rack.append(tile)
    return rack, Table(tuple(melds))


def _random_set(rng: random.Random) -> list[Tile]:
    if rng.random() < 0.55:
        length = rng.choice((3, 3, 4, 4, 5))
        start = rng.randint(1, MAX_NUMBER - length + 1)
        colour = rng.choice(COLOURS)
        return [Tile(colour, number) for number in range(start, start + length)]
    number = rng.randint(1, MAX_NUMBER)
    return [Tile(colour, number) for colour in rng.sample(COLOURS, rng.choice((3, 3, 4)))]


def _near(tile: Tile) -> list[Tile]:
    """Tiles that could join a set with this one: its neighbours in its colour, its number in other colours."""
    assert tile.colour is not None
    numbers = [tile.number + step for step in (-2, -1, 1, 2) if 1 <= tile.number + step <= MAX_NUMBER]
    same_number = [Tile(colour, tile.number) for colour in COLOURS if colour is not tile.colour]
    return [*(Tile(tile.colour, number) for number in numbers), *same_number]


_NUMBERED = tuple(Tile(colour, number) for colour in COLOURS for number in range(1, MAX_NUMBER + 1))
_ALL_TILES = (*_NUMBERED, JOKER)
