"""What the server's tests check of the messages a client received, and a scripted person."""

from __future__ import annotations

import json
from typing import Any

from tilerummy import GameRecord, Rules, best_opening, parse_tiles

Message = dict[str, Any]

PERSON: Message = {"kind": "person"}


def bot(level: str) -> Message:
    return {"kind": "bot", "level": level}


def person_move(state: Message, rules: Rules) -> Message:
    """A scripted person: opens with the best initial meld it finds, otherwise draws (or passes)."""
    seat = state["seat"]
    rack = parse_tiles(" ".join(state["rack"]))
    if not state["melded"][seat] and len(rack) <= 20:
        opening = best_opening(rack, rules)
        if opening is not None:
            return {"type": "play", "sets": state["table"] + [str(meld).split() for meld in opening]}
    return {"type": "draw"} if state["pool_size"] else {"type": "pass"}


def my_turn(message: Message, seat: int | None) -> bool:
    return (
        message["type"] in ("game", "snapshot")
        and message["game"] is not None
        and message["game"]["result"] is None
        and message["game"]["turn"] == seat
    )


def check_sequence_numbers(messages: list[Message]) -> None:
    """After each snapshot, every room and game message takes the next number."""
    last: int | None = None
    for message in messages:
        if message["type"] == "snapshot":
            last = message["seq"]
        elif message["type"] in ("room", "game"):
            assert last is not None and message["seq"] == last + 1, (last, message)
            last = message["seq"]


def check_nothing_hidden_seen(messages: list[Message], seat: int | None, record: GameRecord) -> int:
    """Every message a client received shows no tile it may not see: no rack but its
    own (exactly its own, move by move), no pool, no deal; and no seed or salt before the
    game is over (the deal's commitment reveals them at the end). Returns the racks checked."""
    forbidden = {"pool", "racks", "deal", "token_hash"}
    checked = 0

    def walk(value: Any, inside_game: Message | None) -> None:
        nonlocal checked
        if isinstance(value, dict):
            assert not forbidden & set(value), f"hidden field in {value}"
            game = value if "rack" in value and "rack_sizes" in value else inside_game
            if "seed" in value or "salt" in value:
                assert "commitment" in value, f"a seed outside the deal's commitment: {value}"
                if game is None or game["result"] is None:
                    assert value["seed"] is None and value["salt"] is None, f"revealed before the end: {value}"
            if value.get("rack") is not None:
                assert seat is not None, "a spectator was sent a rack"
                assert game is not None and game["seat"] == seat, f"another seat's rack was sent to seat {seat}"
                replayed = record.new_game()
                for action in record.actions[: game["moves"]]:
                    replayed.apply(action)
                assert value["rack"] == [str(tile) for tile in replayed.rack_tiles(seat)]
                checked += 1
            for item in value.values():
                walk(item, game)
        elif isinstance(value, list):
            for item in value:
                walk(item, inside_game)

    for message in messages:
        walk(message, None)
    while_playing = [message for message in messages if not _over(message)]
    if record.deal.seed is not None:
        assert str(record.deal.seed) not in json.dumps(while_playing)
    return checked


def _over(message: Message) -> bool:
    game = message.get("game")
    return isinstance(game, dict) and game.get("result") is not None
