"""The network bot: NumPy inference by hand, its features, and whole legal games."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tilerummy import Draw, Play, TilerummyError
from tilerummy.arena import run_arena
from tilerummy.bots import make_bot
from tilerummy.bots.network import (
    FEATURES,
    Candidate,
    NetworkBot,
    PolicyNetwork,
    candidate_features,
    candidates_of,
    choose_index,
)
from tilerummy.tiles import parse_tiles

from .helpers import scenario


def tiny_network() -> PolicyNetwork:
    """One hidden unit reading ``tiles_placed``; everything else weighs nothing."""
    w1 = np.zeros((len(FEATURES), 1))
    w1[FEATURES.index("tiles_placed"), 0] = 1.0
    return PolicyNetwork(w1=w1, b1=np.array([0.25]), w2=np.array([2.0]), b2=0.5)


def test_scores_and_policy_match_a_hand_computed_case() -> None:
    features = np.zeros((2, len(FEATURES)))
    features[0, FEATURES.index("tiles_placed")] = 0.5
    network = tiny_network()
    # score = 2 * tanh(placed + 0.25) + 0.5
    first, second = 2 * math.tanh(0.75) + 0.5, 2 * math.tanh(0.25) + 0.5
    np.testing.assert_allclose(network.scores(features), [first, second])
    total = math.exp(first) + math.exp(second)
    np.testing.assert_allclose(network.probabilities(features), [math.exp(first) / total, math.exp(second) / total])
    assert network.parameters == len(FEATURES) + 1 + 1 + 1


def test_weights_round_trip_through_a_file(tmp_path: Path) -> None:
    network = tiny_network()
    network.save(tmp_path / "weights.npz")
    loaded = PolicyNetwork.load(tmp_path / "weights.npz")
    features = np.random.default_rng(0).random((5, len(FEATURES)))
    np.testing.assert_array_equal(loaded.scores(features), network.scores(features))


def test_the_shipped_weights_load_and_fit_the_features() -> None:
    shipped = PolicyNetwork.load()
    assert shipped.w1.shape[0] == len(FEATURES)
    assert np.isfinite(shipped.w1).all() and np.isfinite(shipped.w2).all()


def test_weights_of_the_wrong_shape_are_refused() -> None:
    with pytest.raises(ValueError, match="expected"):
        PolicyNetwork(np.zeros((3, 2)), np.zeros(2), np.zeros(2), 0.0)


def test_features_describe_the_plays_and_drawing() -> None:
    game = scenario(["R9 R10 R11 R12 K5 K5 Y7", "Y1"])
    view = game.view(0)
    options = candidates_of(view)
    rows = candidate_features(view, options)
    column = {name: rows[:, index] for index, name in enumerate(FEATURES)}
    assert options[-1] == Candidate(None, ())
    assert column["draws"].tolist() == [0.0] * (len(options) - 1) + [1.0]
    assert column["tiles_placed"][-1] == 0.0
    assert column["rack_now"][0] == pytest.approx(7 / 14)
    assert len(options) > 2, "R9-R12 open in more than one way"
    assert column["opens"][:-1].tolist() == [1.0] * (len(options) - 1)
    for index, option in enumerate(options[:-1]):
        assert column["tiles_placed"][index] == pytest.approx(len(option.placed) / 10)
        assert column["rack_after"][index] == pytest.approx((7 - len(option.placed)) / 14)


def test_the_bot_goes_out_whenever_it_can() -> None:
    game = scenario(["R10 R11 R12", "Y1"])  # 33 points: enough to open, and the whole rack
    view = game.view(0)
    options = candidates_of(view)
    # A network that prefers drawing above all still goes out.
    w1 = np.zeros((len(FEATURES), 1))
    w1[FEATURES.index("draws"), 0] = 5.0
    drawing = PolicyNetwork(w1, np.zeros(1), np.ones(1), 0.0)
    assert options[choose_index(drawing, view, options)].placed == tuple(parse_tiles("R10 R11 R12"))
    action = NetworkBot(network=drawing).choose(view)
    assert isinstance(action, Play)


def test_a_network_that_prefers_drawing_draws_once_it_has_opened() -> None:
    w1 = np.zeros((len(FEATURES), 1))
    w1[FEATURES.index("draws"), 0] = 5.0
    bot = NetworkBot(network=PolicyNetwork(w1, np.zeros(1), np.ones(1), 0.0))
    game = scenario(["R10 R11 R12 R13 K1", "Y1 Y2"])
    assert isinstance(bot.choose(game.view(0)), Play), "it opens as soon as it can"
    game.play(0, "R10 R11 R12")
    game.draw(1)
    assert candidates_of(game.view(0))[0].placed == tuple(parse_tiles("R13"))
    assert isinstance(bot.choose(game.view(0)), Draw), "R13 could go on the run, but the network prefers drawing"


def test_the_network_driven_levels_play_with_weights_from_a_file(tmp_path: Path) -> None:
    # tiny_network scores by tiles placed only: it never prefers drawing to a play.
    tiny_network().save(tmp_path / "eager.npz")
    game = scenario(["R5 R6 R7 B10 B11 B12 R8 K3 K9", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"])
    game.play(0, "R5 R6 R7 | B10 B11 B12")
    game.draw(1)
    view = game.view(0)
    assert isinstance(make_bot("hard").choose(view), Draw)  # the shipped network holds R8 back
    for level in ("hard", "network", "expert"):
        assert isinstance(make_bot(level, weights=tmp_path / "eager.npz", budget=0.01).choose(view), Play), level


def test_weights_that_cannot_be_read_are_refused_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "notes.npz").write_text("not weights")
    for path in (tmp_path / "notes.npz", tmp_path / "missing.npz"):
        with pytest.raises(TilerummyError, match=f"weights {path}"):
            make_bot("hard", weights=path)
        with pytest.raises(TilerummyError, match=f"weights {path}"):
            run_arena(["hard", "greedy"], 2, weights=path)
