"""The fair-deal commitment: computing it, keeping it in records, and ``tilerummy verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilerummy import Game, GameRecord
from tilerummy.bots import make_bot
from tilerummy.cli import main
from tilerummy.errors import RecordError
from tilerummy.fairness import Fairness, commitment_of, new_salt, verify

SALT = "0" * 32


def test_the_commitment_is_sha256_of_seed_colon_salt() -> None:
    # Computed with: printf '%s' "42:000...0" | sha256sum
    assert commitment_of(42, SALT) == "fc4294ce8402ea11588518a06436c613e5c6c99cfdb934de093a2bb6a2b2152a"
    assert len(new_salt()) == 32
    assert new_salt() != new_salt()


def test_a_commitment_hides_its_salt_until_revealed() -> None:
    fair = Fairness.commit(42, SALT)
    assert fair.hidden().to_dict() == {"commitment": fair.commitment}
    assert not fair.hidden().matches(42)
    assert fair.matches(42)
    assert not fair.matches(41)


@pytest.mark.parametrize(
    ("commitment", "salt", "field"),
    [("abc", None, "commitment"), ("F" * 64, None, "commitment"), ("a" * 64, "xyz", "salt"), ("a" * 64, "", "salt")],
)
def test_malformed_fairness_is_refused(commitment: str, salt: str | None, field: str) -> None:
    with pytest.raises(RecordError, match=f"fairness.{field}"):
        Fairness(commitment, salt)


def _played(seed: int = 7, moves: int = 30) -> Game:
    game = Game.new(["Ana", "Bruno"], rules="casual", seed=seed)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not game.is_over and len(game.actions) < moves:
        game.apply(bots[game.turn].choose(game.view(game.turn)))
    return game


def _fair_record_data(game: Game, salt: str = "5be0aa") -> dict[str, object]:
    seed = game.deal.seed
    assert seed is not None
    record = GameRecord.from_game(game, fairness=Fairness.commit(seed, salt))
    return record.to_dict(result=game.result.to_dict() if game.result else None)


def test_a_fair_record_round_trips_and_verifies() -> None:
    game = _played()
    data = _fair_record_data(game)
    assert data["fairness"] == {"commitment": commitment_of(7, "5be0aa"), "salt": "5be0aa"}
    record = GameRecord.from_dict(json.loads(json.dumps(data)))
    assert record.fairness == Fairness.commit(7, "5be0aa")
    report = verify(record)
    assert report.ok, report.problems
    assert report.starting_racks[0] == " ".join(str(piece.tile) for piece in game.deal.racks[0])


def _write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_verify_passes_a_fair_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _played(moves=400)
    assert game.is_over
    assert main(["verify", _write(tmp_path, _fair_record_data(game))]) == 0
    out = capsys.readouterr().out
    assert "Deal verified" in out
    assert "Ana: " in out


@pytest.mark.parametrize("tamper", ["seed", "salt", "commitment", "action", "result"])
def test_verify_fails_a_tampered_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], tamper: str) -> None:
    game = _played(moves=400)
    data = _fair_record_data(game)
    fairness = data["fairness"]
    assert isinstance(fairness, dict)
    if tamper == "seed":
        data["seed"] = 8
    elif tamper == "salt":
        fairness["salt"] = "5be0ab"
    elif tamper == "commitment":
        fairness["commitment"] = commitment_of(7, "ffff")
    elif tamper == "action":
        actions = data["actions"]
        assert isinstance(actions, list)
        actions[0] = {"seat": 1 - actions[0]["seat"], "type": "draw"}
    else:
        result = data["result"]
        assert isinstance(result, dict)
        result["scores"] = [0, 0]
    assert main(["verify", _write(tmp_path, data), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["problems"]


def test_verify_says_when_a_record_has_no_commitment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _played(moves=4)
    assert main(["verify", _write(tmp_path, GameRecord.from_game(game).to_dict())]) == 1
    assert "no fairness commitment" in capsys.readouterr().out


def test_a_commitment_without_a_seed_is_refused() -> None:
    game = _played(moves=2)
    data = GameRecord.from_game(game).to_dict()
    seed = data.pop("seed")
    data["deal"] = {
        "first": game.deal.first,
        "racks": [" ".join(str(piece.tile) for piece in rack) for rack in game.deal.racks],
        "pool": " ".join(str(piece.tile) for piece in game.deal.pool),
    }
    data["fairness"] = Fairness.commit(seed, SALT).to_dict()
    with pytest.raises(RecordError, match="fairness"):
        GameRecord.from_dict(data)
