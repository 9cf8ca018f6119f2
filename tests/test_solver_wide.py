"""The solver's answers do not depend on how its states are packed.

A search's state names each colour's open runs with a number; the first
thousand names lie in the low bits of a state, later ones need its high bits
too (which happens with the six-player set and many jokers, after many
solves). Here a fresh process uses up the narrow names first, so every name
the searches make is a wide one, and must give the answers this process gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tilerummy import Rules
from tilerummy.solver import _layers, candidates, solve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from positions import bench_positions  # noqa: E402

_VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("standard", {}),
    ("standard", {"wrap": True}),
    ("standard", {"joker_replacement": "free"}),
    ("six-player", {}),
]

_SCRIPT = """
import json, sys
sys.path.insert(0, "tests")
from test_solver_wide import answers
from tilerummy.solver import _layers

# Use up the narrow names with runs no search makes.
while len(_layers._RUNS) <= _layers._RUN_MASK:
    _layers._run_id(((99, False, False),) * (len(_layers._RUNS) + 1))
found = answers()
print(json.dumps({"wide": _layers._WIDE[0], "names": len(_layers._RUNS), "answers": found}))
"""


_THREADS_SCRIPT = """
from tilerummy.solver import _layers, _solve

calls = []

def solving():
    # As if another thread's solve widened the states while this one ran.
    calls.append(_layers.is_wide())
    if len(calls) == 1:
        _layers.widen()
    return len(calls)

print(_solve._widening(solving), calls)
"""


def answers() -> list[object]:
    """Plays on a few benchmark positions per rule variant, in full."""
    found: list[object] = []
    for seed, (preset, options) in enumerate(_VARIANTS):
        rules = Rules.preset(preset, **options)
        for number, position in enumerate(bench_positions(seed, 1)):
            rack = list(position.rack)
            play = solve(rack, position.table, rules=rules, initial_meld_done=number != 0)
            found.append(None if play is None else play.to_dict())
            if number == 3:
                found.append([play.to_dict() for play in candidates(rack, position.table, rules=rules, k=2)])
    return found


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


def test_wide_states_give_the_same_answers() -> None:
    wide = json.loads(_output(_SCRIPT))
    assert wide["wide"] is True
    assert wide["names"] > _layers._RUN_MASK + 10
    assert wide["answers"] == answers()


def test_a_solve_runs_again_when_states_widen_meanwhile() -> None:
    assert _output(_THREADS_SCRIPT).split() == ["2", "[False,", "True]"]
