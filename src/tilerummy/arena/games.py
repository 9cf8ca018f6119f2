"""Playing the arena's games: one deal per seed, played once per seat rotation."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..bots import make_bot
from ..errors import IllegalAction, TilerummyError
from ..game import Game
from ..records import GameRecord
from ..rules import Rules


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to play: which bot sits where, on which deal."""

    index: int
    deal: int  # games with the same deal start from the same tiles
    seed: int
    seats: tuple[str, ...]  # bot level names, in seat order
    rules: Rules
    save_to: str | None = None  # a directory for the game's record
    budget: float | None = None  # seconds per move for bots that search
    weights: str | None = None  # a network's weights for the bots it drives, instead of the shipped ones


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    deal: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    tiles_left: tuple[int, ...]
    winner: int
    moves: int
    seconds_per_move: tuple[tuple[str, float], ...]  # (bot, seconds) for every move a bot made


def schedule(
    bots: list[str],
    games: int,
    *,
    seed: int,
    rules: Rules,
    save_to: str | None = None,
    budget: float | None = None,
    weights: str | None = None,
) -> list[GameSpec]:
    """``games`` games, rounded up to whole deals: each deal once per rotation of the seats."""
    rotations = len(bots)
    deals = -(-games // rotations)
    specs: list[GameSpec] = []
    for deal in range(deals):
        for turn in range(rotations):
            seats = tuple(bots[(seat + turn) % rotations] for seat in range(rotations))
            specs.append(GameSpec(len(specs), deal, seed + deal, seats, rules, save_to, budget, weights))
    return specs


def record_path(directory: str, index: int) -> Path:
    """Where the arena saves game ``index``'s record."""
    return Path(directory) / f"game-{index:05d}.json"


def play_deal(specs: tuple[GameSpec, ...]) -> list[GameOutcome]:
    """Play a deal's games, one after the other, in one process (where the
    bots remember the positions the deal's other games met)."""
    return [play(spec) for spec in specs]


def play(spec: GameSpec) -> GameOutcome:
    """Play one game to the end. Each bot's own seed depends on the deal and the
    seat, so a game replays the same whatever process runs it."""
    names = [f"{level}-{seat}" for seat, level in enumerate(spec.seats)]
    game = Game.new(names, rules=spec.rules, seed=spec.seed)
    bots = [
        make_bot(level, seed=spec.seed * 8 + seat, budget=spec.budget, weights=spec.weights)
        for seat, level in enumerate(spec.seats)
    ]
    timings = []
    while not game.is_over:
        seat = game.turn
        started = time.perf_counter()
        action = bots[seat].choose(game.view(seat))
        timings.append((spec.seats[seat], time.perf_counter() - started))
        try:
            game.apply(action)
        except IllegalAction as error:
            raise TilerummyError(
                f"bot {spec.seats[seat]!r} made an illegal move in game {spec.index} "
                f"(seed {spec.seed}, seat {seat}, move {len(game.actions)}): {error}"
            ) from error
    result = game.result
    assert result is not None
    if spec.save_to is not None:
        record_path(spec.save_to, spec.index).write_text(
            GameRecord.from_game(game).to_json(result=result.to_dict()) + "\n", encoding="utf-8"
        )
    return GameOutcome(
        index=spec.index,
        deal=spec.deal,
        seats=spec.seats,
        scores=result.scores,
        tiles_left=tuple(len(game.rack(seat)) for seat in range(len(spec.seats))),
        winner=result.winner,
        moves=len(game.actions),
        seconds_per_move=tuple(timings),
    )


#: Called with the games done and the games in all, as they finish.
Progress = Callable[[int, int], None]


def play_all(specs: Sequence[GameSpec], workers: int, progress: Progress | None = None) -> list[GameOutcome]:
    """Every game, in the order given, in ``workers`` processes.

    :raises TilerummyError: for fewer than one worker.
    """
    if workers < 1:
        raise TilerummyError(f"{workers} workers: use at least one")
    if workers == 1 or not specs:
        return collect(map(play, specs), len(specs), progress)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # Whole deals to a process (specs come deal by deal): a deal's games meet
        # the same positions, which the bots remember (see bots._positions).
        rotations = len(specs[0].seats)
        deals = max(1, min(8 // rotations, len(specs) // (rotations * workers * 8)))
        return collect(pool.map(play, specs, chunksize=deals * rotations), len(specs), progress)


def collect(results: Iterable[GameOutcome], total: int, progress: Progress | None) -> list[GameOutcome]:
    """The outcomes as they come, each one told to ``progress``."""
    outcomes = []
    for outcome in results:
        outcomes.append(outcome)
        if progress:
            progress(len(outcomes), total)
    return outcomes


def record_digest(record_text: str) -> dict[str, object]:
    """A saved game's moves as one digest, with its players and result: two arenas played the
    same game when their digests are equal (how the arena's fixture and bench compare games)."""
    data = json.loads(record_text)
    moves = json.dumps(data["actions"], sort_keys=True, separators=(",", ":"))
    return {
        "players": data["players"],
        "moves": len(data["actions"]),
        "moves_sha256": hashlib.sha256(moves.encode()).hexdigest(),
        "result": data["result"],
    }
