"""A brute-force reference for the move solver, for SMALL positions only.

It shares no code with ``tilerummy.solver``: it tries every part of the rack,
every way to split the table's tiles plus that part into sets, and every way
each set can be written (which fixes what its jokers stand for), and asks the
rules engine (:func:`tilerummy.legality.judge_play`) whether the resulting
table is a legal end of turn. The joker rule, the initial meld and every rule
option are therefore decided by the engine, not here.

It is exponential: keep the table to about 9 tiles and the rack to about 6.

Among the best plays it also finds the fewest changes to the table: the old
sets that do not appear, unchanged, among the sets after the play (compared
as the engine reads them: same kind, same tiles in the same places, so a
run's joker stands for the same tile; a group's joker for a colour missing
from it). Every play that ties on the objective is tried, not only one set of
rack tiles.

>>> from tilerummy import Rules, Table, parse_tiles
>>> reference_best(parse_tiles("K10 B10 Y10"), Table(), Rules(), initial_meld_done=False, objective="tiles")
(3, 30)
>>> table = Table.parse("R5 B5 Y5 | R6 R7 R8 | K1 K2 K3")
>>> reference_fewest_changes(parse_tiles("R4 K5"), table, Rules(), initial_meld_done=True, objective="tiles")
2
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from tilerummy import IllegalPlay, InvalidMeld, Meld, Rules, Table, Tile
from tilerummy.legality import judge_play
from tilerummy.melds import Token, read_meld
from tilerummy.tiles import COLOURS, JOKER

#: The objectives the solver offers.
OBJECTIVES = ("tiles", "value")

Partition = tuple[Meld, ...]


def tile_value(tile: Tile, rules: Rules) -> int:
    """What a tile counts on a rack: its number, or the joker penalty."""
    return rules.joker_penalty if tile.is_joker else tile.number


def score(tiles: Iterable[Tile], rules: Rules) -> tuple[int, int]:
    """(tiles placed, rack value removed) for tiles taken from the rack."""
    placed = list(tiles)
    return len(placed), sum(tile_value(tile, rules) for tile in placed)


def sub_multisets(tiles: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """Every distinct non-empty sub-multiset of the tiles, each sorted."""
    counts = sorted(Counter(tiles).items(), key=lambda item: item[0].sort_key)
    result = []
    for picks in itertools.product(*(range(count + 1) for _, count in counts)):
        chosen = tuple(tile for (tile, _), pick in zip(counts, picks, strict=True) for _ in range(pick))
        if chosen:
            result.append(chosen)
    return result


def _run_orders(numbered: Sequence[Tile], jokers: int, *, wrap: bool) -> list[list[Tile]]:
    """Written orders for a run: its numbers in order with the jokers in every
    possible place (and, with wrap, a 1 written after the others)."""
    ascending = sorted(numbered, key=lambda tile: tile.number)
    bases = [ascending]
    if wrap and ascending[0].number == 1 and len(ascending) > 1:
        bases.append([*ascending[1:], ascending[0]])
    size = len(numbered) + jokers
    orders = []
    for base in bases:
        for places in itertools.combinations(range(size), jokers):
            rest = iter(base)
            orders.append([JOKER if place in places else next(rest) for place in range(size)])
    return orders


@functools.cache
def group_readings(faces: tuple[Tile, ...], wrap: bool) -> tuple[Meld, ...]:
    """The group these faces (one number, jokers last) form, if any; each joker
    is named as a missing colour so a set like ``R10 J J`` reads as a group."""
    numbered = [tile for tile in faces if not tile.is_joker]
    present = {tile.colour for tile in numbered}
    missing = [Tile(colour, numbered[0].number) for colour in COLOURS if colour not in present]
    jokers = len(faces) - len(numbered)
    tokens = [Token(tile) for tile in numbered] + [Token(JOKER, hint) for hint in missing[:jokers]]
    try:
        return (read_meld(tokens, wrap=wrap),)
    except InvalidMeld:
        return ()


@functools.cache
def run_readings(faces: tuple[Tile, ...], wrap: bool) -> tuple[Meld, ...]:
    """Every distinct run these faces (one colour, jokers last) form, over every
    written order that matters (each place for each joker)."""
    numbered = [tile for tile in faces if not tile.is_joker]
    found = set()
    for order in _run_orders(numbered, len(faces) - len(numbered), wrap=wrap):
        try:
            found.add(Meld.from_tiles(order, wrap=wrap))
        except InvalidMeld:
            continue
    return tuple(sorted(found, key=_meld_key))


def melds_with(first: Tile, others: Sequence[Tile], *, wrap: bool) -> set[tuple[Meld, tuple[Tile, ...]]]:
    """Every set holding ``first`` and some of ``others`` (as faces), each as
    (meld, the tiles of ``others`` it uses), over every way to write it."""
    assert not first.is_joker
    jokers = sum(1 for tile in others if tile.is_joker)
    found: set[tuple[Meld, tuple[Tile, ...]]] = set()
    # Groups: the same number in other colours, and jokers for missing colours.
    mates = sorted({tile for tile in others if tile.number == first.number and tile.colour != first.colour})
    for size in range(len(mates) + 1):
        for chosen in itertools.combinations(mates, size):
            for extra in range(jokers + 1):
                if 3 <= 1 + size + extra <= len(COLOURS):
                    used = (*chosen, *(JOKER,) * extra)
                    found.update((meld, used) for meld in group_readings((first, *used), wrap))
    # Runs: other numbers of the same colour, and jokers anywhere.
    same_colour = sorted({tile for tile in others if tile.colour == first.colour and tile.number != first.number})
    for size in range(len(same_colour) + 1):
        for chosen in itertools.combinations(same_colour, size):
            for extra in range(jokers + 1):
                if 1 + size + extra >= 3:
                    used = (*chosen, *(JOKER,) * extra)
                    found.update((meld, used) for meld in run_readings(tuple(sorted((first, *used))), wrap))
    return found


def _remove(tiles: tuple[Tile, ...], used: Iterable[Tile]) -> tuple[Tile, ...]:
    left = list(tiles)
    for tile in used:
        left.remove(tile)
    return tuple(left)


def _meld_key(meld: Meld) -> tuple[str, int, str, str]:
    return (meld.kind.value, meld.number, meld.colour.value if meld.colour else "", str(meld))


@functools.cache
def partitions(tiles: tuple[Tile, ...], wrap: bool) -> tuple[Partition, ...]:
    """Every way to split these tiles (sorted, jokers last) into valid sets."""
    if not tiles:
        return ((),)
    first, rest = tiles[0], tiles[1:]
    if first.is_joker:  # only jokers are left: no set can hold them
        return ()
    result: set[Partition] = set()
    for meld, used in melds_with(first, rest, wrap=wrap):
        for tail in partitions(_remove(rest, used), wrap):
            result.add(tuple(sorted((meld, *tail), key=_meld_key)))
    return tuple(sorted(result, key=lambda melds: [_meld_key(meld) for meld in melds]))


def is_legal(before: Table, melds: Partition, rack: Sequence[Tile], rules: Rules, *, melded: bool) -> bool:
    try:
        judge_play(before, Table(melds), rack, rules, melded=melded)
    except IllegalPlay:
        return False
    return True


def playable(
    before: Table, part: Sequence[Tile], rack: Sequence[Tile], rules: Rules, *, melded: bool
) -> Partition | None:
    """A legal table holding the table's tiles plus ``part`` of the rack, or None."""
    tiles = tuple(sorted([*before.tiles().elements(), *part], key=lambda tile: tile.sort_key))
    for melds in partitions(tiles, rules.wrap):
        if is_legal(before, melds, rack, rules, melded=melded):
            return melds
    return None


def reference_play(
    rack: Sequence[Tile], table: Table, rules: Rules, *, initial_meld_done: bool, objective: str
) -> tuple[tuple[Tile, ...], Table] | None:
    """An optimal play (the rack tiles placed and the table after it), or None."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")

    def rank(part: tuple[Tile, ...]) -> tuple[int, int]:
        tiles, value = score(part, rules)
        return (tiles, value) if objective == "tiles" else (value, tiles)

    for part in sorted(sub_multisets(rack), key=rank, reverse=True):
        melds = playable(table, part, rack, rules, melded=initial_meld_done)
        if melds is not None:
            return part, Table(melds)
    return None


def changes(before: Table, after: Table) -> int:
    """How many old sets do not appear unchanged after the play (each copy of
    a set counted once), with both tables read by the engine."""
    left = Counter(after.melds)
    broken = 0
    for meld in before.melds:
        if left[meld] > 0:
            left[meld] -= 1
        else:
            broken += 1
    return broken


def _ranked_parts(
    rack: Sequence[Tile], rules: Rules, objective: str
) -> list[tuple[tuple[int, int], list[tuple[Tile, ...]]]]:
    """The rack's parts grouped by their rank under the objective, best first."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    groups: dict[tuple[int, int], list[tuple[Tile, ...]]] = {}
    for part in sub_multisets(rack):
        tiles, value = score(part, rules)
        groups.setdefault((tiles, value) if objective == "tiles" else (value, tiles), []).append(part)
    return sorted(groups.items(), reverse=True)


def fewest_changes_placing(
    part: Sequence[Tile],
    rack: Sequence[Tile],
    table: Table,
    rules: Rules,
    *,
    initial_meld_done: bool,
    below: int | None = None,
) -> int | None:
    """The fewest old sets a legal play placing exactly ``part`` changes, or
    None if no such play (or, with ``below``, none changing fewer) exists."""
    tiles = tuple(sorted([*table.tiles().elements(), *part], key=lambda tile: tile.sort_key))
    # Cheapest first: the first legal layout changes the fewest.
    options = sorted(partitions(tiles, rules.wrap), key=lambda melds: changes(table, Table(melds)))
    for melds in options:
        broken = changes(table, Table(melds))
        if below is not None and broken >= below:
            return None
        if is_legal(table, melds, rack, rules, melded=initial_meld_done):
            return broken
    return None


def reference_fewest_changes(
    rack: Sequence[Tile], table: Table, rules: Rules, *, initial_meld_done: bool, objective: str
) -> int | None:
    """The fewest old sets any optimal play changes (see the module's notes),
    or None if nothing can be played."""
    for _, parts in _ranked_parts(rack, rules, objective):
        fewest: int | None = None
        for part in parts:
            broken = fewest_changes_placing(part, rack, table, rules, initial_meld_done=initial_meld_done, below=fewest)
            if broken is not None:
                fewest = broken
        if fewest is not None:
            return fewest
    return None


def reference_best(
    rack: list[Tile], table: Table, rules: Rules, *, initial_meld_done: bool, objective: str
) -> tuple[int, int] | None:
    """The optimal (tiles placed, rack value removed), or None if nothing can be played.

    ``objective="tiles"``: most tiles, ties broken by value; ``"value"``: highest
    value, ties broken by tiles. A joker counts ``rules.joker_penalty``.
    """
    play = reference_play(rack, table, rules, initial_meld_done=initial_meld_done, objective=objective)
    return None if play is None else score(play[0], rules)
