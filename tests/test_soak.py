"""A short soak of the hub in-process (``bench/server_soak.py`` is the long one): whole games of
bots, and memory that does not grow with the number of games finished."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from server_soak import soak

#: A game kept by mistake holds its deal, actions and views: thousands of objects.
MAX_OBJECTS_PER_GAME = 50


def test_memory_does_not_grow_with_the_games_finished(tmp_path: Path) -> None:
    games = 4
    # The easy level ends its games sooner than the random one (about 100 actions a game, not 120).
    first, second = asyncio.run(soak(games, 4, "easy", str(tmp_path / "soak.sqlite3"), warm_up=4))
    assert (first.games, second.games) == (8, 12)
    assert second.moves > first.moves > 0
    empty = {"rooms": 0, "runtimes": 0, "members": 0, "tasks": 0, "hinting": 0}
    assert first.structures == second.structures == empty
    assert (second.objects - first.objects) / games < MAX_OBJECTS_PER_GAME
