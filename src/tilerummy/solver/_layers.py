"""Exact best arrangement by dynamic programming over the numbers 1 to 13.

Groups hold one number and runs one colour, so the table can be built number
by number: at each number every colour's tiles either continue the runs open
in that colour, start new runs, or go to groups of that number. Between two
numbers all that matters is, per colour, the open runs (their length so far,
capped at 3, and whether they hold a numbered tile), how many jokers are
used, and, with ``wrap``, how many 1s were kept back to follow a 13. So the
search is a walk through layers of such states, keeping the best score per
state, and is exact.

Tile counts are per face as in :mod:`._search`: ``must`` copies have to be
placed, ``optional`` ones may be, and each optional copy placed scores its
weight. Jokers: ``must_jokers`` have to be placed (jokers freed from the
table), ``optional_jokers`` may be (the rack's), each scoring ``joker_weight``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ..melds import WRAPPED_ONE, Meld, MeldKind
from ..tiles import COLOURS, JOKER, MAX_NUMBER, Tile

# Length so far (capped at 3), holds a numbered tile, started at 1 (with wrap
# such a run may not also take the 1 that follows 13).
Run = tuple[int, bool, bool]
ColourRuns = tuple[Run, ...]  # sorted


# Small tuples met over and over are named by small ints, so states are flat
# tuples of ints that hash fast.
_IDS: dict[tuple[object, ...], int] = {}
_VALUES: list[tuple[object, ...]] = []


def _id(value: tuple[object, ...]) -> int:
    found = _IDS.get(value)
    if found is None:
        found = _IDS[value] = len(_VALUES)
        _VALUES.append(value)
    return found


def _runs_of(ident: int) -> ColourRuns:
    return _VALUES[ident]  # type: ignore[return-value]


def _ints_of(ident: int) -> tuple[int, ...]:
    return _VALUES[ident]  # type: ignore[return-value]


def _face(colour: int, number: int) -> int:
    return colour * MAX_NUMBER + (number - 1)


@dataclass(frozen=True, slots=True)
class _Choice:
    """What one colour does at one number."""

    runs_after: ColourRuns
    to_groups: int  # numbered tiles sent to the groups of this number
    optional_used: int  # rack copies placed
    jokers: int  # jokers used in runs
    continued: tuple[tuple[Run, str], ...]  # for each open run: "tile", "joker" or "end"
    started: tuple[Run, ...]  # new runs (started with a numbered tile when run[1])
    short: int  # runs left open with fewer than three tiles
    single: int  # runs left open with one tile
    after_id: int  # the name of runs_after


@functools.cache
def _colour_choices(
    runs: ColourRuns, must: int, optional: int, jokers: int, last: bool, first: bool, ahead: int
) -> tuple[_Choice, ...]:
    """Every way one colour can use its tiles at one number.

    ``last``: no new run can start (it could not reach three tiles);
    ``first``: runs started here start at 1; ``ahead``: how many numbers on
    the next tile of this colour is (a run of jokers alone must reach it).
    """
    choices: list[_Choice] = []
    for used in range(optional + 1):
        tiles = must + used
        _extend(runs, 0, tiles, jokers, [], used, (last, first, ahead), choices)
    return tuple(choices)


def _extend(
    runs: ColourRuns,
    index: int,
    tiles: int,
    jokers: int,
    decisions: list[tuple[Run, str]],
    used: int,
    where: tuple[bool, bool, int],
    out: list[_Choice],
) -> None:
    if index == len(runs):
        _start(tiles, jokers, decisions, used, where, out)
        return
    run = runs[index]
    length, real, _ = run
    if length == 3 and real:
        _extend(runs, index + 1, tiles, jokers, [*decisions, (run, "end")], used, where, out)
    if tiles > 0:
        _extend(runs, index + 1, tiles - 1, jokers, [*decisions, (run, "tile")], used, where, out)
    # A run of jokers alone must still reach a numbered tile.
    if jokers > 0 and (real or jokers >= where[2]):
        _extend(runs, index + 1, tiles, jokers - 1, [*decisions, (run, "joker")], used, where, out)


def _start(
    tiles: int,
    jokers: int,
    decisions: list[tuple[Run, str]],
    used: int,
    where: tuple[bool, bool, int],
    out: list[_Choice],
) -> None:
    last, first, ahead = where
    continuing = [
        (min(length + 1, 3), real or how == "tile", from_one)
        for (length, real, from_one), how in decisions
        if how != "end"
    ]
    jokers_in_runs = sum(how == "joker" for _, how in decisions)
    joker_starts = 0 if last else jokers // ahead if ahead else 0
    for with_tile in range(1 if last else tiles + 1):
        for with_joker in range(joker_starts + 1):
            new_runs = [(1, True, first)] * with_tile + [(1, False, first)] * with_joker
            after = tuple(sorted([*continuing, *new_runs]))
            out.append(
                _Choice(
                    after,
                    tiles - with_tile,
                    used,
                    jokers_in_runs + with_joker,
                    tuple(decisions),
                    tuple(new_runs),
                    sum(run[0] < 3 for run in after),
                    sum(run[0] == 1 for run in after),
                    _id(after),
                )
            )


@functools.cache
def _group_split(counts: tuple[int, int, int, int], jokers: int) -> tuple[tuple[int, ...], ...] | None:
    """Groups for these counts of numbered tiles per colour and exactly this
    many jokers: each group as (colour, colour, ..., -1 per joker); None if
    impossible."""
    if sum(counts) == 0:
        return () if jokers == 0 else None
    first = next(colour for colour, count in enumerate(counts) if count)
    others = [colour for colour in range(4) if colour != first and counts[colour]]
    for size in range(len(others) + 1):
        for extra in itertools.combinations(others, size):
            chosen = (first, *extra)
            for joker_count in range(jokers + 1):
                if 3 <= len(chosen) + joker_count <= 4:
                    rest = list(counts)
                    for colour in chosen:
                        rest[colour] -= 1
                    tail = _group_split((rest[0], rest[1], rest[2], rest[3]), jokers - joker_count)
                    if tail is not None:
                        return ((*chosen, *(-1,) * joker_count), *tail)
    return None


@dataclass(frozen=True, slots=True)
class Arrangement:
    melds: tuple[Meld, ...]
    score: int


# The open runs of each colour (by name), jokers used, the tiles sent to this
# number's groups by the colours already handled (sorted, by name), the 1s
# kept back to follow a 13 (with wrap, by name).
Key = tuple[int, int, int, int, int, int, int]
# How a state was reached: the previous state and the colour's choice (with
# the 1s it kept back), or the previous state and the jokers put in groups.
Back = tuple[Key, _Choice, int] | tuple[Key, int] | None
Step = dict[Key, tuple[int, Back]]


#: From how many tiles on the table and the rack the array search is used
#: from the start; below, the loop search hands over to it past this many states.
_ARRAYS_FROM = 70
_LOOP_STATES = 1500


def best_arrangement(
    must: Sequence[int],
    optional: Sequence[int],
    weights: Sequence[int],
    *,
    must_jokers: int,
    optional_jokers: int,
    joker_weight: int,
    wrap: bool,
    floor: int = -1,
) -> Arrangement | None:
    """The highest-scoring way to place every must copy (and some optional
    ones) in valid sets; None if the must copies cannot all be placed or
    nothing scores more than ``floor``."""

    def with_arrays() -> Arrangement | None:
        from ._layers_np import best_arrangement_arrays

        return best_arrangement_arrays(
            must,
            optional,
            weights,
            must_jokers=must_jokers,
            optional_jokers=optional_jokers,
            joker_weight=joker_weight,
            wrap=wrap,
            floor=floor,
        )

    # Crowded tables have thousands of states: step through them as arrays.
    if sum(must) + sum(optional) >= _ARRAYS_FROM:
        return with_arrays()
    total_jokers = must_jokers + optional_jokers
    optional = _placeable(must, optional, total_jokers, wrap)
    no_runs = _id(())
    start: Key = (no_runs, no_runs, no_runs, no_runs, 0, _id(()), _id((0, 0, 0, 0) if wrap else ()))
    steps: list[Step] = [{start: (0, None)}]
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    still = remaining_scores(optional, weights, optional_jokers * joker_weight, top)
    for number in range(1, top + 1):
        for colour in range(4):
            hope = still[(number - 1) * 4 + colour] - floor
            options = _StepOptions(number, colour, must, optional, weights, wrap, top)
            steps.append(_colour_step(steps[-1], colour, options, total_jokers, hope))
            if len(steps[-1]) > _LOOP_STATES:
                return with_arrays()
        steps.append(_group_step(steps[-1], total_jokers))
        if not steps[-1]:
            return None
    best_key = None
    best_score = floor
    for key, (score, _) in steps[-1].items():
        used = key[4]
        if used < must_jokers or any(run[:2] != (3, True) for ident in key[:4] for run in _runs_of(ident)):
            continue
        final = score + (used - must_jokers) * joker_weight
        if final > best_score:
            best_key, best_score = key, final
    if best_key is None:
        return None
    return Arrangement(_rebuild(steps, best_key), best_score)


class _StepOptions:
    """The choices open to one colour at one number, by its open runs, the
    jokers left and (for the wrapped 1) the 1s it kept back; each with the
    1s it keeps back, the score it gains and the jokers it uses."""

    def __init__(
        self,
        number: int,
        colour: int,
        must: Sequence[int],
        optional: Sequence[int],
        weights: Sequence[int],
        wrap: bool,
        top: int,
    ) -> None:
        self.number = number
        self.wrap = wrap
        self.last = number == top
        self.wrapped = number == WRAPPED_ONE
        face = _face(colour, 1 if self.wrapped else number)
        self.held_must, self.held_optional = must[face], optional[face]
        self.ahead = _distance_to_next(must, optional, colour, number, top)
        self.next_one = _held(must, optional, colour, number + 1, top)
        self.next_two = _held(must, optional, colour, number + 2, top)
        self.keeps = range(self.held_must + self.held_optional + 1) if wrap and number == 1 else range(1)
        self.weight = weights[face]
        self.cache: dict[tuple[int, int, int], list[tuple[_Choice, int, int, int]]] = {}

    def get(self, runs_id: int, jokers_left: int, kept: int) -> list[tuple[_Choice, int, int, int]]:
        key = (runs_id, jokers_left, kept)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._compute(_runs_of(runs_id), jokers_left, kept)
        return found

    def _compute(self, runs: ColourRuns, jokers_left: int, kept: int) -> list[tuple[_Choice, int, int, int]]:
        found: list[tuple[_Choice, int, int, int]] = []
        if self.wrapped:
            # Only the 1s kept back may follow a 13, each ending a run.
            for choice in _colour_choices(runs, kept, 0, jokers_left, True, False, 99):
                if choice.to_groups == 0 and not any(run[2] and how != "end" for run, how in choice.continued):
                    found.append((choice, kept, 0, 0))
            return found
        first = self.wrap and self.number == 1
        for keep in self.keeps:
            must_here = max(0, self.held_must - keep)
            optional_here = self.held_must + self.held_optional - keep - must_here
            bonus = max(0, keep - self.held_must) * self.weight
            for choice in _colour_choices(runs, must_here, optional_here, jokers_left, self.last, first, self.ahead):
                # Runs shorter than three need tiles (or jokers) at the next numbers.
                later = max(0, choice.short - self.next_one) + max(0, choice.single - self.next_two)
                if choice.jokers + later <= jokers_left:
                    found.append((choice, keep, bonus + choice.optional_used * self.weight, choice.jokers))
        return found


def remaining_scores(optional: Sequence[int], weights: Sequence[int], jokers: int, top: int) -> list[int]:
    """What the optional tiles from each (number, colour) on could still score."""
    still: list[int] = []
    running = jokers
    for number in range(top, 0, -1):
        for colour in range(3, -1, -1):
            if number != WRAPPED_ONE:
                face = _face(colour, number)
                running += optional[face] * weights[face]
            still.append(running)
    still.reverse()
    return still


def _colour_step(step: Step, colour: int, options: _StepOptions, total_jokers: int, hope: int) -> Step:
    """Every state after one colour's choice at one number.

    ``hope``: states whose score plus this cannot beat the floor are dropped
    (the most the tiles not yet reached could still add, minus the floor).
    """
    result: Step = {}
    keeping = options.wrap and options.number == 1
    for key, (score, _) in step.items():
        if score + hope <= 0:
            continue
        used, groups, kept_id = key[4], key[5], key[6]
        kept_here = _ints_of(kept_id)[colour] if options.wrapped else 0
        before, after = key[:colour], key[colour + 1 : 4]
        for choice, keep, gained, jokers in options.get(key[colour], total_jokers - used, kept_here):
            if keeping:
                kept_ones = list(_ints_of(kept_id))
                kept_ones[colour] = keep
                new_kept = _id(tuple(kept_ones))
            else:
                new_kept = kept_id
            new_groups = _grouped(groups, choice.to_groups)
            new_key: Key = (*before, choice.after_id, *after, used + jokers, new_groups, new_kept)  # type: ignore[assignment]
            new_score = score + gained
            previous = result.get(new_key)
            if previous is None or new_score > previous[0]:
                result[new_key] = (new_score, (key, choice, keep))
    return result


_GROUPED: dict[tuple[int, int], int] = {}


def _grouped(groups: int, count: int) -> int:
    """The sorted tile counts sent to groups, once another colour sends ``count``."""
    found = _GROUPED.get((groups, count))
    if found is None:
        found = _GROUPED[(groups, count)] = _id(tuple(sorted((*_ints_of(groups), count))))
    return found


def _placeable(must: Sequence[int], optional: Sequence[int], jokers: int, wrap: bool) -> list[int]:
    """The optional counts without tiles that fit in no set at all (no group
    of their number, no run through them), which the search need not try."""
    held = [must[face] + optional[face] for face in range(len(must))]
    result = list(optional)
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    for colour in range(4):
        for number in range(1, MAX_NUMBER + 1):
            face = _face(colour, number)
            if not optional[face]:
                continue
            colours = sum(1 for other in range(4) if held[_face(other, number)])
            if colours + jokers >= 3:
                continue
            places = [number] + ([WRAPPED_ONE] if wrap and number == 1 else [])
            if any(_run_through(held, colour, place, jokers, top) for place in places):
                continue
            result[face] = 0
    return result


def _run_through(held: Sequence[int], colour: int, place: int, jokers: int, top: int) -> bool:
    """Whether some three numbers in a row through ``place`` can all be filled."""
    for start in range(max(1, place - 2), min(place, top - 2) + 1):
        missing = 0
        for number in range(start, start + 3):
            face = _face(colour, 1 if number == WRAPPED_ONE else number)
            if not held[face]:
                missing += 1
        if missing <= jokers:
            return True
    return False


def _held(must: Sequence[int], optional: Sequence[int], colour: int, number: int, top: int) -> int:
    """Copies of the colour's tile at that number (none past the top)."""
    if number > top:
        return 0
    face = _face(colour, 1 if number == WRAPPED_ONE else number)
    return must[face] + optional[face]


def _distance_to_next(must: Sequence[int], optional: Sequence[int], colour: int, number: int, top: int) -> int:
    """How many numbers after this one the next tile of the colour comes (99: none)."""
    for distance in range(1, top - number + 1):
        later = number + distance
        face = _face(colour, 1 if later == WRAPPED_ONE else later)
        if must[face] or optional[face]:
            return distance
    return 99


def _group_step(step: Step, total_jokers: int) -> Step:
    result: Step = {}
    no_groups = _id(())
    for key, (score, _) in step.items():
        used = key[4]
        to_groups = _ints_of(key[5])
        counts = (to_groups[0], to_groups[1], to_groups[2], to_groups[3])
        for group_jokers in range(total_jokers - used + 1):
            if _group_split(counts, group_jokers) is None:
                continue
            new_key: Key = (key[0], key[1], key[2], key[3], used + group_jokers, no_groups, key[6])
            previous = result.get(new_key)
            if previous is None or score > previous[0]:
                result[new_key] = (score, (key, group_jokers))
    return result


def _rebuild(steps: list[Step], final: Key) -> tuple[Meld, ...]:
    """Walk the back-pointers and lay out the actual sets."""
    path: list[tuple[_Choice, int] | int] = []
    key = final
    for step in reversed(steps[1:]):
        _, back = step[key]
        assert back is not None
        if len(back) == 3:
            path.append((back[1], back[2]))
        else:
            path.append(back[1])
        key = back[0]
    path.reverse()
    return lay_out_path(path)


def lay_out_path(path: Sequence[tuple[_Choice, int] | int]) -> tuple[Meld, ...]:
    """The sets a path makes: per number, each colour's (choice, 1s kept)
    then the jokers put in groups."""
    melds: list[Meld] = []
    open_runs: list[list[tuple[Run, list[Tile], int]]] = [[] for _ in COLOURS]
    per_number = 5  # four colour steps, then the groups
    for index in range(0, len(path), per_number):
        number = index // per_number + 1
        counts = []
        for colour in range(4):
            entry = path[index + colour]
            assert isinstance(entry, tuple)
            choice = entry[0]
            counts.append(choice.to_groups)
            tile = Tile(COLOURS[colour], 1 if number == WRAPPED_ONE else number)
            still_open: list[tuple[Run, list[Tile], int]] = []
            pending = list(open_runs[colour])
            for run, how in choice.continued:
                position = next(i for i, item in enumerate(pending) if item[0] == run)
                _, tiles, start = pending.pop(position)
                length, real, from_one = run
                if how == "end":
                    melds.append(Meld(MeldKind.RUN, tuple(tiles), start, COLOURS[colour]))
                    continue
                tiles.append(tile if how == "tile" else JOKER)
                still_open.append(((min(length + 1, 3), real or how == "tile", from_one), tiles, start))
            for run in choice.started:
                still_open.append((run, [tile if run[1] else JOKER], number))
            open_runs[colour] = still_open
        group_jokers = path[index + 4]
        assert isinstance(group_jokers, int)
        split = _group_split((counts[0], counts[1], counts[2], counts[3]), group_jokers)
        assert split is not None
        for group in split:
            numbered = tuple(Tile(COLOURS[colour], number) for colour in group if colour >= 0)
            melds.append(Meld(MeldKind.GROUP, numbered + (JOKER,) * group.count(-1), number))
    for colour, colour_runs in enumerate(open_runs):
        for _, tiles, start in colour_runs:
            melds.append(Meld(MeldKind.RUN, tuple(tiles), start, COLOURS[colour]))
    return tuple(melds)
