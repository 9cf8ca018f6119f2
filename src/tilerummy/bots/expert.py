"""The strongest level: it weighs a few strategically different plays by
playing each of them out in many guessed worlds.

The hidden tiles (the others' racks and the pool) are unknown, so the bot
deals them at random from the tiles it cannot see, consistently with what it
knows (how many tiles each player holds), and plays the next few turns of
each such world with the greedy solver for everyone. Every candidate play is
tried in the same worlds, so the comparison is not drowned in the luck of the
deal, and a candidate that falls clearly behind the leader (by more than
two standard errors of their paired differences) stops being tried, so the
time goes to the close calls. The candidate with the best average outcome
is played. The bot stops guessing when its time budget is spent.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass

from ..game import Action, PlayerView
from ..melds import Table
from ..rules import Rules
from ..solver import Solution, candidates, solve
from ..tiles import Tile
from ._common import own_rack, play_or_draw
from .hard import holding_back

#: Seconds per move unless told otherwise.
DEFAULT_BUDGET = 2.0

#: How many turns of each player a guessed world is played for.
HORIZON = 3

#: What going out (or an opponent going out) is worth, against a tile of difference.
WIN_WEIGHT = 20.0

#: How many of the solver's best distinct plays are weighed (the best one included).
TOP_PLAYS = 3

#: Worlds every candidate is played in before any is dropped.
MIN_WORLDS = 4

#: A candidate this many standard errors behind the leader is dropped.
DROP_AT = 2.0


@dataclass(frozen=True, slots=True)
class Candidate:
    table: Table | None  # None: draw (or pass)
    placed: tuple[Tile, ...]


class ExpertBot:
    """Chooses among greedy, held-back, next-best and drawing plays by sampling the hidden tiles."""

    name = "expert"

    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET) -> None:
        self._rng = random.Random(seed)
        self.budget = budget

    def choose(self, view: PlayerView) -> Action:
        started = time.perf_counter()
        assert view.seat is not None
        options = self.candidates(view)
        if len(options) == 1:
            return play_or_draw(view, options[0].table)
        race = _Race(len(options))
        unseen = _unseen(view)
        deadline = started + self.budget
        # A world counts only once every candidate still racing was played out
        # in it, so that all are compared on the same worlds; with none (no
        # time), the greedy play.
        while len(race.alive) > 1 and time.perf_counter() < deadline:
            world = _guess_world(view, unseen, self._rng)
            outcomes: dict[int, float] = {}
            for index in race.alive:
                outcomes[index] = _play_out(world, view, options[index])
                if time.perf_counter() >= deadline:
                    break
            if len(outcomes) < len(race.alive):
                break
            race.record(outcomes)
        return play_or_draw(view, options[race.leader()].table)

    def candidates(self, view: PlayerView) -> list[Candidate]:
        """The plays worth weighing: the most tiles; the same less one, two or
        three tiles kept back (two is what the hard bot plays); the solver's
        next best plays on other tiles; and drawing instead. The greedy play
        comes first."""
        assert view.seat is not None
        rack = own_rack(view)
        melded = view.melded[view.seat]
        best = solve(rack, view.table, rules=view.rules, initial_meld_done=melded, fewest_changes=False)
        if best is None:
            return [Candidate(None, ())]
        if len(best.placed) == len(rack):
            return [Candidate(best.table, best.placed)]  # going out: nothing is better
        # One walk gives the plays less one, two and three tiles (keeping all would be drawing).
        most = min(3, len(best.placed) - 1)
        options = [best, *holding_back(rack, view.table, best, view.rules, melded=melded, most=most)]
        options += candidates(
            rack, view.table, rules=view.rules, initial_meld_done=melded, k=TOP_PLAYS, fewest_changes=False
        )[1:]
        unique: dict[tuple[Tile, ...], Candidate] = {}
        for option in options:
            unique.setdefault(tuple(sorted(option.placed)), Candidate(option.table, option.placed))
        found = list(unique.values())
        if view.pool_size > 0:
            found.append(Candidate(None, ()))
        return found


class _Race:
    """The candidates' outcomes world by world, and which of them are still in the running."""

    def __init__(self, count: int) -> None:
        self.alive = list(range(count))
        self._worlds: list[dict[int, float]] = []

    def record(self, outcomes: dict[int, float]) -> None:
        self._worlds.append(outcomes)
        if len(self._worlds) < MIN_WORLDS:
            return
        leader = self.leader()
        self.alive = [index for index in self.alive if index == leader or not self._clearly_behind(index, leader)]

    def leader(self) -> int:
        """The best average among those still running (the first, the greedy play, with no world yet)."""
        if not self._worlds:
            return self.alive[0]
        return max(self.alive, key=lambda index: (self._mean(index), -index))

    def _mean(self, index: int) -> float:
        # Every candidate alive now was played in every world so far.
        return sum(world[index] for world in self._worlds) / len(self._worlds)

    def _clearly_behind(self, index: int, leader: int) -> bool:
        gaps = [world[leader] - world[index] for world in self._worlds]
        mean = sum(gaps) / len(gaps)
        variance = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
        return mean > DROP_AT * math.sqrt(variance / len(gaps))


@dataclass
class _World:
    """One guess at the hidden tiles, and the turn order after the bot's move."""

    racks: list[Counter[Tile]]
    pool: list[Tile]


def _unseen(view: PlayerView) -> list[Tile]:
    """The tiles the bot cannot see: the others' racks and the pool, in some order."""
    assert view.rack is not None
    tile_set = view.rules.tile_set
    unseen = Counter({piece.tile: tile_set.count(piece.tile) for piece in tile_set.pieces()})
    unseen -= Counter(piece.tile for piece in view.rack)
    unseen -= view.table.tiles()
    return list(unseen.elements())


def _guess_world(view: PlayerView, unseen: list[Tile], rng: random.Random) -> _World:
    """The unseen tiles dealt at random: each other player gets as many as they hold, the rest is the pool."""
    assert view.seat is not None and view.rack is not None
    hidden = list(unseen)
    rng.shuffle(hidden)
    racks: list[Counter[Tile]] = []
    for seat, size in enumerate(view.rack_sizes):
        if seat == view.seat:
            racks.append(Counter(piece.tile for piece in view.rack))
        else:
            racks.append(Counter(hidden[:size]))
            hidden = hidden[size:]
    return _World(racks, hidden)


def _play_out(world: _World, view: PlayerView, candidate: Candidate) -> float:
    """The bot's outcome after ``candidate`` and a few greedy turns by everyone:
    the tiles it is ahead of the closest opponent, and a bonus for going out."""
    assert view.seat is not None
    rules = view.rules
    racks = [Counter(rack) for rack in world.racks]
    pool = list(world.pool)
    melded = list(view.melded)
    table = view.table
    seat = view.seat
    players = len(racks)
    if candidate.table is None:
        if pool:
            racks[seat][pool.pop(0)] += 1
    else:
        racks[seat] -= Counter(candidate.placed)
        table = candidate.table
        melded[seat] = True
        if not racks[seat]:
            return WIN_WEIGHT
    turn = (seat + 1) % players
    for _ in range(HORIZON * players - 1):
        found = _greedy(racks[turn], table, rules, melded=melded[turn])
        if found is not None:
            racks[turn] -= Counter(found.placed)
            table = found.table
            melded[turn] = True
            if not racks[turn]:
                return WIN_WEIGHT if turn == seat else -WIN_WEIGHT
        elif pool:
            racks[turn][pool.pop(0)] += 1
        turn = (turn + 1) % players
    mine = sum(racks[seat].values())
    closest = min(sum(rack.values()) for other, rack in enumerate(racks) if other != seat)
    return float(closest - mine)


def _greedy(rack: Counter[Tile], table: Table, rules: Rules, *, melded: bool) -> Solution | None:
    return solve(list(rack.elements()), table, rules=rules, initial_meld_done=melded, fewest_changes=False)
