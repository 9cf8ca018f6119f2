"""The move log's lines: what a turn placed, moved, drew, from the tables before and after it."""

from __future__ import annotations

from tilerummy.game import Draw, Pass, Play, Timeout
from tilerummy.melds import Meld, Table
from tilerummy.movelog import keep_order, move_line, pair_sets, set_name, table_change
from tilerummy.tiles import parse_tiles


def melds(text: str) -> list[Meld]:
    return list(Table.parse(text))


def line(before: str, after: str, name: str = "Ana") -> str:
    return move_line(name, Play(0, Table.parse(after)), melds(before), melds(after), drawn=0)


def test_a_first_play_lays_new_sets() -> None:
    assert line("", "R5 R6 R7 | K10 B10 Y10") == "Ana placed R5 R6 R7 B10 Y10 K10"


def test_tiles_added_to_sets_are_placed_and_a_tile_taken_to_a_new_group_is_moved() -> None:
    before = "K4 K5 K6 K7 | B1 B2 B3"
    after = "K4 K5 K6 | B1 B2 B3 B4 | R7 Y7 K7"
    assert line(before, after, "Bruno") == "Bruno placed B4 R7 Y7 and moved K7 from K4–K7 to a new group with R7 Y7"


def test_a_split_run_keeps_one_half_and_moves_the_other() -> None:
    change = table_change(melds("R1 R2 R3 R4 R5 R6"), melds("R1 R2 R3 R4 | R5 R6 R7"))
    assert change.placed == tuple(parse_tiles("R7"))
    assert [(move.tiles, move.kind, move.new) for move in change.moved] == [(tuple(parse_tiles("R5 R6")), "run", True)]
    assert change.origins == (0, None)


def test_a_joker_freed_from_a_run_and_a_tile_moved_into_another_set() -> None:
    before = "R5 J R7 | B7 B8 B9"
    after = "R5 R6 R7 | J B10 B11 | B7 B8 B9"
    assert line(before, after) == "Ana placed R6 B10 B11 and moved J from R5–R7 to a new run with B10 B11"
    moved = "R3 R4 R5 R6 | B2 Y2 K2"
    assert (
        line(moved, "R4 R5 R6 | R3 B3 K3 | B2 Y2 K2")
        == "Ana placed B3 K3 and moved R3 from R3–R6 to a new group with B3 K3"
    )
    assert line("R3 R4 R5 R6 | B7 B8 B9", "R4 R5 R6 | B6 B7 B8 B9 | R3 K3 Y3") == (
        "Ana placed B6 Y3 K3 and moved R3 from R3–R6 to a new group with Y3 K3"
    )


def test_a_tile_moved_into_a_set_already_on_the_table() -> None:
    before = "R3 R4 R5 R6 | K7 K8 K9"
    after = "R4 R5 R6 | R3 B3 Y3 | K6 K7 K8 K9"
    assert line(before, after) == "Ana placed B3 Y3 K6 and moved R3 from R3–R6 to a new group with B3 Y3"
    assert line("R1 R2 R3 R4 | K5 K6 K7", "R1 R2 R3 | R4 K4 B4 | K5 K6 K7") == (
        "Ana placed B4 K4 and moved R4 from R1–R4 to a new group with B4 K4"
    )
    assert line("B5 B6 B7 B8 | R9 R10 R11", "B5 B6 B7 | B8 B9 B10 | R9 R10 R11") == (
        "Ana placed B9 B10 and moved B8 from B5–B8 to a new run with B9 B10"
    )
    assert line("B5 B6 B7 B8 | B10 B11 B12", "B5 B6 B7 | B8 B9 B10 B11 B12") == (
        "Ana placed B9 and moved B8 from B5–B8 to B10–B12"
    )


def test_a_tile_moved_into_a_group_names_the_set_it_left_and_the_one_it_joined() -> None:
    # Once "moved Y2 to another group and moved Y1 to a new group": now where from, and where to.
    before = "Y1 Y2 Y3 Y4 | R2 B2 K2"
    after = "R2 B2 Y2 K2 | Y3 Y4 Y5 | R1 Y1 K1"
    assert line(before, after) == (
        "Ana placed Y5 R1 K1, moved Y2 from Y1–Y4 to R2 B2 K2 and moved Y1 from Y1–Y4 to a new group with R1 K1"
    )
    # Tiles of three runs make a group of their own: the sets they left, and what they make.
    three = line("R6 R7 R8 R9 | B6 B7 B8 B9 | K6 K7 K8 K9", "R6 R7 R8 | B6 B7 B8 | K6 K7 K8 | R9 B9 K9 | Y1 Y2 Y3")
    assert three == "Ana placed Y1 Y2 Y3 and moved R9 B9 K9 from R6–R9, B6–B9 and K6–K9 to make a new group"


def test_a_set_is_named_by_its_ends_when_a_run_by_its_tiles_when_a_group() -> None:
    assert set_name(Meld.parse("R4 R5 R6 R7")) == "R4–R7"
    assert set_name(Meld.parse("R7 B7 K7")) == "R7 B7 K7"
    assert set_name(Meld.parse("R4 R5 R6"), lambda shown: "<" + " ".join(map(str, shown)) + ">") == "<R4>–<R6>"


def test_draws_passes_and_timeouts() -> None:
    assert move_line("Bruno", Draw(1), [], [], drawn=1) == "Bruno drew a tile"
    assert move_line("You", Draw(0), [], [], drawn=parse_tiles("B12")) == "You drew B12"
    assert move_line("Bruno", Pass(1), [], [], drawn=0) == "Bruno passed"
    assert move_line("Bruno", Timeout(1), [], [], drawn=3) == "Bruno ran out of time and drew 3 tiles"
    assert move_line("Bruno", Timeout(1), [], [], drawn=1) == "Bruno ran out of time and drew 1 tile"
    assert move_line("Bruno", Timeout(1), [], [], drawn=0) == "Bruno ran out of time and drew no tile"


def test_sets_keep_their_places_new_ones_come_last() -> None:
    shown = melds("K1 B1 Y1 | R5 R6 R7 | B9 B10 B11")
    table = melds("B9 B10 B11 B12 | R4 R5 R6 R7 | Y2 Y3 Y4 | K1 B1 Y1")
    assert [str(meld) for meld in keep_order(shown, table)] == [
        "B1 Y1 K1",
        "R4 R5 R6 R7",
        "B9 B10 B11 B12",
        "Y2 Y3 Y4",
    ]
    assert pair_sets([], [parse_tiles("R1 R2 R3")]) == (None,)
