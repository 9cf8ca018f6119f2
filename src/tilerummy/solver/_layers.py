"""The layer search: the best way to lay tiles out in sets, number by number.

Between two numbers only a little is remembered (a state, see :mod:`._tables`),
so keeping the best score per state over the numbers is exact. The same walk
keeps or breaks up old sets when it reaches them (see :mod:`._keep`): a play
then scores its rack weight times one more than the number of old sets, plus
the sets it keeps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import cast

from ..melds import WRAPPED_ONE, Meld, MeldKind
from ..tiles import COLOURS, JOKER, MAX_NUMBER, NUMBERED_TILES, Tile
from ._keep import NO_FACES, KeepPlan, Kept, KeptSet, set_aside
from ._search import JOKER_INDEX
from ._tables import (
    Choice,
    Layer,
    Move,
    Pick,
    Run,
    SolverTables,
    StepOptions,
    StepSignature,
    group_split,
    jokers_used,
    new_tuple,
    windows,
)


@dataclass(frozen=True, slots=True)
class Problem:
    """What a layer search lays out, by face (the joker last): ``must``
    copies have to be placed, ``optional`` ones may be, each scoring its
    weight; ``must_jokers`` have to be placed (jokers freed from the table),
    ``optional_jokers`` may be (the rack's), each scoring the joker's weight."""

    must: Sequence[int]
    optional: Sequence[int]
    weights: Sequence[int]
    must_jokers: int
    optional_jokers: int
    wrap: bool

    @property
    def total_jokers(self) -> int:
        return self.must_jokers + self.optional_jokers


class LayerSearch:
    """The search for the play that places every must copy, scores at least
    ``score`` and keeps the most old sets, set up once and run for as many
    kept sets as wanted. ``ways``: per old set, the ways to keep it (none to
    search for the best score alone); ``kept_jokers``: the faces the jokers
    that keep their meaning stand for, which kept sets' jokers may take;
    ``width``: see :attr:`width`."""

    def __init__(
        self,
        problem: Problem,
        tables: SolverTables,
        ways: Sequence[Sequence[KeptSet]] = (),
        kept_jokers: Counter[int] = NO_FACES,
        score: int = 0,
        width: int | None = None,
        past: Sequence[int] | None = None,
        peaks: list[int] | None = None,
    ) -> None:
        self.tables = tables
        #: Filled by a search without sets to keep, when given: per number
        #: (1 up), the most any state scored once past it.
        self.peaks = peaks
        #: How many states a step may keep on average (None: all; see
        #: :meth:`stepwise`); past it, the best scoring so far go on, and
        #: ``cut`` tells the play may not be the best.
        self.width = width
        self.cut = False
        self.scale = len(ways) + 1
        self.score = score
        self.offset = 0  # what a play scores besides what the search counts
        must, weights, wrap = problem.must, problem.weights, problem.wrap
        total_jokers = problem.total_jokers
        self.must_jokers = problem.must_jokers
        optional = placeable(must, problem.optional, total_jokers, wrap)
        slack = sum(weight * count for weight, count in zip(weights, optional, strict=False)) - score
        slack += problem.optional_jokers * weights[JOKER_INDEX]
        optional_jokers = problem.optional_jokers
        if not slack:
            # Only placing every rack tile that fits somewhere scores enough:
            # they are all must copies, and the search need not try leaving any out.
            must = [held + extra for held, extra in zip(must, optional, strict=True)]
            optional = [0] * len(optional)
            self.must_jokers, optional_jokers = total_jokers, 0
            self.score, self.offset = 0, score
        self.plan = KeepPlan(ways, kept_jokers, total_jokers)
        self.breaks = self.plan.breaks_ahead(must, optional, weights, total_jokers, slack, wrap)
        #: At least this many old sets are broken up by any play it finds.
        self.fewest_broken = len(ways) - len(self.plan.sets) + self.breaks[0]
        self.joker_weight = weights[JOKER_INDEX] * self.scale
        top = WRAPPED_ONE if wrap else MAX_NUMBER
        # A rack copy weighs ``scale`` times its weight (searches alike but
        # for that still share their choices, unweighed).
        weights = [weight * self.scale for weight in weights]
        self.signatures = step_signatures(must, optional, weights, wrap, total_jokers)
        self.still = remaining_scores(optional, weights, optional_jokers * self.joker_weight, top)
        if past is not None and any(optional):
            # What the rack tiles past each number may add, at most: no more
            # than ``past`` tells (unscaled) and the jokers.
            self.still = tightened(self.still, past, optional_jokers * self.joker_weight, self.scale, top)
        # Per step, the options for each pattern of kept sets around it.
        self.options: list[dict[int, StepOptions]] = [{} for _ in self.signatures]
        # The steps in order, as (number, colour), colour -1 to decide the
        # sets beginning at that number; and the most each state could still
        # add from there (before deciding, those sets may all be kept).
        self.steps: list[tuple[int, int]] = []
        self.hopes: list[int] = []
        plan = self.plan
        if not plan.sets:  # nothing to decide: a step hopes for the rack tiles still to come
            self.steps, self.hopes = _COLOUR_STEPS[top], self.still
        for number in range(1, top + 1 if plan.sets else 1):
            ahead = plan.undecided_after[number] - self.breaks[number] if number <= MAX_NUMBER else 0
            if number in plan.deciding or number in plan.clearing:
                self.steps.append((number, -1))
                self.hopes.append(
                    self.still[(number - 1) * 4] + plan.undecided_after[number - 1] - self.breaks[number - 1]
                )
            for colour in range(4):
                self.steps.append((number, colour))
                self.hopes.append(self.still[(number - 1) * 4 + colour] + ahead)

    def run(self, keep: int = 0) -> Kept | None:
        """The play keeping at least ``keep`` sets that keeps the most (and
        scores best), or None if there is none."""
        return run_out(self.stepwise(keep))

    def stepwise(self, keep: int) -> Generator[int, None, Kept | None]:
        """As :meth:`run`, one step at a time: yields how many states each
        step left, so that searches can take turns; returns the play."""
        floor = self.score * self.scale + keep - 1
        first: Layer = {self.tables.no_runs: (0, -1, None)}
        step = first
        history: list[Layer] = []
        # The states all steps may keep, ``width`` each on average: a step
        # keeps up to four times as many while the steps before left room.
        room = None if self.width is None else self.width * len(self.steps)
        for position, (number, colour) in enumerate(self.steps):
            # A state goes on only if what it could still add (the rack tiles
            # from here on, a point for each set not yet reached that need
            # not be broken up) may lift it past the floor.
            if colour < 0:
                # The states after deciding count only the sets decided later.
                step = self.plan.decide(step, number, self.hopes[position + 1] - floor)
            else:
                step = self._colour_step(step, position, self.hopes[position] - floor)
            if room is not None:
                width = self.width or 0
                if len(step) > width and (len(step) > SPIKE * width or len(step) > room):
                    self.cut = True
                    step = _best_states(step, width)
                room -= len(step)
            history.append(step)
            if self.peaks is not None and colour == 3:
                self.peaks.append(max((entry[0] for entry in step.values()), default=0))
            yield len(step)
            if not step:
                return None
        return self._best(first, history, floor)

    def options_for(self, index: int, key: int) -> StepOptions:
        """The options of a step for a state, the tiles of the kept sets it
        has decided on set aside (here and at the next two numbers, which the
        choices look ahead to)."""
        around = self.plan.around[index]
        kept = key & around[3]
        options = self.options[index].get(kept)
        if options is None:
            signature = set_aside(self.signatures[index], kept, around) if kept else self.signatures[index]
            options = self.options[index][kept] = self.tables.options_for(signature)
        return options

    def depends_on(self, index: int) -> int:
        """The bits of a state its moves at this step depend on: its kept
        sets around the step and its part (the same mask for every kept pattern)."""
        return self.plan.around[index][3] | self.options_for(index, 0).mask

    def moves(self, index: int, key: int) -> list[Move]:
        """A state's moves at this step (after a number's last colour, with
        its groups made), shared with every step alike."""
        options = self.options_for(index, key)
        part = key & options.mask
        return options.closing(part) if index % 4 == 3 else options.moves(part)

    def _colour_step(self, step: Layer, position: int, hope: int) -> Layer:
        """Every state after one colour's choice at one number (and, after
        the last colour, the number's groups made)."""
        number, colour = self.steps[position]
        index = (number - 1) * 4 + colour
        options = self.options_for(index, 0)
        depends = self.plan.around[index][3] | options.mask
        if self.plan.around[index][3]:
            table = {part: self.moves(index, part) for part in {key & depends for key in step}}
        else:  # one set of options for every state
            fetch = options.closing if colour == 3 else options.moves
            table = {part: fetch(part) for part in {key & depends for key in step}}
        if all(len(found) == 1 and not found[0][0] and not found[0][1] for found in table.values()) and all(
            score + hope > 0 for score, _, _ in step.values()
        ):
            # Every state's only choice leaves it as it is and gains nothing (a
            # colour with no tile and no open run here): the step is the previous one.
            return step
        result: Layer = {}
        get = result.get
        for key, (score, _, _) in step.items():
            if score + hope <= 0:
                continue
            for delta, gain, pick in table[key & depends]:
                new_key = key + delta
                new_score = score + gain
                previous = get(new_key)
                if previous is None or new_score > previous[0]:
                    result[new_key] = (new_score, key, pick)
        return result

    def final(self, key: int, score: int) -> int | None:
        """The score of a state past the last step, or None if it is no play
        (a run left short, or jokers that had to be placed left out)."""
        used = jokers_used(key)
        if used < self.must_jokers or not self.tables.all_closed(key):
            return None
        return score + (used - self.must_jokers) * self.joker_weight

    def play(self, picks: Sequence[object], score: int) -> Kept:
        """The play a state past the last step stands for, from what was
        chosen at each step."""
        kept_sets: list[KeptSet] = []
        layout: list[Pick] = []
        for (number, colour), pick in zip(self.steps, picks, strict=True):
            if colour < 0:
                kept_sets.extend(self.plan.combos(number)[cast(int, pick)].ways)
            else:
                layout.append(cast(Pick, pick))
        kept = tuple(sorted(kept_sets, key=lambda way: way.index))
        return Kept(kept, lay_out_path(layout), score + self.offset * self.scale)

    def depth_first(self, keep: int, budget: list[int]) -> tuple[Kept | None, bool]:
        """Depth first, keeping sets before breaking them up: the play that
        keeps the most sets, at least ``keep``, found within as many states
        as ``budget`` holds (lowered by those visited, so searches can share
        it), and whether the search went through (then no play keeps more).
        Each state is tried once for each better score it is reached with."""
        steps, hopes, plan, final = self.steps, self.hopes, self.plan, self.final
        count = len(steps)
        clearing = [~plan.clearing.get(number, 0) for number, _ in steps]
        # Per step, what a state's moves depend on (found when the step is
        # first reached), and by that the moves, best first.
        depends: list[int | None] = [None] * count
        ordered: list[dict[int, list[Move]]] = [{} for _ in steps]
        gaining = self.still[0] > 0  # else no move gains: none to sort
        seen: list[dict[int, int]] = [{} for _ in steps]
        path: list[object] = []
        best: list[object] | None = None
        floor = self.score * self.scale + keep - 1
        left = budget[0]

        def visit(position: int, key: int, score: int) -> None:
            nonlocal best, floor, left
            if position == count:
                reached = final(key, score)
                if reached is not None and reached > floor:
                    floor, best = reached, list(path)
                return
            if score + hopes[position] <= floor or left <= 0:
                return
            here = seen[position]
            if here.get(key, -1) >= score:
                return
            here[key] = score
            left -= 1
            number, colour = steps[position]
            if colour < 0:
                base = key & clearing[position]
                for added, gained, index in plan.decisions(base, number):
                    path.append(index)
                    visit(position + 1, base + added, score + gained)
                    path.pop()
                return
            index = (number - 1) * 4 + colour
            mask = depends[position]
            if mask is None:
                mask = depends[position] = self.depends_on(index)
            moves = ordered[position].get(key & mask)
            if moves is None:
                moves = self.moves(index, key)
                if gaining:
                    moves = sorted(moves, key=lambda move: -move[1])
                ordered[position][key & mask] = moves
            for delta, gain, pick in moves:
                path.append(pick)
                visit(position + 1, key + delta, score + gain)
                path.pop()

        visit(0, self.tables.no_runs, 0)
        budget[0] = left
        return (None if best is None else self.play(best, floor)), left > 0

    def _best(self, first: Layer, history: list[Layer], floor: int) -> Kept | None:
        """The best state past the last step, if it scores more than
        ``floor``, and the play it stands for (``history``: the states of
        each step, each with the state it came from and what was chosen)."""
        best_key = -1
        best_score = floor
        for key, (score, _, _) in history[-1].items():
            final = self.final(key, score)
            if final is not None and final > best_score:
                best_key, best_score = key, final
        if best_key < 0:
            return None
        picks: list[object] = []
        key = best_key
        for position in range(len(history) - 1, -1, -1):
            number, colour = self.steps[position]
            if history[position] is (history[position - 1] if position else first):
                # A step that changed nothing: the state made its only choice.
                picks.append(self.moves((number - 1) * 4 + colour, key)[0][2])
            else:
                _, key, pick = history[position][key]
                picks.append(pick)
        picks.reverse()
        return self.play(picks, best_score)


#: How many times its width a step of a bounded search may keep, while the
#: steps before it kept fewer than theirs.
SPIKE = 4


def _best_states(step: Layer, width: int) -> Layer:
    """The ``width`` states scoring most (of those tied last, the first met)."""
    least = sorted([entry[0] for entry in step.values()], reverse=True)[width - 1]
    kept = {key: entry for key, entry in step.items() if entry[0] > least}
    room = width - len(kept)
    for key, entry in step.items():
        if not room:
            break
        if entry[0] == least:
            kept[key] = entry
            room -= 1
    return kept


#: The steps of a search without sets to keep, as (number, colour), by the top number.
_COLOUR_STEPS = {
    top: [(number, colour) for number in range(1, top + 1) for colour in range(4)] for top in (MAX_NUMBER, WRAPPED_ONE)
}


def run_out(search: Generator[int, None, Kept | None]) -> Kept | None:
    """What a search taken step by step returns once run to its end."""
    while True:
        try:
            next(search)
        except StopIteration as finished:
            result: Kept | None = finished.value
            return result


def step_signatures(
    must: Sequence[int], optional: Sequence[int], weights: Sequence[int], wrap: bool, total_jokers: int
) -> list[StepSignature]:
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
    for row in held:
        distances, following = [reach] * (top + 1), 0
        for number in range(top, 0, -1):
            if following:
                distances[number] = min(following - number, reach)
            if row[number]:
                following = number
        ahead.append(distances)
    found: list[StepSignature] = []
    for number in range(1, top + 1):
        wrapped = number == WRAPPED_ONE
        capped = [min(3, held[colour][number]) for colour in range(4)]
        for colour in range(4):
            face = colour * MAX_NUMBER + (0 if wrapped else number - 1)
            later = () if wrapped else tuple(sorted(capped[colour + 1 :]))
            signature = (
                colour,
                wrap and number == 1,
                number == top,
                wrapped,
                must[face],
                optional[face],
                ahead[colour][number],
                held[colour][number + 1],
                held[colour][number + 2],
                weights[face],
                total_jokers,
                later,
            )
            found.append(new_tuple(StepSignature, signature))
    return found


def remaining_scores(optional: Sequence[int], weights: Sequence[int], jokers: int, top: int) -> list[int]:
    """What the optional tiles from each (number, colour) on could still score."""
    still: list[int] = []
    running = jokers
    for number in range(top, 0, -1):
        for colour in range(3, -1, -1):
            if number != WRAPPED_ONE:
                face = colour * MAX_NUMBER + number - 1
                running += optional[face] * weights[face]
            still.append(running)
    still.reverse()
    return still


def tightened(still: Sequence[int], ahead: Sequence[int], jokers: int, scale: int, top: int) -> list[int]:
    """The scores still to come from each step (``still``), with what the
    tiles past its number add bounded by ``ahead`` (per number, unscaled,
    without the jokers, which are added whole)."""
    found = list(still)
    for number in range(1, top + 1):
        past = still[number * 4] if number < top else jokers
        bound = min(past, ahead[number] * scale + jokers)
        for colour in range(4):
            found[(number - 1) * 4 + colour] += bound - past
    return found


def placeable(must: Sequence[int], optional: Sequence[int], jokers: int, wrap: bool) -> list[int]:
    """The optional counts without tiles that fit in no set at all (no three
    tiles around them, in a row or of their number, even with the jokers),
    which the search need not try."""
    if jokers >= 2:
        return list(optional)  # any tile makes a set with two jokers
    lacking = [not (held + extra) for held, extra in zip(must, optional, strict=True)]
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    return [
        count
        if not count
        or face == JOKER_INDEX
        or any(lacking[one] + lacking[two] <= jokers for one, two in windows(face, top))
        else 0
        for face, count in enumerate(optional)
    ]


def lay_out_path(path: Sequence[Pick]) -> tuple[Meld, ...]:
    """The sets a path makes: per number, each colour's choice, the last
    with the jokers put in groups."""
    melds: list[Meld] = []
    open_runs: list[list[tuple[Run, list[Tile], int]]] = [[] for _ in COLOURS]
    for index in range(0, len(path), 4):
        number = index // 4 + 1
        last, group_jokers = cast(tuple[Choice, int], path[index + 3])
        choices = [*cast(list[Choice], path[index : index + 3]), last]
        for colour, choice in enumerate(choices):
            tile = NUMBERED_TILES[colour * MAX_NUMBER + (0 if number == WRAPPED_ONE else number - 1)]
            still_open: list[tuple[Run, list[Tile], int]] = []
            pending = list(open_runs[colour])
            for run, how in choice.continued:
                position = next(i for i, item in enumerate(pending) if item[0] == run)
                _, tiles, start = pending.pop(position)
                if how == "end":
                    melds.append(Meld(MeldKind.RUN, tuple(tiles), start, COLOURS[colour]))
                    continue
                tiles.append(tile if how == "tile" else JOKER)
                still_open.append((Run(min(run.length + 1, 3), run.real or how == "tile", run.from_one), tiles, start))
            for run in choice.started:
                still_open.append((run, [tile if run.real else JOKER], number))
            open_runs[colour] = still_open
        split = group_split(tuple(choice.to_groups for choice in choices), group_jokers)
        assert split is not None
        for group in split:
            numbered = tuple(NUMBERED_TILES[colour * MAX_NUMBER + number - 1] for colour in group if colour >= 0)
            melds.append(Meld(MeldKind.GROUP, numbered + (JOKER,) * group.count(-1), number))
    for colour, colour_runs in enumerate(open_runs):
        for _, tiles, start in colour_runs:
            melds.append(Meld(MeldKind.RUN, tuple(tiles), start, COLOURS[colour]))
    return tuple(melds)
