"""``tilerummy cluster``: several server processes on this machine acting as one service.

Each process is a ``tilerummy serve --redis ... --reuse-port``: they all listen on
one port and the system hands each new connection to one of them; each also
listens on a port of its own (the shared port plus 1, 2, ...), where the players
of its rooms who came in through another process are told to reconnect, so that
their messages are not relayed. Without
``--redis`` a Redis is started here for the cluster's lifetime. A process that
stops is reported and started again; its rooms have moved to the others meanwhile.
For several machines, run ``tilerummy serve --redis`` on each (``docs/deploy.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING

from ..errors import TilerummyError

if TYPE_CHECKING:
    from ._common import Commands

#: How often the processes are looked at, in seconds.
WATCH_SECONDS = 0.5
#: Seconds a Redis started here has to answer.
REDIS_START_SECONDS = 10.0


def register(commands: Commands) -> None:
    cluster = commands.add_parser(
        "cluster",
        help="run several server processes on this machine as one service",
        description="Start N server processes sharing one port, one Redis and one PostgreSQL database; "
        "any of them serves any player, and the rooms of one that stops move to the others.",
    )
    cluster.add_argument("--processes", type=int, default=2, metavar="N", help="server processes (default 2)")
    cluster.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    cluster.add_argument("--port", type=int, default=8000, help="the port they share (default 8000)")
    cluster.add_argument("--db", required=True, metavar="URL", help="the PostgreSQL database (postgresql://...)")
    cluster.add_argument("--redis", metavar="URL", help="a Redis (redis://HOST:PORT/N); default: start one here")
    cluster.add_argument("--cluster-name", default="tilerummy", metavar="NAME", help="the prefix of its Redis keys")
    cluster.add_argument("--bot-workers", type=int, default=1, metavar="N", help="bot processes of each server")
    cluster.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from .serve import _check_address, _check_cluster, _check_database

    if not 1 <= args.processes <= 64:
        raise TilerummyError(f"--processes {args.processes}: choose 1 to 64")
    if args.bot_workers < 0:
        raise TilerummyError("--bot-workers is 0 or more")
    _check_address(args.host, args.port, reuse_port=True)
    direct_ports = [args.port + 1 + index for index in range(args.processes)]
    if direct_ports[-1] > 65535:
        raise TilerummyError(f"--port {args.port}: the processes' own ports above it go past 65535")
    for port in direct_ports:
        _check_address(args.host, port)
    if not args.db.startswith(("postgresql://", "postgres://")):
        raise TilerummyError("--db: a cluster shares a PostgreSQL database (postgresql://...)")
    _check_database(args.db)
    with local_redis(args.redis) as redis:
        _check_cluster(redis, args.db)
        commands = [
            [
                sys.executable,
                "-m",
                "tilerummy.cli",
                "serve",
                "--reuse-port",
                *("--host", args.host, "--port", str(args.port), "--direct-port", str(port)),
                *("--db", args.db, "--redis", redis),
                *("--cluster-name", args.cluster_name, "--bot-workers", str(args.bot_workers)),
            ]
            for port in direct_ports
        ]
        processes = [subprocess.Popen(command) for command in commands]
        print(
            f"tilerummy cluster: {len(processes)} server processes (pids {', '.join(str(p.pid) for p in processes)}) "
            f"on http://{args.host}:{args.port}/ with Redis at {redis}; each also alone on port "
            f"{', '.join(str(port) for port in direct_ports)} (Ctrl-C stops them)",
            flush=True,
        )
        _stop_on_sigterm()
        try:
            _watch(processes, commands)
        except KeyboardInterrupt:
            pass
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    return 0


def _watch(processes: list[subprocess.Popen[bytes]], commands: list[list[str]]) -> None:
    """Start again each process that stops, for as long as the cluster runs."""
    while True:
        time.sleep(WATCH_SECONDS)
        for index, process in enumerate(processes):
            code = process.poll()
            if code is not None:
                processes[index] = subprocess.Popen(commands[index])
                print(
                    f"tilerummy cluster: process {process.pid} stopped (exit {code}); its rooms move to the others; "
                    f"started process {processes[index].pid} in its place",
                    flush=True,
                )


def _stop_on_sigterm() -> None:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


@contextlib.contextmanager
def local_redis(url: str | None) -> Iterator[str]:
    """The Redis given, or one started here on a free loopback port and stopped afterwards."""
    if url is not None:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise TilerummyError("no redis-server here: install Redis, or give one with --redis URL")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing on disk: the cluster's Redis holds only leases and heartbeats, which the processes put back.
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        # Its own session: a Ctrl-C stops the servers first, then this Redis, not all at once.
        start_new_session=True,
    )
    started = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for_redis(started, server)
        yield started
    finally:
        server.terminate()
        server.wait()


def _wait_for_redis(url: str, server: subprocess.Popen[bytes]) -> None:
    from ..server.cluster import ClusterError, check_redis

    deadline = time.monotonic() + REDIS_START_SECONDS
    while True:
        try:
            check_redis(url)
            return
        except ClusterError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise TilerummyError("the Redis started here did not answer") from None
            time.sleep(0.1)
