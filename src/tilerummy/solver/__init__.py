"""The exact move solver: the best play for a rack and a table."""

from ._compiled import select

#: Whether the search modules run compiled with mypyc (``make accel``).
COMPILED = select(__name__)

from ._solve import Objective, Solution, SolverError, candidates, changed_sets, describe, solve  # noqa: E402

__all__ = ["COMPILED", "Objective", "Solution", "SolverError", "candidates", "changed_sets", "describe", "solve"]
