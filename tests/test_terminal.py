"""The terminal game, driven by a scripted person."""

from __future__ import annotations

import io
import itertools
import re
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tilerummy import Game, Rules
from tilerummy.bots import make_bot
from tilerummy.cli import main
from tilerummy.console import Painter
from tilerummy.solver import solve
from tilerummy.terminal import HELP, SHORT_HELP, LiveClock, TerminalGame

from .helpers import scenario


def scripted(
    game: Game, lines: list[str], *, clock: Callable[[], float] | None = None
) -> tuple[TerminalGame, list[str]]:
    """A terminal game where seat 0 types ``lines`` (then leaves) and seat 1 is a greedy bot."""
    output: list[str] = []
    typed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        output.append(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    terminal = TerminalGame(
        game,
        0,
        {1: make_bot("greedy")},
        Painter(colour=False),
        read=read,
        write=output.append,
        clock=clock or (lambda: 0.0),
    )
    terminal.run()
    return terminal, output


def after_opening(rack: str) -> Game:
    """Seat 0 has opened with R4 R5 R6 R7 | B13 Y13 K13 and holds ``rack``; the bot has drawn."""
    game = scenario([f"R4 R5 R6 R7 B13 Y13 K13 {rack}", "Y1 Y2 Y3 Y4"])
    game.play(0, "R4 R5 R6 R7 | B13 Y13 K13")
    game.draw(1)
    return game


def test_a_draft_shows_each_set_valid_or_not_with_the_reason() -> None:
    game = scenario(["R10 R11 R12 K1 K2", "Y1 Y2"])
    _, output = scripted(game, ["R10 R11 | K1 K2", "add 1 R12", "R9"])
    text = "\n".join(output)
    assert "R10 R11   ✗ a set needs at least 3 tiles" in text
    assert "Rack (0): (empty)" in text
    assert "R10 R11 R12   ✓ run, 33" in text
    assert "Initial meld: 33 / 30" in text
    assert "R9: not on your rack" in text
    assert game.actions == ()  # nothing was submitted


def test_a_refused_turn_names_the_reason_and_the_person_tries_again() -> None:
    game = scenario(["R1 R2 R3 K1 K2", "Y1 Y2"])
    _, output = scripted(game, ["R1 R2 R3", "done", "undo", "draw"])
    text = "\n".join(output)
    assert "Not accepted:" in text and "30" in text  # 6 points do not make an initial meld
    assert len(game.actions) == 2  # the person drew, then the bot played


def test_moving_tiles_between_sets_and_ending_the_turn() -> None:
    game = after_opening("R8 B8")
    _, output = scripted(game, ["move 1 R7 to 3", "move 1 R7 to new", "add 3 R8 B8", "done"])
    text = "\n".join(output)
    assert "3: no such set (sets are numbered 1 to 2)" in text  # and nothing changed
    assert "   3. R7 R8 B8   ✗" in text  # neither a run nor a group yet
    assert "Not accepted:" in text
    assert len(game.actions) == 2  # the refused play changed nothing; then the person left


def test_hint_shows_the_steps() -> None:
    game = after_opening("R8 B8")
    _, output = scripted(game, ["hint", "add 1 R8", "done"])
    text = "\n".join(output)
    assert "Best play: 1 tile." in text and "R8" in text
    assert "You placed R8." in text
    assert str(game.table).startswith("R4 R5 R6 R7 R8")


def test_the_hints_table_is_applied_as_the_draft() -> None:
    game = after_opening("R8 B8")
    _, output = scripted(game, ["apply", "hint", "apply", "done"])
    text = "\n".join(output)
    assert "no hint to apply: ask for one with 'hint'" in text
    assert "'apply' makes it your draft." in text
    assert "   1. R4 R5 R6 R7 R8   ✓ run, 30" in text
    assert "You placed R8." in text


def test_the_hint_goes_on_from_the_draft() -> None:
    game = after_opening("R8 R9 K1")
    _, output = scripted(game, ["add 1 R8", "hint", "apply", "done"])
    text = "\n".join(output)
    assert "From your draft, 1 tile more:" in text and "add R9 to R4 R5 R6 R7 R8" in text
    assert "You placed R8 R9." in text


def test_a_game_logs_every_turn_and_the_sets_keep_their_numbers() -> None:
    game = Game.new(["You", "Bot"], rules="casual", seed=11)
    _, output = scripted(game, ["draw"] * 25)
    bot_lines = [line for line in output if line.startswith("Bot ")]
    assert any(re.fullmatch(r"Bot placed [A-Z0-9 ]+( and moved .+)?\(\d+ left\)\.", line) for line in bot_lines), (
        bot_lines
    )
    assert any(re.fullmatch(r"You drew [RBYK]\d+\.|You drew J\.", line) for line in output)
    # Each listing of the table, as a list of sets; a set still there unchanged keeps its number.
    listings: list[dict[str, int]] = []
    for line in output:
        if line.startswith("Table:"):
            listings.append({})
        found = re.fullmatch(r"\s+(\d+)\. (.+?)   [✓✗].*", line)
        if found and listings:
            listings[-1][found.group(2)] = int(found.group(1))
    assert len([listing for listing in listings if listing]) >= 3
    for earlier, later in itertools.pairwise(listings):
        for text, number in earlier.items():
            if text in later:
                assert later[text] == number, (text, earlier, later)


def test_the_draw_for_the_first_player_is_shown() -> None:
    game = Game.new(["You", "Bot"], seed=3)
    assert game.deal.first_draws
    _, output = scripted(game, [])
    assert output[0].startswith("Drawing for first player: You ")
    assert output[0].endswith("The highest starts.")


def test_an_empty_line_is_answered_with_a_reminder_not_the_whole_help() -> None:
    game = scenario(["R1 R2 R3 K1 K2", "Y1 Y2"])
    _, output = scripted(game, [""])
    assert SHORT_HELP in output
    assert HELP not in output


def test_a_long_rack_breaks_between_tiles() -> None:
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 Y10 Y11 Y12 Y13"
    game = scenario([rack, "K1 K2"])
    _, output = scripted(game, [])
    start = next(index for index, line in enumerate(output) if line.startswith("Rack (30): "))
    rack_lines = [output[start], *itertools.takewhile(lambda line: line.startswith("    "), output[start + 1 :])]
    assert len(rack_lines) >= 2
    assert all(len(line) <= 100 for line in rack_lines)
    assert " ".join(rack_lines).removeprefix("Rack (30): ").split() == rack.split()


def test_the_live_clock_redraws_the_prompt_in_place() -> None:
    class Screen(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Screen()
    prompts = iter(["[ 59s] > ", "[ 58s] > "])
    ticks = iter([False, False, True])
    LiveClock(lambda: next(prompts), screen, wait=lambda seconds: next(ticks)).run()
    assert screen.getvalue() == "\0337\r[ 59s] > \0338\0337\r[ 58s] > \0338"


def test_a_whole_game_typed_from_the_solver() -> None:
    game = Game.new(["You", "Bot"], rules="casual", seed=4)
    lines: list[str] = []

    class Typist:
        """Types the solver's best table, or draws."""

        def __init__(self) -> None:
            self.pending: list[str] = []

        def __call__(self, prompt: str) -> str:
            if not self.pending:
                found = solve(game.rack_tiles(0), game.table, rules=game.rules, initial_meld_done=game.melded[0])
                self.pending = ["draw"] if found is None else [f"table {found.table}", "done"]
            lines.append(self.pending[0])
            return self.pending.pop(0)

    output: list[str] = []
    TerminalGame(game, 0, {1: make_bot("greedy")}, Painter(colour=False), read=Typist(), write=output.append).run()
    assert game.is_over
    assert any("went out" in line or "pool ran out" in line for line in output)
    assert any(line.strip().startswith("You") and "rack (" in line for line in output)


def test_the_clock_runs_out_and_the_penalty_is_drawn() -> None:
    now = [0.0]

    def clock() -> float:
        return now[0]

    rules = Rules(turn_seconds=30, timeout_penalty=3)
    game = scenario(["R1 R2 R3 K1 K2", "Y1 Y2"], rules=rules)
    game = Game(game.rules, game.deal, game.players, started_at=0.0)

    class Slow:
        def __call__(self, prompt: str) -> str:
            if game.turn != 0 or len(game.actions) > 0:
                raise EOFError
            now[0] += 45  # the person thinks for 45 seconds
            return "R1 R2 R3"

    output: list[str] = []
    TerminalGame(
        game, 0, {1: make_bot("greedy")}, Painter(colour=False), read=Slow(), write=output.append, clock=clock
    ).run()
    assert "Time is up" in "\n".join(output)
    assert game.actions[0].kind == "timeout"
    assert len(game.rack(0)) == 8


def test_play_command_starts_and_quits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "--bots", "greedy,easy", "--seed", "2", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "you against 2 bots" in out and "You left the game." in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "greedy,wizard"], "unknown bot level 'wizard'"),
        (["--bots", "greedy,greedy,greedy,greedy"], "need the six-player set"),
        (["--bots", ""], "choose 1 to 5 bots"),
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--option", "turn_seconds=-1"], "turn_seconds=-1"),
    ],
)
def test_play_refuses_bad_input_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_a_match_of_two_rounds_shows_the_totals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    games: list[Game] = []
    original = TerminalGame.__init__

    def remember(self: TerminalGame, game: Game, *args: Any, **kwargs: Any) -> None:
        games.append(game)
        original(self, game, *args, **kwargs)

    def typist(prompt: str = "") -> str:
        """Types the solver's best table, or draws; Enter between rounds."""
        if "next round" in prompt:
            return ""
        game = games[-1]
        if prompt.startswith((">", "[")):
            found = solve(game.rack_tiles(0), game.table, rules=game.rules, initial_meld_done=game.melded[0])
            return "draw" if found is None else f"table {found.table}\x00done"
        return ""

    pending: list[str] = []

    def read(prompt: str = "") -> str:
        if not pending:
            pending.extend(typist(prompt).split("\x00"))
        return pending.pop(0)

    monkeypatch.setattr(TerminalGame, "__init__", remember)
    monkeypatch.setattr("builtins.input", read)
    save = tmp_path / "match.json"
    assert (
        main(
            ["play", "--bots", "greedy", "--seed", "8", "--option", "rounds=2", "--color", "never", "--save", str(save)]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Round 2" in out and "Totals after 2 rounds" in out and "The match is over" in out
    assert len(games) == 2 and all(game.is_over for game in games)
    assert save.exists() and (tmp_path / "match-round2.json").exists()


def test_the_clock_cuts_a_turn_short_while_the_person_is_typing() -> None:
    rules = Rules(turn_seconds=0.3, timeout_penalty=2)
    game = scenario(["R1 R2 R3 K1 K2", "Y1 Y2"], rules=rules)
    game = Game(game.rules, game.deal, game.players, started_at=time.monotonic())
    typed: list[str] = []

    def thinking(prompt: str) -> str:
        if typed:
            raise EOFError
        typed.append(prompt)
        signal.pause()  # the person is still typing when the alarm rings, which interrupts this
        return "draw"

    output: list[str] = []
    terminal = TerminalGame(
        game,
        0,
        {1: make_bot("greedy")},
        Painter(colour=False),
        read=thinking,
        write=output.append,
        interrupt_at_deadline=True,
    )
    terminal.run()
    # Had the alarm not cut the turn short, the person would have drawn.
    assert game.actions[0].kind == "timeout"
    assert "Time is up: the table is put back and you draw 2 tiles." in output
