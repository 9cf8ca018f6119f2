"""The store's writer: changes written off the loop, in order, grouped, and one bad change failing alone."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from tilerummy.server.store import Change, NewAction, NewGame, Store, StoreError, open_store
from tilerummy.server.writer import Writer

from .hubkit import StoreWrapper


class GatedStore(StoreWrapper):
    """A store whose writes wait until the test opens the gate, and which notes each transaction."""

    def __init__(self, inner: Store) -> None:
        super().__init__(inner)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.transactions: list[list[Change]] = []
        self.threads: set[str] = set()

    def commit_many(self, changes: Sequence[Change]) -> None:
        self.threads.add(threading.current_thread().name)
        self.entered.set()
        self.gate.wait(timeout=20)
        self.inner.commit_many(changes)
        self.transactions.append(list(changes))


def _game(game_id: str) -> Change:
    return Change(new_game=NewGame(game_id, "ROOM1", {"players": ["Ana", "Bruno"]}, 1000.0))


def _draw(game_id: str, index: int) -> Change:
    return Change(actions=[NewAction(game_id, index, index + 1, {"seat": index % 2, "type": "draw"})])


def test_changes_that_queue_up_are_written_together_in_order_off_the_loop(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = GatedStore(open_store(str(tmp_path / "db.sqlite3")))
        writer = Writer(store)
        first = asyncio.ensure_future(writer.write(_game("G1")))
        # The first write holds the store; the loop is free meanwhile and more changes queue up.
        while not store.entered.is_set():
            await asyncio.sleep(0.001)
        rest = [asyncio.ensure_future(writer.write(_draw("G1", index))) for index in range(5)]
        await asyncio.sleep(0)
        assert not first.done() and writer.pending == 6
        store.gate.set()
        await asyncio.gather(first, *rest)
        writer.close()
        assert [len(group) for group in store.transactions] == [1, 5]
        assert store.threads == {"store-writer"}
        stored = store.game("G1")
        assert stored is not None and stored.last_seq == 5
        assert [action["seat"] for action in stored.actions] == [0, 1, 0, 1, 0]
        assert (writer.transactions, writer.changes, writer.pending) == (2, 6, 0)
        store.close()

    asyncio.run(scenario())


def test_a_change_that_cannot_be_written_fails_alone(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = GatedStore(open_store(str(tmp_path / "db.sqlite3")))
        store.gate.set()
        writer = Writer(store)
        await writer.write(_game("G1"))
        await writer.write(_draw("G1", 0))
        store.gate.clear()
        blocker = asyncio.ensure_future(writer.write(_draw("G1", 1)))
        while len(store.transactions) < 2 or not store.entered.is_set():
            await asyncio.sleep(0.001)
        # Queued together behind the blocker: a good draw, the same move again (a duplicate key), another good one.
        group = [writer.write(_draw("G1", 2)), writer.write(_draw("G1", 1)), writer.write(_draw("G1", 3))]
        tasks = [asyncio.ensure_future(write) for write in group]
        await asyncio.sleep(0)
        store.gate.set()
        await blocker
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        writer.close()
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], StoreError) and "could not write" in str(outcomes[1])
        stored = store.game("G1")
        assert stored is not None and len(stored.actions) == 4
        store.close()

    asyncio.run(scenario())


def test_drained_waits_for_every_write_before_it_and_close_refuses_later_ones(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = open_store(str(tmp_path / "db.sqlite3"))
        writer = Writer(store)
        writes = [asyncio.ensure_future(writer.write(_game(f"G{index}"))) for index in range(20)]
        await asyncio.sleep(0)
        await writer.drained()
        assert all(write.done() for write in writes)
        assert all(store.game(f"G{index}") is not None for index in range(20))
        writer.close()
        with pytest.raises(StoreError, match="shutting down"):
            await writer.write(_game("late"))
        assert store.game("late") is None
        store.close()

    asyncio.run(scenario())
