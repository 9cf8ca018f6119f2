from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilerummy import InvalidMeld, Meld, Rules, TileSet, best_opening, has_opening, parse_tiles, solve
from tilerummy.openings import candidate_melds, find_opening
from tilerummy.rules import PRESETS
from tilerummy.tiles import Tile

from .effort import examples


def test_regression_openings() -> None:
    rules = Rules()
    assert has_opening(parse_tiles("K10 B10 Y10"), rules)
    opening = best_opening(parse_tiles("K10 B10 J R1"), rules)
    assert opening is not None
    assert sum(meld.value for meld in opening) == 30
    assert not has_opening(parse_tiles("K10 B10 Y9 R1 R2"), rules)
    assert not has_opening(parse_tiles("K10 B10 Y10"), Rules(initial_meld_strict=True))
    # R10 J J: a run (33) beats a group (30).
    opening = best_opening(parse_tiles("R10 J J"), rules)
    assert opening is not None
    assert opening[0].value == 33
    # 12-13-1 (26) and a group of 1s (4) make 30 only with wrap.
    assert has_opening(parse_tiles("R12 R13 R1 R1 K1 B1 Y1"), Rules(wrap=True))
    assert not has_opening(parse_tiles("R12 R13 R1 R1 K1 B1 Y1"), rules)


def best_reading(tiles: tuple[Tile, ...], wrap: bool) -> int | None:
    """The highest value these tiles have as one set, over every order they
    could be written in (a written order fixes each joker), or None."""
    numbered = [tile for tile in tiles if not tile.is_joker]
    if len({tile.colour for tile in numbered}) > 1 and len({tile.number for tile in numbered}) > 1:
        return None  # neither a run (one colour) nor a group (one number), in any order
    best = None
    for order in set(itertools.permutations(tiles)):
        try:
            value = Meld.from_tiles(order, wrap=wrap).value
        except InvalidMeld:
            continue
        best = value if best is None else max(best, value)
    return best


def brute_force_best(rack: list[Tile], rules: Rules) -> int:
    """Best total value of disjoint sets from the rack, by trying every way to
    split any part of it into sets (independent of the search under test)."""

    @functools.cache
    def best_from(tiles: tuple[Tile, ...]) -> int:
        if len(tiles) < 3:
            return 0
        first, rest = tiles[0], tiles[1:]
        result = best_from(rest)  # the first tile is left on the rack
        for size in range(2, len(rest) + 1):
            for others in set(itertools.combinations(rest, size)):
                value = best_reading((first, *others), rules.wrap)
                if value is not None:
                    left = list(rest)
                    for tile in others:
                        left.remove(tile)
                    result = max(result, value + best_from(tuple(left)))
        return result

    return best_from(tuple(sorted(rack)))


@settings(max_examples=examples(15), deadline=None)
@given(st.randoms(use_true_random=False), st.integers(3, 8), st.booleans())
def test_best_opening_matches_brute_force(rng: random.Random, size: int, wrap: bool) -> None:
    rules = Rules(wrap=wrap)
    rack = [piece.tile for piece in rng.sample(TileSet.STANDARD.pieces(), size)]
    expected = brute_force_best(rack, rules)
    found = best_opening(rack, rules)
    if expected >= rules.meld_threshold:
        assert found is not None
        assert sum(meld.value for meld in found) == expected
        assert not sum((Counter(meld.tiles) for meld in found), Counter()) - Counter(rack)
        for meld in found:
            assert Meld.parse(str(meld), wrap=wrap).value == meld.value
    else:
        assert found is None
    assert has_opening(rack, rules) == (expected >= rules.meld_threshold)
    assert (find_opening(rack, rules) is not None) == (expected >= rules.meld_threshold)


def test_candidates_are_valid_sets() -> None:
    rack = parse_tiles("R1 R2 R3 R4 B4 Y4 K4 J J R13 R12")
    melds = candidate_melds(rack, wrap=True)
    for meld in melds:
        assert Meld.parse(str(meld), wrap=True) == meld
        assert not Counter(meld.tiles) - Counter(rack)
    assert len(set(melds)) == len(melds)
    texts = {str(meld) for meld in melds}
    assert {"R1 R2 R3", "R12 R13 J", "R4 B4 Y4 K4", "R13 J J", "J J R13"} <= texts
    assert "R12 R13 R1" in texts
    assert "R12 R13 R1" not in {str(meld) for meld in candidate_melds(rack)}


def test_joker_standing_for_a_held_tile() -> None:
    # One R5, wanted by two runs: the joker stands for the other R5.
    rules = Rules(initial_meld_points=0)
    rack = parse_tiles("R3 R4 R5 R6 R7 J")
    assert brute_force_best(rack, rules) == best_value(rack, rules)
    rack = parse_tiles("R5 R6 R7 B7 Y7 J")
    assert best_value(rack, rules) == 18 + 21


def best_value(rack: list[Tile], rules: Rules) -> int:
    found = best_opening(rack, rules)
    return sum(meld.value for meld in found) if found else 0


def test_an_opening_is_at_least_one_set() -> None:
    rules = Rules(initial_meld_points=0)
    assert not has_opening(parse_tiles("R1 B7"), rules)
    assert best_opening(parse_tiles("R1 B7"), rules) is None
    assert find_opening(parse_tiles("R1 R2 R3"), rules) == [Meld.parse("R1 R2 R3")]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_engine_and_the_solver_agree_on_openings(preset: str) -> None:
    """Whether a rack holds an initial meld, as the engine's search tells it,
    is whether the solver finds one: on racks of 30 tiles up to the whole
    set, and on small racks, where the best sets are often worth too little."""
    rules = Rules.preset(preset)
    pool = [piece.tile for piece in rules.tile_set.pieces()]
    rng = random.Random(f"openings/{preset}")
    racks = [rng.sample(pool, rng.randint(30, len(pool))) for _ in range(2)]
    racks += [rng.sample(pool, rng.randint(3, 12)) for _ in range(24)]
    for rack in racks:
        play = solve(rack, rules=rules, initial_meld_done=False, fewest_changes=False)
        assert (play is not None) == has_opening(rack, rules), rack
        if play is not None:
            # Only racks of dozens of tiles meet the searches' bounds.
            assert play.proven or len(rack) >= 40
            assert play.meld_value is not None and play.meld_value >= rules.meld_threshold
