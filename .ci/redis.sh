#!/usr/bin/env bash
# Start a Redis for the cluster's tests on a free loopback port and print its URL; print
# nothing (and let those tests skip) when it cannot be had. Best effort: never fails the run.
# The server runs in the background until the machine stops it (it keeps nothing on disk).
set -uo pipefail

log() { echo "redis.sh: $*" >&2; }

if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        log "no redis-server and no way to install it"
        exit 0
    fi
    log "installing Redis"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get update -qq >&2 || true
    if ! timeout 900 apt-get install -y -qq redis-server >&2; then
        log "could not install Redis"
        exit 0
    fi
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
