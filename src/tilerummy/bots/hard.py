"""A strong player: the exact solver, plus when to hold tiles back.

A turn without a play costs a draw. So when the bot can place several
tiles, it keeps up to two back (the fourth tile of a group, the end of a
run, a joker first) as long as each stays playable on the table it leaves
and no other tile is lost: those are later turns it will not have to draw
on. It lays everything down as soon as an opponent holds 6 tiles or fewer
(tiles caught on the rack cost their value) or the pool is nearly empty, and
it always goes out when it can.

Keeping jokers off the table while a play without them exists
(``Reserve(jokers=True)``) is available too; in arena runs against the
greedy bot it won fewer games, so it is off.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..game import Action, PlayerView
from ..melds import Table
from ..rules import Rules
from ..solver import Solution, solve
from ..tiles import Tile
from ._common import opponents_fewest_tiles, own_rack, play_or_draw, without


@dataclass(frozen=True, slots=True)
class Reserve:
    """What the bot keeps back, while nobody is close to going out."""

    jokers: bool = False  # keep jokers on the rack while a play without them exists
    most: int = 2  # tiles kept back at once, each still playable later
    danger: int = 6  # an opponent with this many tiles or fewer may go out soon: keep nothing
    low_pool: int = 5  # with this few tiles left to draw, holding back saves nothing

    def safe(self, view: PlayerView) -> bool:
        return view.pool_size > self.low_pool and opponents_fewest_tiles(view) > self.danger


class HardBot:
    """Greedy play, less the tiles it can safely keep for later turns."""

    name = "hard"

    def __init__(self, seed: int = 0, reserve: Reserve | None = None) -> None:
        del seed  # no choice is left to chance
        self.reserve = reserve or Reserve()

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        found = self.plan(view)
        return play_or_draw(view, None if found is None else found.table)

    def plan(self, view: PlayerView) -> Solution | None:
        """The play to make, or None to draw."""
        assert view.seat is not None
        rack = own_rack(view)
        melded = view.melded[view.seat]
        best = solve(rack, view.table, rules=view.rules, initial_meld_done=melded, fewest_changes=False)
        if best is None or len(best.placed) == len(rack) or not self.reserve.safe(view):
            return best
        if self.reserve.jokers and any(tile.is_joker for tile in best.placed):
            plain = [tile for tile in rack if not tile.is_joker]
            without_jokers = solve(plain, view.table, rules=view.rules, initial_meld_done=melded, fewest_changes=False)
            if without_jokers is not None:
                best, rack = without_jokers, plain
        if self.reserve.most:
            best = hold_back(rack, view.table, best, view.rules, melded=melded, most=self.reserve.most)
        return best


def hold_back(
    rack: list[Tile],
    table: Table,
    best: Solution,
    rules: Rules,
    *,
    melded: bool,
    most: int,
) -> Solution:
    """``best`` less up to ``most`` of its tiles: the last of :func:`holding_back`."""
    held_back = list(holding_back(rack, table, best, rules, melded=melded, most=most))
    return held_back[-1] if held_back else best


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
