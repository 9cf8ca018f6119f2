from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tilerummy.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "R5 R6 J", "K10 B10 J", "--json")
    assert code == 0
    reports = json.loads(out)
    assert reports[0] == {
        "set": "R5 R6 J",
        "valid": True,
        "kind": "run",
        "value": 18,
        "jokers": ["R7"],
        "reason": None,
        "read_as": "R5 R6 J",
    }
    assert reports[1]["jokers"] == ["R10|Y10"]
    assert reports[1]["value"] == 30


def test_check_invalid_exits_1_with_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "R12 R13 R1", "--json")
    assert code == 1
    assert json.loads(out)[0]["reason"] == "1 follows 13 only with the wrap option"
    code, out, _ = run(capsys, "check", "R12 R13 R1")
    assert code == 1
    assert out == "R12 R13 R1  invalid: 1 follows 13 only with the wrap option\n"
    code, out, _ = run(capsys, "check", "R12 R13 R1", "--wrap")
    assert code == 0
    assert "valid run, value 26" in out
    code, out, _ = run(capsys, "check", "R12 R13 R1", "--rules", "house")
    assert code == 0
    # A tile that is not a tile is bad input, not an invalid set.
    code, out, err = run(capsys, "check", "Q5 Q6 Q7")
    assert code == 2
    assert "unknown colour 'Q'" in err
    code, out, _ = run(capsys, "check", "R5 J J J", "--json")
    assert code == 1
    assert json.loads(out)[0]["reason"] == "the standard set has only 2 jokers"
    assert run(capsys, "check", "R5 J J J", "--rules", "six-player")[0] == 0


def test_score_online_rules_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "score", "--rack", "R6", "--rack", "B1 B2 Y2 K7", "--rack", "J R5", "--rack", "Y9 K10", "--json"
    )
    assert code == 0
    assert json.loads(out) == {"scores": [48, -6, -29, -13], "winner": 0, "values": [6, 12, 35, 19]}


def test_score_went_out_and_unmelded(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "score",
        "--rack",
        "",
        "--rack",
        "J",
        "--rack",
        "K13",
        "--unmelded",
        "2:could",
        "--joker-penalty",
        "25",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["scores"] == [225, -25, -200]
    code, out, _ = run(capsys, "score", "--rack", "", "--rack", "R1")
    assert code == 0
    assert "Seat 0 wins: went out." in out


def test_bad_input_gives_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", "--rack", "R1", "--rack", "X9")
    assert code == 2
    assert err.strip().count("\n") == 0
    assert "X9" in err
    code, _, err = run(capsys, "score", "--rack", "R1", "--rack", "", "--unmelded", "zero")
    assert code == 2
    assert "--unmelded 'zero'" in err
    code, _, err = run(capsys, "check", "R1 R2 R3", "--rules", "nope")
    assert code == 2
    assert "unknown preset 'nope'" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["check"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_rules_listing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    assert "Presets: standard, six-player" in out
    assert "joker_replacement" in out
    code, out, _ = run(capsys, "rules", "house", "--json")
    assert json.loads(out)["house"]["wrap"] is True
    code, _, err = run(capsys, "rules", "nope")
    assert "unknown preset" in err
    assert code == 2


def test_demo_saves_a_record_that_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, _ = run(capsys, "demo", "--seed", "2", "--players", "3", "--save", str(record), "--color", "never")
    assert code == 0
    assert "Ana" in out
    assert "\x1b[" not in out
    code, out, _ = run(capsys, "replay", str(record), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["ok"]
    assert result["over"]
    assert result["result_matches_record"] is True
    code, out, _ = run(capsys, "replay", str(record))
    assert "Round over" in out


def test_replay_reports_the_illegal_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "bad.json"
    run(capsys, "demo", "--seed", "2", "--players", "2", "--save", str(record))
    data = json.loads(record.read_text())
    data["actions"][3]["seat"] = 1 - data["actions"][3]["seat"]
    record.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", str(record), "--json")
    assert code == 1
    assert json.loads(out)["error"]["index"] == 3
    assert json.loads(out)["error"]["reason"] == "not_your_turn"
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2
    assert "No such file" in err


def test_console_script_is_installed() -> None:
    script = shutil.which("tilerummy") or str(Path(__file__).parents[1] / ".venv" / "bin" / "tilerummy")
    done = subprocess.run([script, "check", "K10 B10 Y10"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "valid group, value 30" in done.stdout


def test_help_names_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert all(command in out for command in ("check", "score", "solve", "replay", "serve", "arena"))


def test_more_bad_input_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cases = [
        ["score", "--rack", "R5 R5 R5", "--rack", "R1"],
        ["score", "--rack", "R1", "--rack", "R2", "--rack", "R3", "--rack", "R4", "--rack", "R5"],
        ["solve", "--rack", "J J J R5"],
        ["demo", "--delay", "-1"],
        ["demo", "--seed", "-1"],
    ]
    for args in cases:
        code, _, err = run(capsys, *args)
        assert code == 2, args
        assert err.strip().count("\n") == 0, err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "replay", str(binary))
    assert code == 2
    assert "not UTF-8" in err


def test_replay_notices_a_record_cut_short(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run(capsys, "demo", "--seed", "3", "--players", "2", "--save", str(record))
    data = json.loads(record.read_text())
    data["actions"].pop()
    record.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", str(record), "--json")
    assert code == 1
    assert json.loads(out)["result_matches_record"] is False


def test_solve_json_keeps_what_jokers_stand_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rack", "R13 J J", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["table"] == [["R13", "J", "J"]]
    assert main(["solve", "--rack", "R10 B10 J K1 K2", "--initial"]) == 0
    assert "an initial meld worth 30" in capsys.readouterr().out
