"""A beginner: lays down the sets its rack makes and adds single tiles to the
ends of the table's sets, never rearranges them, and now and then overlooks a play."""

from __future__ import annotations

import random

from ..game import Action, PlayerView
from ..melds import Table
from ..openings import find_opening
from ._common import own_rack, play_or_draw, sets_and_lay_offs

#: How often a beginner does not see a play it could make.
MISS_RATE = 0.25


class EasyBot:
    """New sets from its own rack, the longest first, jokers last, then single
    tiles (never a joker) added to the ends of sets on the table, without
    moving any tile already there; it opens with the first opening it finds,
    and misses a turn's play one time in four."""

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
        return play_or_draw(view, sets_and_lay_offs(view.table, rack, view.rules))
