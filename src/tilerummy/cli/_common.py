"""What several commands share: the parser that exits in one line, rules from arguments, bot levels."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..bots import LEVELS
from ..errors import RecordError, TilerummyError
from ..records import GameRecord, read_json
from ..rules import PRESETS, Rules, option_from_text
from ..tiles import shorten

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]


#: Seeds are 63-bit, as the random deals of ``play`` and of match rounds are.
MAX_SEED = 2**63 - 1


class Parser(argparse.ArgumentParser):
    """Bad arguments give one line naming the problem, and exit 2."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes the value it refused: keep a long one from filling the screen.
        message = re.sub(r"'([^']{40,})'", lambda match: repr(shorten(match.group(1))), message)
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def check_seed(seed: int, option: str = "--seed") -> int:
    """:raises TilerummyError: for a seed that is negative or past 63 bits."""
    if not 0 <= seed <= MAX_SEED:
        shown = seed if abs(seed) < 10**20 else "that"
        raise TilerummyError(f"{option} {shown}: seeds run from 0 to 2**63 - 1")
    return seed


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


def option_value_text(value: object) -> str:
    """An option's value as it is typed on the command line (``true``, ``none``, ``60``)."""
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def rules_summary(name: str, rules: Rules | None = None) -> str:
    """``rules casual (turn_seconds=none)``: the preset's name, and every option that differs from the defaults."""
    chosen = rules if rules is not None else Rules.preset(name) if name in PRESETS else Rules()
    extra = ", ".join(f"{key}={option_value_text(value)}" for key, value in chosen.differences().items())
    return f"rules {name}" + (f" ({extra})" if extra else "")


def rules_text(args: argparse.Namespace) -> str:
    return rules_summary(args.rules, rules_with_options(args))


def destination(text: str, option: str) -> Path:
    """A file to write at the end of a command, checked at its start (so that no work is lost).

    :raises TilerummyError: when the file cannot be written where it is named.
    """
    path = Path(text)
    if not text or path.is_dir():
        raise TilerummyError(f"{option} {text!r}: name a file, not a folder")
    folder = path.parent
    if not folder.is_dir():
        raise TilerummyError(f"{option} {text}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise TilerummyError(f"{option} {text}: permission denied")
    return path


def bot_levels(text: str) -> list[str]:
    levels = [level.strip().lower() for level in text.split(",") if level.strip()]
    for level in levels:
        if level not in LEVELS:
            raise TilerummyError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    return levels


#: Far larger than any round's record (100,000 actions take a few megabytes).
MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record_text(path: str) -> str:
    """A game record file's text; a file that is not UTF-8 text, or far too large for a record, is a record error."""
    with Path(path).open("rb") as file:
        # Read one byte past the limit: a device such as /dev/zero never ends.
        data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES // 2**20} MiB, too large for a game record")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None


def read_record(path: str) -> GameRecord:
    """A game record from a file."""
    return read_record_and_result(path)[0]


def read_record_and_result(path: str) -> tuple[GameRecord, dict[str, Any] | None]:
    """A game record from a file, and the result it stores (checked against the replay by the caller)."""
    data = read_json(read_record_text(path))
    record = GameRecord.from_dict(data)
    result: dict[str, Any] | None = data.get("result")
    return record, result
