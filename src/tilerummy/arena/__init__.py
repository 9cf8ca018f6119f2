"""The arena: bots play many games on mirrored deals, and their strength is measured.

Every deal is played once per rotation of the seats, so each bot plays each
starting rack and each seat: luck of the deal cancels out.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..bots import LEVELS
from ..errors import TilerummyError
from ..rules import Rules
from .games import GameOutcome, GameSpec, play, schedule
from .report import ArenaReport, BotReport, summarise

Progress = Callable[[int, int], None]


def run_arena(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int | None = None,
    save_to: str | Path | None = None,
    progress: Progress | None = None,
    budget: float | None = None,
) -> ArenaReport:
    """Play ``games`` games (rounded up to whole deals) between ``bots`` (level
    names, one per seat) and report.

    :raises TilerummyError: for unknown bots, a bad count, or a bot's illegal move.
    """
    bots = [bot.strip().lower() for bot in bots]
    unknown = [bot for bot in bots if bot not in LEVELS]
    if unknown:
        raise TilerummyError(f"unknown bot {unknown[0]!r} (choose from {', '.join(LEVELS)})")
    rules = rules or Rules()
    rules.check_players(len(bots))
    if games < 1:
        raise TilerummyError(f"{games} games: play at least one")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise TilerummyError(f"{workers} workers: use at least one")
    if save_to is not None:
        Path(save_to).mkdir(parents=True, exist_ok=True)
    if budget is not None and not budget > 0:
        raise TilerummyError(f"budget {budget}: give a number of seconds above 0")
    saving = None if save_to is None else str(save_to)
    specs = schedule(list(bots), games, seed=seed, rules=rules, save_to=saving, budget=budget)
    started = time.perf_counter()
    outcomes = list(_play_all(specs, workers, progress))
    return summarise(outcomes, time.perf_counter() - started)


def _play_all(specs: list[GameSpec], workers: int, progress: Progress | None) -> list[GameOutcome]:
    if workers == 1:
        return _collect(map(play, specs), len(specs), progress)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunk = max(1, min(8, len(specs) // (workers * 8)))
        return _collect(pool.map(play, specs, chunksize=chunk), len(specs), progress)


def _collect(results: Iterable[GameOutcome], total: int, progress: Progress | None) -> list[GameOutcome]:
    outcomes = []
    for outcome in results:
        outcomes.append(outcome)
        if progress:
            progress(len(outcomes), total)
    return outcomes


__all__ = ["ArenaReport", "BotReport", "GameOutcome", "run_arena"]
