#!/bin/sh
# compose's primary, on its first start (docker-entrypoint-initdb.d): let the standby service
# replicate as the database's owner (a superuser in this image), with its password.
set -e
echo "host replication ${POSTGRES_USER} all scram-sha-256" >>"$PGDATA/pg_hba.conf"
