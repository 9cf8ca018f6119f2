"""``tilerummy rules``: the presets and every option."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..rules import OPTION_HELP, PRESETS, Rules
from ._common import option_value_text

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    rules = commands.add_parser("rules", help="list the presets and every option")
    rules.add_argument("preset", nargs="?", metavar="PRESET", help=f"one of: {', '.join(PRESETS)}")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    names = [args.preset] if args.preset else list(PRESETS)
    chosen = {name: Rules.preset(name) for name in names}
    if args.json:
        print(json.dumps({name: rules.to_dict() for name, rules in chosen.items()}))
        return 0
    if not args.preset:
        print("Presets: " + ", ".join(PRESETS))
        print()
    width = max(len(option) for option in OPTION_HELP)
    for name, rules in chosen.items():
        print(f"{name}:")
        values = rules.to_dict()
        for option, help_text in OPTION_HELP.items():
            value = values[option]
            print(f"  {option:<{width}}  {option_value_text(value):<15} {help_text}")
        print()
    return 0
