"""How long the event loop stalls: a task that asks to wake up often and notes how late it is.

Whatever holds the loop (a slow callback, blocking I/O, a long computation)
delays every message of every room by as much, so the lateness of a short
sleep is the longest any message waited behind other work. The monitor
keeps the longest stall of each second for the last ten minutes, so a load
test can ask for the longest stall while it ran (``GET /api/stats``).
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
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: (second, longest stall in it) for the last seconds, oldest first.
        self._by_second: deque[tuple[int, float]] = deque(maxlen=KEPT_SECONDS)
        self.longest = 0.0
        self.ticks = 0

    def record(self, stall: float, at: float) -> None:
        """Note a stall (seconds late) that ended at ``at`` (the monitor's clock)."""
        self.ticks += 1
        self.longest = max(self.longest, stall)
        second = int(at)
        if self._by_second and self._by_second[-1][0] == second:
            if stall > self._by_second[-1][1]:
                self._by_second[-1] = (second, stall)
        else:
            self._by_second.append((second, stall))

    def longest_within(self, seconds: float) -> float:
        """The longest stall in the last ``seconds`` (whole seconds, counting the current one)."""
        since = int(self._clock() - seconds)
        return max((stall for second, stall in self._by_second if second >= since), default=0.0)

    async def watch(self) -> None:
        """Run until cancelled, measuring the loop's lateness every tick."""
        while True:
            asked = self._clock()
            await asyncio.sleep(TICK_SECONDS)
            woke = self._clock()
            self.record(max(0.0, woke - asked - TICK_SECONDS), woke)
