"""The turn clock.

The server gives the engine wall-clock times (seconds since 1970) as each
action's ``at``, so a turn's deadline is a wall-clock time that survives a
restart: once the server is back, every deadline that passed while it was
down is applied as a timeout, in order, as if it had never stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..game import Game, Timeout

Clock = Callable[[], float]


def wall_clock() -> float:
    return time.time()


def due_timeouts(game: Game, now: float) -> list[Timeout]:
    """Apply every timeout that fell due by ``now`` and return them.

    A timeout takes effect at the deadline itself, so the next turn's clock
    starts then, and may run out too.

    >>> from tilerummy import Rules
    >>> game = Game.new(2, rules=Rules(turn_seconds=10), seed=1, started_at=0)
    >>> [(timeout.seat, timeout.at) for timeout in due_timeouts(game, 25)]
    [(1, 10), (0, 20)]
    """
    applied: list[Timeout] = []
    while not game.is_over:
        deadline = game.deadline
        if deadline is None or deadline > now:
            break
        seat = game.turn
        game.timeout(seat, at=deadline)
        applied.append(Timeout(seat, deadline))
    return applied
