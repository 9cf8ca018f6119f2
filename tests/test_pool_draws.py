"""Per-seat draws: each seat draws its own share of the pool, in a fixed order."""

from __future__ import annotations

import json

from tilerummy import Game, GameRecord, Rules
from tilerummy.bots import SimpleBot
from tilerummy.rules import PoolDraws
from tilerummy.tiles import Piece

from .helpers import scenario, snapshot

PER_SEAT = Rules(pool_draws=PoolDraws.PER_SEAT)


def drawn_by(game: Game, seat: int, before: tuple[Piece, ...]) -> list[Piece]:
    return [piece for piece in game.rack(seat) if piece not in before]


def test_each_seat_draws_its_own_share_in_order() -> None:
    game = Game.new(3, rules=PER_SEAT, seed=11)
    pool = game.deal.pool
    draws: dict[int, list[Piece]] = {0: [], 1: [], 2: []}
    for _ in range(9):
        seat = game.turn
        before = game.rack(seat)
        game.draw(seat)
        draws[seat] += drawn_by(game, seat, before)
    for seat in range(3):
        assert draws[seat] == [pool[seat], pool[seat + 3], pool[seat + 6]]


def test_a_seats_draws_do_not_depend_on_the_others() -> None:
    """Another seat drawing three tiles at once (a timeout) leaves seat 0's draws as they were."""
    quiet, busy = Game.new(2, rules=PER_SEAT, seed=5), Game.new(2, rules=PER_SEAT, seed=5)
    assert quiet.turn == busy.turn
    seat_draws = []
    for game, other_move in ((quiet, Game.draw), (busy, Game.timeout)):
        mine = []
        for _ in range(6):
            seat = game.turn
            before = game.rack(seat)
            if seat == 0:
                game.draw(0)
                mine += drawn_by(game, 0, before)
            else:
                other_move(game, seat)
        seat_draws.append(mine)
    assert seat_draws[0] == seat_draws[1]
    assert len(busy.rack(1)) > len(quiet.rack(1))


def test_a_seat_whose_share_ran_out_takes_the_last_tile_of_the_largest_share() -> None:
    rules = Rules(pool_draws=PoolDraws.PER_SEAT, timeout_penalty=3)
    game = scenario(["R1 R2", "B1 B2"], rules=rules, pool_front="K5 K6 K7 K8 K9", pool_size=5)
    racks = [game.rack(0), game.rack(1)]
    game.draw(0)  # seat 0 owns K5 K7 K9, seat 1 K6 K8
    game.timeout(1)  # K6 and K8, then seat 0's last: K9
    game.draw(0)
    assert [str(piece.tile) for piece in drawn_by(game, 1, racks[1])] == ["K6", "K8", "K9"]
    assert [str(piece.tile) for piece in drawn_by(game, 0, racks[0])] == ["K5", "K7"]
    assert game.pool_size == 0


def test_shared_draws_take_the_pools_next_tile() -> None:
    game = Game.new(2, seed=5)
    pool = game.deal.pool
    seat = game.turn
    game.draw(seat)
    assert pool[0] in game.rack(seat)
    assert game.rules.pool_draws is PoolDraws.SHARED


def test_a_per_seat_game_records_its_draws_and_replays() -> None:
    game = Game.new(["Ana", "Bruno", "Carla"], rules=PER_SEAT, seed=3)
    bot = SimpleBot()
    while not game.is_over:
        game.apply(bot.choose(game.view(game.turn)))
    text = GameRecord.from_game(game).to_json()
    assert json.loads(text)["rules"]["pool_draws"] == "per_seat"
    replay = GameRecord.from_json(text).replay()
    assert replay.ok
    assert replay.game.result == game.result
    assert [replay.game.rack(seat) for seat in range(3)] == [game.rack(seat) for seat in range(3)]


def test_records_without_the_option_draw_from_a_shared_pool() -> None:
    data = json.loads(GameRecord.from_game(Game.new(2, seed=4)).to_json())
    del data["rules"]["pool_draws"]
    assert GameRecord.from_dict(data).rules.pool_draws is PoolDraws.SHARED


def test_taking_back_per_seat_draws_restores_every_state() -> None:
    game = Game.new(3, rules=PER_SEAT, seed=8)
    states = [snapshot(game)]
    for move in (Game.draw, Game.timeout, Game.draw, Game.draw, Game.timeout, Game.draw):
        move(game, game.turn)
        states.append(snapshot(game))
    while game.actions:
        states.pop()
        game.pop()
        assert snapshot(game) == states[-1]
