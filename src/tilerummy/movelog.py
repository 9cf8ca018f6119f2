"""The move log: what a turn did, in one line ("Bruno placed R7 Y7 and moved K7 from K4–K7 to a new group with R7 Y7").

A play is read from the table before and after it: the rack tiles laid, and
the table tiles that left their set, each named with the set it left and the
set it joined (a run by its ends, "K4–K7", any other set by its tiles). The
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
    """Table tiles that went to another set: of a ``kind`` ("run" or "group"), ``new`` or already there.

    ``sources`` are the sets they left and ``into`` the set they joined, as both were before the play
    (None for a new set, whose ``others`` are its other tiles).
    """

    tiles: tuple[Tile, ...]
    kind: str
    new: bool
    sources: tuple[Meld, ...] = ()
    into: Meld | None = None
    others: tuple[Tile, ...] = ()


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
    # What each set before the play lost: where the moved tiles came from.
    lost = [Counter(meld.tiles) for meld in before]
    for meld, origin in zip(after, origins, strict=True):
        if origin is not None:
            lost[origin] -= Counter(meld.tiles)
    placed: list[Tile] = []
    moved: list[Moved] = []
    for meld, origin, rest in zip(after, origins, rests, strict=True):
        moved_here: list[Tile] = []
        sources: list[int] = []
        for tile in rest:
            if on_table[tile] > 0:
                on_table[tile] -= 1
                moved_here.append(tile)
                source = next((index for index, left in enumerate(lost) if left[tile] > 0), None)
                if source is not None:
                    lost[source][tile] -= 1
                    if source not in sources:
                        sources.append(source)
            else:
                placed.append(tile)
        if moved_here:
            into = before[origin] if origin is not None else None
            left = Counter(moved_here)
            others: list[Tile] = []
            for tile in meld.tiles if into is None else ():
                if left[tile] > 0:
                    left[tile] -= 1
                else:
                    others.append(tile)
            moved.append(
                Moved(
                    tuple(moved_here),
                    meld.kind.value,
                    new=origin is None,
                    sources=tuple(before[source] for source in sources),
                    into=into,
                    others=tuple(others),
                )
            )
    return TableChange(tuple(placed), tuple(moved), origins)


def set_name(meld: Meld, tiles: Callable[[Iterable[Tile]], str] = lambda shown: " ".join(map(str, shown))) -> str:
    """A set as the log names it: a run by its ends ("K4–K7"), any other set by its tiles ("R7 Y7 K7")."""
    if meld.kind.value == "run" and len(meld.tiles) > 2:
        return f"{tiles(meld.tiles[:1])}–{tiles(meld.tiles[-1:])}"
    return tiles(meld.tiles)


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


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
        drew = "no tile" if count == 0 else f"{count} tile{'s' if count != 1 else ''}"
        return f"{name} ran out of time and drew {drew}"
    assert isinstance(action, Play)
    change = table_change(before, after)
    clauses = [f"placed {tiles(change.placed)}"] if change.placed else []
    for move in change.moved:
        moved = f"moved {tiles(move.tiles)} from {_and([set_name(source, tiles) for source in move.sources])}"
        if move.into is not None:
            clauses.append(f"{moved} to {set_name(move.into, tiles)}")
        elif move.others:
            clauses.append(f"{moved} to a new {move.kind} with {tiles(move.others)}")
        else:
            clauses.append(f"{moved} to make a new {move.kind}")
    if not clauses:
        return f"{name} rearranged the table"
    return f"{name} {_and(clauses)}"


def keep_order(shown: Sequence[Meld], table: Sequence[Meld]) -> list[Meld]:
    """The table's sets in the order they were shown: each in the place of the set it grew from, new ones last.

    So the sets keep their numbers from turn to turn.
    """
    origins = pair_sets([meld.tiles for meld in shown], [meld.tiles for meld in table])
    places = [(origin if origin is not None else len(shown) + index, index) for index, origin in enumerate(origins)]
    return [table[index] for _, index in sorted(places)]
