"""The move log's lines: what a turn placed, moved, drew, from the tables before and after it."""

from __future__ import annotations

from tilerummy.game import Draw, Pass, Play, Timeout
from tilerummy.melds import Meld, Table
from tilerummy.movelog import keep_order, move_line, pair_sets, table_change
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
    assert line(before, after, "Bruno") == "Bruno placed B4 R7 Y7 and moved K7 to a new group"


def test_a_split_run_keeps_one_half_and_moves_the_other() -> None:
    change = table_change(melds("R1 R2 R3 R4 R5 R6"), melds("R1 R2 R3 R4 | R5 R6 R7"))
    assert change.placed == tuple(parse_tiles("R7"))
    assert [(move.tiles, move.kind, move.new) for move in change.moved] == [(tuple(parse_tiles("R5 R6")), "run", True)]
    assert change.origins == (0, None)


def test_a_joker_freed_from_a_run_and_a_tile_moved_into_another_set() -> None:
    before = "R5 J R7 | B7 B8 B9"
    after = "R5 R6 R7 | J B10 B11 | B7 B8 B9"
    assert line(before, after) == "Ana placed R6 B10 B11 and moved J to a new run"
    moved = "R3 R4 R5 R6 | B2 Y2 K2"
    assert line(moved, "R4 R5 R6 | R3 B3 K3 | B2 Y2 K2") == "Ana placed B3 K3 and moved R3 to a new group"
    assert line("R3 R4 R5 R6 | B7 B8 B9", "R4 R5 R6 | B6 B7 B8 B9 | R3 K3 Y3") == (
        "Ana placed B6 Y3 K3 and moved R3 to a new group"
    )


def test_a_tile_moved_into_a_set_already_on_the_table() -> None:
    before = "R3 R4 R5 R6 | K7 K8 K9"
    after = "R4 R5 R6 | R3 B3 Y3 | K6 K7 K8 K9"
    assert line(before, after) == "Ana placed B3 Y3 K6 and moved R3 to a new group"
    assert line("R1 R2 R3 R4 | K5 K6 K7", "R1 R2 R3 | R4 K4 B4 | K5 K6 K7") == (
        "Ana placed B4 K4 and moved R4 to a new group"
    )
    assert line("B5 B6 B7 B8 | R9 R10 R11", "B5 B6 B7 | B8 B9 B10 | R9 R10 R11") == (
        "Ana placed B9 B10 and moved B8 to a new run"
    )
    assert line("B5 B6 B7 B8 | B10 B11 B12", "B5 B6 B7 | B8 B9 B10 B11 B12") == (
        "Ana placed B9 and moved B8 to another run"
    )


def test_draws_passes_and_timeouts() -> None:
    assert move_line("Bruno", Draw(1), [], [], drawn=1) == "Bruno drew a tile"
    assert move_line("You", Draw(0), [], [], drawn=parse_tiles("B12")) == "You drew B12"
    assert move_line("Bruno", Pass(1), [], [], drawn=0) == "Bruno passed"
    assert move_line("Bruno", Timeout(1), [], [], drawn=3) == "Bruno ran out of time: 3 tiles"


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
