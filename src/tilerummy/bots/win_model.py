"""How likely a seat is to win from a position, judged by the rack sizes alone.

The expert bot's play-outs stop after a few turns; this model scores where
they stopped. It is a logistic regression over a few public quantities (the
seat's own rack size, the fewest tiles an opponent holds, the pool's size,
whose turn it is, who has made the initial meld), fitted on games in which
every seat plays the greedy solver, which is how the play-outs continue.
Rack sizes enter through their logarithms alone, so that the fit cannot
make holding more tiles look better over some range of sizes. One
coefficient vector per number of players; games of more players than were
fitted use the largest fitted count.

The coefficients live in :mod:`tilerummy.bots._win_coefficients`, written by
``tools/fit_win_model.py`` (which refits them from a seed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._win_coefficients import COEFFICIENTS

#: The features' names, in the order of the coefficients.
FEATURES: tuple[str, ...] = (
    "bias",
    "log_own_tiles",
    "log_fewest_other_tiles",
    "pool",
    "own_turn_next",
    "own_melded",
    "closest_melded",
)


def features(
    seat: int,
    rack_sizes: Sequence[int],
    pool_size: int,
    turn: int,
    melded: Sequence[bool],
) -> list[float]:
    """The model's inputs for ``seat`` when ``turn`` is the seat to move next."""
    own = rack_sizes[seat]
    fewest = min(size for other, size in enumerate(rack_sizes) if other != seat)
    closest_melded = any(melded[other] for other, size in enumerate(rack_sizes) if other != seat and size == fewest)
    return [
        1.0,
        math.log1p(own),
        math.log1p(fewest),
        pool_size / 20,
        float(turn == seat),
        float(melded[seat]),
        float(closest_melded),
    ]


def win_probability(
    seat: int,
    rack_sizes: Sequence[int],
    pool_size: int,
    turn: int,
    melded: Sequence[bool],
) -> float:
    """The chance that ``seat`` wins from here, when everyone plays greedily."""
    if rack_sizes[seat] == 0:
        return 1.0
    if any(size == 0 for size in rack_sizes):
        return 0.0
    players = len(rack_sizes)
    weights = COEFFICIENTS.get(players) or COEFFICIENTS[max(count for count in COEFFICIENTS if count <= players)]
    score = sum(
        weight * value
        for weight, value in zip(weights, features(seat, rack_sizes, pool_size, turn, melded), strict=True)
    )
    if score >= 0:
        return 1.0 / (1.0 + math.exp(-score))
    odds = math.exp(score)
    return odds / (1.0 + odds)
