"""How long the event loop stalls: a task that asks to wake up often and notes how late it is.

Whatever holds the loop (a slow callback, blocking I/O, a long computation)
delays every message of every room by as much, so the lateness of a short
sleep is the longest any message waited behind other work. On a machine
short of CPU that lateness also counts the time the process waited for a
core, so the monitor notes too the CPU time the loop's thread spent between
two ticks: the longest stretch of work that held the loop, whatever else
runs on the machine. It keeps the longest of each second for the last ten
minutes, so a load test can ask for them while it ran (``GET /api/stats``).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: How often the monitor asks to wake up.
TICK_SECONDS = 0.01
#: How many seconds of per-second maxima are kept.
KEPT_SECONDS = 600


class LoopMonitor:
    def __init__(
        self, clock: Callable[[], float] = time.monotonic, cpu_clock: Callable[[], float] = time.thread_time
    ) -> None:
        self._clock = clock
        self._cpu_clock = cpu_clock
        #: [second, longest stall, longest work, longest collection, full collections] for the last seconds.
        self._by_second: deque[list[float]] = deque(maxlen=KEPT_SECONDS)
        self.ticks = 0
        self._collection_started = 0.0

    def record(self, stall: float, work: float, at: float) -> None:
        """Note a tick that ended at ``at`` (the monitor's clock): ``stall`` seconds late,
        after ``work`` seconds of the loop thread's CPU time since the tick before."""
        self.ticks += 1
        kept = self._second(at)
        kept[1], kept[2] = max(kept[1], stall), max(kept[2], work)

    def record_collection(self, pause: float, at: float, *, full: bool) -> None:
        """Note a pause of the garbage collector (which holds every thread) that ended at ``at``."""
        kept = self._second(at)
        kept[3] = max(kept[3], pause)
        kept[4] += full

    def _second(self, at: float) -> list[float]:
        second = int(at)
        if not self._by_second or self._by_second[-1][0] != second:
            self._by_second.append([second, 0.0, 0.0, 0.0, 0])
        return self._by_second[-1]

    def within(self, seconds: float) -> Recent:
        """The longest stall, work and collection, and the full collections, in the last
        ``seconds`` (whole seconds, counting the current one)."""
        since = int(self._clock() - seconds)
        recent = [kept for kept in self._by_second if kept[0] >= since]
        return Recent(
            stall=max((kept[1] for kept in recent), default=0.0),
            work=max((kept[2] for kept in recent), default=0.0),
            collection=max((kept[3] for kept in recent), default=0.0),
            full_collections=int(sum(kept[4] for kept in recent)),
        )

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        now = self._clock()
        if phase == "start":
            self._collection_started = now
        else:
            self.record_collection(now - self._collection_started, now, full=info.get("generation") == 2)

    async def watch(self) -> None:
        """Run until cancelled, measuring the loop's lateness every tick and the collector's pauses."""
        gc.callbacks.append(self._on_collection)
        try:
            while True:
                asked, spent = self._clock(), self._cpu_clock()
                await asyncio.sleep(TICK_SECONDS)
                woke, busy = self._clock(), self._cpu_clock()
                self.record(max(0.0, woke - asked - TICK_SECONDS), busy - spent, woke)
        finally:
            gc.callbacks.remove(self._on_collection)


@dataclass(frozen=True, slots=True)
class Recent:
    """What held the loop up over a recent window, in seconds."""

    stall: float
    work: float
    collection: float
    full_collections: int
