"""The compiled solver (``make accel``) gives the plain solver's answers.

Both run in their own process on the same positions (the benchmark's, from
empty tables to a hundred tiles, under several rule variants, melded or not,
for both objectives, with and without the fewest changes, with candidates
too) and print every answer in full.

The test needs the compiled modules: it is skipped without them, unless
``TILERUMMY_REQUIRE_COMPILED=1`` (``make test``'s compiled run) makes that a
failure; it is left to that run when ``TILERUMMY_SOLVER=pure`` is set.
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
    return None if play is None else play.to_dict()

answers = []
variants = [
    ("standard", {}), ("standard", {"wrap": True}), ("standard", {"joker_replacement": "free"}),
    ("standard", {"joker_replacement": "rack_or_table"}), ("standard", {"initial_meld_lay_off": True}),
    ("six-player", {}),
]
for seed, (preset, options) in enumerate(variants):
    rules = Rules.preset(preset, **options)
    for number, position in enumerate(bench_positions(seed, 2)):
        rack = list(position.rack)
        asked = {
            "rules": rules,
            "initial_meld_done": number % 3 != 2,
            "objective": "value" if number % 4 == 1 else "tiles",
            "fewest_changes": number % 5 != 4,
        }
        answers.append(shown(solve(rack, position.table, **asked)))
        if number % 5 == 3:
            answers.append([shown(play) for play in candidates(rack, position.table, k=3, **asked)])
print(json.dumps({"compiled": COMPILED, "answers": answers}))
"""


def _answers(pure: bool) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if key != "TILERUMMY_SOLVER"}
    if pure:
        env["TILERUMMY_SOLVER"] = "pure"
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_solver_gives_the_plain_solvers_answers() -> None:
    problem = _compiled.problem()
    if problem is not None:
        if os.environ.get("TILERUMMY_REQUIRE_COMPILED") == "1":
            pytest.fail(f"the compiled solver cannot be used: {problem}")
        pytest.skip(f"the compiled solver cannot be used: {problem} (make accel)")
    if os.environ.get("TILERUMMY_SOLVER", "").strip().lower() == "pure":
        pytest.skip("left to the run on the compiled solver (TILERUMMY_SOLVER=pure)")
    compiled, pure = _answers(pure=False), _answers(pure=True)
    assert compiled["compiled"] is True
    assert pure["compiled"] is False
    assert compiled["answers"] == pure["answers"]
