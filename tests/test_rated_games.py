"""Rated games: a game of profiles under the standard rules changes each player's rating exactly
once, in the transaction that stores its result, also when that write fails and is tried again;
guests, other rules and unrated rooms change nothing; bots keep their published ratings; the
leaderboard and a profile's page show the result."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tilerummy.ratings import BOT_RATINGS, PROVISIONAL_GAMES
from tilerummy.server import Settings, create_app
from tilerummy.server.botpool import BotPool
from tilerummy.server.hub import Hub, Member
from tilerummy.server.profile_store import ProfileStore
from tilerummy.server.rated_games import finish_work, leaderboard, profile_rating, standing, start_work
from tilerummy.server.store import Change, Statement, Store, StoreError, open_store

from .hubkit import Inbox, ManualClock, StoreWrapper, ask, draw_to_the_end, on_hub, say

STANDARD_NO_CLOCK: dict[str, Any] = {"preset": "standard"}


async def signed_in(hub: Hub, name: str) -> tuple[Member, str]:
    """A member who said hello with a new profile's key; and the profile's id."""
    made = await hub.read(lambda: hub.profiles.profiles.create(name))
    member = Member(outbox=Inbox())
    welcome = await say(hub, member, type="hello", protocol=1, name="whatever", key=made.key)
    assert welcome["type"] == "welcome", welcome
    assert welcome["profile"] == {"id": made.profile.id, "name": name}
    assert welcome["name"] == name
    return member, made.profile.id


async def play_out(
    hub: Hub, members: Sequence[Member], *, rated: bool = True, rules: dict[str, Any] | None = None
) -> str:
    """The members fill a room of persons, start and draw to the end; the game's id."""
    joined = await ask(
        hub,
        members[0],
        type="create_room",
        seats=[{"kind": "person"}] * len(members),
        rules=rules or STANDARD_NO_CLOCK,
        options={"rated": rated},
    )
    for member in members[1:]:
        answer = await ask(hub, member, type="join_room", code=joined["code"])
        assert answer["type"] == "joined", answer
    await ask(hub, members[0], type="start_game")
    await draw_to_the_end(hub, joined["code"], dict(enumerate(members)))
    game_id = hub.rooms[joined["code"]].game_id
    assert game_id is not None
    return game_id


async def play_against_bots(clock: ManualClock, room: Any, players: dict[int, Member], hub: Hub) -> None:
    """The people of ``players`` draw (then pass) on their turns until the game is over; on the
    others' turns the clock moves on and the bots' moves, worked out in threads, are waited for."""
    game = room.game
    assert game is not None
    while not game.is_over:
        member = players.get(game.turn)
        if member is not None and member.room is room:
            answer = await say(hub, member, type="draw" if game.pool_size else "pass")
            assert answer["type"] == "game", answer
            continue
        await clock.advance(1)
        # A bot at work (its move is worked out in a thread): wait for it to move.
        task = hub.runtime[room.code].bot_task
        if task is not None and not task.done():
            await asyncio.wait([task], timeout=60)


def rows(hub: Hub, game_id: str) -> list[tuple[Any, ...]]:
    return hub.store.transact(
        lambda sql: sql(
            "SELECT profile, place, players, score FROM ratings WHERE game = ? ORDER BY profile", (game_id,)
        )
    )


def test_a_rated_game_of_two_profiles_moves_both_ratings_once(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        (ana, ana_id), (bruno, bruno_id) = [await signed_in(hub, name) for name in ("Ana", "Bruno")]
        game_id = await play_out(hub, [ana, bruno])
        room = next(iter(hub.rooms.values()))
        assert room.game is not None and room.game.result is not None
        scores = list(room.game.result.scores)
        stored = rows(hub, game_id)
        assert sorted(row[0] for row in stored) == sorted([ana_id, bruno_id])
        ratings = {
            profile: hub.store.transact(functools.partial(profile_rating, profile_id=profile))
            for profile in (ana_id, bruno_id)
        }
        winner = ana_id if scores[0] > scores[1] else bruno_id
        loser = bruno_id if winner == ana_id else ana_id
        if scores[0] != scores[1]:
            assert ratings[winner].mu > 1500 > ratings[loser].mu
        assert all(rating.games == 1 and rating.provisional for rating in ratings.values())
        # The game's analysis, worked out in the bots' pool, leaves each profile's figures.
        await asyncio.wait(list(hub._tasks), timeout=120)
        figures = hub.store.transact(functools.partial(standing, profile_id=ana_id))
        assert figures.analysed == 1 and figures.placed == 0 and figures.best >= 0
        assert figures.to_dict()["missed_go_outs"] == 0
        # The finishing write tried again (as after a failed transaction) rates nothing twice.
        hub.store.transact(finish_work(game_id, scores, (), clock()))
        assert rows(hub, game_id) == stored

    on_hub(tmp_path, scenario)


def test_guests_other_rules_and_unrated_rooms_change_no_rating(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, _ = await signed_in(hub, "Ana")
        bruno, _ = await signed_in(hub, "Bruno")
        guest = Member(outbox=Inbox())
        await say(hub, guest, type="hello", protocol=1, name="Guest")
        games = [
            await play_out(hub, [ana, guest]),
            await play_out(hub, [ana, bruno], rules={"preset": "casual"}),
            await play_out(hub, [ana, bruno], rated=False),
        ]
        for game_id in games:
            assert rows(hub, game_id) == []

    on_hub(tmp_path, scenario)


def test_a_game_against_a_bot_is_rated_and_the_bot_keeps_its_rating(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, ana_id = await signed_in(hub, "Ana")
        joined = await say(
            hub,
            ana,
            type="create_room",
            seats=[{"kind": "person"}, {"kind": "bot", "level": "greedy"}],
            rules=STANDARD_NO_CLOCK,
            options={"rated": True, "bot_delay": 0},
        )
        await say(hub, ana, type="start_game")
        room = hub.rooms[joined["code"]]
        await play_against_bots(clock, room, {0: ana}, hub)
        assert room.game is not None and room.game.is_over and room.game_id is not None
        assert [row[0] for row in rows(hub, room.game_id)] == [ana_id]
        assert BOT_RATINGS["greedy"].fixed

    on_hub(tmp_path, scenario, bot_budget=0.3)


class FailingFinish(StoreWrapper):
    """A store whose write of a finished game fails the first time, as a dropped connection would."""

    def __init__(self, inner: Store) -> None:
        super().__init__(inner)
        self.failed = False

    def commit_many(self, changes: Sequence[Change]) -> None:
        if not self.failed and any(change.finished is not None for change in changes):
            self.failed = True
            raise StoreError("could not write to the database: connection lost")
        self.inner.commit_many(changes)


def test_a_failed_write_of_the_last_action_rates_the_game_once_it_is_stored(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FailingFinish(open_store(str(tmp_path / "server.sqlite3")))
        clock = ManualClock()
        hub = Hub(store, BotPool(0), clock=clock, timers=clock)
        clock.watch(hub)
        await hub.start()
        try:
            (ana, _), (bruno, _) = [await signed_in(hub, name) for name in ("Ana", "Bruno")]
            joined = await say(
                hub,
                ana,
                type="create_room",
                seats=[{"kind": "person"}] * 2,
                rules=STANDARD_NO_CLOCK,
                options={"rated": True},
            )
            await say(hub, bruno, type="join_room", code=joined["code"])
            await say(hub, ana, type="start_game")
            room = hub.rooms[joined["code"]]
            assert room.game is not None and room.game_id is not None
            members = {0: ana, 1: bruno}
            refused = 0
            for _ in range(400):
                if room.game.is_over:
                    break
                answer = await say(hub, members[room.game.turn], type="draw" if room.game.pool_size else "pass")
                refused += answer["type"] == "error"
            assert store.failed and refused == 1
            assert room.game.is_over
            assert len(rows(hub, room.game_id)) == 2
        finally:
            await hub.close()
            store.close()

    import asyncio

    asyncio.run(scenario())


def test_the_leaderboard_shows_settled_players_best_first_and_the_bots(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "server.sqlite3"))
    clock = ManualClock()
    profiles = ProfileStore(store, clock)
    ana, bruno, carla = (profiles.create(name) for name in ("Ana", "Bruno", "Carla"))

    def rate(sql: Statement, game: int, order: list[str]) -> None:
        game_id = f"G{game}"
        sql(
            "INSERT INTO rated_games (game, seats) VALUES (?, ?)",
            (game_id, json.dumps([{"profile": profile} for profile in order])),
        )
        finish_work(game_id, [10, -10], (), float(game))(sql)

    for game in range(PROVISIONAL_GAMES):
        store.transact(functools.partial(rate, game=game, order=[ana.profile.id, bruno.profile.id]))
    store.transact(lambda sql: rate(sql, 100, [carla.profile.id, bruno.profile.id]))
    board = store.transact(leaderboard)
    assert [entry["profile"]["name"] for entry in board] == ["Ana", "Bruno"]  # Carla is provisional
    assert board[0]["wins"] == PROVISIONAL_GAMES and board[0]["win_share"] == 1.0
    assert store.transact(lambda sql: standing(sql, bruno.profile.id)).place == 2
    assert store.transact(lambda sql: standing(sql, carla.profile.id)).place is None
    store.close()

    with TestClient(
        create_app(Settings(database=str(tmp_path / "server.sqlite3"), bot_workers=0), clock=clock, timers=clock)
    ) as client:
        answer = client.get("/api/leaderboard", headers={"Authorization": f"Bearer {carla.key}"}).json()
        assert [entry["profile"]["name"] for entry in answer["players"]] == ["Ana", "Bruno"]
        assert answer["you"]["provisional"] and answer["you"]["games"] == 1
        assert {bot["level"] for bot in answer["bots"]} >= {"greedy", "hard"}
        page = client.get("/api/profiles/bruno").json()
        assert page["standing"]["games"] == PROVISIONAL_GAMES + 1
        assert len(page["games"]) == PROVISIONAL_GAMES + 1
        assert page["games"][0]["replay"] == "/replay/G0"
        assert client.get("/api/leaderboard", headers={"Authorization": "Bearer trk_wrong"}).status_code == 401


@pytest.mark.parametrize("key", ["trk_nothing", ""])
def test_hello_with_a_wrong_key_is_refused_and_the_member_stays_nameless(tmp_path: Path, key: str) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        member = Member(outbox=Inbox())
        answer = await say(hub, member, type="hello", protocol=1, name="Zed", key=key)
        assert answer["type"] == "error" and answer["reason"] == "bad_key"
        assert member.name is None and member.profile_id is None

    on_hub(tmp_path, scenario)


def test_a_result_and_its_ratings_are_stored_together_or_not_at_all(tmp_path: Path) -> None:
    from tilerummy.server.store import FinishedGame, NewGame

    store = open_store(str(tmp_path / "server.sqlite3"))
    profiles = ProfileStore(store, ManualClock())
    ana, bruno = profiles.create("Ana"), profiles.create("Bruno")
    seats = [{"profile": ana.profile.id}, {"profile": bruno.profile.id}]
    store.commit(
        Change(
            new_game=NewGame("G1", "ROOM1", {"players": ["Ana", "Bruno"]}, 0.0),
            also=(start_work("G1", seats),),
        )
    )

    def cut_short(sql: Statement) -> None:
        raise StoreError("the connection dropped")

    finished = Change(
        finished=FinishedGame("G1", {"scores": [5, -5]}, 1.0), also=(finish_work("G1", [5, -5], (), 1.0),)
    )
    with pytest.raises(StoreError):
        store.commit(Change(finished=finished.finished, also=(*finished.also, cut_short)))
    game = store.game("G1")
    assert game is not None and game.result is None
    assert store.transact(lambda sql: sql("SELECT COUNT(*) FROM ratings", ())) == [(0,)]
    store.commit(finished)
    store.commit(finished)  # written again: the ratings are not
    assert store.transact(lambda sql: sql("SELECT COUNT(*) FROM ratings", ())) == [(2,)]
    store.close()


def test_a_player_who_abandons_a_rated_game_comes_last(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        (ana, ana_id), (bruno, bruno_id) = [await signed_in(hub, name) for name in ("Ana", "Bruno")]
        joined = await ask(
            hub,
            ana,
            type="create_room",
            seats=[{"kind": "person"}] * 2,
            rules=STANDARD_NO_CLOCK,
            options={"rated": True, "grace_seconds": 5, "bot_delay": 0},
        )
        await ask(hub, bruno, type="join_room", code=joined["code"])
        await ask(hub, ana, type="start_game")
        await hub.leave(bruno, explicit=True, reply_to=None)
        room = hub.rooms[joined["code"]]
        assert room.game is not None and room.game_id is not None
        await play_against_bots(clock, room, {0: ana}, hub)
        assert room.game.is_over
        assert rows(hub, room.game_id) == sorted(
            [(ana_id, 0, 2, room.game.result.scores[0]), (bruno_id, 1, 2, room.game.result.scores[1])]  # type: ignore[union-attr]
        )

    on_hub(tmp_path, scenario, bot_budget=0.3)


@pytest.mark.parametrize(
    ("level", "rules", "rated"),
    [
        ("greedy", "standard", True),
        ("hard", "standard", True),
        ("expert", "standard", True),
        ("network", "standard", True),
        ("greedy", "house", False),
    ],
)
def test_a_game_against_a_bot_is_rated_only_against_a_published_rating_under_the_standard_rules(
    level: str, rules: str, rated: bool
) -> None:
    from tilerummy.server.protocol import CreateRoom
    from tilerummy.server.rooms import Room

    request = CreateRoom.model_validate(
        {
            "type": "create_room",
            "seats": [{"kind": "person"}, {"kind": "bot", "level": level}],
            "rules": {"preset": rules},
            "options": {"rated": True},
        }
    )
    room = Room.create("ROOM1", request, "token", "Ana", 0.0)
    room.take_seat("Ana", "token", 0.0, "p_ana")
    expected = [{"profile": "p_ana"}, {"bot": level}] if rated else None
    assert room.rated_seats(BOT_RATINGS) == expected
    room.seats[0].profile = None  # a guest
    assert room.rated_seats(BOT_RATINGS) is None


async def rated_at(hub: Hub, name: str, mu: float) -> Member:
    """A signed-in member whose profile's rating is ``mu`` (after one game)."""
    member, profile = await signed_in(hub, name)
    hub.store.transact(
        lambda sql: sql(
            "INSERT INTO ratings (profile, game, mu, sigma, place, players, score, at) VALUES (?, ?, ?, ?, 0, 2, 0, 0)",
            (profile, f"seed-{name}", mu, 100.0),
        )
    )
    return member


def test_quick_match_seats_players_near_each_others_rating_widening_with_the_wait(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        strong = await rated_at(hub, "Carla", 2200)
        first = await ask(hub, strong, type="quick_match")
        assert first["type"] == "joined"
        newcomer = await rated_at(hub, "Ana", 1500)
        apart = await ask(hub, newcomer, type="quick_match")
        assert apart["code"] != first["code"]  # 700 apart: a room of its own
        clock.now += 10
        near = await rated_at(hub, "Dora", 2100)
        assert (await ask(hub, near, type="quick_match"))["code"] == first["code"]
        clock.now += 1
        # Ana's room has waited 11 s: 150 + 15 × 11 = 315 around her 1500 reaches 1800, not 2000.
        farther = await rated_at(hub, "Eva", 2000)
        assert (await ask(hub, farther, type="quick_match"))["code"] != apart["code"]

    on_hub(tmp_path, scenario)


def test_computers_take_a_quick_match_seat_nobody_took_and_the_game_starts(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        strong = await rated_at(hub, "Carla", 1950)
        joined = await ask(hub, strong, type="quick_match")
        room = hub.rooms[joined["code"]]
        bots_at = room.state(clock()).bots_at
        assert bots_at == room.created_at + 20
        clock.now += 19
        await hub.sweep()
        assert room.state(clock()).status == "open"
        clock.now += 1
        await hub.sweep()
        assert room.state(clock()).status == "playing"
        assert [(seat.kind, seat.level) for seat in room.seats] == [("person", None), ("bot", "hard")]
        assert room.rated_game  # a profile against a bot with a published rating
        assert room.state(clock()).bots_at is None

    on_hub(tmp_path, scenario)


def test_an_empty_quick_match_room_is_not_filled_with_computers(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, _ = await signed_in(hub, "Ana")
        joined = await ask(hub, ana, type="quick_match")
        await hub.leave(ana, explicit=True, reply_to=None)
        clock.now += 30
        await hub.sweep()
        room = hub.rooms.get(joined["code"])
        assert room is None or all(seat.kind == "person" for seat in room.seats)

    on_hub(tmp_path, scenario)
