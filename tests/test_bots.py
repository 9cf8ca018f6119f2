"""Every bot level plays whole games under every preset, and only legal moves."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from tilerummy import Draw, Game, Play, Table, TilerummyError
from tilerummy.bots import LEVELS, make_bot
from tilerummy.bots._positions import best_play, cannot_open
from tilerummy.bots.expert import ExpertBot, Search, _Race
from tilerummy.bots.expert import play_out as play_world_out
from tilerummy.bots.hard import HardBot
from tilerummy.bots.holding import holding_back
from tilerummy.bots.network import NetworkBot
from tilerummy.bots.win_model import win_probability
from tilerummy.bots.worlds import Draws, World, deal_world, evidence, unseen_tiles
from tilerummy.rules import PRESETS, JokerReplacement, PoolExhausted, Rules
from tilerummy.solver import solve
from tilerummy.tiles import Tile, parse_tiles

from .helpers import scenario

#: The presets, and the options that change what is legal, one game each by default.
VARIANTS: dict[str, Rules] = {
    **dict(sorted(PRESETS.items())),
    "rack_or_table": Rules(joker_replacement=JokerReplacement.RACK_OR_TABLE),
    "free_jokers": Rules(joker_replacement=JokerReplacement.FREE),
    "lay_off_opening": Rules(initial_meld_lay_off=True),
    "strict_until_blocked": Rules(initial_meld_strict=True, pool_exhausted=PoolExhausted.UNTIL_BLOCKED),
}

#: More seeded games per variant for a longer run: BOT_GAMES=20 pytest tests/test_bots.py
GAMES = int(os.environ.get("BOT_GAMES", "1"))


def play_out(levels: list[str], rules: Rules, seed: int) -> Game:
    """A whole game; any illegal move raises."""
    game = Game.new([f"{level}-{seat}" for seat, level in enumerate(levels)], rules=rules, seed=seed)
    bots = [make_bot(level, seed=seed + seat, budget=0.05) for seat, level in enumerate(levels)]
    for _ in range(2000):
        if game.is_over:
            return game
        seat = game.turn
        game.apply(bots[seat].choose(game.view(seat)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("index", "variant"), list(enumerate(VARIANTS)))
def test_the_levels_play_whole_games_under_every_rule_variant(index: int, variant: str) -> None:
    """The levels take turns sitting in, so each plays under several variants."""
    rules = VARIANTS[variant].replace(turn_seconds=None)
    players = len(LEVELS) if rules.max_players > 4 else 4
    for game_number in range(GAMES):
        start = index + game_number
        levels = [LEVELS[(start + offset) % len(LEVELS)] for offset in range(players)]
        game = play_out(levels, rules, seed=1000 * game_number + index)
        assert game.result is not None


def test_unknown_level_is_refused_with_the_choices() -> None:
    with pytest.raises(TilerummyError, match="unknown bot level 'wizard'"):
        make_bot("wizard")


def test_greedy_places_the_most_tiles() -> None:
    game = scenario(["R1 R2 R3 R4 B9 B10 B11 K5 K5", "Y1"])
    game.play(0, "R1 R2 R3 R4 | B9 B10 B11")  # the initial meld
    game.draw(1)
    action = make_bot("greedy").choose(game.view(0))
    assert isinstance(action, Draw)  # K5 K5 make nothing
    game = scenario(["R1 R2 R3 B9 B10 B11 B12 K13", "Y1"])
    action = make_bot("greedy").choose(game.view(0))
    assert isinstance(action, Play)
    assert action.table != "" and sum(len(meld) for meld in action.table) == 7


def test_easy_never_rearranges_the_table() -> None:
    """It adds sets of its own, and tiles to the ends of the table's sets, and moves nothing."""
    bot = make_bot("easy", seed=3)
    extended = 0
    for seed in range(3):
        game = Game.new(3, rules="casual", seed=seed)
        others = [make_bot("greedy"), make_bot("greedy")]
        while not game.is_over and len(game.actions) < 120:
            seat = game.turn
            if seat == 0:
                before = game.table.melds
                action = bot.choose(game.view(0))
                if isinstance(action, Play):
                    assert not isinstance(action.table, str)
                    after = action.table.melds[: len(before)]
                    for old, new in zip(before, after, strict=True):
                        assert new.kind is old.kind
                        assert not Counter(old.tiles) - Counter(new.tiles)
                        if not old.is_group:  # the run's tiles stay in a row, in their places
                            assert f" {old} " in f" {new} "
                        extended += new != old
                game.apply(action)
            else:
                game.apply(others[seat - 1].choose(game.view(seat)))
    assert extended  # it did add tiles to the table's sets


def test_a_play_can_keep_playable_tiles_back() -> None:
    rack = parse_tiles("R8 B5 Y5 K5 B9 K1")
    table = Table.parse("R5 R6 R7 | B10 B11 B12")
    best = solve(rack, table)
    assert best is not None and len(best.placed) == 5  # R8, B9 and the three 5s
    *_, kept = holding_back(rack, table, best, Rules(), melded=True, most=2)
    assert sorted(map(str, kept.placed)) == ["B5", "K5", "Y5"]
    for tile in parse_tiles("R8 B9"):
        assert solve([tile], kept.table) is not None  # each tile kept back can still be played


def test_hard_goes_out_when_it_can() -> None:
    game = scenario(["K10 K11 K12 R13 B13 Y13", "Y9 Y9"])
    action = HardBot().choose(game.view(0))
    game.apply(action)
    assert game.is_over and game.result is not None and game.result.winner == 0


class SteppingClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_expert_keeps_to_its_budget_and_plays_legally() -> None:
    game = Game.new(2, rules="casual", seed=21)
    # Each reading of the clock takes a twentieth of the budget: a search that
    # kept going past its budget would play more worlds than it has readings for.
    expert = ExpertBot(seed=1, budget=0.2, search=Search(contest_rack=None), clock=SteppingClock(0.01))
    greedy = make_bot("greedy")
    for _ in range(300):
        if game.is_over or len(expert.worlds_played) >= 3:
            break
        seat = game.turn
        game.apply((expert if seat == 0 else greedy).choose(game.view(seat)))  # an illegal move would raise
    assert len(expert.worlds_played) >= 3, "three moves had more than one candidate"
    # Each world reads the clock at least three times (before it, and after each of two candidates).
    assert max(expert.worlds_played) <= 7


def test_expert_weighs_the_greedy_play_holding_back_and_drawing_against_the_network() -> None:
    game = scenario(["R5 R6 R7 B10 B11 B12 R8 B9 K1 Y12", "Y1 Y2"])
    game.play(0, "R5 R6 R7 | B10 B11 B12")
    game.draw(1)
    view = game.view(0)
    options = ExpertBot(budget=0.05).candidates(view)
    placed = [sorted(map(str, option.placed)) for option in options]
    assert options[0] == HardBot().plan(view)  # the network's choice first, the default
    assert ["B9", "R8"] in placed  # the most tiles
    assert ["R8"] in placed or ["B9"] in placed  # one tile kept back
    assert [] in placed  # drawing
    assert len(placed) == len({tuple(tiles) for tiles in placed})


def test_expert_makes_the_network_choice_at_once_until_the_end_is_near() -> None:
    game = Game.new(2, rules="standard", seed=8)
    expert, hard = ExpertBot(seed=1, budget=100.0, search=Search(worlds=4)), HardBot()
    view = game.view(game.turn)
    contest = Search().contest_rack
    assert contest is not None and min(view.rack_sizes) > contest
    assert expert.choose(view) == hard.choose(view) and expert.worlds_played == []


def test_expert_drops_a_candidate_only_when_it_is_clearly_behind() -> None:
    race = _Race(3)
    for world in range(6):
        # 0 and 1 trade the lead; 2 is always three tiles behind.
        race.record({0: float(world % 2), 1: float(1 - world % 2), 2: -3.0 + world % 2})
    assert race.alive == [0, 1]
    assert race.leader() == 0  # a tie goes to the earlier candidate, the greedy play


def test_expert_keeps_the_greedy_play_in_the_race_through_the_first_worlds() -> None:
    race = _Race(2)
    for world in range(6):
        race.record({0: 0.4 + 0.01 * (world % 2), 1: 0.6})
    assert race.alive == [0, 1] and race.choice() == 1
    for world in range(6):
        race.record({0: 0.4 + 0.01 * (world % 2), 1: 0.6})
    assert race.alive == [1]


def test_expert_plays_greedy_when_no_world_was_played() -> None:
    race = _Race(4)
    assert race.leader() == 0 and race.choice() == 0


def test_expert_overrules_the_greedy_play_only_on_clear_evidence() -> None:
    noisy = _Race(2)
    for world in range(8):
        # 1 is ahead on average (0.1) but swings by 0.8 from world to world.
        noisy.record({0: 0.5, 1: 0.9 if world % 2 else 0.3})
    assert noisy.leader() == 1 and noisy.choice() == 0
    clear = _Race(2)
    for world in range(8):
        clear.record({0: 0.5, 1: 0.6 + 0.01 * (world % 2)})
    assert clear.choice() == 1


def test_expert_repeats_its_moves_for_the_same_seed() -> None:
    game = scenario(["R5 R6 R7 B10 B11 B12 R8 B9 K1 Y12", "Y1 Y2 Y3 B3 K9 R11 K13 B1 Y7"])
    game.play(0, "R5 R6 R7 | B10 B11 B12")
    game.draw(1)
    search = Search(worlds=6)
    first, second = ExpertBot(5, 100.0, search), ExpertBot(5, 100.0, search)
    assert first.choose(game.view(0)) == second.choose(game.view(0))
    assert first.worlds_played == second.worlds_played and first.worlds_played[0] > 0


def test_guessed_worlds_deal_every_unseen_tile_once() -> None:
    game = Game.new(3, seed=4)
    greedy = make_bot("greedy")
    for _ in range(7):
        game.apply(greedy.choose(game.view(game.turn)))
    view = game.view(game.turn)
    unseen = unseen_tiles(view)
    world = deal_world(view, unseen, evidence(view), random.Random(1))
    others = [seat for seat in range(3) if seat != view.seat]
    assert [sum(world.racks[seat].values()) for seat in others] == [view.rack_sizes[seat] for seat in others]
    dealt = sum((world.racks[seat] for seat in others), Counter()) + Counter(
        tile for queue in world.queues for tile in queue
    )
    assert dealt == Counter(unseen) and world.pool_size == view.pool_size


def test_every_seat_draws_the_same_tiles_whoever_draws_first() -> None:
    world = World([Counter(), Counter()], [parse_tiles("R1 R2 R3"), parse_tiles("B1 B2")])
    first = Draws(world)
    assert [first.draw(0), first.draw(1), first.draw(0)] == parse_tiles("R1 B1 R2")
    second = Draws(world)
    assert [second.draw(1), second.draw(1), second.draw(0)] == parse_tiles("B1 B2 R1")
    # A seat whose queue is spent draws from the fullest other one, until the pool is empty.
    assert [second.draw(1), second.draw(1), second.draw(0)] == [*parse_tiles("R2 R3"), None]


def test_a_play_out_ends_when_someone_goes_out() -> None:
    game = scenario(["K10 K11 K12 B5", "Y9 Y10 Y11"])
    view = game.view(0)
    world = World([Counter(parse_tiles("K10 K11 K12 B5")), Counter(parse_tiles("Y9 Y10 Y11"))], [[], []])
    world.queues[:] = [parse_tiles("R1 R2"), parse_tiles("R3 R4")]
    assert play_world_out(world, view, None, (), horizon=3) == 0.0  # the opponent opens with all its tiles
    opening = Table.parse("K10 K11 K12")
    assert play_world_out(world, view, opening, tuple(parse_tiles("K10 K11 K12")), horizon=3) == 0.0  # nor opening
    world.racks[1] = Counter(parse_tiles("Y1 Y2 Y3"))  # too little to open: nobody goes out
    assert 0.0 < play_world_out(world, view, opening, tuple(parse_tiles("K10 K11 K12")), horizon=3) < 1.0


def test_a_play_out_that_drains_the_pool_is_won_by_the_lowest_rack() -> None:
    game = scenario(["R13 B13 K2", "Y1 Y2 Y5"], pool_size=1)
    view = game.view(0)
    own = Counter(parse_tiles("R13 B13 K2"))
    # The bot draws the pool's last tile; the other has its one more turn, the bot its last; then racks are counted.
    lower = World([own.copy(), Counter(parse_tiles("Y1 Y2 Y5"))], [parse_tiles("K1"), []])
    assert play_world_out(lower, view, None, (), horizon=3) == 0.0
    higher = World([own.copy(), Counter(parse_tiles("Y12 Y9 K13"))], [parse_tiles("K1"), []])
    assert play_world_out(higher, view, None, (), horizon=3) == 1.0
    # On a dry pool, the turns left are counted from the last draw: seat 1's turn, then seat 0's last.
    game.draw(0)
    after = game.view(1)
    world = World([Counter(parse_tiles("R13 B13 K2 K1")), Counter(parse_tiles("Y1 Y2 Y5"))], [[], []])
    assert play_world_out(world, after, None, (), horizon=3) == 1.0
    world.racks[1] = Counter(parse_tiles("Y12 Y9 K13"))
    assert play_world_out(world, after, None, (), horizon=3) == 0.0


def test_evidence_reads_what_each_opponent_did_last() -> None:
    game = scenario(["R1 R2 R3 R4 B9 B10 B11 K5", "Y1 Y2", "K1 K2"])
    game.play(0, "R1 R2 R3 R4 | B9 B10 B11")
    game.draw(1)
    game.draw(2)
    clues = evidence(game.view(0))
    assert [(clue.seat, clue.drew, clue.melded, clue.table) for clue in clues] == [
        (1, True, False, game.table),
        (2, True, False, game.table),
    ]
    assert evidence(game.view(1))[0].seat == 2  # an opening play says nothing: only seat 2 is left


def test_worlds_where_a_drawing_opponent_could_have_played_are_rarer() -> None:
    game = scenario(["R1 R2 R3 R4 B9 B10 B11 K5 K6", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 B1 B2 B3"])
    game.play(0, "R1 R2 R3 R4 | B9 B10 B11")
    game.draw(1)
    view = game.view(0)
    unseen, clues = unseen_tiles(view), evidence(view)

    def could_have_played(strength: float) -> int:
        rng = random.Random(2)
        count = 0
        for _ in range(40):
            rack = list(deal_world(view, unseen, clues, rng, strength=strength).racks[1].elements())
            count += solve(rack, view.table, initial_meld_done=False) is not None
        return count

    assert could_have_played(3.0) < could_have_played(0.0)


def test_the_win_model_favours_the_seat_closer_to_going_out() -> None:
    melded = (True, True)
    ahead = win_probability(0, (3, 10), 40, 1, melded)
    behind = win_probability(0, (10, 3), 40, 1, melded)
    assert 0.0 < behind < 0.5 < ahead < 1.0
    assert win_probability(0, (0, 5), 40, 1, melded) == 1.0 and win_probability(1, (0, 5), 40, 1, melded) == 0.0


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(TilerummyError, match="budget 0"):
        make_bot("expert", budget=0)


def test_hard_plays_what_the_network_plays() -> None:
    # Through a whole game against greedy, from the opening to going out.
    hard, network, greedy = HardBot(), NetworkBot(), make_bot("greedy")
    compared = Counter[str]()
    game = Game.new(2, rules="standard", seed=3)
    while not game.is_over:
        view = game.view(game.turn)
        if game.turn == 0:
            action = hard.choose(view)
            assert action == network.choose(view)
            compared[action.kind] += 1
        else:
            action = greedy.choose(view)
        game.apply(action)
    assert compared["draw"] and compared["play"]


def test_hard_draws_without_listing_every_play_when_the_network_prefers_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = scenario(["R5 R6 R7 B10 B11 B12 R8 K3 K9", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"])
    game.play(0, "R5 R6 R7 | B10 B11 B12")
    game.draw(1)
    view = game.view(0)
    assert solve(game.rack_tiles(0), game.table) is not None  # R8 could be laid off
    assert NetworkBot().choose(view).kind == "draw"

    def listing(*args: object, **kwargs: object) -> object:
        raise AssertionError("listed every candidate")

    monkeypatch.setattr("tilerummy.bots.hard.candidates_of", listing)
    assert HardBot().choose(view).kind == "draw"


def test_a_remembered_best_play_is_what_the_solver_gives_whatever_the_racks_order() -> None:
    rng = random.Random(26)
    rules = Rules()
    for _ in range(30):
        game = Game.new(2, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(12)):  # some plays on the table, some tiles drawn
            seat = game.turn
            game.apply(make_bot("greedy").choose(game.view(seat)))
            if game.is_over:
                break
        for seat in (0, 1):
            rack = game.rack_tiles(seat)
            melded = game.melded[seat]
            for objective in ("tiles", "value"):
                expected = solve(
                    rack, game.table, rules=rules, initial_meld_done=melded, objective=objective, fewest_changes=False
                )
                assert best_play(rack, game.table, rules, melded=melded, objective=objective) == expected
                rng.shuffle(rack)
                assert best_play(rack, game.table, rules, melded=melded, objective=objective) == expected


def test_a_rack_too_poor_to_open_is_known_without_a_search() -> None:
    rng = random.Random(4)
    faces = sorted({piece.tile for piece in Rules().tile_set.pieces()}, key=lambda tile: tile.sort_key)
    told = Counter[bool]()
    for rules in (Rules(), Rules(initial_meld_strict=True), Rules(initial_meld_points=0)):
        for _ in range(300):
            rack = rng.choices(faces, k=rng.randrange(1, 22))
            if Counter(rack) - Counter(dict.fromkeys(faces, 2)):
                continue  # more copies than the set holds
            poor = cannot_open(rack, rules)
            told[poor] += 1
            if poor:
                assert solve(rack, "", rules=rules, initial_meld_done=False, fewest_changes=False) is None
    assert told[True] > 50 and told[False] > 50
    # Two jokers, or runs that wrap: it cannot tell.
    assert not cannot_open(parse_tiles("J J R1"), Rules())
    assert not cannot_open(parse_tiles("R1"), Rules(wrap=True))
    # Tiles that join no set are worth nothing, whatever their numbers.
    assert cannot_open(parse_tiles("R13 B11 Y9 K7 R1 B3"), Rules())
    assert not cannot_open(parse_tiles("R13 B13 Y13"), Rules())
    assert not cannot_open([Tile.parse("R10"), Tile.parse("R11"), Tile.parse("J")], Rules())
