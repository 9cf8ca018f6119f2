from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tilerummy import Game, GameRecord, Reason, RecordError, Rules
from tilerummy.bots import SimpleBot
from tilerummy.cli import main
from tilerummy.rules import OPTION_HELP, OPTION_MAXIMUM, PRESETS

from .helpers import scenario


def played_game(seed: int = 3, rules: Rules | None = None) -> Game:
    game = Game.new(["Ana", "Bruno", "Carla"], rules=rules or Rules(), seed=seed)
    bot = SimpleBot()
    while not game.is_over:
        game.apply(bot.choose(game.view(game.turn)))
    return game


def test_seeded_record_round_trip_and_replay() -> None:
    game = played_game()
    record = GameRecord.from_game(game)
    data = json.loads(record.to_json())
    assert data["format"] == "tilerummy-record"
    assert data["seed"] == 3
    assert "deal" not in data
    again = GameRecord.from_json(record.to_json())
    assert again == record
    replay = again.replay()
    assert replay.ok
    assert replay.game.result == game.result
    assert replay.game.table == game.table


def test_explicit_deal_record() -> None:
    game = scenario(["K10 B10 Y10 R1", "R2 R3"])
    game.play(0, "K10 B10 Y10")
    game.draw(1)
    data = GameRecord.from_game(game).to_dict()
    assert data["deal"]["racks"] == ["K10 B10 Y10 R1", "R2 R3"]
    assert data["actions"] == [
        {"seat": 0, "type": "play", "table": "B10 Y10 K10"},
        {"seat": 1, "type": "draw"},
    ]
    replay = GameRecord.from_dict(data).replay()
    assert replay.ok
    assert replay.game.rack_tiles(1) == game.rack_tiles(1)


def test_replay_stops_at_the_first_illegal_action() -> None:
    game = scenario(["K10 B10 Y10 R1", "R2 R3"])
    data = GameRecord.from_game(game).to_dict()
    data["actions"] = [
        {"seat": 0, "type": "draw"},
        {"seat": 0, "type": "draw"},
        {"seat": 1, "type": "draw"},
    ]
    replay = GameRecord.from_dict(data).replay()
    assert not replay.ok
    assert replay.error_index == 1
    assert replay.error is not None
    assert replay.error.reason is Reason.NOT_YOUR_TURN
    assert len(replay.game.actions) == 1


def test_times_are_kept() -> None:
    game = Game.new(2, seed=1, started_at=0.0)
    game.draw(game.turn, at=10.0)
    game.timeout(game.turn, at=200.0)
    record = GameRecord.from_json(GameRecord.from_game(game).to_json())
    assert record.started_at == 0.0
    assert [action.at for action in record.actions] == [10.0, 200.0]
    assert record.replay().ok


def base_record() -> dict[str, Any]:
    return GameRecord.from_game(Game.new(2, seed=1)).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "format"),
        ({"version": 9}, "version"),
        ({"players": "Ana"}, "players: expected a list"),
        ({"players": ["A", "B", "C", "D", "E"]}, "five|5 players need the six-player set"),
        ({"rules": {"wrap": "yes"}}, "rules: wrap='yes'"),
        ({"seed": "x"}, "seed: expected a whole number"),
        ({"seed": None}, "a record gives either a seed or a deal"),
        ({"players": [10**30, "B"]}, r"players\[0\]: expected a string, got a huge number"),
        ({"actions": [{"seat": 0, "type": "fly"}]}, r"actions\[0\].type"),
        ({"actions": [{"seat": 0, "type": "play"}]}, r"actions\[0\].table"),
        ({"actions": [{"seat": "0", "type": "draw"}]}, r"actions\[0\].seat"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
def test_malformed_records_name_the_field(change: dict[str, Any], message: str) -> None:
    data = base_record()
    data.update(change)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_explicit_deal_must_be_the_whole_set() -> None:
    data = base_record()
    del data["seed"]
    data["deal"] = {"first": 0, "racks": ["R1 R2", "R3"], "pool": "R4"}
    with pytest.raises(RecordError, match="is not the standard set of 106 tiles"):
        GameRecord.from_dict(data)
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.from_json("{")


def test_the_documented_example_replays() -> None:
    text = (Path(__file__).parents[1] / "docs" / "record-format.md").read_text(encoding="utf-8")
    example = text.split("## Example\n\n```json\n", 1)[1].split("```", 1)[0]
    replay = GameRecord.from_json(example).replay()
    assert replay.ok
    assert len(replay.game.actions) == 4
    assert replay.game.rules.turn_seconds == 60
    assert len(replay.game.rack(0)) == 14 - 4 + 3


def test_an_invalid_set_in_a_play_is_an_illegal_action() -> None:
    data = base_record()
    first = GameRecord.from_dict(data).new_game().turn
    data["actions"] = [{"seat": first, "type": "play", "table": "R9 B9 | R12 B12 Y12"}]
    replay = GameRecord.from_dict(data).replay()
    assert replay.error_index == 0
    assert replay.error is not None
    assert replay.error.reason is Reason.INVALID_SET
    assert "set 1: R9 B9: a set needs at least 3 tiles" in replay.error.detail


def test_records_refuse_duplicate_names_negative_seeds_and_unknown_deal_fields() -> None:
    data = base_record()
    data["players"] = ["Ana", "Ana"]
    with pytest.raises(RecordError, match="same name"):
        GameRecord.from_dict(data)
    data = base_record()
    data["seed"] = -1
    with pytest.raises(RecordError, match="0 or more"):
        GameRecord.from_dict(data)
    data = base_record()
    data["result"] = [1]
    with pytest.raises(RecordError, match="result: expected an object"):
        GameRecord.from_dict(data)


def test_the_json_schema_describes_the_record_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "tilerummy game record"
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"format", "version", "rules", "players", "actions"}
    rules = schema["$defs"]["RulesModel"]["properties"]
    assert set(rules) == set(OPTION_HELP) | {"preset"}
    for option, maximum in OPTION_MAXIMUM.items():
        shown = rules[option].get("anyOf", [rules[option]])[0]
        assert shown["maximum"] == maximum, option
    assert rules["tile_set"]["enum"] == ["standard", "six-player"]
    action_types = {
        schema["$defs"][name]["properties"]["type"]["const"]
        for name in ("PlayModel", "DrawModel", "PassModel", "TimeoutModel")
    }
    assert action_types == {"play", "draw", "pass", "timeout"}
    assert schema["properties"]["seed"]["anyOf"][0]["maximum"] == 2**64 - 1


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("actions", 1, "at"), float("nan"), r"actions\[1\]\.at: expected a finite number"),
        (("actions", 0, "at"), float("inf"), r"actions\[0\]\.at: expected a finite number"),
        (("started_at",), float("-inf"), "started_at: expected a finite number"),
        (("actions", 1, "seat"), True, r"actions\[1\]\.seat: expected a whole number, got True"),
        (("actions", 1, "seat"), 1.0, r"actions\[1\]\.seat: expected a whole number"),
        (("actions", 0, "seat"), 6, r"actions\[0\]\.seat: expected less than 6"),
        (("seed",), 2**64, "seed: expected at most 18446744073709551615"),
        (("rules", "joker_penalty"), 10**6, "rules: joker_penalty=1000000: expected at most 1000"),
        (("rules", "turn_seconds"), "60", "rules: turn_seconds='60': expected a number"),
        (("players", 1), "", r"players\[1\]: expected a non-empty string"),
        (("actions", 0, "colour"), "red", r"actions\[0\]: unknown field 'colour'"),
        (("result",), "won", "result: expected an object"),
    ],
)
def test_record_errors_name_the_field_path(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = base_record()
    data["started_at"] = 0.0
    data["actions"] = [{"seat": 0, "type": "draw", "at": 1.0}, {"seat": 1, "type": "draw", "at": 2.0}]
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_saved_records_load_and_write_back_the_same(preset: str) -> None:
    game = played_game(seed=5, rules=Rules.preset(preset).replace(turn_seconds=None))
    data = json.loads(GameRecord.from_game(game).to_json(result=game.result.to_dict() if game.result else None))
    data["started_at"] = 0  # a whole number of seconds, as hand-written records have
    record = GameRecord.from_dict(data)
    again = record.to_dict(result=data.get("result"))
    assert again == data
    assert record.replay().game.result == game.result


def test_a_value_nested_too_deeply_is_refused_with_a_record_error() -> None:
    nested: list[object] = []
    for _ in range(5000):
        nested = [nested]
    data = {"format": "tilerummy-record", "version": 1, "rules": {}, "players": nested, "seed": 1, "actions": []}
    with pytest.raises(RecordError, match="players"):
        GameRecord.from_dict(data)
