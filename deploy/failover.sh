#!/usr/bin/env bash
# Promote the hot standby: it becomes the primary and takes writes. Run on the standby's
# machine, as the PostgreSQL server's user, once the primary's machine is gone for good (or
# fenced: powered off, its PostgreSQL stopped) — never while the old primary still takes writes.
#
#   deploy/failover.sh [DATA_DIRECTORY]      (default /var/lib/postgresql/15/main)
#
#   BRAG_PG_CONNINFO  how to reach the standby's own server (default: its local socket)
#   PG_BIN            PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
#
# First it stops waiting for a standby of its own (synchronous_standby_names emptied, as the
# sync guard would: there is none yet), then promotes (pg_ctl promote, waiting until it takes
# writes). Web nodes and workers need nothing: their DATABASE_URL lists both machines with
# target_session_attrs=read-write, so their next connection reaches this one. Prints the
# seconds it took.
set -euo pipefail

log() { printf 'failover: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

data="${1:-/var/lib/postgresql/15/main}"
conninfo="${BRAG_PG_CONNINFO:-dbname=postgres}"
export PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
sql() { psql --no-psqlrc -X -At -v ON_ERROR_STOP=1 -d "$conninfo" -c "$1"; }

[ -f "$data/standby.signal" ] || die "$data is not a standby's (no standby.signal): nothing to promote"
start=$(date +%s.%N)
# ALTER SYSTEM writes postgresql.auto.conf, which a standby may do; it applies at once.
sql "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
sql "SELECT pg_reload_conf()" >/dev/null
pg_ctl promote -D "$data" -w -t 60 >&2
[ "$(sql 'SELECT pg_is_in_recovery()')" = "f" ] || die "promoted, yet still in recovery"
end=$(date +%s.%N)
log "this machine is the primary; make a new standby of the old one (docs/operations.md)"
awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }'
