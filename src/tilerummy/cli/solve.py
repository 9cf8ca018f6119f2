"""``tilerummy solve``: the best play for a rack and a table."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..console import count
from ..melds import Table
from ..solver import solve
from ._common import rules_from

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "solve",
        help="the best play for a rack and a table",
        description="The best play: the most rack tiles (or the most value) placed, rearranging the table.",
    )
    parser.add_argument("--rack", required=True, metavar="TILES", help='the rack, e.g. "R4 K5 J"')
    parser.add_argument("--table", default="", metavar="TABLE", help='the table, e.g. "R5 R6 R7 | B5 Y5 K5"')
    parser.add_argument("--initial", action="store_true", help="the initial meld is still to be made")
    parser.add_argument("--objective", choices=["tiles", "value"], default="tiles")
    parser.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from(args.rules)
    solution = solve(
        args.rack,
        args.table,
        rules=rules,
        initial_meld_done=not args.initial,
        objective=args.objective,
    )
    if args.json:
        table = Table.parse(args.table, wrap=rules.wrap)
        unchanged = [[str(tile) for tile in meld] for meld in table]
        empty = {
            "placed": [],
            "table": unchanged,
            "value": 0,
            "steps": [],
            "meld_value": None,
            "changed": 0,
            "proven": True,
        }
        print(json.dumps(solution.to_dict() if solution is not None else empty))
        return 0
    if solution is None:
        print("Nothing can be played: draw." if not args.initial else "No initial meld: draw.")
        return 0
    worth = f", an initial meld worth {solution.meld_value}" if solution.meld_value is not None else ""
    print(
        f"Place {count(len(solution.placed), 'tile')} ({' '.join(map(str, solution.placed))}), "
        f"value {solution.value}{worth}."
    )
    for number, step in enumerate(solution.steps, start=1):
        print(f"  {number}. {step}")
    print(f"Table: {solution.table}")
    if not solution.proven:
        print("The search stopped at its bound: a play placing more may exist (docs/solver.md).")
    return 0
