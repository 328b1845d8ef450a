#!/usr/bin/env bash
# compose's primary, at its first start only (/docker-entrypoint-initdb.d): let the standby
# service (compose profile "standby") stream from it as the database's owner, with a password.
# A data volume made before this script existed keeps its pg_hba.conf: add the line by hand
# (docs/operations.md, "Standby and point-in-time recovery").
set -euo pipefail
echo "host replication ${POSTGRES_USER} all scram-sha-256" >>"$PGDATA/pg_hba.conf"
