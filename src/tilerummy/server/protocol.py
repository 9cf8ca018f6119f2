"""The WebSocket protocol: every message in both directions, as typed models.

These models are the single source of the protocol: the server reads and
writes through them, ``docs/protocol.md`` describes them and
:func:`json_schema` exports them. Every message is a JSON object whose
``type`` names it. The client's messages are in :mod:`.client_messages`;
this module adds the server's and is where both are imported from.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from ..game import PlayerView
from .client_messages import (
    CHAT_MAX_CHARS,
    MAX_SEATS,
    MAX_SET_TILES,
    MAX_SETS,
    NAME_MAX_CHARS,
    PROTOCOL_VERSION,
    ROOM_CODE_CHARS,
    BadMessage,
    ClientMessage,
    CreateRoom,
    DrawTile,
    Hello,
    HintRequest,
    JoinRoom,
    LeaveRoom,
    LiveTable,
    Mute,
    PassTurn,
    Ping,
    PlayTable,
    ProtocolModel,
    QuickMatch,
    Rematch,
    RequestId,
    Resync,
    RoomOptions,
    RulesSpec,
    SeatSpec,
    SendChat,
    StartGame,
    TableSets,
    TileSet,
    TileToken,
    parse_client_message,
    request_id_of,
)

__all__ = [
    "CHAT_MAX_CHARS",
    "MAX_SEATS",
    "MAX_SETS",
    "MAX_SET_TILES",
    "NAME_MAX_CHARS",
    "PROTOCOL_VERSION",
    "ROOM_CODE_CHARS",
    "BadMessage",
    "ChatLine",
    "ClientMessage",
    "CreateRoom",
    "DrawTile",
    "Error",
    "FairDeal",
    "GameEvent",
    "GameEventInfo",
    "GameState",
    "Hello",
    "Hint",
    "HintRequest",
    "JoinRoom",
    "Joined",
    "LeaveRoom",
    "Left",
    "Limits",
    "LiveTable",
    "LiveTableUpdate",
    "Mute",
    "PassTurn",
    "PastMove",
    "Ping",
    "PlayTable",
    "Pong",
    "ProtocolModel",
    "QuickMatch",
    "Rematch",
    "RequestId",
    "Resync",
    "RoomOptions",
    "RoomServer",
    "RoomState",
    "RoomUpdate",
    "RulesSpec",
    "SeatSpec",
    "SeatState",
    "SendChat",
    "ServerMessage",
    "Snapshot",
    "StartGame",
    "TableSets",
    "TileSet",
    "TileToken",
    "Welcome",
    "json_schema",
    "parse_client_message",
    "request_id_of",
    "view_fields",
]


# --- Server to client ---------------------------------------------------------


class _Reply(ProtocolModel):
    reply_to: RequestId | None = None


class Limits(ProtocolModel):
    max_message_bytes: int
    messages_per_second: float
    message_burst: int
    chat_max_chars: int
    chats_per_minute: int
    chat_burst: int = Field(default=3, description="chat lines at once before chats_per_minute paces them")
    idle_seconds: float = Field(default=120, description="a connection silent this long is closed: ping")
    max_rooms_per_address: int = Field(default=10, description="rooms open or playing created from one address")
    max_connections_per_address: int = Field(default=50, description="connections at once from one address")


class Welcome(_Reply):
    """The answer to hello."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str
    name: str
    limits: Limits
    #: The profile the player plays as, when hello sent its key (``{"id": ..., "name": ...}``).
    profile: dict[str, str] | None = None


class SeatState(ProtocolModel):
    seat: int
    kind: Literal["person", "bot"]
    level: str | None
    name: str | None = Field(description="the player's name; null while a person seat is free")
    connected: bool
    stand_in: bool = Field(description="a bot is playing for this person, who is away")


class MatchState(ProtocolModel):
    """A room's match (rules with ``rounds`` or ``target_score``): the round and the running totals by seat."""

    round: int = Field(description="the round being played, or the last one played (0 before the first)")
    rounds: int | None = Field(description="the match ends after this many rounds (null: no limit)")
    target_score: int | None = Field(description="the match ends once a total reaches this (null: no target)")
    totals: list[int] = Field(description="each seat's total over the match's finished rounds")
    over: bool = Field(description="the match is over: the host's next game starts a new match")


class RoomState(ProtocolModel):
    code: str
    invite: str = Field(description="the invite link's path, to join from a browser")
    status: Literal["open", "playing", "finished"]
    host: str | None = Field(description="the host's name")
    host_seat: int | None = Field(default=None, description="the host's seat; null when the host only watches")
    seats: list[SeatState]
    rules: dict[str, Any]
    options: RoomOptions
    spectators: int
    game_id: str | None
    games: int = Field(description="games played in this room")
    muted: list[str]
    match: MatchState | None = Field(default=None, description="the match, when the rules play several rounds")
    bots_at: float | None = Field(
        default=None,
        description="while the room is open: when (on the server's clock) computers take the seats still free",
    )
    catching_up: bool = Field(
        default=False,
        description="the server could not save the room's last change and is trying again: "
        "the turn's clock and the bots wait, actions may be refused with server_error",
    )


class FairDeal(ProtocolModel):
    """The deal's commitment (``docs/fairness.md``): SHA-256 of ``"<seed>:<salt>"``,
    shown from the first turn; the seed and the salt are revealed once the game is over."""

    commitment: str
    seed: int | None = None
    salt: str | None = None


class GameState(ProtocolModel):
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


def view_fields(view: PlayerView) -> dict[str, Any]:
    """A seat's view of the game as the wire carries it: :class:`GameState`'s fields
    but ``game_id`` and ``fairness``, which the room adds."""
    return {
        "seat": view.seat,
        "players": list(view.players),
        "rack": [str(piece.tile) for piece in view.rack] if view.rack is not None else None,
        "table": [str(meld).split() for meld in view.table],
        "rack_sizes": list(view.rack_sizes),
        "pool_size": view.pool_size,
        "turn": view.turn,
        "deadline": view.deadline,
        "melded": list(view.melded),
        "moves": len(view.history),
        "result": view.result.to_dict() if view.result is not None else None,
    }


class GameEventInfo(ProtocolModel):
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


class PastMove(ProtocolModel):
    """One action of the game so far, as everyone saw it: who, what, the tiles drawn, a play's table after it."""

    kind: Literal["play", "draw", "pass", "timeout"]
    seat: int
    drawn: int = Field(default=0, description="tiles the seat took from the pool")
    table: list[list[str]] | None = Field(default=None, description="the table after a play (null for the others)")


class Snapshot(_Reply):
    """Everything a participant may see of the room, with the last sequence number."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    now: float
    room: RoomState
    game: GameState | None
    chat: list[ChatLine]
    history: list[PastMove] = Field(default_factory=list, description="the game's actions so far, oldest first")


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


class LiveTableUpdate(_Reply):
    """The active player's provisional table, for display only (no sequence number); the
    sender's own copy answers its request when the request has an id."""

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


class RoomServer(ProtocolModel):
    """In a cluster: the process that runs your room answers at ``url`` as well. A client may
    reconnect there and take its seat back with its token: its messages then go straight
    to that process instead of being relayed by the one it reached. Ignoring it is fine."""

    type: Literal["room_server"] = "room_server"
    code: str
    url: str


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
    Welcome
    | Joined
    | Snapshot
    | RoomUpdate
    | GameEvent
    | LiveTableUpdate
    | ChatLine
    | Hint
    | RoomServer
    | Left
    | Pong
    | Error,
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
