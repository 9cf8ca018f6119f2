"""The sets a rack can make on its own, and the most valuable of them together."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..melds import Meld
from ..tiles import Tile
from ._search import FACE_COUNT, counts_of, make_candidates, search


def rack_sets(rack: Iterable[Tile], *, wrap: bool = False) -> list[Meld]:
    """Every distinct set the rack's tiles can form on their own."""
    return [candidate.meld for candidate in make_candidates(counts_of(Counter(rack)), wrap=wrap)]


def rack_melds(
    rack: Iterable[Tile], *, wrap: bool = False, min_value: int = 1, stop_at: int | None = None
) -> tuple[list[Meld], int]:
    """Disjoint sets from the rack alone worth at least ``min_value`` together, of the greatest
    total value (or the first found worth ``stop_at``), with that value; ``([], 0)`` when none.
    """
    found = search(
        [0] * FACE_COUNT,
        counts_of(Counter(rack)),
        [0] * FACE_COUNT,
        wrap=wrap,
        min_meld_value=min_value,
        meld_value_weight=1,
        good_enough=stop_at,
    )
    if found is None:
        return [], 0
    return list(found.melds), found.meld_value
