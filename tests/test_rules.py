from __future__ import annotations

import pytest

from tilerummy import PRESETS, JokerReplacement, PoolExhausted, Rules, RulesError, TileSet


def test_defaults_follow_the_online_rules() -> None:
    rules = Rules()
    assert rules.tile_set is TileSet.STANDARD
    assert rules.initial_meld_points == 30
    assert rules.meld_threshold == 30
    assert Rules(initial_meld_strict=True).meld_threshold == 31
    assert rules.joker_replacement is JokerReplacement.RACK
    assert rules.turn_seconds == 120
    assert rules.timeout_penalty == 3
    assert rules.pool_exhausted is PoolExhausted.ONE_MORE_ROUND
    assert rules.joker_penalty == 30
    assert rules.unmelded_penalty
    assert not rules.is_match


def test_presets() -> None:
    assert set(PRESETS) >= {"standard", "six-player"}
    assert Rules.preset("standard") == Rules()
    assert Rules.preset("six-player").max_players == 6
    house = Rules.preset("house", joker_penalty=20)
    assert house.wrap
    assert house.joker_penalty == 20
    with pytest.raises(RulesError, match="unknown preset 'nope'"):
        Rules.preset("nope")


def test_rules_are_immutable_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.wrap = True  # type: ignore[misc]
    assert hash(rules) == hash(Rules())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"joker_replacement": "sometimes"},
            "joker_replacement='sometimes': expected one of rack, rack_or_table, free",
        ),
        ({"initial_meld_points": -1}, "initial_meld_points=-1: must be at least 0"),
        ({"turn_seconds": 0}, "turn_seconds=0"),
        ({"timeout_penalty": 1.5}, "expected a whole number"),
        ({"wrap": "yes"}, "wrap='yes': expected true or false"),
        ({"rounds": 0}, "rounds=0"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules.preset("standard", **options)


def test_players_per_tile_set() -> None:
    Rules().check_players(4)
    with pytest.raises(RulesError, match="5 players need the six-player set"):
        Rules().check_players(5)
    Rules().replace(tile_set="six-player").check_players(6)
    with pytest.raises(RulesError, match="2 to 6"):
        Rules().replace(tile_set="six-player").check_players(7)


def test_dict_round_trip() -> None:
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"preset": "house", "wrap": False}).joker_penalty == 25
