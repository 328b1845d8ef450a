#!/usr/bin/env bash
# The synchronous standby, switched off and on by the standby's presence: run on the primary
# every few seconds (brag-sync-guard.timer), as the PostgreSQL server's user.
#
#   - the standby is not streaming: synchronous_standby_names is emptied, so that a commit no
#     longer waits for a standby that is not there (the hall goes on; what is entered now is on
#     one machine until the standby is back);
#   - the standby streams and is within BRAG_SYNC_CATCHUP_BYTES of the primary: it is set back,
#     and commits wait for the standby again.
#
# Both are said on /readyz and on the organisers' dashboard (core.replication). Without this
# guard (the timer not enabled) a standby that goes away holds every write until the operator
# runs this script or `ALTER SYSTEM SET synchronous_standby_names = ''`; the dashboard says so.
#
#   BRAG_STANDBY_NAME        the standby's name (default brag_standby)
#   BRAG_PG_CONNINFO         how to reach the primary (default: its local socket)
#   BRAG_SYNC_CATCHUP_BYTES  how close the standby must be to be waited for again (default 1 MB)
#   PG_BIN                   PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
set -euo pipefail

name="${BRAG_STANDBY_NAME:-brag_standby}"
conninfo="${BRAG_PG_CONNINFO:-dbname=postgres}"
catchup="${BRAG_SYNC_CATCHUP_BYTES:-1048576}"
export PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
case "$name" in '' | *[!a-z0-9_]*) echo "sync-guard: bad BRAG_STANDBY_NAME" >&2; exit 2 ;; esac
case "$catchup" in '' | *[!0-9]*) echo "sync-guard: bad BRAG_SYNC_CATCHUP_BYTES" >&2; exit 2 ;; esac
sql() { psql --no-psqlrc -X -At -v ON_ERROR_STOP=1 -d "$conninfo" -c "$1"; }

[ "$(sql 'SELECT pg_is_in_recovery()')" = "f" ] || exit 0 # a standby: nothing to guard
current="$(sql 'SHOW synchronous_standby_names')"
ready="$(sql "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$name'
    AND state = 'streaming' AND pg_wal_lsn_diff(pg_current_wal_lsn(), flush_lsn) <= $catchup")"
if [ "$ready" = "0" ] && [ -n "$current" ]; then
    sql "ALTER SYSTEM SET synchronous_standby_names = ''" >/dev/null
    sql "SELECT pg_reload_conf()" >/dev/null
    echo "sync-guard: the standby $name is not connected: the primary goes on alone" >&2
elif [ "$ready" != "0" ] && [ "$current" != "$name" ]; then
    sql "ALTER SYSTEM SET synchronous_standby_names = '$name'" >/dev/null
    sql "SELECT pg_reload_conf()" >/dev/null
    echo "sync-guard: the standby $name has caught up: commits wait for it again" >&2
fi
