"""The best initial meld when rack tiles may also be added to the table's sets."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from ..errors import InvalidMeld
from ..melds import WRAPPED_ONE, Meld, Table
from ..rules import Rules
from ..tiles import COLOURS, JOKER, MAX_NUMBER, Tile
from ._describe import changed_sets
from ._search import FACE_COUNT, INDEX, JOKER_INDEX, search


def initial_meld(before: Table, rack: list[int], weights: list[int], rules: Rules) -> tuple[int, Table] | None:
    """The best initial meld with ``initial_meld_lay_off`` and its score: new
    sets from the rack worth the threshold, and rack tiles added to the
    sets on the table."""
    threshold = max(rules.meld_threshold, 1)
    zeros = [0] * FACE_COUNT
    options = [lay_offs(meld, rack, rules) for meld in before.melds]
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
    return None if best is None else (best_score, best)


def lay_offs(meld: Meld, rack: Sequence[int], rules: Rules) -> list[tuple[Meld, Counter[int]]]:
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
                    try_extension(meld, [*meld.tiles, *added], added, rack, rules, options)
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
                    try_extension(meld, [*head, *meld.tiles, *tail], added, rack, rules, options)
    return options


def try_extension(
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
