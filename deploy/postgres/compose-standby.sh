#!/usr/bin/env bash
# compose's standby (profile "standby"): on its first start, an empty data volume is made the
# primary's hot standby with deploy/standby-init.sh (pg_basebackup, its replication slot, the
# recovery settings); then, every start, PostgreSQL itself, streaming from the primary. Runs as
# the image's postgres user. Promote it with deploy/failover.sh (docs/operations.md).
set -euo pipefail
: "${PGDATA:?}" "${POSTGRES_USER:?}" "${POSTGRES_PASSWORD:?}"
export BRAG_STANDBY_NAME="${BRAG_STANDBY_NAME:-brag_standby}"
export PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready -q -h postgres -U "$POSTGRES_USER"; do sleep 1; done
    /deploy/standby-init.sh \
        "host=postgres user=$POSTGRES_USER password=$POSTGRES_PASSWORD" "$PGDATA"
fi
exec postgres -c hot_standby=on
