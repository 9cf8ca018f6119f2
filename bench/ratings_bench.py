"""Which openskill model predicts our own games best, and the bots' calibrated ratings.

Run: .venv/bin/python bench/ratings_bench.py DIR [DIR ...] [--folds K] [--anchor greedy]
     [--model NAME] [--beta B] [--published] [--json]

Each DIR holds game records saved by ``tilerummy arena --save DIR`` (or
folders of them). Every record is a finished game of bots; a seat's player
is its bot level (a level that sits twice in one game counts as a second
player, ``easy#2``). The deals are split into ``--folds`` folds by their
seed; for each fold, every model at each of seven betas (and a baseline that predicts from how
often each level finished above each other in the other folds) is fitted on
the other folds' games, in the order they were played, and predicts every
pair of seats of the fold's games that did not tie. It prints, per model,
the mean log-loss and accuracy of those pairwise predictions, overall, by
the number of seats and averaged over the seat counts (each counting the
same, so that the mix of games played does not decide), and the online log-loss (every game predicted from
the ratings before it, all players starting from the prior: how quickly
each model learns). Last, the bots' fixed ratings calibrated from all the
games with the default model and beta, or ``--model`` and ``--beta``
(``tilerummy.ratings.calibrate``); with ``--published``, the levels that
have a published rating (``BOT_RATINGS``) keep it through every game and
only the others are calibrated, on the published scale.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from tilerummy.ratings import BETA, BOT_RATINGS, DEFAULT_MODEL, MODELS, GameResult, Rater, Rating, calibrate, fit

#: The baseline's pseudo-count: a pair of levels seen few times predicts near one half.
PRIOR_PAIRS = 1.0


def load(directories: Sequence[str]) -> list[tuple[int, GameResult]]:
    """(deal seed, game) for every record under the directories, in the order they were played."""
    games = []
    for directory in directories:
        for path in sorted(Path(directory).rglob("game-*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            seen: Counter[str] = Counter()
            players = []
            for name in data["players"]:
                level = name.rsplit("-", 1)[0]
                seen[level] += 1
                players.append(level if seen[level] == 1 else f"{level}#{seen[level]}")
            games.append((int(data["seed"]), GameResult(tuple(players), tuple(data["result"]["scores"]))))
    return games


def pairs_of(game: GameResult) -> list[tuple[str, str]]:
    """(above, below) for every pair of seats that did not tie, of different players."""
    order = game.places()
    seats = range(len(game.players))
    return [
        (game.players[one], game.players[other])
        for one in seats
        for other in seats
        if order[one] < order[other] and game.players[one] != game.players[other]
    ]


class Score:
    """Log-loss and accuracy summed over pairs, by seat count."""

    def __init__(self) -> None:
        self.loss: dict[int, float] = defaultdict(float)
        self.right: dict[int, int] = defaultdict(int)
        self.pairs: dict[int, int] = defaultdict(int)

    def add(self, seats: int, chance: float) -> None:
        chance = min(max(chance, 1e-12), 1 - 1e-12)
        self.loss[seats] -= math.log(chance)
        self.right[seats] += chance > 0.5
        self.pairs[seats] += 1

    def balanced(self) -> float:
        """The log-loss averaged over the seat counts, each counting the same."""
        sizes = [size for size in self.pairs if self.pairs[size]]
        return sum(self.loss[size] / self.pairs[size] for size in sizes) / len(sizes) if sizes else math.nan

    def summary(self, seats: int | None = None) -> dict[str, float]:
        keys = [seats] if seats is not None else list(self.pairs)
        pairs = sum(self.pairs[key] for key in keys)
        if not pairs:
            return {"pairs": 0, "log_loss": math.nan, "accuracy": math.nan}
        return {
            "pairs": pairs,
            "log_loss": sum(self.loss[key] for key in keys) / pairs,
            "accuracy": sum(self.right[key] for key in keys) / pairs,
        }


def baseline_chances(train: Sequence[GameResult]) -> dict[tuple[str, str], float]:
    """How often each player finished above each other in these games, pulled towards one half."""
    above: Counter[tuple[str, str]] = Counter()
    for game in train:
        above.update(pairs_of(game))
    players = {player for game in train for player in game.players}
    return {
        (one, other): (above[one, other] + PRIOR_PAIRS / 2) / (above[one, other] + above[other, one] + PRIOR_PAIRS)
        for one in players
        for other in players
        if one != other
    }


#: The betas tried: openskill's default on our scale (250), and that times 1/2 up to 32.
BETAS = tuple(250.0 * factor for factor in (0.5, 1, 2, 4, 8, 16, 32))

#: A rating system tried: a model and a beta.
System = tuple[str, float]


def systems(betas: Sequence[float]) -> list[System]:
    return [(model, beta) for model in MODELS for beta in betas]


def label(system: System | str) -> str:
    return system if isinstance(system, str) else f"{system[0]}, beta {system[1]:.0f}"


def cross_validate(games: Sequence[tuple[int, GameResult]], folds: int, tried: Sequence[System]) -> dict[str, Score]:
    scores = {label(system): Score() for system in tried}
    scores["win shares (baseline)"] = Score()
    for fold in range(folds):
        train = [game for deal, game in games if deal % folds != fold]
        test = [game for deal, game in games if deal % folds == fold]
        shares = baseline_chances(train)
        for system in tried:
            name = label(system)
            rater = Rater(system[0], beta=system[1])
            ratings = fit(train, rater)
            for game in test:
                for one, other in pairs_of(game):
                    chance = rater.win_chance(ratings.get(one, Rating()), ratings.get(other, Rating()))
                    scores[name].add(len(game.players), chance)
        for game in test:
            for one, other in pairs_of(game):
                scores["win shares (baseline)"].add(len(game.players), shares.get((one, other), 0.5))
    return scores


def online(games: Sequence[tuple[int, GameResult]], tried: Sequence[System]) -> dict[str, Score]:
    """Every game predicted from the ratings of the games before it, then rated."""
    scores = {}
    for system in tried:
        name = label(system)
        rater = Rater(system[0], beta=system[1])
        ratings: dict[str, Rating] = {}
        score = scores[name] = Score()
        for _, game in games:
            for one, other in pairs_of(game):
                score.add(len(game.players), rater.win_chance(ratings.get(one, Rating()), ratings.get(other, Rating())))
            after = rater.rate([ratings.get(player, Rating()) for player in game.players], scores=game.scores)
            ratings.update(zip(game.players, after, strict=True))
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("directories", nargs="+", metavar="DIR")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--anchor", default="greedy", help="the level whose calibrated rating is 1500")
    parser.add_argument("--model", default=DEFAULT_MODEL, choices=list(MODELS), help="the model to calibrate with")
    parser.add_argument("--beta", type=float, default=BETA, help="the beta to calibrate with")
    parser.add_argument(
        "--published",
        action="store_true",
        help="calibrate the levels without a published rating against the published ones, held fixed",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = load(args.directories)
    if not games:
        print(f"no game records under {', '.join(args.directories)}", file=sys.stderr)
        return 2
    sizes = sorted({len(game.players) for _, game in games})
    tried = systems(BETAS)
    held_out = cross_validate(games, args.folds, tried)
    learning = online(games, tried)
    rater = Rater(args.model, beta=args.beta)
    published = BOT_RATINGS if args.published else None
    calibrated = calibrate([game for _, game in games], rater=rater, anchor=args.anchor, published=published)
    seat_counts = Counter(len(game.players) for _, game in games)
    deals = len({deal for deal, _ in games})
    if args.json:
        print(
            json.dumps(
                {
                    "games": len(games),
                    "deals": deals,
                    "held_out": {name: score.summary() for name, score in held_out.items()},
                    "held_out_balanced": {name: score.balanced() for name, score in held_out.items()},
                    "held_out_by_seats": {
                        name: {size: score.summary(size) for size in sizes} for name, score in held_out.items()
                    },
                    "online": {name: score.summary() for name, score in learning.items()},
                    "calibrated": {name: rating.to_dict() for name, rating in calibrated.items()},
                }
            )
        )
        return 0
    counts = ", ".join(f"{count} of {size} seats" for size, count in sorted(seat_counts.items()))
    print(f"{len(games)} games ({counts}) on {deals} deals, {args.folds} folds by deal")
    print()
    header = " | ".join(f"{size} seats" for size in sizes)
    print(f"| model | pairs | held-out log-loss | accuracy | {header} | mean over seat counts | online log-loss |")
    print(f"|---|---|---|---|{'---|' * len(sizes)}---|---|")
    for name, score in held_out.items():
        overall = score.summary()
        by_size = " | ".join(f"{score.summary(size)['log_loss']:.4f}" for size in sizes)
        learned = f"{learning[name].summary()['log_loss']:.4f}" if name in learning else "-"
        print(
            f"| {name} | {overall['pairs']} | {overall['log_loss']:.4f} | {overall['accuracy']:.3f} | {by_size} "
            f"| {score.balanced():.4f} | {learned} |"
        )
    print()
    held = "the published ratings held fixed" if args.published else f"{args.anchor} at 1500"
    print(f"Calibrated ratings ({args.model}, beta {args.beta:.0f}, {held}, mean of 8 orders of the games):")
    print()
    print("| player | mu | sigma | games |")
    print("|---|---|---|---|")
    for name, rating in sorted(calibrated.items(), key=lambda item: item[1].mu):
        print(f"| {name} | {rating.mu:.0f} | {rating.sigma:.0f} | {rating.games} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
