"""The move log: what a turn did, in one line ("Bruno placed R5 R6 R7 and moved K7 to a new group").

A play is read from the table before and after it: the rack tiles laid, and
the table tiles that left their set (and the kind of set they went to). The
browser client words its log the same way, in ``static/js/movelog.js``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .game import Action, Draw, Pass, Play, Timeout
from .melds import Meld
from .tiles import Tile


@dataclass(frozen=True)
class Moved:
    """Table tiles that went to another set: a ``kind`` ("run" or "group"), ``new`` or already there."""

    tiles: tuple[Tile, ...]
    kind: str
    new: bool


@dataclass(frozen=True)
class TableChange:
    """What a play did: ``placed`` from the rack, ``moved`` on the table, and where each new set came from."""

    placed: tuple[Tile, ...]
    moved: tuple[Moved, ...]
    #: For each set after the play, the index of the set before it that it grew from (None: a new set).
    origins: tuple[int | None, ...]


def pair_sets(before: Sequence[Iterable[Tile]], after: Sequence[Iterable[Tile]]) -> tuple[int | None, ...]:
    """For each set after, the set before that shares most tiles with it (each used once; None: none left)."""
    before_counts = [Counter(tiles) for tiles in before]
    after_counts = [Counter(tiles) for tiles in after]
    pairs = sorted(
        (
            (-sum((new & old).values()), index, source)
            for index, new in enumerate(after_counts)
            for source, old in enumerate(before_counts)
        ),
    )
    origins: list[int | None] = [None] * len(after_counts)
    used: set[int] = set()
    for negative_shared, index, source in pairs:
        if negative_shared == 0 or origins[index] is not None or source in used:
            continue
        origins[index] = source
        used.add(source)
    return tuple(origins)


def table_change(before: Sequence[Meld], after: Sequence[Meld]) -> TableChange:
    """The rack tiles a play laid and the table tiles it moved, from the table before and after it."""
    origins = pair_sets([meld.tiles for meld in before], [meld.tiles for meld in after])
    on_table = Counter(tile for meld in before for tile in meld.tiles)
    rests: list[list[Tile]] = []
    for meld, origin in zip(after, origins, strict=True):
        stays = Counter(before[origin].tiles) if origin is not None else Counter[Tile]()
        rest = []
        for tile in meld.tiles:
            if stays[tile] > 0:
                stays[tile] -= 1
                on_table[tile] -= 1
            else:
                rest.append(tile)
        rests.append(rest)
    placed: list[Tile] = []
    moved: list[Moved] = []
    for meld, origin, rest in zip(after, origins, rests, strict=True):
        moved_here = []
        for tile in rest:
            if on_table[tile] > 0:
                on_table[tile] -= 1
                moved_here.append(tile)
            else:
                placed.append(tile)
        if moved_here:
            moved.append(Moved(tuple(moved_here), meld.kind.value, new=origin is None))
    return TableChange(tuple(placed), tuple(moved), origins)


def move_line(
    name: str,
    action: Action,
    before: Sequence[Meld],
    after: Sequence[Meld],
    *,
    drawn: Sequence[Tile] | int,
    tiles: Callable[[Iterable[Tile]], str] = lambda shown: " ".join(map(str, shown)),
) -> str:
    """The log's line for a turn. ``drawn``: the tiles drawn when the reader may see them, else how many;
    ``tiles`` writes tiles (a painter's colours)."""
    if isinstance(action, Draw):
        return f"{name} drew {tiles(drawn)}" if not isinstance(drawn, int) else f"{name} drew a tile"
    if isinstance(action, Pass):
        return f"{name} passed"
    count = drawn if isinstance(drawn, int) else len(drawn)
    if isinstance(action, Timeout):
        return f"{name} ran out of time: {count} tile{'s' if count != 1 else ''}"
    assert isinstance(action, Play)
    change = table_change(before, after)
    clauses = [f"placed {tiles(change.placed)}"] if change.placed else []
    clauses += [
        f"moved {tiles(move.tiles)} to {'a new' if move.new else 'another'} {move.kind}" for move in change.moved
    ]
    if not clauses:
        return f"{name} rearranged the table"
    if len(clauses) == 1:
        return f"{name} {clauses[0]}"
    return f"{name} {', '.join(clauses[:-1])} and {clauses[-1]}"


def keep_order(shown: Sequence[Meld], table: Sequence[Meld]) -> list[Meld]:
    """The table's sets in the order they were shown: each in the place of the set it grew from, new ones last.

    So the sets keep their numbers from turn to turn.
    """
    origins = pair_sets([meld.tiles for meld in shown], [meld.tiles for meld in table])
    places = [(origin if origin is not None else len(shown) + index, index) for index, origin in enumerate(origins)]
    return [table[index] for _, index in sorted(places)]
