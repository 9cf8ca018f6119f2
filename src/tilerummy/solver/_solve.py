"""``solve``: the best play for a rack and a table, under the rules.

The table's jokers are the hard part. Under ``rack`` (and ``rack_or_table``)
each joker on the table either keeps what it stands for (then it behaves
like that tile, which must stay on the table) or is freed (then it is a joker
that must go somewhere on the table, and the tile it stood for must come from
the rack, or be on the table). Every combination of those roles is searched,
best first, and the best legal play wins. Every answer is checked with the
engine's own rules before it is returned.
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

from ..errors import InvalidMeld, TilerummyError
from ..legality import joker_readings, judge_play
from ..melds import WRAPPED_ONE, Meld, MeldKind, Table
from ..rules import JokerReplacement, Rules
from ..tiles import COLOURS, JOKER, MAX_NUMBER, Piece, Tile, format_tiles, parse_tiles
from ._keep import (
    NO_FACES,
    Kept,
    mirrored_counts,
    mirrored_face,
    mirrored_kept,
    mirrored_ways,
    ways_to_keep,
)
from ._layers import LayerSearch, Problem, placeable, run_out
from ._search import FACE_COUNT, FACES, INDEX, JOKER_INDEX, counts_of, face_of, search
from ._tables import SolverTables, tables_for

Objective = Literal["tiles", "value"]

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def _without_cycle_collector(function: Callable[_Params, _Result]) -> Callable[_Params, _Result]:
    """Run the function with Python's cycle collector paused.

    The searches make hundreds of thousands of small tuples and dicts, none
    of them in a cycle; meanwhile the collector keeps going over them and over
    everything else the program holds (a third of a solve's time on a busy
    heap, for nothing). Reference counting frees them as before, and the
    collector is back on, if it was on, once the function returns."""

    @functools.wraps(function)
    def paused(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused


#: Scores pack the objective and its tie-break into one number.
_MAJOR = 1024


class SolverError(TilerummyError):
    """The solver produced a play the rules refuse: a bug, never bad input."""


class _JokersAlone(Exception):
    """A layout puts jokers that keep their meaning in a set with no other
    tile (only possible with the six-player set's four jokers): the search
    counts them as the tiles they stand for, but the rules want a numbered
    tile in every set, so the layout is no play."""


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
    found = best_in_box(before, [0] * FACE_COUNT, rack_counts, weights, rules, melded=initial_meld_done)
    if found is None:
        return None
    after = _fewest_changes(before, found, weights, rules) if fewest_changes else found.table
    return _finish(before, after, rack_tiles, rules, melded=initial_meld_done)


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
        best = solve(
            rack_tiles,
            before,
            rules=rules,
            initial_meld_done=False,
            objective=objective,
            fewest_changes=fewest_changes,
        )
        return [] if best is None else [best]
    weights = _weights(rules, objective)
    rack_counts = counts_of(Counter(rack_tiles))
    # Each entry: minus the box's bound (its best score when found, else at
    # most its parent's), the order pushed, the box, and its best play once found.
    queue: list[tuple[int, int, list[int], list[int], _Found | None]] = []
    order = itertools.count()
    heapq.heappush(
        queue,
        (
            -sum(w * c for w, c in zip(weights, rack_counts, strict=True)),
            next(order),
            [0] * FACE_COUNT,
            list(rack_counts),
            None,
        ),
    )
    plays: list[Solution] = []
    while queue and len(plays) < k:
        bound, _, low, high, after = heapq.heappop(queue)
        if after is None:
            # Worth searching only for a play better than the plays already
            # found in other boxes that are enough to fill the list.
            found = best_in_box(
                before,
                low,
                high,
                weights,
                rules,
                melded=initial_meld_done,
                floor=_enough(queue, k - len(plays)),
                whole_rack_budget=_PART_BUDGET if plays else None,
            )
            if found is not None:
                heapq.heappush(queue, (-found.score, next(order), low, high, found))
            continue
        chosen = after.table
        if fewest_changes and after.setups:
            # The fewest changes for exactly these rack tiles: with nothing
            # left optional the searches are quick.
            placed = counts_of(after.table.tiles() - before.tiles())
            exactly = best_in_box(
                before, placed, placed, weights, rules, melded=initial_meld_done, floor=after.score - 1
            )
            if exactly is not None:
                chosen = _fewest_changes(before, exactly, weights, rules)
        play = _finish(before, chosen, rack_tiles, rules, melded=initial_meld_done)
        plays.append(play)
        used = counts_of(Counter(play.placed))
        low, high = list(low), list(high)
        floor = _enough(queue, k - len(plays))
        for face in range(FACE_COUNT):
            if low[face] == high[face]:
                continue
            # The parts without this play, each searched when it comes first.
            if used[face] > low[face]:
                _push_box(
                    queue, order, bound, low.copy(), [*high[:face], used[face] - 1, *high[face + 1 :]], weights, floor
                )
            if used[face] < high[face]:
                _push_box(
                    queue, order, bound, [*low[:face], used[face] + 1, *low[face + 1 :]], high.copy(), weights, floor
                )
            low[face] = high[face] = used[face]
    return plays


def _enough(queue: list[tuple[int, int, list[int], list[int], _Found | None]], wanted: int) -> int:
    """The score the ``wanted``-th best play found in the queue's boxes
    reaches (0 if fewer are found): a box needs a better play to matter."""
    if wanted <= 0:
        return 0
    found = sorted((-entry[0] for entry in queue if entry[4] is not None), reverse=True)
    return found[wanted - 1] if len(found) >= wanted else 0


def _push_box(
    queue: list[tuple[int, int, list[int], list[int], _Found | None]],
    order: Iterator[int],
    bound: int,
    low: list[int],
    high: list[int],
    weights: Sequence[int],
    floor: int,
) -> None:
    """Queue a box to search, bounded by its parent's best and by placing
    every tile it allows; dropped if that cannot beat ``floor``."""
    everything = sum(w * c for w, c in zip(weights, high, strict=True))
    bound = max(bound, -everything)
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
    whole_rack_budget: int | None = None,
) -> _Found | None:
    """The best play using between ``low`` and ``high`` copies of each rack
    face (jokers included), with its score; None if no such play places a
    tile or scores more than ``floor``. ``whole_rack_budget``: how long to
    look for a play using ``high`` in full before searching properly (at
    most the module's budget). The play keeps the old sets it makes again;
    :func:`_fewest_changes` then finds the fewest changes."""
    constant = sum(weights[face] * low[face] for face in range(FACE_COUNT))
    if not melded:
        if rules.initial_meld_lay_off and before.melds:
            if any(low):
                raise TilerummyError("bounded initial melds with lay-off are not supported")
            after = _initial_meld(before, list(high), list(weights), rules)
            if after is None:
                return None
            placed = after.tiles() - before.tiles()
            score = sum(weights[INDEX[tile]] * count for tile, count in placed.items())
            return _Found(score, after) if score > floor else None
        optional = [high[face] - low[face] for face in range(FACE_COUNT)]
        threshold = max(rules.meld_threshold, 1)
        found = search(
            list(low), optional, weights, wrap=rules.wrap, min_meld_value=threshold, floor=max(-1, floor - constant)
        )
        if found is None or not found.melds or found.score + constant <= floor:
            return None
        return _Found(found.score + constant, Table(before.melds + found.melds))
    best_score = floor
    best: Table | None = None
    everything = sum(weights[face] * count for face, count in enumerate(high))
    if everything <= floor:
        return None
    tables = tables_for(rules)
    setups = []
    for plan in _joker_plans(before, high, rules):
        from_rack = [max(low[face], plan.forced[face]) for face in range(FACE_COUNT)]
        from_rack[JOKER_INDEX] = low[JOKER_INDEX]
        if any(from_rack[face] > high[face] for face in range(FACE_COUNT)):
            continue
        must = [plan.must[face] - plan.forced[face] + from_rack[face] for face in range(FACE_COUNT)]
        must[JOKER_INDEX] = 0
        optional = [high[face] - from_rack[face] for face in range(FACE_COUNT)]
        optional[JOKER_INDEX] = 0
        jokers = (plan.freed + low[JOKER_INDEX], high[JOKER_INDEX] - low[JOKER_INDEX])
        setups.append(_Setup(plan, from_rack, Problem(must, optional, weights, *jokers, rules.wrap)))
    # Often the whole rack can be placed: a quick depth-first search finds
    # such a play, which nothing beats, without the full search.
    budget = [_WHOLE_RACK_BUDGET if whole_rack_budget is None else min(whole_rack_budget, _WHOLE_RACK_BUDGET)]
    fitting = [
        placeable(setup.problem.must, setup.problem.optional, setup.problem.total_jokers, rules.wrap)
        == setup.problem.optional
        for setup in setups
    ]
    for number, (setup, fits) in enumerate(zip(setups, fitting, strict=True)):
        if not fits:
            continue  # a rack tile fits in no set at all
        layout, _ = _placing_all(setup, tables).depth_first(0, budget)
        if layout is not None:
            try:
                table = _arrange(before, layout.melds, setup.plan)
            except _JokersAlone:
                continue
            # The plans that may place the whole rack too: this one, those
            # not searched yet, and those whose search gave up.
            rivals = tuple(itertools.compress(setups, fitting))
            return _Found(everything, table, rivals, tuple(high), setup)
        if budget[0] > 0:
            fitting[number] = False  # searched through: it cannot
    # Per setup, the most it can score as far as the searches tell: those
    # that cannot reach the best need no search for fewer changes.
    bounds = [everything] * len(setups)
    for number, setup in enumerate(setups):
        plan, from_rack, problem = setup.plan, setup.from_rack, setup.problem
        if best_score >= everything:
            break  # the whole rack is placed: nothing can do better
        fixed = sum(weights[face] * from_rack[face] for face in range(FACE_COUNT))
        # At most every rack tile that fits in some set: a plan that cannot
        # beat the best so far even so is not searched.
        if best_score:
            reachable = placeable(problem.must, problem.optional, problem.total_jokers, rules.wrap)
            hope = sum(weight * count for weight, count in zip(weights, reachable, strict=True))
            hope += fixed + (high[JOKER_INDEX] - low[JOKER_INDEX]) * weights[JOKER_INDEX]
            if hope <= best_score:
                bounds[number] = hope
                continue
        # The best play of this plan, if it scores more than the best so far.
        arrangement = LayerSearch(problem, tables, score=best_score - fixed + 1).run()
        if arrangement is None:
            bounds[number] = best_score
            continue
        score = bounds[number] = arrangement.score + fixed
        if score > best_score:
            try:
                best = _arrange(before, arrangement.melds, plan)
            except _JokersAlone:
                continue
            best_score = score
    if best is None:
        return None
    rivals = tuple(setup for setup, bound in zip(setups, bounds, strict=True) if bound >= best_score)
    return _Found(best_score, best, rivals, tuple(high))


def _initial_meld(before: Table, rack: list[int], weights: list[int], rules: Rules) -> Table | None:
    """The best initial meld: new sets from the rack worth the threshold and,
    with ``initial_meld_lay_off``, rack tiles added to the sets on the table."""
    threshold = max(rules.meld_threshold, 1)
    zeros = [0] * FACE_COUNT
    if not rules.initial_meld_lay_off or not before.melds:
        found = search(zeros, rack, weights, wrap=rules.wrap, min_meld_value=threshold)
        if found is None or not found.melds:
            return None
        return Table(before.melds + found.melds)
    options = [_lay_offs(meld, rack, rules) for meld in before.melds]
    # The best score, then the fewest sets extended (the only change a lay-off
    # makes); the set as it was is each set's first option.
    best_score = 0
    best_changed = len(before.melds) + 1
    best: Table | None = None
    left = list(rack)

    def visit(index: int, extended: list[Meld], score: int, changed: int) -> None:
        nonlocal best_score, best_changed, best
        if index == len(options):
            # As good as the best will do when it changes fewer sets.
            floor = best_score - score - (1 if changed < best_changed else 0)
            found = search(zeros, left, weights, wrap=rules.wrap, min_meld_value=threshold, floor=floor)
            if found is None or not found.melds:
                return
            after = Table(tuple(extended) + found.melds)
            # A new set may happen to match an old one: count as describe() does.
            changed = len(changed_sets(before, after))
            if (score + found.score, -changed) > (best_score, -best_changed):
                best_score, best_changed, best = score + found.score, changed, after
            return
        for meld, added in options[index]:
            if any(left[face] < count for face, count in added.items()):
                continue
            for face, count in added.items():
                left[face] -= count
            gained = sum(weights[face] * count for face, count in added.items())
            visit(index + 1, [*extended, meld], score + gained, changed + bool(added))
            for face, count in added.items():
                left[face] += count

    visit(0, [], 0, 0)
    return best


def _lay_offs(meld: Meld, rack: Sequence[int], rules: Rules) -> list[tuple[Meld, Counter[int]]]:
    """The set as it is, and every way to add rack tiles (or rack jokers) to it."""
    options: list[tuple[Meld, Counter[int]]] = [(meld, Counter())]
    jokers = rack[JOKER_INDEX]
    if meld.is_group:
        present = {tile.colour for tile in meld.tiles}
        missing = [Tile(colour, meld.number) for colour in COLOURS if colour not in present]
        for size in range(1, 5 - len(meld)):
            for numbered in range(size + 1):
                for chosen in itertools.combinations(missing, numbered):
                    added = [*chosen, *(JOKER,) * (size - numbered)]
                    _try_extension(meld, [*meld.tiles, *added], added, rack, rules, options)
        return options
    assert meld.colour is not None
    top = WRAPPED_ONE if rules.wrap else MAX_NUMBER
    first, last = meld.number, meld.number + len(meld) - 1
    for before_count in range(first):
        for after_count in range(top - last + 1):
            if not before_count and not after_count:
                continue
            numbers = [*range(first - before_count, first), *range(last + 1, last + after_count + 1)]
            wanted = [Tile(meld.colour, 1 if n == WRAPPED_ONE else n) for n in numbers]
            if sum(1 for tile in wanted if not rack[INDEX[tile]]) > jokers:
                continue
            # Each added place holds the rack tile, or a joker in its stead.
            for as_jokers in range(min(jokers, len(wanted)) + 1):
                for places in itertools.combinations(range(len(wanted)), as_jokers):
                    added = [JOKER if i in places else tile for i, tile in enumerate(wanted)]
                    head = added[:before_count]
                    tail = added[before_count:]
                    _try_extension(meld, [*head, *meld.tiles, *tail], added, rack, rules, options)
    return options


def _try_extension(
    meld: Meld,
    tiles: Sequence[Tile],
    added: Sequence[Tile],
    rack: Sequence[int],
    rules: Rules,
    options: list[tuple[Meld, Counter[int]]],
) -> None:
    need = Counter(INDEX[tile] for tile in added)
    if any(rack[face] < count for face, count in need.items()):
        return
    try:
        extended = Meld.from_tiles(tiles, wrap=rules.wrap)
    except InvalidMeld:
        return
    # The set's own jokers must keep what they stand for.
    if extended.kind is meld.kind and all(
        old & new for old, new in zip(meld.jokers, extended.jokers[: len(meld.jokers)], strict=False)
    ):
        options.append((extended, need))


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


@dataclass(frozen=True, slots=True)
class _JokerPlan:
    """One way to treat the table's jokers: ``kept`` maps a face to how many
    jokers keep standing for it; ``freed`` jokers go anywhere; ``forced``
    rack copies must be played to replace them."""

    must: list[int]
    kept: Counter[int]
    freed: int
    forced: Counter[int]
    # Per set on the table: the faces its jokers keep standing for, or None
    # when one of them is freed. Rebuilding an old set must follow this,
    # not any reading: a group's joker may stand for a colour another joker keeps.
    kept_by_set: tuple[Counter[int] | None, ...]


def _joker_plans(before: Table, rack_counts: Sequence[int], rules: Rules) -> list[_JokerPlan]:
    table_counts = counts_of(before.tiles())
    readings = joker_readings(before)
    jokers = len(readings[0])
    joker_counts = [sum(1 for tile in meld.tiles if tile.is_joker) for meld in before.melds]
    plans: list[_JokerPlan] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    if rules.joker_replacement is JokerReplacement.FREE:
        role_sets: Iterable[tuple[bool, ...]] = [(False,) * jokers]
    else:
        role_sets = list(itertools.product((True, False), repeat=jokers))
    for reading in readings:
        for roles in role_sets:
            free_mode = rules.joker_replacement is JokerReplacement.FREE
            kept = Counter(INDEX[tile] for tile, keep in zip(reading, roles, strict=True) if keep)
            freed_meanings = Counter(INDEX[tile] for tile, keep in zip(reading, roles, strict=True) if not keep)
            key = (tuple(sorted(kept.elements())), tuple(sorted(freed_meanings.elements())) if not free_mode else ())
            if key in seen:
                continue
            seen.add(key)
            forced: Counter[int] = Counter()
            if not free_mode:
                for face, count in freed_meanings.items():
                    on_table = table_counts[face] if rules.joker_replacement is JokerReplacement.RACK_OR_TABLE else 0
                    forced[face] = max(0, count - on_table)
            if any(rack_counts[face] < count for face, count in forced.items()):
                continue
            must = list(table_counts)
            must[JOKER_INDEX] = sum(freed_meanings.values())
            for face, count in kept.items():
                must[face] += count
            for face, count in forced.items():
                must[face] += count
            kept_by_set = _kept_by_set(joker_counts, reading, roles)
            plans.append(_JokerPlan(must, kept, sum(freed_meanings.values()), +forced, kept_by_set))
    # Keeping every joker where it is is the common case: search it first.
    plans.sort(key=lambda plan: plan.freed)
    return plans


@dataclass(frozen=True, slots=True)
class _Setup:
    """A joker plan as the searches take it: the rack copies it plays for
    sure (``from_rack``, scored apart) and what is left to lay out."""

    plan: _JokerPlan
    from_rack: list[int]
    problem: Problem


@dataclass(frozen=True, slots=True)
class _Found:
    """A best play: its score, the table after it (keeping the old sets it
    made again), and the setups that may score as much (those the searches
    did not rule out), to look for fewer changes."""

    score: int
    table: Table
    setups: tuple[_Setup, ...] = ()
    high: tuple[int, ...] = ()
    #: The setup of the play, when it places the whole rack.
    whole: _Setup | None = None


def _fewest_changes(before: Table, found: _Found, weights: Sequence[int], rules: Rules) -> Table:
    """The table after a play that scores as ``found`` does and changes the
    fewest old sets (see :mod:`._keep`).

    A depth-first search within a small budget, on the likeliest joker plan,
    finds a play to beat (often the best); then each plan is searched fully
    for a better one, which mostly just proves there is none. How long a full
    search takes depends much on the order of the numbers (it is quick when
    the sets that must change come first): without ``wrap`` (where the
    numbers may as well be counted down) the order that meets fewer states
    in its first steps goes on (see :func:`_race`). Plans that cannot score
    as much as the play found are left out.
    """
    broken = len(changed_sets(before, found.table))
    if not broken or not found.setups:
        return found.table
    free = rules.joker_replacement is JokerReplacement.FREE
    count = len(before.melds)
    tables = tables_for(rules)
    setups = found.setups
    if found.score == sum(weight * copies for weight, copies in zip(weights, found.high, strict=True)):
        # The whole rack is placed: a plan that cannot place it all, as a
        # quick search shows for most, has no play to offer.
        setups = tuple(setup for setup in setups if setup is found.whole or not _cannot_place_all(setup, tables))
    plans = [
        _Orders(
            before,
            setup,
            tables,
            Counter() if free else setup.plan.kept,
            found.score - sum(weights[face] * copies for face, copies in enumerate(setup.from_rack)),
            free=free,
            broken=broken_anyway,
        )
        for setup, broken_anyway in zip(setups, _kept_by_an_earlier_plan(setups), strict=True)
    ]
    plans.sort(key=lambda plan: plan.forward.fewest_broken)
    best = found.table

    def take(kept: Kept, mirrored: bool, plan: _Orders) -> None:
        nonlocal best, broken
        try:
            best = _kept_table(before, mirrored_kept(kept) if mirrored else kept, plan.kept_jokers)
        except _JokersAlone:
            return
        broken = count - len(kept.kept)

    # A good play to beat first, from a short search of each plan (longer
    # for the likeliest): then the full searches mostly just prove there is
    # none better, which is quick.
    proven: set[int] = set()  # the plans whose short search went through
    for rank, plan in enumerate(plans):
        for keep_search, mirrored in plan.searches():
            if keep_search.fewest_broken >= broken:
                break
            budget = [_KEEP_BUDGET if rank == 0 else _OTHER_PLANS_BUDGET]
            kept, finished = keep_search.depth_first(count - broken + 1, budget)
            if kept is not None:
                take(kept, mirrored, plan)
            if finished:
                proven.add(rank)
                break
    for rank, plan in enumerate(plans):
        if rank in proven or plan.forward.fewest_broken >= broken:
            continue
        kept, mirrored = _race(plan, count - broken + 1)
        if kept is not None:
            take(kept, mirrored, plan)
    return best


def _kept_by_an_earlier_plan(setups: Sequence[_Setup]) -> list[frozenset[int]]:
    """For each plan, the old sets whose plays keeping them an earlier plan
    has too, so that its own search may take them as broken up.

    Two plans that differ only in what one group's jokers stand for (a
    group of three lacks two colours, and its joker may stand for either)
    make the same plays among those keeping that group: the group takes its
    own joker either way, and the jokers left to the other sets stand for
    the same tiles. That holds when no other joker the plans keep stands for
    a tile of the group's number (one might fill the group instead). Each
    earlier plan's plays are searched in full, or left to a plan earlier
    still in the same way, so every play is searched somewhere."""
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


def _placing_all(setup: _Setup, tables: SolverTables) -> LayerSearch:
    """The search for a layout of every tile of this plan and of the rack
    (depth first, it stops at the first one)."""
    problem = setup.problem
    whole = [must + optional for must, optional in zip(problem.must, problem.optional, strict=True)]
    zeros = [0] * FACE_COUNT
    return LayerSearch(Problem(whole, zeros, zeros, problem.total_jokers, 0, problem.wrap), tables)


def _cannot_place_all(setup: _Setup, tables: SolverTables) -> bool:
    """Whether a quick search shows this plan cannot place all its tiles
    (False when it finds a way, or gives up)."""
    budget = [_WHOLE_RACK_BUDGET]
    layout, _ = _placing_all(setup, tables).depth_first(0, budget)
    return layout is None and budget[0] > 0


class _Orders:
    """One joker plan's searches for fewer changes, with the numbers counted
    up and (unless ``wrap``) down, each set up when first wanted."""

    def __init__(
        self,
        before: Table,
        setup: _Setup,
        tables: SolverTables,
        kept_jokers: Counter[int],
        score: int,
        *,
        free: bool,
        broken: frozenset[int] = frozenset(),
    ) -> None:
        self.problem = setup.problem
        self.tables = tables
        self.wrap = self.problem.wrap
        self.kept_jokers = kept_jokers
        self.score = score
        self.ways = ways_to_keep(before.melds, free=free, kept_jokers=kept_jokers)
        for place in broken:
            self.ways[place] = []
        self.forward = LayerSearch(self.problem, tables, self.ways, kept_jokers, score)
        self._down: LayerSearch | None = None

    def searches(self) -> list[tuple[LayerSearch, bool]]:
        """The searches, each with whether its numbers count down."""
        if self.wrap:
            return [(self.forward, False)]
        if self._down is None:
            problem = self.problem
            counted_down = Problem(
                mirrored_counts(problem.must),
                mirrored_counts(problem.optional),
                mirrored_counts(problem.weights),
                problem.must_jokers,
                problem.optional_jokers,
                wrap=False,
            )
            kept_down = Counter({mirrored_face(face): copies for face, copies in self.kept_jokers.items()})
            ways = mirrored_ways(self.ways)
            self._down = LayerSearch(counted_down, self.tables, ways, kept_down, self.score)
        return [(self.forward, False), (self._down, True)]


def _race(plan: _Orders, keep: int) -> tuple[Kept | None, bool]:
    """The play of this plan keeping the most sets, at least ``keep`` (None
    if there is none), and which order of the numbers found it (True:
    counted down).

    One order can take ten times as long as the other, and which one is
    quicker shows early: the search counting up goes alone while it is
    small; past that, counting down goes as many steps (or until it has met
    as many states), and the order that met fewer states goes on alone."""
    counting_up = plan.forward.stepwise(keep)
    met = steps = 0
    try:
        while met < _KEEP_STATES or plan.wrap:
            met += next(counting_up)
            steps += 1
    except StopIteration as finished:
        return finished.value, False
    down, _ = plan.searches()[1]
    counting_down = down.stepwise(keep)
    met_down = 0
    try:
        for _ in range(steps):
            met_down += next(counting_down)
            if met_down > met:
                break
        else:
            return run_out(counting_down), True
    except StopIteration as finished:
        return finished.value, True
    return run_out(counting_up), False


def _kept_table(before: Table, found: Kept, kept_jokers: Counter[int]) -> Table:
    """The old sets kept, then the new sets with each joker that keeps its
    meaning (and is in no kept set) shown as a joker again."""
    left = Counter(kept_jokers)
    for way in found.kept:
        left -= Counter(way.joker_faces)
    shown = _show_kept_jokers(list(found.melds), left)
    return Table(tuple(before.melds[way.index] for way in found.kept) + tuple(shown))


def _set_key(meld: Meld) -> tuple[MeldKind, int, tuple[int, ...]]:
    """What makes two sets the same: kind, number and faces in order (as
    small ints, which :func:`describe` counts and sorts)."""
    return meld.kind, meld.number, tuple(face_of(tile) for tile in meld.tiles)


def changed_sets(before: Table, after: Table) -> list[Meld]:
    """The old sets that do not lie on the table after the play as they were
    (each copy of a set counted once)."""
    left = _counted(_set_key(meld) for meld in after.melds)
    changed = []
    for meld in before.melds:
        key = _set_key(meld)
        if left.get(key, 0) > 0:
            left[key] -= 1
        else:
            changed.append(meld)
    return changed


def _kept_by_set(
    joker_counts: Sequence[int], reading: Sequence[Tile], roles: Sequence[bool]
) -> tuple[Counter[int] | None, ...]:
    """Per set on the table (holding so many jokers), the faces its jokers
    keep standing for, or None when one is freed."""
    result: list[Counter[int] | None] = []
    position = 0
    for count in joker_counts:
        if not count:
            result.append(NO_FACES)
            continue
        meanings, keeps = reading[position : position + count], roles[position : position + count]
        position += count
        result.append(Counter(INDEX[tile] for tile in meanings) if all(keeps) else None)
    return tuple(result)


#: How many states the depth-first search for fewer changes may visit, per
#: order of the numbers, on the likeliest joker plan and on each other one;
#: and how many the full search counting up may meet alone before counting
#: down is tried against it.
_KEEP_BUDGET = 1500
_OTHER_PLANS_BUDGET = 300
_KEEP_STATES = 1000
#: How many states the searches for a play placing the whole rack may visit;
#: for the parts candidates() splits off, whose whole is less often playable.
_WHOLE_RACK_BUDGET = 3000
_PART_BUDGET = 300


def _arrange(before: Table, melds: Sequence[Meld], plan: _JokerPlan) -> Table:
    """The table after the play: the old sets it made again as they were,
    then its other sets, with kept jokers shown as jokers again."""
    kept_jokers = Counter(plan.kept)
    # The new sets by their faces, in order, to find those made again.
    by_faces: dict[tuple[int, ...], list[int]] = {}
    for index, new in enumerate(melds):
        by_faces.setdefault(tuple(sorted(face_of(tile) for tile in new.tiles)), []).append(index)
    taken: set[int] = set()
    kept_sets: list[Meld] = []
    for meld, kept_here in zip(before.melds, plan.kept_by_set, strict=True):
        if kept_here is None or (kept_here and kept_here - kept_jokers):
            continue
        faces = Counter(face_of(tile) for tile in meld.tiles if not tile.is_joker)
        if kept_here:
            faces += kept_here
        same = by_faces.get(tuple(sorted(faces.elements())))
        if same:
            taken.add(same.pop(0))
            kept_sets.append(meld)
            kept_jokers -= kept_here
    shown = _show_kept_jokers([new for index, new in enumerate(melds) if index not in taken], kept_jokers)
    return Table(tuple(kept_sets) + tuple(shown))


def _show_kept_jokers(melds: list[Meld], kept: Counter[int]) -> list[Meld]:
    """Turn one copy of each kept face back into the joker it is."""
    for face, count in kept.items():
        tile = FACES[face]
        for _ in range(count):
            options = [
                index
                for index, meld in enumerate(melds)
                if tile in meld.tiles and sum(not t.is_joker for t in meld.tiles) > 1
            ]
            if not options:
                raise _JokersAlone(f"no set can hold the joker that stands for {tile}")
            index = max(options, key=lambda i: sum(not t.is_joker for t in melds[i].tiles))
            meld = melds[index]
            tiles = tuple(JOKER if t == tile else t for t in meld.tiles)
            melds[index] = _with_jokers(meld, tiles)
    return melds


def _with_jokers(meld: Meld, tiles: tuple[Tile, ...]) -> Meld:
    if meld.is_run:
        return Meld(MeldKind.RUN, tiles, meld.number, meld.colour)
    numbered = tuple(t for t in tiles if not t.is_joker)
    jokers = len(tiles) - len(numbered)
    return Meld(MeldKind.GROUP, numbered + (JOKER,) * jokers, meld.number)


def _finish(before: Table, after: Table, rack: Sequence[Tile], rules: Rules, *, melded: bool) -> Solution:
    try:
        judged = judge_play(before, after, rack, rules, melded=melded)
    except TilerummyError as error:
        raise SolverError(f"the solver's play {after} is illegal: {error}") from error
    placed = tuple(sorted(judged.from_rack.elements(), key=_ORDER))
    value = sum(rules.joker_penalty if tile.is_joker else tile.number for tile in placed)
    steps = tuple(describe(before, judged.table, Counter(placed)))
    changed = len(changed_sets(before, judged.table))
    return Solution(placed, judged.table, value, steps, judged.meld_value, changed)


def describe(before: Table, after: Table, placed: Counter[Tile]) -> list[str]:
    """The move in short steps a person can follow, such as "add R4 to R5 R6 R7"
    or "make R4 R5 R6 with R4 from your rack, R5 R6 from R5 R6 R7 R8"."""

    # Writing a group out can take a while: each set is written once.
    before_keys = [_set_key(meld) for meld in before.melds]
    after_keys = [_set_key(meld) for meld in after.melds]
    melds = dict(zip(before_keys, before.melds, strict=True))
    melds.update(zip(after_keys, after.melds, strict=True))
    names: dict[tuple[MeldKind, int, tuple[int, ...]], str] = {}

    def name(meld: tuple[MeldKind, int, tuple[int, ...]]) -> str:
        found = names.get(meld)
        if found is None:
            tiles = melds[meld].tiles
            # Only a joker's token can differ from its tile's notation.
            plain = not any(tile.is_joker for tile in tiles)
            found = names[meld] = " ".join(str(tile) for tile in tiles) if plain else str(melds[meld])
        return found

    # The old sets kept are those of changed_sets' count. Counts are plain
    # dicts of faces (a step is written for every hint and every bot's move).
    old = _counted(before_keys)
    new = _counted(after_keys)
    broken = [key for key, count in _minus(old, new).items() for _ in range(count)]
    created = [key for key, count in _minus(new, old).items() for _ in range(count)]
    from_rack: dict[int, int] = {}
    for tile, count in placed.items():
        face = face_of(tile)
        from_rack[face] = from_rack.get(face, 0) + count
    old_tiles = [_counted(faces) for _, _, faces in broken]
    left_in = [dict(tiles) for tiles in old_tiles]
    steps: list[str] = []

    # Whole sets extended with rack tiles first, then sets made of rack tiles only.
    remaining: list[tuple[MeldKind, int, tuple[int, ...]]] = []
    intact = [True] * len(broken)
    for meld in created:
        tiles = _counted(meld[2])
        for index, old_meld in enumerate(broken):
            # A set extended keeps its kind, and a group its number.
            if old_meld[0] is not meld[0] or (old_meld[0] is MeldKind.GROUP and old_meld[1] != meld[1]):
                continue
            whole = old_tiles[index]
            if not intact[index] or not _within(whole, tiles):
                continue
            added = _minus(tiles, whole)
            if _within(added, from_rack):
                steps.append(f"add {_shown(added)} to {name(old_meld)}")
                from_rack = _minus(from_rack, added)
                left_in[index] = {}
                intact[index] = False
                break
        else:
            remaining.append(meld)
    created, remaining = remaining, []
    for meld in created:
        tiles = _counted(meld[2])
        if _within(tiles, from_rack):
            steps.append(f"lay {name(meld)} as a new {meld[0].value}")
            from_rack = _minus(from_rack, tiles)
        else:
            remaining.append(meld)
    for meld in remaining:
        needed = _counted(meld[2])
        parts: list[str] = []
        for index, old_meld in enumerate(broken):
            left = left_in[index]
            if not left:
                continue
            taken = _common(needed, left)
            if taken:
                is_whole = taken == old_tiles[index]
                parts.append(name(old_meld) if is_whole else f"{_shown(taken)} from {name(old_meld)}")
                needed = _minus(needed, taken)
                left_in[index] = _minus(left, taken)
        mine = _common(needed, from_rack)
        if mine:
            parts.append(f"{_shown(mine)} from your rack")
            from_rack = _minus(from_rack, mine)
        steps.append(f"make the {meld[0].value} {name(meld)} with " + ", ".join(parts))
    return steps


_Key = TypeVar("_Key")
_ORDER = operator.attrgetter("sort_key")


def _counted(items: Iterable[_Key]) -> dict[_Key, int]:
    counts: dict[_Key, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _minus(more: dict[_Key, int], less: dict[_Key, int]) -> dict[_Key, int]:
    """The counts of ``more`` left above zero once ``less`` is taken off."""
    return {item: count - less.get(item, 0) for item, count in more.items() if count > less.get(item, 0)}


def _common(one: dict[int, int], other: dict[int, int]) -> dict[int, int]:
    """The counts both hold."""
    return {item: min(count, other[item]) for item, count in one.items() if item in other}


def _within(part: dict[int, int], whole: dict[int, int]) -> bool:
    return all(whole.get(item, 0) >= count for item, count in part.items())


def _shown(faces: dict[int, int]) -> str:
    return format_tiles(sorted(FACES[face] for face, count in faces.items() for _ in range(count)))
