"""The daily puzzle over HTTP: the same position for everyone, any table placing the answer solves it,
a profile's first try rates it and the puzzle once, a look at the solution counts as a failed try."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tilerummy.puzzles import daily
from tilerummy.server import Settings, create_app

from .hubkit import ManualClock

#: 2026-12-04, noon UTC.
NOON = datetime.datetime(2026, 12, 4, 12, tzinfo=datetime.UTC).timestamp()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOON)


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    settings = Settings(database=str(tmp_path / "server.sqlite3"), bot_workers=0)
    with TestClient(create_app(settings, clock=clock, timers=clock)) as test_client:
        yield test_client


def profile(client: TestClient, name: str) -> dict[str, str]:
    key = client.post("/api/profiles", json={"name": name}).json()["key"]
    return {"Authorization": f"Bearer {key}"}


def test_the_daily_puzzle_is_the_days_and_hides_its_answer(client: TestClient) -> None:
    shown = client.get("/api/puzzles/daily").json()
    puzzle = daily(datetime.date(2026, 12, 4))
    assert shown["id"] == "daily-2026-12-04"
    assert shown["rack"] == [str(tile) for tile in puzzle.rack]
    assert shown["best"] == puzzle.best and shown["level"] == puzzle.level
    assert "answer" not in str(shown)
    assert client.get("/api/puzzles/daily-2026-12-03").json()["date"] == "2026-12-03"
    assert client.get("/api/puzzles/daily-2026-12-05").status_code == 404  # tomorrow's is not out yet
    assert client.get("/api/puzzles/other").status_code == 404


def test_an_answer_is_judged_and_a_profiles_first_try_alone_is_rated(client: TestClient) -> None:
    puzzle = daily(datetime.date(2026, 12, 4))
    ana = profile(client, "Ana")
    wrong = client.post("/api/puzzles/daily-2026-12-04/answer", json={"table": "R1 R1 R1"}, headers=ana).json()
    assert wrong["solved"] is False and wrong["legal"] is False
    assert "rated" not in wrong  # an illegal table is not a try
    right = client.post(
        "/api/puzzles/daily-2026-12-04/answer", json={"table": str(puzzle.answer_table)}, headers=ana
    ).json()
    assert right["solved"] and right["rated"] and right["puzzle_rating"] > 1500
    again = client.post(
        "/api/puzzles/daily-2026-12-04/answer", json={"table": str(puzzle.answer_table)}, headers=ana
    ).json()
    assert again["solved"] and not again["rated"]
    assert client.get("/api/puzzles/daily").json()["rating"] < puzzle.level * 200 + 1000  # the puzzle lost


def test_a_look_at_the_solution_is_a_failed_try(client: TestClient) -> None:
    puzzle = daily(datetime.date(2026, 12, 4))
    bruno = profile(client, "Bruno")
    shown = client.get("/api/puzzles/daily-2026-12-04/solution", headers=bruno).json()
    assert shown["answer_table"] == [[str(tile) for tile in meld] for meld in puzzle.answer_table.melds]
    assert shown["rated"] and shown["puzzle_rating"] < 1500
    guest = client.get("/api/puzzles/daily-2026-12-04/solution").json()
    assert "rated" not in guest


def test_further_puzzles_come_near_the_players_puzzle_rating_and_change_after_each_try(client: TestClient) -> None:
    guest = client.get("/api/puzzles/next?level=3").json()
    assert guest["id"].startswith("p3-") and guest["level"] == 3 and guest["date"] is None
    carla = profile(client, "Carla")
    first = client.get("/api/puzzles/next", headers=carla).json()
    assert first["level"] == 2  # a new player's 1500 lies between levels 2 (1400) and 3 (1600): the first
    assert client.get("/api/puzzles/next", headers=carla).json()["id"] == first["id"]  # until it is tried
    shown = client.get(f"/api/puzzles/{first['id']}/solution", headers=carla).json()
    assert shown["rated"]
    assert client.get("/api/puzzles/next", headers=carla).json()["id"] != first["id"]
    assert client.get("/api/puzzles/p9-1").status_code == 404
