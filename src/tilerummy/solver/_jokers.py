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
from ._search import FACES, INDEX, JOKER_INDEX, counts_of, face_of


class JokersAlone(Exception):
    """A layout puts jokers that keep their meaning in a set with no other
    tile (only possible with the six-player set's four jokers): the search
    counts them as the tiles they stand for, but the rules want a numbered
    tile in every set, so the layout is no play."""


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


def arrange(before: Table, melds: Sequence[Meld], plan: JokerPlan) -> Table:
    """The table after the play: the old sets it made again as they were,
    then its other sets, with kept jokers shown as jokers again."""
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
    shown = show_kept_jokers([new for index, new in enumerate(melds) if index not in taken], kept_jokers)
    return Table(tuple(kept_sets) + tuple(shown))


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
                raise JokersAlone(f"no set can hold the joker that stands for {tile}")
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
