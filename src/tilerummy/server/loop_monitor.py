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
import time
from collections import deque
from collections.abc import Callable

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
        #: (second, longest stall in it, longest work in it) for the last seconds, oldest first.
        self._by_second: deque[tuple[int, float, float]] = deque(maxlen=KEPT_SECONDS)
        self.longest = 0.0
        self.longest_work = 0.0
        self.ticks = 0

    def record(self, stall: float, work: float, at: float) -> None:
        """Note a tick that ended at ``at`` (the monitor's clock): ``stall`` seconds late,
        after ``work`` seconds of the loop thread's CPU time since the tick before."""
        self.ticks += 1
        self.longest = max(self.longest, stall)
        self.longest_work = max(self.longest_work, work)
        second = int(at)
        if self._by_second and self._by_second[-1][0] == second:
            _, most_stall, most_work = self._by_second[-1]
            self._by_second[-1] = (second, max(most_stall, stall), max(most_work, work))
        else:
            self._by_second.append((second, stall, work))

    def longest_within(self, seconds: float) -> tuple[float, float]:
        """The longest stall and the longest work in the last ``seconds`` (whole seconds,
        counting the current one)."""
        since = int(self._clock() - seconds)
        recent = [(stall, work) for second, stall, work in self._by_second if second >= since]
        return max((stall for stall, _ in recent), default=0.0), max((work for _, work in recent), default=0.0)

    async def watch(self) -> None:
        """Run until cancelled, measuring the loop's lateness every tick."""
        while True:
            asked, spent = self._clock(), self._cpu_clock()
            await asyncio.sleep(TICK_SECONDS)
            woke, busy = self._clock(), self._cpu_clock()
            self.record(max(0.0, woke - asked - TICK_SECONDS), busy - spent, woke)
