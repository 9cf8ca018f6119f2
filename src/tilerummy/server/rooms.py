"""A room: its seats, its rules and options, and the game played in it.

Pure state, no I/O: the hub (``hub.py`` and its parts) drives rooms, stores them and talks
to the players. A room is saved as JSON data (:meth:`Room.to_data`); its game
is saved separately as a record and rebuilt by replaying it.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any, Literal

from ..bots import LEVELS
from ..deal import Deal
from ..errors import RulesError, TilerummyError
from ..fairness import Fairness
from ..game import Game
from ..records import FORMAT, VERSION
from ..rules import Rules
from ..scoring import MatchStanding, match_standing
from .protocol import (
    ROOM_CODE_CHARS,
    ChatLine,
    CreateRoom,
    FairDeal,
    GameState,
    LiveTableUpdate,
    MatchState,
    RoomOptions,
    RoomState,
    SeatState,
    view_fields,
)

#: No 0/O or 1/I, so a code read aloud or copied by hand is not mistaken.
ROOM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CHAT_HISTORY = 50
#: The range of each number in the rules that a room on the server may use: shorter turns
#: would let one room keep the server busy with timeouts, and absurd values only break clients.
ONLINE_RULE_RANGES: dict[str, tuple[float, float]] = {
    "turn_seconds": (1, 3600),
    "initial_meld_points": (0, 200),
    "timeout_penalty": (0, 20),
    "joker_penalty": (0, 200),
    "rounds": (1, 100),
    "target_score": (1, 10_000),
}

RoomStatus = Literal["open", "playing", "finished"]


@dataclass(frozen=True, slots=True)
class Answer:
    """What a request was answered: applied at ``seq``, or refused for ``reason``."""

    seq: int | None = None
    reason: str | None = None
    detail: str = ""


#: A request as the room knows it again: its id and the sequence number it was made against.
RequestKey = tuple[int | str, int]


@dataclass(frozen=True, slots=True)
class SeatTaking:
    """A person to be seated: the seat, the name (made unique in the room), the token's hash,
    and the profile the person plays as (None: a guest)."""

    index: int
    name: str
    token_hash: str
    seated_at: float
    profile: str | None = None


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game a room is to begin: dealt, committed to, named; not yet the room's."""

    game: Game
    fairness: Fairness
    game_id: str
    games_played: int
    match_scores: list[list[int]]
    #: The game record's header (``docs/record-format.md``).
    header: dict[str, Any]


class RoomError(TilerummyError):
    """A request the room refuses; ``reason`` is the protocol's machine name."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def new_room_code(taken: Container[str]) -> str:
    while True:
        code = "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_CHARS))
        if code not in taken:
            return code


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Only hashes are stored, so the database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_level(level: str | None, what: str) -> str:
    if level is None or level.lower() not in LEVELS:
        raise RoomError("bad_request", f"{what}: bot level {level!r} is not one of {', '.join(LEVELS)}")
    return level.lower()


@dataclass(eq=False)
class Seat:
    index: int
    kind: Literal["person", "bot"]
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    #: The profile of the person in the seat (None: a guest, or a bot).
    profile: str | None = None
    #: When the person took the seat: the longest seated becomes host when the host is gone.
    seated_at: float = 0.0
    # Not stored: who is connected now. After a restart everyone is away until they come back.
    connections: int = 0
    away_since: float | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "token_hash": self.token_hash,
            "profile": self.profile,
            "seated_at": self.seated_at,
        }

    @classmethod
    def from_data(cls, index: int, data: dict[str, Any], now: float) -> Seat:
        seat = cls(
            index,
            data["kind"],
            data.get("level"),
            data.get("name"),
            data.get("token_hash"),
            data.get("profile"),
            data.get("seated_at", 0.0),
        )
        if seat.kind == "person" and seat.name is not None:
            seat.away_since = now
        return seat

    def stand_in(self, now: float, grace: float) -> bool:
        """Whether a bot plays for this person now: away for longer than the grace period."""
        return (
            self.kind == "person"
            and self.connections == 0
            and self.away_since is not None
            and (now - self.away_since >= grace)
        )


@dataclass(eq=False)
class Room:
    code: str
    rules: Rules
    options: RoomOptions
    seats: list[Seat]
    host_token_hash: str
    host_name: str | None
    created_at: float
    status: RoomStatus = "open"
    game: Game | None = None
    game_id: str | None = None
    games_played: int = 0
    # The scores of the current match's rounds before the game in the room (stored with the room;
    # the game's own result is in its record). Empty when the rules play single rounds.
    match_scores: list[list[int]] = field(default_factory=list)
    seq: int = 0
    muted: set[str] = field(default_factory=set)
    #: Whether the game in the room changes its players' ratings (decided when it starts).
    rated_game: bool = False
    # Not stored: the sequence number of the game's last change (a request made against an
    # older one is stale), and each seat's last answers (a request sent again gets its first).
    game_seq: int = 0
    answers: dict[int, deque[tuple[RequestKey, Answer]]] = field(default_factory=dict)
    # Not stored with the room: the game's record keeps it (its salt stays secret until the end).
    fairness: Fairness | None = None
    # Not stored.
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY))
    live: LiveTableUpdate | None = None
    spectators: int = 0
    #: A change of the room could not be written; the server tries again (its players are told).
    catching_up: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def create(cls, code: str, request: CreateRoom, host_token: str, host_name: str, now: float) -> Room:
        """A new room; the host takes the first person seat, if there is one.

        :raises RoomError: for rules, seats or options the game cannot have.
        """
        try:
            rules = Rules.preset(request.rules.preset, **request.rules.options)
            rules.check_players(len(request.seats))
        except (RulesError, TypeError) as error:
            raise RoomError("bad_rules", str(error)) from None
        for name, (low, high) in ONLINE_RULE_RANGES.items():
            value = getattr(rules, name)
            if value is not None and not low <= value <= high:
                raise RoomError("bad_rules", f"{name}={value:g}: at least {low:g} and at most {high:g} on the server")
        options = request.options.model_copy(
            update={"stand_in_level": check_level(request.options.stand_in_level, "options.stand_in_level")}
        )
        seats = []
        for index, spec in enumerate(request.seats):
            if spec.kind == "bot":
                seats.append(Seat(index, "bot", check_level(spec.level, f"seats[{index}]")))
            else:
                seats.append(Seat(index, "person"))
        room = cls(code, rules, options, seats, hash_token(host_token), host_name, now)
        for index, seat in enumerate(room.seats):
            if seat.kind == "bot":
                seat.name = room.unique_name(f"{seat.level} bot {index + 1}".capitalize())
        return room

    # --- Ratings -----------------------------------------------------------

    def rated_seats(self, rated_levels: Container[str]) -> list[dict[str, str]] | None:
        """Who sits where, for rating the game about to start: ``{"profile": id}`` or
        ``{"bot": level}`` per seat; None when the game is not to be rated (the room is not
        rated, a person seat holds a guest, a bot's level is not in ``rated_levels`` (it has no
        published rating), or the rules are not the standard ones: one rating pool,
        ``docs/ratings.md``)."""
        if not self.options.rated or self.rules != Rules.preset("standard"):
            return None
        seats: list[dict[str, str]] = []
        for seat in self.seats:
            if seat.kind == "bot" and seat.level is not None:
                if seat.level not in rated_levels:
                    return None
                seats.append({"bot": seat.level})
            elif seat.profile is not None:
                seats.append({"profile": seat.profile})
            else:
                return None
        return seats if any("profile" in seat for seat in seats) else None

    def bots_at(self) -> float | None:
        """When computers take the free seats (option ``bots_after``), while the room is open."""
        if self.options.bots_after is None or self.status != "open":
            return None
        return self.created_at + self.options.bots_after

    def seat_bots(self, level: str) -> list[Seat]:
        """Computers of ``level`` in every free person seat (the room is open); the seats changed."""
        seated = []
        for seat in self.seats:
            if seat.kind == "person" and seat.name is None:
                seat.kind, seat.level = "bot", level
                seat.name = self.unique_name(f"{level} bot {seat.index + 1}".capitalize())
                seated.append(seat)
        return seated

    def abandoned_seats(self, now: float) -> tuple[int, ...]:
        """The person seats whose player has been away past the grace period (a bot stands in)
        as the game ends: in a rated game, a loss."""
        return tuple(seat.index for seat in self.seats if seat.stand_in(now, self.options.grace_seconds))

    # --- Seats -------------------------------------------------------------

    def free_seat(self) -> Seat | None:
        return next((seat for seat in self.seats if seat.kind == "person" and seat.name is None), None)

    def take_seat(self, name: str, token: str, now: float = 0.0, profile: str | None = None) -> Seat:
        """Seat a person in the first free person seat at once (a room being built, not served:
        the server seats people through the room core's ``TakeSeat``).

        :raises RoomError: when the game has begun or every seat is taken.
        """
        return self.seat(self.plan_seat(name, token, now, profile))

    def plan_seat(self, name: str, token: str, now: float = 0.0, profile: str | None = None) -> SeatTaking:
        """The seat a person would take, and as whom, the room left as it is.

        :raises RoomError: when the game has begun or every seat is taken.
        """
        self.check_seat_free()
        seat = self.free_seat()
        assert seat is not None
        return SeatTaking(seat.index, self.unique_name(name), hash_token(token), now, profile)

    def seat(self, seating: SeatTaking) -> Seat:
        """Seat the person as planned (:meth:`plan_seat`)."""
        seat = self.seats[seating.index]
        seat.name, seat.token_hash, seat.seated_at = seating.name, seating.token_hash, seating.seated_at
        seat.profile = seating.profile
        return seat

    def check_seat_free(self) -> None:
        """:raises RoomError: when the game has begun or every seat is taken."""
        if self.status != "open":
            raise RoomError("game_started", "the game has begun: join as a spectator, or with your seat's token")
        if self.free_seat() is None:
            raise RoomError("room_full", "every seat is taken: join as a spectator")

    @property
    def abandoned(self) -> bool:
        """Open, and nobody holds a person seat: nobody will ever start it."""
        return self.status == "open" and all(seat.kind == "bot" or seat.name is None for seat in self.seats)

    def free(self, seat: Seat) -> None:
        """Give a person seat back before the game begins."""
        seat.name = None
        seat.token_hash = None
        seat.profile = None
        seat.seated_at = 0.0
        seat.connections = 0
        seat.away_since = None

    def seat_for_token(self, token: str) -> Seat | None:
        hashed = hash_token(token)
        return next((seat for seat in self.seats if seat.token_hash is not None and seat.token_hash == hashed), None)

    def is_host_token(self, token: str) -> bool:
        return secrets.compare_digest(hash_token(token), self.host_token_hash)

    def unique_name(self, name: str) -> str:
        taken = {seat.name for seat in self.seats if seat.name is not None}
        if name not in taken:
            return name
        number = 2
        while f"{name} ({number})" in taken:
            number += 1
        return f"{name} ({number})"

    # --- Games -------------------------------------------------------------

    def check_can_start(self) -> None:
        """:raises RoomError: while a game runs or a person seat is free."""
        if self.status == "playing":
            raise RoomError("game_started", "a game is already being played")
        if self.free_seat() is not None:
            free = sum(1 for seat in self.seats if seat.kind == "person" and seat.name is None)
            raise RoomError("seats_free", f"{free} seat{'s are' if free > 1 else ' is'} still free")

    def plan_start(self, seed: int, now: float, salt: str) -> GameStart:
        """The game a start would deal, the room left as it is.

        :raises RoomError: see :meth:`check_can_start`.
        """
        self.check_can_start()
        names = [seat.name or f"Seat {seat.index + 1}" for seat in self.seats]
        fairness = Fairness.commit(seed, salt)
        header = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "players": names,
            "seed": seed,
            "fairness": fairness.to_dict(),
            "started_at": now,
        }
        return GameStart(
            game=Game(self.rules, Deal.from_seed(self.rules, len(names), seed), names, started_at=now),
            fairness=fairness,
            game_id=f"{self.code}-{self.games_played + 1}",
            games_played=self.games_played + 1,
            match_scores=self._next_match_scores(),
            header=header,
        )

    def data_after(self, start: GameStart) -> dict[str, Any]:
        """The room as stored once the game planned has begun."""
        return {
            **self.to_data(),
            "status": "playing",
            "game_id": start.game_id,
            "games_played": start.games_played,
            "match_scores": start.match_scores,
        }

    def _finished_rounds(self) -> list[list[int]]:
        """The scores of the match's finished rounds, the game in the room included once it is over."""
        last = self.game.result.scores if self.game is not None and self.game.result is not None else None
        return [*self.match_scores, *([list(last)] if last is not None else [])]

    def match_standing(self) -> MatchStanding:
        return match_standing(self._finished_rounds(), len(self.seats), self.rules)

    def _next_match_scores(self) -> list[list[int]]:
        """The rounds the next game follows: this match's, unless it is over (or there is none)."""
        if not self.rules.is_match or self.game is None or not self.game.is_over or self.match_standing().over:
            return []
        return self._finished_rounds()

    def match_state(self) -> MatchState | None:
        """The match's round and totals; None when the rules play single rounds."""
        if not self.rules.is_match:
            return None
        standing = self.match_standing()
        return MatchState(
            round=len(self.match_scores) + (1 if self.game is not None else 0),
            rounds=self.rules.rounds,
            target_score=self.rules.target_score,
            totals=list(standing.totals),
            over=standing.over,
        )

    def game_state(self, seat: int | None) -> GameState | None:
        """A seat's view of the game (None: a spectator's), built from the engine's view."""
        if self.game is None or self.game_id is None:
            return None
        view = view_fields(self.game.view(seat))
        return GameState(game_id=self.game_id, fairness=self._fair_deal(), **view)

    def _fair_deal(self) -> FairDeal | None:
        """The commitment while the game runs; the seed and the salt too once it is over."""
        if self.fairness is None or self.game is None:
            return None
        if not self.game.is_over:
            return FairDeal(commitment=self.fairness.commitment)
        return FairDeal(commitment=self.fairness.commitment, seed=self.game.deal.seed, salt=self.fairness.salt)

    # --- Descriptions ------------------------------------------------------

    def state(self, now: float) -> RoomState:
        return RoomState(
            code=self.code,
            invite=f"/r/{self.code}",
            status=self.status,
            host=self.host_name,
            host_seat=next((seat.index for seat in self.seats if seat.token_hash == self.host_token_hash), None),
            seats=[
                SeatState(
                    seat=seat.index,
                    kind=seat.kind,
                    level=seat.level,
                    name=seat.name,
                    connected=seat.kind == "bot" or seat.connections > 0,
                    stand_in=self.status == "playing" and seat.stand_in(now, self.options.grace_seconds),
                )
                for seat in self.seats
            ],
            rules=self.rules.to_dict(),
            options=self.options,
            spectators=self.spectators,
            game_id=self.game_id,
            games=self.games_played,
            muted=sorted(self.muted),
            match=self.match_state(),
            bots_at=self.bots_at(),
            catching_up=self.catching_up,
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rules": self.rules.to_dict(),
            "options": self.options.model_dump(),
            "seats": [seat.to_data() for seat in self.seats],
            "host_token_hash": self.host_token_hash,
            "host_name": self.host_name,
            "created_at": self.created_at,
            "status": self.status,
            "game_id": self.game_id,
            "games_played": self.games_played,
            "match_scores": self.match_scores,
            "seq": self.seq,
            "muted": sorted(self.muted),
            "rated_game": self.rated_game,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], now: float) -> Room:
        """A room as saved; its game is restored separately (from its record)."""
        return cls(
            code=data["code"],
            rules=Rules.from_dict(data["rules"]),
            options=RoomOptions.model_validate(data["options"]),
            seats=[Seat.from_data(index, seat, now) for index, seat in enumerate(data["seats"])],
            host_token_hash=data["host_token_hash"],
            host_name=data.get("host_name"),
            created_at=data["created_at"],
            status=data["status"],
            game_id=data.get("game_id"),
            games_played=data.get("games_played", 0),
            match_scores=[list(scores) for scores in data.get("match_scores", [])],
            seq=data.get("seq", 0),
            muted=set(data.get("muted", [])),
            rated_game=data.get("rated_game", False),
        )
