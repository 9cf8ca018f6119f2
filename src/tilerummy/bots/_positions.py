"""The solver's best play for the positions bots meet, remembered per process.

The same position comes back often: one turn of the network's bots asks for
the best play on the rack and table both to play it and to describe
drawing, and an arena plays each deal once per rotation of the seats, so a
bot meets the racks and tables of a deal's other games again. ``solve`` is
deterministic (the same rack, whatever its order, the same table and rules
always give the same play), so a remembered answer is the one a new solve
would give.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable

from ..melds import Table
from ..rules import Rules
from ..solver import Solution, solve
from ..tiles import Tile

#: Positions remembered: a long game's worth of every seat's solves, a few megabytes at most.
POSITIONS = 4096

_ORDER = operator.attrgetter("sort_key")


def best_play(rack: Iterable[Tile], table: Table, rules: Rules, *, melded: bool) -> Solution | None:
    """``solve(rack, table, rules=rules, initial_meld_done=melded, fewest_changes=False)``,
    remembered: the play placing the most tiles (then the most value), or None."""
    return _best_play(tuple(sorted(rack, key=_ORDER)), table, rules, melded)


@functools.lru_cache(maxsize=POSITIONS)
def _best_play(rack: tuple[Tile, ...], table: Table, rules: Rules, melded: bool) -> Solution | None:
    return solve(rack, table, rules=rules, initial_meld_done=melded, fewest_changes=False)
