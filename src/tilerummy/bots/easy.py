"""A beginner: lays down the sets its rack makes, never touches the table's sets,
and now and then overlooks a play."""

from __future__ import annotations

import random

from ..game import Action, PlayerView
from ..melds import Table
from ..openings import find_opening
from ._common import disjoint_sets, own_rack, play_or_draw

#: How often a beginner does not see a play it could make.
MISS_RATE = 0.25


class EasyBot:
    """New sets from its own rack only, the longest first, jokers last; it opens
    with the first opening it finds, and misses a turn's play one time in four."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        rack = own_rack(view)
        if self._rng.random() < MISS_RATE:
            return play_or_draw(view, None)
        if not view.melded[view.seat]:
            opening = find_opening(rack, view.rules)
            return play_or_draw(view, None if opening is None else Table(view.table.melds + tuple(opening)))
        chosen = disjoint_sets(rack, view.rules)
        if not chosen:
            return play_or_draw(view, None)
        return play_or_draw(view, Table(view.table.melds + tuple(chosen)))
