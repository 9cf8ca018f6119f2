"""The exact move solver: the best play for a rack and a table."""

from ._solve import Objective, Solution, SolverError, candidates, changed_sets, describe, solve

__all__ = ["Objective", "Solution", "SolverError", "candidates", "changed_sets", "describe", "solve"]
