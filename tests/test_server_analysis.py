"""A finished game's analysis over HTTP: ``GET /api/games/{game_id}/analysis``."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from tilerummy import Game, GameRecord
from tilerummy.analysis import analyse
from tilerummy.bots import make_bot
from tilerummy.server.app import Settings, create_app
from tilerummy.server.store import Change, FinishedGame, NewAction, NewGame, open_store


def _store_game(database: str, game_id: str, *, finished: bool) -> None:
    game = Game.new(["Ana", "Bruno"], rules="casual", seed=3)
    bots = [make_bot("greedy", seed=1), make_bot("easy", seed=2)]
    while not game.is_over and (finished or len(game.actions) < 6):
        game.apply(bots[game.turn].choose(game.view(game.turn)))
    data = GameRecord.from_game(game).to_dict()
    actions = data.pop("actions")
    store = open_store(database)
    store.commit(
        Change(
            new_game=NewGame(game_id, "ROOM", data, 1000.0),
            actions=[NewAction(game_id, index, index + 1, action) for index, action in enumerate(actions)],
            finished=FinishedGame(game_id, game.result.to_dict(), 2000.0) if game.result else None,
        )
    )
    store.close()


def test_a_finished_games_analysis_is_served_and_a_running_one_is_not(tmp_path: Path) -> None:
    database = str(tmp_path / "db.sqlite3")
    _store_game(database, "ROOM-1", finished=True)
    _store_game(database, "ROOM-2", finished=False)
    with TestClient(create_app(Settings(database=database, bot_workers=0))) as client:
        answer = client.get("/api/games/room-1/analysis")
        assert answer.status_code == 200
        record = client.get("/api/games/ROOM-1/record").json()
        assert answer.json() == analyse(GameRecord.from_dict(record)).to_dict()
        assert [player["name"] for player in answer.json()["players"]] == ["Ana", "Bruno"]
        assert client.get("/api/games/ROOM-1/analysis").json() == answer.json()  # kept, the same

        early = client.get("/api/games/ROOM-2/analysis")
        assert (early.status_code, early.json()["error"]) == (409, "game_not_over")
        missing = client.get("/api/games/NOPE-1/analysis")
        assert (missing.status_code, missing.json()["error"]) == (404, "no_such_game")
