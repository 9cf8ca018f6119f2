"""Random legal games played to the end, under every rule variant."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilerummy import Game, GameRecord, IllegalAction, Piece, PlayerView, Rules
from tilerummy.bots import RandomBot, SimpleBot
from tilerummy.server.protocol import view_fields

from .effort import examples
from .helpers import snapshot

VARIANTS = [
    Rules(),
    Rules.preset("six-player"),
    Rules.preset("house"),
    Rules.preset("classic"),
    Rules().replace(joker_replacement="free", initial_meld_lay_off=True),
    Rules().replace(joker_replacement="rack_or_table", pool_exhausted="until_blocked"),
    Rules(initial_meld_points=0, redraw_duplicates=True, turn_seconds=None),
]


def pieces_in(view: PlayerView) -> set[Piece]:
    """Every physical tile a view holds, wherever it is."""
    found: set[Piece] = set()

    def walk(value: object) -> None:
        if isinstance(value, Piece):
            found.add(value)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for field in fields(view):
        walk(getattr(view, field.name))
    return found


def check_invariants(game: Game) -> None:
    # Every tile is in exactly one place.
    everywhere = [piece for seat in range(len(game.players)) for piece in game.rack(seat)]
    everywhere += list(game.table_pieces) + list(game.pool)
    assert Counter(everywhere) == Counter(game.rules.tile_set.pieces())
    assert Counter(piece.tile for piece in game.table_pieces) == game.table.tiles()
    # Views hold the seat's own rack and nothing else hidden.
    for seat in range(len(game.players)):
        view = game.view(seat)
        assert pieces_in(view) == set(game.rack(seat))
        assert view.rack_sizes == tuple(len(game.rack(s)) for s in range(len(game.players)))
        data = view_fields(view)
        assert "pool" not in data
        assert sorted(data["rack"]) == sorted(str(piece.tile) for piece in game.rack(seat))
    assert pieces_in(game.spectator_view()) == set()


def try_a_random_table(game: Game, rng: random.Random) -> None:
    """Submit the table's tiles and a rack tile or two, shuffled into random
    sets: almost always illegal, and then nothing may change."""
    seat = game.turn
    tiles = [tile for meld in game.table for tile in meld]
    rack = game.rack_tiles(seat)
    tiles += rng.sample(rack, min(len(rack), rng.randint(1, 2)))
    rng.shuffle(tiles)
    sets, start = [], 0
    while start < len(tiles):
        size = rng.randint(3, 5)
        sets.append(" ".join(str(tile) for tile in tiles[start : start + size]))
        start += size
    before = snapshot(game)
    try:
        game.play(seat, " | ".join(sets))
    except IllegalAction:
        assert snapshot(game) == before
    else:
        check_invariants(game)


# Each variant every run (a random one could go untried), each on a random deal.
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@settings(max_examples=examples(1), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_games_keep_every_tile_and_replay_exactly(variant: int, seed: int, players: int) -> None:
    rules = VARIANTS[variant]
    if rules.max_players == 6 and seed % 2:
        players += 2
    game = Game.new(players, rules=rules, seed=seed)
    bots = [RandomBot(seed + seat) if seat % 2 else SimpleBot() for seat in range(players)]
    check_invariants(game)
    rng = random.Random(seed)
    while not game.is_over:
        try_a_random_table(game, rng)
        game.apply(bots[game.turn].choose(game.view(game.turn)))
        check_invariants(game)
        assert len(game.actions) < 2000
    assert game.result is not None
    assert sum(game.result.scores) == 0
    replay = GameRecord.from_json(GameRecord.from_game(game).to_json()).replay()
    assert replay.ok
    assert replay.game.result == game.result
    assert replay.game.table == game.table
    assert replay.game.actions == game.actions
    for seat in range(players):
        assert replay.game.rack(seat) == game.rack(seat)
