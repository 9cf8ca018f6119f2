"""The solver against an independent brute force, and against the peer solver."""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilerummy import InvalidMeld, Meld, Rules, Table, Tile, TilerummyError, candidates, solve
from tilerummy.solver import _fewest, _solve
from tilerummy.tiles import COLOURS, JOKER

from .solver_reference import playable, reference_best, score, sub_multisets

VARIANTS = {
    "standard": Rules(),
    "wrap": Rules(wrap=True),
    "free": Rules().replace(joker_replacement="free"),
    "rack_or_table": Rules().replace(joker_replacement="rack_or_table"),
    "strict": Rules(initial_meld_strict=True),
    "six-player": Rules.preset("six-player"),
    "joker-25": Rules(joker_penalty=25, initial_meld_points=20),
    "lay-off": Rules(initial_meld_lay_off=True, initial_meld_points=15),
    "lay-off-wrap": Rules(initial_meld_lay_off=True, wrap=True, initial_meld_points=10),
}


def small_position(rng: random.Random, rules: Rules) -> tuple[list[Tile], Table]:
    """A table of up to three small sets (some with jokers) and a rack of up to six tiles."""
    pool = [piece.tile for piece in rules.tile_set.pieces()]
    rng.shuffle(pool)
    melds: list[Meld] = []
    for _ in range(rng.randint(0, 3)):
        colour = rng.choice(COLOURS)
        if rng.random() < 0.5:
            start = rng.randint(1, 11)
            tiles = [Tile(colour, number) for number in range(start, start + 3)]
        else:
            number = rng.randint(1, 13)
            tiles = [Tile(other, number) for other in rng.sample(COLOURS, 3)]
        if rng.random() < 0.4:
            tiles[rng.randrange(3)] = JOKER
        if all(pool.count(tile) >= tiles.count(tile) for tile in tiles):
            for tile in tiles:
                pool.remove(tile)
            try:
                melds.append(Meld.from_tiles(tiles, wrap=rules.wrap))
            except InvalidMeld:
                continue
    rack = pool[: rng.randint(1, 6)]
    # Bias the rack towards tiles that fit the table.
    near = [tile for tile in pool[6:] if any(tile.colour == m.colour or tile.number == m.number for m in melds)]
    rack = (rack + near[: rng.randint(0, 3)])[:6]
    return rack, Table(tuple(melds))


@settings(
    max_examples=int(os.environ.get("SOLVER_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(sorted(VARIANTS)),
    st.booleans(),
    st.sampled_from(["tiles", "value"]),
)
def test_solver_matches_brute_force(rng: random.Random, variant: str, melded: bool, objective: str) -> None:
    rules = VARIANTS[variant]
    rack, table = small_position(rng, rules)
    expected = reference_best(rack, table, rules, initial_meld_done=melded, objective=objective)
    found = solve(rack, table, rules=rules, initial_meld_done=melded, objective=objective)  # type: ignore[arg-type]
    got = None if found is None else (found.tiles_placed, found.value)
    assert got == expected, (str(table), [str(t) for t in rack], variant, melded, objective, found)
    # The same without the quick search for a play placing the whole rack.
    with whole_rack_search_off():
        found = solve(rack, table, rules=rules, initial_meld_done=melded, objective=objective)  # type: ignore[arg-type]
    got = None if found is None else (found.tiles_placed, found.value)
    assert got == expected, (str(table), [str(t) for t in rack], variant, melded, objective, found)


@contextlib.contextmanager
def whole_rack_search_off() -> Iterator[None]:
    with mock.patch.object(_solve, "WHOLE_RACK_BUDGET", 0), mock.patch.object(_fewest, "WHOLE_RACK_BUDGET", 0):
        yield


def test_peer_never_beats_us() -> None:
    pytest.importorskip("rummikub_solver")
    from .peer import peer_answer

    rng = random.Random(7)
    compared = 0
    for _ in range(40):
        rules = Rules()
        rack, table = small_position(rng, rules)
        answer = peer_answer(rack, table, rules, initial_meld_done=True)
        ours = solve(rack, table, rules=rules)
        if answer is None:
            continue
        compared += 1
        mine = ours.tiles_placed if ours else 0
        # Where its play is legal under our rules we place at least as many
        # tiles; where its count is proven optimal, exactly as many.
        if answer.table is not None:
            assert mine >= len(answer.placed), (str(table), [str(t) for t in rack])
        if answer.exact:
            assert mine == len(answer.placed), (str(table), [str(t) for t in rack])
        assert mine <= answer.bound
    assert compared > 10


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(["standard", "free", "wrap"]), st.booleans())
def test_candidates_are_the_best_distinct_plays(rng: random.Random, variant: str, melded: bool) -> None:
    rules = VARIANTS[variant]
    rack, table = small_position(rng, rules)
    # Every distinct set of rack tiles that can be played, by brute force.
    playable_parts = [
        part for part in sub_multisets(rack) if playable(table, part, rack, rules, melded=melded) is not None
    ]
    expected = sorted((score(part, rules) for part in playable_parts), reverse=True)[:4]
    found = candidates(rack, table, rules=rules, initial_meld_done=melded, k=4)
    assert [(play.tiles_placed, play.value) for play in found] == expected, (str(table), [str(t) for t in rack])
    assert len({tuple(play.placed) for play in found}) == len(found)


def test_candidates_input() -> None:
    plays = candidates("R4 K5 B6 Y6", "R5 B5 Y5 | R6 R7 R8", k=6)
    assert [sorted(map(str, play.placed)) for play in plays] == [["K5", "R4"], ["K5"]]
    assert candidates("R1 B7", "K5 K6 K7") == []
    with pytest.raises(TilerummyError, match="at least one"):
        candidates("R1 R2 R3", k=0)
