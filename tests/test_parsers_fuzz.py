"""Arbitrary text and JSON to every reader: each parses or raises the project's own error."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tilerummy import Game, GameRecord, Meld, Table, Tile, TilerummyError, parse_tiles
from tilerummy.melds import WrittenMeld
from tilerummy.tiles import Piece

from .effort import examples

# Text close to the notation reaches further into the readers than random text.
NOTATION_ALPHABET = "RBYKJrbykj0123456789()|,# \t\n"
notation_text = st.text(alphabet=NOTATION_ALPHABET, max_size=60) | st.text(max_size=60)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=NOTATION_ALPHABET, max_size=20)
    | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _parses_or_refuses(read: Any, text: Any) -> None:
    """Anything but the project's own error, with a one-line message, fails the test."""
    message = "parsed"
    try:
        read(text)
    except TilerummyError as error:
        message = str(error)
    assert message
    assert "\n" not in message


@settings(max_examples=examples(300), deadline=None)
@given(notation_text)
def test_the_notation_readers_parse_or_refuse(text: str) -> None:
    for read in (Tile.parse, Piece.parse, parse_tiles, Meld.parse, WrittenMeld.parse, Table.parse):
        _parses_or_refuses(read, text)
    _parses_or_refuses(lambda text: Table.parse(text, wrap=True), text)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=200))
def test_the_record_reader_parses_or_refuses_any_text(text: str) -> None:
    _parses_or_refuses(GameRecord.from_json, text)


VALID_RECORD = GameRecord.from_game(Game.new(["Ana", "Bruno"], seed=4, started_at=0.0)).to_dict()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the whole value included."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*path, index))
    return found


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


def _with_a_play(record: dict[str, Any]) -> dict[str, Any]:
    game = GameRecord.from_dict(record).new_game()
    game.draw(game.turn, at=5.0)
    game.timeout(game.turn, at=200.0)
    return GameRecord.from_game(game).to_dict(result={"scores": [0, 0]})


RICH_RECORD = _with_a_play(VALID_RECORD)
RICH_PATHS = _paths(RICH_RECORD)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(RICH_PATHS), json_values)
def test_the_record_reader_parses_or_refuses_wrong_json_at_every_level(path: tuple[Any, ...], new: Any) -> None:
    data = _replaced(RICH_RECORD, path, new)
    _parses_or_refuses(GameRecord.from_dict, data)
    _parses_or_refuses(GameRecord.from_json, json.dumps(data))


def test_the_rich_record_is_valid_and_reaches_every_field() -> None:
    assert GameRecord.from_dict(RICH_RECORD).replay().ok
    assert {path[0] for path in RICH_PATHS if path} >= {"rules", "players", "seed", "started_at", "actions", "result"}
