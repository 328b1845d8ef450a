#!/usr/bin/env bash
# Restore a backup made by deploy/backup.sh into a FRESH database, or rewind the whole cluster
# to a moment from a base backup and the WAL archive (--to, below), then prove it:
# every migration is applied (`manage.py migrate --check`) and the ledger audit passes
# (`manage.py audit_ledger`: transfers balance, money is conserved, cached balances match the
# ledger, every hand replays to exactly its transfers).
#
#   deploy/restore.sh BACKUP.dump postgres://user:password@host:port/new_database
#
# The target database must exist and be empty (createdb it first); this script never
# overwrites a database that has tables. It restores in one transaction (--single-transaction
# --exit-on-error: all or nothing), without the original owner and grants (--no-owner
# --no-privileges: objects belong to the user of the URL).
#
#   PYTHON                 the project's Python (default: .venv/bin/python next to this
#                          checkout, else python3)
#   DJANGO_SETTINGS_MODULE as usual; production settings also need DJANGO_SECRET_KEY,
#                          DJANGO_ALLOWED_HOSTS and CELERY_BROKER_URL in the environment
#
# Rewinding to a moment ("restore to 14:32, before the wrong import"), into a fresh cluster:
#
#   deploy/restore.sh --to '2026-11-28 14:32:00 Europe/London' BASE_BACKUP_DIR NEW_DATA_DIR
#
# as the PostgreSQL server's user: the base backup (deploy/base-backup.sh; the newest one older
# than the moment) is unpacked into NEW_DATA_DIR (absent or empty), the archived WAL
# (BRAG_WAL_ARCHIVE, default /var/lib/brag-event/wal-archive) replayed up to the moment and not
# past it, and the cluster started on port BRAG_RESTORE_PORT (default 5433, its socket in
# NEW_DATA_DIR) taking writes, archiving nothing; then the audit as above, on its database
# BRAG_PG_DATABASE (default brag). PG_BIN: PostgreSQL's programs (/usr/lib/postgresql/15/bin).
# The moment needs its zone (or is the server's); anything PostgreSQL reads as a timestamptz.
# BRAG_RESTORE_AUDIT=false leaves the audit out (when the server's user cannot run the project's
# Python): then run `deploy/restore.sh --audit DATABASE_URL` (the URL it prints) as the project's
# user.
#
# Exit status: 0 restored and audited; 1 any failure (the audit's report is printed).
# To switch production to the restored database, stop brag-event.target, point DATABASE_URL
# in /etc/brag-event/env at it, start brag-event.target (docs/operations.md, "Restore").
set -euo pipefail

log() { printf 'restore: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${PYTHON:-}" ]; then
    if [ -x "$root/.venv/bin/python" ]; then PYTHON="$root/.venv/bin/python"; else PYTHON=python3; fi
fi

audit() { # DATABASE_URL: migrations complete, the ledger audit passes
    cd "$root"
    export DATABASE_URL="$1"
    log "checking migrations"
    "$PYTHON" manage.py migrate --check --noinput >&2 || die "migrations are missing in the restored database (or the code is newer: run migrate)"
    log "auditing the ledger"
    "$PYTHON" manage.py audit_ledger || die "the ledger audit FAILED on the restored database"
}

if [ "${1:-}" = "--audit" ]; then
    [ "$#" -eq 2 ] || die "usage: $0 --audit DATABASE_URL"
    audit "$2"
    log "audited"
    exit 0
fi

if [ "${1:-}" = "--to" ]; then
    [ "$#" -eq 4 ] || die "usage: $0 --to 'YYYY-MM-DD HH:MM:SS ZONE' BASE_BACKUP_DIR NEW_DATA_DIR"
    moment="$2"
    base="$3"
    data="$4"
    archive="${BRAG_WAL_ARCHIVE:-/var/lib/brag-event/wal-archive}"
    port="${BRAG_RESTORE_PORT:-5433}"
    database="${BRAG_PG_DATABASE:-brag}"
    export PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
    [ -r "$base/base.tar.gz" ] || die "$base holds no base.tar.gz (a directory from deploy/base-backup.sh)"
    [ -d "$archive" ] || die "no WAL archive at $archive"
    case "$port" in '' | *[!0-9]*) die "BRAG_RESTORE_PORT must be a port number" ;; esac
    case "$moment" in *"'"*) die "the moment cannot hold a quote" ;; esac
    if [ -d "$data" ] && [ -n "$(ls -A "$data")" ]; then
        die "$data is not empty: restore into a fresh directory"
    fi
    mkdir -p "$data"
    chmod 700 "$data"
    log "unpacking $base"
    tar -xzf "$base/base.tar.gz" -C "$data"
    mkdir -p "$data/pg_wal"
    if [ -r "$base/pg_wal.tar.gz" ]; then tar -xzf "$base/pg_wal.tar.gz" -C "$data/pg_wal"; fi
    rm -f "$data/standby.signal" "$data/postmaster.pid"
    # Last in postgresql.auto.conf, so these win: replay up to the moment and stop there, take
    # writes, archive nothing (the real archive is the old timeline's), wait for no standby.
    cat >>"$data/postgresql.auto.conf" <<CONF
# deploy/restore.sh --to
restore_command = 'cp $archive/%f %p'
recovery_target_time = '$moment'
recovery_target_inclusive = off
recovery_target_action = 'promote'
archive_mode = off
synchronous_standby_names = ''
primary_conninfo = ''
primary_slot_name = ''
cluster_name = 'brag_restored'
port = $port
listen_addresses = ''
unix_socket_directories = '$data'
CONF
    touch "$data/recovery.signal"
    log "replaying the archive up to $moment"
    pg_ctl start -D "$data" -l "$data/restore.log" -w -t 600 >&2 || {
        tail -n 20 "$data/restore.log" >&2
        die "the restored cluster did not start"
    }
    for _ in $(seq 1 600); do
        state="$(psql --no-psqlrc -X -At -h "$data" -p "$port" -d postgres -c 'SELECT pg_is_in_recovery()' 2>/dev/null || true)"
        [ "$state" = "f" ] && break
        if ! pg_ctl status -D "$data" >/dev/null 2>&1; then
            tail -n 20 "$data/restore.log" >&2
            die "recovery stopped (see above: a moment before the base backup, or past the archive?)"
        fi
        sleep 0.5
    done
    [ "$state" = "f" ] || die "recovery did not finish in 5 minutes"
    grep -h "recovery stopping" "$data/restore.log" >&2 || true
    url="postgres://$(id -un)@$(printf '%s' "$data" | sed 's#/#%2F#g'):$port/$database"
    if [ "${BRAG_RESTORE_AUDIT:-true}" = "false" ]; then
        log "rewound to $moment: the cluster in $data runs on port $port; audit it with"
        log "  $0 --audit '$url'"
        exit 0
    fi
    audit "$url"
    log "rewound to $moment and audited: the cluster in $data runs on port $port"
    exit 0
fi

[ "$#" -eq 2 ] || die "usage: $0 BACKUP.dump TARGET_DATABASE_URL"
backup="$1"
target="$2"
[ -r "$backup" ] || die "cannot read $backup"
case "$target" in
    postgres://* | postgresql://*) ;;
    *) die "the target must be a postgres:// URL" ;;
esac
for tool in pg_restore psql; do
    command -v "$tool" >/dev/null || die "$tool not found (install postgresql-client)"
done

tables="$(psql --no-psqlrc --no-password --quiet --tuples-only --no-align --dbname="$target" \
    -c "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")"
[ "$tables" = "0" ] || die "the target database is not empty ($tables tables): restore into a fresh one"

log "restoring $backup"
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --no-password \
    --dbname="$target" "$backup"

audit "$target"
log "restored and audited: $(printf '%s' "$target" | sed -E 's#//([^:/@]+):[^@]*@#//\1:***@#')"
