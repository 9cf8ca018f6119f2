"""The arena: mirrored deals, the statistics, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilerummy.arena import run_arena
from tilerummy.arena.games import schedule
from tilerummy.arena.stats import elo_difference, fit_ratings, wilson
from tilerummy.cli import main
from tilerummy.records import GameRecord
from tilerummy.rules import Rules


def test_each_deal_is_played_once_per_seat_rotation() -> None:
    specs = schedule(["hard", "greedy", "random"], 5, seed=10, rules=Rules())
    assert len(specs) == 6  # rounded up to whole deals
    assert [spec.seed for spec in specs] == [10, 10, 10, 11, 11, 11]
    first_deal = [spec.seats for spec in specs[:3]]
    for seat in range(3):
        assert sorted(seats[seat] for seats in first_deal) == ["greedy", "hard", "random"]


def test_wilson_interval_matches_the_formula() -> None:
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_ratings_recover_a_known_difference() -> None:
    share = 0.64
    ratings = fit_ratings({("a", "b"): (share * 10000, 10000), ("b", "a"): ((1 - share) * 10000, 10000)}, ["a", "b"])
    assert ratings["a"] - ratings["b"] == pytest.approx(elo_difference(share), abs=2)
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500)


def test_a_small_arena_reports_every_figure() -> None:
    report = run_arena(["greedy", "random"], 4, seed=3, workers=1)
    data = report.to_dict()
    assert data["games"] == 4
    assert data["games_per_second"] > 0
    names = [bot["name"] for bot in data["bots"]]
    assert names == ["greedy", "random"]
    total_wins = sum(bot["wins"] for bot in data["bots"])
    assert total_wins == 4
    for bot in data["bots"]:
        assert bot["games"] == 4
        assert 0 <= bot["ci95"][0] <= bot["win_share"] <= bot["ci95"][1] <= 1
        assert set(bot) >= {"mean_score", "mean_tiles_left", "rating", "rating_ci95", "move_seconds_median"}
    assert sum(bot["mean_score"] for bot in data["bots"]) == pytest.approx(0, abs=0.01)  # scores sum to zero


def test_arena_command_json_records_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "arena.svg"
    arguments = ["--bots", "easy,greedy", "--games", "2", "--workers", "2", "--seed", "5", "--json"]
    code = main(["arena", *arguments, "--save", str(tmp_path / "games"), "--plot", str(plot)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert plot.read_text(encoding="utf-8").startswith("<?xml")
    records = sorted((tmp_path / "games").glob("*.json"))
    assert len(records) == 2
    for path in records:
        assert main(["replay", str(path)]) == 0
        assert GameRecord.from_json(path.read_text(encoding="utf-8")).players
    capsys.readouterr()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "greedy,wizard", "--games", "2"], "unknown bot level 'wizard'"),
        (["--bots", "greedy,random", "--games", "0"], "play at least one"),
        (["--bots", "greedy", "--games", "2"], "the game needs at least 2"),
        (["--bots", "greedy,random", "--games", "2", "--plot", "x.pdf"], "name a .png or .svg file"),
        (["--bots", "greedy,random", "--games", "2", "--option", "wrap"], "write an option as NAME=VALUE"),
    ],
)
def test_arena_refuses_bad_input_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
