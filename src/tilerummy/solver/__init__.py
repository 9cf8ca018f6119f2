"""The exact move solver: the best play for a rack and a table."""

from ._compiled import select

#: Whether the search modules run compiled with mypyc (``make accel``).
COMPILED = select(__name__)
#: Which modules run, in words (the benchmarks print it).
IMPLEMENTATION = "compiled with mypyc (make accel)" if COMPILED else "plain Python"

from ._describe import changed_sets, describe  # noqa: E402
from ._solve import Objective, Solution, SolverError, candidates, solve  # noqa: E402

__all__ = [
    "COMPILED",
    "IMPLEMENTATION",
    "Objective",
    "Solution",
    "SolverError",
    "candidates",
    "changed_sets",
    "describe",
    "solve",
]
