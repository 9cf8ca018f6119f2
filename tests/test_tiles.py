from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilerummy import JOKER, Colour, NotationError, Piece, Tile, TileSet, format_tiles, parse_tiles
from tilerummy.tiles import NUMBERED_TILES


def test_parse_and_print() -> None:
    assert Tile.parse("r5") == Tile(Colour.RED, 5)
    assert str(Tile.parse("K13")) == "K13"
    assert Tile.parse("j") is JOKER
    assert repr(Tile.parse("Y1")) == "Tile.parse('Y1')"
    assert parse_tiles("R5, k13  J,b1") == [Tile.parse("R5"), Tile.parse("K13"), JOKER, Tile.parse("B1")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q5", "Q5: unknown colour 'Q'"),
        ("R14", "R14: numbers run from 1 to 13"),
        ("R0", "R0: numbers run from 1 to 13"),
        ("R", "is not a tile"),
        ("5R", "is not a tile"),
        ("", "empty tile"),
    ],
)
def test_bad_tiles_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Tile.parse(text)


def test_one_object_per_face_and_it_cannot_change() -> None:
    r5 = Tile.parse("R5")
    assert Tile(Colour.RED, 5) is r5
    assert copy.deepcopy(r5) is r5
    assert pickle.loads(pickle.dumps([r5, JOKER])) == [r5, JOKER]
    assert len({Tile.parse("r5"), r5, Tile.parse("B5")}) == 2
    assert r5.is_joker is False and JOKER.is_joker is True
    assert r5.sort_key == (0, 5) and JOKER.sort_key == (4, 0)
    with pytest.raises(AttributeError, match="a tile cannot change"):
        r5.number = 6
    assert str(r5) == "R5"
    with pytest.raises(NotationError, match="a joker has no number"):
        Tile(None, 3)
    with pytest.raises(NotationError, match="not a colour"):
        Tile("R", 5)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from([*NUMBERED_TILES, JOKER]), max_size=20))
def test_notation_round_trips(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles
    assert parse_tiles(format_tiles(tiles).lower()) == tiles


def test_sorting_and_cards() -> None:
    tiles = parse_tiles("K1 J R13 B2 R2")
    assert format_tiles(sorted(tiles)) == "R2 R13 B2 K1 J"
    assert Tile.parse("R1").card() == "A♥"
    assert Tile.parse("K12").card() == "Q♠"
    assert Tile.parse("B10").card() == "10♣"
    assert JOKER.card() == "★"


def test_tile_sets_and_pieces() -> None:
    assert TileSet.STANDARD.size == 106
    assert TileSet.SIX_PLAYER.size == 160
    standard = TileSet.STANDARD.pieces()
    assert len(set(standard)) == 106
    assert sum(piece.tile.is_joker for piece in TileSet.SIX_PLAYER.pieces()) == 4
    r5 = [piece for piece in standard if piece.tile == Tile.parse("R5")]
    assert [str(piece) for piece in r5] == ["R5#1", "R5#2"]
    assert Piece.parse("R5#2") == r5[1]
    assert Piece.parse(str(r5[0])) == r5[0]
    with pytest.raises(NotationError):
        Piece.parse("R5")
