#!/usr/bin/env bash
# Start a Redis for the cluster's tests on a free loopback port and print its URL; print
# nothing when it cannot be had (.ci/run then stops). Exits 0 either way.
# The server runs in the background until the machine stops it (it keeps nothing on disk).
set -uo pipefail

log() { echo "redis.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"

if ! command -v redis-server >/dev/null 2>&1; then
    apt_install Redis redis-server || exit 0
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
    || { log "no free port"; exit 0; }
# No snapshots and no append-only file: the tests' data lives only as long as the server.
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --logfile "${TMPDIR:-/tmp}/tilerummy-redis-$port.log" >&2 || { log "could not start redis-server"; exit 0; }
for _ in $(seq 1 50); do
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then
        echo "redis://127.0.0.1:$port/0"
        exit 0
    fi
    sleep 0.1
done
log "redis-server did not answer on port $port"
exit 0
