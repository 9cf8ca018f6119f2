"""The exact move solver: the best play for a rack and a table."""

from ._describe import changed_sets, describe
from ._rack import rack_melds, rack_sets
from ._solve import Objective, Solution, SolverError, candidates, solve

__all__ = [
    "Objective",
    "Solution",
    "SolverError",
    "candidates",
    "changed_sets",
    "describe",
    "rack_melds",
    "rack_sets",
    "solve",
]
