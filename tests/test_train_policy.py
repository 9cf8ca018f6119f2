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
    with pytest.raises(TilerummyError, match="opponent 'sprinter'"):
        train_policy.member("sprinter")


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
