"""What several commands share: the parser that exits in one line, rules from arguments, bot levels."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..bots import LEVELS
from ..errors import RecordError, TilerummyError
from ..records import GameRecord
from ..rules import PRESETS, Rules, option_from_text

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]


class Parser(argparse.ArgumentParser):
    """Bad arguments give one line naming the problem, and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def add_rules_arguments(parser: argparse.ArgumentParser, *, default: str) -> None:
    parser.add_argument("--rules", default=default, metavar="PRESET", help=f"rules preset (default {default})")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule option, e.g. wrap=true or turn_seconds=60 (see: tilerummy rules)",
    )


def rules_with_options(args: argparse.Namespace) -> Rules:
    return Rules.preset(args.rules, **dict(option_from_text(text) for text in args.option))


def rules_from(name: str, **options: Any) -> Rules:
    return Rules.preset(name, **{key: value for key, value in options.items() if value is not None})


def rules_summary(name: str) -> str:
    differences = Rules.preset(name).differences() if name in PRESETS else {}
    extra = ", ".join(f"{key}={value}" for key, value in differences.items())
    return f"rules {name}" + (f" ({extra})" if extra else "")


def rules_text(args: argparse.Namespace) -> str:
    return rules_summary(args.rules) + "".join(f", {text}" for text in args.option)


def bot_levels(text: str) -> list[str]:
    levels = [level.strip().lower() for level in text.split(",") if level.strip()]
    for level in levels:
        if level not in LEVELS:
            raise TilerummyError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    return levels


def read_record_text(path: str) -> str:
    """A game record file's text; a file that is not UTF-8 text is a record error."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None


def read_record(path: str) -> GameRecord:
    """A game record from a file."""
    return GameRecord.from_json(read_record_text(path))
