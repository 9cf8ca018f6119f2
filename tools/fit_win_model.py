"""Refit the expert bot's win-probability model from games of greedy bots.

Plays ``--games`` games per player count, every seat the greedy bot, deal
``seed + game`` each (the player count is added to the seed times a million,
so the counts use different deals). After every move, each seat's features
(tilerummy.bots.win_model.FEATURES) are recorded with whether that seat went
on to win. A logistic regression is fitted per player count (Newton's
method, a light ridge penalty), its log-loss on the last fifth of the games
(held out) is printed beside that of a constant guess, and the coefficients
are written to src/tilerummy/bots/_win_coefficients.py unless ``--dry-run``.

Run: python tools/fit_win_model.py [--games 300] [--players 2,3,4] [--seed 0] [--dry-run]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tilerummy import Game
from tilerummy.bots import make_bot
from tilerummy.bots.win_model import FEATURES, features

OUTPUT = Path(__file__).resolve().parent.parent / "src" / "tilerummy" / "bots" / "_win_coefficients.py"

#: The ridge penalty on every coefficient but the bias.
RIDGE = 1.0

Matrix = npt.NDArray[np.float64]


def positions(players: int, seed: int) -> tuple[list[list[float]], list[float]]:
    """Every seat's features after every move of one greedy game, and whether it won."""
    game = Game.new(players, seed=seed)
    bots = [make_bot("greedy") for _ in range(players)]
    rows: list[list[float]] = []
    owners: list[int] = []

    def record() -> None:
        sizes = [len(game.rack(seat)) for seat in range(players)]
        for seat in range(players):
            rows.append(features(seat, sizes, game.pool_size, game.turn, game.melded))
            owners.append(seat)

    record()
    while not game.is_over:
        game.apply(bots[game.turn].choose(game.view(game.turn)))
        if not game.is_over:
            record()
    assert game.result is not None
    return rows, [float(owner == game.result.winner) for owner in owners]


def fit(x: Matrix, y: Matrix) -> Matrix:
    """Logistic regression coefficients by Newton's method."""
    weights = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], RIDGE)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return weights


def log_loss(x: Matrix, y: Matrix, weights: Matrix) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ weights))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count (default 300)")
    parser.add_argument("--players", default="2,3,4", help="player counts to fit (default 2,3,4)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    args = parser.parse_args()
    fitted: dict[int, list[float]] = {}
    for players in (int(count) for count in args.players.split(",")):
        held_out_from = args.games - args.games // 5
        train_x: list[list[float]] = []
        train_y: list[float] = []
        test_x: list[list[float]] = []
        test_y: list[float] = []
        for game in range(args.games):
            rows, labels = positions(players, args.seed + players * 1_000_000 + game)
            (test_x if game >= held_out_from else train_x).extend(rows)
            (test_y if game >= held_out_from else train_y).extend(labels)
        x, y = np.array(train_x), np.array(train_y)
        weights = fit(x, y)
        constant = np.zeros(len(FEATURES))
        base_rate = float(np.mean(y))
        constant[0] = np.log(base_rate / (1 - base_rate))
        tx, ty = np.array(test_x), np.array(test_y)
        print(
            f"{players} players: {len(train_y)} positions to fit, {len(test_y)} held out; held-out log-loss "
            f"{log_loss(tx, ty, weights):.4f} (a constant guess: {log_loss(tx, ty, constant):.4f})"
        )
        print("  " + ", ".join(f"{name} {value:+.3f}" for name, value in zip(FEATURES, weights, strict=True)))
        fitted[players] = [round(float(value), 4) for value in weights]
    if args.dry_run:
        return
    lines = [
        '"""The win-probability model\'s coefficients (see win_model.py), one vector per number of players.',
        "",
        f"Written by tools/fit_win_model.py --games {args.games} --players {args.players} --seed {args.seed}.",
        '"""',
        "",
        "COEFFICIENTS: dict[int, tuple[float, ...]] = {",
        *(f"    {players}: {tuple(weights)!r}," for players, weights in sorted(fitted.items())),
        "}",
        "",
    ]
    OUTPUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
