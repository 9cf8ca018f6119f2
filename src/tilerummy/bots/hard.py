"""A strong player: the exact solver, plus when to hold tiles back.

A joker on the table is a gift to the next player who holds the tile it
stands for; on the rack it fits almost anywhere, later. So the bot plays the
most tiles it can without its jokers, keeping each joker that stays playable
on the table it leaves, as long as that costs no other tile. It lays
everything down as soon as an opponent is close to going out (a joker left
on the rack costs its penalty) or the pool is nearly empty, and it always
goes out when it can.

Keeping other tiles back (the fourth of a group, the end of a run, to avoid
a later draw) is available too (``Reserve(jokers_only=False)``), but in
arena runs against the greedy bot it won no more games, so it is off.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Action, PlayerView
from ..melds import Table
from ..rules import Rules
from ..solver import Solution, solve
from ..tiles import Tile
from ._common import opponents_fewest_tiles, own_rack, play_or_draw, without


@dataclass(frozen=True, slots=True)
class Reserve:
    """How many tiles the bot keeps back, by how close the others are to going out."""

    most: int = 2  # the most tiles kept back at once
    danger: int = 4  # an opponent with this many tiles or fewer may go out soon: keep nothing
    low_pool: int = 2  # with this few tiles left to draw, holding back saves nothing
    jokers_only: bool = True  # keep back only jokers

    def allowed(self, view: PlayerView) -> int:
        if view.pool_size <= self.low_pool or opponents_fewest_tiles(view) <= self.danger:
            return 0
        return self.most


class HardBot:
    """Greedy play, less the jokers (or tiles) it can safely keep for later turns."""

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
        best = solve(rack, view.table, rules=view.rules, initial_meld_done=melded)
        if best is None or len(best.placed) == len(rack):
            return best
        allowed = self.reserve.allowed(view)
        if not allowed:
            return best
        return hold_back(
            rack, view.table, best, view.rules, melded=melded, most=allowed, jokers_only=self.reserve.jokers_only
        )


def hold_back(
    rack: list[Tile],
    table: Table,
    best: Solution,
    rules: Rules,
    *,
    melded: bool,
    most: int,
    jokers_only: bool = False,
) -> Solution:
    """``best`` less up to ``most`` of its tiles, each of which can still be
    played alone on the table that is left, and without placing fewer of the rest.

    Jokers are kept first (they fit almost anywhere and an opponent cannot take
    them off a rack), then the highest tiles.
    """
    held: list[Tile] = []
    current = best
    keepable = {tile for tile in best.placed if tile.is_joker or not jokers_only}
    for tile in sorted(keepable, key=lambda tile: (not tile.is_joker, -tile.number)):
        if len(held) >= most:
            break
        for _ in range(best.placed.count(tile)):
            if len(held) >= most:
                break
            kept = [*held, tile]
            alternative = solve(without(rack, kept), table, rules=rules, initial_meld_done=melded)
            if alternative is None or len(alternative.placed) < len(current.placed) - 1:
                break
            if not all(_playable(one, alternative.table, rules) for one in kept):
                break
            held, current = kept, alternative
    return current


def _playable(tile: Tile, table: Table, rules: Rules) -> bool:
    return solve([tile], table, rules=rules) is not None
