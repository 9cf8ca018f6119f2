"""What the layer searches share: the states, each colour's choices at a
number, and the tables of them that one rule set's searches build up.

A state is one int (its fields below), so that every choice moves a state by
a fixed amount and a step is additions and dictionary look-ups.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

from ..melds import WRAPPED_ONE
from ..rules import Rules
from ..tiles import COLOURS, MAX_NUMBER


class Run(NamedTuple):
    """An open run of one colour."""

    length: int  # so far, capped at 3
    real: bool  # holds a numbered tile
    from_one: bool  # started at 1: with wrap it may not also take the 1 after 13


ColourRuns = tuple[Run, ...]  # sorted

# A colour holds at most three copies of a tile and there are at most four
# jokers, so at most seven runs are open in it, each of twelve kinds: fewer
# than 2**16 ways, which a name's field always holds.
RUN_BITS = 16
RUN_MASK = (1 << RUN_BITS) - 1
USED_SHIFT = 4 * RUN_BITS
HIST_SHIFT = USED_SHIFT + 4
HIST_MASK = (1 << 9) - 1
KEPT_SHIFT = HIST_SHIFT + 9
#: Past the 1s kept back (two bits a colour), the fewest-changes search's bits.
KEEP_SHIFT = KEPT_SHIFT + 8


def runs_in(key: int, colour: int) -> int:
    """The name of a colour's open runs in a state."""
    return key >> colour * RUN_BITS & RUN_MASK


def jokers_used(key: int) -> int:
    return key >> USED_SHIFT & 15


@dataclass(frozen=True, slots=True)
class Choice:
    """What one colour does at one number."""

    to_groups: int  # numbered tiles sent to the groups of this number
    optional_used: int  # rack copies placed
    jokers: int  # jokers used in runs
    continued: tuple[tuple[Run, str], ...]  # for each open run: "tile", "joker" or "end"
    started: tuple[Run, ...]  # new runs (started with a numbered tile when run.real)
    short: int  # runs left open with fewer than three tiles
    single: int  # runs left open with one tile
    after_id: int  # the name of the runs open after it


#: Per state: its score, the state it came from and what was done (a
#: colour's pick, or which sets were kept), as plain tuples.
Layer = dict[int, tuple[int, int, object]]

#: Makes a named tuple as a plain tuple is made (its own constructor is slower).
new_tuple = tuple.__new__

#: What a step did: a colour's choice, with after a number's last colour the
#: jokers put in that number's groups.
Pick = Choice | tuple[Choice, int]
#: A choice as a step makes it: what it adds to a state, the score it gains
#: and the pick (plain tuples: searches make and unpack them by the thousand).
Move = tuple[int, int, Pick]


#: A choice with the 1s it keeps back, the rack copies it places (not yet
#: weighed) and the jokers it uses in runs.
Option = tuple[Choice, int, int, int]


class Around(NamedTuple):
    """What a colour's choices at one number depend on, besides its open
    runs, the jokers left and the 1s it kept back."""

    first: bool  # with wrap, the number 1: runs started here start at 1
    last: bool  # no new run can start
    wrapped: bool  # the 1 after 13 (with wrap)
    must: int  # copies here that must be placed
    optional: int  # copies here that may be
    ahead: int  # how many numbers on the colour's next tile is
    next_one: int  # copies at the next number
    next_two: int  # and at the one after


class StepSignature(NamedTuple):
    """One colour at one number, as far as its choices go: its colour, what
    is :class:`Around` it (the fields between), the weight of a rack copy,
    the jokers, and what the later colours hold at this number (capped at
    three, in increasing order: groups take any colour alike, so steps that
    differ only in which later colour holds what share their choices)."""

    colour: int
    first: bool
    last: bool
    wrapped: bool
    must: int
    optional: int
    ahead: int
    next_one: int
    next_two: int
    weight: int
    total_jokers: int
    later: tuple[int, ...]


class StepOptions:
    """The choices open to one colour at one number, by its open runs, the
    jokers used and (for the wrapped 1) the 1s it kept back, as moves.

    Steps alike have the same choices: one object serves them all, in every
    search with the same tables, and keeps what it worked out."""

    def __init__(self, tables: SolverTables, signature: StepSignature) -> None:
        self.tables = tables
        self.colour, self.weight, self.total_jokers, self.later = signature[0], *signature[9:]
        self.around = new_tuple(Around, signature[1:9])
        self.packed: dict[int, list[Move]] = {}
        self.closed: dict[int, list[Move]] = {}
        # The moves with placed copies not yet weighed, shared by steps alike but for the weight.
        self.unweighed = tables.unweighed_moves(new_tuple(StepSignature, (*signature[:9], 0, *signature[10:])))
        self.mask = RUN_MASK << self.colour * RUN_BITS | 15 << USED_SHIFT | HIST_MASK << HIST_SHIFT
        if self.around.wrapped:
            self.mask |= 3 << (KEPT_SHIFT + 2 * self.colour)

    def moves(self, part: int) -> list[Move]:
        """The moves of a state whose colour runs, jokers used and 1s kept
        are ``part`` (the state masked by ``mask``)."""
        found = self.packed.get(part)
        if found is None:
            unweighed = self.unweighed.get(part)
            if unweighed is None:
                unweighed = self.unweighed[part] = self._moves(part)
            weight = self.weight
            found = self.packed[part] = [(delta, units * weight, pick) for delta, units, pick in unweighed]
        return found

    def closing(self, part: int) -> list[Move]:
        """As :meth:`moves` for the last colour of a number, followed by
        making that number's groups: each choice once for every count of
        jokers the groups can take, the state's groups emptied again."""
        found = self.closed.get(part)
        if found is None:
            # Filled before it is shared: solves in other threads may ask for it meanwhile.
            found = []
            for delta, gain, pick in self.moves(part):
                after = part + delta
                hist = after >> HIST_SHIFT & HIST_MASK
                for jokers in group_jokers(hist, self.total_jokers - jokers_used(after)):
                    found.append(
                        (delta - (hist << HIST_SHIFT) + (jokers << USED_SHIFT), gain, (cast(Choice, pick), jokers))
                    )
            self.closed[part] = found
        return found

    def _moves(self, part: int) -> list[Move]:
        colour = self.colour
        runs_id = runs_in(part, colour)
        used = jokers_used(part)
        kept_shift = KEPT_SHIFT + 2 * colour
        wrapped = self.around.wrapped
        kept = part >> kept_shift & 3 if wrapped else 0
        hist = part >> HIST_SHIFT & HIST_MASK
        found: list[Move] = []
        for choice, keep, units, jokers in self.tables.choices(self.around, runs_id, self.total_jokers - used, kept):
            delta = (choice.after_id - runs_id) << colour * RUN_BITS
            delta += jokers << USED_SHIFT
            if choice.to_groups:
                grown = 1 << 3 * (choice.to_groups - 1)
                if not completable(hist + grown, self.later, self.total_jokers - used - jokers):
                    continue
                delta += grown << HIST_SHIFT
            elif hist and not completable(hist, self.later, self.total_jokers - used - jokers):
                continue
            if wrapped:
                delta -= kept << kept_shift  # the kept 1s are placed now
            elif keep:
                delta += keep << kept_shift
            found.append((delta, units, choice))
        return found


class SolverTables:
    """What the searches of one rule set work out once and share: the names
    of open runs, each colour's choices, and each step's options. The caches
    are bounded, so a long-running process keeps what it uses most."""

    def __init__(self) -> None:
        self._ids: dict[ColourRuns, int] = {}
        self._naming = threading.Lock()
        self.runs: list[ColourRuns] = []
        #: Per name: whether every run so named is complete (may end here).
        self.closed: list[bool] = []
        self.options_for = functools.lru_cache(12_000)(functools.partial(StepOptions, self))
        self.unweighed_moves: Callable[[StepSignature], dict[int, list[Move]]] = functools.lru_cache(12_000)(
            lambda _: {}
        )
        self.choices = functools.lru_cache(100_000)(self._choices)
        self._colour_choices = functools.lru_cache(100_000)(self._colour_choices_uncached)
        self.dominates = functools.lru_cache(100_000)(self._dominates)
        self.no_runs = sum(self.name(()) << colour * RUN_BITS for colour in range(4))

    def name(self, runs: ColourRuns) -> int:
        found = self._ids.get(runs)
        if found is None:
            # Solves in several threads may share the tables: a name is its
            # place in the lists, so it is made under a lock.
            with self._naming:
                found = self._ids.get(runs)
                if found is None:
                    if len(self.runs) > RUN_MASK:
                        raise OverflowError("more kinds of open runs than a state can name")
                    self.runs.append(runs)
                    self.closed.append(all(run.length == 3 and run.real for run in runs))
                    found = self._ids[runs] = len(self.runs) - 1
        return found

    def all_closed(self, key: int) -> bool:
        """Whether every colour's open runs in a state are complete."""
        closed = self.closed
        return (
            closed[runs_in(key, 0)] and closed[runs_in(key, 1)] and closed[runs_in(key, 2)] and closed[runs_in(key, 3)]
        )

    def _choices(self, around: Around, runs_id: int, jokers_left: int, kept: int) -> list[Option]:
        """Each choice of a colour with these open runs, jokers left and 1s
        kept back, less those another beats outright."""
        runs = self.runs[runs_id]
        found = []
        if around.wrapped:
            # Only the 1s kept back may follow a 13, each ending a run.
            for choice in self._colour_choices(runs, kept, 0, jokers_left, True, False, 99):
                if choice.to_groups == 0 and not any(run.from_one and how != "end" for run, how in choice.continued):
                    found.append((choice, kept, 0, 0))
        else:
            held_must, held = around.must, around.must + around.optional
            for keep in range(held + 1) if around.first else range(1):
                must_here = max(0, held_must - keep)
                optional_here = held - keep - must_here
                bonus = max(0, keep - held_must)
                for choice in self._colour_choices(
                    runs, must_here, optional_here, jokers_left, around.last, around.first, around.ahead
                ):
                    if choice.to_groups > 3:
                        continue  # a state counts colours sending one to three tiles to groups
                    # Runs shorter than three need tiles (or jokers) at the next numbers.
                    later = max(0, choice.short - around.next_one) + max(0, choice.single - around.next_two)
                    if choice.jokers + later <= jokers_left:
                        found.append((choice, keep, bonus + choice.optional_used, choice.jokers))
        return self._undominated(found)

    def _undominated(self, found: list[Option]) -> list[Option]:
        """The choices without those another choice beats outright: the same
        tiles to groups, copies placed, 1s kept and jokers, and open runs after
        that can do all theirs can (see :meth:`dominates`)."""
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
                    if (other_after == after and other < index) or self.dominates(other_after, after):
                        dropped.add(index)
                        break
        return [item for index, item in enumerate(found) if index not in dropped]

    def _dominates(self, stronger: int, weaker: int) -> bool:
        """Whether a colour with the open runs named ``stronger`` can do all
        that one with ``weaker`` can, and they differ: each weaker run matched
        by a run at least as long, holding a numbered tile if it does, free to
        take the 1 after 13 if it is, and the runs left over complete (they
        can end at the next number)."""
        return stronger != weaker and _matches(list(self.runs[stronger]), self.runs[weaker])

    def _colour_choices_uncached(
        self, runs: ColourRuns, must: int, optional: int, jokers: int, last: bool, first: bool, ahead: int
    ) -> tuple[Choice, ...]:
        """Every way one colour can use its tiles at one number (``last``,
        ``first`` and ``ahead`` as in :class:`Around`)."""
        choices: list[Choice] = []
        for used in range(optional + 1):
            self._extend(runs, 0, must + used, jokers, [], used, (last, first, ahead), choices)
        return tuple(choices)

    def _extend(
        self,
        runs: ColourRuns,
        index: int,
        tiles: int,
        jokers: int,
        decisions: list[tuple[Run, str]],
        used: int,
        where: tuple[bool, bool, int],
        out: list[Choice],
    ) -> None:
        if index == len(runs):
            # Every open run is decided: new runs may start.
            last, first, ahead = where
            continuing = [
                Run(min(run.length + 1, 3), run.real or how == "tile", run.from_one)
                for run, how in decisions
                if how != "end"
            ]
            jokers_in_runs = sum(how == "joker" for _, how in decisions)
            joker_starts = 0 if last else jokers // ahead if ahead else 0
            for with_tile in range(1 if last else tiles + 1):
                for with_joker in range(joker_starts + 1):
                    new_runs = [Run(1, True, first)] * with_tile + [Run(1, False, first)] * with_joker
                    after = tuple(sorted([*continuing, *new_runs]))
                    out.append(
                        Choice(
                            tiles - with_tile,
                            used,
                            jokers_in_runs + with_joker,
                            tuple(decisions),
                            tuple(new_runs),
                            sum(run.length < 3 for run in after),
                            sum(run.length == 1 for run in after),
                            self.name(after),
                        )
                    )
            return
        run = runs[index]
        if run.length == 3 and run.real:
            self._extend(runs, index + 1, tiles, jokers, [*decisions, (run, "end")], used, where, out)
        if tiles > 0:
            self._extend(runs, index + 1, tiles - 1, jokers, [*decisions, (run, "tile")], used, where, out)
        # A run of jokers alone must still reach a numbered tile.
        if jokers > 0 and (run.real or jokers >= where[2]):
            self._extend(runs, index + 1, tiles, jokers - 1, [*decisions, (run, "joker")], used, where, out)


@functools.lru_cache(maxsize=8)
def tables_for(rules: Rules) -> SolverTables:
    """The tables the searches under these rules share."""
    return SolverTables()


def _matches(stronger: list[Run], weaker: Sequence[Run]) -> bool:
    if not weaker:
        return all(run.length == 3 and run.real for run in stronger)
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


@functools.cache
def group_split(counts: tuple[int, ...], jokers: int) -> tuple[tuple[int, ...], ...] | None:
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
                    tail = group_split(tuple(rest), jokers - joker_count)
                    if tail is not None:
                        return ((*chosen, *(-1,) * joker_count), *tail)
    return None


def _sent(hist: int) -> list[int]:
    """The counts of tiles the colours sent to a number's groups, as packed
    in a state (how many colours sent one, two or three)."""
    return [count for count in (1, 2, 3) for _ in range(hist >> 3 * (count - 1) & 7)]


@functools.cache
def group_jokers(hist: int, total_jokers: int) -> tuple[int, ...]:
    """The joker counts (at most ``total_jokers``) with which the tiles sent
    to a number's groups (as packed in a state) form groups."""
    counts = (*_sent(hist), 0, 0, 0, 0)[:4]
    return tuple(jokers for jokers in range(total_jokers + 1) if group_split(counts, jokers) is not None)


@functools.cache
def completable(hist: int, later: tuple[int, ...], jokers_left: int) -> bool:
    """Whether colours sending these counts to groups (as packed in a state),
    with later colours sending up to ``later`` tiles each, can make groups
    with at most ``jokers_left`` jokers."""
    sent = _sent(hist)
    for more in itertools.product(*(range(held + 1) for held in later)):
        counts = sorted([*sent, *(count for count in more if count)], reverse=True)
        if len(counts) > 4:
            continue
        counts += [0] * (4 - len(counts))
        if any(group_split(tuple(counts), jokers) is not None for jokers in range(jokers_left + 1)):
            return True
    return False


@functools.cache
@functools.cache
def windows(face: int, top: int) -> tuple[tuple[int, int], ...]:
    """The other two faces of each three tiles that hold this one in a set:
    two other colours of its number, or two neighbours in a run."""
    colour, offset = divmod(face, MAX_NUMBER)
    others = [other * MAX_NUMBER + offset for other in range(len(COLOURS)) if other != colour]
    found = list(itertools.combinations(others, 2))
    for place in [offset + 1, WRAPPED_ONE] if top == WRAPPED_ONE and not offset else [offset + 1]:
        for start in range(max(1, place - 2), min(place, top - 2) + 1):
            one, two = (colour * MAX_NUMBER + (at - 1) % MAX_NUMBER for at in range(start, start + 3) if at != place)
            found.append((one, two))
    return tuple(found)
