"""The old sets a play may keep, and where keeping them lives in the layer
search's states.

A play keeps an old set when the set lies on the table after it as it was
(so a run's joker stands for the same tile, and a group's for a colour the
group lacks). :class:`KeepPlan` says where the layer search's decisions to
keep or break up each set lie in a state, and bounds the sets a play must
still break up.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..melds import WRAPPED_ONE, Meld, MeldKind
from ..tiles import COLOURS, MAX_NUMBER, Tile
from ._tables import KEEP_SHIFT, USED_SHIFT, Layer, StepSignature, jokers_used, windows


@dataclass(frozen=True, slots=True)
class KeptSet:
    """One way to keep an old set: the faces it sets aside (under ``rack``
    and ``rack_or_table`` each joker as the tile it stands for), the faces
    its jokers stand for, and how many jokers it takes under ``free``."""

    index: int  # the set's place on the table
    faces: tuple[int, ...]
    joker_faces: tuple[int, ...]
    jokers: int


def ways_to_keep(melds: Sequence[Meld], *, free: bool, kept_jokers: Counter[int]) -> list[list[KeptSet]]:
    """For each old set, every way it can be kept (none when its jokers
    stand for tiles no joker of the play keeps standing for)."""
    ways: list[list[KeptSet]] = []
    for index, meld in enumerate(melds):
        found: list[KeptSet] = []
        if meld.colour is not None:
            colour = COLOURS.index(meld.colour)
            numbered: list[int] = []
            standing: list[int] = []
            for place, tile in enumerate(meld.tiles):
                face = colour * MAX_NUMBER + (meld.number + place - 1) % MAX_NUMBER  # the 1 after 13 is a 1
                (standing if tile.is_joker else numbered).append(face)
            if free:
                found.append(KeptSet(index, tuple(numbered), (), len(standing)))
            elif not Counter(standing) - kept_jokers:
                found.append(KeptSet(index, tuple(numbered + standing), tuple(standing), 0))
        else:
            offset = meld.number - 1
            present = {COLOURS.index(tile.colour) for tile in meld.tiles if tile.colour is not None}
            numbered = [colour * MAX_NUMBER + offset for colour in sorted(present)]
            jokers = len(meld.tiles) - len(numbered)
            if free or not jokers:
                found.append(KeptSet(index, tuple(numbered), (), jokers if free else 0))
            else:
                missing = [colour * MAX_NUMBER + offset for colour in range(len(COLOURS)) if colour not in present]
                for chosen in itertools.combinations(missing, jokers):
                    if not Counter(chosen) - kept_jokers:
                        found.append(KeptSet(index, (*numbered, *chosen), chosen, 0))
        ways.append(found)
    return ways


@dataclass(frozen=True, slots=True)
class Kept:
    """The best play found: the sets it keeps, the other sets (jokers that
    keep their meaning shown as the tiles they stand for), and its score."""

    kept: tuple[KeptSet, ...]
    melds: tuple[Meld, ...]
    score: int


class Combo(NamedTuple):
    """A way to keep some of the sets that begin at a number: the ways
    chosen, their bits, the faces their jokers use and the jokers they take."""

    ways: tuple[KeptSet, ...]
    bits: int
    faces: Counter[int]
    jokers: int


def _mirror(face: int) -> int:
    colour, offset = divmod(face, MAX_NUMBER)
    return face if colour == len(COLOURS) else colour * MAX_NUMBER + MAX_NUMBER - 1 - offset


#: Per face (the joker last), the face at the same place counting the numbers down.
_MIRRORED = tuple(_mirror(face) for face in range(len(COLOURS) * MAX_NUMBER + 1))


def mirrored_face(face: int) -> int:
    """The face at the same place counting the numbers down (13 for 1); the joker stays."""
    return _MIRRORED[face]


def mirrored_counts(counts: Sequence[int]) -> list[int]:
    """Counts per face (the joker last) with the numbers counted down."""
    return [counts[face] for face in _MIRRORED[: len(counts)]]


def mirrored_way(way: KeptSet) -> KeptSet:
    """A way to keep a set, with the numbers counted down."""
    faces, joker_faces = tuple(map(mirrored_face, way.faces)), tuple(map(mirrored_face, way.joker_faces))
    return KeptSet(way.index, faces, joker_faces, way.jokers)


def mirrored_kept(found: Kept) -> Kept:
    """A play found with the numbers counted down, counted up again."""
    melds = []
    for meld in found.melds:
        tiles = tuple(tile if tile.is_joker else Tile(tile.colour, MAX_NUMBER + 1 - tile.number) for tile in meld.tiles)
        if meld.is_run:
            start = MAX_NUMBER + 1 - (meld.number + len(tiles) - 1)
            melds.append(Meld(MeldKind.RUN, tiles[::-1], start, meld.colour))
        else:
            melds.append(Meld(MeldKind.GROUP, tiles, MAX_NUMBER + 1 - meld.number))
    return Kept(tuple(map(mirrored_way, found.kept)), tuple(melds), found.score)


class KeepPlan:
    """Where the choice of keeping each set lives in a state: one bit for
    each way to keep it, free again once the set's last number is past
    (except for ways whose jokers take kept jokers: their bits stay, to count
    what they took)."""

    def __init__(self, ways: Sequence[Sequence[KeptSet]], kept_jokers: Counter[int], total_jokers: int) -> None:
        self.kept_jokers = kept_jokers
        self.total_jokers = total_jokers
        spans: list[tuple[int, int, int]] = []  # first number, last number, set
        for index, set_ways in enumerate(ways):
            numbers = [face % MAX_NUMBER + 1 for way in set_ways for face in way.faces]
            if numbers:
                spans.append((min(numbers), max(numbers), index))
        spans.sort()
        # Each set that can be kept: the number at which it is decided, and
        # the numbered tiles it holds (the same in every way to keep it).
        self.sets = [
            (first, Counter(ways[index][0].faces) - Counter(ways[index][0].joker_faces)) for first, _, index in spans
        ]
        free_from: list[int] = []  # per bit, the first number at which it may serve again
        self.deciding: dict[int, list[list[tuple[int, KeptSet]]]] = {}
        self.clearing: dict[int, int] = {}
        decided_by: list[list[tuple[int, int]]] = [[] for _ in range(MAX_NUMBER * 4)]  # and when each is decided
        self.lasting = 0
        self.lasting_faces: dict[int, tuple[int, ...]] = {}
        self.undecided_after = [0] * (MAX_NUMBER + 1)
        for first, last, index in spans:
            for number in range(first):
                self.undecided_after[number] += 1
            options = []
            for way in ways[index]:
                bit = next((bit for bit, since in enumerate(free_from) if since <= first), len(free_from))
                if bit == len(free_from):
                    free_from.append(0)
                lasting = bool(way.joker_faces)
                free_from[bit] = MAX_NUMBER + 2 if lasting else last + 1
                mask = 1 << (KEEP_SHIFT + bit)
                if lasting:
                    self.lasting |= mask
                    self.lasting_faces[mask] = way.joker_faces
                elif last < MAX_NUMBER:
                    self.clearing[last + 1] = self.clearing.get(last + 1, 0) | mask
                for face in way.faces:
                    colour, offset = divmod(face, MAX_NUMBER)
                    decided_by[offset * 4 + colour].append((first, mask))
                options.append((mask, way))
            self.deciding.setdefault(first, []).append(options)
        # Per step: the bits of the ways holding its face and the faces of the
        # next two numbers in its colour, and all three together. The later
        # colours' tiles at its number (which its choices look ahead to) are
        # counted as if no set holding them were kept: that only prunes less,
        # and lets more states share their options.
        self.around: list[tuple[int, int, int, int]] = [] if spans else [(0, 0, 0, 0)] * (WRAPPED_ONE * 4)
        for number in range(1, WRAPPED_ONE + 1 if spans else 1):
            for colour in range(len(COLOURS)):
                here = _holding(decided_by, number, colour, number)
                one = _holding(decided_by, number + 1, colour, number)
                two = _holding(decided_by, number + 2, colour, number)
                self.around.append((here, one, two, here | one | two))
        self._combos: dict[int, list[Combo]] = {}
        self._decisions: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}

    def breaks_ahead(
        self, must: Sequence[int], optional: Sequence[int], weights: Sequence[int], jokers: int, slack: int, wrap: bool
    ) -> list[int]:
        """For each number (0 to 13), at least how many of the sets decided
        after it the play must break up.

        A tile the play places for sure (a rack copy, or a tile of a set it
        cannot keep) past that number goes in some set, which holds three
        tiles in a row or of one number around it. When no such three can be
        had from the rack, the jokers and the tiles of the sets decided by
        then (as if all were broken up), the set takes a tile from a set
        decided later, which is then broken up. Tiles whose candidates for
        that are disjoint each need their own. A rack tile the play may leave
        on the rack (within ``slack`` of the score) is let off.
        """
        if not self.sets or jokers >= 2:  # with two jokers, any tile makes a set
            return [0] * (MAX_NUMBER + 1)
        numbered = len(COLOURS) * MAX_NUMBER
        top = WRAPPED_ONE if wrap else MAX_NUMBER
        # The must copies in no set that can be kept: rack copies the play
        # has to place, and the tiles of the sets it cannot keep.
        sure = list(must[:numbered])
        for face, count in self.kept_jokers.items():
            sure[face] -= count
        holders: list[list[tuple[int, int]]] = [[] for _ in range(numbered)]  # per face: (first number, set)
        free = [must[face] + optional[face] for face in range(numbered)]  # as if only decided sets were broken up
        for index, (first, faces) in enumerate(self.sets):
            for face, count in faces.items():
                sure[face] -= count
                free[face] -= count
                holders[face].append((first, index))
        # Tiles that may still need a later set (a tile that can do without
        # at some number can do without at every later one: more is free).
        needing = [face for face in range(numbered) if sure[face] > 0 or optional[face]]
        breaks = [0] * (MAX_NUMBER + 1)
        last_first = max((first for first, _ in self.sets), default=0)
        arriving: dict[int, list[Counter[int]]] = {}
        for first, faces in self.sets:
            arriving.setdefault(first, []).append(faces)
        # Per tile still needing: the later sets it needs one of, and the cost
        # of leaving it. They change only where sets arrive (the sets decided
        # later stay the same in between); else only tiles passed drop out.
        needy: list[tuple[int, set[int], int | None]] = []
        for number in range(min(MAX_NUMBER, last_first - 1) + 1):
            arrivals = arriving.get(number)
            if arrivals or not number:
                for faces in arrivals or ():
                    for face, count in faces.items():
                        free[face] += count
                needy = []
                still_needing = []
                for face in needing:
                    if face % MAX_NUMBER < number:
                        continue
                    hosts: set[int] = set()
                    for window in windows(face, top):
                        missing = [other for other in window if free[other] <= 0]
                        if len(missing) <= jokers:
                            break
                        for other in missing:
                            for first, index in holders[other]:
                                if first > number:
                                    hosts.add(index)
                    else:
                        still_needing.append(face)
                        needy.append((face, hosts, None if sure[face] > 0 else weights[face] * optional[face]))
                needing = still_needing
            else:
                needy = [item for item in needy if item[0] % MAX_NUMBER >= number]
                needing = [face for face, _, _ in needy]
            if not needing:
                break
            breaks[number] = _disjoint_count([(hosts, cost) for _, hosts, cost in needy], slack)
        return breaks

    def decisions(self, base: int, number: int) -> list[tuple[int, int, int]]:
        """For a state whose bits of sets already past are cleared (``base``),
        each way on from deciding the sets beginning at this number: what it
        adds to the state, the sets kept and which way it is (among
        :meth:`combos`), those keeping more first."""
        lasting = base & self.lasting
        jokers = jokers_used(base)
        found = self._decisions.get((number, lasting, jokers))
        if found is None:
            # The faces of kept jokers that the kept sets whose bits stay took.
            used = Counter(face for mask, faces in self.lasting_faces.items() if lasting & mask for face in faces)
            found = [
                ((taken << USED_SHIFT) + bits, len(chosen), index)
                for index, (chosen, bits, faces, taken) in enumerate(self.combos(number))
                if not (faces and faces + used - self.kept_jokers) and jokers + taken <= self.total_jokers
            ]
            found.sort(key=lambda item: -item[1])
            self._decisions[number, lasting, jokers] = found
        return found

    def combos(self, number: int) -> list[Combo]:
        """Each way to keep or break up the sets beginning at this number."""
        found = self._combos.get(number)
        if found is None:
            found = self._combos[number] = []
            for choice in itertools.product(*([None, *options] for options in self.deciding.get(number, []))):
                chosen = [option for option in choice if option is not None]
                standing = [face for _, way in chosen for face in way.joker_faces]
                ways = tuple(way for _, way in chosen)
                bits = sum(mask for mask, _ in chosen)
                found.append(
                    Combo(ways, bits, Counter(standing) if standing else NO_FACES, sum(w.jokers for w in ways))
                )
        return found

    def decide(self, step: Layer, number: int, hope: int) -> Layer:
        """Every state after deciding which sets beginning at this number are
        kept (the bits of sets already past are cleared, so states alike meet)."""
        clear = ~self.clearing.get(number, 0)
        result: Layer = {}
        get = result.get
        # The decisions depend on the lasting bits and the jokers used only.
        depends = self.lasting | 15 << USED_SHIFT
        by_state: dict[int, list[tuple[int, int, int]]] = {}
        for key, (score, _, _) in step.items():
            base = key & clear
            decisions = by_state.get(base & depends)
            if decisions is None:
                decisions = by_state[base & depends] = self.decisions(base, number)
            for added, gained, index in decisions:
                new_score = score + gained
                if new_score + hope <= 0:
                    break  # the rest keep fewer
                new_key = base + added
                previous = get(new_key)
                if previous is None or new_score > previous[0]:
                    result[new_key] = (new_score, key, index)
        return result


def _holding(decided_by: Sequence[Sequence[tuple[int, int]]], at: int, colour: int, number: int) -> int:
    """The bits of the ways holding the tile of this colour at number ``at``,
    among those decided by ``number`` (a bit may serve another set before
    its own is decided)."""
    bits = 0
    if at <= MAX_NUMBER:
        for first, mask in decided_by[(at - 1) * 4 + colour]:
            if first <= number:
                bits |= mask
    return bits


#: No faces: what a choice of sets none of whose jokers keep their meaning
#: takes from them, and what a set without jokers keeps (shared: never changed).
NO_FACES: Counter[int] = Counter()


def set_aside(signature: StepSignature, kept: int, around: tuple[int, int, int, int]) -> StepSignature:
    """The step with the tiles of the kept sets in ``kept`` (bits as in a
    state) set aside, at its number and at the next two in its colour."""
    here, one, two, _ = around
    return signature._replace(
        must=signature.must - (kept & here).bit_count(),
        next_one=signature.next_one - (kept & one).bit_count(),
        next_two=signature.next_two - (kept & two).bit_count(),
    )


def _disjoint_count(needy: Sequence[tuple[set[int], int | None]], slack: int) -> int:
    """How many tiles with disjoint candidate sets (found greedily, fewest
    candidates first), less those the slack lets the play leave on the rack."""
    taken: set[int] = set()
    costs: list[int] = []
    count = 0
    for hosts, cost in sorted(needy, key=lambda item: len(item[0])):
        if hosts & taken:
            continue
        taken |= hosts
        count += 1
        if cost is not None:
            costs.append(cost)
    for cost in sorted(costs):
        if cost > slack:
            break
        slack -= cost
        count -= 1
    return count
