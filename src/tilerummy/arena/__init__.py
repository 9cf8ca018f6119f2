"""The arena: bots play many games on mirrored deals, and their strength is measured.

Every deal is played once per rotation of the seats, so each bot plays each
starting rack and each seat: luck of the deal cancels out. Each seat draws
its own share of the pool by default, so the luck of the draws cancels too.
A deal's games are scored together (:mod:`.pairs`), and a sequential test
(:mod:`.sprt`) can stop play as soon as those scores decide between two
win shares.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from ..bots import OPPONENTS
from ..bots.network import load_weights
from ..errors import TilerummyError
from ..rules import PoolDraws, Rules
from .games import GameOutcome, GameSpec, Progress, play, play_all, play_deal, record_path, schedule
from .pairs import deal_score
from .report import ArenaReport, BotReport, summarise
from .sprt import Sprt, SprtHypotheses


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
    sprt: SprtHypotheses | None = None,
    weights: str | Path | None = None,
) -> ArenaReport:
    """Play ``games`` games (rounded up to whole deals) between ``bots`` (names of
    levels or league opponents, one per seat) and report. Without ``rules``, the standard rules
    with per-seat draws, which keep a deal's games alike longer.

    With ``sprt``, deals are judged in order as they finish and play stops at
    the first deal that decides the test, ``games`` being the most it may
    play; games played beyond that deal (by other processes meanwhile) are
    discarded, records included, so the verdict and the report are the same
    with any number of workers.

    ``weights`` is a network's ``.npz`` file for every bot the network drives
    (hard, network, expert), instead of the shipped one.

    :raises TilerummyError: for unknown bots, a bad count, or a bot's illegal move.
    """
    bots = [bot.strip().lower() for bot in bots]
    unknown = [bot for bot in bots if bot not in OPPONENTS]
    if unknown:
        raise TilerummyError(f"unknown bot {unknown[0]!r} (choose from {', '.join(OPPONENTS)})")
    if sprt is not None and len(set(bots)) == 1:
        raise TilerummyError(f"--sprt tests {bots[0]} against other bots: name at least one other bot")
    rules = rules or Rules(pool_draws=PoolDraws.PER_SEAT)
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
    weights_file = None
    if weights is not None:
        load_weights(weights)  # refused here, in one line, rather than in every process
        weights_file = str(Path(weights).resolve())
    specs = schedule(list(bots), games, seed=seed, rules=rules, save_to=saving, budget=budget, weights=weights_file)
    started = time.perf_counter()
    if sprt is None:
        outcomes = play_all(specs, workers, progress)
        return summarise(outcomes, time.perf_counter() - started)
    test = Sprt(sprt, games_per_deal=len(bots))
    outcomes = _play_until_decided(specs, workers, test, progress)
    if saving is not None:
        for spec in specs[len(outcomes) :]:
            record_path(saving, spec.index).unlink(missing_ok=True)
    return summarise(outcomes, time.perf_counter() - started, sprt=test.result())


def _play_until_decided(
    specs: list[GameSpec], workers: int, test: Sprt, progress: Progress | None
) -> list[GameOutcome]:
    """Play deal after deal, feeding the test each deal's score in deal order,
    until it decides or the games run out; the outcomes of the deals judged."""
    rotations = test.games_per_deal
    first = specs[0].seats[0]
    finished: dict[int, list[GameOutcome]] = defaultdict(list)
    judged: list[GameOutcome] = []
    played = 0

    def judge(outcome: GameOutcome) -> None:
        nonlocal played
        played += 1
        if progress:
            progress(played, len(specs))
        finished[outcome.deal].append(outcome)
        # Judge in deal order, so the decision does not depend on which process finished first.
        while test.verdict is None and len(finished.get(len(judged) // rotations, ())) == rotations:
            games = sorted(finished.pop(len(judged) // rotations), key=lambda game: game.index)
            judged.extend(games)
            test.add(deal_score(games, first))

    if workers == 1:
        for spec in specs:
            judge(play(spec))
            if test.verdict is not None:
                break
        return judged
    deals = [tuple(specs[start : start + rotations]) for start in range(0, len(specs), rotations)]
    # Keep each process busy with a deal in hand, and one more, so that few
    # games are played for nothing once the test decides; a deal's games go
    # to one process, which remembers the positions they share.
    in_hand = workers + 1
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        waiting = iter(deals)
        running: set[Future[list[GameOutcome]]] = set()
        while test.verdict is None:
            for deal in itertools.islice(waiting, in_hand - len(running)):
                running.add(pool.submit(play_deal, deal))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda future: future.result()[0].index):
                for outcome in future.result():
                    judge(outcome)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return judged


__all__ = ["ArenaReport", "BotReport", "GameOutcome", "SprtHypotheses", "run_arena"]
