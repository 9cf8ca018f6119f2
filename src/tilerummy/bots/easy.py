"""A beginner: lays down the sets its rack makes and adds single tiles to the
ends of the table's sets, never rearranges them, and now and then overlooks a play."""

from __future__ import annotations

import random
from collections import Counter

from ..game import Action, PlayerView
from ..melds import Table
from ..openings import find_opening
from ._common import disjoint_sets, lay_off, own_rack, play_or_draw

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
        chosen = disjoint_sets(rack, view.rules)
        left = Counter(rack)
        for meld in chosen:
            left -= Counter(meld.tiles)
        table = list(view.table.melds) + chosen
        if not lay_off(table, left, view.rules) and not chosen:
            return play_or_draw(view, None)
        return play_or_draw(view, Table(tuple(table)))
