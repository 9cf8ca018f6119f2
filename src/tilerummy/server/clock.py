"""The turn clock: the time, timers, and the timeouts that fell due.

The server gives the engine wall-clock times (seconds since 1970) as each
action's ``at``, so a turn's deadline is a wall-clock time that survives a
restart: once the server is back, every deadline that passed while it was
down is applied as a timeout, in order, as if it had never stopped.

The hub reads the time from a :data:`Clock` and sets its timers with
:class:`Timers`; both are given to it, so tests run the server on a clock
they move themselves.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from ..game import Game, Timeout

Clock = Callable[[], float]


def wall_clock() -> float:
    return time.time()


class Timer(Protocol):
    def cancel(self) -> None: ...


class Timers(Protocol):
    """Where the hub sets its timers; a callback runs on the event loop once ``delay`` seconds have passed."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class LoopTimers:
    """Timers on the running event loop, in real time."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback)


async def sleep(timers: Timers, delay: float) -> None:
    """Wait ``delay`` seconds as ``timers`` count them (no wait at all for zero or less)."""
    if delay <= 0:
        await asyncio.sleep(0)
        return
    woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def wake() -> None:
        if not woken.done():
            woken.set_result(None)

    timer = timers.call_later(delay, wake)
    try:
        await woken
    finally:
        timer.cancel()


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
