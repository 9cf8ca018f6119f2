"""Post-game analysis: the best play of every turn against what was played."""

from __future__ import annotations

import pytest

from tilerummy import Game, GameRecord, Rules
from tilerummy.analysis import analyse
from tilerummy.bots import make_bot
from tilerummy.errors import RecordError

from .helpers import scenario


def _explicit_game(racks: list[str], pool: str, rules: Rules) -> Game:
    return scenario(racks, rules=rules, pool_front=pool)


def test_a_draw_that_could_have_been_an_opening_is_a_missed_turn() -> None:
    rules = Rules.preset("casual")
    game = _explicit_game(["R10 R11 R12 B1", "K1 K2 Y9"], "Y1 Y2 Y3 Y4 Y5 Y6", rules)
    game.draw(0)  # R10 R11 R12 is an opening worth 33
    game.draw(1)  # K1 K2 Y9 holds none
    game.play(0, "R10 R11 R12")
    report = analyse(GameRecord.from_game(game))

    first, second, third = report.turns
    assert (first.seat, first.action, first.placed, first.best, first.initial_meld) == (0, "draw", 0, 3, True)
    assert first.best_play is not None
    assert str(first.best_play.table) == "R10 R11 R12"
    assert (second.seat, second.action, second.placed, second.best, second.best_play) == (1, "draw", 0, 0, None)
    assert (third.action, third.placed, third.best, third.missed) == ("play", 3, 3, 0)

    ana, bruno = report.players
    assert (ana.name, ana.turns, ana.missed_tiles, ana.turns_with_better_play) == ("P0", 2, 3, 1)
    assert (bruno.missed_tiles, bruno.turns_with_better_play) == (0, 0)


def test_the_json_form_has_the_documented_fields() -> None:
    rules = Rules.preset("casual")
    game = _explicit_game(["R10 R11 R12 B1", "K1 K2 Y9"], "Y1 Y2 Y3", rules)
    game.draw(0)
    data = analyse(GameRecord.from_game(game)).to_dict()
    assert data["turns"] == [
        {
            "index": 0,
            "seat": 0,
            "action": "draw",
            "placed": 0,
            "best": 3,
            "best_play": "R10 R11 R12",
            "best_placed": ["R10", "R11", "R12"],
            "best_steps": data["turns"][0]["best_steps"],
            "initial_meld": True,
            "rack": 4,
            "missed_go_out": False,
        }
    ]
    assert data["turns"][0]["best_steps"]
    assert data["players"][0] == {
        "seat": 0,
        "name": "P0",
        "turns": 1,
        "missed_tiles": 3,
        "turns_with_better_play": 1,
        "placed": 0,
        "best": 3,
        "missed_go_outs": 0,
    }


def test_a_turn_that_could_have_placed_the_whole_rack_is_a_missed_go_out() -> None:
    rules = Rules.preset("casual")
    game = _explicit_game(["R10 R11 R12", "K1 K2 Y9"], "Y1 Y2 Y3", rules)
    game.draw(0)
    report = analyse(GameRecord.from_game(game))
    assert report.turns[0].missed_go_out
    assert report.players[0].missed_go_outs == 1


def test_no_play_of_a_whole_bot_game_beats_the_solver() -> None:
    """What a bot placed can never exceed the best the solver found then;
    greedy plays the solver's best, so it never misses a tile."""
    game = Game.new(["Easy", "Greedy"], rules="casual", seed=11)
    bots = [make_bot("easy", seed=1), make_bot("greedy", seed=2)]
    while not game.is_over and len(game.actions) < 60:
        game.apply(bots[game.turn].choose(game.view(game.turn)))
    report = analyse(GameRecord.from_game(game))
    assert len(report.turns) == len(game.actions)
    assert all(turn.placed <= turn.best for turn in report.turns)
    greedy = report.players[1]
    assert greedy.turns > 0
    assert greedy.missed_tiles == 0


def test_an_illegal_record_names_the_action() -> None:
    rules = Rules.preset("casual")
    game = _explicit_game(["R10 R11 R12 B1", "K1 K2 Y9"], "Y1 Y2 Y3", rules)
    record = GameRecord.from_game(game)
    data = record.to_dict()
    data["actions"] = [{"seat": 1, "type": "draw"}]
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        analyse(GameRecord.from_dict(data))
