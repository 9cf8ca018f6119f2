"""Waiting for another process (a server starting, a browser drawing a page): the one polling loop
the tests share. In-process tests never need it: they await what they wait for."""

from __future__ import annotations

import time
from collections.abc import Callable

#: How often a condition is looked at again.
POLL_SECONDS = 0.05


def wait_until(check: Callable[[], bool], timeout: float, what: str = "a condition") -> None:
    """Return once ``check()`` holds; fail with ``TimeoutError`` after ``timeout`` seconds (a safety net)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(POLL_SECONDS)
    raise TimeoutError(f"waited {timeout} s for {what}")
