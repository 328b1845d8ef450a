#!/usr/bin/env bash
# The nightly base backup (brag-base-backup.timer): a copy of the whole cluster with
# pg_basebackup, from which deploy/restore.sh --to rewinds to any moment since, replaying the WAL
# archive. Run as the PostgreSQL server's user, on the primary's machine (or any machine that
# reaches it as a replication user).
#
#   deploy/base-backup.sh [DIRECTORY]      prints the new backup's directory on stdout
#
#   BRAG_BASE_BACKUP_DIR   where backups go when no DIRECTORY is given
#                          (default /var/backups/brag-event/base)
#   BRAG_BASE_BACKUP_KEEP  how many to keep, the newest (default 7)
#   BRAG_WAL_ARCHIVE       the WAL archive (default /var/lib/brag-event/wal-archive): segments
#                          older than the oldest kept backup are removed (pg_archivecleanup)
#   BRAG_PG_CONNINFO       how to reach the primary (default: its local socket)
#   BRAG_PG_DATABASE       Brag Event's database, where the backup is recorded for /readyz and
#                          the dashboard (default brag)
#   PG_BIN                 PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
#
# Each backup is a directory base-YYYYmmddTHHMMSSZ holding base.tar.gz and pg_wal.tar.gz (the
# WAL the copy needs, so it restores even without the archive); written under a temporary name
# and renamed when whole. Its time is recorded in brag_ops.base_backup.
set -euo pipefail

log() { printf 'base-backup: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

dir="${1:-${BRAG_BASE_BACKUP_DIR:-/var/backups/brag-event/base}}"
keep="${BRAG_BASE_BACKUP_KEEP:-7}"
archive="${BRAG_WAL_ARCHIVE:-/var/lib/brag-event/wal-archive}"
conninfo="${BRAG_PG_CONNINFO:-}"
database="${BRAG_PG_DATABASE:-brag}"
export PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
case "$keep" in '' | *[!0-9]* | 0) die "BRAG_BASE_BACKUP_KEEP must be a whole number of at least 1" ;; esac

umask 077
mkdir -p "$dir"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
label="brag base $stamp"
final="$dir/base-$stamp"
[ ! -e "$final" ] || die "$final exists already"
partial="$final.partial"
trap 'rm -rf "$partial"' EXIT

log "copying the cluster into $final"
pg_basebackup --pgdata="$partial" ${conninfo:+--dbname="$conninfo"} --format=tar --gzip \
    --wal-method=stream --checkpoint=fast --label="$label" --no-password
mv "$partial" "$final"
trap - EXIT

psql --no-psqlrc -X -q -v ON_ERROR_STOP=1 -d "${conninfo:+$conninfo }dbname=$database" <<SQL
CREATE SCHEMA IF NOT EXISTS brag_ops;
CREATE TABLE IF NOT EXISTS brag_ops.base_backup (
    finished_at timestamptz NOT NULL DEFAULT now(),
    label text NOT NULL,
    path text NOT NULL
);
INSERT INTO brag_ops.base_backup (label, path) VALUES ('$label', '$final');
SQL

# Keep the newest $keep; then the archive needs nothing older than the oldest one kept.
shopt -s nullglob
backups=("$dir"/base-*)
backups=("${backups[@]/*.partial/}")
mapfile -t backups < <(printf '%s\n' "${backups[@]}" | sed '/^$/d' | sort)
if [ "${#backups[@]}" -gt "$keep" ]; then
    for old in "${backups[@]:0:$((${#backups[@]} - keep))}"; do
        log "removing old base backup $old"
        rm -rf -- "$old"
    done
    backups=("${backups[@]:$((${#backups[@]} - keep))}")
fi
oldest_label="brag base ${backups[0]##*/base-}"
if [ -d "$archive" ]; then
    # The backup history file that PostgreSQL archived for the oldest backup kept.
    history="$(grep -l -x "LABEL: $oldest_label" "$archive"/*.backup 2>/dev/null | head -n 1 || true)"
    if [ -n "$history" ]; then
        log "removing archived WAL older than $oldest_label"
        pg_archivecleanup "$archive" "${history##*/}"
    fi
fi
log "done: $(du -sh "$final" | cut -f1)"
printf '%s\n' "$final"
