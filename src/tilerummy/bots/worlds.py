"""Guessed worlds: the hidden tiles dealt out in a way that fits what the others did.

A seat sees its own rack and the table, never the others' racks or the
pool. To look ahead, the expert bot deals the tiles it cannot see: each
opponent gets as many as it holds, the rest is the pool. A uniform deal
ignores what the opponents showed, so each deal is weighed by the evidence
of every opponent's last move:

- an opponent that drew had, just before, a rack (its present one less the
  drawn tile) with which it chose not to play on the table it faced;
- an opponent that played (after its initial meld) kept the rest of its
  rack back, though it could have added to the table it left.

Any player may have reasons to draw or keep tiles, so such a deal is not
ruled out; it is kept with a probability that falls with the number of
tiles the opponent could have placed (a soft likelihood), and deals are
redrawn until one is kept.

The pool is dealt into one queue per seat (duplicate-bridge style), so a
seat's k-th draw is the same tile whichever play is being tried, even one
that changes who draws when; each seat's draws are still uniformly random
from where it sits.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from ..game import Draw, Play, PlayerView
from ..melds import Table
from ..solver import solve
from ..tiles import Tile

#: How much less likely a deal is for each tile an opponent could have placed but did not.
EVIDENCE_STRENGTH = 1.0

#: Deals tried for one world before the likeliest of them is taken anyway.
MOST_TRIES = 12


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one opponent's last move says about its rack now.

    ``drew``: its rack just before the draw (the present one less one tile)
    had no play it chose on ``table``. Otherwise it played and its present
    rack had no play it chose on ``table``, the table it left.
    """

    seat: int
    table: Table
    melded: bool
    drew: bool


@dataclass
class World:
    """One guess at the hidden tiles: every rack, and each seat's queue of draws."""

    racks: list[Counter[Tile]]
    queues: list[list[Tile]]  # each seat's next draws, first draw first

    @property
    def pool_size(self) -> int:
        return sum(len(queue) for queue in self.queues)


class Draws:
    """The draws of one play-out from a world's queues, leaving the world as it was."""

    def __init__(self, world: World) -> None:
        self._queues = world.queues
        self._taken = [0] * len(world.queues)
        self.pool_size = world.pool_size

    def draw(self, seat: int) -> Tile | None:
        """The seat's next tile; once its own queue is spent, from the fullest other one."""
        if not self.pool_size:
            return None
        source = seat
        if self._taken[seat] >= len(self._queues[seat]):
            source = max(range(len(self._queues)), key=lambda other: len(self._queues[other]) - self._taken[other])
        tile = self._queues[source][self._taken[source]]
        self._taken[source] += 1
        self.pool_size -= 1
        return tile


def unseen_tiles(view: PlayerView) -> list[Tile]:
    """The tiles the seat cannot see: the others' racks and the pool, in some order."""
    assert view.rack is not None
    tile_set = view.rules.tile_set
    unseen = Counter({piece.tile: tile_set.count(piece.tile) for piece in tile_set.pieces()})
    unseen -= Counter(piece.tile for piece in view.rack)
    unseen -= view.table.tiles()
    return sorted(unseen.elements())


def evidence(view: PlayerView) -> list[Evidence]:
    """What each opponent's last move (a draw, or a play after its initial meld) tells."""
    table = Table()
    melded = [False] * len(view.players)
    last: dict[int, Evidence | None] = {}
    for action in view.history:
        if isinstance(action, Draw):
            last[action.seat] = Evidence(action.seat, table, melded[action.seat], drew=True)
        elif isinstance(action, Play) and isinstance(action.table, Table):
            opened = melded[action.seat]
            table = action.table
            melded[action.seat] = True
            # A play that opens is bound by the opening's rules; what it left says little.
            last[action.seat] = Evidence(action.seat, table, True, drew=False) if opened else None
        else:
            last[action.seat] = None  # a pass or a timeout says nothing
    return [found for seat, found in sorted(last.items()) if found is not None and seat != view.seat]


def deal_world(
    view: PlayerView,
    unseen: list[Tile],
    clues: list[Evidence],
    rng: random.Random,
    *,
    strength: float = EVIDENCE_STRENGTH,
) -> World:
    """A deal of the unseen tiles, kept with the likelihood of the clues (see the module):
    ``strength`` is how much less likely it is per tile an opponent could have placed."""
    if not strength:
        clues = []
    best: tuple[float, World] | None = None
    for _ in range(MOST_TRIES):
        world, ignored = _try_deal(view, unseen, clues, rng)
        weight = math.exp(-strength * ignored)
        if rng.random() < weight:
            return world
        if best is None or weight > best[0]:
            best = (weight, world)
    assert best is not None
    return best[1]


def _try_deal(view: PlayerView, unseen: list[Tile], clues: list[Evidence], rng: random.Random) -> tuple[World, int]:
    """A uniform deal, and how many tiles the opponents could have placed but did not."""
    assert view.seat is not None and view.rack is not None
    hidden = list(unseen)
    rng.shuffle(hidden)
    racks: list[Counter[Tile]] = []
    dealt: dict[int, list[Tile]] = {}
    at = 0
    for seat, size in enumerate(view.rack_sizes):
        if seat == view.seat:
            racks.append(Counter(piece.tile for piece in view.rack))
        else:
            dealt[seat] = hidden[at : at + size]
            racks.append(Counter(dealt[seat]))
            at += size
    ignored = 0
    for clue in clues:
        # For a draw, the last tile dealt to the seat stands for the one it drew.
        rack = dealt[clue.seat][:-1] if clue.drew else dealt[clue.seat]
        if not rack:
            continue
        found = solve(rack, clue.table, rules=view.rules, initial_meld_done=clue.melded, fewest_changes=False)
        if found is not None:
            ignored += len(found.placed)
    pool = hidden[at:]
    players = len(view.rack_sizes)
    queues = [pool[seat::players] for seat in range(players)]
    return World(racks, queues), ignored
