"""A strong, quick player: the network's choice, found with as few solves as it needs.

Weighing every candidate (:mod:`.network`) lists the solver's six best
plays on different rack tiles and solves what each leaves: slow on the
large racks the network likes to hold. But most of its turns after the
initial meld are draws, and whether drawing beats the best play needs only
the best play and one more solve. So this bot asks the network that
question first; only when it prefers playing does it weigh every candidate,
as the network level does. It goes out whenever it can and opens as soon
as it can.
"""

from __future__ import annotations

from ..game import Action, PlayerView
from ._common import own_rack, play_or_draw
from ._positions import best_play
from .network import DRAW, Candidate, PolicyNetwork, candidate_features, candidates_of, choose_index, shipped_network


class HardBot:
    """Plays what the network would, drawing without listing every play when it prefers to draw."""

    name = "hard"

    def __init__(self, seed: int = 0, network: PolicyNetwork | None = None) -> None:
        del seed  # the network's choice is deterministic
        self.network = network if network is not None else shipped_network()

    def choose(self, view: PlayerView) -> Action:
        return play_or_draw(view, self.plan(view).table)

    def plan(self, view: PlayerView) -> Candidate:
        """The play to make (its table None: draw, or pass on an empty pool)."""
        assert view.seat is not None
        if view.melded[view.seat]:
            rack = own_rack(view)
            best = best_play(rack, view.table, view.rules, melded=True)
            if best is None:
                return DRAW
            if len(best.placed) == len(rack):
                return Candidate(best.table, best.placed)
            # Drawing and the best play get the same inputs here as among all
            # the candidates (their rank and shortfall do not depend on the rest).
            pair = [Candidate(best.table, best.placed), DRAW]
            playing, drawing = self.network.scores(candidate_features(view, pair))
            if drawing > playing:
                return DRAW
        options = candidates_of(view)
        return options[choose_index(self.network, view, options)]
