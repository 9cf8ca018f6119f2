"""Ratings: games of 2 to 6 seats, fixed bots, provisional players, puzzles, calibration and evaluation."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilerummy.ratings import (
    BOT_RATINGS,
    DEFAULT_MODEL,
    MODELS,
    PROVISIONAL_GAMES,
    TAU,
    GameResult,
    Rater,
    Rating,
    RatingError,
    bot_rating,
    calibrate,
    evaluate,
    fit,
    places,
    puzzle_rating,
)


def test_places_follow_the_scores_and_put_abandoners_last() -> None:
    assert places([55, -20, -35]) == [0, 1, 2]
    assert places([-12, 40, -12, -16]) == [1, 0, 1, 3]
    assert places([0, 0]) == [0, 0]
    # The abandoner is last even with the best score; two abandoners share the last place.
    assert places([30, -10, -20], abandoned=[0]) == [2, 0, 1]
    assert places([30, -10, -20, 5], abandoned=[0, 3]) == [2, 0, 1, 2]
    with pytest.raises(RatingError, match="abandoned seats"):
        places([1, 2], abandoned=[2])


@pytest.mark.parametrize("model", list(MODELS))
def test_a_win_moves_the_winner_up_and_the_loser_down(model: str) -> None:
    rater = Rater(model)
    winner, loser = rater.rate([Rating(), Rating()], scores=[30, -30])
    assert winner.mu > Rating().mu > loser.mu
    # From equal ratings the two moves are equal and opposite, and both grow surer.
    assert math.isclose(winner.mu - Rating().mu, Rating().mu - loser.mu)
    assert winner.sigma < Rating().sigma and loser.sigma < Rating().sigma
    assert winner.games == loser.games == 1


@pytest.mark.parametrize("model", list(MODELS))
def test_a_tie_between_equals_moves_no_one(model: str) -> None:
    first, second = Rater(model).rate([Rating(), Rating()], scores=[-5, -5])
    assert math.isclose(first.mu, Rating().mu) and math.isclose(second.mu, Rating().mu)


#: The models whose updates keep the order of the places when some seats tie: openskill 6's
#: Plackett-Luce can give a seat below tied seats as much as they get, and the "part" models,
#: which compare each seat with its neighbours only, move tied seats apart (docs/ratings.md).
ORDERED_MODELS = ["bradley_terry_full", "thurstone_mosteller_full"]


def test_the_default_model_keeps_the_order_of_places() -> None:
    assert DEFAULT_MODEL in ORDERED_MODELS


@given(
    scores=st.lists(st.integers(-300, 300), min_size=2, max_size=6),
    model=st.sampled_from(ORDERED_MODELS),
)
def test_from_equal_ratings_the_new_ratings_follow_the_places(scores: list[int], model: str) -> None:
    after = Rater(model).rate([Rating()] * len(scores), scores=scores)
    order = places(scores)
    for one in range(len(scores)):
        assert math.isfinite(after[one].mu) and after[one].sigma > 0
        # Never less sure than the prior widened by one step of drift.
        assert after[one].sigma <= math.hypot(Rating().sigma, TAU) + 1e-9
        for other in range(len(scores)):
            if order[one] < order[other]:
                assert after[one].mu > after[other].mu
            elif order[one] == order[other]:
                assert math.isclose(after[one].mu, after[other].mu)


def test_fixed_ratings_never_move() -> None:
    rater = Rater()
    bot = Rating(1800, 60, fixed=True)
    player, after = rater.rate([Rating(), bot], scores=[-40, 40])
    assert after == bot
    assert player.mu < Rating().mu
    # Losing to a far stronger player costs less than losing to a weaker one.
    strong, weak = Rating(2000, 60, fixed=True), Rating(1000, 60, fixed=True)
    to_strong = rater.rate([Rating(), strong], scores=[-40, 40])[0]
    to_weak = rater.rate([Rating(), weak], scores=[-40, 40])[0]
    assert Rating().mu - to_weak.mu > Rating().mu - to_strong.mu > 0
    assert not bot.provisional


def test_the_bots_have_published_fixed_ratings() -> None:
    assert all(rating.fixed and not rating.provisional for rating in BOT_RATINGS.values())
    assert bot_rating("hard").mu > bot_rating("greedy").mu > bot_rating("easy").mu
    player, bot = Rater().rate([Rating(), bot_rating("hard")], scores=[50, -50])
    assert bot == bot_rating("hard") and player.mu > Rating().mu
    assert bot_rating("expert").mu > bot_rating("hard").mu
    with pytest.raises(RatingError, match="'hoarder' bot has no rating"):
        bot_rating("hoarder")


def test_a_rating_is_provisional_until_enough_games() -> None:
    rater = Rater()
    rating = Rating()
    for _ in range(PROVISIONAL_GAMES - 1):
        rating = rater.rate([rating, Rating()], scores=[10, -10])[0]
        assert rating.provisional and str(rating).endswith("?")
    rating = rater.rate([rating, Rating()], scores=[10, -10])[0]
    assert rating.games == PROVISIONAL_GAMES and not rating.provisional
    assert str(rating) == str(round(rating.mu))


def test_games_of_two_to_six_seats_only() -> None:
    rater = Rater()
    assert len(rater.rate([Rating()] * 6, ranks=[0, 1, 2, 3, 4, 5])) == 6
    with pytest.raises(RatingError, match="1 seats: a rated game has 2 to 6"):
        rater.rate([Rating()], scores=[1])
    with pytest.raises(RatingError, match="7 seats"):
        rater.rate([Rating()] * 7, scores=[1] * 7)
    with pytest.raises(RatingError, match="3 results for 2 seats"):
        rater.rate([Rating()] * 2, ranks=[0, 1, 2])
    with pytest.raises(RatingError, match="one of the two"):
        rater.rate([Rating()] * 2, scores=[1, 0], ranks=[0, 1])
    with pytest.raises(RatingError, match="one of the two"):
        rater.rate([Rating()] * 2)
    with pytest.raises(RatingError, match="unknown rating model 'elo'"):
        Rater("elo")


def test_a_multiplayer_ranking_rewards_each_place() -> None:
    after = Rater().rate([Rating()] * 4, scores=[-20, 67, -30, -17])
    assert [rating.mu for rating in sorted(after, key=lambda rating: -rating.mu)] == [
        after[1].mu,
        after[3].mu,
        after[0].mu,
        after[2].mu,
    ]


def test_puzzles_and_players_rate_each_other() -> None:
    rater = Rater()
    puzzle = puzzle_rating(3)
    solved_player, solved_puzzle = rater.rate_puzzle(Rating(), puzzle, solved=True)
    assert solved_player.mu > Rating().mu and solved_puzzle.mu < puzzle.mu
    failed_player, failed_puzzle = rater.rate_puzzle(Rating(), puzzle, solved=False)
    assert failed_player.mu < Rating().mu and failed_puzzle.mu > puzzle.mu
    # Solving a harder puzzle gains more than solving an easier one.
    easy_gain = rater.rate_puzzle(Rating(), puzzle_rating(1), solved=True)[0].mu
    assert solved_player.mu > easy_gain
    with pytest.raises(RatingError, match="puzzle level 9"):
        puzzle_rating(9)


def test_win_chances() -> None:
    rater = Rater()
    strong, weak = Rating(1800, 100), Rating(1400, 100)
    assert math.isclose(rater.win_chance(Rating(), Rating()), 0.5)
    assert rater.win_chance(strong, weak) > 0.5
    assert math.isclose(rater.win_chance(strong, weak) + rater.win_chance(weak, strong), 1.0)


def test_ratings_are_checked_and_round_trip() -> None:
    rating = Rating(1612.5, 140.25, 30)
    assert Rating.from_dict(rating.to_dict()) == rating
    with pytest.raises(RatingError, match="sigma above 0"):
        Rating(1500, 0)
    with pytest.raises(RatingError, match="finite"):
        Rating(math.nan, 10)
    with pytest.raises(RatingError, match="not a rating"):
        Rating.from_dict({"sigma": 3})
    with pytest.raises(RatingError, match="negative"):
        Rating(games=-1)


def chain_games(count: int) -> list[GameResult]:
    """Games where a beats b beats c, every time, in every seating."""
    games = []
    for number in range(count):
        players = [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")][number % 3]
        strength = {"a": 50, "b": -10, "c": -40}
        games.append(GameResult(players, tuple(strength[player] for player in players)))
        games.append(GameResult(("b", "c"), (20, -20)) if number % 2 else GameResult(("c", "a"), (-25, 25)))
    return games


def test_calibration_orders_and_anchors_the_players() -> None:
    games = chain_games(60)
    calibrated = calibrate(games, anchor="b")
    assert calibrated["a"].mu > calibrated["b"].mu > calibrated["c"].mu
    assert math.isclose(calibrated["b"].mu, Rating().mu)
    assert all(rating.fixed for rating in calibrated.values())
    assert calibrate(games, anchor="b") == calibrated  # deterministic
    with pytest.raises(RatingError, match="anchor 'greedy'"):
        calibrate(games)


def test_calibration_against_published_ratings_holds_them_and_places_the_others_on_their_scale() -> None:
    games = chain_games(60)
    published = {"b": Rating(1500.0, 130.0, fixed=True), "c": Rating(900.0, 130.0, fixed=True), "z": Rating(2000.0)}
    calibrated = calibrate(games, published=published)
    # Only the player without a published rating is calibrated, above the two it always beat.
    assert set(calibrated) == {"a"}
    assert calibrated["a"].mu > 1500.0 and calibrated["a"].fixed
    assert calibrated["a"].games == sum(1 for game in games if "a" in game.players)
    # On the published scale: the same games against figures 1000 higher put a most of that higher
    # (not all: a starts from a new player's prior, wherever the others are).
    higher = {player: replace(rating, mu=rating.mu + 1000) for player, rating in published.items()}
    assert 750 < calibrate(games, published=higher)["a"].mu - calibrated["a"].mu < 1000
    with pytest.raises(RatingError, match="none of the players with a published rating"):
        calibrate(games, published={"z": Rating(2000.0)})


def test_fit_averages_over_orders() -> None:
    games = chain_games(30)
    once = fit(games, Rater())
    averaged = fit(games, Rater(), orders=4, seed=1)
    assert set(once) == set(averaged) == {"a", "b", "c"}
    assert once["a"].games == averaged["a"].games == sum(1 for game in games if "a" in game.players)
    assert averaged["a"].mu > averaged["b"].mu > averaged["c"].mu


def test_evaluation_scores_predictions_on_held_out_games() -> None:
    games = chain_games(60)
    learned = evaluate(games[:80], games[80:])
    assert learned.accuracy == 1.0
    assert learned.log_loss < math.log(2)
    # Knowing nothing of the players, every pair is an even chance.
    blind = evaluate([], games[80:])
    assert math.isclose(blind.log_loss, math.log(2)) and blind.accuracy == 0.0
    assert blind.pairs == learned.pairs
    with pytest.raises(RatingError, match="no pair"):
        evaluate(games, [GameResult(("a", "b"), (0, 0))])
