"""The win-probability model's coefficients (see win_model.py), one vector per number of players.

Written by tools/fit_win_model.py --games 300 --players 2 --seed 0.
"""

COEFFICIENTS: dict[int, tuple[float, ...]] = {
    2: (-0.033, -0.885, 0.885, 0.0, 0.065, -0.169, 0.169),
}
