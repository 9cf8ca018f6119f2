"""Building games in a chosen position, for tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tilerummy import Deal, Game, IllegalAction, Reason, Rules, Tile, parse_tiles


def scenario(
    racks: Sequence[str],
    *,
    rules: Rules | None = None,
    pool_front: str = "",
    first: int = 0,
    pool_size: int | None = None,
    surplus_seat: int = -1,
) -> Game:
    """A game whose racks are as written and whose pool starts with ``pool_front``.

    The rest of the tile set follows in the pool; with ``pool_size``, the pool
    keeps only that many tiles and the surplus goes to ``surplus_seat``'s rack
    (the last seat by default), so a test can reach an almost empty pool.
    """
    rules = rules or Rules()
    rack_tiles = [parse_tiles(rack) for rack in racks]
    front = parse_tiles(pool_front)
    remaining = Counter({piece.tile: rules.tile_set.count(piece.tile) for piece in rules.tile_set.pieces()})
    for tile in [tile for rack in rack_tiles for tile in rack] + front:
        remaining[tile] -= 1
        if remaining[tile] < 0:
            raise AssertionError(f"scenario uses {tile} too often")
    rest: list[Tile] = sorted(remaining.elements(), key=lambda tile: tile.sort_key)
    pool = front + rest
    if pool_size is not None:
        pool, surplus = pool[:pool_size], pool[pool_size:]
        rack_tiles[surplus_seat] = rack_tiles[surplus_seat] + surplus
    deal = Deal.explicit(rules, rack_tiles, pool, first)
    return Game(rules, deal, [f"P{seat}" for seat in range(len(racks))])


def snapshot(game: Game) -> Any:
    """Everything an action could change."""
    return (
        [game.rack(seat) for seat in range(len(game.players))],
        str(game.table),
        game.table_pieces,
        game.pool,
        game.turn,
        game.actions,
        game.melded,
        game.result,
    )


def refused(game: Game, reason: Reason, call: Any, *args: Any, **kwargs: Any) -> IllegalAction:
    """Call an action that must be refused; check the reason and that nothing changed."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as caught:
        call(*args, **kwargs)
    assert caught.value.reason is reason, caught.value
    assert snapshot(game) == before
    return caught.value
