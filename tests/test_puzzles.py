"""Certified puzzles: every certificate re-checked by brute force, grades, seeds, the daily puzzle, answers."""

from __future__ import annotations

import datetime
import io
import itertools
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilerummy import Rules, Table, format_tiles, parse_tiles
from tilerummy.cli import main
from tilerummy.cli.puzzle import PuzzleSession
from tilerummy.console import Painter
from tilerummy.puzzles import (
    DAILY_LEVELS,
    LEVELS,
    Puzzle,
    PuzzleError,
    Shape,
    certify,
    check,
    daily,
    daily_seed,
    generate,
    judge_answer,
    level_of,
    stream,
)

from .effort import examples
from .solver_reference import fewest_changes_placing, playable, reference_best, sub_multisets

#: Positions small enough for the brute force: a table of at most 9 tiles, a rack of at most 5.
SMALL = Shape(sets=(2, 3), rack=(3, 5), opening_rack=(4, 5), max_table_tiles=9)


def brute_force_check(puzzle: Puzzle) -> None:
    """Every claim of the puzzle, by the reference that shares no code with the solver: no part of
    the rack larger than the answer can be placed, the answer is the only part of its size that
    can, the certificate's counts are the rack's best without each tile, and the fewest changes."""
    rack, table, rules, melded = list(puzzle.rack), puzzle.table, puzzle.rules, puzzle.initial_meld_done
    answer = tuple(sorted(puzzle.answer, key=lambda tile: tile.sort_key))
    for part in sub_multisets(rack):
        if len(part) < puzzle.best:
            continue
        placeable = playable(table, part, rack, rules, melded=melded) is not None
        assert placeable == (part == answer), (part, placeable)
    for tile, claimed in puzzle.without:
        fewer = list(rack)
        fewer.remove(tile)
        best = reference_best(fewer, table, rules, initial_meld_done=melded, objective="tiles")
        assert (best[0] if best else 0) == claimed < puzzle.best
    fewest = fewest_changes_placing(answer, rack, table, rules, initial_meld_done=melded)
    assert fewest == puzzle.changed_sets


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), level=st.sampled_from([None, 1, 2]))
def test_every_certificate_holds_by_brute_force(seed: int, level: int | None) -> None:
    puzzle = generate(seed, level=level, shape=SMALL)
    assert puzzle.table.tile_count <= 9
    assert len(puzzle.rack) <= 5
    brute_force_check(puzzle)


def test_the_certificate_on_hand_made_positions() -> None:
    # R10 extends the run; B9 fits nowhere: R10 alone is the answer.
    puzzle = certify("R10 B9", "R7 R8 R9 | K8 B8 Y8")
    assert puzzle is not None
    assert puzzle.answer == tuple(parse_tiles("R10"))
    assert puzzle.without == ((parse_tiles("R10")[0], 0),)
    assert puzzle.changed_sets == 1
    brute_force_check(puzzle)
    # R8 extends the run and K8 splits the group with it: both, and the certificate says
    # that without R8 the K8 is placed nowhere, without K8 the R8 still extends the run.
    puzzle = certify("R8 K8", "R5 R6 R7 | R8 B8 Y8 K8")
    assert puzzle is not None
    assert {str(tile): placed for tile, placed in puzzle.without} == {"R8": 0, "K8": 1}
    brute_force_check(puzzle)
    # Of R4, K7 and B13, R4 extends the run and K7 fills the group; B13 is left over.
    puzzle = certify("K7 R4 B13", "R5 R6 R7 R8 | R7 B7 Y7")
    assert puzzle is not None and puzzle.answer == tuple(parse_tiles("R4 K7"))
    assert puzzle.changed_sets == 2
    brute_force_check(puzzle)


def test_two_sets_of_the_same_size_make_no_puzzle() -> None:
    # K5 or the joker fills the group, never both (five tiles): two best sets of one tile.
    assert certify("K5 J", "R5 B5 Y5") is None
    # Nothing can be placed: no puzzle either.
    assert certify("R1 K13", "R5 R6 R7") is None


def test_levels_grade_the_rearranging() -> None:
    assert [level_of(changed) for changed in range(7)] == [1, 1, 2, 3, 4, 4, 4]
    for level in LEVELS:
        puzzle = generate(level, level=level)
        assert puzzle.level == level
        assert len(puzzle.answer) < len(puzzle.rack)  # some rack tile is left over
        if puzzle.initial_meld_done:
            assert puzzle.changed_sets >= 1  # never a fresh set laid on its own
        if level >= 2:
            assert puzzle.changed_sets >= level
            assert puzzle.initial_meld_done
        check(puzzle)


def test_openings_come_at_level_one() -> None:
    openings = [puzzle for puzzle in itertools.islice(stream(3, level=1), 12) if not puzzle.initial_meld_done]
    assert openings
    for puzzle in openings[:2]:
        assert puzzle.changed_sets == 0
        assert judge_answer(puzzle, puzzle.answer_table).solved
        check(puzzle)


def test_puzzles_are_deterministic_from_their_seed() -> None:
    assert generate(11, level=2) == generate(11, level=2)
    assert generate(11, level=2) != generate(12, level=2)
    first = list(itertools.islice(stream(4, level=3), 3))
    assert first == list(itertools.islice(stream(4, level=3), 3))
    assert len({str(puzzle.table) for puzzle in first}) == 3
    for puzzle in first:
        assert puzzle.seed is not None
        assert generate(puzzle.seed, level=3) == puzzle


def test_the_daily_puzzle_comes_from_the_date_alone() -> None:
    day = datetime.date(2026, 12, 4)
    assert daily(day) == daily(datetime.date.fromisoformat("2026-12-04"))
    assert daily(day).seed == daily_seed(day) != daily_seed(day + datetime.timedelta(days=1))
    assert daily(day).level == DAILY_LEVELS[day.weekday()]
    assert daily(day).rules == Rules()
    check(daily(day))


def test_a_day_keeps_its_puzzle() -> None:
    """The puzzle of a date must not change once players have seen it: a change to how
    positions are drawn or judged that moves these breaks every past day's puzzle."""
    friday = daily(datetime.date(2026, 12, 4)).to_dict()
    assert (friday["rack"], friday["table"], friday["answer_placed"], friday["changed_sets"]) == (
        "R2 R3 B8 B9 B11 Y9",
        "B9 B10 B11 B12 | R3 Y3 K3 | Y7 Y8 Y9 Y10 Y11 | K2 K3 K4 | B6 B7 B8 | R6 R7 R8",
        "B8 B9 Y9",
        3,
    )
    sunday = daily(datetime.date(2026, 12, 6)).to_dict()
    assert (sunday["rack"], sunday["answer_placed"], sunday["changed_sets"]) == (
        "B9 Y1 Y6 Y8 Y9 K10 K12",
        "B9 Y1 Y8 Y9 K10",
        5,
    )


def test_any_legal_table_placing_the_answer_solves_it() -> None:
    puzzle = certify("R4 R9 K1 B12", "R5 R6 R7 R8 | B1 Y1 R1")
    assert puzzle is not None and puzzle.answer == tuple(parse_tiles("R4 R9 K1"))
    assert judge_answer(puzzle, puzzle.answer_table).solved
    # Other ways to lay the same tiles are just as right: another order, another split of the run.
    assert judge_answer(puzzle, "R4 R5 R6 R7 R8 R9 | K1 Y1 B1 R1").solved
    assert judge_answer(puzzle, "R1 B1 Y1 K1 | R4 R5 R6 | R7 R8 R9").solved


def test_answers_that_fall_short_or_break_the_rules() -> None:
    puzzle = certify("R10 B9", "R7 R8 R9 | K8 B8 Y8")
    assert puzzle is not None
    verdict = judge_answer(puzzle, "R7 R8 R9 | K8 B8 Y8")
    assert not verdict.solved and not verdict.legal
    assert "no tile from your rack" in verdict.message
    verdict = judge_answer(puzzle, "R7 R8 | R9 R10 | K8 B8 Y8")
    assert not verdict.legal and "not a legal play" in verdict.message
    verdict = judge_answer(puzzle, "R7 R8 R9 | K8 B8 Y8 | B9 B10 B11")
    assert not verdict.legal
    verdict = judge_answer(puzzle, "R7 R8 R9 R10 | K8 B8 Y8")
    assert verdict.solved and verdict.placed == tuple(parse_tiles("R10"))


def test_a_legal_play_of_fewer_tiles_is_not_solved() -> None:
    puzzle = certify("R4 R8 K5", "R5 R6 R7 | B5 Y5 R5")
    assert puzzle is not None and puzzle.best == 3
    verdict = judge_answer(puzzle, "R4 R5 R6 R7 | B5 Y5 R5")
    assert verdict.legal and not verdict.solved
    assert "best places 3" in verdict.message


def test_check_names_a_false_claim() -> None:
    puzzle = generate(2, level=2)
    check(puzzle)
    with pytest.raises(PuzzleError, match="changes"):
        check(replace(puzzle, changed_sets=puzzle.changed_sets + 1))
    tile, placed = puzzle.without[0]
    with pytest.raises(PuzzleError, match="certificate"):
        check(replace(puzzle, without=((tile, placed + 1), *puzzle.without[1:])))
    with pytest.raises(PuzzleError, match="certificate"):
        check(replace(puzzle, without=puzzle.without[1:]))
    with pytest.raises(PuzzleError, match="does not solve"):
        check(replace(puzzle, answer_table=puzzle.table))


def test_the_dictionary_form_round_trips() -> None:
    puzzle = generate(9, level=2)
    data = puzzle.to_dict()
    assert set(data) >= {
        "rack",
        "table",
        "initial_meld_done",
        "best",
        "answer_placed",
        "answer_table",
        "changed_sets",
    }
    assert data["best"] == len(parse_tiles(data["answer_placed"]))
    assert Puzzle.from_dict(data) == puzzle
    with pytest.raises(PuzzleError, match="not a puzzle"):
        Puzzle.from_dict({**data, "rack": "R99"})
    with pytest.raises(PuzzleError, match="not a puzzle"):
        Puzzle.from_dict({key: value for key, value in data.items() if key != "table"})


def test_bad_levels_and_seeds_are_refused() -> None:
    with pytest.raises(PuzzleError, match="level 5"):
        generate(1, level=5)
    with pytest.raises(PuzzleError, match="seed -1"):
        generate(-1)


def test_other_rules_are_followed() -> None:
    house = Rules.preset("house")
    puzzle = generate(6, level=2, rules=house)
    assert puzzle.rules == house
    check(puzzle)
    assert Table.parse(str(puzzle.answer_table), wrap=True) == puzzle.answer_table


# --- the command line ---------------------------------------------------------------


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A command refused with exit 2 and one line on standard error."""
    code: int | str | None
    try:
        code = main(list(args))
    except SystemExit as exit_info:
        code = exit_info.code
    captured = capsys.readouterr()
    assert code == 2, (captured.out, captured.err)
    assert captured.err.count("\n") == 1, captured.err
    return captured.err


def test_generate_prints_one_object_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "generate", "--count", "3", "--seed", "8", "--level", "2", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    expected = list(itertools.islice(stream(8, level=2), 3))
    for line, puzzle in zip(lines, expected, strict=True):
        data = json.loads(line)
        assert data == puzzle.to_dict()
        assert isinstance(data["initial_meld_done"], bool) and data["changed_sets"] >= 2
        check(Puzzle.from_dict(data))


def test_generate_reads_and_follows_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "generate", "--seed", "8", "--rules", "house", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    puzzle = Puzzle.from_dict(data, rules=Rules.preset("house"))
    assert puzzle == next(stream(8, rules="house"))
    assert main(["puzzle", "generate", "--count", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("Puzzle ") == 2 and "Answer: " in out and "Table after: " in out


def test_the_daily_puzzle_is_played_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = daily(datetime.date(2026, 12, 4))
    typed = ["hint", "R5 R6", f"table {puzzle.table}", "done", f"table {puzzle.answer_table}", "done"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["puzzle", "--date", "2026-12-04", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert f"The best play places {puzzle.best} tiles" in out
    assert "R5: not on your rack" in out
    assert "you have placed no tile yet" in out
    assert "Solved!" in out


def test_giving_up_shows_the_answer(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = generate(5, level=2)
    monkeypatch.setattr("sys.stdin", io.StringIO("answer\n"))
    assert main(["puzzle", "--seed", "5", "--level", "2", "--color", "never"]) == 1
    out = capsys.readouterr().out
    assert f"The answer: place {format_tiles(puzzle.answer)}" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["puzzle", "--seed", "5", "--level", "2"]) == 1  # the input ends: not solved


def test_a_short_legal_play_is_told_apart(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = certify("R4 R8 K5", "R5 R6 R7 | B5 Y5 R5")
    assert puzzle is not None
    lines: list[str] = []
    typed = iter(["add 1 R4", "done", "move 1 R4 to 2", "undo", "add 1 R8", "add 2 K5", "done"])
    session = PuzzleSession(puzzle, Painter(colour=False), read=lambda _: next(typed), write=lines.append)
    assert session.run()
    text = "\n".join(lines)
    assert "Not solved: a legal play of 1 tile, but the best places 3" in text
    assert "Solved! R4 R8 K5" in text


def test_answers_are_checked_without_playing(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = generate(5, level=2)
    args = ["puzzle", "--seed", "5", "--level", "2", "--answer"]
    assert main([*args, str(puzzle.answer_table), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["solved"] and verdict["placed"] == format_tiles(puzzle.answer)
    assert main([*args, str(puzzle.table)]) == 1
    assert "Not a legal play" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["generate", "--count", "0"], "--count 0: choose 1 to"),
        (["generate", "--count", "9" * 500], "choose 1 to"),
        (["generate", "--seed", "-3"], "--seed -3"),
        (["generate", "--level", "7"], "--level 7: choose from 1, 2, 3, 4"),
        (["generate", "--rules", "nonsense"], "unknown preset"),
        (["--date", "2026-02-30"], "--date '2026-02-30': write a date as YYYY-MM-DD"),
        (["--date", "2026-12-04", "--seed", "3"], "leave out --seed"),
        (["--level", "0"], "--level 0"),
        (["--json"], "--json goes with --answer"),
        (["generate", "--bogus"], "unrecognized arguments"),
    ],
)
def test_bad_input_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], args: list[str], reason: str) -> None:
    assert reason in refused(capsys, "puzzle", *args)


def test_the_help_names_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["puzzle", "generate", "--help"])
    assert exit_info.value.code == 0
    assert "--count" in capsys.readouterr().out


def test_a_random_puzzle_of_a_level_names_its_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["puzzle", "--level", "3", "--color", "never"]) == 1
    title = capsys.readouterr().out.splitlines()[0]
    assert title.startswith("Puzzle of seed ") and ", level 3:" in title
    seed = int(title.removeprefix("Puzzle of seed ").split(",")[0])
    assert generate(seed, level=3).level == 3
