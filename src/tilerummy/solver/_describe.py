"""The move in words, and the sets it changes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TypeVar

from ..melds import Meld, MeldKind, Table
from ..tiles import Tile, format_tiles
from ._search import FACES, face_of


def set_key(meld: Meld) -> tuple[MeldKind, int, tuple[int, ...]]:
    """What makes two sets the same: kind, number and faces in order (as
    small ints, which :func:`describe` counts and sorts)."""
    return meld.kind, meld.number, tuple(face_of(tile) for tile in meld.tiles)


def changed_sets(before: Table, after: Table) -> list[Meld]:
    """The old sets that do not lie on the table after the play as they were
    (each copy of a set counted once)."""
    left = _counted(set_key(meld) for meld in after.melds)
    changed = []
    for meld in before.melds:
        key = set_key(meld)
        if left.get(key, 0) > 0:
            left[key] -= 1
        else:
            changed.append(meld)
    return changed


def describe(before: Table, after: Table, placed: Counter[Tile]) -> list[str]:
    """The move in short steps a person can follow, such as "add R4 to R5 R6 R7"
    or "make R4 R5 R6 with R4 from your rack, R5 R6 from R5 R6 R7 R8"."""

    # Writing a group out can take a while: each set is written once.
    before_keys = [set_key(meld) for meld in before.melds]
    after_keys = [set_key(meld) for meld in after.melds]
    melds = dict(zip(before_keys, before.melds, strict=True))
    melds.update(zip(after_keys, after.melds, strict=True))
    names: dict[tuple[MeldKind, int, tuple[int, ...]], str] = {}

    def name(meld: tuple[MeldKind, int, tuple[int, ...]]) -> str:
        found = names.get(meld)
        if found is None:
            tiles = melds[meld].tiles
            # Only a joker's token can differ from its tile's notation.
            plain = not any(tile.is_joker for tile in tiles)
            found = names[meld] = " ".join(str(tile) for tile in tiles) if plain else str(melds[meld])
        return found

    # The old sets kept are those of changed_sets' count. Counts are plain
    # dicts of faces (a step is written for every hint and every bot's move).
    old = _counted(before_keys)
    new = _counted(after_keys)
    broken = [key for key, count in _minus(old, new).items() for _ in range(count)]
    created = [key for key, count in _minus(new, old).items() for _ in range(count)]
    from_rack: dict[int, int] = {}
    for tile, count in placed.items():
        face = face_of(tile)
        from_rack[face] = from_rack.get(face, 0) + count
    old_tiles = [_counted(faces) for _, _, faces in broken]
    left_in = [dict(tiles) for tiles in old_tiles]
    steps: list[str] = []

    # Whole sets extended with rack tiles first, then sets made of rack tiles only.
    remaining: list[tuple[MeldKind, int, tuple[int, ...]]] = []
    intact = [True] * len(broken)
    for meld in created:
        tiles = _counted(meld[2])
        for index, old_meld in enumerate(broken):
            # A set extended keeps its kind, and a group its number.
            if old_meld[0] is not meld[0] or (old_meld[0] is MeldKind.GROUP and old_meld[1] != meld[1]):
                continue
            whole = old_tiles[index]
            if not intact[index] or not _within(whole, tiles):
                continue
            added = _minus(tiles, whole)
            if _within(added, from_rack):
                steps.append(f"add {_shown(added)} to {name(old_meld)}")
                from_rack = _minus(from_rack, added)
                left_in[index] = {}
                intact[index] = False
                break
        else:
            remaining.append(meld)
    created, remaining = remaining, []
    for meld in created:
        tiles = _counted(meld[2])
        if _within(tiles, from_rack):
            steps.append(f"lay {name(meld)} as a new {meld[0].value}")
            from_rack = _minus(from_rack, tiles)
        else:
            remaining.append(meld)
    for meld in remaining:
        needed = _counted(meld[2])
        parts: list[str] = []
        for index, old_meld in enumerate(broken):
            left = left_in[index]
            if not left:
                continue
            taken = _common(needed, left)
            if taken:
                is_whole = taken == old_tiles[index]
                parts.append(name(old_meld) if is_whole else f"{_shown(taken)} from {name(old_meld)}")
                needed = _minus(needed, taken)
                left_in[index] = _minus(left, taken)
        mine = _common(needed, from_rack)
        if mine:
            parts.append(f"{_shown(mine)} from your rack")
            from_rack = _minus(from_rack, mine)
        steps.append(f"make the {meld[0].value} {name(meld)} with " + ", ".join(parts))
    return steps


_Key = TypeVar("_Key")


def _counted(items: Iterable[_Key]) -> dict[_Key, int]:
    counts: dict[_Key, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _minus(more: dict[_Key, int], less: dict[_Key, int]) -> dict[_Key, int]:
    """The counts of ``more`` left above zero once ``less`` is taken off."""
    return {item: count - less.get(item, 0) for item, count in more.items() if count > less.get(item, 0)}


def _common(one: dict[int, int], other: dict[int, int]) -> dict[int, int]:
    """The counts both hold."""
    return {item: min(count, other[item]) for item, count in one.items() if item in other}


def _within(part: dict[int, int], whole: dict[int, int]) -> bool:
    return all(whole.get(item, 0) >= count for item, count in part.items())


def _shown(faces: dict[int, int]) -> str:
    return format_tiles(sorted(FACES[face] for face, count in faces.items() for _ in range(count)))
