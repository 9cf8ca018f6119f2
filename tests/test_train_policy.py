"""The training tool's population: its members, how each game's opponent is drawn, how the teacher plays them out."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tilerummy.bots.league import frozen_network
from tilerummy.env.single import SingleSeatEnv
from tilerummy.errors import TilerummyError
from tilerummy.game import PlayerView
from tilerummy.solver import solve
from tilerummy.tiles import parse_tiles

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import train_policy


def test_members_are_named_styles_or_networks(tmp_path: Path) -> None:
    assert train_policy.member("Greedy") == train_policy.Member("greedy", "greedy")
    assert train_policy.member("greedy").style == "greedy"
    assert train_policy.member("racer").style == "greedy"
    assert train_policy.member("hoarder").style == "hold"
    assert train_policy.member("network-v1").style == "hold"
    weights = tmp_path / "snapshot.npz"
    frozen_network().save(weights)
    snapshot = train_policy.member(str(weights))
    assert snapshot.label == "snapshot" and snapshot.style == "hold"
    assert isinstance(snapshot.opponent, train_policy.NetworkOpponent)
    assert train_policy.member(" hoarder ").label == "hoarder"
    with pytest.raises(TilerummyError, match="opponent 'sprinter'"):
        train_policy.member("sprinter")


def test_bad_opponents_are_refused_naming_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    for option, value, reason in (
        ("--opponents", "greedy,sprinter", "--opponents: opponent 'sprinter'"),
        ("--eval-against", " , ", "--eval-against: name at least one opponent"),
        ("--opponents", "missing.NPZ", "--opponents: weights missing.NPZ: not a network's weights file"),
    ):
        with pytest.raises(SystemExit) as stopped:
            train_policy.main(["--out", "unused.npz", option, value])
        assert stopped.value.code == 2
        assert reason in capsys.readouterr().err


def test_each_game_draws_its_opponent_from_the_whole_population() -> None:
    population = [train_policy.member(name) for name in ("greedy", "hoarder", "lurker", "racer")]
    drawn = [train_policy.opponent_of(deal, population) for deal in range(1000, 1200)]
    assert drawn == [train_policy.opponent_of(deal, population) for deal in range(1000, 1200)]
    counts = Counter(opponent.label for opponent in drawn)
    assert set(counts) == {"greedy", "hoarder", "lurker", "racer"}
    assert min(counts.values()) >= 30


def test_a_holding_seat_is_played_out_opening_and_going_out_only() -> None:
    rack = Counter(parse_tiles("R1 R2 R3 B9 K9 Y9 R11"))
    table = "B5 B6 B7"
    opening = solve(list(rack.elements()), table, initial_meld_done=False, fewest_changes=False)
    assert opening is not None and len(opening.placed) == 6
    assert train_policy._held(opening, rack, melded=False) is opening  # its initial meld, as soon as it can
    best = solve(list(rack.elements()), table, fewest_changes=False)
    assert best is not None and len(best.placed) == 6
    assert train_policy._held(best, rack, melded=True) is None  # holds: R11 would stay behind
    rack[parse_tiles("R11")[0]] -= 1
    out = solve(list(rack.elements()), table, fewest_changes=False)
    assert out is not None and train_policy._held(out, rack, melded=True) is out  # goes out


def test_the_teacher_plays_the_opponents_seat_in_its_style(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, tuple[str, ...]]] = []

    def record(
        teacher: train_policy.Teacher, view: PlayerView, options: object, rng: object, styles: tuple[str, ...] = ()
    ) -> np.ndarray:
        assert view.seat is not None
        seen.append((view.seat, tuple(styles)))
        return np.zeros(len(options))  # type: ignore[arg-type]

    monkeypatch.setattr(train_policy.Teacher, "values", record)
    for deal in (2, 4):  # the learner in seat 0, then 1
        job = (deal, 0, None, train_policy.Teacher(worlds=1, horizon=1), "standard", train_policy.member("hoarder"))
        train_policy.play_and_label(job)
    assert {seat for seat, _ in seen} == {0, 1}
    for seat, styles in seen:
        assert styles[seat] == "greedy" and styles[1 - seat] == "hold"


def test_a_frozen_network_plays_as_the_league_opponent_of_its_weights() -> None:
    def play(opponent: str | train_policy.NetworkOpponent) -> list[object]:
        single = SingleSeatEnv((opponent,), seat=0)
        observation, _ = single.reset(seed=31)
        terminated = False
        while not terminated:
            action = int(np.flatnonzero(observation["action_mask"])[0])  # the best play, if any
            observation, _, terminated, _, _ = single.step(action)
        return list(single.game.actions)

    assert play(train_policy.NetworkOpponent(frozen_network())) == play("network-v1")
