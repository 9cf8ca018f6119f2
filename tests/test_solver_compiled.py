"""The compiled solver (``make accel``) gives the plain solver's answers.

Both run in their own process on the same positions (the benchmark's, from
empty tables to a hundred tiles, under several rule variants, melded or not,
for both objectives, with candidates too) and print every answer in full.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilerummy.solver import _compiled

ROOT = Path(__file__).resolve().parent.parent

_SCRIPT = """
import json, sys
sys.path.insert(0, "bench")
from positions import bench_positions
from tilerummy import Rules
from tilerummy.solver import COMPILED, candidates, solve

def shown(play):
    if play is None:
        return None
    return [[str(tile) for tile in play.placed], [str(meld) for meld in play.table], play.value, play.changed, play.steps]

answers = []
variants = [
    ("standard", {}), ("standard", {"wrap": True}), ("standard", {"joker_replacement": "free"}),
    ("standard", {"joker_replacement": "rack_or_table"}), ("standard", {"initial_meld_lay_off": True}),
]
for seed, (preset, options) in enumerate(variants):
    rules = Rules.preset(preset, **options)
    for number, position in enumerate(bench_positions(seed, 2)):
        rack = list(position.rack)
        melded = number % 3 != 2
        objective = "value" if number % 4 == 1 else "tiles"
        answers.append(shown(solve(rack, position.table, rules=rules, initial_meld_done=melded, objective=objective)))
        if number % 5 == 3:
            found = candidates(rack, position.table, rules=rules, k=3)
            answers.append([shown(play) for play in found])
print(json.dumps({"compiled": COMPILED, "answers": answers}))
"""


def _answers(pure: bool) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if key != "TILERUMMY_SOLVER"}
    if pure:
        env["TILERUMMY_SOLVER"] = "pure"
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not _compiled.available(), reason="the compiled solver is not built (make accel)")
def test_compiled_solver_gives_the_plain_solvers_answers() -> None:
    compiled, pure = _answers(pure=False), _answers(pure=True)
    assert compiled["compiled"] is True
    assert pure["compiled"] is False
    assert compiled["answers"] == pure["answers"]
