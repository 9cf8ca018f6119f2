"""The win-probability model's coefficients (see win_model.py), one vector per number of players.

Written by tools/fit_win_model.py --games 300 --players 2,3,4 --seed 0.
"""

COEFFICIENTS: dict[int, tuple[float, ...]] = {
    2: (-0.0327, -0.8846, 0.8846, 0.0, 0.0654, -0.1687, 0.1687),
    3: (-0.4774, -0.7353, 0.718, -0.0153, 0.1076, 0.0372, -0.0874),
    4: (-0.4777, -0.3828, 0.3233, -0.1122, 0.0997, -0.2548, -0.0175),
}
