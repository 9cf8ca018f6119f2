"""Players the computer controls. A bot sees only its own seat's view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..errors import TilerummyError
from ..game import Action, PlayerView
from .easy import EasyBot
from .greedy import GreedyBot
from .hard import HardBot
from .simple import RandomBot, SimpleBot


class Bot(Protocol):
    """Chooses an action from one seat's view of the game."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...


_MAKERS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "greedy": GreedyBot,
    "hard": HardBot,
}

#: The bot levels by name, weakest first.
LEVELS: tuple[str, ...] = tuple(_MAKERS)


def make_bot(level: str, *, seed: int = 0) -> Bot:
    """A new bot of the named level; ``seed`` makes its choices repeatable.

    :raises TilerummyError: for an unknown level.
    """
    try:
        maker = _MAKERS[level.lower()]
    except KeyError:
        raise TilerummyError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})") from None
    return maker(seed)


__all__ = ["LEVELS", "Bot", "EasyBot", "GreedyBot", "HardBot", "RandomBot", "SimpleBot", "make_bot"]
