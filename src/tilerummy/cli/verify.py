"""``tilerummy verify``: check a game record's fair-deal commitment and replay it from its seed."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..fairness import verify
from ._common import read_record_and_result

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "verify",
        help="check that a game's deal matches the commitment published at its start",
        description="Checks that the record's seed and salt hash to its commitment (SHA-256 of 'SEED:SALT'), "
        "that every action replays legally from that seed, and that the stored scores are the replay's. "
        "Exit 0 when everything matches, 1 when something does not (see docs/fairness.md).",
    )
    parser.add_argument("record", metavar="RECORD.json")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record, stored = read_record_and_result(args.record)
    report = verify(record, stored)
    if args.json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "problems": list(report.problems),
                    "commitment": record.fairness.commitment if record.fairness else None,
                    "seed": record.deal.seed,
                    "starting_racks": dict(zip(record.players, report.starting_racks, strict=True)),
                },
                ensure_ascii=False,
            )
        )
        return 0 if report.ok else 1
    if record.fairness is not None:
        print(f"Commitment: {record.fairness.commitment}")
    print(f"Seed: {record.deal.seed if record.deal.seed is not None else '(none: the deal is written out)'}")
    print("Starting racks as dealt:")
    for name, rack in zip(record.players, report.starting_racks, strict=True):
        print(f"  {name}: {rack}")
    for problem in report.problems:
        print(f"Does not match: {problem}")
    if report.ok:
        print(
            f"Deal verified: the seed and the salt match the commitment, and all {len(record.actions)} actions replay from it."
        )
    return 0 if report.ok else 1
