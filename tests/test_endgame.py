"""The expert's exact count of its next draws once its own rack is small."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from tilerummy import Game, Play
from tilerummy.bots.endgame import Outlook, RackFits, best_ending, draw_chance
from tilerummy.bots.expert import ExpertBot, Search
from tilerummy.bots.network import DRAW, Candidate
from tilerummy.bots.worlds import unseen_tiles
from tilerummy.rules import Rules
from tilerummy.solver import solve
from tilerummy.tiles import parse_tiles

from .helpers import scenario

#: The opponent's rack: too many tiles to go out in one turn, so nobody threatens.
CROWDED = "Y1 Y1 Y2 Y3 B13 R13 K1 K2 K3 B2"


def never_late() -> float:
    return 0.0


def fits_for(game: Game) -> RackFits:
    return RackFits(game.rules, never_late, 1.0)


def opened(rack: str, opening: str, rules: Rules | None = None) -> Game:
    """Seat 0 has laid ``opening`` from ``rack``; seat 1 drew; seat 0 is to move."""
    game = scenario([f"{opening} {rack}", CROWDED], rules=rules)
    game.play(0, opening)
    game.draw(1)
    return game


def test_the_chance_of_a_draw_is_counted_exactly_over_the_unseen_copies() -> None:
    game = opened("R5 R6", "K10 K11 K12")
    view = game.view(0)
    unseen = Counter(unseen_tiles(view))
    assert sum(unseen.values()) == 106 - 5
    # R5 R6 go out with a red 4 or 7 or a joker: two copies of each are unseen.
    chance = draw_chance(parse_tiles("R5 R6"), view.table, unseen, fits_for(game), melded=True)
    assert chance == Fraction(6, 101)
    # A count that cannot reach what it must beat stops.
    assert (
        draw_chance(parse_tiles("R5 R6"), view.table, unseen, fits_for(game), melded=True, at_least=Fraction(1, 10))
        is None
    )


def test_the_count_follows_the_rules_preset() -> None:
    # Where runs wrap round from 13 to 1, R1 completes R12 R13 too.
    rules = Rules.preset("house")
    assert rules.wrap
    game = opened("R12 R13", "K10 K11 K12", rules)
    view = game.view(0)
    unseen = Counter(unseen_tiles(view))
    chance = draw_chance(parse_tiles("R12 R13"), view.table, unseen, fits_for(game), melded=True)
    assert chance == Fraction(6, 101)  # R11, R1 and the jokers
    plain = opened("R12 R13", "K10 K11 K12")
    assert draw_chance(parse_tiles("R12 R13"), view.table, unseen, fits_for(plain), melded=True) == Fraction(4, 101)


def test_a_draw_the_unseen_copies_make_likelier_counts_them() -> None:
    game = opened("R5 R6", "K10 K11 K12")
    view = game.view(0)
    unseen = Counter(unseen_tiles(view))
    unseen.subtract(parse_tiles("R4 R4 R7"))  # as if the others held three of the six
    chance = draw_chance(parse_tiles("R5 R6"), view.table, +unseen, fits_for(game), melded=True)
    assert chance == Fraction(3, 98)


def test_the_same_chance_sooner_is_worth_more_once_an_opponent_threatens() -> None:
    # R7 B7 Y7 go out as a set (K7 may join it), R9 is left: a red 8 or a joker
    # then makes R7 R8 R9 beside B7 Y7 K7. Holding all four needs the same tiles.
    game = opened("R7 B7 Y7 R9", "K7 K8 K9 K10")
    view = game.view(0)
    rack = parse_tiles("R7 B7 Y7 R9")
    played = solve(rack, view.table, fewest_changes=False)
    assert played is not None and sorted(map(str, played.placed)) == ["B7", "R7", "Y7"]
    options = [DRAW, Candidate(played.table, played.placed)]
    unseen = unseen_tiles(view)
    calm = best_ending(view, options, unseen, fits_for(game), Fraction(0))
    assert calm is not None
    chosen, outlooks = calm
    assert outlooks == [Outlook(Fraction(4, 98), 1, 4), Outlook(Fraction(4, 98), 2, 1)]
    assert chosen == 1  # the same chance with one tile left rather than four
    threatened = best_ending(view, options, unseen, fits_for(game), Fraction(1, 2))
    assert threatened is not None and threatened[0] == 0  # the chance a round sooner


def test_going_out_now_beats_every_chance_later() -> None:
    game = opened("R7 B7 Y7 K11", "K7 K8 K9 K10")
    view = game.view(0)
    out = solve(parse_tiles("R7 B7 Y7 K11"), view.table)
    part = solve(parse_tiles("R7 B7 Y7"), view.table)
    assert out is not None and len(out.placed) == 4 and part is not None
    options = [DRAW, Candidate(part.table, part.placed), Candidate(out.table, out.placed)]
    found = best_ending(view, options, unseen_tiles(view), fits_for(game), Fraction(0))
    assert found is not None
    chosen, outlooks = found
    assert chosen == 2 and outlooks[2] == Outlook(Fraction(1), 0, 0)
    assert outlooks[1] == Outlook(Fraction(1), 1, 1)  # K11 goes next turn on the table it leaves


def test_a_leftover_no_draw_can_place_is_worth_nothing() -> None:
    # Y13 fits nowhere with one more tile: no 13 and no yellow is on the table.
    game = opened("R7 B7 Y7 Y13", "K9 K10 K11")
    view = game.view(0)
    part = solve(parse_tiles("R7 B7 Y7 Y13"), view.table)
    assert part is not None and sorted(map(str, part.placed)) == ["B7", "R7", "Y7"]
    found = best_ending(view, [Candidate(part.table, part.placed)], unseen_tiles(view), fits_for(game), Fraction(0))
    assert found is None  # no candidate has a chance: the worlds decide


def test_the_expert_plays_what_the_count_prefers_and_says_so() -> None:
    game = opened("R7 B7 Y7 R9", "K7 K8 K9 K10")
    expert = ExpertBot(seed=3, budget=100.0, search=Search(worlds=2))
    action = expert.choose(game.view(0))
    assert expert.exact_moves == 1 and expert.worlds_played == []
    assert isinstance(action, Play)
    game.apply(action)  # legal, or it would raise
    assert [str(piece.tile) for piece in game.rack(0)] == ["R9"]


def test_without_the_count_the_worlds_decide() -> None:
    game = opened("R7 B7 Y7 R9", "K7 K8 K9 K10")
    expert = ExpertBot(seed=3, budget=100.0, search=Search(worlds=2, exact_rack=None))
    game.apply(expert.choose(game.view(0)))
    assert expert.exact_moves == 0 and expert.worlds_played == [2]


class LateClock:
    """A clock already past any deadline after its first reading."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return 0.0 if self.readings == 1 else 1e9


def test_a_count_that_would_not_finish_in_time_leaves_the_move_to_the_network() -> None:
    game = opened("R7 B7 Y7 R9", "K7 K8 K9 K10")
    expert = ExpertBot(seed=3, budget=1.0, clock=LateClock())
    action = expert.choose(game.view(0))
    assert expert.exact_moves == 0 and expert.worlds_played == [0]
    assert action == ExpertBot(seed=3, budget=1.0, clock=LateClock()).choose(game.view(0))
    game.apply(action)


def test_the_count_repeats_for_the_same_seed() -> None:
    game = scenario(["K7 K8 K9 K10 R7 B7 Y7 R9", "Y1 Y2 Y3 B4"])  # an opponent with four tiles threatens
    game.play(0, "K7 K8 K9 K10")
    game.draw(1)
    first, second = ExpertBot(seed=5, budget=100.0), ExpertBot(seed=5, budget=100.0)
    assert first.choose(game.view(0)) == second.choose(game.view(0))
    assert first.exact_moves == second.exact_moves == 1


def test_a_count_with_nothing_to_say_leaves_the_search_as_it_was() -> None:
    # Y13 is left whatever is played, and no one draw places it; the opponent
    # holds five tiles, so the count deals worlds to look for its threat.
    game = scenario(["K9 K10 K11 R7 B7 Y7 Y13", "Y1 Y2 Y3 B4"])
    game.play(0, "K9 K10 K11")
    game.draw(1)
    counting = ExpertBot(seed=7, budget=100.0, search=Search(worlds=5))
    searching = ExpertBot(seed=7, budget=100.0, search=Search(worlds=5, exact_rack=None))
    assert counting.choose(game.view(0)) == searching.choose(game.view(0))
    assert counting.exact_moves == 0 and counting.worlds_played == searching.worlds_played == [5]
    # The same worlds were dealt: the search's random state moved alike.
    assert counting._rng.getstate() == searching._rng.getstate()
