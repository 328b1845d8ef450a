#!/usr/bin/env bash
# Restore a backup made by deploy/backup.sh into a FRESH database, then prove it:
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
# Exit status: 0 restored and audited; 1 any failure (the audit's report is printed).
# To switch production to the restored database, stop brag-event.target, point DATABASE_URL
# in /etc/brag-event/env at it, start brag-event.target (docs/operations.md, "Restore").
set -euo pipefail

log() { printf 'restore: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

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

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${PYTHON:-}" ]; then
    if [ -x "$root/.venv/bin/python" ]; then PYTHON="$root/.venv/bin/python"; else PYTHON=python3; fi
fi

tables="$(psql --no-psqlrc --no-password --quiet --tuples-only --no-align --dbname="$target" \
    -c "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")"
[ "$tables" = "0" ] || die "the target database is not empty ($tables tables): restore into a fresh one"

log "restoring $backup"
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --no-password \
    --dbname="$target" "$backup"

cd "$root"
export DATABASE_URL="$target"
log "checking migrations"
"$PYTHON" manage.py migrate --check --noinput >&2 || die "migrations are missing in the restored database (or the code is newer: run migrate)"
log "auditing the ledger"
"$PYTHON" manage.py audit_ledger || die "the ledger audit FAILED on the restored database"
log "restored and audited: $(printf '%s' "$target" | sed -E 's#//([^:/@]+):[^@]*@#//\1:***@#')"
