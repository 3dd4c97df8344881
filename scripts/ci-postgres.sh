#!/usr/bin/env bash
# Start a throwaway local PostgreSQL cluster (Debian's postgresql package) for
# the server tests and print its URL on stdout — everything else goes to stderr:
#
#   export CARDTABLE_TEST_PG="$(bash scripts/ci-postgres.sh)"
#   .venv/bin/pytest tests/server        # now runs against SQLite and PostgreSQL
#
# Runs as root (CI and the developer machines are root).  Installs the package
# if it is missing, creates a cluster "cardtable" on port $CARDTABLE_PG_PORT
# (default 54329) with trust authentication on 127.0.0.1 only, starts it, and
# (re)creates an empty database "cardtable_test".  Stop it with:
#   pg_ctlcluster <version> cardtable stop
set -euo pipefail

PORT="${CARDTABLE_PG_PORT:-54329}"
CLUSTER=cardtable
DB=cardtable_test

log() { echo "ci-postgres: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    log "installing postgresql (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi
VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"

if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$VERSION $CLUSTER"; then
    log "creating cluster $VERSION/$CLUSTER on port $PORT"
    pg_createcluster "$VERSION" "$CLUSTER" -p "$PORT" -- --auth-local=trust --auth-host=trust >&2
fi
CONF="/etc/postgresql/$VERSION/$CLUSTER/postgresql.conf"
# Tests only: no fsync wait per commit, loopback only.
grep -q "^# cardtable-ci" "$CONF" || cat >> "$CONF" <<CONFEOF
# cardtable-ci
listen_addresses = '127.0.0.1'
port = $PORT
max_connections = 100
CONFEOF

if ! pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {print $4}' | grep -q online; then
    log "starting cluster $VERSION/$CLUSTER"
    pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi

for _ in $(seq 1 50); do
    if su postgres -c "psql -h 127.0.0.1 -p $PORT -d postgres -tAc 'SELECT 1'" >/dev/null 2>&1; then
        break
    fi
    sleep 0.2
done
su postgres -c "psql -h 127.0.0.1 -p $PORT -d postgres -q -c 'DROP DATABASE IF EXISTS $DB WITH (FORCE)' -c 'CREATE DATABASE $DB'" >&2
echo "postgresql://postgres@127.0.0.1:$PORT/$DB"
