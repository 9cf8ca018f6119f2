#!/usr/bin/env bash
# Start a local PostgreSQL for the server's tests and print its URL; print nothing
# when it cannot be had (.ci/run then stops; make cluster says what to set). Exits 0 either way.
set -uo pipefail

user=tilerummy
password=tilerummy
database=tilerummy_test
port=${TILERUMMY_PG_PORT:-5432}

log() { echo "postgres.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    apt_install PostgreSQL postgresql || exit 0
fi

version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -qx "$version main"; then
    pg_createcluster "$version" main -p "$port" >&2 || { log "could not create a cluster"; exit 0; }
fi
cluster_port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    pg_ctlcluster "$version" main start >&2 || { log "could not start the cluster"; exit 0; }
fi

as_postgres() { runuser -u postgres -- "$@" 2>/dev/null || su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }

for _ in $(seq 1 30); do
    as_postgres psql -p "$cluster_port" -tAc "SELECT 1" >/dev/null 2>&1 && break
    sleep 1
done
as_postgres psql -q -p "$cluster_port" -v ON_ERROR_STOP=1 -tAc \
    "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN CREATE ROLE $user LOGIN PASSWORD '$password'; END IF; END \$\$;" >&2 \
    || { log "could not create the role"; exit 0; }
if [ "$(as_postgres psql -p "$cluster_port" -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
    as_postgres createdb -p "$cluster_port" -O "$user" "$database" >&2 || { log "could not create the database"; exit 0; }
fi
echo "postgresql://$user:$password@127.0.0.1:$cluster_port/$database"
