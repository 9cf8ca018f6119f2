"""The standard baseline: every turn, the play that places the most rack tiles."""

from __future__ import annotations

from ..game import Action, PlayerView
from ._common import own_rack, play_or_draw
from ._positions import best_play


class GreedyBot:
    """Plays the exact solver's best play (most tiles, then most value) every turn.

    It opens as soon as it can, with the opening that places the most tiles.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        found = best_play(own_rack(view), view.table, view.rules, melded=view.melded[view.seat])
        return play_or_draw(view, None if found is None else found.table)
