"""Players the computer controls. A bot sees only its own seat's view."""

from __future__ import annotations

from typing import Protocol

from ..game import Action, PlayerView
from .simple import RandomBot, SimpleBot


class Bot(Protocol):
    """Chooses an action from one seat's view of the game."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...


__all__ = ["Bot", "RandomBot", "SimpleBot"]
