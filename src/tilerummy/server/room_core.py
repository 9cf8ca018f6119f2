"""A room's game as a pure core: commands decided into events, events applied to the room.

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

from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "Act",
    "Answer",
    "Applied",
    "Began",
    "Begin",
    "ClockReached",
    "Command",
    "Event",
    "Refused",
    "Repeated",
    "apply",
    "decide",
]

from ..errors import IllegalAction
from ..game import Action, Draw, Pass, Play, Timeout
from ..melds import Table
from ..records import action_to_dict
from .protocol import RequestId
from .rooms import Answer, GameStart, Room, RoomError

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
    """Deal and begin a game (the host's start or rematch, or a full room's own start)."""

    seed: int
    salt: str
    at: float
    request: RequestId | None = None


Command = Act | ClockReached | Begin


# --- Events -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Applied:
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
    def stored(self) -> bool:
        return True

    @property
    def kind(self) -> str:
        return self.action.kind

    def record(self) -> dict[str, Any]:
        """The action as the game's record holds it."""
        return action_to_dict(self.action)


@dataclass(frozen=True, slots=True)
class Refused:
    """A request the room does not act on; only its sender hears of it."""

    reason: str
    detail: str
    seat: int | None
    request: RequestId | None
    made_at: int | None

    @property
    def stored(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Repeated:
    """A request sent again: its first answer (the seq it was applied at, or its refusal)."""

    first: Answer
    request: RequestId | None

    @property
    def stored(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Began:
    """A game dealt: stored (the room and the game's header), then begun in the room."""

    start: GameStart
    request: RequestId | None

    @property
    def stored(self) -> bool:
        return True


Event = Applied | Refused | Repeated | Began


# --- The core ---------------------------------------------------------------------


def decide(room: Room, command: Command) -> list[Event]:
    """What the command leads to, the room left exactly as it was."""
    if isinstance(command, ClockReached):
        return _decide_clock(room, command.now)
    if isinstance(command, Begin):
        try:
            return [Began(room.plan_start(command.seed, command.at, command.salt), command.request)]
        except RoomError as error:
            return [Refused(error.reason, error.detail, None, command.request, None)]
    return _decide_act(room, command)


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
        room.begin(event.start)
    elif isinstance(event, Refused) and event.seat is not None:
        _remember(room, event.seat, event.request, event.made_at, Answer(reason=event.reason, detail=event.detail))
    return room


def first_answer(room: Room, seat: int, request: RequestId | None, made_at: int | None) -> Answer | None:
    """The answer a request with this id and number got before, if it was seen."""
    if request is None or made_at is None:
        return None
    for key, answer in room.answers.get(seat, ()):
        if key == (request, made_at):
            return answer
    return None


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
