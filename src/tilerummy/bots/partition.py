"""A quick test of whether a rack might go out: can its tiles (with the table's) all form sets?

The exact solver answers "can the whole rack be laid" too, but on racks of
forty tiles and more it takes seconds to minutes a move. A player that only
plays to go out asks that every turn, and the answer is nearly always no.
:func:`could_go_out` says no far sooner, and never wrongly: it is a
necessary condition. It asks whether the tiles that must end on the table
(the rack's, and the table's once the seat has opened) split into runs and
groups, number by number from 1 to 13, keeping for each colour the lengths
of the runs still open (1, 2, or 3 and more), with jokers as any tile. It
relaxes what it does not model (a joker left over, where runs that wrap
round begin, the initial meld's threshold), so a yes must still be checked by the solver.

>>> from tilerummy.tiles import parse_tiles
>>> from tilerummy.melds import Table
>>> from tilerummy.rules import Rules
>>> could_go_out(parse_tiles("R1 R2 R3 B5 Y5 K5"), Table(()), Rules(), melded=True)
True
>>> could_go_out(parse_tiles("R1 R2 R3 B5 Y5 K6"), Table(()), Rules(), melded=True)
False
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from ..melds import Table
from ..rules import Rules
from ..tiles import COLOURS, MAX_NUMBER, MIN_NUMBER, Tile

#: The open runs of one colour: their lengths, 1, 2 or 3 (three and more), sorted.
Runs = tuple[int, ...]

#: A rack and the table it may use holding this many tiles (more than half the
#: tile set) seldom fail to make sets of them all, and the quick test slows
#: down past it: callers ask the solver, or take the answer to be yes.
QUICK_TILES = 56


def could_go_out(rack: Sequence[Tile], table: Table, rules: Rules, *, melded: bool) -> bool:
    """False when ``rack`` certainly cannot all be laid in one play on ``table``
    (a seat that has not opened lays its rack as new sets); True when it might."""
    tiles: Counter[Tile] = Counter(rack)
    if melded:
        tiles.update(table.tiles())
    jokers = tiles.pop(_joker(), 0)
    counts = tuple(tuple(tiles.get(Tile(colour, number), 0) for colour in COLOURS) for number in _NUMBERS)
    copies = rules.tile_set.copies
    return _splits(counts, jokers, copies if rules.wrap else 0, copies)


_NUMBERS = range(MIN_NUMBER, MAX_NUMBER + 1)


def _joker() -> Tile:
    return Tile(None, 0)


def _splits(counts: tuple[tuple[int, ...], ...], jokers: int, wrapping: int, most_runs: int) -> bool:
    """Whether the tiles (``counts[number - 1][colour]``) and up to ``jokers`` jokers split into sets;
    ``wrapping`` runs of each colour may come round the corner from 13 to 1."""
    # A state: each colour's open runs, and the jokers still free. A run that
    # wraps is taken as already long at 1: its tiles there may go on it or not.
    start: tuple[tuple[Runs, ...], int] = (tuple((3,) * wrapping for _ in COLOURS), jokers)
    states = {start}
    for number_counts in counts:
        following: set[tuple[tuple[Runs, ...], int]] = set()
        for runs, free in states:
            following.update(_steps(runs, number_counts, free, most_runs))
        if not following:
            return False
        states = following
    # Runs still short at 13 could only go on round the corner, where runs wrap.
    return wrapping > 0 or any(all(length == 3 for colour in runs for length in colour) for runs, _ in states)


def _steps(
    runs: tuple[Runs, ...], counts: tuple[int, ...], free: int, most_runs: int
) -> Iterator[tuple[tuple[Runs, ...], int]]:
    """The states after one number: each colour's tiles (some jokers among them)
    extend its open runs (the short ones must go on), start new ones, or go to groups."""
    for used in _joker_shares(free, len(counts)):
        per_colour = [
            _colour_options(colour_runs, count + extra, most_runs)
            for colour_runs, count, extra in zip(runs, counts, used, strict=True)
        ]
        if any(not options for options in per_colour):
            continue
        for choice in itertools.product(*per_colour):
            grouped = [in_groups for _, in_groups in choice]
            if _groups_possible(grouped):
                yield tuple(after for after, _ in choice), free - sum(used)


@cache
def _joker_shares(free: int, colours: int) -> tuple[tuple[int, ...], ...]:
    """Every way of using up to ``free`` jokers among the colours at one number."""
    return tuple(shares for shares in itertools.product(range(free + 1), repeat=colours) if sum(shares) <= free)


@cache
def _colour_options(runs: Runs, tiles: int, most_runs: int) -> tuple[tuple[Runs, int], ...]:
    """For one colour at one number: the runs left open after it (``most_runs`` at most),
    and how many of its tiles go to groups."""
    short = sum(1 for length in runs if length < 3)
    if tiles < short:
        return ()
    long = len(runs) - short
    kept_short = tuple(length + 1 for length in runs if length < 3)
    options: set[tuple[Runs, int]] = set()
    for extended in range(long + 1):  # long runs that go on; the others end here
        rest = tiles - short - extended
        if rest < 0:
            break
        for started in range(min(rest, most_runs - short - extended) + 1):
            after = tuple(sorted((*(min(length, 3) for length in kept_short), *([3] * extended), *([1] * started))))
            options.add((after, rest - started))
    return tuple(sorted(options))


def _groups_possible(grouped: Iterable[int]) -> bool:
    """Whether tiles of one number, ``grouped[colour]`` of each colour, split into groups of 3 or 4 colours."""
    counts = list(grouped)
    total = sum(counts)
    if total == 0:
        return True
    most = max(counts)
    return any(3 * groups <= total <= 4 * groups for groups in range(max(most, 1), total // 3 + 1))
