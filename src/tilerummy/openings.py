"""Sets a rack can make on its own, and the best initial meld it holds.

An exact exhaustive search, used for the -200 / -100 rule (did a rack hold
an initial meld?) and by the simple built-in players. It considers every way
to read jokers (``R10 J J`` as a run worth 33 or a group worth 30).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .melds import WRAPPED_ONE, Meld, MeldKind
from .rules import Rules
from .tiles import COLOURS, JOKER, MAX_NUMBER, NUMBERED_TILES, Colour, Tile

# Every face in one fixed order; a rack is a tuple of counts in this order.
_FACES: tuple[Tile, ...] = (*NUMBERED_TILES, JOKER)
_INDEX = {tile: index for index, tile in enumerate(_FACES)}
_JOKER_INDEX = _INDEX[JOKER]


@dataclass(frozen=True, slots=True)
class _Candidate:
    meld: Meld
    needs: tuple[tuple[int, int], ...]  # (face index, count) pairs, jokers included
    lowest: int  # index of the set's lowest numbered face
    value: int


def candidate_melds(rack: Iterable[Tile], *, wrap: bool = False) -> list[Meld]:
    """Every distinct set the rack's tiles can form on their own."""
    return [candidate.meld for candidate in _candidates(Counter(rack), wrap=wrap)]


def _candidates(counts: Counter[Tile], *, wrap: bool) -> list[_Candidate]:
    jokers = counts[JOKER]
    found: list[_Candidate] = []

    def add(kind: MeldKind, tiles: Sequence[Tile], number: int, colour: Colour | None = None) -> None:
        meld = Meld(kind, tuple(tiles), number, colour)
        needs = Counter(_INDEX[tile] for tile in tiles)
        lowest = min(_INDEX[tile] for tile in tiles if not tile.is_joker)
        found.append(_Candidate(meld, tuple(sorted(needs.items())), lowest, meld.value))

    for number in range(1, MAX_NUMBER + 1):
        present = [Tile(colour, number) for colour in COLOURS if counts[Tile(colour, number)]]
        for mask in range(1, 1 << len(present)):
            chosen = [tile for bit, tile in enumerate(present) if mask >> bit & 1]
            for used_jokers in range(min(jokers, 4 - len(chosen)) + 1):
                if 3 <= len(chosen) + used_jokers <= 4:
                    add(MeldKind.GROUP, chosen + [JOKER] * used_jokers, number)
    top = WRAPPED_ONE if wrap else MAX_NUMBER
    for colour in COLOURS:
        for start in range(1, top - 1):
            for end in range(start + 2, top + 1):
                if start == 1 and end == WRAPPED_ONE:
                    continue
                tiles = [Tile(colour, 1 if n == WRAPPED_ONE else n) for n in range(start, end + 1)]
                missing = [place for place, tile in enumerate(tiles) if not counts[tile]]
                if len(missing) > jokers or len(missing) == len(tiles):
                    continue
                held = [place for place in range(len(tiles)) if place not in missing]
                # A joker may also stand for a tile the rack holds, when that
                # tile is wanted in another set.
                for extra in range(jokers - len(missing) + 1):
                    for jokered in itertools.combinations(held, extra):
                        if len(jokered) == len(held):
                            continue
                        as_jokers = set(missing) | set(jokered)
                        shape = [JOKER if place in as_jokers else tile for place, tile in enumerate(tiles)]
                        add(MeldKind.RUN, shape, start, colour)
    return found


def best_opening(rack: Iterable[Tile], rules: Rules) -> list[Meld] | None:
    """The initial meld of highest value the rack holds, or None if none reaches the threshold."""
    melds, value = _search(Counter(rack), rules, stop_at=None)
    return melds if value >= _least_value(rules) else None


def find_opening(rack: Iterable[Tile], rules: Rules) -> list[Meld] | None:
    """An initial meld the rack holds (the first found, not always the best), or None.

    Much faster than :func:`best_opening` on large racks.
    """
    melds, value = _search(Counter(rack), rules, stop_at=_least_value(rules))
    return melds if value >= _least_value(rules) else None


def has_opening(rack: Iterable[Tile], rules: Rules) -> bool:
    """Whether the rack holds an initial meld worth the rules' threshold."""
    _, value = _search(Counter(rack), rules, stop_at=_least_value(rules))
    return value >= _least_value(rules)


def _least_value(rules: Rules) -> int:
    """An initial meld is at least one set (every set is worth 3 or more)."""
    return max(rules.meld_threshold, 1)


def _search(counts: Counter[Tile], rules: Rules, *, stop_at: int | None) -> tuple[list[Meld], int]:
    """Disjoint sets from the rack of greatest total value (or the first reaching stop_at)."""
    threshold = _least_value(rules)
    state = [counts[face] for face in _FACES]
    values = [face.number for face in _FACES]
    if sum(state[i] * values[i] for i in range(_JOKER_INDEX)) + state[_JOKER_INDEX] * MAX_NUMBER < threshold:
        return [], 0
    by_lowest: dict[int, list[_Candidate]] = {}
    for candidate in sorted(_candidates(counts, wrap=rules.wrap), key=lambda c: -c.value):
        by_lowest.setdefault(candidate.lowest, []).append(candidate)
    best: list[Meld] = []
    best_value = 0
    chosen: list[Meld] = []
    failed: dict[tuple[int, ...], int] = {}

    def bound(position: int) -> int:
        rest = sum(state[i] * values[i] for i in range(position, _JOKER_INDEX))
        return rest + state[_JOKER_INDEX] * MAX_NUMBER

    def visit(position: int, value: int) -> bool:
        """Explore from the first face at or after position; True to stop."""
        nonlocal best, best_value
        if value > best_value:
            best, best_value = list(chosen), value
            if stop_at is not None and best_value >= stop_at:
                return True
        while position < _JOKER_INDEX and state[position] == 0:
            position += 1
        if position >= _JOKER_INDEX or value + bound(position) <= best_value:
            return False
        key = (position, *state)
        if failed.get(key, -1) >= value:
            return False
        for candidate in by_lowest.get(position, ()):
            if all(state[face] >= count for face, count in candidate.needs):
                for face, count in candidate.needs:
                    state[face] -= count
                chosen.append(candidate.meld)
                stop = visit(position, value + candidate.value)
                chosen.pop()
                for face, count in candidate.needs:
                    state[face] += count
                if stop:
                    return True
        # Leave the remaining copies of this face unused.
        held = state[position]
        state[position] = 0
        stop = visit(position + 1, value)
        state[position] = held
        if not stop:
            failed[key] = value
        return stop

    visit(0, 0)
    return best, best_value
