"""``tilerummy serve``: the server for online play."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..errors import TilerummyError

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the server for online play",
        description="Run the server where people and bots play over WebSockets (protocol: docs/protocol.md).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="SQLite file, or a postgresql:// URL (default: in the user's data directory)",
    )
    serve.add_argument("--bot-workers", type=int, default=2, metavar="N", help="processes for bots (0: threads)")
    serve.add_argument("--max-rooms", type=int, default=2000, metavar="N", help="rooms open or playing at once")
    serve.add_argument("--max-connections", type=int, default=5000, metavar="N", help="connections at once")
    serve.add_argument("--schema", action="store_true", help="print the protocol's JSON Schema and exit")
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the server.
    from ..server import Settings, json_schema, serve
    from ..server.limits import ServerLimits

    if args.schema:
        print(json.dumps(json_schema(), indent=1))
        return 0
    if not 0 <= args.port <= 65535:
        raise TilerummyError(f"--port {args.port}: choose 0 to 65535")
    if args.bot_workers < 0 or args.max_rooms < 1 or args.max_connections < 1:
        raise TilerummyError("--bot-workers is 0 or more, --max-rooms and --max-connections 1 or more")
    settings = Settings(
        database=args.db,
        bot_workers=args.bot_workers,
        limits=ServerLimits(max_rooms=args.max_rooms),
        max_connections=args.max_connections,
    )
    serve(args.host, args.port, settings)
    return 0
