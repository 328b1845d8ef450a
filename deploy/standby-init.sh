#!/usr/bin/env bash
# Make this machine the hot standby of the primary: a base backup streamed from it
# (pg_basebackup), a replication slot on the primary so that it keeps the WAL the standby has
# not received, and the recovery settings (-R: standby.signal and primary_conninfo) written in.
# Run as the PostgreSQL server's user, with the standby's cluster stopped and its data
# directory empty or absent (docs/operations.md, "Standby and point-in-time recovery").
#
#   deploy/standby-init.sh 'host=10.0.0.1 user=replicator' /var/lib/postgresql/15/main
#
#   BRAG_STANDBY_NAME  the standby's name: its cluster_name, which the primary's
#                      synchronous_standby_names waits for, and its slot (default brag_standby)
#   PG_BIN             PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
#
# The primary's settings come with the backup (deploy/postgres/primary.conf): they take effect
# when this standby is promoted (deploy/failover.sh). Start it afterwards (pg_ctl start, or
# systemctl start postgresql@15-main); it is connected once the dashboard's alert is gone.
set -euo pipefail

log() { printf 'standby-init: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[ "$#" -eq 2 ] || die "usage: $0 PRIMARY_CONNINFO DATA_DIRECTORY"
primary="$1"
data="$2"
name="${BRAG_STANDBY_NAME:-brag_standby}"
export PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
case "$name" in
    '' | *[!a-z0-9_]*) die "BRAG_STANDBY_NAME must be lower-case letters, digits and _" ;;
esac
if [ -d "$data" ] && [ -n "$(ls -A "$data")" ]; then
    die "$data is not empty: move it away first (a standby starts from a fresh copy)"
fi

# A slot left from an earlier standby of this name holds WAL from then: start afresh.
slot="$(psql --no-psqlrc -X -At -d "$primary dbname=postgres" \
    -c "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '$name'")"
if [ "$slot" != "0" ]; then
    log "dropping the primary's old slot $name"
    psql --no-psqlrc -X -At -d "$primary dbname=postgres" \
        -c "SELECT pg_drop_replication_slot('$name')" >/dev/null
fi

log "copying the primary into $data"
mkdir -p "$data"
chmod 700 "$data"
pg_basebackup --pgdata="$data" --dbname="$primary" --write-recovery-conf --wal-method=stream \
    --create-slot --slot="$name" --checkpoint=fast --no-password
# The standby's name, which its WAL receiver gives the primary as its application_name.
printf "cluster_name = '%s'\n" "$name" >>"$data/postgresql.auto.conf"
log "done: start the standby's cluster"
