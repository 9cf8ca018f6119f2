"""Scoring mirrored deals together: one score per deal, and how alike its games were.

A deal is played once per rotation of the seats. Its score for a bot is the
share of the deal's games the bot won: heads-up 0, 0.5 or 1, as chess
testers score a colour-swapped pair; with n seats, 0, 1/n, ... 1. The
deal's games are not independent (they start from the same tiles), but
deals are, so intervals and tests are built on deal scores.

A deal *splits* when the same seat won every rotation: the tiles decided
the winner, whoever played them, and each bot won once. Heads-up at an even
share, the variance of a deal's score relative to two independent games is
2(1 - s) for a split fraction s; :attr:`PairStats.variance_ratio` measures
that ratio directly, for any number of seats.

>>> from tilerummy.arena.games import GameOutcome
>>> def game(deal, seats, winner):
...     return GameOutcome(0, deal, seats, (0, 0), (0, 0), winner, 0, ())
>>> stats = pair_stats([game(0, ("a", "b"), 0), game(0, ("b", "a"), 0), game(1, ("a", "b"), 0), game(1, ("b", "a"), 1)], "a")
>>> stats.scores, stats.split
((0.5, 1.0), 0.5)
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .games import GameOutcome
from .stats import Z95


@dataclass(frozen=True, slots=True)
class PairStats:
    """The deal scores of one bot (the arena's first), in deal order, and what they show."""

    bot: str
    games_per_deal: int
    scores: tuple[float, ...]  # per complete deal, in deal order
    splits: int  # deals the same seat won in every rotation

    @property
    def deals(self) -> int:
        return len(self.scores)

    @property
    def split(self) -> float:
        """The fraction of deals that split (0 without deals)."""
        return self.splits / self.deals if self.deals else 0.0

    @property
    def mean(self) -> float:
        """The bot's win share over the complete deals."""
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def variance(self) -> float:
        """The sample variance of the deal scores (0 below two deals)."""
        return statistics.variance(self.scores) if self.deals > 1 else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """A normal 95% interval for the win share, from the spread of the deal scores."""
        spread = Z95 * math.sqrt(self.variance / self.deals) if self.deals else 0.0
        return max(0.0, self.mean - spread), min(1.0, self.mean + spread)

    @property
    def variance_ratio(self) -> float | None:
        """The variance of a deal's score over that of the mean of as many
        independent games at the same share (below 1: the mirroring helps);
        None when the share is 0 or 1 or there are fewer than two deals."""
        unpaired = self.mean * (1 - self.mean) / self.games_per_deal
        return self.variance / unpaired if unpaired > 0 and self.deals > 1 else None

    def games_for(self, half_width: float) -> int | None:
        """The games (whole deals) a 95% interval of ± ``half_width`` needs at this spread."""
        if self.deals < 2:
            return None
        deals = math.ceil((Z95 / half_width) ** 2 * self.variance)
        return max(deals, 1) * self.games_per_deal

    def distribution(self) -> tuple[int, ...]:
        """How many deals the bot won 0, 1, ... ``games_per_deal`` games of
        (heads-up: lost both, split, won both)."""
        counts = [0] * (self.games_per_deal + 1)
        for score in self.scores:
            counts[round(score * self.games_per_deal)] += 1
        return tuple(counts)

    def to_dict(self) -> dict[str, Any]:
        games_3pp = self.games_for(0.03)
        ratio = self.variance_ratio
        return {
            "bot": self.bot,
            "deals": self.deals,
            "games_per_deal": self.games_per_deal,
            "win_share": round(self.mean, 4),
            "ci95": [round(value, 4) for value in self.ci95],
            "distribution": list(self.distribution()),
            "split": round(self.split, 4),
            "variance_ratio": None if ratio is None else round(ratio, 4),
            "games_for_3pp": games_3pp,
        }


def pair_stats(outcomes: Sequence[GameOutcome], bot: str) -> PairStats:
    """Score each complete deal (one game per rotation) for ``bot``; deals
    with games missing are left out."""
    by_deal: dict[int, list[GameOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_deal[outcome.deal].append(outcome)
    rotations = len(outcomes[0].seats) if outcomes else 2
    scores = []
    splits = 0
    for deal in sorted(by_deal):
        games = by_deal[deal]
        if len(games) != rotations:
            continue
        scores.append(deal_score(games, bot))
        splits += len({game.winner for game in games}) == 1
    return PairStats(bot, rotations, tuple(scores), splits)


def deal_score(games: Sequence[GameOutcome], bot: str) -> float:
    """The share of the deal's games ``bot`` won."""
    return sum(game.seats[game.winner] == bot for game in games) / len(games)
