"""The WebSocket protocol: every message in both directions, as typed models.

These models are the single source of the protocol: the server reads and
writes through them, ``docs/protocol.md`` describes them and
:func:`json_schema` exports them. Every message is a JSON object whose
``type`` names it.
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


class _Model(BaseModel):
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


class _Request(_Model):
    id: RequestId | None = None


class Hello(_Request):
    """The first message: the protocol version the client speaks and a display name."""

    type: Literal["hello"]
    protocol: int
    name: str

    _name = field_validator("name")(_clean_name)


class SeatSpec(_Model):
    """One seat of a new room: a person, or a bot of a level (``tilerummy.bots.LEVELS``)."""

    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=20)


class RulesSpec(_Model):
    """A preset and the options changed from it (see ``tilerummy rules --json``)."""

    preset: str = Field(default="standard", max_length=20)
    options: dict[str, bool | int | float | str | None] = Field(default_factory=dict, max_length=20)


class RoomOptions(_Model):
    """How a room runs, beyond the rules of the game."""

    public: bool = Field(default=True, description="listed in the lobby and open to quick match")
    grace_seconds: float = Field(default=30, ge=0, le=3600, description="a player away longer has a bot stand in")
    bot_delay: float = Field(default=1.0, ge=0, le=10, description="seconds a bot waits before it plays")
    stand_in_level: str = Field(default="greedy", max_length=20, description="the bot level that stands in")
    auto_start: bool = Field(default=False, description="start as soon as every seat is taken")
    hints: bool = Field(default=False, description="players may ask for the solver's suggestion on their turn")


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


class QuickMatch(_Request):
    """Join the next open public room with a free seat, or open one for two people."""

    type: Literal["quick_match"]


class LeaveRoom(_Request):
    """Leave the room; a player's seat stays theirs (their token keeps it)."""

    type: Literal["leave_room"]


class StartGame(_Request):
    """The host starts the game once every person seat is taken."""

    type: Literal["start_game"]


class Rematch(_Request):
    """The host starts a new game with the same seats after a game is over."""

    type: Literal["rematch"]


class PlayTable(_Request):
    """End the turn with this table: the whole table as it should be after the turn."""

    type: Literal["play"]
    sets: TableSets


class DrawTile(_Request):
    """End the turn by drawing a tile."""

    type: Literal["draw"]


class PassTurn(_Request):
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
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not a JSON text") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object with a type")
    if "type" not in data:
        raise BadMessage("a message needs a type")
    request_id = data.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        request_id = None
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise BadMessage(_first_error(error), request_id) from None


def _first_error(error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    if first["type"] == "union_tag_invalid":
        return f"unknown message type {first['input'].get('type')!r}"
    # The first part of the location is the message type, which the client knows.
    location = ".".join(str(part) for part in first["loc"][1:])
    message = first["msg"].removeprefix("Value error, ")
    return f"{location}: {message}" if location else message


# --- Server to client ---------------------------------------------------------


class _Reply(_Model):
    reply_to: RequestId | None = None


class Limits(_Model):
    max_message_bytes: int
    messages_per_second: float
    message_burst: int
    chat_max_chars: int
    chats_per_minute: int


class Welcome(_Reply):
    """The answer to hello."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str
    name: str
    limits: Limits


class SeatState(_Model):
    seat: int
    kind: Literal["person", "bot"]
    level: str | None
    name: str | None = Field(description="the player's name; null while a person seat is free")
    connected: bool
    stand_in: bool = Field(description="a bot is playing for this person, who is away")


class MatchState(_Model):
    """A room's match (rules with ``rounds`` or ``target_score``): the round and the running totals by seat."""

    round: int = Field(description="the round being played, or the last one played (0 before the first)")
    rounds: int | None = Field(description="the match ends after this many rounds (null: no limit)")
    target_score: int | None = Field(description="the match ends once a total reaches this (null: no target)")
    totals: list[int] = Field(description="each seat's total over the match's finished rounds")
    over: bool = Field(description="the match is over: the host's next game starts a new match")


class RoomState(_Model):
    code: str
    invite: str = Field(description="the invite link's path, to join from a browser")
    status: Literal["open", "playing", "finished"]
    host: str | None = Field(description="the host's name")
    seats: list[SeatState]
    rules: dict[str, Any]
    options: RoomOptions
    spectators: int
    game_id: str | None
    games: int = Field(description="games played in this room")
    muted: list[str]
    match: MatchState | None = Field(default=None, description="the match, when the rules play several rounds")


class FairDeal(_Model):
    """The deal's commitment (``docs/fairness.md``): SHA-256 of ``"<seed>:<salt>"``,
    shown from the first turn; the seed and the salt are revealed once the game is over."""

    commitment: str
    seed: int | None = None
    salt: str | None = None


class GameState(_Model):
    """One participant's view of the game; ``rack`` is null for spectators."""

    game_id: str
    players: list[str]
    seat: int | None
    rack: list[str] | None
    table: list[list[str]]
    rack_sizes: list[int]
    pool_size: int
    turn: int
    deadline: float | None = Field(description="when the turn runs out, in seconds since 1970 (server clock)")
    melded: list[bool]
    moves: int
    result: dict[str, Any] | None
    fairness: FairDeal | None = Field(default=None, description="the deal's commitment; seed and salt once over")


class GameEventInfo(_Model):
    """What happened: the game started, or a seat played, drew, passed or ran out of time."""

    kind: Literal["start", "play", "draw", "pass", "timeout"]
    seat: int | None
    placed: int = Field(default=0, description="tiles the seat put on the table")
    drawn: int = Field(default=0, description="tiles the seat took from the pool")
    stand_in: bool = Field(default=False, description="a bot played for the seat")


class Joined(_Reply):
    """You are in a room; keep the token to take your seat back after a reconnection."""

    type: Literal["joined"] = "joined"
    code: str
    invite: str = Field(description="the invite link: the server's address as you reached it, then /r/CODE")
    role: Literal["player", "spectator"]
    seat: int | None
    token: str | None
    host: bool


class ChatLine(_Reply):
    """A chat line, sent to everyone in the room (the sender's copy answers its request)."""

    type: Literal["chat"] = "chat"
    name: str
    seat: int | None
    text: str
    at: float


class Snapshot(_Reply):
    """Everything a participant may see of the room, with the last sequence number."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    now: float
    room: RoomState
    game: GameState | None
    chat: list[ChatLine]


class RoomUpdate(_Reply):
    """The room changed: a seat was taken, someone left or came back, a game began."""

    type: Literal["room"] = "room"
    seq: int
    room: RoomState


class GameEvent(_Reply):
    """An action was applied (and stored): the event and your view after it."""

    type: Literal["game"] = "game"
    seq: int
    now: float
    event: GameEventInfo
    game: GameState


class LiveTableUpdate(_Model):
    """The active player's provisional table, for display only (no sequence number)."""

    type: Literal["live_table"] = "live_table"
    seat: int
    moves: int = Field(description="the game's move count the table belongs to")
    sets: list[list[str]]


class Hint(_Reply):
    """The answer to ``hint``: the table after the best play found, and the rack tiles it places;
    ``sets`` is null when no play was found (then drawing is the move)."""

    type: Literal["hint"] = "hint"
    sets: list[list[str]] | None
    placed: list[str]


class Left(_Reply):
    type: Literal["left"] = "left"
    code: str


class Pong(_Reply):
    type: Literal["pong"] = "pong"
    now: float


class Error(_Reply):
    """A refused message. ``reason`` is a stable machine name (for a refused action, the
    engine's Reason); ``detail`` is a sentence to show."""

    type: Literal["error"] = "error"
    reason: str
    detail: str


ServerMessage = Annotated[
    Welcome | Joined | Snapshot | RoomUpdate | GameEvent | LiveTableUpdate | ChatLine | Hint | Left | Pong | Error,
    Field(discriminator="type"),
]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, one definition per direction."""
    client = TypeAdapter(ClientMessage).json_schema(ref_template="#/$defs/{model}")
    server = TypeAdapter(ServerMessage).json_schema(ref_template="#/$defs/{model}")
    definitions = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    definitions["ClientMessage"] = client
    definitions["ServerMessage"] = server
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"tilerummy protocol version {PROTOCOL_VERSION}",
        "$defs": dict(sorted(definitions.items())),
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
    }
