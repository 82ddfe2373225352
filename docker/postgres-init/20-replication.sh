#!/bin/sh
# Runs once, as the superuser, when the primary's data volume is first initialised: the role
# the read replica (docker/compose.yaml, db-replica) streams the WAL as, and the pg_hba line
# that lets it connect for replication from the compose network. wal_level=replica and
# max_wal_senders=10 are PostgreSQL's defaults.
set -eu

if [ -z "${REPLICATION_PASSWORD:-}" ]; then
  echo "REPLICATION_PASSWORD is empty: no replication role; a replica cannot connect." >&2
  exit 0
fi

psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
