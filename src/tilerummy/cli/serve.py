"""``tilerummy serve``: the server for online play."""

from __future__ import annotations

import argparse
import json
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import TilerummyError
from ..tiles import shorten

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
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="run as one of many processes sharing this Redis (redis://HOST:PORT/N) and a PostgreSQL --db",
    )
    serve.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the port with other server processes on this machine (the system spreads connections)",
    )
    serve.add_argument(
        "--direct-port",
        type=int,
        metavar="PORT",
        help="with --redis: listen on this port as well, this process alone; players of its rooms who "
        "came in through another process are told to reconnect here (ws://HOST:PORT/ws), saving a relay",
    )
    serve.add_argument(
        "--direct-url",
        metavar="URL",
        help="with --redis: the address (ws:// or wss://) at which clients reach this process alone, "
        "told instead of the --direct-port one (behind a proxy that routes a path to each process)",
    )
    serve.add_argument(
        "--cluster-name",
        default="tilerummy",
        metavar="NAME",
        help="with --redis: the cluster's name (its Redis keys' prefix), to keep clusters sharing a Redis apart",
    )
    serve.add_argument("--bot-workers", type=int, default=2, metavar="N", help="processes for bots (0: threads)")
    serve.add_argument("--max-rooms", type=int, default=2000, metavar="N", help="rooms open or playing at once")
    serve.add_argument(
        "--max-rooms-per-address",
        type=int,
        default=10,
        metavar="N",
        help="rooms open or playing created from one address",
    )
    serve.add_argument("--max-connections", type=int, default=5000, metavar="N", help="connections at once")
    serve.add_argument(
        "--max-connections-per-address", type=int, default=50, metavar="N", help="connections at once from one address"
    )
    serve.add_argument(
        "--public-url", metavar="URL", help="the address people reach the server at, for invite links (https://host)"
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST",
        help="a host name pages may come from besides the public URL's and loopback (repeatable)",
    )
    serve.add_argument("--schema", action="store_true", help="print the protocol's JSON Schema and exit")
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the server.
    from ..server import Settings, json_schema, serve
    from ..server.limits import ServerLimits
    from ..server.public_address import AddressError, PublicAddress, check_public_url

    if args.schema:
        print(json.dumps(json_schema(), indent=1))
        return 0
    if not 0 <= args.port <= 65535:
        raise TilerummyError(f"--port {args.port}: choose 0 to 65535")
    limits = (args.max_rooms, args.max_rooms_per_address, args.max_connections, args.max_connections_per_address)
    if args.bot_workers < 0 or min(limits) < 1:
        raise TilerummyError("--bot-workers is 0 or more, and each --max-... option 1 or more")
    try:
        public_url = check_public_url(args.public_url) if args.public_url is not None else None
    except AddressError as error:
        raise TilerummyError(str(error)) from None
    _check_address(args.host, args.port, reuse_port=args.reuse_port)
    direct_url = _direct_url(args)
    _check_database(args.db)
    _check_cluster(args.redis, args.db)
    settings = Settings(
        database=args.db,
        redis=args.redis,
        cluster_prefix=args.cluster_name,
        reuse_port=args.reuse_port,
        direct_url=direct_url,
        direct_port=args.direct_port,
        bot_workers=args.bot_workers,
        limits=ServerLimits(
            max_rooms=args.max_rooms,
            max_rooms_per_address=args.max_rooms_per_address,
            max_connections=args.max_connections,
            max_connections_per_address=args.max_connections_per_address,
        ),
        public=PublicAddress(public_url, frozenset(host.strip().lower() for host in args.allowed_host)),
    )
    serve(args.host, args.port, settings)
    return 0


def _direct_url(args: argparse.Namespace) -> str | None:
    """The address told to players whose room this process runs, from --direct-url or --direct-port.

    :raises TilerummyError: naming what is wrong with them.
    """
    if args.direct_port is None and args.direct_url is None:
        return None
    if args.redis is None:
        raise TilerummyError("--direct-port and --direct-url are for a cluster: add --redis")
    if args.direct_port is not None:
        if not 1 <= args.direct_port <= 65535 or args.direct_port == args.port:
            raise TilerummyError(f"--direct-port {args.direct_port}: choose 1 to 65535, not the --port")
        _check_address(args.host, args.direct_port, reuse_port=False)
    if args.direct_url is not None:
        if not args.direct_url.startswith(("ws://", "wss://")) or " " in args.direct_url:
            raise TilerummyError(f"--direct-url {args.direct_url}: a WebSocket address, ws://HOST:PORT/ws or wss://...")
        return str(args.direct_url)
    from ..server.app import reachable_host

    return f"ws://{reachable_host(args.host)}:{args.direct_port}/ws"


def _check_database(where: str | None) -> None:
    """Open the database once before the server starts, so that a bad one is a one-line refusal.

    :raises TilerummyError: naming what is wrong with it.
    """
    from ..server.store import open_store

    if where is not None and not where.startswith(("postgresql://", "postgres://")):
        path = Path(where)
        if not where or path.is_dir():
            raise TilerummyError(f"--db {where!r}: name a database file, not a folder")
        if not path.parent.is_dir():
            raise TilerummyError(f"--db {where}: the folder {path.parent} does not exist")
    open_store(where).close()


def _check_cluster(redis: str | None, database: str | None) -> None:
    """A cluster shares one PostgreSQL database and one Redis: refuse anything else in one line.

    :raises TilerummyError: naming what is wrong.
    """
    if redis is None:
        return
    from ..server.cluster import check_redis

    if database is None or not database.startswith(("postgresql://", "postgres://")):
        raise TilerummyError("--redis needs a PostgreSQL --db (postgresql://...) that every server process shares")
    check_redis(redis)


def _check_address(host: str, port: int, *, reuse_port: bool = False) -> None:
    """Bind the address once before the server starts, so that a bad one is a one-line refusal.

    :raises TilerummyError: for a host that is no address here, or a port that is taken.
    """
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else "not a host name"
        raise TilerummyError(f"--host {shorten(host)!r}: {reason}") from None
    with socket.socket(family, kind, protocol) as probe:
        # As the server binds: an address left in TIME_WAIT by a stopped server is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise TilerummyError(f"--host {host} --port {port}: {error.strerror or error}") from None
