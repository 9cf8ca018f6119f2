"""The event loop's monitor: the longest stall of each recent second."""

from __future__ import annotations

import pytest

from tilerummy.server.loop_monitor import LoopMonitor


def test_the_loop_monitor_keeps_the_longest_stall_of_each_recent_second() -> None:
    now = [100.0]
    monitor = LoopMonitor(clock=lambda: now[0])
    monitor.record(0.002, 90.5)
    monitor.record(0.300, 95.2)
    monitor.record(0.010, 95.9)
    monitor.record(0.004, 99.1)
    now[0] = 100.0
    assert monitor.longest_within(2) == pytest.approx(0.004)
    assert monitor.longest_within(6) == pytest.approx(0.300)
    assert monitor.longest_within(60) == pytest.approx(0.300)
    assert monitor.longest == pytest.approx(0.300) and monitor.ticks == 4
    now[0] = 200.0
    assert monitor.longest_within(10) == 0.0
