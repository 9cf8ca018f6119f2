from __future__ import annotations

import pytest

from tilerummy import (
    Game,
    NotYourTurn,
    Reason,
    Rules,
    RulesError,
    Table,
    Tile,
)
from tilerummy.scoring import UNMELDED_COULD, UNMELDED_NEVER
from tilerummy.server.protocol import view_fields

from .helpers import refused, scenario

# --- initial meld --------------------------------------------------------------


def test_initial_meld_of_exactly_30_with_repeated_numbers() -> None:
    game = scenario(["K10 B10 Y10 R1", "R2"])
    game.play(0, "K10 B10 Y10")
    assert game.melded == (True, False)
    assert [str(tile) for tile in game.rack_tiles(0)] == ["R1"]
    assert game.turn == 1


def test_initial_meld_of_29_is_refused() -> None:
    game = scenario(["K5 K6 K7 K8 R1 B1 Y1 R2", "R3"])
    error = refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "K5 K6 K7 K8 | R1 B1 Y1")
    assert error.detail == "initial meld worth 29, need 30"
    game = scenario(["R8 R9 R10 K1 B1 Y1 R2", "R3"])
    error = refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "R8 R9 R10")
    assert error.detail == "initial meld worth 27, need 30"


def test_initial_meld_counts_a_joker_as_its_tile() -> None:
    game = scenario(["K10 B10 J R1", "R2"])
    game.play(0, "K10 B10 J")
    assert game.melded[0]
    game = scenario(["R9 J R11 B1", "R2"])
    refused(game, Reason.INVALID_SET, game.play, 0, "R9 J")
    game = scenario(["R8 J R10 B1", "R2"])
    error = refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "R8 J R10")
    assert error.detail == "initial meld worth 27, need 30"


def test_initial_meld_strict() -> None:
    rules = Rules(initial_meld_strict=True)
    game = scenario(["K10 B10 Y10 R1 R2 R3", "R4"], rules=rules)
    error = refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 0, "K10 B10 Y10")
    assert error.detail == "initial meld worth 30, need more than 30"
    game.play(0, "K10 B10 Y10 | R1 R2 R3")


def test_initial_meld_may_not_touch_the_table() -> None:
    game = scenario(["K10 K11 K12 R1", "B11 B12 B13 K13 K9"])
    game.play(0, "K10 K11 K12")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "K10 K11 K12 K13 | B11 B12 B13")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "K9 K10 K11 K12 K13 | B11 B12 B13")
    game.play(1, "K10 K11 K12 | B11 B12 B13")
    assert str(game.table) == "K10 K11 K12 | B11 B12 B13"


def test_initial_meld_lay_off_option() -> None:
    rules = Rules(initial_meld_lay_off=True)
    game = scenario(["K10 K11 K12 R1", "B11 B12 B13 K13 K9 R1 R2 R3 B10 Y10"], rules=rules)
    game.play(0, "K10 K11 K12")
    # Laid-off tiles do not count towards the 30.
    refused(game, Reason.INITIAL_MELD_TOO_LOW, game.play, 1, "K9 K10 K11 K12 K13 | R1 R2 R3")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "K11 K12 K13 | B10 Y10 K10 | B11 B12 B13")
    game.play(1, "K9 K10 K11 K12 K13 | B11 B12 B13")
    assert [str(tile) for tile in game.rack_tiles(1)] == ["R1", "R2", "R3", "B10", "Y10"]


# --- manipulation ----------------------------------------------------------------


def opened_game(rules: Rules | None = None, *, rack0: str = "", rack1: str = "") -> Game:
    """Seat 0 opened with R5 B5 Y5 J (J = K5) and K10 K11 K12; seat 1 with
    K5 K6 K7 K8 and B11 B12 B13; seat 0 to play."""
    game = scenario(
        [f"R5 B5 Y5 J K10 K11 K12 R1 {rack0}", f"K5 K6 K7 K8 B11 B12 B13 Y1 {rack1}"],
        rules=rules,
    )
    game.play(0, "R5 B5 Y5 J | K10 K11 K12")
    game.play(1, "R5 B5 Y5 J | K10 K11 K12 | K5 K6 K7 K8 | B11 B12 B13")
    assert game.turn == 0
    return game


def test_rearranging_the_table() -> None:
    game = opened_game(rack0="K9")
    # Take K8 off the run into a new run with K9 and K10: K10 K11 K12 splits.
    game.play(0, "R5 B5 Y5 J | K5 K6 K7 | K8 K9 K10 K11 K12 | B11 B12 B13")
    assert game.rack_tiles(0) == [game.rack_tiles(0)[0]]


def test_table_tiles_never_go_back_to_a_rack() -> None:
    game = opened_game(rack0="K4")
    error = refused(
        game, Reason.TABLE_TILE_REMOVED, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | K4 K5 K6 K7 | B11 B12 B13"
    )
    assert "K8 was on the table" in error.detail


def test_a_play_must_add_a_rack_tile() -> None:
    game = opened_game()
    refused(game, Reason.NOTHING_PLAYED, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | K5 K6 K7 K8 | B11 B12 B13")


def test_tiles_not_held_are_refused() -> None:
    game = opened_game()
    error = refused(game, Reason.NOT_IN_RACK, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | K5 K6 K7 K8 K9 | B11 B12 B13")
    assert "K9 is neither on the table nor in your rack" in error.detail


def test_invalid_sets_and_loose_tiles_are_refused() -> None:
    game = opened_game(rack0="Y9")
    error = refused(game, Reason.INVALID_SET, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | K5 K6 K7 K8 | B11 B12 B13 | Y9")
    assert "set 5" in error.detail
    refused(game, Reason.INVALID_SET, game.play, 0, "R5 B5 Y5 J | K10 K11 K12 | K5 K6 K7 K8 | B11 B12 B13 | Q9")


def test_joker_freed_with_a_rack_tile() -> None:
    game = opened_game(rack0="K5 B10")
    # K5 from the rack replaces the joker, which goes to the blue run.
    game.play(0, "R5 B5 Y5 K5 | K10 K11 K12 | K5 K6 K7 K8 | J B10 B11 B12 B13")
    assert str(game.table) == "R5 B5 Y5 K5 | K10 K11 K12 | K5 K6 K7 K8 | J B10 B11 B12 B13"
    assert game.table.melds[3].jokers == (frozenset({Tile.parse("B9")}),)
    assert [str(tile) for tile in game.rack_tiles(0)] == ["R1"] and game.turn == 1


def test_freed_joker_must_stay_on_the_table() -> None:
    game = opened_game(rack0="K5")
    refused(game, Reason.TABLE_TILE_REMOVED, game.play, 0, "R5 B5 Y5 K5 | K10 K11 K12 | K5 K6 K7 K8 | B11 B12 B13")


def test_joker_moved_without_its_tile_is_refused() -> None:
    game = opened_game(rack0="B10")
    error = refused(
        game, Reason.JOKER_NOT_REPLACED, game.play, 0, "R5 B5 Y5 | K10 K11 K12 | K5 K6 K7 K8 | J B10 B11 B12 B13"
    )
    assert "K5" in error.detail


def test_joker_freed_with_a_table_tile_depends_on_the_mode() -> None:
    # K5 comes from seat 1's run, not from the rack; B10 comes from the rack.
    play = "R5 B5 Y5 K5 | K10 K11 K12 | K6 K7 K8 | J B10 B11 B12 B13"
    game = opened_game(Rules().replace(joker_replacement="rack"), rack0="B10")
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, play)
    game = opened_game(Rules().replace(joker_replacement="rack_or_table"), rack0="B10")
    game.play(0, play)
    game = opened_game(Rules().replace(joker_replacement="free"), rack0="B10")
    game.play(0, play)


def test_free_jokers_move_like_any_tile() -> None:
    def setup(mode: str) -> Game:
        game = scenario(
            ["R5 B5 Y5 J K10 K11 K12 R1 K9", "Y11 Y12 Y13 R2"], rules=Rules().replace(joker_replacement=mode)
        )
        game.play(0, "R5 B5 Y5 J | K10 K11 K12")
        game.play(1, "R5 B5 Y5 J | K10 K11 K12 | Y11 Y12 Y13")
        return game

    # The joker leaves the group (it stood for K5) for the black run; no K5 anywhere.
    play = "R5 B5 Y5 | K9 K10 K11 K12 J | Y11 Y12 Y13"
    setup("free").play(0, play)
    for mode in ("rack", "rack_or_table"):
        game = setup(mode)
        refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, play)


def test_rack_or_table_accepts_any_table_tile_equal_to_the_joker() -> None:
    # The K5 of seat 1's run could have gone into the group and back: only
    # the end of the turn is judged.
    play = "R5 B5 Y5 | K10 K11 K12 | K5 K6 K7 K8 | J B10 B11 B12 B13"
    game = opened_game(Rules().replace(joker_replacement="rack_or_table"), rack0="B10")
    game.play(0, play)
    game = opened_game(Rules().replace(joker_replacement="rack"), rack0="B10")
    refused(game, Reason.JOKER_NOT_REPLACED, game.play, 0, play)


@pytest.mark.parametrize("tile", ["Y5", "K5"])
def test_joker_in_a_group_of_three_stands_for_either_colour(tile: str) -> None:
    game = scenario([f"R5 B5 J K10 K11 K12 R1 {tile} Y6", "Y11 Y12 Y13 R2"])
    game.play(0, "R5 B5 J | K10 K11 K12")
    game.play(1, "R5 B5 J | K10 K11 K12 | Y11 Y12 Y13")
    refused(game, Reason.INVALID_SET, game.play, 0, "R5 B5 Y6 | K10 K11 K12 J | Y11 Y12 Y13")
    game.play(0, f"R5 B5 {tile} | K10 K11 K12 J | Y11 Y12 Y13")


def test_adding_to_a_group_keeps_its_joker() -> None:
    game = scenario(["R5 B5 J K10 K11 K12 R1 Y5", "Y11 Y12 Y13 R2"])
    game.play(0, "R5 B5 J | K10 K11 K12")
    game.play(1, "R5 B5 J | K10 K11 K12 | Y11 Y12 Y13")
    # Y5 joins the group: the joker now stands for K5, which it could before.
    game.play(0, "R5 B5 Y5 J | K10 K11 K12 | Y11 Y12 Y13")
    group = game.table.melds[0]
    assert group.is_group and group.jokers == (frozenset({Tile.parse("K5")}),)
    assert [str(tile) for tile in game.rack_tiles(0)] == ["R1"] and game.turn == 1


def test_a_joker_may_not_change_before_the_initial_meld() -> None:
    game = scenario(["R5 B5 Y5 J K10 K11 K12 R1", "K5 B11 B12 B13 R2"], rules=Rules(initial_meld_lay_off=True))
    game.play(0, "R5 B5 Y5 J | K10 K11 K12")
    refused(game, Reason.INITIAL_MELD_TOUCHES_TABLE, game.play, 1, "R5 B5 Y5 K5 | K10 K11 K12 | J B11 B12 B13")


# --- drawing, passing, turns -------------------------------------------------------


def test_turn_order_and_wrong_player() -> None:
    game = scenario(["R1 R2", "R3 R4", "R5 R6"], first=1)
    assert game.turn == 1
    error = refused(game, Reason.NOT_YOUR_TURN, game.draw, 0)
    assert isinstance(error, NotYourTurn)
    refused(game, Reason.UNKNOWN_SEAT, game.draw, 3)
    game.draw(1)
    game.draw(2)
    assert game.turn == 0


def test_draw_takes_the_next_pool_tile() -> None:
    game = scenario(["R1 R2", "R3 R4"], pool_front="K13 K12")
    size = game.pool_size
    game.draw(0)
    assert "K13" in [str(tile) for tile in game.rack_tiles(0)]
    assert game.pool_size == size - 1
    refused(game, Reason.POOL_NOT_EMPTY, game.pass_turn, 1)


def test_timeout_penalty_and_clock() -> None:
    game = scenario(["R1 R2", "R3 R4"], pool_front="K13 K12 K11 K10")
    game = Game(game.rules, game.deal, started_at=1000.0)
    assert game.deadline == 1120.0
    refused(game, Reason.TIME_NOT_UP, game.timeout, 0, at=1100.0)
    refused(game, Reason.TIME_UP, game.draw, 0, at=1121.0)
    game.timeout(0, at=1120.5)
    assert len(game.rack(0)) == 5
    assert game.turn == 1
    assert game.deadline == 1240.5


def test_timeout_with_fewer_than_three_tiles_in_the_pool() -> None:
    game = scenario(["R1 R2", "R3 R4"], pool_size=2)
    game.timeout(0)
    assert len(game.rack(0)) == 4
    assert game.pool_size == 0
    refused(game, Reason.POOL_EMPTY, game.draw, 1)


def test_no_timeout_without_a_clock() -> None:
    game = scenario(["R1 R2", "R3 R4"], rules=Rules(turn_seconds=None))
    refused(game, Reason.NO_TIME_LIMIT, game.timeout, 0)
    assert game.deadline is None


def test_custom_timeout_penalty() -> None:
    game = scenario(["R1 R2", "R3 R4"], rules=Rules(timeout_penalty=1))
    game.timeout(0)
    assert len(game.rack(0)) == 3


# --- end of the round ----------------------------------------------------------------


def test_going_out_ends_the_round() -> None:
    game = scenario(["R10 R11 R12", "R1 R2 K7 J"])
    game.play(0, "R10 R11 R12")
    assert game.is_over
    assert game.result is not None
    assert game.result.winner == 0
    assert game.result.went_out
    # Seat 1 never held an opening (R1 R2 K7 J is worth at most 1+2+3=6... as a run): -100.
    assert game.result.scores == (UNMELDED_NEVER, -UNMELDED_NEVER)
    refused(game, Reason.GAME_OVER, game.draw, 1)


def test_going_out_scores_rack_values() -> None:
    game = scenario(["R10 R11 R12 B1 B2 B3", "Y10 Y11 Y12 K2 J"])
    game.play(0, "R10 R11 R12")
    game.play(1, "R10 R11 R12 | Y10 Y11 Y12")
    game.play(0, "R10 R11 R12 | Y10 Y11 Y12 | B1 B2 B3")
    assert game.result is not None
    assert game.result.scores == (32, -32)


def test_pool_exhausted_one_more_round() -> None:
    game = scenario(["R1 R2", "R3 R4", "K9"], pool_size=1, surplus_seat=2)
    game.draw(0)  # the pool is now empty: seats 1, 2 and 0 have one more turn each
    assert game.pool_size == 0
    game.pass_turn(1)
    game.pass_turn(2)
    assert not game.is_over
    game.pass_turn(0)
    assert game.is_over
    assert game.result is not None
    assert not game.result.went_out
    assert game.result.winner == 0  # R1 R2 and the R1 drawn: 4, the lowest
    assert game.result.values[:2] == (4, 7)
    assert game.result.scores[1] == -3


def test_pool_exhausted_until_blocked() -> None:
    rules = Rules().replace(pool_exhausted="until_blocked", unmelded_penalty=False)
    game = scenario(["R10 R11 R12 B1", "B10 B11 B12 R1 K1 K2 K3", "Y1"], rules=rules, pool_size=1, surplus_seat=2)
    game.play(0, "R10 R11 R12")
    game.play(1, "R10 R11 R12 | B10 B11 B12")
    game.draw(2)  # empties the pool
    game.pass_turn(0)
    game.play(1, "R10 R11 R12 | B10 B11 B12 | K1 K2 K3")  # a tile placed: the count restarts
    game.pass_turn(2)
    game.pass_turn(0)
    assert not game.is_over
    game.pass_turn(1)
    assert game.is_over


def test_unmelded_penalty_200_and_100() -> None:
    game = scenario(["K10 B10 Y10 R1", "R1 B3 Y5 K7 R9", "R10 R11 R12"])
    game.draw(0)  # held an opening and did not play it
    game.draw(1)  # never held one
    game.play(2, "R10 R11 R12")
    assert game.could_meld == (True, False, True)
    assert game.result is not None
    assert game.result.scores == (-UNMELDED_COULD, -UNMELDED_NEVER, UNMELDED_COULD + UNMELDED_NEVER)


def test_unmelded_penalty_off() -> None:
    rules = Rules(unmelded_penalty=False)
    game = scenario(["K10 B10 Y10 R1", "R1 B3 Y5 K7 R9", "R10 R11 R12"], rules=rules)
    game.draw(0)
    game.draw(1)
    game.play(2, "R10 R11 R12")
    assert game.result is not None
    values = game.result.values
    assert game.result.scores[0] == -values[0]
    assert sum(game.result.scores) == 0


# --- deal -------------------------------------------------------------------------------


def test_deal_is_deterministic() -> None:
    first = Game.new(4, seed=42)
    second = Game.new(4, seed=42)
    assert first.deal == second.deal
    assert Game.new(4, seed=43).deal != first.deal
    assert all(len(first.rack(seat)) == 14 for seat in range(4))
    assert first.pool_size == 106 - 56


def test_first_player_by_draw() -> None:
    for seed in range(30):
        game = Game.new(4, seed=seed)
        draws = game.deal.first_draws
        assert draws
        # The starter drew the highest number in the last round of draws.
        last = {}
        for seat, tile in draws:
            if not tile.is_joker:
                last[seat] = tile.number
        assert last[game.turn] == max(last.values())


def test_first_player_random() -> None:
    starters = {Game.new(4, rules=Rules().replace(first_player="random"), seed=seed).turn for seed in range(40)}
    assert starters == {0, 1, 2, 3}


def test_redraw_duplicates() -> None:
    rules = Rules(redraw_duplicates=True)
    for seed in range(20):
        game = Game.new(4, rules=rules, seed=seed)
        for seat in range(4):
            numbered = [tile for tile in game.rack_tiles(seat) if not tile.is_joker]
            assert len(numbered) == len(set(numbered))
            assert len(game.rack(seat)) == 14
        assert game.pool_size == 50


def test_player_counts() -> None:
    with pytest.raises(RulesError, match="5 players need the six-player set"):
        Game.new(5)
    with pytest.raises(RulesError, match="at least 2"):
        Game.new(1)
    game = Game.new(6, rules="six-player", seed=1)
    assert game.pool_size == 160 - 84
    with pytest.raises(RulesError):
        Game.new(7, rules="six-player")


# --- views ------------------------------------------------------------------------------


def test_views_hide_other_racks() -> None:
    game = Game.new(["Ana", "Bruno", "Carla"], seed=5, started_at=0.0)
    view = game.view(1)
    assert view.rack == game.rack(1)
    assert view.rack_sizes == (14, 14, 14)
    assert view.pool_size == game.pool_size
    assert view.deadline == 120.0
    data = view_fields(view)
    assert data["rack"] == [str(piece.tile) for piece in game.rack(1)]
    assert "pool" not in data
    spectator = game.spectator_view()
    assert spectator.rack is None
    assert view_fields(spectator)["rack"] is None
    refused(game, Reason.UNKNOWN_SEAT, game.view, 5)


def test_table_object_accepted() -> None:
    game = scenario(["K10 B10 Y10 R1", "R2"])
    game.play(0, Table.parse("K10 B10 Y10"))
    assert game.melded[0]


def test_wrapped_run_needs_the_wrap_option() -> None:
    table = Table.parse("R12 R13 R1 | K10 K11 K12", wrap=True)
    game = scenario(["R12 R13 R1 K10 K11 K12 B2", "B3"])
    refused(game, Reason.INVALID_SET, game.play, 0, table)
    game = scenario(["R12 R13 R1 K10 K11 K12 B2", "B3"], rules=Rules(wrap=True))
    game.play(0, table)
