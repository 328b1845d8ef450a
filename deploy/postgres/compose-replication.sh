#!/usr/bin/env bash
# compose's primary, on its first start (docker-entrypoint-initdb.d): let the standby service
# replicate as the database's owner (a superuser in this image), with its password.
set -euo pipefail
echo "host replication ${POSTGRES_USER} all scram-sha-256" >>"$PGDATA/pg_hba.conf"
