"""What every bot needs from its view: its own tiles, and how to end a turn."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from ..errors import InvalidMeld
from ..game import Action, Draw, Pass, Play, PlayerView
from ..melds import Meld, Table
from ..openings import candidate_melds
from ..rules import Rules
from ..tiles import Tile


def own_rack(view: PlayerView) -> list[Tile]:
    """The tiles on the bot's own rack (a bot always has a seat)."""
    if view.seat is None or view.rack is None:
        raise ValueError("a bot plays a seat: a spectator's view has no rack")
    return [piece.tile for piece in view.rack]


def play_or_draw(view: PlayerView, table: Table | None) -> Action:
    """Submit ``table``, or end the turn without playing: draw, or pass on an empty pool."""
    assert view.seat is not None
    if table is not None:
        return Play(view.seat, table)
    if view.pool_size:
        return Draw(view.seat)
    return Pass(view.seat)


def without(tiles: Iterable[Tile], removed: Iterable[Tile]) -> list[Tile]:
    """``tiles`` less one copy of each of ``removed``."""
    left = Counter(tiles)
    left.subtract(removed)
    return sorted(left.elements())


def disjoint_sets(rack: Iterable[Tile], rules: Rules) -> list[Meld]:
    """Sets the rack makes on its own, chosen greedily: the longest first, jokers last."""
    options = candidate_melds(rack, wrap=rules.wrap)
    options.sort(key=lambda meld: (sum(tile.is_joker for tile in meld.tiles), -len(meld), -meld.value))
    left = Counter(rack)
    chosen = []
    for meld in options:
        needed = Counter(meld.tiles)
        if not needed - left:
            chosen.append(meld)
            left -= needed
    return chosen


def sets_and_lay_offs(table: Table, rack: Iterable[Tile], rules: Rules) -> Table | None:
    """The table with the rack's own sets (``disjoint_sets``) laid down and then single
    tiles added to the ends of its sets (``lay_off``), or None when neither finds a play."""
    chosen = disjoint_sets(rack, rules)
    left = Counter(rack)
    for meld in chosen:
        left -= Counter(meld.tiles)
    melds = list(table.melds) + chosen
    if not lay_off(melds, left, rules) and not chosen:
        return None
    return Table(tuple(melds))


def lay_off(table: list[Meld], left: Counter[Tile], rules: Rules, rng: random.Random | None = None) -> int:
    """Add single rack tiles (not jokers) to the ends of sets on the table; how many were added."""
    added = 0
    progress = True
    while progress:
        progress = False
        tiles = [tile for tile in sorted(left.elements()) if not tile.is_joker]
        if rng is not None:
            rng.shuffle(tiles)
        for tile in tiles:
            if left[tile] == 0:
                continue
            for index, meld in enumerate(table):
                extended = _extend(meld, tile, rules)
                if extended is not None:
                    table[index] = extended
                    left[tile] -= 1
                    added += 1
                    progress = True
                    break
    return added


def _extend(meld: Meld, tile: Tile, rules: Rules) -> Meld | None:
    """The set with the tile added at an end (or to a group), if that is a valid set."""
    if meld.is_group:
        if tile.number != meld.number or len(meld) >= 4:
            return None
        shapes = [[*list(meld.tiles), tile]]
    else:
        if tile.colour != meld.colour:
            return None
        shapes = [[*list(meld.tiles), tile], [tile, *list(meld.tiles)]]
    for shape in shapes:
        try:
            extended = Meld.from_tiles(shape, wrap=rules.wrap)
        except InvalidMeld:
            continue
        if extended.kind is meld.kind and _same_jokers(meld, extended):
            return extended
    return None


def _same_jokers(before: Meld, after: Meld) -> bool:
    return all(old & new for old, new in zip(before.jokers, after.jokers, strict=True))
