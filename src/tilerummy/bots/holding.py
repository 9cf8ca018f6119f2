"""Tiles a play can keep back for a later turn, each still playable on the table it leaves.

A turn without a play costs a draw, so a play that keeps back a tile the
next turn can still place saves that draw; the expert weighs such plays.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..melds import Table
from ..rules import Rules
from ..solver import Solution, solve
from ..tiles import Tile
from ._common import without


def holding_back(
    rack: list[Tile],
    table: Table,
    best: Solution,
    rules: Rules,
    *,
    melded: bool,
    most: int,
) -> Iterator[Solution]:
    """``best`` less one of its tiles, then less two, and so on up to ``most``:
    each tile kept can still be played alone on the table that is left, and
    no other tile is lost.

    Jokers are kept first (they fit almost anywhere and an opponent cannot take
    them off a rack), then the highest tiles.
    """
    held: list[Tile] = []
    current = best
    for tile in sorted(set(best.placed), key=lambda tile: (not tile.is_joker, -tile.number)):
        if len(held) >= most:
            return
        for _ in range(best.placed.count(tile)):
            if len(held) >= most:
                return
            kept = [*held, tile]
            alternative = solve(without(rack, kept), table, rules=rules, initial_meld_done=melded, fewest_changes=False)
            if alternative is None or len(alternative.placed) < len(current.placed) - 1:
                break
            if not all(_playable(one, alternative.table, rules) for one in kept):
                break
            held, current = kept, alternative
            yield current


def _playable(tile: Tile, table: Table, rules: Rules) -> bool:
    return solve([tile], table, rules=rules, fewest_changes=False) is not None
