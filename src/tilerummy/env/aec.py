"""The game as a PettingZoo AEC environment: every seat is an agent.

Needs the ``env`` extra (``pip install 'tilerummy[env]'``). Agents are named
``seat_0``, ``seat_1``, ...; each observes a dict with ``observation`` (see
:mod:`.encoding`) and ``action_mask``. A masked action is refused with a
:class:`ValueError` naming the open ones, and the game is left as it was.
docs/env.md describes the spaces and the rewards.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Game
from ..rules import Rules
from ..scoring import RoundScore
from ..solver import Solution
from .encoding import (
    DEFAULT_PLAYS,
    OBSERVATION_HIGH,
    IntArray,
    MaskArray,
    action_mask,
    encode_observation,
    legal_plays,
    observation_size,
    to_action,
)

#: How a finished round pays each seat.
RewardKind = Literal["win", "score"]

Observation = dict[str, IntArray | MaskArray]

RENDER_MODES = ("ansi", "human")


def round_rewards(result: RoundScore, kind: RewardKind) -> list[float]:
    """Each seat's reward for a finished round: ``win`` gives +1 to the winner
    and -1 to everyone else; ``score`` the round's scores (they sum to zero)
    divided by 100."""
    if kind == "win":
        return [1.0 if seat == result.winner else -1.0 for seat in range(len(result.scores))]
    return [score / 100 for score in result.scores]


def observation_space(plays: int) -> spaces.Dict:
    """The space of one agent's observation with room for ``plays`` candidate plays."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, OBSERVATION_HIGH, (observation_size(plays),), dtype=np.int16),
            "action_mask": spaces.Box(0, 1, (plays + 1,), dtype=np.int8),
        }
    )


class TileRummyEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """One round for ``players`` seats under the named rules preset (or :class:`Rules`).

    ``plays`` is how many candidate plays are offered a turn (the actions are
    0 to ``plays - 1`` for them, ``plays`` to draw or pass); ``reward`` is
    ``"win"`` or ``"score"`` (see :func:`round_rewards`). ``reset(seed=...)``
    deals the same round for the same seed.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tilerummy_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: Rules | str = "standard",
        *,
        plays: int = DEFAULT_PLAYS,
        reward: RewardKind = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.rules.check_players(players)
        if plays < 1:
            raise ValueError(f"plays={plays}: offer at least one candidate play")
        if reward not in ("win", "score"):
            raise ValueError(f"reward={reward!r}: choose 'win' or 'score'")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}: choose from {', '.join(RENDER_MODES)}")
        self.players = players
        self.plays = plays
        self.reward_kind: RewardKind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._observation_space = observation_space(plays)
        self._action_space = spaces.Discrete(plays + 1)
        self._rng = np.random.default_rng()
        self._game: Game | None = None
        self._found: list[Solution] = []

    # --- Spaces ------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # --- The round ---------------------------------------------------------

    @property
    def game(self) -> Game:
        """The round being played (hidden information: for tests and audits)."""
        if self._game is None:
            raise RuntimeError("no round yet: call reset() first")
        return self._game

    @property
    def offered_plays(self) -> list[Solution]:
        """The plays actions 0, 1, ... stand for, for the agent to move."""
        return list(self._found)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round: from ``seed``, or from the environment's own generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._game = Game.new(self.players, rules=self.rules, seed=int(self._rng.integers(2**63)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._start_turn()

    def observe(self, agent: str) -> Observation:
        seat = self._seat(agent)
        view = self.game.view(seat)
        acting = seat == self.game.turn and not self.game.is_over
        found = self._found if acting else []
        return {
            "observation": encode_observation(view, found, self.plays),
            "action_mask": action_mask(found, self.plays, acting=acting),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action, not None")
        game = self.game
        seat = self._seat(agent)
        game.apply(to_action(game.view(seat), self._found, int(action), self.plays))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if game.result is not None:
            for reached, value in zip(self.agents, round_rewards(game.result, self.reward_kind), strict=True):
                self.rewards[reached] = value
                self.terminations[reached] = True
                self.infos[reached] = {"result": game.result.to_dict()}
            self._accumulate_rewards()
        self._start_turn()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        table = " | ".join(str(meld) for meld in game.table) or "(empty)"
        sizes = ", ".join(
            f"{agent}: {size}" for agent, size in zip(self.possible_agents, game.view(None).rack_sizes, strict=True)
        )
        status = "over" if game.is_over else f"seat_{game.turn} to play"
        return f"table: {table}\nracks: {sizes}; pool: {game.pool_size}; {status}"

    def close(self) -> None:
        pass

    # --- Internals ---------------------------------------------------------

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"unknown agent {agent!r} (agents: {', '.join(self.possible_agents)})") from None

    def _start_turn(self) -> None:
        game = self.game
        self.agent_selection = self.possible_agents[game.turn]
        self._found = [] if game.is_over else legal_plays(game.view(game.turn), self.plays)


def env(**options: Any) -> AECEnv:
    """The environment inside PettingZoo's usual checks (order of calls, bounds of actions)."""
    wrapped: AECEnv = wrappers.OrderEnforcingWrapper(TileRummyEnv(**options))
    return wrapped


raw_env = TileRummyEnv
