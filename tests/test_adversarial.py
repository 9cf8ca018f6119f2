"""Adversarial probes of the rules engine against the rules: set reading,
initial melds, manipulation, the joker rule in every mode, the clock, the
end of the round and scoring, and malformed input."""

from __future__ import annotations

import pytest

from tilerummy import (
    Colour,
    Game,
    InvalidMeld,
    JokerReplacement,
    Meld,
    MeldKind,
    NotYourTurn,
    PoolExhausted,
    Reason,
    Rules,
    Table,
    parse_tiles,
    score_round,
)
from tilerummy.melds import joker_meanings_text
from tilerummy.scoring import UNMELDED_COULD, UNMELDED_NEVER

from .helpers import refused, scenario


def meanings(text: str, *, wrap: bool = False) -> list[str]:
    return [joker_meanings_text(meaning) for meaning in Meld.parse(text, wrap=wrap).jokers]


def rack_text(game: Game, seat: int) -> list[str]:
    return [str(tile) for tile in game.rack_tiles(seat)]


# --- reading sets ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wrap", "value", "jokers"),
    [
        ("R11 R12 R13 R1", True, 37, []),
        ("R12 J R1", True, 26, ["R13"]),
        ("J R13 R1", True, 26, ["R12"]),
        ("R12 R13 J", True, 26, ["R1"]),
        ("J J R1", True, 26, ["R12", "R13"]),
        ("J R11 R12 R13 R1", True, 47, ["R10"]),
        ("R1 R12 R13", True, 26, []),
        ("R1 R13 J", True, 26, ["R12"]),
        ("R1 R2 J", False, 6, ["R3"]),
        ("J R12 R13", False, 36, ["R11"]),
        ("R5 J J R8", False, 26, ["R6", "R7"]),
        ("K5 B5 J J", False, 20, ["R5|Y5", "R5|Y5"]),
        ("R5 B5 J", False, 15, ["Y5|K5"]),
        ("R13 J J", True, 39, ["B13|Y13|K13", "B13|Y13|K13"]),
        ("K10 J(B10) J(Y10)", False, 30, ["R10|B10|Y10", "R10|B10|Y10"]),
    ],
)
def test_valid_sets_and_joker_meanings(text: str, wrap: bool, value: int, jokers: list[str]) -> None:
    assert Meld.parse(text, wrap=wrap).value == value
    assert meanings(text, wrap=wrap) == jokers


@pytest.mark.parametrize(
    ("text", "wrap"),
    [
        ("R12 R13 R1", False),  # 1 is low only
        ("R13 R1 R2", False),
        ("R13 R1 R2", True),  # nothing may follow the wrapped 1
        ("R12 R13 R1 R2", True),
        ("R13 R1 J", True),
        ("J R1 R2", True),
        ("R12 R13 J", False),
        ("J J J", False),  # a set needs a numbered tile
        ("R5 B5 Y5 K5 J", False),
        ("R5 R5 R6", False),
        ("R5 B5", False),
        ("R5 B5 R6", False),
        ("R5 J(B5) J(B5)", False),
        ("R5 B5 J(R5)", False),
    ],
)
def test_invalid_sets(text: str, wrap: bool) -> None:
    with pytest.raises(InvalidMeld):
        Meld.parse(text, wrap=wrap)


@pytest.mark.parametrize("text", ["R5 R6 J(R9)", "R5 R7 J(R4)", "R7 J(R9) R5"])
def test_joker_hint_that_does_not_fit_is_refused(text: str) -> None:
    # melds.py lets a joker name its meaning ("J(R9) R10 J" is a run); these
    # are accepted as R5-R6-R7, the joker standing for R7 or R6.
    with pytest.raises(InvalidMeld):
        Meld.parse(text)


@pytest.mark.parametrize("text", ["R1 R12 J", "R1 J R12", "R13 R1 R12"])
def test_wrap_runs_not_written_in_order_are_sorted(text: str) -> None:
    # "R1 R12 R13" and "R1 R13 J" are sorted into R12-R13-R1 (see the test
    # above); these hold the same tiles, or a joker for R13, and are refused.
    meld = Meld.parse(text, wrap=True)
    assert meld.is_run
    assert meld.value == 26


# --- initial meld -------------------------------------------------------------------


def test_initial_meld_joker_counts_as_its_tile() -> None:
    game = scenario(["R9 J R11 B1", "B2"])
    game.play(0, "R9 J R11")  # 9 + 10 + 11
    assert game.melded == (True, False)
    game = scenario(["K10 J J B1", "B2"])
    game.play(0, "K10 J(B10) J(Y10)")  # a group: 30
    assert game.table.melds[0].is_group
    game = scenario(["J J K1 B1", "B2"], rules=Rules(wrap=True))
    refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "K1 J J")  # K1 K2 K3: 6
    error = refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "J J K1")  # K12 K13 K1: 26
    assert error.detail == "initial meld worth 26, need 30"


def test_initial_meld_strict_and_points() -> None:
    game = scenario(["R9 J R11 B1 B2 B3", "Y1"], rules=Rules(initial_meld_strict=True))
    refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "R9 J R11")
    game.play(0, "R9 J R11 | B1 B2 B3")
    game = scenario(["B1 B2 B3 R1", "Y1"], rules=Rules(initial_meld_points=6))
    game.play(0, "B1 B2 B3")
    assert game.melded[0]


def test_initial_meld_may_not_touch_a_set_with_a_joker() -> None:
    game = scenario(["R5 B5 J K10 K11 K12 R1", "Y5 K5 Y10 Y11 Y12 R2"])
    game.play(0, "R5 B5 J | K10 K11 K12")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "R5 B5 Y5 J | K10 K11 K12 | Y10 Y11 Y12")
    # Freeing the joker with K5 is not allowed before the initial meld.
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "R5 B5 K5 | K10 K11 K12 | Y10 Y11 Y12 J")
    game.play(1, "R5 B5 J(Y5) | K10 K11 K12 | Y10 Y11 Y12")


def test_initial_meld_lay_off_keeps_table_jokers() -> None:
    rules = Rules(initial_meld_lay_off=True)
    game = scenario(["K5 K6 J K10 K11 K12 R1", "K4 K7 Y10 Y11 Y12 R2"], rules=rules)
    game.play(0, "K5 K6 J | K10 K11 K12")
    # K7 laid off after the joker would make it stand for K8.
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 1, "K5 K6 J K7 | K10 K11 K12 | Y10 Y11 Y12")
    # A lay-off alone is no initial meld.
    refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 1, "K4 K5 K6 J | K10 K11 K12")
    game.play(1, "K4 K5 K6 J | K10 K11 K12 | Y10 Y11 Y12")
    assert rack_text(game, 1) == ["R2", "K7"]


def test_initial_meld_lay_off_may_not_split_a_set() -> None:
    rules = Rules(initial_meld_lay_off=True)
    game = scenario(["K8 K9 K10 K11 K12 R1", "K13 Y10 Y11 Y12 R2"], rules=rules)
    game.play(0, "K8 K9 K10 K11 K12")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "K8 K9 K10 | K11 K12 K13 | Y10 Y11 Y12")
    game.play(1, "K8 K9 K10 K11 K12 K13 | Y10 Y11 Y12")


# --- manipulation -----------------------------------------------------------------------


def opened(rules: Rules | None = None, *, rack0: str = "", rack1: str = "") -> Game:
    """Seat 0 opened R1 R2 R3 | K10 K11 K12, seat 1 R5 R6 R7 R8 | B10 B11 B12; seat 0 to play."""
    game = scenario(
        [f"R1 R2 R3 K10 K11 K12 Y13 {rack0}", f"R5 R6 R7 R8 B10 B11 B12 Y12 {rack1}"],
        rules=rules,
    )
    game.play(0, "R1 R2 R3 | K10 K11 K12")
    game.play(1, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 | B10 B11 B12")
    return game


def test_merge_and_split_runs() -> None:
    game = opened(rack0="R4", rack1="R4")
    game.play(0, "R1 R2 R3 R4 R5 R6 R7 R8 | K10 K11 K12 | B10 B11 B12")
    game.play(1, "R1 R2 R3 R4 | R4 R5 R6 R7 R8 | K10 K11 K12 | B10 B11 B12")
    assert len(game.table) == 4
    assert game.table.tile_count == 15


def test_rearranging_leaves_no_loose_tile_and_keeps_table_tiles() -> None:
    game = opened(rack0="R9")
    refused(game, Reason.INVALID_SET, game.play, 0, "R1 R2 R3 | K10 K11 K12 | R5 R6 | R7 R8 R9 | B10 B11 B12")
    refused(game, Reason.TABLE_TILE_REMOVED, game.play, 0, "R1 R2 R3 | K10 K11 K12 | R6 R7 R8 R9 | B10 B11 B12")
    refused(game, Reason.NOTHING_PLAYED, game.play, 0, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 | B10 B11 B12")
    # Only the table's own tiles, written in another order: still nothing played.
    refused(game, Reason.NOTHING_PLAYED, game.play, 0, "R3 R2 R1 | K12 K11 K10 | R8 R7 R6 R5 | B12 B11 B10")
    game.play(0, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 R9 | B10 B11 B12")


def test_fourth_tile_of_a_group_into_a_run() -> None:
    game = scenario(["R5 B5 Y5 K5 R1", "K6 K7 Y10 Y11 Y12 R2"], rules=Rules(initial_meld_points=20))
    game.play(0, "R5 B5 Y5 K5")
    game.play(1, "R5 B5 Y5 K5 | Y10 Y11 Y12")
    game.draw(0)
    game.play(1, "R5 B5 Y5 | K5 K6 K7 | Y10 Y11 Y12")
    assert rack_text(game, 1) == ["R2"]


# --- jokers on the table ---------------------------------------------------------------


def two_jokers(rules: Rules | None = None, *, rack0: str = "") -> Game:
    """Seat 0 opened R5 B5 Y5 J (J = K5) | K10 K11 K12; seat 1 opened
    B9 B10 J (J = B11) | Y11 Y12 Y13; seat 0 to play."""
    game = scenario(
        [f"R5 B5 Y5 J K10 K11 K12 R1 {rack0}", "B9 B10 J Y11 Y12 Y13 R2"],
        rules=rules,
    )
    game.play(0, "R5 B5 Y5 J | K10 K11 K12")
    game.play(1, "R5 B5 Y5 J | K10 K11 K12 | B9 B10 J | Y11 Y12 Y13")
    return game


def test_two_table_jokers_freed_need_two_rack_tiles() -> None:
    game = two_jokers(rack0="K5 B8 R6 R7")
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, ONE_JOKER_NOT_REPLACED)
    game = two_jokers(rack0="K5 B11 R6 R7")
    game.play(0, "R5 B5 Y5 K5 | K10 K11 K12 | B9 B10 B11 | R6 R7 J J | Y11 Y12 Y13")
    assert rack_text(game, 0) == ["R1"]


# K5 from the rack replaces the joker of the group; B8 keeps B9 B10 a set, but
# nothing replaces the joker that stood for B11.
ONE_JOKER_NOT_REPLACED = "R5 B5 Y5 K5 | K10 K11 K12 | B8 B9 B10 | R6 R7 J J | Y11 Y12 Y13"


def test_refusal_names_the_joker_left_unreplaced() -> None:
    game = two_jokers(rack0="K5 B8 R6 R7")
    error = refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, ONE_JOKER_NOT_REPLACED)
    assert "B11" in error.detail, error.detail


def test_freed_joker_used_in_a_new_set_the_same_turn() -> None:
    game = two_jokers(rack0="K5 Y7 Y8")
    # K5 from the rack frees the joker, which completes Y7 Y8 J (J = Y9).
    game.play(0, "R5 B5 Y5 K5 | K10 K11 K12 | B9 B10 J | Y11 Y12 Y13 | Y7 Y8 J")
    assert meanings("Y7 Y8 J") == ["Y9"]
    assert rack_text(game, 0) == ["R1"]


def test_extending_a_run_keeps_or_changes_its_joker_by_position() -> None:
    game = two_jokers(rack0="B8")
    # B8 before B9 B10 J: the joker still stands for B11.
    game.play(0, "R5 B5 Y5 J | K10 K11 K12 | B8 B9 B10 J | Y11 Y12 Y13")
    game = two_jokers(rack0="B12")
    # B12 after the joker: it still stands for B11.
    game.play(0, "R5 B5 Y5 J | K10 K11 K12 | B9 B10 J B12 | Y11 Y12 Y13")
    game = two_jokers(rack0="B8 B7")
    # The joker moved to the front stands for B6: changed, and no B11 replaced it.
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | J B7 B8 B9 B10 | Y11 Y12 Y13")


def group_jokers(rules: Rules | None = None) -> Game:
    """Both jokers stand for Y5: R5 B5 K5 J and Y3 Y4 J; seat 0 holds K6 K7 Y2."""
    game = scenario(
        ["R5 B5 K5 J K10 K11 K12 K6 K7 Y2 R1", "Y3 Y4 J B11 B12 B13 R2"],
        rules=rules,
    )
    game.play(0, "R5 B5 K5 J | K10 K11 K12")
    game.play(1, "R5 B5 K5 J | K10 K11 K12 | Y3 Y4 J | B11 B12 B13")
    return game


GROUP_JOKERS_PLAY = "R5 B5 J J | K5 K6 K7 | Y2 Y3 Y4 | K10 K11 K12 | B11 B12 B13"


def test_two_jokers_into_one_group_in_free_mode() -> None:
    game = group_jokers(Rules(joker_replacement=JokerReplacement.FREE))
    game.play(0, GROUP_JOKERS_PLAY)
    assert rack_text(game, 0) == ["R1"]


@pytest.mark.parametrize("mode", [JokerReplacement.RACK, JokerReplacement.RACK_OR_TABLE])
def test_two_jokers_in_one_group_stand_for_different_tiles(mode: JokerReplacement) -> None:
    game = group_jokers(Rules(joker_replacement=mode))
    # In the new group the two jokers stand for Y5 and K5: one of them changed
    # from Y5 to K5, and no Y5 is on the table or came from the rack.
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, GROUP_JOKERS_PLAY)


def test_free_jokers_still_fixed_before_the_initial_meld() -> None:
    rules = Rules(joker_replacement=JokerReplacement.FREE, initial_meld_lay_off=True)
    game = scenario(["R5 B5 Y5 J K10 K11 K12 R1", "B11 B12 B13 Y10 Y11 Y12 R2"], rules=rules)
    game.play(0, "R5 B5 Y5 J | K10 K11 K12")
    refused(
        game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "R5 B5 Y5 | K10 K11 K12 | J B11 B12 B13 | Y10 Y11 Y12"
    )
    game.play(1, "R5 B5 Y5 J | K10 K11 K12 | B11 B12 B13 | Y10 Y11 Y12")


@pytest.mark.parametrize("tile", ["Y5", "K5"])
def test_group_of_three_joker_freed_by_either_colour_in_rack_or_table_mode(tile: str) -> None:
    rules = Rules(joker_replacement=JokerReplacement.RACK_OR_TABLE)
    game = scenario([f"R5 B5 J K10 K11 K12 R1 {tile} Y6", "Y11 Y12 Y13 R2"], rules=rules)
    game.play(0, "R5 B5 J | K10 K11 K12")
    game.play(1, "R5 B5 J(Y5) | K10 K11 K12 | Y11 Y12 Y13")
    refused(game, Reason.INVALID_SET, game.play, 0, "R5 B5 Y6 | K10 K11 K12 J | Y11 Y12 Y13")
    game.play(0, f"R5 B5 {tile} | K10 K11 K12 J | Y11 Y12 Y13")


# --- time, pool ---------------------------------------------------------------------------


def test_timeout_after_a_refused_play_restores_and_draws() -> None:
    game = opened(rack0="R9")
    game = Game(game.rules, game.deal, started_at=0.0)
    game.play(0, "R1 R2 R3 | K10 K11 K12", at=10.0)
    game.play(1, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 | B10 B11 B12", at=20.0)
    refused(game, Reason.INVALID_SET, game.play, 0, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 | B10 B11 B12 R9", at=30.0)
    refused(game, Reason.TIME_UP, game.play, 0, "R1 R2 R3 | K10 K11 K12 | R5 R6 R7 R8 R9 | B10 B11 B12", at=141.0)
    table = str(game.table)
    size = len(game.rack(0))
    game.timeout(0, at=141.0)
    assert str(game.table) == table
    assert len(game.rack(0)) == size + 3
    assert game.turn == 1
    assert game.deadline == 261.0


def test_timeout_that_empties_the_pool_starts_the_last_round() -> None:
    game = scenario(["R1 R2", "R3 R4", "K9"], pool_size=2, surplus_seat=2)
    game.timeout(0)
    assert game.pool_size == 0
    refused(game, Reason.POOL_EMPTY, game.draw, 1)
    game.pass_turn(1)
    game.pass_turn(2)
    assert not game.is_over
    game.timeout(0)  # the pool is empty: no penalty tile, and the turn ends
    assert game.is_over
    refused(game, Reason.GAME_OVER, game.timeout, 1)


def test_until_blocked_counts_timeouts_as_idle() -> None:
    game = scenario(
        ["R1 R2", "R3 R4", "K9"], rules=Rules(pool_exhausted=PoolExhausted.UNTIL_BLOCKED), pool_size=1, surplus_seat=2
    )
    game.draw(0)
    game.timeout(1)
    game.pass_turn(2)
    assert not game.is_over
    game.timeout(0)
    assert game.is_over


@pytest.mark.parametrize("mode", list(PoolExhausted))
def test_round_dealt_with_an_empty_pool_ends_after_a_round_of_passes(mode: PoolExhausted) -> None:
    game = scenario(["R1 R2", "R3 R4"], rules=Rules(pool_exhausted=mode), pool_size=0)
    refused(game, Reason.POOL_EMPTY, game.draw, 0)
    for _ in range(4):
        if game.is_over:
            break
        game.pass_turn(game.turn)
    assert game.is_over


def test_turn_after_a_timeout_gets_its_own_time() -> None:
    base = scenario(["R1 R2", "R3 R4"])
    game = Game(base.rules, base.deal, started_at=1000.0)
    game.timeout(0)  # the turn ran out (at its deadline, 1120)
    # Seat 1's turn began when seat 0's ran out: 10 s later it still has time.
    game.draw(1, at=1130.0)
    assert game.turn == 0


# --- scoring ---------------------------------------------------------------------------------


def test_online_rules_pool_exhausted_example() -> None:
    racks = [parse_tiles(text) for text in ["R6", "R1 R2 B2 R7", "J R5", "R9 R10"]]
    result = score_round(racks, Rules())
    assert result.values == (6, 12, 35, 19)
    assert result.adjusted == (0, 6, 29, 13)
    assert result.scores == (48, -6, -29, -13)


def test_went_out_scores_with_joker_penalty_25() -> None:
    racks = [[], parse_tiles("J R5"), parse_tiles("K13")]
    result = score_round(racks, Rules(joker_penalty=25))
    assert result.scores == (43, -30, -13)


def test_unmelded_penalty_when_the_pool_ran_out() -> None:
    # Seat 0 melded; seat 1 (R1, then R2) never held an opening; seat 2
    # (the rest of the set) held one and never played it.
    game = scenario(["K10 K11 K12 R13 R12", "R1", "Y1"], pool_front="R2", pool_size=1, surplus_seat=2)
    game.play(0, "K10 K11 K12")
    game.draw(1)
    game.pass_turn(2)
    game.pass_turn(0)
    assert not game.is_over
    game.pass_turn(1)
    assert game.result is not None
    assert not game.result.went_out
    assert game.result.scores == (UNMELDED_NEVER + UNMELDED_COULD, -UNMELDED_NEVER, -UNMELDED_COULD)


def test_lowest_rack_wins_when_the_unmelded_penalty_is_off() -> None:
    rules = Rules(unmelded_penalty=False)
    game = scenario(["K10 K11 K12 R13 R12", "R1", "Y1"], rules=rules, pool_front="R2", pool_size=1, surplus_seat=2)
    game.play(0, "K10 K11 K12")
    game.draw(1)
    game.pass_turn(2)
    game.pass_turn(0)
    game.pass_turn(1)
    result = game.result
    assert result is not None
    assert result.values[:2] == (25, 3)
    # "the player with the lowest rack value wins"; the engine makes seat 0
    # the winner and seat 1 scores +22 as "minus" its adjusted value of -22.
    assert result.winner == 1
    assert all(score <= 0 for seat, score in enumerate(result.scores) if seat != result.winner)


# --- malformed input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "R10 R11",
        "R10 R11 X12",
        "R10 R11 R12 |",
        "| R10 R11 R12",
        "R10 R11 R0",
        "R10 R11 R12#1",
        "J() R11 R12",
        "R10 R11 R14",
    ],
)
def test_malformed_tables_are_refused_as_invalid_sets(text: str) -> None:
    game = scenario(["R10 R11 R12 R1", "R2"])
    error = refused(game, Reason.INVALID_SET, game.play, 0, text)
    assert error.detail


def test_seats_turns_and_game_over() -> None:
    game = scenario(["R10 R11 R12", "R1 R2", "R3 R4"])
    refused(game, Reason.UNKNOWN_SEAT, game.play, 3, "R10 R11 R12")
    refused(game, Reason.UNKNOWN_SEAT, game.draw, -1)
    error = refused(game, Reason.NOT_YOUR_TURN, game.play, 1, "R10 R11 R12")
    assert isinstance(error, NotYourTurn)
    refused(game, Reason.NOT_YOUR_TURN, game.timeout, 2)
    game.play(0, "R10 R11 R12")
    assert game.is_over
    for seat in range(3):
        refused(game, Reason.GAME_OVER, game.draw, seat)
        refused(game, Reason.GAME_OVER, game.pass_turn, seat)
        refused(game, Reason.GAME_OVER, game.timeout, seat)
        refused(game, Reason.GAME_OVER, game.play, seat, "R10 R11 R12")


def test_hand_built_meld_cannot_inflate_an_initial_meld() -> None:
    # R1 R2 R3 built as a run starting at 11: its text is valid, its value 36.
    forged = Meld(MeldKind.RUN, tuple(parse_tiles("R1 R2 R3")), 11, Colour.RED)
    assert forged.value == 36
    game = scenario(["R1 R2 R3 B1", "B2"])
    refused(game, Reason.INVALID_SET, game.play, 0, Table((forged,)))
