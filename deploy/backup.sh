#!/usr/bin/env bash
# Back up Brag Event's PostgreSQL database: one pg_dump in custom format (-Fc: compressed,
# restorable table by table with pg_restore) into a timestamped file, keeping the newest N.
#
#   deploy/backup.sh [DIRECTORY]          prints the path of the new backup on stdout
#
#   DATABASE_URL        the database (postgres://user:password@host:port/name). When unset, it
#                       is read from $BRAG_ENV_FILE (default /etc/brag-event/env).
#   BRAG_BACKUP_DIR     directory when none is given (default /var/backups/brag-event)
#   BRAG_BACKUP_KEEP    how many backups to keep, the newest (default 14)
#   BRAG_BACKUP_PREFIX  file name prefix (default brag-event)
#
# The dump is written to a temporary name, checked with `pg_restore --list`, then renamed:
# a backup that fails half-way never replaces a good one and is never counted as one.
# Restore with deploy/restore.sh (into a fresh database); the CI test
# tests/deploy/test_backup_restore.py proves that a backup restores and passes the ledger audit.
set -euo pipefail

log() { printf 'backup: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

env_file="${BRAG_ENV_FILE:-/etc/brag-event/env}"
if [ -z "${DATABASE_URL:-}" ] && [ -r "$env_file" ]; then
    DATABASE_URL="$(sed -n 's/^[[:space:]]*DATABASE_URL[[:space:]]*=[[:space:]]*//p' "$env_file" | tail -n 1)"
    DATABASE_URL="${DATABASE_URL%\"}"; DATABASE_URL="${DATABASE_URL#\"}"
    DATABASE_URL="${DATABASE_URL%\'}"; DATABASE_URL="${DATABASE_URL#\'}"
fi
[ -n "${DATABASE_URL:-}" ] || die "DATABASE_URL is not set (nor in $env_file)"
case "$DATABASE_URL" in
    postgres://* | postgresql://*) ;;
    *) die "DATABASE_URL must be postgres://… (pg_dump backs up PostgreSQL only)" ;;
esac

dir="${1:-${BRAG_BACKUP_DIR:-/var/backups/brag-event}}"
keep="${BRAG_BACKUP_KEEP:-14}"
prefix="${BRAG_BACKUP_PREFIX:-brag-event}"
case "$keep" in
    '' | *[!0-9]* | 0) die "BRAG_BACKUP_KEEP must be a whole number of at least 1" ;;
esac
command -v pg_dump >/dev/null || die "pg_dump not found (install postgresql-client)"

umask 077 # a backup holds every player's money and the staff's password hashes
mkdir -p "$dir"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
path="$dir/$prefix-$stamp.dump"
n=1
while [ -e "$path" ]; do # two backups within the same second
    path="$dir/$prefix-$stamp-$n.dump"
    n=$((n + 1))
done
partial="$path.partial"
trap 'rm -f "$partial"' EXIT

log "dumping into $path"
pg_dump --format=custom --compress=6 --no-password --dbname="$DATABASE_URL" --file="$partial"
pg_restore --list "$partial" >/dev/null || die "the dump does not read back: $partial"
mv "$partial" "$path"
trap - EXIT

# Keep the newest $keep backups (the names sort by time).
shopt -s nullglob
backups=("$dir/$prefix"-*.dump)
if [ "${#backups[@]}" -gt "$keep" ]; then
    mapfile -t old < <(printf '%s\n' "${backups[@]}" | sort | head -n "$((${#backups[@]} - keep))")
    for file in "${old[@]}"; do
        log "removing old backup $file"
        rm -f -- "$file"
    done
fi

log "done: $(du -h "$path" | cut -f1)"
printf '%s\n' "$path"
