"""The fewest changes to the table among the best plays, against the brute force.

Among the plays that tie on the objective, the solver returns one that leaves
the most old sets as they were. `tests/solver_reference.py` finds the fewest
changes by trying every layout of every tying play; the tests here compare
the number of sets the solver's play changes with it, under every rule
variant, for both objectives, with jokers on the table.
`SOLVER_EXAMPLES=2000 pytest tests/test_solver_changes.py` runs a longer sample.
"""

from __future__ import annotations

import functools
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilerummy import Game, InvalidMeld, Meld, Rules, Table, Tile, candidates, parse_tiles, solve
from tilerummy.bots import SimpleBot
from tilerummy.solver import Solution, _fewest, _solve, changed_sets, describe
from tilerummy.solver._search import FACE_COUNT, FACES, counts_of
from tilerummy.solver._tables import tables_for
from tilerummy.tiles import COLOURS, JOKER

from .solver_reference import fewest_changes_placing, reference_best, reference_fewest_changes, score
from .test_solver_exact import VARIANTS

EXAMPLES = int(os.environ.get("SOLVER_EXAMPLES", "120"))


def table_position(rng: random.Random, rules: Rules) -> tuple[list[Tile], Table]:
    """A table of one to four sets of three (runs that may end on the 1
    after 13 with ``wrap``; a joker in some) and a rack of up to five tiles,
    most of them fitting the table."""
    pool = [piece.tile for piece in rules.tile_set.pieces()]
    rng.shuffle(pool)
    melds: list[Meld] = []
    for _ in range(rng.randint(1, 4)):
        colour = rng.choice(COLOURS)
        if rng.random() < 0.5:
            start = rng.randint(1, 12 if rules.wrap else 11)
            tiles = [Tile(colour, 1 if number == 14 else number) for number in range(start, start + 3)]
        else:
            number = rng.randint(1, 13)
            tiles = [Tile(other, number) for other in rng.sample(COLOURS, 3)]
        if rng.random() < 0.3:
            tiles[rng.randrange(3)] = JOKER
        if any(pool.count(tile) < tiles.count(tile) for tile in tiles):
            continue
        try:
            meld = Meld.from_tiles(tiles, wrap=rules.wrap)
        except InvalidMeld:
            continue
        for tile in tiles:
            pool.remove(tile)
        melds.append(meld)
    numbers = {tile.number for meld in melds for tile in meld.tiles if not tile.is_joker}
    near = [tile for tile in pool if any(tile.colour == meld.colour for meld in melds) or tile.number in numbers]
    rack = near[: rng.randint(1, 4)]
    for tile in rack:
        pool.remove(tile)
    rack = (rack + pool[: rng.randint(0, 2)])[:5] or pool[:1]
    return rack, Table(tuple(melds))


def check(rack: list[Tile], table: Table, rules: Rules, *, melded: bool, objective: str) -> Solution | None:
    """Solve and compare with the brute force: the same score, and no play
    of that score changes fewer sets."""
    expected = reference_best(rack, table, rules, initial_meld_done=melded, objective=objective)
    found = solve(rack, table, rules=rules, initial_meld_done=melded, objective=objective)  # type: ignore[arg-type]
    position = (str(table), " ".join(map(str, rack)), rules, melded, objective)
    if found is None:
        assert expected is None, position
        return None
    assert (found.tiles_placed, found.value) == expected, position
    fewest = reference_fewest_changes(rack, table, rules, initial_meld_done=melded, objective=objective)
    assert found.changed == fewest, (*position, str(found.table))
    assert found.changed == len(changed_sets(table, found.table))
    return found


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(sorted(VARIANTS)),
    st.booleans(),
    st.sampled_from(["tiles", "value"]),
)
def test_fewest_changes_match_brute_force(rng: random.Random, variant: str, melded: bool, objective: str) -> None:
    rules = VARIANTS[variant]
    rack, table = table_position(rng, rules)
    found = check(rack, table, rules, melded=melded or rng.random() < 0.7, objective=objective)
    if found is not None:
        # Without the tie-break: a play as good, changing at least as many sets.
        quick = solve(rack, table, rules=rules, objective=objective, fewest_changes=False)  # type: ignore[arg-type]
        if (
            quick is not None
            and found.changed
            and (quick.tiles_placed, quick.value)
            == (
                found.tiles_placed,
                found.value,
            )
        ):
            assert quick.changed >= found.changed


@pytest.mark.parametrize(
    ("rack", "table", "rules", "expected"),
    [
        # The group keeps its joker (read as Y5 now) while the run's joker,
        # which stood for Y5, goes to K4 _ K6 as K5: jokers trade places.
        ("K4 K6", "R5 B5 J | Y2 Y3 Y4 J", Rules(), 1),
        # Under rack_or_table the joker may stand for another tile of the
        # table: R4 and R8 extend the run; nothing else moves.
        (
            "R4 K6 R8 Y7",
            "R5 R6 R7 | B2 K2 J | R1 B1 Y1 | B8 Y8 K8",
            Rules().replace(joker_replacement="rack_or_table"),
            1,
        ),
        # B1 and the rack's joker (as B2) extend B3 B4 B5; the group holding
        # B2 stays (a search once counted a set decided later as kept here).
        ("B1 B1 J K13 B12", "B8 Y8 K8 | B3 B4 B5 | R2 B2 Y2", Rules(joker_penalty=25, initial_meld_points=20), 1),
        # Free jokers: B7 and the rack's joker extend the run; the group stays.
        ("R9 J B3 B7 K11", "B8 B9 B10 | R12 B12 Y12", Rules().replace(joker_replacement="free"), 1),
        # The group's joker stands for B7 or Y7: only as Y7 does it join Y5
        # Y6, and B7 from the run then completes R7 K7 (of the two joker
        # plans, the later one takes the group as broken up, leaving the
        # plays keeping it to the earlier).
        ("Y5 Y6", "R7 K7 J | B7 B8 B9 B10", Rules(), 2),
        ("B5 B6", "R7 K7 J | Y7 Y8 Y9 Y10", Rules(), 2),
        # R4 and K5 cannot both go in without breaking the group and the run.
        ("R4 K5", "R5 B5 Y5 | R6 R7 R8 | K1 K2 K3", Rules(), 2),
        # With wrap, R12 R13 R1 is a run: its R13 comes from the group of
        # four (one change); the run of yellows stays.
        ("R12 R1", "R13 B13 Y13 K13 | Y5 Y6 Y7", Rules(wrap=True), 1),
    ],
)
def test_regressions(rack: str, table: str, rules: Rules, expected: int) -> None:
    tiles = parse_tiles(rack)
    before = Table.parse(table, wrap=rules.wrap)
    found = check(tiles, before, rules, melded=True, objective="tiles")
    assert found is not None
    assert found.changed == expected


def test_kept_jokers_never_make_a_set_alone() -> None:
    # Six-player set: K2 fits only in R2 B2 Y2 K2, which leaves the jokers
    # standing for R1, B1 and Y1 with no numbered tile to make a set with
    # (the search, counting them as those tiles, once laid them out alone).
    rules = Rules.preset("six-player")
    table = Table.parse("J R2 R3 | J B2 B3 | J Y2 Y3 | J R2 R3")
    assert check(parse_tiles("K2"), table, rules, melded=True, objective="tiles") is None
    assert candidates("K2", table, rules=rules, k=3) == []


def test_changed_sets_counts_as_describe_does() -> None:
    before = Table.parse("R5 R6 R7 | K10 B10 Y10 | R5 R6 R7")
    after = Table.parse("R4 R5 R6 R7 | B10 Y10 K10 | R5 R6 R7")
    assert [str(meld) for meld in changed_sets(before, after)] == ["R5 R6 R7"]
    # describe() names the one set broken up and keeps the others.
    assert describe(before, after, Counter(parse_tiles("R4"))) == ["add R4 to R5 R6 R7"]


def test_initial_meld_changes_nothing_or_lays_off_least() -> None:
    play = solve("K10 B10 Y10 R5", "R6 R7 R8", initial_meld_done=False)
    assert play is not None
    assert play.changed == 0
    lay_off = Rules(initial_meld_lay_off=True, initial_meld_points=10)
    # R5 goes on the run either way; the group is new: one set changed.
    play = solve("K10 B10 Y10 R5", "R6 R7 R8 | B1 B2 B3", rules=lay_off, initial_meld_done=False)
    assert play is not None
    assert (play.tiles_placed, play.changed) == (4, 1)


@settings(max_examples=max(10, EXAMPLES // 6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(["standard", "wrap", "free", "six-player"]))
def test_candidates_change_the_fewest_sets_for_their_tiles(rng: random.Random, variant: str) -> None:
    rules = VARIANTS[variant]
    rack, table = table_position(rng, rules)
    for play in candidates(rack, table, rules=rules, k=3):
        fewest = fewest_changes_placing(play.placed, rack, table, rules, initial_meld_done=True)
        assert play.changed == fewest, (str(table), " ".join(map(str, rack)), variant, str(play.table))
        assert score(play.placed, rules) == (play.tiles_placed, play.value)


@functools.cache
def game_positions(count: int) -> list[tuple[list[Tile], Table]]:
    """Racks and tables met in games between simple bots, once the table
    holds a dozen sets or more."""
    found: list[tuple[list[Tile], Table]] = []
    seed = 0
    while len(found) < count:
        game = Game.new(4, seed=seed)
        bot = SimpleBot()
        while not game.is_over and len(found) < count:
            if len(game.table.melds) >= 12 and game.melded[game.turn]:
                found.append((list(game.rack_tiles(game.turn)), game.table))
            game.apply(bot.choose(game.view(game.turn)))
        seed += 1
    return found[::3]


@pytest.mark.parametrize("index", range(6))
def test_both_orders_of_the_numbers_agree_on_game_tables(index: int) -> None:
    """On tables too big for the brute force: the search counting the
    numbers up and the one counting them down, the latter with and without
    the bound that the search for the best score gives the rack tiles below
    each number, find the same fewest changes, which no search allowed one
    change fewer can beat."""
    rack, table = game_positions(18)[index]
    rules = Rules()
    weights = _solve._weights(rules, "tiles")
    counts = counts_of(Counter(rack))
    found = _solve.best_in_box(table, [0] * FACE_COUNT, counts, weights, rules, melded=True, keep_peaks=True)
    plain = _solve.best_in_box(table, [0] * FACE_COUNT, counts, weights, rules, melded=True)
    if found is None or plain is None:
        assert found is plain is None
        return
    after, proven = _fewest.least_changed(table, found, weights, rules)
    assert proven
    fewest = len(changed_sets(table, after))
    assert len(changed_sets(table, _fewest.least_changed(table, plain, weights, rules)[0])) == fewest
    count = len(table.melds)
    reached = set()
    for setup in found.setups:
        score = found.score - sum(weights[face] * copies for face, copies in enumerate(setup.from_rack))
        below = setup.peaks[1:] if setup.peaks and setup.peaks[0] <= score else None
        for bound in {None, None if below is None else tuple(below)}:
            plan = _fewest.Orders(table, setup, tables_for(rules), score, free=False, below=bound)
            for search, _ in plan.searches():
                assert search.run(count - fewest + 1) is None
                best = search.run(count - fewest)
                if best is not None:
                    reached.add(count - len(best.kept))
    assert reached <= {fewest}
    if fewest < len(changed_sets(table, found.table)):
        assert reached == {fewest}


@pytest.mark.parametrize("seed", range(8))
def test_the_best_scores_search_bounds_every_best_play_number_by_number(seed: int) -> None:
    """What the search for the best score keeps per number (the most its
    states scored up to it) is at least what a best play's rack tiles up to
    that number score, on positions where the best play keeps rack tiles
    back (the only ones where the tie-break uses it)."""
    rng = random.Random(seed)
    rules = Rules()
    weights = _solve._weights(rules, "tiles")
    checked = 0
    while checked < 4:
        pool = [piece.tile for piece in rules.tile_set.pieces() if not piece.tile.is_joker]
        melds = []
        for _ in range(rng.randint(3, 10)):
            colour, start = rng.choice(COLOURS), rng.randint(1, 11)
            run = [Tile(colour, number) for number in range(start, start + rng.randint(3, 4)) if number <= 13]
            if all(pool.count(tile) >= run.count(tile) for tile in run):
                for tile in run:
                    pool.remove(tile)
                melds.append(Meld.from_tiles(run))
        table = Table(tuple(melds))
        rack = rng.sample(pool, rng.randint(6, 20))
        found = _solve.best_in_box(
            table, [0] * FACE_COUNT, counts_of(Counter(rack)), weights, rules, melded=True, keep_peaks=True
        )
        if found is None or len(found.setups) != 1 or not found.setups[0].peaks:
            continue  # no play, or the whole rack placed without a full search
        peaks = found.setups[0].peaks
        assert peaks[0] <= found.score
        placed = found.table.tiles() - table.tiles()
        for number in range(1, 14):
            up_to = sum(weights[FACES.index(tile)] * copies for tile, copies in placed.items() if tile.number <= number)
            assert up_to <= peaks[number]
        checked += 1


def test_skipping_the_tie_break_keeps_the_score() -> None:
    rack, table = "R4 K5", "R5 B5 Y5 | R6 R7 R8 | K1 K2 K3"
    exact = solve(rack, table)
    quick = solve(rack, table, fewest_changes=False)
    assert exact is not None and quick is not None
    assert (quick.tiles_placed, quick.value) == (exact.tiles_placed, exact.value)
    assert quick.changed >= exact.changed == 2


def test_four_jokers_kept_on_the_table_never_hide_a_play() -> None:
    # The layout that scores most would put the three runs' jokers (standing for R1, B1 and Y1)
    # in a group of their own: no play. The best real play adds Y10 to B10 K10 J.
    rules = Rules.preset("six-player")
    table = Table.parse("B10 K10 J | J Y2 Y3 | J R2 R3 | J B2 B3")
    for rack in ("Y10", "K3 R12 Y10"):
        for fewest in (True, False):
            found = solve(parse_tiles(rack), table, rules=rules, initial_meld_done=True, fewest_changes=fewest)
            assert found is not None and [str(tile) for tile in found.placed] == ["Y10"], (rack, fewest)
            assert found.changed == 1
            assert {str(meld) for meld in found.table.melds} >= {"J Y2 Y3", "J R2 R3", "J B2 B3"}
    check(parse_tiles("K3 R12 Y10"), table, rules, melded=True, objective="tiles")
