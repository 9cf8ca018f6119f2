"""Ratings: openskill for finished games of 2 to 6 players, fixed bot ratings, puzzles against players.

A rating is a belief about a player's skill: a mean ``mu`` and a standard
deviation ``sigma``, on openskill's scale times 60 (a new player is
1500 ± 500). A finished game is a ranking of its seats by score (equal
scores share a place; a seat that abandoned comes last), and every rating in
it changes once, by the model's update, except fixed ones (the bots') which
never move. A player's rating is provisional until :data:`PROVISIONAL_GAMES`
games. A puzzle has a rating too: a solved puzzle is a win for the player
and a loss for the puzzle, a failed one the reverse. docs/ratings.md tells
which model is used and why, and how the bots' ratings were calibrated.

>>> rater = Rater()
>>> ana, bot = Rating(), bot_rating("greedy")
>>> after = rater.rate([ana, bot], scores=[42, -42])
>>> after[0].mu > ana.mu and after[0].games == 1 and after[1] == bot
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from .errors import TilerummyError

__all__ = [
    "BOT_RATINGS",
    "DEFAULT_MODEL",
    "MODELS",
    "PROVISIONAL_GAMES",
    "PUZZLE_RATINGS",
    "Evaluation",
    "GameResult",
    "Rater",
    "Rating",
    "RatingError",
    "bot_rating",
    "calibrate",
    "evaluate",
    "fit",
    "places",
    "puzzle_rating",
]

#: openskill's scale (25 ± 25/3, tau 25/300) times 60; beta twice openskill's
#: default (25/6), as our games measured best (docs/ratings.md).
SCALE = 60.0
MU = 25.0 * SCALE
SIGMA = 25.0 / 3.0 * SCALE
BETA = 2 * 25.0 / 6.0 * SCALE
TAU = 25.0 / 300.0 * SCALE

#: A rating is provisional (shown with a "?", kept off leaderboards) until this many games.
PROVISIONAL_GAMES = 12

_Model = PlackettLuce | BradleyTerryFull | BradleyTerryPart | ThurstoneMostellerFull | ThurstoneMostellerPart

#: The openskill models by name.
MODELS: dict[str, type[_Model]] = {
    "plackett_luce": PlackettLuce,
    "bradley_terry_full": BradleyTerryFull,
    "bradley_terry_part": BradleyTerryPart,
    "thurstone_mosteller_full": ThurstoneMostellerFull,
    "thurstone_mosteller_part": ThurstoneMostellerPart,
}

#: The model rated games use: the one that predicted arena games best, game after game (docs/ratings.md).
DEFAULT_MODEL = "thurstone_mosteller_full"


class RatingError(TilerummyError):
    """A game or rating that cannot be rated: too few or too many seats, a bad score, an unknown model."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's (or a bot's, or a puzzle's) rating: skill ``mu`` ± ``sigma``,
    after ``games`` rated games; a ``fixed`` rating never moves."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    fixed: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingError(f"rating {self.mu!r} ± {self.sigma!r}: expected finite numbers, sigma above 0")
        if self.games < 0:
            raise RatingError(f"games={self.games}: cannot be negative")

    @property
    def provisional(self) -> bool:
        return not self.fixed and self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> int:
        """The figure shown to players: the mean, rounded."""
        return round(self.mu)

    def __str__(self) -> str:
        """``1523``, or ``1523?`` while provisional."""
        return f"{self.shown}{'?' if self.provisional else ''}"

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games, "fixed": self.fixed}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rating:
        """:raises RatingError: for a missing or malformed field."""
        try:
            return cls(float(data["mu"]), float(data["sigma"]), int(data.get("games", 0)), bool(data.get("fixed")))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, RatingError):
                raise
            raise RatingError(f"not a rating: {error!r}") from None


def places(scores: Sequence[float], *, abandoned: Iterable[int] = ()) -> list[int]:
    """Each seat's place in a finished game, 0 first: by score, higher first,
    equal scores sharing a place; the seats that ``abandoned`` come after
    everyone else, sharing the last place.

    >>> places([-12, 40, -12, -16])
    [1, 0, 1, 3]
    >>> places([30, -10, -20], abandoned=[0])
    [2, 0, 1]
    """
    left = set(abandoned)
    if any(not 0 <= seat < len(scores) for seat in left):
        raise RatingError(f"abandoned seats {sorted(left)}: the game has seats 0 to {len(scores) - 1}")
    keys = [(True, 0.0) if seat in left else (False, -score) for seat, score in enumerate(scores)]
    return [sum(1 for other in keys if other < key) for key in keys]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game for rating: who sat in each seat (a player's or bot's
    key) and each seat's final score."""

    players: tuple[str, ...]
    scores: tuple[int, ...]

    def places(self) -> list[int]:
        return places(self.scores)


class Rater:
    """Rates games and puzzles with one openskill model (:data:`MODELS`)."""

    def __init__(self, model: str = DEFAULT_MODEL, *, beta: float = BETA) -> None:
        """``beta``: how far one game's showing strays from a player's skill
        (the larger, the less one game tells and the less sure predictions are).

        :raises RatingError: for an unknown model or a beta not above 0.
        """
        try:
            kind = MODELS[model]
        except KeyError:
            raise RatingError(f"unknown rating model {model!r} (models: {', '.join(MODELS)})") from None
        if not (math.isfinite(beta) and beta > 0):
            raise RatingError(f"beta={beta!r}: expected a number above 0")
        self.name = model
        self.beta = beta
        # The five models share these methods, but not one type that says so.
        self.model: Any = kind(mu=MU, sigma=SIGMA, beta=beta, tau=TAU)

    def rate(
        self,
        ratings: Sequence[Rating],
        *,
        scores: Sequence[float] | None = None,
        ranks: Sequence[int] | None = None,
    ) -> list[Rating]:
        """The seats' ratings after one finished game of 2 to 6 seats, ranked by
        ``scores`` (higher first) or by ``ranks`` (0 first; see :func:`places`).
        Fixed ratings come back as they were; the others have one more game.

        :raises RatingError: for fewer than 2 or more than 6 seats, or a
            ranking that does not match them.
        """
        if not 2 <= len(ratings) <= 6:
            raise RatingError(f"{len(ratings)} seats: a rated game has 2 to 6")
        if (scores is None) == (ranks is None):
            raise RatingError("rank the seats by scores or by ranks, one of the two")
        order = list(ranks) if ranks is not None else places(scores or ())
        if len(order) != len(ratings):
            raise RatingError(f"{len(order)} results for {len(ratings)} seats")
        if any(not math.isfinite(place) for place in order):
            raise RatingError(f"places {order}: expected finite numbers")
        teams = [[self.model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
        new = self.model.rate(teams, ranks=[float(place) for place in order])
        return [
            rating if rating.fixed else Rating(team[0].mu, team[0].sigma, rating.games + 1)
            for rating, team in zip(ratings, new, strict=True)
        ]

    def rate_puzzle(self, player: Rating, puzzle: Rating, *, solved: bool) -> tuple[Rating, Rating]:
        """The player's and the puzzle's ratings after an attempt: solving it
        is a win for the player, failing it a win for the puzzle."""
        after = self.rate([player, puzzle], ranks=[0, 1] if solved else [1, 0])
        return after[0], after[1]

    def win_chance(self, one: Rating, other: Rating) -> float:
        """The chance that ``one`` finishes above ``other``, by the model's prediction."""
        teams = [[self.model.rating(mu=one.mu, sigma=one.sigma)], [self.model.rating(mu=other.mu, sigma=other.sigma)]]
        return float(self.model.predict_win(teams)[0])


#: The bots' fixed ratings, calibrated from 468 arena games of the levels as they play now,
#: ``greedy`` at 1500 (docs/ratings.md).
BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(624.0, 138.0, fixed=True),
    "easy": Rating(697.0, 138.0, fixed=True),
    "greedy": Rating(1500.0, 139.0, fixed=True),
    "hard": Rating(1914.0, 148.0, fixed=True),
    "network": Rating(2831.0, 192.0, fixed=True),
    "expert": Rating(3375.0, 204.0, fixed=True),
}


def bot_rating(level: str) -> Rating:
    """A bot level's fixed rating.

    :raises RatingError: for a level without a published rating.
    """
    try:
        return BOT_RATINGS[level]
    except KeyError:
        raise RatingError(f"the {level!r} bot has no rating (rated bots: {', '.join(BOT_RATINGS)})") from None


#: A new puzzle's rating by its level (it then moves with every attempt).
PUZZLE_RATINGS = {1: 1200.0, 2: 1400.0, 3: 1600.0, 4: 1800.0}


def puzzle_rating(level: int) -> Rating:
    """The rating a new puzzle of this level starts from."""
    try:
        return Rating(PUZZLE_RATINGS[level])
    except KeyError:
        raise RatingError(f"puzzle level {level}: levels are {', '.join(map(str, PUZZLE_RATINGS))}") from None


def fit(
    games: Sequence[GameResult],
    rater: Rater,
    *,
    orders: int = 1,
    seed: int = 0,
    fixed: Mapping[str, Rating] | None = None,
) -> dict[str, Rating]:
    """Every player's rating after rating the games one after another from
    the prior, averaged over ``orders`` orders of the games (the first as
    given, the others shuffled from ``seed``), so that the result depends
    little on which games came last. The players in ``fixed`` keep those
    ratings throughout (and are not in the result)."""
    held = {player: replace(rating, fixed=True) for player, rating in (fixed or {}).items()}
    totals: dict[str, list[float]] = {}
    rng = random.Random(seed)
    for number in range(orders):
        sequence = list(games)
        if number:
            rng.shuffle(sequence)
        ratings: dict[str, Rating] = dict(held)
        for game in sequence:
            before = [ratings.get(player, Rating()) for player in game.players]
            after = rater.rate(before, scores=game.scores)
            ratings.update(zip(game.players, after, strict=True))
        for player, rating in ratings.items():
            if player in held:
                continue
            total = totals.setdefault(player, [0.0, 0.0, 0.0])
            total[0] += rating.mu
            total[1] += rating.sigma
            total[2] += rating.games
    return {
        player: Rating(mu / orders, sigma / orders, round(played / orders))
        for player, (mu, sigma, played) in sorted(totals.items())
    }


def calibrate(
    games: Sequence[GameResult],
    *,
    rater: Rater | None = None,
    anchor: str = "greedy",
    at: float = MU,
    orders: int = 8,
    seed: int = 0,
    published: Mapping[str, Rating] | None = None,
) -> dict[str, Rating]:
    """Fixed ratings for the players of these games (bot levels, in the arena):
    :func:`fit` over ``orders`` orders, then shifted so that ``anchor`` sits
    at ``at`` (a new player's prior by default). With ``published`` ratings,
    the players who have one keep it through every game (the anchor and the
    shift are not used): the others are calibrated on the published scale.

    :raises RatingError: when the anchor played none of the games, or none of
        the published players did.
    """
    if published is not None:
        known = {
            player: rating for player, rating in published.items() if any(player in game.players for game in games)
        }
        if not known:
            raise RatingError(f"none of the players with a published rating ({', '.join(published)}) played")
        fitted = fit(games, rater or Rater(), orders=orders, seed=seed, fixed=known)
        return {player: replace(rating, fixed=True) for player, rating in fitted.items()}
    fitted = fit(games, rater or Rater(), orders=orders, seed=seed)
    if anchor not in fitted:
        raise RatingError(f"the anchor {anchor!r} played none of the games (players: {', '.join(fitted)})")
    shift = at - fitted[anchor].mu
    return {player: replace(rating, mu=rating.mu + shift, fixed=True) for player, rating in fitted.items()}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How well ratings predicted games: over every pair of seats that did not
    tie, the mean log-loss of the chance given to the one that finished above
    (lower is better), and the share of pairs where that one was favoured."""

    pairs: int
    log_loss: float
    accuracy: float

    def to_dict(self) -> dict[str, float | int]:
        return {"pairs": self.pairs, "log_loss": self.log_loss, "accuracy": self.accuracy}


def evaluate(train: Sequence[GameResult], test: Sequence[GameResult], *, rater: Rater | None = None) -> Evaluation:
    """Fit ratings on ``train`` (in order, see :func:`fit`) and predict every
    pair of seats of ``test`` with them; a player not in ``train`` has the prior.

    :raises RatingError: when ``test`` has no pair of seats that did not tie.
    """
    rater = rater or Rater()
    ratings = fit(train, rater)
    pairs, loss, right = 0, 0.0, 0
    for game in test:
        order = game.places()
        for one in range(len(game.players)):
            for other in range(len(game.players)):
                if order[one] >= order[other] or game.players[one] == game.players[other]:
                    continue  # each pair once, from the seat that finished above
                chance = rater.win_chance(
                    ratings.get(game.players[one], Rating()), ratings.get(game.players[other], Rating())
                )
                chance = min(max(chance, 1e-12), 1 - 1e-12)
                loss -= math.log(chance)
                right += chance > 0.5
                pairs += 1
    if not pairs:
        raise RatingError("no pair of seats to predict: every test game is a tie or empty")
    return Evaluation(pairs, loss / pairs, right / pairs)
