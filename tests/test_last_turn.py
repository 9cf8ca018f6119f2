"""The expert's last turn on a dry pool: what the later seats can do with each table it could leave."""

from __future__ import annotations

import random
import time

from tilerummy import Play
from tilerummy.bots.expert import ExpertBot
from tilerummy.bots.last_turn import applies, last_turn_play
from tilerummy.bots.tempo import final_turn
from tilerummy.game import Game
from tilerummy.melds import Table
from tilerummy.solver import solve

from .helpers import scenario

#: Seat 0's rack: its opening, both jokers, and every tile that could join seat 1's two R7s
#: (the R6s and R8s, the other colours' 7s); the rest of the set goes to seat 1.
KEEPER = "K11 K12 K13 J J R6 R6 R8 R8 B7 B7 Y7 Y7 K7 K7 Y1 Y2 Y3 K4 K5 K6"


def dry_pool_game(*, other_lays_again: bool = False) -> Game:
    """Both seats opened; seat 1 drew the pool's last tile, so seat 0 has its
    last turn and seat 1 one more after it."""
    game = scenario([KEEPER, "B11 B12 B13 R1 R2 R3"], pool_size=3 if other_lays_again else 2)
    game.play(0, "K11 K12 K13")
    game.play(1, "K11 K12 K13 | B11 B12 B13")
    game.draw(0)
    if other_lays_again:
        game.play(1, "K11 K12 K13 | B11 B12 B13 | R1 R2 R3")
        game.draw(0)
    game.draw(1)
    return game


def goes_out(game: Game, table: Table) -> bool:
    theirs = [piece.tile for piece in game.rack(1)]
    found = solve(theirs, table, rules=game.rules, fewest_changes=False)
    return found is not None and len(found.placed) == len(theirs)


def test_on_its_last_turn_the_expert_lays_points_the_other_cannot_go_out_onto() -> None:
    game = dry_pool_game()
    view = game.view(0)
    assert view.pool_size == 0 and applies(view)
    rack = [piece.tile for piece in game.rack(0)]
    # Laying the most points would hand seat 1 the tiles its R7s need.
    most = solve(rack, view.table, rules=game.rules, objective="value", fewest_changes=False)
    assert most is not None and goes_out(game, most.table)
    assert not goes_out(game, view.table)
    action = ExpertBot(seed=1, budget=60.0).choose(view)
    assert isinstance(action, Play) and isinstance(action.table, Table)
    assert not goes_out(game, action.table)
    game.apply(action)
    laid = sum(action.table.tiles().values()) - sum(view.table.tiles().values())
    assert laid >= 6  # some of its points, not nothing
    game.pass_turn(1)
    assert game.result is not None and game.result.winner == 0


def test_the_last_turn_is_weighed_against_a_player_that_lays_tiles_too() -> None:
    game = dry_pool_game(other_lays_again=True)
    view = game.view(0)
    assert applies(view)
    chosen = last_turn_play(view, time.perf_counter, time.perf_counter() + 60.0)
    assert chosen.table is not None and not goes_out(game, chosen.table)


def test_the_last_turn_play_is_only_for_that_turn() -> None:
    game = dry_pool_game()
    assert applies(game.view(0))
    game.pass_turn(0)
    # Seat 1 drew the last tile: its turn now ends the round, and nobody answers it.
    view = game.view(1)
    assert final_turn(view) and not applies(view)
    earlier = scenario([KEEPER, "B11 B12 B13"], pool_size=4)
    earlier.play(0, "K11 K12 K13")
    earlier.play(1, "K11 K12 K13 | B11 B12 B13")
    assert not applies(earlier.view(0))  # tiles left to draw


def test_with_more_players_the_last_turn_lays_its_points_where_nobody_after_can_go_out() -> None:
    # Seat 2 drew the pool's last tile: seat 0 has its last turn, seats 1 and 2
    # one more each. Neither has opened; seat 1 holds the rest of the set but
    # its R7s fit in no set of its own, so neither can go out whatever seat 0
    # lays: it lays all the points it can.
    game = scenario([f"{KEEPER} B1", "R1 R2", "B11 B12 Y9"], pool_size=2, surplus_seat=1)
    game.play(0, "K11 K12 K13")
    game.draw(1)
    game.draw(2)
    view = game.view(0)
    assert view.pool_size == 0 and applies(view)
    rack = [piece.tile for piece in game.rack(0)]
    most = solve(rack, view.table, rules=game.rules, objective="value", fewest_changes=False)
    assert most is not None and len(most.placed) == len(rack) - 1  # all but B1
    # A deadline already past: one guessed world only, the fewest a move weighs.
    chosen = last_turn_play(view, time.perf_counter, time.perf_counter(), random.Random(3))
    assert chosen.table is not None
    assert sum(tile.number for tile in chosen.placed) == sum(tile.number for tile in most.placed)
    game.play(0, chosen.table)
    game.pass_turn(1)
    game.pass_turn(2)
    assert game.result is not None and game.result.winner == 0
