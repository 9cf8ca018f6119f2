"""Simple built-in players: they see only their own view and return an action.

``SimpleBot`` opens with the best initial meld it finds (the first one that
is enough, on racks of more than 20 tiles), then each turn lays
down the sets its rack makes on its own and adds single tiles to the ends of
sets on the table; it never rearranges the table. ``RandomBot`` does the same
but picks at random among what it found, and sometimes draws anyway: it
explores the rules for tests.
"""

from __future__ import annotations

import random
from collections import Counter

from ..game import Action, PlayerView
from ..melds import Meld, Table
from ..openings import best_opening, candidate_melds, find_opening
from ._common import lay_off, play_or_draw, sets_and_lay_offs

#: Above this many tiles the best opening is not searched for, only one that is enough.
_BEST_OPENING_RACK_LIMIT = 20


class SimpleBot:
    """Lays down what it can without rearranging the table."""

    name = "simple"

    def choose(self, view: PlayerView) -> Action:
        melds = self.plan(view)
        return play_or_draw(view, melds)

    def plan(self, view: PlayerView) -> Table | None:
        """The table to submit, or None to draw."""
        assert view.seat is not None and view.rack is not None
        rack = [piece.tile for piece in view.rack]
        rules = view.rules
        if not view.melded[view.seat]:
            opening = best_opening(rack, rules) if len(rack) <= _BEST_OPENING_RACK_LIMIT else find_opening(rack, rules)
            if opening is None:
                return None
            return Table(view.table.melds + tuple(opening))
        return sets_and_lay_offs(view.table, rack, rules)


class RandomBot:
    """Plays a random part of what the simple bot would, or draws."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None and view.rack is not None
        if self._rng.random() < 0.2:
            return play_or_draw(view, None)
        rack = [piece.tile for piece in view.rack]
        rules = view.rules
        if not view.melded[view.seat]:
            opening = find_opening(rack, rules)
            return play_or_draw(view, Table(view.table.melds + tuple(opening)) if opening else None)
        options = candidate_melds(rack, wrap=rules.wrap)
        self._rng.shuffle(options)
        left = Counter(rack)
        chosen: list[Meld] = []
        for meld in options:
            needed = Counter(meld.tiles)
            if not needed - left and self._rng.random() < 0.5:
                chosen.append(meld)
                left -= needed
        table = list(view.table.melds) + chosen
        laid_off = lay_off(table, left, rules, rng=self._rng)
        if not chosen and not laid_off:
            return play_or_draw(view, None)
        return play_or_draw(view, Table(tuple(table)))
