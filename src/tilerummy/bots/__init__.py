"""Players the computer controls. A bot sees only its own seat's view."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..errors import TilerummyError
from ..game import Action, PlayerView
from .easy import EasyBot
from .expert import DEFAULT_BUDGET, ExpertBot
from .greedy import GreedyBot
from .hard import HardBot
from .league import HoarderBot, LurkerBot, RacerBot, ShedderBot, frozen_network
from .network import NetworkBot, PolicyNetwork, load_weights
from .simple import RandomBot, SimpleBot
from .tempo import PATIENCE, PATIENT_RACK, Tempo


class Bot(Protocol):
    """Chooses an action from one seat's view of the game."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...


_MAKERS: dict[str, Callable[[int, float | None, PolicyNetwork | None], Bot]] = {
    "easy": lambda seed, budget, network: EasyBot(seed),
    "greedy": lambda seed, budget, network: GreedyBot(seed),
    "hard": lambda seed, budget, network: Tempo(HardBot(seed, network)),
    "network": lambda seed, budget, network: Tempo(
        HardBot(seed, network), rack=PATIENT_RACK, patience=PATIENCE, spare_waiting=True
    ),
    "expert": lambda seed, budget, network: ExpertBot(
        seed, DEFAULT_BUDGET if budget is None else budget, network=network
    ),
}

#: The bot levels by name, weakest first.
LEVELS: tuple[str, ...] = tuple(_MAKERS)

_MAKERS |= {
    "random": lambda seed, budget, network: RandomBot(seed),
    "hoarder": lambda seed, budget, network: HoarderBot(seed),
    "lurker": lambda seed, budget, network: LurkerBot(seed),
    "racer": lambda seed, budget, network: RacerBot(seed),
    "shedder": lambda seed, budget, network: ShedderBot(seed),
    "wary": lambda seed, budget, network: Tempo(HardBot(seed, network), spare_waiting=True),
    "hard-v1": lambda seed, budget, network: HardBot(seed, frozen_network()),
    "network-v1": lambda seed, budget, network: NetworkBot(seed, frozen_network()),
    "expert-fast": lambda seed, budget, network: ExpertBot(
        seed, (DEFAULT_BUDGET if budget is None else budget) / 8, network=network
    ),
}

#: Opponents of one style each for the arena (:mod:`.league`), besides the levels.
LEAGUE: tuple[str, ...] = tuple(name for name in _MAKERS if name not in LEVELS)

#: Every name :func:`make_bot` knows: the levels, then the league.
OPPONENTS: tuple[str, ...] = LEVELS + LEAGUE


def make_bot(level: str, *, seed: int = 0, budget: float | None = None, weights: str | Path | None = None) -> Bot:
    """A new bot of the named level (or league opponent, :data:`LEAGUE`); ``seed`` makes its choices repeatable;
    ``budget`` is the seconds per move of a level that searches (expert);
    ``weights``, a network's ``.npz`` file for the levels the network drives
    (hard, network, expert) instead of the shipped one.

    :raises TilerummyError: for an unknown level, a budget that is not positive,
        or weights that cannot be read.
    """
    if budget is not None and not budget > 0:
        raise TilerummyError(f"budget {budget}: give a number of seconds above 0")
    try:
        maker = _MAKERS[level.lower()]
    except KeyError:
        raise TilerummyError(f"unknown bot level {level!r} (choose from {', '.join(OPPONENTS)})") from None
    return maker(seed, budget, None if weights is None else load_weights(weights))


__all__ = [
    "LEAGUE",
    "LEVELS",
    "OPPONENTS",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "GreedyBot",
    "HardBot",
    "NetworkBot",
    "RandomBot",
    "SimpleBot",
    "make_bot",
]
