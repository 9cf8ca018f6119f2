"""Bots thinking off the event loop, in worker processes, within a time budget.

A bot may think for a couple of seconds; in its own process it never holds
up other rooms. A bot that fails or runs out of budget gives no action, and
the caller draws (or passes) for it. Hints and post-game analyses, the
other heavy engine work, run in the same workers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..analysis import analyse
from ..bots import make_bot
from ..game import Action, PlayerView
from ..records import GameRecord
from ..solver import Solution, solve

log = logging.getLogger("tilerummy.server")

_T = TypeVar("_T")


#: The share of its budget a bot that searches may think for; the rest covers the trip to the worker.
THINKING_SHARE = 0.6


def choose_action(level: str, seed: int, view: PlayerView, budget: float) -> Action:
    """Runs in a worker: a fresh bot per move, seeded, so a move does not depend on the worker."""
    return make_bot(level, seed=seed, budget=max(0.05, budget * THINKING_SHARE)).choose(view)


def suggest_play(view: PlayerView) -> Solution | None:
    """Runs in a worker: the solver's best play for the seat's view (a hint)."""
    assert view.seat is not None and view.rack is not None
    return solve(view.rack, view.table, rules=view.rules, initial_meld_done=view.melded[view.seat])


def analyse_record(data: dict[str, Any]) -> dict[str, Any]:
    """Runs in a worker: a finished game's analysis (``tilerummy analyse --json``)."""
    return analyse(GameRecord.from_dict(data)).to_dict()


def _exit_with_parent() -> None:
    """Runs as each worker starts: a server killed outright must not leave its workers behind."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BotPool:
    """Runs bots in ``workers`` processes (0: in threads of this process, for small setups)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor = self._new_executor()

    def _new_executor(self) -> Executor:
        if self.workers > 0:
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
            )
        return concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    async def choose(self, level: str, seed: int, view: PlayerView, budget: float) -> Action | None:
        return await self._run(f"a {level} bot", budget, choose_action, level, seed, view, budget)

    async def suggest(self, view: PlayerView, budget: float) -> Solution | None:
        """The best play for a hint; None when there is none or it took longer than ``budget``."""
        return await self._run("a hint", budget, suggest_play, view)

    async def analyse(self, record: dict[str, Any], budget: float) -> dict[str, Any] | None:
        """A finished game's analysis; None when it failed or took longer than ``budget``."""
        return await self._run("an analysis", budget, analyse_record, record)

    async def _run(self, what: str, budget: float, work: Callable[..., _T], *args: Any) -> _T | None:
        """``work(*args)`` in a worker; None when it failed or took longer than ``budget`` seconds."""
        future = asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
        try:
            return await asyncio.wait_for(future, timeout=max(budget, 0.01))
        except TimeoutError:
            log.warning("%s ran out of its %.1f s budget", what, budget)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start afresh for the next piece of work.
            log.error("the bot workers stopped; starting new ones")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
        except Exception:
            log.exception("%s failed", what)
        return None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
