"""The solver's answers do not depend on how many kinds of open runs its
tables have named.

A search's state names each colour's open runs with a number, made as the
searches meet them, so a long-running process holds names in the tens of
thousands (the six-player set with many jokers makes the most). Here a fresh
process names thousands of runs no search makes first, so every name the
searches make is a large one, and must give the answers this process gives.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tilerummy import Rules
from tilerummy.solver import candidates, solve
from tilerummy.solver._tables import tables_for

#: Both tests compare with this process's own answers: in one worker (make test's --dist
#: loadgroup), they are worked out once for the two.
pytestmark = pytest.mark.xdist_group("solver-wide")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from positions import bench_positions  # noqa: E402

VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("standard", {}),
    ("standard", {"wrap": True}),
    ("standard", {"joker_replacement": "free"}),
    ("six-player", {}),
]

#: The benchmark positions' seed for each variant: positions on which the searches name as many
#: kinds of open runs as on most, and that are solved in a fraction of the time of some.
POSITION_SEEDS = (0, 38, 2, 20)

_SCRIPT = """
import json, sys
sys.path.insert(0, "tests")
from test_solver_wide import VARIANTS, answers
from tilerummy import Rules
from tilerummy.solver._tables import Run, tables_for

# Name runs no search makes, past every name a small field would hold.
for preset, options in VARIANTS:
    tables = tables_for(Rules.preset(preset, **options))
    for count in range(1, 8):
        for length in range(1, 1200):
            tables.name((Run(length, False, False),) * count)
print(json.dumps({"names": len(tables.runs), "answers": answers()}))
"""


def answers() -> list[object]:
    """Plays on a few benchmark positions per rule variant, in full."""
    found: list[object] = []
    for seed, (preset, options) in zip(POSITION_SEEDS, VARIANTS, strict=True):
        rules = Rules.preset(preset, **options)
        for number, position in enumerate(bench_positions(seed, 1)):
            rack = list(position.rack)
            play = solve(rack, position.table, rules=rules, initial_meld_done=number != 0)
            found.append(None if play is None else play.to_dict())
            if number == 3:
                found.append([play.to_dict() for play in candidates(rack, position.table, rules=rules, k=2)])
    return found


@functools.cache
def answers_here() -> list[object]:
    """This process's answers, before any test clears its tables."""
    return answers()


def _output(script: str) -> str:
    """What the script prints, run in a fresh process of this interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_answers_do_not_depend_on_the_names_made_before() -> None:
    named = json.loads(_output(_SCRIPT))
    assert named["names"] > 8000
    assert named["answers"] == answers_here()


def test_solves_in_threads_sharing_fresh_tables_give_the_same_answers() -> None:
    expected = answers_here()
    tables_for.cache_clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(lambda _: answers(), range(2)))
    assert found == [expected] * 2
