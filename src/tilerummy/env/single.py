"""A Gymnasium environment for one seat, the others played by bots.

Needs the ``env`` extra (``pip install 'tilerummy[env]'``). The spaces are
those of the AEC environment (:mod:`.aec`); an episode is one round, and the
only reward comes at its end. An action the mask closes ends the episode at
once with the losing reward (-1) and ``info["illegal_action"]``, as
PettingZoo's ``TerminateIllegalWrapper`` does, so that a learner sampling
the whole action space still gets a well-formed episode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..game import Game
from ..rules import Rules
from ..solver import Solution
from .aec import Observation, RewardKind, observation_space, round_rewards
from .encoding import DEFAULT_PLAYS, action_mask, encode_observation, legal_plays, to_action

#: The reward for an action the mask closed.
ILLEGAL_REWARD = -1.0


class SingleSeatEnv(gymnasium.Env[Observation, np.int64]):
    """One round against bots of the given levels (one per other seat, in the
    order they play after the learner's seat). An opponent is a level's (or
    league opponent's) name, or a bot of one's own: a callable that takes a
    seed and returns a new :class:`~tilerummy.bots.Bot` for the round.

    ``seat`` is the learner's seat, or None for a seat drawn at every reset.
    ``rules``, ``plays`` and ``reward`` as for :class:`~.aec.TileRummyEnv`;
    ``budget`` is the seconds per move of the searching levels given by name (expert).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  # declared so by gymnasium.Env

    def __init__(
        self,
        opponents: Sequence[str | Callable[[int], Bot]] = ("greedy",),
        rules: Rules | str = "standard",
        *,
        seat: int | None = 0,
        plays: int = DEFAULT_PLAYS,
        reward: RewardKind = "win",
        budget: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.players = len(opponents) + 1
        self.rules.check_players(self.players)
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat={seat}: the learner's seat is 0 to {self.players - 1}, or None for a random one")
        if plays < 1:
            raise ValueError(f"plays={plays}: offer at least one candidate play")
        if reward not in ("win", "score"):
            raise ValueError(f"reward={reward!r}: choose 'win' or 'score'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: choose 'ansi'")
        for level in opponents:
            if isinstance(level, str):
                make_bot(level, budget=budget)  # an unknown level is refused now, not at the first reset
            elif not callable(level):
                raise ValueError(f"opponent {level!r}: give a level's name or a callable that makes a bot from a seed")
        self.opponents = tuple(opponents)
        self.seat_option = seat
        self.plays = plays
        self.reward_kind: RewardKind = reward
        self.budget = budget
        self.render_mode = render_mode
        self.observation_space: spaces.Dict = observation_space(plays)  # type: ignore[assignment]  # gymnasium types a Dict space as holding Any
        self.action_space = spaces.Discrete(plays + 1)
        self.seat = 0 if seat is None else seat
        self._game: Game | None = None
        self._bots: dict[int, Bot] = {}
        self._found: list[Solution] = []

    @property
    def game(self) -> Game:
        """The round being played (hidden information: for tests and audits)."""
        if self._game is None:
            raise RuntimeError("no round yet: call reset() first")
        return self._game

    @property
    def offered_plays(self) -> list[Solution]:
        """The plays actions 0, 1, ... stand for this turn (what the observation's play rows describe)."""
        return list(self._found)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**63))
        self.seat = int(self.np_random.integers(self.players)) if self.seat_option is None else self.seat_option
        self._game = Game.new(self.players, rules=self.rules, seed=deal)
        others = [(self.seat + offset) % self.players for offset in range(1, self.players)]
        self._bots = {
            seat: self._make(level, (deal + seat) % 2**63) for seat, level in zip(others, self.opponents, strict=True)
        }
        self._bots_play()
        return self._observe(), {"seat": self.seat}

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if game.is_over:
            raise RuntimeError("the round is over: call reset() to deal another")
        index = int(action)
        if not self.action_space.contains(np.int64(index)):
            raise ValueError(f"action {index} is outside the action space (0 to {self.plays})")
        if not action_mask(self._found, self.plays)[index]:
            return self._observe(), ILLEGAL_REWARD, True, False, {"illegal_action": True}
        game.apply(to_action(game.view(self.seat), self._found, index, self.plays))
        self._bots_play()
        if game.result is None:
            return self._observe(), 0.0, False, False, {}
        reward = round_rewards(game.result, self.reward_kind)[self.seat]
        return self._observe(), reward, True, False, {"result": game.result.to_dict()}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        view = game.view(self.seat)
        rack = " ".join(str(piece.tile) for piece in view.rack or ())
        table = " | ".join(str(meld) for meld in game.table) or "(empty)"
        return f"table: {table}\nrack: {rack}\nracks: {list(view.rack_sizes)}; pool: {view.pool_size}"

    def _make(self, level: str | Callable[[int], Bot], seed: int) -> Bot:
        return make_bot(level, seed=seed, budget=self.budget) if isinstance(level, str) else level(seed)

    def _bots_play(self) -> None:
        game = self.game
        while not game.is_over and game.turn != self.seat:
            game.apply(self._bots[game.turn].choose(game.view(game.turn)))
        self._found = [] if game.is_over else legal_plays(game.view(self.seat), self.plays)

    def _observe(self) -> Observation:
        view = self.game.view(self.seat)
        acting = not self.game.is_over
        return {
            "observation": encode_observation(view, self._found, self.plays),
            "action_mask": action_mask(self._found, self.plays, acting=acting),
        }
