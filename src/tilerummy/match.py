"""A match: rounds in a row with running totals, until the target score or
the round limit (a single round when the rules set neither)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .deal import Deal
from .errors import IllegalAction, Reason
from .game import Game
from .rules import Rules
from .scoring import MatchStanding, match_standing


class Match:
    """Rounds between the same players; each round is dealt from the match's seed."""

    def __init__(self, players: Sequence[str], rules: Rules, seed: int, *, started_at: float | None = None) -> None:
        rules.check_players(len(players))
        self.players = tuple(players)
        self.rules = rules
        self.seed = seed
        self._seeds = random.Random(seed)
        self.rounds: list[Game] = []
        self._new_round(started_at)

    @property
    def current(self) -> Game:
        return self.rounds[-1]

    def standing(self) -> MatchStanding:
        """Totals of the finished rounds, and whether the match is over."""
        finished = [game.result.scores for game in self.rounds if game.result is not None]
        return match_standing(finished, len(self.players), self.rules)

    @property
    def is_over(self) -> bool:
        return self.standing().over

    def next_round(self, *, started_at: float | None = None) -> Game:
        """Deal the next round (``started_at``: when its first turn starts, for the clock).

        :raises IllegalAction: while the current round is being played, or once the match is over.
        """
        if not self.current.is_over:
            raise IllegalAction(Reason.ROUND_NOT_OVER, "the current round is not over")
        if self.is_over:
            raise IllegalAction(Reason.GAME_OVER, "the match is over")
        return self._new_round(started_at)

    def _new_round(self, started_at: float | None) -> Game:
        seed = self._seeds.getrandbits(63)
        game = Game(
            self.rules, Deal.from_seed(self.rules, len(self.players), seed), self.players, started_at=started_at
        )
        self.rounds.append(game)
        return game
