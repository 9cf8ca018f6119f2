"""The store's writer: every change committed in a thread of its own, many at once.

The event loop hands a change over and goes on serving other rooms while it
is written; the caller awaits the write and only then tells anyone about it,
so nothing is announced that a crash could lose. Changes that queue up while
a transaction commits, or within a couple of milliseconds of its first change,
are written together (group commit): under load the database sees a few large
transactions rather than one per action, which spares the CPU of the server
and of the database far more than the wait costs a player. Changes are written
in the order they were handed over.

One bad change (a row that breaks a constraint) must not fail the changes
that happened to share its transaction: when a group fails, each of its
changes is written again on its own, and only those that fail alone fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .store import Change, Store, StoreError

#: The most changes written in one transaction.
MOST_IN_A_GROUP = 500
#: Seconds a transaction waits for more changes after its first.
GATHER_SECONDS = 0.002


@dataclass(slots=True)
class _Pending:
    change: Change
    done: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


class Writer:
    """Commits changes to a store off the event loop, in order, grouped when they queue up."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_forever, name="store-writer", daemon=True)
        self._started = False
        self._closed = False
        self._start_lock = threading.Lock()
        #: Transactions committed and changes written in them (the group sizes' mean is their ratio).
        self.transactions = 0
        self.changes = 0
        #: Writes handed over and not yet answered.
        self.pending = 0

    async def write(self, change: Change) -> None:
        """Commit the change; returns once it is stored.

        :raises StoreError: the change could not be written (nothing of it is stored).
        """
        if self._closed:
            raise StoreError("could not write to the database: the server is shutting down")
        self._start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Pending(change, done, loop))
        self.pending += 1
        try:
            await done
        finally:
            self.pending -= 1

    async def drained(self) -> None:
        """Return once every change handed over before the call is stored (or has failed)."""
        if not self._started or self._closed:
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        # An empty change costs a transaction with nothing in it, and comes back after all the others.
        self._queue.put(_Pending(Change(), done, loop))
        await done

    def close(self) -> None:
        """Write what is queued, then stop the thread; later writes are refused."""
        self._closed = True
        if self._started:
            self._queue.put(None)
            self._thread.join()

    def _start(self) -> None:
        with self._start_lock:
            if not self._started:
                self._started = True
                self._thread.start()

    def _write_forever(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            stop = False
            gathered_by = time.monotonic() + GATHER_SECONDS
            while len(group) < MOST_IN_A_GROUP:
                try:
                    more = self._queue.get(timeout=max(0.0, gathered_by - time.monotonic()))
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            self._settle(group, self._commit_group(group))
            if stop:
                return

    def _commit_group(self, group: Sequence[_Pending]) -> list[StoreError | None]:
        changes = [pending.change for pending in group if not _empty(pending.change)]
        if not changes:
            return [None] * len(group)
        try:
            self.store.commit_many(changes)
        except StoreError as error:
            if len(changes) == 1:
                return [None if _empty(pending.change) else error for pending in group]
            return [self._commit_alone(pending.change) for pending in group]
        self.transactions += 1
        self.changes += len(changes)
        return [None] * len(group)

    def _commit_alone(self, change: Change) -> StoreError | None:
        if _empty(change):
            return None
        try:
            self.store.commit_many([change])
        except StoreError as error:
            return error
        self.transactions += 1
        self.changes += 1
        return None

    @staticmethod
    def _settle(group: Sequence[_Pending], outcomes: Sequence[StoreError | None]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], StoreError | None]]] = {}
        for pending, outcome in zip(group, outcomes, strict=True):
            by_loop.setdefault(pending.loop, []).append((pending.done, outcome))
        for loop, settled in by_loop.items():
            # One wake-up of the loop for the whole group; a closed loop has nobody waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve, settled)


def _resolve(settled: Sequence[tuple[asyncio.Future[None], StoreError | None]]) -> None:
    for done, outcome in settled:
        if done.cancelled():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)


def _empty(change: Change) -> bool:
    return change.room is None and change.new_game is None and not change.actions and change.finished is None
