"""``solve`` and ``candidates``: the best plays for a rack and a table.

Each way to treat the table's jokers is searched (see :mod:`._jokers`), and
every answer is checked with the engine's own rules before it is returned.
"""

from __future__ import annotations

import functools
import gc
import heapq
import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, ParamSpec, TypeVar

from ..errors import TilerummyError
from ..legality import judge_play
from ..melds import Table
from ..rules import Rules
from ..tiles import MAX_NUMBER, Piece, Tile, parse_tiles
from ._describe import changed_sets, describe
from ._fewest import PART_BUDGET, STEP_WIDTH, WHOLE_RACK_BUDGET, Found, Setup, least_changed, placing_all
from ._jokers import JokersAlone, arrange, joker_plans
from ._layers import LayerSearch, Problem, placeable
from ._opening import initial_meld
from ._search import FACE_COUNT, FACES, JOKER_INDEX, counts_of, search
from ._tables import tables_for

#: How many states the search for an initial meld worth the threshold may
#: explore, when the best play of new sets is not worth it: past that, its
#: best play so far comes back, marked as not proven best.
MELD_BUDGET = 200_000
#: How many states the depth-first search for a better play may visit, after
#: a full search kept only some of its states.
LEAD_BUDGET = 2000

Objective = Literal["tiles", "value"]

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def _without_cycle_collector(function: Callable[_Params, _Result]) -> Callable[_Params, _Result]:
    """Run the function with Python's cycle collector paused: the searches
    make many small objects, none in a cycle, which it would keep going over
    (with everything else the program holds) for nothing."""

    @functools.wraps(function)
    def paused(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused


#: Scores pack the objective and its tie-break into one number.
_MAJOR = 1024


class SolverError(TilerummyError):
    """The solver produced a play the rules refuse: a bug, never bad input."""


@dataclass(frozen=True, slots=True)
class Solution:
    """A play: the rack tiles placed, the table after it, the rack value removed
    (a joker counting the rules' joker penalty), the move in short steps, and
    how many sets on the table it changes."""

    placed: tuple[Tile, ...]
    table: Table
    value: int
    steps: tuple[str, ...]
    meld_value: int | None = None  # an initial meld's worth, jokers as the tiles they stand for
    changed: int = 0  # how many sets on the table the play changes (see changed_sets)
    proven: bool = True  # False: a search stopped at its budget, and a better play may exist

    @property
    def tiles_placed(self) -> int:
        return len(self.placed)

    def to_dict(self) -> dict[str, object]:
        return {
            "placed": [str(tile) for tile in self.placed],
            "table": [str(meld).split() for meld in self.table],
            "value": self.value,
            "steps": list(self.steps),
            "meld_value": self.meld_value,
            "changed": self.changed,
            "proven": self.proven,
        }


@_without_cycle_collector
def solve(
    rack: str | Iterable[Tile | Piece],
    table: str | Table = "",
    *,
    rules: str | Rules = "standard",
    initial_meld_done: bool = True,
    objective: Objective = "tiles",
    fewest_changes: bool = True,
) -> Solution | None:
    """The best play, or None when no rack tile can be placed.

    ``objective``: ``"tiles"`` places the most rack tiles (ties: more rack
    value removed); ``"value"`` removes the most rack value (ties: more
    tiles). Among the plays that tie on both, the one that changes the
    fewest sets on the table. With ``initial_meld_done=False`` the play is
    an initial meld: new sets from the rack worth the threshold, the table
    left as it is.

    ``fewest_changes=False`` skips that last tie-break (any best play may
    come back, often one that moves more of the table): faster, for callers
    that never show the move to a person.

    :raises TilerummyError: for bad notation, unknown rules or objective.
    """
    rules, rack_tiles, before = _read_position(rack, table, rules, objective)
    weights = _weights(rules, objective)
    rack_counts = counts_of(Counter(rack_tiles))
    found = best_in_box(
        before, [0] * FACE_COUNT, rack_counts, weights, rules, melded=initial_meld_done, keep_peaks=fewest_changes
    )
    if found is None:
        return None
    after, proven = least_changed(before, found, weights, rules) if fewest_changes else (found.table, True)
    return _finish(before, after, rack_tiles, rules, melded=initial_meld_done, proven=found.proven and proven)


@_without_cycle_collector
def candidates(
    rack: str | Iterable[Tile | Piece],
    table: str | Table = "",
    *,
    rules: str | Rules = "standard",
    initial_meld_done: bool = True,
    objective: Objective = "tiles",
    k: int = 5,
    fewest_changes: bool = True,
) -> list[Solution]:
    """The ``k`` best plays that place different rack tiles, best first.

    Exact: the plays are split by how many copies of each rack tile they use
    (a best play is found in each part, and the part of the one taken is split
    again), so no play is missed and none comes twice, and memory stays
    bounded by ``k`` times the rack's distinct tiles. Each play changes as
    few sets on the table as any play placing the same rack tiles;
    ``fewest_changes`` as for :func:`solve`.

    :raises TilerummyError: as :func:`solve`, or for ``k`` below 1.
    """
    if k < 1:
        raise TilerummyError(f"k={k}: ask for at least one play")
    rules, rack_tiles, before = _read_position(rack, table, rules, objective)
    if not initial_meld_done and rules.initial_meld_lay_off and before.melds:
        best = solve(rack_tiles, before, rules=rules, initial_meld_done=False, objective=objective)
        return [] if best is None else [best]
    weights = _weights(rules, objective)
    rack_counts = counts_of(Counter(rack_tiles))
    queue: list[_Box] = []
    order = itertools.count()
    _push_box(queue, order, [0] * FACE_COUNT, list(rack_counts), weights, floor=-1)
    plays: list[Solution] = []
    while queue and len(plays) < k:
        bound, _, low, high, after = heapq.heappop(queue)
        if after is None:
            # Worth searching only for a play better than the plays already
            # found in other boxes that are enough to fill the list.
            floor = _enough(queue, k - len(plays))
            budget = PART_BUDGET if plays else None
            found = best_in_box(before, low, high, weights, rules, melded=initial_meld_done, floor=floor, budget=budget)
            if found is not None:
                heapq.heappush(queue, (-found.score, next(order), low, high, found))
            continue
        chosen, proven = after.table, after.proven
        if fewest_changes and after.setups:
            # The fewest changes for exactly these rack tiles: with nothing
            # left optional the searches are quick.
            placed = counts_of(after.table.tiles() - before.tiles())
            exactly = best_in_box(
                before, placed, placed, weights, rules, melded=initial_meld_done, floor=after.score - 1, keep_peaks=True
            )
            if exactly is not None:
                chosen, fewest = least_changed(before, exactly, weights, rules)
                proven = proven and exactly.proven and fewest
        play = _finish(before, chosen, rack_tiles, rules, melded=initial_meld_done, proven=proven)
        plays.append(play)
        used = counts_of(Counter(play.placed))
        low, high = list(low), list(high)
        floor = _enough(queue, k - len(plays))
        for face in range(FACE_COUNT):
            if low[face] == high[face]:
                continue
            # The parts without this play, each searched when it comes first.
            if used[face] > low[face]:
                fewer = [*high[:face], used[face] - 1, *high[face + 1 :]]
                _push_box(queue, order, low.copy(), fewer, weights, floor, bound)
            if used[face] < high[face]:
                more = [*low[:face], used[face] + 1, *low[face + 1 :]]
                _push_box(queue, order, more, high.copy(), weights, floor, bound)
            low[face] = high[face] = used[face]
    return plays


#: A part of the plays to search: minus its bound (its best score once
#: found, else at most its parent's), the order it was queued in, the copies
#: of each rack face its plays use at least and at most, its best play once found.
_Box = tuple[int, int, list[int], list[int], Found | None]


def _enough(queue: list[_Box], wanted: int) -> int:
    """The score the ``wanted``-th best play found in the queue's boxes
    reaches (0 if fewer are found): a box needs a better play to matter."""
    if wanted <= 0:
        return 0
    found = sorted((-entry[0] for entry in queue if entry[4] is not None), reverse=True)
    return found[wanted - 1] if len(found) >= wanted else 0


def _push_box(
    queue: list[_Box],
    order: Iterator[int],
    low: list[int],
    high: list[int],
    weights: Sequence[int],
    floor: int,
    bound: int | None = None,
) -> None:
    """Queue a box to search, bounded by its parent's best (``bound``) and by
    placing every tile it allows; dropped if that cannot beat ``floor``."""
    everything = sum(w * c for w, c in zip(weights, high, strict=True))
    bound = -everything if bound is None else max(bound, -everything)
    if -bound > floor:
        heapq.heappush(queue, (bound, next(order), low, high, None))


def best_in_box(
    before: Table,
    low: Sequence[int],
    high: Sequence[int],
    weights: Sequence[int],
    rules: Rules,
    *,
    melded: bool,
    floor: int = 0,
    budget: int | None = None,
    keep_peaks: bool = False,
) -> Found | None:
    """The best play using between ``low`` and ``high`` copies of each rack
    face (jokers included), with its score; None if no such play places a
    tile or scores more than ``floor``. ``budget``: how many states a quick
    search for a play using ``high`` in full may visit before the full
    search (the module's budget by default). The play keeps the old sets it makes again;
    :func:`._fewest.least_changed` then finds the fewest changes, which
    ``keep_peaks`` helps (each plan searched in full keeps what its states
    scored number by number: see :class:`._fewest.Setup`)."""
    constant = sum(weights[face] * low[face] for face in range(FACE_COUNT))
    if not melded:
        if rules.initial_meld_lay_off and before.melds:
            if any(low):
                raise TilerummyError("bounded initial melds with lay-off are not supported")
            opening = initial_meld(before, list(high), list(weights), rules)
            return None if opening is None or opening[0] <= floor else Found(*opening)
        # The best play of new sets with no threshold bounds the best initial
        # meld, and on big racks it is nearly always worth the threshold: then
        # it is the answer, and the search for sets worth the threshold is
        # needed only when it is not.
        free = best_in_box(Table(()), low, high, weights, rules, melded=True, floor=floor, budget=budget)
        if free is None:
            return None
        threshold = max(rules.meld_threshold, 1)
        if free.table.value >= threshold:
            return Found(free.score, Table(before.melds + free.table.melds), proven=free.proven)
        optional = [high[face] - low[face] for face in range(FACE_COUNT)]
        found = search(
            list(low),
            optional,
            weights,
            wrap=rules.wrap,
            min_meld_value=threshold,
            floor=max(-1, floor - constant),
            good_enough=free.score - constant,
            budget=MELD_BUDGET,
        )
        if found is None or not found.melds or found.score + constant <= floor:
            return None
        return Found(found.score + constant, Table(before.melds + found.melds), proven=found.complete)
    best_score = floor
    best: Table | None = None
    everything = sum(weights[face] * count for face, count in enumerate(high))
    if everything <= floor:
        return None
    tables = tables_for(rules)
    setups = []
    reachable = []  # per setup, the rack tiles it may place at most: those that fit in some set
    alone: set[int | None] = set()  # the faces of kept jokers a layout left in a set of their own
    lost = floor  # the best score of such a layout
    for plan in joker_plans(before, high, rules):
        from_rack = [max(low[face], plan.forced[face]) for face in range(FACE_COUNT)]
        from_rack[JOKER_INDEX] = low[JOKER_INDEX]
        if any(from_rack[face] > high[face] for face in range(FACE_COUNT)):
            continue
        must = [plan.must[face] - plan.forced[face] + from_rack[face] for face in range(FACE_COUNT)]
        must[JOKER_INDEX] = 0
        optional = [high[face] - from_rack[face] for face in range(FACE_COUNT)]
        optional[JOKER_INDEX] = 0
        jokers = (plan.freed + low[JOKER_INDEX], high[JOKER_INDEX] - low[JOKER_INDEX])
        setups.append(Setup(plan, from_rack, Problem(must, optional, weights, *jokers, rules.wrap)))
        reachable.append(placeable(must, optional, sum(jokers), rules.wrap))
    # Often the whole rack can be placed: a quick depth-first search finds
    # such a play, which nothing beats, without the full search.
    left = [WHOLE_RACK_BUDGET if budget is None else budget]
    fitting = [tiles == setup.problem.optional for tiles, setup in zip(reachable, setups, strict=True)]
    for number, (setup, fits) in enumerate(zip(setups, fitting, strict=True)):
        if not fits:
            continue  # a rack tile fits in no set at all
        layout, _ = placing_all(setup, tables).depth_first(0, left)
        if layout is not None:
            try:
                table = arrange(before, layout.melds, setup.plan, wrap=rules.wrap)
            except JokersAlone as error:
                alone.add(error.face)
                lost = everything
                continue
            # The plans that may place the whole rack too: this one, those
            # not searched yet, and those whose search gave up.
            rivals = tuple(itertools.compress(setups, fitting))
            return Found(everything, table, rivals, tuple(high), setup)
        if left[0] > 0:
            fitting[number] = False  # searched through: it cannot
    # Per setup, the most it can score as far as the searches tell: those
    # that cannot reach the best need no search for fewer changes.
    bounds = [everything] * len(setups)
    cut = False  # whether a full search kept only some of its states
    for number, setup in enumerate(setups):
        plan, from_rack, problem = setup.plan, setup.from_rack, setup.problem
        if best_score >= everything:
            break  # the whole rack is placed: nothing can do better
        fixed = sum(weights[face] * from_rack[face] for face in range(FACE_COUNT))
        # At most every rack tile that fits in some set: a plan that cannot
        # beat the best so far even so is not searched.
        if best_score:
            hope = sum(weight * count for weight, count in zip(weights, reachable[number], strict=True))
            hope += fixed + (high[JOKER_INDEX] - low[JOKER_INDEX]) * weights[JOKER_INDEX]
            if hope <= best_score:
                bounds[number] = hope
                continue
        # The best play of this plan, if it scores more than the best so far.
        peaks: list[int] | None = [] if keep_peaks and not rules.wrap else None
        full = LayerSearch(problem, tables, score=best_score - fixed + 1, width=STEP_WIDTH, peaks=peaks)
        arrangement = full.run()
        cut = cut or full.cut
        if peaks is not None and len(peaks) == MAX_NUMBER and not full.cut and not full.offset:
            setup.peaks[:] = [best_score - fixed + 1, *peaks]
        if arrangement is None:
            bounds[number] = best_score
            continue
        score = bounds[number] = arrangement.score + fixed
        if score > best_score:
            try:
                best = arrange(before, arrangement.melds, plan, wrap=rules.wrap)
            except JokersAlone as error:
                alone.add(error.face)
                lost = max(lost, score)
                continue
            best_score = score
    if cut and setups:
        # A search kept only some of its states: a depth-first search of the
        # first plan (the table's jokers kept) may still find a better play.
        setup = setups[0]
        fixed = sum(weights[face] * setup.from_rack[face] for face in range(FACE_COUNT))
        layout, _ = LayerSearch(setup.problem, tables, score=best_score - fixed + 1).depth_first(0, [LEAD_BUDGET])
        if layout is not None:
            try:
                best = arrange(before, layout.melds, setup.plan, wrap=rules.wrap)
                best_score = bounds[0] = layout.score + fixed
            except JokersAlone as error:
                alone.add(error.face)
                lost = max(lost, layout.score + fixed)
    if lost > best_score:
        # A better layout put jokers that keep their meaning in a set of their
        # own (the six-player set's four jokers): the best play that leaves
        # the old sets holding those jokers as they are, if it beats the best.
        beside = _beside_lone_jokers(before, setups, alone, low, high, weights, rules, best_score, budget, keep_peaks)
        if beside is not None:
            return beside
    if best is None:
        return None
    rivals = tuple(setup for setup, bound in zip(setups, bounds, strict=True) if bound >= best_score)
    # A play placing the whole rack is the best however it was found.
    proven = (not cut or best_score >= everything) and lost <= best_score
    return Found(best_score, best, rivals, tuple(high), proven=proven)


def _beside_lone_jokers(
    before: Table,
    setups: Sequence[Setup],
    alone: set[int | None],
    low: Sequence[int],
    high: Sequence[int],
    weights: Sequence[int],
    rules: Rules,
    floor: int,
    budget: int | None,
    keep_peaks: bool,
) -> Found | None:
    """The best play scoring more than ``floor`` that leaves as they are the old sets whose
    jokers may stand for a face in ``alone``, searched on the rest of the table; not proven
    the best, since a play changing those sets another way might score more."""
    held = {
        index
        for setup in setups
        for index, kept_here in enumerate(setup.plan.kept_by_set)
        if kept_here and (None in alone or alone & set(kept_here))
    }
    if not held:
        return None
    rest = Table(tuple(meld for index, meld in enumerate(before.melds) if index not in held))
    found = best_in_box(rest, low, high, weights, rules, melded=True, floor=floor, budget=budget, keep_peaks=keep_peaks)
    if found is None or found.score <= floor:
        return None
    table = least_changed(rest, found, weights, rules)[0] if keep_peaks else found.table
    kept = tuple(meld for index, meld in enumerate(before.melds) if index in held)
    return Found(found.score, Table(kept + table.melds), proven=False)


def _read_position(
    rack: str | Iterable[Tile | Piece], table: str | Table, rules: str | Rules, objective: str
) -> tuple[Rules, list[Tile], Table]:
    """The rules, the rack's tiles and the table, checked.

    :raises TilerummyError: for bad notation, an unknown preset or objective,
        or more copies of a tile than the tile set holds.
    """
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    rack_tiles = _read_rack(rack)
    before = Table.parse(table, wrap=rules.wrap) if isinstance(table, str) else table
    if objective not in ("tiles", "value"):
        raise TilerummyError(f"objective {objective!r}: expected 'tiles' or 'value'")
    rules.tile_set.check([*rack_tiles, *before.tiles().elements()], "the rack and the table")
    return rules, rack_tiles, before


def _read_rack(rack: str | Iterable[Tile | Piece]) -> list[Tile]:
    if isinstance(rack, str):
        return parse_tiles(rack)
    tiles = []
    for item in rack:
        if isinstance(item, Piece):
            tiles.append(item.tile)
        elif isinstance(item, Tile):
            tiles.append(item)
        else:
            raise TilerummyError(f"{item!r} is not a tile")
    return tiles


def _weights(rules: Rules, objective: Objective) -> list[int]:
    values = [rules.joker_penalty if face.is_joker else face.number for face in FACES]
    if objective == "tiles":
        return [_MAJOR + value for value in values]
    return [value * _MAJOR + 1 for value in values]


def _finish(
    before: Table, after: Table, rack: Sequence[Tile], rules: Rules, *, melded: bool, proven: bool = True
) -> Solution:
    try:
        judged = judge_play(before, after, rack, rules, melded=melded)
    except TilerummyError as error:
        raise SolverError(f"the solver's play {after} is illegal: {error}") from error
    placed = tuple(sorted(judged.from_rack.elements(), key=_ORDER))
    value = sum(rules.joker_penalty if tile.is_joker else tile.number for tile in placed)
    steps = tuple(describe(before, judged.table, Counter(placed)))
    changed = len(changed_sets(before, judged.table))
    return Solution(placed, judged.table, value, steps, judged.meld_value, changed, proven)


_ORDER = operator.attrgetter("sort_key")
