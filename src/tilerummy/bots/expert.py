"""The strongest level: the network's choice (:mod:`.hard`) through the
middle game, and a search of guessed worlds once the end is near.

Through the middle game the network knows what greedy play-outs of a few
turns cannot see: what holding tiles for one large final play is worth. Once
some rack is small, the bot weighs a few strategically different plays (the
network's choice, the most tiles, the same less tiles kept back, the
solver's next best plays, drawing) by playing each of them out in many
guessed worlds.

The hidden tiles (the others' racks and the pool) are unknown, so the bot
deals them out (:mod:`.worlds`): consistently with the rack sizes it sees,
weighing each deal by what every opponent's last move said about its rack,
and with one queue of future draws per seat, so that every play tried in a
world meets the same draws. It plays the next turns of each world with the
greedy solver for everyone and scores where the play-out stopped with a win
probability fitted on games of greedy players (:mod:`.win_model`); one that
reaches the end of a dry pool is scored as the round is, 1 if the bot then
holds the lowest rack, else 0.

Once its own rack is small (:attr:`Search.exact_rack`), the bot first
counts, exactly, each candidate's chance of going out after its own next
draw (:mod:`.endgame`), and plays the best of them; the worlds decide only
when no candidate has any chance, or when the count would not finish within
the budget.

On its last turn of a dry pool with others' last turns still to come, the
bot lays the points no later seat can go out onto and that win the round
against their replies (:mod:`.last_turn`: heads-up it knows the other's
rack, every tile it cannot see; with more players it guesses the racks).
Against a player that laid nothing since its opening it breaks no stall
before the pool is low: what it laid would be the table the other goes out
onto.

Every candidate is tried in the same worlds, so the comparison is not
drowned in the luck of the deal; a candidate that falls clearly behind the
leader (by more than two standard errors of their paired differences)
stops being tried (the default only after a dozen worlds), so the time goes
to the close calls. The network's choice is made unless another candidate
is ahead of it by a margin the paired results support. A move with one
sensible candidate (nothing to play, or going out) is made at once;
otherwise the bot stops when its time budget is spent, when one candidate
is left, or after a most number of worlds.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..game import Action, PlayerView
from ..melds import Table
from ..rules import PoolExhausted, Rules
from ..solver import Objective, Solution, candidates, solve
from ..tiles import Tile
from ._common import own_rack, play_or_draw
from .endgame import OutOfTime, RackFits, best_ending, threat
from .hard import HardBot
from .holding import holding_back
from .last_turn import applies as last_turn_applies
from .last_turn import goes_out, last_turn_play, lowest_seat, own_sets, turns_left, waits_to_go_out
from .network import DRAW, Candidate, PolicyNetwork
from .partition import QUICK_TILES, could_go_out
from .tempo import final_turn, hoarding, last_word, projected_deficit, racing_play, takes_last_word
from .win_model import win_probability
from .worlds import EVIDENCE_STRENGTH, Draws, World, deal_world, evidence, unseen_tiles

#: Seconds per move unless told otherwise.
DEFAULT_BUDGET = 2.0

#: How many of the solver's best distinct plays are weighed (the best one included).
TOP_PLAYS = 3

#: Worlds every candidate is played in before any is dropped.
MIN_WORLDS = 4

#: A candidate this many standard errors behind the leader is dropped.
DROP_AT = 2.0

#: Worlds played before the default may be dropped: a few worlds' spread is
#: too rough a guess to give up the default on.
MIN_WORLDS_TO_DROP_DEFAULT = 12

#: The plays a stall is broken with, in order: the one that removes the most points, then the most tiles.
STALL_OBJECTIVES: tuple[Objective, ...] = ("value", "tiles")


@dataclass(frozen=True, slots=True)
class Search:
    """How the expert searches.

    ``horizon``: turns of each player a guessed world is played for.
    ``worlds``: the most worlds a move is played out in (None: as many as the budget allows).
    ``overrule_at``: another play replaces the default (the network's) only when ahead of it by this
    many standard errors of their paired differences, and by at least ``overrule_margin``
    (a chance of winning).
    ``evidence``: how much less likely a deal is per tile an opponent could have placed
    but did not (0: deals ignore what the opponents did).
    ``endgame_rack``, ``endgame_horizon``: once some rack holds this many tiles or fewer,
    worlds are played for this many turns of each player (or until someone goes out),
    since the game is close to its end and the win model's guess is least needed.
    ``contest_rack``: the bot searches only once some rack holds this many tiles or
    fewer (None: at every move); before that it makes the network's choice at once,
    since greedy play-outs of a few turns cannot see what holding tiles for a
    large final play is worth, while the network learned it.
    ``exact_rack``: once the bot's own rack holds this many tiles or fewer, its
    chance of going out after its next draw is counted exactly for every
    candidate (:mod:`.endgame`), and the best of them is played; the worlds are
    searched only when no candidate has any chance or the count would not
    finish in time (None: never count).
    ``threat_worlds``: the guessed worlds in which the count looks for an
    opponent about to go out.
    ``stall_rack``, ``stall_patience``: a stall is every opponent holding this
    many tiles or more and drawing on each of its last turns, this many of
    them (None: the bot never breaks one); with ``shed_pool`` tiles or fewer
    left in the pool, every game is taken to head for a dry pool. The bot
    breaks a stall when a dry pool would go to someone else (its rack is
    likely worth more than the lowest other, or another seat would have the
    round's last turn): instead of drawing it lays the play that removes
    the most points (or else the one that lays the most tiles) if, in every one
    of ``stall_worlds`` guessed worlds, it leaves no opponent a table it could
    go out onto, with its rack now or after its next draw. With ``doomed_pool``
    draws or fewer left to each seat, it lays the most points even where no
    play is safe (0: never), unless an opponent laid nothing since its
    opening (:func:`waits_to_go_out`); and until the pool holds ``shed_pool``
    tiles or fewer it breaks no stall against such an opponent at all (unless
    ``feed_waiting``): what it laid would be the table that one goes out onto later.
    ``take_last_word``: heads-up, with ``shed_pool`` tiles or fewer left and no play of
    those safe, where laying tiles instead of drawing would give it the round's
    last turn (:func:`.tempo.takes_last_word`), it lays one set of its own rack
    beside the table, the most points first, that no opponent in any of the
    worlds could go out onto with its rack as it is (found by the solver,
    however big the rack).
    ``last_turn``: on its last turn of a dry pool with others' still to come,
    it lays what no later seat can go out onto and what wins the round
    against their replies, if anything (:mod:`.last_turn`; heads-up the
    other's rack is known, with more players it is guessed in a few worlds).
    """

    horizon: int = 3
    endgame_rack: int = 5
    endgame_horizon: int = 8
    worlds: int | None = None
    overrule_at: float = 1.5
    overrule_margin: float = 0.01
    evidence: float = EVIDENCE_STRENGTH
    contest_rack: int | None = 6
    exact_rack: int | None = 4
    threat_worlds: int = 8
    stall_rack: int | None = 24
    stall_patience: int = 3
    stall_worlds: int = 8
    shed_pool: int = 20
    doomed_pool: int = 2
    last_turn: bool = True
    take_last_word: bool = True
    feed_waiting: bool = False


class ExpertBot:
    """Plays the network's choice, or near the end another play that guessed worlds show clearly better.

    ``budget`` is the seconds it may think per move. With ``search.worlds``
    set and a budget too generous to run out, the same seed gives the same moves.
    """

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float = DEFAULT_BUDGET,
        search: Search | None = None,
        clock: Callable[[], float] = time.perf_counter,
        network: PolicyNetwork | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        # The end-game count deals its own worlds, so that counting leaves the
        # search's worlds as they would be without it.
        self._threat_rng = random.Random(f"{seed} threat")
        # And breaking a stall its own, for the same reason.
        self._stall_rng = random.Random(f"{seed} stall")
        # And the last turn's worlds theirs.
        self._last_rng = random.Random(f"{seed} last turn")
        self.budget = budget
        self.search = search or Search()
        # The time the budget is counted on (tests give one they move themselves).
        self._clock = clock
        # The network's choice as it learned it, racing nobody: against a
        # player who races (hard, network) it holds and lays its rack onto the
        # table the racer builds; against one who holds its tiles, every lay
        # down was measured to be the table the other goes out onto.
        self._default = HardBot(network=network)
        #: How many worlds each contested move was played out in (for benchmarks).
        self.worlds_played: list[int] = []
        #: How many moves the exact end-game count decided (for benchmarks).
        self.exact_moves = 0
        #: How many stalls it broke (for benchmarks).
        self.stall_moves = 0

    def choose(self, view: PlayerView) -> Action:
        started = self._clock()
        assert view.seat is not None
        search = self.search
        if final_turn(view):
            # Nobody can use what is laid now, and a dry pool goes to the lowest rack.
            shed = racing_play(view)
            if shed is not None:
                return play_or_draw(view, shed.table)
        if search.last_turn and last_turn_applies(view):
            # On a dry pool, lay what no later seat can go out onto and what wins the round.
            return play_or_draw(view, last_turn_play(view, self._clock, started + self.budget, self._last_rng).table)
        if search.contest_rack is not None and min(view.rack_sizes) > search.contest_rack:
            chosen = self._default.plan(view)
            if chosen.table is None:
                shed = self.break_stall(view)
                if shed is not None:
                    self.stall_moves += 1
                    chosen = shed
            return play_or_draw(view, chosen.table)
        options = self.candidates(view)
        if len(options) == 1:
            return play_or_draw(view, options[0].table)
        unseen = unseen_tiles(view)
        deadline = started + self.budget
        if search.exact_rack is not None and len(own_rack(view)) <= search.exact_rack:
            counted = self._count_endings(view, options, unseen, deadline)
            if counted is not None:
                self.exact_moves += 1
                return play_or_draw(view, options[counted].table)
        race = _Race(len(options), search)
        clues = evidence(view)
        horizon = search.endgame_horizon if min(view.rack_sizes) <= search.endgame_rack else search.horizon
        # A world counts only once every candidate still racing was played out
        # in it, so that all are compared on the same worlds; with none (no
        # time), the default. A world starts only if one as long as the last
        # would still end within the budget.
        last = 0.0
        while len(race.alive) > 1:
            begun = self._clock()
            if begun + last >= deadline:
                break
            if search.worlds is not None and race.worlds >= search.worlds:
                break
            world = deal_world(view, unseen, clues, self._rng, strength=search.evidence)
            outcomes: dict[int, float] = {}
            for index in race.alive:
                outcomes[index] = play_out(world, view, options[index].table, options[index].placed, horizon)
                if self._clock() >= deadline:
                    break
            if len(outcomes) < len(race.alive):
                break
            race.record(outcomes)
            last = self._clock() - begun
        self.worlds_played.append(race.worlds)
        return play_or_draw(view, options[race.choice()].table)

    def _count_endings(
        self, view: PlayerView, options: list[Candidate], unseen: list[Tile], deadline: float
    ) -> int | None:
        """The candidate the exact count of the next draws prefers; None when it has nothing to say in time."""
        fits = RackFits(view.rules, self._clock, deadline)
        try:
            danger = threat(view, unseen, self._threat_rng, fits, self.search.threat_worlds, self.search.evidence)
            found = best_ending(view, options, unseen, fits, danger)
        except OutOfTime:
            return None
        return None if found is None else found[0]

    def break_stall(self, view: PlayerView) -> Candidate | None:
        """In a stall that a dry pool would lose (see :class:`Search`), the safe play
        that removes the most points; None otherwise, or when no play is safe."""
        assert view.seat is not None
        search = self.search
        if search.stall_rack is None or not view.melded[view.seat] or not view.pool_size:
            return None
        late = view.pool_size <= search.shed_pool
        if not late and not hoarding(view, search.stall_rack, search.stall_patience):
            return None
        if (
            not late
            and not search.feed_waiting
            and any(waits_to_go_out(view, seat) for seat in range(len(view.rack_sizes)) if seat != view.seat)
        ):
            # Against a player that laid nothing since its opening, what is laid
            # now is the table it goes out onto turns later; the dry pool is won
            # by holding, and by the last turn (:mod:`.last_turn`).
            return None
        if projected_deficit(view) <= 0 and last_word(view):
            return None
        rack = own_rack(view)
        plays = [
            found
            for objective in STALL_OBJECTIVES
            if (found := solve(rack, view.table, rules=view.rules, objective=objective, fewest_changes=False))
            is not None
        ]
        if not plays:
            return None
        unseen = unseen_tiles(view)
        worlds = [deal_world(view, unseen, [], self._stall_rng, strength=0) for _ in range(search.stall_worlds)]
        for play in plays:
            if all(_safe(world, view, play.table) for world in worlds):
                return Candidate(play.table, play.placed)
        if late and search.take_last_word and len(view.rack_sizes) == 2 and takes_last_word(view):
            # Laying tiles instead of drawing gives it the round's last turn,
            # which a dry pool between two holders is won by. It lays as little
            # as does that: one set of its own rack beside the table, of the
            # most points among those no world lets the other go out onto. With
            # more players the others' plays move that turn again, and the set
            # is a table for each of them: measured, it lost games there.
            for meld in own_sets(view, rack):
                table = Table((*view.table.melds, meld))
                if all(_nobody_goes_out(world, view, table) for world in worlds):
                    return Candidate(table, meld.tiles)
        if view.pool_size <= search.doomed_pool * len(view.rack_sizes) and not any(
            waits_to_go_out(view, seat) for seat in range(len(view.rack_sizes)) if seat != view.seat
        ):
            # A dry pool is about to be lost: laying the points, even where an
            # opponent may go out onto them, costs less and may still win. Not
            # against one that laid nothing since its opening: it waits to go
            # out, and the points laid would be what it goes out onto.
            return Candidate(plays[0].table, plays[0].placed)
        return None

    def candidates(self, view: PlayerView) -> list[Candidate]:
        """The plays worth weighing: the network's choice (the default) first;
        then the most tiles; the same less one, two or three tiles kept back;
        the solver's next best plays on other tiles; and drawing. A move with
        nothing to weigh has one candidate."""
        assert view.seat is not None
        rack = own_rack(view)
        melded = view.melded[view.seat]
        best = solve(rack, view.table, rules=view.rules, initial_meld_done=melded, fewest_changes=False)
        if best is None:
            return [DRAW]
        if len(best.placed) == len(rack):
            return [Candidate(best.table, best.placed)]  # going out: nothing is better
        # One walk gives the plays less one, two and three tiles (keeping all would be drawing).
        most = min(3, len(best.placed) - 1)
        plays = [best, *holding_back(rack, view.table, best, view.rules, melded=melded, most=most)]
        plays += candidates(
            rack, view.table, rules=view.rules, initial_meld_done=melded, k=TOP_PLAYS, fewest_changes=False
        )[1:]
        options = [self._default.plan(view), *(Candidate(play.table, play.placed) for play in plays)]
        if view.pool_size > 0:
            options.append(DRAW)
        unique: dict[tuple[Tile, ...], Candidate] = {}
        for option in options:
            unique.setdefault(tuple(sorted(option.placed)), option)
        return list(unique.values())


class _Race:
    """The candidates' outcomes world by world, and which of them are still in the running.

    Candidate 0 is the default (the network's choice).
    """

    def __init__(self, count: int, search: Search | None = None) -> None:
        self.search = search or Search()
        self.alive = list(range(count))
        self._worlds: list[dict[int, float]] = []

    @property
    def worlds(self) -> int:
        return len(self._worlds)

    def record(self, outcomes: dict[int, float]) -> None:
        self._worlds.append(outcomes)
        if len(self._worlds) < MIN_WORLDS:
            return
        leader = self.leader()
        self.alive = [
            index
            for index in self.alive
            if index == leader
            or (index == 0 and len(self._worlds) < MIN_WORLDS_TO_DROP_DEFAULT)
            or not self._ahead(leader, index, DROP_AT)
        ]

    def leader(self) -> int:
        """The best average among those still running (the first, the default, with no world yet)."""
        if not self._worlds:
            return self.alive[0]
        return max(self.alive, key=lambda index: (self._mean(index), -index))

    def choice(self) -> int:
        """The leader if the default was dropped or the leader is clearly ahead of it; else the default."""
        leader = self.leader()
        if leader == 0 or 0 not in self.alive:
            return leader
        if len(self._worlds) < MIN_WORLDS or self._mean(leader) - self._mean(0) < self.search.overrule_margin:
            return 0
        return leader if self._ahead(leader, 0, self.search.overrule_at) else 0

    def _mean(self, index: int) -> float:
        # Every candidate alive now was played in every world so far.
        return sum(world[index] for world in self._worlds) / len(self._worlds)

    def _ahead(self, first: int, second: int, errors: float) -> bool:
        """Whether ``first`` leads ``second`` by more than ``errors`` standard errors of their paired gaps."""
        gaps = [world[first] - world[second] for world in self._worlds]
        mean = sum(gaps) / len(gaps)
        variance = sum((gap - mean) ** 2 for gap in gaps) / (len(gaps) - 1)
        return mean > errors * math.sqrt(variance / len(gaps))


def _nobody_goes_out(world: World, view: PlayerView, table: Table) -> bool:
    """Whether no opponent in ``world`` could lay its whole rack on ``table`` now (exact, however big its rack)."""
    return not any(goes_out(view, seat, rack, table) for seat, rack in enumerate(world.racks) if seat != view.seat)


def _safe(world: World, view: PlayerView, table: Table) -> bool:
    """Whether no opponent in ``world`` could lay its whole rack on ``table``,
    now or after its next draw (by the quick test, which never says no wrongly);
    an opponent whose rack and table hold :data:`.partition.QUICK_TILES` tiles or more is
    taken to be able to."""
    assert view.seat is not None
    for seat, rack in enumerate(world.racks):
        if seat == view.seat:
            continue
        tiles = list(rack.elements())
        melded = view.melded[seat]
        if len(tiles) + 1 + (sum(table.tiles().values()) if melded else 0) >= QUICK_TILES:
            return False  # too many tiles to test quickly, and likely to make sets
        if could_go_out(tiles, table, view.rules, melded=melded):
            return False
        queue = world.queues[seat]
        if queue and could_go_out([*tiles, queue[0]], table, view.rules, melded=melded):
            return False
    return True


def play_out(world: World, view: PlayerView, table: Table | None, placed: tuple[Tile, ...], horizon: int) -> float:
    """The bot's chance of winning after its move (``table``, or a draw when None)
    and ``horizon`` greedy turns by everyone in ``world``. A play-out that
    reaches the round's end on a dry pool is scored as the round is: 1 when
    the bot's rack is the lowest then, else 0."""
    assert view.seat is not None
    rules = view.rules
    racks = [Counter(rack) for rack in world.racks]
    draws = Draws(world)
    melded = list(view.melded)
    seat = view.seat
    players = len(racks)
    # Turns still to play once the pool is dry (None: it is not).
    left = turns_left(view)
    ends = rules.pool_exhausted is PoolExhausted.ONE_MORE_ROUND
    if table is None:
        tile = draws.draw(seat)
        if tile is not None:
            racks[seat][tile] += 1
            if ends and not draws.pool_size:
                left = players
    else:
        racks[seat] -= Counter(placed)
        melded[seat] = True
        if not racks[seat]:
            return 1.0
    current = view.table if table is None else table
    turn = (seat + 1) % players
    for _ in range(horizon * players - 1):
        if left is not None:
            if left <= 0:
                return 1.0 if lowest_seat(racks, melded, view) == seat else 0.0
            left -= 1
        found = _greedy(racks[turn], current, rules, melded=melded[turn])
        if found is not None:
            racks[turn] -= Counter(found.placed)
            current = found.table
            melded[turn] = True
            if not racks[turn]:
                return 1.0 if turn == seat else 0.0
        else:
            tile = draws.draw(turn)
            if tile is not None:
                racks[turn][tile] += 1
                if ends and not draws.pool_size:
                    left = players
        turn = (turn + 1) % players
    if left is not None and left <= 0:
        return 1.0 if lowest_seat(racks, melded, view) == seat else 0.0
    sizes = [sum(rack.values()) for rack in racks]
    return win_probability(seat, sizes, draws.pool_size, turn, melded)


def _greedy(rack: Counter[Tile], table: Table, rules: Rules, *, melded: bool) -> Solution | None:
    return solve(list(rack.elements()), table, rules=rules, initial_meld_done=melded, fewest_changes=False)
