"""The win-probability model's coefficients (see win_model.py), one vector per number of players.

Written by tools/fit_win_model.py --games 500 --players 2 --seed 0.
"""

COEFFICIENTS: dict[int, tuple[float, ...]] = {
    2: (-0.034, -1.135, 1.135, 0.177, -0.177, -0.0, 0.068, -0.224, 0.224),
}
