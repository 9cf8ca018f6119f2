"""The room core alone: commands decided into events and events applied, with no server and no clock."""

from __future__ import annotations

from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from tilerummy.game import Timeout
from tilerummy.server.protocol import CreateRoom, SeatSpec, view_fields
from tilerummy.server.room_core import (
    Act,
    Answer,
    Applied,
    Began,
    Begin,
    ClockReached,
    Event,
    Refused,
    Repeated,
    apply,
    decide,
)
from tilerummy.server.rooms import Room

from .effort import examples


def playing_room(players: int = 2, seed: int = 6) -> Room:
    """A room whose game has begun (seed 6: seat 0 plays first of two)."""
    request = CreateRoom(type="create_room", seats=[SeatSpec(kind="person") for _ in range(players)])
    room = Room.create("ABCDEF", request, "host-token", "Ana", now=0.0)
    room.take_seat("Ana", "host-token")
    for index in range(1, players):
        room.take_seat(f"P{index}", f"token-{index}")
    apply(room, only(decide(room, Begin(seed, "5a17", 0.0))))
    room.seq = room.game_seq = 3
    return room


def seen(room: Room) -> tuple[object, ...]:
    """Everything of the room a command may change."""
    assert room.game is not None
    views = tuple(repr(view_fields(room.game.view(seat))) for seat in range(len(room.seats)))
    return (room.seq, room.game_seq, room.status, len(room.game.actions), views, repr(room.answers))


def only(events: list[Event]) -> Event:
    assert len(events) == 1, events
    return events[0]


def test_an_action_is_decided_without_changing_the_room_and_applied_after() -> None:
    room = playing_room()
    before = seen(room)
    event = only(decide(room, Act(0, "draw", 5.0, request=1, seq=3)))
    assert seen(room) == before
    assert isinstance(event, Applied)
    assert (event.kind, event.seat, event.index, event.seq, event.drawn, event.placed) == ("draw", 0, 0, 4, 1, 0)
    assert event.stored and event.record() == {"seat": 0, "type": "draw", "at": 5.0}
    apply(room, event)
    assert room.game is not None
    assert (len(room.game.actions), room.game.turn, room.seq, room.game_seq) == (1, 1, 4, 4)
    assert len(room.game.rack(0)) == 15


def test_a_refused_action_names_its_reason_and_changes_nothing() -> None:
    room = playing_room()
    before = seen(room)
    event = only(decide(room, Act(1, "draw", 1.0, request="a", seq=3)))
    assert isinstance(event, Refused)
    assert (event.reason, event.seat, event.request, event.stored) == ("not_your_turn", 1, "a", False)
    assert seen(room) == before
    play = only(decide(room, Act(0, "play", None, "R1 R2 R3", request="b")))
    assert isinstance(play, Refused) and play.reason in {"not_in_rack", "initial_meld_too_low"}
    assert isinstance(pass_ := only(decide(room, Act(0, "pass", None))), Refused) and pass_.reason == "pool_not_empty"


def test_spectators_and_rooms_without_a_game_are_refused() -> None:
    room = playing_room()
    assert isinstance(spectator := only(decide(room, Act(None, "draw", None))), Refused)
    assert spectator.reason == "not_a_player"
    room.status = "finished"
    assert isinstance(none := only(decide(room, Act(0, "draw", None))), Refused) and none.reason == "no_game"


def test_an_action_made_against_an_older_state_of_the_game_is_stale() -> None:
    room = playing_room()
    apply(room, only(decide(room, Act(0, "draw", 1.0, request=1, seq=3))))
    # A room update (someone came back) is not a change of the game: an action made since is not stale.
    room.seq += 1
    before = seen(room)
    stale = only(decide(room, Act(1, "draw", 2.0, request=2, seq=3)))
    assert isinstance(stale, Refused) and stale.reason == "stale" and "seq 3" in stale.detail
    assert seen(room) == before
    fresh = only(decide(room, Act(1, "draw", 2.0, request=2, seq=4)))
    assert isinstance(fresh, Applied) and fresh.seq == 6
    # A client that sends no number is not checked.
    assert isinstance(only(decide(room, Act(1, "draw", 2.0, request=3))), Applied)


def test_a_request_sent_again_gets_its_first_answer_and_is_not_acted_on_twice() -> None:
    room = playing_room()
    first = only(decide(room, Act(0, "draw", 1.0, request=9, seq=3)))
    apply(room, first)
    before = seen(room)
    again = only(decide(room, Act(0, "draw", 1.5, request=9, seq=3)))
    assert again == Repeated(Answer(seq=4), 9)
    assert seen(room) == before
    # A refusal is remembered too, and answers its request when sent again.
    refused = only(decide(room, Act(0, "draw", 2.0, request=10, seq=4)))
    assert isinstance(refused, Refused) and refused.reason == "not_your_turn"
    apply(room, refused)
    assert only(decide(room, Act(0, "draw", 2.0, request=10, seq=4))) == Repeated(
        Answer(reason="not_your_turn", detail=refused.detail), 10
    )
    # The same id made against another state is another request.
    assert isinstance(only(decide(room, Act(1, "draw", 2.0, request=9, seq=4))), Applied)


def test_the_clock_ends_a_turn_at_its_deadline_and_not_before() -> None:
    room = playing_room()
    assert room.game is not None and room.game.deadline is not None
    deadline = room.game.deadline
    assert decide(room, ClockReached(deadline - 0.01)) == []
    before = seen(room)
    event = only(decide(room, ClockReached(deadline + 5)))
    assert seen(room) == before
    assert isinstance(event, Applied) and event.action == Timeout(0, deadline)
    assert event.drawn == room.rules.timeout_penalty
    apply(room, event)
    assert room.game.turn == 1 and room.game.deadline == deadline + room.rules.turn_seconds  # type: ignore[operator]
    late = only(decide(room, Act(1, "draw", room.game.deadline + 1, request=1, seq=room.seq)))
    assert isinstance(late, Refused) and late.reason == "time_up"


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 9), min_size=1, max_size=60))
def test_decide_then_apply_plays_the_game_the_engine_plays(seed: int, choices: list[int]) -> None:
    """Whatever is sent, decide leaves the room as it was, and the applied events are the
    game's own actions (a second game given the same actions directly ends up the same)."""
    room = playing_room(3, seed)
    mirror = playing_room(3, seed).game
    assert room.game is not None and mirror is not None
    at = 0.0
    for step, choice in enumerate(choices):
        if room.game.is_over:
            break
        at += 10.0
        seat = room.game.turn if choice < 7 else (room.game.turn + 1) % 3
        move: Literal["draw", "pass"] = "draw" if choice % 2 else "pass"
        command = ClockReached(at + 200) if choice == 9 else Act(seat, move, at, request=step, seq=room.seq)
        before = seen(room)
        events = decide(room, command)
        assert seen(room) == before
        for event in events:
            if isinstance(event, Applied):
                mirror.apply(event.action)
            apply(room, event)
        assert view_fields(room.game.view(None)) == view_fields(mirror.view(None))


def test_a_game_is_dealt_without_changing_the_room_and_begun_once_stored() -> None:
    request = CreateRoom(type="create_room", seats=[SeatSpec(kind="person") for _ in range(2)])
    room = Room.create("ABCDEF", request, "host-token", "Ana", now=0.0)
    room.take_seat("Ana", "host-token")
    # A seat is free: refused by name, nothing dealt.
    refused = only(decide(room, Begin(6, "5a17", 10.0, request="go")))
    assert isinstance(refused, Refused) and (refused.reason, refused.request) == ("seats_free", "go")
    room.take_seat("Bruno", "token-1")
    event = only(decide(room, Begin(6, "5a17", 10.0, request="go")))
    assert isinstance(event, Began) and event.stored
    assert (room.status, room.game, room.games_played) == ("open", None, 0)
    start = event.start
    assert (start.game_id, start.games_played, start.header["seed"]) == ("ABCDEF-1", 1, 6)
    assert room.data_after(start)["status"] == "playing" and room.to_data()["status"] == "open"
    apply(room, event)
    assert (room.status, room.game_id, room.games_played, room.game) == ("playing", "ABCDEF-1", 1, start.game)
    again = only(decide(room, Begin(7, "5a17", 11.0)))
    assert isinstance(again, Refused) and again.reason == "game_started"
