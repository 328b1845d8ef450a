#!/usr/bin/env bash
# PostgreSQL's archive_command (deploy/postgres/primary.conf): copy one finished WAL segment into
# the archive directory, durably, and never over a different file of the same name.
#
#   archive_command = '/srv/brag-event/deploy/archive-wal.sh %p %f'
#
#   BRAG_WAL_ARCHIVE   the archive directory (default /var/lib/brag-event/wal-archive); set it
#                      for the server with `systemctl edit postgresql@15-main` (Environment=)
#
# Exit status 0 only once the segment is in the archive under its name and on disk: PostgreSQL
# then recycles it. Anything else makes PostgreSQL keep the segment and call again (and
# pg_stat_archiver counts the failure, which /readyz and the dashboard report).
set -euo pipefail

[ "$#" -eq 2 ] || { echo "usage: $0 %p %f" >&2; exit 2; }
source_path="$1"
name="$2"
archive="${BRAG_WAL_ARCHIVE:-/var/lib/brag-event/wal-archive}"
target="$archive/$name"

if [ -e "$target" ]; then
    # Called again for a segment already archived (a crash between the copy and PostgreSQL
    # noting it): fine if it is the same file, an error if not.
    cmp -s "$source_path" "$target" && exit 0
    echo "archive-wal: $target exists and differs from $source_path" >&2
    exit 1
fi
mkdir -p "$archive"
partial="$target.partial.$$"
trap 'rm -f "$partial"' EXIT
cp "$source_path" "$partial"
sync "$partial"
mv "$partial" "$target"
trap - EXIT
sync "$archive"
