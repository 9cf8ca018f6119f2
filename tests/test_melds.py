from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilerummy import InvalidMeld, Meld, MeldKind, Table, Tile
from tilerummy.melds import joker_meanings_text
from tilerummy.tiles import COLOURS, JOKER


def jokers(text: str, *, wrap: bool = False) -> list[str]:
    return [joker_meanings_text(meaning) for meaning in Meld.parse(text, wrap=wrap).jokers]


def test_group_and_run() -> None:
    group = Meld.parse("K10 B10 Y10")
    assert group.kind is MeldKind.GROUP
    assert group.value == 30
    assert str(group) == "B10 Y10 K10"
    run = Meld.parse("R5 R6 R7 R8")
    assert run.kind is MeldKind.RUN
    assert run.value == 26


def test_joker_position_fixes_its_number() -> None:
    assert jokers("R5 R6 J") == ["R7"]
    assert Meld.parse("R5 R6 J").value == 18
    assert jokers("J R5 R6") == ["R4"]
    assert Meld.parse("J R5 R6").value == 15
    assert jokers("R5 J R7") == ["R6"]


def test_two_jokers_in_one_set() -> None:
    assert jokers("R5 J J R8") == ["R6", "R7"]
    assert jokers("J R5 J") == ["R4", "R6"]
    assert Meld.parse("K5 B5 J J").kind is MeldKind.GROUP
    assert jokers("K5 B5 J J") == ["R5|Y5", "R5|Y5"]


def test_joker_at_either_end_of_a_run() -> None:
    assert jokers("J K2 K3 K4") == ["K1"]
    assert jokers("K10 K11 K12 J") == ["K13"]
    assert jokers("J R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13") == ["R1"]


def test_group_jokers() -> None:
    assert jokers("R5 B5 Y5 J") == ["K5"]
    assert jokers("R5 B5 J") == ["Y5|K5"]
    assert Meld.parse("R5 B5 Y5 J").value == 20


def test_ambiguous_single_tile_sets() -> None:
    run = Meld.parse("R10 J J")
    assert run.kind is MeldKind.RUN
    assert run.value == 33
    group = Meld.parse("R13 J J")
    assert group.kind is MeldKind.GROUP
    assert group.value == 39
    named = Meld.parse("R10 J(B10) J(Y10)")
    assert named.kind is MeldKind.GROUP
    assert named.value == 30
    assert Meld.parse(str(named)) == named
    assert Meld.parse("J(R9) R10 J").kind is MeldKind.RUN


def test_unordered_runs_are_sorted() -> None:
    assert str(Meld.parse("R7 J R5")) == "R5 J R7"
    assert str(Meld.parse("R7 R6 R5")) == "R5 R6 R7"
    # Spare jokers extend upwards, then downwards at the top.
    assert str(Meld.parse("R6 R5 J")) == "R5 R6 J"
    assert str(Meld.parse("R13 R12 J")) == "J R12 R13"


def test_wrap() -> None:
    with pytest.raises(InvalidMeld, match="only with the wrap option"):
        Meld.parse("R12 R13 R1")
    wrapped = Meld.parse("R12 R13 R1", wrap=True)
    assert wrapped.value == 26
    assert Meld.parse("R11 R12 R13 R1", wrap=True).is_run
    assert jokers("R12 R13 J", wrap=True) == ["R1"]
    for text in ("R13 R1 R2", "R12 R13 R1 R2"):
        with pytest.raises(InvalidMeld):
            Meld.parse(text, wrap=True)
        with pytest.raises(InvalidMeld):
            Meld.parse(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("R5 R6", "at least 3 tiles"),
        ("J J J", "at least one numbered tile"),
        ("R5 R5 J", "R5 appears twice"),
        ("R5 B6 Y7", "neither a group"),
        ("R5 B5 Y5 K5 J", "at most 4 tiles"),
        ("R5 R9 J", r"consecutive numbers \(R6 R7 R8 missing, 1 joker\)"),
        ("J R1 R2", "below 1"),
        ("R12 R13 J", "above 13"),
        ("R5 R6 J(B7)", "does not fit"),
        ("R5 B5 J(B5)", "cannot stand for B5"),
        ("R5 B5 J(Y5) J(Y5)", "same tile"),
    ],
)
def test_invalid_sets_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidMeld, match=reason):
        Meld.parse(text)


def test_table_parse_and_print() -> None:
    table = Table.parse("R5 R6 R7 | K10 B10 Y10|J K2 K3")
    assert len(table) == 3
    assert str(table) == "R5 R6 R7 | B10 Y10 K10 | J K2 K3"
    assert Table.parse(str(table)) == table
    assert Table.parse("") == Table()
    assert table.tile_count == 9
    assert table.tiles()[JOKER] == 1
    with pytest.raises(InvalidMeld, match="set 2"):
        Table.parse("R5 R6 R7 | R1 R2")


@st.composite
def valid_melds(draw: st.DrawFn) -> tuple[Meld, bool]:
    wrap = draw(st.booleans())
    if draw(st.booleans()):
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
        size = draw(st.integers(max(3, len(colours)), 4))
        tiles = [Tile(colour, number) for colour in colours] + [JOKER] * (size - len(colours))
        tiles = draw(st.permutations(tiles))
    else:
        colour = draw(st.sampled_from(COLOURS))
        top = 14 if wrap else 13
        start = draw(st.integers(1, top - 2))
        end = draw(st.integers(start + 2, top if start > 1 else 13))
        numbers = list(range(start, end + 1))
        tiles = [Tile(colour, 1 if n == 14 else n) for n in numbers]
        joker_places = draw(st.sets(st.integers(0, len(tiles) - 1), max_size=2))
        if len(joker_places) == len(tiles):
            joker_places = set(list(joker_places)[:-1])
        tiles = [JOKER if place in joker_places else tile for place, tile in enumerate(tiles)]
    return Meld.from_tiles(tiles, wrap=wrap), wrap


@given(valid_melds())
def test_meld_round_trips(case: tuple[Meld, bool]) -> None:
    meld, wrap = case
    assert Meld.parse(str(meld), wrap=wrap) == meld
    assert len(meld.jokers) == sum(tile.is_joker for tile in meld.tiles)
    assert meld.value > 0


@given(st.lists(valid_melds(), max_size=6))
def test_table_round_trips(cases: list[tuple[Meld, bool]]) -> None:
    melds = tuple(meld for meld, wrap in cases if not wrap or not meld.is_run)
    table = Table(melds)
    assert Table.parse(str(table)) == table
