"""Playing on the server, in-process: the hub on a clock the test moves, players as its clients."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilerummy import GameRecord, Rules
from tilerummy.bots import LEVELS
from tilerummy.server.hub import Hub

from .hubkit import ManualClock, Player, on_hub
from .serverchecks import (
    PERSON,
    Message,
    bot,
    check_nothing_hidden_seen,
    check_sequence_numbers,
    my_turn,
    person_move,
)

#: The deal of the full game's room (a number long enough not to turn up by chance in any message).
SEED = 4811390275519623137


def test_a_full_game_between_a_person_and_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One deal every run: under some deals a bot goes out within a few turns, leaving too few racks to check.
    monkeypatch.setattr("tilerummy.server.seating.new_seed", lambda: SEED)

    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await Player.hello(hub, "Ana")
        created = await ana.create([PERSON, *[bot(level) for level in LEVELS[:3]]], rules={"preset": "standard"})
        assert ana.seat == 0 and created["invite"] == f"http://testserver/r/{ana.code}"
        watcher = await Player.hello(hub, "Watcher")
        await watcher.join(ana.code or "", role="spectator")
        assert (await watcher.request({"type": "start_game"}))["reason"] == "not_host"
        started = await ana.request({"type": "start_game"})
        assert started["type"] == "game" and started["event"]["kind"] == "start"
        snapshot = await ana.wait_for(lambda m: m["type"] == "snapshot")
        rules = Rules.from_dict(snapshot["room"]["rules"])
        game_id = started["game"]["game_id"]

        refused = False
        state: Message = started["game"]
        while state["result"] is None:
            if state["turn"] != ana.seat:
                state = (await ana.wait_for(lambda m: m["type"] == "game"))["game"]
                continue
            if not refused:
                error = await ana.request({"type": "play", "sets": [["R1", "B2", "Y3"]]})
                assert (error["type"], error["reason"]) == ("error", "invalid_set")
                refused = True
            reply = await ana.request(person_move(state, rules))
            if reply["type"] == "error":
                reply = await ana.request({"type": "draw"} if state["pool_size"] else {"type": "pass"})
            assert reply["type"] == "game", reply
            state = reply["game"]

        final = await watcher.wait_for(lambda m: m["type"] == "game" and m["game"]["result"] is not None)
        assert final["game"]["result"] == state["result"]
        assert final["game"]["rack"] is None

        stored = hub.store.game(game_id)
        assert stored is not None and stored.result == state["result"]
        record = GameRecord.from_dict(stored.record())
        replay = record.replay()
        assert replay.ok and replay.game.result is not None
        assert list(replay.game.result.scores) == state["result"]["scores"]

        check_sequence_numbers(ana.received)
        check_sequence_numbers(watcher.received)
        assert check_nothing_hidden_seen(ana.received, ana.seat, record) > 10
        assert check_nothing_hidden_seen(watcher.received, None, record) == 0
        # The seed kept back during the game is revealed with the result.
        assert final["game"]["fairness"]["seed"] == record.deal.seed is not None
        assert [game.id for game in hub.store.games(ana.code or "")] == [game_id]

        rematch = await ana.request({"type": "rematch"})
        assert rematch["type"] == "game" and rematch["game"]["game_id"] != game_id

    on_hub(tmp_path, scenario)


def test_the_strongest_and_the_weakest_bot_play_a_whole_game_while_the_host_watches(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        host = await Player.hello(hub, "Host")
        joined = await host.create([bot(LEVELS[-1]), bot(LEVELS[0])], rules={"preset": "casual"})
        assert (joined["role"], joined["seat"], joined["host"]) == ("spectator", None, True)
        await host.request({"type": "start_game"})
        final = await host.wait_for(lambda m: m["type"] == "game" and m["game"]["result"] is not None)
        assert final["game"]["rack"] is None and sum(final["game"]["result"]["scores"]) == 0
        events = [m["event"] for m in host.received if m["type"] == "game"]
        # Both bots played their turns; the strong one laid tiles down.
        assert {event["seat"] for event in events[1:]} == {0, 1}
        assert any(event["seat"] == 0 and event["placed"] > 0 for event in events)
        check_sequence_numbers(host.received)

    # A small budget: the bots think within it, and the game takes no longer than it must.
    on_hub(tmp_path, scenario, bot_budget=0.3)


def test_quick_match_pairs_two_people_and_starts(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await Player.hello(hub, "Ana"), await Player.hello(hub, "Bruno")
        opened = await ana.request({"type": "quick_match"})
        assert opened["type"] == "joined" and opened["host"]
        assert [(room["code"], room["free_seats"]) for room in hub.lobby()] == [(opened["code"], 1)]
        joined = await bruno.request({"type": "quick_match"})
        assert joined["code"] == opened["code"] and joined["seat"] != opened["seat"]
        for player in (ana, bruno):
            start = await player.wait_for(lambda m: m["type"] == "game")
            assert start["event"]["kind"] == "start" and len(start["game"]["rack"]) == 14
        assert hub.lobby()[0]["status"] == "playing"
        check_sequence_numbers(ana.received)
        check_sequence_numbers(bruno.received)

    on_hub(tmp_path, scenario)


def test_every_bot_level_plays_on_the_server(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        levels = list(LEVELS)
        for start in range(0, len(levels), 5):
            chunk = levels[start : start + 5]
            host = await Player.hello(hub, "Host")
            preset = "six-player" if len(chunk) + 1 > 4 else "standard"
            await host.create([PERSON, *[bot(level) for level in chunk]], rules={"preset": preset})
            message = await host.request({"type": "start_game"})
            played: set[int] = set()
            while len(played) < len(chunk):
                event = message["event"]
                if event["seat"] is not None and event["seat"] != host.seat:
                    played.add(event["seat"])
                if message["game"]["result"] is not None:
                    # A bot went out before every other had a turn (a deal can let one lay its
                    # whole rack at once): the next game gives the others theirs.
                    message = await host.request({"type": "rematch"})
                    continue
                if my_turn(message, host.seat):
                    await host.send({"type": "draw"})
                message = await host.wait_for(lambda m: m["type"] == "game")
            assert played == set(range(1, len(chunk) + 1))
            await host.request({"type": "leave_room"})

    on_hub(tmp_path, scenario, bot_budget=0.3)


def test_a_player_reconnects_mid_turn_and_carries_on(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await Player.hello(hub, "Ana")
        await ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "standard", "options": {"turn_seconds": 60}})
        watcher = await Player.hello(hub, "Watcher")
        await watcher.join(ana.code or "", role="spectator")
        started = await ana.request({"type": "start_game"})
        turn = started if my_turn(started, ana.seat) else await ana.wait_for(lambda m: my_turn(m, ana.seat))
        rack = turn["game"]["rack"]
        shown = [[rack[0]]]
        seen = set(rack) | {tile for tiles in turn["game"]["table"] for tile in tiles}
        unheld = next(f"{c}{n}" for c in "RBYK" for n in range(1, 14) if f"{c}{n}" not in seen)
        refused = await ana.request({"type": "live_table", "sets": [[unheld]]})
        assert (refused["reason"], refused["detail"]) == (
            "not_in_rack",
            f"{unheld} is neither on the table nor in your rack",
        )
        await ana.send({"type": "live_table", "sets": shown})
        live = await watcher.wait_for(lambda m: m["type"] == "live_table")
        assert (live["seat"], live["sets"]) == (ana.seat, shown)
        seq_before = turn["seq"]
        await ana.close()
        await watcher.wait_for(lambda m: m["type"] == "room" and not m["room"]["seats"][0]["connected"])

        back = await Player.hello(hub, "Ana")
        joined = await back.join(ana.code or "", token=ana.token)
        assert (joined["seat"], joined["token"], joined["host"]) == (ana.seat, None, True)
        snapshot = await back.wait_for(lambda m: m["type"] == "snapshot")
        assert snapshot["seq"] >= seq_before
        assert snapshot["game"]["rack"] == rack and snapshot["game"]["turn"] == ana.seat
        assert (await back.wait_for(lambda m: m["type"] == "live_table"))["sets"] == shown
        drawn = await back.request({"type": "draw"})
        assert drawn["type"] == "game" and drawn["seq"] == snapshot["seq"] + 1
        assert drawn["game"]["rack_sizes"][ana.seat] == len(rack) + 1

        stranger = await Player.hello(hub, "Mallory")
        assert (await stranger.request({"type": "join_room", "code": ana.code, "token": "guess"}))[
            "reason"
        ] == "bad_token"
        assert (await stranger.request({"type": "join_room", "code": ana.code}))["reason"] == "game_started"

    on_hub(tmp_path, scenario)


def test_a_bot_stands_in_for_a_player_away_past_the_grace_period(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await Player.hello(hub, "Ana")
        await ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "casual"}, grace_seconds=30, bot_delay=1)
        watcher = await Player.hello(hub, "Watcher")
        await watcher.join(ana.code or "", role="spectator")
        started = await ana.request({"type": "start_game"})
        if not my_turn(started, ana.seat):
            await clock.advance(1)  # the bot's delay
            await ana.wait_for(lambda m: my_turn(m, ana.seat))
        await ana.close()
        await clock.advance(29.9)
        # Within the grace period nobody plays for Ana.
        assert not any(m["type"] == "game" and m["event"]["seat"] == ana.seat for m in watcher.received)
        await clock.advance(0.2)
        announced = await watcher.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][0]["stand_in"])
        assert not announced["room"]["seats"][0]["connected"]
        await clock.advance(1)  # the stand-in's delay
        stand_in = await watcher.wait_for(lambda m: m["type"] == "game" and m["event"]["seat"] == ana.seat)
        assert stand_in["event"]["stand_in"] is True
        back = await Player.hello(hub, "Ana")
        await back.join(ana.code or "", token=ana.token)
        returned = await watcher.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][0]["connected"])
        assert not returned["room"]["seats"][0]["stand_in"]
        check_sequence_numbers(watcher.received)

    on_hub(tmp_path, scenario)


def test_the_server_applies_the_timeout_penalty_at_the_deadline(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await Player.hello(hub, "Ana")
        await ana.create([PERSON, bot(LEVELS[0])], rules={"preset": "standard", "options": {"turn_seconds": 10}})
        started = await ana.request({"type": "start_game"})
        turn = started if my_turn(started, ana.seat) else await ana.wait_for(lambda m: my_turn(m, ana.seat))
        assert turn["game"]["deadline"] == turn["now"] + 10
        before = len(turn["game"]["rack"])
        await clock.advance(9.9)
        assert not any(m["type"] == "game" and m["event"]["kind"] == "timeout" for m in ana.received)
        await clock.advance(0.1)
        timeout = await ana.wait_for(lambda m: m["type"] == "game" and m["event"]["kind"] == "timeout")
        assert timeout["event"]["seat"] == ana.seat and timeout["event"]["drawn"] == 3
        assert len(timeout["game"]["rack"]) == before + 3
        assert timeout["now"] == turn["game"]["deadline"]

    on_hub(tmp_path, scenario)


def test_chat_is_limited_and_the_host_can_mute(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana, bruno = await Player.hello(hub, "Ana"), await Player.hello(hub, "Bruno")
        await ana.create([PERSON, PERSON])
        await bruno.join(ana.code or "")
        line = await bruno.request({"type": "chat", "text": "  good   luck  "})
        assert (line["name"], line["seat"], line["text"]) == ("Bruno", 1, "good luck")
        assert (await ana.wait_for(lambda m: m["type"] == "chat"))["text"] == "good luck"
        assert (await bruno.request({"type": "mute", "name": "Ana"}))["reason"] == "not_host"
        muted = await ana.request({"type": "mute", "name": "Bruno"})
        assert muted["type"] == "room" and muted["room"]["muted"] == ["Bruno"]
        assert (await bruno.request({"type": "chat", "text": "hey"}))["reason"] == "muted"
        await ana.request({"type": "mute", "name": "Bruno", "muted": False})
        replies = [await bruno.request({"type": "chat", "text": f"line {n}"}) for n in range(8)]
        # A burst of three, one spent on the first line; the rest is refused until the bucket refills.
        assert [reply["type"] for reply in replies] == ["chat"] * 2 + ["error"] * 6
        assert {reply["reason"] for reply in replies[2:]} == {"rate_limited"}
        clock.now += 60
        assert (await bruno.request({"type": "chat", "text": "a minute later"}))["type"] == "chat"
        assert hub.lobby()[0]["code"] == ana.code

    on_hub(tmp_path, scenario)


def test_a_room_left_by_everyone_before_it_starts_is_closed(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: ManualClock) -> None:
        ana = await Player.hello(hub, "Ana")
        codes = [(await ana.create([PERSON, PERSON]))["code"] for _ in range(3)]
        assert [room["code"] for room in hub.lobby()] == codes[-1:]
        await ana.request({"type": "leave_room"})
        assert hub.lobby() == []
        assert (await ana.request({"type": "join_room", "code": codes[0]}))["reason"] == "no_such_room"

    on_hub(tmp_path, scenario)
