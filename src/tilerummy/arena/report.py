"""Turning the games' outcomes into the arena's report."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .games import GameOutcome
from .pairs import PairStats, pair_stats
from .sprt import SprtResult
from .stats import fit_ratings, mean_interval, rating_intervals, wilson


@dataclass(frozen=True, slots=True)
class BotReport:
    name: str
    seats: int  # how many seats of each game the bot holds
    games: int
    wins: float
    win_share: float
    ci95: tuple[float, float]
    par: float  # the win share of an equal player: seats / players
    mean_score: float
    score_ci95: tuple[float, float]
    mean_tiles_left: float
    tiles_left_ci95: tuple[float, float]
    rating: float
    rating_ci95: tuple[float, float]
    move_seconds_median: float
    move_seconds_p95: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seats": self.seats,
            "games": self.games,
            "wins": round(self.wins, 3),
            "win_share": round(self.win_share, 4),
            "ci95": [round(value, 4) for value in self.ci95],
            "par": round(self.par, 4),
            "mean_score": round(self.mean_score, 2),
            "score_ci95": [round(value, 2) for value in self.score_ci95],
            "mean_tiles_left": round(self.mean_tiles_left, 3),
            "tiles_left_ci95": [round(value, 3) for value in self.tiles_left_ci95],
            "rating": round(self.rating, 1),
            "rating_ci95": [round(value, 1) for value in self.rating_ci95],
            "move_seconds_median": round(self.move_seconds_median, 5),
            "move_seconds_p95": round(self.move_seconds_p95, 5),
        }


@dataclass(frozen=True, slots=True)
class ArenaReport:
    games: int
    players: int
    seconds: float
    bots: tuple[BotReport, ...]
    head_to_head: dict[tuple[str, str], tuple[float, int]]  # (a, b): a's points against b, meetings
    pairs: PairStats | None = None  # the first bot's deal scores
    sprt: SprtResult | None = None  # the sequential test, when one was run
    went_out: int = 0  # games that ended with someone going out (the others: the pool ran dry)

    @property
    def went_out_share(self) -> float:
        """The share of the games that ended with someone going out."""
        return self.went_out / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "seconds": round(self.seconds, 2),
            "games_per_second": round(self.games_per_second, 3),
            "went_out": self.went_out,
            "went_out_share": round(self.went_out_share, 4),
            "bots": [bot.to_dict() for bot in self.bots],
            "head_to_head": [
                {"bot": first, "against": second, "share": round(points / meetings, 4), "meetings": meetings}
                for (first, second), (points, meetings) in sorted(self.head_to_head.items())
                if meetings
            ],
            "pairs": self.pairs.to_dict() if self.pairs is not None else None,
            "sprt": self.sprt.to_dict() if self.sprt is not None else None,
        }


def summarise(outcomes: Sequence[GameOutcome], seconds: float, *, sprt: SprtResult | None = None) -> ArenaReport:
    """Per bot (seats of the same level count together): wins, scores, tiles
    left, ratings and move times; how each did against each other; and the
    first bot's deal scores."""
    names = list(dict.fromkeys(name for outcome in outcomes for name in outcome.seats))
    wins: dict[str, float] = defaultdict(float)
    scores: dict[str, list[float]] = defaultdict(list)
    tiles_left: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    by_deal: dict[int, dict[tuple[str, str], tuple[float, int]]] = defaultdict(dict)
    for outcome in outcomes:
        wins[outcome.seats[outcome.winner]] += 1
        for seat, name in enumerate(outcome.seats):
            scores[name].append(outcome.scores[seat])
            tiles_left[name].append(outcome.tiles_left[seat])
        for name, seconds_taken in outcome.seconds_per_move:
            times[name].append(seconds_taken)
        _add_meetings(by_deal[outcome.deal], outcome)
    head_to_head: dict[tuple[str, str], tuple[float, int]] = {}
    for meetings in by_deal.values():
        _merge(head_to_head, meetings)
    ratings = fit_ratings(head_to_head, names)
    intervals = rating_intervals(list(by_deal.values()), names)
    players = len(outcomes[0].seats) if outcomes else 0
    reports = []
    for name in names:
        seats = outcomes[0].seats.count(name)
        win_count = wins[name]
        score_mean, *score_ci = mean_interval(scores[name])
        tiles_mean, *tiles_ci = mean_interval(tiles_left[name])
        spent = sorted(times[name])
        reports.append(
            BotReport(
                name=name,
                seats=seats,
                games=len(outcomes),
                wins=win_count,
                win_share=win_count / len(outcomes),
                ci95=wilson(win_count, len(outcomes)),
                par=seats / players,
                mean_score=score_mean,
                score_ci95=(score_ci[0], score_ci[1]),
                mean_tiles_left=tiles_mean,
                tiles_left_ci95=(tiles_ci[0], tiles_ci[1]),
                rating=ratings[name],
                rating_ci95=intervals[name],
                move_seconds_median=statistics.median(spent) if spent else 0.0,
                move_seconds_p95=spent[int(0.95 * (len(spent) - 1))] if spent else 0.0,
            )
        )
    pairs = pair_stats(outcomes, outcomes[0].seats[0]) if outcomes else None
    went_out = sum(went_out_of(outcome) for outcome in outcomes)
    return ArenaReport(len(outcomes), players, seconds, tuple(reports), head_to_head, pairs, sprt, went_out)


def went_out_of(outcome: GameOutcome) -> bool:
    """Whether the game ended with someone going out (rather than with the pool dry)."""
    return 0 in outcome.tiles_left


def meetings_by_deal(outcomes: Sequence[GameOutcome]) -> dict[int, dict[tuple[str, str], tuple[float, int]]]:
    """Per deal, every pair of bots' meetings (:func:`summarise`'s head to head, deal by deal)."""
    by_deal: dict[int, dict[tuple[str, str], tuple[float, int]]] = defaultdict(dict)
    for outcome in outcomes:
        _add_meetings(by_deal[outcome.deal], outcome)
    return by_deal


def merged(samples: Iterable[dict[tuple[str, str], tuple[float, int]]]) -> dict[tuple[str, str], tuple[float, int]]:
    """The meetings of several deals added together."""
    total: dict[tuple[str, str], tuple[float, int]] = {}
    for sample in samples:
        _merge(total, sample)
    return total


def _add_meetings(meetings: dict[tuple[str, str], tuple[float, int]], outcome: GameOutcome) -> None:
    """Every pair of seats held by different bots is a meeting: the higher score wins it."""
    for seat, name in enumerate(outcome.seats):
        for other, other_name in enumerate(outcome.seats):
            if name == other_name:
                continue
            mine, theirs = outcome.scores[seat], outcome.scores[other]
            points = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            _merge(meetings, {(name, other_name): (points, 1)})


def _merge(total: dict[tuple[str, str], tuple[float, int]], more: dict[tuple[str, str], tuple[float, int]]) -> None:
    for pair, (points, meetings) in more.items():
        old_points, old_meetings = total.get(pair, (0.0, 0))
        total[pair] = (old_points + points, old_meetings + meetings)
