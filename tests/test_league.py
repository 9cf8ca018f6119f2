"""The league's opponents, the quick going-out test, the racing of hoarders, and the round-robin."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilerummy import Draw, Game, Play
from tilerummy.arena.games import GameOutcome
from tilerummy.arena.report import summarise
from tilerummy.arena.roundrobin import report_lines, run_round_robin, tables_of
from tilerummy.bots import LEAGUE, LEVELS, OPPONENTS, make_bot
from tilerummy.bots.expert import ExpertBot, Search, _safe
from tilerummy.bots.last_turn import waits_to_go_out
from tilerummy.bots.league import CLOSE_RACK, frozen_network
from tilerummy.bots.league import LOW_POOL as LURKER_POOL
from tilerummy.bots.network import DRAW, Candidate, shipped_network
from tilerummy.bots.partition import could_go_out
from tilerummy.bots.tempo import (
    HOARD_RACK,
    LOW_POOL,
    PATIENCE,
    PATIENT_RACK,
    Tempo,
    final_turn,
    hoarding,
    ignores_race,
    last_word,
    projected_deficit,
    takes_last_word,
)
from tilerummy.bots.worlds import World
from tilerummy.cli import main
from tilerummy.errors import TilerummyError
from tilerummy.game import PlayerView
from tilerummy.melds import Table
from tilerummy.rules import PoolExhausted, Rules
from tilerummy.solver import solve
from tilerummy.tiles import TileSet, parse_tiles

from .helpers import scenario
from .test_bots import VARIANTS, play_out

#: A rack far from any set: it can never go out in one play.
SCATTERED = "R1 B4 Y7 K10 R13 B2 Y5 K8 R11 B13 Y3 K6 R9 B12"


def test_the_league_is_named_apart_from_the_levels() -> None:
    assert set(LEAGUE) >= {"hoarder", "lurker", "racer", "shedder", "hard-v1", "network-v1", "expert-fast"}
    assert not set(LEAGUE) & set(LEVELS)
    assert OPPONENTS == LEVELS + LEAGUE
    assert all(make_bot(name).name for name in ("hoarder", "lurker", "racer", "shedder"))


@pytest.mark.parametrize(("index", "variant"), list(enumerate(VARIANTS)))
def test_the_league_plays_whole_legal_games_under_every_rule_variant(index: int, variant: str) -> None:
    rules = VARIANTS[variant].replace(turn_seconds=None)
    players = 4
    names = [LEAGUE[(index + offset) % len(LEAGUE)] for offset in range(players)]
    game = play_out(names, rules, seed=500 + index)
    assert game.result is not None


def test_the_hoarder_opens_with_the_fewest_tiles_then_draws_until_it_can_go_out() -> None:
    game = scenario(["R1 R2 R3 R4 B10 B11 B12 K11 K12 K13 K9", SCATTERED])
    action = make_bot("hoarder").choose(game.view(0))
    assert isinstance(action, Play)
    assert isinstance(action.table, Table)
    assert sum(action.table.tiles().values()) < 10  # greedy would lay all three sets
    game.apply(action)
    game.draw(1)
    assert isinstance(make_bot("hoarder").choose(game.view(0)), Draw)  # it could lay six more, not all
    game = scenario(["R1 R2 R3 R4 B10 B11 B12 K12 Y12 R12", SCATTERED])
    action = make_bot("hoarder").choose(game.view(0))
    assert isinstance(action, Play)
    game.apply(action)
    assert game.is_over and game.result is not None and game.result.winner == 0


def opened(rest: str, opponent: str, pool_size: int | None = None) -> Game:
    """Seat 0 has opened with R1 R2 R3 R4 | B10 B11 B12 and holds ``rest``; seat 1 drew."""
    game = scenario([f"R1 R2 R3 R4 B10 B11 B12 {rest}", opponent], pool_size=pool_size, surplus_seat=1)
    game.play(0, "R1 R2 R3 R4 | B10 B11 B12")
    game.draw(1)
    return game


def test_the_lurker_hoards_until_an_opponent_is_close_or_the_pool_low() -> None:
    rest = "K9 R5 R6 R7"  # the reds extend the red run; K9 stays
    far = opened(rest, SCATTERED)
    assert isinstance(make_bot("lurker").choose(far.view(0)), Draw)
    close = opened(rest, " ".join(SCATTERED.split()[: CLOSE_RACK - 1]))
    assert close.view(0).rack_sizes[1] == CLOSE_RACK
    assert isinstance(make_bot("lurker").choose(close.view(0)), Play)
    low = opened(rest, SCATTERED, pool_size=6)
    assert low.view(0).pool_size <= LURKER_POOL
    assert isinstance(make_bot("lurker").choose(low.view(0)), Play)
    # The pure hoarder keeps drawing in both.
    assert isinstance(make_bot("hoarder").choose(close.view(0)), Draw)
    assert isinstance(make_bot("hoarder").choose(low.view(0)), Draw)


def test_the_racer_plays_whenever_it_can_and_looks_a_turn_ahead() -> None:
    game = scenario(["R10 R11 R12 K9", SCATTERED])
    game.play(0, "R10 R11 R12")
    game.draw(1)
    # With R10 R11 R12 on the table, the racer lays K9 nowhere: it draws; given R13 it plays at once.
    assert isinstance(make_bot("racer").choose(game.view(0)), Draw)
    game = scenario(["K10 K11 K12 R13 B5 B6 B7 B8", SCATTERED])
    action = make_bot("racer").choose(game.view(0))
    assert isinstance(action, Play)  # 40 points: it opens at once


def test_the_shedder_lays_the_most_points_where_greedy_lays_the_most_tiles() -> None:
    # Opened, with R1 R2 R3 R4 B13 Y13 left and K13 K12 K11 on the table: greedy places
    # four tiles (the red run, 10 points); the shedder's two 13s on the black run's end
    # and a group are worth more: it must remove at least as many points.
    game = scenario(["R1 R2 R3 R4 B13 Y13 K9 K10 K11 K12", SCATTERED])
    game.play(0, "K9 K10 K11 K12")
    game.draw(1)
    view = game.view(0)
    shedder = make_bot("shedder").choose(view)
    greedy = make_bot("greedy").choose(view)
    assert isinstance(shedder, Play) and isinstance(greedy, Play)
    best_value = solve("R1 R2 R3 R4 B13 Y13", view.table, objective="value", fewest_changes=False)
    assert best_value is not None
    assert _value_placed(view.table, shedder) == sum(tile.number for tile in best_value.placed)
    assert _value_placed(view.table, shedder) >= _value_placed(view.table, greedy)


def _value_placed(before: Table, action: Play) -> int:
    after = action.table
    assert isinstance(after, Table)
    added = after.tiles() - before.tiles()
    return sum(tile.number * count for tile, count in added.items())


def test_the_frozen_policy_is_a_file_of_its_own_with_todays_weights() -> None:
    frozen = frozen_network()
    shipped = shipped_network()
    assert frozen is not shipped
    assert np.array_equal(frozen.w1, shipped.w1) and frozen.b2 == shipped.b2
    assert make_bot("hard-v1").network is frozen  # type: ignore[attr-defined]


# --- the quick test of going out ----------------------------------------------------------------


def test_could_go_out_sees_runs_groups_and_jokers() -> None:
    rules = Rules()
    empty = Table(())
    assert could_go_out(parse_tiles("R1 R2 R3 B5 Y5 K5"), empty, rules, melded=True)
    assert not could_go_out(parse_tiles("R1 R2 R3 B5 Y5 K6"), empty, rules, melded=True)
    assert could_go_out(parse_tiles("R1 R2 R3 B5 Y5 J"), empty, rules, melded=True)
    assert could_go_out(parse_tiles("R1 J R3 R4"), empty, rules, melded=True)
    assert not could_go_out(parse_tiles("R1 R2"), empty, rules, melded=True)
    # Runs that wrap round only where the rules say so.
    assert not could_go_out(parse_tiles("R12 R13 R1"), empty, rules, melded=True)
    assert could_go_out(parse_tiles("R12 R13 R1"), empty, Rules.preset("house"), melded=True)
    # Once open, the table's tiles must fit too, and help.
    table = Table.parse("K4 K5 K6")
    assert could_go_out(parse_tiles("K7"), table, rules, melded=True)
    assert not could_go_out(parse_tiles("K7"), table, rules, melded=False)


TILES = [piece.tile for piece in TileSet.STANDARD.pieces()]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 16), st.sampled_from(["standard", "house"]))
def test_could_go_out_never_says_no_where_the_solver_lays_everything(seed: int, size: int, preset: str) -> None:
    rules = Rules.preset(preset)
    rack = random.Random(seed).sample(TILES, size)
    found = solve(rack, Table(()), rules=rules, initial_meld_done=True, fewest_changes=False)
    if found is not None and len(found.placed) == len(rack):
        assert could_go_out(rack, Table(()), rules, melded=True)


def test_the_hoarder_is_quick_on_a_large_rack() -> None:
    # Fifty scattered tiles: the exact solver would take seconds, the quick test says no at once.
    rack = random.Random(7).sample(TILES, 50)
    assert could_go_out(rack, Table(()), Rules(), melded=False) in (True, False)


# --- racing the hoarders -----------------------------------------------------------------------


class AlwaysDraws:
    """A planner that holds everything: what the network prefers most turns."""

    name = "holder"

    def plan(self, view: PlayerView) -> Candidate:
        return DRAW


def test_tempo_races_opponents_who_hold_their_tiles_and_holds_against_the_others() -> None:
    rack = "R1 R2 R3 R4 R5 R6 B10 B11 B12 K9 Y9"
    hoarder_rack = "Y1 Y2 Y4 Y6 Y8 Y10 Y12 K1 K3 K5 K7 K13 B1 B3 B5 B7 R8 R10 R12 Y13"
    assert len(hoarder_rack.split()) >= HOARD_RACK
    view = scenario([rack, hoarder_rack]).view(0)
    assert hoarding(view)
    action = Tempo(AlwaysDraws()).choose(view)
    assert isinstance(action, Play) and isinstance(action.table, Table)  # the most tiles: both runs
    assert sum(action.table.tiles().values()) == 9
    # Near the pool's end it sheds points rather than tiles.
    low = scenario([rack, hoarder_rack], pool_size=LOW_POOL).view(0)
    shed = Tempo(AlwaysDraws()).choose(low)
    assert isinstance(shed, Play)
    # Against an opponent emptying its rack it holds, as the planner says.
    small = scenario([rack, SCATTERED]).view(0)
    assert not hoarding(small)
    assert isinstance(Tempo(AlwaysDraws()).choose(small), Draw)
    # With four players, it races only when every opponent holds its tiles.
    mixed = scenario([rack, hoarder_rack, SCATTERED]).view(0)
    assert not hoarding(mixed)


def test_a_patient_racer_waits_for_an_opponent_who_keeps_drawing() -> None:
    rack = "R1 R2 R3 R4 R5 R6 B10 B11 B12 K9 Y9"
    hoarder_rack = "Y1 Y2 Y4 Y6 Y8 Y10 Y12 K1 K3 K5 K7 K13 B1 B3 B5 B7 R8 R10 R12 Y13 K2 K4 K6 K8 K10 K11 K12 B2"
    game = scenario([rack, hoarder_rack])
    assert not hoarding(game.view(0), 24, patience=1)  # it has not had a turn yet
    game.draw(0)
    game.draw(1)
    assert hoarding(game.view(0), 24, patience=1)
    assert not hoarding(game.view(0), 24, patience=2)
    game.draw(0)
    game.play(1, "K10 K11 K12 K13")
    assert not hoarding(game.view(0), 24, patience=1)  # it laid tiles on its last turn
    assert hoarding(game.view(0), 24, patience=0)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_on_the_rounds_last_turn_the_most_points_are_laid(level: str) -> None:
    rest = "K13 B13 Y13 K9"  # the 13s make a group; K9 stays
    game = opened(rest, SCATTERED, pool_size=3)  # two tiles left once seat 1 drew
    game.draw(0)
    game.draw(1)  # seat 1 takes the pool's last tile: seat 0's turn is not the last
    assert not final_turn(game.view(0))
    game = opened(rest, SCATTERED, pool_size=2)
    game.draw(0)  # seat 0 empties the pool; seat 1 has its one more turn
    game.apply(make_bot("greedy").choose(game.view(1)))
    view = game.view(0)
    assert final_turn(view)
    action = make_bot(level).choose(view)
    assert isinstance(action, Play) and isinstance(action.table, Table)
    assert {"K13", "B13", "Y13"} <= {str(tile) for tile in action.table.tiles()}


def test_the_network_level_waits_longer_than_hard_before_it_races() -> None:
    hard, network = make_bot("hard"), make_bot("network")
    assert isinstance(hard, Tempo) and isinstance(network, Tempo)
    assert (hard.rack, hard.patience) == (HOARD_RACK, 0)
    assert (network.rack, network.patience) == (PATIENT_RACK, PATIENCE) and PATIENT_RACK > HOARD_RACK
    assert network.spare_waiting and not hard.spare_waiting  # it stops racing a player that lets its race go by
    rack = "R1 R2 R3 R4 R5 R6 B10 B11 B12 K9 Y9"
    twenty = "Y1 Y2 Y4 Y6 Y8 Y10 Y12 K1 K3 K5 K7 K13 B1 B3 B5 B7 R8 R10 R12 Y13"
    quick, patient = Tempo(AlwaysDraws()), Tempo(AlwaysDraws(), rack=PATIENT_RACK, patience=PATIENCE)
    view = scenario([rack, twenty]).view(0)
    assert isinstance(quick.choose(view), Play) and isinstance(patient.choose(view), Draw)
    game = scenario([rack, twenty + " K2 K4 K6 K8 K10"])
    for _ in range(PATIENCE):
        assert isinstance(patient.choose(game.view(0)), Draw)
        game.draw(0)
        game.draw(1)
    assert isinstance(patient.choose(game.view(0)), Play)  # drew turn after turn on a big rack


def test_the_wary_racer_stops_racing_an_opponent_that_let_its_race_go_by() -> None:
    rack = "R1 R2 R3 R4 R5 R6 B10 B11 B12 K9 Y9 K11 K12 K13"
    holder = "Y1 Y2 Y4 Y6 Y8 Y10 Y12 K1 K3 K5 K7 K13 B1 B3 B5 B7 R8 R10 R12 R13 B13 Y13 K2 K4"
    game = scenario([rack, holder])
    game.play(0, "K11 K12 K13")
    game.play(1, "K11 K12 K13 | R13 B13 Y13")
    wary, racer = Tempo(AlwaysDraws(), spare_waiting=True), Tempo(AlwaysDraws())
    view = game.view(0)
    assert hoarding(view) and waits_to_go_out(view, 1) and not ignores_race(view, 1)
    assert isinstance(wary.choose(view), Play)  # nothing was laid since it opened: it races
    game.play(0, "K11 K12 K13 | R13 B13 Y13 | B10 B11 B12")
    game.draw(1)  # it drew where it could have laid tiles onto the race
    view = game.view(0)
    assert ignores_race(view, 1) and hoarding(view)
    assert isinstance(wary.choose(view), Draw)
    assert isinstance(racer.choose(view), Play)
    bot = make_bot("wary")
    assert isinstance(bot, Tempo) and bot.spare_waiting and "wary" in LEAGUE


def test_hard_and_network_race_and_the_frozen_versions_do_not() -> None:
    assert isinstance(make_bot("hard"), Tempo) and isinstance(make_bot("network"), Tempo)
    assert not isinstance(make_bot("hard-v1"), Tempo) and not isinstance(make_bot("network-v1"), Tempo)


# --- the round-robin ---------------------------------------------------------------------------


def test_the_tables_are_every_pair_then_runs_of_four() -> None:
    assert tables_of(["a", "b"], four_player=True) == [("a", "b")]
    assert tables_of(["a", "b", "c", "d"], four_player=True)[-1] == ("a", "b", "c", "d")
    five = tables_of(list("abcde"), four_player=True)
    fours = [table for table in five if len(table) == 4]
    assert len(five) == 10 + 5 and all(sum(name in table for table in fours) == 4 for name in "abcde")
    assert len(tables_of(list("abcde"), four_player=False)) == 10


def test_a_round_robin_rates_every_bot_and_reports_every_table() -> None:
    report = run_round_robin(["random", "greedy", "hoarder", "easy"], 4, seed=11, workers=1)
    assert {rating.name for rating in report.ratings} == {"random", "greedy", "hoarder", "easy"}
    assert [len(table.seats) for table in report.tables] == [2] * 6 + [4]
    assert all(table.games == (4 if len(table.seats) == 2 else 8) for table in report.tables)
    ratings = {rating.name: rating for rating in report.ratings}
    assert ratings["greedy"].rating > ratings["random"].rating
    for rating in report.ratings:
        assert rating.ci95[0] <= rating.rating <= rating.ci95[1]
    for table in report.tables:
        assert 0 <= table.went_out <= table.games
        assert sum(seat.win_share for seat in table.seats) == pytest.approx(1.0)
    assert any("went out" in line or "going out" in line for line in report_lines(report))
    data = report.to_dict()
    assert data["games"] == report.games == 6 * 4 + 8


def test_the_round_robin_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["arena", "--round-robin", "greedy,racer", "--games", "2", "--seed", "3", "--workers", "1"]
    assert main([*arguments, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals_per_table"] == 1 and data["seed"] == 3
    assert [bot["name"] for bot in data["tables"][0]["bots"]] == ["greedy", "racer"]
    assert main(arguments) == 0
    assert "Round-robin" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--round-robin", "greedy", "--games", "2"], "at least two bots"),
        (["--round-robin", "greedy,greedy", "--games", "2"], "named twice"),
        (["--round-robin", "greedy,wizard", "--games", "2"], "unknown bot level 'wizard'"),
        (["--round-robin", "greedy,easy", "--games", "0"], "play at least one"),
        (["--bots", "greedy,easy", "--heads-up", "--games", "2"], "--heads-up goes with --round-robin"),
    ],
)
def test_the_round_robin_refuses_bad_input_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_the_arena_counts_the_games_that_end_with_someone_going_out(capsys: pytest.CaptureFixture[str]) -> None:
    games = [
        GameOutcome(0, 0, ("a", "b"), (10, -10), (0, 4), 0, 30, ()),
        GameOutcome(1, 0, ("b", "a"), (5, -5), (3, 8), 0, 90, ()),
    ]
    report = summarise(games, 1.0)
    assert report.went_out == 1 and report.went_out_share == 0.5
    assert report.to_dict()["went_out_share"] == 0.5
    assert main(["arena", "--bots", "greedy,hoarder", "--games", "2", "--seed", "4", "--workers", "1"]) == 0
    assert "ended with someone going out" in capsys.readouterr().out


def test_the_sequential_test_and_saved_records_take_the_league(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--bots", "greedy,hoarder", "--games", "40", "--seed", "4", "--workers", "1"]
    assert main(["arena", *arguments, "--sprt", "p0=0.5,p1=0.9", "--save", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "SPRT on greedy's win share" in out and "accepted" in out
    deals = int(out.split("Deals scored together (greedy, ")[1].split(" deals")[0])
    assert deals < 20  # it stopped before the most it may play
    assert len(list(tmp_path.glob("*.json"))) == 2 * deals


def test_an_unknown_league_name_is_refused() -> None:
    with pytest.raises(TilerummyError, match="unknown bot level"):
        run_round_robin(["greedy", "wizard"], 2)


def stalled_game(rack: str, hoarder_rack: str) -> Game:
    """Seat 0 has opened with K11 K12 K13; since then both drew three times (seat 0 twice)."""
    game = scenario([f"K11 K12 K13 {rack}", hoarder_rack])
    game.play(0, "K11 K12 K13")
    for _ in range(2):
        game.draw(1)
        game.draw(0)
    game.draw(1)
    return game


def test_the_expert_breaks_a_stall_it_would_lose_with_a_play_no_world_can_use() -> None:
    hoarder_rack = "R1 B1 Y2 K2 R3 B4 Y5 K6 R7 B8"
    stall = Search(stall_rack=10, stall_patience=3)
    behind = stalled_game("R10 R11 R12 B13 Y13 B12 Y12 R9 K9", hoarder_rack)
    view = behind.view(0)
    assert hoarding(view, 10, patience=3) and projected_deficit(view) > 0
    expert = ExpertBot(seed=1, budget=100.0, search=stall)
    shed = expert.break_stall(view)
    assert shed is not None and shed.table is not None
    # The play laid removes points and lets the hoarder's real rack go nowhere.
    opponent = [piece.tile for piece in behind.rack(1)]
    found = solve(opponent, shed.table, rules=view.rules, initial_meld_done=False, fewest_changes=False)
    assert found is None or len(found.placed) < len(opponent)
    # Ahead (a rack worth less than the hoarder's is likely to be) and with the
    # round's last turn to come, it holds; without that turn, it lays a tile.
    ahead = stalled_game("R2 R3 R4 B5 B6", hoarder_rack).view(0)
    assert projected_deficit(ahead) < 0 and last_word(ahead)
    assert ExpertBot(seed=1, search=stall).break_stall(ahead) is None
    second = stalled_game("R2 R3 R4 B5", hoarder_rack).view(0)
    assert projected_deficit(second) < 0 and not last_word(second)
    assert ExpertBot(seed=1, search=stall).break_stall(second) is not None
    # Against an opponent that played on one of its last turns there is no stall.
    assert ExpertBot(seed=1, search=Search(stall_rack=10, stall_patience=4)).break_stall(view) is None
    assert ExpertBot(seed=1, search=Search(stall_rack=None)).break_stall(view) is None


def test_the_expert_breaks_no_stall_early_against_an_opponent_that_waits_to_go_out() -> None:
    # The same stall, but the other opened and has only drawn since: what the
    # expert laid now would be the table it goes out onto later.
    game = scenario(["K11 K12 K13 R10 R11 R12 B13 Y13 B12 Y12 R9 K9", "B11 B12 B13 R1 B1 Y2 K2 R3 B4 Y5 K6 R7 B8"])
    game.play(0, "K11 K12 K13")
    game.play(1, "K11 K12 K13 | B11 B12 B13")
    for _ in range(3):
        game.draw(0)
        game.draw(1)
    view = game.view(0)
    assert hoarding(view, 10, patience=3) and projected_deficit(view) > 0 and waits_to_go_out(view, 1)
    assert view.pool_size > Search().shed_pool
    assert ExpertBot(seed=1, search=Search(stall_rack=10, stall_patience=3)).break_stall(view) is None
    feeding = ExpertBot(seed=1, budget=100.0, search=Search(stall_rack=10, stall_patience=3, feed_waiting=True))
    assert feeding.break_stall(view) is not None


def test_at_the_pools_end_the_expert_feeds_no_opponent_that_waits_to_go_out() -> None:
    # Two draws or fewer left to each seat, and no play the worlds call safe (the other holds most
    # of the tile set). Against an opponent that laid nothing since its opening, it keeps its tiles;
    # against one that lays tiles, it lays its points, as a dry pool would be lost.
    rack = "K11 K12 K13 R10 R11 R12 B9"
    waiting = scenario([rack, "B11 B12 B13"], pool_size=6)
    waiting.play(0, "K11 K12 K13")
    waiting.play(1, "K11 K12 K13 | B11 B12 B13")
    waiting.draw(0)
    waiting.draw(1)
    view = waiting.view(0)
    assert view.pool_size == 4 and not last_word(view) and waits_to_go_out(view, 1)
    assert ExpertBot(seed=1).break_stall(view) is None
    laying = scenario([rack, "B11 B12 B13"], pool_size=5)
    laying.play(0, "K11 K12 K13")
    laying.play(1, "K11 K12 K13 | B11 B12 B13")
    laying.draw(0)
    laying.play(1, "K11 K12 K13 | B11 B12 B13 | B1 B2 B3")
    view = laying.view(0)
    assert view.pool_size == 4 and not last_word(view) and not waits_to_go_out(view, 1)
    shed = ExpertBot(seed=1).break_stall(view)
    assert shed is not None and {"R10", "R11", "R12"} <= {str(tile) for tile in shed.placed}


def test_near_the_pools_end_the_expert_takes_the_last_word_with_a_set_nobody_can_use() -> None:
    # Both hold: whoever draws the pool's last tile has the round's last turn. The other
    # holds most of the set, so no big play is safe; but its R3 and R7 fit nowhere
    # (the expert holds the rest of the reds near them, every other 3 and 7, and the jokers).
    ours = "K11 K12 K13 R1 R1 R2 R2 R4 R4 R5 R5 R6 R6 R8 R8 R9 R9 R3 R7 B3 B3 Y3 Y3 K3 K3 B7 B7 Y7 Y7 K7 K7 J J"
    for pool, flips in ((4, True), (3, False)):
        game = scenario([ours, "B11 B12 B13 R3 R7"], pool_size=pool, surplus_seat=1)
        game.play(0, "K11 K12 K13")
        game.play(1, "K11 K12 K13 | B11 B12 B13")
        view = game.view(0)
        assert takes_last_word(view) is flips and last_word(view) is not flips
        shed = ExpertBot(seed=1).break_stall(view)
        if not flips:  # it has the last word already, and a rack worth less than the other's
            assert shed is None
            continue
        assert shed is not None and shed.table is not None
        assert shed.table.melds[:-1] == view.table.melds and len(shed.placed) == 3  # one set beside the table
        opponent = [piece.tile for piece in game.rack(1)]
        found = solve(opponent, shed.table, rules=view.rules, fewest_changes=False)
        assert found is not None and len(found.placed) < len(opponent)
        assert ExpertBot(seed=1, search=Search(take_last_word=False)).break_stall(view) is None


def test_a_play_is_safe_only_if_no_opponent_could_go_out_onto_it() -> None:
    world = World([Counter(), Counter(parse_tiles("R13 B1 B2 B3"))], [[], parse_tiles("Y7")])
    game = scenario(["K1 K2", "K11 K12 K13 R13 B1 B2 B3"])
    game.draw(0)
    game.play(1, "K11 K12 K13")
    view = game.view(0)
    assert not _safe(world, view, Table.parse("R10 R11 R12"))  # R13 goes onto the run
    assert _safe(world, view, Table.parse("K10 K11 K12"))


def test_the_last_word_goes_to_the_seat_that_would_draw_the_last_tile() -> None:
    view = scenario(["R1 R2", "B1 B2", "Y1 Y2"], pool_size=7).view(0)
    assert last_word(view)  # it draws the 1st, 4th and 7th tiles
    assert not last_word(scenario(["R1 R2", "B1 B2", "Y1 Y2"], pool_size=6).view(0))
    until_blocked = Rules(pool_exhausted=PoolExhausted.UNTIL_BLOCKED)
    assert not last_word(scenario(["R1 R2", "B1 B2", "Y1 Y2"], rules=until_blocked, pool_size=7).view(0))
    # Laying tiles instead of drawing hands the last tile on: to this seat where 6 are left (and 3 play).
    assert takes_last_word(scenario(["R1 R2", "B1 B2", "Y1 Y2"], pool_size=6).view(0))
    assert not takes_last_word(scenario(["R1 R2", "B1 B2", "Y1 Y2"], pool_size=7).view(0))
