"""The fewest changes to the table among the best plays."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..melds import Table
from ..rules import JokerReplacement, Rules
from ..tiles import MAX_NUMBER
from ._describe import changed_sets
from ._jokers import JokerPlan, JokersAlone, show_kept_jokers
from ._keep import Kept, mirrored_counts, mirrored_face, mirrored_kept, mirrored_way, ways_to_keep
from ._layers import LayerSearch, Problem, run_out
from ._search import FACE_COUNT
from ._tables import SolverTables, tables_for


@dataclass(frozen=True, slots=True)
class Setup:
    """A joker plan as the searches take it: the rack copies it plays for
    sure (scored apart) and what is left to lay out."""

    plan: JokerPlan
    from_rack: list[int]
    problem: Problem
    #: Once the search for the best score has gone through this plan, counting
    #: the numbers up, for plays scoring at least ``peaks[0]``: per number
    #: (1 up), the most any of them can score up to it (empty: not known).
    peaks: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Found:
    """A best play: its score, the table after it (keeping the old sets it
    made again), and the setups that may score as much (those the searches
    did not rule out), to look for fewer changes."""

    score: int
    table: Table
    setups: tuple[Setup, ...] = ()
    high: tuple[int, ...] = ()
    whole: Setup | None = None  # the setup of the play, when it places the whole rack
    proven: bool = True  # False when a search stopped at its budget: maybe not the best


#: How many states the depth-first search for fewer changes may visit, per
#: order of the numbers, on the likeliest joker plan and on each other one;
#: and how many the full search counting up may meet alone before counting
#: down is tried against it.
KEEP_BUDGET = 1500
OTHER_PLANS_BUDGET = 300
KEEP_STATES = 1000
#: How many states the searches for a play placing the whole rack may visit;
#: for the parts candidates() splits off, whose whole is less often playable.
WHOLE_RACK_BUDGET = 3000
PART_BUDGET = 300
#: How many states a step of a full search may keep on average (a step up
#: to four times as many while the steps before left room): past it (on big
#: racks and tables, mostly with the six-player set's three copies of each
#: tile, and for the tie-break), the best scoring so far go on, and the play
#: found is not proven best.
STEP_WIDTH = 3000


def least_changed(before: Table, found: Found, weights: Sequence[int], rules: Rules) -> tuple[Table, bool]:
    """The table after a play that scores as ``found`` does and changes the
    fewest old sets, and whether that is proven (False when a full search
    kept only some of its states, see :data:`STEP_WIDTH`): short depth-first
    searches find a play to beat, then each joker plan that may score as
    much is searched in full for a better one, which mostly proves there is
    none (docs/solver.md tells how)."""
    broken = len(changed_sets(before, found.table))
    if not broken or not found.setups:
        return found.table, True
    free = rules.joker_replacement is JokerReplacement.FREE
    count = len(before.melds)
    tables = tables_for(rules)
    setups = found.setups
    if found.score == sum(weight * copies for weight, copies in zip(weights, found.high, strict=True)):
        # The whole rack is placed: a plan that cannot place it all, as a
        # quick search shows for most, has no play to offer.
        setups = tuple(setup for setup in setups if setup is found.whole or not cannot_place_all(setup, tables))
    plans = []
    for setup, broken_anyway in zip(setups, kept_by_an_earlier_plan(setups), strict=True):
        score = found.score - sum(weights[face] * copies for face, copies in enumerate(setup.from_rack))
        # What the search for the best score met bounds what the rack tiles
        # below each number can score, in a play scoring as much.
        below = setup.peaks[1:] if setup.peaks and setup.peaks[0] <= score else None
        plans.append(Orders(before, setup, tables, score, free=free, broken=broken_anyway, below=below))
    plans.sort(key=lambda plan: plan.fewest_broken)
    best = found.table

    def take(kept: Kept, mirrored: bool, plan: Orders) -> None:
        nonlocal best, broken
        try:
            best = kept_table(before, mirrored_kept(kept) if mirrored else kept, plan.kept_jokers)
        except JokersAlone:
            return
        broken = count - len(kept.kept)

    # A play to beat first, from a short search of each plan (longer for the likeliest).
    proven: set[int] = set()  # the plans whose short search went through
    for rank, plan in enumerate(plans):
        for keep_search, mirrored in plan.searches():
            if keep_search.fewest_broken >= broken:
                break
            budget = [KEEP_BUDGET if rank == 0 else OTHER_PLANS_BUDGET]
            kept, finished = keep_search.depth_first(count - broken + 1, budget)
            if kept is not None:
                take(kept, mirrored, plan)
            if finished:
                proven.add(rank)
                break
    for rank, plan in enumerate(plans):
        if rank in proven or plan.fewest_broken >= broken:
            continue
        kept, mirrored = race(plan, count - broken + 1)
        if kept is not None:
            take(kept, mirrored, plan)
    # A cut search leaves its plan unproven unless no play of it could change fewer sets.
    return best, not any(plan.cut and plan.fewest_broken < broken for plan in plans)


def kept_by_an_earlier_plan(setups: Sequence[Setup]) -> list[frozenset[int]]:
    """For each plan, the old sets whose plays keeping them an earlier plan
    has too, so that its own search may take them as broken up: two plans
    that differ only in what one group's jokers stand for make the same
    plays among those keeping the group, unless another kept joker stands
    for a tile of the group's number (which could fill the group instead)."""
    found: list[frozenset[int]] = []
    for index, setup in enumerate(setups):
        plan = setup.plan
        sets: set[int] = set()
        for earlier in setups[:index]:
            other = earlier.plan
            if other.freed != plan.freed or other.forced != plan.forced:
                continue
            differing = [
                place
                for place, (mine, theirs) in enumerate(zip(plan.kept_by_set, other.kept_by_set, strict=True))
                if mine != theirs
            ]
            if len(differing) != 1:
                continue
            place = differing[0]
            mine, theirs = plan.kept_by_set[place], other.kept_by_set[place]
            if mine is None or theirs is None:
                continue
            numbers = {face % MAX_NUMBER for face in (*mine, *theirs)}
            if len(numbers) != 1:
                continue
            if any(face % MAX_NUMBER in numbers for face in plan.kept - mine):
                continue
            sets.add(place)
        found.append(frozenset(sets))
    return found


def placing_all(setup: Setup, tables: SolverTables) -> LayerSearch:
    """The search for a layout of every tile of this plan and of the rack
    (depth first, it stops at the first one)."""
    problem = setup.problem
    whole = [must + optional for must, optional in zip(problem.must, problem.optional, strict=True)]
    zeros = [0] * FACE_COUNT
    return LayerSearch(Problem(whole, zeros, zeros, problem.total_jokers, 0, problem.wrap), tables)


def cannot_place_all(setup: Setup, tables: SolverTables) -> bool:
    """Whether a quick search shows this plan cannot place all its tiles
    (False when it finds a way, or gives up)."""
    budget = [WHOLE_RACK_BUDGET]
    layout, _ = placing_all(setup, tables).depth_first(0, budget)
    return layout is None and budget[0] > 0


class Orders:
    """One joker plan's searches for fewer changes, with the numbers counted
    up and (unless ``wrap``) down, each set up when first wanted."""

    def __init__(
        self,
        before: Table,
        setup: Setup,
        tables: SolverTables,
        score: int,
        *,
        free: bool,
        broken: frozenset[int] = frozenset(),
        below: Sequence[int] | None = None,
    ) -> None:
        self.problem = setup.problem
        self.below = below
        self.tables = tables
        self.wrap = self.problem.wrap
        # Under ``free`` a kept set's jokers are jokers like any other.
        self.kept_jokers = kept_jokers = Counter() if free else setup.plan.kept
        self.score = score
        self.ways = ways_to_keep(before.melds, free=free, kept_jokers=kept_jokers)
        for place in broken:
            self.ways[place] = []
        self._up: LayerSearch | None = None
        self._down: LayerSearch | None = None
        # The order searched first: counting down when the search for the
        # best score bounds what the rack tiles below each number can score.
        self.downward_first = below is not None and not self.wrap
        #: At least this many old sets are changed by any play of this plan.
        self.fewest_broken = (self.down() if self.downward_first else self.up()).fewest_broken

    @property
    def cut(self) -> bool:
        """Whether a full search kept only some of its states."""
        return any(search is not None and search.cut for search in (self._up, self._down))

    def searches(self) -> Iterator[tuple[LayerSearch, bool]]:
        """The searches, each with whether its numbers count down, the first
        as :attr:`downward_first` says."""
        if self.wrap:
            yield self.up(), False
        elif self.downward_first:
            yield self.down(), True
            yield self.up(), False
        else:
            yield self.up(), False
            yield self.down(), True

    def up(self) -> LayerSearch:
        """The search with the numbers counted up."""
        if self._up is None:
            self._up = LayerSearch(self.problem, self.tables, self.ways, self.kept_jokers, self.score, STEP_WIDTH)
        return self._up

    def down(self) -> LayerSearch:
        """The search with the numbers counted down (without ``wrap``)."""
        if self._down is None:
            problem = self.problem
            must, optional, weights = (mirrored_counts(c) for c in (problem.must, problem.optional, problem.weights))
            counted_down = Problem(must, optional, weights, problem.must_jokers, problem.optional_jokers, wrap=False)
            kept_down = Counter({mirrored_face(face): copies for face, copies in self.kept_jokers.items()})
            ways = [[mirrored_way(way) for way in options] for options in self.ways]
            # Counting down, the numbers past a number are those below it.
            below = self.below
            ahead = (
                None
                if below is None
                else [below[MAX_NUMBER - 1 - number] if number < MAX_NUMBER else 0 for number in range(MAX_NUMBER + 1)]
            )
            self._down = LayerSearch(counted_down, self.tables, ways, kept_down, self.score, STEP_WIDTH, ahead)
        return self._down


def race(plan: Orders, keep: int) -> tuple[Kept | None, bool]:
    """The play of this plan keeping the most sets, at least ``keep`` (None
    if there is none), and whether the numbers counted down to find it.
    Which order is quicker shows early: the first of :meth:`Orders.searches`
    goes alone while it is small; past that, the other goes as many steps
    (or until it has met as many states), and the order that met fewer goes
    on alone."""
    orders = list(plan.searches())
    (leader, led_down), rival = orders[0], orders[1:]
    leading = leader.stepwise(keep)
    met = steps = 0
    try:
        while met < KEEP_STATES or not rival:
            met += next(leading)
            steps += 1
    except StopIteration as finished:
        return finished.value, led_down
    other, other_down = rival[0]
    following = other.stepwise(keep)
    met_other = 0
    try:
        for _ in range(steps):
            met_other += next(following)
            if met_other > met:
                break
        else:
            return run_out(following), other_down
    except StopIteration as finished:
        return finished.value, other_down
    return run_out(leading), led_down


def kept_table(before: Table, found: Kept, kept_jokers: Counter[int]) -> Table:
    """The old sets kept, then the new sets with each joker that keeps its
    meaning (and is in no kept set) shown as a joker again."""
    left = Counter(kept_jokers)
    for way in found.kept:
        left -= Counter(way.joker_faces)
    shown = show_kept_jokers(list(found.melds), left)
    return Table(tuple(before.melds[way.index] for way in found.kept) + tuple(shown))
