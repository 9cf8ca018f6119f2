"""A room as a pure core: commands decided into events, events applied to the room.

Every change of a room goes through here: its game's actions and clock, a game begun
(start, rematch, next round), seats taken, connections coming and leaving, the host's
rights passed, mutes, chat lines, the live table, computers seated by the room's options,
the room closed, and a game restored from its record. Only this module changes a room's
sequence number, status, game and live table.

No I/O and no clock: time comes in the commands. The shell (:mod:`.turns`) holds the
room's lock and, for each command,

1. asks :func:`decide` what it leads to: events, and the room is left as it was;
2. stores the events that change the room (:attr:`Applied.stored`), and only then
3. :func:`apply` s each event, and sends every member its view.

A write that fails leaves nothing to undo: the room never saw the event.

Every action carries its request's id and, when the client sends it, the sequence number
of the state it was made against. An action made against a state the game has moved on
from is refused as ``stale``; one sent again with the same id and number is not acted on
twice: :func:`decide` answers it with :class:`Repeated`, holding the first answer.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

__all__ = [
    "Act",
    "Answer",
    "Applied",
    "Began",
    "Begin",
    "BotsSeated",
    "CatchingUp",
    "ClockReached",
    "Close",
    "Closed",
    "Command",
    "Enter",
    "Entered",
    "Event",
    "GameLost",
    "HostPassed",
    "Leave",
    "LiveShown",
    "Mute",
    "Muted",
    "PassHost",
    "Refused",
    "Repeated",
    "Restore",
    "Restored",
    "Said",
    "Say",
    "SeatBots",
    "SeatLeft",
    "Seated",
    "ShowLive",
    "TakeSeat",
    "Written",
    "apply",
    "at_once",
    "data_after",
    "decide",
    "next_seq",
    "only",
]

from ..errors import IllegalAction, Reason
from ..fairness import Fairness
from ..game import Action, Draw, Game, Pass, Play, Timeout
from ..melds import Table, Token
from ..records import action_to_dict
from ..tiles import Tile
from .protocol import ChatLine, LiveTableUpdate, RequestId
from .rooms import Answer, GameStart, Room, RoomError, SeatTaking

#: Answers remembered per seat, for requests sent again (a client resends its last few at most).
REMEMBERED_ANSWERS = 16

STALE = "stale"
NO_GAME = "no_game"
NOT_A_PLAYER = "not_a_player"


# --- Commands ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's play (of the whole table ``table``), draw or pass at ``at``
    (``seat`` None: a spectator's, which is refused).

    ``seq``: the room's sequence number the sender had seen; None from a client that
    does not send it, whose action is then neither checked for staleness nor recognised
    when sent again.
    """

    seat: int | None
    move: Literal["play", "draw", "pass"]
    at: float | None
    table: Table | str = ""
    request: RequestId | None = None
    seq: int | None = None
    stand_in: bool = False

    def action(self, seat: int) -> Action:
        if self.move == "play":
            return Play(seat, self.table, self.at)
        return Draw(seat, self.at) if self.move == "draw" else Pass(seat, self.at)


@dataclass(frozen=True, slots=True)
class ClockReached:
    """The clock reads ``now``: a turn whose deadline is past ends in a timeout."""

    now: float


@dataclass(frozen=True, slots=True)
class Begin:
    """Deal and begin a game: the host's start or rematch (the next round of a match), or a
    full room's own start (``host`` True: nobody's rights to check).

    ``rated``: who sits where when the game is to be rated (``Room.rated_seats``), else None.
    """

    seed: int
    salt: str
    at: float
    request: RequestId | None = None
    host: bool = True
    rematch: bool = False
    rated: tuple[dict[str, str], ...] | None = None


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """A person takes the first free person seat of an open room, as ``name`` (made unique
    in the room), with ``token`` (the seat's secret) and ``profile`` (None: a guest)."""

    name: str
    token: str
    at: float
    profile: str | None = None


@dataclass(frozen=True, slots=True)
class Enter:
    """A connection comes into the room at ``seat`` (None: as a spectator)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class Leave:
    """A connection leaves the room (``explicit``: it said so; else it closed) at ``at``:
    from ``seat`` (None: a spectator)."""

    seat: int | None
    explicit: bool
    at: float
    #: The seat is kept whatever the room (giving it back could not be stored): its player is away.
    keep: bool = False


@dataclass(frozen=True, slots=True)
class PassHost:
    """The host is not in the room: the rights pass to the person present (``present``: the
    seats of those in the room) who has sat in it longest, if any holds a token."""

    present: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mute:
    """Mute (or unmute) a participant's chat by name; ``host``: the sender has the host's rights."""

    name: str
    muted: bool
    host: bool


@dataclass(frozen=True, slots=True)
class Say:
    """A chat line from ``name`` (at ``seat``; None: a spectator) at ``at``.

    ``over_rate``: the refusal's detail when the sender is over the chat rate, else None.
    """

    name: str
    seat: int | None
    text: str
    at: float
    over_rate: str | None = None


@dataclass(frozen=True, slots=True)
class ShowLive:
    """The table as the player at ``seat`` arranges it during their turn (never applied to the game)."""

    seat: int | None
    sets: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class SeatBots:
    """Computers of ``level`` take the free seats of an open room (its option ``bots_after``)."""

    level: str


@dataclass(frozen=True, slots=True)
class Close:
    """The room closes (nobody has been in it for long, or nobody is left to start it)."""


@dataclass(frozen=True, slots=True)
class Written:
    """How the room's last write went (``ok`` False: it failed, the server tries again)."""

    ok: bool


@dataclass(frozen=True, slots=True)
class Restore:
    """The room's game as its stored record replays (``game`` None: the record is missing);
    ``last_seq``: the sequence number of its last stored action; ``answers``: the requests
    its stored actions answered, as (seat, request, made against, applied at)."""

    game: Game | None
    fairness: Fairness | None = None
    last_seq: int = 0
    answers: tuple[tuple[int, RequestId, int, int], ...] = ()


Command = (
    Act
    | ClockReached
    | Begin
    | TakeSeat
    | Enter
    | Leave
    | PassHost
    | Mute
    | Say
    | ShowLive
    | SeatBots
    | Close
    | Written
    | Restore
)


# --- Events -----------------------------------------------------------------------


class _Kept:
    """An event that changes what is stored: written first, applied once it is."""

    __slots__ = ()
    stored: ClassVar[bool] = True


class _Passing:
    """An event of the running room alone: applied at once, never stored."""

    __slots__ = ()
    stored: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Applied(_Kept):
    """An action the game takes: stored, then applied, then announced at ``seq``."""

    action: Action
    #: The action's place in the game (0 for the first).
    index: int
    seq: int
    seat: int
    request: RequestId | None
    #: The sequence number the request was made against, for answering it when sent again.
    made_at: int | None
    placed: int
    drawn: int
    stand_in: bool
    #: The round's result once this action ends it (as the record stores it).
    result: dict[str, Any] | None

    @property
    def kind(self) -> str:
        return self.action.kind

    def record(self) -> dict[str, Any]:
        """The action as the game's record holds it."""
        return action_to_dict(self.action)


@dataclass(frozen=True, slots=True)
class Refused(_Passing):
    """A request the room does not act on; only its sender hears of it."""

    reason: str
    detail: str
    seat: int | None
    request: RequestId | None
    made_at: int | None


@dataclass(frozen=True, slots=True)
class Repeated(_Passing):
    """A request sent again: its first answer (the seq it was applied at, or its refusal)."""

    first: Answer
    request: RequestId | None


@dataclass(frozen=True, slots=True)
class Began(_Kept):
    """A game dealt: stored (the room and the game's header), then begun in the room."""

    start: GameStart
    request: RequestId | None
    rated: tuple[dict[str, str], ...] | None = None


@dataclass(frozen=True, slots=True)
class Seated(_Kept):
    """A person seated as planned; stored before the seat is theirs."""

    taking: SeatTaking


@dataclass(frozen=True, slots=True)
class Entered(_Passing):
    """A connection came in at ``seat`` (None: a spectator); ``returned``: its player had
    been away (a bot standing in for them stops)."""

    seat: int | None
    returned: bool


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A connection left ``seat`` (None: a spectator's); ``free``: the seat is given back
    (stored), ``away``: its player is away from ``at`` (a bot may stand in)."""

    seat: int | None
    at: float
    free: bool
    away: bool

    @property
    def stored(self) -> bool:
        return self.free


@dataclass(frozen=True, slots=True)
class Said(_Passing):
    """A chat line, kept in the room's recent chat (not stored)."""

    #: As the room is told it (its spaces made single, the time it was said).
    line: ChatLine


@dataclass(frozen=True, slots=True)
class HostPassed(_Kept):
    """The host's rights pass to the person at ``seat``."""

    seat: int
    #: What the room keeps of its host: the seat's token's hash (it gives the rights back) and the name.
    token_hash: str
    name: str | None


@dataclass(frozen=True, slots=True)
class LiveShown(_Passing):
    """The table the player whose turn it is shows while arranging it; the turn's end takes it away."""

    #: As the others are shown it, with the number of moves it was shown after (a stale one is not shown).
    update: LiveTableUpdate


@dataclass(frozen=True, slots=True)
class Muted(_Kept):
    """A participant's chat muted (``muted``) or heard again, by name, for the whole room."""

    name: str
    muted: bool


@dataclass(frozen=True, slots=True)
class BotsSeated(_Kept):
    """Computers of ``level`` in every free person seat."""

    #: One of the bots' levels (``tilerummy.bots.LEVELS``), as the room's options chose it.
    level: str


@dataclass(frozen=True, slots=True)
class CatchingUp(_Passing):
    """The room's players hear that the server is catching up (``behind``: its writes
    fail and are tried again) or has caught up."""

    behind: bool


@dataclass(frozen=True, slots=True)
class Restored(_Passing):
    """The room's game as replayed; nothing is stored (it comes from the store)."""

    game: Game
    fairness: Fairness | None
    last_seq: int
    answers: tuple[tuple[int, RequestId, int, int], ...]


@dataclass(frozen=True, slots=True)
class Closed(_Kept):
    """The room is closed (stored as such); the shell stops serving it."""


@dataclass(frozen=True, slots=True)
class GameLost(_Passing):
    """The room's game is missing from the store: the room is open again."""


Event = (
    Applied
    | Refused
    | Repeated
    | Began
    | Seated
    | Entered
    | SeatLeft
    | HostPassed
    | Muted
    | Said
    | LiveShown
    | BotsSeated
    | Closed
    | CatchingUp
    | Restored
    | GameLost
)


# --- The core ---------------------------------------------------------------------


def decide(room: Room, command: Command) -> list[Event]:
    """What the command leads to, the room left exactly as it was."""
    if isinstance(command, Act):
        return _decide_act(room, command)
    if isinstance(command, ClockReached):
        return _decide_clock(room, command.now)
    if isinstance(command, Begin):
        return _decide_begin(room, command)
    if isinstance(command, TakeSeat):
        try:
            return [Seated(room.plan_seat(command.name, command.token, command.at, command.profile))]
        except RoomError as error:
            return [_refused(error.reason, error.detail)]
    if isinstance(command, Enter):
        returned = command.seat is not None and room.seats[command.seat].away_since is not None
        return [Entered(command.seat, returned)]
    if isinstance(command, Leave):
        return _decide_leave(room, command)
    if isinstance(command, PassHost):
        return _decide_host(room, command.present)
    if isinstance(command, Mute):
        if not command.host:
            return [_refused("not_host", "only the host can mute")]
        return [Muted(command.name, command.muted)]
    if isinstance(command, Say):
        return _decide_say(room, command)
    if isinstance(command, ShowLive):
        return _decide_live(room, command)
    if isinstance(command, SeatBots):
        free = room.status == "open" and room.free_seat() is not None
        return [BotsSeated(command.level)] if free else []
    if isinstance(command, Close):
        return [Closed()]
    if isinstance(command, Written):
        return [] if room.catching_up != command.ok else [CatchingUp(behind=not command.ok)]
    if command.game is None:
        return [GameLost()]
    return [Restored(command.game, command.fairness, command.last_seq, command.answers)]


def apply(room: Room, event: Event) -> Room:
    """The room after the event (changed in place: the room is the state); run once the
    event is stored. Applying what :func:`decide` just returned never fails."""
    if isinstance(event, Applied):
        game = room.game
        assert game is not None
        game.apply(event.action)
        room.seq = room.game_seq = event.seq
        room.live = None
        if game.is_over:
            room.status = "finished"
        _remember(room, event.seat, event.request, event.made_at, Answer(seq=event.seq))
    elif isinstance(event, Began):
        start = event.start
        room.match_scores = start.match_scores
        room.game = start.game
        room.fairness = start.fairness
        room.games_played = start.games_played
        room.game_id = start.game_id
        room.status = "playing"
        room.rated_game = event.rated is not None
        room.live = None
    elif isinstance(event, Refused) and event.seat is not None:
        _remember(room, event.seat, event.request, event.made_at, Answer(reason=event.reason, detail=event.detail))
    elif isinstance(event, Seated):
        room.seat(event.taking)
    elif isinstance(event, Entered):
        if event.seat is None:
            room.spectators += 1
        else:
            seat = room.seats[event.seat]
            seat.connections += 1
            seat.away_since = None
    elif isinstance(event, SeatLeft):
        _apply_leave(room, event)
    elif isinstance(event, HostPassed):
        room.host_token_hash, room.host_name = event.token_hash, event.name
    elif isinstance(event, Muted):
        if event.muted:
            room.muted.add(event.name)
        else:
            room.muted.discard(event.name)
    elif isinstance(event, Said):
        room.chat.append(event.line)
    elif isinstance(event, LiveShown):
        room.live = event.update
    elif isinstance(event, BotsSeated):
        room.seat_bots(event.level)
    elif isinstance(event, CatchingUp):
        room.catching_up = event.behind
    elif isinstance(event, Restored):
        _apply_restored(room, event)
    elif isinstance(event, GameLost):
        room.status, room.game_id, room.game = "open", None, None
    return room


def at_once(room: Room, command: Enter | Leave | Written) -> list[Event]:
    """Decide and apply at once a command whose events are never stored (a connection coming,
    a connection replaced, how a write went: none of it is kept); its events."""
    events = decide(room, command)
    for event in events:
        assert not event.stored, event
        apply(room, event)
    return events


def only(events: list[Event]) -> Event:
    """The one event a command that leads to exactly one leads to."""
    [event] = events
    return event


def next_seq(room: Room, *, game: bool = False) -> int:
    """The room's next sequence number, taken by a message everyone in it is told
    (``game``: a game's own message, which a later action must have seen)."""
    room.seq += 1
    if game:
        room.game_seq = room.seq
    return room.seq


def data_after(room: Room, events: list[Event]) -> dict[str, Any]:
    """The room as stored once the events are applied, the room itself left as it is."""
    planned = Room.from_data(room.to_data(), 0.0)
    for seat, original in zip(planned.seats, room.seats, strict=True):
        seat.connections = original.connections
    for event in events:
        if isinstance(event, Seated | SeatLeft | HostPassed | Muted | BotsSeated):
            apply(planned, event)
    return planned.to_data()


def first_answer(room: Room, seat: int, request: RequestId | None, made_at: int | None) -> Answer | None:
    """The answer a request with this id and number got before, if it was seen."""
    if request is None or made_at is None:
        return None
    for key, answer in room.answers.get(seat, ()):
        if key == (request, made_at):
            return answer
    return None


def _refused(reason: str, detail: str, request: RequestId | None = None) -> Refused:
    return Refused(reason, detail, None, request, None)


def _decide_begin(room: Room, command: Begin) -> list[Event]:
    if not command.host:
        return [_refused("not_host", "only the host can start a game", command.request)]
    if command.rematch and room.status != "finished":
        return [_refused("game_not_over", "a rematch starts once the game is over", command.request)]
    try:
        start = room.plan_start(command.seed, command.at, command.salt)
    except RoomError as error:
        return [_refused(error.reason, error.detail, command.request)]
    return [Began(start, command.request, command.rated)]


def _decide_leave(room: Room, command: Leave) -> list[Event]:
    if command.seat is None:
        return [SeatLeft(None, command.at, free=False, away=False)]
    seat = room.seats[command.seat]
    if seat.connections > 1:
        return [SeatLeft(command.seat, command.at, free=False, away=False)]
    # A matchmaking room gives a seat back at once: someone else may take it.
    free = not command.keep and room.status == "open" and (command.explicit or room.options.auto_start)
    return [SeatLeft(command.seat, command.at, free=free, away=not free)]


def _apply_leave(room: Room, event: SeatLeft) -> None:
    if event.seat is None:
        room.spectators = max(0, room.spectators - 1)
        return
    seat = room.seats[event.seat]
    seat.connections = max(0, seat.connections - 1)
    if event.free:
        room.free(seat)
    elif event.away:
        seat.away_since = event.at


def _decide_host(room: Room, present: tuple[int, ...]) -> list[Event]:
    # Only a seat with a token can carry the rights over a reconnection.
    seats = [room.seats[index] for index in present if room.seats[index].token_hash is not None]
    if not seats:
        return []
    heir = min(seats, key=lambda seat: (seat.seated_at, seat.index))
    assert heir.token_hash is not None
    return [HostPassed(heir.index, heir.token_hash, heir.name)]


def _decide_say(room: Room, command: Say) -> list[Event]:
    if command.name in room.muted:
        return [_refused("muted", "the host has muted you in this room")]
    if command.over_rate is not None:
        return [_refused("rate_limited", command.over_rate)]
    text = " ".join(command.text.split())
    if not text:
        return [_refused("bad_request", "an empty chat line")]
    return [Said(ChatLine(name=command.name, seat=command.seat, text=text, at=command.at))]


def _decide_live(room: Room, command: ShowLive) -> list[Event]:
    if command.seat is None:
        return [_refused(NOT_A_PLAYER, "spectators cannot play")]
    game = room.game
    if game is None or room.status != "playing":
        return [_refused(NO_GAME, "no game is being played in this room")]
    if game.turn != command.seat:
        return [_refused(Reason.NOT_YOUR_TURN.value, "only the player whose turn it is shows a live table")]
    shown: Counter[Tile] = Counter()
    for tiles in command.sets:
        for text in tiles:
            try:
                shown[Token.parse(text).tile] += 1
            except ValueError:
                return [_refused("bad_tile", f"{text!r} is not a tile")]
    # Only tiles the player could really lay out: what is on the table and in their rack.
    unheld = shown - game.table.tiles() - Counter(game.rack_tiles(command.seat))
    if unheld:
        return [_refused(Reason.NOT_IN_RACK.value, f"{min(unheld)} is neither on the table nor in your rack")]
    sets = [list(tiles) for tiles in command.sets]
    return [LiveShown(LiveTableUpdate(seat=command.seat, moves=len(game.actions), sets=sets))]


def _apply_restored(room: Room, event: Restored) -> None:
    room.game = event.game
    room.fairness = event.fairness
    room.seq = max(room.seq, event.last_seq)
    # Whatever a client saw before the restart is older than the game as replayed.
    room.game_seq = room.seq
    if event.game.is_over and room.status == "playing":
        room.status = "finished"
    for seat, request, made_at, seq in event.answers:
        _remember(room, seat, request, made_at, Answer(seq=seq))


def _decide_act(room: Room, act: Act) -> list[Event]:
    def refused(reason: str, detail: str) -> list[Event]:
        return [Refused(reason, detail, act.seat, act.request, act.seq)]

    if act.seat is None:
        return refused(NOT_A_PLAYER, "spectators cannot play")
    first = first_answer(room, act.seat, act.request, act.seq)
    if first is not None:
        return [Repeated(first, act.request)]
    if room.game is None or room.status != "playing":
        return refused(NO_GAME, "no game is being played in this room")
    if act.seq is not None and act.seq < room.game_seq:
        detail = f"the game moved on since seq {act.seq} (it is at {room.seq}): look at the new state and try again"
        return refused(STALE, detail)
    try:
        return [_trial(room, act.action(act.seat), act.request, act.seq, stand_in=act.stand_in)]
    except IllegalAction as error:
        return refused(error.reason.value, error.detail)


def _decide_clock(room: Room, now: float) -> list[Event]:
    game = room.game
    if room.status != "playing" or game is None or game.is_over:
        return []
    deadline = game.deadline
    if deadline is None or deadline > now:
        return []
    return [_trial(room, Timeout(game.turn, deadline), None, None, stand_in=False)]


def _trial(room: Room, action: Action, request: RequestId | None, made_at: int | None, *, stand_in: bool) -> Applied:
    """The event of an action the game takes, found by applying it and taking it back.

    :raises IllegalAction: the game refuses it (nothing changed).
    """
    game = room.game
    assert game is not None
    game.limit_undo(1)
    before = len(game.rack(action.seat))
    game.apply(action)
    try:
        applied = game.actions[-1]
        after = len(game.rack(action.seat))
        result = game.result.to_dict() if game.result is not None else None
    finally:
        game.pop()
    return Applied(
        action=applied,
        index=len(game.actions),
        seq=room.seq + 1,
        seat=action.seat,
        request=request,
        made_at=made_at,
        placed=max(0, before - after),
        drawn=max(0, after - before),
        stand_in=stand_in,
        result=result,
    )


def _remember(room: Room, seat: int, request: RequestId | None, made_at: int | None, answer: Answer) -> None:
    if request is None or made_at is None:
        return
    remembered = room.answers.setdefault(seat, deque(maxlen=REMEMBERED_ANSWERS))
    remembered.append(((request, made_at), answer))
