"""The standard baseline: every turn, the play that places the most rack tiles."""

from __future__ import annotations

from ..game import Action, PlayerView
from ..solver import solve
from ._common import own_rack, play_or_draw


class GreedyBot:
    """Plays the exact solver's best play (most tiles, then most value) every turn.

    It opens as soon as it can, with the opening that places the most tiles.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # no choice is left to chance

    def choose(self, view: PlayerView) -> Action:
        assert view.seat is not None
        found = solve(
            own_rack(view), view.table, rules=view.rules, initial_meld_done=view.melded[view.seat], fewest_changes=False
        )
        return play_or_draw(view, None if found is None else found.table)
