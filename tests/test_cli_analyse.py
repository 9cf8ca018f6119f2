"""``tilerummy analyse`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilerummy import GameRecord, Rules
from tilerummy.cli import main

from .helpers import scenario


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    game = scenario(["R10 R11 R12 B1", "K1 K2 Y9"], rules=Rules.preset("casual"), pool_front="Y1 Y2 Y3")
    game.draw(0)
    game.draw(1)
    game.play(0, "R10 R11 R12")
    path = tmp_path / "game.json"
    path.write_text(GameRecord.from_game(game).to_json(), encoding="utf-8")
    return path


def test_analyse_lists_the_missed_turn_and_sums_it_up(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(record_file), "--show-best"]) == 0
    out = capsys.readouterr().out
    assert "   1  P0  drew; could have placed 3 tiles to open: R10 R11 R12" in out
    assert "- lay R10 R11 R12 as a new run" in out
    assert "P0  3 tiles missed over 2 turns; a better play on 1" in out
    assert "P1  0 tiles missed over 1 turns" not in out  # plural is right
    assert "P1  0 tiles missed over 1 turn;" in out


def test_analyse_json_follows_the_documented_shape(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(record_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(turn["index"], turn["seat"], turn["action"], turn["placed"], turn["best"]) for turn in data["turns"]] == [
        (0, 0, "draw", 0, 3),
        (1, 1, "draw", 0, 0),
        (2, 0, "play", 3, 3),
    ]
    assert data["turns"][0]["best_play"] == "R10 R11 R12"
    assert data["players"][0] == {
        "seat": 0,
        "name": "P0",
        "turns": 2,
        "missed_tiles": 3,
        "turns_with_better_play": 1,
        "placed": 3,
        "best": 6,
        "missed_go_outs": 0,
    }


def test_analyse_refuses_what_is_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nothing.json"
    path.write_text("[1, 2", encoding="utf-8")
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilerummy analyse: not JSON")
    assert err.count("\n") == 1
