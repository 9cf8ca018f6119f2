"""The solver's best play for the positions bots meet, remembered per process.

The same position comes back often: one turn of the network's bots asks for
the best play on the rack and table both to play it and to describe
drawing, a racing level (:mod:`.tempo`) asks again for the play it races
with, and an arena plays each deal once per rotation of the seats, so a
bot meets the racks and tables of a deal's other games again. ``solve`` is
deterministic (the same rack, whatever its order, the same table and rules
always give the same play), so a remembered answer is the one a new solve
would give.

Before its initial meld, a rack often holds too little to make one: the
numbers of the tiles that could join some set of rack tiles at all (a
joker counting 13 at most) add up to less than the threshold. No search is
needed then to know that there is no play (:func:`cannot_open`).
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Iterable, Set

from ..melds import Table
from ..rules import Rules
from ..solver import Objective, Solution, solve
from ..tiles import JOKER, MAX_NUMBER, MIN_NUMBER, Colour, Tile

#: Positions remembered: a long game's worth of every seat's solves, a few megabytes at most.
POSITIONS = 4096

_ORDER = operator.attrgetter("sort_key")


def best_play(
    rack: Iterable[Tile], table: Table, rules: Rules, *, melded: bool, objective: Objective = "tiles"
) -> Solution | None:
    """``solve(rack, table, rules=rules, initial_meld_done=melded, objective=objective,
    fewest_changes=False)``, remembered: the play placing the most tiles (then
    the most value; with ``objective="value"`` the reverse), or None."""
    return _best_play(tuple(sorted(rack, key=_ORDER)), table, rules, melded, objective)


def forget_positions() -> None:
    """Forget every position remembered (to time moves as a first meeting would take them)."""
    _best_play.cache_clear()


@functools.lru_cache(maxsize=POSITIONS)
def _best_play(
    rack: tuple[Tile, ...], table: Table, rules: Rules, melded: bool, objective: Objective
) -> Solution | None:
    if not melded and cannot_open(rack, rules):
        return None
    return solve(rack, table, rules=rules, initial_meld_done=melded, objective=objective, fewest_changes=False)


def cannot_open(rack: Iterable[Tile], rules: Rules) -> bool:
    """Whether the rack surely holds no initial meld: the tiles that fit in no
    set of rack tiles (no two others of their number, or around them in their
    colour, even with the rack's jokers) can be in no new set, and the rest,
    a joker counting 13, are worth less than the threshold. False when it
    cannot tell (two jokers or more, or runs that wrap)."""
    counts = Counter(rack)
    jokers = counts.pop(JOKER, 0)
    if jokers >= 2 or rules.wrap:
        return False
    faces = {(tile.colour, tile.number) for tile in counts}
    worth = MAX_NUMBER * jokers
    for tile, count in counts.items():
        assert tile.colour is not None
        if _fits(tile.colour, tile.number, faces, jokers):
            worth += tile.number * count
    return worth < max(rules.meld_threshold, 1)


def _fits(colour: Colour, number: int, faces: Set[tuple[Colour | None, int]], jokers: int) -> bool:
    """Whether a tile could be in a group or run made of these faces, ``jokers`` filling gaps."""
    others = sum((other, number) in faces for other in Colour if other is not colour)
    if others + jokers >= 2:
        return True
    for low, high in ((number - 2, number - 1), (number - 1, number + 1), (number + 1, number + 2)):
        missing = ((colour, low) not in faces) + ((colour, high) not in faces)
        if low >= MIN_NUMBER and high <= MAX_NUMBER and missing <= jokers:
            return True
    return False
