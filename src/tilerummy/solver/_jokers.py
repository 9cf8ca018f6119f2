"""The table's jokers: the ways to treat them, and the table after a play
with each joker that keeps its meaning shown as a joker again."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..legality import joker_readings
from ..melds import Meld, MeldKind, Table
from ..rules import JokerReplacement, Rules
from ..tiles import JOKER, Tile
from ._keep import NO_FACES
from ._search import FACE_COUNT, FACES, INDEX, JOKER_INDEX, counts_of, face_of, search


class JokersAlone(Exception):
    """A layout puts jokers that keep their meaning in a set with no other
    tile (only possible with the six-player set's four jokers): the search
    counts them as the tiles they stand for, but the rules want a numbered
    tile in every set, so the layout is no play. ``face``: the face of a
    joker left so."""

    def __init__(self, message: str, face: int | None = None) -> None:
        super().__init__(message)
        self.face = face


@dataclass(frozen=True, slots=True)
class JokerPlan:
    """One way to treat the table's jokers: ``kept`` maps a face to how many
    jokers keep standing for it; ``freed`` jokers go anywhere; ``forced``
    rack copies must be played to replace them."""

    must: list[int]
    kept: Counter[int]
    freed: int
    forced: Counter[int]
    # Per set on the table: the faces its jokers keep standing for, or None
    # when one of them is freed. Rebuilding an old set must follow this,
    # not any reading: a group's joker may stand for a colour another joker keeps.
    kept_by_set: tuple[Counter[int] | None, ...]


def joker_plans(before: Table, rack_counts: Sequence[int], rules: Rules) -> list[JokerPlan]:
    """Every way to treat the table's jokers, keeping all of them first."""
    table_counts = counts_of(before.tiles())
    readings = joker_readings(before)
    joker_counts = [sum(tile.is_joker for tile in meld.tiles) for meld in before.melds]
    free = rules.joker_replacement is JokerReplacement.FREE
    from_table = rules.joker_replacement is JokerReplacement.RACK_OR_TABLE
    jokers = len(readings[0])
    role_sets = [(False,) * jokers] if free else list(itertools.product((True, False), repeat=jokers))
    plans: list[JokerPlan] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for reading in readings:
        for roles in role_sets:
            kept = Counter(INDEX[tile] for tile, keep in zip(reading, roles, strict=True) if keep)
            freed = Counter(INDEX[tile] for tile, keep in zip(reading, roles, strict=True) if not keep)
            key = (tuple(sorted(kept.elements())), () if free else tuple(sorted(freed.elements())))
            if key in seen:
                continue
            seen.add(key)
            forced = (
                Counter()
                if free
                else +Counter({face: count - from_table * table_counts[face] for face, count in freed.items()})
            )
            if any(rack_counts[face] < count for face, count in forced.items()):
                continue
            must = list(table_counts)
            must[JOKER_INDEX] = freed.total()
            for face, count in (kept + forced).items():
                must[face] += count
            plans.append(JokerPlan(must, kept, freed.total(), forced, _kept_by_set(joker_counts, reading, roles)))
    plans.sort(key=lambda plan: plan.freed)  # keeping every joker is the common case
    return plans


def _kept_by_set(
    joker_counts: Sequence[int], reading: Sequence[Tile], roles: Sequence[bool]
) -> tuple[Counter[int] | None, ...]:
    """Per set on the table (holding so many jokers), the faces its jokers
    keep standing for, or None when one is freed."""
    result: list[Counter[int] | None] = []
    position = 0
    for count in joker_counts:
        meanings, keeps = reading[position : position + count], roles[position : position + count]
        position += count
        result.append((Counter(INDEX[tile] for tile in meanings) if count else NO_FACES) if all(keeps) else None)
    return tuple(result)


def arrange(before: Table, melds: Sequence[Meld], plan: JokerPlan, *, wrap: bool = False) -> Table:
    """The table after the play: the old sets it made again as they were,
    then its other sets, with kept jokers shown as jokers again.

    Where the layout groups the faces of kept jokers in a set of their own
    (it counts them as the tiles they stand for), the same faces are laid
    out again with the old sets holding those jokers made again as they were
    (:func:`_restore_old_sets`); :class:`JokersAlone` only when that fails too."""
    kept_jokers = Counter(plan.kept)
    # The new sets by their faces, in order, to find those made again.
    by_faces: dict[tuple[int, ...], list[int]] = {}
    for index, new in enumerate(melds):
        by_faces.setdefault(tuple(sorted(face_of(tile) for tile in new.tiles)), []).append(index)
    taken: set[int] = set()
    kept_sets: list[Meld] = []
    for meld, kept_here in zip(before.melds, plan.kept_by_set, strict=True):
        if kept_here is None or (kept_here and kept_here - kept_jokers):
            continue
        faces = Counter(face_of(tile) for tile in meld.tiles if not tile.is_joker)
        if kept_here:
            faces += kept_here
        same = by_faces.get(tuple(sorted(faces.elements())))
        if same:
            taken.add(same.pop(0))
            kept_sets.append(meld)
            kept_jokers -= kept_here
    rest = [new for index, new in enumerate(melds) if index not in taken]
    try:
        shown = show_kept_jokers(list(rest), kept_jokers)
    except JokersAlone:
        restored, rest, kept_jokers = _restore_old_sets(before, plan, kept_sets, rest, kept_jokers, wrap)
        shown = show_kept_jokers(rest, kept_jokers)
        kept_sets += restored
    return Table(tuple(kept_sets) + tuple(shown))


def _restore_old_sets(
    before: Table, plan: JokerPlan, kept_sets: list[Meld], rest: list[Meld], kept_jokers: Counter[int], wrap: bool
) -> tuple[list[Meld], list[Meld], Counter[int]]:
    """The old sets holding kept jokers that the faces of ``rest`` can make again, one by
    one while what is left still splits into sets, and those sets: the same tiles
    placed, so the same play, with each such joker back in a set with numbered tiles.

    :raises JokersAlone: when what is left does not split into sets.
    """
    pool = Counter(face_of(tile) for meld in rest for tile in meld.tiles)
    restored: list[Meld] = []
    left = Counter(kept_jokers)
    for meld, kept_here in zip(before.melds, plan.kept_by_set, strict=True):
        if not kept_here or meld in kept_sets or kept_here - left:
            continue
        faces = Counter(face_of(tile) for tile in meld.tiles if not tile.is_joker) + kept_here
        if faces - pool or _split(pool - faces, wrap) is None:
            continue
        pool -= faces
        left -= kept_here
        restored.append(meld)
    melds = _split(pool, wrap)
    if melds is None:
        raise JokersAlone("the tiles do not split into sets with every kept joker beside a numbered tile")
    return restored, melds, left


def _split(pool: Counter[int], wrap: bool) -> list[Meld] | None:
    """Sets holding exactly the faces in ``pool``, or None if they do not split into sets."""
    counts = [pool[face] for face in range(FACE_COUNT)]
    if not any(counts):
        return []
    found = search(counts, [0] * FACE_COUNT, [0] * FACE_COUNT, wrap=wrap)
    return None if found is None else list(found.melds)


def show_kept_jokers(melds: list[Meld], kept: Counter[int]) -> list[Meld]:
    """Turn one copy of each kept face back into the joker it is."""
    for face, count in kept.items():
        tile = FACES[face]
        for _ in range(count):
            options = [
                index
                for index, meld in enumerate(melds)
                if tile in meld.tiles and sum(not t.is_joker for t in meld.tiles) > 1
            ]
            if not options:
                raise JokersAlone(f"no set can hold the joker that stands for {tile}", face)
            index = max(options, key=lambda i: sum(not t.is_joker for t in melds[i].tiles))
            meld = melds[index]
            tiles = tuple(JOKER if t == tile else t for t in meld.tiles)
            melds[index] = with_jokers(meld, tiles)
    return melds


def with_jokers(meld: Meld, tiles: tuple[Tile, ...]) -> Meld:
    if meld.is_run:
        return Meld(MeldKind.RUN, tiles, meld.number, meld.colour)
    numbered = tuple(t for t in tiles if not t.is_joker)
    jokers = len(tiles) - len(numbered)
    return Meld(MeldKind.GROUP, numbered + (JOKER,) * jokers, meld.number)
