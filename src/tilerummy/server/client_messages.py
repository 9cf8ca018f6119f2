"""The WebSocket protocol, client to server: every message a client may send, as typed models,
and how a message is read (:func:`parse_client_message`).

:mod:`.protocol` adds the server's messages and exports both; import from there.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

#: Raised when a change would break existing clients.
PROTOCOL_VERSION = 1

NAME_MAX_CHARS = 24
CHAT_MAX_CHARS = 300
#: A table holds at most 160 tiles; more sets than that is never a real table.
MAX_SETS = 60
MAX_SET_TILES = 14
MAX_SEATS = 6
ROOM_CODE_CHARS = 6

RequestId = Annotated[int | str, Field(description="any id the client chooses; replies carry it as reply_to")]
TileToken = Annotated[str, Field(max_length=8, description='a tile in notation: "R5", "K13", "J" or "J(B10)"')]
TileSet = Annotated[list[TileToken], Field(max_length=MAX_SET_TILES)]
TableSets = Annotated[list[TileSet], Field(max_length=MAX_SETS, description="the sets, each a list of tiles")]


class ProtocolModel(BaseModel):
    """A message or a part of one: no field beyond those named, never changed once made."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _clean_name(value: str) -> str:
    name = " ".join(value.split())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > NAME_MAX_CHARS:
        raise ValueError(f"a name has at most {NAME_MAX_CHARS} characters")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise ValueError("a name cannot hold control characters")
    return name


# --- Client to server ---------------------------------------------------------


class _Request(ProtocolModel):
    id: RequestId | None = None


class Hello(_Request):
    """The first message: the protocol version the client speaks and a display name."""

    type: Literal["hello"]
    protocol: int
    name: str
    #: A profile's device key (``docs/protocol.md#profiles``): the player plays as that profile,
    #: under its name, and its games may be rated.
    key: str | None = Field(default=None, max_length=100)

    _name = field_validator("name")(_clean_name)


class SeatSpec(ProtocolModel):
    """One seat of a new room: a person, or a bot of a level (``tilerummy.bots.LEVELS``)."""

    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=20)


class RulesSpec(ProtocolModel):
    """A preset and the options changed from it (see ``tilerummy rules --json``)."""

    preset: str = Field(default="standard", max_length=20)
    options: dict[str, bool | int | float | str | None] = Field(default_factory=dict, max_length=20)


class RoomOptions(ProtocolModel):
    """How a room runs, beyond the rules of the game."""

    public: bool = Field(default=True, description="listed in the lobby and open to quick match")
    grace_seconds: float = Field(default=30, ge=0, le=3600, description="a player away longer has a bot stand in")
    bot_delay: float = Field(default=1.0, ge=0, le=10, description="seconds a bot waits before it plays")
    stand_in_level: str = Field(default="greedy", max_length=20, description="the bot level that stands in")
    auto_start: bool = Field(default=False, description="start as soon as every seat is taken")
    hints: bool = Field(default=False, description="players may ask for the solver's suggestion on their turn")
    bots_after: float | None = Field(
        default=None,
        ge=5,
        le=3600,
        description="seconds after the room opens when computers take the seats still free, if someone waits in it",
    )
    rated: bool = Field(
        default=False,
        description="its games change the players' ratings, when every person seat is a profile and the rules are standard",
    )


class CreateRoom(_Request):
    """Open a room; the creator is its host and takes the first person seat (or watches)."""

    type: Literal["create_room"]
    rules: RulesSpec = Field(default_factory=RulesSpec)
    seats: list[SeatSpec] = Field(min_length=2, max_length=MAX_SEATS)
    options: RoomOptions = Field(default_factory=RoomOptions)


class JoinRoom(_Request):
    """Join a room as a player (a free person seat, or the seat a token holds) or spectator."""

    type: Literal["join_room"]
    code: str = Field(max_length=ROOM_CODE_CHARS + 4)
    role: Literal["player", "spectator"] = "player"
    token: str | None = Field(default=None, max_length=64, description="the secret of a seat held before")
    new_token: str | None = Field(
        default=None,
        min_length=16,
        max_length=64,
        description="a secret of your choosing for the seat this join takes (it is the token joined gives back): "
        "the same join sent again finds that seat instead of taking a second one",
    )


class QuickMatch(_Request):
    """Join the next open public room with a free seat, or open one for two people."""

    type: Literal["quick_match"]
    new_token: str | None = Field(
        default=None,
        min_length=16,
        max_length=64,
        description="as in join_room: the seat found gets this token, and the same quick match sent again "
        "finds that seat instead of another",
    )


class LeaveRoom(_Request):
    """Leave the room; a player's seat stays theirs (their token keeps it)."""

    type: Literal["leave_room"]


class StartGame(_Request):
    """The host starts the game once every person seat is taken."""

    type: Literal["start_game"]


class Rematch(_Request):
    """The host starts a new game with the same seats after a game is over."""

    type: Literal["rematch"]


class _Action(_Request):
    seq: int | None = Field(
        default=None,
        ge=0,
        description="the last sequence number you saw: an action made before the game's last change is refused "
        "as stale, and one sent again with the same id and seq gets its first answer instead of acting twice",
    )


class PlayTable(_Action):
    """End the turn with this table: the whole table as it should be after the turn."""

    type: Literal["play"]
    sets: TableSets


class DrawTile(_Action):
    """End the turn by drawing a tile."""

    type: Literal["draw"]


class PassTurn(_Action):
    """End the turn without playing (only when the pool is empty)."""

    type: Literal["pass"]


class LiveTable(_Request):
    """The active player's table as it is being rearranged: shown to others, never applied."""

    type: Literal["live_table"]
    sets: TableSets


class SendChat(_Request):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_MAX_CHARS)


class Mute(_Request):
    """The host mutes (or unmutes) a participant's chat, by name, for the whole room."""

    type: Literal["mute"]
    name: str = Field(max_length=NAME_MAX_CHARS)
    muted: bool = True


class HintRequest(_Request):
    """Ask for the solver's best play on your turn (in rooms whose options allow hints)."""

    type: Literal["hint"]


class Resync(_Request):
    """Ask for a full snapshot (after a gap in sequence numbers)."""

    type: Literal["resync"]


class Ping(_Request):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello
    | CreateRoom
    | JoinRoom
    | QuickMatch
    | LeaveRoom
    | StartGame
    | Rematch
    | PlayTable
    | DrawTile
    | PassTurn
    | LiveTable
    | SendChat
    | Mute
    | HintRequest
    | Resync
    | Ping,
    Field(discriminator="type"),
]

_CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A client message that is not JSON or not one of the protocol's messages;
    ``request_id`` is its id when it could be read, for the reply."""

    def __init__(self, detail: str, request_id: int | str | None = None) -> None:
        super().__init__(detail)
        self.request_id = request_id


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one client message.

    :raises BadMessage: with one line naming what is wrong.
    """
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise BadMessage("not a JSON text") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object with a type")
    request_id = _id_of(data)
    if "type" not in data:
        raise BadMessage("a message needs a type", request_id)
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise BadMessage(_first_error(error), request_id) from None


def request_id_of(text: str | bytes) -> RequestId | None:
    """The ``id`` of a message the server will not read in full (too large, over the rate),
    so that its refusal still answers it; None when it has none or is not JSON."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return None
    return _id_of(data) if isinstance(data, dict) else None


def _id_of(data: dict[str, Any]) -> RequestId | None:
    request_id = data.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    return request_id


def _refuse_constant(name: str) -> None:
    # NaN and Infinity are not JSON: Python reads them unless told not to.
    raise ValueError(f"{name} is not a JSON number")


def _first_error(error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    if first["type"] == "union_tag_invalid":
        return f"unknown message type {first['input'].get('type')!r}"
    # The first part of the location is the message type, which the client knows.
    location = ".".join(str(part) for part in first["loc"][1:])
    message = first["msg"].removeprefix("Value error, ")
    return f"{location}: {message}" if location else message
