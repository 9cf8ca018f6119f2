"""The statistics an arena reports: Wilson intervals, means with intervals,
and Elo-style ratings fitted to pairwise results.

>>> low, high = wilson(60, 100)
>>> round(low, 3), round(high, 3)
(0.502, 0.691)
>>> round(elo_difference(0.64))
100
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054

#: Ratings are anchored so that their mean is this.
MEAN_RATING = 1500.0


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be
    fractional: a shared win counts as a fraction)."""
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation 95% interval."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    spread = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - spread, mean + spread


def elo_difference(share: float) -> float:
    """The rating difference that predicts this expected share against the other."""
    share = min(max(share, 1e-6), 1 - 1e-6)
    return 400 * math.log10(share / (1 - share))


Pairwise = Mapping[tuple[str, str], tuple[float, int]]
"""For (a, b): the points a scored against b (1 a win, 0.5 a tie) and the number of meetings."""


def fit_ratings(pairwise: Pairwise, names: Sequence[str], iterations: int = 200) -> dict[str, float]:
    """Elo-style ratings fitted to pairwise results (the Bradley-Terry model, by
    minorisation-maximisation), with their mean anchored at 1500.

    A small prior (one tie against an average player) keeps a bot that won or
    lost every meeting finite.
    """
    strength = dict.fromkeys(names, 1.0)
    points = dict.fromkeys(names, 0.5)
    for (first, _), (score, _) in pairwise.items():
        points[first] += score
    for _ in range(iterations):
        updated = {}
        for name in names:
            denominator = 1 / (strength[name] + 1.0)  # the prior's average opponent
            for (first, second), (_, meetings) in pairwise.items():
                if first == name and meetings:
                    denominator += meetings / (strength[name] + strength[second])
            updated[name] = points[name] / denominator
        scale = math.exp(statistics.fmean(math.log(value) for value in updated.values()))
        strength = {name: value / scale for name, value in updated.items()}
    return {name: MEAN_RATING + 400 * math.log10(value) for name, value in strength.items()}


def rating_intervals(
    samples: Sequence[Pairwise], names: Sequence[str], *, resamples: int = 200, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95% intervals for the ratings, by resampling whole deals (the games of
    one deal are played from the same tiles, so they are not independent)."""
    if not samples:
        return dict.fromkeys(names, (MEAN_RATING, MEAN_RATING))
    rng = random.Random(seed)
    fitted: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(resamples):
        total: dict[tuple[str, str], tuple[float, int]] = {}
        for _ in range(len(samples)):
            for pair, (score, meetings) in rng.choice(samples).items():
                old_score, old_meetings = total.get(pair, (0.0, 0))
                total[pair] = (old_score + score, old_meetings + meetings)
        for name, rating in fit_ratings(total, names, iterations=60).items():
            fitted[name].append(rating)
    intervals = {}
    for name, values in fitted.items():
        values.sort()
        intervals[name] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
    return intervals
