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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..melds import WRAPPED_ONE, Meld, MeldKind
from ..tiles import COLOURS, JOKER, MAX_NUMBER, NUMBERED_TILES, Tile

# Length so far (capped at 3), holds a numbered tile, started at 1 (with wrap
# such a run may not also take the 1 that follows 13).
Run = tuple[int, bool, bool]
ColourRuns = tuple[Run, ...]  # sorted


# The open runs of a colour are named by small ints, packed into the states.
_RUN_IDS: dict[ColourRuns, int] = {}
_RUNS: list[ColourRuns] = []


class Widening(Exception):
    """A name of open runs needs the high bits: states must hold them, so
    the search starts again once :func:`widen` has been called."""


#: Whether states hold the high bits of the runs' names (once some name
#: needs them, for the rest of the process).
_WIDE = [False]


def _run_id(runs: ColourRuns) -> int:
    found = _RUN_IDS.get(runs)
    if found is None:
        if len(_RUNS) > _RUN_MASK and not _WIDE[0]:
            raise Widening
        if len(_RUNS) >= _RUN_LIMIT:
            raise OverflowError("too many kinds of open runs for the packed states")
        found = _RUN_IDS[runs] = len(_RUNS)
        _RUNS.append(runs)
    return found


def _runs_of(ident: int) -> ColourRuns:
    return _RUNS[ident]


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
                    _run_id(after),
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


# A state is one int: each colour's open runs (by name), the jokers used,
# how many colours sent one, two or three tiles to this number's groups, and
# (with wrap) the 1s each colour kept back to follow a 13. Every choice then
# moves a state by a fixed amount, so a step is additions and dict lookups.
#
# A name's low bits lie with the other fields and its high bits far above
# them: names past the first thousand are rare (the six-player set with many
# jokers), and states that fit in 62 bits are much cheaper compiled.
_RUN_BITS = 10
_RUN_MASK = (1 << _RUN_BITS) - 1
_USED_SHIFT = 4 * _RUN_BITS
_HIST_SHIFT = _USED_SHIFT + 4
_HIST_MASK = (1 << 9) - 1
_KEPT_SHIFT = _HIST_SHIFT + 9
_HIGH_BITS = 6
_HIGH_MASK = (1 << _HIGH_BITS) - 1
_HIGH_SHIFT = 1024  # above every field, the keep search's bits too
_RUN_LIMIT = 1 << (_RUN_BITS + _HIGH_BITS)


def runs_in(key: int, colour: int) -> int:
    """The name of a colour's open runs in a state."""
    low = key >> colour * _RUN_BITS & _RUN_MASK
    if not _WIDE[0]:
        return low
    return low | (key >> _HIGH_SHIFT + colour * _HIGH_BITS & _HIGH_MASK) << _RUN_BITS


def runs_field(runs_id: int, colour: int) -> int:
    """A colour's open runs so named, as they lie in a state (the sum of a
    state's fields is the state, so a change of runs moves it by the
    difference of two such fields)."""
    low = (runs_id & _RUN_MASK) << colour * _RUN_BITS
    return low | (runs_id >> _RUN_BITS) << _HIGH_SHIFT + colour * _HIGH_BITS


def no_runs_state() -> int:
    """The state before the first number: no colour has an open run."""
    no_runs = _run_id(())
    return runs_field(no_runs, 0) | runs_field(no_runs, 1) | runs_field(no_runs, 2) | runs_field(no_runs, 3)


def runs_mask(colour: int) -> int:
    """The bits of a state that name a colour's open runs (the high ones
    only once states hold them: masks that reach so far cost every step)."""
    return runs_field(_RUN_LIMIT - 1 if _WIDE[0] else _RUN_MASK, colour)


def is_wide() -> bool:
    return _WIDE[0]


def widen() -> None:
    """Let states hold the high bits of the runs' names: the options worked
    out so far, with their masks, are dropped."""
    _WIDE[0] = True
    _OPTIONS.clear()
    _UNWEIGHED.clear()


# Per step: the best score of each state, the state it came from and the
# choice made (with, after a number's last colour, the jokers put in groups).
Step = dict[int, tuple[int, int, "Back | None"]]


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
    total_jokers = must_jokers + optional_jokers
    optional = _placeable(must, optional, total_jokers, wrap)
    step: Step = {no_runs_state(): (0, -1, None)}
    history: list[tuple[Step, _StepOptions | None]] = [(step, None)]  # then each colour's step
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    still = remaining_scores(optional, weights, optional_jokers * joker_weight, top)
    plan = plan_steps(must, optional, weights, wrap, total_jokers)
    for number in range(1, top + 1):
        for colour in range(4):
            hope = still[(number - 1) * 4 + colour] - floor
            options = plan[(number - 1) * 4 + colour]
            step = _colour_step(step, options, hope, closing=colour == 3)
            history.append((step, options))
        if not step:
            return None
    best_key = -1
    best_score = floor
    closed = [all(run[:2] == (3, True) for run in runs) for runs in _RUNS]
    for key, (score, _, _) in step.items():
        used = key >> _USED_SHIFT & 15
        if used < must_jokers or not (
            closed[runs_in(key, 0)] and closed[runs_in(key, 1)] and closed[runs_in(key, 2)] and closed[runs_in(key, 3)]
        ):
            continue
        final = score + (used - must_jokers) * joker_weight
        if final > best_score:
            best_key, best_score = key, final
    if best_key < 0:
        return None
    return Arrangement(_rebuild(history, best_key), best_score)


def _is_closed(runs_id: int) -> bool:
    """Whether every open run named so is complete (names are made as the
    search goes, so this is asked afresh)."""
    return all(run[:2] == (3, True) for run in _RUNS[runs_id])


def any_layout(must: Sequence[int], jokers: int, *, wrap: bool, budget: list[int]) -> tuple[Meld, ...] | None:
    """Some way to place exactly these tiles (and ``jokers`` jokers) in valid
    sets, found depth first; None if there is none or the search gives up
    once it has visited as many states as ``budget`` holds (which it lowers
    by those it visits, so searches can share it)."""
    path = _layout_path(must, jokers, wrap=wrap, budget=budget)
    return None if path is None else lay_out_path(path)


def layout_exists(must: Sequence[int], jokers: int, *, wrap: bool, budget: list[int]) -> bool:
    """Whether :func:`any_layout` finds a layout (without laying it out)."""
    return _layout_path(must, jokers, wrap=wrap, budget=budget) is not None


def _layout_path(must: Sequence[int], jokers: int, *, wrap: bool, budget: list[int]) -> list[Pick | int] | None:
    """What :func:`any_layout` chooses at each step, if it finds a layout."""
    zeros = [0] * len(must)
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    steps = plan_steps(must, zeros, zeros, wrap, jokers)
    plan: list[_StepOptions | None] = []
    for number in range(top):
        plan.extend(steps[number * 4 : number * 4 + 4])
        plan.append(None)
    failed: set[tuple[int, int]] = set()
    path: list[Pick | int] = []

    def visit(index: int, key: int) -> bool:
        if index == len(plan):
            return key >> _USED_SHIFT & 15 == jokers and all(_is_closed(runs_in(key, colour)) for colour in range(4))
        if (index, key) in failed or budget[0] <= 0:
            return False
        budget[0] -= 1
        options = plan[index]
        if options is None:
            used = key >> _USED_SHIFT & 15
            base = key & ~(_HIST_MASK << _HIST_SHIFT)
            for more in _group_jokers(key >> _HIST_SHIFT & _HIST_MASK, jokers - used):
                path.append(more)
                if visit(index + 1, base + (more << _USED_SHIFT)):
                    return True
                path.pop()
        else:
            for delta, _, pick in options.moves(key & options.mask):
                path.append(pick)
                if visit(index + 1, key + delta):
                    return True
                path.pop()
        failed.add((index, key))
        return False

    return path if visit(0, no_runs_state()) else None


Pick = tuple[_Choice, int]  # a colour's choice and the 1s it keeps back
Move = tuple[int, int, Pick]  # what a choice adds to a state, the score it gains, the choice
# What a step did: the colour's choice, with the jokers put in groups after the last colour.
Back = Pick | tuple[Pick, int]


# One colour at one number: its colour, whether runs started here start at 1
# (with wrap), whether it is the last number, the wrapped 1 after 13, the must
# and optional copies, how far the colour's next tile is, the copies at the two
# next numbers, the weight of a copy, the jokers, and what the later colours
# hold at this number (capped at three, in increasing order: groups take any
# colour alike, so steps that differ only in which later colour holds what
# share their choices).
Signature = tuple[int, bool, bool, bool, int, int, int, int, int, int, int, tuple[int, ...]]


class _StepOptions:
    """The choices open to one colour at one number, by its open runs, the
    jokers left and (for the wrapped 1) the 1s it kept back; each with the
    1s it keeps back, the score it gains and the jokers it uses.

    Steps alike have the same choices: one object serves them all, in every
    search, and keeps what it worked out."""

    def __init__(self, signature: Signature) -> None:
        (
            self.colour,
            self.first,
            self.last,
            self.wrapped,
            self.held_must,
            self.held_optional,
            self.ahead,
            self.next_one,
            self.next_two,
            self.weight,
            self.total_jokers,
            self.rest,
        ) = signature
        self.keeps = range(self.held_must + self.held_optional + 1) if self.first else range(1)
        self.packed: dict[int, list[Move]] = {}
        self.closed: dict[int, list[tuple[int, int, tuple[Pick, int]]]] = {}
        self.fitting: dict[int, bool] = {}
        # What the choices depend on besides the open runs, jokers left and 1s kept.
        self.around = signature[1:9]
        # The choices as moves, placed copies not yet weighed: shared by steps
        # alike but for the weight.
        alike = (*signature[:9], *signature[10:])
        shared = _UNWEIGHED.get(alike)
        if shared is None:
            shared = _UNWEIGHED[alike] = {}
        self.unweighed = shared
        # Options made while states were narrow (in another thread's solve,
        # say) are made again once they are wide, for the mask.
        self.wide = _WIDE[0]
        self.mask = runs_mask(self.colour) | 15 << _USED_SHIFT | _HIST_MASK << _HIST_SHIFT
        if self.wrapped:
            self.mask |= 3 << (_KEPT_SHIFT + 2 * self.colour)

    def fits(self, hist: int, jokers_left: int) -> bool:
        """Whether tiles sent to this number's groups (counted as in a state)
        can still make groups with the later colours' tiles and the jokers left."""
        key = hist << 4 | jokers_left
        found = self.fitting.get(key)
        if found is None:
            found = self.fitting[key] = _completable(hist, self.rest, jokers_left)
        return found

    def moves(self, part: int) -> list[Move]:
        """The choices of a state whose colour runs, jokers used and 1s kept
        are ``part`` (the state masked by ``mask``): each as what it adds to
        the state, the score it gains and the choice."""
        found = self.packed.get(part)
        if found is None:
            unweighed = self.unweighed.get(part)
            if unweighed is None:
                unweighed = self.unweighed[part] = self._moves(part)
            weight = self.weight
            found = self.packed[part] = [(delta, units * weight, pick) for delta, units, pick in unweighed]
        return found

    def closing(self, part: int) -> list[tuple[int, int, tuple[Pick, int]]]:
        """As :meth:`moves` for the last colour of a number, followed by
        making that number's groups: each choice once for every count of
        jokers the groups can take, the state's groups emptied again."""
        found = self.closed.get(part)
        if found is None:
            found = self.closed[part] = []
            for delta, gain, pick in self.moves(part):
                after = part + delta
                hist = after >> _HIST_SHIFT & _HIST_MASK
                used = after >> _USED_SHIFT & 15
                for jokers in _group_jokers(hist, self.total_jokers - used):
                    found.append((delta - (hist << _HIST_SHIFT) + (jokers << _USED_SHIFT), gain, (pick, jokers)))
        return found

    def _moves(self, part: int) -> list[Move]:
        colour = self.colour
        runs_id = runs_in(part, colour)
        used = part >> _USED_SHIFT & 15
        kept_shift = _KEPT_SHIFT + 2 * self.colour
        kept = part >> kept_shift & 3 if self.wrapped else 0
        hist = part >> _HIST_SHIFT & _HIST_MASK
        found = []
        for choice, keep, units, jokers in _choices(self.around, runs_id, self.total_jokers - used, kept):
            after = choice.after_id
            if after <= _RUN_MASK and runs_id <= _RUN_MASK:
                delta = (after - runs_id) << colour * _RUN_BITS  # no high bits, as nearly always
            else:
                delta = runs_field(after, colour) - runs_field(runs_id, colour)
            delta += jokers << _USED_SHIFT
            if choice.to_groups:
                grown = 1 << 3 * (choice.to_groups - 1)
                if not self.fits(hist + grown, self.total_jokers - used - jokers):
                    continue
                delta += grown << _HIST_SHIFT
            elif hist and not self.fits(hist, self.total_jokers - used - jokers):
                continue
            if self.wrapped:
                delta -= kept << kept_shift  # the kept 1s are placed now
            elif self.keeps.stop > 1:
                delta += keep << kept_shift
            found.append((delta, units, (choice, keep)))
        return found


# Steps alike but for the colour, the weight, the jokers and the later
# colours have the same choices: they share them.
_CHOICES: dict[tuple[object, ...], list[tuple[_Choice, int, int, int]]] = {}
_CHOICES_LIMIT = 100_000


def _choices(
    around: tuple[object, ...], runs_id: int, jokers_left: int, kept: int
) -> list[tuple[_Choice, int, int, int]]:
    """Each choice with the 1s it keeps back, the rack copies it places (to
    be weighed) and the jokers it uses; ``around`` as ``_StepOptions.around``."""
    key = (*around, runs_id, jokers_left, kept)
    found = _CHOICES.get(key)
    if found is not None:
        return found
    if len(_CHOICES) >= _CHOICES_LIMIT:
        _CHOICES.clear()
    first, last, wrapped, held_must, held_optional, ahead, next_one, next_two = around
    assert isinstance(held_must, int) and isinstance(held_optional, int)
    assert isinstance(ahead, int) and isinstance(next_one, int) and isinstance(next_two, int)
    runs = _runs_of(runs_id)
    found = []
    if wrapped:
        # Only the 1s kept back may follow a 13, each ending a run.
        for choice in _colour_choices(runs, kept, 0, jokers_left, True, False, 99):
            if choice.to_groups == 0 and not any(run[2] and how != "end" for run, how in choice.continued):
                found.append((choice, kept, 0, 0))
    else:
        for keep in range(held_must + held_optional + 1) if first else range(1):
            must_here = max(0, held_must - keep)
            optional_here = held_must + held_optional - keep - must_here
            bonus = max(0, keep - held_must)
            for choice in _colour_choices(runs, must_here, optional_here, jokers_left, bool(last), bool(first), ahead):
                if choice.to_groups > 3:
                    # A state counts colours sending one to three tiles to a
                    # number's groups: four (only with the six-player set
                    # and a joker standing for the fourth copy) are left out.
                    continue
                # Runs shorter than three need tiles (or jokers) at the next numbers.
                later = max(0, choice.short - next_one) + max(0, choice.single - next_two)
                if choice.jokers + later <= jokers_left:
                    found.append((choice, keep, bonus + choice.optional_used, choice.jokers))
    found = _undominated(found)
    _CHOICES[key] = found
    return found


def _undominated(found: list[tuple[_Choice, int, int, int]]) -> list[tuple[_Choice, int, int, int]]:
    """The choices without those another choice beats outright: the same
    tiles to groups, copies placed, 1s kept and jokers, and open runs after
    that can do all theirs can (see :func:`dominates`)."""
    alike: dict[tuple[int, int, int, int], list[int]] = {}
    for index, (choice, keep, units, jokers) in enumerate(found):
        alike.setdefault((choice.to_groups, keep, units, jokers), []).append(index)
    dropped: set[int] = set()
    for indexes in alike.values():
        for index in indexes:
            after = found[index][0].after_id
            for other in indexes:
                if other == index or other in dropped:
                    continue
                other_after = found[other][0].after_id
                # Of two choices leading to the same runs, the first is kept.
                if (other_after == after and other < index) or dominates(other_after, after):
                    dropped.add(index)
                    break
    return [item for index, item in enumerate(found) if index not in dropped]


_DOMINATES: dict[tuple[int, int], bool] = {}


def dominates(stronger: int, weaker: int) -> bool:
    """Whether a colour with the open runs named ``stronger`` can do all that
    one with ``weaker`` can, and they differ: each weaker run matched by a
    run at least as long, holding a numbered tile if it does, free to take
    the 1 after 13 if it is, and the runs left over complete (they can end
    at the next number)."""
    key = (stronger, weaker)
    found = _DOMINATES.get(key)
    if found is None:
        found = _DOMINATES[key] = stronger != weaker and _matches(list(_runs_of(stronger)), _runs_of(weaker))
    return found


def _matches(stronger: list[Run], weaker: Sequence[Run]) -> bool:
    if not weaker:
        return all(length == 3 and real for length, real, _ in stronger)
    length, real, from_one = weaker[0]
    for index, (other_length, other_real, other_from_one) in enumerate(stronger):
        if (
            other_length >= length
            and (other_real or not real)
            and (from_one or not other_from_one)
            and _matches(stronger[:index] + stronger[index + 1 :], weaker[1:])
        ):
            return True
    return False


_OPTIONS: dict[Signature, _StepOptions] = {}
_UNWEIGHED: dict[tuple[object, ...], dict[int, list[Move]]] = {}
_OPTIONS_LIMIT = 12000


def plan_steps(
    must: Sequence[int], optional: Sequence[int], weights: Sequence[int], wrap: bool, total_jokers: int
) -> list[_StepOptions]:
    """The options of each colour at each number, in the order searched."""
    if len(_OPTIONS) >= _OPTIONS_LIMIT:
        _OPTIONS.clear()
        _UNWEIGHED.clear()
    get = _OPTIONS.get
    wide = _WIDE[0]
    found: list[_StepOptions] = []
    for signature in step_signatures(must, optional, weights, wrap, total_jokers):
        options = get(signature)
        if options is None or options.wide is not wide:
            options = _OPTIONS[signature] = _StepOptions(signature)
        found.append(options)
    return found


def options_for(signature: Signature) -> _StepOptions:
    """The options of the step so described, shared with every step alike."""
    options = _OPTIONS.get(signature)
    if options is None or options.wide is not _WIDE[0]:
        if len(_OPTIONS) >= _OPTIONS_LIMIT:
            _OPTIONS.clear()
            _UNWEIGHED.clear()
        options = _OPTIONS[signature] = _StepOptions(signature)
    return options


def step_signatures(
    must: Sequence[int], optional: Sequence[int], weights: Sequence[int], wrap: bool, total_jokers: int
) -> list[Signature]:
    """What each colour's choices at each number depend on, in the order searched."""
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    # held[colour][number] for numbers 1 to top, with room for two past it.
    held = []
    for colour in range(4):
        faces = range(colour * MAX_NUMBER, (colour + 1) * MAX_NUMBER)
        row = [0, *(must[face] + optional[face] for face in faces)]
        if wrap:
            row.append(row[1])
        held.append([*row, 0, 0])
    reach = total_jokers + 1  # a run of jokers alone reaches no farther than the jokers
    ahead = []
    for colour in range(4):
        row = held[colour]
        distances = [reach] * (top + 1)
        following = 0
        for number in range(top, 0, -1):
            if following:
                distances[number] = min(following - number, reach)
            if row[number]:
                following = number
        ahead.append(distances)
    found: list[Signature] = []
    for number in range(1, top + 1):
        wrapped = number == WRAPPED_ONE
        first = wrap and number == 1
        last = number == top
        capped = [min(3, held[colour][number]) for colour in range(4)]
        for colour in range(4):
            face = colour * MAX_NUMBER + (0 if wrapped else number - 1)
            found.append(
                (
                    colour,
                    first,
                    last,
                    wrapped,
                    must[face],
                    optional[face],
                    ahead[colour][number],
                    held[colour][number + 1],
                    held[colour][number + 2],
                    weights[face],
                    total_jokers,
                    () if wrapped else tuple(sorted(capped[colour + 1 :])),
                )
            )
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


def _colour_step(step: Step, options: _StepOptions, hope: int, *, closing: bool = False) -> Step:
    """Every state after one colour's choice at one number (and, ``closing``,
    the groups of that number made).

    ``hope``: states whose score plus this cannot beat the floor are dropped
    (the most the tiles not yet reached could still add, minus the floor).
    """
    mask = options.mask
    moves: Callable[[int], Sequence[tuple[int, int, Back]]] = options.closing if closing else options.moves
    table = {part: moves(part) for part in {key & mask for key in step}}
    if all(len(found) == 1 and not found[0][0] and not found[0][1] for found in table.values()) and all(
        score + hope > 0 for score, _, _ in step.values()
    ):
        # Every state's only choice leaves it as it is and gains nothing (a
        # colour with no tile and no open run here): the step is the previous one.
        return step
    result: Step = {}
    get = result.get
    for key, (score, _, _) in step.items():
        if score + hope <= 0:
            continue
        for delta, gain, pick in table[key & mask]:
            new_key = key + delta
            new_score = score + gain
            previous = get(new_key)
            if previous is None or new_score > previous[0]:
                result[new_key] = (new_score, key, pick)
    return result


def _placeable(must: Sequence[int], optional: Sequence[int], jokers: int, wrap: bool) -> list[int]:
    """The optional counts without tiles that fit in no set at all (no group
    of their number, no run through them), which the search need not try."""
    result = list(optional)
    if jokers >= 2:
        return result  # any tile makes a set with two jokers
    held = [must[face] + optional[face] for face in range(len(must))]
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    for face in range(4 * MAX_NUMBER):
        if not optional[face]:
            continue
        colour, offset = divmod(face, MAX_NUMBER)
        colours = 0
        for other in (offset, offset + MAX_NUMBER, offset + 2 * MAX_NUMBER, offset + 3 * MAX_NUMBER):
            if held[other]:
                colours += 1
        if colours + jokers >= 3:
            continue
        number = offset + 1
        if _run_through(held, colour, number, jokers, top):
            continue
        if wrap and number == 1 and _run_through(held, colour, WRAPPED_ONE, jokers, top):
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


#: For each count of colours sending one, two or three tiles to a number's
#: groups (as packed in a state), the joker counts with which they form groups.
_GROUP_JOKERS: dict[int, list[int]] = {}


def _group_jokers(hist: int, total_jokers: int) -> list[int]:
    found = _GROUP_JOKERS.get(hist)
    if found is None:
        counts = [count for count in (1, 2, 3) for _ in range(hist >> 3 * (count - 1) & 7)]
        counts += [0] * (4 - len(counts))
        found = _GROUP_JOKERS[hist] = [
            jokers
            for jokers in range(9)
            if _group_split((counts[0], counts[1], counts[2], counts[3]), jokers) is not None
        ]
    return [jokers for jokers in found if jokers <= total_jokers]


_COMPLETABLE: dict[tuple[int, tuple[int, ...], int], bool] = {}


def _completable(hist: int, rest: tuple[int, ...], jokers_left: int) -> bool:
    """Whether colours sending these counts to groups (as packed in a state),
    with later colours sending up to ``rest`` tiles each, can make groups
    with at most ``jokers_left`` jokers."""
    key = (hist, rest, jokers_left)
    found = _COMPLETABLE.get(key)
    if found is None:
        sent = [count for count in (1, 2, 3) for _ in range(hist >> 3 * (count - 1) & 7)]
        found = False
        for more in itertools.product(*(range(held + 1) for held in rest)):
            counts = sorted([*sent, *(count for count in more if count)], reverse=True)
            if len(counts) > 4:
                continue
            counts += [0] * (4 - len(counts))
            if any(
                _group_split((counts[0], counts[1], counts[2], counts[3]), jokers) is not None
                for jokers in range(jokers_left + 1)
            ):
                found = True
                break
        _COMPLETABLE[key] = found
    return found


def _rebuild(history: list[tuple[Step, _StepOptions | None]], final: int) -> tuple[Meld, ...]:
    """Walk the back-pointers and lay out the actual sets."""
    return lay_out_path(_path(history, final))


def _path(history: list[tuple[Step, _StepOptions | None]], final: int) -> list[tuple[_Choice, int] | int]:
    """The choices that led to a state (``history`` starts with the first
    states, then each colour's step: its states and options)."""
    path: list[tuple[_Choice, int] | int] = []
    key = final
    for index in range(len(history) - 1, 0, -1):
        step, options = history[index]
        assert options is not None
        closing = options.colour == 3
        found: Back | None
        if step is history[index - 1][0]:
            # A step that changed nothing: the state made its only choice.
            mask = options.mask
            found = (options.closing(key & mask) if closing else options.moves(key & mask))[0][2]
        else:
            _, key, found = step[key]
        assert found is not None
        first, second = found
        if isinstance(first, _Choice):
            path.append((first, second))
        else:
            path.append(second)  # the jokers put in groups
            path.append(first)
    path.reverse()
    return path


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
            tile = NUMBERED_TILES[colour * MAX_NUMBER + (0 if number == WRAPPED_ONE else number - 1)]
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
            numbered = tuple(NUMBERED_TILES[colour * MAX_NUMBER + number - 1] for colour in group if colour >= 0)
            melds.append(Meld(MeldKind.GROUP, numbered + (JOKER,) * group.count(-1), number))
    for colour, colour_runs in enumerate(open_runs):
        for _, tiles, start in colour_runs:
            melds.append(Meld(MeldKind.RUN, tuple(tiles), start, COLOURS[colour]))
    return tuple(melds)


def forget() -> None:
    """Drop everything searches share, as in a fresh process (names of open
    runs included): for tests of what a first search meets."""
    _RUN_IDS.clear()
    _RUNS.clear()
    _colour_choices.cache_clear()
    _CHOICES.clear()
    _DOMINATES.clear()
    _OPTIONS.clear()
    _UNWEIGHED.clear()
