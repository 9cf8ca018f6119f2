"""Dealing a round: who starts, the racks and the pool order.

A deal is fully determined by the rules, the number of players and a seed,
or written out explicitly (every rack and the pool order) for puzzles,
tests and records of games dealt elsewhere.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RecordError
from .rules import RACK_SIZE, FirstPlayer, Rules
from .tiles import Piece, Tile, format_tiles


@dataclass(frozen=True, slots=True)
class Deal:
    """Racks in seat order, the pool (next tile to draw first), and the first player.

    ``seed`` is the seed the deal came from, or None for an explicit deal;
    ``first_draws`` lists, for the ``draw`` rule, each tile drawn to choose
    the first player, as (seat, tile) in the order drawn.
    """

    racks: tuple[tuple[Piece, ...], ...]
    pool: tuple[Piece, ...]
    first: int
    seed: int | None = None
    first_draws: tuple[tuple[int, Tile], ...] = ()

    @property
    def players(self) -> int:
        return len(self.racks)

    @classmethod
    def from_seed(cls, rules: Rules, players: int, seed: int) -> Deal:
        """Shuffle, choose the first player, deal 14 tiles each.

        :raises RulesError: when the rules cannot seat that many players.
        """
        rules.check_players(players)
        if seed < 0:
            raise RecordError(f"seed {seed}: seeds are 0 or more")
        rng = random.Random(seed)
        pieces = list(rules.tile_set.pieces())
        draws: tuple[tuple[int, Tile], ...] = ()
        if rules.first_player is FirstPlayer.RANDOM:
            first = rng.randrange(players)
        else:
            first, draws = _draw_for_first(pieces, players, rng)
        rng.shuffle(pieces)
        racks = [pieces[seat * RACK_SIZE : (seat + 1) * RACK_SIZE] for seat in range(players)]
        pool = pieces[players * RACK_SIZE :]
        if rules.redraw_duplicates:
            for rack in racks:
                _redraw_duplicates(rack, pool, rng)
        return cls(
            tuple(tuple(sorted(rack)) for rack in racks),
            tuple(pool),
            first,
            seed,
            draws,
        )

    @classmethod
    def explicit(cls, rules: Rules, racks: Sequence[Sequence[Tile]], pool: Sequence[Tile], first: int = 0) -> Deal:
        """A deal written out tile by tile; together it must be the whole tile set.

        Copies are numbered in the order the tiles appear (racks in seat
        order, then the pool).

        :raises RecordError: when the tiles are not exactly the rules' tile set.
        :raises RulesError: when the rules cannot seat that many players.
        """
        rules.check_players(len(racks))
        if not 0 <= first < len(racks):
            raise RecordError(f"first player {first} is not a seat (seats 0 to {len(racks) - 1})")
        every = [tile for rack in racks for tile in rack] + list(pool)
        counts = Counter(every)
        expected = Counter({piece.tile: rules.tile_set.count(piece.tile) for piece in rules.tile_set.pieces()})
        if counts != expected:
            extra = counts - expected
            short = expected - counts
            problems = []
            if extra:
                problems.append(f"too many {format_tiles(sorted(extra.elements()))}")
            if short:
                problems.append(f"missing {format_tiles(sorted(short.elements()))}")
            raise RecordError(
                f"the deal is not the {rules.tile_set.value} set of {rules.tile_set.size} tiles: " + "; ".join(problems)
            )
        seen: Counter[Tile] = Counter()

        def piece(tile: Tile) -> Piece:
            seen[tile] += 1
            return Piece(tile, seen[tile])

        piece_racks = tuple(tuple(piece(tile) for tile in rack) for rack in racks)
        return cls(piece_racks, tuple(piece(tile) for tile in pool), first)


def _draw_for_first(
    pieces: Sequence[Piece], players: int, rng: random.Random
) -> tuple[int, tuple[tuple[int, Tile], ...]]:
    """Each player draws a tile; the highest number starts, a joker or a tie draws again."""
    deck = list(pieces)
    rng.shuffle(deck)
    draws: list[tuple[int, Tile]] = []
    contenders = list(range(players))
    while True:
        drawn: dict[int, int] = {}
        for seat in contenders:
            while True:
                if not deck:
                    deck = list(pieces)
                    rng.shuffle(deck)
                tile = deck.pop().tile
                draws.append((seat, tile))
                if not tile.is_joker:
                    drawn[seat] = tile.number
                    break
        top = max(drawn.values())
        contenders = [seat for seat in contenders if drawn[seat] == top]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)


def _redraw_duplicates(rack: list[Piece], pool: list[Piece], rng: random.Random) -> None:
    """Swap one of two identical tiles for the pool's next one, until none is left."""
    while True:
        seen: set[Tile] = set()
        duplicate = None
        for index, held in enumerate(rack):
            if held.tile in seen and not held.tile.is_joker:
                duplicate = index
                break
            seen.add(held.tile)
        if duplicate is None or not pool:
            return
        returned = rack.pop(duplicate)
        rack.append(pool.pop(0))
        # Put it back below the top, so the next swap brings a different tile.
        pool.insert(rng.randrange(min(1, len(pool)), len(pool) + 1), returned)
