"""A round-robin: every pair of bots heads-up, and tables of four, on the same mirrored deals.

Each table (a pair, or four bots) plays the same deals, from the same seed,
once per rotation of its seats, so every pairing meets the same tiles. One
Bradley-Terry fit over every meeting of every table (two seats held by
different bots meet; the higher score wins) rates all the bots on one
scale; its intervals come from resampling whole deals of a table, as the
arena's do. Per table the report gives each bot's win share (a 95% interval
from the deal scores), its mean score, and the share of games that ended
with someone going out rather than with the pool dry.

>>> tables_of(["a", "b", "c"], four_player=True)
[('a', 'b'), ('a', 'c'), ('b', 'c')]
>>> len(tables_of(["a", "b", "c", "d", "e"], four_player=True))
15
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import OPPONENTS
from ..errors import TilerummyError
from ..rules import PoolDraws, Rules
from .games import GameOutcome, GameSpec, Progress, play_all, schedule
from .pairs import pair_stats
from .report import meetings_by_deal, merged, went_out_of
from .stats import fit_ratings, rating_intervals

#: Seats at the larger tables.
TABLE_SEATS = 4


def tables_of(names: Sequence[str], *, four_player: bool) -> list[tuple[str, ...]]:
    """Every pair; then, with ``four_player`` and at least four bots, tables of
    four: the only one for four bots, else each run of four bots in a circle
    (five bots: five tables), so every bot sits at four of them."""
    tables: list[tuple[str, ...]] = list(itertools.combinations(names, 2))
    if four_player and len(names) == TABLE_SEATS:
        tables.append(tuple(names))
    elif four_player and len(names) > TABLE_SEATS:
        tables += [
            tuple(names[(start + seat) % len(names)] for seat in range(TABLE_SEATS)) for start in range(len(names))
        ]
    return tables


@dataclass(frozen=True, slots=True)
class SeatReport:
    """One bot at one table."""

    name: str
    win_share: float  # over the table's complete deals
    ci95: tuple[float, float]  # from the deal scores
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "win_share": round(self.win_share, 4),
            "ci95": [round(value, 4) for value in self.ci95],
            "mean_score": round(self.mean_score, 2),
        }


@dataclass(frozen=True, slots=True)
class TableReport:
    """One table's games: each bot's share and score, and how the games ended."""

    seats: tuple[SeatReport, ...]
    games: int
    went_out: int  # games that ended with someone going out

    @property
    def went_out_share(self) -> float:
        return self.went_out / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": [seat.to_dict() for seat in self.seats],
            "games": self.games,
            "went_out": self.went_out,
            "went_out_share": round(self.went_out_share, 4),
        }


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    rating: float
    ci95: tuple[float, float]
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rating": round(self.rating, 1),
            "ci95": [round(value, 1) for value in self.ci95],
            "games": self.games,
        }


@dataclass(frozen=True, slots=True)
class RoundRobinReport:
    seed: int
    deals: int  # per table, the same for every table
    seconds: float
    ratings: tuple[Rating, ...]  # the highest first
    tables: tuple[TableReport, ...]  # the pairs, then the tables of four

    @property
    def games(self) -> int:
        return sum(table.games for table in self.tables)

    @property
    def went_out_share(self) -> float:
        return sum(table.went_out for table in self.tables) / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "deals_per_table": self.deals,
            "games": self.games,
            "seconds": round(self.seconds, 2),
            "went_out_share": round(self.went_out_share, 4),
            "ratings": [rating.to_dict() for rating in self.ratings],
            "tables": [table.to_dict() for table in self.tables],
        }


def run_round_robin(
    names: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int | None = None,
    budget: float | None = None,
    four_player: bool = True,
    progress: Progress | None = None,
) -> RoundRobinReport:
    """Play every table of :func:`tables_of` on the same deals, ``games``
    games per pair (rounded up to whole deals; a table of four plays four
    games a deal), and report. Without ``rules``, the standard rules with
    per-seat draws, as the arena plays.

    :raises TilerummyError: for fewer than two bots, a bot named twice or
        unknown, a bad count, or a bot's illegal move.
    """
    names = [name.strip().lower() for name in names]
    unknown = [name for name in names if name not in OPPONENTS]
    if unknown:
        raise TilerummyError(f"unknown bot level {unknown[0]!r} (choose from {', '.join(OPPONENTS)})")
    if len(names) < 2:
        raise TilerummyError("a round-robin needs at least two bots")
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise TilerummyError(f"{twice} is named twice: name each bot once")
    if games < 1:
        raise TilerummyError(f"{games} games: play at least one per table")
    rules = rules or Rules(pool_draws=PoolDraws.PER_SEAT)
    tables = tables_of(names, four_player=four_player and rules.max_players >= TABLE_SEATS)
    # Every table plays the same deals: a pair's two games of a deal, a four's four.
    deals = -(-games // 2)
    specs: list[GameSpec] = []
    owners: list[int] = []
    for number, table in enumerate(tables):
        for spec in schedule(list(table), deals * len(table), seed=seed, rules=rules, budget=budget):
            specs.append(dataclasses.replace(spec, index=len(specs)))
            owners.append(number)
    started = time.perf_counter()
    outcomes = play_all(specs, workers or os.cpu_count() or 1, progress)
    by_table: list[list[GameOutcome]] = [[] for _ in tables]
    for owner, outcome in zip(owners, outcomes, strict=True):
        by_table[owner].append(outcome)
    return _report(names, by_table, seed, deals, time.perf_counter() - started)


def _report(
    names: Sequence[str], by_table: Sequence[Sequence[GameOutcome]], seed: int, deals: int, seconds: float
) -> RoundRobinReport:
    samples = [meetings for outcomes in by_table for meetings in meetings_by_deal(outcomes).values()]
    ratings = fit_ratings(merged(samples), names)
    intervals = rating_intervals(samples, names)
    played = {name: sum(name in outcome.seats for outcomes in by_table for outcome in outcomes) for name in names}
    tables = []
    for outcomes in by_table:
        seats = []
        for name in dict.fromkeys(outcomes[0].seats):
            stats = pair_stats(outcomes, name)
            scores = [outcome.scores[outcome.seats.index(name)] for outcome in outcomes]
            seats.append(SeatReport(name, stats.mean, stats.ci95, statistics.fmean(scores)))
        went_out = sum(went_out_of(outcome) for outcome in outcomes)
        tables.append(TableReport(tuple(seats), len(outcomes), went_out))
    rated = sorted(names, key=lambda name: -ratings[name])
    return RoundRobinReport(
        seed,
        deals,
        seconds,
        tuple(Rating(name, ratings[name], intervals[name], played[name]) for name in rated),
        tuple(tables),
    )


def report_lines(report: RoundRobinReport) -> list[str]:
    """The round-robin as text: the ratings, then each table."""
    lines = [
        f"Round-robin: {report.games} games in {report.seconds:.1f} s, {report.deals} deals per table "
        f"(seeds {report.seed} to {report.seed + report.deals - 1}, each once per seat rotation); "
        f"{report.went_out_share:.0%} ended with someone going out",
        "",
        f"{'bot':<12} {'rating (95% CI)':>22} {'games':>7}",
    ]
    for rating in report.ratings:
        shown = f"{rating.rating:.0f} [{rating.ci95[0]:.0f}, {rating.ci95[1]:.0f}]"
        lines.append(f"{rating.name:<12} {shown:>22} {rating.games:>7}")
    lines += ["", f"{'table':<40} {'games':>6} {'win share (95% CI), first bot':>32} {'mean scores':>20} {'out':>5}"]
    for table in report.tables:
        first = table.seats[0]
        share = f"{first.win_share:.3f} [{first.ci95[0]:.3f}, {first.ci95[1]:.3f}]"
        if len(table.seats) > 2:
            share = " / ".join(f"{seat.win_share:.2f}" for seat in table.seats)
        scores = " / ".join(f"{seat.mean_score:+.1f}" for seat in table.seats)
        label = " vs ".join(seat.name for seat in table.seats)
        lines.append(f"{label:<40} {table.games:>6} {share:>32} {scores:>20} {table.went_out_share:>5.0%}")
    return lines
