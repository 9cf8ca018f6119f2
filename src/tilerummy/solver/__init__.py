"""The exact move solver: the best play for a rack and a table."""

import importlib.machinery
import pathlib

# Earlier versions could compile the solver's modules next to their sources,
# and Python imports such modules before the sources: refuse to run stale code.
_HERE = pathlib.Path(__file__).parent
_STALE = sorted(path.name for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in _HERE.glob(f"*{suffix}"))
if _STALE:
    raise ImportError(
        f"compiled solver modules from an earlier version lie next to the sources: {', '.join(_STALE)};"
        " remove them (make clean does)"
    )

from ._describe import changed_sets, describe  # noqa: E402
from ._solve import Objective, Solution, SolverError, candidates, solve  # noqa: E402

__all__ = [
    "Objective",
    "Solution",
    "SolverError",
    "candidates",
    "changed_sets",
    "describe",
    "solve",
]
