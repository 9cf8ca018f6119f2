"""Tiles counted per face, and the search for initial melds: the lowest
face still held goes into a set whose lowest numbered face it is, or, if no
copy of it must be placed, stays on the rack (branch and bound, with a memo
of the states explored).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..melds import WRAPPED_ONE, Meld, MeldKind
from ..tiles import COLOURS, JOKER, MAX_NUMBER, NUMBERED_TILES, Colour, Tile

#: Every face in one fixed order: R1..R13, B1..B13, Y1..Y13, K1..K13, then J.
FACES: tuple[Tile, ...] = (*NUMBERED_TILES, JOKER)
INDEX: dict[Tile, int] = {tile: index for index, tile in enumerate(FACES)}
JOKER_INDEX = INDEX[JOKER]
FACE_COUNT = len(FACES)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A set the available tiles can form, with what it takes from each face."""

    meld: Meld
    needs: tuple[tuple[int, int], ...]  # (face index, count), jokers included
    lowest: int  # index of its lowest numbered face
    value: int  # the set's value, a joker counting as the tile it stands for


# Hashing a tile goes through its colour's Python-level hash: the colours
# are told apart by identity instead.
_COLOUR_AT = {id(colour): index * MAX_NUMBER - 1 for index, colour in enumerate(COLOURS)}


def face_of(tile: Tile) -> int:
    """The tile's face index, as ``INDEX[tile]`` but faster."""
    colour = tile.colour
    return JOKER_INDEX if colour is None else _COLOUR_AT[id(colour)] + tile.number


def counts_of(tiles: Counter[Tile]) -> list[int]:
    counts = [0] * FACE_COUNT
    for tile, count in tiles.items():
        counts[face_of(tile)] += count
    return counts


def make_candidates(available: Sequence[int], *, wrap: bool) -> list[Candidate]:
    """Every set the available counts can form (jokers standing for missing
    tiles, or for held ones, which another set may want)."""
    jokers = available[JOKER_INDEX]
    found: list[Candidate] = []

    def add(kind: MeldKind, tiles: Sequence[Tile], number: int, colour: Colour | None = None) -> None:
        meld = Meld(kind, tuple(tiles), number, colour)
        needs = Counter(INDEX[tile] for tile in tiles)
        lowest = min(INDEX[tile] for tile in tiles if not tile.is_joker)
        found.append(Candidate(meld, tuple(sorted(needs.items())), lowest, meld.value))

    for number in range(1, MAX_NUMBER + 1):
        present = [Tile(colour, number) for colour in COLOURS if available[INDEX[Tile(colour, number)]]]
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
                missing = [place for place, tile in enumerate(tiles) if not available[INDEX[tile]]]
                if len(missing) > jokers or len(missing) == len(tiles):
                    continue
                held = [place for place in range(len(tiles)) if place not in missing]
                for extra in range(jokers - len(missing) + 1):
                    for jokered in itertools.combinations(held, extra):
                        if len(jokered) == len(held):
                            continue
                        as_jokers = set(missing) | set(jokered)
                        shape = [JOKER if place in as_jokers else tile for place, tile in enumerate(tiles)]
                        add(MeldKind.RUN, shape, start, colour)
    return found


@dataclass(frozen=True, slots=True)
class Found:
    """The best collection found: its sets and its score (sum of weights)."""

    melds: tuple[Meld, ...]
    score: int
    meld_value: int
    complete: bool = True  # False when the search stopped at its budget: maybe not the best


def search(
    must: Sequence[int],
    optional: Sequence[int],
    weights: Sequence[int],
    *,
    wrap: bool,
    min_meld_value: int = 0,
    meld_value_weight: int = 0,
    good_enough: int | None = None,
    floor: int = -1,
    budget: int | None = None,
) -> Found | None:
    """The disjoint sets placing every must copy, some optional copies, with
    the highest total weight of optional copies placed; None if the must
    copies cannot all be placed. ``min_meld_value``: what the sets must be
    worth together; ``meld_value_weight``: what each point of their value
    scores too; ``good_enough``: a score to stop at; ``floor``: a score to beat;
    ``budget``: how many states it may explore before it stops with the best
    found so far (marked incomplete).
    """
    must = list(must)
    optional = list(optional)
    available = [a + b for a, b in zip(must, optional, strict=True)]
    by_lowest: list[list[Candidate]] = [[] for _ in range(FACE_COUNT)]
    candidates = make_candidates(available, wrap=wrap)
    candidates.sort(key=lambda candidate: (-len(candidate.meld), -candidate.value))
    for candidate in candidates:
        by_lowest[candidate.lowest].append(candidate)
    # What the tiles not yet placed could still add to the score, at most.
    weight_left = sum(optional[face] * weights[face] for face in range(FACE_COUNT))
    if meld_value_weight:
        numbered = sum(available[face] * FACES[face].number for face in range(JOKER_INDEX))
        weight_left += meld_value_weight * (numbered + available[JOKER_INDEX] * MAX_NUMBER)
    must_left = sum(must)
    best: Found | None = None
    chosen: list[Meld] = []
    explored: dict[tuple[int, ...], int] = {}
    left = -1 if budget is None else budget

    def record(score: int, meld_value: int) -> bool:
        nonlocal best
        if must_left == 0 and meld_value >= min_meld_value and score > (best.score if best else floor):
            best = Found(tuple(chosen), score, meld_value)
            return good_enough is not None and score >= good_enough
        return False

    def visit(position: int, score: int, meld_value: int) -> bool:
        """Explore from the first face at or after position; True to stop."""
        nonlocal weight_left, must_left, left
        if record(score, meld_value):
            return True
        if not left:
            return True
        while position < JOKER_INDEX and not (must[position] or optional[position]):
            position += 1
        if position >= JOKER_INDEX:
            return False
        if score + weight_left <= (best.score if best else floor):
            return False
        key = (
            position,
            min(meld_value, min_meld_value),
            must[JOKER_INDEX],
            optional[JOKER_INDEX],
            *must[position:JOKER_INDEX],
            *optional[position:JOKER_INDEX],
        )
        if explored.get(key, -1) >= score:
            return False
        left -= 1
        for candidate in by_lowest[position]:
            if any(must[face] + optional[face] < count for face, count in candidate.needs):
                continue
            taken: list[tuple[int, int, int]] = []
            gained = 0
            spent = 0
            for face, count in candidate.needs:
                from_must = min(must[face], count)
                from_optional = count - from_must
                must[face] -= from_must
                optional[face] -= from_optional
                taken.append((face, from_must, from_optional))
                gained += from_optional * weights[face]
                if meld_value_weight:
                    spent += count * (MAX_NUMBER if face == JOKER_INDEX else FACES[face].number)
            gained_value = candidate.value * meld_value_weight
            spent *= meld_value_weight
            must_left -= sum(item[1] for item in taken)
            weight_left -= gained + spent
            chosen.append(candidate.meld)
            stop = visit(position, score + gained + gained_value, meld_value + candidate.value)
            chosen.pop()
            weight_left += gained + spent
            must_left += sum(item[1] for item in taken)
            for face, from_must, from_optional in taken:
                must[face] += from_must
                optional[face] += from_optional
            if stop:
                return True
        stop = False
        if not must[position]:
            # Leave the remaining copies of this face on the rack.
            held = optional[position]
            optional[position] = 0
            dropped = held * (weights[position] + meld_value_weight * FACES[position].number)
            weight_left -= dropped
            stop = visit(position + 1, score, meld_value)
            weight_left += dropped
            optional[position] = held
        if not stop:
            explored[key] = score
        return stop

    visit(0, 0, 0)
    if best is not None and not left:
        best = Found(best.melds, best.score, best.meld_value, complete=False)
    return best
