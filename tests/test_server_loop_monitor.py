"""The event loop's monitor: the longest stall of each recent second."""

from __future__ import annotations

import asyncio
import time

import pytest

from tilerummy.server.loop_monitor import LoopMonitor


def test_the_loop_monitor_keeps_the_longest_stall_and_work_of_each_recent_second() -> None:
    now = [100.0]
    monitor = LoopMonitor(clock=lambda: now[0], cpu_clock=lambda: 0.0)
    monitor.record(0.002, 0.001, 90.5)
    monitor.record(0.300, 0.020, 95.2)
    monitor.record(0.010, 0.050, 95.9)
    monitor.record(0.004, 0.003, 99.1)
    assert monitor.longest_within(2) == pytest.approx((0.004, 0.003))
    assert monitor.longest_within(6) == pytest.approx((0.300, 0.050))
    assert monitor.longest_within(60) == pytest.approx((0.300, 0.050))
    assert (monitor.longest, monitor.longest_work, monitor.ticks) == pytest.approx((0.300, 0.050, 4))
    now[0] = 200.0
    assert monitor.longest_within(10) == (0.0, 0.0)


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
        return monitor.longest_within(60)

    stall, work = asyncio.run(scenario())
    assert work >= 0.1 and stall >= 0.09
