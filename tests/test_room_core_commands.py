"""The room core's commands beyond a game's actions, alone: seats taken, coming and leaving,
the host's rights, mutes, chat, the live table, computers seated, a room closed, writes
failing, a game begun and a game restored. No server and no clock: each command is decided
(the room unchanged), then applied."""

from __future__ import annotations

from tilerummy.game import Draw
from tilerummy.server.protocol import CreateRoom, RoomOptions, SeatSpec
from tilerummy.server.room_core import (
    Act,
    Answer,
    Applied,
    Began,
    Begin,
    BotsSeated,
    CatchingUp,
    Close,
    Closed,
    Enter,
    Entered,
    GameLost,
    HostPassed,
    Leave,
    LiveShown,
    Mute,
    Muted,
    PassHost,
    Refused,
    Repeated,
    Restore,
    Restored,
    Said,
    Say,
    SeatBots,
    Seated,
    SeatLeft,
    ShowLive,
    TakeSeat,
    Written,
    apply,
    at_once,
    data_after,
    decide,
    next_seq,
    only,
)
from tilerummy.server.rooms import Room, hash_token


def open_room(players: int = 2, **options: object) -> Room:
    """An open room of ``players`` person seats, Ana (the host) in the first and connected."""
    request = CreateRoom(
        type="create_room",
        seats=[SeatSpec(kind="person") for _ in range(players)],
        options=RoomOptions.model_validate(options),
    )
    room = Room.create("ABCDEF", request, "host-token", "Ana", now=0.0)
    room.take_seat("Ana", "host-token", now=1.0).connections = 1
    return room


def full_room(players: int = 2) -> Room:
    room = open_room(players)
    for index in range(1, players):
        room.take_seat(f"P{index}", f"token-{index}", now=1.0 + index).connections = 1
    return room


def playing_room() -> Room:
    """Seed 6: seat 0 plays first of two."""
    room = full_room()
    apply(room, only(decide(room, Begin(6, "5a17", 10.0))))
    return room


def refusal(room: Room, command: object) -> str:
    before = room.to_data()
    event = only(decide(room, command))  # type: ignore[arg-type]
    assert isinstance(event, Refused) and not event.stored, event
    assert room.to_data() == before
    return event.reason


# --- Seats taken, coming and leaving ------------------------------------------------


def test_a_seat_is_taken_under_a_name_unique_in_the_room_once_stored() -> None:
    room = open_room(3)
    event = only(decide(room, TakeSeat("Ana", "token-2", 4.0, profile="p_ana")))
    assert isinstance(event, Seated) and event.stored
    assert (event.taking.index, event.taking.name, event.taking.seated_at) == (1, "Ana (2)", 4.0)
    assert room.seats[1].name is None
    assert data_after(room, [event])["seats"][1]["name"] == "Ana (2)"
    apply(room, event)
    assert room.seat_for_token("token-2") is room.seats[1] and room.seats[1].profile == "p_ana"
    room.take_seat("Bruno", "token-3")
    assert refusal(room, TakeSeat("Carla", "token-4", 5.0)) == "room_full"
    started = playing_room()
    assert refusal(started, TakeSeat("Carla", "token-4", 5.0)) == "game_started"


def test_a_connection_comes_in_and_a_player_back_from_away_is_told_apart() -> None:
    room = full_room()
    apply(room, only(decide(room, Leave(1, explicit=False, at=5.0))))
    [event] = at_once(room, Enter(1))
    assert event == Entered(1, returned=True) and not event.stored
    assert (room.seats[1].connections, room.seats[1].away_since) == (1, None)
    assert at_once(room, Enter(0)) == [Entered(0, returned=False)]
    assert room.seats[0].connections == 2
    at_once(room, Enter(None))
    assert room.spectators == 1


def test_a_seat_left_in_an_open_room_is_given_back_once_stored() -> None:
    room = full_room()
    event = only(decide(room, Leave(1, explicit=True, at=5.0)))
    assert event == SeatLeft(1, 5.0, free=True, away=False) and event.stored
    # Decided, not applied: the room holds the seat until the event is stored.
    assert room.seats[1].name == "P1"
    assert data_after(room, [event])["seats"][1]["name"] is None
    apply(room, event)
    freed = room.seats[1]
    assert freed.name is None and freed.token_hash is None and freed.connections == 0


def test_a_closed_connection_leaves_an_open_rooms_seat_held_and_its_player_away() -> None:
    room = full_room()
    event = only(decide(room, Leave(1, explicit=False, at=5.0)))
    assert event == SeatLeft(1, 5.0, free=False, away=True) and not event.stored
    apply(room, event)
    assert (room.seats[1].name, room.seats[1].away_since) == ("P1", 5.0)
    # A quick match room gives it back at once: someone else may take it.
    quick = open_room(auto_start=True)
    quick.take_seat("Bruno", "token-1").connections = 1
    assert only(decide(quick, Leave(1, explicit=False, at=5.0))).stored


def test_a_seat_left_in_a_game_stays_its_players_and_one_of_two_connections_is_not_away() -> None:
    room = playing_room()
    event = only(decide(room, Leave(0, explicit=True, at=20.0)))
    assert event == SeatLeft(0, 20.0, free=False, away=True)
    room.seats[1].connections = 2
    both = only(decide(room, Leave(1, explicit=False, at=20.0)))
    assert both == SeatLeft(1, 20.0, free=False, away=False)
    apply(room, both)
    assert (room.seats[1].connections, room.seats[1].away_since) == (1, None)


def test_a_seat_whose_giving_back_could_not_be_stored_is_kept_and_a_spectator_just_goes() -> None:
    room = full_room()
    assert only(decide(room, Leave(1, explicit=True, at=5.0, keep=True))) == SeatLeft(1, 5.0, free=False, away=True)
    room.spectators = 2
    watcher = only(decide(room, Leave(None, explicit=True, at=5.0)))
    assert not watcher.stored
    apply(room, watcher)
    assert room.spectators == 1


# --- The host's rights, mutes -------------------------------------------------------


def test_the_host_rights_pass_to_the_longest_seated_person_present_with_a_token() -> None:
    room = full_room(3)
    assert decide(room, PassHost(())) == []
    event = only(decide(room, PassHost((2, 1))))
    assert event == HostPassed(1, hash_token("token-1"), "P1") and event.stored
    assert room.host_name == "Ana"
    assert data_after(room, [event])["host_name"] == "P1"
    apply(room, event)
    assert room.is_host_token("token-1") and room.host_name == "P1"
    assert room.state(0.0).host_seat == 1


def test_only_the_host_mutes_and_a_mute_is_stored_before_it_holds() -> None:
    room = full_room()
    assert refusal(room, Mute("P1", True, host=False)) == "not_host"
    event = only(decide(room, Mute("P1", True, host=True)))
    assert event == Muted("P1", True) and event.stored and room.muted == set()
    assert data_after(room, [event])["muted"] == ["P1"]
    apply(room, event)
    assert room.muted == {"P1"}
    apply(room, only(decide(room, Mute("P1", False, host=True))))
    assert room.muted == set()


# --- Chat and the live table ----------------------------------------------------------


def test_a_chat_line_is_kept_in_the_rooms_chat_and_a_muted_one_is_refused() -> None:
    room = full_room()
    event = only(decide(room, Say("P1", 1, "  good   game ", 7.0)))
    assert isinstance(event, Said) and not event.stored
    assert (event.line.name, event.line.seat, event.line.text, event.line.at) == ("P1", 1, "good game", 7.0)
    assert list(room.chat) == []
    apply(room, event)
    assert list(room.chat) == [event.line]
    assert refusal(room, Say("P1", 1, " \t ", 7.0)) == "bad_request"
    assert refusal(room, Say("P1", 1, "hi", 7.0, over_rate="at most 2 a minute")) == "rate_limited"
    apply(room, only(decide(room, Mute("P1", True, host=True))))
    assert refusal(room, Say("P1", 1, "hi", 8.0)) == "muted"


def test_the_live_table_is_shown_only_by_the_player_whose_turn_it_is_with_tiles_they_hold() -> None:
    room = playing_room()
    assert room.game is not None
    rack = room.game.rack_tiles(0)
    held = (str(rack[0]),)
    assert refusal(room, ShowLive(None, (held,))) == "not_a_player"
    assert refusal(room, ShowLive(1, (held,))) == "not_your_turn"
    assert refusal(room, ShowLive(0, (("Q9",),))) == "bad_tile"
    # The game has two of each tile: nobody holds three.
    assert refusal(room, ShowLive(0, (("R1", "R1", "R1"),))) == "not_in_rack"
    event = only(decide(room, ShowLive(0, (held,))))
    assert isinstance(event, LiveShown) and not event.stored and room.live is None
    assert (event.update.seat, event.update.moves, event.update.sets) == (0, 0, [list(held)])
    apply(room, event)
    assert room.live == event.update
    # The turn's end takes it away.
    apply(room, only(decide(room, Act(0, "draw", 11.0))))
    assert room.live is None
    finished = open_room()
    assert refusal(finished, ShowLive(0, (held,))) == "no_game"


# --- Computers, closing -----------------------------------------------------------------


def test_computers_take_the_free_seats_once_stored_and_a_full_room_takes_none() -> None:
    room = open_room(3, bots_after=10)
    event = only(decide(room, SeatBots("easy")))
    assert event == BotsSeated("easy") and event.stored
    assert [seat["kind"] for seat in data_after(room, [event])["seats"]] == ["person", "bot", "bot"]
    assert [seat.kind for seat in room.seats] == ["person", "person", "person"]
    apply(room, event)
    assert [(seat.kind, seat.level) for seat in room.seats[1:]] == [("bot", "easy"), ("bot", "easy")]
    assert decide(room, SeatBots("easy")) == []


def test_a_room_closes_as_stored() -> None:
    room = full_room()
    event = only(decide(room, Close()))
    assert event == Closed() and event.stored
    assert data_after(room, [event]) == room.to_data()


def test_the_room_is_told_once_that_writes_fail_and_once_that_they_work_again() -> None:
    room = full_room()
    assert decide(room, Written(ok=True)) == []
    assert at_once(room, Written(ok=False)) == [CatchingUp(behind=True)]
    assert room.catching_up and room.state(0.0).catching_up
    assert decide(room, Written(ok=False)) == []
    assert at_once(room, Written(ok=True)) == [CatchingUp(behind=False)]
    assert not room.catching_up


# --- Games begun, rematches, restored games ---------------------------------------------


def test_only_the_host_starts_and_a_rematch_waits_for_the_end_of_the_game() -> None:
    room = full_room()
    assert refusal(room, Begin(6, "5a17", 10.0, host=False)) == "not_host"
    assert refusal(room, Begin(6, "5a17", 10.0, rematch=True)) == "game_not_over"
    rated = ({"profile": "p_ana"}, {"bot": "easy"})
    event = only(decide(room, Begin(6, "5a17", 10.0, rated=rated)))
    assert isinstance(event, Began) and event.rated == rated
    apply(room, event)
    assert (room.status, room.rated_game, room.games_played) == ("playing", True, 1)
    assert refusal(room, Begin(7, "5a17", 11.0, rematch=True)) == "game_not_over"


def test_a_rematch_after_the_end_deals_the_next_game() -> None:
    room = playing_room()
    room_game = room.game
    assert room_game is not None
    at = 10.0
    while not room_game.is_over:
        at += 1.0
        move = "draw" if room_game.pool_size else "pass"
        apply(room, only(decide(room, Act(room_game.turn, move, at))))  # type: ignore[arg-type]
    assert room.status == "finished"
    event = only(decide(room, Begin(8, "5a17", at, rematch=True)))
    assert isinstance(event, Began) and event.start.game_id == "ABCDEF-2"
    apply(room, event)
    assert (room.status, room.game_id, room.game) == ("playing", "ABCDEF-2", event.start.game)


def test_a_restored_game_answers_the_requests_its_stored_actions_answered() -> None:
    room = playing_room()
    assert room.game is not None
    game, fairness = room.game, room.fairness
    # As another process finds the room: its game replayed, the stored action's request with it.
    game.apply(Draw(0, 11.0))
    taken_over = Room.from_data(room.to_data(), 20.0)
    event = only(decide(taken_over, Restore(game, fairness, last_seq=4, answers=((0, "d1", 3, 4),))))
    assert isinstance(event, Restored) and not event.stored
    apply(taken_over, event)
    assert (taken_over.seq, taken_over.game_seq, taken_over.status) == (4, 4, "playing")
    assert only(decide(taken_over, Act(0, "draw", 21.0, request="d1", seq=3))) == Repeated(Answer(seq=4), "d1")
    # A request it never saw, made against that state, is stale.
    other = only(decide(taken_over, Act(0, "draw", 21.0, request="d2", seq=3)))
    assert isinstance(other, Refused) and other.reason == "stale"


def test_a_game_missing_from_the_store_leaves_the_room_open() -> None:
    room = playing_room()
    event = only(decide(room, Restore(None)))
    assert event == GameLost() and not event.stored
    apply(room, event)
    assert (room.status, room.game_id, room.game) == ("open", None, None)


def test_the_next_sequence_number_is_the_rooms_and_a_games_is_what_actions_are_checked_against() -> None:
    room = playing_room()
    assert (next_seq(room), room.game_seq) == (1, 0)
    assert (next_seq(room, game=True), room.game_seq) == (2, 2)
    stale = only(decide(room, Act(0, "draw", 11.0, request=1, seq=1)))
    assert isinstance(stale, Refused) and stale.reason == "stale"
    assert isinstance(only(decide(room, Act(0, "draw", 11.0, request=1, seq=2))), Applied)
