"""The positions the benchmarks time: a table built as games build them and a rack.

Positions are dealt from a shuffled standard set: a table of 0 to 100 tiles
laid down as valid runs and groups (a joker standing in for a missing tile
now and then), then a rack of 5 to 30 tiles from the rest (fewer when fewer
are left). The same seed gives the same positions, bucket by bucket.

The big-rack bucket deals, under every preset, a table of any size up to the
whole set and a rack of 30 tiles up to every tile left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tilerummy import COLOURS, InvalidMeld, Meld, Rules, Table, Tile, TileSet, format_tiles
from tilerummy.rules import PRESETS
from tilerummy.tiles import JOKER, MAX_NUMBER

#: Table sizes, in tiles, of each bucket.
BUCKETS: tuple[tuple[int, int], ...] = ((0, 0), (1, 25), (26, 50), (51, 75), (76, 100))
RACK_SIZES = (5, 30)


@dataclass(frozen=True)
class Position:
    bucket: int
    rack: tuple[Tile, ...]
    table: Table

    def notation(self) -> str:
        return f"rack {format_tiles(sorted(self.rack))!r} table {str(self.table)!r}"


def _take(pool: list[Tile], tiles: Sequence[Tile]) -> bool:
    """Remove these tiles from the pool if it holds them all."""
    if any(pool.count(tile) < list(tiles).count(tile) for tile in set(tiles)):
        return False
    for tile in tiles:
        pool.remove(tile)
    return True


def _a_set(rng: random.Random, pool: list[Tile], room: int) -> Meld | None:
    """A valid set of at most ``room`` tiles from the pool, grown around a
    drawn tile; a joker may stand in for one missing tile."""
    seed = rng.choice([tile for tile in pool if not tile.is_joker])
    assert seed.colour is not None
    jokers = pool.count(JOKER) if rng.random() < 0.35 else 0
    if rng.random() < 0.55:  # a run through the seed
        length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
        start = rng.randint(max(1, seed.number - length + 1), min(seed.number, MAX_NUMBER - length + 1))
        tiles = [Tile(seed.colour, number) for number in range(start, start + length)]
    else:  # a group of the seed's number
        others = [colour for colour in COLOURS if colour is not seed.colour]
        tiles = [seed] + [Tile(colour, seed.number) for colour in rng.sample(others, rng.choice((2, 2, 3)))]
    tiles = tiles[:room]
    chosen: list[Tile] = []
    for tile in tiles:
        if tile in pool and chosen.count(tile) < pool.count(tile):
            chosen.append(tile)
        elif jokers > chosen.count(JOKER):
            chosen.append(JOKER)
        else:
            return None
    if jokers and JOKER not in chosen and rng.random() < 0.3:  # a joker in a complete set
        chosen[rng.randrange(len(chosen))] = JOKER
    try:
        meld = Meld.from_tiles(chosen)
    except InvalidMeld:
        return None
    return meld if _take(pool, chosen) else None


def make_position(rng: random.Random, bucket: int) -> Position:
    low, high = BUCKETS[bucket]
    while True:
        pool = [piece.tile for piece in TileSet.STANDARD.pieces()]
        rng.shuffle(pool)
        target = rng.randint(max(low, 3), high) if high else 0
        melds: list[Meld] = []
        size = 0
        for _ in range(400):
            if size >= target:
                break
            meld = _a_set(rng, pool, min(7, high - size))
            if meld is not None:
                melds.append(meld)
                size += len(meld)
        if low <= size <= high:
            break
    # A big table leaves few tiles: the rack takes at most what is left.
    rack = rng.sample(pool, min(len(pool), rng.randint(*RACK_SIZES)))
    return Position(bucket, tuple(rack), Table(tuple(rng.sample(melds, len(melds)))))


def bench_positions(seed: int, per_bucket: int) -> list[Position]:
    """``per_bucket`` positions of each table-size bucket, in bucket order."""
    positions = []
    for bucket in range(len(BUCKETS)):
        rng = random.Random(f"{seed}/{bucket}")
        positions += [make_position(rng, bucket) for _ in range(per_bucket)]
    return positions


def bucket_name(bucket: int) -> str:
    low, high = BUCKETS[bucket]
    return f"{low}" if low == high else f"{low}-{high}"


#: The big-rack bucket: under each preset, a table of 0 tiles up to the whole
#: set, then a rack of 30 tiles up to every tile not on the table (all of them
#: when fewer are left), as hoarders, patient players and the end of the pool
#: make them.
BIG_RACK_LEAST = 30


@dataclass(frozen=True)
class BigPosition:
    preset: str
    rack: tuple[Tile, ...]
    table: Table

    def notation(self) -> str:
        return f"{self.preset}: rack {format_tiles(sorted(self.rack))!r} table {str(self.table)!r}"


def make_big_position(rng: random.Random, preset: str) -> BigPosition:
    """A table of any size from the preset's tile set, then a big rack from the rest."""
    pool = [piece.tile for piece in Rules.preset(preset).tile_set.pieces()]
    rng.shuffle(pool)
    target = rng.randint(0, len(pool))
    melds: list[Meld] = []
    size = 0
    for _ in range(400):
        if size >= target or not any(not tile.is_joker for tile in pool):
            break
        meld = _a_set(rng, pool, 7)
        if meld is not None:
            melds.append(meld)
            size += len(meld)
    rack = rng.sample(pool, rng.randint(min(BIG_RACK_LEAST, len(pool)), len(pool)))
    return BigPosition(preset, tuple(rack), Table(tuple(rng.sample(melds, len(melds)))))


def big_positions(seed: int, per_preset: int) -> list[BigPosition]:
    """``per_preset`` big-rack positions under each preset, preset by preset."""
    positions = []
    for preset in PRESETS:
        rng = random.Random(f"{seed}/big/{preset}")
        positions += [make_big_position(rng, preset) for _ in range(per_preset)]
    return positions
