"""The arena: mirrored deals, the statistics, and the command."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest

from tilerummy.arena import SprtHypotheses, run_arena
from tilerummy.arena.games import GameOutcome, record_digest, schedule
from tilerummy.arena.pairs import pair_stats
from tilerummy.arena.sprt import Sprt, bounds, log_likelihood_ratio
from tilerummy.arena.stats import Z95, elo_difference, fit_ratings, wilson
from tilerummy.cli import main
from tilerummy.errors import TilerummyError
from tilerummy.records import GameRecord
from tilerummy.rules import PoolDraws, Rules

#: Games the arena played for fixed seeds (written by ``bench/arena_bench.py --write-fixture``): a change
#: meant to make the arena faster must play them again exactly; one that changes a bot's or the solver's
#: choices on purpose writes them again.
GAMES_BEFORE = Path(__file__).parent / "data" / "arena_games.json"


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
        (["--bots", "greedy,random", "--games", "2", "--sprt", "p0=0.5"], "--sprt needs p1"),
        (["--bots", "greedy,greedy", "--games", "2", "--sprt", "p0=0.5,p1=0.6"], "name at least one other bot"),
    ],
)
def test_arena_refuses_bad_input_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


# --- deals scored together -------------------------------------------------------------


def outcome(deal: int, seats: tuple[str, ...], winner: int, index: int = 0) -> GameOutcome:
    zeros = (0,) * len(seats)
    return GameOutcome(index, deal, seats, zeros, zeros, winner, 10, ())


def heads_up_deal(deal: int, first_winner: str, second_winner: str) -> list[GameOutcome]:
    """A deal's two games, ``a`` at seat 0 first, then ``b``; the winners by name."""
    games = []
    for turn, (seats, winner) in enumerate(((("a", "b"), first_winner), (("b", "a"), second_winner))):
        games.append(outcome(deal, seats, seats.index(winner), 2 * deal + turn))
    return games


def test_heads_up_deals_score_zero_half_or_one_and_splits_are_counted() -> None:
    outcomes = [
        *heads_up_deal(0, "a", "a"),  # a won both
        *heads_up_deal(1, "a", "b"),  # seat 0 won both games: a split
        *heads_up_deal(2, "b", "b"),  # b won both
        *heads_up_deal(3, "b", "a"),  # seat 1 won both: a split
        heads_up_deal(4, "a", "a")[0],  # an unfinished deal counts for nothing
    ]
    pairs = pair_stats(outcomes, "a")
    assert pairs.scores == (1.0, 0.5, 0.0, 0.5)
    assert pairs.distribution() == (1, 2, 1)
    assert pairs.split == 0.5
    assert pairs.mean == 0.5
    assert pair_stats(outcomes, "b").scores == (0.0, 0.5, 1.0, 0.5)


def test_three_seat_deals_split_when_one_seat_wins_every_rotation() -> None:
    rotations = [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]
    same_seat = [outcome(0, seats, 2) for seats in rotations]
    same_bot = [outcome(1, seats, seats.index("a")) for seats in rotations]
    pairs = pair_stats(same_seat + same_bot, "a")
    assert pairs.scores == pytest.approx((1 / 3, 1.0))
    assert pairs.splits == 1
    assert pairs.distribution() == (0, 1, 0, 1)


def test_the_variance_ratio_is_two_times_one_less_the_split_fraction_at_an_even_share() -> None:
    outcomes = []
    winners = [("a", "b")] * 60 + [("a", "a")] * 20 + [("b", "b")] * 20
    for deal, (first, second) in enumerate(winners):
        outcomes += heads_up_deal(deal, first, second)
    pairs = pair_stats(outcomes, "a")
    assert pairs.split == 0.6
    assert pairs.variance_ratio == pytest.approx(2 * (1 - 0.6), rel=0.02)  # the sample variance's n - 1
    low, high = pairs.ci95
    assert high - low == pytest.approx(2 * Z95 * math.sqrt(pairs.variance / 100))
    assert pairs.games_for(0.03) == 2 * math.ceil((Z95 / 0.03) ** 2 * pairs.variance)


def test_all_split_deals_have_no_variance() -> None:
    outcomes = heads_up_deal(0, "a", "b") + heads_up_deal(1, "b", "a")
    pairs = pair_stats(outcomes, "a")
    assert pairs.split == 1.0 and pairs.variance == 0.0 and pairs.variance_ratio == 0.0


# --- the sequential test ----------------------------------------------------------------


def test_sprt_bounds_are_walds() -> None:
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    test = Sprt(SprtHypotheses(0.5, 0.55, alpha=0.01, beta=0.2), games_per_deal=2)
    assert (test.lower, test.upper) == pytest.approx((math.log(0.2 / 0.99), math.log(0.8 / 0.01)))


def test_llr_of_two_point_scores_is_walds_binomial_llr() -> None:
    wins, losses = 70, 30
    binomial = wins * math.log(0.55 / 0.5) + losses * math.log(0.45 / 0.5)
    assert log_likelihood_ratio([losses, 0, wins], 0.5, 0.55) == pytest.approx(binomial, rel=1e-4)


def test_llr_near_the_hypotheses_is_the_normal_approximation() -> None:
    counts = [250, 500, 260]
    deals = sum(counts)
    mean = (0.5 * counts[1] + counts[2]) / deals
    variance = sum(count * (k / 2 - mean) ** 2 for k, count in enumerate(counts)) / deals
    normal = deals * (0.52 - 0.5) * (2 * mean - 0.5 - 0.52) / (2 * variance)
    assert log_likelihood_ratio(counts, 0.5, 0.52) == pytest.approx(normal, rel=0.01)


def sequence(shares: tuple[float, float, float], deals: int, seed: int) -> list[float]:
    """Heads-up deal scores with these chances of 0, 0.5 and 1."""
    rng = random.Random(seed)
    return rng.choices([0.0, 0.5, 1.0], weights=shares, k=deals)


def run_test(scores: list[float], hypotheses: SprtHypotheses) -> Sprt:
    test = Sprt(hypotheses, games_per_deal=2)
    for score in scores:
        test.add(score)
        if test.verdict is not None:
            break
    return test


@pytest.mark.parametrize("seed", range(5))
def test_sprt_accepts_h1_for_a_clearly_better_bot_and_stops_early(seed: int) -> None:
    test = run_test(sequence((0.15, 0.4, 0.45), 2000, seed), SprtHypotheses(0.5, 0.55))  # a share of 0.65
    assert test.verdict == "H1"
    assert test.llr >= test.upper
    assert test.deals * 2 < 783  # the fixed sample for +5 points, two-sided
    assert log_likelihood_ratio(test.counts, 0.5, 0.55) == test.llr


@pytest.mark.parametrize("seed", range(5))
def test_sprt_accepts_h0_for_a_clearly_worse_bot(seed: int) -> None:
    test = run_test(sequence((0.45, 0.4, 0.15), 2000, seed), SprtHypotheses(0.5, 0.55))  # a share of 0.35
    assert test.verdict == "H0"
    assert test.llr <= test.lower
    assert test.deals < 200


def test_sprt_keeps_its_verdict_and_ignores_later_deals() -> None:
    test = run_test([1.0] * 100, SprtHypotheses(0.5, 0.55))
    assert test.verdict == "H1"
    decided = test.deals
    assert decided == math.ceil(test.upper / math.log(1.1))  # each deal won twice adds about ln(0.55 / 0.5)
    test.add(0.0)
    assert test.deals == decided and test.verdict == "H1"


def test_sprt_without_enough_deals_gives_no_verdict() -> None:
    test = run_test([1.0, 0.0, 0.5, 0.5], SprtHypotheses(0.5, 0.55))
    assert test.verdict is None
    assert test.result().to_dict()["verdict"] is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p0=0.5", "needs p1"),
        ("p0=0.5,p1=0.5", "must differ"),
        ("p0=0.5,p1=x", "p1='x': expected a number"),
        ("p0=0.5,p1=0.6,gamma=1", "'gamma=1': write p0=SHARE"),
        ("p0=0.5,p1=1.2", "p1=1.2: give a number between 0 and 1"),
        ("p0=0.5,p1=0.6,alpha=0.6,beta=0.5", "alpha + beta must be below 1"),
        ("p0=0.5,p0=0.6", "gives p0 twice"),
    ],
)
def test_sprt_hypotheses_refuse_bad_text(text: str, message: str) -> None:
    with pytest.raises(TilerummyError, match=re.escape(message)):
        SprtHypotheses.parse(text)


def test_arena_sprt_stops_at_the_same_deal_with_any_number_of_workers(tmp_path: Path) -> None:
    # Hypotheses far apart decide within a few deals, while the second worker still has games in hand.
    hypotheses = SprtHypotheses(0.5, 0.9)
    alone = run_arena(["random", "greedy"], 200, seed=3, workers=1, sprt=hypotheses)
    together = run_arena(["random", "greedy"], 200, seed=3, workers=2, sprt=hypotheses, save_to=tmp_path)
    assert alone.sprt is not None and together.sprt is not None
    assert alone.sprt.verdict == "H0"
    assert alone.sprt == together.sprt
    assert alone.games == together.games == alone.sprt.games < 200
    assert alone.pairs == together.pairs
    assert len(list(tmp_path.glob("*.json"))) == together.games  # games past the verdict leave no record


def test_arena_command_sprt_json_keeps_every_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--bots", "greedy,random", "--games", "200", "--workers", "1", "--seed", "3"]
    assert main(["arena", *arguments, "--sprt", "p0=0.5,p1=0.9,alpha=0.05,beta=0.1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"games", "players", "seconds", "games_per_second", "bots", "head_to_head"}
    sprt = data["sprt"]
    assert sprt["verdict"] == "H1" and sprt["llr"] >= sprt["upper"] == round(math.log(0.9 / 0.05), 4)
    assert sprt["games"] == data["games"] == 2 * data["pairs"]["deals"] < 200
    assert data["pairs"]["bot"] == "greedy"
    assert sum(data["pairs"]["distribution"]) == data["pairs"]["deals"]
    assert 0 <= data["pairs"]["split"] <= 1
    assert main(["arena", *arguments[:-2], "--seed", "3", "--sprt", "p0=0.5,p1=0.7"]) == 0
    text = capsys.readouterr().out
    assert "SPRT on greedy's win share, p0 = 0.5 against p1 = 0.7" in text and "H1 accepted" in text
    assert "split fraction s = " in text


def test_arena_draws_per_seat_unless_told_and_its_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--bots", "easy,greedy", "--games", "2", "--workers", "1", "--json"]
    for options, draws in (([], PoolDraws.PER_SEAT), (["--option", "pool_draws=shared"], PoolDraws.SHARED)):
        saved = tmp_path / draws.value
        assert main(["arena", *arguments, *options, "--save", str(saved)]) == 0
        assert json.loads(capsys.readouterr().out)["games"] == 2
        records = sorted(saved.glob("*.json"))
        assert len(records) == 2
        for path in records:
            assert GameRecord.from_json(path.read_text(encoding="utf-8")).rules.pool_draws is draws
            assert main(["replay", str(path)]) == 0
        capsys.readouterr()


@pytest.mark.parametrize(
    "arena", json.loads(GAMES_BEFORE.read_text(encoding="utf-8"))["arenas"], ids=lambda arena: ",".join(arena["bots"])
)
def test_the_arena_plays_the_games_recorded_for_its_seeds(arena: dict[str, object], tmp_path: Path) -> None:
    bots, games, seed = arena["bots"], arena["games"], arena["seed"]
    assert isinstance(bots, list) and isinstance(games, int) and isinstance(seed, int)
    # Two processes for the mirrored heads-up deals: a deal's games share a process and what it remembers.
    workers = 2 if len(bots) == 2 else 1
    report = run_arena(bots, games, seed=seed, workers=workers, save_to=tmp_path)
    played = [record_digest(path.read_text(encoding="utf-8")) for path in sorted(tmp_path.glob("*.json"))]
    assert played == arena["played"]
    assert report.games == len(played)
