"""Compare this checkout's solver with another checkout's, answer by answer.

Run: python tools/solver_differential.py REFERENCE_SRC [--positions N] [--seed S]

``REFERENCE_SRC`` is the ``src`` directory of another checkout (for instance
a worktree of ``main``). The same generated positions go to both solvers, each
in its own process, under several rule variants (the standard rules, the
six-player set with its four jokers, wrap, the three joker rules, initial
melds with and without lay-off); each position is solved with and without
the fewest-changes tie-break, and asked for ``candidates``. The script prints
every position where the two disagree on the tiles placed, the value, or (with
the tie-break) the number of sets changed, then a count, and exits 1 if
there was any difference.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The rule variants, as options of Rules.preset (the first item is the preset).
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    "standard": ("standard", {}),
    "six-player": ("six-player", {}),
    "wrap": ("standard", {"wrap": True}),
    "rack_or_table": ("standard", {"joker_replacement": "rack_or_table"}),
    "free": ("standard", {"joker_replacement": "free"}),
    "initial": ("standard", {}),
    "initial-lay-off": ("standard", {"initial_meld_lay_off": True, "initial_meld_points": 15}),
}


def make_cases(count: int, seed: int) -> list[dict[str, object]]:
    """``count`` positions spread over the variants: game-like positions of
    every table size (from the benchmark's generator) and small ones."""
    sys.path.insert(0, str(ROOT / "bench"))
    from positions import BUCKETS, make_position

    from tilerummy.tiles import JOKER, format_tiles

    rng = random.Random(seed)
    names = list(VARIANTS)
    cases: list[dict[str, object]] = []
    for number in range(count):
        variant = names[number % len(names)]
        # Lay-off tries every way to extend each set: small tables only.
        buckets = 2 if variant == "initial-lay-off" else len(BUCKETS)
        position = make_position(rng, rng.randrange(buckets))
        rack = list(position.rack)
        if variant == "six-player":
            # The six-player set holds four jokers: give the rack the two more.
            rack += [JOKER] * rng.randint(0, 2)
        if variant.startswith("initial"):
            rack = rack[:14]  # an opening rack
        cases.append(
            {
                "variant": variant,
                "rack": format_tiles(rack),
                "table": str(position.table),
                "melded": not variant.startswith("initial"),
                "objective": "value" if number % 3 == 2 else "tiles",
            }
        )
    return cases


def _play(found: object) -> object:
    if found is None:
        return None
    return {
        "placed": sorted(str(tile) for tile in found.placed),  # type: ignore[attr-defined]
        "value": found.value,  # type: ignore[attr-defined]
        "changed": found.changed,  # type: ignore[attr-defined]
        "meld_value": found.meld_value,  # type: ignore[attr-defined]
    }


def work(cases: Path, answers: Path) -> None:
    """Answer the cases (one JSON line each) with whichever solver the path
    imports, one JSON line of answers per case."""
    from tilerummy import Rules, Table, candidates, solve

    written = answers.open("w")
    for line in cases.read_text().splitlines():
        case = json.loads(line)
        preset, options = VARIANTS[case["variant"]]
        rules = Rules.preset(preset, **options)
        table = Table.parse(case["table"], wrap=rules.wrap)
        common = {"rules": rules, "initial_meld_done": case["melded"], "objective": case["objective"]}
        answered = {
            "fewest": _play(solve(case["rack"], table, **common)),
            "any": _play(solve(case["rack"], table, fewest_changes=False, **common)),
            "candidates": [_play(found) for found in candidates(case["rack"], table, k=3, **common)],
        }
        written.write(json.dumps(answered) + "\n")
    written.close()


def start(src: Path, cases: Path, answers: Path) -> subprocess.Popen[str]:
    """A process answering the cases with the solver under ``src``."""
    environment = dict(os.environ, PYTHONPATH=str(src), TILERUMMY_SOLVER="pure")
    command = [sys.executable, __file__, "--worker", str(cases), str(answers)]
    return subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)


def answers_of(process: subprocess.Popen[str], src: Path, answers: Path) -> list[dict[str, object]]:
    _, errors = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"the solver in {src} failed:\n{errors}")
    return [json.loads(line) for line in answers.read_text().splitlines()]


def differences(mine: dict[str, object], theirs: dict[str, object]) -> list[str]:
    """What differs between two answers to one case."""
    found = []

    def key(play: object, *, changed: bool) -> object:
        if not isinstance(play, dict):
            return play
        return (play["placed"], play["value"], play["meld_value"], play["changed"] if changed else None)

    for mode in ("fewest", "any"):
        if key(mine[mode], changed=mode == "fewest") != key(theirs[mode], changed=mode == "fewest"):
            found.append(f"solve ({mode}): {mine[mode]} against {theirs[mode]}")
    ours, others = mine["candidates"], theirs["candidates"]
    assert isinstance(ours, list) and isinstance(others, list)
    if [key(play, changed=True) for play in ours] != [key(play, changed=True) for play in others]:
        found.append(f"candidates: {ours} against {others}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path, nargs="?", help="the src directory of the checkout to compare with")
    parser.add_argument("--positions", type=int, default=350)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="a file keeping the reference's answers between runs")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        work(*args.worker)
        return 0
    if args.reference is None:
        parser.error("name the reference checkout's src directory")
    cases = make_cases(args.positions, args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "cases").write_text("".join(json.dumps(case) + "\n" for case in cases))
        # Both solvers work at once, each in its own process.
        ours = start(ROOT / "src", folder / "cases", folder / "ours")
        if args.keep is not None and args.keep.exists():
            kept = json.loads(args.keep.read_text())
            if kept["cases"] != cases:
                parser.error(f"{args.keep} holds answers to other positions")
            theirs = kept["answers"]
        else:
            theirs = answers_of(
                start(args.reference, folder / "cases", folder / "theirs"), args.reference, folder / "theirs"
            )
            if args.keep is not None:
                args.keep.write_text(json.dumps({"cases": cases, "answers": theirs}))
        mine = answers_of(ours, ROOT / "src", folder / "ours")
    count = 0
    for case, ours_answer, others in zip(cases, mine, theirs, strict=True):
        found = differences(ours_answer, others)
        if found:
            count += 1
            print(f"{case}:")
            for line in found:
                print(f"  {line}")
    by_variant = {name: sum(case["variant"] == name for case in cases) for name in VARIANTS}
    print(f"{len(cases)} positions ({', '.join(f'{n} {name}' for name, n in by_variant.items())}), seed {args.seed}")
    print(f"each: solve with and without the fewest changes, candidates k=3; {count} with differences")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
