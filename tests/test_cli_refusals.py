"""Hostile input to the command line: a one-line reason and exit 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilerummy import Game, GameRecord, RecordError, Rules
from tilerummy.cli import main
from tilerummy.console import Painter, final_scores

from .effort import examples
from .helpers import scenario

HUGE_NUMBER = "9" * 5000


def refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run a command that must be refused, and return its one-line reason."""
    code: int | str | None
    try:
        code = main(list(args))
    except SystemExit as exit_info:  # arguments argparse itself refuses
        code = exit_info.code
    captured = capsys.readouterr()
    assert code == 2, (args, captured.out, captured.err)
    assert captured.err.count("\n") == 1, captured.err
    assert len(captured.err) < 300, captured.err
    return captured.err


def output(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> str:
    assert main(list(args)) == code
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "command",
    [
        ["check", f"R{HUGE_NUMBER}"],
        ["check", f"R5 R6 R{HUGE_NUMBER}"],
        ["solve", "--rack", f"K{HUGE_NUMBER} R1"],
        ["score", "--rack", f"Y{HUGE_NUMBER}", "--rack", ""],
    ],
)
def test_a_tile_with_thousands_of_digits_is_out_of_range(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert "numbers run from 1 to 13" in refusal(capsys, *command)


def test_a_record_seed_with_thousands_of_digits_is_refused() -> None:
    data = GameRecord.from_game(Game.new(2, seed=1)).to_dict()
    text = json.dumps(data).replace('"seed": 1', f'"seed": {HUGE_NUMBER}')
    with pytest.raises(RecordError, match="not a record"):
        GameRecord.from_json(text)


def test_records_refuse_nan_and_infinity(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(2, seed=1, started_at=0.0)
    base = GameRecord.from_game(game).to_json()
    timeout = base.replace('"actions": []', f'"actions": [{{"type": "timeout", "seat": {game.turn}, "at": NaN}}]')
    for text in (timeout, base.replace('"started_at": 0.0', '"started_at": Infinity')):
        assert text != base
        with pytest.raises(RecordError, match=r"NaN|Infinity"):
            GameRecord.from_json(text)
        path = tmp_path / "record.json"
        path.write_text(text, encoding="utf-8")
        assert "JSON has no" in refusal(capsys, "replay", str(path))
    # The same values built in Python, not read from JSON.
    data = json.loads(base)
    data["actions"] = [{"type": "timeout", "seat": game.turn, "at": float("nan")}]
    with pytest.raises(RecordError, match="at"):
        GameRecord.from_dict(data)


def _serve_must_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise AssertionError("the server started despite a bad database")

    monkeypatch.setattr("tilerummy.server.serve", refuse)


def test_serve_checks_the_database_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _serve_must_not_start(monkeypatch)
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a database\n", encoding="utf-8")
    assert "file is not a database" in refusal(capsys, "serve", "--db", str(text_file))
    missing = tmp_path / "missing" / "server.sqlite3"
    assert "does not exist" in refusal(capsys, "serve", "--db", str(missing))
    assert not missing.parent.exists()
    assert "not a folder" in refusal(capsys, "serve", "--db", str(tmp_path))
    # Port 1 on this machine refuses connections at once.
    reason = refusal(capsys, "serve", "--db", "postgresql://tilerummy@127.0.0.1:1/tilerummy")
    assert "PostgreSQL" in reason


def test_serve_opens_a_good_database_then_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Any] = []
    monkeypatch.setattr("tilerummy.server.serve", lambda *args: started.append(args))
    database = tmp_path / "server.sqlite3"
    assert main(["serve", "--db", str(database), "--port", "0"]) == 0
    assert len(started) == 1
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


def test_arena_refuses_an_absurd_number_of_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert "choose 1 to 1,000,000" in refusal(
        capsys, "arena", "--bots", "easy,easy", "--games", "99999999999999999999999"
    )
    assert "choose 1 to 256" in refusal(capsys, "arena", "--bots", "easy,easy", "--games", "2", "--workers", "100000")


def test_demo_checks_where_it_saves_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["demo", "--save", str(tmp_path / "missing" / "game.json")])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert "the folder" in captured.err and "does not exist" in captured.err
    assert "not a folder" in refusal(capsys, "demo", "--save", str(tmp_path))
    assert "does not exist" in refusal(capsys, "play", "--save", str(tmp_path / "missing" / "game.json"))


@pytest.mark.parametrize("text", ["", "R5 R6 R7 |", "|", "  ,  "])
def test_check_refuses_a_set_without_tiles(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "(empty)" not in refusal(capsys, "check", text)


def test_check_keeps_the_meaning_a_joker_was_named(capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(output(capsys, "check", "J(B10) R10 J", "--json"))[0]
    assert report["kind"] == "group"
    assert report["jokers"] == ["B10", "Y10|K10"]
    assert report["read_as"] == "R10 J(B10) J"
    assert json.loads(output(capsys, "check", report["read_as"], "--json"))[0]["jokers"] == report["jokers"]
    report = json.loads(output(capsys, "check", "R10 B10 J J(K10)", "--json"))[0]
    assert report["jokers"] == ["Y10", "K10"]
    line = output(capsys, "check", "J(K10) R10 J")
    assert "J = K10, J = B10|Y10 (read as R10 J(K10) J)" in line


def test_score_refuses_contradictory_or_impossible_unmelded_seats(capsys: pytest.CaptureFixture[str]) -> None:
    racks = ["--rack", "R1", "--rack", "R2", "--rack", ""]
    reason = refusal(capsys, "score", *racks, "--unmelded", "0:could", "--unmelded", "0:never")
    assert "seat 0 is given both as could and as never" in reason
    assert "seats run from 0 to 2" in refusal(capsys, "score", *racks, "--unmelded", "7:never")
    scores = json.loads(output(capsys, "score", *racks, "--unmelded", "0:never", "--unmelded", "0:never", "--json"))
    assert scores["scores"][0] == -100


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["demo", "--delay", "nan"], "give a pause of 0 to 60 seconds"),
        (["demo", "--delay", "inf"], "give a pause of 0 to 60 seconds"),
        (["demo", "--seed", str(2**64)], "seeds run from 0 to 2**63 - 1"),
        (["demo", "--players", HUGE_NUMBER], "invalid int value"),
        (["play", "--name", " "], "give a name of 1 to 100 printable characters"),
        (["play", "--name", "x" * 101], "give a name of 1 to 100 printable characters"),
        (["play", "--name", "Ana (easy)", "--bots", "easy"], "a bot has that name"),
        (["score", "--rack", "J", "--rack", "", "--joker-penalty", "1" + "0" * 400], "must be at most 1000"),
        (["play", "--option", f"rounds={HUGE_NUMBER}"], "rounds="),
        (["arena", "--bots", "easy,easy", "--games", "2", "--seed", "-1"], "seeds run from 0"),
        (["arena", "--bots", "easy,easy", "--games", "2", "--plot", "/no/such/folder/plot.png"], "does not exist"),
        (["replay", "."], "Is a directory"),
    ],
)
def test_more_hostile_arguments_are_refused(
    command: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in refusal(capsys, *command)


def test_counts_agree_with_their_nouns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = scenario(["R10 R11 R12 R13 R1", "K5"])
    game.play(0, "R10 R11 R12 R13")
    record = tmp_path / "game.json"
    record.write_text(GameRecord.from_game(game).to_json(), encoding="utf-8")
    out = output(capsys, "replay", str(record))
    assert "1 of 1 action applied" in out
    assert "P0: 1 tile\n" in out and "P1: 1 tile\n" in out
    assert "1 tiles" not in out


def test_a_player_called_you_is_addressed_as_you(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(["Ana", "You"], seed=1)
    if game.turn == 0:
        game.draw(0)
    record = tmp_path / "game.json"
    record.write_text(GameRecord.from_game(game).to_json(), encoding="utf-8")
    assert "You are to play" in output(capsys, "replay", str(record))


def test_final_scores_line_up_whatever_the_names() -> None:
    dealt = scenario(["R10 R11 R12", "K5", "B7"])
    game = Game(dealt.rules, dealt.deal, ["You", "Bruno (greedy)", "Ana (easy)"])
    game.play(0, "R10 R11 R12")
    lines = final_scores(game, Painter(colour=False))
    columns = {line.index("rack (") for line in lines[1:]}
    assert len(columns) == 1, lines


def test_the_rules_header_names_each_option_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    out = output(capsys, "play", "--bots", "easy", "--seed", "1", "--option", "turn_seconds=60", "--color", "never")
    header = out.splitlines()[0]
    assert header == "tilerummy: you against 1 bot, rules casual (turn_seconds=60)"


def test_check_json_always_has_read_as(capsys: pytest.CaptureFixture[str]) -> None:
    reports = json.loads(output(capsys, "check", "R1 R2 R3", "R1 R2", "--json", code=1))
    assert [report["read_as"] for report in reports] == ["R1 R2 R3", None]
    assert all(set(report) == set(reports[0]) for report in reports)


def test_solve_says_value_as_the_readme_does(capsys: pytest.CaptureFixture[str]) -> None:
    out = output(capsys, "solve", "--rack", "R4 K5", "--table", "R5 B5 Y5 | R6 R7 R8")
    assert out.startswith("Place 2 tiles (R4 K5), value 9.\n")
    assert output(capsys, "solve", "--rack", "R1 R2 R3 K9").startswith("Place 3 tiles (R1 R2 R3), value 6.")


def test_rules_with_huge_numbers_name_their_size() -> None:
    with pytest.raises(ValueError, match=r"joker_penalty=1e5000: must be at most 1000"):
        Rules(joker_penalty=10**5000)


arguments = st.text(alphabet="RBYKJrbykj0123456789()|,#:- \t", max_size=24) | st.text(max_size=12)


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(
        [
            ["check", "{}"],
            ["check", "{}", "--json", "--wrap"],
            ["score", "--rack", "{}", "--rack", ""],
            ["score", "--rack", "R1", "--rack", "", "--unmelded", "{}"],
            ["solve", "--rack", "{}", "--table", "R5 R6 R7"],
            ["solve", "--rack", "R5", "--table", "{}"],
            ["rules", "{}"],
            ["check", "R1 R2 R3", "--rules", "{}"],
        ]
    ),
    text=arguments,
)
def test_any_text_in_any_argument_is_answered_without_a_traceback(
    command: list[str], text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    filled = [text if part == "{}" else part for part in command]
    try:
        code = main(filled)
    except SystemExit as exit_info:  # argparse refusing an argument that looks like an option
        code = exit_info.code if isinstance(exit_info.code, int) else 2
    captured = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == 2:
        assert captured.err.count("\n") == 1, captured.err


def test_replay_refuses_what_is_no_record_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "too large for a game record" in refusal(capsys, "replay", "/dev/zero")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    assert "a record is a JSON object, not [1, 2]" in refusal(capsys, "replay", str(listed))
    assert "Is a directory" in refusal(capsys, "verify", str(tmp_path))


def test_serve_checks_its_address_before_starting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _serve_must_not_start(monkeypatch)
    database = str(tmp_path / "server.sqlite3")
    # A name with an empty label is refused before any name server is asked.
    assert "--host 'a..b': not a host name" in refusal(
        capsys, "serve", "--host", "a..b", "--port", "0", "--db", database
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert "in use" in refusal(capsys, "serve", "--port", str(port), "--db", database)


def test_serve_refuses_a_direct_address_outside_a_cluster_or_malformed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _serve_must_not_start(monkeypatch)
    database = str(tmp_path / "server.sqlite3")
    alone = refusal(capsys, "serve", "--port", "0", "--db", database, "--direct-port", "9101")
    assert alone.endswith("serve: --direct-port and --direct-url are for a cluster: add --redis\n")
    redis = ("--redis", "redis://127.0.0.1:1/0")
    reason = refusal(capsys, "serve", "--port", "0", "--db", database, *redis, "--direct-url", "http://x/ws")
    assert "--direct-url http://x/ws: a WebSocket address" in reason
    same = refusal(capsys, "serve", "--port", "9101", "--db", database, *redis, "--direct-port", "9101")
    assert "--direct-port 9101: choose 1 to 65535, not the --port" in same


def test_serve_tells_the_address_of_its_direct_port_or_the_one_given() -> None:
    from tilerummy.cli.serve import _direct_url

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    given = argparse.Namespace(host="0.0.0.0", port=8000, redis="redis://r/0", direct_port=port, direct_url=None)
    assert _direct_url(given) == f"ws://127.0.0.1:{port}/ws"
    behind = argparse.Namespace(**{**vars(given), "direct_url": "wss://play.example.org/s/1/ws"})
    assert _direct_url(behind) == "wss://play.example.org/s/1/ws"
    assert _direct_url(argparse.Namespace(**{**vars(given), "direct_port": None})) is None
