"""The ``tilerummy`` command: one module per command, assembled here."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import TilerummyError
from . import analyse, arena, check, cluster, demo, play, puzzle, replay, rules, score, serve, solve, verify
from ._common import Parser

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 2
    try:
        result: int = args.handler(args)
    except TilerummyError as error:
        print(f"tilerummy {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``tilerummy demo | head``): stop quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except OSError as error:
        print(f"tilerummy {args.command}: {error.strerror or error}: {error.filename}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return result


def build_parser() -> Parser:
    parser = Parser(
        prog="tilerummy",
        description="Rummikub-style tile rummy: rules engine, score calculator and game records.",
        epilog="Tiles: R5 (red 5), B blue, Y yellow, K black, J joker. Sets separate tiles with spaces "
        "or commas; a table separates sets with '|'.",
    )
    parser.add_argument("--version", action="version", version=f"tilerummy {__version__}")
    commands = parser.add_subparsers(title="commands", dest="command", parser_class=Parser)
    for command in (check, score, replay, analyse, verify, rules, solve, puzzle, demo, play, arena, serve, cluster):
        command.register(commands)
    return parser
