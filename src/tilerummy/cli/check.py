"""``tilerummy check``: whether sets are valid, their kind, value and jokers."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..errors import InvalidMeld, NotationError
from ..melds import WrittenMeld, joker_meanings_text
from ..tiles import shorten, split_tokens
from ._common import rules_from

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    check = commands.add_parser("check", help="check sets: valid or not, kind, value, jokers")
    check.add_argument(
        "sets", nargs="+", metavar="SET", help='a set, e.g. "R5 R6 J" (several sets may be joined with |)'
    )
    check.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (for wrap)")
    check.add_argument("--wrap", action="store_true", help="allow 1 after 13 at the end of a run")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from(args.rules)
    wrap = args.wrap or rules.wrap
    reports: list[dict[str, Any]] = []
    for argument in args.sets:
        for text in argument.split("|"):
            written = " ".join(split_tokens(text))
            if not written:
                raise NotationError(
                    f"{shorten(argument)!r}: a set without tiles (write tiles, and '|' only between sets)"
                    if argument.strip()
                    else 'an empty set: write its tiles, e.g. "R5 R6 R7"'
                )
            try:
                reading = WrittenMeld.parse(text, wrap=wrap)
                meld = reading.meld
                if sum(tile.is_joker for tile in meld.tiles) > rules.tile_set.jokers:
                    raise InvalidMeld(
                        f"{written}: the {rules.tile_set.value} set has only {rules.tile_set.jokers} jokers"
                    )
            except InvalidMeld as error:
                reason = str(error)
                prefix = f"{written}: "
                reports.append(
                    {
                        "set": written,
                        "valid": False,
                        "kind": None,
                        "value": None,
                        "jokers": [],
                        "reason": reason[len(prefix) :] if reason.startswith(prefix) else reason,
                        "read_as": None,
                    }
                )
                continue
            reports.append(
                {
                    "set": written,
                    "valid": True,
                    "kind": meld.kind.value,
                    "value": meld.value,
                    "jokers": [joker_meanings_text(meaning) for meaning in reading.jokers],
                    "reason": None,
                    "read_as": str(reading),
                }
            )
    if args.json:
        print(json.dumps(reports, ensure_ascii=False))
    else:
        width = max(len(report["set"]) for report in reports)
        for report in reports:
            if report["valid"]:
                jokers = ", ".join(f"J = {meaning}" for meaning in report["jokers"])
                read = f" (read as {report['read_as']})" if report["read_as"] != report["set"] else ""
                print(
                    f"{report['set']:<{width}}  valid {report['kind']}, value {report['value']}"
                    + (f", {jokers}" if jokers else "")
                    + read
                )
            else:
                print(f"{report['set']:<{width}}  invalid: {report['reason']}")
    return 0 if all(report["valid"] for report in reports) else 1
