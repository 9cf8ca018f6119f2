"""The event loop's monitor: the longest stall of each recent second."""

from __future__ import annotations

import asyncio
import time

from tilerummy.server.loop_monitor import LoopMonitor, Recent


def test_the_loop_monitor_keeps_the_longest_stall_work_and_collection_of_each_recent_second() -> None:
    now = [100.0]
    monitor = LoopMonitor(clock=lambda: now[0], cpu_clock=lambda: 0.0)
    monitor.record(0.002, 0.001, 90.5)
    monitor.record(0.300, 0.020, 95.2)
    monitor.record_collection(0.040, 95.3, full=True)
    monitor.record(0.010, 0.050, 95.9)
    monitor.record_collection(0.001, 99.0, full=False)
    monitor.record(0.004, 0.003, 99.1)
    assert monitor.within(2) == Recent(stall=0.004, work=0.003, collection=0.001, full_collections=0)
    assert monitor.within(6) == Recent(stall=0.300, work=0.050, collection=0.040, full_collections=1)
    assert monitor.within(60) == monitor.within(6) and monitor.ticks == 4
    now[0] = 200.0
    assert monitor.within(10) == Recent(stall=0.0, work=0.0, collection=0.0, full_collections=0)


def test_the_loop_monitor_measures_a_callback_that_holds_the_loop() -> None:
    async def scenario() -> tuple[float, float]:
        monitor = LoopMonitor()
        watcher = asyncio.ensure_future(monitor.watch())
        await asyncio.sleep(0.05)
        held_until = time.thread_time() + 0.1
        while time.thread_time() < held_until:
            pass  # CPU work that holds the loop, as a blocking computation would
        await asyncio.sleep(0.05)
        watcher.cancel()
        recent = monitor.within(60)
        return recent.stall, recent.work

    stall, work = asyncio.run(scenario())
    assert work >= 0.1 and stall >= 0.09
